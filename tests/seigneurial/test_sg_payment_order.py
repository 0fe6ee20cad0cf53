"""SG-5.4 [assumption] ``payment.order``: how the Censitaires' payments are ordered (the book plays
payment in real time with an hourglass). "seat" (the default): one after another in seat order,
each seeing what was paid before; "simultaneous": each chooses from the position before anyone paid;
"rotating": one after another, the first payer one seat later each turn.

Hand-worked positions on both engines (the expected payments are worked out by hand from the bots'
definitions in configs/seigneurial/strategies.toml, never read from the engine), then the kernel
against the reference game by game under every value, at 3-5 players, random and default bots.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.seigneurial import driver as D
from simcore.games.seigneurial import kernel as K
from simcore.games.seigneurial import layout as L
from simcore.games.seigneurial import reference as REF
from simcore.games.seigneurial import rules as R
from simcore.rng import PyStream, stream_state
from strategies import seigneurial as S

TEXT = R.default_rules_path().read_text(encoding="utf-8")
G = R.GRAIN
WOOD_10 = 7                  # objectives.cards[7] = { wood = 10 }: no grain needed


def rules_with(order: str) -> R.RulesArrays:
    assert 'order = "seat"' in TEXT
    return R.loads(TEXT.replace('order = "seat"', f'order = "{order}"'))


RULES = {o: rules_with(o) for o in R.PAY_ORDERS}


def test_the_default_is_seat_order_and_a_wrong_value_names_the_key():
    assert R.load().pay_order == R.PAY_SEAT == RULES["seat"].pay_order
    assert [RULES[o].pay_order for o in R.PAY_ORDERS] == [0, 1, 2]
    with pytest.raises(Exception) as exc:
        R.loads(TEXT.replace('order = "seat"', 'order = "hourglass"'), name="my.toml")
    msg = str(exc.value)
    assert msg.startswith("my.toml: payment.order: must be one of seat, simultaneous, rotating")
    assert "\n" not in msg
    with pytest.raises(Exception, match="payment.ordre: unknown key"):
        R.loads(TEXT.replace('order = "seat"', 'ordre = "seat"'), name="my.toml")


# ---------------------------------------------------------------------------------------------
# The kernel's bots on a hand-worked position (4 players, rent 3 grain, 0 wood, 0 fish)
# ---------------------------------------------------------------------------------------------

def kernel_payment(order: str, first_bot: str, turn: int = 1) -> tuple[list[int], int]:
    """Censitaire 1 plays ``first_bot`` and holds Céréale 1 + Céréale 2; Censitaires 2 and 3 play
    fair-share and hold Céréale 1 each; no one's objective needs grain. The rent is 3 grain.
    Returns (what each Censitaire gave, grain the Seigneur received)."""
    _, rows = S.resolve(["even-lord", first_bot, "fair-share", "fair-share"], 4)
    ws, fs = D.new_workspace(RULES[order], rows, 4)
    ws[L.W_PL + L.X_OBJ] = -1
    for p in (1, 2, 3):
        ws[L.W_PL + p * L.PLS + L.X_OBJ] = WOOD_10
    K.hand_add(ws, 1, G, 1, 1)
    K.hand_add(ws, 1, G, 2, 1)
    K.hand_add(ws, 2, G, 1, 1)
    K.hand_add(ws, 3, G, 1, 1)
    ws[L.G_TURN] = turn
    ws[L.G_RENT], ws[L.G_RENT + 1], ws[L.G_RENT + 2] = 3, 0, 0
    ws[L.G_CUR] = 1
    st = np.array([stream_state(np.uint64(1), np.uint64(2))], np.uint64)
    assert K.payment(st, ws, fs, 4) == 0
    assert ws[L.G_ERROR] == 0 and list(ws[L.G_PAY_HELD:L.G_PAY_HELD + 3]) == [0, 0, 0]
    given = [int(ws[L.W_PL + p * L.PLS + L.X_GIVEN]) for p in (1, 2, 3)]
    assert ws[L.G_RECV + 1] == 0 and ws[L.G_RECV + 2] == 0
    return given, int(ws[L.G_RECV])


def test_seat_order_a_later_censitaire_pays_what_the_earlier_ones_left():
    # dutiful (pays all that is missing) covers the 3 grain; fair-share Censitaires see nothing
    # missing and pay nothing
    assert kernel_payment("seat", "dutiful") == ([3, 0, 0], 3)
    # the first pays nothing: each fair-share Censitaire pays its share, 3 // 3 = 1
    assert kernel_payment("seat", "objective") == ([0, 1, 1], 2)


def test_simultaneous_a_later_censitaires_payment_does_not_depend_on_an_earlier_ones():
    # every Censitaire sees the 3 grain missing: dutiful pays 3, each fair-share its share 1
    assert kernel_payment("simultaneous", "dutiful") == ([3, 1, 1], 5)
    assert kernel_payment("simultaneous", "objective") == ([0, 1, 1], 2)


def test_rotating_the_first_payer_moves_one_seat_each_turn():
    assert kernel_payment("rotating", "dutiful", turn=1) == ([3, 0, 0], 3)     # 1, 2, 3
    # turn 2: Censitaires 2, 3 pay 1 each; dutiful then covers the 1 missing with its Céréale 1
    assert kernel_payment("rotating", "dutiful", turn=2) == ([1, 1, 1], 3)     # 2, 3, 1
    # turn 3: Censitaire 3 pays 1, dutiful the 2 missing (Céréale 2), Censitaire 2 nothing
    assert kernel_payment("rotating", "dutiful", turn=3) == ([2, 0, 1], 3)     # 3, 1, 2
    assert kernel_payment("rotating", "dutiful", turn=4) == ([3, 0, 0], 3)     # 1 again


# ---------------------------------------------------------------------------------------------
# The reference engine on a hand-worked position: what a paying Censitaire sees, who pays when
# ---------------------------------------------------------------------------------------------

class PayAll:
    """Pays every card it holds; records (seat, received as it saw it) at each pay decision."""

    def __init__(self, seen):
        self.seen = seen

    def choose(self, kind, options, state, seat, rng):
        assert kind == "pay"
        self.seen.append((seat, list(state.received)))
        return len(options) - 1 if len(options) > 1 else 0


def reference_payment(order: str, turn: int = 1):
    s = REF.setup_game(RULES[order], 4, PyStream(1, 0))
    for p in s.censitaires:                       # empty hands, then hand-built ones
        for t in range(3):
            for v in range(8):
                s.res_disc[t][v] += s.hand[p][t][v]
                s.hand[p][t][v] = 0
    s.hand[1][G][2] = 1              # Censitaire 1: Céréale 2; 2: Céréale 3; 3: Céréale 1
    s.hand[2][G][3] = 1
    s.hand[3][G][1] = 1
    s.turns = turn
    s.rent = [6, 0, 0]
    seen = []
    REF.payments(s, [None] + [PayAll(seen)] * 3, PyStream(1, 1), None)
    return seen, s.received, s.given[1:]


def test_reference_what_each_payer_sees_under_each_order():
    seen, received, given = reference_payment("seat")
    assert seen == [(1, [0, 0, 0]), (2, [2, 0, 0]), (3, [5, 0, 0])]
    assert received == [6, 0, 0] and given == [2, 3, 1]
    seen, received, given = reference_payment("simultaneous")
    assert seen == [(1, [0, 0, 0]), (2, [0, 0, 0]), (3, [0, 0, 0])]
    assert received == [6, 0, 0] and given == [2, 3, 1]
    seen, received, given = reference_payment("rotating", turn=2)
    assert seen == [(2, [0, 0, 0]), (3, [3, 0, 0]), (1, [4, 0, 0])]
    seen, _, _ = reference_payment("rotating", turn=6)        # (6 - 1) % 3 = 2: Censitaire 3 first
    assert [p for p, _ in seen] == [3, 1, 2]


# ---------------------------------------------------------------------------------------------
# Kernel = reference, game by game, under every value
# ---------------------------------------------------------------------------------------------

def _same(out, g, rec, P):
    rows = slice(g * P, (g + 1) * P)
    for f in ("score", "win_share", "rank", "resources", "favour", "turns_sick", "objective",
              "paid", "seized"):
        np.testing.assert_array_equal(out[f][rows], getattr(rec, f), err_msg=f"game {g} {f}")
    assert (out["turns"][g], out["end_reason"][g], out["winning_seat"][g],
            out["seigneur_square"][g]) == (rec.turns, rec.end_reason, rec.winner, rec.square)


@pytest.mark.parametrize("order", ["simultaneous", "rotating"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_kernel_plays_the_reference_games_under_every_payment_order(order, players):
    """Random bots: the same games, decision for decision; the default bots (standard): the
    kernel's decisions replayed through the reference give the same records."""
    rules = RULES[order]
    out = D.run_chunk(rules, players, 0, 8, 31, debug=True, trace_decisions=True)
    assert not out["error"].any(), np.unique(out["error"])
    for g in range(8):
        rec = REF.play_game(rules, players, 31, g, debug=True)
        _same(out, g, rec, players)
        assert out["trace"][g] == [(n, c) for _, n, c in rec.decisions], f"game {g} trace"
    _, rows = S.resolve(["standard"], players)
    out = D.run_chunk(rules, players, 0, 12, 32, rows, debug=True, trace_decisions=True)
    assert not out["error"].any(), np.unique(out["error"])
    for g in range(12):
        replay = REF.ReplayStrategy(out["trace"][g], consume_draw=True)
        _same(out, g, REF.play_game(rules, players, 32, g, strategies=[replay] * players,
                                    debug=True), players)
        assert replay.pos == len(out["trace"][g])


@pytest.mark.parametrize("order", ["simultaneous", "rotating"])
def test_a_search_bot_stopping_inside_the_payment_resumes_it_as_the_reference_plays_it(order):
    """The search bot stops the turn at each of its payments (the resumable phase, with what the
    earlier Censitaires paid held aside under "simultaneous") and goes on: replayed, the same games."""
    rules = RULES[order]
    _, rows = S.resolve(["search4", "fair-share", "search4"], 3)
    out = D.run_chunk(rules, 3, 0, 3, 21, rows, debug=True, trace_decisions=True)
    assert not out["error"].any()
    for g in range(3):
        replay = REF.ReplayStrategy(out["trace"][g], consume_draw=True)
        _same(out, g, REF.play_game(rules, 3, 21, g, strategies=[replay] * 3, debug=True), 3)
        assert replay.pos == len(out["trace"][g])
