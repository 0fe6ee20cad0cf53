"""Review s59 fx229 #1: a panel tune's 'How each cell responds' printed "+1.38 pp (−0.14 to +2.90),
clear, may matter" where the panel before/after of the same runs (``balance report
TUNE/confirmations/start-rules TUNE/confirmations/trial-6``) printed "+1.38 pp (0.0 to +2.9 pp)":
a clear change's Bonferroni interval that still holds 0 was not cut at 0, and the figures had other
decimals, while docs/sweep.md says the two pages' figures are the same. The tune page now prints each
share's start, tuned, change and interval with the before/after's own functions
(:mod:`reports.panel_rows`).

The start_cells below are result.json's of the review's tune (``balance tune --lineup balanced
--lineup greedy --players 3,4 --vary 'setup.start_coins[0]=0..8' --vary 'setup.start_coins[2]=0..8'
--target seat-balance:5 --trials 8 --keep-going --min-games 2000 --max-games 8000 --confirm-games
10000 --seed 7``); BEFORE_AFTER is what ``balance report`` printed, in its table of every cell, for
the panel before/after of that tune's start-rules and trial-6 directories (the same 14 changes, one
family: Before, After, Change, Interval over the family of 14, Verdict)."""

from __future__ import annotations

import re

from reports.sweep import cell_response_section, cell_response_table

START_CELLS = {"games": 10000, "family": 14, "rules": "the base rules",
               "smallest": {"share": 0.01, "length": 1.0}, "cells": [
    {"cell": 0, "label": "3p 3×balanced", "metrics": [
        {"metric": "seat_win_share_1", "start": 0.2831, "tuned": 0.3078, "change": 0.0247, "se": 0.005556264771212825, "smallest": 0.01, "clear": True, "size_low": 0.00851056510448327, "size_high": 0.04088943489551673, "verdict": "clear, may matter"},
        {"metric": "seat_win_share_2", "start": 0.3389, "tuned": 0.3496, "change": 0.0107, "se": 0.006086234897333698, "smallest": 0.01, "clear": False, "size_low": -0.007033622799926085, "size_high": 0.028433622799926082, "verdict": "within noise"},
        {"metric": "seat_win_share_3", "start": 0.378, "tuned": 0.3426, "change": -0.0354, "se": 0.005718212465043566, "smallest": 0.01, "clear": True, "size_low": -0.05206130615322491, "size_high": -0.01873869384677509, "verdict": "clear and large enough to matter"}]},
    {"cell": 1, "label": "3p 3×greedy", "metrics": [
        {"metric": "seat_win_share_1", "start": 0.2974, "tuned": 0.3361, "change": 0.0387, "se": 0.006216437517544985, "smallest": 0.01, "clear": True, "size_low": 0.020587002398848198, "size_high": 0.0568129976011518, "verdict": "clear and large enough to matter"},
        {"metric": "seat_win_share_2", "start": 0.3437, "tuned": 0.307, "change": -0.0367, "se": 0.006117111483804298, "smallest": 0.01, "clear": True, "size_low": -0.0545235887225458, "size_high": -0.018876411277454208, "verdict": "clear and large enough to matter"},
        {"metric": "seat_win_share_3", "start": 0.3589, "tuned": 0.3569, "change": -0.002, "se": 0.00610600756082346, "smallest": 0.01, "clear": False, "size_low": -0.01979123492991977, "size_high": 0.015791234929919774, "verdict": "within noise"}]},
    {"cell": 2, "label": "4p 4×balanced", "metrics": [
        {"metric": "seat_win_share_1", "start": 0.2024, "tuned": 0.226, "change": 0.0236, "se": 0.005240901707251374, "smallest": 0.01, "clear": True, "size_low": 0.008329446763778307, "size_high": 0.03887055323622169, "verdict": "clear, may matter"},
        {"metric": "seat_win_share_2", "start": 0.2463, "tuned": 0.2633, "change": 0.017, "se": 0.005851027555254307, "smallest": 0.01, "clear": True, "size_low": -4.82929770438921e-05, "size_high": 0.0340482929770439, "verdict": "clear, may matter"},
        {"metric": "seat_win_share_3", "start": 0.2977, "tuned": 0.2433, "change": -0.0544, "se": 0.00566456288933867, "smallest": 0.01, "clear": True, "size_low": -0.07090498597252608, "size_high": -0.03789501402747392, "verdict": "clear and large enough to matter"},
        {"metric": "seat_win_share_4", "start": 0.2536, "tuned": 0.2674, "change": 0.0138, "se": 0.005202274729984618, "smallest": 0.01, "clear": True, "size_low": -0.0013580047959618428, "size_high": 0.02895800479596184, "verdict": "clear, may matter"}]},
    {"cell": 3, "label": "4p 4×greedy", "metrics": [
        {"metric": "seat_win_share_1", "start": 0.2015, "tuned": 0.2378, "change": 0.0363, "se": 0.005635725963947669, "smallest": 0.01, "clear": True, "size_low": 0.019879036935925517, "size_high": 0.05272096306407448, "verdict": "clear and large enough to matter"},
        {"metric": "seat_win_share_2", "start": 0.2456, "tuned": 0.2242, "change": -0.0214, "se": 0.005597976217685601, "smallest": 0.01, "clear": True, "size_low": -0.03771097063488024, "size_high": -0.005089029365119752, "verdict": "clear, may matter"},
        {"metric": "seat_win_share_3", "start": 0.2755, "tuned": 0.2456, "change": -0.0299, "se": 0.005762284216518581, "smallest": 0.01, "clear": True, "size_low": -0.046689719175392747, "size_high": -0.013110280824607249, "verdict": "clear and large enough to matter"},
        {"metric": "seat_win_share_4", "start": 0.2774, "tuned": 0.2924, "change": 0.015, "se": 0.0058275977975156285, "smallest": 0.01, "clear": True, "size_low": -0.0019800250752885114, "size_high": 0.03198002507528851, "verdict": "clear, may matter"}]}]}

