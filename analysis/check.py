"""Baselines and the win-rate regression check (``balance baseline``, ``balance check``).

A *baseline* (a commented TOML file, see :func:`render_baseline`) records what a run measured —
win share per seat and per strategy, mean score per seat, each with its 95 % interval, standard error
and sample size —, how to reproduce the run (game, players, strategies, seed, games, rules file and
its sha256) and the accepted tolerance of every metric. :func:`measure` reads those metrics off the
analysis tables (:func:`analysis.seats.seat_table`, :func:`analysis.matchups.strategy_table`).

The check (:func:`compare`) decides for every metric, from the difference d = run − baseline of two
independent estimates (standard error √(se_run² + se_base²)) and the tolerance δ:

* **fail** — the data show |true difference| > δ: the one-sided z test of H0 "|Δ| ≤ δ" in the
  direction of d, p = P(Z > (|d| − δ)/se), has a Holm-adjusted p-value below α;
* **pass** — the data show |true difference| < δ: two one-sided tests (TOST) of equivalence,
  p = max(P(Z > (d + δ)/se), P(Z > (δ − d)/se)), Holm-adjusted p below α;
* **inconclusive** — neither: the sample cannot tell (too few games for the tolerance).

Holm's correction runs over all checked metrics, separately for the fail tests and the equivalence
tests, so the chance that a check of a configuration whose every metric is within tolerance fails is
at most α (reached only when metrics sit exactly on the tolerance; ≈ 0 for an unchanged
configuration), and the chance that a metric truly beyond tolerance is declared *pass* is at most α.
The run's verdict is fail if any metric fails, pass if every metric passes, else inconclusive
(exit code 0 with a warning, or 1 with ``on_inconclusive = "fail"``). docs/ci.md explains the
choice and the measured error rates (benchmarks/bench_check_false_alarms.py).

:func:`text_report`, :func:`markdown_summary` and :func:`junit_xml` present a
:class:`CheckResult` for a terminal, a CI job summary and CI test reporters.

May import polars, numpy, the standard library, :mod:`analysis` and its modules,
:mod:`simcore.config`, :mod:`simcore.errors` and :mod:`simcore.rundir` (never the runner: playing
the games of a check is :mod:`simcore.cli.check`'s job).
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Sequence
from xml.etree import ElementTree as ET

import numpy as np

from analysis import stats
from simcore.config import Table, read_toml
from simcore.errors import UsageError
from simcore.rundir import read_meta

FORMAT = 1
DEFAULT_ALPHA = 0.05
DEFAULT_SEED_OFFSET = 1
ON_INCONCLUSIVE = ("pass", "fail")
_Z95 = stats.z_quantile(0.95)


@dataclass(frozen=True)
class Kind:
    """A kind of checked metric: its unit, the word for a difference, default tolerance."""

    unit: str            # unit of value / interval / se in the baseline ("%" or "coins")
    diff_unit: str       # how a difference is named ("points", "coins")
    tolerance: float     # default accepted change, in diff_unit
    scale: float         # analysis-table value × scale = value in unit


KINDS = {
    "seat_win_share": Kind("%", "points", 1.0, 100.0),
    "seat_mean_score": Kind("coins", "coins", 1.0, 1.0),
    "strategy_win_share": Kind("%", "points", 1.0, 100.0),
}
DEFAULT_TOLERANCE = {k: v.tolerance for k, v in KINDS.items()}


# ---------------------------------------------------------------------------------------------
# Measuring a run
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Measurement:
    """One metric of one run, in the metric's unit (win shares in %, scores in coins)."""

    metric: str
    key: str
    label: str
    value: float
    ci_low: float
    ci_high: float
    se: float
    n: int
    tolerance: float | None = None   # per-metric override from a baseline file

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


def _se(low: float, high: float) -> float:
    """Standard error read off a 95 % interval (half-width / 1.96), as analysis.compare does."""
    return (high - low) / (2.0 * _Z95)


def measure(rs) -> list[Measurement]:
    """The checked metrics of a :class:`analysis.load.RunSet`.

    Seat win shares (Wilson interval) and mean scores (t interval) from
    :func:`analysis.seats.seat_table`; strategy win shares from
    :func:`analysis.matchups.strategy_table` when the run has two strategies or more (with one
    strategy its win share is exactly 1/n and says nothing).
    """
    from analysis.matchups import has_matchups, strategy_table
    from analysis.seats import seat_table

    out: list[Measurement] = []
    seats = seat_table(rs)
    k = KINDS["seat_win_share"].scale
    for r in seats.iter_rows(named=True):
        out.append(Measurement("seat_win_share", r["seat_label"], f"{r['seat_label']} win share",
                               k * r["win_share"], k * r["ci_low"], k * r["ci_high"],
                               k * _se(r["ci_low"], r["ci_high"]), int(r["games"])))
    for r in seats.iter_rows(named=True):
        out.append(Measurement("seat_mean_score", r["seat_label"], f"{r['seat_label']} mean score",
                               r["mean_score"], r["score_ci_low"], r["score_ci_high"],
                               _se(r["score_ci_low"], r["score_ci_high"]), int(r["games"])))
    if has_matchups(rs):
        for r in strategy_table(rs).iter_rows(named=True):
            out.append(Measurement("strategy_win_share", r["strategy"], f"{r['strategy']} win share",
                                   k * r["win_share"], k * r["ci_low"], k * r["ci_high"],
                                   k * _se(r["ci_low"], r["ci_high"]), int(r["units"])))
    return out


