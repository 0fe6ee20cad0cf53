"""Golden playthrough of Middle-Ages: the reference engine's full log of one fixed game.

``python -m simcore.games.middle_ages.golden`` prints the log (4 players, seed 7, game 0, random
strategies, default rules: turn by turn, then the final MA-12 table); ``--write`` regenerates
``tests/golden/middle_ages_4p_seed7.txt``; ``--check`` exits 1 and prints a unified diff when the
committed file differs, so a rules or engine change shows up as a readable diff. May import the
standard library and :mod:`simcore.games.middle_ages` (rules, reference).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from simcore.games.middle_ages import reference, rules

N_PLAYERS, SEED, GAME = 4, 7, 0
GOLDEN_PATH = Path(__file__).resolve().parents[3] / "tests" / "golden" / "middle_ages_4p_seed7.txt"


def render() -> str:
    """The golden text: the reference log of the fixed game, then its final table."""
    log: list[str] = []
    record = reference.play_game(rules.load(), N_PLAYERS, SEED, GAME, log=log, debug=True)
    lines = log + ["", "Final table (MA-12)"] + reference.record_table(record)
    return "\n".join(lines) + "\n"


def diff(path: Path = GOLDEN_PATH) -> str:
    """Unified diff from the committed file to a fresh rendering ('' when identical)."""
    fresh = render()
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), fresh.splitlines(keepends=True),
                                        fromfile=str(path), tofile="regenerated"))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m simcore.games.middle_ages.golden", description=__doc__)
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
