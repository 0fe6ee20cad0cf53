"""Fief tables at the edges of what they measure (session 45).

FF-7, a break-even below the grid: when the grid's smallest attacker already reaches a level, the
true break-even may be any attacker up to it (open ground, 20-30 v 5-8: the exact break-evens at
50% are 6, 7, 8, 9), so the tables print "≤20", break_even.csv marks the cell "≤", the ratio
sentence leaves those defences out (and gives no ratio when that is all of them) and says why, and
the heat map's legend does not call a level every cell reaches "not in the grid".

FF-5/FF-6/FF-7, intervals at the ends: a Monte Carlo count of 0 successes has a Wilson interval
whose lower end is exactly 0 (not 2^-64 of rounding, which excludes exact odds of 0), and a count
of all successes an upper end of exactly 1. 400 trials is a count at which the score formula's
centre - half rounds to 5e-20 at 0 and centre + half to 1 - 1e-16 at 1. Both fief-odds and
fief-calamity read simcore.stats.wilson_interval, which gives those ends exactly.
"""

from __future__ import annotations

import re

import polars as pl
import pytest

import undrawn_figures as undrawn
from cli import _run
from simcore.games.fief.exact import exact_grid
from simcore.games.fief.kernel import Q_ATT_WINS
from simcore.games.fief.rules import terrain_index

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

OPEN_BREAK_EVENS = {5: 6, 6: 7, 7: 8, 8: 9}     # exact, open ground, P(attacker wins) >= 50%


def _said(capsys) -> str:
    return " ".join(capsys.readouterr().out.split())


def _odds(out, capsys, *args: str) -> tuple[str, pl.DataFrame]:
    """``balance fief-odds ARGS --out OUT`` (heat maps undrawn): what it printed, and its
    break_even.csv."""
    with undrawn.heat_maps_undrawn():
        assert _run(["fief-odds", *args, "--out", str(out)]) == 0
    return _said(capsys), pl.read_csv(out / "break_even.csv")


def _exact_break_evens(rules, terrain: str, defenders, top: int, level: float = 0.5) -> dict:
    """The smallest attacker from 1 point with exact P(attacker wins) >= level, per defence."""
    atts = list(range(1, top + 1))
    p = exact_grid(rules, atts, defenders, terrain_index(terrain), 0, 1, 1, (-1, -1))[..., Q_ATT_WINS]
    return {d: next(a for i, a in enumerate(atts) if p[i, j] >= level)
            for j, d in enumerate(defenders)}


def test_break_even_below_the_grid_is_at_most_its_first_attacker(tmp_path, capsys, rules):
    """FF-7: open ground, attackers 20-30 v defences 5-8: every level is reached by 20 attackers,
    whose true break-evens are 6 to 9 (5 v 5 0.3745, 6 v 5 0.5364; 8 v 7 0.5434, 9 v 8 0.5642):
    "≤20" in every cell, "≤" in break_even.csv, and no ratio at all in the sentence."""
    truth = _exact_break_evens(rules, "open", [5, 6, 7, 8], 20)
    assert truth == OPEN_BREAK_EVENS
    said, be = _odds(tmp_path / "o", capsys, "--attackers", "20-30", "--defenders", "5-8", "--terrain", "open")
    for name in ("50", "75", "90"):
        assert be[f"min_attacker_p{name}"].to_list() == [20] * 4
        assert be[f"mark_p{name}"].to_list() == ["≤"] * 4
    for d in (5, 6, 7, 8):
        assert re.search(rf"│ {d} │ ≤20 │ ≤20 │ ≤20 │", said), said
    assert "times the defender" not in said and "2.5 to 4" not in said, said
    assert ("To take the fief with P(attacker wins) ≥ 50%, the grid gives no ratio to the "
            "defender's points: defences 5 to 8 are taken with P ≥ 50% already by the grid's "
            "smallest attacker, 20 points (start --attackers lower to see their break-even).") in said, said
    assert "the break-even is 20 or fewer" in said, said


def test_ratio_sentence_leaves_out_defences_taken_by_the_first_attacker(tmp_path, capsys, rules):
    """FF-7: castle, attackers 10-30 v defences 5-12: defences 5 and 6 are taken at 50% by 10
    attackers (true break-evens 7 and 8: castle 7 v 5 0.5012, 8 v 6 0.5132), so the ratio is read
    over 7-12 only, from the exact break-evens computed here, and the sentence says why 5 and 6
    are left out."""
    truth = _exact_break_evens(rules, "castle", list(range(5, 13)), 30)
    assert truth[5] == 7 and truth[6] == 8 and all(truth[d] >= 10 for d in range(7, 13))
    said, be = _odds(tmp_path / "c", capsys, "--attackers", "10-30", "--defenders", "5-12", "--terrain",
                     "castle")
    marks = dict(zip(be["defender"], be["mark_p50"]))
    assert marks == {5: "≤", 6: "≤", **{d: None for d in range(7, 13)}}, marks
    got = dict(zip(be["defender"], be["min_attacker_p50"]))
    assert {d: got[d] for d in range(7, 13)} == {d: truth[d] for d in range(7, 13)}
    ratios = [truth[d] / d for d in range(7, 13)]
    want = f"{min(ratios):.2g} to {max(ratios):.2g}"
    assert (f"an attacker needs {want} times the defender's points in a castle (the smallest such "
            "attacker divided by the defender's points, over defences of 7 to 12 points; defences 5 "
            "and 6 are taken with P ≥ 50% already by the grid's smallest attacker, 10 points: start "
            "--attackers lower to see their break-even).") in said, said
    assert "│ 5 │ ≤10 │" in said and "│ 7 │ 11 │" in said, said


