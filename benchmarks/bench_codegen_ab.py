"""Kernel A/B of the compile pipeline: the working tree's kernel compiled with Numba's own code
library, dispatcher and function typing against the same kernel compiled with
:mod:`simcore.numba_cache`'s replacements (``code_for_callers_only``, ``memo_function_typing``).

Run: `NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python benchmarks/bench_codegen_ab.py
[--game medievallons] [--check-traces] [--runs 20]` (an empty cache: the two copies must be
compiled in this process, not loaded).

Why: those replacements change how Numba builds machine code (a callee's IR is linked into its
caller before LLVM's code generator has rewritten it, no longer after), so the kernel's machine
code is not byte-identical to Numba's own; ``bench_kernel_ab.py`` cannot show it (both of its
kernels are compiled with the replacements). Here the revision's copy of the game folder (``--rev``,
default HEAD: the same source) is compiled inside ``numba_cache.numba_own_code()``, the working
tree's outside it, and both are timed alternately on one thread in one process, as
``bench_kernel_ab.py`` does. ``--check-traces`` first plays ``bench_kernel_ab.py``'s decision-trace
line-ups with both (the Numba-own copy compiled for all of them first, inside the context) and
exits with status 1 if any differ. It also compiles both once and prints their compile CPU (the
working tree's first, so it carries the process's first-compile costs). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_kernel_ab as B  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="HEAD", help="git revision of the Numba-own copy's source")
    ap.add_argument("--game", default="middle-ages", choices=tuple(B.CHECKS))
    ap.add_argument("--strategies", default=None,
                    help="default: random,balanced (Seigneurial: random,standard)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3000, help="games per run")
    ap.add_argument("--runs", type=int, default=20, help="runs of each, in shuffled pairs")
    ap.add_argument("--check-traces", action="store_true")
    ap.add_argument("--trace-games", type=int, default=400)
    a = ap.parse_args()
    if a.strategies is None:
        a.strategies = "random,standard" if a.game == "seigneurial" else "random,balanced"

    import numba

    module = a.game.replace("-", "_")
    B.PACKAGE, B.FOLDER = f"simcore.games.{module}", f"simcore/games/{module}"
    numba.set_num_threads(1)
    import simcore.games  # noqa: F401  (the registry: the Numba cache stamps of the game folders)
    from simcore import numba_cache

    new = importlib.import_module(f"{B.PACKAGE}.driver")
    R = importlib.import_module(f"{B.PACKAGE}.rules")
    S = importlib.import_module(f"strategies.{module}")
    rules = R.load()
    P = a.players
    with tempfile.TemporaryDirectory() as tmp:
        own = B.load_kernel_at(a.rev, Path(tmp))
        for strategy in a.strategies.split(","):
            _, rows = S.resolve(strategy, P)
            t = time.process_time()
            new.run_chunk(rules, P, 0, 20, 0, rows)
            t_new = time.process_time() - t
            with numba_cache.numba_own_code():
                t = time.process_time()
                own.run_chunk(rules, P, 0, 20, 0, rows)
                t_own = time.process_time() - t
            print(f"compile or load, {strategy}: Numba's own {t_own:.1f} s, "
                  f"with numba_cache's {t_new:.1f} s (CPU)")
        if a.check_traces:
            with numba_cache.numba_own_code():       # every specialisation the checks use
                B.CHECKS[a.game](own, own, rules, S, a.trace_games)
            differ = B.CHECKS[a.game](own, new, rules, S, a.trace_games)
            if differ:
                print(f"decisions differ for: {', '.join(differ)}")
                sys.exit(1)
            print(f"decisions identical ({a.game}: bench_kernel_ab.py's trace line-ups x "
                  f"{a.trace_games} games)")
        print(f"Numba's own (own) vs numba_cache's (new): {P} players, one thread, {a.runs} runs "
              f"each of {a.games:,} games (pairs in random order), CPU time")
        for strategy in a.strategies.split(","):
            _, rows = S.resolve(strategy, P)
            times = B.paired_times({"own": own, "new": new}, rules, P, a.games, rows, a.runs)
            B.print_ratio(strategy, times, "own", a.games)


if __name__ == "__main__":
    main()
