"""The golden-playthrough command line shared by every game: print, ``--write`` or ``--check``.

A game's golden module defines ``render()`` (the full text of its fixed game) and the committed
file's path, and hands both to :func:`main`; :func:`diff` is the unified diff from the committed
file to a fresh rendering ('' when identical), so a rules or engine change shows up as a readable
diff. May import the standard library and :mod:`simcore.atomic`.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Callable

from simcore.atomic import write_text_atomic


def diff(render: Callable[[], str], path: Path) -> str:
    """Unified diff from the committed ``path`` to ``render()`` ('' when identical)."""
    fresh = render()
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), fresh.splitlines(keepends=True),
                                        fromfile=str(path), tofile="regenerated"))


def main(argv: list[str] | None, render: Callable[[], str], path: Path, prog: str,
         description: str) -> int:
    """No option: print ``render()``. ``--write``: regenerate ``path`` (atomically). ``--check``:
    exit code 1 and the diff when ``path`` differs, else 0."""
    ap = argparse.ArgumentParser(prog=prog, description=description)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"regenerate {path.name}")
    group.add_argument("--check", action="store_true", help="exit 1 (with a diff) if the file differs")
    args = ap.parse_args(argv)
    if args.write:
        write_text_atomic(path, render(), force=True, option="--write")
        print(f"wrote {path}")
        return 0
    if args.check:
        d = diff(render, path)
        if d:
            sys.stdout.write(d)
            return 1
        print(f"{path.name} is up to date")
        return 0
    sys.stdout.write(render())
    return 0
