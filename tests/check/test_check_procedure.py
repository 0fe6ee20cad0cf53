"""The decision procedure of `balance check` on synthetic numbers: beyond-tolerance and equivalence
(TOST) tests against the tolerance margin, the difference of two independent estimates, Holm's
correction, the exit codes, and the JUnit / Markdown / baseline-file renderings."""

from __future__ import annotations

import math
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from analysis.check.baseline import Baseline, load_baseline, render_baseline
from analysis.check.decision import CheckResult, check_notes, compare
from analysis.check.measure import DEFAULT_TOLERANCE, Measurement
from analysis.check.presentation import explain, junit_xml, markdown_summary, text_report, write_reports
from simcore.errors import UsageError


def m(key: str, value: float, se: float, metric: str = "seat_win_share", n: int = 10_000) -> Measurement:
    return Measurement(metric, key, f"{key} win share", value, value - 1.96 * se, value + 1.96 * se, se, n)


def test_a_metric_fails_only_on_evidence_of_a_change_beyond_the_tolerance():
    base = [m("Seat 1", 25.0, 0.1), m("Seat 2", 25.0, 0.1), m("Seat 3", 25.0, 0.3), m("Seat 4", 25.0, 0.1)]
    run = [m("Seat 1", 25.1, 0.2),     # tiny change, precise: within tolerance
           m("Seat 2", 27.0, 0.2),     # +2 points, precise: beyond
           m("Seat 3", 26.0, 0.5),     # +1 point, imprecise: cannot tell
           m("Seat 4", 25.0, 0.2)]
    res = compare(base, run, [1.0] * 4, alpha=0.05)
    assert [r.verdict for r in res] == ["pass", "fail", "inconclusive", "pass"]
    r = res[1]
    se = math.hypot(0.1, 0.2)  # two independent estimates
    assert r.diff == pytest.approx(2.0) and r.diff_se == pytest.approx(se)
    assert r.p_beyond == pytest.approx(sps.norm.sf((2.0 - 1.0) / se), rel=1e-9)
    assert r.p_within == pytest.approx(sps.norm.sf((1.0 - 2.0) / se), rel=1e-9)
    assert res[0].p_within == pytest.approx(max(sps.norm.sf((0.1 + 1) / math.hypot(0.1, 0.2)),
                                                sps.norm.sf((1 - 0.1) / math.hypot(0.1, 0.2))), rel=1e-9)
    # Holm: the smallest p is multiplied by the number of metrics
    assert r.p_beyond_adjusted == pytest.approx(min(1.0, 4 * r.p_beyond))


def test_holm_turns_a_borderline_single_test_into_inconclusive():
    # z = (1.5 - 1) / 0.25 = 2: p ≈ 0.023 < 0.05 alone, but 4 × 0.023 > 0.05 among four metrics
    alone = compare([m("Seat 1", 25, 0.0)], [m("Seat 1", 26.5, 0.25)], [1.0])
    assert alone[0].verdict == "fail"
    many = compare([m(f"Seat {i}", 25, 0.0) for i in range(1, 5)],
                      [m("Seat 1", 26.5, 0.25)] + [m(f"Seat {i}", 25, 0.01) for i in range(2, 5)], [1.0] * 4)
    assert many[0].verdict == "inconclusive"


def test_a_shift_down_fails_like_a_shift_up_and_zero_error_is_decided_exactly():
    res = compare([m("Seat 1", 30.0, 0.1)], [m("Seat 1", 27.0, 0.1)], [1.0])
    assert res[0].verdict == "fail" and res[0].diff == pytest.approx(-3.0)
    exact = compare([m("Seat 1", 25.0, 0.0), m("Seat 2", 25.0, 0.0)],
                       [m("Seat 1", 25.0, 0.0), m("Seat 2", 27.0, 0.0)], [1.0, 1.0])
    assert [r.verdict for r in exact] == ["pass", "fail"]


def test_the_beyond_tolerance_test_has_level_alpha_on_the_boundary():
    # Two independent estimates whose true difference is exactly the tolerance: a level-α test
    # rejects "|Δ| ≤ δ" in α of the draws (and far less when the true difference is 0).
    rng = np.random.default_rng(5)
    reps, tol, se_b, se_r = 4000, 1.0, 0.1, 0.2
    base = rng.normal(25.0, se_b, reps)
    on_edge = rng.normal(26.0, se_r, reps)
    unchanged = rng.normal(25.0, se_r, reps)
    rate = np.mean([compare([m("S", b, se_b)], [m("S", r, se_r)], [tol])[0].verdict == "fail"
                    for b, r in zip(base, on_edge)])
    assert abs(rate - 0.05) < 3 * math.sqrt(0.05 * 0.95 / reps)
    null = np.mean([compare([m("S", b, se_b)], [m("S", r, se_r)], [tol])[0].verdict == "fail"
                    for b, r in zip(base, unchanged)])
    assert null == 0.0


