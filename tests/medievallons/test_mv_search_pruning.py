"""The flat search's early drop of beaten options (simcore/games/medievallons/search.py): at
positions of real games, the choice equals the one every playout of every option gives (the
contract's ``playout`` hook, called here one playout at a time, and ``simcore.search.best_mean``),
and the drop does save playouts. Horizon 0 (results 0, 1/k or 1) and horizon 4 (a standing in
[0, 1]) both; decisions identical to the full search is what keeps the reference replay and the
balance figures unchanged (bench_kernel_ab.py --with-search checks the same on whole games)."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.search import MAX_OPTIONS, best_mean, play_key, rows_play_policy, world_key

BOTS = """
[end16]
kind = "search"
playouts = 16
policy = "balanced"
horizon = 0

[h4x16]
kind = "search"
playouts = 16
policy = "balanced"
horizon = 4
"""


@pytest.fixture(scope="module")
def bots_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("prune") / "bots.toml"
    p.write_text(BOTS)
    return str(p)


def _positions(rows, P, seeds, turns):
    """(st, ws, fs) at the searching seat 0's action, after ``turns`` of its turns played by
    option 0, for each seed (games that ended before are skipped)."""
    from simcore.games.medievallons import driver as D, kernel as K, layout as L, rules as R
    from simcore.rng import stream_state
    out = []
    for seed in seeds:
        ws, fs = D.new_workspace(R.load(), rows)
        st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
        K.setup_game(st, ws, P)
        ws[L.G_STOP], ws[L.G_FORCED], ws[L.G_LIMIT] = 1, -1, 1 << 40
        ok = True
        for k in range(turns + 1):
            if K.play_turns(st, ws, fs, P, False) != 1:
                ok = False
                break
            if k < turns:
                ws[L.G_FORCED] = 0
        if ok and ws[L.G_NOPT] > 1:
            out.append((st.copy(), ws.copy(), fs.copy()))
    return out


@pytest.mark.parametrize("bot, depth", [("end16", 0), ("h4x16", 4)])
def test_flat_search_drops_only_options_that_cannot_be_chosen(bots_file, bot, depth):
    from simcore.games.medievallons import layout as L
    from simcore.games.medievallons.search import playout, search_choice
    from simcore.rng import next_u64
    from strategies import medievallons as S
    P = 4
    _, rows = S.resolve([f"{bots_file}:{bot}"] + ["balanced"] * (P - 1), P)
    positions = _positions(rows, P, seeds=range(12), turns=5)
    assert len(positions) >= 8
    saved = 0
    for st, ws, fs in positions:
        n = int(ws[L.G_NOPT])
        stats = np.zeros(2 * MAX_OPTIONS)
        choice = search_choice(st.copy(), ws.copy(), np.zeros_like(ws), fs.copy(),
                               np.zeros(1, np.uint64), stats, P)
        spent = int(stats[MAX_OPTIONS:MAX_OPTIONS + n].sum())
        # every playout of every option, as the search without the drop plays them
        base = np.uint64(next_u64(st.copy()))
        policy = fs.copy()
        rows_play_policy(policy, L.F_STRAT, P, L.N_STRAT_COLS, L.S_KIND, L.S_SEARCH,
                         L.STRAT_SEARCH, False)
        full = np.zeros(2 * MAX_OPTIONS)
        sc, st2 = np.zeros_like(ws), np.zeros(1, np.uint64)
        for r in range(16):
            for j in range(n):
                v = playout(ws.copy(), sc, policy, st2, P, 0, j, np.uint64(world_key(base, r)),
                            np.uint64(play_key(base, j, r)), depth)
                assert 0.0 <= v <= 1.0      # the drop's bound relies on it
                full[j] += v
                full[MAX_OPTIONS + j] += 1
        assert choice == best_mean(full, n), f"{bot}: the drop changed the choice"
        assert spent <= 16 * n
        saved += 16 * n - spent
    assert saved > 0, "no playout was saved: the drop never happened"
