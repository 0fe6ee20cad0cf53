"""`balance check` leads with the verdict and what the checked rules change (revE #10).

The first line of the terminal output, the one line of ``--quiet`` (what a CI log shows), the
Markdown summary and the JUnit report all name the settings that differ from the baseline's rules
with their old and new values ("FAIL (rules differ from the baseline: effects.caserne_payment
2 → 4): …"), as the before/after report's rules diff does; the same rules add nothing. A baseline
records the rules text it measured, so the settings can be listed after the rules file is edited.
All on synthetic results: no game is played here."""

from __future__ import annotations

import hashlib
import xml.etree.ElementTree as ET
from pathlib import Path

from analysis.check.baseline import Baseline, load_baseline, render_baseline, rules_changes
from analysis.check.decision import CheckResult, check_notes, compare
from analysis.check.measure import DEFAULT_TOLERANCE, Measurement
from analysis.check.panel import PanelCheck
from analysis.check.presentation import junit_xml, markdown_summary, panel_report, status_line, text_report
from analysis.rules_diff import SettingChange

RULES = "[effects]\ncaserne_payment = 2\n[income.palais]\nbase = 3\n"
CASERNE = [SettingChange("effects.caserne_payment", 2, 4)]


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def share(key: str, value: float, se: float) -> Measurement:
    return Measurement("seat_win_share", key, f"{key} win share", value, value - 1.96 * se,
                       value + 1.96 * se, se, 10_000)


def baseline(**kw) -> Baseline:
    args = dict(path=Path("base.toml"), game="middle-ages", players=2, strategies=["balanced"] * 2,
                rotate_seats=False, engine="kernel", seed=7, games=10_000, rules="default",
                rules_sha256="a" * 64, version="", created_utc="", alpha=0.05, check_games=10_000,
                seed_offset=1, on_inconclusive="pass", tolerance=dict(DEFAULT_TOLERANCE),
                metrics=[share("Seat 1", 50.0, 0.1), share("Seat 2", 50.0, 0.1)])
    args.update(kw)
    return Baseline(**args)


def result(seat1: float, sha256: str = "a" * 64, changes=None, paired: bool = False,
           rules_text: str | None = "x") -> CheckResult:
    b = baseline()
    run = [share("Seat 1", seat1, 0.1), share("Seat 2", 100 - seat1, 0.1)]
    meta = {"game": "middle-ages", "players": 2, "games": 3000, "seed": 8, "rules_sha256": sha256,
            "rules_name": "rules.toml with --set effects.caserne_payment=4"}
    if rules_text is not None:
        meta["rules_text"] = rules_text
    return CheckResult(b, compare(b.metrics, run, [1.0, 1.0]), 0.05, 0.05, meta, "runs/x",
                       check_notes(b, meta, paired, changes=changes), games=3000, max_games=9000,
                       paired=paired, rules_changes=changes)


