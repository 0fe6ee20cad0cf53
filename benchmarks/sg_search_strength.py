"""Seigneurial search strength (issue #25 acceptance): a bot (``search16`` or FILE:NAME) in each
seat of the standard line-up (even-lord + 3 fair-share) against the seat's own bot, on the same
deals, with Wilson 95% intervals; then the Censitaire seats pooled, with a 95% interval for the
difference. Nothing is asserted.

Run: ``.venv/bin/python benchmarks/sg_search_strength.py GAMES SEED BOT`` (docs/search.md: 1000 11
search16).
"""
import sys, math, time
import numpy as np
from simcore.games.seigneurial import driver as D, rules as R
from strategies import seigneurial as S

def wilson(k, n, z=1.96):
    p = k / n; d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d; h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h

games = int(sys.argv[1]); seed = int(sys.argv[2]); bot = sys.argv[3]
rules = R.load()
base = ["even-lord", "fair-share", "fair-share", "fair-share"]
res = {}
for seat in range(4):
    for who in (base[seat], bot):
        lineup = list(base); lineup[seat] = who
        _, rows = S.resolve(lineup, 4)
        t = time.process_time()
        out = D.run_chunk(rules, 4, 0, games, seed, rows)
        cpu = time.process_time() - t
        w = out["win_share"].reshape(-1, 4)[:, seat].astype(float)
        res[(seat, who)] = w
        lo, hi = wilson(w.sum(), games)
        print(f"seat {seat + 1} {who:28s} win share {w.mean():.2%} ({lo:.2%}-{hi:.2%})  [{cpu:.0f} CPU-s]", flush=True)
a = np.concatenate([res[(s, bot)] for s in (1, 2, 3)]); b = np.concatenate([res[(s, "fair-share")] for s in (1, 2, 3)])
d = a.mean() - b.mean(); se = math.sqrt(a.var() / len(a) + b.var() / len(b))
print(f"Censitaire seats 2-4: {bot} {a.mean():.2%} vs fair-share {b.mean():.2%}: {d * 100:+.1f} pp (95% {100 * (d - 1.96 * se):+.1f} to {100 * (d + 1.96 * se):+.1f} pp), {len(a)} games each")