def measure_run(run: str | Path) -> tuple[dict, list[Measurement]]:
    """(run.json, metrics) of one run directory."""
    from analysis import open_runs

    meta = read_meta(run)
    return meta, measure(open_runs([run]))


# ---------------------------------------------------------------------------------------------
# Baseline files
# ---------------------------------------------------------------------------------------------

@dataclass
class Baseline:
    """A baseline file as loaded (see :func:`render_baseline` for every key)."""

    path: Path
    game: str
    players: int
    strategies: list[str]
    rotate_seats: bool
    engine: str
    seed: int
    games: int
    rules: str                    # "default" or a path relative to the baseline file
    rules_sha256: str
    version: str
    created_utc: str
    alpha: float
    check_games: int
    seed_offset: int
    on_inconclusive: str
    tolerance: dict[str, float]
    metrics: list[Measurement]

    def rules_path(self) -> Path | None:
        """The rules file the baseline names (None = the game's shipped default rules)."""
        if self.rules == "default":
            return None
        p = Path(self.rules)
        return p if p.is_absolute() else (self.path.parent / p)

    def tolerance_of(self, m: Measurement) -> float:
        return m.tolerance if m.tolerance is not None else self.tolerance[m.metric]

    @property
    def check_seed(self) -> int:
        return self.seed + self.seed_offset


def _shipped_configs() -> Path:
    return Path(str(resources.files("configs"))).resolve()


def rules_entry(meta: dict, baseline_path: str | Path) -> str:
    """How a baseline names the run's rules: "default" for a rules file shipped with the toolkit,
    else the path relative to the baseline file's directory."""
    name = str(meta.get("rules_name") or "")
    if not name or name.startswith("<"):
        return "default"
    p = Path(name).resolve()
    try:
        p.relative_to(_shipped_configs())
        return "default"
    except ValueError:
        pass
    return Path(os.path.relpath(p, Path(baseline_path).resolve().parent)).as_posix()


def _q(s: str) -> str:
    """A TOML basic string (JSON string syntax is valid TOML)."""
    return json.dumps(str(s), ensure_ascii=False)


def _num(x: float, digits: int = 6) -> str:
    if x is None or not math.isfinite(float(x)):
        return "nan"
    v = round(float(x), digits)
    return repr(v if v != 0 else 0.0)


def _aligned(lines: list[tuple[str, str]], width: int = 32) -> list[str]:
    """``key = value`` lines with their ``# comment`` aligned."""
    out = []
    for assignment, comment in lines:
        pad = max(width, len(assignment) + 2)
        out.append(f"{assignment:<{pad}}# {comment}" if comment else assignment)
    return out


def simulate_command(meta: dict, rules: str, out: str = "runs/baseline") -> str:
    """The ``balance simulate`` command line that reproduces a run (rules given as in the baseline)."""
    strategies = meta.get("strategies") or []
    uniq = list(dict.fromkeys(strategies))
    strat = uniq[0] if len(uniq) == 1 else ",".join(strategies)
    parts = ["balance simulate", f"--game {meta.get('game')}", f"--players {meta.get('players')}",
             f"--strategies {strat}", f"--seed {meta.get('seed')}", f"--games {meta.get('games')}"]
    if rules != "default":
        parts.append(f"--rules {rules}")
    if meta.get("rotate_seats"):
        parts.append("--rotate-seats")
    if meta.get("engine", "kernel") != "kernel":
        parts.append(f"--engine {meta.get('engine')}")
    parts.append(f"--out {out} --quiet")
    return " ".join(parts)


