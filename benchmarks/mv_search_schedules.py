"""Médiévallons search (issue #25): would another order of a flat search's playouts drop more
beaten options? Every playout of every option is played at real positions (the contract's
``playout`` hook, as tests/medievallons/test_mv_search_pruning.py does), then the search's exact
drop rule (an option whose sum plus its playouts left falls short of the best sum so far) is
replayed over those results in several orders; each option's playouts stay in playout order, so
the sums, and the choice, are the full search's under every order (checked).

Orders: ``rr`` (the search's: playout r of every option, r = 0, 1, …), ``leaderK`` (K rounds, then
the option with the best mean so far played to its end, then the next), ``ub`` (always the option
with the highest bound). ``deals``: how often the world changes between playouts (the search deals
a world once per playout number; another order re-deals).

Run: ``.venv/bin/python benchmarks/mv_search_schedules.py`` (a few minutes; nothing asserted).
Measured (78 positions, seeds 100-115 after 1, 3, 5, 8, 11 turns, 6.8 options): to the end, rr 98.7
of 109.3 playouts per decision, the best other order 93.8 (5% fewer) with 3x the deals; horizon 4,
105.0 against 102.4. Not worth a change: the options of a decision are too close for an order to
make them certain losers much sooner.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
R = 16


def matrices(bot_file: str, bot: str, depth: int) -> list[np.ndarray]:
    """Every playout's result (options x playouts) at positions of real games."""
    sys.path.insert(0, str(ROOT / "tests" / "medievallons"))
    import simcore.games  # noqa: F401  (the Numba cache stamps of the game folders)
    from simcore.games.medievallons import layout as L
    from simcore.games.medievallons.search import playout
    from simcore.rng import next_u64
    from simcore.search import play_key, rows_play_policy, world_key
    from strategies import medievallons as S
    from test_mv_search_pruning import _positions
    P = 4
    _, rows = S.resolve([f"{bot_file}:{bot}"] + ["balanced"] * (P - 1), P)
    out = []
    for turns in (1, 3, 5, 8, 11):
        for st, ws, fs in _positions(rows, P, seeds=range(100, 116), turns=turns):
            n = int(ws[L.G_NOPT])
            base = np.uint64(next_u64(st.copy()))
            policy = fs.copy()
            rows_play_policy(policy, L.F_STRAT, P, L.N_STRAT_COLS, L.S_KIND, L.S_SEARCH,
                             L.STRAT_SEARCH, False)
            sc, st2 = np.zeros_like(ws), np.zeros(1, np.uint64)
            m = np.zeros((n, R))
            for r in range(R):
                for j in range(n):
                    m[j, r] = playout(ws.copy(), sc, policy, st2, P, 0, j,
                                      np.uint64(world_key(base, r)), np.uint64(play_key(base, j, r)),
                                      depth)
            out.append(m)
    return out


def best(means, alive) -> int:
    b, bj = -1.0, 0
    for j, v in enumerate(means):
        if alive[j] and v > b + 1e-12:
            b, bj = v, j
    return bj


def replay(m: np.ndarray, pick) -> tuple[int, int, int]:
    """(choice, playouts, deals) of the drop rule with the order ``pick``."""
    n = m.shape[0]
    S, c, alive = np.zeros(n), np.zeros(n, int), np.ones(n, bool)
    lead, spent, deals, last = 0.0, 0, 0, -1
    while True:
        cand = [j for j in range(n) if alive[j] and c[j] < R]
        if not cand:
            break
        j = pick(S, c, cand)
        if S[j] + (R - c[j]) < lead - 1e-9 * R:
            alive[j] = False
            if alive.sum() == 1:
                break
            continue
        deals += c[j] != last
        last = c[j]
        S[j] += m[j, c[j]]
        c[j] += 1
        spent += 1
        lead = max(lead, S[j])
    return best(S / np.maximum(c, 1), alive), spent, deals


def round_robin(S, c, cand):
    r = min(c[j] for j in cand)
    return min(j for j in cand if c[j] == r)


def leader(k):
    def pick(S, c, cand):
        if min(c[j] for j in cand) < k:
            return round_robin(S, c, cand)
        return max(cand, key=lambda j: (S[j] / max(c[j], 1), -j))
    return pick


def upper_bound(S, c, cand):
    return max(cand, key=lambda j: (S[j] + R - c[j], -c[j], -j))


def main() -> None:
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        bot_file = str(Path(tmp) / "bots.toml")
        sys.path.insert(0, str(ROOT / "tests" / "medievallons"))
        from test_mv_search_pruning import BOTS   # the test's two search bots (end16, h4x16)

        Path(bot_file).write_text(BOTS)
        for bot, depth in (("end16", 0), ("h4x16", 4)):
            mats = matrices(bot_file, bot, depth)
            every = sum(m.size for m in mats) / len(mats)
            orders = [("rr", round_robin)] + [(f"leader{k}", leader(k)) for k in (1, 2, 4, 6)] \
                + [("ub", upper_bound)]
            for name, pick in orders:
                runs = [replay(m, pick) for m in mats]
                wrong = sum(ch != best(m.sum(1) / R, np.ones(len(m), bool))
                            for (ch, _, _), m in zip(runs, mats))
                print(f"{bot} {name:8s} playouts per decision {np.mean([s for _, s, _ in runs]):6.1f}"
                      f" of {every:6.1f}, deals {np.mean([d for _, _, d in runs]):5.1f}, "
                      f"choices unlike the full search's {wrong} of {len(mats)}")


if __name__ == "__main__":
    main()
