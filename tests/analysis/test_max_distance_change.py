"""The change of the largest distance from a band (a before/after's largest seat gap from 1/P, a
tune race's objective) is bounded per candidate farthest column (analysis.stats.max_distance_change).

Designer review (session 57): the panel before/after said "these games cannot tell in 4p
4×eventwise" for Seat 1 going from +2.69 to +3.84 pp from fair (change +1.15 pp, −0.14 to +1.70),
while the table above showed Seat 1's paired change clear (+0.7 to +1.6). The low end was the
smallest paired change over every seat that may have been the farthest before: Seat 3 (its own
paired change down to −0.5 pp) was admitted because its interval reached Seat 1's, though had Seat 3
been the farthest before, Seat 1 would have ended at least ~0.6 pp further out than Seat 3 began.
Each candidate j now counts the better of its own paired change and (any seat's sure distance after)
− (the most j can have been before); the upper end the same, with before and after exchanged.

Checked here: the bound is never wider than before and holds at every point of the boxes (random
boxes, brute force); the reviewer's numbers read "away" (clear) where they read "cannot tell";
and by simulation of paired games, through :func:`analysis.panel_compare.paired_gap_range` (the
page's own construction), the range covers the true change of the largest gap at least at the
family's 95 % — with the farthest seat clear, with near-ties before and after, and at the fair
point — the coverage's lower bound computed by scipy (Clopper–Pearson)."""

from __future__ import annotations

import zlib

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.panel_compare import PanelComparison, paired_gap_range, seat_balance


def _old_max_distance_change(i_low, i_high, d_low, d_high, c_low, c_high, lo, hi):
    """The bound before session 57 (kept here only to show the new one is never wider)."""
    g_lo, g_hi = stats.band_distance_range(i_low, i_high, lo, hi)
    f_lo, f_hi = stats.band_distance_range(c_low, c_high, lo, hi)
    h_lo, h_hi = stats.band_difference_range(i_low, i_high, d_low, d_high, lo, hi)
    maybe_g, maybe_f = g_hi >= g_lo.max(), f_hi >= f_lo.max()
    return (max(float(h_lo[maybe_g].min()), float(f_lo.max() - g_hi.max())),
            min(float(h_hi[maybe_f].max()), float(f_hi.max() - g_lo.max())))


def _random_boxes(rng, k):
    """Intervals of k columns: before i, change δ, after c (c's box meeting i + δ's)."""
    mid = rng.normal(0, 1, k) * rng.choice([0.2, 1.0])
    il = mid - rng.exponential(0.3, k)
    ih = mid + rng.exponential(0.3, k)
    dm = rng.normal(0, 0.3, k)
    dl, dh = dm - rng.exponential(0.1, k), dm + rng.exponential(0.1, k)
    cl = np.maximum(il + dl, il + dm - rng.exponential(0.5, k))
    ch = np.minimum(ih + dh, ih + dm + rng.exponential(0.5, k))
    ok = cl <= ch
    cl, ch = np.where(ok, cl, il + dl), np.where(ok, ch, ih + dh)
    return il, ih, dl, dh, cl, ch


def _band(rng):
    kind = rng.integers(3)
    lo = float(rng.normal(0, 0.3))
    return (lo, lo) if kind == 0 else (lo, lo + float(rng.exponential(0.3))) if kind == 1 else (-np.inf, lo)


def test_the_range_holds_at_every_point_of_the_boxes_and_is_never_wider():
    """Brute force: points drawn in every column's boxes (i, then δ with i + δ in c's box), the
    change of the maximum always inside the range; and the range inside the old one."""
    rng = np.random.default_rng(57)
    narrower = 0
    for _ in range(400):
        k = int(rng.integers(2, 6))
        il, ih, dl, dh, cl, ch = _random_boxes(rng, k)
        lo, hi = _band(rng)
        low, high = stats.max_distance_change(il, ih, dl, dh, cl, ch, lo, hi)
        old = _old_max_distance_change(il, ih, dl, dh, cl, ch, lo, hi)
        assert old[0] - 1e-12 <= low and high <= old[1] + 1e-12, (low, high, old)
        narrower += (low > old[0] + 1e-9) or (high < old[1] - 1e-9)
        # points of the boxes, the corners (where the extremes lie) drawn often
        n = 4000
        t = rng.random((n, k))
        t = np.where(rng.random((n, k)) < 0.3, np.round(t), t)
        i = il + t * (ih - il)
        d_from = np.maximum(dl, cl - i)
        d_to = np.minimum(dh, ch - i)
        ok = (d_from <= d_to).all(axis=1)
        u = rng.random((n, k))
        u = np.where(rng.random((n, k)) < 0.3, np.round(u), u)
        d = d_from + u * (d_to - d_from)
        change = (stats.band_distance(i + d, lo, hi).max(axis=1)
                  - stats.band_distance(i, lo, hi).max(axis=1))[ok]
        assert (change >= low - 1e-12).all() and (change <= high + 1e-12).all(), (
            change.min(), change.max(), low, high)
    assert narrower > 40, narrower          # the new bound does tighten, and not rarely


