"""Per-rule tests of the Médiévallons reference engine (spec: shared/rules/medievallons.md, MV-1 … MV-9).

Expected values are worked out by hand from the rules (or, for the random-stream protocol, by
re-deriving the draws with PyStream), never read back from the engine under test. States are built
by hand; piles are lists whose last element is the top (docs/medievallons_engine.md).
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.medievallons import reference as ref
from simcore.games.medievallons import rules as R
from simcore.games.medievallons.reference import GameOver, Guild
from simcore.games.medievallons.rules import (
    ARTISAN, ASSASSIN, BOUFFON, CHEVALIER, ETOILE, MAGICIEN, MARCHAND, MENDIANT, MOINE, NOBLE,
    PRETRE, RODEUR, SORCIERE,
)
from simcore.rng import PyStream

RULES = R.load()
TEXT = R.default_rules_path().read_text(encoding="utf-8")
A, AS, B, CH, ET, MG, MA, ME, MO, NO, PR, RO, SO = range(13)


def variant(*pairs) -> R.RulesArrays:
    text = TEXT
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new)
    return R.loads(text, name="variant.toml")


class Pick:
    """A strategy choosing given options (by value) in order; records what it was offered."""

    name = "pick"

    def __init__(self, *wanted):
        self.wanted = list(wanted)
        self.offered: list[tuple[int, str, list]] = []

    def choose(self, kind, options, state, seat, rng):
        self.offered.append((seat, kind, list(options)))
        return options.index(self.wanted.pop(0))


class Never:
    name = "never"

    def choose(self, kind, options, state, seat, rng):
        raise AssertionError(f"unexpected {kind} decision for seat {seat}: {options}")


def state_of(P: int, rules=RULES, pile=(), discard=()) -> ref.GameState:
    s = ref.GameState(rules, P)
    s.pile = list(pile)
    s.discard = list(discard)
    return s


def hand(state, seat):
    return {ref.CARD_NAMES[t]: n for t, n in enumerate(state.hands[seat]) if n}


def power(state, seat, t, strategies, source=ref.PLAYED, rng=None):
    ref.resolve_power(state, seat, t, source, strategies, rng or PyStream(0, 0))


def turn(state, strategies, rng=None):
    ref.play_turn(state, strategies, rng or PyStream(0, 0))


# ------------------------------------------------------------------------------------------------
# MV-1 components, MV-2 setup
# ------------------------------------------------------------------------------------------------

def test_MV1_default_deck_is_13_types_of_8_cards():
    assert R.CARD_TYPES[0] == "artisan" and R.CARD_TYPES[2] == "bouffon" and R.CARD_TYPES[12] == "sorciere"
    assert RULES.copies.tolist() == [8] * 13 and RULES.n_cards == 104
    assert RULES.allowed_players == (2, 3, 4, 5)


def test_MV1_copies_per_type_is_a_setting():
    r = R.with_copies(RULES, {"moine": 7, "bouffon": 10})
    assert r.copies[MOINE] == 7 and r.copies[BOUFFON] == 10 and r.n_cards == 105
    s = ref.setup_game(r, 3, PyStream(1, 2))
    assert s.card_counts() == r.copies.tolist()


@pytest.mark.parametrize("P", [2, 3, 4, 5])
def test_MV2_setup_shuffles_deals_round_robin_and_turns_one_card(P):
    deck = [t for t in range(13) for _ in range(8)]
    PyStream(11, 3).shuffle(deck)
    expected = [[0] * 13 for _ in range(P)]
    for _ in range(6):
        for seat in range(P):
            expected[seat][deck.pop()] += 1
    top = deck.pop()
    s = ref.setup_game(RULES, P, PyStream(11, 3))
    assert s.hands == expected and s.discard == [top] and s.pile == deck
    assert len(s.pile) == 104 - 6 * P - 1
    assert s.end_red == (P != 2)            # MV-2: yellow side up at 2 players
    assert s.current == 0 and s.turns == 0


def test_MV2_end_card_side_is_a_setting():
    r = variant(('2 = "yellow"', '2 = "red"'), ('5 = "red"', '5 = "yellow"'))
    assert r.end_card_red(2) and not r.end_card_red(5) and r.end_card_red(3)


# ------------------------------------------------------------------------------------------------
# MV-3 a turn
# ------------------------------------------------------------------------------------------------

def test_MV3_one_action_then_one_draw():
    s = state_of(3, pile=[NO, MO, ET])
    s.give(0, MO, CH)
    turn(s, [Pick(("play", MO)), Never(), Never()])
    # Moine draws 2 (ET, MO), then the end-of-turn draw (NO)
    assert hand(s, 0) == {"Chevalier": 1, "Étoile": 1, "Moine": 1, "Noble": 1}
    assert s.discard == [MO] and s.turns == 1 and s.current == 1


def test_MV3_no_card_and_no_guild_draws_two_and_nothing_else():
    s = state_of(2, pile=[SO, RO, AS])
    turn(s, [Never(), Never()])
    assert hand(s, 0) == {"Assassin": 1, "Rôdeur": 1} and s.pile == [SO] and s.decisions == []


def test_MV3_empty_hand_with_guilds_must_act_and_then_draws_one():
    s = state_of(2, pile=[SO, RO, AS, MO])
    s.guilds[0].append(Guild(MOINE, 3, 0))
    turn(s, [Pick(("use", 0)), Never()])
    assert hand(s, 0) == {"Moine": 1, "Assassin": 1, "Rôdeur": 1} and s.pile == [SO]


def test_MV3_empty_hand_and_only_a_guild_of_bouffons_passes_with_one_draw():
    s = state_of(2, pile=[SO, RO])
    s.guilds[0].append(Guild(None, 0, 3))
    turn(s, [Never(), Never()])
    assert hand(s, 0) == {"Rôdeur": 1} and s.decisions == []


def test_MV3_action_options_in_protocol_order():
    s = state_of(3)
    s.give(0, MO, MO, CH, B, SO)
    s.guilds[0] += [Guild(MOINE, 3, 0), Guild(None, 0, 3), Guild(ASSASSIN, 3, 0)]
    assert ref.action_options(s, 0) == [
        ("play", B), ("play", CH), ("play", MO), ("play", SO),
        ("found", MO),                                 # 2 Moines + 1 Bouffon
        ("reinforce", 0), ("reinforce", 1), ("reinforce", 2),   # Assassin guild: with the Bouffon
        ("use", 0), ("use", 2)]                        # a guild of Bouffons has no power


def test_MV3_found_sizes_and_reinforce_sizes_in_protocol_order():
    s = state_of(2)
    s.give(0, CH, CH, B, B)
    assert ref.found_size_options(s, 0, CH) == [(1, 2), (2, 1), (2, 2)]
    s.give(0, B)
    assert ref.found_size_options(s, 0, B) == [(0, 3)]
    assert ref.reinforce_size_options(s.hands[0], CH, False) == [
        (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1), (2, 2), (2, 3)]


# ------------------------------------------------------------------------------------------------
# MV-4 guilds
# ------------------------------------------------------------------------------------------------

def test_MV4_bouffons_are_wild_when_founding_and_the_power_resolves():
    s = state_of(3, pile=[MO, ET, AS])
    s.give(0, CH, CH, B)
    s.give(1, MO)
    p0 = Pick(("found", CH), (2, 1), (1, MO))
    turn(s, [p0, Never(), Never()])
    assert s.guilds[0] == [Guild(CHEVALIER, 2, 1)]
    assert s.founded[0][CHEVALIER] == 1 and s.powers[0][CHEVALIER] == 1
    assert hand(s, 0) == {"Moine": 1, "Assassin": 1}      # the Chevalier got P1's Moine, then drew


def test_MV4_guild_of_bouffons_has_no_power_until_a_type_joins():
    s = state_of(3, pile=[AS, AS, AS, AS])
    s.give(0, B, B, B, MO)
    turn(s, [Pick(("found", B), (0, 3)), Never(), Never()])
    assert s.guilds[0] == [Guild(None, 0, 3)] and sum(s.powers[0]) == 0 and s.founded[0][B] == 1
    s.current = 0
    turn(s, [Pick(("reinforce", 0), MO, (1, 0)), Never(), Never()])
    assert s.guilds[0] == [Guild(MOINE, 1, 3)] and s.powers[0][MOINE] == 1


def test_MV4_several_guilds_of_one_type():
    s = state_of(3, pile=[AS] * 6)
    s.guilds[0].append(Guild(MOINE, 3, 0))
    s.give(0, MO, MO, MO)
    turn(s, [Pick(("found", MO), (3, 0)), Never(), Never()])
    assert [g.type for g in s.guilds[0]] == [MOINE, MOINE]


@pytest.mark.parametrize("attack", [ASSASSIN, RODEUR])
def test_MV4_a_guild_falling_to_two_cards_goes_back_to_its_owners_hand(attack):
    s = state_of(3)
    s.guilds[1] += [Guild(NOBLE, 2, 1), Guild(MOINE, 4, 0)]
    power(s, 0, attack, [Pick((1, 0, 0)), Never(), Never()])
    assert s.guilds[1] == [Guild(MOINE, 4, 0)]
    assert hand(s, 1) == {"Noble": 1, "Bouffon": 1}
    if attack == ASSASSIN:
        assert s.discard == [NOBLE] and hand(s, 0) == {}
    else:
        assert s.discard == [] and hand(s, 0) == {"Noble": 1}


def test_MV4_losing_the_last_card_of_its_type_leaves_a_guild_of_bouffons():
    s = state_of(2)
    s.guilds[1].append(Guild(SORCIERE, 1, 3))
    power(s, 0, ASSASSIN, [Pick((1, 0, 0)), Never()])
    assert s.guilds[1] == [Guild(None, 0, 3)]
    assert ref.action_options(s, 1) == []     # nothing to reinforce with, no power to use


def test_MV4_min_cards_is_a_setting():
    r = variant(("min_cards = 3", "min_cards = 4"))
    s = state_of(2, rules=r)
    s.give(0, MO, MO, MO)
    assert ("found", MO) not in ref.action_options(s, 0)
    s.give(0, B)
    assert ref.found_size_options(s, 0, MO) == [(3, 1)]
    s.guilds[1].append(Guild(NOBLE, 4, 0))
    power(s, 0, RODEUR, [Pick((1, 0, 0)), Never()])
    assert s.guilds[1] == [] and s.hands[1][NOBLE] == 3


# ------------------------------------------------------------------------------------------------
# MV-5 powers
# ------------------------------------------------------------------------------------------------

def test_MV5_artisan_takes_the_card_under_the_one_just_played():
    s = state_of(2, pile=[ET, ET], discard=[MO, NO])
    s.give(0, A)
    turn(s, [Pick(("play", A)), Never()])
    assert hand(s, 0) == {"Noble": 1, "Étoile": 1} and s.discard == [MO, A]


def test_MV5_artisan_setting_takes_back_the_played_card():
    r = variant(("artisan_takes_played_card = false", "artisan_takes_played_card = true"))
    s = state_of(2, rules=r, pile=[ET, ET], discard=[MO, NO])
    s.give(0, A)
    turn(s, [Pick(("play", A)), Never()])
    assert hand(s, 0) == {"Artisan": 1, "Étoile": 1} and s.discard == [MO, NO]
    # from a guild there is no played card: the top of the discard pile, as by default
    s.guilds[0].append(Guild(ARTISAN, 3, 0))
    power(s, 0, ARTISAN, [Never(), Never()], source=ref.GUILD)
    assert s.hands[0][NOBLE] == 1


def test_MV5_artisan_setting_a_played_sorciere_turning_over_an_artisan_takes_the_artisan():
    """Review s51 #1: with artisan_takes_played_card = true the played card goes on the discard
    pile first, and a Sorcière's turned-over card on top of it: the copied Artisan takes the card
    just turned over (it gave the played Sorcière back). By default the same."""
    for rules in (RULES, variant(("artisan_takes_played_card = false", "artisan_takes_played_card = true"))):
        s = state_of(2, rules=rules, pile=[ET, ET, A], discard=[MO])
        s.give(0, SO)
        turn(s, [Pick(("play", SO)), Never()])          # no guild on the table: the pile's top turns over
        assert s.powers[0][SORCIERE] == 1 and s.powers[0][ARTISAN] == 1
        assert hand(s, 0) == {"Artisan": 1, "Étoile": 1}        # the Artisan, then the end-of-turn draw
        assert s.discard == [MO, SO]


def test_MV5_artisan_with_an_empty_discard_pile_takes_nothing():
    s = state_of(2)
    power(s, 0, ARTISAN, [Never(), Never()])
    assert hand(s, 0) == {}


def test_MV5_assassin_options_and_discard():
    s = state_of(4)
    s.guilds[3].append(Guild(MOINE, 2, 2))
    s.guilds[2].append(Guild(None, 0, 4))
    s.guilds[1].append(Guild(NOBLE, 5, 0))
    s.guilds[0].append(Guild(RODEUR, 3, 0))     # own guilds are not targets
    p = Pick((3, 0, 1))
    power(s, 0, ASSASSIN, [p, Never(), Never(), Never()])
    assert p.offered[0][2] == [(1, 0, 0), (2, 0, 1), (3, 0, 0), (3, 0, 1)]
    assert s.guilds[3] == [Guild(MOINE, 2, 1)] and s.discard == [BOUFFON]


@pytest.mark.parametrize("attack", [ASSASSIN, RODEUR])
def test_MV5_assassin_or_rodeur_without_target_replaces_the_played_card(attack):
    s = state_of(3, pile=[SO, MO, ET])
    s.give(0, attack)
    s.guilds[0].append(Guild(NOBLE, 3, 0))      # only own guilds on the table: no target
    turn(s, [Pick(("play", attack)), Never(), Never()])
    assert hand(s, 0) == {"Étoile": 1, "Moine": 1} and s.discard == [attack]
    # a power from a guild has no played card to replace: nothing happens
    s2 = state_of(3, pile=[SO])
    power(s2, 0, attack, [Never(), Never(), Never()], source=ref.GUILD)
    assert hand(s2, 0) == {} and s2.pile == [SO]


def test_MV5_bouffon_played_resolves_nothing():
    s = state_of(2, pile=[MO])
    s.give(0, B)
    turn(s, [Pick(("play", B)), Never()])
    assert s.discard == [BOUFFON] and sum(s.powers[0]) == 0 and hand(s, 0) == {"Moine": 1}


def test_MV5_chevalier_names_a_player_and_a_type():
    s = state_of(3)
    s.give(2, ET, ET)
    p = Pick((2, ETOILE))
    power(s, 0, CHEVALIER, [p, Never(), Never()])
    assert len(p.offered[0][2]) == 26 and p.offered[0][2][:2] == [(1, 0), (1, 1)]
    assert hand(s, 0) == {"Étoile": 1} and hand(s, 2) == {"Étoile": 1}
    power(s, 0, CHEVALIER, [Pick((1, MOINE)), Never(), Never()])
    assert hand(s, 0) == {"Étoile": 1}        # P1 holds no Moine: nothing


def test_MV5_etoile_every_player_draws_in_turn_order_from_the_player():
    s = state_of(4, pile=[NO, PR, MO, CH])
    power(s, 2, ETOILE, [Never()] * 4)
    assert hand(s, 2) == {"Chevalier": 1} and hand(s, 3) == {"Moine": 1}
    assert hand(s, 0) == {"Prêtre": 1} and hand(s, 1) == {"Noble": 1}


def test_MV5_magicien_draws_three_keeps_one_discards_two_in_draw_order():
    s = state_of(2, pile=[SO, RO, MO, RO], discard=[A])
    p = Pick(RODEUR)
    power(s, 0, MAGICIEN, [p, Never()])
    assert p.offered[0][2] == [RODEUR, MOINE]    # distinct types, in order of first appearance
    assert hand(s, 0) == {"Rôdeur": 1} and s.discard == [A, MOINE, RODEUR] and s.pile == [SO]


def test_MV5_marchand_swaps_two_cards_each_side_choosing():
    s = state_of(3)
    s.give(0, MO, NO, A)
    s.give(2, CH, CH, ET)
    p0, p2 = Pick(2, (ARTISAN, NOBLE)), Pick((CHEVALIER, CHEVALIER))
    power(s, 0, MARCHAND, [p0, Never(), p2])
    assert p0.offered[0][2] == [1, 2]
    assert p0.offered[1][2] == [(A, MO), (A, NO), (MO, NO)]
    assert p2.offered[0][2] == [(CH, CH), (CH, ET)]
    assert hand(s, 0) == {"Chevalier": 2, "Moine": 1} and hand(s, 2) == {"Artisan": 1, "Étoile": 1, "Noble": 1}


def test_MV5_marchand_draws_up_to_two_first_and_a_poor_partner_gives_what_it_has():
    s = state_of(2, pile=[SO, AS])
    s.give(1, ET)
    p0, p1 = Pick(1, (ASSASSIN, SORCIERE)), Pick(ETOILE)
    power(s, 0, MARCHAND, [p0, p1])
    assert p1.offered[0][1] == "give_one"
    assert hand(s, 0) == {"Étoile": 1} and hand(s, 1) == {"Assassin": 1, "Sorcière": 1}
    s2 = state_of(2)
    s2.give(0, MO, MO)
    power(s2, 0, MARCHAND, [Pick(1, (MOINE, MOINE)), Never()])
    assert hand(s2, 1) == {"Moine": 2} and hand(s2, 0) == {}


def test_MV5_mendiant_takes_a_random_card_of_the_richest_player():
    s = state_of(3)
    s.give(0, MO)
    s.give(1, CH, CH, ET, SO)
    s.give(2, NO, NO, NO, A)
    p = Pick(2)
    rng = PyStream(5, 5)
    k = PyStream(5, 5).below(4)                       # the chance draw: k-th card in type order
    power(s, 0, MENDIANT, [p, Never(), Never()], rng=rng)
    assert p.offered[0][2] == [1, 2]                  # tied players: the player chooses
    taken = [A, NO, NO, NO][k]
    assert s.hands[0][taken] == 1 + (taken == MO) and s.hand_size(2) == 3


def test_MV5_mendiant_draws_instead_when_holding_the_most_tie_included():
    s = state_of(3, pile=[SO])
    s.give(0, MO, MO)
    s.give(1, CH, CH)
    power(s, 0, MENDIANT, [Never(), Never(), Never()])
    assert hand(s, 0) == {"Moine": 2, "Sorcière": 1} and hand(s, 1) == {"Chevalier": 2}


def test_MV5_mendiant_tie_setting_false_takes_from_the_tied_player():
    r = variant(("mendiant_draws_on_tie = true", "mendiant_draws_on_tie = false"))
    s = state_of(3, rules=r, pile=[SO])
    s.give(0, MO, MO)
    s.give(1, CH, CH)
    power(s, 0, MENDIANT, [Pick(1), Never(), Never()])
    assert hand(s, 0) == {"Moine": 2, "Chevalier": 1} and s.pile == [SO]


def test_MV5_moine_draws_two():
    s = state_of(2, pile=[SO, RO, AS])
    power(s, 1, MOINE, [Never(), Never()])
    assert hand(s, 1) == {"Assassin": 1, "Rôdeur": 1}


def test_MV5_noble_next_two_players_give_a_card_of_their_choice():
    s = state_of(4)
    for seat in (1, 2, 3, 0):
        s.give(seat, ET, MO)
    p2, p3 = Pick(MOINE), Pick(ETOILE)
    power(s, 1, NOBLE, [Never(), Never(), p2, p3])
    assert hand(s, 1) == {"Étoile": 2, "Moine": 2} and hand(s, 0) == {"Étoile": 1, "Moine": 1}
    # at 3 players, the next two are both others; a player with no card gives nothing
    s3 = state_of(3)
    s3.give(1, CH)
    power(s3, 0, NOBLE, [Never(), Pick(CHEVALIER), Never()])
    assert hand(s3, 0) == {"Chevalier": 1}


def test_MV5_noble_at_two_players_one_card_given_one_drawn():
    s = state_of(2, pile=[SO])
    s.give(1, RO, MO)
    power(s, 0, NOBLE, [Never(), Pick(RODEUR)])
    assert hand(s, 0) == {"Rôdeur": 1, "Sorcière": 1}


def test_MV5_pretre_looks_takes_then_gives():
    s = state_of(3)
    s.give(0, NO)
    s.give(2, SO, CH)
    p0 = Pick(2, SORCIERE, NOBLE)
    power(s, 0, PRETRE, [p0, Never(), Never()])
    assert [o[1] for o in p0.offered] == ["pretre_partner", "pretre_take", "give_one"]
    assert p0.offered[2][2] == [NOBLE, SORCIERE]       # gives from its hand after taking
    assert hand(s, 0) == {"Sorcière": 1} and hand(s, 2) == {"Chevalier": 1, "Noble": 1}


def test_MV5_pretre_with_an_empty_hand_draws_first():
    s = state_of(2, pile=[ET, MO])
    p0 = Pick(1, MOINE)                     # P1 holds nothing: no take, then give the Moine drawn
    power(s, 0, PRETRE, [p0, Never()])
    assert [o[1] for o in p0.offered] == ["pretre_partner", "give_one"]
    assert hand(s, 1) == {"Moine": 1} and hand(s, 0) == {} and s.pile == [ET]


def test_MV5_rodeur_steals_a_guild_card_into_the_hand():
    s = state_of(2)
    s.guilds[1].append(Guild(MOINE, 3, 2))
    power(s, 0, RODEUR, [Pick((1, 0, 1)), Never()])
    assert hand(s, 0) == {"Bouffon": 1} and s.guilds[1] == [Guild(MOINE, 3, 1)]


def test_MV5_sorciere_copies_a_guild_power_on_the_table():
    s = state_of(3, pile=[SO, RO, AS])
    s.guilds[1] += [Guild(MOINE, 3, 0), Guild(SORCIERE, 3, 0)]
    s.guilds[2] += [Guild(ARTISAN, 3, 0), Guild(None, 0, 3), Guild(MOINE, 4, 0)]
    p = Pick(MOINE)
    power(s, 0, SORCIERE, [p, Never(), Never()])
    assert p.offered[0][2] == [ARTISAN, MOINE]        # distinct types, not Sorcière, not Bouffons
    assert hand(s, 0) == {"Assassin": 1, "Rôdeur": 1}
    assert s.powers[0][SORCIERE] == 1 and s.powers[0][MOINE] == 1


def test_MV5_sorciere_without_guilds_turns_over_the_top_card_discards_and_copies_it():
    s = state_of(2, pile=[RO, AS, MO], discard=[NO])
    power(s, 0, SORCIERE, [Never(), Never()])
    # the Moine is turned over and discarded, then its power draws 2
    assert s.discard == [NO, MOINE] and hand(s, 0) == {"Assassin": 1, "Rôdeur": 1}
    assert s.powers[0][MOINE] == 1
    # a copied Artisan takes the top of the discard pile: the card just turned over
    s2 = state_of(2, pile=[A], discard=[NO])
    power(s2, 0, SORCIERE, [Never(), Never()], source=ref.GUILD)
    assert hand(s2, 0) == {"Artisan": 1} and s2.discard == [NO]


@pytest.mark.parametrize("flipped", [BOUFFON, SORCIERE])
def test_MV5_sorciere_turning_over_a_bouffon_or_sorciere_does_nothing(flipped):
    s = state_of(2, pile=[MO, flipped])
    power(s, 0, SORCIERE, [Never(), Never()])
    assert s.discard == [flipped] and s.pile == [MO] and hand(s, 0) == {}


def test_MV5_sorciere_flip_again_setting():
    r = variant(("sorciere_flip_again = false", "sorciere_flip_again = true"))
    s = state_of(2, rules=r, pile=[RO, AS, MO, SO])
    power(s, 0, SORCIERE, [Never(), Never()])
    assert s.discard == [SORCIERE, MOINE] and hand(s, 0) == {"Assassin": 1, "Rôdeur": 1}


# ------------------------------------------------------------------------------------------------
# MV-6 empty draw pile
# ------------------------------------------------------------------------------------------------

def test_MV6_red_end_card_reshuffles_the_discards_except_the_top_once():
    s = state_of(3, pile=[], discard=[MO, NO, CH, ET])
    assert s.end_red
    rng = PyStream(9, 9)
    rest = [MO, NO, CH]
    PyStream(9, 9).shuffle(rest)
    t = ref.draw_card(s, rng)
    assert t == rest[-1] and s.pile == rest[:-1] and s.discard == [ET]
    assert not s.end_red and s.reshuffles == 1
    s.pile = []
    with pytest.raises(GameOver):
        ref.draw_card(s, rng)
    assert s.end_reason == ref.EMPTY_PILE


def test_MV6_two_players_start_yellow_the_first_empty_pile_ends_the_game():
    s = state_of(2, pile=[], discard=[MO, NO])
    with pytest.raises(GameOver):
        ref.draw_card(s, PyStream(0, 0))
    assert s.reshuffles == 0 and s.discard == [MO, NO]


def test_MV6_reshuffle_of_a_single_discard_ends_the_game_at_once():
    s = state_of(4, pile=[], discard=[MO])
    with pytest.raises(GameOver):
        ref.draw_card(s, PyStream(0, 0))
    assert s.reshuffles == 1 and s.discard == [MO] and s.end_reason == ref.EMPTY_PILE


def test_MV6_game_ends_in_the_middle_of_a_power():
    s = state_of(2, pile=[SO], discard=[NO])
    s.give(0, MO)
    with pytest.raises(GameOver):
        turn(s, [Pick(("play", MO)), Never()])
    assert hand(s, 0) == {"Sorcière": 1} and s.played == [MOINE]


# MV-6 with the book's timing (setup.end_card_timing = "last_card_taken"): the End card acts the
# moment the last card of the draw pile is taken, not when a later draw finds the pile empty.
BOOK = variant(('end_card_timing = "empty_draw"', 'end_card_timing = "last_card_taken"'))


def _last_card_duel(rules):
    """2 players, End card yellow, one card (a Moine) left. P0 -- 2 guilds, 7 guild cards, a
    Bouffon in hand -- plays it and its end-of-turn draw takes the last card; P1 -- 2 guilds,
    6 guild cards -- holds 3 Étoiles, a third guild ready."""
    s = state_of(2, rules=rules, pile=[MO], discard=[NO])
    s.guilds[0] += [Guild(NOBLE, 4, 0), Guild(MOINE, 3, 0)]
    s.guilds[1] += [Guild(NOBLE, 3, 0), Guild(MOINE, 3, 0)]
    s.give(0, B)
    s.give(1, ET, ET, ET)
    return s


def test_MV6_book_timing_yellow_the_last_card_taken_ends_the_game_at_once():
    s = _last_card_duel(BOOK)
    assert not s.end_red
    with pytest.raises(GameOver):
        turn(s, [Pick(("play", BOUFFON)), Never()])         # P1 never acts
    assert s.end_reason == ref.EMPTY_PILE and s.turns == 1
    assert hand(s, 0) == {"Moine": 1} and s.pile == [] and s.discard == [NO, BOUFFON]
    # MV-7 empty-pile winner: 2 guilds each, P0 has 7 guild cards against 6
    assert ref.score_game(s) == ([1.0, 0.0], [1, 2])
    # the spec's timing: the game goes on; P1 founds its third guild on the empty pile and wins
    s = _last_card_duel(RULES)
    turn(s, [Pick(("play", BOUFFON)), Never()])
    assert s.end_reason is None and s.pile == [] and hand(s, 0) == {"Moine": 1}
    with pytest.raises(GameOver):
        turn(s, [Never(), Pick(("found", ETOILE), (3, 0))])
    assert s.end_reason == ref.THIRD_GUILD and s.winner == 1


def test_MV6_book_timing_yellow_ends_in_the_middle_of_a_power():
    """A Prêtre used from a guild with an empty hand draws first; that draw takes the last card:
    the game ends before any Prêtre decision. With the spec's timing the Prêtre goes on."""
    s = state_of(2, rules=BOOK, pile=[ET], discard=[NO])
    s.give(1, MO)
    with pytest.raises(GameOver):
        power(s, 0, PRETRE, [Never(), Never()], source=ref.GUILD)
    assert s.end_reason == ref.EMPTY_PILE and hand(s, 0) == {"Étoile": 1} and s.decisions == []
    s = state_of(2, pile=[ET], discard=[NO])
    s.give(1, MO)
    power(s, 0, PRETRE, [Pick(1, MOINE, ETOILE), Never()], source=ref.GUILD)
    assert s.end_reason is None and hand(s, 0) == {"Moine": 1} and hand(s, 1) == {"Étoile": 1}