def render_baseline(meta: dict, metrics: Sequence[Measurement], out: str | Path, *,
                    source: str = "", tolerance: dict[str, float] | None = None,
                    alpha: float = DEFAULT_ALPHA, check_games: int | None = None,
                    seed_offset: int = DEFAULT_SEED_OFFSET, on_inconclusive: str = "pass") -> str:
    """The text of a baseline file for a run (``meta`` = its run.json, ``metrics`` from :func:`measure`).

    Every key is explained by a comment in the file itself.
    """
    tol = dict(DEFAULT_TOLERANCE)
    tol.update(tolerance or {})
    rules = rules_entry(meta, out)
    games = int(meta.get("games") or 0)
    check_games = int(check_games or games)
    out_name = Path(out).as_posix()
    src = source or "runs/baseline"
    strategies = [str(s) for s in (meta.get("strategies") or [])]
    present = [k for k in KINDS if any(m.metric == k for m in metrics)]
    rules_note = ("the rules shipped with the toolkit" if rules == "default"
                  else f"the file {rules}, relative to this file's directory")
    lines = [
        "# Baseline for `balance check`: what a run measured, how to reproduce it, and how much change",
        "# is accepted. Edit the [check] settings and the tolerances freely; regenerate the measurements",
        "# (the [[metric]] blocks) with the commands below instead of editing them by hand.",
        "#",
        "# Reproduce the measured run and this file:",
        f"#   {simulate_command(meta, rules, src)}",
        f"#   balance baseline {src} --out {out_name} --force",
        "# Check the current rules and engine against it (exit 0 pass, 1 regression, 2 usage error):",
        f"#   balance check --baseline {out_name}",
        "# The procedure (TOST equivalence and beyond-tolerance tests with Holm's correction) and its",
        "# error rates are explained in docs/ci.md of the balance toolkit.",
        "",
    ]
    lines += _aligned([(f"format = {FORMAT}", "layout version of this file (balance check refuses others)")])
    lines += ["", "[run]                           # the measured run: balance check replays this configuration"]
    lines += _aligned([
        (f"game = {_q(meta.get('game', ''))}", "game, as in `balance simulate --game`"),
        (f"players = {int(meta.get('players') or 0)}", "players per game"),
        (f"strategies = [{', '.join(_q(s) for s in strategies)}]",
         "strategy of each seat, seat 1 first (preset names or strategy TOML paths)"),
        (f"rotate_seats = {'true' if meta.get('rotate_seats') else 'false'}",
         "every deal played once per rotation of the strategies over the seats"),
        (f"engine = {_q(meta.get('engine', 'kernel'))}", "kernel (Numba) or reference (pure Python)"),
        (f"seed = {int(meta.get('seed') or 0)}", "seed of the measured run"),
        (f"games = {games}", "games in the measured run"),
        (f"rules = {_q(rules)}", f'"default" (shipped rules) or a rules TOML path relative to this file; here: {rules_note}'),
        (f"rules_sha256 = {_q(meta.get('rules_sha256', ''))}",
         "sha256 of the rules file when measured; a check whose rules differ says so"),
        (f"version = {_q(meta.get('version', ''))}", "toolkit version that made the run (information only)"),
        (f"created_utc = {_q(meta.get('created_utc', time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())))}",
         "when the run was made (information only)"),
    ])
    lines += ["", "[check]                         # how `balance check --baseline THIS_FILE` decides"]
    lines += _aligned([
        (f"alpha = {_num(alpha)}", "error rate: at most this chance of a false FAIL (and of a false PASS), Holm over all metrics"),
        (f"games = {check_games}", "games the check plays when given no run directory (override: --games)"),
        (f"seed_offset = {int(seed_offset)}", "the check plays seed = run.seed + seed_offset (override: --seed); not 0, so its games are new"),
        (f"on_inconclusive = {_q(on_inconclusive)}", '"pass": exit 0 with a warning when the games cannot tell; "fail": exit 1'),
    ])
    lines += ["", "[tolerance]                     # accepted change, ± in each metric's unit; applies to every [[metric]] of that kind"]
    tol_docs = {
        "seat_win_share": "percentage points of win share, per seat",
        "seat_mean_score": "coins of mean final score, per seat",
        "strategy_win_share": "percentage points of win share, per strategy (runs with two strategies or more)",
    }
    lines += _aligned([(f"{k} = {_num(tol[k])}", tol_docs[k]) for k in KINDS if k in present])
    lines += [
        "",
        "# The measured metrics, one [[metric]] block each:",
        "#   metric   kind: seat_win_share, seat_mean_score or strategy_win_share",
        "#   key      which seat (Seat 1…n) or strategy",
        "#   label    how reports name it",
        '#   unit     "%" (of games won, shared wins counting 1/k) or "coins"',
        "#   value    the measured value, in unit",
        "#   ci_low, ci_high   its 95 % interval (Wilson for win shares, Student t for mean scores)",
        "#   se       its standard error, in unit: what the check uses (with the run's own)",
        "#   n        games (or, per strategy, player rows or deals) behind the value",
        "# Add `tolerance = X` to a block to override [tolerance] for that metric alone; delete a block",
        "# to stop checking that metric.",
    ]
    for m in metrics:
        lines += ["", "[[metric]]", f"metric = {_q(m.metric)}", f"key = {_q(m.key)}", f"label = {_q(m.label)}",
                  f"unit = {_q(m.kind.unit)}", f"value = {_num(m.value)}", f"ci_low = {_num(m.ci_low)}",
                  f"ci_high = {_num(m.ci_high)}", f"se = {_num(m.se, 8)}", f"n = {int(m.n)}"]
        if m.tolerance is not None:
            lines.append(f"tolerance = {_num(m.tolerance)}")
    return "\n".join(lines) + "\n"


