"""Review M #2, #3 and #11 (the sweep part): what the sweep page says beside a response that turns,
when a step back is too small to be a turn, and interval ends printed on their verdict's side.

#2: the "turn" sentence quoted "the first-vs-last effect" from the value-by-value family (Bonferroni
over every pair of values), while the sentences below and the table "Every effect" give the same
0 → 4 change from the first-vs-last family, with another interval and verdict. #3: a reverse step
that is clear but smaller than the difference that matters was called a turn, and the first-vs-last
effect said to "hide" it even when it showed nearly all of the change. #11: ends rounded onto 0 (or
onto ± the smallest difference) on the wrong side of their verdict.

The sweep is written by hand (seat win shares only, no game played; every value's winner drawn from
one uniform per game, so the variants share their games): as start coins go 0 → 4,
seat 1 25 → 15 → 17 → 19 → 21 % (a turn the first-vs-last effect hides),
seat 3 25 → 29 → 29 → 29 → 28.1 % (a turn of 4 then −0.9 pp: first to last is within 1 pp of it),
seat 4 25 → 28 → 31 → 31 → 30.6 % (up by 6, then back by 0.4 pp: it levels off).
Every figure checked is recomputed from the planted winners.
"""

from __future__ import annotations

import re
from statistics import NormalDist

import numpy as np
import polars as pl
import pytest
from handmade_sweep import plant_winners, swept_sensitivity

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

N = 4000
VALUES = [0, 1, 2, 3, 4]
S1 = [0.25, 0.15, 0.17, 0.19, 0.21]
S3 = [0.25, 0.29, 0.29, 0.29, 0.281]
S4 = [0.25, 0.28, 0.31, 0.31, 0.306]
NAME = "setup.start_coins[0]"


def _winners() -> dict[int, np.ndarray]:
    return plant_winners(VALUES, S1, S3, S4, N, seed=5)


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    root = tmp_path_factory.mktemp("review_m") / "sw"
    winners = _winners()
    from reports.sweep import sweep_sentences, value_sentences

    s = swept_sensitivity(root, NAME, VALUES, winners, N)
    lines = value_sentences(s.value_effects, s.references, s.curves, effects=s.effects)
    return s, lines, sweep_sentences(s.effects), winners


def _num(x: str) -> float:
    return float(x.replace("−", "-"))


def _diff(winners, seat: int, a: int, b: int) -> np.ndarray:
    """Per game, seat's win share at value b minus at value a (in pp)."""
    return 100.0 * ((winners[b] == seat).astype(float) - (winners[a] == seat).astype(float))


AMOUNT = r"([+−]\d+\.\d+) pp \(([+−]\d+\.\d+) to ([+−]\d+\.\d+)\)"


def _line(lines, head):
    hits = [x for x in lines if x.startswith(head)]
    assert len(hits) == 1, (head, lines)
    return hits[0]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_turn_quotes_the_first_vs_last_family_the_page_quotes_everywhere(swept):
    """#2: the interval beside a turn is the first-vs-last family's (one comparison: simultaneous
    over the page's metrics, so between the normal 1.96 and Bonferroni's standard errors
    wide), the interval and words of the first-vs-last sentence below, not the value-by-value
    family's (Bonferroni over 10 pairs)."""
    s, lines, effects, winners = swept
    turn = _line(lines, "Seat 1's win share does not move one way")
    m = re.search(r"the first-vs-last effect \(0 → 4: " + AMOUNT + r", ([a-z ,]+)\) hides it", turn)
    assert m, turn
    x, lo, hi = (_num(g) for g in m.groups()[:3])
    d = _diff(winners, 0, 0, 4)
    se = d.std(ddof=1) / np.sqrt(N)
    assert abs(x - d.mean()) <= 0.051, (x, d.mean())
    # one comparison's family: simultaneous over its 4 seat shares and the 8 seat shares the seat
    # balance is read from (12 columns), so between 1.96 and Bonferroni's z(1 − 0.05/24) standard
    # errors wide (the printed ends are rounded to 0.05 pp)
    half = (hi - lo) / 2
    z1, z_bonf = (NormalDist().inv_cdf(1 - a / 2) for a in (0.05, 0.05 / 12))
    slack = 0.05 / se
    assert z1 - slack <= half / se <= z_bonf + slack, (half / se, z1, z_bonf)
    # the same words and numbers as the page's own first-vs-last sentence of that metric
    below = _line(effects, "Raising setup.start_coins[0] from 0 to 4 moves seat 1's win share by")
    assert f"{m.group(1)} pp ({m.group(2)} to {m.group(3)}): {m.group(4)}" in below, (turn, below)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_clear_but_small_step_back_levels_off_and_is_no_turn(swept):
    """#3: seat 4 rises by 6 pp and steps back by 0.4: clear, but its whole interval is under the
    1 pp that matters. It is said to level off, not to turn; the first-vs-last effect is within
    1 pp of the rise, so nothing is hidden."""
    _, lines, _, winners = swept
    assert not any(x.startswith("Seat 4's win share does not move one way") for x in lines), lines
    level = _line(lines, "Seat 4's win share rises with setup.start_coins[0]")
    m = re.search(r"then levels off: from (\d) to (\d) it falls by " + AMOUNT + r", clear but small", level)
    assert m, level
    a, b = int(m.group(1)), int(m.group(2))
    x, lo, hi = (_num(g) for g in m.groups()[2:5])
    d = _diff(winners, 3, a, b)
    assert abs(x - d.mean()) <= 0.0051 and -1.0 < lo < hi < 0.0, (d.mean(), level)
    assert "hides" not in level and "within the 1 pp that matters of the rise" in level, level


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_hides_only_when_first_to_last_falls_short_of_the_larger_step(swept):
    """#3: seat 1 (−10 then +6; first to last −4 pp, 6 short of the fall) hides its turn; seat 3
    (+4 then −0.9, each clear and reaching 1 pp; first to last +3.1, 0.9 short of the rise) turns,
    and its first-vs-last effect is said to be within the 1 pp that matters of the rise."""
    _, lines, _, winners = swept
    assert _line(lines, "Seat 1's win share does not move one way").endswith("hides it.")
    turn = _line(lines, "Seat 3's win share does not move one way")
    m = re.search(r"rises from (\d) to (\d) by " + AMOUNT, turn)
    rise = _diff(winners, 2, int(m.group(1)), int(m.group(2))).mean()
    net = _diff(winners, 2, 0, 4).mean()
    assert rise - net < 1.0                           # the planted case: less than 1 pp short
    assert "hides" not in turn and "is within the 1 pp that matters of the rise" in turn, turn


