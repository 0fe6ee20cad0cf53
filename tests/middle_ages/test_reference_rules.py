"""Per-rule tests of the Middle-Ages reference engine (spec: shared/rules/middle_ages.md, MA-1 … MA-12).

Expected values are worked out by hand from the rules (or, for the random-stream protocol, by
re-deriving the draws with PyStream), never read back from the engine under test. States are built
by hand with GameState; tile ids come from the default tile table, whose contents MA-2 checks.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simcore.errors import ConfigError
from simcore.games.middle_ages import golden
from simcore.games.middle_ages import reference as ref
from simcore.games.middle_ages import rules as R
from simcore.rng import PyStream

RULES = R.load()
DEFAULT_TEXT = R.default_rules_path().read_text(encoding="utf-8")
CH, MO, VI, RE, MA, CA, EG, PA = range(8)


# ------------------------------------------------------------------------------------------------
# helpers
# ------------------------------------------------------------------------------------------------

class Pool:
    """Hands out unused tile ids of a type from the default table (lowest id first)."""

    def __init__(self, rules: R.RulesArrays = RULES) -> None:
        self.free = {t: [i for i in range(rules.n_tiles) if rules.tile_type[i] == t] for t in range(8)}

    def take(self, t: int) -> int:
        return self.free[t].pop(0)


class Pick:
    """A strategy choosing options by value from a queue; records what it was offered."""

    name = "pick"

    def __init__(self, *wanted, calls: list | None = None) -> None:
        self.wanted = list(wanted)
        self.offered: list[tuple[str, list]] = []
        self.calls = calls

    def choose(self, kind, options, state, seat, rng):
        self.offered.append((kind, list(options)))
        if self.calls is not None:
            self.calls.append((seat, kind))
        return options.index(self.wanted.pop(0))


class Never:
    """A strategy that must not be asked."""

    name = "never"

    def choose(self, kind, options, state, seat, rng):
        raise AssertionError(f"unexpected {kind} decision for seat {seat}: {options}")


def make_state(n_players: int, turn: int = 1, rules: R.RulesArrays = RULES) -> ref.GameState:
    s = ref.GameState(rules, n_players)
    s.turn = turn
    return s


def give(state: ref.GameState, seat: int, pool: Pool, *types: int) -> list[int]:
    ids = [pool.take(t) for t in types]
    for tid in ids:
        state.add_to_fief(seat, tid)
    return ids


def counts(state: ref.GameState, seat: int) -> list[int]:
    return [len(state.fief[seat][t]) for t in range(8)]


def event_index(event_id: int, rules: R.RulesArrays = RULES) -> int:
    return [int(e) for e in rules.event_ids].index(event_id)


def small_table_text(blue: int, orange: int) -> str:
    """Default rules with a tile table of ``blue`` + ``orange`` tiles (types cycling 0…7)."""
    head = DEFAULT_TEXT[:DEFAULT_TEXT.index("\n[tile_table]\n") + 1]
    head = head.replace("blue_tiles = 52", f"blue_tiles = {blue}").replace(
        "orange_tiles = 32", f"orange_tiles = {orange}")
    rows = []
    for i in range(blue + orange):
        stack = "blue" if i < blue else "orange"
        rows.append(f'  {{ id = {i}, type = "{R.DOMAINS[i % 8]}", number = {1 + i % 23}, stack = "{stack}" }},')
    return head + "[tile_table]\nrows = [\n" + "\n".join(rows) + "\n]\n"


# ------------------------------------------------------------------------------------------------
# MA-1 components, MA-2 tile table
# ------------------------------------------------------------------------------------------------

def test_MA1_components_in_default_rules_and_fresh_state():
    """MA-1: 84 tiles (14…7 per type), 52 blue / 32 orange, 15 events, 8 Extra-coin and 8 Plot tokens,
    0 start coins; 2-5 players only."""
    assert RULES.n_tiles == 84
    assert np.bincount(RULES.tile_type, minlength=8).tolist() == [14, 13, 12, 11, 10, 9, 8, 7]
    assert int((RULES.tile_stack == R.BLUE).sum()) == 52
    assert int((RULES.tile_stack == R.ORANGE).sum()) == 32
    assert sorted(int(e) for e in RULES.event_ids) == list(range(15))
    s = ref.GameState(RULES, 5)
    assert s.extra_supply == 8 and s.plot_supply == [1] * 8 and s.coins == [0] * 5
    assert all(len(row) == 6 for row in s.rows)
    for bad in (1, 6):
        with pytest.raises(ValueError):
            ref.GameState(RULES, bad)


def test_MA2_default_tile_table_split_numbers_and_symbols():
    """MA-2: per-type blue/orange split, back number 1 + floor(i*23/84), Paysan on Moulin/Village,
    Coffre on Église/Palais."""
    split = {CH: (9, 5), MO: (8, 5), VI: (7, 5), RE: (7, 4), MA: (6, 4), CA: (6, 3), EG: (5, 3), PA: (4, 3)}
    i = 0
    for t in range(8):
        blue, orange = split[t]
        ids = [k for k in range(84) if RULES.tile_type[k] == t]
        for j, k in enumerate(ids):
            assert RULES.tile_number[k] == 1 + (i * 23) // 84
            assert RULES.tile_stack[k] == (R.BLUE if j < blue else R.ORANGE)
            assert RULES.tile_peasants[k] == (1 if t in (MO, VI) else 0)
            assert RULES.tile_chests[k] == (1 if t in (EG, PA) else 0)
            i += 1
        assert len(ids) == blue + orange


# ------------------------------------------------------------------------------------------------
# MA-3 setup (protocol: draw order)
# ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n_players", [2, 3, 4, 5])
def test_MA3_setup_draws_blue_orange_events_rows_then_placements(n_players):
    """MA-3 + protocol: shuffle blue (ids ascending), orange only at 4-5 players, the event deck,
    deal rows 0-3 of P+1 (stable sort by number), then each seat places on a free row-0 column."""
    seed, game = 1234, 56
    rng = PyStream(seed, game)
    blue = [i for i in range(84) if RULES.tile_stack[i] == R.BLUE]
    orange = [i for i in range(84) if RULES.tile_stack[i] == R.ORANGE]
    rng.shuffle(blue)
    if n_players >= 4:
        rng.shuffle(orange)
    deck = [int(e) for e in RULES.event_ids]
    rng.shuffle(deck)
    rows = []
    for r in range(4):
        drawn, blue = blue[:n_players + 1], blue[n_players + 1:]
        rows.append(sorted(drawn, key=lambda t: RULES.tile_number[t]))  # sorted() is stable
    free = list(range(n_players + 1))
    lords = []
    for _ in range(n_players):
        lords.append(free.pop(rng.below(len(free))))

    state = ref.setup_game(RULES, n_players, [ref.RandomStrategy()] * n_players, PyStream(seed, game))
    assert state.rows == rows
    assert [int(RULES.event_ids[e]) for e in state.event_deck] == deck[:4]
    assert state.lord == [(0, c) for c in lords]
    assert state.pile == blue
    assert (state.orange if n_players >= 4 else state.box) == (orange if n_players >= 4 else sorted(orange))
    assert [d[:2] for d in state.decisions] == [("place", n_players + 1 - k) for k in range(n_players)]
    for row in state.rows:
        nums = [RULES.tile_number[t] for t in row]
        assert nums == sorted(nums)


# ------------------------------------------------------------------------------------------------
# MA-4 turns: the book's 3-player first turn and second turn
# ------------------------------------------------------------------------------------------------

def book_first_turn():
    """The rulebook's 3-player first turn, built by hand. Seats: 0 pink (first player), 1 blue, 2 green.

    Row 0: c0 Champs [blue], c1 Moulin (no Lord), c2 Rempart [green], c3 Caserne [pink].
    """
    pool = Pool()
    s = make_state(3, turn=1)
    t = {name: pool.take(typ) for name, typ in [
        ("champs", CH), ("moulin", MO), ("rempart", RE), ("caserne", CA),        # row 0
        ("r1c0", CH), ("r1c1", CH), ("r1c2", MA), ("r1c3", MA),                  # row 1
        ("r2c0", CH), ("r2c1", MA), ("r2c2", MA), ("r2c3", MA),                  # row 2
        ("r3c0", CH), ("r3c1", CH), ("r3c2", CH), ("r3c3", CH),                  # row 3
        ("eglise", EG), ("champs2", CH), ("palais", PA), ("moulin2", MO),        # pile
    ]}
    s.rows = [[t["champs"], t["moulin"], t["rempart"], t["caserne"]],
              [t["r1c0"], t["r1c1"], t["r1c2"], t["r1c3"]],
              [t["r2c0"], t["r2c1"], t["r2c2"], t["r2c3"]],
              [t["r3c0"], t["r3c1"], t["r3c2"], t["r3c3"]]]
    s.lord = [(0, 3), (0, 0), (0, 2)]
    s.pile = [t["eglise"], t["champs2"], t["palais"], t["moulin2"]] + [pool.take(CH) for _ in range(4)]
    return s, t


def test_MA4_MA5_book_first_turn_order_caserne_attack_and_scout():
    """MA-4 (order from Lord columns, discard, refill) and MA-5 (Rempart Scout, Caserne attack) on the
    book's first turn: blue acts first, then green, then pink. Pink's Caserne hits only blue (no
    Rempart): blue's only tile goes to her Graveyard and she pays her 2 coins."""
    s, t = book_first_turn()
    calls: list = []
    pink, blue, green = Pick(0, calls=calls), Pick(3, calls=calls), Pick(2, (2, 1), calls=calls)
    ref.play_turn(s, [pink, blue, green], PyStream(0, 0))
    assert calls == [(1, "move"), (2, "move"), (2, "scout"), (0, "move")]
    assert blue.offered == [("move", [0, 1, 2, 3])]
    assert green.offered[0] == ("move", [0, 1, 2])
    assert green.offered[1] == ("scout", [(2, 0), (2, 1), (2, 2), (2, 3), (3, 0), (3, 1), (3, 2), (3, 3)])
    assert pink.offered == [("move", [0, 1])]
    assert s.coins == [4, 0, 2]           # pink: 2 paid by blue + Income 2; blue: 2 - 2; green: 2
    assert s.fief[1] == [[]] * 8 and s.graveyard[1] == [t["champs"]]
    assert counts(s, 0) == [0, 0, 0, 0, 0, 1, 0, 0] and counts(s, 2) == [0, 0, 0, 1, 0, 0, 0, 0]
    assert s.graveyard[0] == [] and s.graveyard[2] == []
    assert s.scout == [None, None, (2, 1)]
    assert s.lord == [(1, 0), (1, 3), (1, 2)]
    assert s.discard == [t["moulin"]]
    assert s.rows[0] == [t["champs2"], t["moulin2"], t["eglise"], t["palais"]]  # sorted by number


