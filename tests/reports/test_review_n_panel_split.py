"""Review N #3: the Seigneurial before/after over a panel compared only the Seigneur's side, while
the panel page's finding is the Censitaires' seat split (seat 4 taking 63% of their wins, seat 2
5%), which ``payment.order=simultaneous`` evens out. Each seat of a role of several seats now has a
row per cell, its share of its role's wins before → after, tested and sized in the family of the
side rows; its change's standard error is the delta method's, paired game by game on each game's
linearised contribution when the runs played the same deals with rows, else each run's own added.

The panels are written by hand (:func:`tests.analysis.analysis_runs.write_run`), each game won by
one seat, so every share is known from the arrays written."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy.stats import norm

from analysis.panel_compare import SAME_GAMES, PairedRoleSplit, panel_comparison
from tests.analysis.analysis_runs import write_run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

G = 1000
LINEUPS = (("greedy-lord", "dutiful"), ("even-lord", "fair-share"))      # a cell's Seigneur, Censitaires
ROLES = ["seigneur", "censitaire", "censitaire", "censitaire"]
# the review's greedy-lord + 3×dutiful before (seat 2 ~5% of the Censitaires' wins, seat 4 ~63%),
# an even split after; the Seigneur wins a few games
BEFORE = np.array([0.03, 0.05, 0.32, 0.60])
AFTER = np.array([0.03, 0.32, 0.33, 0.32])
KEEP = 0.6          # the chance a deal's winner is the same under both rules (common random numbers)


def _redraw(rng, winner, p, keep):
    """``winner`` kept with probability ``keep`` per game, else drawn afresh from ``p``."""
    out = winner.copy()
    new = rng.random(winner.size) >= keep
    out[new] = rng.choice(4, size=int(new.sum()), p=p / p.sum())
    return out


def _write(path, winner, seed, sha, lineup):
    game = np.repeat(np.arange(winner.size), 4)
    seat = np.tile(np.arange(4), winner.size)
    win = (seat == np.repeat(winner, 4)).astype(float)
    write_run(path, {"game": game, "seat": seat, "strategy": [lineup[0] if s == 0 else lineup[1] for s in seat],
                     "score": np.zeros(game.size, int), "win_share": win, "rank": np.where(win > 0, 1, 2),
                     "role": [ROLES[s] for s in seat]},
              {"game": np.arange(winner.size), "n_players": np.full(winner.size, 4),
               "turns": np.full(winner.size, 12)},
              game="seigneurial", strategies=[lineup[0]] + [lineup[1]] * 3, seed=seed, rules_sha256=sha,
              rules_name=sha)
    return win.reshape(-1, 4)


def _sg_panels(tmp_path, seeds=(7, 7)):
    """A base and a variant panel of two 4-player Seigneurial cells (line-ups LINEUPS; seed ``seeds`` before, after;
    the same seed: the same deals, paired): in cell-0 the split evens out (a game's winner kept
    with probability KEEP, else redrawn from AFTER); in cell-1 every game has the same winner under
    both rules. Returns the directories and the seats' wins per game, (side, cell) → games × 4."""
    rng = np.random.default_rng(11)
    wins = {}
    for k in range(2):
        before = rng.choice(4, size=G, p=BEFORE)
        after = _redraw(rng, before, AFTER, KEEP) if k == 0 else before.copy()
        for side, winner, seed, sha in (("base", before, seeds[0], "before"), ("variant", after, seeds[1], "after")):
            wins[(side, k)] = _write(tmp_path / side / f"cell-{k}", winner, seed, sha, LINEUPS[k])
    return tmp_path / "base", tmp_path / "variant", wins


def _share(w):
    """Each Censitaire seat's share of the Censitaires' wins (seats 2-4), from per-game wins."""
    return w[:, 1:].sum(axis=0) / w[:, 1:].sum()


def _contribution(w, s):
    """Seat ``s``'s per-game linearised contribution to its share of the Censitaires' wins: the
    delta method's influence of each game, (w_s − S·W) / mean(W), W the Censitaires' wins."""
    total = w[:, 1:].sum(axis=1)
    return (w[:, s] - w[:, s].sum() / total.sum() * total) / total.mean()