def make_baseline(run: str | Path, out: str | Path, *, force: bool = False,
                  tolerance: dict[str, float] | None = None, alpha: float = DEFAULT_ALPHA,
                  check_games: int | None = None, seed_offset: int = DEFAULT_SEED_OFFSET,
                  on_inconclusive: str = "pass") -> Path:
    """Measure run directory ``run`` and write the baseline file ``out`` (atomic; no overwrite
    without ``force``)."""
    from analysis.export import check_output_file, write_text_atomic

    _check_settings(alpha, seed_offset, on_inconclusive, tolerance or {})
    check_output_file(out, force)
    meta, metrics = measure_run(run)
    text = render_baseline(meta, metrics, out, source=Path(run).as_posix(), tolerance=tolerance,
                           alpha=alpha, check_games=check_games, seed_offset=seed_offset,
                           on_inconclusive=on_inconclusive)
    return write_text_atomic(out, text, force)


def _check_settings(alpha: float, seed_offset: int, on_inconclusive: str, tolerance: dict) -> None:
    if not 0 < alpha < 0.5:
        raise UsageError(f"--alpha {alpha}: must be between 0 and 0.5 (e.g. 0.05)")
    if seed_offset == 0:
        raise UsageError("--seed-offset 0: the check would replay the baseline's own games")
    if on_inconclusive not in ON_INCONCLUSIVE:
        raise UsageError(f"--on-inconclusive {on_inconclusive}: must be pass or fail")
    for k, v in tolerance.items():
        if not (isinstance(v, (int, float)) and v >= 0 and math.isfinite(v)):
            raise UsageError(f"tolerance of {k}: must be a number >= 0, got {v!r}")


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline file (one-line :class:`ConfigError` naming file and key)."""
    src = read_toml(path, what="baseline")
    top = Table(src.data, src.name)
    fmt = top.get("format", int)
    if fmt != FORMAT:
        raise top.error("format", f"version {fmt} is not supported (this toolkit reads {FORMAT})")
    run = top.table("run")
    game = run.get("game", str)
    players = run.get("players", int, lo=1)
    strategies = run.get("strategies", list)
    if not strategies or not all(isinstance(s, str) for s in strategies):
        raise run.error("strategies", "must be a list of strategy names")
    if len(strategies) != players:
        raise run.error("strategies", f"{len(strategies)} names for {players} players")
    rotate = run.get("rotate_seats", bool, False)
    engine = run.get("engine", str, "kernel")
    seed = run.get("seed", int, lo=0)
    games = run.get("games", int, lo=1)
    rules = run.get("rules", str)
    sha = run.get("rules_sha256", str)
    version = run.get("version", str, "")
    created = run.get("created_utc", str, "")
    run.done()
    chk = top.table("check", None)
    alpha = chk.get("alpha", float, DEFAULT_ALPHA)
    if not 0 < alpha < 0.5:
        raise chk.error("alpha", f"must be between 0 and 0.5, got {alpha!r}")
    check_games = chk.get("games", int, games, lo=1)
    seed_offset = chk.get("seed_offset", int, DEFAULT_SEED_OFFSET)
    if seed_offset == 0:
        raise chk.error("seed_offset", "must not be 0 (the check would replay the baseline's own games)")
    on_inc = chk.get("on_inconclusive", str, "pass", choices=list(ON_INCONCLUSIVE))
    chk.done()
    tol_t = top.table("tolerance", None)
    tolerance = dict(DEFAULT_TOLERANCE)
    for k in KINDS:
        tolerance[k] = tol_t.get(k, float, DEFAULT_TOLERANCE[k], lo=0.0)
    tol_t.done()
    metrics = []
    seen = set()
    for t in top.tables("metric"):
        metric = t.get("metric", str, choices=list(KINDS))
        key = t.get("key", str)
        if (metric, key) in seen:
            raise t.error("key", f"{metric} {key!r} appears twice")
        seen.add((metric, key))
        unit = t.get("unit", str, KINDS[metric].unit)
        if unit != KINDS[metric].unit:
            raise t.error("unit", f"{metric} is measured in {KINDS[metric].unit!r}, got {unit!r}")
        value = t.get("value", float)
        se = t.get("se", float, lo=0.0)
        m = Measurement(metric, key, t.get("label", str, f"{key} {metric.replace('_', ' ')}"), value,
                        t.get("ci_low", float, value - _Z95 * se), t.get("ci_high", float, value + _Z95 * se),
                        se, t.get("n", int, 0, lo=0),
                        t.get("tolerance", float, None, lo=0.0) if t.has("tolerance") else None)
        for name, v in (("value", m.value), ("se", m.se)):
            if not math.isfinite(v):
                raise t.error(name, "must be a finite number")
        t.done()
        metrics.append(m)
    if not metrics:
        raise top.error("metric", "no [[metric]] block: nothing to check")
    top.done()
    return Baseline(path=Path(path), game=game, players=players, strategies=list(strategies),
                    rotate_seats=rotate, engine=engine, seed=seed, games=games, rules=rules,
                    rules_sha256=sha, version=version, created_utc=created, alpha=alpha,
                    check_games=check_games, seed_offset=seed_offset, on_inconclusive=on_inc,
                    tolerance=tolerance, metrics=metrics)


# ---------------------------------------------------------------------------------------------
# The procedure
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class MetricResult:
    """The verdict on one metric. Values in the metric's unit; p-values unadjusted and Holm-adjusted."""

    metric: str
    key: str
    label: str
    base: float
    base_low: float
    base_high: float
    base_se: float
    base_n: int
    value: float
    low: float
    high: float
    se: float
    n: int
    diff: float
    diff_se: float
    tolerance: float
    p_beyond: float
    p_beyond_adjusted: float
    p_within: float
    p_within_adjusted: float
    verdict: str          # "pass", "fail" or "inconclusive"

    @property
    def kind(self) -> Kind:
        return KINDS[self.metric]


