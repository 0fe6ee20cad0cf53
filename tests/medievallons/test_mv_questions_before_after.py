"""What changed between two runs' balance questions (analysis.questions.medievallons.compare_questions),
on small hand-made question tables whose changes, intervals and verdicts are worked out here by hand:
each question one Holm family, sizes on the Bonferroni interval, "cannot tell" (and why) where a side
has too few games or founders, a type almost nobody founds, or an answer one run did not play; a rate
every game gave alike gets the plus-four standard error, not none. And a run's questions played
against a directory that is not a questions directory is a one-line error before any game.
"""

from __future__ import annotations

import math

import polars as pl
import pytest

from analysis.questions import medievallons as Q
from simcore.errors import UsageError


def _first_player(rows):
    return pl.DataFrame([dict(players=p, seat=0, games=g, win_share=w, std_error=se) for p, g, w, se in rows])


def _cards(rows):
    return pl.DataFrame([dict(card=c, founded_share=f, founders_win_share=w, founders_std_error=se, founders=n)
                         for c, f, w, se, n in rows])


def _b3(rate, se, matches):
    return pl.DataFrame([dict(bot="balanced", opponent="random", match_win_rate=rate, match_std_error=se,
                              matches=matches)])


BEFORE = {"first_player": _first_player([(2, 1000, 0.60, 0.01), (3, 1000, 0.34, 0.01)]),
          "card_types": _cards([("pretre", 0.30, 0.35, 0.02, 1200), ("noble", 0.30, 0.25, 0.02, 1200),
                                ("bouffon", 0.01, 0.50, 0.09, 20), ("etoile", 0.003, 0.40, 0.08, 40)]),
          "best_of_three": _b3(1.0, 0.0, 100)}
AFTER = {"first_player": _first_player([(2, 1000, 0.55, 0.01), (3, 1000, 0.345, 0.01), (5, 1000, 0.2, 0.01)]),
         "card_types": _cards([("pretre", 0.30, 0.45, 0.02, 1200), ("noble", 0.30, 0.252, 0.02, 1200),
                               ("bouffon", 0.01, 0.70, 0.09, 35), ("etoile", 0.02, 0.40, 0.08, 300)]),
         "best_of_three": _b3(1.0, 0.0, 100)}


@pytest.fixture(scope="module")
def table():
    return {(r["question"], r["item"]): r for r in Q.compare_questions(BEFORE, AFTER).iter_rows(named=True)}


def test_first_player_changes_by_hand(table):
    # 2 players: 60% → 55%, se √2 · 1 pp = 1.414 pp, z = −3.54, p = 0.0004 < 0.05/2 (Holm's first
    # step); 3 players: +0.5 pp, z = 0.35, p = 0.72: not clear. Bonferroni over the 2 counts:
    # z(1 − 0.0125) = 2.2414, so −5 ± 3.170 pp = −8.170 to −1.830 pp: its near end is past 1 pp
    two, three = table[("first_player", "2 players")], table[("first_player", "3 players")]
    assert two["change"] == pytest.approx(-0.05) and two["std_error"] == pytest.approx(0.0141421, abs=1e-6)
    assert two["low"] == pytest.approx(-0.081698, abs=1e-5) and two["high"] == pytest.approx(-0.018302, abs=1e-5)
    assert two["verdict"] == "clear and large enough to matter" and two["family_size"] == 2
    assert three["change"] == pytest.approx(0.005) and three["verdict"] == "within noise"
    five = table[("first_player", "5 players")]          # played for the after run only
    assert five["verdict"] == "cannot tell" and five["why"] == "not_played_before"
    assert math.isnan(five["change"])


def test_card_types_cannot_tell_on_few_or_rare_founders(table):
    # Prêtre +10 pp, se 2.83 pp, z = 3.54; Noble +0.2 pp, z = 0.07 (Holm over these 2 only):
    # Bonferroni 10 ± 2.2414 · 2.828 = +3.66 to +16.34 pp
    p = table[("card_types", "Prêtre")]
    assert p["low"] == pytest.approx(0.1 - 2.241403 * 0.0282843, abs=1e-5)
    assert p["verdict"] == "clear and large enough to matter" and p["family_size"] == 2
    assert table[("card_types", "Noble")]["verdict"] == "within noise"
    bouffon, etoile = table[("card_types", "Bouffon")], table[("card_types", "Étoile")]
    assert (bouffon["verdict"], bouffon["why"], bouffon["before_n"], bouffon["after_n"]) == \
        ("cannot tell", "too_few", 20, 35)                  # +20 pp on 20 founders: not a change
    assert (etoile["verdict"], etoile["why"]) == ("cannot tell", "rare")   # 0.3% of players before
    assert math.isnan(bouffon["change"]) and math.isnan(etoile["low"])