def _split(c):
    return c.rows.filter(pl.col("metric") == "seat_share_of_role_wins")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_split_rows_are_the_runs_own_shares_tested_paired_in_the_family_of_the_sides(tmp_path, multipletests,
                                                                                         undrawn):
    """Each Censitaire seat's share before and after is the runs' own (wins over the Censitaires'
    wins, from the arrays written); its change's se is the sd of the paired per-game linearised
    differences over √G (and agrees with a bootstrap over games); Holm and the Bonferroni sizes
    run over every tested row, sides and seats; the seats of the cell with the same games are kept
    out, with the bound those games put on a share. (The page's words and CSV are read: its figure
    need not be drawn, ``undrawn``; a role game's panel before/after is drawn in
    test_review_n_panel.py.)"""
    from analysis.stats import same_games_bound
    from reports.panel import build_panel_comparison_report

    base, variant, wins = _sg_panels(tmp_path)
    c = panel_comparison(base, variant)
    split = _split(c)
    cells = c.cells
    assert split.height == 2 * 3 and split["paired"].all()
    rng = np.random.default_rng(3)
    for k in range(2):
        wb, wa = wins[("base", k)], wins[("variant", k)]
        sb, sa = _share(wb), _share(wa)
        for s in (1, 2, 3):
            r = split.filter((pl.col("cell") == cells[k]) & (pl.col("item") == f"Seat {s + 1}'s share of the "
                                                                            "Censitaires' wins")).row(0, named=True)
            assert (r["before"], r["after"]) == pytest.approx((sb[s - 1], sa[s - 1]), rel=1e-12)
            assert r["diff"] == pytest.approx(sa[s - 1] - sb[s - 1], abs=1e-12)
            if k == 1:                              # the same games under both rules: not tested
                assert r["note"] == SAME_GAMES and r["p_value"] is None and r["verdict"] is None
                q = 1 - 0.05 ** (1 / G)              # the chance a game differs, 95% bound
                share, role = sb[s - 1], wb[:, 1:].sum() / G
                assert r["change_at_most"] == pytest.approx(q * (1 + share) / (role - q), rel=1e-9)
                assert r["change_at_most"] > same_games_bound(G)
                continue
            d = _contribution(wa, s) - _contribution(wb, s)
            se = d.std(ddof=1) / np.sqrt(G)
            assert (r["diff_high"] - r["diff_low"]) / (2 * norm.ppf(0.975)) == pytest.approx(se, rel=1e-9)
            assert r["p_value"] == pytest.approx(2 * norm.sf(abs(r["diff"]) / se), rel=1e-6, abs=1e-300)
            # an independent check of the linearisation: the bootstrap over paired games
            idx = rng.integers(0, G, size=(200, G))
            boot = [_share(wa[i])[s - 1] - _share(wb[i])[s - 1] for i in idx]
            assert np.std(boot, ddof=1) == pytest.approx(se, rel=0.15)
    # one family: every tested row, sides and seats
    live = c.rows.filter(pl.col("p_value").is_not_null())
    assert c.family == live.height == 1 + 3                     # cell-0's side and its 3 seats
    assert live["p_adjusted"].to_numpy() == pytest.approx(multipletests(live["p_value"].to_numpy(), method="holm")[1])
    zm = norm.ppf(1 - 0.05 / (2 * c.family))
    for r in live.filter(pl.col("metric") == "seat_share_of_role_wins").iter_rows(named=True):
        se = (r["diff_high"] - r["diff_low"]) / (2 * norm.ppf(0.975))
        assert (r["size_low"], r["size_high"]) == pytest.approx((r["diff"] - zm * se, r["diff"] + zm * se), rel=1e-9)
    # the page and the CSV
    answers: list[str] = []
    build_panel_comparison_report(base, variant, tmp_path / "r", answers=answers)
    lead = " ".join(answers)
    seat4 = _share(wins[("variant", 0)])[2] - _share(wins[("base", 0)])[2]
    assert seat4 < -0.1                                         # by construction: seat 4 gives up its lead
    # opened by the size of what moved (review R #4): here a seat's share moved by enough to matter
    moved = split.filter(pl.col("verdict").is_not_null() & (pl.col("verdict") != "not shown"))["verdict"].to_list()
    assert "clear and large enough to matter" in moved
    # (s37 #3: the answer first, then the family it was read on)
    assert ("Did the split of the Censitaires' wins among their seats move, line-up by line-up? Yes, by enough to "
            "matter: ") in lead, lead
    assert f"(the same family of {c.family}: clear after Holm's correction over it" in lead, lead
    assert f"Seat 4's share of the Censitaires' wins moved in 1 of 1 cells where it was tested, down " \
           f"({cells[0]} {100 * seat4:.1f} pp (".replace("-", "−") in lead.replace("-", "−"), lead
    assert f"over the {c.family} comparisons of every cell and side, and of each seat's share of the " \
           "Censitaires' wins" in lead, lead
    csv = pl.read_csv(tmp_path / "r" / "comparison.csv")
    assert sorted(csv.filter(pl.col("metric") == "seat_share_of_role_wins")["item"].unique().to_list()) == [
        f"Seat {s}'s share of the Censitaires' wins" for s in (2, 3, 4)]
    assert set(csv.columns) >= {"before", "after", "diff", "size_low", "size_high", "verdict", "paired"}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_runs_on_other_deals_add_each_runs_own_delta_method_variance(tmp_path):
    """Unpaired (other seeds: no game pairs with another), the change's variance is each run's own
    delta-method variance of its share, added; the table says the rows are not paired."""
    from reports.panel import comparison_table

    base, variant, wins = _sg_panels(tmp_path, seeds=(7, 8))
    c = panel_comparison(base, variant)
    split = _split(c)
    assert not split["paired"].any() and split.height == 6
    table = comparison_table(c)
    assert set(table.filter(pl.col("Side or seat").str.contains("share of"))["Paired by deal"]) == {"no"}
    for k in range(2):
        wb, wa = wins[("base", k)], wins[("variant", k)]
        for s in (1, 2, 3):
            r = split.filter((pl.col("cell") == c.cells[k]) & pl.col("item").str.starts_with(f"Seat {s + 1}'s")
                             ).row(0, named=True)
            se = np.sqrt(_contribution(wb, s).var(ddof=1) / G + _contribution(wa, s).var(ddof=1) / G)
            assert (r["diff_high"] - r["diff_low"]) / (2 * norm.ppf(0.975)) == pytest.approx(se, rel=1e-9)
            assert r["p_value"] is not None                     # unpaired, the same games are tested too


