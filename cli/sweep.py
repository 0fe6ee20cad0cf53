"""``balance sweep``: play many variants of a game's rules into one sweep directory.

Thin shell over :mod:`analysis.sweep`. ``--panel NAME|FILE`` (or ``--players 3,4,5`` with
``--lineup``, repeatable) plays the sweep in every cell of a panel (:mod:`analysis.sweep.panel`)
and prints, per parameter, whether it moves every cell the same way and by how much (the cells
behind the minority counts named; the metric it moves most when that is not the headline; the
counts not adjusted over the cells, as the last line says). ``--vary`` (repeatable) says what changes over which values
(``income.palais.base=2..5``, ``setup.start_coins[0]=0..8``, ``players=2..5``,
``PATH=[a, b, c]``); several make a grid, or ``--one-at-a-time`` moves one at a time. Every
variant is validated before the first game (one line, exit 2), then played with the same seed
(common random numbers) into ``--out DIR/variants/<id>/``; ``DIR/sweep.json`` records the sweep.
One progress bar covers the whole sweep; the same command on the same directory resumes an
interrupted sweep. ``balance report DIR`` then writes the sensitivity page.

May import typer, rich, the standard library, :mod:`simcore`, :mod:`strategies.panels` and :mod:`strategies.common` (a --strategies list's files) and,
inside the command, :mod:`analysis.sweep` and :mod:`analysis.start_coins` (a panel sweep's caution).
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cli.progress import counted
from cli.simulate import report_hint, with_game_options

JOINT_FILE, VARIANTS = "paired_stats.json", "variants"     # analysis.sweep.joint / .store
PLAYED_SO_FAR = "played_so_far"                            # analysis.sweep.play.PLAYED_SO_FAR
RESTART_NOTE = "a sweep without player rows keeps what its variants played every 8 chunks"


def restart_note(wheres) -> str:
    """What an interrupted sweep without player rows keeps of its games (``played_so_far`` under
    each of ``wheres``), said when the interruption comes: interrupted before the first checkpoint,
    "running it again goes on from there" promised games nothing had kept."""
    from simcore.runner import checkpoint_games

    kept = [checkpoint_games(Path(w) / PLAYED_SO_FAR) for w in wheres]
    if not any(kept):
        return f"{RESTART_NOTE}, and none was kept yet: running it again plays them from the first game"
    if len(set(kept)) == 1:
        return f"{RESTART_NOTE}: running it again goes on from game {kept[0]:,}"
    return f"{RESTART_NOTE}: running it again goes on from where each was kept"
from simcore.games import DEFAULT_GAME

SET_HELP = ("Change one rule setting for every variant: PATH=VALUE (income.palais.base=4, "
            "setup.start_coins[0]=3); repeatable.")
SMALLEST_HELP = ("The smallest difference that matters, per metric: win_share=2pp (or 2%; win shares and "
                 "other shares; default 1pp), score=N (in the game's score unit), length=N (turns); "
                 "e.g. 'win_share=2pp,score=3'. Default: the game's own (docs/analysis.md).")
PANEL_HELP = ("A panel of line-ups and player counts: a name shipped in configs/<game>/panels.toml "
              "(default, wide), FILE.toml or FILE.toml:NAME; --players then keeps its cells at "
              "those counts (docs/sweep.md).")
LINEUP_HELP = ("A line-up of a panel made here: one bot for every seat, one per seat (A,B,C,D) or one "
               "per role ('seigneur=harsh-lord, censitaire=objective'); repeatable, crossed with --players 3,4,5.")
RAW_HELP = ("Keep every variant's players.parquet (default: up to 1e5 games per variant). Without "
            "rows the variants are played together and the paired effects come from exact sums "
            "(paired_stats.json; the same numbers as from rows): the report costs the same at any "
            "--games. Interrupted, a sweep without rows goes on from the last 8 chunks it kept.")
VARY_HELP = ("What to vary: PATH=2..5, PATH=0..1:0.25, PATH=\\[a,b,c], setup.start_coins[0]=0..8 "
             "(one seat) or players=2..5; repeatable (a grid).")


def register(app: typer.Typer) -> None:
    app.command("sweep", help="Play variants of the rules (a grid of --vary values) into one sweep "
                              "directory; balance report DIR shows what each setting changes.")(sweep)


def sweep(
    out: Path = typer.Option(..., "--out", "-o", help="Sweep directory (new, empty, or the same "
                             "sweep to resume).", show_default=False),
    vary: List[str] = typer.Option(..., "--vary", help=VARY_HELP, show_default=False),
    one_at_a_time: bool = typer.Option(False, "--one-at-a-time",
                                       help="Move one parameter at a time (the others at the "
                                            "base rules' value where listed, else their first "
                                            "value) instead of a grid."),
    games: str = typer.Option("1e5", "--games", "-n", help="Games per variant."),
    game: str = typer.Option(DEFAULT_GAME, "--game", "-g", help="Which game (balance games lists them)."),
    players: Optional[str] = typer.Option(None, "--players", "-p", help="Players (unless varied); "
                                          "with a panel or --lineup, the player counts: 3,4,5."),
    strategies: Optional[str] = typer.Option(None, "--strategies", "-s",
                                             help="Bots, as simulate takes them (default: the game's)."),
    panel: Optional[str] = typer.Option(None, "--panel", help=PANEL_HELP),
    lineup: Optional[List[str]] = typer.Option(None, "--lineup", help=LINEUP_HELP),
    seed: int = typer.Option(0, "--seed", help="Seed shared by every variant (common random numbers)."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Base rules TOML (default: the shipped rules)."),
    settings: Optional[List[str]] = typer.Option(None, "--set", help=SET_HELP),
    rotate_seats: Optional[bool] = typer.Option(None, "--rotate-seats",
                                                help="Rotate the strategies over the seats."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per chunk."),
    force: bool = typer.Option(False, "--force", help="Replace a directory holding another sweep."),
    raw: Optional[bool] = typer.Option(None, "--raw/--no-raw", help=RAW_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Play on a local Dask cluster of N worker processes (docs/cluster.md)."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play on a running Dask scheduler (docs/cluster.md)."),
    allow_oversubscribe: bool = typer.Option(False, "--allow-oversubscribe", help="With --workers: allow more workers than cores (up to 8 per core; each worker is a process with its own memory)."),
    smallest_difference: Optional[str] = typer.Option(
        None, "--smallest-difference", help=SMALLEST_HELP + " Recorded in sweep.json; the sensitivity "
        "page (balance report DIR) words the effects by it."),
    **game_options,
) -> None:
    from analysis.load import keeps_length, parse_smallest_difference, refuse_unsized
    from analysis.sweep.play import plan_sweep
    from simcore.cluster import check_options, executor_for
    from simcore.options import check_chunk_size, check_threads
    from simcore.runner import parse_games
    from strategies.panels import options_panel

    small = parse_smallest_difference(smallest_difference)
    # (a sweep's effects are win shares, scores and the game length where the game keeps one
    # (not Middle-Ages, 16 turns): no count per game)
    refuse_unsized(small, ("share", "score", "length") if keeps_length(game) else ("share", "score"),
                   "balance sweep's effects")
    n = parse_games(games)
    check_threads(threads)
    check_chunk_size(chunk_size)
    check_options(workers, scheduler, allow_oversubscribe)
    the_panel, players = options_panel(game, panel=panel, players=players, lineups=lineup,
                                       strategies=strategies)
    from strategies.common import strategy_files
    from simcore.atomic import input_paths

    reads = input_paths(rules, panel, strategy_files(strategies))   # --out may not be or hold them
    if the_panel is not None:
        from analysis.sweep.panel import plan_panel_sweep, panel_effects

        pplan = plan_panel_sweep(game, panel=the_panel, varies=vary, games=n, seed=seed,
                                 one_at_a_time_mode=one_at_a_time, rules=rules,
                                 settings=settings or (), rotate_seats=rotate_seats, smallest=small,
                                 raw=raw, options=game_options)
        with executor_for(workers, scheduler, threads=threads, quiet=quiet,
                          allow_oversubscribe=allow_oversubscribe) as executor:
            path = play_with_progress(pplan, out, force=force, threads=threads,
                                      chunk_size=chunk_size, quiet=quiet, executor=executor,
                                      inputs=reads)
        effects = panel_effects(path)
        from analysis.sweep.panel_effects import headline_sentences

        from analysis.start_coins import dir_caution

        # values of some seats' start coins played with heuristic bots: said as the page says it
        caution = dir_caution([path], "panel sweep")
        for line in headline_sentences(effects, [c.label for c in the_panel.cells]) + ([caution] if caution else []):
            typer.echo(line)
        typer.echo(f"panel sweep: {path} ({counted(len(the_panel), 'cell')} x "
                   f"{counted(len(pplan.variants), 'variant')} x {counted(n, 'game')}); "
                   f"{report_hint(path)}")
        return
    plan = plan_sweep(game, varies=vary, games=n, seed=seed, one_at_a_time_mode=one_at_a_time,
                      players=players, strategies=strategies, rules=rules, settings=settings or (),
                      rotate_seats=rotate_seats, smallest=small, raw=raw, options=game_options)
    with executor_for(workers, scheduler, threads=threads, quiet=quiet,
                      allow_oversubscribe=allow_oversubscribe) as executor:
        path = play_with_progress(plan, out, force=force, threads=threads, chunk_size=chunk_size,
                                  quiet=quiet, executor=executor, inputs=reads)
    typer.echo(f"sweep: {path} ({counted(len(plan.variants), 'variant')} x {counted(n, 'game')}); "
               f"{report_hint(path)}")


def resumed_line(where, start: int, games: int, problem: str | None) -> str:
    """What a resumed sweep without rows says once ``where``'s ``played_so_far/`` has been read:
    the game its variants go on from, or that what was kept there could not be used (a checkpoint
    of another sweep, a damaged or crafted one) and they play from game 0."""
    if problem is None and start == 0:       # stopped before its first checkpoint: nothing kept
        return (f"resuming {where}: none of its games was kept (it stopped before its first "
                f"checkpoint); the variants play from the first game of {games:,}")
    if problem is None:
        return f"resuming {where}: the variants go on together from game {start:,} of {games:,}"
    return (f"resuming {where}: the games kept in {Path(where) / PLAYED_SO_FAR} could not be used "
            f"({problem}); the variants play from game 0 of {games:,}")


def play_with_progress(plan, out: Path, *, force: bool, threads, chunk_size, quiet: bool,
                       executor=None, inputs=()) -> Path:
    """Run the sweep with one progress bar over every variant's games (on stderr). ``inputs``:
    the files the sweep reads (rules, panel, strategy files), which ``out`` may not be or hold."""
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, TextColumn,
                               TimeRemainingColumn)

    from analysis.sweep.play import check_play_options, keep_recorded_rows, prepare_out, run_sweep

    if hasattr(plan, "panel"):                       # a panel sweep: every cell's sweep
        from analysis.sweep.panel import run_panel_sweep as run_sweep  # noqa: F811

        kind, total = "panel_sweep", plan.games * len(plan.variants) * len(plan.plans)
        played_in = [(p, plan.cell_dir(out, k)) for k, p in enumerate(plan.plans)]
    else:
        kind, total = "sweep", plan.games * len(plan.variants)
        played_in = [(plan, Path(out))]
    keep_recorded_rows(plan, out, kind)   # an older sweep resumed as it was played (with rows)
    # every option the variants are played with, before anything is created (review G #3)
    check_play_options(played_in, out, chunk_size)
    console = Console(stderr=True, quiet=quiet)
    # a bad --out fails before the compile; so does one that is, holds or lies in what it reads
    resuming = prepare_out(plan.to_json(), out, force, kind=kind, inputs=inputs)
    together = [where for p, where in played_in if not p.player_rows]
    restart: list = []
    if together:
        import cli

        # a sweep without rows keeps nothing of its games until every variant has played them
        cli.INTERRUPT_NOTE[:] = [lambda: restart_note(together)]
        restart = [w for w in together if not (Path(w) / JOINT_FILE).is_file()
                   and (Path(w) / VARIANTS).is_dir()]

    def on_resume(where, start: int, problem: str | None) -> None:
        # said once the games kept there have been read, not from state.json before: a checkpoint
        # found unusable then (a crafted sums-N.pkl) was announced as resumed from game 800
        if resuming and Path(where) in {Path(w) for w in restart}:
            console.print(resumed_line(where, start, plan.games, problem), soft_wrap=True,
                          markup=False, highlight=False)      # one line, a path as it is

    if resuming:
        kept = [v.id for p, where in played_in for v in p.variants
                if (p.variant_dir(where, v) / "run.json").is_file()]
        n = len(plan.variants) * len(played_in)
        if 0 < len(kept) < n and not (together and restart):
            console.print(f"resuming {out}: {len(kept)} of {counted(n, 'variant')} kept; playing "
                          f"the other {n - len(kept)}")
    from cli.progress import spinner
    from simcore.runner import compile_notice

    # said while, and only while, Numba compiles, with its seconds, as simulate says it (review
    # 270 #2: "Compiling the kernel (first run only …)" was shown over every load from the cache)
    with compile_notice(plan.preps[0].compile_message, spinner(console)):
        plan.preps[0].warmup()
    if quiet:
        return run_sweep(plan, out, force=force, threads=threads, chunk_size=chunk_size,
                         executor=executor, on_resume=on_resume)
    from cli.progress import LogLines, live_bar

    # (off a terminal none: rich's bar left an empty line first on stderr, review s59 #3)
    bar = live_bar(console, TextColumn("[bold]sweep"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                   TimeRemainingColumn(), TextColumn("{task.description}"), transient=True)

    log = LogLines(console, "sweep")         # plain lines when stderr is not a terminal

    def progress(done: int, _total: int, label: str) -> None:
        bar.update(task, completed=done, description=label)
        log(done, total, label)

    with bar:
        task = bar.add_task("", total=total)
        return run_sweep(plan, out, force=force, threads=threads, chunk_size=chunk_size,
                         progress=progress, executor=executor, on_resume=on_resume)


sweep = with_game_options(sweep)
