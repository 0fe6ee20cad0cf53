"""Combats (FF-1 … FF-4): the seed's worked example with forced dice, and kernel = reference."""

from __future__ import annotations

import pytest

from simcore.games.fief import reference as ref
from simcore.games.fief.kernel import ATTACKER_WINS, BOTH_WIPED, DEFENDER_HOLDS

from fief_helpers import kernel_fight, variant

# FF-3 worked example: A = 8 soldiers + 2 Lords in open ground, B = 5 soldiers + 1 Lord in a castle.
# Round 1: A 5+3, B 6; round 2: A 3+3, B 3; round 3: A 6, B 6.
EXAMPLE_DICE = [5, 3, 6, 3, 3, 3, 6, 6]


def test_worked_example_replays_in_the_kernel(rules):
    """FF-3 (seed's example), FF-1 (10 and 7 points roll 2 dice, 6 rolls 1), FF-2 (castle/open):
    A takes the castle with 1 soldier and 2 Lords after 3 rounds; B strikes back in the last round."""
    (winner, mercy, rounds, a, d, lla, lld, capa, capd), used = kernel_fight(
        rules, 10, 6, "castle", la=2, ld=1, forced=EXAMPLE_DICE)
    assert used == len(EXAMPLE_DICE)
    assert (winner, mercy, rounds) == (ATTACKER_WINS, 0, 3)
    assert (a, d) == (3, 0)
    assert (lla, a - lla) == (2, 1)          # 2 Lords and 1 soldier left
    assert (lld, capa, capd) == (0, 0, 0)


def test_worked_example_replays_in_the_reference_round_by_round(rules):
    """FF-3: the readable reference tells the seed's story: losses 2/3, 2/1, 2/3, simultaneous."""
    res = ref.combat(rules, 10, 6, "castle", lords_attacker=2, lords_defender=1, forced=EXAMPLE_DICE)
    assert res.winner == "attacker" and res.rounds == 3 and not res.by_mercy
    assert res.log[1] == ("round 1: attacker 10 pts rolls 5+3=8 -> defender loses 2; "
                          "defender 6 pts rolls 6=6 -> attacker loses 3")
    assert res.log[2] == ("round 2: attacker 7 pts rolls 3+3=6 -> defender loses 2; "
                          "defender 4 pts rolls 3=3 -> attacker loses 1")
    assert res.log[3] == ("round 3: attacker 6 pts rolls 6=6 -> defender loses 2; "
                          "defender 2 pts rolls 6=6 -> attacker loses 3")
    assert (res.attacker.soldiers, len(res.attacker.lords)) == (1, 2)
    assert res.defender.points == 0
    # the log counts pawns as a reader does: "1 Lord", "1 soldier", "0 Lords", never "1 Lords"
    assert res.log[0] == ("start: attacker 10 pts (8 soldiers, 2 Lords, open) "
                          "vs defender 6 pts (5 soldiers, 1 Lord, castle)")
    assert res.log[-1] == ("end: attacker; attacker 1 soldier + 2 Lords, "
                           "defender 0 soldiers + 0 Lords")


def test_worked_example_with_mercy_granted_after_round_two(rules):
    """FF-3 mercy: B (2 points: 1 soldier + its Lord) asks and A grants: the Lord is captured, the
    soldier removed, A takes the castle with 6 points; only the first two rounds' dice are used."""
    (winner, mercy, rounds, a, d, lla, lld, capa, capd), used = kernel_fight(
        rules, 10, 6, "castle", la=2, ld=1, mercy=(-1, 2), forced=EXAMPLE_DICE)
    assert used == 6
    assert (winner, mercy, rounds, a, d, lla, capd, lld) == (ATTACKER_WINS, 1, 2, 6, 0, 2, 1, 0)
    res = ref.combat(rules, 10, 6, "castle", lords_attacker=2, lords_defender=1, mercy=(-1, 2),
                     forced=EXAMPLE_DICE)
    assert res.by_mercy and res.winner == "attacker" and res.defender.captured == ["Lord 1"]
    assert res.log[-1] == ("defender asks for mercy and it is granted: 1 Lord captured, "
                           "1 soldier removed; attacker wins")


