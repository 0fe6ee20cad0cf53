"""Kernel A/B: this working tree's kernel against the kernel of a git revision (Middle-Ages,
Médiévallons or Seigneurial).

Run: `.venv/bin/python benchmarks/bench_kernel_ab.py --rev HEAD~1 [--strategies random,balanced]`
(`--game medievallons` for Médiévallons; its strategies default to random,balanced too).

Why: this machine's speed drifts by a quarter within minutes (a shared VM), so two benchmark runs
minutes apart cannot show a 5-10% change. Here both kernels are loaded in one process and run
alternately on one thread, ``--runs`` times each, ``--games`` games per run, timed in CPU seconds.
The old one is the revision's ``simcore/games/<game>/`` folder, exported (``git show`` of each
file) into a temporary package ``ma_at_rev`` whose imports of that folder's modules are redirected
to the package, except ``rules`` (today's): its ``driver.py`` when the revision has one (the kernel
split into layout, bots, kernel and driver), else its single ``kernel.py``. It prints the median of
the per-pair ratios new/old and the ratio of the fastest runs (min new / min old): when the two
disagree, the machine was too noisy; run again. Many short runs beat a few long ones: with 11 runs
of 20,000 games this script once showed a 4% gain that 60 runs of 3,000 games showed to be a 1.5%
loss. The old kernel must be compatible with today's rules and strategy modules (it imports the
rules' constants and reads today's strategy rows). Nothing is asserted.

`--check-traces` first checks that a speed change left the bots' play unchanged: both kernels
play the same games (greedy, balanced and a mixed line-up of presets, plus balanced with denial
and events weights, and balanced under the rule allow_negative_coins = true, at 2-5 players,
`--trace-games` games each; and one rollout seat against balanced bots with seat rotation, a tenth
of the games) and their decision traces (options offered and option chosen, for every decision)
must be identical. Exits with status 1 otherwise. Médiévallons: random, collector, balanced,
saboteur and a mixed line-up of presets at 2-5 players, each also with seat rotation, and the
planner (playout) bot in one seat against balanced bots, a hundredth of the games (with
`--with-search` also a search16 seat, with its playouts 4 turns deep and to the end, as many
games). Seigneurial
(`--strategies standard,random`): random, standard, every Seigneur preset against standard
Censitaires, every Censitaire preset beside an even-lord, and a mixed line-up, at 3-5 players,
plus the records of every game (not only the traces); `--with-search` adds a search4 seat in
either role (a speed change in the search hooks must leave the search bot's choices unchanged too;
Médiévallons: a search16 seat against balanced bots).
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "simcore.games.middle_ages"     # (set from --game by main)
FOLDER = "simcore/games/middle_ages"
SHARED = {"rules"}      # modules of the folder taken from the working tree, not from the revision


def _redirect_imports(src: str, modules: set[str], alias: str) -> str:
    """``src`` with its imports of the folder's ``modules`` (absolute or relative) pointing at the
    package ``alias``, and those of the SHARED modules at the working tree's."""
    import ast

    lines = src.splitlines(keepends=True)
    for node in reversed(ast.parse(src).body):
        if not isinstance(node, ast.ImportFrom):
            continue
        module = node.module or ""
        if node.level == 0 and (module == PACKAGE or module.startswith(PACKAGE + ".")):
            module = module[len(PACKAGE) + 1:]
        elif node.level != 1:
            continue
        names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
        head = module.split(".")[0]
        if module and head in modules:
            target = PACKAGE if head in SHARED else alias
            new = f"from {target}.{module} import ({names})\n"
        elif not module:       # from PACKAGE import a, b as c
            new = "".join(f"from {PACKAGE if a.name in SHARED else alias} import {a.name}"
                          f"{f' as {a.asname}' if a.asname else ''}\n" for a in node.names)
        else:
            continue
        indent = lines[node.lineno - 1][:node.col_offset]
        lines[node.lineno - 1:node.end_lineno] = [indent + new]
    return "".join(lines)


