"""``balance baseline`` and ``balance check``: record a run's win rates, then gate changes on them in CI.

``balance baseline RUN --out FILE`` writes a commented TOML baseline
(:func:`analysis.check.baseline.make_baseline`). ``balance check --baseline FILE [RUN]`` compares RUN
— or, without RUN, a fresh run of the configuration the baseline describes, played here by
:func:`play_check_run` — with the baseline (:func:`analysis.check.run.check`), prints the result
(:mod:`analysis.check.presentation`) and exits 0 (pass, or inconclusive by default), 1 (a metric
moved beyond its tolerance) or 2 (usage or config error). Everything is callable from Python:
:func:`run_check`.

May import typer, the standard library, :mod:`simcore` and, lazily inside the commands, :mod:`analysis`.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Optional

import typer

from simcore.errors import UsageError


def play_check_run(baseline, out: str | Path, *, games: int | None = None, rules: str | Path | None = None,
                   seed: int | None = None, threads: int | None = None, force: bool = False) -> Path:
    """Play the baseline's configuration into run directory ``out`` and return its path.

    ``games`` defaults to the baseline's ``[check] games``, ``rules`` to the rules file the baseline
    names (``"default"``: the shipped rules), ``seed`` to the baseline's seed + ``seed_offset``.
    """
    from simcore import runner

    rules_path = Path(rules) if rules is not None else baseline.rules_path()
    if rules_path is not None and not rules_path.is_file():
        where = "--rules" if rules is not None else f"{baseline.path}: run.rules"
        raise UsageError(f"{where}: rules file not found: {rules_path}"
                         + ("" if rules is not None else " (give the rules with --rules)"))
    prep = runner.prepare(baseline.game, players=baseline.players,
                          strategies=list(baseline.strategies), rules=rules_path,
                          engine=baseline.engine, rotate_seats=baseline.rotate_seats)
    return runner.run(prep, games=games or baseline.check_games,
                      seed=baseline.check_seed if seed is None else seed, out=out, force=force,
                      threads=threads, raw=True, quiet=True)


def run_check(baseline_path: str | Path, run: str | Path | None = None, *, games: int | None = None,
              rules: str | Path | None = None, seed: int | None = None, threads: int | None = None,
              alpha: float | None = None, on_inconclusive: str | None = None,
              save_run: str | Path | None = None, force: bool = False, log=None, progress=None):
    """Check ``run`` (or a fresh run, see :func:`play_check_run`) against a baseline file.

    Returns an :class:`analysis.check.decision.CheckResult` (``.exit_code``, ``.verdict``, reports).
    ``save_run`` keeps the fresh run directory (else it is deleted). ``progress(text, done, total)``
    hears of each step (playing weighs 95 of 100 units, measuring 5: the time left shown while
    measuring is then about a twentieth of the playing time, as measured on 2 cores).
    """
    step = progress or (lambda _text, _done=None, _total=None: None)
    from analysis.check.baseline import load_baseline
    from analysis.check.run import check

    base = load_baseline(baseline_path)
    if run is not None:
        given = [o for o, v in (("--games", games), ("--rules", rules), ("--seed", seed),
                                ("--save-run", save_run)) if v is not None]
        if given:
            raise UsageError(f"{', '.join(given)}: only for the run the check plays itself "
                             "(leave out RUN, or leave out these options)")
        step("measuring the run against the baseline", 0, 1)
        return check(base, run, alpha=alpha, on_inconclusive=on_inconclusive)
    if save_run is not None:
        from simcore.rundir import check_output_dir

        check_output_dir(save_run, force)
    n = games or base.check_games
    s = base.check_seed if seed is None else seed
    if log is not None:
        where = rules if rules is not None else base.rules
        log(f"playing {n:,} games of {base.game} ({base.players} players, "
            f"{','.join(dict.fromkeys(base.strategies))}) with seed {s} and rules {where} …")
    step(f"playing {n:,} games", 0, 100)
    if save_run is not None:
        path = play_check_run(base, save_run, games=n, rules=rules, seed=s, threads=threads, force=force)
        step("measuring the run against the baseline", 95, 100)
        return check(base, path, alpha=alpha, on_inconclusive=on_inconclusive)
    with tempfile.TemporaryDirectory(prefix="balance-check-") as tmp:
        path = play_check_run(base, Path(tmp) / "run", games=n, rules=rules, seed=s, threads=threads)
        step("measuring the run against the baseline", 95, 100)
        res = check(base, path, alpha=alpha, on_inconclusive=on_inconclusive)
    res.run_path = "(played by this check, not kept: --save-run DIR keeps it)"
    return res


def _parse_tolerance(text: str, option: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"{option} {text}: not a number") from None
    if not v >= 0 or v == float("inf"):
        raise UsageError(f"{option} {text}: must be a number >= 0")
    return v


def register(app: typer.Typer) -> None:
    @app.command("baseline")
    def baseline(
        run: Path = typer.Argument(..., help="Run directory to measure.", show_default=False),
        out: Path = typer.Option(..., "--out", "-o", help="Baseline file to write, e.g. "
                                 "configs/baselines/NAME.toml.", show_default=False),
        force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
        tolerance: str = typer.Option("1.0", "--tolerance",
                                      help="Accepted change of win shares (seat and strategy), ± points."),
        score_tolerance: str = typer.Option("1.0", "--score-tolerance",
                                            help="Accepted change of mean scores per seat, ± coins."),
        alpha: float = typer.Option(0.05, "--alpha", help="Error rate of the check (see docs/ci.md)."),
        check_games: Optional[str] = typer.Option(
            None, "--check-games", help="Games a check plays by default (default: the run's game count)."),
        seed_offset: int = typer.Option(1, "--seed-offset",
                                        help="A check plays seed = the run's seed + this (not 0)."),
        on_inconclusive: str = typer.Option("pass", "--on-inconclusive",
                                            help="pass (exit 0 with a warning) or fail (exit 1)."),
    ) -> None:
        """Record what RUN measured, how to reproduce it and the accepted tolerances (a TOML file)."""
        from analysis.check.baseline import make_baseline
        from simcore.runner import parse_games

        tol = _parse_tolerance(tolerance, "--tolerance")
        tol_s = _parse_tolerance(score_tolerance, "--score-tolerance")
        n = parse_games(check_games, "--check-games") if check_games is not None else None
        path = make_baseline(run, out, force=force,
                             tolerance={"seat_win_share": tol, "strategy_win_share": tol,
                                        "seat_mean_score": tol_s},
                             alpha=alpha, check_games=n, seed_offset=seed_offset,
                             on_inconclusive=on_inconclusive)
        typer.echo(str(path))

    @app.command("check")
    def check(
        run: Optional[Path] = typer.Argument(
            None, help="Run directory to check (default: play the baseline's configuration now).",
            show_default=False),
        baseline: Path = typer.Option(..., "--baseline", "-b", help="Baseline TOML file.",
                                      show_default=False),
        games: Optional[str] = typer.Option(None, "--games", "-n",
                                            help="Games to play (default: the baseline's \\[check] games)."),
        rules: Optional[Path] = typer.Option(
            None, "--rules", help="Rules TOML to play (default: the rules file the baseline names)."),
        seed: Optional[int] = typer.Option(
            None, "--seed", help="Seed to play (default: the baseline's seed + \\[check] seed_offset)."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all)."),
        alpha: Optional[float] = typer.Option(None, "--alpha",
                                              help="Error rate (default: the baseline's \\[check] alpha)."),
        on_inconclusive: Optional[str] = typer.Option(
            None, "--on-inconclusive", help="pass or fail (default: the baseline's setting)."),
        junit: Optional[Path] = typer.Option(None, "--junit", help="Write JUnit XML (one testcase per metric)."),
        summary: Optional[Path] = typer.Option(
            None, "--summary", help="Append a Markdown summary (e.g. \"$GITHUB_STEP_SUMMARY\")."),
        save_run: Optional[Path] = typer.Option(None, "--save-run",
                                                help="Keep the run the check plays in this directory."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --save-run directory."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the verdict line."),
    ) -> None:
        """Compare win shares and scores with a baseline: exit 0 pass, 1 regression, 2 usage error."""
        from analysis.check.presentation import status_line, text_report, write_reports
        from simcore.runner import parse_games

        n = parse_games(games) if games is not None else None
        log = None if quiet else (lambda msg: print(msg, file=sys.stderr))
        from cli.progress import Steps

        with Steps("check") as steps:
            res = run_check(baseline, run, games=n, rules=rules, seed=seed, threads=threads, alpha=alpha,
                            on_inconclusive=on_inconclusive, save_run=save_run, force=force, log=log,
                            progress=None if quiet else steps)
        write_reports(res, junit, summary)
        typer.echo(status_line(res) if quiet else text_report(res).rstrip())
        if res.exit_code:
            # SystemExit, not typer.Exit: click returns (not raises) typer.Exit's code when
            # standalone_mode is off, and cli._run would then report 0.
            raise SystemExit(res.exit_code)