def test_the_paired_interval_of_a_share_change_covers_as_often_as_it_claims():
    """By simulation: 400 pairs of 1,000 games, the after's winner the before's with probability KEEP
    (else redrawn), so before and after are correlated as common random numbers make them. The
    true change of each Censitaire seat's share is known (after's winner distribution: KEEP·BEFORE
    + (1 − KEEP)·AFTER); its 95% interval diff ± 1.96·se (:class:`PairedRoleSplit`) must hold it in
    about 95% of the 1,200 intervals. Unpaired variances would cover ~99%, ignoring the pairing."""
    rng = np.random.default_rng(5)
    reps, games = 400, 1000
    after = KEEP * BEFORE + (1 - KEEP) * AFTER
    true = after[1:] / after[1:].sum() - BEFORE[1:] / BEFORE[1:].sum()
    eye = np.eye(4)
    hits = np.zeros(3)
    for _ in range(reps):
        b = rng.choice(4, size=games, p=BEFORE)
        a = _redraw(rng, b, AFTER, KEEP)
        acc = PairedRoleSplit(ROLES)
        acc.add(eye[b[: games // 2]], eye[a[: games // 2]])     # in two chunks, merged
        acc.add(eye[b[games // 2:]], eye[a[games // 2:]])
        got = acc.changes()
        for s in (1, 2, 3):
            half = 1.959964 * got[s]["se"]
            hits[s - 1] += abs(got[s]["diff"] - true[s - 1]) <= half
    cover = hits.sum() / (3 * reps)
    print(f"paired share change: {cover:.3f} of {3 * reps} 95% intervals hold the true change; per seat {hits / reps}")
    # 1,200 intervals (3 per pair, correlated): 95% ± about 1.5 pp at two standard errors
    assert 0.93 <= cover <= 0.97, (cover, hits / reps)


def test_a_runs_role_seat_rows_are_read_once_and_again_when_it_is_written_again(tmp_path, monkeypatch):
    """The panel before/after asked each run's role-seat rows two or three times, each reading its
    rows again; they are read once per run. Each caller gets its own copies, and a run written again
    (another run.json) is read again: the numbers follow the run."""
    import os

    from analysis import panel as P

    base, _, wins = _sg_panels(tmp_path)
    run = base / "cell-0"
    calls = []
    real = P._role_seat_rows_of
    monkeypatch.setattr(P, "_role_seat_rows_of", lambda *a: calls.append(a) or real(*a))
    first = P._role_seat_rows(run, 0, "c", 4, G)
    first[0]["estimate"] = -1.0                         # a caller's change stays its own
    again = P._role_seat_rows(run, 0, "c", 4, G)
    assert len(calls) == 1 and again[0]["estimate"] != -1.0
    assert [r["estimate"] for r in again] == pytest.approx(list(_share(wins[("base", 0)])))
    _write(run, np.resize([1, 2, 3, 3], G), 7, "before", LINEUPS[0])   # seat 4 half of them now
    st = os.stat(run / "run.json")
    os.utime(run / "run.json", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    rewritten = P._role_seat_rows(run, 0, "c", 4, G)
    assert len(calls) == 2 and [r["estimate"] for r in rewritten] == pytest.approx([0.25, 0.25, 0.5])
