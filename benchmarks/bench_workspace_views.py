"""What a typed view of the workspace costs: ``ws.view(np.uint64)`` and ``ws.view(np.float64)`` on
an int64 workspace (the Middle-Ages kernel's) against an int32 one (the int32 workspace tried in
issue #27 item 5), and against plain slices.

Run: `.venv/bin/python benchmarks/bench_workspace_views.py` (CPU nanoseconds per call, medians of 7
runs of 1e7 calls). Why: every jitted function of the Middle-Ages kernel that is not inlined starts
with ``bots.views(ws)`` (the RNG state and the strategy rows as typed views), ~150 times a game.
On an array of another item size Numba checks at run time that the bytes divide into the new
item size, so the views of an int32 workspace cost more (one of the reasons measured for that
workspace being slower: docs/middle_ages_engine.md, "Speed work"). Nothing is asserted.
"""

from __future__ import annotations

import statistics
import time

import numpy as np
from numba import njit


@njit(_nrt=False)
def with_views(ws, i):
    st = ws.view(np.uint64)[8:9]
    wf = ws.view(np.float64)
    st[0] += np.uint64(1)
    wf[100 + (i & 7)] += 1.0
    return 0


@njit(_nrt=False)
def with_slices(ws, i):
    st = ws[16:17]
    st[0] += 1
    ws[200 + (i & 7)] += 1
    return 0


@njit
def calls(ws, n, views):
    s = 0
    for i in range(n):
        s += with_views(ws, i) if views else with_slices(ws, i)
    return s


def main() -> None:
    n = 10_000_000
    for dtype in (np.int64, np.int32):
        ws = np.zeros(6040, dtype)
        for views in (True, False):
            calls(ws, 10, views)
            times = []
            for _ in range(7):
                t = time.process_time()
                calls(ws, n, views)
                times.append(time.process_time() - t)
            print(f"{dtype.__name__} workspace, {'typed views' if views else 'plain slices'}: "
                  f"{statistics.median(times) / n * 1e9:.2f} ns per call")


if __name__ == "__main__":
    main()
