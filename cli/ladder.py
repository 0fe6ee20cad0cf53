"""``balance ladder``: the skill matrix of bots, each against copies of each other, seats rotated.

May import typer, rich, :mod:`simcore`, :mod:`strategies` and :mod:`analysis`.
"""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("ladder", help="Skill matrix: one bot (row) against copies of another (column), "
                               "seats rotated; win share with 95% interval.")(ladder)


def ladder(
    bots: str = typer.Option("random,greedy,balanced,rollout", "--bots", help="Comma list of strategies."),
    games: str = typer.Option("4000", "--games", "-n", help="Games per cell (rounded up to whole rotations)."),
    players: int = typer.Option(4, "--players", "-p", help="Players per game (2-5)."),
    seed: int = typer.Option(0, "--seed"),
    threads: int = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    game: str = typer.Option("middle-ages", "--game", "-g", help="Which game (one with bots)."),
) -> None:
    import importlib

    from rich.console import Console
    from rich.table import Table

    from analysis import ladder as L
    from simcore import games as registry
    from simcore.errors import UsageError
    from simcore.options import check_seed, parse_games, set_threads

    spec = registry.get(game)
    if spec.strategies is None:
        raise UsageError(f"--game {game}: this game has no bots to rank")
    n = parse_games(games)
    spec.check_players(players)
    check_seed(seed)
    set_threads(threads)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise UsageError(f"--bots {bots!r}: name at least one strategy")
    S = importlib.import_module(spec.strategies)
    for b in names:
        S.lookup(b, option="--bots")  # validate every name before the long part
    console = Console()
    cells = {}
    with console.status("playing the ladder…"):
        for c in L.ladder(names, n, players=players, seed=seed, game=game):
            cells[(c.bot, c.opponent)] = c
    t = Table(title=f"win share of the row bot against {players - 1} copies of the column bot "
                    f"(fair {100 / players:.0f}%, {n:,} games per cell, seats rotated)",
              title_justify="left")
    t.add_column("bot \\ opponents")
    for b in names:
        t.add_column(b, justify="right")
    for a in names:
        row = []
        for b in names:
            c = cells.get((a, b))
            row.append("—" if c is None else
                       f"{100 * c.win_share:.1f}% ({100 * c.ci_low:.1f}–{100 * c.ci_high:.1f})")
        t.add_row(a, *row)
    console.print(t)
