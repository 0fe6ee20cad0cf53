"""Fief odds checked against an independent exact enumeration written from the rule text
(shared/rules/fief.md, FF-1 … FF-6), not from the toolkit's code: every dice outcome is enumerated
with exact fractions. Compared with what ``balance fief-odds`` / ``fief-calamity`` write.

May import the standard library, polars, pytest and the command line entry point ``cli._run`` (and
tests/undrawn_figures.py, which only keeps the heat maps from being drawn).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb

import polars as pl
import pytest

from cli import _run

from undrawn_figures import heat_maps_undrawn

# FF-2: points the other side loses, by dice sum 1 … 18, read in the loser's terrain.
TABLE = {
    "city":   (0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4),
    "castle": (0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6),
    "open":   (0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9),
}
CELLS = ((1, 1), (3, 1), (7, 3), (10, 6), (14, 5), (6, 7))


def n_dice(points: int) -> int:
    """FF-1: 1 die for 1-6 points, 2 for 7-12, 3 for 13 or more."""
    return 1 if points <= 6 else 2 if points <= 12 else 3


@lru_cache(None)
def losses(points: int, loser_terrain: str, bonus: int) -> tuple:
    """FF-2/FF-4: distribution of the loss inflicted by a side with ``points``, every face listed."""
    n = n_dice(points)
    out: dict[int, Fraction] = {}
    for faces in product(range(1, 7), repeat=n):
        loss = TABLE[loser_terrain][min(sum(faces) + bonus, 18) - 1]
        out[loss] = out.get(loss, Fraction(0)) + Fraction(1, 6 ** n)
    return tuple(out.items())


def combat(a0: int, d0: int, terrain: str, darc: str = "none", mercy_def: int | None = None):
    """FF-3 exactly: (P attacker wins, P defender holds, P both wiped, E rounds, E attacker points
    left, E defender points left). One Lord a side, so d'Arc's +6 lasts while her side stands;
    mercy (defender at <= K points) is asked between rounds and always granted."""
    return _value(a0, d0, True, terrain, darc, mercy_def)


@lru_cache(None)
def _value(a, d, first, terrain, darc, mercy_def):
    """:func:`combat` from ``a`` against ``d`` points (``first``: before the first round), kept for
    the test process: every cell's combat passes through the smaller ones' (a cell's own cache,
    rebuilt for each cell, enumerated them again: 2 s of CPU for this file's cells)."""
    if a == 0 or d == 0:
        return (Fraction(int(d == 0 < a)), Fraction(int(a == 0 < d)),
                Fraction(int(a == d == 0)), Fraction(0), Fraction(a), Fraction(d))
    if not first and mercy_def is not None and d <= mercy_def:
        return (Fraction(1), Fraction(0), Fraction(0), Fraction(0), Fraction(a), Fraction(0))
    by_att = losses(a, terrain, 6 if darc == "attacker" else 0)
    by_def = losses(d, "open", 6 if darc == "defender" else 0)
    acc = [Fraction(0)] * 6
    stay = Fraction(0)
    for x, px in by_att:
        for y, py in by_def:
            if x == y == 0:
                stay = px * py
                continue
            nxt = _value(max(a - y, 0), max(d - x, 0), False, terrain, darc, mercy_def)
            acc = [s + px * py * v for s, v in zip(acc, nxt)]
    if first and stay:
        nxt = _value(a, d, False, terrain, darc, mercy_def)
        acc = [s + stay * v for s, v in zip(acc, nxt)]
        acc[3] += 1
        return tuple(acc)
    out = [s / (1 - stay) for s in acc]
    out[3] = (acc[3] + 1) / (1 - stay)
    return tuple(out)


COLUMNS = ("p_attacker_wins", "p_defender_holds", "p_both_wiped", "expected_rounds",
           "attacker_points_left", "defender_points_left")


def test_enumeration_reproduces_the_closed_form():
    """FF-3: 1 vs 1 in open ground: 1/7, 1/7, 5/7 and 36/35 rounds (the enumeration itself)."""
    assert combat(1, 1, "open")[:4] == (Fraction(1, 7), Fraction(1, 7), Fraction(5, 7),
                                        Fraction(36, 35))


@pytest.fixture(scope="module")
def odds_runs(tmp_path_factory):
    out = {}
    with heat_maps_undrawn():
        for name, extra in (("plain", []), ("darc", ["--darc", "attacker"]),
                            ("mercy", ["--mercy", "defender:2"])):
            path = tmp_path_factory.mktemp("fief") / name
            assert _run(["fief-odds", "--attackers", "1,3,6,7,10,14", "--defenders", "1,3,5,6,7",
                         "--terrain", "all", *extra, "--out", str(path), "-q"]) == 0
            out[name] = pl.read_csv(path / "odds.csv")
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("run,darc,mercy", [("plain", "none", None), ("darc", "attacker", None),
                                            ("mercy", "none", 2)])
@pytest.mark.parametrize("terrain", ["open", "castle", "city"])
def test_exact_odds_match_the_enumeration(odds_runs, run, darc, mercy, terrain):
    """FF-1 … FF-4, FF-7: the exact rows equal the enumeration (to float rounding) per terrain."""
    df = odds_runs[run].filter(pl.col("terrain") == terrain)
    for a, d in CELLS:
        row = df.filter((pl.col("attacker") == a) & (pl.col("defender") == d)).row(0, named=True)
        want = combat(a, d, terrain, darc, mercy)
        got = tuple(row[c] for c in COLUMNS)
        assert got == pytest.approx(tuple(float(w) for w in want), abs=1e-12), (a, d)


def test_monte_carlo_intervals_cover_the_enumeration(tmp_path):
    """FF-7: --method mc's 95 % Wilson intervals contain the enumerated probability about 95 % of
    the time: of 24 cells at most 5 may miss (a binomial(24, 0.05) exceeds 5 with p < 0.001)."""
    out = tmp_path / "mc"
    with heat_maps_undrawn():
        assert _run(["fief-odds", "--attackers", "4,7,10,13", "--defenders", "3,6", "--terrain",
                     "all", "--method", "mc", "--games", "4000", "--out", str(out), "-q"]) == 0
    misses = 0
    for row in pl.read_csv(out / "odds.csv").iter_rows(named=True):
        p = float(combat(row["attacker"], row["defender"], row["terrain"])[0])
        misses += not row["p_attacker_wins_lo"] <= p <= row["p_attacker_wins_hi"]
    assert misses <= 5


def test_calamity_tables_match_the_enumeration(tmp_path):
    """FF-5: s soldiers keep s - floor(s/2); each Lord survives on 4, 5 or 6 (every die listed).
    FF-6: the bishop succeeds when die + conviction points (one per 500 écus) >= 4."""
    out = tmp_path / "cal"
    assert _run(["fief-calamity", "--soldiers", "0,5,7", "--lords", "0,3", "--max-ecus", "1700",
                 "--out", str(out), "-q"]) == 0
    dist = pl.read_csv(out / "plague.csv")
    for s in (0, 5, 7):
        for n in (0, 3):
            want: dict[int, Fraction] = {}
            for dice in product(range(1, 7), repeat=n):
                k = sum(x >= 4 for x in dice)
                want[k] = want.get(k, Fraction(0)) + Fraction(1, 6 ** n)
            rows = dist.filter((pl.col("soldiers") == s) & (pl.col("lords") == n))
            assert set(rows["soldiers_left"]) == {s - s // 2}
            got = dict(zip(rows["lords_left"], rows["probability"]))
            assert got == pytest.approx({k: float(p) for k, p in want.items()}, abs=1e-15)
            assert want.get(1, 0) == comb(n, 1) * Fraction(1, 2) ** n
    revolt = pl.read_csv(out / "revolt.csv")
    assert revolt["ecus"].to_list() == [0, 500, 1000, 1500]
    for row in revolt.iter_rows(named=True):
        c = row["conviction_points"]
        want = Fraction(sum(die + c >= 4 for die in range(1, 7)), 6)
        assert row["p_success"] == pytest.approx(float(want), abs=1e-15)
        assert row["p_bishop_stoned"] == pytest.approx(float(1 - want), abs=1e-15)
