"""Review L #11: an undecided metric whose own 95% interval lies beyond the smallest difference that
matters must not read as decided. Its "at least … that matters" is said to be read on that interval
alone, the sentence says why the check did not decide it (it stopped at another metric's
regression; the decision holds its error over every metric and look), and the table says its
intervals are unadjusted while its verdicts are the sequential test's."""

from __future__ import annotations

from pathlib import Path

from analysis.check.baseline import Baseline
from analysis.check.decision import CheckResult, check_notes, compare
from analysis.check.measure import DEFAULT_TOLERANCE, Measurement
from analysis.check.presentation import markdown_summary, text_report


def _m(key: str, value: float, se: float) -> Measurement:
    return Measurement("seat_win_share", key, f"{key} win share", value, value - 1.96 * se,
                       value + 1.96 * se, se, 10_000)


def _result() -> CheckResult:
    # seat 1: +6.2 pp, se 0.41 — fails at the look. seat 2: +2.0 pp, se sqrt(0.44² + 0.1²) = 0.451:
    # its 95% interval 2.0 ± 1.96·0.451 = 1.12 to 2.88 lies above the 1 pp that matters, yet its
    # LLR (1/0.2036)·1·(2.0 − 1.5) = 2.46 is below log(2·2/0.05) = 4.38 and above log 0.05: open
    base = [_m("Seat 1", 25.0, 0.1), _m("Seat 2", 25.0, 0.1)]
    run = [_m("Seat 1", 31.2, 0.4), _m("Seat 2", 27.0, 0.44)]
    b = Baseline(path=Path("configs/baselines/demo.toml"), game="middle-ages", players=4,
                 strategies=["balanced"] * 4, rotate_seats=False, engine="kernel", seed=7,
                 games=10_000, rules="default", rules_sha256="a" * 64, version="0.1.0",
                 created_utc="", alpha=0.05, check_games=10_000, seed_offset=1,
                 on_inconclusive="pass", tolerance=dict(DEFAULT_TOLERANCE), metrics=list(base))
    meta = {"game": "middle-ages", "players": 4, "games": 10_000, "seed": 8,
            "rules_sha256": "a" * 64, "rules_name": "rules.toml"}
    res = compare(base, run, [1.0, 1.0])
    return CheckResult(b, res, 0.05, 0.05, meta, "runs/x", check_notes(b, meta), games=10_000,
                       max_games=50_000, paired=False, looks=[(10_000, 1, 0, 1)])   # played, stopped at a fail


def test_an_undecided_metric_beyond_what_matters_says_why_it_is_undecided():
    res = _result()
    assert [r.key for r in res.failed] == ["Seat 1"] and [r.key for r in res.undecided] == ["Seat 2"]
    report = text_report(res)
    line = next(x for x in report.splitlines() if x.startswith("  ? Seat 2"))
    # the size is read on the metric's own interval, and said to be
    # (the interval it names is on the line: review M #7; unpaired, the line's other interval is
    # the run's own share, 27.0 ± 1.96·0.44)
    assert "on this interval alone (change +1.12 to +2.88 pp), at least the 1 pp that matters" in line, line
    assert "; at least the 1 pp that matters" not in line, line
    # why it is undecided: stopped at another metric's regression, before its own decision, which
    # is adjusted over both metrics and every look
    assert "not decided when the check stopped at the first regression" in line, line
    assert "another metric failed before this one reached its decision" in line, line
    assert "unadjusted" in line and "over all 2 metrics and every look" in line, line
    # the table's verdict column beside unadjusted intervals
    note = ("the 95% intervals are each metric's own (unadjusted); the verdict column is the "
            "sequential test's, which holds the error at alpha 0.05 over all 2 metrics")
    assert note in report
    assert note[0].upper() + note[1:] in markdown_summary(res)


def test_a_decided_metric_keeps_its_plain_size_words():
    # the failing metric's "at least" is decided: no "alone" there, no note for a check with
    # nothing undecided
    res = _result()
    line = next(x for x in text_report(res).splitlines() if x.startswith("  - Seat 1"))
    assert "; at least the 1 pp that matters" in line and "alone" not in line, line
