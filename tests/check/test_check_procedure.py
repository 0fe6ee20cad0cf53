"""The decision procedure of `balance check` on synthetic numbers: the sequential probability ratio
test per metric (log-likelihood ratios, bounds, frozen directions), its error rates simulated on the
normal model with the baseline's fixed error inside every look, the power calculation, exit codes,
the per-unit measurement of played games, and the JUnit / Markdown / baseline-file renderings."""

from __future__ import annotations

import math
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from analysis.check.baseline import Baseline, load_baseline, render_baseline
from analysis.check.decision import (CheckResult, SequentialTest, check_notes, compare, fixed_information,
                                     fixed_n_verdict, games_for_information, llr, pass_information, plan_games)
from analysis.check.measure import DEFAULT_TOLERANCE, Measurement, PairedMeasure, UnitMeasure, unit_values
from analysis.check.presentation import explain, junit_xml, markdown_summary, text_report, write_reports
from simcore.errors import UsageError


def m(key: str, value: float, se: float, metric: str = "seat_win_share", n: int = 10_000) -> Measurement:
    return Measurement(metric, key, f"{key} win share", value, value - 1.96 * se, value + 1.96 * se, se, n)


# ---------------------------------------------------------------------------------------------
# The test of one metric
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("d,se,tol", [(0.0, 0.3, 1.0), (2.4, 0.2, 1.0), (-1.7, 0.5, 1.5), (0.9, 0.05, 0.5)])
def test_llr_is_the_normal_log_likelihood_ratio_of_twice_against_once_the_tolerance(d, se, tol):
    up, down = llr(d, se, tol)
    assert up == pytest.approx(sps.norm.logpdf(d, 2 * tol, se) - sps.norm.logpdf(d, tol, se), rel=1e-9, abs=1e-9)
    assert down == pytest.approx(sps.norm.logpdf(d, -2 * tol, se) - sps.norm.logpdf(d, -tol, se), rel=1e-9,
                                 abs=1e-9)


def test_bounds_and_verdicts_of_one_look():
    base = [m("Seat 1", 25.0, 0.1), m("Seat 2", 25.0, 0.1), m("Seat 3", 25.0, 0.3), m("Seat 4", 25.0, 0.1)]
    run = [m("Seat 1", 25.1, 0.2),     # tiny change, precise: pass
           m("Seat 2", 28.0, 0.2),     # +3 points, precise: fail
           m("Seat 3", 26.5, 0.5),     # +1.5 points, imprecise: cannot tell
           m("Seat 4", 25.0, 0.2)]
    test = SequentialTest(4, alpha=0.05, beta=0.05)
    res = test.look(base, run, [1.0] * 4, games=10_000)
    assert test.fail_bound == pytest.approx(math.log(2 * 4 / 0.05)) and test.pass_bound == pytest.approx(math.log(0.05))
    assert [r.verdict for r in res] == ["pass", "fail", "undecided", "pass"]
    assert res[1].diff == pytest.approx(3.0) and res[1].diff_se == pytest.approx(math.hypot(0.1, 0.2))
    assert res[1].llr_up == pytest.approx(llr(3.0, math.hypot(0.1, 0.2), 1.0)[0])
    assert test.verdict == "fail" and res[1].decided_games == 10_000 and res[2].decided_games is None


def test_a_direction_stops_at_its_first_crossing():
    test = SequentialTest(1)
    base = [m("Seat 1", 25.0, 0.0)]
    first = test.look(base, [m("Seat 1", 25.0, 0.1)], [1.0], games=1000)       # far inside: both accept
    assert first[0].verdict == "pass"
    later = test.look(base, [m("Seat 1", 26.5, 0.5)], [1.0], games=2000)       # would be open again
    assert later[0].verdict == "pass" and later[0].decided_games == 1000
    assert later[0].llr_up == first[0].llr_up                                  # frozen value shown


def test_missing_metric_and_zero_tolerance_are_usage_errors():
    with pytest.raises(UsageError, match="Seat 5 win share: the games checked have no 'Seat 5'"):
        compare([m("Seat 5", 20, 0.1)], [m("Seat 1", 20, 0.1)], [1.0])
    with pytest.raises(UsageError, match="tolerance 0: the sequential check needs a tolerance > 0"):
        compare([m("Seat 1", 20, 0.1)], [m("Seat 1", 20, 0.1)], [0.0])


