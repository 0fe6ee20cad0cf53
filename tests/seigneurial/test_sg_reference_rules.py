"""Seigneurial rules, one test (or more) per rule id SG-1 … SG-8, on the readable reference engine
with hand-built positions. The kernel is held to the reference game by game in
test_sg_kernel_vs_reference.py, so these tests pin down the rules for both engines.

Expected values come from the spec (shared/rules/seigneurial.md) and the hand-built position, never
from the engine under test.
"""

from __future__ import annotations

import pytest

from simcore.games.seigneurial import reference as F
from simcore.games.seigneurial import rules as R
from simcore.rng import PyStream

RULES = R.load()
TEXT = R.default_rules_path().read_text(encoding="utf-8")
G, W, FI = R.GRAIN, R.WOOD, R.FISH


class Pick:
    """A scripted strategy: ``picks[kind](options, state)`` -> index; other kinds take option 0.
    Records every (kind, options) it was asked."""

    def __init__(self, **picks):
        self.picks = picks
        self.asked = []

    def choose(self, kind, options, state, seat, rng):
        self.asked.append((kind, list(options)))
        f = self.picks.get(kind)
        return 0 if f is None else f(options, state)


def fresh(P=4, rules=RULES, seed=1):
    """A game just set up, then every hand emptied (cards back to their discards), for hand-building."""
    rng = PyStream(seed, 0)
    s = F.setup_game(rules, P, rng)
    for p in s.censitaires:
        for t in range(3):
            for v in range(8):
                s.res_disc[t][v] += s.hand[p][t][v]
                s.hand[p][t][v] = 0
            s.res_disc[t][0] += s.laid[p][t]
            s.laid[p][t] = 0
    s.turns = 1
    return s, rng


def take(state, p, *cards):
    """Move cards from the draw piles / discards into p's hand, keeping every card conserved."""
    for t, v in cards:
        if state.res_disc[t][v] > 0:
            state.res_disc[t][v] -= 1
        else:
            state.res_pile[t].remove(v)
        state.hand[p][t][v] += 1


# ---------------------------------------------------------------------------------------------
# SG-1 components, setup, tables
# ---------------------------------------------------------------------------------------------

def test_sg1_setup_decks_objectives_and_tables():
    s = F.setup_game(RULES, 5, PyStream(3, 0))
    for t in range(3):                       # 33 cards per type: 0x2, 1x8, 2x17, 3x5, 4x1
        assert sorted(s.res_pile[t]) == [0] * 2 + [1] * 8 + [2] * 17 + [3] * 5 + [4]
    assert len(s.cc_pile) == 27 and len(s.sc_pile) == 20
    objs = [s.objective[p] for p in s.censitaires]
    assert len(set(objs)) == 4 and all(0 <= o < 12 for o in objs) and s.objective[0] == -1
    assert s.square == 0 and F.check_invariants(s) is None
    # midpoint / goal and rent before / after, per player count
    assert [(RULES.midpoint(n), RULES.goal(n)) for n in (3, 4, 5)] == [(4, 8), (5, 10), (6, 12)]
    assert [(RULES.rent(n, False), RULES.rent(n, True)) for n in (3, 4, 5)] == [(2, 5), (3, 7), (4, 9)]


def test_sg1_a_card_of_value_v_is_v_resources_and_compensation_start_cards():
    s, _ = fresh()
    take(s, 1, (G, 3), (G, 2), (W, 1))
    assert s.resources(1, G) == 5 and s.resources(1, W) == 1 and s.hand_cards(1) == 3
    rules = R.loads(TEXT.replace("start_cards = 0", "start_cards = [0, 2, 4, 1]"))
    st = F.setup_game(rules, 4, PyStream(3, 0))
    held = [st.hand_cards(p) + sum(st.laid[p]) for p in (1, 2, 3)]
    assert held == [0, 2, 4]                 # dealt grain, wood, fish, grain, …
    assert sum(st.hand[3][G]) + st.laid[3][G] == 2 and sum(st.hand[2][FI]) + st.laid[2][FI] == 0
    st2 = F.setup_game(R.loads(TEXT.replace("start_square = 0", "start_square = 3")), 4, PyStream(3, 0))
    assert st2.square == 3


def test_sg1_shared_church_without_limit_and_with_a_capacity():
    s, _ = fresh()
    opts = F.placement_options(s, 1, church_used=7, mill_used=0)
    assert any(R.CHURCH in o for o in opts)          # [assumption] no limit by default
    rules = R.loads(TEXT.replace("church_capacity = 0", "church_capacity = 1"))
    s2, _ = fresh(rules=rules)
    assert not any(R.CHURCH in o for o in F.placement_options(s2, 1, church_used=1, mill_used=0))


# ---------------------------------------------------------------------------------------------
# SG-2 objectives
# ---------------------------------------------------------------------------------------------

