"""Médiévallons's 4-player entry points (``driver.play_games_4p``, ``play_games_searching_4p``:
the player count a compile-time constant) play every game exactly as the entries compiled for any
count: the same records and the same decisions, with and without seat rotation, for the usual
bots and for a searching seat (whose playouts run the rules of play compiled for 4 players)."""

from __future__ import annotations

import numpy as np

from simcore.games.medievallons import driver as D
from simcore.games.medievallons import rules as R
from simcore.games.medievallons.layout import MAX_TRACE
from strategies.medievallons import resolve

RULES = R.load()
RK = D.pack_rules(RULES)


def _play(entry, rows, n, seed, n_rot):
    P = rows.shape[0]
    out_i16 = np.zeros((n * P, D.N_PLAYER_COLS), np.int16)
    out_win = np.zeros(n * P, np.float32)
    out_game = np.zeros((n, 4), np.int16)
    trace = np.full((n, 2 * MAX_TRACE), -1, np.int16)
    entry(0, n, np.int64(0), np.uint64(seed), np.int64(P), RK, rows, np.int64(n_rot), False, out_i16,
          out_win, out_game, trace)
    return out_i16, out_win, out_game, trace


def test_the_four_player_entries_play_as_the_entries_for_any_count():
    for lineup, general, four, n in ((["balanced", "random", "collector", "saboteur"], D.play_games,
                                      D.play_games_4p, 200),
                                     (["search16", "balanced", "balanced", "balanced"],
                                      D.play_games_searching, D.play_games_searching_4p, 3)):
        _, rows = resolve(lineup, 4)
        rows = np.ascontiguousarray(rows, np.float64)
        for n_rot in (1, 4):
            for a, b in zip(_play(general, rows, n, 11, n_rot), _play(four, rows, n, 11, n_rot)):
                np.testing.assert_array_equal(a, b)


def test_four_players_go_through_the_four_player_entries():
    _, rows = resolve(["balanced"] * 4, 4)
    _, searching = resolve(["search16", "balanced", "balanced", "balanced"], 4)
    assert D.entry_point(np.asarray(rows, np.float64), 4) is D.play_games_4p
    assert D.entry_point(np.asarray(searching, np.float64), 4) is D.play_games_searching_4p
    _, three = resolve(["balanced"] * 3, 3)
    assert D.entry_point(np.asarray(three, np.float64), 3) is D.play_games


def test_the_four_player_turn_is_the_turn_loop_with_its_helpers_inlined():
    """``kernel.play_turns_4p`` (what 4-player entries run: ``kernel.play_turns`` chooses it for the
    constant count) is the turn loop of ``play_turns_any`` compiled with the action, the power it
    resolves and the option lists inlined: the same code, other callees; the loop for any count
    keeps calling the module's helpers."""
    from simcore.games.medievallons import kernel as K

    def code(disp):
        return disp.py_func.__code__.co_code

    for variant, original, swapped in (
            (K.play_turns_4p, K.play_turns_any, {"do_action": K.do_action_inlined,
                                                  "list_actions": K.list_actions_inlined}),
            (K.do_action_inlined, K.do_action, {"resolve_power": K.resolve_power_inlined}),
            (K.resolve_power_inlined, K.resolve_power,
             {"list_guild_cards": K.list_guild_cards_inlined})):
        assert code(variant) == code(original)
        for name, callee in swapped.items():
            assert variant.py_func.__globals__[name] is callee
            assert original.py_func.__globals__[name] is getattr(K, name)
            assert callee.targetoptions.get("inline") == "always"
            assert getattr(K, name).targetoptions.get("inline") != "always"