@pytest.mark.parametrize("green_takes", [1, 2])
def test_MA4_book_second_turn_scout_reserves_tile_for_its_owner_only(green_takes):
    """MA-4 3a: the tile under green's Scout (row 2 c1) is forbidden to pink and blue while the Scout
    is there; green may take it or another tile, and gets the Scout back either way, which frees
    the tile for the players after him."""
    s, t = book_first_turn()
    ref.play_turn(s, [Pick(0), Pick(3), Pick(2, (2, 1))], PyStream(0, 0))
    s.turn = 2
    calls: list = []
    pink, blue, green = Pick(0, calls=calls), Pick(3, calls=calls), Pick(green_takes, calls=calls)
    ref.play_turn(s, [pink, blue, green], PyStream(0, 0))
    assert calls == [(0, "move"), (2, "move"), (1, "move")]   # Lords on row 1: pink c0, green c2, blue c3
    assert pink.offered == [("move", [0, 2, 3])]
    assert green.offered == [("move", [1, 2, 3])]
    assert s.scout[2] is None
    assert blue.offered == [("move", [1, 3] if green_takes == 2 else [2, 3])]
    assert s.discard == [t["moulin"], t["r1c1"]]
    # pink Champs: no Paysan, Income 2 x 1; green/blue Marché: no Coffre, Income 2 x 1
    assert s.coins == [6, 2, 4]


