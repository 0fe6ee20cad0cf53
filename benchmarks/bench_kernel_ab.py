"""Middle-Ages kernel A/B: this working tree's kernel against the kernel of a git revision.

Run: `.venv/bin/python benchmarks/bench_kernel_ab.py --rev HEAD~1 [--strategies random,balanced]`.

Why: this machine's speed drifts by a quarter within minutes (a shared VM), so two benchmark runs
minutes apart cannot show a 5-10% change. Here both kernels are loaded in one process (the old one
from ``git show REV:simcore/games/middle_ages/kernel.py`` as a separate module) and run alternately on
one thread, ``--runs`` times each, ``--games`` games per run, timed in CPU seconds. It prints the
median of the per-pair ratios new/old and the ratio of the fastest runs (min new / min old): when
the two disagree, the machine was too noisy; run again. Many short runs beat a few long ones: with
11 runs of 20,000 games this script once showed a 4% gain that 60 runs of 3,000 games showed to be
a 1.5% loss. The old kernel must be compatible with today's rules and strategy modules (it
imports their constants). Nothing is asserted.

`--check-traces` first checks that a speed change left the bots' play unchanged: both kernels
play the same games (greedy, balanced and a mixed line-up of presets, plus balanced with denial
and events weights, and balanced under the rule allow_negative_coins = true, at 2-5 players,
`--trace-games` games each; and one rollout seat against balanced bots with seat rotation, a tenth
of the games) and their decision traces (options offered and option chosen, for every decision)
must be identical. Exits with status 1 otherwise.
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
KERNEL = "simcore/games/middle_ages/kernel.py"


def load_kernel_at(rev: str, directory: Path):
    """The kernel module as it was at git revision ``rev`` (its own Numba cache in ``directory``)."""
    src = subprocess.run(["git", "show", f"{rev}:{KERNEL}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    path = directory / "kernel_at_rev.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("kernel_at_rev", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["kernel_at_rev"] = module
    spec.loader.exec_module(module)
    return module


def compare_traces(old, new, rules, S, games: int) -> list[str]:
    """Line-ups whose decision traces differ between the two kernel modules."""
    from simcore.games.middle_ages import rules as R
    from simcore.games.middle_ages.strategy_layout import S_DENIAL, S_EVENTS

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="HEAD~1", help="git revision of the kernel to compare with")
    ap.add_argument("--strategies", default="random,balanced")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3000, help="games per run")
    ap.add_argument("--runs", type=int, default=60, help="runs of each kernel, in shuffled pairs")
    ap.add_argument("--check-traces", action="store_true",
                    help="first check that both kernels make exactly the same decisions")
    ap.add_argument("--trace-games", type=int, default=400)
    a = ap.parse_args()

    import numba

    numba.set_num_threads(1)
    from simcore.games.middle_ages import kernel as new
    from simcore.games.middle_ages import rules as R
    from strategies import middle_ages as S

    rules = R.load()
    with tempfile.TemporaryDirectory() as tmp:
        old = load_kernel_at(a.rev, Path(tmp))
        if a.check_traces:
            differ = compare_traces(old, new, rules, S, a.trace_games)
            if differ:
                print(f"decisions differ from {a.rev} for: {', '.join(differ)}")
                sys.exit(1)
            print(f"decisions identical to {a.rev} (decision traces of 24 line-ups x "
                  f"{a.trace_games} games (rollout: a tenth), 2-5 players)")
        print(f"kernel at {a.rev} (old) vs working tree (new): {a.players} players, one thread, "
              f"{a.runs} runs each of {a.games:,} games (pairs in random order), CPU time")
        for strategy in a.strategies.split(","):
            _, rows = S.resolve(strategy, a.players)
            times: dict[str, list[float]] = {"old": [], "new": []}
            for K in (old, new):           # compile or load both first
                K.run_chunk(rules, a.players, 0, 20, 0, rows)
            order = [("old", old), ("new", new)]
            shuffler = random.Random(1)
            for _ in range(a.runs):
                shuffler.shuffle(order)
                for name, K in order:
                    t = time.process_time()
                    K.run_chunk(rules, a.players, 0, a.games, 0, rows)
                    times[name].append(time.process_time() - t)
            ratio = statistics.median(n / o for o, n in zip(times["old"], times["new"]))
            us = {k: statistics.median(v) / a.games * 1e6 for k, v in times.items()}
            fastest = min(times["new"]) / min(times["old"])
            print(f"{strategy}: old {us['old']:.2f} µs/game, new {us['new']:.2f} µs/game; "
                  f"median ratio new/old {ratio:.3f}, fastest runs {fastest:.3f}")


if __name__ == "__main__":
    main()