def test_sg2_default_objective_deck_and_holding_an_objective():
    objs = sorted(map(tuple, RULES.objectives.tolist()))
    pairs = sorted(tuple(6 if t == a else 4 if t == b else 0 for t in range(3))
                   for a in range(3) for b in range(3) if a != b)
    assert objs == sorted(pairs + [(10, 0, 0), (0, 10, 0), (0, 0, 10)] + [(4, 4, 4)] * 3)
    s, _ = fresh()
    s.objective[1] = RULES.objectives.tolist().index([6, 4, 0])
    take(s, 1, (G, 3), (G, 2), (W, 4))
    assert not s.holds_objective(1)            # grain 5 < 6
    take(s, 1, (G, 1))
    assert s.holds_objective(1)


# ---------------------------------------------------------------------------------------------
# SG-3 Censitaire and Seigneur cards
# ---------------------------------------------------------------------------------------------

def test_sg3_censitaire_cards_hand_limit_play_limit_recolte_troc_cachette():
    s, rng = fresh()
    s.cc_hand[1] = [1, 1, 1]
    s.cc_pile[-1] = R.TROC
    s.favour_held[1] = 1
    s.given[1] = 1                     # 1 more point: 2 -> a card, then 4 held -> discard one
    bot = Pick(discard_card=lambda o, st: o.index(R.CACHETTE))
    s.rent = [0, 0, 0]
    F.award_favour(s, False, [bot] * 4, rng, None)
    assert s.cc_hand[1] == [1, 0, 2] and s.cc_disc[R.CACHETTE] == 1
    # play limit 2: three cards held, the window asks twice at most
    take(s, 1, (G, 1))
    plays = Pick(play_card=lambda o, st: 1 if len(o) > 1 else 0)   # always the first card listed
    F.card_window(s, 1, [plays] * 4, rng, None)
    assert [k for k, _ in plays.asked].count("play_card") == 2
    assert sum(s.cc_hand[1]) == 1
    # Cachette: the options offered no longer include it once played
    s2, rng2 = fresh()
    s2.cc_hand[1] = [0, 2, 0]
    F.card_window(s2, 1, [Pick(play_card=lambda o, st: len(o) - 1)] * 4, rng2, None)
    assert s2.protected[1] and s2.cc_hand[1] == [0, 1, 0]


def test_sg3_troc_discards_one_card_and_draws_another_type():
    s, rng = fresh()
    take(s, 1, (G, 3))
    s.cc_hand[1] = [0, 0, 1]
    s.res_pile[FI].append(2)
    bot = Pick(play_card=lambda o, st: o.index(R.TROC), troc_type=lambda o, st: o.index(FI))
    F.card_window(s, 1, [bot] * 4, rng, None)
    assert s.resources(1, G) == 0 and s.hand[1][FI][2] == 1 and s.res_disc[G][3] >= 1
    assert ("troc_type", [W, FI]) in bot.asked        # another type only


def test_sg3_seigneur_draws_players_cards_in_spring_and_discards_them_after_winter():
    s, rng = fresh(P=5)
    s.turns = 0
    state_before = len(s.sc_pile)
    assert state_before == 20
    bots = [Pick(seigneur_card=lambda o, st: 0)] * 5      # never plays one
    s.objective = [-1] + [RULES.objectives.tolist().index([10, 0, 0])] * 4
    F.play_turn(s, bots, rng, None)                        # Spring: 5 cards at 5 players,
    nothing = sum(s.seized) == 0                           # + 1 if he received nothing (SG-5.5)
    assert sum(s.sc_hand) == 5 + nothing and len(s.sc_pile) == state_before - 5 - nothing
    for _ in range(3):                                     # Summer, Autumn, Winter
        try:
            F.play_turn(s, bots, rng, None)
        except F.GameOver:
            pytest.skip("the game ended early")
    assert s.season() == F.WINTER and sum(s.sc_hand) == 0      # discarded at the end of Winter
    F.check_invariants(s)                                         # … to the discard, not lost


def _requisition_played(rent: int, rules=RULES):
    """SG-3 / SG-5.5: three Censitaires with two grain 1 each, a grain rent of ``rent``, the Seigneur
    holding one Réquisition and playing it; (state, rng, the Seigneur's bot) after his card window."""
    s, rng = fresh(rules=rules)
    for p in (1, 2, 3):
        take(s, p, (G, 1), (G, 1))
    s.rent = [rent, 0, 0]
    s.sc_hand = [1, 0]
    seig = Pick(seigneur_card=lambda o, st: o.index(R.REQUISITION) if R.REQUISITION in o else 0)
    F.seigneur_card_window(s, [seig] * 4, rng, None)
    return s, rng, seig


