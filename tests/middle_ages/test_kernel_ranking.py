"""MA-9 in the kernel, on hand-built end positions: coins, then the rules' tie-break order, then a
shared win (competition ranking). The kernel-against-reference replays rarely meet equal coins, so
a kernel that ignored ``scoring.tie_break`` would pass them; these positions are worked by hand.
"""

from __future__ import annotations

import numpy as np

from simcore.games.middle_ages import driver as D, layout as L
from simcore.games.middle_ages import rules as R

CH, MO, VI, RE, MA, CA, EG, PA = range(8)


def _rank(rules, coins, tiles):
    """The kernel's MA-9 ranks and win shares of one finished game (``write_outputs``)."""
    P = len(coins)
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    D.load_block(ws, sc, D.pack_rules(rules), D.random_strategies(P), P)
    for p in range(P):
        ws[L.W_PL + p * L.PLS + L.X_COINS] = coins[p]
        for t, n in tiles[p].items():
            ws[L.W_FN + p * 8 + t] = n
    out_i16 = np.zeros((len(D.PLAYER_COLS), P), np.int16)
    out_win = np.zeros(P, np.float32)
    D.write_outputs(ws, np.int64(P), np.int64(0), out_i16, out_win, np.zeros((4, 1), np.int8),
                    np.zeros((2, 1), np.int16))
    return out_i16[D.C_RANK].tolist(), out_win.tolist()


# seats 0 and 1 tie on coins; seat 0 has more Palais, seat 1 more Église and more Champs
TIED = [{PA: 2, CH: 1}, {PA: 1, EG: 5, CH: 3}, {PA: 4}]


def test_MA9_equal_coins_most_palais_first_in_the_kernel():
    """MA-9 (book: 'le joueur ayant le plus de Palais l'emporte'): 20, 20, 19 coins; seat 0 has
    2 Palais against 1, so it wins although seat 1 has 5 Église; seat 2's 4 Palais do not beat
    coins."""
    assert _rank(R.load(), [20, 20, 19], TIED) == ([1, 2, 3], [1.0, 0.0, 0.0])


def test_MA9_the_kernel_follows_the_tie_break_setting():
    """MA-9 setting ``scoring.tie_break``: with Champs compared first, seat 1 (3 Champs against 1)
    wins the same tie."""
    rules = R.variant(('tie_break = ["palais", "eglise", "caserne", "marche", "rempart", "village", "moulin", "champs"]',
                       'tie_break = ["champs", "moulin", "village", "rempart", "marche", "caserne", "eglise", "palais"]'))
    assert _rank(rules, [20, 20, 19], TIED) == ([2, 1, 3], [0.0, 1.0, 0.0])


def test_MA9_full_tie_shares_the_win_and_the_rank_in_the_kernel():
    """MA-9 / MA-12: equal coins and equal tiles of every type: a shared win (1/2 each) and ranks
    1, 1, 3."""
    same = {PA: 1, EG: 2, MO: 3}
    assert _rank(R.load(), [30, 30, 12], [same, dict(same), {PA: 7}]) == ([1, 1, 3], [0.5, 0.5, 0.0])