def test_MA4_last_turns_no_move_on_turn_16_and_no_refill_after_turn_12():
    """MA-4: on turn 16 Lords do not move (no decision) and take the tile they stand on; rows are
    not refilled from turn 13 on."""
    pool = Pool()
    s = make_state(2, turn=16)
    s.rows[3] = [pool.take(CH), pool.take(CH), pool.take(MA)]
    s.lord = [(3, 2), (3, 0)]
    s.pile = [pool.take(CH) for _ in range(3)]
    s.event_deck = [event_index(0)] * 4          # Métiers qualifiés: no Paysan here, +0
    pile = list(s.pile)
    ref.play_turn(s, [Never(), Never()], PyStream(0, 0))
    assert s.lord == [(3, 2), (3, 0)]
    assert s.rows[3] == [None, None, None] and s.pile == pile
    assert counts(s, 0)[MA] == 1 and counts(s, 1)[CH] == 1
    assert s.coins == [2, 2]
    s2 = make_state(2, turn=13)
    s2.rows[0] = [pool.take(CH), pool.take(CH), pool.take(CH)]
    s2.rows[1] = [pool.take(CH), pool.take(CH), pool.take(CH)]
    s2.lord = [(0, 0), (0, 1)]
    s2.pile = [pool.take(CH) for _ in range(3)]
    ref.play_turn(s2, [Pick(0), Pick(1)], PyStream(0, 0))
    assert s2.rows[0] == [None, None, None] and len(s2.pile) == 3


def test_MA4_turn_4_lord_returns_to_top_row_and_effect_comes_before_income():
    """MA-4 3a-d on turn 4 (r = 3, d = 0: the book's 'aux 4e, 8e et 12e tours, remplacez-le sur la
    ligne du haut'): the Lord's options are the tiles of row 0; the Palais Effect is applied in full
    before the Income ('appliquez intégralement l'Effet spécial ... avant d'obtenir son Revenu'), so
    the Champs Plot token it places counts at once: with 2 Champs, Income 3 x (1 Palais + 2 Champs)
    = 9, where 3 x 1 = 3 if the Income came first."""
    pool = Pool()
    s = make_state(2, turn=4)
    give(s, 0, pool, CH, CH)
    for row in range(4):
        s.rows[row] = [pool.take((MA, CA, MO, VI)[row]) for _ in range(3)]
    palais = pool.take(PA)
    s.rows[3][1] = palais
    s.lord = [(3, 1), (3, 0)]
    strat = Pick(2, (CH, PA))
    ref.player_action(s, 0, [strat, Never()], PyStream(0, 0))
    assert strat.offered[0] == ("move", [0, 1, 2])
    assert s.lord[0] == (0, 2) and s.rows[3][1] is None
    assert s.fief[0][PA] == [palais] and s.plot_token[0][PA] == CH
    assert s.coins[0] == 9


def test_MA4_whole_game_tile_and_decision_counts():
    """MA-4: 16 turns; every player takes 16 tiles (in Fief or Graveyard at the end); 1 placement and
    15 Lord moves per player; 2 players draw 12 + 12 x 3 = 48 of the 52 blue tiles and discard 16."""
    rng = PyStream(99, 1)
    strategies = [ref.RandomStrategy()] * 2
    s = ref.setup_game(RULES, 2, strategies, rng)
    for t in range(1, 17):
        s.turn = t
        ref.play_turn(s, strategies, rng)
    assert len(s.pile) == 4 and len(s.discard) == 16
    for seat in range(2):
        assert sum(counts(s, seat)) + len(s.graveyard[seat]) == 16
    kinds = [d[0] for d in s.decisions]
    assert kinds.count("place") == 2 and kinds.count("move") == 30
    # protocol: the stream is used by the blue shuffle (51 draws), the deck (14), one draw per decision
    assert rng.draws == 51 + 14 + len(s.decisions)


# ------------------------------------------------------------------------------------------------
# MA-5 Effects
# ------------------------------------------------------------------------------------------------