def test_MV6_book_timing_yellow_a_sorciere_turning_over_the_last_card_copies_nothing():
    s = state_of(2, rules=BOOK, pile=[ET], discard=[NO])
    with pytest.raises(GameOver):
        power(s, 0, SORCIERE, [Never(), Never()])
    assert s.discard == [NO, ETOILE] and s.powers[0][ETOILE] == 0 and s.powers[0][SORCIERE] == 1
    s = state_of(2, pile=[ET], discard=[NO])                 # the spec's: Étoile copied, its
    with pytest.raises(GameOver):                            # first draw ends the game
        power(s, 0, SORCIERE, [Never(), Never()])
    assert s.discard == [NO, ETOILE] and s.powers[0][ETOILE] == 1


def _red_position(rules):
    """3 players, End card red, one card (a Chevalier) left; discards Moine, Noble (top). P0 plays
    a Bouffon (its draw takes the last card); P1 plays an Assassin on P2's Étoile guild."""
    s = state_of(3, rules=rules, pile=[CH], discard=[MO, NO])
    s.give(0, B)
    s.give(1, AS)
    s.guilds[2].append(Guild(ETOILE, 4, 0))
    return s


def test_MV6_book_timing_red_reshuffles_at_once_and_later_discards_stay_out():
    rng = PyStream(0, 0)
    s = _red_position(BOOK)
    turn(s, [Pick(("play", BOUFFON)), Never(), Never()], rng)
    rest = [MO, NO]                      # the discards except the top (P0's Bouffon), at once
    PyStream(0, 0).shuffle(rest)         # (Pick draws nothing: the reshuffle is the first draw)
    assert hand(s, 0) == {"Chevalier": 1} and s.reshuffles == 1 and not s.end_red
    assert s.pile == rest and s.discard == [BOUFFON]
    turn(s, [Never(), Pick(("play", ASSASSIN), (2, 0, 0)), Never()], rng)
    # the Étoile and the Assassin discarded afterwards are not in the new pile
    assert s.discard == [BOUFFON, ETOILE, ASSASSIN] and s.pile == rest[:-1]
    assert hand(s, 1) == {ref.CARD_NAMES[rest[-1]]: 1}
    # the spec's timing: the pile is rebuilt at P1's draw, from every discard but the Assassin
    rng = PyStream(0, 0)
    s = _red_position(RULES)
    turn(s, [Pick(("play", BOUFFON)), Never(), Never()], rng)
    assert s.pile == [] and s.reshuffles == 0 and s.discard == [MO, NO, BOUFFON]
    turn(s, [Never(), Pick(("play", ASSASSIN), (2, 0, 0)), Never()], rng)
    rest = [MO, NO, BOUFFON, ETOILE]
    PyStream(0, 0).shuffle(rest)
    assert s.discard == [ASSASSIN] and s.pile == rest[:-1] and s.reshuffles == 1