def test_the_first_line_and_the_quiet_line_lead_with_the_verdict_and_the_settings_changed():
    res = result(56.0, sha256="b" * 64, changes=CASERNE)
    assert res.verdict == "fail"
    line = status_line(res)
    assert line.startswith("FAIL (rules differ from the baseline: effects.caserne_payment 2 → 4): "
                           "2 of 2 metrics moved beyond their tolerance (after 3,000 of at most 9,000 games)")
    report = text_report(res).splitlines()
    assert report[0] == line                          # the verdict first, not "balance check against …"
    assert report.count(line) == 1
    assert "    effects.caserne_payment: 2 → 4" in report       # every setting, in the report's words
    md = markdown_summary(res)
    assert md.splitlines()[2] == line + "."
    assert "- **rule settings changed** from the baseline: `effects.caserne_payment` 2 → 4" in md
    suite = ET.fromstring(junit_xml(res)).find("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props["rules_changes"] == "effects.caserne_payment: 2 → 4"
    assert suite.find("system-out").text.splitlines()[0] == line


def test_the_same_rules_add_nothing_to_the_verdict_line_the_summary_or_junit():
    same = result(56.0)
    assert status_line(same).startswith("FAIL: 2 of 2 metrics")
    assert "rule settings changed" not in text_report(same) + markdown_summary(same)
    assert "rules_changes" not in junit_xml(same)
    # another rules text with the same settings (a comment, the layout) is the same rules
    reworded = result(50.1, sha256="b" * 64, changes=[])
    assert status_line(reworded).startswith("PASS: no metric moved")
    assert "only comments or layout differ" in text_report(reworded)
    assert "rules_changes" not in junit_xml(reworded)


def test_many_settings_are_counted_in_the_line_and_listed_in_full_elsewhere():
    changes = [SettingChange(f"events[\"E{i}\"].coins", i, i + 1) for i in range(5)]
    res = result(50.1, sha256="b" * 64, changes=changes)
    line = status_line(res)
    assert line.startswith('PASS (rules differ from the baseline: events["E0"].coins 0 → 1; '
                           'events["E1"].coins 1 → 2; events["E2"].coins 2 → 3; and 2 more settings): ')
    report = text_report(res)
    assert "rule settings changed from the baseline (5):" in report
    assert all(f"    {c.text}" in report for c in changes)
    props = {p.get("name"): p.get("value") for p in ET.fromstring(junit_xml(res)).iter("property")}
    assert props["rules_changes"] == "; ".join(c.text for c in changes)


def test_rules_that_differ_without_a_known_text_are_said_by_their_sha256():
    res = result(56.0, sha256="b" * 64, changes=None)
    line = status_line(res)
    assert line.startswith("FAIL (rules differ from the baseline: sha256 bbbbbbbbbbbb… against "
                           "aaaaaaaaaaaa…; the settings cannot be listed, the baseline records no rules "
                           "text and its rules file has changed since it was measured")
    assert "cannot be listed" in {p.get("name"): p.get("value") for p in
                                  ET.fromstring(junit_xml(res)).iter("property")}["rules_changes"]


def test_paired_mode_leads_with_what_the_new_rules_change_from_the_old():
    res = result(56.0, changes=[SettingChange("income.palais.base", 3, 6)], paired=True)
    assert status_line(res).startswith("FAIL (new rules against the old on the same deals: "
                                       "income.palais.base 3 → 6): ")
    assert "rule settings changed from the old rules (--against-rules) (1):" in text_report(res)
    assert status_line(result(56.0, changes=[], paired=True)).startswith("FAIL: ")


def test_a_baseline_records_its_rules_so_an_edited_rules_file_still_gives_the_diff(tmp_path):
    meta = {"game": "middle-ages", "players": 2, "strategies": ["balanced"] * 2, "seed": 7,
            "games": 10_000, "rules_name": str(tmp_path / "rules.toml"), "rules_sha256": sha(RULES),
            "rules_text": RULES}
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    path = tmp_path / "base.toml"
    path.write_text(render_baseline(meta, baseline().metrics, path), encoding="utf-8")
    base = load_baseline(path)
    assert base.measured_rules == RULES
    # the rules file is then edited (the commit a CI check gates): the baseline still knows the old values
    edited = RULES.replace("caserne_payment = 2", "caserne_payment = 4").replace("base = 3", "base = 5")
    (tmp_path / "rules.toml").write_text(edited, encoding="utf-8")
    run = {"rules_sha256": sha(edited), "rules_text": edited}
    assert [c.text for c in rules_changes(base, run)] == ["effects.caserne_payment: 2 → 4",
                                                          "income.palais.base: 3 → 5"]
    assert rules_changes(base, {"rules_sha256": sha(RULES), "rules_text": RULES}) == []
    # a baseline written before [measured_rules]: the rules file it names, only while unchanged
    old = path.read_text(encoding="utf-8").split("\n[measured_rules]")[0] + "\n"
    path.write_text(old, encoding="utf-8")
    assert load_baseline(path).measured_rules is None
    assert rules_changes(load_baseline(path), run) is None          # the file has the new values now
    (tmp_path / "rules.toml").write_text(RULES, encoding="utf-8")
    assert [c.text for c in rules_changes(load_baseline(path), run)][0] == "effects.caserne_payment: 2 → 4"
    # a recorded text edited by hand no longer describes the measured rules: not used
    path.write_text(render_baseline(meta, baseline().metrics, path).replace(
        "caserne_payment = 2", "caserne_payment = 9"), encoding="utf-8")
    (tmp_path / "rules.toml").write_text(edited, encoding="utf-8")
    assert load_baseline(path).measured_rules is None and rules_changes(load_baseline(path), run) is None


def test_a_panel_check_leads_with_its_verdict_and_the_change_said_once():
    cells = [result(56.0, sha256="b" * 64, changes=CASERNE), result(50.1, sha256="b" * 64, changes=CASERNE)]
    pc = PanelCheck(["2p 2×balanced", "2p 2×greedy"], cells, 0.05, 0.025)
    lines = panel_report(pc)
    assert lines[0].startswith("panel check: FAIL (rules differ from the baseline: "
                               "effects.caserne_payment 2 → 4) — 2 cells (1 fail, 1 pass)")
    assert lines[1].startswith("2p 2×balanced: FAIL: 2 of 2") and lines[2].startswith("2p 2×greedy: PASS: ")
    assert panel_report(pc, quiet=True) == lines[:1]
    # cells whose rules differ in different ways: counted in the head, said on each cell's line
    mixed = PanelCheck(pc.labels, [cells[0], result(50.1)], 0.05, 0.025)
    lines = panel_report(mixed)
    assert "(rules differ from the baseline in 1 of 2 cells, each cell's line says how)" in lines[0]
    assert lines[1].startswith("2p 2×balanced: FAIL (rules differ from the baseline: effects.caserne_payment")
    assert lines[2].startswith("2p 2×greedy: PASS: ")
    same = PanelCheck(pc.labels, [result(50.1), result(50.1)], 0.05, 0.025)
    assert panel_report(same)[0].startswith("panel check: PASS — 2 cells")