def test_MA5_champs_counts_paysan_in_whole_fief_and_book_lone_champs_earns_nothing():
    """MA-5 Champs: 1 coin per Paysan in the Fief (new tile included); a lone new Champs earns 0."""
    pool = Pool()
    s = make_state(2)
    give(s, 0, pool, CH)
    ref.apply_effect(s, 0, CH, [Never()] * 2, PyStream(0, 0))
    assert s.coins[0] == 0
    give(s, 1, pool, MO, VI, VI, RE, CH)          # 3 Paysan
    ref.apply_effect(s, 1, CH, [Never()] * 2, PyStream(0, 0))
    assert s.coins[1] == 3


def test_MA5_MA10_moulin_payments_in_seat_order_with_coin_floor():
    """MA-5 Moulin / MA-10: each opponent with fewer Moulins pays 2, at most what it has."""
    pool = Pool()
    s = make_state(4)
    give(s, 0, pool, MO)
    give(s, 1, pool, MO, MO)
    give(s, 2, pool, MO, MO)
    s.coins = [1, 0, 7, 5]
    ref.apply_effect(s, 1, MO, [Never()] * 4, PyStream(0, 0))
    assert s.coins == [0, 3, 7, 3]            # seat 0 pays its 1, seat 2 (equal) nothing, seat 3 pays 2


def test_MA10_moulin_with_allow_negative_coins_true():
    """MA-10: with allow_negative_coins = true the full payment is taken and received."""
    rules = R.variant(("allow_negative_coins = false", "allow_negative_coins = true"))
    pool = Pool(rules)
    s = make_state(3, rules=rules)
    give(s, 0, pool, MO, MO)
    s.coins = [0, 1, 0]
    ref.apply_effect(s, 0, MO, [Never()] * 3, PyStream(0, 0))
    assert s.coins == [4, -1, -2]


def test_MA5_village_restores_chosen_graveyard_tile_which_counts_for_income():
    """MA-5 Village / MA-11.3: options are Graveyard tiles in entry order; the chosen one returns to
    its Domain without Effect or Income of its own, but counts for the Village Income."""
    pool = Pool()
    s = make_state(2)
    gm, gr, gc = pool.take(MO), pool.take(RE), pool.take(CA)
    s.graveyard[0] = [gc, gr, gm]              # entry order, not id order
    give(s, 0, pool, VI)
    strat = Pick(gr)
    ref.apply_effect(s, 0, VI, [strat, Never()], PyStream(0, 0))
    assert strat.offered == [("restore", [gc, gr, gm])]
    assert s.graveyard[0] == [gc, gm]
    assert s.fief[0][RE] == [gr] and s.coins == [0, 0]
    assert ref.income(s, 0, VI) == 2 * 2           # Village counts Village + Rempart
    s2 = make_state(2)
    give(s2, 0, Pool(), VI)
    ref.apply_effect(s2, 0, VI, [Never(), Never()], PyStream(0, 0))   # empty Graveyard: no decision


def test_MA5_rempart_scout_options_exclude_rows_r_d_lords_and_scouts():
    """MA-5 Rempart / MA-11.2: rows other than r and d, tiles with no Lord and no Scout (own too), in
    row then column order; the Scout moves; with no legal tile nothing happens and nothing is drawn."""
    pool = Pool()
    s = make_state(2, turn=1)                  # r = 0, d = 1: rows 2 and 3
    for row in range(4):
        s.rows[row] = [pool.take(CH) for _ in range(3)]
    s.lord = [(1, 0), (0, 2)]
    s.scout = [(3, 0), (2, 1)]
    strat = Pick((2, 2))
    ref.apply_effect(s, 0, RE, [strat, Never()], PyStream(0, 0))
    assert strat.offered == [("scout", [(2, 0), (2, 2), (3, 1), (3, 2)])]
    assert s.scout == [(2, 2), (2, 1)]
    s.turn = 14                                # r = 1, d = 2: rows 3 and 0; row 0 emptied
    s.rows[0] = [None] * 3
    s.rows[3] = [None] * 3
    rng = PyStream(0, 0)
    ref.apply_effect(s, 0, RE, [Never(), Never()], rng)
    assert s.scout == [(2, 2), (2, 1)] and rng.draws == 0


def test_MA5_marche_counts_coffre():
    """MA-5 Marché: 1 coin per Coffre (Église and Palais tiles) in the Fief."""
    pool = Pool()
    s = make_state(2)
    give(s, 0, pool, EG, PA, PA, MA, CH)
    ref.apply_effect(s, 0, MA, [Never()] * 2, PyStream(0, 0))
    assert s.coins[0] == 3


def test_MA5_caserne_victims_lose_top_tile_of_leftmost_domain_and_pay_floored():
    """MA-5 Caserne: opponents with fewer Remparts than the attacker's Casernes lose the most recently
    added tile of their leftmost non-empty Domain and pay 2 (MA-10); a victim with no tile pays."""
    pool = Pool()
    s = make_state(4)
    give(s, 0, pool, CA, CA)                                   # attacker: 2 Casernes
    m1, v1, m2 = give(s, 1, pool, MO, VI, MO)                  # 0 Remparts: victim, loses m2
    r1 = give(s, 1, pool, RE)[0]                               # 1 Rempart < 2: still a victim
    give(s, 2, pool, RE, RE, CH)                               # 2 Remparts: safe
    s.coins = [0, 1, 9, 5]                                     # seat 3: no tile, still pays
    ref.apply_effect(s, 0, CA, [Never()] * 4, PyStream(0, 0))
    assert s.fief[1][MO] == [m1] and s.graveyard[1] == [m2]
    assert s.fief[1][VI] == [v1] and s.fief[1][RE] == [r1]
    assert counts(s, 2) == [1, 0, 0, 2, 0, 0, 0, 0] and s.graveyard[2] == []
    assert s.graveyard[3] == []
    assert s.coins == [3, 0, 9, 3]


