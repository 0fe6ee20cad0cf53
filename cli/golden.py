"""``balance golden``: print, check or regenerate the golden playthrough of every registered game.

Each game with a golden playthrough names its module in its spec (``golden``); that module renders
the fixed game's turn-by-turn log and knows its committed file under ``tests/golden/``. Without an
option it lists the games and their files; ``--game`` alone prints that game's log. ``--check``
exits 1 and prints the diff of every game whose file differs; every game is compared before a line
is written, and the verdict recorded (:func:`cli.verdict`), so that ``balance golden --check |
head -5`` exits 1 too (session 60 #1: the reader left after the diff's first lines, the next line
met the closed pipe and the command ended with 0, without comparing the games after it).
``--write`` regenerates them (atomically). ``make golden`` runs ``balance golden --write``.

May import typer, :mod:`simcore` and :func:`cli.verdict`.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    app.command("golden", help="Check (--check) or regenerate (--write) the golden playthroughs "
                               "under tests/golden/ (every game, or --game); --game alone prints "
                               "that game's playthrough, no option lists them.")(golden)


def golden(
    write: bool = typer.Option(False, "--write", help="Regenerate the committed files."),
    check: bool = typer.Option(False, "--check", help="Exit 1 with a diff if a file differs."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="Only this game."),
) -> None:
    from simcore import games as registry
    from simcore.errors import UsageError

    if write and check:
        raise UsageError("--write and --check: give one of them")
    specs = [registry.get(game)] if game else list(registry.specs().values())
    with_golden = [s for s in specs if s.golden]
    if not with_golden:
        raise UsageError(f"--game {game}: this game has no golden playthrough")
    if not (write or check or game):       # review W #9: every game's log at once was 2,906 lines
        for spec in with_golden:
            path = registry.import_hook(spec.golden).GOLDEN_PATH
            lines = len(path.read_text(encoding="utf-8").splitlines()) if path.is_file() else 0
            print(f"{spec.name}: {_shown(path)} ({lines:,} lines); balance golden --game "
                  f"{spec.name} prints it")
        print("balance golden --check compares every game's playthrough with its file; --write "
              "regenerates them")
        return
    if check:
        from cli import verdict

        mods = [(spec, registry.import_hook(spec.golden)) for spec in with_golden]
        diffs = [(spec, mod, mod.diff()) for spec, mod in mods]
        changed = any(d for _, _, d in diffs)
        if changed:
            verdict(1)          # before the first line: a reader may leave after it
        for spec, mod, d in diffs:
            if d:
                sys.stdout.write(d)
            else:
                print(f"{spec.name}: {mod.GOLDEN_PATH.name} is up to date")
        if changed:
            raise typer.Exit(1)
        return
    for spec in with_golden:
        mod = registry.import_hook(spec.golden)
        mod.main(["--write"] if write else [])


def _shown(path) -> str:
    """``path`` from the working folder when it lies under it (``tests/golden/…``), else whole."""
    from pathlib import Path

    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
