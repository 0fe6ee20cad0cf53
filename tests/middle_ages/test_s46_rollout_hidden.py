"""The ``rollout`` bot does not see the order of the face-down tiles (MA-7; review s46, export
review #1): it copied the whole position, the true order of the draw pile and the orange stack
included, and played out from it, so reordering only the tiles no player can see changed 248 of
900 of its moves (the search bot, which re-deals them, none of 300). Each of its playouts now
re-deals them first (simcore.games.middle_ages.search.redeal, the search's own hook), so its
choice at a position does not depend on that order."""

from __future__ import annotations

import numpy as np
import pytest
from numpy import uint64


def _rollout_stops(seed: int, stops: int = 4):
    """Positions where seat 0, a rollout bot, must choose a Lord move (after turn 2)."""
    from simcore.games.middle_ages import driver as D, kernel as K, layout as L, rules as R
    from strategies import middle_ages as S

    _, rows = S.resolve(["rollout", "balanced", "balanced", "balanced"], 4)
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    D.load_block(ws, sc, D.pack_rules(R.load()), rows, 4)
    D.start_game(ws, seed, uint64(3), 1)
    # ``full = None``, as play_games passes it for balanced bots (the specialisation the warm-up has
    # cached; a Python True compiles the rules of play again): the positions are what is needed here
    K.setup_game(ws, 4, None)
    found = []
    forced = -1
    while K.advance(ws, 4, True, forced, None) == 1:
        if ws[L.G_TURN] >= 2 and ws[L.G_NOPT] >= 2:
            found.append((ws.copy(), sc.copy()))
            if len(found) == stops:
                break
        forced = 0
    return found


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_rollout_choices_do_not_depend_on_the_order_of_unseen_tiles(seed):
    from simcore.games.middle_ages import driver as D, layout as L

    stops = _rollout_stops(seed)
    assert stops, "no rollout decision with two moves or more"
    for ws, sc in stops:
        pos, end = ws[L.G_PILE_POS], ws[L.G_PILE_LEN]
        assert end - pos > 2
        other = ws.copy()
        other[L.W_PILE + pos:L.W_PILE + end] = ws[L.W_PILE + pos:L.W_PILE + end][::-1]
        n = ws[L.G_ORANGE_LEFT]
        other[L.W_ORANGE:L.W_ORANGE + n] = ws[L.W_ORANGE:L.W_ORANGE + n][::-1]
        chosen = [D.rollout_choice(w.copy(), sc.copy(), 4) for w in (ws, other)]
        assert chosen[0] == chosen[1], (seed, chosen)