def test_MA5_eglise_extra_token_options_supply_and_income_bonus():
    """MA-5 Église / MA-11.4 / MA-6: options are Domains without a token; the token adds 1 per counted
    tile to that Domain's Income; with an empty supply there is no decision."""
    pool = Pool()
    s = make_state(2)
    s.extra_token[0][CH] = s.extra_token[0][RE] = True
    s.extra_supply = 6
    give(s, 0, pool, EG, EG)
    strat = Pick(EG)
    ref.apply_effect(s, 0, EG, [strat, Never()], PyStream(0, 0))
    assert strat.offered == [("extra", [1, 2, 4, 5, 6, 7])]
    assert s.extra_supply == 5 and s.extra_token[0][EG]
    assert ref.income(s, 0, EG) == (3 + 1) * 2
    s.extra_supply = 0
    ref.apply_effect(s, 0, EG, [Never(), Never()], PyStream(0, 0))
    s.extra_supply = 3
    s.extra_token[0] = [True] * 8
    ref.apply_effect(s, 0, EG, [Never(), Never()], PyStream(0, 0))
    assert s.extra_supply == 3


def test_MA5_palais_plot_token_legality_and_income():
    """MA-5 Palais / MA-11.5: a Champs token cannot go under Champs or Rempart (they count Champs) nor
    under a Domain holding a Plot token; options are (type, Domain) pairs, type outer."""
    pool = Pool()
    s = make_state(2)
    s.plot_supply = [1, 0, 0, 0, 0, 0, 0, 0]
    s.plot_token[0][VI] = MA
    give(s, 0, pool, PA, CH, CH)
    strat = Pick((CH, PA))
    ref.apply_effect(s, 0, PA, [strat, Never()], PyStream(0, 0))
    assert strat.offered == [("plot", [(0, 1), (0, 4), (0, 5), (0, 6), (0, 7)])]
    assert s.plot_supply == [0] * 8 and s.plot_token[0][PA] == CH
    assert ref.income(s, 0, PA) == 3 * (1 + 2)    # Palais now counts Palais + Champs
    ref.apply_effect(s, 0, PA, [Never(), Never()], PyStream(0, 0))   # supply empty: no decision
    # full supply, no tokens: 64 pairs minus the 12 (type, Domain) pairs whose Income counts the type
    s2 = make_state(2)
    assert len(ref.plot_options(s2, 0)) == 64 - 12


# ------------------------------------------------------------------------------------------------
# MA-6 Income
# ------------------------------------------------------------------------------------------------

def test_MA6_book_example_two_remparts_then_village_income_6():
    """MA-6 book example: with two Remparts, a first Village earns 2 x 3 = 6 (played as a turn action)."""
    pool = Pool()
    s = make_state(2, turn=5)
    give(s, 0, pool, RE, RE)
    for row in range(4):
        s.rows[row] = [pool.take(CH) for _ in range(3)]
    v = pool.take(VI)
    s.rows[0][1] = v
    s.lord = [(0, 1), (0, 0)]
    ref.player_action(s, 0, [Pick(2), Never()], PyStream(0, 0))
    assert s.coins[0] == 6


def test_MA6_extra_coin_bonus_also_counts_the_plot_token_tiles():
    """MA-6: Income = (base + extra) x (tiles of the counted types, the Plot token's type included).
    Palais Domain with an Extra-coin token and a Champs Plot token, 2 Palais and 3 Champs in the
    Fief: (3 + 1) x (2 + 3) = 20; the Champs Domain (no token) still earns 2 x 3 = 6 and the
    Rempart Domain, which counts Champs by the table, 2 x 3 = 6."""
    pool = Pool()
    s = make_state(2)
    give(s, 0, pool, PA, PA, CH, CH, CH)
    s.extra_token[0][PA] = True
    s.plot_token[0][PA] = CH
    assert ref.income(s, 0, PA) == 20
    assert ref.income(s, 0, CH) == 6 and ref.income(s, 0, RE) == 6


def test_MA6_income_of_each_domain_counts_its_table_types():
    """MA-6 table: Champs<-Champs, Moulin<-Moulin, Village<-Village+Rempart, Rempart<-Champs+Rempart,
    Marché<-Moulin+Marché, Caserne<-Village+Caserne, Église<-Église (3), Palais<-Palais (3)."""
    pool = Pool()
    s = make_state(2)
    n = [1, 2, 4, 3, 5, 6, 7, 1]
    for t in range(8):
        give(s, 0, pool, *([t] * n[t]))
    expected = [2 * 1, 2 * 2, 2 * (4 + 3), 2 * (1 + 3), 2 * (2 + 5), 2 * (4 + 6), 3 * 7, 3 * 1]
    assert [ref.income(s, 0, d) for d in range(8)] == expected


# ------------------------------------------------------------------------------------------------
# MA-7 draw pile and exhaustion
# ------------------------------------------------------------------------------------------------