def test_hidden_by_reads_noise_and_the_shortfall():
    from analysis.sweep.metrics import hidden_by

    def row(delta, lo, hi, verdict="clear, may matter"):
        return {"delta": delta, "low": lo, "high": hi, "smallest": 0.01, "verdict": verdict,
                "numeric": True, "rising": True, "low_unadjusted": lo, "high_unadjusted": hi,
                "from": "0", "to": "4"}

    up, down = row(0.03, 0.02, 0.04), row(-0.012, -0.02, -0.005)
    assert hidden_by(row(0.016, -0.001, 0.03, "not shown"), (up, down))   # within noise
    assert hidden_by(row(0.018, 0.01, 0.026), (up, down))                 # 1.2 pp short
    assert not hidden_by(row(0.022, 0.014, 0.03), (up, down))             # 0.8 pp short
    # a first-vs-last row read the other way round (a chain from 4 down to 0) is oriented first
    flipped = {**row(-0.022, -0.03, -0.014), "rising": False}
    assert not hidden_by(flipped, (up, down))


def test_interval_ends_print_on_their_verdicts_side():
    """#11: "+1.0 pp (+0.0 to +1.9): clear, may matter" for a low end of +0.05 pp, and a table's
    "−0.4 to 0, clear but small" for a high end of −0.001 pp."""
    from reports.sweep import effect_sentence, effects_table
    from reports.text import cell_text

    base = {"parameter": NAME, "from": "0", "to": "4", "at": "", "numeric": True, "rising": True,
            "metric": "seat_win_share_3", "label": "seat 3's win share", "unit": "pp", "share": True,
            "smallest": 0.01}
    may = {**base, "delta": 0.00995, "low": 0.000497, "high": 0.0194, "verdict": "clear, may matter"}
    small = {**base, "metric": "seat_win_share_4", "label": "seat 4's win share", "delta": -0.002,
             "low": -0.00399, "high": -0.0000097, "verdict": "clear but small"}
    noise = {**base, "metric": "seat_win_share_2", "label": "seat 2's win share", "delta": 0.004,
             "low": -0.00004, "high": 0.0081, "verdict": "not shown"}
    m = re.search(AMOUNT, effect_sentence(may))
    lo, hi = _num(m.group(2)), _num(m.group(3))
    assert 0.0 < lo < 1.0 < hi, m.group(0)                # excludes 0, reaches past 1 pp
    t = effects_table(pl.DataFrame([may, small, noise]))
    printed = {r["metric"]: [float(cell_text(r[c])) for c in ("low", "high")]
               for r in t.iter_rows(named=True)}
    assert 0.0 < printed["seat 3's win share"][0] < 1.0 < printed["seat 3's win share"][1], printed
    assert -1.0 < printed["seat 4's win share"][0] < printed["seat 4's win share"][1] < 0.0, printed
    # within noise: an end printed as 0 is on its side; two decimals as before
    assert [cell_text(x) for x in t.filter(pl.col("metric") == "seat 2's win share").row(0)[6:8]] \
        == ["0", "0.81"], t


def test_the_tornado_says_where_a_response_its_bar_hides_turns(swept):
    """Review Z #5: a first → last bar hid a V-shaped response (6 → 9 "+9.8 pp" of seat imbalance
    where 7 was fair). Seat 1 here falls 25 → 15 % from 0 to 1 and rises again to 21 %: its bar's
    label and the caption say it turns at 1; seat 4, which levels off, is not said to turn."""
    from reports.figures.sweep import tornado
    from reports.sweep import turning_points

    s = swept[0]
    turning, said = turning_points(s)
    assert turning.get((NAME, "seat_win_share_1")) == "1", turning
    assert (NAME, "seat_win_share_4") not in turning
    assert f"seat 1's win share with {NAME}, at 1" in said and "the bar hides it" in said, said
    fig = tornado(s.effects, True, "coins", turning=turning)
    labels = [t.get_text() for ax in fig.axes for t in ax.get_yticklabels()]
    # "reverses", not "turns": a page whose length unit is the player turn (review D #10, session 42)
    assert any(lab.startswith(f"{NAME} 0→4: seat 1's win share (reverses at 1: see text)") for lab in labels), labels
    assert not any("seat 4" in lab and "reverses" in lab for lab in labels), labels
