"""Session 56 designer review: ``balance check`` printed "124.26 vs 110.14: +14.11" (110.144 and
124.256, a change of 14.112), paired "113.39 vs 109.55: +3.85", and win shares at one decimal beside
a change at two ("25.0% → 25.2%, +0.14 pp"). A change is now the difference of the values printed
beside it, and a win share prints at the change's precision, in the table, the sentences, the
verdict line, the Markdown summary and JUnit. Each test parses the printed text and checks printed
change == printed run value − printed baseline. Hand-made results: no game is played."""

from __future__ import annotations

import re
from pathlib import Path

from analysis.check.baseline import Baseline
from analysis.check.decision import CheckResult, MetricResult
from analysis.check.measure import Measurement
from analysis.check.presentation import explain, markdown_summary, report_parts, status_line, text_report

from printed_numbers import NUM
from printed_numbers import adds_up as _adds_up


#: (metric, key, baseline, run value, verdict): the review's numbers, each of whose change rounded
#: alone missed the difference of the two values rounded
ROWS = [("seat_win_share", "Seat 1", 24.954, 25.094, "undecided"),     # 25.0% → 25.1%, +0.14 pp
        ("seat_win_share", "Seat 2", 24.7449, 23.6751, "undecided"),   # 24.74 → 23.68: −1.07 printed −1.06
        ("seat_win_share", "Seat 3", 0.0048, 0.0175, "pass"),          # a rare share: more decimals
        ("seat_mean_score", "Seat 1", 110.144, 124.256, "fail"),       # 110.14 → 124.26: +14.11
        ("seat_mean_score", "Seat 2", 109.554, 113.396, "fail")]       # 109.55 → 113.40: +3.842


def _result(paired: bool = False, rows=ROWS) -> CheckResult:
    label = {"seat_win_share": "win share", "seat_mean_score": "mean score"}
    ms = [Measurement(m, k, f"{k} {label[m]}", b, b - 0.8, b + 0.8, 0.3, 20_000) for m, k, b, *_ in rows]
    base = Baseline(path=Path("b.toml"), game="middle-ages", players=4,
                    strategies=["balanced"] * 4, rotate_seats=False, engine="kernel", seed=0, games=20_000,
                    rules="default", rules_sha256="a" * 64, version="", created_utc="", alpha=0.05,
                    check_games=97_000, seed_offset=1, on_inconclusive="pass",
                    tolerance={"seat_win_share": 1.0, "seat_mean_score": 1.0, "strategy_win_share": 1.0,
                               "role_win_share": 1.0}, metrics=ms)
    results = [MetricResult(m, k, b_.label, b, b - 0.8, b + 0.8, 0.3, 20_000, v, v - 0.9, v + 0.9, 0.3, 3000,
                            v - b, 0.6, 1.0, 0.0, 0.0, 5.77, -3.0, verdict, 3000 if verdict != "undecided" else None)
               for (m, k, b, v, verdict), b_ in zip(rows, ms)]
    meta = {"game": "middle-ages", "players": 4, "games": 3000, "seed": 2025, "rules_sha256": "a" * 64}
    return CheckResult(base, results, 0.05, 0.05, meta, "runs/x", [], games=3000, max_games=97_000,
                       looks=[(3000, 2, 1, 2)], paired=paired)


def test_the_tables_change_is_the_printed_run_value_minus_the_printed_baseline():
    for paired in (False, True):
        _, head, rows, _ = report_parts(_result(paired))
        for cells in rows:
            base, run, diff = cells[1], cells[2], cells[3]
            _adds_up(re.match(NUM, base).group(), re.match(NUM, run).group(), re.match(NUM, diff).group())


def test_each_metrics_sentence_prints_a_change_its_two_values_add_up_to():
    for paired in (False, True):
        res = _result(paired)
        for r in res.results:
            said = explain(r, paired=paired, game="middle-ages")
            m = re.search(rf"(?:wins|scores) ({NUM})%?(?: coins on average)?(?: \(.*?\))? vs ({NUM})%? "
                          rf"(?:in the baseline|with the old rules on the same deals): ({NUM}) ", said)
            assert m, said
            _adds_up(m.group(2), m.group(1), m.group(3))


def test_the_verdict_line_summary_and_report_name_the_changes_the_table_prints():
    res = _result()
    _, _, rows, _ = report_parts(res)
    printed = {cells[0]: re.match(NUM, cells[3]).group() for cells in rows}
    line = status_line(res)
    for label, change in re.findall(rf"(Seat \d (?:mean score|win share)) ({NUM}) (?:coins|pp)", line):
        assert printed[label] == change, (label, change, line)
    largest = re.search(rf"largest change ({NUM}) pp", line)
    assert largest and largest.group(1) == printed["Seat 2 win share"], line
    assert "+14.12 coins" in line, line
    summary = markdown_summary(res)
    assert "| Seat 1 mean score | 110.14 | 124.26 (123.36–125.16) | +14.12 coins |" in summary, summary
    assert "Seat 1 wins 25.09% (24.19–25.99) vs 24.95% in the baseline: +0.14 pp" in text_report(res)
