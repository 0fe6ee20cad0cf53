"""Compile (or load) every registered game's kernels once, before the test workers start.

Why: a clean clone has no Numba cache. `make test` runs two pytest-xdist workers, and the tests of
both (and the processes they start: the README's commands, Dask workers, the reliability suite's
command lines) reach the same kernels within seconds of each other; each process that finds no
cache entry compiles the kernel itself, so a cold suite compiled most kernels two to four times.
`make test` runs this module in two processes before xdist starts its workers: each kernel then
compiles exactly once, on both cores, and every later process loads it from the cache (Numba's
in-tree ``__pycache__``, or ``NUMBA_CACHE_DIR``). The work is cut into jobs the processes take in
turn, the costliest first: one per game, or two for a game whose search bot has a kernel entry
point of its own (SEARCH_APART), so that the processes end together (one job per game left one
process compiling Médiévallons alone for a minute).

What it plays: for every game, a few games of its default line-up and of line-ups that seat every
preset bot (the conformance suite plays them all), the traced variant of the games' drivers (the
kernel-vs-reference replays), Middle-Ages's debug variant, a few line-ups many tests seat
(EXTRA_LINEUPS) and Fief's odds and calamity tables (EXTRA_CALLS); and, as a job of its own, the
run statistics' helpers (STATISTICS), and, last, the test files' asserts as pytest rewrites them
(ASSERTS: a worker then reads them instead of rewriting). Nothing is checked here: a broken kernel fails in the tests,
with their messages (a failure here is reported as a warning line).

Run by hand: ``python tests/warm_kernels.py [-j N] [GAME[:PART] ...]`` (prints the CPU seconds per
job; with an empty ``NUMBA_CACHE_DIR``, a job's cold compile).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (str(HERE.parent), str(HERE / "conformance")):
    if p not in sys.path:
        sys.path.insert(0, p)


# Games whose line-ups seating the search bot (kind "search", docs/search.md) compile a kernel
# entry point of their own: their warm-up is two jobs, "plain" (the default line-up and the
# line-ups without a search bot) and "search", so that the two processes can share the game. The
# value says which job plays the debug variant: the one whose entry point it goes through
# (Middle-Ages: the checked entry of the rollout and search bots; Seigneurial and Médiévallons:
# the plain one, a run-time flag).
SEARCH_APART = {"middle-ages": "search", "seigneurial": "plain", "medievallons": "plain"}
SEARCH_KIND = "search"
# The bot kinds whose line-ups go through a game's search entry point, when not only "search":
# Médiévallons's planner (kind "playout") stops the rules of play as the search bot does
# (driver.play_games_searching), so its line-ups belong to the search job too.
SEARCH_ENTRY_KINDS = {"medievallons": ("playout", SEARCH_KIND)}
# Line-ups played beyond the default and the conformance suite's (by the job whose entry point each
# reaches: the search job for one with a search seat): ones many
# test files (and the README) seat, which reach a kernel entry point nothing above compiles.
# Middle-Ages: a seat weighing events or denial without a rollout or search seat goes through
# ``driver.play_games_full`` (tests of the strategies, kernel variants, replay, the cluster and
# the README's rotated line-up; compiled by each test process that met it first).
# And three balanced players: four players have entry points of their own (the player count a
# compile-time constant), so the line-ups of other counts that tests seat go through
# ``driver.play_games``, which nothing above reaches.
# Médiévallons likewise (its default and the conformance line-ups are of 4 players, its search
# line-ups of 5): three balanced players, and a searching seat among four players.
EXTRA_LINEUPS = {"middle-ages": (("eventwise", "balanced", "greedy", "random"),
                                 ("balanced", "balanced", "balanced")),
                 "medievallons": (("balanced", "balanced", "balanced"),
                                  ("search16", "balanced", "balanced", "balanced"))}
# Fief's odds and calamity tables (`balance fief-odds`, `balance fief-calamity`: the exact solver
# and the Monte Carlo grids) are kernels of their own, met by tests in seven files (fief,
# reliability, conformance, the README) and by the command lines they start.
def _fief_tables() -> None:
    from simcore.games.fief import calamity, odds
    from simcore.games.fief import rules as fief_rules

    rules = fief_rules.load()
    odds.odds_frame(rules, [1, 2], [1, 2], ["open"], method="both", games=10)
    calamity.plague_mc(rules, [0, 1], [1], 10, 0)
    calamity.revolt_table(rules, 10, "both", 10)


EXTRA_CALLS = {"fief-combat": _fief_tables}
# The run statistics' jitted helpers (simcore.accumulate, every specialisation it lists) are a job
# of their own: every run that writes stats.json needs them, and without the warm-up both test
# workers and the command lines started meanwhile compiled them at once (6 s of CPU each, cold).
STATISTICS = ("statistics", "all")
# And the test files' asserts, rewritten by pytest (warm_asserts, below).
ASSERTS = ("asserts", "all")


def jobs_of(name: str) -> list[tuple[str, str]]:
    """The warm-up jobs of one game: ``(name, "all")``, or its plain and search parts."""
    if name in SEARCH_APART:
        return [(name, "plain"), (name, "search")]
    return [(name, "all")]


def plays_of(name: str, part: str = "all") -> list[tuple[str, tuple[str, ...]]]:
    """What one job plays, in order: ``("default", ())``, ``("line-up", bots)`` (a few games, and
    the traced driver when the game has a reference engine), ``("extra", bots)`` (a few games of
    an EXTRA_LINEUPS line-up), ``("debug", ())`` and ``("tables", ())`` (EXTRA_CALLS)."""
    from simcore import games as registry

    spec = registry.get(name)
    out: list[tuple[str, tuple[str, ...]]] = []
    if part in ("all", "plain"):
        out.append(("default", ()))
    if spec.strategies is not None:
        presets = registry.import_hook(spec.strategies).presets()
        # the line-ups the conformance suite replays (every preset bot seated), so they are compiled
        from test_every_preset_replayed import lineups

        kinds = SEARCH_ENTRY_KINDS.get(name, (SEARCH_KIND,))

        def in_this_job(lineup) -> bool:
            """The line-up goes through the entry point of this part (search or plain)."""
            searching = any(getattr(presets.get(b), "kind", None) in kinds for b in lineup)
            return part == "all" or searching == (part == "search")

        for lineup in [["random"] * spec.default_players, *lineups(spec)]:
            if all(b in presets for b in lineup) and in_this_job(lineup):
                out.append(("line-up", tuple(lineup)))
        # the extra line-ups, each in the job whose entry point it reaches
        out += [("extra", tuple(lineup)) for lineup in EXTRA_LINEUPS.get(name, ()) if in_this_job(lineup)]
    if "debug" in spec.takes and part in ("all", SEARCH_APART.get(name, "all")):
        out.append(("debug", ()))
    if name in EXTRA_CALLS and part in ("all", "plain"):
        out.append(("tables", ()))
    return out


def warm_game(name: str, part: str = "all") -> None:
    from simcore import games as registry
    from simcore import runner

    spec = registry.get(name)
    for what, lineup in plays_of(name, part):
        if what == "default":
            runner.prepare(name).play(0, 2, 1)
        elif what == "debug":
            runner.prepare(name, debug=True).play(0, 2, 1)
        elif what == "tables":
            EXTRA_CALLS[name]()
        elif what == "extra":
            runner.prepare(name, players=len(lineup), strategies=",".join(lineup)).play(0, 2, 1)
        else:
            runner.prepare(name, players=len(lineup), strategies=",".join(lineup)).play(0, 2, 1)
            if spec.reference:
                driver = registry.import_hook(spec.driver_module)
                rules = registry.import_hook(spec.rules_module).load()
                _, rows = registry.import_hook(spec.strategies).resolve(list(lineup), len(lineup))
                driver.run_chunk(rules, len(lineup), 0, 2, 1, rows, trace_decisions=True)


# The jobs, the costliest compile first, so that N processes taking the next job as they finish
# end at about the same time (cold CPU seconds with this script, one job alone in an empty
# NUMBA_CACHE_DIR, load average ~6 on 2 cores: `python tests/warm_kernels.py GAME[:PART]`).
# A job not listed (a new game) goes first. Two parts of one game run one after the other in this
# order (the search part's 54 s alone were 45 s after the plain part: shared callees).
ORDER = (("middle-ages", "search"),       # 64.3 (load 2-8, `-j 2` in a fresh NUMBA_CACHE_DIR)
         ("medievallons", "plain"),       # 48.6 (the whole game at main: 108.3)
         ("seigneurial", "plain"),        # 46.2
         ("middle-ages", "plain"),        # 18.8 after the search part (32.7 alone)
         ("seigneurial", "search"),       # 18.1 after the plain part
         ("medievallons", "search"),      # 18.6 after the plain part
         ("fief-combat", "all"),          # 7.6 with its odds and calamity tables
         STATISTICS,                      # 6.2
         ("pig", "all"),                  # 3.4
         ASSERTS)                         # 9-12


# pytest rewrites the asserts of every test file it imports and keeps the result in a pyc of its
# own (unless Python may not write bytecode: PYTHONDONTWRITEBYTECODE, set on this machine and not
# passed on by make), and in a clean clone there is none yet: make test's two workers collect at
# the same moment, and each rewrote all ~290 files it collects, ~9-12 s of CPU each. This job writes those pycs once, as pytest does (hash-checked,
# so pytest reads them whatever the files' times); a file edited later is rewritten by pytest as
# before. It reaches into pytest's assertion module: if that changes, the job says so and the
# tests rewrite for themselves.
def is_whole_file_slow(path: Path) -> bool:
    """Every test of the file is slow (``pytestmark = pytest.mark.slow`` on a line of its own):
    ``make test`` does not even import it (tests/conftest.py), so its asserts are not rewritten."""
    import re

    return re.search(rb"^pytestmark = \[?pytest\.mark\.slow\b", path.read_bytes(), re.M) is not None


def warm_asserts() -> int:
    """Rewrite and cache the asserts of the test files make test collects; returns how many."""
    from _pytest.assertion.rewrite import PYC_TAIL, _rewrite_test, _write_pyc, get_cache_dir

    class _State:                       # what _write_pyc reads of pytest's assertion state
        @staticmethod
        def trace(message: str) -> None:
            pass

    done = 0
    for fn in sorted([*HERE.rglob("test_*.py"), *HERE.rglob("conftest.py")]):
        if "__pycache__" in fn.parts or is_whole_file_slow(fn):
            continue
        cache = get_cache_dir(fn)
        cache.mkdir(exist_ok=True)
        source_hash, code = _rewrite_test(fn, None)      # no config: pytest's defaults
        done += _write_pyc(_State(), code, source_hash, cache / (fn.name[:-3] + PYC_TAIL))
    return done


def warm_statistics() -> None:
    """Compile (or load) every specialisation of the statistics' helpers (what a run of any game
    compiles on a cold cache: tests/test_startup.py checks that list)."""
    from simcore import accumulate

    for name, (fn, signatures) in accumulate.helper_signatures().items():
        jitted = accumulate._jit(name, fn)
        for signature in signatures:
            jitted.compile(signature)


def warm_one(job: tuple[str, str]) -> str:
    from simcore import games as registry

    name, part = job
    label = name if part == "all" else f"{name}:{part}"
    if name == "pig":
        registry.register("pig.spec")
    from simcore.numba_cache import eased_collector

    collector = eased_collector()            # (as a run compiles it: simcore.numba_cache)
    collector.begin()
    t = time.process_time()
    try:
        if job == ASSERTS:
            return f"warm_kernels: {warm_asserts()} test files' asserts rewritten, " \
                   f"{time.process_time() - t:.1f} s CPU"
        if job == STATISTICS:
            warm_statistics()
        else:
            warm_game(name, part)
    except Exception as exc:                      # the tests will say what is wrong
        return f"warm_kernels: {label}: {type(exc).__name__}: {exc}"
    return f"warm_kernels: {label}: {time.process_time() - t:.1f} s CPU"


def main(argv: list[str]) -> int:
    """``-j N``: every registered game and Pig, in N processes that each take the next job when
    done; else the games named (default: all of them; ``GAME:plain`` or ``GAME:search`` for one
    part of a game in SEARCH_APART), in this process."""
    from simcore import games as registry

    jobs = 0
    if argv[:1] == ["-j"]:
        jobs, argv = int(argv[1]), argv[2:]
    if argv:
        todo = [tuple(a.split(":", 1)) if ":" in a else (a, "all") for a in argv]
    else:
        todo = sorted([j for n in [*registry.specs(), "pig"] for j in jobs_of(n)] + [STATISTICS, ASSERTS],
                      key=lambda j: ORDER.index(j) if j in ORDER else -1)
    t = time.monotonic()
    if jobs >= 2:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for line in pool.imap_unordered(warm_one, todo, chunksize=1):
                print(line, flush=True)
    else:
        for job in todo:
            print(warm_one(job), flush=True)
    print(f"warm_kernels: {len(todo)} jobs in {max(jobs, 1)} processes, "
          f"{time.monotonic() - t:.0f} s wall", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