def test_MA7_empty_pile_at_3_players_reshuffles_the_discards():
    """MA-7 / protocol: with 3 players an empty pile takes the discard pile in discard order,
    shuffled, counts one reshuffle, and empties the discard pile."""
    s = make_state(3)
    s.discard = [10, 20, 30, 40]
    expected = [10, 20, 30, 40]
    PyStream(5, 5).shuffle(expected)
    rng = PyStream(5, 5)
    assert ref.draw_tile(s, rng) == expected[0]
    assert s.pile == expected[1:] and s.discard == [] and s.reshuffles == 1


def test_MA7_4_players_use_orange_then_stop_5_players_orange_then_discards():
    """MA-7: 4 players switch to the orange stack (not a reshuffle); 5 players then use the discards."""
    s = make_state(4)
    s.orange, s.discard = [7, 8], [1, 2]
    assert ref.draw_tile(s, PyStream(0, 0)) == 7 and s.reshuffles == 0
    ref.draw_tile(s, PyStream(0, 0))
    with pytest.raises(ConfigError, match="4 players"):
        ref.draw_tile(s, PyStream(0, 0))
    s5 = make_state(5)
    s5.orange, s5.discard = [], [1]
    assert ref.draw_tile(s5, PyStream(0, 0)) == 1 and s5.reshuffles == 1


TILE_COUNTS = [(2, 0), (3, 2), (4, 0), (5, 2)]


@pytest.mark.parametrize("n_players,reshuffles", TILE_COUNTS)
def test_MA7_MA12_default_tiles_suffice_over_many_games(n_players, reshuffles):
    """MA-7 / MA-12: 100 games per player count with debug invariants on; reshuffles are 0, 2, 0, 2.
    Every game draws the same tiles from the same supply, so its reshuffles are the count's
    (measured: the same in each of 700 games of every count; a supply or reshuffle mistake shows
    in every game); the slow test below plays 200 (this test did; 1.4 s of CPU more)."""
    for game in range(100):
        rec = ref.play_game(RULES, n_players, 2024, game, debug=True)
        assert rec.reshuffles == reshuffles
        assert (rec.tiles.sum(axis=1) + rec.graveyard == 16).all()


@pytest.mark.slow
@pytest.mark.parametrize("n_players,reshuffles", TILE_COUNTS)
def test_MA7_MA12_default_tiles_suffice_over_200_games(n_players, reshuffles):
    """MA-7 / MA-12: 200 games per player count with debug invariants on; reshuffles are 0, 2, 0, 2."""
    for game in range(200):
        rec = ref.play_game(RULES, n_players, 2024, game, debug=True)
        assert rec.reshuffles == reshuffles
        assert (rec.tiles.sum(axis=1) + rec.graveyard == 16).all()


@pytest.mark.parametrize("n_players,blue,orange", [(2, 20, 0), (3, 51, 0), (4, 40, 39), (5, 52, 20)])
def test_MA7_custom_tile_table_too_small_names_player_count(n_players, blue, orange):
    """MA-7: a table that runs out stops the run with an error naming the table and player count.
    (2 players need 12 + 2 x 12 = 36 blue, 3 need 16 + 3 x 12 = 52, 4 need 80 in all, 5 need 84.)"""
    rules = R.loads(small_table_text(blue, orange), name="tiny.toml")
    with pytest.raises(ConfigError, match=rf"tiny\.toml.*{n_players} players"):
        ref.play_game(rules, n_players, 1, 0)


def test_MA7_custom_tile_table_just_big_enough_plays():
    """MA-7: 36 blue tiles are exactly enough for 2 players: the pile empties after the turn-8 refill,
    turn 9 reshuffles the 9 discards, turn 12 the 3 discarded since (2 reshuffles)."""
    rules = R.loads(small_table_text(36, 0), name="just.toml")
    assert ref.play_game(rules, 2, 1, 0, debug=True).reshuffles == 2


# ------------------------------------------------------------------------------------------------
# MA-8 events
# ------------------------------------------------------------------------------------------------

def event_fief():
    """Seat 0: Champs c1 c2, Moulin m1, Village v1 v2, Rempart r1, Caserne k1, Église e1, Palais p1 p2
    (3 Paysan, 3 Coffre, 7 non-empty Domains), Graveyard [Marché, Rempart], 4 coins, Extra-coin tokens
    under Champs and Moulin (events ignore them). Seat 1: empty Fief and Graveyard, 5 coins."""
    pool = Pool()
    s = make_state(2, turn=4)
    ids = {}
    for name, t in [("c1", CH), ("c2", CH), ("m1", MO), ("v1", VI), ("v2", VI), ("r1", RE),
                    ("k1", CA), ("e1", EG), ("p1", PA), ("p2", PA)]:
        ids[name] = give(s, 0, pool, t)[0]
    ids["g1"], ids["g2"] = pool.take(MA), pool.take(RE)
    s.graveyard[0] = [ids["g1"], ids["g2"]]
    s.extra_token[0][CH] = s.extra_token[0][MO] = True
    s.coins = [4, 5]
    return s, ids


# event id: (seat 0 coin change, tiles seat 0 loses in order)
EVENT_EXPECTED = {
    0: (+3, []), 1: (+3, []), 2: (+3 * 3, []), 3: (0, ["c2", "m1"]), 4: (0, ["v2", "k1"]),
    5: (+3, []), 6: (+2, []), 7: (+2 * 3, []), 8: (0, ["p2"]), 9: (0, []), 10: (+2 * 2, []),
    11: (+3 * 2, []), 12: (+2 * 7, []), 13: (-4, []), 14: (0, ["r1"]),
}