def test_sg3_requisition_gives_one_extra_forced_draw_and_corvee_discards_a_random_card():
    s, rng, seig = _requisition_played(5)
    assert s.extra_draws == 1
    F.forced_draws(s, [seig] * 4, rng, None)              # 3 regular draws (1 each), then 1 extra
    assert s.received[G] == 4 and sum(s.seized) == 4
    s2, rng2 = fresh()
    take(s2, 2, (W, 2))
    s2.sc_hand = [0, 1]
    F.seigneur_card_window(s2, [Pick(seigneur_card=lambda o, st: o.index(R.CORVEE) if R.CORVEE in o else 0)] * 4,
                           rng2, None)
    assert s2.hand_cards(2) == 0 and s2.res_disc[W][2] >= 1 and s2.sc_disc[R.CORVEE] >= 1


# ---------------------------------------------------------------------------------------------
# SG-4 winter
# ---------------------------------------------------------------------------------------------

def test_sg4_winter_exact_payment_options():
    s, _ = fresh()
    take(s, 1, (G, 1), (W, 1), (FI, 2), (FI, 3))
    opts = F.winter_options(s, 1)
    assert opts[-1] is None
    assert sorted(opts[:-1]) == sorted([((G, 1), (W, 1)), ((FI, 2),)])


def test_sg4_winter_with_no_exact_payment_one_card_worth_more_or_sickness():
    s, rng = fresh()
    take(s, 1, (G, 3), (W, 4))               # no exact 2: one card worth more than 2
    take(s, 2, (G, 1))                       # nothing worth 2 or more: cannot pay
    assert F.winter_options(s, 1) == [((G, 3),), ((W, 4),), None]
    assert F.winter_options(s, 2) == [None]
    bots = [Pick()] * 4                      # pays with the first option
    F.winter(s, bots, rng, None)
    assert s.hand_cards(1) == 1 and s.hand[1][W][4] == 1 and s.sick_left[1] == 0
    assert s.sick_left[2] == 2 and s.hand_cards(2) == 1          # sick for 2 turns, keeps its card
    assert s.sick_left[3] == 2                                   # empty hand: sick


def test_sg4_a_sick_pawn_misses_winter_and_spring():
    s, _ = fresh()
    s.sick_left[1] = 2
    assert all(len(o) == 1 for o in F.placement_options(s, 1, 0, 0))     # 1 pawn of 2
    s.sick_left[1] = 0
    assert all(len(o) == 2 for o in F.placement_options(s, 1, 0, 0))


# ---------------------------------------------------------------------------------------------
# SG-5 a turn
# ---------------------------------------------------------------------------------------------

def test_sg5_1_placement_distinct_squares_blocked_terrain_and_mill():
    s, _ = fresh()
    opts = F.placement_options(s, 1, 0, 0)
    assert len(opts) == 6 and all(len(set(o)) == 2 for o in opts)      # C(4, 2): no Mill yet
    s.laid[1][W] = 1                      # a wood 0 laid: no Forest, the Mill opens
    opts = F.placement_options(s, 1, 0, 0)
    assert all(R.FOREST not in o for o in opts) and any(R.MILL in o for o in opts)


def test_sg5_2_harvest_improvement_bonus_zero_laid_and_mill():
    s, rng = fresh()
    s.improved[1] = G
    s.res_pile[G] += [2, 0]               # top: a 0 (laid face up), then a 2
    F.harvest(s, 1, (R.FIELD,), [Pick()] * 4, rng, None)
    assert s.laid[1][G] == 1 and s.hand[1][G][2] == 1      # 1 + bonus 1 = 2 cards
    s.res_pile[G].append(3)
    F.harvest(s, 1, (R.MILL,), [Pick()] * 4, rng, None)    # the 0 discarded, one card drawn
    assert s.laid[1][G] == 0 and s.hand[1][G][3] == 1


def test_sg5_2_church_keeps_one_card_the_other_goes_under_the_deck():
    s, rng = fresh()
    s.cc_pile += [R.RECOLTE, R.TROC]      # top: Troc, then Récolte
    F.harvest(s, 1, (R.CHURCH,), [Pick(church_keep=lambda o, st: o.index(R.RECOLTE))] * 4, rng, None)
    assert s.cc_hand[1][R.RECOLTE] == 1 and s.cc_pile[0] == R.TROC


def test_sg5_3_rent_splits():
    assert F.rent_options(3) == [(0, 0, 3), (0, 1, 2), (0, 2, 1), (0, 3, 0), (1, 0, 2), (1, 1, 1),
                                 (1, 2, 0), (2, 0, 1), (2, 1, 0), (3, 0, 0)]
    assert len(F.rent_options(9)) == 55


