"""What ``balance fief-odds`` and ``balance fief-calamity`` say where their numbers could mislead a
designer (FF-5 … FF-7): ``--games`` / ``--seed`` with the exact method are refused in one line
(they would do nothing); the bishop's table says from which sum more écus buy nothing (FF-6), the
plague tables say when the rules let no Lord survive (FF-5); break-even cells Monte Carlo cannot
pin down are marked "≈" (intervals adjusted for all the break-evens of the tables) and exact odds
equal to a level are marked "exactly" (FF-7).
Expected values are worked by hand or recomputed here (scipy's Wilson intervals)."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from scipy.stats import binomtest

from cli import _run
from simcore.errors import UsageError

import undrawn_figures as undrawn


@pytest.fixture
def heat_maps_undrawn():
    """The heat maps written as stand-ins (tests/undrawn_figures.py): these tests read tables and
    words, not pixels."""
    with undrawn.heat_maps_undrawn():
        yield


# ---------------------------------------------------------------- 1. --games with --method exact

@pytest.mark.parametrize("argv,given", [
    (["fief-odds", "--method", "exact", "--games", "5000"], "--games 5000"),
    (["fief-odds", "--games", "5000"], "--games 5000"),                     # exact is the default
    (["fief-odds", "--seed", "3"], "--seed 3"),
    (["fief-odds", "--games", "5000", "--seed", "3"], "--games 5000, --seed 3"),
    (["fief-calamity", "--method", "exact", "--games", "5000"], "--games 5000"),
])
def test_monte_carlo_options_with_the_exact_method_are_one_line(tmp_path, capsys, monkeypatch,
                                                                argv, given):
    """FF-7: the exact odds need no games; ``--games`` given with them did nothing, without a word.
    Refused as the toolkit refuses an option that does not apply ("X: only with Y"), exit 2,
    before the rules are even read (nothing starts), nothing written."""
    from simcore.games.fief import calamity, odds

    def no_work(*a, **k):
        raise AssertionError("work started before the refusal")

    monkeypatch.setattr(odds, "load", no_work)
    monkeypatch.setattr(calamity, "load", no_work)
    out = tmp_path / "never"
    assert _run([*argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"error: {given}: only with --method mc or both ("), err
    assert "computed outright" in err
    assert not out.exists()


def test_monte_carlo_options_still_work_where_they_apply():
    """The defaults the help names (20000 combats, 100000 trials, seed 0) and given values, with
    mc and both."""
    from simcore.games.fief.calamity import calamity_request
    from simcore.games.fief.odds import odds_request

    job = odds_request(attackers="1-2", defenders="1", terrain="open", method="mc")
    assert (job.games, job.seed) == (20000, 0)
    job = odds_request(attackers="1-2", defenders="1", terrain="open", method="both", games="1e3",
                       seed=7)
    assert (job.games, job.seed) == (1000, 7)
    assert calamity_request(soldiers="1", lords="1", method="mc").games == 100000
    with pytest.raises(UsageError, match=r"^--games 10: only with --method mc or both"):
        calamity_request(soldiers="1", lords="1", games=10)


# ---------------------------------------------------------------- 2. the calamity tables' words

def _calamity(tmp_path, *extra):
    out = tmp_path / "cal"
    assert _run(["fief-calamity", "--soldiers", "0-1", "--lords", "1-2", "--out", str(out),
                 *extra]) == 0
    return out


def test_the_bishop_table_says_where_more_ecus_buy_nothing(tmp_path, capsys):
    """FF-6: die + conviction points >= 4. At 3 points (1,500 écus) his lowest roll, 1, makes 4:
    the 2,000-écu row reads the same 1.0000 as the 1,500 one, and the output says why; when the
    table stops at 1,500 it says that its last row is the first certain one, and nothing of more
    écus buying nothing or of a bishop always stoned."""
    out = _calamity(tmp_path, "--max-ecus", "2000")
    said = " ".join(capsys.readouterr().out.split())
    revolt = pl.read_csv(out / "revolt.csv")
    assert revolt.filter(pl.col("ecus") >= 1500)["p_success"].to_list() == [1.0, 1.0]
    note = ("From 1,500 écus (3 conviction points) the bishop cannot fail: his lowest roll, 1, "
            "plus 3 reaches 4; spending more buys nothing (the rows up to 2,000 écus read the same).")
    assert note in said, said
    assert note in json.loads((out / "run.json").read_text())["notes"]
    # up to 1,500 écus every row differs (1/2, 2/3, 5/6, 1): the last is the first certain one
    out = _calamity(tmp_path, "--max-ecus", "1500", "--force")
    said = " ".join(capsys.readouterr().out.split())
    note = ("From 1,500 écus (3 conviction points), the table's last row, the bishop cannot fail: "
            "his lowest roll, 1, plus 3 reaches 4.")
    assert note in said, said
    assert "buys nothing" not in said and "always stoned" not in said
    assert json.loads((out / "run.json").read_text())["notes"] == [note]


def test_a_bishop_who_can_never_succeed_is_said(tmp_path, capsys):
    """FF-6 with success at 9: 0-2 points, even a 6 makes at most 8; he needs 3 points (1,500)."""
    _calamity(tmp_path, "--max-ecus", "1000", "--set", "revolt.success_at_least=9")
    said = " ".join(capsys.readouterr().out.split())
    assert ("Up to 1,000 écus the bishop is always stoned: even a 6 plus 2 conviction points falls "
            "short of 9; he needs 3 conviction points (1,500 écus) to have a chance.") in said, said


@pytest.mark.parametrize("at,words", [
    (7, "No Lord survives the plague under these rules: a Lord survives on a die of 7 or more "
        "(plague.lord_survives_at_least = 7), which a six-sided die never rolls."),
    (1, "Every Lord survives the plague under these rules"),
    (4, None),
])
def test_plague_rules_under_which_no_lord_survives_are_said(tmp_path, capsys, at, words):
    """FF-5: a Lord survives on a die >= the setting (1 to 7 accepted: 7 is the variant where the
    plague kills every Lord). At 7 the table's P(0) is 1 in every row; the output says so in one
    sentence, and at the spec's 4 says nothing."""
    out = _calamity(tmp_path, "--set", f"plague.lord_survives_at_least={at}")
    said = " ".join(capsys.readouterr().out.split())
    notes = json.loads((out / "run.json").read_text())["notes"]
    if words is None:
        assert "Lord survives the plague" not in said and not any("plague" in n for n in notes)
        return
    assert words in said, said
    assert any(n.startswith(words) for n in notes)
    if at == 7:
        summary = pl.read_csv(out / "plague_summary.csv").filter(pl.col("lords") > 0)
        assert summary["p_no_lord_survives"].to_list() == [1.0] * summary.height