def _sf(z: float) -> float:
    if math.isnan(z):
        return float("nan")
    return stats.normal_sf(z)


def _p_beyond(d: float, se: float, tol: float) -> float:
    """p-value of H0 "|Δ| ≤ tol" against "|Δ| > tol": one-sided test in the direction of d."""
    if se <= 0:
        return 0.0 if abs(d) > tol else 1.0
    return min(_sf((d - tol) / se), _sf((-d - tol) / se))


def _p_within(d: float, se: float, tol: float) -> float:
    """TOST p-value of H0 "|Δ| ≥ tol" against "|Δ| < tol": the larger of the two one-sided p."""
    if se <= 0:
        return 0.0 if abs(d) < tol else 1.0
    return max(_sf((d + tol) / se), _sf((tol - d) / se))


def compare(baseline: Sequence[Measurement], run: Sequence[Measurement], tolerances: Sequence[float],
            alpha: float = DEFAULT_ALPHA) -> list[MetricResult]:
    """Decide pass / fail / inconclusive for every baseline metric (see the module docstring).

    ``baseline[i]`` is compared with the run metric of the same (metric, key); ``tolerances[i]`` is
    its accepted ± change. Raises :class:`UsageError` when the run lacks a baseline metric.
    """
    by_key = {(m.metric, m.key): m for m in run}
    rows = []
    for b, tol in zip(baseline, tolerances):
        r = by_key.get((b.metric, b.key))
        if r is None:
            raise UsageError(f"the run has no {b.metric} for {b.key!r} (the baseline has; "
                             "was the run made with other players or strategies?)")
        d = r.value - b.value
        se = math.hypot(r.se, b.se)
        rows.append((b, r, d, se, float(tol), _p_beyond(d, se, tol), _p_within(d, se, tol)))
    p_beyond_adj = stats.holm([row[5] for row in rows]) if rows else np.array([])
    p_within_adj = stats.holm([row[6] for row in rows]) if rows else np.array([])
    out = []
    for (b, r, d, se, tol, pb, pw), pba, pwa in zip(rows, p_beyond_adj, p_within_adj):
        verdict = "fail" if pba < alpha else "pass" if pwa < alpha else "inconclusive"
        out.append(MetricResult(b.metric, b.key, b.label, b.value, b.ci_low, b.ci_high, b.se, b.n,
                                r.value, r.ci_low, r.ci_high, r.se, r.n, d, se, tol, pb, float(pba),
                                pw, float(pwa), verdict))
    return out


@dataclass
class CheckResult:
    """A check: every metric's verdict, the overall verdict, the exit code and what to say about it."""

    baseline: Baseline
    results: list[MetricResult]
    alpha: float
    on_inconclusive: str
    run_meta: dict
    run_path: str
    notes: list[str] = field(default_factory=list)

    @property
    def failed(self) -> list[MetricResult]:
        return [r for r in self.results if r.verdict == "fail"]

    @property
    def inconclusive(self) -> list[MetricResult]:
        return [r for r in self.results if r.verdict == "inconclusive"]

    @property
    def verdict(self) -> str:
        if self.failed:
            return "fail"
        return "inconclusive" if self.inconclusive else "pass"

    @property
    def exit_code(self) -> int:
        v = self.verdict
        return 1 if v == "fail" or (v == "inconclusive" and self.on_inconclusive == "fail") else 0

    @property
    def rules_changed(self) -> bool:
        return self.run_meta.get("rules_sha256") != self.baseline.rules_sha256