def test_sg5_4_payment_earns_favour_one_per_resource_when_short():
    s, rng = fresh()
    take(s, 1, (G, 3))
    s.rent = [0, 4, 0]
    F.payment(s, 1, [Pick(pay=lambda o, st: 1 if len(o) > 1 else 0)] * 4, rng, None)
    assert s.given[1] == 3 and s.received[G] == 3 and not F.rent_met(s)
    F.award_favour(s, F.rent_met(s), [Pick()] * 4, rng, None)
    assert s.favour_earned[1] == 3 and s.favour_held[1] == 1 and sum(s.cc_hand[1]) == 1


def test_sg5_5_favour_distribution_when_met_never_more_than_given():
    s, rng = fresh()
    s.turns = 1
    s.rent = [2, 1, 0]                                  # rent total 3 (4 players, before)
    s.given = [0, 4, 1, 0]
    s.received = [4, 1, 0]
    favour_to_p2 = Pick(favour=lambda o, st: o.index(2) if 2 in o else 0)
    F.award_favour(s, True, [favour_to_p2] * 4, rng, None)
    assert s.favour_earned[1:] == [2, 1, 0]             # P2 capped at the 1 it gave; total = 3


def test_sg5_5_short_rent_forced_draws_before_and_after_the_improvements():
    def run(improved):
        s, rng = fresh()
        for p in (1, 2, 3):
            take(s, p, (G, 1), (G, 1))
        s.rent = [5, 0, 0]
        s.given = [0, 1, 2, 0]                          # P3 gave least, then P1, then P2
        s.improvements_done = improved
        F.forced_draws(s, [Pick()] * 4, rng, None)
        return s

    before = run(False)                                 # at most 1 draw per Censitaire: 3
    assert before.received[G] == 3 and before.seized == [0, 1, 1, 1] and not F.rent_met(before)
    after = run(True)                                   # 2 each, stopping once the rent is met
    assert after.received[G] == 5 and after.seized == [0, 2, 1, 2]


def test_sg5_5_a_drawn_card_of_a_type_not_missing_is_given_back_and_cachette_protects():
    s, rng = fresh()
    take(s, 1, (W, 2), (W, 3))
    take(s, 2, (G, 2))
    s.protected[2] = True
    s.rent = [2, 0, 0]
    F.forced_draws(s, [Pick()] * 4, rng, None)
    assert s.hand_cards(1) == 2 and s.hand_cards(2) == 1 and s.received == [0, 0, 0]


def test_sg5_5_nothing_received_the_seigneur_draws_a_card():
    s, rng = fresh()
    s.rent = [3, 0, 0]
    n = len(s.sc_pile)
    F.accounting(s, [Pick()] * 4, rng, None)
    assert sum(s.sc_hand) == 1 and len(s.sc_pile) == n - 1


def test_sg5_6_progress_and_improvements_at_the_midpoint():
    s, rng = fresh()
    s.square = RULES.midpoint(4) - 1
    F.progress(s, False, [Pick()] * 4, rng, None)
    assert s.square == RULES.midpoint(4) - 1
    F.progress(s, True, [Pick(improve=lambda o, st: 2)] * 4, rng, None)
    assert s.square == RULES.midpoint(4) and s.improvements_done and s.improved[1:] == [FI] * 3
    assert F.rent_total(s) == 7 and s.improvement_turn == s.turns


# ---------------------------------------------------------------------------------------------
# SG-6 victory
# ---------------------------------------------------------------------------------------------

def _holding(s, p, obj):
    s.objective[p] = RULES.objectives.tolist().index(obj)


def test_sg6_seigneur_and_censitaire_on_the_same_turn_the_seigneur_wins():
    s, rng = fresh()
    s.square = RULES.goal(4)
    _holding(s, 1, [10, 0, 0])
    take(s, 1, (G, 4), (G, 3), (G, 3))
    assert s.holds_objective(1)
    with pytest.raises(F.GameOver):
        F.victory(s, [Pick()] * 4, rng, None)
    assert (s.winner, s.end_reason) == (0, F.SEIGNEUR_GOAL_OVER_OBJECTIVE)     # the tie-break's own reason
    share, score, rank = F.score_game(s)
    assert share == [1.0, 0, 0, 0] and score[0] == 100 and score[1] == 100 and rank[:2] == [1, 2]


def test_sg6_ties_among_censitaires_most_resources_then_the_seigneurs_pick():
    s, rng = fresh()
    for p in (1, 2, 3):
        _holding(s, p, [4, 4, 4])
    take(s, 1, (G, 3), (G, 1), (W, 3), (W, 1), (FI, 2), (FI, 2))     # 12 resources
    take(s, 2, (G, 2), (G, 2), (W, 2), (W, 2), (FI, 3), (FI, 2))     # 13
    take(s, 3, (G, 3), (G, 1), (W, 2), (W, 2), (FI, 3), (FI, 2))     # 13
    pick_p3 = Pick(tie_winner=lambda o, st: o.index(3))
    with pytest.raises(F.GameOver):
        F.victory(s, [pick_p3] * 4, rng, None)
    assert s.winner == 3 and s.end_reason == F.CENSITAIRE_OBJECTIVE
    assert ("tie_winner", [2, 3]) in pick_p3.asked      # P1 (fewer resources) not in the tie