def test_missing_metric_in_the_run_is_a_usage_error():
    with pytest.raises(UsageError, match="no seat_win_share for 'Seat 5'"):
        compare([m("Seat 5", 20, 0.1)], [m("Seat 1", 20, 0.1)], [1.0])


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


def result(verdicts_run, on_inconclusive="pass", sha="a" * 64) -> CheckResult:
    base = [m(f"Seat {i + 1}", 25.0, 0.1) for i in range(len(verdicts_run))]
    run = [m(f"Seat {i + 1}", v, s) for i, (v, s) in enumerate(verdicts_run)]
    b = baseline_of(base)
    res = compare(base, run, [1.0] * len(base))
    meta = {"game": "middle-ages", "players": 4, "games": 10_000, "seed": 8, "rules_sha256": sha,
            "rules_name": "rules.toml"}
    return CheckResult(b, res, 0.05, on_inconclusive, meta, "runs/x", check_notes(b, meta))


def test_exit_codes_pass_fail_and_inconclusive():
    assert result([(25.0, 0.1)] * 4).exit_code == 0
    assert result([(25.0, 0.1)] * 4).verdict == "pass"
    failing = result([(31.2, 0.4), (25.0, 0.1), (25.0, 0.1), (25.0, 0.1)])
    assert failing.verdict == "fail" and failing.exit_code == 1
    unsure = [(26.0, 0.5), (25.0, 0.1)]
    assert result(unsure).verdict == "inconclusive" and result(unsure).exit_code == 0
    assert result(unsure, on_inconclusive="fail").exit_code == 1


def test_a_failing_metric_is_explained_in_plain_words():
    res = result([(31.2, 0.4), (25.0, 0.1), (25.0, 0.1), (25.0, 0.1)])
    text = explain(res.failed[0], res.alpha, 4)
    assert text.startswith("Seat 1 wins 31.2% (30.4–32.0) vs 25.0% in the baseline: +6.20 points, "
                           "beyond the ±1.0 accepted (p = ")
    report = text_report(res)
    assert "FAIL: 1 of 4 metrics moved beyond their tolerance" in report and text in report


def test_inconclusive_metric_says_how_many_games_would_tell():
    res = result([(25.5, 0.3), (25.0, 0.1)])
    text = explain(res.inconclusive[0], 0.05, 2)
    assert "cannot tell whether this is within the ±1.0 accepted (about" in text
    assert "games would show it within the tolerance" in text


def test_junit_xml_parses_with_one_testcase_per_metric_and_the_right_failures():
    res = result([(31.2, 0.4), (22.0, 0.2), (26.0, 0.5), (25.0, 0.1)])
    assert [r.verdict for r in res.results] == ["fail", "fail", "inconclusive", "pass"]
    root = ET.fromstring(junit_xml(res))
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == 4 and suite.get("tests") == "4"
    assert suite.get("failures") == root.get("failures") == "2" and suite.get("skipped") == "1"
    assert sum(c.find("failure") is not None for c in cases) == 2
    assert cases[0].find("failure").get("message").startswith("Seat 1 wins 31.2%")
    strict = ET.fromstring(junit_xml(result([(26.0, 0.5), (25.0, 0.1)], on_inconclusive="fail")))
    assert strict.find("testsuite").get("failures") == "1"


def test_markdown_summary_has_the_table_and_states_other_rules():
    res = result([(31.2, 0.4), (25.0, 0.1)], sha="b" * 64)
    md = markdown_summary(res)
    assert md.startswith("## ❌ balance check: FAIL")
    assert "| Seat 1 win share | 25.0% | 31.2% (30.4–32.0) | +6.20 pts | ±1.0 | ❌ **FAIL** |" in md
    assert "rules differ from the baseline's" in md and res.rules_changed
    assert "rules differ" not in markdown_summary(result([(25.0, 0.1)]))


def test_summary_file_is_appended_and_junit_replaced(tmp_path):
    res = result([(25.0, 0.1)])
    summary, junit = tmp_path / "step_summary.md", tmp_path / "junit.xml"
    summary.write_text("earlier step\n", encoding="utf-8")
    junit.write_text("old", encoding="utf-8")
    write_reports(res, junit, summary)
    assert summary.read_text(encoding="utf-8").startswith("earlier step\n## ✅ balance check: PASS")
    ET.parse(junit)


