"""``balance simulate`` (also the ``simulate`` console script): play games, write a run directory.

A thin shell: parse the options and hand them to :func:`simcore.runner.simulate`, which reads the
game's spec from the registry, refuses an option the game does not take (``--players`` for
fief-combat, ``--attacker`` for Middle-Ages: one line naming it, exit 2), prepares the run and
plays it. Options default to "not given" (None) so that refusal is possible; the game's spec
supplies the defaults. A game's own options (fief-combat's ``--attacker`` …) are generated from
``GameSpec.options`` (:func:`game_option_parameters`): no game is named here.

``--workers N`` / ``--scheduler ADDRESS`` play the chunks on a Dask cluster
(:func:`simcore.cluster.executor_for`, connected only after the options were checked).

May import typer, rich and :mod:`simcore`.
"""

from __future__ import annotations

from pathlib import Path
import inspect
from typing import Any, List, Optional

import typer

from simcore import games as registry


def _game_help() -> str:
    return "Which game: " + "; ".join(f"{s.name} ({s.description})" for s in registry.specs().values())


def register(app: typer.Typer) -> None:
    app.command("simulate", help="Play many games with bots and write a run directory "
                                 "(stats.json, games.parquet, run.json; players.parquet up to 1e5 games "
                                 "or with --raw).")(simulate)


def simulate(
    games: str = typer.Option("1e6", "--games", "-n", help="How many games: 1e6, 1_000_000, 250000."),
    game: str = typer.Option(registry.DEFAULT_GAME, "--game", "-g", help=_game_help()),
    players: Optional[int] = typer.Option(None, "--players", "-p", help="Players per game (player games; default 4)."),
    strategies: Optional[str] = typer.Option(
        None, "--strategies", "-s",
        help="Comma list: one strategy for every seat or one per seat (names or TOML files). "
             "Default: the game's default bot at every seat (balanced)."),
    seed: int = typer.Option(0, "--seed", help="Run seed: same seed, rules and strategies → same results."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="A rules TOML (default: the shipped rules)."),
    settings: Optional[List[str]] = typer.Option(
        None, "--set", help="Change one rule setting: PATH=VALUE, a dotted path into the rules TOML "
                            "(income.palais.base=4, setup.start_coins=[2,1,0,0], setup.start_coins[0]=3); "
                            "repeatable; validated like the rules file."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run directory (default runs/<game>-<UTC time>/)."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per chunk (memory bound; results do not depend on it; default 131072)."),
    raw: Optional[bool] = typer.Option(None, "--raw/--no-raw", help="Write players.parquet, one row per player per game (default: only up to 1e5 games; "
                                                                        "analysis, reports, export of tables, baseline and check read stats.json, and balance replay plays a run without rows again)."),
    rotate_seats: Optional[bool] = typer.Option(None, "--rotate-seats", help="Player games: play every deal once per rotation of the strategies over the seats."),
    engine: Optional[str] = typer.Option(None, "--engine", help="Player games: kernel (Numba, default) or reference (slow pure Python, small runs)."),
    debug: Optional[bool] = typer.Option(None, "--debug", help="Player games: check the game invariants after every game."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Play on a local Dask cluster of N worker processes (needs the \\[cluster] extra; same results)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play on a running Dask scheduler, e.g. tcp://10.0.0.5:8786 (see docs/cluster.md; same results)."),
    allow_oversubscribe: bool = typer.Option(False, "--allow-oversubscribe", help="With --workers: allow more workers than cores (up to 8 per core; each worker is a process with its own memory)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar and no summary table."),
    log: bool = typer.Option(False, "--log", help="Print every game turn by turn after the run (up to "
                                                "10 games; see balance replay)."),
    force: bool = typer.Option(False, "--force", help="Replace a non-empty --out directory."),
    **game_options: Any,
) -> None:
    from simcore import cluster, runner

    if chunk_size is not None and chunk_size <= 0:
        from simcore.errors import UsageError

        raise UsageError(f"--chunk-size {chunk_size}: must be at least 1")
    n_games = runner.parse_games(games)
    spec = registry.get(game)
    if log:
        from simcore.errors import UsageError

        if n_games > 10:
            raise UsageError(f"--log: prints every game; give --games 10 or fewer (then balance replay "
                             f"RUN --game N for one game of a larger run)")
        from simcore.replay import can_replay

        if not can_replay(spec):
            raise UsageError(f"--log: {spec.title} has no turn-by-turn reference engine")
    from simcore.config import parse_settings

    parsed = parse_settings(settings)
    if out is None:
        from simcore import rundir

        out = rundir.default_run_dir(spec.name)
    if quiet:       # nothing is drawn: rich is not imported (0.03 s of a small run's start)
        from contextlib import nullcontext

        drawing, show_compile = nullcontext(None), None
    else:
        from rich.console import Console

        from cli.progress import SimulationBar, spinner

        err = Console(stderr=True)
        drawing, show_compile = SimulationBar(err), spinner(err)
    with cluster.executor_for(workers, scheduler, threads=threads, quiet=quiet,
                              allow_oversubscribe=allow_oversubscribe) as executor, \
            drawing as bar:
        result = runner.simulate(
            game, games=n_games, seed=seed, out=out, force=force, threads=threads,
            chunk_size=chunk_size, raw=raw, rules=rules, settings=parsed,
            executor=executor, players=players, strategies=strategies,
            rotate_seats=rotate_seats, engine=engine, debug=debug, progress=bar,
            show_compile=show_compile, result=True, **game_options)
    if quiet:
        typer.echo(str(result.path))
    else:
        from cli.progress import print_summary

        # results on stdout (progress and the compile spinner stay on stderr)
        print_summary(Console(), result)
    if log:
        import sys

        from simcore.replay import replay

        for g in range(n_games):
            sys.stdout.write(replay(result.path, g).text + "\n")


def game_option_parameters() -> list[inspect.Parameter]:
    """One command-line option per game option declared in the specs (``GameSpec.options``),
    named and typed as declared; its help names the games that take it and the default. Options
    default to None ("not given"): the game's adapter supplies the default, and a game that does
    not take an option refuses it (``GameSpec.check_options``)."""
    found: dict[str, inspect.Parameter] = {}
    for spec in registry.specs().values():
        for o in spec.options:
            if o.name in found:
                continue
            games = [s.name for s in registry.specs().values() if any(x.name == o.name
                                                                       for x in s.options)]
            default = f" (default {o.default})" if o.default is not None else ""
            found[o.name] = inspect.Parameter(
                o.name, inspect.Parameter.KEYWORD_ONLY, annotation=Optional[o.type],
                default=typer.Option(None, o.flag, help=f"{', '.join(games)}: {o.help}{default}."))
    return list(found.values())


def _with_game_options(func):
    """``func``'s signature with its ``**game_options`` replaced by the specs' options (Typer
    reads the signature and the annotations)."""
    sig = inspect.signature(func)
    own = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]
    extra = game_option_parameters()
    func.__signature__ = sig.replace(parameters=own + extra)
    func.__annotations__ = {**{k: v for k, v in func.__annotations__.items() if k != "game_options"},
                            **{p.name: p.annotation for p in extra}}
    return func


simulate = _with_game_options(simulate)