@pytest.mark.parametrize("P,red", [(2, False), (3, True)])
def test_MV6_book_timing_a_deck_dealt_to_its_last_card_ends_at_setup(P, red):
    """hand_size 1 and a deck of P + 1 cards: the card turned face up at setup is the last one;
    the End card acts at once (red: a reshuffle of no card), the game ends with no turn played
    and the players share the win (one card in hand each)."""
    r = dealt_to_the_last_card(P)
    assert r.n_cards == P + 1 and r.end_card_red(P) == red
    rec = ref.play_game(r, P, 1, 0, debug=True)
    assert (rec.turns, rec.end_reason, rec.reshuffles) == (0, ref.EMPTY_PILE, int(red))
    assert rec.win_share.tolist() == pytest.approx([1 / P] * P) and rec.decisions == []


def dealt_to_the_last_card(P):
    """Book timing, hand_size 1, a deck of P + 1 Moines (also used by the kernel's test)."""
    text = TEXT.replace('end_card_timing = "empty_draw"', 'end_card_timing = "last_card_taken"')
    text = text.replace("hand_size = 6", "hand_size = 1").replace("allowed = [2, 3, 4, 5]", f"allowed = [{P}]")
    for name in R.CARD_TYPES:
        text = text.replace(f"\n{name} = 8\n", f"\n{name} = {P + 1 if name == 'moine' else 0}\n")
    return R.loads(text)


