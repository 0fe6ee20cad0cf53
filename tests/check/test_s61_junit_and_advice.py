"""Review s61 #6 and #7.

#6: in paired mode (``--against-rules``) a pass beside a change beyond its tolerance advised "halve
the tolerance … needs a baseline of about 115,784 games", but paired mode reads no baseline error (a
paired check with that tolerance ran and decided at 54,000 games): the advice is now the file's own
line, which a paired check takes on that baseline.
#7: a rules string holding a control character (U+0001 in an event name) made a JUnit file no XML
parser reads; and ``--junit`` over a file holding ``<x/>`` called it "HTML"."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from analysis.check.decision import CheckResult, MetricResult
from analysis.check.presentation import explain, halve_advice, junit_xml, status_line, text_report
from cli import _run


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A 300-game Middle-Ages baseline: too small for balance baseline to take a halved tolerance."""
    from analysis.check.baseline import load_baseline

    root = tmp_path_factory.mktemp("s61a")
    assert _run(["simulate", "--games", "300", "--seed", "5", "--out", str(root / "run"), "--quiet"]) == 0
    assert _run(["baseline", str(root / "run"), "--out", str(root / "b.toml"), "--tolerance", "8pp",
                 "--score-tolerance", "40"]) == 0
    return load_baseline(root / "b.toml")


def _beyond(b, paired: bool) -> CheckResult:
    """Seat 1's win share passed at +9.0 pp against ±8.0 (beyond its tolerance), paired or not."""
    m = next(m for m in b.metrics if m.metric == "seat_win_share")
    values = dict(metric=m.metric, key=m.key, label=m.label, base=25.0, base_low=24.0, base_high=26.0,
                  base_se=0.5, base_n=54_000, value=34.0, low=33.0, high=35.0, se=0.5, n=54_000,
                  diff=9.0, diff_se=0.4, tolerance=8.0, llr_up=0.0, llr_down=-5.0, fail_bound=4.0,
                  pass_bound=-3.0, verdict="pass", decided_games=54_000, pair_se=0.4)
    fields = MetricResult.__dataclass_fields__
    r = MetricResult(**{k: v for k, v in values.items() if k in fields})
    return CheckResult(b, [r], 0.05, 0.05, {"game": b.game, "players": 4, "seed": 6,
                                            "rules_sha256": b.rules_sha256, "games": 54_000},
                       "(played)", [], games=54_000, max_games=100_000, looks=[(54_000, 0, 1, 0)],
                       paired=paired)


def test_against_a_baseline_the_advice_names_the_baseline_a_halved_tolerance_needs(small):
    res = _beyond(small, paired=False)
    assert "needs a baseline of about" in halve_advice(res, res.results[0])


def test_paired_advice_is_the_files_line_not_a_baseline_size(small):
    res = _beyond(small, paired=True)
    r = res.results[0]
    for said in (halve_advice(res, r), halve_advice(res, r, short=True), status_line(res),
                 explain(r, paired=True, game=small.game, halve=halve_advice(res, r))):
        assert "needs a baseline" not in said and "balance baseline refuses" not in said, said
    advice = halve_advice(res, r, short=True)
    assert f"seat_win_share = 4 under [tolerance] in {Path(small.path).name}" in advice, advice
    assert "--against-rules reads no baseline error" in advice, advice
    assert "balance baseline --tolerance" not in advice, advice


def test_a_control_character_in_the_rules_is_replaced_and_the_junit_file_parses(small):
    from analysis.rules_diff import SettingChange

    res = _beyond(small, paired=False)
    res = replace(res, notes=["note with \x01 a control character and \x0b another"])
    text = junit_xml(res)
    root = ET.fromstring(text.split("\n", 2)[2])            # (after the declaration and the sign)
    out = root.find("testsuite/system-out").text
    assert "\x01" not in out and "\ufffd a control character" in out, out
    # the whole document, declaration included, parses
    ET.fromstring(text.encode("utf-8"))
    assert SettingChange is not None


def test_a_rules_setting_with_a_control_character_end_to_end(tmp_path, small, capsys):
    from simcore.config import shipped_configs

    rules = (shipped_configs() / "middle_ages" / "rules.toml").read_text(encoding="utf-8")
    # the review's case: U+0001 (written \\u0001 in TOML) in an event card's name, a rule setting the
    # report lists as changed
    edited = rules.replace('name = "Alliance"', 'name = "Alli\\u0001ance"', 1)
    assert edited != rules
    (tmp_path / "rules.toml").write_text(edited, encoding="utf-8")
    capsys.readouterr()
    code = _run(["check", "--baseline", str(small.path), "--rules", str(tmp_path / "rules.toml"),
                 "--games", "300", "--junit", str(tmp_path / "j.xml"), "-q"])
    assert code in (0, 1, 3), capsys.readouterr().err
    text = (tmp_path / "j.xml").read_text(encoding="utf-8")
    ET.fromstring(text.encode("utf-8"))
    assert "Alli\ufffdance" in text and "\x01" not in text


def test_a_file_of_unknown_markup_is_not_called_html(tmp_path, small, capsys):
    from simcore.atomic import what_file

    odd = tmp_path / "x.xml"
    odd.write_text("<x/>", encoding="utf-8")
    assert what_file(odd) == "an XML or HTML file"
    page = tmp_path / "p.html"
    page.write_text("<!DOCTYPE html><html><body>hi</body></html>", encoding="utf-8")
    assert what_file(page) == "HTML"
    summary = tmp_path / "s.md"
    summary.write_text("<details><summary>earlier step</summary></details>\n", encoding="utf-8")
    assert what_file(summary) == "HTML"
    capsys.readouterr()
    code = _run(["check", "--baseline", str(small.path), "--games", "300", "--junit", str(odd), "--force", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and "is an XML or HTML file" in err and "is HTML" not in err, err
    assert odd.read_text(encoding="utf-8") == "<x/>"