def test_sg6_the_turn_bound_truncates_as_a_seigneur_loss():
    rules = R.loads(TEXT.replace("max_turns = 200", "max_turns = 3"))
    rec = F.play_game(rules, 4, 5, 0, strategies=[Pick(pay=lambda o, st: 0)] * 4, debug=True)
    assert rec.turns <= 3
    if rec.end_reason == F.TRUNCATED:
        assert rec.winner == -1 and list(rec.win_share) == pytest.approx([0, 1 / 3, 1 / 3, 1 / 3])


def test_sg6_truncated_game_from_a_position():
    rules = R.loads(TEXT.replace("max_turns = 200", "max_turns = 7"))
    s, rng = fresh(rules=rules)
    s.turns = 7
    with pytest.raises(F.GameOver):
        F.victory(s, [Pick()] * 4, rng, None)
    assert s.end_reason == F.TRUNCATED
    share, _, rank = F.score_game(s)
    assert share == pytest.approx([0, 1 / 3, 1 / 3, 1 / 3]) and rank[0] == 4


# ---------------------------------------------------------------------------------------------
# SG-7 decisions, SG-8 records
# ---------------------------------------------------------------------------------------------

def test_sg7_every_decision_kind_is_met_in_random_play_and_lone_options_are_not_asked():
    seen = set()
    for g in range(30):
        rec = F.play_game(RULES, 4, 9, g, debug=True)
        seen |= {k for k, _, _ in rec.decisions}
        assert all(n >= 2 for _, n, _ in rec.decisions)
    assert seen >= set(F.DECISION_KINDS) - {"tie_winner", "discard_card", "requisition_target"}


def test_sg8_the_record_of_a_game():
    rec = F.play_game(RULES, 5, 2, 3, debug=True)
    assert rec.score.shape == (5,) and rec.resources.shape == (5, 3)
    assert rec.objective[0] == -1 and (rec.objective[1:] >= 0).all()
    assert rec.resources[0].sum() == 0 and rec.favour[0] == 0
    assert abs(float(rec.win_share.sum()) - 1) < 1e-6
    assert rec.end_reason in (0, 1, 2, 3) and 0 <= rec.square <= RULES.goal(5)
    assert (rec.improvement_turn == -1) == (rec.square < RULES.midpoint(5))


def test_the_closing_line_says_never_for_a_game_without_improvements():
    """SG-8 record table (replay, golden files): a game in which the improvements never came
    printed "improvements at turn -1"; it says "never" (a played turn is printed as before)."""
    import numpy as np

    from simcore.games.seigneurial.reference import GameRecord, record_table

    z = np.zeros(3, np.int16)

    def last_line(turn):
        rec = GameRecord(score=z, win_share=z.astype(np.float32), rank=z.astype(np.int8),
                         resources=np.zeros((3, 3), np.int16), favour=z, turns_sick=z,
                         objective=z.astype(np.int8), paid=z, seized=z, turns=30, end_reason=0,
                         winner=-1, square=4, improvement_turn=turn)
        return record_table(rec)[-1]

    assert "improvements: never;" in last_line(-1) and "turn -1" not in last_line(-1)
    assert "improvements at turn 11;" in last_line(11)


# ---------------------------------------------------------------------------------------------
# Rules audit (against the French book, seed 002): rule effects no test above pinned down
# ---------------------------------------------------------------------------------------------

def test_sg1_three_to_five_players_only():
    """SG-1: 1 Seigneur and 2-4 Censitaires (the book's tables: 3, 4, 5 players; 8 pawns, 2 per
    colour: at most 4 Censitaires)."""
    from simcore.errors import UsageError

    for n in (3, 4, 5):
        R.check_players(RULES, n)
    for n in (2, 6):
        with pytest.raises(UsageError):
            R.check_players(RULES, n)


def test_sg3_recolte_draws_one_card_of_the_chosen_type_a_zero_is_laid():
    """SG-3 Récolte: draw 1 resource card of a type of your choice (a 0 is laid face up, SG-5.2)."""
    s, rng = fresh()
    s.cc_hand[1] = [2, 0, 0]
    s.res_pile[FI] += [0, 3]                  # top: a fish 3, then a fish 0
    bot = Pick(play_card=lambda o, st: o.index(R.RECOLTE) if R.RECOLTE in o else 0,
               recolte_type=lambda o, st: o.index(FI))
    F.card_window(s, 1, [bot] * 4, rng, None)
    assert s.hand[1][FI][3] == 1 and s.hand_cards(1) == 1     # one card each, of the type chosen
    assert s.laid[1][FI] == 1                                  # the second Récolte drew the 0
    assert s.cc_hand[1] == [0, 0, 0] and s.cc_disc[R.RECOLTE] >= 2