BEFORE_AFTER = [
    ("3p 3×balanced", "28.3%", "30.8%", "+2.5 pp", "+0.9 to +4.1 pp", "clear, may matter"),
    ("3p 3×balanced", "33.9%", "35.0%", "+1.1 pp", "−0.7 to +2.8 pp", "within noise"),
    ("3p 3×balanced", "37.8%", "34.3%", "−3.5 pp", "−5.2 to −1.9 pp", "clear and large enough to matter"),
    ("3p 3×greedy", "29.7%", "33.6%", "+3.9 pp", "+2.1 to +5.7 pp", "clear and large enough to matter"),
    ("3p 3×greedy", "34.4%", "30.7%", "−3.7 pp", "−5.5 to −1.9 pp", "clear and large enough to matter"),
    ("3p 3×greedy", "35.9%", "35.7%", "−0.2 pp", "−2.0 to +1.6 pp", "within noise"),
    ("4p 4×balanced", "20.2%", "22.6%", "+2.4 pp", "+0.8 to +3.9 pp", "clear, may matter"),
    ("4p 4×balanced", "24.6%", "26.3%", "+1.7 pp", "0.0 to +3.4 pp", "clear, may matter"),
    ("4p 4×balanced", "29.77%", "24.33%", "−5.44 pp", "−7.1 to −3.8 pp", "clear and large enough to matter"),
    ("4p 4×balanced", "25.36%", "26.74%", "+1.38 pp", "0.0 to +2.9 pp", "clear, may matter"),
    ("4p 4×greedy", "20.2%", "23.8%", "+3.6 pp", "+2.0 to +5.3 pp", "clear and large enough to matter"),
    ("4p 4×greedy", "24.56%", "22.42%", "−2.14 pp", "−3.8 to −0.5 pp", "clear, may matter"),
    ("4p 4×greedy", "27.6%", "24.6%", "−3.0 pp", "−4.7 to −1.3 pp", "clear and large enough to matter"),
    ("4p 4×greedy", "27.7%", "29.2%", "+1.5 pp", "0.0 to +3.2 pp", "clear, may matter"),
]


def test_the_tune_page_prints_the_panel_before_afters_figures():
    table = cell_response_table(START_CELLS, "middle-ages")
    change = next(c for c in table.columns if c.startswith("Change"))
    got = [(r["Cell"], r["Start rules"], r["Tuned rules"], r[change], r["Words"]) for r in table.iter_rows(named=True)]
    want = [(cell, b, a, f"{ch} ({iv})", words) for cell, b, a, ch, iv, words in BEFORE_AFTER]
    assert got == want


def test_no_clear_change_is_printed_beside_an_interval_across_0():
    sec = cell_response_section(START_CELLS, "middle-ages")
    text = " ".join(sec.sentences)
    assert "4p 4×balanced: 25.36% → 26.74%, +1.38 pp (0.0 to +2.9 pp), clear, may matter" in text, text
    for up, low in re.findall(r"([+−]\d[\d.]*) pp \(([+−]?\d[\d.]*) to [^)]*\), clear", text):
        assert not (up.startswith("+") and low.startswith("−")), (up, low)
    # the page says why an interval ends at 0
    assert "cut at 0 where Holm shows its sign" in sec.intro
