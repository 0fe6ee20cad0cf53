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


def _to_first_payment(order: str, seed: int):
    """A game (Censitaires 1 and 2 searching) driven to Censitaire 1's first payment decision;
    every earlier stop takes its first option (no search: cheap)."""
    _, rows = S.resolve(["even-lord", "search2", "search2", "fair-share"], P)
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


def test_the_world_of_a_simultaneous_payment_replays_the_earlier_payer_and_keeps_the_seats_cards():
    """The world dealt for Censitaire 2 (after it paid one card) against the real position where
    Censitaire 1 paid: every card is where one card can be (the kernel's invariants), Censitaire 2's
    hand, its own card paid and what it has given are as they are, and Censitaire 1 holds as many
    cards of each type as before it paid (what it paid in the world is the world's own)."""
    from simcore.games.seigneurial.search import W_WORLD, deal_world
    positions, fs = _payments(2, 1)
    ws = positions[-1][0]
    c1, c2 = L.W_PL + L.PLS, L.W_PL + 2 * L.PLS
    assert ws[c1 + L.X_GIVEN] > 0 and ws[c2 + L.X_GIVEN] > 0
    sc = np.zeros_like(ws)
    for r in range(4):
        deal_world(ws, sc, fs, np.zeros(1, np.uint64), P, 2, np.uint64(r))
        w = sc[W_WORLD:W_WORLD + L.W_TRACE].copy()
        K.check_invariants(w, P)
        assert w[L.G_ERROR] == 0, L.ERROR_TEXT.get(int(w[L.G_ERROR]))
        hand2 = slice(L.W_HAND + 2 * L.HS, L.W_HAND + 3 * L.HS)
        np.testing.assert_array_equal(w[hand2], ws[hand2])
        for f in (L.X_GIVEN, L.X_PAID, L.X_HANDN):
            assert w[c2 + f] == ws[c2 + f]
        recv = slice(L.W_RECV_CARDS, L.W_RECV_CARDS + L.HS)
        np.testing.assert_array_equal(w[recv], ws[recv])          # Censitaire 2's own cards
        np.testing.assert_array_equal(w[L.G_RECV:L.G_RECV + 3], ws[L.G_RECV:L.G_RECV + 3])
        for t in range(3):
            assert (w[c1 + L.X_NT + t] + w[c1 + L.X_GIVEN_NT + t]
                    == ws[c1 + L.X_NT + t] + ws[c1 + L.X_GIVEN_NT + t])
        held = w[L.W_PAY_HELD_CARDS:L.W_PAY_HELD_CARDS + L.HS]
        assert sum(held[t * 8:(t + 1) * 8].sum() for t in range(3)) == w[c1 + L.X_GIVEN_NT:
                                                                          c1 + L.X_GIVEN_NT + 3].sum()
        assert w[c1 + L.X_GIVEN] == sum((np.arange(24) % 8) * held)
        assert w[L.G_PAY_HELD:L.G_PAY_HELD + 3].sum() == w[c1 + L.X_GIVEN]
        assert w[L.G_NRECV] == held.sum() + ws[c2 + L.X_GIVEN_NT:c2 + L.X_GIVEN_NT + 3].sum()


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
