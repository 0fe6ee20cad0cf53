"""Cost of filling the mergeable statistics (``RunStats.add``) for one chunk, per game.

Run: `.venv/bin/python benchmarks/bench_stats_fill.py [--rev main] [--games 131072] [--runs 5]`.

Why: the runner fills a chunk's statistics beside the kernel (simcore/runner.py ``make_part``), so
this cost is part of "outside the kernel" for ``simulate --games 1e6`` (issue #27, item 5). For
each configuration (Middle-Ages 4 players, Médiévallons 4 players with rotated seats and a mixed
line-up, Seigneurial 4 players; ``--configs`` to choose) one chunk of ``--games`` games is played
once (not timed), then ``RunStats(layout).add(chunk)`` is timed ``--runs`` times in CPU seconds
(``time.process_time``: the shared machine's wall time is noise) and the median is printed, per
chunk and in ns per game.

``--rev REV`` also loads ``simcore/accumulate.py`` as it was at git revision ``REV`` (``git
show``, as a separate module) and times it alternately with this tree's on the same chunk, in the
same process; it prints the ratio of the medians and checks that both give byte-identical
statistics (``to_json``): exit status 1 if they differ. Nothing else is asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIGS = {
    "middle-ages": ("middle-ages", dict(players=4)),
    "middle-ages-mixed": ("middle-ages", dict(players=4, strategies="balanced,greedy,random,balanced")),
    "medievallons": ("medievallons", dict(players=4, rotate_seats=True,
                                          strategies="balanced,random,balanced,random")),
    "seigneurial": ("seigneurial", dict(players=4)),
}
DEFAULT = ("middle-ages", "medievallons", "seigneurial")


def accumulate_at(rev: str, directory: Path):
    """``simcore/accumulate.py`` as it was at git revision ``rev``, as a separate module."""
    src = subprocess.run(["git", "show", f"{rev}:simcore/accumulate.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    path = directory / "accumulate_at_rev.py"
    path.write_text(src, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("accumulate_at_rev", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def fill(module, layout, chunk):
    t = time.process_time()
    stats = module.RunStats(layout)
    stats.add(chunk)
    return time.process_time() - t, stats


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1 << 17, help="games per chunk (default 131072)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--rev", default=None, help="also time simcore/accumulate.py at this revision")
    ap.add_argument("--configs", default=",".join(DEFAULT), help=f"among {', '.join(CONFIGS)}")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    names = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in names if c not in CONFIGS]
    if unknown or args.games < 1 or args.runs < 1:
        print(f"bench_stats_fill: unknown config {unknown[0]!r}" if unknown
              else "bench_stats_fill: --games and --runs must be ≥ 1", file=sys.stderr)
        return 2

    from simcore import accumulate, runner

    tmp = tempfile.TemporaryDirectory()
    old = accumulate_at(args.rev, Path(tmp.name)) if args.rev else None
    status = 0
    print(f"{'config':<18} {'games':>8} {'this tree':>22}" + (f" {args.rev:>22} {'ratio':>7}" if old else ""))
    for name in names:
        game, options = CONFIGS[name]
        prep = runner.prepare(game, quiet=True, **options)
        n = args.games - args.games % prep.games_per_deal
        chunk = prep.play(0, n, args.seed)
        layout = accumulate.layout_of_run(prep)
        new_t, old_t = [], []
        for _ in range(args.runs):
            t, new = fill(accumulate, layout, chunk)
            new_t.append(t)
            if old is not None:
                t, ref = fill(old, layout, chunk)
                old_t.append(t)
                if new.to_json() != ref.to_json():
                    print(f"{name}: statistics differ from {args.rev}'s", file=sys.stderr)
                    status = 1
        m = statistics.median(new_t)
        line = f"{name:<18} {n:>8} {m:>8.3f} s {m / n * 1e9:>7.0f} ns/game"
        if old is not None:
            mo = statistics.median(old_t)
            line += f" {mo:>8.3f} s {mo / n * 1e9:>7.0f} ns/game {mo / m:>6.1f}×"
        print(line, flush=True)
    return status


if __name__ == "__main__":
    raise SystemExit(main())
