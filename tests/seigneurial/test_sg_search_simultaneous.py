"""The search bot paying under ``payment.order = "simultaneous"`` (SG-5.4 [assumption]; issue #25
item 2): a searching Censitaire chooses its payment from the position before anyone paid this
turn, so what the Censitaires before it paid is hidden information to it. Two positions that
differ only in what the Censitaire before it paid this turn must leave its search -- the option
it picks and the statistics of every option -- unchanged, at its first card and after it paid a
card of its own (which it knows, and which stays paid in its playouts).

Positions are made by the kernel itself: Censitaires 1 and 2 search, so the turn stops at each of
their payment decisions; from the stop at Censitaire 1's first payment, Censitaire 1 is made to
pay nothing in one position and one card (or two) in the other, and the turn goes on to
Censitaire 2's payment. Cheap settings (search2, horizon 1: playouts end with the turn).

Two earlier payers: Censitaire 3 of 4 players searches after Censitaires 1 and 2 (all three
searching, so the turn stops at each payment) each paid nothing, one card or two, varied
independently; its world must undo both payments (``unpay_earlier``) and replay both in seat order
(``pay_earlier``): its search is the same in all nine positions, and the world's replayed payments
are the kernel's own simultaneous payment from the undone, re-dealt world.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.seigneurial import driver as D
from simcore.games.seigneurial import kernel as K
from simcore.games.seigneurial import layout as L
from simcore.games.seigneurial import rules as R
from simcore.games.seigneurial.search import search_choice
from simcore.rng import stream_state
from simcore.search import MAX_OPTIONS
from strategies import seigneurial as S

TEXT = R.default_rules_path().read_text(encoding="utf-8")
P = 4


def rules_with(order: str) -> R.RulesArrays:
    assert 'order = "seat"' in TEXT
    return R.loads(TEXT.replace('order = "seat"', f'order = "{order}"'))


def _to_first_payment(order: str, seed: int,
                      lineup=("even-lord", "search2", "search2", "fair-share")):
    """A game (Censitaires 1 and 2 searching, or the ``lineup`` given) driven to Censitaire 1's
    first payment decision; every earlier stop takes its first option (no search: cheap)."""
    _, rows = S.resolve(list(lineup), P)
    ws, fs = D.new_workspace(rules_with(order), rows, P)
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    K.setup_game(st, ws, P)
    ws[L.G_STOP] = 1
    while K.play_turns(st, ws, fs, P, True) == 1:
        if ws[L.G_PHASE] == L.PH_PAY and ws[L.G_DECIDER] == 1 and ws[L.G_TURN] >= 2:
            return ws, fs, st
        ws[L.G_FORCED] = 0
    raise AssertionError(f"seed {seed}: the game ended before a payment of Censitaire 1")


def _search(ws, fs, st):
    """The searching seat's choice at the stop ``ws`` and every option's statistics."""
    stats = np.zeros(2 * MAX_OPTIONS)
    w = ws.copy()
    j = search_choice(st.copy(), w, np.zeros_like(ws), fs.copy(), np.zeros(1, np.uint64), stats, P)
    assert w[L.G_ERROR] == 0
    return j, stats


def _stop_at(ws, fs, st):
    """Play on to the next stop (``ws`` is at a stop whose option has been forced)."""
    ws, st = ws.copy(), st.copy()
    assert K.play_turns(st, ws, fs, P, True) == 1
    return ws, st


def _payments(seed: int, own: int):
    """Censitaire 2's payment decision (under "simultaneous") in positions where Censitaire 1 paid
    nothing, its first listed card, or its first two; with ``own`` cards already paid by
    Censitaire 2 itself (the same in each). No draw is spent between: one game stream for all."""
    ws, fs, st = _to_first_payment("simultaneous", seed)
    out = []
    for first in ([0], [1, 0], [1, 1, 0]):
        w = ws.copy()
        s = st.copy()
        for j in first:                                  # Censitaire 1's payment, forced
            if not (w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == 1):
                break
            w[L.G_FORCED] = j
            w, s = _stop_at(w, fs, s)
        for _ in range(own):                             # Censitaire 2's own first card(s)
            assert w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == 2
            w[L.G_FORCED] = 1
            w, s = _stop_at(w, fs, s)
        if w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == 2:
            out.append((w, s))
    assert len(out) >= 2, f"seed {seed}: Censitaire 2 holds too few cards here"
    assert all(s[0] == out[0][1][0] for _, s in out)
    return out, fs


@pytest.mark.parametrize("seed, own", [(1, 0), (2, 1)])
def test_a_searching_censitaire_does_not_see_what_the_one_before_it_paid(seed, own):
    """Under "simultaneous", Censitaire 2's search (its choice and every option's statistics) is
    the same whether Censitaire 1 paid nothing or paid cards this turn -- at its first card
    (seed 1) and after paying one card of its own (seed 2)."""
    positions, fs = _payments(seed, own)
    given = [int(w[L.W_PL + L.PLS + L.X_GIVEN]) for w, _ in positions]
    assert given[0] == 0 and max(given) > 0        # the positions differ in Censitaire 1's payment
    if own:
        mine = {int(w[L.W_PL + 2 * L.PLS + L.X_GIVEN]) for w, _ in positions}
        assert len(mine) == 1 and mine != {0}     # and not in Censitaire 2's own
    st = positions[0][1]                           # the same game stream for every position
    results = [_search(w, fs, st) for w, _ in positions]
    for j, stats in results[1:]:
        assert j == results[0][0]
        np.testing.assert_array_equal(stats, results[0][1])


def _world_checked(ws, sc, fs, seat: int, payer_seats: tuple[int, ...], r: int) -> np.ndarray:
    """The world ``deal_world`` deals for the searching Censitaire ``seat`` (world ``r``) against
    the real position ``ws`` where the Censitaires ``payer_seats`` paid before it, after the checks
    every such world must pass: every card where one card can be (the kernel's invariants); the
    searcher's hand, its own cards paid and what it has given as they are; each earlier payer
    holding as many cards of each type as before it paid (what it pays in the world is the
    world's own); the held cards, their value and the cards received adding up to the payments."""
    from simcore.games.seigneurial.search import W_WORLD, deal_world

    deal_world(ws, sc, fs, np.zeros(1, np.uint64), P, seat, np.uint64(r))
    w = sc[W_WORLD:W_WORLD + L.W_TRACE].copy()
    K.check_invariants(w, P)
    assert w[L.G_ERROR] == 0, L.ERROR_TEXT.get(int(w[L.G_ERROR]))
    me = L.W_PL + seat * L.PLS
    hand = slice(L.W_HAND + seat * L.HS, L.W_HAND + (seat + 1) * L.HS)
    np.testing.assert_array_equal(w[hand], ws[hand])
    for f in (L.X_GIVEN, L.X_PAID, L.X_HANDN):
        assert w[me + f] == ws[me + f]
    recv = slice(L.W_RECV_CARDS, L.W_RECV_CARDS + L.HS)
    np.testing.assert_array_equal(w[recv], ws[recv])          # the searcher's own cards
    np.testing.assert_array_equal(w[L.G_RECV:L.G_RECV + 3], ws[L.G_RECV:L.G_RECV + 3])
    payers = [L.W_PL + q * L.PLS for q in payer_seats]
    for b in payers:
        for t in range(3):
            assert (w[b + L.X_NT + t] + w[b + L.X_GIVEN_NT + t]
                    == ws[b + L.X_NT + t] + ws[b + L.X_GIVEN_NT + t])
    held = w[L.W_PAY_HELD_CARDS:L.W_PAY_HELD_CARDS + L.HS]
    assert held.sum() == sum(w[b + L.X_GIVEN_NT:b + L.X_GIVEN_NT + 3].sum() for b in payers)
    assert sum((np.arange(24) % 8) * held) == sum(w[b + L.X_GIVEN] for b in payers)
    assert w[L.G_PAY_HELD:L.G_PAY_HELD + 3].sum() == sum(w[b + L.X_GIVEN] for b in payers)
    assert w[L.G_NRECV] == held.sum() + ws[me + L.X_GIVEN_NT:me + L.X_GIVEN_NT + 3].sum()
    return w


def test_the_world_of_a_simultaneous_payment_replays_the_earlier_payer_and_keeps_the_seats_cards():
    """The world dealt for Censitaire 2 (after it paid one card) against the real position where
    Censitaire 1 paid: every card is where one card can be (the kernel's invariants), Censitaire 2's
    hand, its own card paid and what it has given are as they are, and Censitaire 1 holds as many
    cards of each type as before it paid (what it paid in the world is the world's own)."""
    positions, fs = _payments(2, 1)
    ws = positions[-1][0]
    c1, c2 = L.W_PL + L.PLS, L.W_PL + 2 * L.PLS
    assert ws[c1 + L.X_GIVEN] > 0 and ws[c2 + L.X_GIVEN] > 0
    sc = np.zeros_like(ws)
    for r in range(4):
        _world_checked(ws, sc, fs, 2, (1,), r)


def test_a_simultaneous_search_run_is_the_same_for_any_chunk_size():
    """The worlds' earlier payments draw from each world's own stream: a run with a searching
    Censitaire in the last seat under "simultaneous" is the same whole or in two chunks."""
    _, rows = S.resolve(["even-lord", "fair-share", "objective", "search2"], P)
    rules = rules_with("simultaneous")
    whole = D.run_chunk(rules, P, 0, 6, 5, rows, debug=True)
    parts = [D.run_chunk(rules, P, f, 3, 5, rows, debug=True) for f in (0, 3)]
    assert not whole["error"].any()
    for k in ("win_share", "score", "paid", "turns"):
        np.testing.assert_array_equal(whole[k], np.concatenate([p[k] for p in parts]))


# Two earlier payers: Censitaire 3 of 4 players searches after Censitaires 1 and 2 paid; its world
# must undo both payments (unpay_earlier) and replay both, in seat order (pay_earlier).
ALL_SEARCH = ("even-lord", "search2", "search2", "search2")
C3 = L.W_PL + 3 * L.PLS


def _force_payment(w, s, fs, p, cards):
    """Censitaire p, stopped at its payment, pays its first listed card ``cards`` times (fewer if
    its hand runs out first), then stops if it still holds cards: the position at the next stop."""
    for _ in range(cards):
        if not (w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == p):
            return w, s
        w[L.G_FORCED] = 1
        w, s = _stop_at(w, fs, s)
    if w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == p:
        w[L.G_FORCED] = 0                                 # OPT_STOP
        w, s = _stop_at(w, fs, s)
    return w, s


def _two_earlier_payments(seed: int, own: int):
    """Censitaire 3's payment decision (under "simultaneous"), after Censitaires 1 and 2 each paid
    0, 1 or 2 cards (every combination their hands allow; duplicates dropped) and Censitaire 3
    itself paid ``own`` cards (the same in each). Keyed by (Censitaire 1's, Censitaire 2's) number
    of cards given. No draw is spent between: one game stream for all."""
    ws, fs, st = _to_first_payment("simultaneous", seed, ALL_SEARCH)
    c1, c2 = L.W_PL + L.PLS, L.W_PL + 2 * L.PLS
    out = {}
    for k1 in range(3):
        for k2 in range(3):
            w, s = _force_payment(ws.copy(), st.copy(), fs, 1, k1)
            w, s = _force_payment(w, s, fs, 2, k2)
            for _ in range(own):                          # Censitaire 3's own first card(s)
                assert w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == 3
                w[L.G_FORCED] = 1
                w, s = _stop_at(w, fs, s)
            if not (w[L.G_PHASE] == L.PH_PAY and w[L.G_DECIDER] == 3):
                continue
            key = (int(w[c1 + L.X_GIVEN_NT:c1 + L.X_GIVEN_NT + 3].sum()),
                   int(w[c2 + L.X_GIVEN_NT:c2 + L.X_GIVEN_NT + 3].sum()))
            out.setdefault(key, (w, s))
    assert all(s[0] == st[0] for _, s in out.values())
    return out, fs


@pytest.mark.parametrize("seed, own", [(1, 0), (3, 1)])
def test_a_searching_censitaire_does_not_see_what_the_two_before_it_paid(seed, own):
    """Under "simultaneous", Censitaire 3's search (its choice and every option's statistics) is
    the same whatever Censitaires 1 and 2 paid this turn -- each nothing, one card or two, varied
    independently (nine positions) -- at its first card (seed 1) and after paying one card of its
    own (seed 3)."""
    positions, fs = _two_earlier_payments(seed, own)
    assert set(positions) == {(k1, k2) for k1 in range(3) for k2 in range(3)}
    given = {k: (int(w[L.W_PL + L.PLS + L.X_GIVEN]), int(w[L.W_PL + 2 * L.PLS + L.X_GIVEN]))
             for k, (w, _) in positions.items()}
    assert given[(0, 0)] == (0, 0) and min(min(g) for k, g in given.items() if 0 not in k) > 0
    mine = {int(w[C3 + L.X_GIVEN_NT:C3 + L.X_GIVEN_NT + 3].sum()) for w, _ in positions.values()}
    assert mine == {own}                           # Censitaire 3's own payment the same in each
    w0, st = positions[(0, 0)]                     # the same game stream for every position
    assert w0[L.G_NOPT] >= 2
    j0, stats0 = _search(w0, fs, st)
    assert stats0[:2 * w0[L.G_NOPT]].any()
    for key, (w, _) in positions.items():
        j, stats = _search(w, fs, st)
        assert j == j0, key
        np.testing.assert_array_equal(stats, stats0, err_msg=f"earlier payers gave {key} cards")


@pytest.mark.parametrize("earlier", ["policy", "random"])
def test_the_world_of_censitaire_3_replays_both_earlier_payers_in_seat_order(earlier):
    """The worlds dealt for Censitaire 3 (after it paid one card) where Censitaires 1 and 2 each
    paid two cards: every card is where one card can be (the kernel's invariants); Censitaire 3's
    hand and its own card paid are as they are; Censitaires 1 and 2 each hold, with what they gave
    in the world, as many cards of each type as before they paid, and what both gave is held until
    the last has paid. Their payments in the world are the kernel's own: from the world with both
    payments undone and re-dealt (the seat's own card set aside), :func:`.kernel.payment` under
    "simultaneous" (1, then 2, from the world's stream) leaves Censitaires 1 and 2 exactly as the
    world does -- so both were undone, and both paid again, in seat order. Censitaires 1 and 2
    play their playout policy (as in the search), or are random bots: every one of their choices
    is then a draw, so replaying them out of seat order would show. Over the worlds both pay
    something (the check is not empty)."""
    from simcore.games.seigneurial.search import redeal, unpay_earlier
    from simcore.search import rows_play_policy
    positions, fs = _two_earlier_payments(3, 1)
    ws = positions[(2, 2)][0]
    payers = [L.W_PL + q * L.PLS for q in (1, 2)]
    for b in payers:
        assert ws[b + L.X_GIVEN] > 0
    fs = fs.copy()                                       # the searching seats on their policy
    rows_play_policy(fs, L.F_STRAT, P, L.N_STRAT_COLS, L.S_KIND, L.S_SEARCH, L.KIND_SEARCH, False)
    if earlier == "random":
        for q in (1, 2):
            fs[L.F_STRAT + q * L.N_STRAT_COLS + L.S_KIND] = L.KIND_RANDOM
    gave = np.zeros(2, np.int64)
    sc = np.zeros_like(ws)
    for r in range(6):
        w = _world_checked(ws, sc, fs, 3, (1, 2), r)
        recv = slice(L.W_RECV_CARDS, L.W_RECV_CARDS + L.HS)
        gave += [w[b + L.X_GIVEN] > 0 for b in payers]
        # the kernel's own simultaneous payment from the same undone, re-dealt world
        ref = ws[:L.W_TRACE].copy()
        ref[L.G_TRACE_CAP] = 0
        ref[L.G_TRACE_N] = 0
        ref[L.G_STOP] = 0
        ref[L.G_FORCED] = -1
        st2 = np.array([r], np.uint64)
        unpay_earlier(ref, 3)
        redeal(st2, ref, P, 3)
        ref[L.G_RECV:L.G_RECV + 3] = 0                  # Censitaire 3's own card set aside
        ref[recv] = 0
        ref[L.G_CUR] = 1
        assert K.payment(st2, ref, fs, P) == 0 and ref[L.G_ERROR] == 0
        for q, b in zip((1, 2), payers):
            np.testing.assert_array_equal(w[b:b + L.PLS], ref[b:b + L.PLS], err_msg=f"seat {q}")
            h = slice(L.W_HAND + q * L.HS, L.W_HAND + (q + 1) * L.HS)
            np.testing.assert_array_equal(w[h], ref[h], err_msg=f"seat {q}'s hand")
    assert gave.min() > 0, gave