def test_monte_carlo_break_even_below_the_grid_is_marked_too(tmp_path, capsys):
    """FF-7 by Monte Carlo: 20 attackers win every combat against 5 (400 combats): "≤20" (its
    interval clears 50%, so not "≈"), no ratio."""
    said, be = _odds(tmp_path / "m", capsys, "--attackers", "20-21", "--defenders", "5", "--terrain", "open",
                     "--method", "mc", "--games", "400")
    row = be.row(0, named=True)
    assert (row["min_attacker_p50"], row["mark_p50"]) == (20, "≤")
    assert "│ 5 │ ≤20 │" in said and "times the defender" not in said, said


def test_heat_map_legend_of_a_level_every_cell_reaches():
    """FF-7: a level without a border because every cell of the grid reaches it is not "not in
    the grid" (the table says ≤20 there); one no cell reaches still is."""
    from reports.figures.fief import heatmap_figure
    from simcore.games.fief.odds import odds_request

    labels = []
    for attackers, defenders in (("20-22", "5-6"), ("1", "7-8")):
        job = odds_request(attackers=attackers, defenders=defenders, terrain="open",
                           levels="0.5,0.9")
        fig = heatmap_figure(job.compute()["odds"], "open", job.levels)
        labels.append([t.get_text() for t in fig.legends[0].get_texts()])
    assert labels[0] == ["P ≥ 50% (every cell)", "P ≥ 90% (every cell)"], labels
    assert labels[1] == ["P ≥ 50% (not in the grid)", "P ≥ 90% (not in the grid)"], labels


def _ends_exact(lo, hi, p, what: str) -> None:
    zero = [x for x, q in zip(lo, p) if q == 0.0]
    one = [x for x, q in zip(hi, p) if q == 1.0]
    assert zero and one, what
    assert all(x == 0.0 for x in zero), (what, zero)
    assert all(x == 1.0 for x in one), (what, one)


def test_fief_odds_interval_ends_are_exact_at_no_and_every_win(tmp_path):
    """FF-7 by Monte Carlo, 400 combats a cell: 1 attacker never takes 7 (exact odds 0: lower end
    exactly 0), 30 attackers always take 1 (upper end exactly 1), in odds.csv and odds.parquet."""
    out = tmp_path / "e"
    with undrawn.heat_maps_undrawn():
        assert _run(["fief-odds", "--attackers", "1,30", "--defenders", "1,7", "--terrain", "open",
                     "--method", "both", "--games", "400", "--seed", "3", "--out", str(out), "-q"]) == 0
    for odds in (pl.read_csv(out / "odds.csv"), pl.read_parquet(out / "odds.parquet")):
        mc = odds.filter(pl.col("method") == "mc")
        _ends_exact(mc["p_attacker_wins_lo"], mc["p_attacker_wins_hi"], mc["p_attacker_wins"], "odds")
        ex = odds.filter((pl.col("method") == "exact") & (pl.col("attacker") == 1)
                         & (pl.col("defender") == 7))
        assert ex["p_attacker_wins"][0] == 0.0


def test_fief_calamity_interval_ends_are_exact_at_no_and_every_success(tmp_path):
    """FF-6 by Monte Carlo, 400 trials a row: the bishop needing 10 never succeeds below 2,000
    écus (lower end exactly 0); with the shipped rules he cannot fail from 1,500 (upper end
    exactly 1)."""
    for extra, name in ((["--set", "revolt.success_at_least=10"], "never"), ([], "always")):
        out = tmp_path / name
        assert _run(["fief-calamity", "--soldiers", "0", "--lords", "1", "--method", "mc",
                     "--games", "400", *extra, "--out", str(out), "-q"]) == 0
        revolt = pl.read_csv(out / "revolt.csv")
        p = revolt["p_success"].to_list()
        assert (0.0 in p) if name == "never" else (1.0 in p)
        zero = [x for x, q in zip(revolt["p_success_lo"], p) if q == 0.0]
        one = [x for x, q in zip(revolt["p_success_hi"], p) if q == 1.0]
        assert all(x == 0.0 for x in zero) and all(x == 1.0 for x in one), (zero, one)