def test_sg3_an_empty_pile_is_rebuilt_from_its_discard():
    """SG-3 (the book's CARTES): an empty draw pile is rebuilt from its discard, shuffled; with
    neither, nothing is drawn."""
    s, rng = fresh()
    s.cc_disc = [0, 0, len(s.cc_pile) + s.cc_disc[2]]      # every Censitaire card in the discard,
    s.cc_pile = []                                          # all of them Troc
    assert F.draw_censitaire_card(s, rng) == R.TROC
    assert s.cc_disc == [0, 0, 0] and len(s.cc_pile) == 26
    s2, rng2 = fresh()
    s2.res_disc[W] = [0] * 8
    s2.res_disc[W][4] = 1                                   # the wood discard: a single 4
    s2.res_pile[W] = []
    assert F.draw_resource(s2, 1, W, rng2) == 4 and s2.hand[1][W][4] == 1
    assert F.draw_resource(s2, 1, W, rng2) is None          # pile and discard both empty


def test_sg4_a_pawn_sick_in_winter_is_back_in_summer():
    """SG-4 and the book's winter example: a Censitaire that cannot pay the Winter has a pawn on its
    Foyer for 2 turns (Winter and Spring); "son pion pourra être à nouveau utilisé à l'Eté
    suivant" -- both pawns are placed again in Summer."""
    s, rng = fresh()
    s.turns = 3                                              # the next turn is turn 4, Winter
    s.objective = [-1] + [RULES.objectives.tolist().index([10, 0, 0])] * 3
    church_only = Pick(place=lambda o, st: next(i for i, x in enumerate(o) if R.CHURCH in x))
    bots = [church_only] * 4                                 # no resource ever drawn
    sizes = []
    for season in ("Winter", "Spring", "Summer"):
        church_only.asked.clear()
        F.play_turn(s, bots, rng, None)
        assert F.SEASONS[s.season()] == season
        sizes.append({len(o[0]) for k, o in church_only.asked if k == "place"})
    assert sizes == [{1}, {1}, {2}]                          # empty hands cannot pay: all sick
    assert s.turns_sick[1:] == [2, 2, 2] and s.sick_left[1:] == [0, 0, 0]


def test_sg5_5_voluntary_setting_keeps_one_point_per_resource_given_when_the_rent_is_met():
    """SG-5.5 [assumption] favour.when_rent_met = "voluntary": the 1 point per resource given of
    SG-5.4 stands and the Seigneur hands out nothing (no "favour" decision)."""
    rules = R.loads(TEXT.replace('when_rent_met = "distribution"', 'when_rent_met = "voluntary"'))
    s, rng = fresh(rules=rules)
    s.rent = [2, 1, 0]                                       # rent total 3
    s.given = [0, 4, 1, 0]
    bot = Pick()
    F.award_favour(s, True, [bot] * 4, rng, None)
    assert s.favour_earned[1:] == [4, 1, 0] and not any(k == "favour" for k, _ in bot.asked)
    assert s.favour_held[1:] == [0, 1, 0] and sum(s.cc_hand[1]) == 2     # 4 points = 2 cards


def test_sg5_5_received_cards_are_discarded_and_a_seized_card_is_not_nothing():
    """SG-5.5: the resources the Seigneur received go to their decks' discard piles; the Seigneur
    card for "nothing received" is not drawn when a forced draw brought a card (the spec: nothing
    at all this turn, given or drawn)."""
    s, rng = fresh()
    take(s, 1, (G, 3))
    s.rent = [3, 0, 0]
    disc, n_sc = s.res_disc[G][3], len(s.sc_pile)
    F.accounting(s, [Pick()] * 4, rng, None)                # short: one forced draw from P1
    assert s.seized[1] == 3 and s.hand_cards(1) == 0
    assert s.res_disc[G][3] == disc + 1 and s.received_cards == []
    assert sum(s.sc_hand) == 0 and len(s.sc_pile) == n_sc