# ---------------------------------------------------------------------------------------------
# Baseline files
# ---------------------------------------------------------------------------------------------

META = {"game": "middle-ages", "players": 2, "games": 5000, "seed": 3, "strategies": ["balanced", "random"],
        "rules_name": "/nowhere/my_rules.toml", "rules_sha256": "c" * 64, "version": "0.1.0",
        "engine": "kernel", "rotate_seats": False, "created_utc": "2025-01-01T00:00:00Z"}
METRICS = [m("Seat 1", 60.0, 0.7), m("Seat 2", 40.0, 0.7), m("Seat 1", 101.5, 0.4, "seat_mean_score"),
           m("balanced", 60.0, 0.7, "strategy_win_share")]


def test_baseline_file_documents_every_key_and_reads_back(tmp_path):
    out = tmp_path / "baselines" / "demo.toml"
    text = render_baseline(META, METRICS, out, source="runs/demo", tolerance={"seat_mean_score": 2.5},
                              check_games=2000)
    out.parent.mkdir()
    out.write_text(text, encoding="utf-8")
    data = tomllib.loads(text)
    section = None
    for line in text.splitlines():
        if line.startswith("["):
            section = line.split("]")[0].strip("[]")
        elif "=" in line and not line.startswith("#") and section not in ("metric",):
            assert "#" in line, f"key without a comment: {line}"
    assert data["run"]["rules"].startswith("../") and data["run"]["rules"].endswith("/nowhere/my_rules.toml")
    b = load_baseline(out)
    assert (b.game, b.players, b.strategies, b.seed, b.games) == ("middle-ages", 2, ["balanced", "random"], 3, 5000)
    assert b.check_games == 2000 and b.check_seed == 4 and b.alpha == 0.05
    assert b.tolerance == {"seat_win_share": 1.0, "seat_mean_score": 2.5, "strategy_win_share": 1.0}
    assert [(x.metric, x.key, x.value, x.se, x.n) for x in b.metrics] == \
        [(x.metric, x.key, pytest.approx(x.value), pytest.approx(x.se), x.n) for x in METRICS]
    assert b.rules_path().resolve() == Path("/nowhere/my_rules.toml")  # relative to the baseline file
    assert "balance simulate --game middle-ages --players 2 --strategies balanced,random --seed 3" in text


def test_a_per_metric_tolerance_overrides_the_default(tmp_path):
    text = render_baseline(META, METRICS, tmp_path / "b.toml")
    text = text.replace('key = "Seat 2"\n', 'key = "Seat 2"\ntolerance = 3.0\n')
    (tmp_path / "b.toml").write_text(text, encoding="utf-8")
    b = load_baseline(tmp_path / "b.toml")
    assert [b.tolerance_of(x) for x in b.metrics] == [1.0, 3.0, 1.0, 1.0]


@pytest.mark.parametrize("edit, message", [
    (("alpha = 0.05", "alpha = 0.5"), "check.alpha: must be between 0 and 0.5"),
    (("seat_win_share = 1.0", "seat_win_share = -1.0"), "tolerance.seat_win_share: must be >= 0"),
    (("seed_offset = 1", "seed_offset = 0"), "check.seed_offset: must not be 0"),
    (("on_inconclusive = \"pass\"", "on_inconclusive = \"maybe\""), "check.on_inconclusive: must be one of"),
    (("format = 1", "format = 9"), "format: version 9 is not supported"),
    (("\n[check]", "\n[check]\ngamez = 3"), "check.gamez: unknown key"),
    (('unit = "coins"', 'unit = "%"'), "metric[2].unit: seat_mean_score is measured in 'coins'"),
])
def test_bad_baseline_files_are_one_line_config_errors(tmp_path, edit, message):
    text = render_baseline(META, METRICS, tmp_path / "b.toml")
    assert edit[0] in text
    (tmp_path / "b.toml").write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    with pytest.raises(UsageError, match=None) as info:
        load_baseline(tmp_path / "b.toml")
    assert message in str(info.value) and "\n" not in str(info.value)


def test_the_ci_workflow_example_caches_numba_and_runs_the_check():
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "ci-github-actions.yml").read_text(encoding="utf-8")
    assert "NUMBA_CACHE_DIR:" in text and "actions/cache@" in text and ".numba-cache" in text
    assert "balance check --baseline" in text and "$GITHUB_STEP_SUMMARY" in text and "--junit" in text
    assert "\t" not in text  # YAML forbids tabs