# docs/reports.md's panel before/after (the default panel, 50,000 games a cell, seed 1, then
# setup.start_coins=[4,0,0,0]): every seat's win share before and after and its paired change with
# the comparison's own 95 % interval, as analysis.panel_compare.panel_comparison reads the two runs
# (runs/panel-base → runs/panel-coins). The reviewer's cell is 4p 4×eventwise.
PANEL = [
    ("4p 4×balanced", 0.2032, 0.1951, -0.0081, -0.01127735950912453, -0.0049226404908754694),
    ("4p 4×balanced", 0.24656, 0.22702, -0.01954, -0.023292199661926024, -0.015787800338073973),
    ("4p 4×balanced", 0.2997, 0.30914, 0.00944, 0.0053696343056252325, 0.01351036569437477),
    ("4p 4×balanced", 0.25054, 0.26874, 0.0182, 0.014526954559313278, 0.021873045440686724),
    ("4p 4×greedy", 0.19678, 0.20322, 0.00644, 0.002589164721944203, 0.010290835278055799),
    ("4p 4×greedy", 0.25046, 0.2507, 0.00024, -0.004746343157194299, 0.005226343157194299),
    ("4p 4×greedy", 0.27466, 0.25694, -0.01772, -0.022681364739030294, -0.012758635260969705),
    ("4p 4×greedy", 0.2781, 0.28914, 0.01104, 0.00597660499076322, 0.016103395009236778),
    ("4p 4×eventwise", 0.2769, 0.2884, 0.0115, 0.008146481985230856, 0.014853518014769144),
    ("4p 4×eventwise", 0.24722, 0.24256, -0.00466, -0.008382183920067648, -0.0009378160799323517),
    ("4p 4×eventwise", 0.2347, 0.23368, -0.00102, -0.004919811241872445, 0.0028798112418724456),
    ("4p 4×eventwise", 0.24118, 0.23536, -0.00582, -0.00951096407122655, -0.0021290359287734506),
]
CELLS = ["4p 4×balanced", "4p 4×greedy", "4p 4×eventwise"]


def _panel_rows() -> pl.DataFrame:
    cols = list(zip(*PANEL))
    return pl.DataFrame({"cell": list(cols[0]), "key": [f"Seat {i % 4 + 1}" for i in range(len(PANEL))],
                         "before": list(cols[1]), "after": list(cols[2]), "diff": list(cols[3]),
                         "diff_low": list(cols[4]), "diff_high": list(cols[5]),
                         "games_before": [50_000] * len(PANEL), "games_after": [50_000] * len(PANEL),
                         "players": [4] * len(PANEL), "paired": [True] * len(PANEL)})


def test_the_reviewers_cell_reads_away_not_cannot_tell():
    """4p 4×eventwise: Seat 1 farthest from fair in both runs, its paired change clear (+0.81 to
    +1.49 pp at 95 %): the change of the largest gap is clear too (its low end above 0, no higher
    than Seat 1's own paired change at the family's level), where it read −0.14 to +1.70. The
    family: 3 intervals for each of the 12 seats of the 3 cells (36), as the page's."""
    c = PanelComparison(game="middle-ages", rows=_panel_rows(), cells=CELLS, what="seat", family=12,
                        smallest=0.01)
    t = seat_balance(c)
    assert t["paired"].all() and (t["family"] == 36).all()
    b = t.filter(pl.col("cell") == "4p 4×eventwise").row(0, named=True)
    assert b["before_seat"] == 1 and b["after_seat"] == 1
    assert b["change_low"] <= b["change"] <= b["change_high"]
    assert b["change_low"] > 0 and b["verdict"] != stats.NOT_SHOWN, b
    z = stats.z_quantile(1 - 0.05 / 36)
    d, lo, hi = PANEL[8][3:]
    assert b["change_low"] <= d - z * (hi - lo) / (2 * stats.z_quantile(0.95)) + 1e-12
    for r in t.iter_rows(named=True):          # every cell's range still holds its estimate
        assert r["change_low"] <= r["change"] <= r["change_high"], r


# ---- coverage by simulation ------------------------------------------------------------------