def test_settings_without_a_behaviour_test_change_the_rule_they_name():
    """rules.toml settings the kernel-against-reference replay covers only as "both engines agree":
    each one changes the rule it names (hand-worked positions)."""
    def with_(old, new):
        assert old in TEXT
        return R.loads(TEXT.replace(old, new))

    s, _ = fresh(rules=with_("mill_capacity = 0", "mill_capacity = 1"))     # SG-1 [assumption]
    s.laid[1][W] = 1
    assert any(R.MILL in o for o in F.placement_options(s, 1, 0, 0))
    assert not any(R.MILL in o for o in F.placement_options(s, 1, 0, 1))
    s, _ = fresh(rules=with_("pawns = 2", "pawns = 3"))                     # SG-1 pawns
    assert {len(o) for o in F.placement_options(s, 1, 0, 0)} == {3}
    s, _ = fresh(rules=with_("payment = 2", "payment = 3"))                 # SG-4 payment
    take(s, 1, (G, 1), (G, 2), (W, 2))
    assert F.winter_options(s, 1) == [((G, 1), (G, 2)), ((G, 1), (W, 2)), None]
    s, rng = fresh(rules=with_("sick_turns = 2", "sick_turns = 3"))         # SG-4 sick turns
    F.winter(s, [Pick()] * 4, rng, None)                                    # empty hands: sick
    assert s.sick_left[1:] == [3, 3, 3]
    s, rng = fresh(rules=with_("per_card = 2", "per_card = 3"))             # SG-5.4 per card
    s.given = [0, 5, 0, 0]
    F.award_favour(s, False, [Pick()] * 4, rng, None)
    assert sum(s.cc_hand[1]) == 1 and s.favour_held[1] == 2
    s, rng = fresh(rules=with_("bonus = 1", "bonus = 2"))                   # SG-5.2 bonus
    s.improved[1] = W
    s.res_pile[W] += [1, 1, 1]
    F.harvest(s, 1, (R.FOREST,), [Pick()] * 4, rng, None)
    assert s.hand[1][W][1] == 3
    r = with_('per_year = "players"', "per_year = 2")                       # SG-3 per year
    assert [r.seigneur_cards_per_year(n) for n in (3, 4, 5)] == [2, 2, 2]


def test_sg5_5_the_books_favour_example():
    """SG-5.5, the book's own example (COMPTABILISATION): the Seigneur asks 7 wood and receives
    2 + 3 + 3 + 1 wood; he hands out 7 favour points and cannot give 4 to Censitaire 2 (it gave
    3). Four Censitaires: 5 players, the rent total set to 7."""
    rules = R.loads(TEXT.replace("rent_after = { 3 = 5, 4 = 7, 5 = 9 }",
                                 "rent_after = { 3 = 5, 4 = 7, 5 = 7 }"))
    s, rng = fresh(P=5, rules=rules)
    s.improvements_done = True
    s.rent = [0, 7, 0]
    s.given = [0, 2, 3, 3, 1]
    s.received = [0, 9, 0]
    to_p2 = Pick(favour=lambda o, st: o.index(2) if 2 in o else 0)
    F.award_favour(s, True, [to_p2] * 5, rng, None)
    points = s.favour_earned[1:]
    assert sum(points) == 7 and points[1] == 3                  # P2 capped at the 3 it gave
    assert all(pt <= g for pt, g in zip(points, s.given[1:]))


# ---------------------------------------------------------------------------------------------
# SG-3 [assumption]: what each card does is a setting (the book prints no card texts; session 50)
# ---------------------------------------------------------------------------------------------

def _rules_with(**effects):
    text = TEXT
    for key, n in effects.items():
        assert f"{key} = 1 " in text
        text = text.replace(f"{key} = 1 ", f"{key} = {n} ", 1)
    return R.loads(text)


def test_sg3_card_effects_default_to_the_books_reading_and_are_checked():
    assert list(RULES.card_effects) == [1, 1, 1, 1, 1, 1]
    assert R.CARD_EFFECTS == ("recolte_draws", "troc_draws", "requisition_draws", "corvee_discards",
                              "troc_discards", "cachette_hides")
    rules = _rules_with(recolte_draws=2, troc_draws=3, requisition_draws=4, corvee_discards=5,
                        troc_discards=0)
    assert list(rules.card_effects) == [2, 3, 4, 5, 0, 1]
    assert list(R.loads(TEXT.replace("cachette_hides = true", "cachette_hides = false")).card_effects) == [
        1, 1, 1, 1, 1, 0]
    with pytest.raises(Exception, match="recolte_draws"):
        _rules_with(recolte_draws=9)
    with pytest.raises(Exception, match="troc_discards"):
        _rules_with(troc_discards=2)
    with pytest.raises(Exception, match="cachette_hides"):
        R.loads(TEXT.replace("cachette_hides = true", "cachette_hides = 0"))


