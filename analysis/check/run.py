"""Running a check: read a run directory, measure it and decide against a loaded baseline.

:func:`check` is the one function that combines the other modules: it reads the run's run.json,
refuses a run of another configuration (:func:`~analysis.check.decision.check_configuration`) or
played on the baseline's own seed (:func:`~analysis.check.decision.check_seed_differs`: not an
independent estimate), both before measuring it,
measures the run (:func:`~analysis.check.measure.measure_run`) and decides
(:func:`~analysis.check.decision.compare`: one look of the sequential test at the whole run),
returning a :class:`~analysis.check.decision.CheckResult`. It lives in its own module because it
does I/O (reading the run), which :mod:`analysis.check.decision` must not. Playing a check batch by
batch is :mod:`analysis.check.play`. May import the standard library,
:mod:`analysis.check.measure`, :mod:`analysis.check.baseline`, :mod:`analysis.check.decision` and
:mod:`simcore.rundir`; never :mod:`analysis.check.presentation` and never the runner (playing the
games of a check is :mod:`cli.check`'s job).
"""

from __future__ import annotations

from pathlib import Path

from analysis.check.baseline import (Baseline, check_settings, rules_changes, unread_changes,
                                     without_goal_scores)
from analysis.check.decision import (MIN_UNITS, CheckResult, check_configuration, check_notes,
                                     check_seed_differs, compare, limited_note, plan_games)
from analysis.check.measure import measure_run
from simcore.errors import UsageError
from simcore.rundir import read_meta


def check(baseline: Baseline, run: str | Path, *, alpha: float | None = None,
          beta: float | None = None) -> CheckResult:
    """Check run directory ``run`` against ``baseline``: one look of the sequential test at all
    its games (see :func:`analysis.check.decision.compare`; exit 3 when the run is too small to
    decide)."""
    meta = read_meta(run)
    check_configuration(baseline, meta)
    check_seed_differs(baseline, meta, f"RUN {run}")       # before the run is measured
    check_run_size(meta, run)
    alpha = baseline.alpha if alpha is None else alpha
    beta = baseline.beta if beta is None else beta
    check_settings(alpha, baseline.seed_offset, {}, beta)
    baseline, set_aside, left_out = without_goal_scores(baseline, meta.get("rules_text"))
    plan = plan_games(baseline.metrics, baseline.tolerances(), alpha, beta, game=baseline.game,
                      games=baseline.games)
    # every row, copies too: the baseline's rows decide what is tested (one written before the
    # copies were left out holds them)
    _, measured = measure_run(run, keep_copies=True)
    results = compare(baseline.metrics, measured, baseline.tolerances(), alpha, beta)
    games = int(meta.get("games") or 0)
    changes = rules_changes(baseline, meta)     # run.json keeps the rules text the run played
    unread = unread_changes(baseline, meta)
    notes = check_notes(baseline, meta, changes=changes, unread=unread) + set_aside
    if plan.limited:
        notes.append(limited_note(plan, baseline.games))
    return CheckResult(baseline, results, alpha, beta, meta, str(run), notes, games=games,
                       max_games=games, rules_changes=changes, rules_unread=unread,
                       limited=list(plan.limited),
                       baseline_games_needed=plan.baseline_games, left_out=left_out,
                       bots_changed=baseline.strategy_file_changes(meta.get("strategy_files")))


def check_run_size(meta: dict, run) -> None:
    """Refuse, in one line, a run of fewer than :data:`~analysis.check.decision.MIN_UNITS` units
    (games, or deals with rotated seats): its one look would read too few for the normal
    approximation behind the check's error rates (review s46 #1: a 1-game run FAILED unchanged
    rules)."""
    games = int(meta.get("games") or 0)
    gpd = int(meta.get("players") or 1) if meta.get("rotate_seats") else 1
    if games // max(gpd, 1) < MIN_UNITS:
        least = (f"{MIN_UNITS} games" if gpd == 1 else
                 f"{MIN_UNITS * gpd} games ({MIN_UNITS} deals of {gpd})")
        raise UsageError(f"RUN {run}: {games:,} game{'s' if games != 1 else ''}: too few for a check "
                         f"(at least {least}: fewer are too few for the normal approximation behind "
                         "its error rates); simulate more games")


__all__ = ["check", "check_run_size"]
