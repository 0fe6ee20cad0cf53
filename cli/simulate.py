"""``balance simulate`` (also the ``simulate`` console script): play games, write a run directory.

A thin shell: parse the options and hand them to :func:`simcore.runner.simulate`, which reads the
game's spec from the registry, refuses an option the game does not take (``--players`` for
fief-combat, ``--attacker`` for Middle-Ages: one line naming it, exit 2), prepares the run and
plays it. Options default to "not given" (None) so that refusal is possible; the game's spec
supplies the defaults. A game's own options (fief-combat's ``--attacker`` …) are generated from
``GameSpec.options`` (:func:`game_option_parameters`, :func:`with_game_options`, which sweep and tune use too): no
game is named here.

``--workers N`` / ``--scheduler ADDRESS`` play the chunks on a Dask cluster
(:func:`simcore.cluster.executor_for`, connected only after the options were checked).

``--panel NAME`` plays every cell of a panel into a directory of runs (:func:`_simulate_panel`,
:mod:`analysis.panel_run`: the same command on the same directory resumes an interrupted panel);
its cells are said on stderr a line each at a terminal, at most a line a minute off one
(:class:`cli.progress.StepLines`), but a cell a resumed panel keeps, played before, is said wherever
stderr goes.

May import typer, rich, :mod:`simcore`, :mod:`strategies.panels`, :mod:`cli.progress` (the progress
lines, the bar, the closing table) and, inside the panel command, :mod:`analysis.panel_run`.
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
    players: Optional[str] = typer.Option(
        None, "--players", "-p", help="Players per game (player games; default 4); several (3,4,5 or "
                                      "3..5) play a panel: one cell per count and line-up, as --panel."),
    strategies: Optional[str] = typer.Option(
        None, "--strategies", "-s",
        help="Comma list: one strategy for every seat, one per seat, or, in a game with roles, one per "
             "role (names or TOML files). "
             "Default: the game's default bot at every seat (balance games names it: balanced, "
             "standard for Seigneurial)."),
    seed: int = typer.Option(0, "--seed", help="Run seed: same seed, rules and strategies → same results."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="A rules TOML (default: the shipped rules)."),
    settings: Optional[List[str]] = typer.Option(
        None, "--set", help="Change one rule setting: PATH=VALUE, a dotted path into the rules TOML "
                            "(income.palais.base=4, setup.start_coins=[2,1,0,0], setup.start_coins[0]=3); "
                            "repeatable; validated like the rules file."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Run directory (default runs/<game>-<UTC time>/)."),
    threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    chunk_size: Optional[int] = typer.Option(None, "--chunk-size", help="Games per chunk (memory bound; default 131072). The run's files do not depend on it: the same games give the same bytes (row groups of 131,072 games whatever the chunks)."),
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
    panel: Optional[str] = typer.Option(
        None, "--panel", help="Play every cell of a panel (line-ups x player counts, "
                              "configs/<game>/panels.toml: NAME, or FILE:NAME) with these rules, one run "
                              "directory per cell in --out (cell-0, cell-1, …); with --players, only "
                              "that count's cells; the same command again resumes an interrupted panel. "
                              "balance report DIR shows where a finding holds."),
    lineup: Optional[List[str]] = typer.Option(
        None, "--lineup", help="A line-up of a panel made here: one bot for every seat, one per seat "
                               "(A,B,C,D) or one per role ('seigneur=harsh-lord, censitaire=objective'); "
                               "repeatable, crossed with --players 3,4,5; played as --panel is."),
    **game_options: Any,
) -> None:
    from simcore import cluster, runner

    the_panel = None
    if panel is not None or lineup or players is not None:
        # the panel the options name, as sweep, skill, ladder, baseline and check read them
        # (strategies.panels.options_panel): --panel, --lineup or several --players; else the one
        # player count of --players
        from strategies.panels import options_panel

        if panel is not None and strategies:     # (named before the shared check, which names
            from simcore.errors import UsageError    # --lineup too)

            raise UsageError("--panel: give a panel or --strategies, not both (the panel's cells give "
                             "the line-ups)")
        spec = registry.get(game)
        if spec.strategies is None and (lineup or panel is not None or players is not None):
            from simcore.errors import UsageError

            if players is not None:         # a game without players: "--players 3,4: … does not take"
                spec.check_options({"players": players})
            raise UsageError(f"{'--panel' if panel is not None else '--lineup'}: {spec.name} has no "
                             "bots, so no line-ups to make a panel of; simulate it without")
        the_panel, players = options_panel(game, panel=panel, players=players, lineups=lineup or (),
                                           strategies=strategies)
    if the_panel is not None:
        return _simulate_panel(the_panel, game=game, games=games, players=players, strategies=strategies,
                               seed=seed, rules=rules, settings=settings, out=out, threads=threads,
                               chunk_size=chunk_size, raw=raw, force=force, quiet=quiet,
                               refused={"--rotate-seats": rotate_seats, "--engine": engine,
                                        "--debug": debug, "--workers": workers,
                                        "--scheduler": scheduler, "--log": log or None,
                                        **{f"--{k.replace('_', '-')}": v
                                           for k, v in game_options.items()}})

    if chunk_size is not None and chunk_size <= 0:
        from simcore.errors import UsageError

        raise UsageError(f"--chunk-size {chunk_size}: must be at least 1")
    n_games = runner.parse_games(games)
    spec = registry.get(game)
    if strategies:           # one bot per role, as --lineup takes it, spelled out per seat
        from strategies.panels import seats_of_roles

        count = str(players).strip() if players is not None else ""
        strategies = seats_of_roles(spec.name, strategies,
                                    int(count) if count.isdigit() else spec.default_players)
    if log:
        from simcore.errors import UsageError

        if n_games > 10:
            raise UsageError(f"--log: prints every game; give --games 10 or fewer (then balance replay "
                             f"RUN --game N for one game of a larger run)")
        from simcore.replay import can_replay

        if not can_replay(spec):
            raise UsageError(f"--log: {spec.title} has no turn-by-turn reference engine")
    from simcore.config import check_config_file, parse_settings

    parsed = parse_settings(settings)
    if rules is not None:       # the input named first, before --out is related to it (revC #9)
        check_config_file(rules, "rules")
    if any("[" in s.key for s in parsed):
        # --set PATH[k] of a per-seat list for a seat the run does not have: one line, as sweep
        # and tune say it (review D #2; it changed no game and said nothing)
        from analysis.sweep.grammar import check_seats_of

        spec = registry.get(game)
        n = int(players) if players is not None else spec.default_players
        check_seats_of(spec, (), parsed, [n], option="--set")
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
        # what to run next, as a panel, sweep or tune says it (review 270 #4)
        typer.echo(f"next: {report_hint(result.path)}")
    if log:
        import sys

        from simcore.replay import replay

        for g in range(n_games):
            sys.stdout.write(replay(result.path, g).text + "\n")


def _simulate_panel(the_panel, *, game: str, games: str, players, strategies, seed: int, rules,
                    settings, out, threads, chunk_size, raw, force: bool, quiet: bool,
                    refused: dict) -> None:
    """``simulate --panel`` (or ``--lineup``, or several ``--players``: ``the_panel``, read by
    :func:`strategies.panels.options_panel`): every cell of the panel played with the same rules and
    seed, one run directory per cell (``OUT/cell-0`` …, numbered from 0), all checked before the first game: the
    options that a panel does not take are refused in one line.
    A directory of cells is what ``balance report DIR`` reads as a panel (the panel page: where a
    seat advantage holds, cell by cell, adjusted over the cells)."""
    import sys

    from analysis.panel_run import claim_out, plan_panel, run_panel
    from cli.progress import StepLines, counted
    from simcore import rundir, runner
    from simcore.errors import UsageError

    given = [k for k, v in refused.items() if v not in (None, False)]
    if given:
        raise UsageError(f"{given[0]}: not with a panel (--panel, --lineup or several --players: the "
                         "panel's cells are played as it gives them); play one line-up at one player "
                         f"count without the panel to use {given[0]}")
    n_games = runner.parse_games(games)
    out = Path(out) if out is not None else rundir.default_run_dir(f"{registry.get(game).name}-panel")
    inputs = [p for p in (rules,) if p is not None]
    plan = plan_panel(the_panel, games=n_games, seed=seed, rules=rules, settings=settings, raw=raw)
    # --out checked (and claimed) before any game: a new or empty directory, or this very panel
    # interrupted (then only the cells not yet played are played)
    resuming = claim_out(plan, out, force, inputs)
    # the disk space of every cell's rows, before the first cell is played (each cell's own
    # check, in runner.execute, would find out only after the cells before it were played)
    todo = [p for p, name in zip(plan.preps, plan.cell_dirs)
            if not (resuming and (out / name / rundir.RUN_JSON).is_file())]
    runner.check_disk_space([(p, n_games) for p in todo], out, raw)

    labels: dict[str, str] = {}
    # a line per cell on a terminal; off one (a CI log) a line at most a minute, none in the first
    # (cli.progress.StepLines: session 63, the "interrupted" line came after the cells' lines)
    lines = StepLines("simulate", quiet=quiet)

    def say(k: int, n: int, label: str, played: bool, name: str) -> None:
        labels[name] = label
        # "cell 1 of 3 (cell-0)": its position, and its directory's name
        if not played:
            lines(f"cell {k} of {n} ({name}): {label} ({counted(n_games, 'game')})")
        elif not quiet:     # what a resumed panel keeps: a note, said off a terminal too
            print(f"cell {k} of {n} ({name}): {label} (played before: kept)", file=sys.stderr)

    # written in place when --out is new or empty (each cell published whole as it ends, so an
    # interrupted panel resumes); over another panel (--force), beside it, replacing it at the end
    with lines:
        run_panel(plan, out, force=force, threads=threads, chunk_size=chunk_size, inputs=inputs,
                  on_cell=say)
    if not quiet:           # each cell's answer, as a run's closing table gives it (the designer
        for line in cell_lines(out, plan.cell_dirs, labels):   # review: a panel printed none)
            typer.echo(line)
    typer.echo(f"{the_panel.said}: {out} ({counted(len(plan.preps), 'cell')} x "
               f"{counted(n_games, 'game')}); {report_hint(out)}")


def cell_lines(out: Path, names, labels: dict | None = None) -> list[str]:
    """One line per cell of a played panel, from its statistics: each seat's win share (a game
    with roles: each side's), rounded as every table rounds them, and the share of its games
    stopped at the turn limit where that warns (:mod:`simcore.turn_limit`)."""
    import json

    from simcore.accumulate import STATS_FILE, RunStats
    from simcore.numbers import rounded
    from simcore.turn_limit import from_stats

    lines = []
    for name in names:
        try:
            st = RunStats.read(out / name / STATS_FILE)
            meta = json.loads((out / name / "run.json").read_text(encoding="utf-8"))
        except (OSError, ValueError, KeyError):
            continue
        n = max(st.games, 1)
        share = st.fixed["cell_win"].sum(axis=1) / st.layout["win_units"] / n
        roles = list(st.layout.get("seat_roles") or [])
        if roles and len(set(roles)) > 1:
            from cli.progress import _spec_of

            spec = _spec_of(meta.get("game"))
            shown = spec.role_display if spec is not None else str
            sides: dict[str, float] = {}
            for r, w in zip(roles, share):
                sides[r] = sides.get(r, 0.0) + float(w)
            said = ", ".join(f"{shown(r)}{'s' if roles.count(r) > 1 else ''} {_share_said(w)}"
                             for r, w in sides.items())
        else:
            said = "seats " + ", ".join(_share_said(float(w)) for w in share)
        limit = from_stats(st, meta.get("end_reason_names"))
        stopped = (f"; {rounded(100 * limit.share, 1):.1f}% of its games stopped at the turn limit"
                   if limit is not None and limit.flagged else "")
        label = (labels or {}).get(name)
        lines.append(f"  {name}{f' ({label})' if label else ''}: {said}{stopped}")
    return lines


def _share_said(w: float) -> str:
    """A cell's win share as the panel page prints it: one decimal, more (up to 3) when that would
    print a share that is not 0 or 100% as 0.0% or 100.0% (review A #11: one Seigneur win in 4,000
    games read "0.0%", as the cells where he never won; the page says 0.025%)."""
    import math

    from simcore.numbers import rounded

    x = 100 * w
    near = min(x, 100 - x)
    d = 1 if not 0 < near < 0.1 else min(3, 1 - math.floor(math.log10(near)))
    return f"{rounded(x, d):.{d}f}%"


def report_hint(out: Path, *, questions: Path | None = None, skill: Path | None = None) -> str:
    """The ``balance report`` command for the run (or panel, sweep, tune) ``out``, into a directory
    beside it (``<out>-report``): a command that runs as printed (a placeholder such as REPORT_DIR,
    copied, made a directory of that name); with the section of a ``balance questions``
    (``questions``) or ``balance skill`` (``skill``) directory played for it."""
    import shlex

    q = shlex.quote
    said = f"balance report {q(str(out))}"
    if questions is not None:
        said += f" --questions {q(str(questions))}"
    if skill is not None:
        said += f" --skill {q(str(skill))}"
    return said + f" --out {q(str(out) + '-report')}"


def skill_hint(out: Path, game: str, cell, rules: Path | None, settings) -> str:
    """What to run after ``balance skill``: a run of its rules and its (first) line-up, beside
    ``out`` (``<out>-run``), then its report with the skill section (review 270 #4: nothing was
    said; ``balance report --skill`` takes a run of the same rules and line-up)."""
    import shlex

    q = shlex.quote
    run = Path(str(out) + "-run")
    said = f"simulate --game {q(game)} --players {cell.players} --strategies {q(cell.strategies)}"
    if rules is not None:
        said += f" --rules {q(str(rules))}"
    for s in settings:
        said += f" --set {q(s.text)}"
    return f"{said} --out {q(str(run))} && {report_hint(run, skill=out)}"


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


def with_game_options(func):
    """``func``'s signature with its ``**game_options`` replaced by the specs' options (Typer
    reads the signature and the annotations): ``simulate``, ``balance sweep`` and ``balance tune``
    take a game's own options (a Fief combat's matchup) the same way."""
    sig = inspect.signature(func)
    own = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    own = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own]
    extra = game_option_parameters()
    func.__signature__ = sig.replace(parameters=own + extra)
    func.__annotations__ = {**{k: v for k, v in func.__annotations__.items() if k != "game_options"},
                            **{p.name: p.annotation for p in extra}}
    return func


simulate = with_game_options(simulate)
