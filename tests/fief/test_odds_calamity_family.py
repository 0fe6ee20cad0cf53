"""How sure an unmarked Monte Carlo break-even of ``balance fief-odds`` is, and what the bishop's
table of ``balance fief-calamity`` says of the rows it does not show (FF-6, FF-7).

FF-7: each break-even's "≈" rule reads Wilson intervals at 1 - 0.05/k, Bonferroni over the k
break-evens the tables print (at 95 % each, 116 of 400 tables of the default grid held an
unmarked break-even the exact odds contradict). Checked here against the exact odds on tables
drawn from them (binomial counts, as the kernel's would be), break-evens recomputed by a scan of
the exact odds, and on the kernel's own table of the case a designer found: open ground, defender
5, P >= 90 %, 2,000 combats a cell (seed 0): 7 attackers win 0.916 of them, the exact odds 0.887,
so 8 is the break-even.
FF-6: the bishop's certainty from the rules (a die of 1 plus the points reaches the target),
worked here by counting the six faces, said whatever rows the table shows.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest

from cli import _run

import undrawn_figures as undrawn

LEVELS = (0.5, 0.75, 0.9)
ATTACKERS, DEFENDERS = list(range(1, 31)), list(range(1, 21))    # the command's default grid
TERRAINS = ("open", "castle", "city")
GAMES = 2000


@pytest.fixture(scope="module")
def exact_p():
    """The exact P(attacker wins) of the default grid, [terrain, attacker, defender]."""
    from simcore.games.fief import kernel as K
    from simcore.games.fief.exact import exact_grid
    from simcore.games.fief.rules import load

    rules = load()
    return np.stack([exact_grid(rules, ATTACKERS, DEFENDERS, t, 0, 1, 1, (-1, -1))[..., K.Q_ATT_WINS]
                     for t in range(3)])


def _wilson95(k: np.ndarray, n: int):
    """The cells' own 95% Wilson intervals (the odds table's columns), by the textbook formula."""
    z, p = 1.959963984540054, k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def _wrong_tables(exact_p, tables: int, seed: int) -> int:
    """Of ``tables`` Monte Carlo tables of the default grid drawn from the exact odds (2,000
    combats a cell), how many hold an unmarked break-even other than the exact odds' one (the
    smallest attacker whose exact P reaches the level; none within the grid = none)."""
    from simcore.games.fief.odds import break_even

    want = {}
    for t, terrain in enumerate(TERRAINS):
        for j, d in enumerate(DEFENDERS):
            for lv in LEVELS:
                reach = [a for i, a in enumerate(ATTACKERS) if exact_p[t, i, j] >= lv - 1e-12]
                want[(terrain, d, lv)] = reach[0] if reach else None
    n_a, n_d = len(ATTACKERS), len(DEFENDERS)
    cols = {"attacker": np.tile(np.repeat(ATTACKERS, n_d), 3).astype(np.int32),
            "defender": np.tile(np.tile(DEFENDERS, n_a), 3).astype(np.int32),
            "terrain": np.repeat(TERRAINS, n_a * n_d), "darc": "none", "method": "mc"}
    rng = np.random.default_rng(seed)
    wrong = 0
    for _ in range(tables):
        k = rng.binomial(GAMES, exact_p).reshape(-1)
        lo, hi = _wilson95(k, GAMES)
        odds = pl.DataFrame({**cols, "p_attacker_wins": k / GAMES, "p_attacker_wins_lo": lo,
                             "p_attacker_wins_hi": hi, "games": np.full(k.shape, GAMES)})
        be = break_even(odds, LEVELS)
        assert be.height * len(LEVELS) == 180
        bad = False
        for row in be.iter_rows(named=True):
            for lv in LEVELS:
                name = f"{lv * 100:g}"
                if row[f"mark_p{name}"] is None:
                    bad |= row[f"min_attacker_p{name}"] != want[(row["terrain"], row["defender"], lv)]
        wrong += bad
    return wrong


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_unmarked_monte_carlo_break_evens_are_rarely_wrong(exact_p):
    """FF-7 over the default grid (3 terrains x 20 defences x 3 levels = 180 break-evens): of 40
    tables drawn from the exact odds, at most 2 (5%) hold an unmarked break-even the exact odds
    contradict (cells' own 95% intervals: 16 of these 40)."""
    assert _wrong_tables(exact_p, 40, seed=7) <= 2


@pytest.mark.slow
def test_unmarked_monte_carlo_break_evens_are_rarely_wrong_many_tables(exact_p):
    """The same over 1,000 tables: at most 50 (5%); scipy's binomial test says the rate is below
    5% (one-sided p < 0.05) unless it is near it."""
    wrong = _wrong_tables(exact_p, 1000, seed=11)
    assert wrong <= 50
    assert binomtest(wrong, 1000, 0.05, alternative="less").pvalue < 0.05


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_case_a_designer_found_is_marked(tmp_path, capsys, exact_p):
    """FF-7, the kernel's table of open ground (30 x 20, 2,000 combats a cell, seed 0: 60
    break-evens): defender 5 at 90%, 7 attackers win 1,832 of 2,000 combats (0.916; the exact odds
    0.887, the break-even 8). Its 95% interval (0.903–0.927) cleared 90% and "7" stood unmarked;
    Wilson at 1 - 0.05/60 (scipy) reaches below 90%: marked "≈7"."""
    with undrawn.heat_maps_undrawn():
        assert _run(["fief-odds", "--terrain", "open", "--method", "mc", "--games", "2000",
                     "--out", str(tmp_path / "o")]) == 0
    odds = pl.read_csv(tmp_path / "o" / "odds.csv")
    p7 = odds.filter((pl.col("attacker") == 7) & (pl.col("defender") == 5))["p_attacker_wins"][0]
    wins = round(p7 * GAMES)
    assert wins == 1832 and exact_p[0, 6, 4] < 0.9 <= exact_p[0, 7, 4]
    assert binomtest(wins, GAMES).proportion_ci(0.95, method="wilson").low > 0.9
    assert binomtest(wins, GAMES).proportion_ci(1 - 0.05 / 60, method="wilson").low < 0.9
    row = pl.read_csv(tmp_path / "o" / "break_even.csv").filter(pl.col("defender") == 5).row(
        0, named=True)
    assert (row["min_attacker_p90"], row["mark_p90"]) == (7, "≈")
    said = " ".join(capsys.readouterr().out.split())
    assert "│ 5 │" in said and "≈7 │" in said.split("│ 5 │")[1].split("│ 6 │")[0]
    assert "Wilson at 99.917% (1 - 0.05/60: Bonferroni over the 60 break-evens" in said


def test_the_exact_hint_only_where_the_exact_method_covers_the_grid(tmp_path):
    """FF-7: under Monte Carlo tables, the exact odds are named when ``--method exact`` computes
    the same grid. With Lords removed first each cell is solved on its own, at most 5e7 states
    (sum of attackers x sum of defenders x terrains): 1-999 x 1-10 x 3 = 499,500 x 55 x 3 =
    8.2e7 is beyond it, 1-30 x 1-20 x 3 = 465 x 210 x 3 = 2.9e5 is not."""
    from simcore.games.fief.odds import odds_request
    from simcore.games.fief.rules import default_rules_path

    first = tmp_path / "rules.toml"
    text = default_rules_path().read_text(encoding="utf-8")
    assert text.count('lords_removed = "last"') == 1
    first.write_text(text.replace('lords_removed = "last"', 'lords_removed = "first"'),
                     encoding="utf-8")
    assert not odds_request(attackers="1-999", defenders="1-10", method="mc", games=10,
                            rules_path=first).exact_covers()
    assert odds_request(attackers="1-30", defenders="1-20", method="mc", games=10,
                        rules_path=first).exact_covers()
    assert odds_request(attackers="1-999", defenders="1-10", method="mc", games=10).exact_covers()


# ---------------------------------------------------------------- FF-6: the bishop's certainty

def _certain_from(target: int, price: int) -> int:
    """Écus from which every face of a six-sided die plus the points bought reaches the target."""
    return next(c for c in range(0, 200) if all(f + c >= target for f in range(1, 7))) * price


def _stoned_faces(target: int, points: int) -> int:
    return sum(f + points < target for f in range(1, 7))


@pytest.mark.parametrize("extra,max_ecus,target", [
    (["--max-ecus", "1000"], 1000, 4),
    (["--set", "revolt.success_at_least=8"], 2000, 8),
    (["--set", "revolt.success_at_least=12", "--max-ecus", "2000"], 2000, 12),
])
def test_the_bishop_table_says_from_how_many_ecus_he_cannot_fail(tmp_path, capsys, extra,
                                                                 max_ecus, target):
    """FF-6 (500 écus a point): a table that stops before certainty says from how many écus the
    bishop cannot fail and that it is beyond --max-ecus, with how often its last row still fails
    (counted on the six faces). Default rules, 1,000 écus: certain from 1,500, the last row (2
    points) fails on a 1. Success at 8: certain from 3,500 (7 points), at 2,000 (4 points) stoned on
    1-3; always stoned below 1,000. Success at 12: always stoned up to 2,000, certain from 5,500."""
    out = tmp_path / "cal"
    assert _run(["fief-calamity", "--soldiers", "0", "--lords", "1", "--out", str(out),
                 *extra]) == 0
    said = " ".join(capsys.readouterr().out.split())
    revolt = pl.read_csv(out / "revolt.csv")
    last = max_ecus // 500
    faces = _stoned_faces(target, last)
    assert revolt["ecus"].max() == max_ecus
    assert revolt["p_success"][-1] == pytest.approx(1 - faces / 6)
    sure = _certain_from(target, 500)
    note = (f"The bishop is certain to succeed only from {sure:,} écus ({sure // 500} conviction "
            f"points: his lowest roll, 1, plus {sure // 500} reaches {target}), beyond --max-ecus "
            f"{max_ecus:,}")
    assert note in said, said
    if faces < 6:
        assert (f"{note}; at {max_ecus:,} écus, the table's last row, he is still stoned on "
                f"{faces} of the die's 6 faces ({100 * faces / 6:.0f}%).") in said
    else:
        assert note + "." in said and "always stoned" in said
    if target == 8:
        assert ("Below 1,000 écus (2 conviction points) the bishop is always stoned: even a 6 "
                "falls short of 8.") in said
    assert any(n.startswith(note) for n in json.loads((out / "run.json").read_text())["notes"])


def test_a_max_ecus_between_two_rows_says_which_rows_are_shown(tmp_path, capsys):
    """FF-6: --max-ecus 1,800 at 500 écus a point buys 3 points (1,500 écus, 300 left over): the
    rows stop at 1,500 and the output says so, and that 1,500, its last row, is certain (1 + 3 =
    4). At 400 only the 0-écu row is shown."""
    from simcore.games.fief.calamity import revolt_notes
    from simcore.games.fief.rules import load

    out = tmp_path / "cal"
    assert _run(["fief-calamity", "--soldiers", "0", "--lords", "1", "--max-ecus", "1800",
                 "--out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert pl.read_csv(out / "revolt.csv")["ecus"].to_list() == [0, 500, 1000, 1500]
    assert ("--max-ecus 1,800 is not a multiple of the 500 écus a conviction point costs: the rows "
            "are 0 to 1,500 écus (0 to 3 conviction points), what 1,800 écus buy.") in said, said
    assert ("From 1,500 écus (3 conviction points), the table's last row, the bishop cannot fail: "
            "his lowest roll, 1, plus 3 reaches 4.") in said
    notes = revolt_notes(load(), 400)
    assert notes[0] == ("--max-ecus 400 is not a multiple of the 500 écus a conviction point "
                        "costs: the rows are 0 écus only (no conviction point), what 400 écus buy.")
    assert notes[1].startswith("The bishop is certain to succeed only from 1,500 écus")
    assert notes[1].endswith(f"at 0 écus, the table's last row, he is still stoned on "
                             f"{_stoned_faces(4, 0)} of the die's 6 faces "
                             f"({100 * _stoned_faces(4, 0) / 6:.0f}%).")
    assert not any("not a multiple" in n for n in revolt_notes(load(), 2000))
