"""The smallest difference that matters is settable per run and in the baseline (issue 29, item 4):
``--smallest-difference win_share=2pp,score=3`` on report, baseline, check and sweep; a bad value
is one line and exit code 2; the baseline records it and check words changes by it; the default
stays the game's own (GameSpec.smallest_difference)."""

from __future__ import annotations

import json
import math
import re

import pytest

from analysis.load import parse_smallest_difference
from cli import _run
from simcore import runner


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("middle-ages", games=600, seed=3, out=tmp_path_factory.mktemp("sd") / "run",
                           quiet=True, players=4)


@pytest.fixture(scope="module")
def other(tmp_path_factory):
    """A run of the same configuration on another seed: what a check of a RUN compares (a run on
    the baseline's own seed is refused)."""
    return runner.simulate("middle-ages", games=600, seed=4, out=tmp_path_factory.mktemp("sd") / "other",
                           quiet=True, players=4)


def test_parse_takes_pp_percent_and_units():
    assert parse_smallest_difference("win_share=2pp,score=3") == {"share": 0.02, "score": 3.0}
    assert parse_smallest_difference("win_share=2.5%, length=1") == {"share": 0.025, "length": 1.0}
    assert parse_smallest_difference("win_share=0.5") == {"share": 0.005}     # bare: pp
    assert parse_smallest_difference(None) == {}