def test_a_rate_every_match_gave_alike_gets_the_plus_four_spread(table):
    # 100 of 100 matches won on both sides: p̃ = 102/104, se = √(p̃(1 − p̃)/104) = 1.34668 pp a side,
    # 1.90449 pp the change's; one pairing: 0 ± 1.95996 · 1.90449 = ±3.7327 pp, within noise
    r = table[("best_of_three", "balanced vs random")]
    assert r["before_se"] == pytest.approx(0.0134668, abs=1e-6)
    assert r["std_error"] == pytest.approx(0.0190449, abs=1e-6)
    assert r["high"] == pytest.approx(0.037327, abs=1e-5) and r["verdict"] == "within noise"


def test_against_a_directory_that_is_not_questions_is_one_line(tmp_path):
    (tmp_path / "run.json").write_text('{"game": "middle-ages", "files": []}', encoding="utf-8")
    with pytest.raises(UsageError, match="questions of middle-ages, not of medievallons"):
        Q._against(tmp_path)
    with pytest.raises(UsageError, match="not a questions directory to compare with"):
        Q._against(tmp_path / "missing")


def test_answers_the_runs_own_games_give_are_left_to_them():
    """Which answers both runs give themselves (same bots at every seat as the questions, the same
    player count; Seat 1 only with seats not rotated), and that those rows leave their question's
    family (worked by hand: 3 players alone, +0.5 pp on √2 pp, within noise, a family of 1)."""
    bal = {"strategies": ["balanced"] * 4}
    assert Q.run_answers(bal, "balanced") == ["card_types", "first_player"]
    assert Q.run_answers({**bal, "rotate_seats": True}, "balanced") == ["card_types"]
    assert Q.run_answers({"strategies": ["balanced", "collector", "balanced", "balanced"]}, "balanced") == []
    side = {"for_run_players": 2, "card_players": 2, "strategy": "balanced", "run_answers": ["card_types", "first_player"]}
    assert Q.runs_own(side, side) == {"first_player": 2, "card_types": 2}
    assert Q.runs_own(side, {**side, "run_answers": ["card_types"]}) == {"card_types": 2}
    assert Q.runs_own(side, {**side, "for_run_players": 3}) == {}
    assert Q.runs_own(side, {**side, "strategy": "collector"}) == {}
    rows = {(r["question"], r["item"]): r for r in Q.compare_questions(BEFORE, AFTER, runs_own={"first_player": 2})
            .iter_rows(named=True)}
    two, three = rows[("first_player", "2 players")], rows[("first_player", "3 players")]
    assert (two["verdict"], two["why"]) == ("the runs' own games", "runs_own") and math.isnan(two["change"])
    assert three["family_size"] == 1 and three["verdict"] == "within noise"
    assert three["high"] == pytest.approx(0.005 + 1.959964 * 0.0141421, abs=1e-5)


def test_the_founded_share_of_each_type_is_compared_for_the_note():
    """Each card type's share of players founding it, before and after, on games × players
    player-games a side: Prêtre 30% → 20% over 4,000 each, se √(.3·.7 + .2·.8)/√4000 = 0.96177 pp,
    z = −10.4, clear (Holm over 2); Bonferroni over 2, −10 ± 2.2414 · 0.96177 = −12.16 to −7.84 pp:
    large enough to matter. Noble 30% → 30%: within noise."""
    def cards(pretre):
        return pl.DataFrame([dict(card=c, founded_share=f, founders_win_share=0.3, founders_std_error=0.01,
                                  founders=1200, games=1000, players=4) for c, f in (("pretre", pretre), ("noble", 0.30))])
    t = {r["item"]: r for r in Q.compare_questions({"card_types": cards(0.30)}, {"card_types": cards(0.20)})
         .iter_rows(named=True)}
    p, n = t["Prêtre"], t["Noble"]
    assert (p["founded_before"], p["founded_after"]) == pytest.approx((0.30, 0.20))
    assert p["founded_change"] == pytest.approx(-0.10) and p["founded_verdict"] == "clear and large enough to matter"
    assert n["founded_change"] == pytest.approx(0.0) and n["founded_verdict"] == "within noise"
    assert (p["key"], p["players"]) == ("pretre", 4)