# ------------------------------------------------------------------------------------------------
# MV-7 end and winner
# ------------------------------------------------------------------------------------------------

def test_MV7_founding_the_third_guild_wins_at_once_without_its_power():
    s = state_of(3, pile=[SO])
    s.guilds[1] += [Guild(NOBLE, 3, 0), Guild(MOINE, 3, 0)]
    s.give(1, ET, ET, ET)
    s.current = 1
    with pytest.raises(GameOver):
        turn(s, [Never(), Pick(("found", ET), (3, 0)), Never()])
    assert s.end_reason == ref.THIRD_GUILD and s.winner == 1 and s.powers[1][ETOILE] == 0
    assert s.pile == [SO]                     # no end-of-turn draw
    share, rank = ref.score_game(s)
    assert share == [0.0, 1.0, 0.0] and rank[1] == 1


def test_MV7_after_a_third_guild_the_others_rank_by_guilds_then_guild_cards_then_hand():
    """The founder of the third guild ranks 1; the others follow by (guilds, guild cards, hand),
    counted among themselves (the founder is not a better player to them): worked by hand."""
    s = state_of(5)
    s.end_reason, s.winner = ref.THIRD_GUILD, 1
    s.guilds[1] += [Guild(NOBLE, 3, 0), Guild(MOINE, 3, 0), Guild(ETOILE, 3, 0)]
    s.guilds[0] += [Guild(MOINE, 3, 0)]                       # 1 guild, 3 cards, 9 in hand
    s.guilds[2] += [Guild(NOBLE, 3, 0), Guild(ARTISAN, 3, 0)]  # 2 guilds: the best of the others
    s.guilds[3] += [Guild(MOINE, 3, 1)]                       # 1 guild, 4 cards: above P0's hand
    s.give(0, *[A] * 9)
    s.give(4, *[A] * 20)                                      # no guild: last, whatever its hand
    assert ref.score_game(s) == ([0.0, 1.0, 0.0, 0.0, 0.0], [4, 1, 2, 3, 5])
    s.hands[0][ARTISAN] = 0
    s.guilds[0][0] = Guild(MOINE, 4, 0)                       # now level with P3: both rank 3
    assert ref.score_game(s) == ([0.0, 1.0, 0.0, 0.0, 0.0], [3, 1, 2, 3, 5])
    s.end_reason, s.winner = ref.TRUNCATED, None              # the bound ends as on an empty pile
    assert ref.score_game(s) == ([0.0, 1.0, 0.0, 0.0, 0.0], [3, 1, 2, 3, 5])
    s.guilds[1].pop()                                         # P1 and P2 level at the top: shared
    assert ref.score_game(s) == ([0.0, 0.5, 0.5, 0.0, 0.0], [3, 1, 1, 3, 5])


