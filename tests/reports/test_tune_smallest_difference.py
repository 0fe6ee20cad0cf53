"""A tune page re-words its start → tuned changes by the report's own ``--smallest-difference``
(session 56 designer review #1: `balance report TUNE --smallest-difference win_share=4pp` still
said "worded against the 1 pp that matters" and called +4.13 pp (+3.14 to +5.12) "clear and large
enough to matter", the words result.json was written with at tune time). The intervals stay
those of result.json; only their words and the amount named change.

Nothing is played: result.json is written by hand with the review's tune numbers
(balance tune --vary income.palais.base=1..6 --vary effects.caserne_payment=1..4
--target seat-balance:2, confirmed on 20,000 games)."""

from __future__ import annotations

import html
import json
import re

from tests.reports.test_tune_says_what_to_change import RESULT, TRIALS, TUNE

LARGE, MAY, SMALL, NOISE = ("clear and large enough to matter", "clear, may matter", "clear but small",
                            "within noise")

# the review's result.json start.seats (seat 1 +4.13 pp, +3.14 to +5.12; seat 3 −3.47 pp)
START = {"dir": "confirmations/start-rules", "games": 20000, "seed": 1, "rules": "the base rules",
         "intervals": "paired game by game, simultaneous 95% over the seats", "smallest": 0.01,
         "seats": [
             {"seat": 1, "start": 0.20125, "tuned": 0.24255, "change": 0.0413, "low": 0.0313814,
              "high": 0.0512186, "verdict": LARGE},
             {"seat": 2, "start": 0.2501, "tuned": 0.25135, "change": 0.00125, "low": -0.0091304,
              "high": 0.0116304, "verdict": NOISE},
             {"seat": 3, "start": 0.29855, "tuned": 0.26385, "change": -0.0347, "low": -0.0455153,
              "high": -0.0238847, "verdict": LARGE},
             {"seat": 4, "start": 0.2501, "tuned": 0.24225, "change": -0.00785, "low": -0.0179350,
              "high": 0.0022350, "verdict": NOISE}]}


def _section(secs, title):
    return next(s for s in secs if s.title == title)


def test_the_seat_response_is_worded_by_the_smallest_difference_the_report_was_given():
    from reports.sweep import seat_sections

    result = {**RESULT, "start": START}
    stored = _section(seat_sections(TUNE, result, TRIALS, "middle-ages"), "How each seat responds")
    assert "worded against the 1 pp that matters" in stored.intro
    assert stored.tables[0][1]["Words"].to_list() == [LARGE, NOISE, LARGE, NOISE]
    four = _section(seat_sections(TUNE, result, TRIALS, "middle-ages", smallest={"share": 0.04}),
                    "How each seat responds")
    assert "worded against the 4 pp that matters" in four.intro, four.intro
    assert "1 pp" not in four.intro
    # +3.14 to +5.12 straddles 4 pp; −4.55 to −2.39 too; the two within noise stay so
    assert four.tables[0][1]["Words"].to_list() == [MAY, NOISE, MAY, NOISE]
    said = " ".join(four.sentences)
    assert "seat 1 20.13% → 24.26%, +4.13 pp (+3.14 to +5.12): clear, may matter" in said, said
    # the intervals are result.json's: unchanged
    assert (four.tables[0][1]["Change (95%, simultaneous)"].to_list()
            == stored.tables[0][1]["Change (95%, simultaneous)"].to_list())
    # a smaller amount than the tune's: −3.47 (−4.55 to −2.39) is large against 2 pp, not 5 pp
    five = _section(seat_sections(TUNE, result, TRIALS, "middle-ages", smallest={"share": 0.05}),
                    "How each seat responds")
    assert five.tables[0][1]["Words"].to_list() == [MAY, NOISE, SMALL, NOISE]
    # an option about scores only leaves the shares' amount as the tune wrote it
    score = _section(seat_sections(TUNE, result, TRIALS, "middle-ages", smallest={"score": 3.0}),
                     "How each seat responds")
    assert score.intro == stored.intro and score.sentences == stored.sentences


CELLS = {"dir": "confirmations/start-rules", "games": 20000, "seed": 1, "rules": "the base rules",
         "family": 4, "alpha": 0.05, "smallest": {"share": 0.01, "length": 1.0},
         "cells": [{"cell": k, "label": f"{p}p {p}×balanced", "players": p, "metrics": [
             {"metric": "seat_win_share_1", "start": 0.20, "tuned": 0.24, "change": 0.04, "se": 0.004,
              "smallest": 0.01, "clear": True, "size_low": 0.03, "size_high": 0.05, "verdict": LARGE},
             {"metric": "game_length", "start": 16.0, "tuned": 17.5, "change": 1.5, "se": 0.1,
              "smallest": 1.0, "clear": True, "size_low": 1.2, "size_high": 1.8, "verdict": LARGE}]}
             for k, p in ((0, 3), (1, 4))]}


def test_the_cell_response_is_worded_by_the_smallest_differences_the_report_was_given():
    from reports.sweep import seat_sections

    result = {**RESULT, "start_cells": CELLS,
              "confirm": {**RESULT["confirm"], "cells": [{"label": c["label"], "outcome": "met"}
                                                        for c in CELLS["cells"]]}}
    stored = _section(seat_sections(TUNE, result, TRIALS, "middle-ages"), "How each cell responds")
    assert "(1 pp of win share, 1 turn of game length)" in stored.intro, stored.intro
    assert set(stored.tables[0][1]["Words"].to_list()) == {LARGE}
    given = _section(seat_sections(TUNE, result, TRIALS, "middle-ages",
                                   smallest={"share": 0.04, "length": 2.0}), "How each cell responds")
    assert "(4 pp of win share, 2 turns of game length)" in given.intro, given.intro
    # +4 pp (+3 to +5) against 4 pp, +1.5 turns (+1.2 to +1.8) against 2: may matter, small
    assert given.tables[0][1]["Words"].to_list() == [MAY, SMALL, MAY, SMALL]
    assert "clear and large enough to matter" not in " ".join(given.sentences)


def test_the_tune_page_takes_the_reports_smallest_difference(tmp_path):
    """The page built as `balance report TUNE --smallest-difference win_share=4pp` builds it."""
    from undrawn_figures import figures_undrawn

    from reports.sweep import build_tune_report

    d = tmp_path / "tune"
    d.mkdir()
    (d / "tune.json").write_text(json.dumps(TUNE), encoding="utf-8")
    (d / "result.json").write_text(json.dumps({**RESULT, "start": START}), encoding="utf-8")
    TRIALS.write_csv(d / "trials.csv")
    with figures_undrawn():
        page = build_tune_report(d, tmp_path / "rep", smallest={"share": 0.04})
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))))
    said = text[text.index("How each seat responds"):]
    said = said[:said.index("Each seat, start rules")]
    assert "worded against the 4 pp that matters" in said, said
    assert "+4.13 pp (+3.14 to +5.12): clear, may matter" in said, said
