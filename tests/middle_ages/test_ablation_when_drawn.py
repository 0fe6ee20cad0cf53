"""revE #1-#3: the event ablation averages a card's effect over *all* games (the ~73% that never
draw it count 0), the association only over the games where it fires. The ablation now also gives
the effect per game where the card is drawn (effect ÷ draw rate, interval likewise), its rows come
in reading order whatever order polars hands them over, and "Moves who wins by" is said only for a
clear effect."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
import scipy.stats

from analysis import events, stats
from analysis.questions import middle_ages as Q
from simcore.games.middle_ages import rules as R


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_per_drawn_effect_is_the_mean_over_the_games_that_draw_the_card(monkeypatch):
    """On real replayed deals: the games without the card are 0, so effect ÷ draw rate is exactly
    the mean difference over the games that draw it (the review's rep.py check, for one card).

    The ablation's simultaneous critical values (60 cells) are drawn with 20,000 normal vectors
    instead of 200,000 (within ~0.015 of them): this test reads the effects, not the intervals'
    ends (the Monte Carlo was 1.4 s of its 2 s of CPU; the interval is checked by the coverage
    test below)."""
    from functools import partial

    monkeypatch.setattr(stats, "max_abs_normal_quantile", partial(stats.max_abs_normal_quantile, draws=20_000))
    rules = R.load()
    t = Q.event_ablation(300, seed=5, threads=1)
    assert t["unchanged_when_not_drawn"].all()
    w, s, ev = Q._play(rules, 4, 300, 5, None, 1)
    w2, s2, _ = Q._play(Q.neutralised(rules, 3), 4, 300, 5, None, 1)      # Invasion barbare
    drawn = (ev == 3).any(axis=1)
    rows = t.filter(pl.col("event") == 3).sort("seat")
    np.testing.assert_allclose(rows["score_when_drawn"].to_numpy(), (s - s2)[drawn].mean(axis=0), atol=1e-9)
    np.testing.assert_allclose(rows["win_share_when_drawn"].to_numpy(), (w - w2)[drawn].mean(axis=0), atol=1e-9)
    assert rows["fires"][0] == drawn.mean()
    assert set(t["verdict"]) <= {"within noise", stats.SMALL, stats.MAY_MATTER, stats.LARGE}


def _divided(d: np.ndarray, drawn: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The per-drawn estimate and interval as the ablation builds them: simultaneous over the
    all-games differences ``d`` (games × cells), then ÷ the draw rate of each cell."""
    m, c = stats.mean_cov(d)
    lo, hi, _ = stats.simultaneous(m, c)
    ab = pl.DataFrame({"event": np.arange(d.shape[1]), "seat": 0, "fires": drawn.mean(axis=0),
                       "win_share_effect": m, "win_share_effect_low": lo, "win_share_effect_high": hi})
    out = events.ablation_when_drawn(ab)
    return (out["win_share_when_drawn"].to_numpy(), out["win_share_when_drawn_low"].to_numpy(),
            out["win_share_when_drawn_high"].to_numpy())


@pytest.mark.parametrize("n", [100, pytest.param(300, marks=pytest.mark.slow)])
def test_the_divided_interval_covers_the_effect_per_drawn_game(n):
    """Coverage by simulation: 3 cards drawn in 27% of 2,000 games, per drawn game a ±1 outcome
    of mean R (win or lose the game), 0 without the card. The divided simultaneous interval covers
    every R at once in at least 95% of ``n`` replications (less twice the Monte Carlo error), and
    each is at least as wide as scipy's t interval on the drawn games alone (the delta method,
    which ignores the draw rate's own variation: the divided one is the conservative of the two).

    Most of the CPU is the simultaneous critical value, one Monte Carlo quantile per new
    correlation matrix (62 of the first 100 replications, 102 of 300). 100 replications in the
    fast suite (bound 90.6%; 94% covered), 300 with ``-m slow`` (bound 92.5%). The mistakes fail
    at 100 as at 300 (measured by patching them in): the interval left undivided while the
    estimate is divided covers in 5% (6% of 300), an interval divided by the square root of the
    draw rate in 46% (49%), per-card 95% intervals instead of simultaneous ones in 85% (85%)."""
    rng = np.random.default_rng(1)
    R_true = np.array([0.03, -0.06, 0.0])
    hits, G = 0, 2000
    for _ in range(n):
        drawn = rng.random((G, 3)) < 0.27
        win = np.where(rng.random((G, 3)) < (1 + R_true) / 2, 1.0, -1.0)
        d = np.where(drawn, win, 0.0)
        est, lo, hi = _divided(d, drawn)
        hits += bool(((lo <= R_true) & (R_true <= hi)).all())
    assert hits / n >= 0.95 - 2 * np.sqrt(0.05 * 0.95 / n), hits / n
    # one replication against scipy, cell by cell, at the same (Bonferroni-free) critical value
    drawn = rng.random((G, 1)) < 0.27
    d = np.where(drawn, np.where(rng.random((G, 1)) < 0.52, 1.0, -1.0), 0.0)
    est, lo, hi = _divided(d, drawn)
    x = d[drawn[:, 0], 0]
    t_lo, t_hi = scipy.stats.t.interval(0.95, x.size - 1, loc=x.mean(), scale=scipy.stats.sem(x))
    assert abs(est[0] - x.mean()) < 1e-12
    assert hi[0] - lo[0] >= (t_hi - t_lo) * 0.995        # z vs t at n≈540: within 0.5%


def _questions(effects: dict[str, list[tuple[float, float, float]]], shuffle: int | None = None):
    from reports.questions import Questions

    rows = [{"event": k, "name": name, "seat": s, "fires": 0.25, "win_share_effect": e,
             "win_share_effect_low": lo, "win_share_effect_high": hi, "score_effect": 1.0,
             "score_effect_low": 0.5, "score_effect_high": 1.5, "swing": max(abs(x) for x, _, _ in seats),
             "verdict": "not shown", "score_verdict": ""}
            for k, (name, seats) in enumerate(effects.items()) for s, (e, lo, hi) in enumerate(seats)]
    df = pl.DataFrame(rows)
    if shuffle is not None:
        df = df.sample(fraction=1.0, shuffle=True, seed=shuffle)
    return Questions(Path("q"), {"games": 5000, "smallest_difference": {"share": 0.01, "score": 2.0}},
                     {"event_ablation": df})


CARDS = {"Invasion barbare": [(-0.0086, -0.0177, 0.0005), (0.008, -0.001, 0.017)],   # within noise
         "Pic de natalité": [(0.0044, -0.0004, 0.0092), (0.0, -0.004, 0.004)],
         "Alliance": [(0.0086, 0.0027, 0.0145), (-0.004, -0.009, 0.001)],             # clear
         "Aide à la reconstruction": [(0.0044, -0.0008, 0.0096), (0.001, -0.004, 0.006)],
         "Marchandises précieuses": [(0.0034, 0.0002, 0.0066), (0.0, -0.003, 0.003)]}   # clear, small


def test_cards_come_in_reading_order_the_same_every_time():
    """Clear cards first (Alliance, may matter; then Marchandises précieuses, small), then the
    within-noise ones by size; ties (Invasion barbare's and Alliance's 0.86 pp, Pic de natalité's
    and Aide à la reconstruction's 0.44 pp) by event id, whatever order the rows arrive in. The
    page ranked by the largest |estimate| (Invasion barbare first, Marchandises 5th) and its
    group_by gave ties in a different order from run to run."""
    from reports.games import middle_ages as M

    orders = set()
    for seed in (None, 1, 2, 3, 4):
        s = M._ablation_section(_questions(CARDS, seed))
        orders.add(tuple(s.tables[0][1]["Event card"].to_list()))
        assert tuple(s.tables[1][1]["Event card"].to_list()) == tuple(s.tables[0][1]["Event card"].to_list())
    assert orders == {("Alliance", "Marchandises précieuses", "Invasion barbare", "Pic de natalité",
                       "Aide à la reconstruction")}


def test_moves_who_wins_by_is_said_only_for_a_clear_effect_and_per_drawn_game():
    from reports.games import middle_ages as M

    s = M._ablation_section(_questions(CARDS))
    rows = {r["Event card"]: r for r in s.tables[0][1].iter_rows(named=True)}
    moves, drawn = "Moves who wins by (its clear effect, all games)", "… per game where drawn"
    assert rows["Alliance"][moves] == "+0.9 pp, Seat 1" and rows["Alliance"][drawn] == "+3.4 pp, Seat 1"
    assert rows["Invasion barbare"][moves] == "within noise (≤ 1.77 pp)"
    assert rows["Invasion barbare"][drawn] == "within noise (≤ 7.08 pp)"          # 1.77 ÷ 0.25
    per = {r["Event card"]: r for r in s.tables[1][1].iter_rows(named=True)}
    # all of +1.1 to +5.8 pp is past the 1 pp that matters: large per drawn game, though over all
    # games (+0.3 to +1.5 pp) it only may matter
    assert per["Alliance"]["Seat 1: win share (pp)"] == "+3.4 (+1.1 to +5.8 pp), clear and large enough to matter"
    assert per["Alliance"]["Seat 1: score (coins)"] == "+4.0 (+2.00 to +6.00 coins), clear and large enough to matter"
    assert rows["Alliance"]["Seat 1: score (coins)"] == "+1.0 (+0.50 to +1.50 coins), clear but small"
    first = s.sentences[0]
    assert first.startswith("The largest clear effect on who wins is Alliance's: +0.9 pp for Seat 1")
    assert "when drawn (in 25.0% of games), Alliance moves Seat 1 by +3.4 pp (+1.1 to +5.8 pp" in first
    assert "the run's first 5,000 deals" in s.intro and "two families" in s.intro
    assert "averaged over all the games" in s.intro


def test_the_kept_csv_says_within_noise_in_the_pages_order():
    from reports.games import middle_ages as M

    class _RS:             # question_files reads only the run set's smallest differences
        smallest = None
    files = M.question_files(_questions(CARDS, 3), _RS())
    kept = files["questions/event_ablation.csv"]
    assert "not shown" not in kept["verdict"].to_list() and "within noise" in kept["verdict"].to_list()
    assert kept["name"].unique(maintain_order=True).to_list()[:2] == ["Alliance", "Marchandises précieuses"]
    assert {"win_share_when_drawn", "score_when_drawn_high", "verdict_when_drawn"} <= set(kept.columns)


def test_the_association_section_says_why_its_numbers_are_larger_and_points_up():
    """revE #1/#5: with the ablation on the same page, the association section points to the section
    above (not to "`balance questions`") and says its numbers are about 1 ÷ the draw rate larger."""
    from reports.games import middle_ages as M
    from reports.sections import FigureSet

    class _RS:
        smallest = None

        def smallest_of(self, kind):
            return 0.01

    ev = pl.DataFrame({"slot": [0], "event": [2], "event_name": ["Alliance"], "games": [100],
                       "mean_gain": [1.0], "gain_ci_low": [0.5], "gain_ci_high": [1.5],
                       "mean_spread": [1.0], "spread_ci_low": [0.5], "spread_ci_high": [1.5],
                       "leader_change": [0.2], "leader_change_ci_low": [0.1], "leader_change_ci_high": [0.3],
                       "top_gainer_win_share": [0.3], "top_gainer_ci_low": [0.2], "top_gainer_ci_high": [0.4],
                       "top_gainer_games": [50]})
    seats = pl.DataFrame(schema={"significant": pl.Boolean, "event_name": pl.String, "seat_label": pl.String,
                                 **{c: pl.Float64 for c in ("win_share_with", "with_ci_low", "with_ci_high",
                                                           "win_share_without", "without_ci_low",
                                                           "without_ci_high", "diff", "diff_low",
                                                           "diff_high", "p_adjusted")}})
    t = {"events": ev, "event_seats": seats}
    from unittest import mock
    with mock.patch.object(M.F, "event_impact", return_value=None), \
            mock.patch.object(M.F, "event_slots", return_value=None), \
            mock.patch.object(FigureSet, "add", lambda self, *a, **k: []):
        secs = M.sections(t, _RS(), FigureSet(), _questions(CARDS))
    events_intro = [s.intro for s in secs if "association" in s.title][0]
    assert "the ablation section above" in events_intro and "balance questions" not in events_intro
    assert "about 1 ÷ the draw rate (4.0× here) larger" in events_intro
    assert [s for s in secs if "ablation" in s.title][0] is secs[0]