def test_MV7_to_win_is_a_setting():
    r = variant(("to_win = 3", "to_win = 2"))
    s = state_of(2, rules=r)
    s.guilds[0].append(Guild(NOBLE, 3, 0))
    s.give(0, ET, ET, ET)
    with pytest.raises(GameOver):
        turn(s, [Pick(("found", ET), (3, 0)), Never()])
    assert s.winner == 0


def test_MV7_empty_pile_winner_by_guilds_then_guild_cards_then_hand_ties_share():
    s = state_of(4)
    s.end_reason = ref.EMPTY_PILE
    s.guilds[0] += [Guild(MOINE, 3, 0)]
    s.guilds[1] += [Guild(MOINE, 3, 0), Guild(NOBLE, 3, 0)]
    s.guilds[2] += [Guild(MOINE, 4, 0), Guild(NOBLE, 3, 0)]
    s.guilds[3] += [Guild(MOINE, 4, 0), Guild(NOBLE, 2, 1)]
    s.give(0, *[A] * 9)
    s.give(2, A, A)
    s.give(3, A, A)
    share, rank = ref.score_game(s)
    assert share == [0.0, 0.0, 0.5, 0.5] and rank == [4, 3, 1, 1]
    s.give(3, A)
    assert ref.score_game(s) == ([0.0, 0.0, 0.0, 1.0], [4, 3, 2, 1])