def _simulate(delta: float, reps: int, seed: int, *, base_se: float = 0.1, sd: float = 43.0, batch: int = 2000,
              max_games: int = 100_000, tol: float = 1.0, alpha: float = 0.05, beta: float = 0.05):
    """The SPRT of one metric on simulated looks: the baseline's error is drawn once per repetition
    and stays in every look; the run's mean grows by independent batches."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(reps):
        b = 25.0 + rng.normal(0, base_se)
        test = SequentialTest(1, alpha, beta)
        total, n = 0.0, 0
        while n < max_games:
            total += rng.normal(batch * (25.0 + delta), sd * math.sqrt(batch))
            n += batch
            test.look([m("S", b, base_se)], [m("S", total / n, sd / math.sqrt(n))], [tol], n)
            if test.verdict != "undecided":
                break
        out.append((test.verdict, n))
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_error_rates_of_the_sequential_test_hold_on_the_normal_model():
    reps = 1500
    sd = math.sqrt(0.05 * 0.95 / reps)
    at_tol = _simulate(1.0, reps, 1)
    fail = np.mean([v == "fail" for v, _ in at_tol])
    assert fail <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / reps)          # α/(2m) with m = 1
    twice = _simulate(2.0, reps, 2)
    assert np.mean([v == "pass" for v, _ in twice]) <= 0.05 + 3 * sd   # β at twice the tolerance
    unchanged = _simulate(0.0, reps, 3)
    assert np.mean([v == "fail" for v, _ in unchanged]) == 0.0
    assert np.mean([v == "pass" for v, _ in unchanged]) > 0.99
    assert np.mean([n for _, n in unchanged]) < 0.15 * 100_000           # stops early


def test_fixed_n_test_and_power_calculation_agree_with_normal_theory():
    alpha, beta, k, tol = 0.05, 0.05, 8, 1.0
    info = fixed_information(tol, alpha, beta, k)
    se = 1 / math.sqrt(info)
    crit = sps.norm.ppf(1 - alpha / (2 * k))
    assert sps.norm.sf(crit - (2 * tol - tol) / se) == pytest.approx(1 - beta, abs=1e-9)   # power at 2δ
    assert fixed_n_verdict(tol + crit * se * 1.001, se, tol, alpha, k) == "fail"
    assert fixed_n_verdict(tol + crit * se * 0.999, se, tol, alpha, k) == "pass"
    assert games_for_information(info, 43.0, 0.1) == pytest.approx(43.0 ** 2 / (1 / info - 0.01))
    assert math.isinf(games_for_information(info, 43.0, 1.0))
    x = math.sqrt(pass_information(tol, beta, k)) * tol
    assert 1.5 * x - abs(math.log(beta)) / x == pytest.approx(sps.norm.ppf(1 - beta / (2 * k)))


def test_plan_games_from_the_baseline_and_a_baseline_too_small():
    base = [m(f"Seat {i}", 25.0, 0.1, n=200_000) for i in range(1, 5)]
    plan = plan_games(base, [1.0] * 4)
    sd = 0.1 * math.sqrt(200_000)
    want = games_for_information(fixed_information(1.0, 0.05, 0.05, 4), sd, 0.1)
    assert plan.fixed_games == math.ceil(want) and plan.max_games >= 2 * want and plan.max_games % 1000 == 0
    assert plan.limited == []
    weak = [m("Seat 1", 25.0, 0.35, n=15_000)]
    limited = plan_games(weak, [1.0])
    assert limited.limited == ["Seat 1 win share"] and limited.fixed_games is None
    with pytest.raises(UsageError, match="too large for a tolerance of ±1 pp: even an unchanged configuration"):
        plan_games([m("Seat 1", 25.0, 0.8, n=3000)], [1.0])
    # paired mode: no baseline error, so always reachable
    assert plan_games([m("Seat 1", 25.0, 0.8, n=3000)], [1.0], paired=True).limited == []


# ---------------------------------------------------------------------------------------------
# Measuring played games per unit
# ---------------------------------------------------------------------------------------------

def _players(w, score, strategies):
    return {"win_share": np.asarray(w, float).ravel(), "score": np.asarray(score, float).ravel(),
            "strategy": np.asarray(strategies, object).ravel()}


def test_unit_values_per_game_and_per_deal():
    w = [[1, 0, 0], [0, 0.5, 0.5], [0, 0, 1], [1, 0, 0]]
    score = [[9, 1, 2], [3, 7, 7], [1, 2, 8], [6, 5, 4]]
    strat = [["a", "b", "b"]] * 4
    wanted = [("seat_win_share", "Seat 2"), ("seat_mean_score", "Seat 3"), ("strategy_win_share", "b")]
    x = unit_values(_players(w, score, strat), 3, 1, wanted, ["a", "b", "b"])
    assert x[:, 0].tolist() == [0, 50, 0, 0] and x[:, 1].tolist() == [2, 7, 8, 4]
    assert x[:, 2].tolist() == [0, 50, 50, 0]                    # mean of its two seats, in %
    deals = unit_values(_players(w, score, strat), 3, 2, wanted, ["a", "b", "b"])
    assert deals.tolist() == [[25, 4.5, 25], [0, 6, 25]]


def test_unit_measure_is_the_same_whatever_the_batches_and_paired_differences():
    rng = np.random.default_rng(4)
    x = rng.normal(110, 30, (5000, 2))
    wanted, labels = [("seat_mean_score", "Seat 1"), ("seat_mean_score", "Seat 2")], ["a", "b"]
    one = UnitMeasure(wanted, labels)
    one.add(x, 5000)
    many = UnitMeasure(wanted, labels)
    for part in np.array_split(x, 7):
        many.add(part, len(part))
    a, b = one.measurements(), many.measurements()
    assert [r.value for r in a] == pytest.approx([r.value for r in b], rel=1e-14)
    assert [r.se for r in a] == pytest.approx([x[:, j].std(ddof=1) / math.sqrt(5000) for j in (0, 1)], rel=1e-10)
    paired = PairedMeasure(wanted, labels)
    paired.add(x + 1.0, x, 5000)
    d = paired.diff.measurements()
    assert [r.value for r in d] == pytest.approx([1.0, 1.0]) and [r.se for r in d] == pytest.approx([0.0, 0.0], abs=1e-12)


def test_identical_paired_outcomes_pass_at_once():
    test = SequentialTest(1)
    same = [m("Seat 1", 25.0, 0.4)]
    res = test.look(same, same, [1.0], 1000, diff=[Measurement("seat_win_share", "Seat 1", "x", 0.0, 0.0, 0.0, 0.0, 1000)])
    assert res[0].verdict == "pass"


# ---------------------------------------------------------------------------------------------
# Results: exit codes, words, JUnit, Markdown
# ---------------------------------------------------------------------------------------------

def baseline_of(metrics, **kw) -> Baseline:
    args = dict(path=Path("configs/baselines/demo.toml"), game="middle-ages", players=4,
                strategies=["balanced"] * 4, rotate_seats=False, engine="kernel", seed=7, games=10_000,
                rules="default", rules_sha256="a" * 64, version="0.1.0", created_utc="", alpha=0.05,
                check_games=10_000, seed_offset=1, on_inconclusive="pass",
                tolerance=dict(DEFAULT_TOLERANCE), metrics=list(metrics))
    args.update(kw)
    return Baseline(**args)


def result(verdicts_run, sha="a" * 64, paired=False) -> CheckResult:
    base = [m(f"Seat {i + 1}", 25.0, 0.1) for i in range(len(verdicts_run))]
    run = [m(f"Seat {i + 1}", v, s) for i, (v, s) in enumerate(verdicts_run)]
    b = baseline_of(base)
    res = compare(base, run, [1.0] * len(base))
    meta = {"game": "middle-ages", "players": 4, "games": 10_000, "seed": 8, "rules_sha256": sha,
            "rules_name": "rules.toml"}
    return CheckResult(b, res, 0.05, 0.05, meta, "runs/x", check_notes(b, meta), games=10_000,
                       max_games=50_000, paired=paired)


def test_exit_codes_pass_fail_and_undecided():
    assert result([(25.0, 0.1)] * 4).verdict == "pass" and result([(25.0, 0.1)] * 4).exit_code == 0
    failing = result([(31.2, 0.4), (25.0, 0.1), (25.0, 0.1), (25.0, 0.1)])
    assert failing.verdict == "fail" and failing.exit_code == 1
    unsure = result([(26.5, 0.5), (25.0, 0.1)])
    assert unsure.verdict == "undecided" and unsure.exit_code == 3


def test_a_failing_metric_is_explained_in_plain_words():
    res = result([(31.2, 0.4), (25.0, 0.1), (25.0, 0.1), (25.0, 0.1)])
    text = explain(res.failed[0])
    # the change's 95% interval beside it (review AB #6), Newcombe's square-and-add from the run's
    # interval (31.2 ± 1.96 × 0.4) and the baseline's (25.0 ± 1.96 × 0.1), computed here
    half = math.hypot(1.959964 * 0.4, 1.959964 * 0.1)
    ends = f"+{6.2 - half:.2f} to +{6.2 + half:.2f} pp"
    # the shares at the change's two decimals (session 56: "25.0% → 25.2%, +0.14 pp")
    assert text == (f"Seat 1 wins 31.20% (30.42–31.98) vs 25.00% in the baseline: +6.20 pp (95% interval of "
                    f"the change {ends}), beyond the ±1.0 accepted (shown after 10,000 games).")
    report = text_report(res)
    assert "FAIL: 1 of 4 metrics moved beyond their tolerance (after 10,000 of at most 50,000 games)" in report
    # the report words the change by the smallest difference that matters (1 pp by default)
    assert text.replace(f"{ends}),", f"{ends}); at least the 1 pp that matters,") in report
    assert "with the old rules on the same deals" in explain(res.failed[0], paired=True)


def test_undecided_and_passing_metrics_say_what_they_mean():
    res = result([(26.5, 0.5), (25.0, 0.1)])
    assert "cannot tell yet whether this is beyond the ±1.0 accepted" in explain(res.undecided[0])
    assert "not decided when the check stopped" in explain(res.undecided[0], stopped=True)
    ok = result([(25.0, 0.1)])
    assert "a change of ±2.0 or more is ruled out" in explain(ok.results[0])
    assert "UNDECIDED: 1 of 2 metrics not decided" in text_report(res) and "(exit code 3)" in text_report(res)


def test_a_pass_claims_what_the_procedure_guarantees_not_that_the_change_is_within_tolerance():
    # d = +1.3 pp, s = hypot(0.1, 0.15) = 0.18: LLR+ = I·δ·(d − 1.5δ) = −0.2/0.0325 = −6.2 ≤ log 0.05 and
    # LLR− ≤ log 0.05 too, so the metric passes although its change is beyond the ±1.0 accepted
    # (the indifference zone, δ to 2δ, may pass: docs/ci.md §3). The sentence beside "+1.30 pp" must
    # not say it is within what is accepted, nor that a change of twice the tolerance is always caught.
    res = result([(26.3, 0.15)])
    r = res.results[0]
    assert r.verdict == "pass" and r.diff == pytest.approx(1.3)
    text = explain(r)
    assert "+1.30 pp" in text and "within what is accepted" not in text and "would have been caught" not in text
    assert "a change of ±2.0 or more is ruled out" in text and "5%" in text
    case = ET.fromstring(junit_xml(res)).find("testsuite/testcase")
    assert "within what is accepted" not in case.find("system-out").text


def test_junit_xml_parses_with_failures_and_skipped():
    res = result([(31.2, 0.4), (22.0, 0.2), (26.5, 0.5), (25.0, 0.1)])
    assert [r.verdict for r in res.results] == ["fail", "fail", "undecided", "pass"]
    root = ET.fromstring(junit_xml(res))
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 4 and suite.get("tests") == "4"
    assert suite.get("failures") == root.get("failures") == "2" and suite.get("errors") == "0"
    assert cases[0].find("failure").get("message").startswith("Seat 1 wins 31.20%")
    # undecided: skipped with the sentence as its message, not an error (revF #13)
    assert cases[2].find("error") is None
    assert cases[2].find("skipped").get("message").startswith("Seat 3 wins 26.50%")
    assert suite.get("skipped") == root.get("skipped") == "1"


def test_markdown_summary_has_the_table_and_states_other_rules():
    res = result([(31.2, 0.4), (25.0, 0.1)], sha="b" * 64)
    md = markdown_summary(res)
    assert md.startswith("## ❌ balance check: FAIL")
    assert "| Seat 1 win share | 25.00% | 31.20% (30.42–31.98) | +6.20 pp | ±1.0 | ❌ **FAIL** |" in md
    assert "rules differ from the baseline's" in md and res.rules_changed
    assert "rules differ" not in markdown_summary(result([(25.0, 0.1)]))
    assert "| metric | old rules |" in markdown_summary(result([(25.0, 0.1)], paired=True))


def test_summary_file_is_appended_and_junit_replaced(tmp_path):
    res = result([(25.0, 0.1)])
    summary, junit = tmp_path / "step_summary.md", tmp_path / "junit.xml"
    summary.write_text("earlier step\n", encoding="utf-8")
    junit.write_text(junit_xml(res), encoding="utf-8")       # a report of an earlier check: replaced
    write_reports(res, junit, summary)
    assert summary.read_text(encoding="utf-8").startswith("earlier step\n## ✅ balance check: PASS")
    ET.parse(junit)
    # a last line left unended gets its newline first (review AB #8: the heading ran on after it)
    summary.write_text("previous step output without newline", encoding="utf-8")
    write_reports(res, None, summary)
    assert summary.read_text(encoding="utf-8").startswith("previous step output without newline\n## ✅")


def test_junit_and_summary_in_one_file_are_refused_before_the_check(tmp_path, capsys):
    """Review AB #1: --junit and --summary naming one file wrote the Markdown after the XML, which
    no longer parsed, and the check exited 0."""
    from cli import _run

    same = tmp_path / "same.out"
    code = _run(["check", "--baseline", str(tmp_path / "missing.toml"), "--junit", str(same),
                 "--summary", str(same)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "the same file as --junit" in err and "\n" not in err, err
    assert not same.exists()


def test_a_junit_path_holding_a_file_check_did_not_write_needs_force(tmp_path):
    """Issue 28: only a file that balance check wrote is replaced without --force."""
    from simcore.errors import UsageError

    res = result([(25.0, 0.1)])
    junit = tmp_path / "junit.xml"
    junit.write_text("my own notes", encoding="utf-8")
    with pytest.raises(UsageError, match="file exists"):
        write_reports(res, junit, None)
    assert junit.read_text(encoding="utf-8") == "my own notes"
    # nor with --force: it replaces only a JUnit report balance check wrote (review P: --force
    # on a file replaced any file)
    with pytest.raises(UsageError, match="is a text file, not a JUnit report of balance check"):
        write_reports(res, junit, None, force=True)
    assert junit.read_text(encoding="utf-8") == "my own notes"
    junit.write_text("", encoding="utf-8")          # an empty file holds nothing to lose
    write_reports(res, junit, None, force=True)
    ET.parse(junit)


# ---------------------------------------------------------------------------------------------
# Baseline files
# ---------------------------------------------------------------------------------------------

META = {"game": "middle-ages", "players": 2, "games": 5000, "seed": 3, "strategies": ["balanced", "random"],
        "rules_name": "/nowhere/my_rules.toml", "rules_sha256": "c" * 64, "version": "0.1.0",
        "engine": "kernel", "rotate_seats": False, "created_utc": "2025-01-01T00:00:00Z"}
METRICS = [m("Seat 1", 60.0, 0.7, n=5000), m("Seat 2", 40.0, 0.7, n=5000),
           m("Seat 1", 101.5, 0.4, "seat_mean_score", n=5000), m("balanced", 60.0, 0.7, "strategy_win_share", n=5000)]


def test_baseline_file_documents_every_key_and_reads_back(tmp_path):
    out = tmp_path / "baselines" / "demo.toml"
    text = render_baseline(META, METRICS, out, source="runs/demo", tolerance={"seat_win_share": 3.0,
                           "seat_mean_score": 2.5, "strategy_win_share": 3.0}, check_games=2000, beta=0.1)
    out.parent.mkdir()
    out.write_text(text, encoding="utf-8")
    data = tomllib.loads(text)
    section = None
    for line in text.splitlines():
        if line.startswith("["):
            section = line.split("]")[0].strip("[]")
        elif "=" in line and not line.startswith("#") and section not in ("metric",):
            assert "#" in line, f"key without a comment: {line}"
    assert data["format"] == 2 and data["check"]["beta"] == 0.1 and data["check"]["batch"] == 0
    assert data["run"]["rules"].startswith("../") and data["run"]["rules"].endswith("/nowhere/my_rules.toml")
    b = load_baseline(out)
    assert (b.game, b.players, b.strategies, b.seed, b.games) == ("middle-ages", 2, ["balanced", "random"], 3, 5000)
    assert b.tolerance == {"seat_win_share": 3.0, "seat_mean_score": 2.5, "strategy_win_share": 3.0,
                           "role_win_share": 1.0}     # a kind the file does not list keeps its default
    assert b.check_games == 2000 and b.check_seed == 4 and b.alpha == 0.05 and b.beta == 0.1 and b.batch is None
    assert [(x.metric, x.key, x.value, x.se, x.n) for x in b.metrics] == \
        [(x.metric, x.key, pytest.approx(x.value), pytest.approx(x.se), x.n) for x in METRICS]
    assert b.rules_path().resolve() == Path("/nowhere/my_rules.toml")  # relative to the baseline file
    assert "balance simulate --game middle-ages --players 2 --strategies balanced,random --seed 3" in text


def test_default_maximum_is_the_power_calculation(tmp_path):
    text = render_baseline(META, METRICS, tmp_path / "b.toml", tolerance={"seat_win_share": 3.0,
                           "seat_mean_score": 2.5, "strategy_win_share": 3.0})
    (tmp_path / "b.toml").write_text(text, encoding="utf-8")
    b = load_baseline(tmp_path / "b.toml")
    assert b.check_games == plan_games(b.metrics, b.tolerances(), 0.05, 0.05).max_games
    # without the key, the check computes the same number
    (tmp_path / "c.toml").write_text(text.replace(f"games = {b.check_games}", "# no games"), encoding="utf-8")
    c = load_baseline(tmp_path / "c.toml")
    assert c.check_games is None and c.max_games() == b.check_games


def test_a_format_1_baseline_still_loads(tmp_path):
    root = Path(__file__).resolve().parents[2]
    old = root / "configs" / "baselines" / "middle_ages_default.toml"
    text = old.read_text(encoding="utf-8").replace("format = 2", "format = 1")
    text = text.replace("beta = 0.05", 'on_inconclusive = "pass"').replace("batch = 0", "")
    (tmp_path / "v1.toml").write_text(text, encoding="utf-8")
    b = load_baseline(tmp_path / "v1.toml")
    assert b.format == 1 and b.beta == 0.05 and b.batch is None and b.on_inconclusive == "pass"


def test_a_per_metric_tolerance_overrides_the_default(tmp_path):
    text = render_baseline(META, METRICS, tmp_path / "b.toml", tolerance={"seat_win_share": 3.0,
                           "seat_mean_score": 2.5, "strategy_win_share": 3.0})
    text = text.replace('key = "Seat 2"\n', 'key = "Seat 2"\ntolerance = 4.0\n')
    (tmp_path / "b.toml").write_text(text, encoding="utf-8")
    b = load_baseline(tmp_path / "b.toml")
    assert [b.tolerance_of(x) for x in b.metrics] == [3.0, 4.0, 2.5, 3.0]


@pytest.mark.parametrize("edit, message", [
    (("alpha = 0.05", "alpha = 0.5"), "check.alpha: must be between 0 and 0.5"),
    (("beta = 0.05", "beta = 0.0"), "check.beta: must be between 0 and 0.5"),
    (("seat_win_share = 3.0", "seat_win_share = -1.0"), "tolerance.seat_win_share: must be > 0"),
    (("seat_win_share = 3.0", "seat_win_share = 0.0"), "tolerance.seat_win_share: must be > 0"),
    (("seed_offset = 1", "seed_offset = 0"), "check.seed_offset: must not be 0"),
    (("batch = 0", "batch = -5"), "check.batch: must be >= 0"),
    (("format = 2", "format = 9"), "format: version 9 is not supported"),
    (("\n[check]", "\n[check]\ngamez = 3"), "check.gamez: unknown key"),
    (('unit = "coins"', 'unit = "%"'), "metric[2].unit: seat_mean_score is measured in 'coins'"),
])
def test_bad_baseline_files_are_one_line_config_errors(tmp_path, edit, message):
    text = render_baseline(META, METRICS, tmp_path / "b.toml", tolerance={"seat_win_share": 3.0,
                           "seat_mean_score": 2.5, "strategy_win_share": 3.0})
    assert edit[0] in text
    (tmp_path / "b.toml").write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    with pytest.raises(UsageError, match=None) as info:
        load_baseline(tmp_path / "b.toml")
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_ci_workflow_example_caches_numba_and_runs_the_check():
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "ci-github-actions.yml").read_text(encoding="utf-8")
    assert "NUMBA_CACHE_DIR:" in text and ".numba-cache" in text
    assert "balance check --baseline" in text and "$GITHUB_STEP_SUMMARY" in text and "--junit" in text
    assert "\t" not in text  # YAML forbids tabs
    import yaml

    steps = yaml.safe_load(text)["jobs"]["balance"]["steps"]
    uses = [s.get("uses", "").split("@")[0] for s in steps]
    # the cache is restored before the install and saved after the check even when it fails
    # (actions/cache alone saves only on success: a first run finding a regression cached nothing)
    restore, save = uses.index("actions/cache/restore"), uses.index("actions/cache/save")
    check = next(i for i, s in enumerate(steps) if "balance check" in s.get("run", ""))
    install = next(i for i, s in enumerate(steps) if "pip install" in s.get("run", ""))
    assert restore < install < check < save
    assert steps[save]["if"].startswith("always()")
    assert steps[save]["with"]["path"] == steps[restore]["with"]["path"]
    assert steps[save]["with"]["key"] == "${{ steps.%s.outputs.cache-primary-key }}" % steps[restore]["id"]
    # the artifact keeps the whole --save-run directory (review AB #4: run.json and games.parquet
    # alone read back as a damaged run)
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    saved = next(s for s in steps if "--save-run" in s.get("run", ""))["run"].split("--save-run")[1].split()[0]
    assert f"{saved}/" in upload["with"]["path"].split() and upload["with"].get("include-hidden-files") is True


def test_the_verdict_line_says_what_was_ruled_out_and_what_decided():
    """A pass rules out a change of twice each tolerance (the procedure's pass condition), not
    "within the tolerance", and names the largest change; a fail names the metric and its change."""
    from analysis.check.presentation import status_line

    ok = result([(25.1, 0.1), (25.3, 0.1)])
    assert ok.verdict == "pass"
    line = status_line(ok)
    # with the chance of passing such a change (beta, per metric), not only "ruled out"
    assert line.startswith("PASS: no metric moved by twice its tolerance or more (ruled out for all 2, "
                           "each with at most a 5% chance of passing such a change, after ")
    assert "within their tolerance" not in line
    # sized against the smallest difference that matters, as the FAIL sentences are (revA #16)
    assert line.endswith("the largest change: Seat 2 win share +0.30 pp against ±1.0 accepted; "
                         "smaller than the 1 pp that matters")
    bad = result([(25.0, 0.1), (31.2, 0.4)])
    assert bad.verdict == "fail"
    assert status_line(bad).endswith("): Seat 2 win share +6.20 pp against ±1.0 accepted")


def test_a_junit_file_of_another_tool_is_refused_once_and_named_as_xml(tmp_path, capsys):
    """Review AB #9: a user's JUnit XML (no declaration) at --junit was refused with "file exists
    (use --force to replace it)", then, with --force, refused again as "HTML". Now the first refusal
    says --force will not help, and calls the file XML."""
    from cli import _run

    mine = tmp_path / "pytest.xml"
    mine.write_text('<testsuites><testsuite name="unit"/></testsuites>\n', encoding="utf-8")
    code = _run(["check", "--baseline", str(tmp_path / "missing.toml"), "--junit", str(mine)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "\n" not in err, err
    assert "an XML file that balance check did not write; it is never replaced, even with --force" in err


@pytest.mark.parametrize("run", [(31.2, 0.4), (26.5, 0.5), (25.0, 0.1)])
def test_a_check_of_one_metric_says_metric_once(run):
    """"FAIL: 1 of 1 metrics moved beyond their tolerance", "over all 1 metrics and every look",
    "alpha 0.05 over 1 metrics" (a baseline of one metric): counted words for a count of one."""
    res = result([run])
    said = text_report(res) + " ".join(explain(r, n_metrics=1) for r in res.results)
    assert "1 metrics" not in said and "of 1 metric" not in said, said
    assert ("the one metric" in said), said
    if res.verdict == "fail":
        assert "the one metric checked moved beyond its tolerance" in said
    several = text_report(result([run, (25.0, 0.1)]))
    assert "over all 2 metrics" in several, several
