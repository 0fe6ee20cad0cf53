"""Per-seat compensation: Middle-Ages setup.start_coins (MA-1) and Médiévallons setup.hand_size
(MV-2) as lists, kernel = reference game by game; a single number keeps meaning every seat."""

from __future__ import annotations

import numpy as np

from simcore.games.medievallons import driver as MVD, reference as MVREF, rules as MV
from simcore.games.middle_ages import driver as D, reference as REF, rules as R


def test_middle_ages_start_coins_per_seat_kernel_equals_reference():
    rules = R.variant(("start_coins = 0 ", "start_coins = [3, 0, 7, 1, 2] "))
    for P in (2, 4, 5):
        out = D.run_chunk(rules, P, 500, 25, 99, debug=True)     # debug: the coin ledger holds
        assert not out["error"].any()
        for g in range(25):
            rec = REF.play_game(rules, P, 99, 500 + g)
            np.testing.assert_array_equal(out["score"][g * P:(g + 1) * P], rec.score)
            np.testing.assert_array_equal(out["coins_before_event"][g * P:(g + 1) * P],
                                          rec.coins_before_event)


def test_middle_ages_start_coins_reach_the_seat_that_was_given_them():
    """The reference's state at set-up holds each seat's own start coins (MA-1)."""
    rules = R.variant(("start_coins = 0 ", "start_coins = [0, 0, 7, 0] "))
    st = REF.GameState(rules, 4)
    assert st.coins == [0, 0, 7, 0]


def test_middle_ages_scalar_start_coins_is_every_seat():
    a = R.variant(("start_coins = 0 ", "start_coins = 2 "))
    b = R.variant(("start_coins = 0 ", "start_coins = [2, 2, 2, 2] "))
    oa = D.run_chunk(a, 4, 0, 200, 5)
    ob = D.run_chunk(b, 4, 0, 200, 5)
    for k in ("score", "win_share", "rank", "event_gain"):
        np.testing.assert_array_equal(oa[k], ob[k])


def test_medievallons_hand_size_per_seat_kernel_equals_reference():
    text = MV.default_rules_path().read_text(encoding="utf-8")
    assert "hand_size = 6 " in text
    rules = MV.loads(text.replace("hand_size = 6 ", "hand_size = [5, 6, 8] "))
    assert [rules.hand(s) for s in range(3)] == [5, 6, 8]
    out = MVD.run_chunk(rules, 3, 0, 30, 11, debug=True)
    assert not out["error"].any()
    for g in range(30):
        rec = MVREF.play_game(rules, 3, 11, g)
        np.testing.assert_array_equal(out["score"][3 * g:3 * g + 3], rec.score)
        np.testing.assert_array_equal(out["hand"][3 * g:3 * g + 3], rec.hand)
    st = MVREF.setup_game(rules, 3, MVREF.PyStream(11, 0))
    assert [sum(h) for h in st.hands] == [5, 6, 8]