def load_kernel_at(rev: str, directory: Path):
    """The kernel as it was at git revision ``rev``, as a module with ``run_chunk`` (its driver
    module, or its kernel module before the split; its own Numba cache in ``directory``)."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                              text=True).stdout

    files = [f for f in git("ls-tree", "--name-only", f"{rev}:{FOLDER}").split() if f.endswith(".py")]
    modules = {f[:-3] for f in files}
    alias = "kernel_at_rev"
    package = directory / alias
    if not (package / "__init__.py").exists():     # (a kept export is reused as it is: --keep)
        package.mkdir(parents=True, exist_ok=True)
        for f in files:
            src = git("show", f"{rev}:{FOLDER}/{f}")
            (package / f).write_text(_redirect_imports(src, modules - {"__init__"}, alias),
                                     encoding="utf-8")
        if "__init__" not in modules:
            (package / "__init__.py").write_text("", encoding="utf-8")
    spec = importlib.util.spec_from_file_location(alias, package / "__init__.py",
                                                  submodule_search_locations=[str(package)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[alias] = module
    spec.loader.exec_module(module)
    return importlib.import_module(f"{alias}.{'driver' if 'driver' in modules else 'kernel'}")


def kept_directory(rev: str, keep: str) -> Path:
    """``keep/<commit of rev>/<game folder>``: where ``--keep`` exports the revision's kernel."""
    commit = subprocess.run(["git", "rev-parse", rev], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    return Path(keep) / commit / FOLDER.replace("/", "_")


def compare_traces(old, new, rules, S, games: int) -> list[str]:
    """Line-ups whose decision traces differ between the two kernel modules."""
    from simcore.games.middle_ages import rules as R
    from simcore.games.middle_ages.layout import S_DENIAL, S_EVENTS

    negative = R.variant(("allow_negative_coins = false", "allow_negative_coins = true"))
    differ = []
    presets = ["eventwise", "farmer", "pious", "warlord", "balanced"]
    for P in (2, 3, 4, 5):
        lineups = {f"{P}p greedy": ["greedy"] * P, f"{P}p balanced": ["balanced"] * P,
                   f"{P}p mixed presets": presets[:P], f"{P}p denial+events": ["balanced"] * P,
                   f"{P}p balanced, negative coins": ["balanced"] * P,
                   f"{P}p rollout seat, rotated": ["rollout"] + ["balanced"] * (P - 1)}
        for label, lineup in lineups.items():
            _, rows = S.resolve(lineup, P)
            if "denial" in label:
                rows = rows.copy()
                rows[:, S_DENIAL] = 0.7
                rows[:, S_EVENTS] = 0.3
            table = negative if "negative" in label else rules
            # the rollout bot plays ~2,000 games/s: a tenth of the games, every seat in turn
            n, rotate = (max(games // 10, P), True) if "rollout" in label else (games, False)
            a = old.run_chunk(table, P, 0, n, 3, rows, trace_decisions=True, rotate=rotate)["trace"]
            b = new.run_chunk(table, P, 0, n, 3, rows, trace_decisions=True, rotate=rotate)["trace"]
            if a != b:
                differ.append(label)
    return differ


def compare_traces_medievallons(old, new, rules, S, games: int) -> list[str]:
    """Médiévallons line-ups whose decision traces differ between the two kernel modules."""
    from simcore.games.medievallons.layout import S_SEARCH
    differ = []
    presets = ["collector", "balanced", "saboteur", "random", "balanced"]
    for P in (2, 3, 4, 5):
        lineups = {f"{P}p {b}": [b] * P for b in ("random", "collector", "balanced", "saboteur")}
        lineups[f"{P}p mixed presets"] = presets[:P]
        lineups[f"{P}p planner seat"] = ["planner"] + ["balanced"] * (P - 1)
        if WITH_SEARCH:
            lineups[f"{P}p search seat"] = ["search16"] + ["balanced"] * (P - 1)
            lineups[f"{P}p search seat, to the end"] = ["search16"] + ["balanced"] * (P - 1)
        for label, lineup in lineups.items():
            _, rows = S.resolve(lineup, P)
            if "to the end" in label:        # horizon 0: the packed column's horizon cleared
                rows[0, S_SEARCH + 2] %= 8
            n = max(games // 100, P) if "planner" in label or "search" in label else games
            for rotate in ((False,) if "planner" in label or "search" in label else (False, True)):
                a = old.run_chunk(rules, P, 0, n, 3, rows, trace_decisions=True, rotate=rotate)
                b = new.run_chunk(rules, P, 0, n, 3, rows, trace_decisions=True, rotate=rotate)
                if a["trace"] != b["trace"] or any(
                        not (a[k] == b[k]).all() for k in a if k != "trace"):
                    differ.append(label + (", rotated" if rotate else ""))
    return differ


def compare_traces_seigneurial(old, new, rules, S, games: int) -> list[str]:
    """Seigneurial line-ups whose decision traces or records differ between the two kernels."""
    differ = []
    lords = ["even-lord", "greedy-lord", "harsh-lord"]
    tenants = ["fair-share", "objective", "dutiful", "hoarder"]
    for P in (3, 4, 5):
        lineups = {f"{P}p {b}": [b] * P for b in ("random", "standard")}
        lineups.update({f"{P}p {lord}": [lord] + ["standard"] * (P - 1) for lord in lords})
        lineups.update({f"{P}p {t}": ["even-lord"] + [t] * (P - 1) for t in tenants})
        lineups[f"{P}p mixed"] = ["harsh-lord"] + (tenants + ["random"])[:P - 1]
        if WITH_SEARCH:
            lineups[f"{P}p search Seigneur"] = ["search4"] + ["standard"] * (P - 1)
            lineups[f"{P}p search Censitaire"] = ["even-lord", "search4"] + ["standard"] * (P - 2)
        for label, lineup in lineups.items():
            _, rows = S.resolve(lineup, P)
            n = max(games // 20, P) if "search" in label else games
            a = old.run_chunk(rules, P, 0, n, 3, rows, trace_decisions=True)
            b = new.run_chunk(rules, P, 0, n, 3, rows, trace_decisions=True)
            if a["trace"] != b["trace"] or any(not (a[k] == b[k]).all() for k in a if k != "trace"):
                differ.append(label)
    return differ


WITH_SEARCH = False        # --with-search (Seigneurial): also a searching seat (search4) per role


CHECKS = {"middle-ages": compare_traces, "medievallons": compare_traces_medievallons,
          "seigneurial": compare_traces_seigneurial}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="HEAD~1", help="git revision of the kernel to compare with")
    ap.add_argument("--game", default="middle-ages", choices=tuple(CHECKS))
    ap.add_argument("--strategies", default=None,
                    help="default: random,balanced (Seigneurial: random,standard)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3000, help="games per run")
    ap.add_argument("--runs", type=int, default=60, help="runs of each kernel, in shuffled pairs")
    ap.add_argument("--check-traces", action="store_true",
                    help="first check that both kernels make exactly the same decisions")
    ap.add_argument("--trace-games", type=int, default=400)
    ap.add_argument("--keep", metavar="DIR", default=None,
                    help="export the revision's kernel to DIR/<commit> and keep it there, so that "
                         "its Numba cache is reused by the next run against the same commit (the "
                         "files are written only once: a rewritten file would stale the cache)")
    ap.add_argument("--with-search", action="store_true",
                    help="the checked line-ups include a searching seat (Médiévallons: search16, "
                         "a hundredth of the games; Seigneurial: a search4 Seigneur and a search4 "
                         "Censitaire, a twentieth of the games; both revisions must have the "
                         "resumable turn that searches every decision)")
    a = ap.parse_args()
    global WITH_SEARCH
    WITH_SEARCH = a.with_search
    if a.strategies is None:
        a.strategies = "random,standard" if a.game == "seigneurial" else "random,balanced"

    import importlib

    import numba

    global PACKAGE, FOLDER
    module = a.game.replace("-", "_")
    PACKAGE, FOLDER = f"simcore.games.{module}", f"simcore/games/{module}"
    numba.set_num_threads(1)
    import simcore.games  # noqa: F401  (the registry: the Numba cache stamps of the game folders)

    new = importlib.import_module(f"{PACKAGE}.driver")
    R = importlib.import_module(f"{PACKAGE}.rules")
    S = importlib.import_module(f"strategies.{module}")

    rules = R.load()
    with tempfile.TemporaryDirectory() as tmp:
        old = load_kernel_at(a.rev, kept_directory(a.rev, a.keep) if a.keep else Path(tmp))
        if a.check_traces:
            differ = CHECKS[a.game](old, new, rules, S, a.trace_games)
            if differ:
                print(f"decisions differ from {a.rev} for: {', '.join(differ)}")
                sys.exit(1)
            print(f"decisions identical to {a.rev} ({a.game}: decision traces of every line-up "
                  f"above x {a.trace_games} games (rollout / planner / search: fewer))")
        print(f"kernel at {a.rev} (old) vs working tree (new): {a.players} players, one thread, "
              f"{a.runs} runs each of {a.games:,} games (pairs in random order), CPU time")
        for strategy in a.strategies.split(","):
            _, rows = S.resolve(strategy, a.players)
            for K in (old, new):           # compile or load both first
                K.run_chunk(rules, a.players, 0, 20, 0, rows)
            times = paired_times({"old": old, "new": new}, rules, a.players, a.games, rows, a.runs)
            print_ratio(strategy, times, "old", a.games)


def paired_times(kernels: dict, rules, players: int, games: int, rows, runs: int) -> dict:
    """CPU seconds of each kernel's ``run_chunk`` over ``games`` games, ``runs`` rounds, the
    kernels in a random order each round (seeded: the same order every time)."""
    times: dict[str, list[float]] = {name: [] for name in kernels}
    order = list(kernels.items())
    shuffler = random.Random(1)
    for _ in range(runs):
        shuffler.shuffle(order)
        for name, K in order:
            t = time.process_time()
            K.run_chunk(rules, players, 0, games, 0, rows)
            times[name].append(time.process_time() - t)
    return times


def print_ratio(strategy: str, times: dict, base: str, games: int) -> None:
    """One line: each kernel's median µs per game, the median ratio new/base of the paired runs
    and the ratio of the fastest runs."""
    ratio = statistics.median(n / o for o, n in zip(times[base], times["new"]))
    us = {k: statistics.median(v) / games * 1e6 for k, v in times.items()}
    fastest = min(times["new"]) / min(times[base])
    print(f"{strategy}: {base} {us[base]:.2f} µs/game, new {us['new']:.2f} µs/game; "
          f"median ratio new/{base} {ratio:.3f}, fastest runs {fastest:.3f}")

if __name__ == "__main__":
    main()