@pytest.mark.parametrize("event_id", range(15))
def test_MA8_each_event_on_a_hand_made_fief(event_id):
    """MA-8: the 15 events on a hand-made Fief (coins first, floored by MA-10 for Cérémonies
    dispendieuses: -6 with 4 coins takes 4; lost tiles are the most recently added; Restauration
    offers the Graveyard in entry order; Extra-coin tokens never add to event income)."""
    s, ids = event_fief()
    before = [list(map(len, f)) for f in s.fief]
    strat = Pick(ids["g2"]) if event_id == 9 else Never()
    gains = ref.resolve_event(s, event_index(event_id), [strat, Never()], PyStream(0, 0))
    coin_change, lost = EVENT_EXPECTED[event_id]
    assert gains == [coin_change, 0]
    assert s.coins == [4 + coin_change, 5]
    lost_ids = [ids[n] for n in lost]
    if event_id == 9:
        assert strat.offered == [("restore", [ids["g1"], ids["g2"]])]
        assert s.graveyard[0] == [ids["g1"]] and s.fief[0][RE] == [ids["r1"], ids["g2"]]
    else:
        assert s.graveyard[0] == [ids["g1"], ids["g2"]] + lost_ids
        assert sum(map(len, s.fief[0])) == sum(before[0]) - len(lost)
    assert s.graveyard[1] == [] and sum(map(len, s.fief[1])) == 0
    assert s.events_fired == [event_id]


def test_MA8_MA10_ceremonies_with_allow_negative_and_graveyard_income_for_empty_fief():
    """MA-8 / MA-10: Cérémonies dispendieuses goes below zero when allowed; Aide à la reconstruction
    pays 3 per Graveyard tile even with an empty Fief."""
    rules = R.variant(("allow_negative_coins = false", "allow_negative_coins = true"))
    pool = Pool(rules)
    s = make_state(2, rules=rules)
    give(s, 0, pool, EG, PA, PA)
    s.coins = [2, 0]
    assert ref.resolve_event(s, event_index(13, rules), [Never()] * 2, PyStream(0, 0)) == [-6, 0]
    assert s.coins == [-4, 0]
    s2 = make_state(2)
    s2.graveyard[1] = [pool.take(CH), pool.take(CH)]
    assert ref.resolve_event(s2, event_index(11), [Never()] * 2, PyStream(0, 0)) == [0, 6]


def test_MA8_game_records_event_gain_and_coins_before_each_event():
    """MA-8 / MA-12: events fire at the end of turns 4, 8, 12, 16; event_gain is the actual change and
    coins_before_event the coins just before (after that turn's actions)."""
    log: list[str] = []
    rec = ref.play_game(RULES, 3, 5, 8, log=log)
    text = "\n".join(log)
    for k, turn in enumerate((4, 8, 12, 16)):
        block = text.split(f"Turn {turn} ")[1]
        assert f"Event {RULES.event_name(int(rec.events[k]))} ({int(rec.events[k])})" in block
        for seat in range(3):
            before = int(rec.coins_before_event[seat, k])
            after = before + int(rec.event_gain[seat, k])
            assert f"P{seat}: coins {int(rec.event_gain[seat, k]):+d} -> {after}" in block.split("Event")[1]
            assert rec.coins_by_turn[seat, turn - 1] == after
    assert len(set(rec.events.tolist())) == 4


# ------------------------------------------------------------------------------------------------
# MA-9 scoring
# ------------------------------------------------------------------------------------------------

def full_fief(state, seat, pool, extra=()):
    give(state, seat, pool, *range(8), *extra)


def test_MA9_empty_domain_penalty_is_floored():
    """MA-9 / MA-10: 10 per empty Domain, at most the coins held (3 empty Domains with 15 coins -> 15)."""
    pool = Pool()
    s = make_state(2)
    give(s, 0, pool, CH, MO, VI, RE, MA)
    full_fief(s, 1, pool)
    s.coins = [15, 3]
    share, rank = ref.score_game(s)
    assert s.penalty == [15, 0] and s.coins == [0, 3]
    assert rank == [2, 1] and share == [0.0, 1.0]


def test_MA9_ties_broken_by_palais_then_eglise_then_leftwards():
    """MA-9: equal coins -> most Palais, then Église, …; coins beat tiles."""
    pool = Pool()
    s = make_state(4)
    full_fief(s, 0, pool, [PA])            # Palais 2
    full_fief(s, 1, pool, [PA, EG])        # Palais 2, Église 2: best of the tied
    full_fief(s, 2, pool, [CH, MO, RE])    # Palais 1
    full_fief(s, 3, pool)                  # fewer tiles but more coins
    s.coins = [20, 20, 20, 21]
    share, rank = ref.score_game(s)
    assert rank == [3, 2, 4, 1] and share == [0.0, 0.0, 0.0, 1.0]
    s.coins[3] = 19
    share, rank = ref.score_game(s)
    assert rank == [2, 1, 3, 4] and share == [0.0, 1.0, 0.0, 0.0]


def test_MA9_fully_tied_players_share_win_and_rank():
    """MA-9 / MA-12: players still tied share the win (1/k) and the rank (1, 1, 3 competition ranking)."""
    pool = Pool()
    s = make_state(3)
    for seat in range(3):
        full_fief(s, seat, pool)
    s.coins = [30, 30, 12]
    share, rank = ref.score_game(s)
    assert rank == [1, 1, 3] and share == [0.5, 0.5, 0.0]
    s2 = make_state(4)
    pool = Pool()
    for seat in range(4):
        full_fief(s2, seat, pool)
    s2.coins = [8, 8, 8, 9]
    assert ref.score_game(s2) == ([0.0, 0.0, 0.0, 1.0], [2, 2, 2, 1])


