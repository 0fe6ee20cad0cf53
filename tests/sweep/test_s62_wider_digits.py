"""Review s62 (/tmp/rv268/out/ma2-report) #4: `--vary income.palais.base=2..4 --vary
'scoring.empty_domain_penalty=[0,10]' --games 5000 --seed 1`: the page said "the imbalance's
interval is wider than seat 3's" (and the tornado bar "wider interval") while both printed
"+2.6 pp (+0.2 to +5.0)" (low ends 0.15 and 0.19 pp). Where the two print alike, the digits that
show the difference follow the word (the sentence, the effects table's cell), and the bar's label
says by how little."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _row(**kw):
    r = {"parameter": "scoring.empty_domain_penalty", "from": 0, "to": 10, "metric": "balance",
         "label": "the seat imbalance", "delta": 0.026, "low": 0.00152, "high": 0.0497,
         "verdict": "may_matter", "smallest": 0.01, "share": True, "follows": "seat_win_share_3",
         "follows_mirror": False, "follows_clear": False, "follows_interval": "wider",
         "follows_verdict": "may_matter", "follows_low": 0.0019, "follows_high": 0.0497,
         "follows_rivals": [{"seat": "seat_win_share_1", "at_from": True, "at_to": True}],
         "rising": True, "numeric": True, "unit": "pp", "at": ""}
    r.update(kw)
    return r


def test_s62_wider_said_with_the_digits_that_show_it():
    from reports.sweep import follows_cell, follows_words

    said = follows_words(_row())
    assert "the imbalance's interval is wider than seat 3's (+0.15 to +4.97 against +0.19 to " \
           "+4.97, alike at 1 decimal)" in said.replace("\u2212", "-"), said
    assert "a wider interval (+0.15 to +4.97 against +0.19 to +4.97, alike at 1 decimal)" in \
        follows_cell(_row()), follows_cell(_row())


def test_s62_wider_left_alone_where_the_intervals_print_apart():
    from reports.sweep import follows_words

    said = follows_words(_row(low=-0.004))
    assert "the imbalance's interval is wider than seat 3's: it also allows" in said, said


def test_s62_tornado_label_says_by_how_little():
    from reports.figures.sweep import _follows_label

    assert _follows_label(_row()).endswith("wider interval, by under 0.1 pp at each end)")
    assert _follows_label(_row(low=-0.004)).endswith("; wider interval)")
