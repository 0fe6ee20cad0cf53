"""Search bot speed (issue #25): one searching seat (``search16`` unless ``--bot``) against the
game's default bots at 4 players, per game: games/s of the runner's path (``run_chunk``, seats
rotated), and, from a game loop driven here (the same stops, the game's ``search_choice`` called
with a statistics buffer this script reads), searched decisions per game, options per decision,
playouts per decision, decisions/s and playouts/s, and where a playout's time goes (the copy of
the position and the re-deal, timed alone, against the whole playout).

Run: ``.venv/bin/python benchmarks/bench_search.py [--games 200] [--repeats 3] [--game NAME]``.
Medians of several runs (the machine is shared and noisy); the driven loop and the split are timed
in CPU time (one thread), so another process's load does not inflate them; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np
from numba import njit

from simcore.rng import stream_state
from simcore.search import MAX_OPTIONS, rows_play_policy

GAMES = ("middle-ages", "medievallons", "seigneurial")


# ---------------------------------------------------------------------------------------------
# Game loops driven from here: (decisions, playouts, options, seconds in search_choice) per game
# ---------------------------------------------------------------------------------------------
def _counted(call, stats):
    stats[:] = 0.0           # plan() clears only the decision's own options: no stale counts
    t = time.process_time()      # CPU time (one thread): the shared machine's load drops out
    j = call()
    dt = time.process_time() - t
    spent = stats[MAX_OPTIONS:2 * MAX_OPTIONS].sum()
    n = int((stats[MAX_OPTIONS:2 * MAX_OPTIONS] > 0).sum())
    return j, dt, int(spent), n


def loop_middle_ages(rows, P, games, seed):
    from simcore.games.middle_ages import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.middle_ages.search import search_choice
    from simcore.games.middle_ages.search import policy_rows
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    D.load_block(ws, sc, D.pack_rules(R.load()), rows, P)
    policy_rows(sc, P)
    fs, st2, stats = np.zeros(1), np.zeros(1, np.uint64), np.zeros(2 * MAX_OPTIONS)
    out = []
    for g in range(games):
        D.start_game(ws, g, np.uint64(seed), np.uint64(1))
        K.setup_game(ws, P)
        forced, dec, po, opts, sec = -1, 0, 0, 0, 0.0
        while K.advance(ws, P, True, forced) == 1:
            forced, dt, spent, n = _counted(lambda: search_choice(ws, sc, fs, stats, st2, P), stats)
            if n > 1:
                dec, po, opts, sec = dec + 1, po + spent, opts + n, sec + dt
        out.append((dec, po, opts, sec))
    return out


def loop_medievallons(rows, P, games, seed):
    from simcore.games.medievallons import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.medievallons.search import search_choice
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    fs = np.zeros(L.FS_SIZE, np.float64)
    D.load_block(ws, sc, fs, D.pack_rules(R.load()), rows)
    st, st2, stats = np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(2 * MAX_OPTIONS)
    out = []
    for g in range(games):
        K.reset(ws)
        st[0] = stream_state(np.uint64(seed), np.uint64(g))
        K.setup_game(st, ws, P)
        ws[L.G_STOP], ws[L.G_LIMIT], ws[L.G_FORCED] = 1, 1 << 40, -1
        dec, po, opts, sec = 0, 0, 0, 0.0
        while K.play_turns(st, ws, fs, P, False) == 1:
            j, dt, spent, n = _counted(lambda: search_choice(st, ws, sc, fs, st2, stats, P), stats)
            ws[L.G_FORCED] = j
            if n > 1:
                dec, po, opts, sec = dec + 1, po + spent, opts + n, sec + dt
        out.append((dec, po, opts, sec))
    return out


def loop_seigneurial(rows, P, games, seed, kinds=None):
    from simcore.games.seigneurial import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.seigneurial.search import search_choice
    ws = np.zeros(L.W_TRACE + 2 * L.MAX_TRACE, np.int64)
    sc = np.zeros_like(ws)
    fs = np.zeros(L.FS_SIZE, np.float64)
    D.load_block(ws, fs, D.pack_rules(R.load()), rows)
    sc[:L.W_TRACE] = ws[:L.W_TRACE]
    st, st2, stats = np.zeros(1, np.uint64), np.zeros(1, np.uint64), np.zeros(2 * MAX_OPTIONS)
    out = []
    for g in range(games):
        K.reset(ws)
        st[0] = stream_state(np.uint64(seed), np.uint64(g))
        K.setup_game(st, ws, P)
        ws[L.G_STOP] = 1
        dec, po, opts, sec = 0, 0, 0, 0.0
        while K.play_turns(st, ws, fs, P, False) == 1:
            kind = L.DECISION_NAMES[ws[L.G_KIND]]
            j, dt, spent, n = _counted(lambda: search_choice(st, ws, sc, fs, st2, stats, P), stats)
            ws[L.G_FORCED] = j
            if n > 1:
                dec, po, opts, sec = dec + 1, po + spent, opts + n, sec + dt
                if kinds is not None:
                    kinds[kind] = kinds.get(kind, 0) + 1
        out.append((dec, po, opts, sec))
    return out


# ---------------------------------------------------------------------------------------------
# Where a playout's time goes: k playouts of option 0 at a stop, against k copies + re-deals alone
# ---------------------------------------------------------------------------------------------
def split_middle_ages(rows, P, seed):
    from simcore.games.middle_ages import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.middle_ages.search import policy_rows
    from simcore.games.middle_ages import search as H
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    D.load_block(ws, sc, D.pack_rules(R.load()), rows, P)
    policy_rows(sc, P)
    D.start_game(ws, 0, np.uint64(seed), np.uint64(1))
    K.setup_game(ws, P)
    for _ in range(6):                        # the searching seat's 6th Lord move
        K.advance(ws, P, True, -1 if _ == 0 else 0)

    W_TRACE, G_RNG, playout, redeal = L.W_TRACE, L.G_RNG, H.playout, H.redeal

    @njit
    def whole(ws, sc, k):
        s = 0.0
        fs = np.zeros(1)
        st2 = np.zeros(1, np.uint64)
        for r in range(k):
            s += playout(ws, sc, fs, st2, P, 0, 0, np.uint64(r), np.uint64(r + 7))
        return s

    @njit
    def copy_redeal(ws, sc, k):
        for r in range(k):
            for i in range(W_TRACE):
                sc[i] = ws[i]
            sc.view(np.uint64)[G_RNG] = np.uint64(r)
            redeal(sc)
        return 0.0
    return lambda k: whole(ws, sc, k), lambda k: copy_redeal(ws, sc, k)


def _playouts(playout, P, seat, depth):
    """A jitted loop of ``k`` playouts from one position (Médiévallons, Seigneurial: the playout
    hook takes the policy's float table ``fs``), each on its own stream."""
    @njit
    def whole(ws, sc, fs, k):
        s = 0.0
        st2 = np.zeros(1, np.uint64)
        for r in range(k):
            s += playout(ws, sc, fs, st2, P, seat, 0, np.uint64(r), np.uint64(r + 7), depth)
        return s
    return whole


def split_medievallons(rows, P, seed):
    """At the searching seat's 7th decision of a game it played with its own choices: whole
    playouts (the contract's hook: a world dealt, option 0 played to the end or the horizon)
    against dealing a world alone (copy and re-deal; the search deals each world once per decision
    and copies it for every option)."""
    from simcore.games.medievallons import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.medievallons import search as H
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    fs = np.zeros(L.FS_SIZE, np.float64)
    D.load_block(ws, sc, fs, D.pack_rules(R.load()), rows)
    K.reset(ws)
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    st2, stats = np.zeros(1, np.uint64), np.zeros(2 * MAX_OPTIONS)
    K.setup_game(st, ws, P)
    ws[L.G_STOP], ws[L.G_LIMIT], ws[L.G_FORCED] = 1, 1 << 40, -1
    for _ in range(6):
        assert K.play_turns(st, ws, fs, P, False) == 1
        ws[L.G_FORCED] = H.search_choice(st, ws, sc, fs, st2, stats, P)
    assert K.play_turns(st, ws, fs, P, False) == 1
    depth = int(rows[0, L.S_SEARCH + 2]) // 8
    rows_play_policy(fs, L.F_STRAT, P, L.N_STRAT_COLS, L.S_KIND, L.S_SEARCH, L.STRAT_SEARCH, False)

    playout, deal_world, seat = H.playout, H.deal_world, int(ws[L.G_CUR])

    whole = _playouts(playout, P, seat, depth)

    @njit
    def copy_redeal(ws, sc, k):
        st2 = np.zeros(1, np.uint64)
        for r in range(k):
            deal_world(ws, sc, st2, P, seat, np.uint64(r))
        return 0.0
    return lambda k: whole(ws, sc, fs, k), lambda k: copy_redeal(ws, sc, k)


def split_seigneurial(rows, P, seed):
    from simcore.games.seigneurial import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.seigneurial import search as H
    ws = np.zeros(L.W_TRACE + 2 * L.MAX_TRACE, np.int64)
    sc = np.zeros_like(ws)
    fs = np.zeros(L.FS_SIZE, np.float64)
    D.load_block(ws, fs, D.pack_rules(R.load()), rows)
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    K.setup_game(st, ws, P)
    ws[L.G_STOP] = 1
    K.play_turns(st, ws, fs, P, False)
    seat = int(ws[L.G_DECIDER])
    depth = int(rows[seat, L.S_SEARCH + 2]) // 8
    rows_play_policy(fs, L.F_STRAT, P, L.N_STRAT_COLS, L.S_KIND, L.S_SEARCH, L.KIND_SEARCH, False)

    W_TRACE, playout, redeal = L.W_TRACE, H.playout, H.redeal

    whole = _playouts(playout, P, seat, depth)

    @njit
    def copy_redeal(ws, sc, k):
        st2 = np.zeros(1, np.uint64)
        for r in range(k):
            for i in range(W_TRACE):
                sc[i] = ws[i]
            st2[0] = np.uint64(r)
            redeal(st2, sc, P, seat)
        return 0.0
    return lambda k: whole(ws, sc, fs, k), lambda k: copy_redeal(ws, sc, k)


SPLITS = {"middle-ages": split_middle_ages, "medievallons": split_medievallons,
          "seigneurial": split_seigneurial}


def split(game, rows, k=20000):
    """(µs per whole playout, µs per copy + re-deal) at one stop, median of 3, in CPU time (one
    thread: on a shared machine the wall time counts the other processes' turns too)."""
    whole, copy_redeal = SPLITS[game](rows, 4, 3)
    whole(10)
    copy_redeal(10)
    out = []
    for f in (whole, copy_redeal):
        ts = []
        for _ in range(3):
            t = time.process_time()
            f(k)
            ts.append(time.process_time() - t)
        out.append(statistics.median(ts) / k * 1e6)
    return out


LOOPS = {"middle-ages": loop_middle_ages, "medievallons": loop_medievallons,
         "seigneurial": loop_seigneurial}


def runner_games_per_s(game, lineup, games, repeats):
    """Median games/s of the game's run_chunk, wall and per CPU-second (the CPU time of every
    thread: on a shared machine, games per CPU-second x cores is what the cores would give)."""
    from simcore import games as registry
    import importlib
    spec = registry.get(game)
    pkg = spec.adapter.rsplit(".", 1)[0]
    D = importlib.import_module(pkg + ".driver")
    R = importlib.import_module(pkg + ".rules")
    S = importlib.import_module(spec.strategies)
    _, rows = S.resolve(lineup, len(lineup))
    rules = R.load()
    D.run_chunk(rules, len(lineup), 0, 4, 1, rows)          # compile / load the cache
    times, cpu = [], []
    for k in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        D.run_chunk(rules, len(lineup), 0, games, 100 + k, rows)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return games / statistics.median(times), games / statistics.median(cpu), rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--game", choices=GAMES, action="append")
    ap.add_argument("--bot", default="search16", help="a preset or FILE:NAME (e.g. a horizon = 0 table)")
    ap.add_argument("--seat", type=int, default=0, help="the searching seat (0 = first)")
    a = ap.parse_args()
    from simcore import games as registry
    for game in a.game or GAMES:
        spec = registry.get(game)
        lineup = [spec.default_strategy] * 4
        if game == "seigneurial":
            lineup = ["even-lord", "fair-share", "fair-share", "fair-share"]
        lineup[a.seat] = a.bot
        gps, gpc, rows = runner_games_per_s(game, lineup, a.games, a.repeats)
        LOOPS[game](rows, 4, 1, 6)            # compile the loop's functions
        kinds: dict[str, int] = {}
        t = time.process_time()
        per = (LOOPS[game](rows, 4, max(20, a.games // 4), 7, kinds) if game == "seigneurial"
               else LOOPS[game](rows, 4, max(20, a.games // 4), 7))
        wall = time.process_time() - t          # CPU time, as the search time it is compared with
        dec = sum(x[0] for x in per)
        po = sum(x[1] for x in per)
        opts = sum(x[2] for x in per)
        sec = sum(x[3] for x in per)
        n = len(per)
        print(f"{game:13s} {','.join(lineup)}: {gps:7.1f} games/s (run_chunk, median of {a.repeats}; "
              f"{gpc:.1f} games per CPU-second, i.e. {gpc * os.cpu_count():.0f} games/s on "
              f"{os.cpu_count()} free cores); "
              f"driven loop: {dec / n:.1f} searched decisions/game, {opts / max(dec, 1):.1f} options "
              f"and {po / max(dec, 1):.0f} playouts per decision; {dec / sec:,.0f} decisions/s, "
              f"{po / sec:,.0f} playouts/s in search; {sec / wall:.0%} of the loop's time in search")
        if kinds:
            print(f"{'':13s} searched decisions per game by kind: " + ", ".join(
                f"{k} {v / n:.2f}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])))
        w, c = split(game, rows)
        print(f"{'':13s} one playout {w:.1f} µs, of which the copy and re-deal {c:.1f} µs ({c / w:.0%})")


if __name__ == "__main__":
    main()
