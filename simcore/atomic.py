"""The one atomic writer: run directories, reports, exports, baselines and golden files.

Nothing already on disk is lost: every output is written under a hidden temporary name beside its
target (``.<name>.tmp-<random>``) and renamed into place only when complete. A target that exists
is refused unless ``force``; with ``force`` a directory is replaced in two renames (the old one is
moved aside first, so a failure between them never loses both). Paths are checked before any work
(:func:`check_output_file`, :func:`check_output_dir`) so a bad one fails in a second, not after
an hour of simulation.

May import the standard library and :mod:`simcore.errors`.
"""

from __future__ import annotations

import os
import shutil
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from simcore.errors import UsageError


# ---------------------------------------------------------------------------------------------

def check_output_file(out: str | Path, force: bool, option: str = "--out") -> Path:
    """Refuse a directory in the way, an existing file without ``force`` or an unwritable place.

    Called before any work so that a bad path fails at once.
    """
    out = Path(out)
    if out.is_dir():
        raise UsageError(f"{option} {out}: is a directory (give a file name)")
    if out.exists() and not force:
        raise UsageError(f"{option} {out}: file exists (use --force to replace it)")
    probe = out.resolve().parent
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir() or not os.access(probe, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {out}: cannot write in {probe}")
    return out


@contextmanager
def atomic_output(out: str | Path, force: bool = False, option: str = "--out") -> Iterator[Path]:
    """Yield a temporary path beside ``out``; on success rename it to ``out`` (atomic on one file system).

    On an exception the temporary file is removed and ``out`` is left exactly as it was.
    """
    out = check_output_file(out, force, option)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{option} {out}: cannot create {out.parent}: {exc.strerror}") from None
    tmp = out.parent / f".{out.name}.tmp-{uuid.uuid4().hex[:8]}"
    try:
        yield tmp
        if not tmp.exists():
            raise RuntimeError(f"nothing was written for {out}")
        if out.exists() and not force:  # appeared while we were writing
            raise UsageError(f"{option} {out}: file exists (use --force to replace it)")
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_text_atomic(out: str | Path, text: str, force: bool = False, option: str = "--out") -> Path:
    """Write UTF-8 text to ``out`` atomically (refusing an existing file unless ``force``)."""
    with atomic_output(out, force, option) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(out)


def check_output_dir(path: str | Path, force: bool, option: str = "--out") -> Path:
    """Refuse a non-empty directory without ``force``, a file in the way, or an unwritable parent.

    Called before any game is played so bad paths fail in a second, not after an hour.
    """
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{option} {out}: exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise UsageError(f"{option} {out}: directory exists and is not empty (use --force to replace it)")
    parent = out.resolve().parent
    probe_from = parent
    while not probe_from.exists():
        probe_from = probe_from.parent
    if not probe_from.is_dir() or not os.access(probe_from, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {out}: cannot write in {probe_from}")
    return out


def temporary_dir(target: Path, option: str = "--out") -> Path:
    """Create and return a hidden temporary directory beside ``target``."""
    tmp = target.parent / f".{target.name}.tmp-{uuid.uuid4().hex[:8]}"
    try:
        tmp.mkdir(parents=True)
    except OSError as exc:
        raise UsageError(f"{option} {target}: cannot create a directory in {tmp.parent}: "
                         f"{exc.strerror}") from None
    return tmp


def publish_dir(tmp: Path, target: Path) -> Path:
    """Rename the complete ``tmp`` to ``target``; an existing ``target`` (``--force``) is moved
    aside first and removed after, so a failure cannot lose both."""
    if target.exists():
        old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
        target.rename(old)
        tmp.rename(target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(target)
    return target


@contextmanager
def atomic_dir(target: str | Path, force: bool = False, option: str = "--out") -> Iterator[Path]:
    """Yield a temporary directory beside ``target``; publish it as ``target`` on success.

    On an exception the temporary directory is removed and ``target`` is left exactly as it was."""
    out = check_output_dir(target, force, option)
    tmp = temporary_dir(out, option)
    try:
        yield tmp
        publish_dir(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