def _paired_counts(rng, reps, games, p_before, p_after, keep):
    """Per repetition, counts of (winner before, winner after) over ``games`` paired games: a game
    keeps its winner under both rules with the largest chance the two laws allow (``keep`` of the
    maximal coupling), else the after winner is drawn afresh from what is left; each side has
    exactly its own law. Returns counts[reps, P, P]."""
    pb, pa = np.asarray(p_before, float), np.asarray(p_after, float)
    P = pb.size
    stay = keep * np.minimum(pb, pa)
    rest_b, rest_a = pb - stay, pa - stay
    joint = np.diag(stay) + (np.outer(rest_b, rest_a) / rest_a.sum() if rest_a.sum() > 0 else 0.0)
    assert np.allclose(joint.sum(axis=1), pb) and np.allclose(joint.sum(axis=0), pa)
    return rng.multinomial(games, joint.ravel(), size=reps).reshape(reps, P, P)


def coverage(p_before, p_after, reps, games, seed, keep=0.9):
    """(hits, reps) of paired_gap_range covering the true change of the largest gap from 1/P, each
    seat's paired change given as the comparison gives it (mean per-game difference ± 1.96 sd/√n)."""
    pb, pa = np.asarray(p_before, float), np.asarray(p_after, float)
    P = pb.size
    fair = 1.0 / P
    truth = float(np.abs(pa - fair).max() - np.abs(pb - fair).max())
    counts = _paired_counts(np.random.default_rng(seed), reps, games, pb, pa, keep)
    z95 = stats.z_quantile(0.975)
    hits = 0
    for m in counts:
        b, a = m.sum(axis=1) / games, m.sum(axis=0) / games
        d = a - b
        moved = (m.sum(axis=1) + m.sum(axis=0) - 2 * np.diag(m)) / games   # mean of (per-game diff)²
        sd = np.sqrt(np.maximum(moved - d ** 2, 0.0) * games / (games - 1))
        half = z95 * sd / np.sqrt(games)
        lo, hi = paired_gap_range(b, a, games, games, d, d - half, d + half, np.zeros(P, bool), fair, 3 * P)
        hits += lo - 1e-12 <= truth <= hi + 1e-12
    return hits, reps


CASES = {
    # the reviewer's cell, the true shares its runs estimate: Seat 1 clearly farthest, moving out
    "furthest seat clear": ([r[1] for r in PANEL[8:]], [r[2] for r in PANEL[8:]]),
    # two seats as far before (above and below), the one below moves out, the other in
    "near-tie before": ((0.22, 0.25, 0.25, 0.28), (0.215, 0.26, 0.25, 0.275)),
    # two seats as far after: the maximum's change decided by whichever binds
    "near-tie after": ((0.23, 0.25, 0.245, 0.275), (0.225, 0.25, 0.25, 0.275)),
    # every seat fair before, one moves by less than its interval's width
    "fair point": ((0.25, 0.25, 0.25, 0.25), (0.253, 0.249, 0.249, 0.249)),
    # the farthest seat changes: seat 4 out, seat 1 in, the largest gap unchanged
    "farthest changes, no change": ((0.22, 0.25, 0.25, 0.28), (0.23, 0.24, 0.25, 0.28)),
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_paired_gap_range_covers_the_true_change_at_the_familys_level(case):
    """300 repetitions of 50,000 paired games per case (~1 s): coverage not shown below 95 %
    (scipy's exact binomial test, one-sided, p > 0.001). Bonferroni over the 3P intervals is
    conservative, so the coverage measured is near 100 %. It can fail: the largest L_j over the
    seats that may be farthest before instead of the smallest (and the smallest U_k after) covers
    0 of 300 in "near-tie after", 82 in "near-tie before", 237 at the fair point."""
    from scipy.stats import binomtest

    hits, reps = coverage(*CASES[case], reps=300, games=50_000, seed=zlib.crc32(case.encode()))
    assert binomtest(hits, reps, 0.95, alternative="less").pvalue > 1e-3, (case, hits, reps)


@pytest.mark.slow
@pytest.mark.parametrize("keep", [0.5, 0.9, 0.99])
@pytest.mark.parametrize("case", list(CASES))
def test_the_paired_gap_range_covers_at_least_95_percent_slow(case, keep):
    """3,000 repetitions a case and pairing strength: the Clopper–Pearson 99 % lower bound of the
    coverage (scipy) is at least 0.94 (measured figures printed with -s; docs/analysis.md)."""
    from scipy.stats import binomtest

    hits, reps = coverage(*CASES[case], reps=3000, games=50_000, seed=11, keep=keep)
    ci = binomtest(hits, reps).proportion_ci(confidence_level=0.99, method="exact")
    print(f"{case}, keep {keep}: coverage {hits / reps:.4f} ({ci.low:.4f} to {ci.high:.4f}) over {reps}")
    assert hits / reps >= 0.95 or ci.high >= 0.95, (case, keep, hits, reps)
    assert ci.low >= 0.94, (case, keep, hits, reps)