def test_both_sides_wiped_in_the_same_round(rules):
    """FF-3: losses are removed at once, so both sides can be wiped out in one round."""
    r, _ = kernel_fight(rules, 1, 1, "open", forced=[6, 6])
    assert r[0] == BOTH_WIPED and r[2] == 1 and r[3] == r[4] == 0


def test_darc_adds_six_to_her_sides_sum(rules):
    """FF-4: a 1-point attacker with d'Arc rolling 1 reads castle column 7 (2 points) and takes a
    2-point castle in one round; without her the same roll inflicts nothing."""
    r, used = kernel_fight(rules, 1, 2, "castle", la=1, darc="attacker", forced=[1, 1])
    assert used == 2 and r[0] == ATTACKER_WINS and r[2] == 1 and r[3] == 1
    r, _ = kernel_fight(rules, 1, 2, "castle", la=1, darc="none", forced=[1, 1, 6, 6])
    assert r[2] == 2                                  # round 1 had no losses at all


def test_round_with_no_losses_repeats(rules):
    """FF-3: a round where nobody loses is followed by another one."""
    r, used = kernel_fight(rules, 1, 1, "city", forced=[1, 1, 6, 1])
    assert used == 4 and r[2] == 2 and r[0] == ATTACKER_WINS   # city 6 → 1; open 1 → 0


def test_lords_removed_first_setting(rules):
    """FF-3 [assumption]: with lords_removed = "first", the attacker's 2 Lords fall before soldiers."""
    first = variant(lords_removed='"first"')
    r, _ = kernel_fight(first, 10, 6, "castle", la=2, ld=1, forced=EXAMPLE_DICE)
    assert r[3] == 3 and r[5] == 0                    # 3 points left, all soldiers


VARIANTS = {
    "default": {},
    "lords first, d'Arc first": {"lords_removed": '"first"', "removed": '"first"'},
    "mercy coin-flip, asked before round 1": {"grant_probability": "0.5",
                                              "ask_before_first_round": "true",
                                              "first_to_ask": '"attacker"'},
    "mercy without Lords": {"requires_lords": "false"},
}
MATCHUPS = [
    dict(a=10, d=6, terrain="castle", la=2, ld=1, darc="none", mercy=(-1, -1)),
    dict(a=14, d=9, terrain="city", la=3, ld=2, darc="defender", mercy=(-1, 3)),
    dict(a=7, d=12, terrain="open", la=1, ld=0, darc="attacker", mercy=(2, 4)),
    dict(a=25, d=20, terrain="castle", la=4, ld=4, darc="none", mercy=(5, 5)),
]
_WINNER = {"attacker": ATTACKER_WINS, "defender": DEFENDER_HOLDS, "both wiped": BOTH_WIPED}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_kernel_and_reference_play_the_same_combats(name):
    """FF-1 … FF-4: for the same (seed, index) the kernel and the reference (soldiers and named
    Lords removed pawn by pawn) play the same combat, draw for draw, under every setting."""
    rules = variant(**VARIANTS[name])
    for m in MATCHUPS:
        for index in range(150):
            kr, _ = kernel_fight(rules, m["a"], m["d"], m["terrain"], la=m["la"], ld=m["ld"],
                                 darc=m["darc"], mercy=m["mercy"], seed=11, index=index)
            rr = ref.combat(rules, m["a"], m["d"], m["terrain"], lords_attacker=m["la"],
                            lords_defender=m["ld"], darc=m["darc"], mercy=m["mercy"], seed=11,
                            index=index)
            expect = (_WINNER[rr.winner], int(rr.by_mercy), rr.rounds, rr.attacker.points,
                      rr.defender.points, len(rr.attacker.lords), len(rr.defender.lords),
                      len(rr.attacker.captured), len(rr.defender.captured))
            assert kr == expect, (name, m, index, rr.log)
