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
