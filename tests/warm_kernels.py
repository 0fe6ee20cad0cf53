"""Compile (or load) every registered game's kernels once, before the test workers start.

Why: a clean clone has no Numba cache. `make test` runs two pytest-xdist workers, and the tests of
both (and the processes they start: the README's commands, Dask workers, the reliability suite's
command lines) reach the same kernels within seconds of each other; each process that finds no
cache entry compiles the kernel itself, so a cold suite compiled most kernels two to four times.
The root conftest (tests/conftest.py) runs this module in two processes, games split between them,
before xdist starts its workers: each kernel then compiles exactly once, on both cores, and every
later process loads it from the cache (Numba's in-tree ``__pycache__``, or ``NUMBA_CACHE_DIR``).

What it plays: for every game, a few games of its default line-up and of line-ups that seat every
preset bot (the conformance suite plays them all), the traced variant of the games' drivers (the
kernel-vs-reference replays) and Middle-Ages's debug variant. Nothing is checked here: a broken
kernel fails in the tests, with their messages (a failure here is reported as a warning line).

Run by hand: ``python tests/warm_kernels.py [-j N] [GAME ...]`` (prints the CPU seconds per game;
with an empty ``NUMBA_CACHE_DIR``, a game's cold compile).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE / "conformance")):
    if p not in sys.path:
        sys.path.insert(0, p)


def warm_game(name: str) -> None:
    from simcore import games as registry
    from simcore import runner

    spec = registry.get(name)
    runner.prepare(name).play(0, 2, 1)
    if spec.strategies is None:
        return
    driver = registry.import_hook(spec.driver_module) if spec.reference else None
    rules = registry.import_hook(spec.rules_module).load() if driver is not None else None
    loader = registry.import_hook(spec.strategies)
    # the line-ups the conformance suite replays (every preset bot seated), so they are compiled
    from test_every_preset_replayed import lineups

    for lineup in [["random"] * spec.default_players, *lineups(spec)]:
        if any(b not in loader.presets() for b in lineup):
            continue
        runner.prepare(name, players=len(lineup), strategies=",".join(lineup)).play(0, 2, 1)
        if driver is not None:
            _, rows = loader.resolve(lineup, len(lineup))
            driver.run_chunk(rules, len(lineup), 0, 2, 1, rows, trace_decisions=True)
    if "debug" in spec.takes:
        runner.prepare(name, debug=True).play(0, 2, 1)


# The games, the costliest compile first (cold CPU seconds measured with this script), so that N
# processes taking the next game as they finish end at about the same time.
ORDER = ("seigneurial", "middle-ages", "medievallons", "fief-combat", "pig")


def warm_one(name: str) -> str:
    from simcore import games as registry

    if name == "pig":
        registry.register("pig.spec")
    t = time.process_time()
    try:
        warm_game(name)
    except Exception as exc:                      # the tests will say what is wrong
        return f"warm_kernels: {name}: {type(exc).__name__}: {exc}"
    return f"warm_kernels: {name}: {time.process_time() - t:.1f} s CPU"


def main(argv: list[str]) -> int:
    """``-j N``: every registered game and Pig, in N processes that each take the next game when
    done; else the games named (default: all of them), in this process."""
    from simcore import games as registry

    jobs = 0
    if argv[:1] == ["-j"]:
        jobs, argv = int(argv[1]), argv[2:]
    names = argv or sorted([*registry.specs(), "pig"],
                           key=lambda n: ORDER.index(n) if n in ORDER else -1)
    t = time.monotonic()
    if jobs >= 2:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for line in pool.imap_unordered(warm_one, names, chunksize=1):
                print(line, flush=True)
    else:
        for name in names:
            print(warm_one(name), flush=True)
    print(f"warm_kernels: {len(names)} games in {max(jobs, 1)} processes, "
          f"{time.monotonic() - t:.0f} s wall", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
