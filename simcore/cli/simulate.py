"""``balance simulate`` (also the ``simulate`` console script): play games, write a run directory.

A thin shell: parse and check the options, let the game's adapter prepare the run, hand it to
:func:`simcore.runner.run`. Everything here is callable from Python through those functions.

May import typer, rich and :mod:`simcore`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from simcore.errors import UsageError
from simcore.games import GAMES


def register(app: typer.Typer) -> None:
    app.command("simulate", help="Play many games with bots and write a run directory "
                                 "(players.parquet, games.parquet, run.json).")(simulate)


def simulate(
    games: str = typer.Option("1e6", "--games", "-n", help="How many games: 1e6, 1_000_000, 250000."),
    game: str = typer.Option("middle-ages", "--game", "-g", help=f"Which game: {', '.join(GAMES)}."),
    players: int = typer.Option(4, "--players", "-p", help="Players per game (2-5)."),
    strategies: str = typer.Option(
        "", "--strategies", "-s",
        help="Comma list: one strategy for every seat or one per seat (names or TOML files). "
             "Default: balanced for every seat (random where heuristic bots do not exist)."),
    seed: int = typer.Option(0, "--seed", help="Run seed: same seed, rules and strategies → same results."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="A rules TOML (default: the shipped rules)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run directory (default runs/<game>-<UTC time>/)."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    chunk_size: int = typer.Option(1 << 17, "--chunk-size", help="Games per chunk (memory bound; results do not depend on it)."),
    raw: Optional[bool] = typer.Option(None, "--raw/--no-raw", help="Write players.parquet (default: only up to 1e7 games)."),
    rotate_seats: bool = typer.Option(False, "--rotate-seats", help="Play every deal once per rotation of the strategies over the seats."),
    engine: str = typer.Option("kernel", "--engine", help="kernel (Numba) or reference (slow pure Python, small runs)."),
    debug: bool = typer.Option(False, "--debug", help="Check the game invariants after every game."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary table."),
    force: bool = typer.Option(False, "--force", help="Replace a non-empty --out directory."),
    attacker: int = typer.Option(10, "--attacker", help="fief-combat: attacking points."),
    defender: int = typer.Option(6, "--defender", help="fief-combat: defending points."),
    terrain: str = typer.Option("open", "--terrain", help="fief-combat: open, castle or city."),
    darc: str = typer.Option("none", "--darc", help="fief-combat: Jeanne d'Arc with attacker, defender or none."),
) -> None:
    from simcore import runner

    n_games = runner.parse_games(games)
    if game not in GAMES:
        raise UsageError(f"--game {game}: unknown game (known: {', '.join(GAMES)})")
    if game == "fief-combat":
        from simcore.games.fief.run import simulate_combats

        simulate_combats(attacker=attacker, defender=defender, terrain=terrain, darc=darc,
                         games=n_games, seed=seed, rules_path=rules, out=out, force=force,
                         threads=threads, quiet=quiet)
        return
    from rich.console import Console

    from simcore.games import adapter

    with Console(stderr=True, quiet=quiet).status(
            f"Loading the {game} kernels (compiled on first use, cached afterwards)"):
        game_mod = adapter(game)
    prep = game_mod.prepare(players=players, strategies=strategies or game_mod.DEFAULT_STRATEGY,
                            rules_path=rules, engine=engine, debug=debug, rotate_seats=rotate_seats)
    path = runner.run(prep, games=n_games, seed=seed, out=out, force=force, threads=threads,
                      chunk_size=chunk_size, raw=raw, quiet=quiet)
    if quiet:
        typer.echo(str(path))