def test_sg3_troc_discards_0_keeps_the_card_given_and_with_troc_draws_0_does_nothing():
    bot = Pick(play_card=lambda o, st: o.index(R.TROC) if R.TROC in o else 0,
               troc_type=lambda o, st: o.index(FI))
    s, rng = fresh(rules=_rules_with(troc_discards=0))
    take(s, 1, (G, 3), (W, 1))                # two cards: the card given is asked (grain 3, the first)
    s.cc_hand[1] = [0, 0, 1]
    s.res_pile[FI] += [2]
    discarded = s.res_disc[G][3]
    F.card_window(s, 1, [bot] * 4, rng, None)
    assert s.resources(1, G) == 3 and s.resources(1, W) == 1 and s.hand[1][FI][2] == 1
    assert s.res_disc[G][3] == discarded
    # the same choices are asked (the card given, then the type), so the decisions line up
    assert s.cc_disc[R.TROC] == 1 and [k for k, _ in bot.asked if k.startswith("troc")] == [
        "troc_give", "troc_type"]
    s2, rng2 = fresh(rules=_rules_with(troc_discards=0, troc_draws=0))
    take(s2, 1, (G, 3))
    s2.cc_hand[1] = [0, 0, 1]
    before = [list(map(list, h)) for h in s2.hand], [list(p) for p in s2.res_pile]
    F.card_window(s2, 1, [bot] * 4, rng2, None)
    assert ([list(map(list, h)) for h in s2.hand], [list(p) for p in s2.res_pile]) == before


def test_sg3_cachette_hides_false_lets_the_seigneur_draw_from_that_hand():
    hides_not = R.loads(TEXT.replace("cachette_hides = true", "cachette_hides = false"))
    for rules, drawn in ((RULES, 0), (hides_not, 1)):
        s, rng = fresh(rules=rules)
        take(s, 2, (G, 2))
        s.protected[2] = True                 # a Cachette played this turn
        s.rent = [2, 0, 0]
        F.forced_draws(s, [Pick()] * 4, rng, None)
        assert s.received[G] == 2 * drawn and s.hand_cards(2) == 1 - drawn
    # the Réquisition's extra draw too; and a second Cachette is still not offered the same turn
    s, rng, seig = _requisition_played(6, hides_not)
    for p in (1, 2, 3):
        s.protected[p] = True
    F.forced_draws(s, [seig] * 4, rng, None)
    assert s.received[G] == 4               # 3 regular draws and the extra one, all hands open
    s2, rng2 = fresh(rules=hides_not)
    s2.cc_hand[1] = [0, 2, 0]
    plays = Pick(play_card=lambda o, st: o.index(R.CACHETTE) if R.CACHETTE in o else 0)
    F.card_window(s2, 1, [plays] * 4, rng2, None)
    assert s2.cc_hand[1] == [0, 1, 0]


def test_sg3_recolte_draws_as_many_cards_as_its_setting():
    s, rng = fresh(rules=_rules_with(recolte_draws=3))
    s.cc_hand[1] = [1, 0, 0]
    s.res_pile[FI] += [2, 3, 4]               # top: 4, 3, 2
    bot = Pick(play_card=lambda o, st: o.index(R.RECOLTE) if R.RECOLTE in o else 0,
               recolte_type=lambda o, st: o.index(FI))
    F.card_window(s, 1, [bot] * 4, rng, None)
    assert [s.hand[1][FI][v] for v in (2, 3, 4)] == [1, 1, 1] and s.hand_cards(1) == 3


def test_sg3_troc_draws_as_many_cards_as_its_setting_for_the_one_discarded():
    s, rng = fresh(rules=_rules_with(troc_draws=2))
    take(s, 1, (G, 3))
    s.cc_hand[1] = [0, 0, 1]
    s.res_pile[FI] += [1, 2]
    bot = Pick(play_card=lambda o, st: o.index(R.TROC) if R.TROC in o else 0,
               troc_type=lambda o, st: o.index(FI))
    F.card_window(s, 1, [bot] * 4, rng, None)
    assert s.resources(1, G) == 0 and s.hand[1][FI][1] == s.hand[1][FI][2] == 1 and s.hand_cards(1) == 2


def test_sg3_requisition_and_corvee_act_as_many_times_as_their_settings():
    s, rng, seig = _requisition_played(6, _rules_with(requisition_draws=2))
    assert s.extra_draws == 2
    F.forced_draws(s, [seig] * 4, rng, None)              # 3 regular draws (1 each), then 2 extra
    assert s.received[G] == 5 and sum(s.seized) == 5
    s2, rng2 = fresh(rules=_rules_with(corvee_discards=2))
    take(s2, 2, (W, 2), (W, 3), (G, 1))
    s2.sc_hand = [0, 1]
    corvee = Pick(seigneur_card=lambda o, st: o.index(R.CORVEE) if R.CORVEE in o else 0,
                  corvee_target=lambda o, st: o.index(2))
    F.seigneur_card_window(s2, [corvee] * 4, rng2, None)
    assert s2.hand_cards(2) == 1                          # 2 of its 3 cards discarded
    # a Corvée asking more cards than the hand holds discards the hand
    s3, rng3 = fresh(rules=_rules_with(corvee_discards=5))
    take(s3, 2, (W, 2))
    s3.sc_hand = [0, 1]
    F.seigneur_card_window(s3, [corvee] * 4, rng3, None)
    assert s3.hand_cards(2) == 0 and s3.res_disc[W][2] >= 1     # to the discard, not lost