def test_MV7_safety_bound_truncates():
    r = variant(("max_turns = 1000", "max_turns = 7"))
    rec = ref.play_game(r, 3, 1, 1, debug=True)
    assert rec.turns == 7 and rec.end_reason == ref.TRUNCATED
    assert rec.win_share.sum() == pytest.approx(1.0)


# ------------------------------------------------------------------------------------------------
# MV-8 decisions, MV-9 records
# ------------------------------------------------------------------------------------------------

def test_MV8_random_strategy_draws_once_per_decision_even_with_one_option():
    s = state_of(2)
    s.give(1, NO)
    rng = PyStream(3, 3)
    before = rng.draws
    s.pile = [SO]
    power(s, 0, NOBLE, [Never(), ref.RandomStrategy()], rng=rng)
    assert rng.draws == before + 1 and s.decisions == [("give_one", 1, 0)]


@pytest.mark.parametrize("P", [2, 3, 5])
def test_MV8_replay_spending_one_draw_per_decision_reproduces_the_game(P):
    """Every strategy spends one draw per decision; a replay that does too meets the same
    reshuffles and Mendiant picks, so the whole game comes out the same."""
    rec = ref.play_game(RULES, P, 77, 3)
    replay = ref.ReplayStrategy(rec.decisions, consume_draw=True)
    again = ref.play_game(RULES, P, 77, 3, strategies=[replay] * P)
    assert again.decisions == rec.decisions and replay.pos == len(rec.decisions)
    assert (again.win_share == rec.win_share).all() and again.turns == rec.turns


def test_MV9_record_dtypes_shapes_and_consistency():
    rec = ref.play_game(RULES, 4, 3, 14, debug=True)
    assert rec.score.dtype == np.int32 and rec.win_share.dtype == np.float32
    assert rec.founded.shape == (4, 13) and rec.powers.shape == (4, 13)
    assert rec.powers[:, BOUFFON].sum() == 0
    assert rec.win_share.sum() == pytest.approx(1.0) and rec.rank.min() == 1
    assert (rec.score >= 3 * rec.guilds).all()
    assert rec.end_reason in (ref.THIRD_GUILD, ref.EMPTY_PILE)


def test_debug_invariants_detect_a_lost_card_and_a_small_guild():
    s = ref.setup_game(RULES, 3, PyStream(1, 1))
    ref.check_invariants(s)
    s.pile.pop()
    with pytest.raises(AssertionError, match="not conserved"):
        ref.check_invariants(s)
    s = ref.setup_game(RULES, 3, PyStream(1, 1))
    s.guilds[0].append(Guild(MOINE, 2, 0))
    s.pile.remove(MOINE), s.pile.remove(MOINE)
    with pytest.raises(AssertionError, match="guild of 2"):
        ref.check_invariants(s)
