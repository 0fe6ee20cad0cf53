"""Playing a check: the games of the baseline's configuration, batch by batch, until every metric is
decided (the sequential test of :mod:`analysis.check.decision`), or the maximum number of games.

:func:`play_check` prepares the configuration the baseline describes through the runner
(:func:`simcore.runner.prepare`), plays games ``[0, batch)``, ``[batch, 2·batch)``, … with the
check's seed (each game draws from its own stream keyed on (seed, game index), so the games and
therefore the verdict do not depend on threads or chunk size), measures every checked metric per
unit (:func:`analysis.check.measure.unit_values`) and looks after each batch. With ``against_rules``
(**paired mode**) it plays the old rules on the same seeds and game indices — the same deals, common
random numbers — and tests the mean paired difference new − old of each metric, whose variance is
far smaller than that of a comparison with an independent baseline; the baseline then only gives the
configuration, the tolerances and the error rates. ``save_run`` replays the games the check played
(same seed, same games) into a run directory at the end.

May import numpy, the standard library, :mod:`simcore.runner` (playing the games: the analysis layer
sits above the runner, as :mod:`analysis.questions` does), :mod:`simcore.options`,
:mod:`simcore.rundir`, :mod:`simcore.errors`, :mod:`strategies.common` (reading the seats' strategy
files from where the baseline records them), :mod:`analysis.rules_diff` (what paired mode's new
rules change from the old) and the modules of :mod:`analysis.check` listed before it (measure,
decision, baseline); never :mod:`analysis.check.presentation`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Callable

import numpy as np

from analysis.check.baseline import (Baseline, check_settings, rules_changes, unread_changes,
                                     without_goal_scores)
from analysis.check.decision import (CheckResult, SequentialTest, _least_units, _why, check_games_enough,
                                     check_notes, default_batch, limited_note, plan_games)
from analysis.check.measure import PairedMeasure, UnitMeasure, binary_units, unit_values
from simcore.errors import UsageError


def refuse_measured_run(save_run: str | Path, baseline) -> None:
    """``--save-run DIR`` naming the run the baseline was measured from (its run.json with the
    baseline's game, seed and number of games) is refused in one line, with ``--force`` too
    (review AB #5: ``--save-run runs/base --force`` replaced the 100,000-game run the baseline's
    header says to rebuild it from with the check's 9,000 games)."""
    from simcore.rundir import read_meta

    d = Path(save_run)
    try:
        if not (d / "run.json").is_file():
            return
    except OSError:             # (a name the system refuses: the output check names it)
        return
    try:
        meta = read_meta(d)
    except (UsageError, OSError, ValueError):
        return
    if (meta.get("game") == baseline.game and meta.get("seed") == baseline.seed
            and meta.get("games") == baseline.games):
        raise UsageError(f"--save-run {save_run}: holds the run this baseline was measured from "
                         f"(seed {baseline.seed}, {baseline.games:,} games); the check will not "
                         "replace it, even with --force: give another directory")


def _rules_path(baseline: Baseline, rules: str | Path | None, option: str) -> Path | None:
    path = Path(rules) if rules is not None else baseline.rules_path()
    if path is not None and not path.is_file():
        where = option if rules is not None else f"{baseline.path}: run.rules"
        raise UsageError(f"{where}: rules file not found: {path}"
                         + ("" if rules is not None else " (give the rules with --rules)"))
    return path


def _prepare(baseline: Baseline, rules: Path | None, settings=()):
    """The configuration the baseline records, with ``rules``; a refusal in the words of a check,
    whose game and bots come from the baseline file, not from options: rules of another game name
    the baseline's game (review s58 #3: "add --game seigneurial", an option check does not have),
    and a bot the file names that is not known names the file's key, ``run.strategies`` (review s58
    #4: "--strategies: unknown strategy …", an option nobody typed)."""
    from simcore import runner
    from simcore.errors import OtherGameRules
    from strategies.common import reading_files_at

    try:
        # the seats' strategy files from where the baseline records them, relative to it (review
        # s61 #2: they were read relative to the working directory)
        with reading_files_at(baseline.strategy_locations()):
            return runner.prepare(baseline.game, players=baseline.players,
                                  strategies=list(baseline.strategies), rules=rules,
                                  engine=baseline.engine, rotate_seats=baseline.rotate_seats,
                                  settings=settings)
    except OtherGameRules as exc:
        raise UsageError(f"{exc.source}: holds the rules of {exc.other} (sections {exc.sections}), not of "
                         f"{exc.mine}: the baseline {baseline.path} is a {exc.mine} baseline (a check plays "
                         f"the game its baseline records); give {exc.mine} rules, or check against a "
                         f"baseline of a {exc.other} run") from None
    except UsageError as exc:
        text = str(exc)
        if not text.startswith(_STRATEGIES):
            raise
        raise UsageError(f"{baseline.path}: run.strategies{text[len(_STRATEGIES):]}") from None


_STRATEGIES = "--strategies"     # how the bots' loaders name the bots they refuse (strategies.common)


#: What a ``[[metric]]`` block's key names, in a designer's words.
_KEY_NOUN = {"seat_win_share": "seat", "seat_mean_score": "seat", "strategy_win_share": "strategy",
             "role_win_share": "role"}


def _has(metric: str, prep) -> str:
    """What the prepared configuration has instead (its seats, strategies or roles)."""
    if metric == "strategy_win_share":
        return f"its strategies: {', '.join(dict.fromkeys(prep.strategy_names))}"
    if metric == "role_win_share":
        from simcore import games as registry

        return f"its roles: {', '.join(dict.fromkeys(registry.get(prep.game).seat_roles(prep.n_players)))}"
    return f"its seats: Seat 1 to Seat {prep.n_players}"


def _wanted(baseline: Baseline, prep) -> list[tuple[str, str]]:
    wanted = []
    for m in baseline.metrics:
        ok = True
        if m.metric in ("seat_win_share", "seat_mean_score"):
            try:
                ok = 1 <= int(m.key.removeprefix("Seat ")) <= prep.n_players
            except ValueError:
                ok = False
        elif m.metric == "strategy_win_share":
            ok = m.key in prep.strategy_names
        elif m.metric == "role_win_share":
            from simcore import games as registry

            ok = m.key in registry.get(prep.game).seat_roles(prep.n_players)
        if not ok:
            # in the game's words and naming the file (review C #8, session 42: "the run has no
            # seat_win_share for 'Seat 9'" when no run was given; seats and roles are checked as
            # the file loads, analysis.check.baseline._key_problem)
            raise UsageError(f"{baseline.path}: {m.label}: the configuration this baseline "
                             f"describes has no {_KEY_NOUN.get(m.metric, 'metric')} {m.key!r} "
                             f"({_has(m.metric, prep)}); edit the key, or regenerate the baseline "
                             "with balance baseline")
        wanted.append((m.metric, m.key))
    return wanted


def _batch_values(prep, start: int, n: int, seed: int, wanted, chunk: int,
                  executor=None) -> np.ndarray:
    """Unit values of games [start, start + n): played in chunks, joined before any sum (on a
    Dask cluster with ``executor``: the same games, played by :func:`simcore.runner.collect`)."""
    if executor is not None:
        from simcore import runner

        keep = tuple(c for c in ("win_share", "score", "strategy", "role")
                     if c in prep.players_schema.names)
        played = runner.collect(prep, games=n, seed=seed, chunk_size=chunk, first=start,
                                columns=keep, executor=executor)
        return unit_values({c: played.players.column(c) for c in keep}, prep.n_players,
                           prep.games_per_deal, wanted, prep.strategy_names)
    parts = []
    done = 0
    while done < n:
        k = min(chunk, n - done)
        res = prep.play(start + done, k, seed)
        parts.append(unit_values(res.players, prep.n_players, prep.games_per_deal, wanted,
                                 prep.strategy_names))
        done += k
    return np.concatenate(parts, axis=0)


def check_batch(step: int, gpd: int, option: str = "--batch", paired: bool = False) -> int:
    """``step`` (--batch, or ``option``: the baseline file's ``[check] batch``), or one
    :class:`UsageError` line: at least :data:`~analysis.check.decision.MIN_UNITS` units (games, or
    deals of ``gpd`` games with rotated seats: then a multiple of ``gpd``; "a multiple of 1" said
    nothing, revC #10), ``paired`` :data:`~analysis.check.decision.MIN_PAIRED_UNITS`. Fewer units a
    look are too few for the normal approximation the test's error rates rest on (review s46 #1:
    looks of 1 game failed identical rules every time, and paired passed a change of ten times the
    tolerance)."""
    units = _least_units(paired)
    least = units * gpd
    if step < least or step % gpd:
        need = (f"at least {least}" if gpd == 1 else
                f"a multiple of {gpd} (games per deal) of at least {least} ({units} deals)")
        mode = " in paired mode (--against-rules)" if paired else ""
        raise UsageError(f"{option} {step}: must be {need}{mode}: a look at fewer games is too few "
                         f"for {_why(paired)}")
    return step


def check_play_seed(baseline: Baseline, seed: int | None, paired: bool = False) -> int:
    """The seed a check of ``baseline`` plays (``seed``, --seed, default the baseline's seed +
    seed_offset), or one :class:`UsageError` line: out of range, or the baseline's own seed when
    not paired."""
    if seed is None:
        seed = baseline.check_seed
        if seed < 0 or seed >= 2 ** 63:
            # the seed was not typed: it is the file's seed + seed_offset (review s46 #8: "--seed
            # -976: must be between …" named an option and a value nobody typed)
            raise UsageError(f"{baseline.path}: check.seed_offset: seed {baseline.seed} + seed_offset "
                             f"{baseline.seed_offset} = {seed} is out of range (a seed is a whole "
                             "number from 0 to 2**63 - 1); edit seed_offset, or give --seed")
    elif seed < 0 or seed >= 2 ** 63:
        raise UsageError(f"--seed {seed}: must be between 0 and 2**63 - 1")
    if seed == baseline.seed and not paired:
        # game i draws from the stream (seed, i): the check's first games would be the baseline's own,
        # and run − baseline would not be the comparison of independent estimates the test assumes
        raise UsageError(f"--seed {seed}: the baseline's own seed (its games would be replayed); "
                         f"use another seed (default: {baseline.check_seed}, the baseline's seed + seed_offset)")
    return seed


def play_check(baseline: Baseline, *, games: int | None = None, rules: str | Path | None = None,
               against_rules: str | Path | None = None, seed: int | None = None, batch: int | None = None,
               threads: int | None = None, alpha: float | None = None, beta: float | None = None,
               save_run: str | Path | None = None, force: bool = False,
               log: Callable[[str], None] | None = None, settings=(),
               announce: str | None = None, executor=None) -> CheckResult:
    """Play the baseline's configuration batch by batch and decide (see the module docstring).

    ``games`` is the maximum (default: ``[check] games``, else the power calculation of
    :func:`analysis.check.decision.plan_games`), ``batch`` the games per look (default ``[check]
    batch``, else :func:`analysis.check.decision.default_batch`), ``rules`` the rules to check (default:
    the baseline's), ``against_rules`` the old rules of paired mode, ``seed`` default the baseline's
    seed + seed_offset, ``settings`` (``--set``) change the rules to check (not the old rules of
    paired mode). Every option is checked before the first game is played; ``announce`` is logged
    once they all are. ``executor`` (a :class:`simcore.cluster.Cluster`) plays the batches on Dask
    (the same games, so the same verdict)."""
    from simcore import rundir, runner
    from simcore.options import set_threads

    alpha = baseline.alpha if alpha is None else alpha
    beta = baseline.beta if beta is None else beta
    check_settings(alpha, baseline.seed_offset, {}, beta)
    paired = against_rules is not None
    new_rules = _rules_path(baseline, rules, "--rules")
    old_rules = _rules_path(baseline, against_rules, "--against-rules") if paired else None
    if save_run is not None:
        refuse_measured_run(save_run, baseline)
        rundir.check_output_dir(save_run, force, "--save-run",
                                inputs=[p for p in (baseline.path, rules, against_rules) if p is not None])
    seed = check_play_seed(baseline, seed, paired)
    prep = _prepare(baseline, new_rules, settings)
    old = _prepare(baseline, old_rules) if paired else None
    baseline, set_aside, left_out = without_goal_scores(baseline, prep.rules_text,
                                                        old.rules_text if paired else None)
    tolerances = baseline.tolerances()
    plan = plan_games(baseline.metrics, tolerances, alpha, beta, paired, game=baseline.game,
                      games=baseline.games)
    wanted = _wanted(baseline, prep)
    gpd = prep.games_per_deal
    max_games = games if games is not None else (baseline.check_games or plan.max_games)
    if max_games < 1:
        raise UsageError(f"--games {max_games}: must be at least 1")
    check_games_enough(max_games, gpd, "--games" if games is not None else
                       (f"{baseline.path}: check.games" if baseline.check_games else "--games"), paired)
    max_games = int(math.ceil(max_games / gpd)) * gpd
    step = batch if batch is not None else (baseline.batch or
                                            default_batch(max_games, gpd, _least_units(paired)))
    check_batch(step, gpd, "--batch" if batch is not None or not baseline.batch
                else f"{baseline.path}: check.batch", paired)
    chunk = max(gpd, (prep.default_chunk or runner.DEFAULT_CHUNK) // gpd * gpd)
    if log is not None and announce:
        log(announce)
    set_threads(threads)
    prep.warmup()
    if old is not None:
        old.warmup()
    labels = [m.label for m in baseline.metrics]
    binary = binary_units(wanted, prep.strategy_names, gpd)
    measure = (PairedMeasure(wanted, labels, binary) if paired
               else UnitMeasure(wanted, labels, binary=binary))
    test = SequentialTest(len(wanted), alpha, beta)
    played = 0
    while played < max_games:
        n = min(step, max_games - played)
        new_values = _batch_values(prep, played, n, seed, wanted, chunk, executor)
        if paired:
            measure.add(new_values, _batch_values(old, played, n, seed, wanted, chunk, executor), n)
        else:
            measure.add(new_values, n)
        played += n
        if paired:
            test.look(measure.old.measurements(), measure.new.measurements(), tolerances, played,
                      diff=measure.differences())
        else:
            # the run's errors pooled with the baseline's per unit (decision.run_error): its units
            # are games, or deals of gpd games
            test.look(baseline.metrics, measure.measurements(), tolerances, played,
                      base_units=baseline.games / gpd)
        if log is not None:
            _, failed, passed, open_ = test.looks[-1]
            log(f"  {played:>10,} games: {failed} failed, {passed} passed, {open_} open")
        if test.verdict != "undecided":
            break
    meta = {"game": prep.game, "players": prep.n_players, "games": played, "seed": seed,
            "strategies": prep.strategy_names, "rules_name": prep.rules_name,
            "rules_sha256": prep.rules_sha256, "rules_text": prep.rules_text,
            "engine": baseline.engine, "rotate_seats": baseline.rotate_seats,
            "strategy_files": prep.meta.get("strategy_files") or {}}
    if paired:       # what is tested: the new rules against the old ones on the same deals
        from analysis.rules_diff import settings_diff

        changes = settings_diff(old.rules_text, prep.rules_text)
    else:
        changes = rules_changes(baseline, meta)
    unread = [] if paired else unread_changes(baseline, meta)
    notes = check_notes(baseline, meta, paired, changes=None if paired else changes, played=True,
                        unread=unread) + set_aside
    if paired:
        notes.insert(0, f"paired: the rules {prep.rules_name} against {old.rules_name} on the same "
                        f"{played:,} deals (seed {seed}); the baseline's values are not used, only its "
                        "configuration, tolerances and error rates")
    # whatever the maximum (--games, [check] games or the power calculation): more games cannot
    # give back the power the baseline's own error takes (paired mode has none: plan.limited [])
    if plan.limited:
        notes.append(limited_note(plan, baseline.games))
    res = CheckResult(baseline, test.results, alpha, beta, meta, "(played by this check, not kept: "
                      "--save-run DIR keeps it)", notes, games=played, max_games=max_games,
                      looks=list(test.looks), paired=paired,
                      against_rules=str(against_rules) if paired else "", rules_changes=changes,
                      rules_unread=unread,
                      limited=list(plan.limited), baseline_games_needed=plan.baseline_games,
                      left_out=left_out,
                      bots_changed=baseline.strategy_file_changes(meta["strategy_files"]))
    if save_run is not None:
        path = runner.run(prep, games=played, seed=seed, out=save_run, force=force, threads=threads,
                          raw=True, quiet=True, executor=executor)
        res.run_path = str(path)
    return res


__all__ = ["play_check"]