@pytest.mark.parametrize("value,needle", [
    ("coins=3", "coins: unknown metric"),
    ("win_share=abc", "not a number"),
    ("win_share=0pp", "between 0 and 100 pp"),
    ("win_share=120", "between 0 and 100 pp"),
    ("score=-2", "must be > 0"),
    ("score=1,score=2", "given twice"),
    ("score", "expected METRIC=VALUE"),
])
@pytest.mark.parametrize("command", ["report", "baseline", "check", "sweep"])
def test_bad_values_are_one_line_exit_2_on_every_command(run, tmp_path, capsys, command, value, needle):
    args = {"report": ["report", str(run), "--out", str(tmp_path / "rep")],
            "baseline": ["baseline", str(run), "--out", str(tmp_path / "b.toml")],
            "check": ["check", str(run), "--baseline", str(tmp_path / "missing.toml")],
            "sweep": ["sweep", "--vary", "income.palais.base=3..4", "--games", "100",
                      "--out", str(tmp_path / "sw")]}[command]
    code = _run([*args, "--smallest-difference", value])
    err = capsys.readouterr().err.strip()
    assert code == 2 and needle in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "rep").exists() and not (tmp_path / "sw").exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_report_words_verdicts_by_the_given_size(run, tmp_path):
    """The whole report command, its figures built but not drawn (tests/undrawn_figures.py):
    drawing them (matplotlib's layout and Agg, most of a report's CPU: 4.3 s for this test) does not
    read the smallest difference, and tests/reports draw every figure of a report."""
    from undrawn_figures import figures_undrawn

    out = tmp_path / "rep"
    with figures_undrawn():
        assert _run(["report", str(run), "--out", str(out), "--smallest-difference", "win_share=7pp"]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Verdict (Holm over the seats; 7 pp matters)" in page
    assert "the 7 pp that matters" in page
    assert "1 pp matters" not in page
    # default: the game's own 1 pp (the seat table the page is built from: a second whole report,
    # figures and all, cost ~3 s of the suite)
    from analysis import analyse, open_runs
    from reports.sections import seat_rows

    assert "Verdict (Holm over the seats; 1 pp matters)" in seat_rows(analyse(open_runs([run]))).columns


def test_the_baseline_records_it_and_check_uses_it(run, other, tmp_path, capsys):
    from analysis.check.baseline import load_baseline

    b = tmp_path / "b.toml"
    assert _run(["baseline", str(run), "--out", str(b), "--tolerance", "10", "--score-tolerance", "10",
                 "--smallest-difference", "win_share=3pp,score=4"]) == 0
    text = b.read_text()
    assert re.search(r"^\[smallest_difference\]", text, re.M)
    assert re.search(r"^win_share = 3\b", text, re.M) and re.search(r"^score = 4\b", text, re.M)
    base = load_baseline(b)
    assert base.smallest == {"share": pytest.approx(0.03), "score": 4.0}
    assert base.smallest_of("seat_win_share") == pytest.approx(3.0)
    assert base.smallest_of("seat_mean_score") == 4.0
    capsys.readouterr()
    code = _run(["check", str(other), "--baseline", str(b)])
    out = capsys.readouterr().out
    assert code in (0, 3), out
    assert "smallest difference that matters: 3 pp, 4 coins" in out
    # check --smallest-difference wins over the baseline's
    code = _run(["check", str(other), "--baseline", str(b), "--smallest-difference", "win_share=5pp"])
    out = capsys.readouterr().out
    assert "smallest difference that matters: 5 pp, 4 coins" in out
    # a baseline without the table (written before it) takes the game's own: 1 pp and 2 coins
    old = tmp_path / "old.toml"
    old.write_text(re.sub(r"^\[smallest_difference\].*?\n\n", "", text, flags=re.M | re.S))
    assert load_baseline(old).smallest == {}
    assert load_baseline(old).smallest_of("seat_mean_score") == 2.0
    _run(["check", str(other), "--baseline", str(old)])
    assert "smallest difference that matters: 1 pp, 2 coins (the game's defaults)" in capsys.readouterr().out


def test_check_words_a_failing_change_by_size():
    from analysis.check.decision import MetricResult
    from analysis.check.presentation import explain

    fields = MetricResult.__dataclass_fields__
    # no error on either side (review S #3: a share's change interval is Newcombe's from the two
    # shares' intervals, here both of width 0, so the change's is +2.00 to +2.00)
    values = dict(metric="seat_win_share", key="Seat 1", label="Seat 1 win share", value=27.0, low=27.0,
                  high=27.0, base=25.0, base_low=25.0, base_high=25.0, diff=2.0, tolerance=1.0,
                  verdict="fail", decided_games=4000)
    r = MetricResult(**{k: values.get(k, 0.0) for k in fields})
    assert "at least the 2 pp that matter" in explain(r, smallest=2.0)
    assert "smaller than the 3 pp that matter" in explain(r, smallest=3.0)
    assert "at least the 1 pp that matters" in explain(r, smallest=1.0)


def test_check_words_a_change_by_its_interval_not_its_estimate():
    """+2.00 pp, 27.0% (25.6–28.4) against 25.0% (24.7–25.3): the change's 95% interval, Newcombe's
    from the two shares' intervals (review S #3), 2 ∓ √(1.4² + 0.3²) = +0.57 to +3.43, reaches past
    2 pp and below it (cannot tell), lies beyond 0.4 pp (at least) and inside ±4 pp (smaller)."""
    from analysis.check.decision import MetricResult
    from analysis.check.presentation import explain

    fields = MetricResult.__dataclass_fields__
    values = dict(metric="seat_win_share", key="Seat 4", label="Seat 4 win share", value=27.0, low=25.6,
                  high=28.4, base=25.0, base_low=24.7, base_high=25.3, diff=2.0, diff_se=0.8,
                  tolerance=1.0, verdict="fail", decided_games=4000)
    r = MetricResult(**{k: values.get(k, 0.0) for k in fields})
    lo, hi = 2.0 - math.hypot(27.0 - 25.6, 25.3 - 25.0), 2.0 + math.hypot(28.4 - 27.0, 25.0 - 24.7)
    # (a failing metric gives the interval beside its change, review AB #6, the size words after it)
    assert (f"+2.00 pp (95% interval of the change {lo:+.2f} to {hi:+.2f} pp); these games cannot tell "
            "whether it reaches the 2 pp that matter,") in explain(r, smallest=2.0)
    assert "at least the 0.4 pp that matter" in explain(r, smallest=0.4)
    assert "smaller than the 4 pp that matter" in explain(r, smallest=4.0)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_sweep_records_it_for_its_page(tmp_path):
    out = tmp_path / "sw"
    assert _run(["sweep", "--vary", "income.palais.base=3..4", "--games", "300", "--out", str(out), "-q",
                 "--smallest-difference", "win_share=4pp"]) == 0
    assert json.loads((out / "sweep.json").read_text())["smallest_difference"] == {"share": 0.04}
    from analysis.sweep.metrics import sensitivity

    eff = sensitivity(out).effects
    shares = eff.filter(eff["metric"].str.starts_with("seat_win_share"))
    assert shares.height and set(shares["smallest"].round(6).to_list()) == {0.04}
    eff2 = sensitivity(out, {"share": 0.06}).effects      # the page's over the sweep's
    assert set(eff2.filter(eff2["metric"].str.starts_with("seat_win_share"))["smallest"].round(6)
               .to_list()) == {0.06}
