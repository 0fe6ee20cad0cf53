"""The kernel's compiled variants: line-ups that weigh neither events nor denial are played by
``driver.play_games`` (``play_games_4p`` for 4 players), whose machine code never contains the
events-and-denial heuristic (``bots.decide_heuristic_full``: a third of a cold compile), and the
variants decide alike (the 4-player entries, compiled with the count a constant, too).

Why it matters: the cold first run compiles only what the line-up needs (docs/cluster.md). The
code is read from the compiled (or cached) library of each entry point, so the check holds whether
this process compiled the kernel or loaded it from Numba's cache.
"""

from __future__ import annotations

import pytest
import numpy as np

from simcore.games.middle_ages import driver as D, layout
from simcore.games.middle_ages import rules as R
from strategies.middle_ages import resolve

RULES = R.load()
RK = D.pack_rules(RULES)


def _play(entry, rows, n=300, seed=8, n_rot=1):
    """``entry`` (a block function of the driver) on n games of 4 players; its outputs."""
    P = rows.shape[0]
    out_i16 = np.zeros((len(D.PLAYER_COLS), n * P), np.int16)
    out_win = np.zeros(n * P, np.float32)
    out_events = np.zeros((4, n), np.int8)
    out_game = np.zeros((2, n), np.int16)
    trace = np.zeros((n, 2 * layout.MAX_TRACE), np.int16)
    entry(0, n, np.int64(0), np.uint64(seed), np.int64(P), RK, rows, np.int64(n_rot), False, out_i16,
          out_win, out_events, out_game, trace)
    return out_i16, out_win, out_events, out_game, trace


def _machine_code_names(entry) -> str:
    """The LLVM module each compiled signature of ``entry`` keeps for linking (Numba's
    ``inspect_llvm`` is disabled for code loaded from the cache; this module is there either way)."""
    return "\n".join(str(cres.library._shared_module) for cres in entry.overloads.values())


def test_plain_heuristic_line_ups_compile_without_the_events_and_denial_heuristic():
    for P, entry in ((4, D.play_games_4p), (3, D.play_games)):
        _, rows = resolve(["balanced"] * P, P)
        D.run_chunk(RULES, P, 0, 10, 1, rows)               # compiles or loads the entry
        assert "decide_heuristic_full" not in _machine_code_names(entry), P
        assert "decide_heuristic" in _machine_code_names(entry), P


@pytest.mark.slow   # compiles an entry point of its own in a clean clone (6 s of CPU): make test-slow
def test_the_four_player_entries_play_as_the_entries_for_any_count():
    """``play_games_4p`` and ``play_games_full_4p`` (the player count a compile-time constant)
    play every game exactly as the entries compiled for any count, record for record, decision
    for decision, with or without seat rotation."""
    for lineup, general, four in ((["balanced", "random", "greedy", "balanced"], D.play_games,
                                   D.play_games_4p),
                                  (["eventwise", "balanced", "balanced", "random"], D.play_games_full,
                                   D.play_games_full_4p)):
        _, rows = resolve(lineup, 4)
        for n_rot in (1, 4):
            for a, b in zip(_play(general, rows, n=200, seed=5, n_rot=n_rot),
                            _play(four, rows, n=200, seed=5, n_rot=n_rot)):
                np.testing.assert_array_equal(a, b)


def test_a_seat_that_weighs_events_is_played_by_the_full_variant_and_both_variants_decide_alike():
    _, plain = resolve(["balanced", "greedy", "random", "balanced"], 4)
    assert not np.any(plain[:, layout.S_EVENTS]) and not np.any(plain[:, layout.S_DENIAL])
    for a, b in zip(_play(D.play_games, plain), _play(D.play_games_full, plain)):
        np.testing.assert_array_equal(a, b)
    _, weighs = resolve(["eventwise", "balanced", "balanced", "balanced"], 4)
    assert np.any(weighs[:, layout.S_EVENTS] != 0) or np.any(weighs[:, layout.S_DENIAL] != 0)
    full = D.run_chunk(RULES, 4, 0, 200, 3, weighs, trace_decisions=True)
    assert "decide_heuristic_full" in _machine_code_names(D.play_games_full_4p)
    by_full_entry = _play(D.play_games_full, weighs, n=200, seed=3)
    np.testing.assert_array_equal(by_full_entry[0][D.PLAYER_COLS.index("score")], full["score"])