def check_configuration(baseline: Baseline, meta: dict) -> None:
    """Refuse a run that is not the baseline's configuration (game, players, strategies, seats)."""
    problems = []
    if meta.get("game") != baseline.game:
        problems.append(f"game {meta.get('game')!r} (baseline: {baseline.game!r})")
    if meta.get("players") != baseline.players:
        problems.append(f"{meta.get('players')} players (baseline: {baseline.players})")
    elif list(meta.get("strategies") or []) != baseline.strategies:
        problems.append(f"strategies {','.join(meta.get('strategies') or [])} "
                        f"(baseline: {','.join(baseline.strategies)})")
    if bool(meta.get("rotate_seats", False)) != baseline.rotate_seats:
        problems.append(f"rotate_seats {bool(meta.get('rotate_seats', False))} "
                        f"(baseline: {baseline.rotate_seats})")
    if problems:
        raise UsageError(f"the run is not the baseline's configuration: {'; '.join(problems)}")


def check_notes(baseline: Baseline, meta: dict) -> list[str]:
    """What a reader must know about a check: other rules, overlapping games, another engine."""
    notes = []
    sha = str(meta.get("rules_sha256", ""))
    if sha != baseline.rules_sha256:
        notes.append(f"rules differ from the baseline's: this run used {meta.get('rules_name', '?')} "
                     f"(sha256 {sha[:12]}…), the baseline {baseline.rules} (sha256 "
                     f"{baseline.rules_sha256[:12]}…); differences below include the rules change")
    if meta.get("seed") == baseline.seed:
        notes.append(f"this run has the baseline's seed {baseline.seed}: its games use the same random "
                     "streams as the baseline's, so the two estimates are not independent and the "
                     "check is not the statistical comparison it is meant to be (use another --seed)")
    if meta.get("engine", "kernel") != baseline.engine:
        notes.append(f"engine {meta.get('engine', 'kernel')} (baseline: {baseline.engine})")
    return notes


def check(baseline: Baseline, run: str | Path, *, alpha: float | None = None,
          on_inconclusive: str | None = None) -> CheckResult:
    """Check run directory ``run`` against ``baseline`` (see :func:`compare`)."""
    meta = read_meta(run)
    check_configuration(baseline, meta)
    alpha = baseline.alpha if alpha is None else alpha
    on_inc = baseline.on_inconclusive if on_inconclusive is None else on_inconclusive
    _check_settings(alpha, baseline.seed_offset, on_inc, {})
    _, measured = measure_run(run)
    results = compare(baseline.metrics, measured, [baseline.tolerance_of(m) for m in baseline.metrics],
                      alpha)
    return CheckResult(baseline, results, alpha, on_inc, meta, str(run), check_notes(baseline, meta))


def shifted(baseline: Baseline, metric: str, key: str, by: float) -> Baseline:
    """A copy of ``baseline`` whose (metric, key) value is moved by ``by`` (tests and benchmarks)."""
    ms = [replace(m, value=m.value + by, ci_low=m.ci_low + by, ci_high=m.ci_high + by)
          if (m.metric, m.key) == (metric, key) else m for m in baseline.metrics]
    return replace(baseline, metrics=ms)


# ---------------------------------------------------------------------------------------------
# Words, Markdown and JUnit XML
# ---------------------------------------------------------------------------------------------

def _fmt(x: float, unit: str) -> str:
    return f"{x:.1f}%" if unit == "%" else f"{x:.1f}"


def _p_text(p: float) -> str:
    if p != p:
        return "p = nan"
    return f"p = {p:.2g}" if p > 0 else "p < 1e-300"


def _fmt_tol(t: float) -> str:
    return f"±{t:.1f}" if abs(t * 10 - round(t * 10)) < 1e-9 else f"±{t:g}"


def _needed_games(r: MetricResult, alpha: float, m: int) -> int | None:
    """Games this run would need for the beyond-tolerance test (|d| > tolerance) or the equivalence
    test (|d| < tolerance) to decide if the observed difference were the truth; None when even
    infinitely many would not do (the baseline's own error is too large for that margin)."""
    margin = abs(abs(r.diff) - r.tolerance)
    if margin <= 0 or r.se <= 0 or r.n <= 0:
        return None
    z = stats.z_quantile(1 - 2 * alpha / max(m, 1))  # one-sided critical value at α/m (Holm's first step)
    target = (margin / z) ** 2 - r.base_se ** 2
    if target <= 0:
        return None
    return int(math.ceil(r.n * r.se ** 2 / target))