def test_MA9_tie_break_order_is_a_rules_setting():
    """MA-9: the tie_break list of the rules config decides; with Champs first, Champs wins ties."""
    rules = R.variant(('tie_break = ["palais", "eglise", "caserne", "marche", "rempart", "village", "moulin", "champs"]',
                     'tie_break = ["champs", "moulin", "village", "rempart", "marche", "caserne", "eglise", "palais"]'))
    pool = Pool(rules)
    s = make_state(2, rules=rules)
    full_fief(s, 0, pool, [PA, PA])
    full_fief(s, 1, pool, [CH])
    s.coins = [10, 10]
    assert ref.score_game(s) == ([0.0, 1.0], [2, 1])


# ------------------------------------------------------------------------------------------------
# MA-10 is covered above (Moulin, Caserne, events, penalty); MA-11 strategies and decisions
# ------------------------------------------------------------------------------------------------

def test_MA11_random_strategy_draws_once_per_decision_even_with_one_option():
    """MA-11 / protocol: the random strategy draws below(n) once per decision, also when n == 1."""
    rng = PyStream(3, 4)
    assert ref.RandomStrategy().choose("move", [7], None, 0, rng) == 0 and rng.draws == 1
    expected = PyStream(3, 4)
    expected.next_u64()
    rng2 = PyStream(3, 4)
    rng2.below(5)
    assert ref.RandomStrategy().choose("extra", list(range(6)), None, 0, rng2) == expected.below(6)


@pytest.mark.parametrize("n_players", [2, 4])
def test_MA11_replay_strategy_reproduces_a_game_without_drawing(n_players):
    """MA-11: replaying a game's recorded decisions gives the same record. (2 and 4 players: no
    reshuffle, so the stream after setup is only used by decisions.)"""
    rec = ref.play_game(RULES, n_players, 77, 3)
    replay = ref.ReplayStrategy(rec.decisions)
    rec2 = ref.play_game(RULES, n_players, 77, 3, strategies=[replay] * n_players)
    assert rec2.decisions == rec.decisions and replay.pos == len(rec.decisions)
    for name in ("score", "win_share", "rank", "tiles", "graveyard", "penalty", "event_gain",
                 "coins_before_event", "coins_by_turn", "events"):
        assert np.array_equal(getattr(rec, name), getattr(rec2, name)), name
    with pytest.raises(ValueError, match="replay decision 0"):
        ref.play_game(RULES, n_players, 77, 3, strategies=[ref.ReplayStrategy([("move", 1, 0)])] * n_players)


# ------------------------------------------------------------------------------------------------
# MA-12 records, debug invariants, golden file
# ------------------------------------------------------------------------------------------------

def test_MA12_record_dtypes_shapes_and_consistency():
    """MA-12: record arrays have the kernel's dtypes and shapes and agree with each other."""
    rec = ref.play_game(RULES, 5, 31, 2, debug=True)
    dtypes = dict(score=np.int32, win_share=np.float32, rank=np.int8, tiles=np.int8, graveyard=np.int8,
                  penalty=np.int16, event_gain=np.int16, coins_before_event=np.int16, events=np.int8,
                  coins_by_turn=np.int16)
    shapes = dict(score=(5,), win_share=(5,), rank=(5,), tiles=(5, 8), graveyard=(5,), penalty=(5,),
                  event_gain=(5, 4), coins_before_event=(5, 4), events=(4,), coins_by_turn=(5, 16))
    for name, dt in dtypes.items():
        arr = getattr(rec, name)
        assert arr.dtype == dt and arr.shape == shapes[name], name
    assert abs(float(rec.win_share.sum()) - 1.0) < 1e-6
    assert rec.rank.min() == 1
    empty = (rec.tiles == 0).sum(axis=1)
    final_before_scoring = rec.coins_by_turn[:, 15]
    assert (rec.penalty == np.minimum(10 * empty, np.maximum(final_before_scoring, 0))).all()
    assert (rec.score == final_before_scoring - rec.penalty).all()
    assert all(isinstance(d, tuple) and d[0] in ref.DECISION_KINDS and 0 <= d[2] < d[1]
               for d in rec.decisions)


def test_debug_invariants_detect_a_lost_tile_and_unbalanced_transfer():
    """Debug checks can fail: a tile removed from play or a one-sided payment is reported."""
    rng = PyStream(1, 1)
    s = ref.setup_game(RULES, 3, [ref.RandomStrategy()] * 3, rng)
    ref.check_invariants(s)
    s.pile.pop()
    with pytest.raises(AssertionError, match="not conserved"):
        ref.check_invariants(s)
    s2 = ref.setup_game(RULES, 3, [ref.RandomStrategy()] * 3, PyStream(1, 1))
    s2.transfers_paid += 2
    with pytest.raises(AssertionError, match="zero-sum"):
        ref.check_invariants(s2)


def test_golden_playthrough_matches_committed_file():
    """The committed golden log (4 players, seed 7, game 0) equals a fresh rendering."""
    assert golden.GOLDEN_PATH.exists()
    d = golden.diff()
    assert d == "", "golden file differs; regenerate with `make golden` if intended:\n" + d
    text = golden.GOLDEN_PATH.read_text(encoding="utf-8")
    assert len(re.findall(r"^Turn \d+ ", text, flags=re.M)) == 16
    assert golden.main(["--check"]) == 0