# ---------------------------------------------------------------- 3. break-even marks

def _mc_rows(cells):
    """A Monte Carlo odds table for one terrain: (attacker, defender, p, lo, hi) per cell."""
    return pl.DataFrame(
        {"attacker": [c[0] for c in cells], "defender": [c[1] for c in cells],
         "terrain": "castle", "darc": "none", "method": "mc",
         "p_attacker_wins": [c[2] for c in cells], "p_attacker_wins_lo": [c[3] for c in cells],
         "p_attacker_wins_hi": [c[4] for c in cells]},
        schema_overrides={"attacker": pl.Int32, "defender": pl.Int32})


def _wilson(wins: int, games: int, confidence: float):
    ci = binomtest(wins, games).proportion_ci(confidence, method="wilson")
    return ci.low, ci.high


def test_break_even_marks_cells_within_monte_carlo_noise():
    """FF-7, worked by hand at the 50% level over 10,000 combats a cell: five break-evens, so each
    interval is Wilson at 1 - 0.05/5 = 99% (half-width about 2.576 x 0.005 = 0.0129 at p = 0.5;
    95%: 1.960 x 0.005 = 0.0098). Defender (attacker → p):
    5: 6 → 0.30, 7 → 0.60: break-even 7, clear;
    6: 7 → 0.489, 8 → 0.70: 7's 99% interval (to ~0.502) holds 50% (its 95% one does not): ≈8;
    7: 8 → 0.40, 9 → 0.511: 9's 99% interval (from ~0.498) holds 50% (its 95% one does not): ≈9;
    8: 9 → 0.30, 10 → 0.489: not reached, may be: ≈-;
    9: 9 → 0.20, 10 → 0.30: not reached, clear: -."""
    from reports.games.fief import break_even_caption, break_even_cell, break_even_words
    from simcore.games.fief.odds import break_even

    n = 10_000
    cells = [(6, 5, .30), (7, 5, .60), (7, 6, .489), (8, 6, .70), (8, 7, .40), (9, 7, .511),
             (9, 8, .30), (10, 8, .489), (9, 9, .20), (10, 9, .30)]
    # the hand-worked intervals, by scipy: 99% holds 50% where 95% does not
    for a, d, p in cells:
        lo95, hi95 = _wilson(round(p * n), n, 0.95)
        lo99, hi99 = _wilson(round(p * n), n, 0.99)
        assert (lo99 <= 0.5 <= hi99) == ((a, d) in ((7, 6), (9, 7), (10, 8))), (a, d)
        assert not lo95 <= 0.5 <= hi95
    odds = _mc_rows([(a, d, p, *_wilson(round(p * n), n, 0.95)) for a, d, p in cells]
                    ).with_columns(games=pl.lit(n, pl.Int64))
    be = break_even(odds, (0.5,))
    rows = be.sort("defender").to_dicts()
    assert [r["min_attacker_p50"] for r in rows] == [7, 8, 9, None, None]
    assert [r["mark_p50"] for r in rows] == [None, "≈", "≈", "≈", None]
    assert [break_even_cell(r, "min_attacker_p50") for r in rows] == ["7", "≈8", "≈9", "≈-", "-"]
    caption = " ".join(break_even_caption(be, ["min_attacker_p50"], 5).split())
    assert caption.startswith("≈ = within Monte Carlo noise") and "≈- :" in caption
    assert ("The intervals are Wilson at 99% (1 - 0.05/5: Bonferroni over the 5 break-evens of "
            "these tables)") in caption, caption
    assert "exactly" not in caption and "tie" not in caption
    # the ratio sentence: 7/5, 8/6, 9/7 → 1.3 to 1.4; two of its three break-evens are marked
    said = break_even_words(be)
    assert "1.3 to 1.4 times the defender's points in a castle" in said
    assert "from Monte Carlo: 2 of these 3 break-evens are within its noise" in said, said


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_monte_carlo_marks_follow_the_wilson_intervals(tmp_path, capsys, heat_maps_undrawn):
    """FF-7 on the kernel's odds: each cell's mark recomputed from its counts with scipy's Wilson
    interval at 1 - 0.05/27 (9 defences x 3 levels: Bonferroni over the table's break-evens); the
    printed table shows them, says what "≈" means and how sure its intervals are, and that the
    exact odds of the grid are one option away."""
    out = tmp_path / "mc"
    assert _run(["fief-odds", "--attackers", "1-12", "--defenders", "1-9", "--terrain", "castle",
                 "--method", "mc", "--games", "2000", "--seed", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    odds = pl.read_csv(out / "odds.csv")
    be = pl.read_csv(out / "break_even.csv")
    confidence = 1 - 0.05 / 27
    n_marked = 0
    for level, name in ((0.5, "50"), (0.75, "75"), (0.9, "90")):
        for row in be.iter_rows(named=True):
            cells = odds.filter(pl.col("defender") == row["defender"]).sort("attacker")
            first, maybe = None, None
            for a, p in cells.select("attacker", "p_attacker_wins").iter_rows():
                lo, hi = _wilson(round(p * 2000), 2000, confidence)
                if first is None and p >= level:
                    first, first_lo = a, lo
                if maybe is None and hi >= level:
                    maybe = a
            noisy = (first is not None and first_lo < level) or (
                maybe is not None and (first is None or maybe < first))
            assert row[f"min_attacker_p{name}"] == first
            assert (row[f"mark_p{name}"] == "≈") == noisy, (level, row)
            n_marked += noisy
    assert n_marked > 0                       # the test reads some marks (seed 1: several)
    said = " ".join(printed.split())
    assert "≈ = within Monte Carlo noise" in said and said.count("≈") >= n_marked
    assert ("The intervals are Wilson at 99.81% (1 - 0.05/27: Bonferroni over the 27 "
            "break-evens of these tables)") in said, said
    assert "Exact odds of this grid: --method exact (computed outright, no sampling" in said


def test_exact_odds_at_the_level_are_marked_exactly(tmp_path, capsys, heat_maps_undrawn):
    """FF-7 with exact odds: no "≈" (no uncertainty); a cell at the level itself is marked
    "exactly", a word no one reads as a combat's outcome ("tie" read as a drawn combat, and a Fief
    combat can end with both armies wiped out). Worked by hand: d'Arc with 2 attacking points, 1
    defender in a city: her die + 6 >= 7 always kills the defender's point (city, sum 7 → 1),
    whose die kills both points on 4-6 (open, sum 4 → 2): P(attacker wins) = 1/2 exactly, at 50%.
    Without d'Arc, 13 attacking points roll 3 dice (sum >= 3: castle loss >= 1) against 1 point
    in a castle, whose one die takes at most 3: a certain win, computed 0.9999999999999999, which
    read "not within the grid" at 100%; 12 points roll 2 dice (sum 2 on 1/36: no loss), not
    certain."""
    out = tmp_path / "t"
    assert _run(["fief-odds", "--attackers", "1-14", "--defenders", "1", "--terrain", "city",
                 "--darc", "attacker", "--levels", "0.5", "--out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    be = pl.read_csv(out / "break_even.csv")
    assert be.select("min_attacker_p50", "mark_p50").row(0) == (2, "exactly")
    assert "│ 1 │ 2 (exactly) │" in said, said
    assert ("exactly: the exact P(attacker wins) equals the level (to 12 decimal places)") in said
    assert "≈" not in said and "tie" not in said and "Exact odds of this grid" not in said
    out = tmp_path / "c"
    assert _run(["fief-odds", "--attackers", "1-14", "--defenders", "1", "--terrain", "castle",
                 "--levels", "0.5,1", "--out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    row = pl.read_csv(out / "break_even.csv").row(0, named=True)
    assert (row["min_attacker_p100"], row["mark_p100"]) == (13, "exactly")
    assert row["mark_p50"] is None and "≈" not in said
    assert "13 (exactly)" in said and "tie" not in said, said


def test_heat_map_border_counts_an_exact_tie_as_reached():
    """FF-7: the 100% border of the heat map holds the certain win computed as
    0.9999999999999999, as the break-even table does (one edge between the two cells)."""
    from reports.figures.fief import level_edges

    grid = np.array([[0.97], [0.9999999999999999]])
    edges = np.array([0.5, 1.5])
    segs = level_edges(grid, 1.0, edges, np.array([11.5, 12.5, 13.5]), tol=1e-12)
    assert segs == [((0.5, 12.5), (1.5, 12.5))]