def explain(r: MetricResult, alpha: float = DEFAULT_ALPHA, m: int = 1) -> str:
    """One plain sentence on a metric, e.g. "Seat 1 wins 31.2% (30.4–32.0) vs 25.0% in the baseline:
    +6.2 points, beyond the ±1.0 accepted (p = 2e-09 after Holm)."."""
    k = r.kind
    if r.metric == "seat_mean_score":
        what = f"{r.key} scores {_fmt(r.value, k.unit)} coins on average"
    else:
        who = r.key if r.metric == "seat_win_share" else f"Strategy {r.key}"
        what = f"{who} wins {_fmt(r.value, k.unit)}"
    lo, hi = _fmt(r.low, "").strip(), _fmt(r.high, "").strip()
    head = (f"{what} ({lo}–{hi}) vs {_fmt(r.base, k.unit)} in the baseline: "
            f"{r.diff:+.2f} {k.diff_unit}")
    tol = _fmt_tol(r.tolerance)
    if r.verdict == "fail":
        return f"{head}, beyond the {tol} accepted ({_p_text(r.p_beyond_adjusted)} after Holm)."
    if r.verdict == "pass":
        return f"{head}, within the {tol} accepted ({_p_text(r.p_within_adjusted)} after Holm)."
    need = _needed_games(r, alpha, m)
    side = "within" if abs(r.diff) < r.tolerance else "beyond"
    hint = (f"about {need:,} games would show it {side} the tolerance if the difference stays this size"
            if need is not None else "a baseline with more games, or a different tolerance, is needed")
    return f"{head}; the games cannot tell whether this is within the {tol} accepted ({hint})."


def status_line(res: CheckResult) -> str:
    n = len(res.results)
    if res.verdict == "fail":
        return f"FAIL: {len(res.failed)} of {n} metrics moved beyond their tolerance"
    if res.verdict == "inconclusive":
        tail = " (counted as a failure: on_inconclusive = fail)" if res.exit_code else " (not a failure)"
        return (f"INCONCLUSIVE: {len(res.inconclusive)} of {n} metrics could be within tolerance or "
                f"not; none is shown beyond it{tail}")
    return f"PASS: all {n} metrics are within their tolerance"


def _run_line(res: CheckResult) -> str:
    m = res.run_meta
    sha = str(m.get("rules_sha256", ""))
    same = "same as the baseline" if not res.rules_changed else "DIFFERENT from the baseline"
    return (f"{int(m.get('games', 0)):,} games of {m.get('game')}, {m.get('players')} players, seed "
            f"{m.get('seed')}, rules {m.get('rules_name', '?')} (sha256 {sha[:12]}…, {same})")


def _procedure_line(res: CheckResult) -> str:
    return (f"procedure: per metric, beyond-tolerance test and TOST equivalence test on run − baseline, "
            f"Holm over {len(res.results)} metrics, alpha {res.alpha:g}")


def _row_cells(r: MetricResult) -> list[str]:
    u = r.kind.unit
    return [r.label, _fmt(r.base, u), f"{_fmt(r.value, u)} ({_fmt(r.low, '')}–{_fmt(r.high, '')})",
            f"{r.diff:+.2f} {'pts' if u == '%' else 'coins'}", _fmt_tol(r.tolerance), r.verdict.upper() if r.verdict == "fail" else r.verdict]


def text_report(res: CheckResult) -> str:
    """The terminal output of ``balance check``."""
    head = ["metric", "baseline", "this run (95%)", "diff", "tolerance", "verdict"]
    rows = [_row_cells(r) for r in res.results]
    width = [max(len(x) for x in col) for col in zip(head, *rows)]
    fmt = lambda cells: "  ".join(c.ljust(w) if i in (0, 5) else c.rjust(w)  # noqa: E731
                                  for i, (c, w) in enumerate(zip(cells, width))).rstrip()
    lines = [f"balance check against {res.baseline.path}",
             f"  run: {res.run_path}", f"       {_run_line(res)}", f"  {_procedure_line(res)}"]
    lines += [f"  note: {n}" for n in res.notes]
    lines += ["", "  " + fmt(head)] + ["  " + fmt(r) for r in rows] + ["", status_line(res)]
    m = len(res.results)
    for r in res.failed:
        lines.append(f"  - {explain(r, res.alpha, m)}")
    for r in res.inconclusive:
        lines.append(f"  ? {explain(r, res.alpha, m)}")
    return "\n".join(lines) + "\n"


