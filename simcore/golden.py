"""The golden-playthrough command line shared by every game: print, ``--write`` or ``--check``.

A game's golden module defines ``render()`` (the full text of its fixed game) and the committed
file's path, and hands both to :func:`main`; :func:`logged_playthrough` renders the usual text of a
reference engine that takes bots with ``choose(kind, options, state, seat, rng)``: every random
decision logged with its options, then the final table; :func:`diff` is the unified diff from the
committed file to a fresh rendering ('' when identical), so a rules or engine change shows up as a
readable diff.

:func:`decision_line` is the one line a decision is logged as, here and in ``balance replay``
(:mod:`simcore.replay`): ``[Corvée: target] P1 chooses P3  (options: P2, P3, P4)``. The decision is
named in the game's words, its reference engine's optional ``DECISION_WORDS`` (decision kind →
words; a kind it does not name, or an engine without the dict, shows the kind itself), and each
option in the words of its optional ``option_text(kind, option)`` (or ``option_text(kind, option,
state)`` when the words need the table: Middle-Ages shows a column with its tile).

Seats are printed as a person reads them, from 1 (``P1`` is seat 1), in a golden playthrough as in
``balance replay``, the reports and ``--find`` (:func:`people_seats`, :func:`people_log`; review s46
#7: the golden log printed the engines' own 0-based ``P0`` with no word of it, so in Seigneurial
"P1" was the Seigneur in a replay and the first Censitaire in the golden log). The engines keep
0-based seats; only what is printed is renumbered. May import the standard library and
:mod:`simcore.atomic`.
"""

from __future__ import annotations

import argparse
import difflib
import inspect
import re
import sys
from pathlib import Path
from typing import Callable

from simcore.atomic import write_text_atomic


_SEAT = re.compile(r"\bP(\d)\b")

#: The line under a golden playthrough's first line (the engine's own header): how seats are
#: numbered, as ``balance replay``'s header says it.
SEATS_NOTE = "Seats are numbered from 1 (P1 is seat 1), as in balance replay and the reports."


def people_seats(line: str) -> str:
    """``P0`` … of a reference engine's log as a person reads seats: ``P1`` is seat 1 (``P0`` →
    ``P1``, ``P3`` → ``P4``), as the reports, ``balance replay`` and ``--find`` number them."""
    return _SEAT.sub(lambda m: f"P{int(m.group(1)) + 1}", line)


def people_log(lines: list[str]) -> list[str]:
    """A reference engine's log (its header first) with seats numbered from 1
    (:func:`people_seats`) and :data:`SEATS_NOTE` under the header."""
    out = [people_seats(x) for x in lines]
    return out[:1] + [SEATS_NOTE] + out[1:]


def decision_words(reference, kind: str) -> str:
    """Decision ``kind`` in the game's words: its reference engine's ``DECISION_WORDS[kind]``
    ("Corvée: target" for ``corvee_target``), else ``kind`` itself (a game without the dict)."""
    return (getattr(reference, "DECISION_WORDS", None) or {}).get(kind, kind)


def option_words(reference, kind: str, option, state=None) -> str:
    """One option of decision ``kind`` in the game's words: the reference engine's
    ``option_text(kind, option)``, given the table too when it takes a ``state`` argument."""
    text = reference.option_text
    if "state" in inspect.signature(text).parameters:
        return text(kind, option, state=state)
    return text(kind, option)


def decision_line(reference, kind: str, options, chosen: int, seat: int, state=None,
                  shown: int = 8) -> str:
    """The log line of one decision: ``      [words] P<seat> chooses <option>  (options: …)``, the
    words of :func:`decision_words`, the options of :func:`option_words` (the first ``shown`` of
    them, then how many in all). ``seat`` as the engine numbers it (0-based: ``balance replay`` and
    the golden playthroughs renumber the whole log from 1, :func:`people_seats`)."""
    listed = ", ".join(option_words(reference, kind, o, state) for o in options[:shown])
    more = f", … ({len(options)} in all)" if len(options) > shown else ""
    return (f"      [{decision_words(reference, kind)}] P{seat} chooses "
            f"{option_words(reference, kind, options[chosen], state)}  (options: {listed}{more})")


def logged_random(reference, log: list, shown: int):
    """A ``reference.RandomStrategy`` that appends every decision it takes, with up to ``shown`` of
    its options, to ``log`` (:func:`decision_line`)."""

    class LoggedRandom(reference.RandomStrategy):
        def choose(self, kind, options, state, seat, rng):
            i = super().choose(kind, options, state, seat, rng)
            log.append(decision_line(reference, kind, options, i, seat, state, shown))
            return i

    return LoggedRandom()


def logged_playthrough(reference, rules, n_players: int, seed: int, game: int, table_title: str,
                       shown: int) -> str:
    """The golden text of a reference engine with logged random bots: its log of game ``game`` (every
    decision, ``debug`` invariants on), then ``table_title`` and its final table, seats numbered
    from 1 (:func:`people_log`)."""
    log: list[str] = []
    bots = [logged_random(reference, log, shown) for _ in range(n_players)]
    record = reference.play_game(rules, n_players, seed, game, strategies=bots, log=log, debug=True)
    lines = log + ["", table_title] + reference.record_table(record)
    return "\n".join(people_log(lines)) + "\n"


def diff(render: Callable[[], str], path: Path) -> str:
    """Unified diff from the committed ``path`` to ``render()`` ('' when identical)."""
    fresh = render()
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    return "".join(difflib.unified_diff(old.splitlines(keepends=True), fresh.splitlines(keepends=True),
                                        fromfile=str(path), tofile="regenerated"))


def main(argv: list[str] | None, render: Callable[[], str], path: Path, prog: str,
         description: str) -> int:
    """No option: print ``render()``. ``--write``: regenerate ``path`` (atomically). ``--check``:
    exit code 1 and the diff when ``path`` differs, else 0."""
    ap = argparse.ArgumentParser(prog=prog, description=description)
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"regenerate {path.name}")
    group.add_argument("--check", action="store_true", help="exit 1 (with a diff) if the file differs")
    args = ap.parse_args(argv)
    if args.write:
        write_text_atomic(path, render(), force=True, option="--write")
        print(f"wrote {path}")
        return 0
    if args.check:
        d = diff(render, path)
        if d:
            sys.stdout.write(d)
            return 1
        print(f"{path.name} is up to date")
        return 0
    sys.stdout.write(render())
    return 0


class Golden:
    """A game's golden playthrough written once: ``render()`` and the committed ``path``; its
    golden module keeps ``GOLDEN_PATH``, ``render``, and ``diff, main = Golden(...).diff, .main``
    (the names ``balance golden`` and the conformance suite use)."""

    def __init__(self, render: Callable[[], str], path: Path, prog: str, description: str) -> None:
        self.render, self.path, self.prog = render, path, prog
        self.description = description.strip().splitlines()[0]

    def diff(self, path: Path | None = None) -> str:
        """Unified diff from the committed file to a fresh rendering ('' when identical)."""
        return diff(self.render, path or self.path)

    def main(self, argv: list[str] | None = None) -> int:
        return main(argv, self.render, self.path, self.prog, self.description)


def golden_path(name: str) -> Path:
    """``tests/golden/<name>`` of the checkout this module sits in."""
    return Path(__file__).resolve().parents[1] / "tests" / "golden" / name
