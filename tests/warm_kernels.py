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

Run by hand: ``python tests/warm_kernels.py [GAME ...]`` (prints the CPU seconds per game).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE / "conformance")):
    if p not in sys.path:
        sys.path.insert(0, p)


def _lineups(spec, registry) -> list[list[str]]:
    """Line-ups at the most players that seat every preset bot at least once, each on a seat of
    a role it plays (as tests/conformance/test_every_preset_replayed.py)."""
    presets = registry.import_hook(spec.strategies).presets()
    P = spec.players[1]
    roles = spec.seat_roles(P)
    plays = {n: getattr(s, "roles", None) for n, s in presets.items()}
    fits = [[n for n in presets if plays[n] is None or roles[seat] in plays[n]] for seat in range(P)]
    todo, out = list(presets), []
    while todo:
        lineup = []
        for seat in range(P):
            pick = next((n for n in todo if n in fits[seat] and n not in lineup), None)
            lineup.append(pick or fits[seat][len(out) % len(fits[seat])])
            if pick:
                todo.remove(pick)
        out.append(lineup)
    return out


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
    for lineup in [["random"] * spec.default_players, *_lineups(spec, registry)]:
        if any(b not in loader.presets() for b in lineup):
            continue
        runner.prepare(name, players=len(lineup), strategies=",".join(lineup)).play(0, 2, 1)
        if driver is not None:
            _, rows = loader.resolve(lineup, len(lineup))
            driver.run_chunk(rules, len(lineup), 0, 2, 1, rows, trace_decisions=True)
    if "debug" in spec.takes:
        runner.prepare(name, debug=True).play(0, 2, 1)


# Measured cold compile CPU (tests/warm_kernels.py GAME, empty NUMBA_CACHE_DIR): the split below
# gives each of two processes about half. Pig (the conformance suite's own game) is small.
GROUPS = (("seigneurial", "fief-combat"), ("middle-ages", "medievallons", "pig"))


def warm(names: list[str]) -> None:
    from simcore import games as registry

    if "pig" in names:
        registry.register("pig.spec")
    for name in names:
        t = time.process_time()
        try:
            warm_game(name)
        except Exception as exc:                  # the tests will say what is wrong
            print(f"warm_kernels: {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
        print(f"warm_kernels: {name}: {time.process_time() - t:.1f} s CPU", flush=True)


def main(argv: list[str]) -> int:
    """``-j N``: the games in N processes at once (GROUPS, then one process per game left over);
    else the games named (default: every registered game and Pig), in this process."""
    if argv[:1] == ["-j"]:
        import subprocess

        from simcore import games as registry

        jobs = max(1, int(argv[1]))
        names = [*registry.specs(), "pig"]
        groups = [list(g) for g in GROUPS]
        groups += [[n] for n in names if not any(n in g for g in groups)]
        while len(groups) > jobs:                 # fewer processes: merge the two smallest
            groups.sort(key=len)
            groups[:2] = [groups[0] + groups[1]]
        t = time.monotonic()
        procs = [subprocess.Popen([sys.executable, __file__, *g]) for g in groups]
        codes = [p.wait() for p in procs]
        print(f"warm_kernels: {len(groups)} processes, {time.monotonic() - t:.0f} s", flush=True)
        return max(codes)
    from simcore import games as registry

    warm(argv or [*registry.specs(), "pig"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
