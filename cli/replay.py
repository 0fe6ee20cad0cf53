"""``balance replay RUN --game N`` (or ``--find QUERY``): one game of a run, turn by turn.

A thin layer over :mod:`simcore.replay`: the game is played again from its seed by the kernel (for
the bots' decisions) and by the game's reference engine (for the readable log), under the rules,
bots and seat rotation the run recorded in run.json; the final figures are checked against the
run's row in players.parquet. A Fief combat (no bots, dice only) is replayed by the reference
engine alone from run.json's matchup and rules: each round's dice, the pawns that fall and who
holds the field, checked against players.parquet and games.parquet. ``--find`` picks the game by a small grammar ("a game where seat 1
loses with the highest score": ``--find 'seat=1 loses max score'``). The log goes to stdout, or
to ``--out FILE`` (written atomically, never over an existing file without ``--force``). Exit
code 1 when the replay differs from the run's row. Bad input (not a run, a game out of range, a
game without a reference engine, a query the grammar does not take) is one line, exit code 2.

May import typer, the standard library and :mod:`simcore`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    app.command("replay", help="Replay one game of a run turn by turn (decisions, draws, scores by "
                               "turn) through the reference engine and check it against the run.")(replay)


def replay(
    run: Path = typer.Argument(..., help="A run directory (simulate --out).", show_default=False),
    game: Optional[int] = typer.Option(None, "--game", help="Game number (0-based, as in players.parquet)."),
    find: Optional[str] = typer.Option(
        None, "--find", help="Pick the game: [seat=N|role=NAME|strategy=NAME] [wins|loses] "
                             "(max|min|median) COLUMN, e.g. 'seat=1 loses max score'."),
    strategies: Optional[str] = typer.Option(
        None, "--strategies", help="The run's bots, when run.json names a strategy file not found here."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write the log to this file."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    from simcore import replay as R
    from simcore.errors import UsageError

    if (game is None) == (find is None):
        raise UsageError("give --game N or --find QUERY (one of them)")
    R.check_replayable(R.read_meta(run), game)
    if out is not None and out.exists() and not force:
        raise UsageError(f"--out {out}: exists; give --force to replace it")
    why = ""
    if find is not None:
        game, why = R.find_game(run, find)
    result = R.replay(run, game, strategies)
    text = (f"# {why}\n" if why else "") + result.text
    if out is None:
        sys.stdout.write(text)
    else:
        from simcore.atomic import write_text_atomic

        write_text_atomic(out, text, force=force, option="--out")
        typer.echo(f"replay of game {game}: {out}")
    if result.row is not None and not result.matches:
        typer.echo("the replay differs from the run's row (see the CHECK FAILED lines)", err=True)
        raise typer.Exit(1)
