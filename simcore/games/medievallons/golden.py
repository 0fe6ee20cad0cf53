"""Golden playthrough of Médiévallons: the reference engine's full log of one fixed game.

``python -m simcore.games.medievallons.golden`` prints the log (4 players, seed 7, game 0, random
strategies, default rules: turn by turn, every decision and power, then the final MV-9 table);
``--write`` regenerates ``tests/golden/medievallons_4p_seed7.txt``; ``--check`` exits 1 and prints a
unified diff when the committed file differs, so a rules or engine change shows up as a readable
diff. May import the standard library and :mod:`simcore.games.medievallons` (rules, reference).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from simcore.games.medievallons import reference, rules

N_PLAYERS, SEED, GAME = 4, 7, 0
GOLDEN_PATH = Path(__file__).resolve().parents[3] / "tests" / "golden" / "medievallons_4p_seed7.txt"


class _LoggedRandom(reference.RandomStrategy):
    """The random bot, writing every decision it takes into the log."""

    def __init__(self, log: list) -> None:
        self.log = log

    def choose(self, kind, options, state, seat, rng):
        i = super().choose(kind, options, state, seat, rng)
        shown = ", ".join(reference.option_text(kind, o) for o in options[:12])
        more = f", … ({len(options)} in all)" if len(options) > 12 else ""
        self.log.append(f"      [{kind}] P{seat} chooses {reference.option_text(kind, options[i])}"
                        f"  (options: {shown}{more})")
        return i


def render() -> str:
    """The golden text: the reference log of the fixed game, then its final table."""
    log: list[str] = []
    bots = [_LoggedRandom(log) for _ in range(N_PLAYERS)]
    record = reference.play_game(rules.load(), N_PLAYERS, SEED, GAME, strategies=bots, log=log,
                                 debug=True)
    lines = log + ["", "Final table (MV-9)"] + reference.record_table(record)
    return "\n".join(lines) + "\n"


def diff(path: Path = GOLDEN_PATH) -> str:
    """Unified diff from the committed file to a fresh rendering ('' when identical)."""
    fresh = render()
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), fresh.splitlines(keepends=True),
                                        fromfile=str(path), tofile="regenerated"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m simcore.games.medievallons.golden",
                                 description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"regenerate {GOLDEN_PATH.name}")
    group.add_argument("--check", action="store_true", help="exit 1 (with a diff) if the file differs")
    args = ap.parse_args(argv)
    if args.write:
        GOLDEN_PATH.parent.mkdir(parents=True, exist_ok=True)
        tmp = GOLDEN_PATH.with_suffix(".tmp")
        tmp.write_text(render(), encoding="utf-8")
        tmp.replace(GOLDEN_PATH)
        print(f"wrote {GOLDEN_PATH}")
        return 0
    if args.check:
        d = diff()
        if d:
            sys.stdout.write(d)
            return 1
        print(f"{GOLDEN_PATH.name} is up to date")
        return 0
    sys.stdout.write(render())
    return 0


if __name__ == "__main__":
    sys.exit(main())