def markdown_summary(res: CheckResult) -> str:
    """A Markdown summary for a CI job (GitHub's $GITHUB_STEP_SUMMARY)."""
    icon = {"pass": "✅", "fail": "❌", "inconclusive": "⚠️"}[res.verdict]
    lines = [f"## {icon} balance check: {res.verdict.upper()}", "",
             f"{status_line(res)}.", "",
             f"- **baseline**: `{res.baseline.path}` ({res.baseline.games:,} games, seed "
             f"{res.baseline.seed}, rules `{res.baseline.rules}`, sha256 `{res.baseline.rules_sha256[:12]}`)",
             f"- **this run**: {_run_line(res)}",
             f"- **{_procedure_line(res)}**"]
    for n in res.notes:
        lines.append(f"- ⚠️ **note**: {n}")
    lines += ["", "| metric | baseline | this run (95 %) | diff | tolerance | verdict |",
              "|---|---:|---:|---:|---:|---|"]
    for r in res.results:
        c = _row_cells(r)
        mark = {"pass": "✅ pass", "fail": "❌ **FAIL**", "inconclusive": "⚠️ inconclusive"}[r.verdict]
        lines.append(f"| {c[0]} | {c[1]} | {c[2]} | {c[3]} | {c[4]} | {mark} |")
    m = len(res.results)
    if res.failed or res.inconclusive:
        lines.append("")
    for r in res.failed:
        lines.append(f"- ❌ {explain(r, res.alpha, m)}")
    for r in res.inconclusive:
        lines.append(f"- ⚠️ {explain(r, res.alpha, m)}")
    return "\n".join(lines) + "\n"


def junit_xml(res: CheckResult) -> str:
    """JUnit XML: one testcase per metric; failures are metrics beyond tolerance (and inconclusive
    ones when they count as failures), skipped are inconclusive ones that do not."""
    m = len(res.results)
    inc_fail = res.on_inconclusive == "fail"
    failures = len(res.failed) + (len(res.inconclusive) if inc_fail else 0)
    skipped = 0 if inc_fail else len(res.inconclusive)
    suite = ET.Element("testsuite", name=f"balance check {res.baseline.path.name}", tests=str(m),
                       failures=str(failures), errors="0", skipped=str(skipped),
                       timestamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()))
    props = ET.SubElement(suite, "properties")
    for name, value in (("baseline", str(res.baseline.path)), ("run", res.run_path),
                        ("games", str(res.run_meta.get("games"))), ("seed", str(res.run_meta.get("seed"))),
                        ("rules_sha256", str(res.run_meta.get("rules_sha256"))),
                        ("baseline_rules_sha256", res.baseline.rules_sha256),
                        ("rules_changed", str(res.rules_changed).lower()), ("alpha", f"{res.alpha:g}"),
                        ("verdict", res.verdict)):
        ET.SubElement(props, "property", name=name, value=value)
    for r in res.results:
        case = ET.SubElement(suite, "testcase", classname=f"balance.check.{r.metric}", name=r.label,
                             time="0")
        text = explain(r, res.alpha, m)
        if r.verdict == "fail":
            ET.SubElement(case, "failure", message=text, type="regression").text = text
        elif r.verdict == "inconclusive":
            if inc_fail:
                ET.SubElement(case, "failure", message=text, type="inconclusive").text = text
            else:
                ET.SubElement(case, "skipped", message=text)
        else:
            ET.SubElement(case, "system-out").text = text
    out = ET.SubElement(suite, "system-out")
    out.text = "\n".join([_run_line(res), _procedure_line(res), *res.notes])
    root = ET.Element("testsuites", name="balance check", tests=str(m), failures=str(failures),
                      errors="0", skipped=str(skipped))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_reports(res: CheckResult, junit: str | Path | None = None,
                  summary: str | Path | None = None) -> None:
    """``--junit``: replaced atomically; ``--summary``: appended (as $GITHUB_STEP_SUMMARY expects)."""
    from analysis.export import write_text_atomic

    if junit is not None:
        write_text_atomic(junit, junit_xml(res), force=True, option="--junit")
    if summary is not None:
        p = Path(summary)
        if p.is_dir():
            raise UsageError(f"--summary {p}: is a directory (give a file name)")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            with p.open("a", encoding="utf-8") as fh:
                fh.write(markdown_summary(res))
        except OSError as exc:
            raise UsageError(f"--summary {p}: cannot write ({exc.strerror})") from None


__all__ = ["Baseline", "CheckResult", "DEFAULT_ALPHA", "DEFAULT_TOLERANCE", "KINDS", "Measurement",
           "MetricResult", "check", "check_configuration", "check_notes", "compare", "explain",
           "junit_xml", "load_baseline", "make_baseline", "markdown_summary", "measure", "measure_run",
           "render_baseline", "shifted", "status_line", "text_report", "write_reports"]

