"""Where a kernel spends its time: perf samples of the cached Numba code, by address.

Run: `perf record -F 4000 -o k.data .venv/bin/python benchmarks/profile_kernel.py --game middle-ages
--strategy random --games 4e5`, then `perf report -i k.data --sort dso,symbol` (time per jitted
function, with each helper it calls that is not inlined) and `python benchmarks/profile_kernel.py
--hot k.data` (the hottest 128-byte spans of the block entry point's machine code, disassembled,
with their sample counts). On a machine shared with others, give both runs the same
`--code /tmp/mine` (default /tmp/kernel-code): the code dump and its address are written to
`<code>.bin` and `<code>.addr`, and another person's run would overwrite the default ones between
your two commands (the disassembly then shows their code). `--symbol decide_heuristic` (any part
of a jitted function's mangled name, e.g. `7advance`) in the recorded run dumps that function's code
instead of the entry point's, for the helpers that are not inlined (a balanced game's time is
mostly in `decide_heuristic` and `advance`).

Why: Numba's machine code is anonymous memory to perf, and a kernel loaded from the on-disk cache
has no IR to name its functions. This script keeps the object code Numba loads from the cache,
lists its symbols with `nm`, writes /tmp/perf-<pid>.map (perf reads it to name JIT code) and dumps
the entry point's code (`<code>.bin`, its address in `<code>.addr`) for `--hot`.
Since most helpers are inlined into the block entry point (``play_games``), the per-function view
is coarse; the disassembly's offsets name the workspace fields (``0x700(%r14)`` is word 224 of the
workspace: see the game's layout map). Nothing is asserted. Needs perf and binutils (nm, objdump).
"""

from __future__ import annotations

import argparse
import collections
import ctypes
import importlib
import os
import re
import subprocess
import sys
import tempfile
import time


def keep_cached_object_code() -> None:
    """Make every library Numba loads from its cache keep its object code (``_stash_obj``)."""
    from numba.core import codegen

    original = codegen.JITCodeLibrary._unserialize.__func__

    def unserialize(cls, cg, state):
        lib = original(cls, cg, state)
        if state[1] == "object":
            lib._stash_obj = state[2][0]
        return lib

    codegen.JITCodeLibrary._unserialize = classmethod(unserialize)


def symbols(lib) -> list[tuple[int, str]]:
    obj = getattr(lib, "_stash_obj", None)
    if obj is None:
        try:
            obj = lib._get_compiled_object()
        except Exception:
            return []
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(obj)
        f.flush()
        out = subprocess.run(["nm", "--defined-only", f.name], capture_output=True, text=True).stdout
    # The jitted helpers a kernel calls (not inlined) are weak symbols (W) of the same object code,
    # which the loader does not name: they are placed at the offset nm gives from the address of a
    # symbol it does resolve (without them the whole kernel showed as its entry point).
    found, local, base = [], [], None
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWw":
            local.append((int(parts[0], 16), parts[2]))
            addr = lib.get_pointer_to_function(parts[2]) if parts[1] in "Tt" else 0
            if addr:
                found.append((addr, parts[2]))
                base = addr - int(parts[0], 16)
    if base is not None:
        named = {n for _, n in found}
        found += [(base + off, n) for off, n in local if n not in named]
    return found


def play(game: str, strategy: str, games: int, players: int, code: str,
         symbol: str = "play_games") -> None:
    keep_cached_object_code()
    import numba

    numba.set_num_threads(1)
    import simcore.games  # noqa: F401  (the cache stamps of the game folders)

    module = game.replace("-", "_")
    D = importlib.import_module(f"simcore.games.{module}.driver")
    R = importlib.import_module(f"simcore.games.{module}.rules")
    S = importlib.import_module(f"strategies.{module}")
    rules = R.load()
    _, rows = S.resolve(strategy, players)
    D.run_chunk(rules, players, 0, 20, 0, rows)
    entries = sorted({e for name in dir(D) if name.startswith("play_games")
                      for cres in getattr(getattr(D, name), "overloads", {}).values()
                      for e in symbols(cres.library)})
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for i, (addr, name) in enumerate(entries):
            size = entries[i + 1][0] - addr if i + 1 < len(entries) else 65536
            f.write(f"{addr:x} {size:x} {re.sub(r'B[0-9]+v[0-9].*', '', name)[-90:]}\n")
    entry = ([(a, n) for a, n in entries if n.startswith("cfunc.") and "play_games" in n]
             if symbol == "play_games" else [(a, n) for a, n in entries if symbol in n])
    if entry:
        lo = entry[0][0]
        hi = min([a for a, _ in entries if a > lo] or [lo + 200_000])
        with open(f"{code}.bin", "wb") as f:
            f.write(ctypes.string_at(lo, hi - lo))
        with open(f"{code}.addr", "w") as f:
            f.write(f"{lo:x} {hi:x}\n")
    t = time.process_time()
    done = 0
    while done < games:
        n = min(1 << 17, games - done)
        D.run_chunk(rules, players, done, n, 0, rows)
        done += n
    print(f"{game} {strategy}: {(time.process_time() - t) / games * 1e6:.2f} µs/game (CPU, one "
          f"thread, {len(entries)} jitted symbols mapped)", file=sys.stderr)


def hot(data: str, code: str, top: int = 12) -> None:
    lo, hi = (int(x, 16) for x in open(f"{code}.addr").read().split())
    ips = subprocess.run(["perf", "script", "-i", data, "-F", "ip"], capture_output=True,
                         text=True).stdout.split()
    counts = collections.Counter(int(x, 16) for x in ips if lo <= int(x, 16) < hi)
    total = sum(counts.values()) or 1
    spans = collections.Counter()
    for a, n in counts.items():
        spans[(a - lo) // 128] += n
    asm = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                          f"--adjust-vma={lo:#x}", f"{code}.bin"],
                         capture_output=True, text=True).stdout.splitlines()
    print(f"{total} samples in the entry point's code ({len(ips)} in all)")
    for k, n in spans.most_common(top):
        start = lo + 128 * k
        print(f"==== {start:#x}: {100 * n / total:.1f}% of the entry point's samples")
        for line in asm:
            head = line.strip().split(":")[0]
            try:
                a = int(head, 16)
            except ValueError:
                continue
            if start <= a < start + 128:
                print(f"{counts.get(a, 0):5d} {line.strip()[:100]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="middle-ages", choices=("middle-ages", "medievallons"))
    ap.add_argument("--strategy", default="random")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=float, default=4e5)
    ap.add_argument("--hot", metavar="PERF_DATA", help="print the hottest spans of a recorded run")
    ap.add_argument("--symbol", default="play_games",
                    help="dump this jitted function's code instead of the entry point's (a part of "
                         "its mangled name, e.g. decide_heuristic or 7advance), for --hot")
    ap.add_argument("--code", default="/tmp/kernel-code",
                    help="where the entry point's code dump goes (PATH.bin, PATH.addr); the same "
                         "for the run under perf and for --hot")
    a = ap.parse_args()
    if a.hot:
        hot(a.hot, a.code)
    else:
        play(a.game, a.strategy, int(a.games), a.players, a.code, a.symbol)


if __name__ == "__main__":
    main()
