"""Strict reading of designer-editable TOML files.

A :class:`Table` wraps one TOML table with the file name and key path, so every validation error
names file, key and problem in one line (:class:`simcore.errors.ConfigError`). Unknown keys are
errors: a typo in a rules file must never be silently ignored (a misspelt section is named as
unknown, not only the one it stands for as missing: :meth:`RulesFile._checked`), and a file of
the wrong kind (a baseline, strategies or panels file given as rules, and the other mix-ups; another
game's strategies: :func:`other_game_strategies`) says so (:func:`wrong_kind`). A refusal
suggests what was meant: the close key of the same table, or, for a key given without its section
or under the wrong one, where the file has it (``hand_size`` → ``setup.hand_size``:
:func:`found_elsewhere`), and the close word for a setting that takes one of a fixed set of words
(:func:`did_you_mean`).

Rule settings on the command line (``--set PATH=VALUE``) are parsed here once for every game:
:func:`parse_setting` reads ``income.palais.base=4`` or ``setup.start_coins[0]=3`` (dotted keys,
0-based list indices, the value a TOML value, a bare word a string, also in a list:
:func:`parse_value`, which ``--vary`` reads its lists with too), and :func:`apply_settings`
applies them to a parsed rules file and returns a new :class:`TomlSource` whose text is the
complete resulting rules file (the original text edited in place where possible, so comments stay;
otherwise the whole document written again). The game's own strict loader then validates the
result exactly as it validates a file: an unknown key, a wrong type or a value out of range is one
line naming the key. :func:`read_toml` accepts such a source in place of a path, so every loader
that reads a path takes overridden rules unchanged. A file or value nested deeper than
:data:`MAX_NESTING` lists or tables is refused in one line, "nested too deeply"
(:func:`toml_loads`, :func:`parse_value`), never a RecursionError.

May import only the standard library and :mod:`simcore.errors` (and, lazily, the registry
:mod:`simcore.games` and the games' rules modules it names, to tell whose rules a refused file holds;
the registry also tells, through :data:`seat_lists_of`, how many entries a per-seat list that does
not start at seat 1 holds).
"""

from __future__ import annotations

import contextlib

import copy
import difflib
import hashlib
import math
import os
import pickle
import re
import stat
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.errors import ConfigError, OtherGameRules, UsageError


@dataclass(frozen=True)
class TomlSource:
    """A TOML file as read: where it came from, its text, its sha256 and the parsed data."""

    name: str
    text: str
    sha256: str
    data: dict


def read_toml(path: "str | Path | TomlSource", *, what: str = "config") -> TomlSource:
    """Read and parse a TOML file; a :class:`TomlSource` (rules already read and overridden, see
    :func:`apply_settings`) is returned as it is. A baseline read as rules, or rules read as a
    baseline, is refused in one line saying which it is (:func:`wrong_kind`)."""
    if isinstance(path, TomlSource):
        return path
    p = Path(path)
    src = parse_toml(read_bounded(p, what), name=str(p))
    refusal = wrong_kind(src, what)
    if refusal is not None:
        raise refusal
    return src


#: Deepest nesting of lists and tables a value may have (the shipped rules nest 3 deep): a file,
#: ``--set`` or ``--vary`` nested deeper is refused in one line, "nested too deeply", before
#: Python's recursion limit turns it into a traceback of thousands of lines (review s62 #5).
MAX_NESTING = 64
NESTED_TOO_DEEPLY = f"nested too deeply: more than {MAX_NESTING} levels of lists or tables"


def toml_loads(text: str) -> dict:
    """:func:`tomllib.loads`, a document nested deeper than :data:`MAX_NESTING` refused as
    invalid TOML (a :class:`tomllib.TOMLDecodeError` saying :data:`NESTED_TOO_DEEPLY`), also when
    it is deep enough to exhaust Python's recursion inside the parser (review s62 #5: a
    RecursionError of some 3,000 lines, exit 1)."""
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(NESTED_TOO_DEEPLY) from None
    if _data_depth(data) > MAX_NESTING:
        raise tomllib.TOMLDecodeError(NESTED_TOO_DEEPLY)
    return data


def _data_depth(data: Any) -> int:
    """How deep lists and tables nest in the parsed ``data`` (a table of scalars: 1), without
    recursion."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if deepest > MAX_NESTING:
            return deepest
        children = node.values() if isinstance(node, dict) else node
        stack += [(c, depth + 1) for c in children if isinstance(c, (dict, list))]
    return deepest


def _nesting(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` (a ``--set`` or ``--vary`` value)
    outside strings and comments, in one pass: checked before the value is read, whose readers
    (:func:`_word_list` too) recurse once per level."""
    deepest = depth = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(depth - 1, 0)
        elif ch == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif ch in "\"'":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else ch
            j = i + len(quote)
            while j < n and text[j:j + len(quote)] != quote:
                if quote[0] == '"' and text[j] == "\\":
                    j += 1
                elif len(quote) == 1 and text[j] == "\n":
                    break                       # (an unclosed string: the parser says so)
                j += 1
            i = j + len(quote)
            continue
        i += 1
    return deepest


def wrong_kind(src: TomlSource, what: str) -> ConfigError | None:
    """The one line for a file of the other kind than ``what`` ("rules", "baseline", "strategies"
    or "panels"): a baseline file given as anything else (:func:`is_baseline`), a game's rules
    given as a baseline, strategies or a panel (:func:`rules_game`), a strategies file given as
    rules, a panel or a baseline (:func:`strategies_game`), a panels file given as rules,
    strategies or a baseline (:func:`is_panels`), saying which it is and which is expected
    (review P #8: "format: missing", "setup: missing table"; review W #11: a rules file read as
    bots said "events: must be a table"; review s59 #4: a strategies file as rules, "setup:
    missing table", rules as a panel, "setup.start_coins: unknown key"); None when the file is
    not recognisably of another kind."""
    where = {"baseline": "balance baseline RUN --out FILE writes a baseline",
             "strategies": "--strategies takes bot names or a strategies file (the format of "
                           "configs/<game>/strategies.toml)",
             "panels": "--panel takes a panel's name or a panels file (the format of "
                       "configs/<game>/panels.toml)",
             "rules": "--rules takes a rules file (the format of configs/<game>/rules.toml)"}
    if what in ("rules", "strategies", "panels") and is_baseline(src.data):
        return ConfigError(src.name, "", "is a baseline file (balance baseline writes it), not a "
                                         f"{what} file: give it to balance check --baseline")
    if what in ("baseline", "strategies", "panels") and not is_baseline(src.data):
        found = rules_game(src.data)
        if found is not None:
            game, sections = found
            shown = ", ".join(sections[:3]) + (", …" if len(sections) > 3 else "")
            return ConfigError(src.name, "", f"is a rules file of {game} (sections {shown}), not a "
                                             f"{what} file: give rules to --rules; {where[what]}")
    # a strategies file given as rules or a panel, a panels file given as rules or bots (review
    # s59 #4: "setup: missing table", "setup.start_coins: unknown key")
    if what in ("rules", "panels", "baseline"):
        found = strategies_game(src.data)
        if found is not None:
            game, bots = found
            shown = ", ".join(bots[:3]) + (", …" if len(bots) > 3 else "")
            return ConfigError(src.name, "", f"is a strategies file of {game} (bots {shown}), not a "
                                             f"{what} file: give it to --strategies; {where[what]}")
    if what in ("rules", "strategies", "baseline") and is_panels(src.data):
        shown = ", ".join(list(src.data)[:3]) + (", …" if len(src.data) > 3 else "")
        return ConfigError(src.name, "", f"is a panels file (panels {shown}), not a {what} file: "
                                         f"give it to --panel; {where[what]}")
    return None


#: The keys of a panel (strategies.panels: a table of a panels file), for :func:`is_panels`.
PANEL_KEYS = frozenset({"description", "players", "lineups", "roles", "weight", "cells"})


def is_panels(data: Any) -> bool:
    """Whether a parsed TOML file is a panels file (configs/<game>/panels.toml): tables only, each
    with keys of a panel alone and a line-up in it (``lineups``, ``roles`` or ``cells``)."""
    return (isinstance(data, dict) and bool(data)
            and all(isinstance(v, dict) and set(v) <= PANEL_KEYS and set(v) & {"lineups", "roles", "cells"}
                    for v in data.values()))


def _games_strategies() -> list[tuple[str, set[str], set[str], set[str]]]:
    """(game, its bots' kinds, their keys, its presets' names) of every registered game's shipped
    strategies file (beside its shipped rules)."""
    out = []
    for name, path_of in (shipped_rules() if shipped_rules is not None else []):
        try:
            data = _shipped_data(Path(path_of()).parent / "strategies.toml")
        except Exception:     # a game whose files cannot be found is no candidate
            continue
        tables = [v for v in data.values() if isinstance(v, dict)]
        if tables:
            out.append((name, {str(t.get("kind")) for t in tables},
                        {str(k) for t in tables for k in t}, {str(k) for k in data}))
    return out


def _strategies_scores(data: Any) -> dict[str, int] | None:
    """How much of a strategies-shaped file (tables only, each with a ``kind`` that some game's
    bots have) each game's shipped strategies share: its kinds, its bots' keys and its presets'
    names; None for a file of another shape."""
    games = _games_strategies()
    kinds = set().union(*(g[1] for g in games)) if games else set()
    if not (isinstance(data, dict) and data and all(
            isinstance(v, dict) and isinstance(v.get("kind"), str) and v["kind"] in kinds
            for v in data.values())):
        return None
    mine_kinds = {v["kind"] for v in data.values()}
    mine_keys = {str(k) for v in data.values() for k in v}
    return {name: len(mine_kinds & k) + len(mine_keys & keys) + len(set(data) & names)
            for name, k, keys, names in games}


def strategies_game(data: Any) -> tuple[str, list[str]] | None:
    """(the registered game whose shipped strategies ``data`` is most like, the file's bots) for a
    file shaped as a strategies file (:func:`_strategies_scores`); None for any other file."""
    scores = _strategies_scores(data)
    if not scores:
        return None
    return max(scores, key=scores.get), list(data)


def other_game_strategies(data: Any, presets_path: Path) -> tuple[str, str, dict[str, str], list[str]] | None:
    """(this game, the other game, {bot: kind} of the file's bots of kinds this game lacks, this
    game's kinds sorted) when a strategies file refused by the game whose shipped strategies are
    ``presets_path`` has kinds of bot this game lacks and another registered game has, and is more
    like that game's shipped bots (kinds, keys and preset names: review s59 #4, Seigneurial's bots
    given to Middle-Ages read "standard.kind: must be one of random, heuristic, rollout; got
    'policy'"); None when it is not (a mistake in a file of this game). Only what is known: the
    kinds are that game's, not that the file is valid there (review s59 rv235 #4: a lone
    ``kind = "policy"`` bot is refused by Seigneurial too, it needs a seigneur table)."""
    scores = _strategies_scores(data)
    if not scores:
        return None
    mine = next((name for name, path_of in (shipped_rules() or []) if _same_file(
        Path(path_of()).parent / "strategies.toml", presets_path)), None)
    if mine is None or mine not in scores:
        return None
    # a kind of bot this game does not have, and that game does (Seigneurial's "policy" given to
    # Middle-Ages): the keys alone (a search bot's "horizon") leave the game's own line clearer
    kinds = {name: k for name, k, _, _ in _games_strategies()}
    foreign = {v["kind"] for v in data.values()} - kinds.get(mine, set())
    other = max((g for g in scores if g != mine and foreign and foreign <= kinds[g]),
                key=scores.get, default=None)
    if other is None or scores[other] <= scores[mine]:
        return None
    return (mine, other, {str(b): str(v["kind"]) for b, v in data.items() if v["kind"] in foreign},
            sorted(kinds.get(mine, set())))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except (OSError, RuntimeError):
        return False


#: The largest config file read (rules, strategies, panels, baselines): real ones are a few KB.
MAX_CONFIG_BYTES = 4 * 1024 * 1024


def check_config_file(p: str | Path, what: str = "config", limit: int = MAX_CONFIG_BYTES) -> None:
    """Refuse in one line a ``what`` file ``p`` that is missing, not a regular file (a directory, a
    device such as /dev/zero, a FIFO, a socket) or over ``limit`` bytes, without reading it: a
    command checks its inputs this way before it relates ``--out`` to them (so ``--rules DIR``
    is named as the mistake, not an ``--out`` inside DIR; revC #9)."""
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise UsageError(f"{what} file not found: {p}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {what} file {p}: {exc.strerror}") from None
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"{what} file {p}: is a directory (give a .toml file)")
    if not stat.S_ISREG(st.st_mode):
        kind = ("a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                "a named pipe" if stat.S_ISFIFO(st.st_mode) else
                "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise UsageError(f"{what} file {p}: is {kind}, not a regular file (give a .toml file)")
    if st.st_size > limit:
        raise UsageError(f"{what} file {p}: {st.st_size:,} bytes, more than a {what} file can be "
                         f"(at most {limit:,})")


def read_bounded(p: Path, what: str = "config", limit: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of the regular file ``p``, refusing in one line anything else (a directory, a
    device such as /dev/zero, a FIFO, a socket) and a file over ``limit`` bytes, before reading
    more than ``limit + 1`` bytes (so a file that grows while read cannot hold the process)."""
    check_config_file(p, what, limit)
    try:
        with open(p, "rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {what} file {p}: {exc.strerror}") from None
    if len(raw) > limit:
        raise UsageError(f"{what} file {p}: more than {limit:,} bytes (it grew while read)")
    return raw


# The parsed data of the texts parsed last, by their sha256, pickled: a sweep, a tune or a panel
# reads the same rules file once per variant, trial or cell (and the test suite ~2,800 times).
# tomllib takes ~4-7 ms for Middle-Ages's 12 kB rules file, unpickling its data ~0.1 ms. Each
# caller gets data of its own (unpickled afresh: a caller editing it changes no other's copy).
_PARSED: dict[str, bytes] = {}
_PARSED_KEPT = 32


@contextlib.contextmanager
def reading_recorded_rules(meta: dict, where: str):
    """Around reading a run's recorded rules (run.json ``rules_text``, named by its ``rules_name``):
    a rules error there is the run's record's, not the file it names (review s48 safety #6: a
    damaged run.json said "error: …/configs/middle_ages/rules.toml: invalid TOML", the shipped
    file, which is fine). Re-raised as one :class:`UsageError` naming ``where`` (the run.json)."""
    name = str(meta.get("rules_name") or "run.json rules_text")
    try:
        yield
    except ConfigError as exc:
        if exc.source != name:
            raise
        what = f"{exc.key}: {exc.problem}" if exc.key else exc.problem
        raise UsageError(f"{where}: the rules this run recorded (rules_text, played from {name}) "
                         f"do not read: {what}; the run's record is damaged or from another "
                         "version (simulate it again)") from None


def parse_toml(raw: bytes | str, *, name: str) -> TomlSource:
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(name, "", "not UTF-8 text") from None
    sha = hashlib.sha256(raw).hexdigest()
    kept = _PARSED.get(sha)
    if kept is not None:
        return TomlSource(name=name, text=text, sha256=sha, data=pickle.loads(kept))
    try:
        data = toml_loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(name, "", f"invalid TOML ({exc})") from None
    if len(_PARSED) >= _PARSED_KEPT:
        del _PARSED[next(iter(_PARSED))]          # the oldest
    _PARSED[sha] = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    return TomlSource(name=name, text=text, sha256=sha, data=data)


_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a table"}


def _allowed(lo, hi) -> str:
    """`` (allowed: 0 to 1000)``: a refusal names the whole range a setting takes."""
    return f" (allowed: {lo} to {hi})" if lo is not None and hi is not None else ""


def did_you_mean(typed: Any, known, *, cutoff: float = 0.6) -> str:
    """``"; did you mean X?"`` for the one of ``known`` closest to ``typed`` (difflib), or "" when
    none is close: the suggestion every refusal of a misspelt name ends with."""
    near = difflib.get_close_matches(str(typed), [str(k) for k in known], n=1, cutoff=cutoff)
    return f"; did you mean {near[0]}?" if near else ""


def _nodes(tree: Any, trail: tuple = ()):
    """Every (path, value) in the tables of ``tree``, depth first (lists are values: a key inside
    an array of tables is not offered as a place to put a setting)."""
    if isinstance(tree, dict):
        for k, v in tree.items():
            path = (*trail, str(k))
            yield path, v
            yield from _nodes(v, path)


def _chain(value: Any) -> tuple:
    """The keys of a table holding one key down to a value (``{copies = {artisan = 3}}`` →
    ``("copies", "artisan")``); () when it holds more or fewer."""
    out: tuple = ()
    while isinstance(value, dict) and len(value) == 1:
        (k, value), = value.items()
        out = (*out, str(k))
    return out if not isinstance(value, dict) else ()


#: Across a whole rules file (a hundred keys), difflib's default cutoff (0.6) offers unrelated keys
#: for a name that is simply wrong; a key typed without its section is usually spelt right.
_ELSEWHERE_CUTOFF = 0.8


def found_elsewhere(tree: Any, typed: tuple, value: Any = None) -> list[tuple]:
    """The paths in ``tree`` where the key at ``typed`` (a path; not a key of its own table) is a
    key of another table, by its name or a close misspelling of it, holding the same kind of thing
    as ``value`` (what was typed: a table, or a value): the key a designer gave without its section
    (``--set hand_size=5`` for ``setup.hand_size``) or under the wrong one. A table typed as one
    chain of keys down to a value (``copies.artisan=3``) is found with that chain when the table
    found has it (``deck.copies.artisan``). [] when the name is found nowhere."""
    name, is_table = str(typed[-1]), isinstance(value, dict)
    places = [(p, v) for p, v in _nodes(tree)
              if p != tuple(map(str, typed)) and isinstance(v, dict) == is_table]
    names = sorted({p[-1] for p, _ in places})
    near = [name] if name in names else difflib.get_close_matches(name, names, n=1,
                                                                   cutoff=_ELSEWHERE_CUTOFF)
    found = []
    for p, v in places:
        if near and p[-1] == near[0]:
            rest = _chain(value) if is_table else ()
            below = _at(v, rest) if rest else None
            found.append((*p, *rest) if below is not None and not isinstance(below, dict) else p)
    return found


def suggest_paths(paths: list[tuple], tail: tuple = ()) -> str:
    """``"; did you mean a.b or c.b?"`` for the paths found (at most three shown, each followed by
    the rest of the path as typed, ``tail``: list indices and keys); "" for none."""
    if not paths:
        return ""
    shown = [path_text((*p, *tail)) for p in paths[:3]] + (["…"] if len(paths) > 3 else [])
    return f"; did you mean {' or '.join(shown)}?"


class Table:
    """One TOML table under validation; remembers which keys were read to reject unknown ones."""

    def __init__(self, data: Any, source: str, path: str = "", *, root: Any = None) -> None:
        if not isinstance(data, dict):
            raise ConfigError(source, path or "(top level)", "must be a table")
        self.data, self.source, self.path, self._seen = data, source, path, set()
        # the whole file, so that a key given in the wrong table can be found in its own
        self._root = data if root is None else root

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, problem: str) -> ConfigError:
        return ConfigError(self.source, self.key(name), problem)

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, kind: type, default: Any = ..., *, lo: float | None = None,
            hi: float | None = None, choices: list | None = None) -> Any:
        self._seen.add(name)
        if name not in self.data:
            if default is ...:
                raise self.error(name, "missing")
            return default
        value = self.data[name]
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise self.error(name, f"must be {_TYPE_NAMES.get(kind, kind.__name__)}, got {value!r}")
        if kind is float and not math.isfinite(value):     # (nan passes every bound check)
            raise self.error(name, f"must be a finite number, got {value!r}")
        if lo is not None and value < lo:
            raise self.error(name, f"must be >= {lo}{_allowed(lo, hi)}, got {value!r}")
        if hi is not None and value > hi:
            raise self.error(name, f"must be <= {hi}{_allowed(lo, hi)}, got {value!r}")
        if choices is not None and value not in choices:
            raise self.error(name, f"must be one of {', '.join(map(str, choices))}; got {value!r}"
                                   + (did_you_mean(value, choices) if isinstance(value, str) else ""))
        return value

    def per_seat(self, name: str, kind: type, default: Any, *, lo: float | None = None,
                 hi: float | None = None, max_seats: int) -> tuple[list, int]:
        """A setting that is one value for every seat, or a list of one value per seat (seat 0
        first), for per-seat compensation such as ``start_coins = [2, 1, 0, 0]``.

        Returns ``(values, listed)``: ``max_seats`` values (a list is padded with its last value
        only to fill the array) and how many seats the list names (0 for a single value: every
        seat). The game refuses a list shorter than its player count (:meth:`check_seats`)."""
        value = self.data.get(name, default)
        if not isinstance(value, list):
            v = self.get(name, kind, default, lo=lo, hi=hi)
            return [v] * max_seats, 0
        self._seen.add(name)
        if len(value) > max_seats:
            # (``--set setup.start_coins[99]=3`` builds a list of 100: its index is what to name, revC #10)
            raise self.error(name, f"index {len(value) - 1} is past the last seat (seat {max_seats} is "
                                   f"index {max_seats - 1}; a per-seat list holds 1 to {max_seats} values)")
        if not value:
            raise self.error(name, f"a per-seat list needs 1 to {max_seats} values (seat 1 first), got 0")
        sub = Table({f"{name}[{i}]": v for i, v in enumerate(value)}, self.source, self.path,
                    root=self._root)
        values = [sub.get(f"{name}[{i}]", kind, lo=lo, hi=hi) for i in range(len(value))]
        return values + [values[-1]] * (max_seats - len(values)), len(values)

    def table(self, name: str, default: Any = ...) -> "Table":
        self._seen.add(name)
        if name not in self.data:
            if default is ...:
                raise self.error(name, "missing table")
            return Table({}, self.source, self.key(name), root=self._root)
        return Table(self.data[name], self.source, self.key(name), root=self._root)

    def tables(self, name: str) -> list["Table"]:
        """An array of tables (``[[name]]`` or a list of inline tables)."""
        self._seen.add(name)
        if name not in self.data:
            raise self.error(name, "missing")
        items = self.data[name]
        if not isinstance(items, list):
            raise self.error(name, "must be a list of tables")
        return [Table(item, self.source, f"{self.key(name)}[{i}]", root=self._root)
                for i, item in enumerate(items)]

    def names(self, name: str, allowed: list[str], default: Any = ...) -> list[str]:
        """A list of names, each from ``allowed``."""
        values = self.get(name, list, default)
        for v in values:
            if v not in allowed:
                raise self.error(name, f"unknown name {v!r}" + did_you_mean(v, allowed)
                                       + f" (known: {', '.join(allowed)})")
        return list(values)

    def done(self) -> None:
        """Reject keys that were never read (typos, settings that do not exist)."""
        unknown = [k for k in self.data if k not in self._seen]
        if unknown:
            typed = unknown[0]
            hint = did_you_mean(typed, sorted(self._seen)) or self._elsewhere(typed)
            raise self.error(typed, "unknown key" + hint
                             + (f" (known here: {', '.join(sorted(self._seen))})" if self._seen else ""))

    def _elsewhere(self, typed: str) -> str:
        """The suggestion for a key of this table that is a key of another table of the file
        (:func:`found_elsewhere`); "" for a table whose path is not plain keys (an array's row)."""
        if "[" in self.path:
            return ""
        here = tuple(self.path.split(".")) if self.path else ()
        if _at(self._root, here) is not self.data:
            return ""
        return suggest_paths(found_elsewhere(self._root, (*here, str(typed)), self.data[typed]))



# ---------------------------------------------------------------------------------------------
# A game's rules file, written once
# ---------------------------------------------------------------------------------------------

def shipped_configs() -> Path:
    """The toolkit's own ``configs/`` folder (the package beside ``simcore``), found from this
    file, not by importing ``configs``: a folder named ``configs`` in the working directory (ci.md
    has the user write ``configs/baselines/…``) was imported in its place and every default path
    failed (review s48 docs #7, "MultiplexedPath.joinpath() takes 2 positional arguments")."""
    return Path(__file__).resolve().parent.parent / "configs"


class RulesFile:
    """The scaffolding of a game's rules module written once (a
    :class:`simcore.contract.RulesModule`): the shipped default (``configs/<folder>/rules.toml``,
    or a path beside the game), and :meth:`load` / :meth:`loads` / :meth:`variant` through the
    game's own strict ``from_source(TomlSource) -> rules``. ``--set`` needs nothing here: the runner
    applies the settings to the file's :class:`TomlSource` (:func:`apply_settings`), which
    :meth:`load` takes in place of a path and validates exactly like a file. A rules module keeps
    ``default_rules_path, load, loads, variant = RULES.default_rules_path, RULES.load, …``."""

    def __init__(self, default: "str | Path", from_source) -> None:
        self._default, self._from_source = default, from_source

    def default_rules_path(self) -> Path:
        """The shipped rules: ``configs/<folder>/rules.toml`` (or the path given)."""
        if isinstance(self._default, Path):
            return self._default
        return shipped_configs() / self._default / "rules.toml"

    def load(self, path: "str | Path | TomlSource | None" = None):
        """Load and validate a rules file (the shipped default when ``path`` is None; a
        :class:`TomlSource` with ``--set`` applied is taken as it is)."""
        return self._checked(read_toml(path or self.default_rules_path(), what="rules"))

    def loads(self, text: str, name: str = "<rules>"):
        """Load rules from TOML text (tests, programmatic variants)."""
        return self._checked(parse_toml(text, name=name))

    def _checked(self, src: TomlSource):
        """The game's strict loader; a file it refuses is named for what it is when that is clearer
        than the first key of this game's rules it lacks (``setup.blue_tiles: missing``): a
        baseline file (:func:`wrong_kind`), another registered game's rules
        (:func:`other_game_rules`), or a section or key this game does not have, typed close to the
        one it lacks (``[income.palace]`` for ``[income.palais]``: :func:`misspelt_for`)."""
        try:
            return self._from_source(src)
        except ConfigError as exc:
            refusal = wrong_kind(src, "rules")
            if refusal is not None:
                raise refusal from None
            found = other_game_rules(src.data, self.default_rules_path())
            if found is not None:
                mine, other, sections = found
                shown = ", ".join(sections[:4]) + (", …" if len(sections) > 4 else "")
                raise OtherGameRules(src.name, mine, other, shown) from None
            typed = misspelt_for(src.data, _shipped_data(self.default_rules_path()), exc)
            if typed is None:
                raise
            kind = "section" if isinstance(_at(src.data, parse_path(typed, typed)), dict) else "key"
            raise ConfigError(src.name, typed, f"unknown {kind}; did you mean {exc.key}? "
                                               f"({exc.key} is missing)") from None

    def variant(self, *pairs: tuple[str, str], name: str = "variant.toml"):
        """The shipped default rules with exact text replacements ``(old, new)`` (tests,
        benchmarks). Each ``old`` must occur in the default file: a ValueError otherwise, so that
        a variant never silently equals the default after the file changes."""
        text = self.default_rules_path().read_text(encoding="utf-8")
        for old, new in pairs:
            if old not in text:
                raise ValueError(f"not in the default rules file: {old!r}")
            text = text.replace(old, new)
        return self.loads(text, name=name)


def _sections(data: Any) -> set[str]:
    return {str(k) for k in data} if isinstance(data, dict) else set()


_SHIPPED: dict[Path, dict] = {}
#: Every registered game's name and a function giving the path of its shipped rules, as
#: ``shipped_rules() -> [(name, path_of), ...]``: set by :mod:`simcore.games` when it is imported
#: (this module lies below the registry and may not import it); None: no other game is known.
shipped_rules = None
#: ``seat_lists_of(name) -> (seat_lists, most players)``: a game's spec ``seat_lists`` (a per-seat
#: list's path → the 0-based seat of its entry [0]) and its most players, set by :mod:`simcore.games`
#: when it is imported (this module sits below the registry and never imports it); None: every
#: per-seat list made from one value gets one entry per seat played (:func:`_seat_list_length`)
seat_lists_of = None


def _shipped_data(path: Path) -> dict:
    """The parsed shipped rules file ``path`` (read once); {} when it cannot be read."""
    path = Path(path)
    if path not in _SHIPPED:
        try:
            _SHIPPED[path] = toml_loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            _SHIPPED[path] = {}
    return _SHIPPED[path]


def _games_sections() -> list[tuple[str, Path, set[str]]]:
    """(game, shipped rules path, its top-level sections) of every registered game with rules."""
    out = []
    for name, path_of in (shipped_rules() if shipped_rules is not None else []):
        try:
            shipped = Path(path_of())
        except Exception:     # a game whose rules cannot be found is no candidate
            continue
        sections = _sections(_shipped_data(shipped))
        if sections:
            out.append((name, shipped, sections))
    return out


def other_game_rules(data: Any, default_path: Path) -> tuple[str, str, list[str]] | None:
    """(this game, the other game, the file's sections of it) when a rules file refused by the game
    whose shipped rules are ``default_path`` matches another registered game's rules better: more
    of the file's top-level sections (and keys) are among that game's shipped rules' than among
    this game's. None when no other game matches better (a damaged file of this game, say)."""
    mine_name, own, others = None, None, []
    for name, shipped, sections in _games_sections():
        if shipped.resolve() == Path(default_path).resolve():
            mine_name, own = name, sections
        else:
            others.append((name, sections))
    keys = _sections(data)
    if mine_name is None or not keys:
        return None
    score = lambda sections: len(keys & sections)        # noqa: E731
    best = max(others, key=lambda o: score(o[1]), default=None)
    if best is None or score(best[1]) <= score(own) or score(best[1]) * 2 < len(keys):
        return None
    return mine_name, best[0], sorted(keys & best[1])


def rules_game(data: Any) -> tuple[str, list[str]] | None:
    """(the registered game, the file's sections of its rules) whose shipped rules hold most of the
    top-level sections of ``data``, and at least half of them; None when no game's do (a file
    that is not rules: a baseline refused as rules is named by :func:`is_baseline`)."""
    keys = _sections(data)
    if not keys or is_baseline(data):
        return None
    best = max(_games_sections(), key=lambda g: len(keys & g[2]), default=None)
    if best is None or len(keys & best[2]) * 2 < len(keys):
        return None
    return best[0], sorted(keys & best[2])


def is_baseline(data: Any) -> bool:
    """Whether a parsed TOML file is a baseline of ``balance check`` (``balance baseline`` writes
    ``format``, a ``[run]`` table and ``[tolerance]`` or ``[[metric]]``: analysis.check.baseline),
    told apart here so that a baseline given as rules is named as one."""
    return (isinstance(data, dict) and "format" in data and isinstance(data.get("run"), dict)
            and ("tolerance" in data or "metric" in data))


def misspelt_for(data: Any, shipped: Any, exc: ConfigError) -> str | None:
    """The key path the file has instead of the one ``exc`` says is missing, when it typed one
    close to it that the game's shipped rules ``shipped`` do not have beside it (``income.palace``
    for a missing ``income.palais``); None otherwise."""
    if not exc.key or not exc.problem.startswith("missing"):
        return None
    try:
        path = parse_path(exc.key, exc.key)
    except UsageError:
        return None
    parent, name = path[:-1], path[-1]
    mine, known = _at(data, parent), _at(shipped, parent)
    if not isinstance(name, str) or not isinstance(mine, dict) or not isinstance(known, dict):
        return None
    strangers = [str(k) for k in mine if k not in known]
    near = difflib.get_close_matches(name, strangers, n=1)
    return path_text((*parent, near[0])) if near else None


def _at(data: Any, path: tuple) -> Any:
    """The value at ``path`` (keys and list indices) in ``data``; None when there is none (a list
    index past the shipped rules' list reads its first element: the same table layout)."""
    for p in path:
        if isinstance(p, int) and isinstance(data, list) and data:
            data = data[p] if p < len(data) else data[0]
        elif isinstance(p, str) and isinstance(data, dict) and p in data:
            data = data[p]
        else:
            return None
    return data


def allowed_players(top: Table, default: list[int], lo: int, hi: int) -> list[int]:
    """``[players] allowed``: the player counts a rules file may be played with, each a whole
    number from ``lo`` to ``hi`` (what the engines support), at least one, none twice."""
    pl = top.table("players", {})
    allowed = pl.get("allowed", list, default)
    for v in allowed:
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise pl.error("allowed", f"player counts must be whole numbers from {lo} to "
                                      f"{hi}, got {v!r}")
    if not allowed:
        raise pl.error("allowed", "must list at least one player count")
    if len(set(allowed)) != len(allowed):
        raise pl.error("allowed", "lists a player count twice")
    pl.done()
    return allowed


# ---------------------------------------------------------------------------------------------
# Rule settings on the command line: --set PATH=VALUE
# ---------------------------------------------------------------------------------------------

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_SEGMENT = re.compile(r'(?:(?P<bare>[A-Za-z0-9_-]+)|"(?P<quoted>[^"\\]*)")(?P<idx>(?:\[\s*-?[0-9]+\s*\])*)')
#: The largest list index ``--set`` takes: rule lists hold one element per seat, tile or row, far
#: fewer than this; a larger index would only build a list of that many copies.
MAX_LIST_INDEX = 999
_BARE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_:\-]*")


@dataclass(frozen=True)
class Setting:
    """One ``--set PATH=VALUE``: ``path`` holds table keys (str) and 0-based list indices (int)."""

    path: tuple
    value: Any
    text: str                   # as typed, for messages and run.json

    @property
    def key(self) -> str:
        return path_text(self.path)


def path_text(path: tuple | list) -> str:
    """``("setup", "start_coins", 0)`` → ``setup.start_coins[0]``."""
    out = ""
    for p in path:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            k = p if _BARE_KEY.fullmatch(p) else f'"{p}"'
            out += ("." if out else "") + k
    return out


def parse_path(text: str, what: str) -> tuple:
    """A dotted key path with optional list indices: ``tile_table.rows[3].chests``."""
    s = text.strip()
    if not s:
        raise UsageError(f"{what}: empty setting name (expected a dotted key of the game's rules file, e.g. section.key=4)")
    path: list = []
    pos = 0
    while True:
        m = _SEGMENT.match(s, pos)
        if m is None:
            raise UsageError(f"{what}: {s!r} is not a setting name (dotted keys with optional [index], "
                             "e.g. income.palais.base or setup.start_coins[0])")
        path.append(m.group("bare") if m.group("bare") is not None else m.group("quoted"))
        for i in re.findall(r"-?[0-9]+", m.group("idx") or ""):
            if i.startswith("-"):
                raise UsageError(f"{what}: list index {i} must be 0 or more (0 = the first element)")
            if len(i.lstrip("0")) > len(str(MAX_LIST_INDEX)) or int(i) > MAX_LIST_INDEX:
                raise UsageError(f"{what}: list index {i if len(i) < 30 else i[:12] + '…'} is too "
                                 f"large (at most {MAX_LIST_INDEX}; 0 = the first element)")
            path.append(int(i))
        pos = m.end()
        if pos == len(s):
            return tuple(path)
        if s[pos] != ".":
            raise UsageError(f"{what}: {s!r} is not a setting name (unexpected {s[pos]!r} at "
                             f"position {pos + 1})")
        pos += 1


def parse_value(text: str, what: str) -> Any:
    """A TOML value (``4``, ``2.5``, ``true``, ``[2, 1, 0, 0]``, ``"open"``); a bare word such as
    ``open`` or ``defender:3`` is taken as a string, also in a list, nested or not (``[palais,
    eglise]``, ``[[palais], [palais, eglise]]``: :func:`_word_list`). ``--set`` and ``--vary``
    (:mod:`analysis.sweep.grammar`) read values here. A value neither reads is one line saying
    why (an unclosed ``[``, an item that is not a value nor a word)."""
    s = text.strip()
    if not s:
        raise UsageError(f"{what}: no value after '='")
    if _nesting(s) > MAX_NESTING:
        # (the value not repeated: thousands of brackets; review s62 #5)
        raise UsageError(f"{_shortened(what)}: {NESTED_TOO_DEEPLY}")
    value = _value_or_word(s)
    if value is not _NEITHER:
        return value
    if s.startswith("["):
        return _word_list(s, what)
    raise UsageError(f"{what}: {s!r} is not a TOML value (a number, true/false, a word, [a, b], or "
                     "a string in quotes)")


def _shortened(text: str, limit: int = 80) -> str:
    """``text`` cut to about ``limit`` characters, its start and end kept."""
    return text if len(text) <= limit else f"{text[:limit - 21]}…{text[-20:]}"


def _word_list(s: str, what: str) -> list:
    """``[palais, eglise]`` or ``[[palais], [palais, eglise]]``: a list whose items are TOML values,
    bare words (strings, as :func:`parse_value` reads one alone) or such lists; a one-line
    :class:`UsageError` saying why otherwise."""
    def refuse(why: str, hint: str = " (a list is [a, b] or [[a], [a, b]]; a word in it needs no "
                                      "quotes)"):
        return UsageError(f"{what}: {s!r} is not a TOML value: {why}{hint}")

    def items(pos: int) -> tuple[list, int]:          # s[pos - 1] is the list's '['
        out: list = []
        while True:
            pos = _skip_blanks(s, pos)
            if pos < len(s) and s[pos] == "]":
                return out, pos + 1                     # (after a trailing comma too, as TOML allows)
            if pos < len(s) and s[pos] == "[":
                value, pos = items(pos + 1)
            else:
                end = _item_end(s, pos)
                item = s[pos:end].strip()
                if not item:
                    raise refuse("an empty item" if end < len(s) else "a '[' is not closed")
                value, pos = _item_value(item, refuse), end
            out.append(value)
            pos = _skip_blanks(s, pos)
            if pos >= len(s):
                raise refuse("a '[' is not closed")
            if s[pos] == "]":
                return out, pos + 1
            if s[pos] != ",":
                raise refuse(f"expected ',' or ']' at position {pos + 1}")
            pos += 1

    value, end = items(1)
    if end < len(s):
        raise refuse(f"unexpected {s[end:]!r} after the list's closing ']'")
    return value


def _skip_blanks(s: str, pos: int) -> int:
    while pos < len(s) and s[pos] in " \t":
        pos += 1
    return pos


def _item_end(s: str, pos: int) -> int:
    """Where the list item starting at ``pos`` ends: the next ',', '[' or ']' outside quotes and
    inline tables."""
    quote, depth = None, 0
    while pos < len(s):
        c = s[pos]
        if quote:
            if c == "\\" and quote == '"':
                pos += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c in "{}":
            depth += 1 if c == "{" else -1
        elif c in ",[]" and depth <= 0:
            return pos
        pos += 1
    return pos


_NEITHER = object()


def _value_or_word(s: str) -> Any:
    """``s`` read as a TOML value, or as a bare word (a string); :data:`_NEITHER` when it is
    neither."""
    try:
        return toml_loads(f"v = {s}")["v"]
    except tomllib.TOMLDecodeError:
        pass
    return s if _BARE_WORD.fullmatch(s) and s not in ("true", "false") else _NEITHER


def _item_value(item: str, refuse) -> Any:
    """One item of a list of words: a TOML value, or a bare word (a string)."""
    value = _value_or_word(item)
    if value is not _NEITHER:
        return value
    raise refuse(f"{item!r} is neither a value nor one word (a comma missing? a word holds "
                 "letters, digits, _ - and :; other text goes in quotes)", "")


def parse_setting(text: str, option: str = "--set") -> Setting:
    """``PATH=VALUE`` → :class:`Setting` (a one-line :class:`UsageError` when malformed)."""
    if "\n" in text or "\r" in text:
        # (review s48 safety #4: the TOML value read both lines, and the second setting was lost
        # while run.json recorded it)
        first = text.splitlines()[0] if text.splitlines() else ""
        raise UsageError(f"{option} {first!r}…: holds a line break; give one setting per {option}")
    what = f"{option} {text}"
    if "=" not in text:
        raise UsageError(f"{what}: expected PATH=VALUE, a dotted key of the game's rules file and its "
                         f"new value (e.g. section.key=4)")
    head, value = text.split("=", 1)
    return Setting(parse_path(head, what), parse_value(value, what), text.strip())


def parse_settings(texts, option: str = "--set") -> tuple[Setting, ...]:
    """Every ``--set``; the same setting given twice (or a setting and a part of it) is refused:
    which one should win is not for the toolkit to guess."""
    out = tuple(parse_setting(t, option) for t in (texts or ()))
    for i, a in enumerate(out):
        for b in out[:i]:
            short, long_ = sorted((a.path, b.path), key=len)
            if long_[:len(short)] == short:
                same = "twice" if a.path == b.path else f"and a part of it ({path_text(long_)})"
                raise UsageError(f"{option} {a.text}: {path_text(short)} is given {same} "
                                 f"({b.text}); give each setting once")
    return out


def set_in(data: dict, path: tuple, value: Any, *, seats: int | None = None,
           what: str = "--set") -> None:
    """Set ``value`` at ``path`` in the parsed document ``data`` (changed in place).

    Missing tables on the way are created (the loader then refuses keys it does not know). An index
    into a scalar turns it into a per-seat list: the scalar repeated for ``seats`` elements (or as
    many as the index needs), so ``setup.start_coins[0]=3`` on ``start_coins = 0`` gives
    ``[3, 0, 0, 0]`` at 4 players; a list that starts at another seat (the game's spec
    ``seat_lists``) gets as many as it can hold (:func:`_seat_list_length`)."""
    node: Any = data
    trail: list = []
    for i, step in enumerate(path):
        last = i == len(path) - 1
        where = path_text(trail) or "(top level)"
        if isinstance(step, str):
            if not isinstance(node, dict):
                raise UsageError(f"{what}: {where} is {_kind(node)}, not a table (no key {step!r})")
            if last:
                node[step] = copy.deepcopy(value)
                return
            if step not in node and not isinstance(path[i + 1], str):
                # a new key indexed at once could only be an empty list: it is a misspelt key
                hint = (did_you_mean(step, node)
                        or _elsewhere_indexed(data, (*trail, step), path[i + 1:]))
                raise UsageError(f"{what}: {path_text([*trail, step])}: unknown key" + hint
                                 + f" (known here: {', '.join(sorted(map(str, node))) or 'none'})")
            if step not in node:
                node[step] = {}
            parent, key = node, step
        else:
            if isinstance(node, dict):
                raise UsageError(f"{what}: {where} is a table, not a list (no element [{step}])")
            if not isinstance(node, list):
                n = max(step + 1, seats or 0)
                longest = _seat_list_length(data, path_text(trail))
                if longest is not None:
                    n = max(step + 1, longest)
                node = [copy.deepcopy(node) for _ in range(n)]
                parent[key] = node
            if step >= len(node):
                raise UsageError(f"{what}: {where}[{step}] is past the end of the list "
                                 f"({len(node)} element{'s' if len(node) != 1 else ''}, 0-based)")
            if last:
                node[step] = copy.deepcopy(value)
                return
            parent, key = node, step
        trail.append(step)
        node = parent[key]


def _seat_list_length(data: dict, path: str) -> int | None:
    """How many entries a per-seat list at ``path`` that does not start at seat 1 holds at most
    (the game's spec ``seat_lists``: its most players less the list's first seat; Seigneurial's
    ``resources.start_cards``, one per Censitaire: 4), for the game whose rules ``data`` are
    (:func:`rules_game`); None for any other list (it gets one entry per seat played). An index
    into the single number of such a list makes it that long, whatever the player count: the
    game's loader asks for entries for every count its rules allow, and a list of one entry per
    seat played was refused at 3 players."""
    if seat_lists_of is None:
        return None
    try:
        found = rules_game(data)
        if found is None:
            return None
        lists, most = seat_lists_of(found[0])
        first = (lists or {}).get(path)
        return None if first is None else int(most) - int(first)
    except Exception:           # (a hint of length only: the loader still validates the list)
        return None


def _elsewhere_indexed(data: dict, typed: tuple, rest: tuple) -> str:
    """``"; did you mean setup.start_coins[0]?"`` for ``start_coins[0]`` typed without its section:
    a value of that name elsewhere in ``data`` (a list, or one value a per-seat list replaces),
    followed by what was typed after it; "" when there is none."""
    return suggest_paths(found_elsewhere(data, typed, value=[]), tail=rest)


def _kind(v: Any) -> str:
    return _TYPE_NAMES.get(type(v), type(v).__name__)


def apply_settings(src: TomlSource, settings, *, seats: int | None = None) -> TomlSource:
    """The rules of ``src`` with ``settings`` applied, as a new source (validate it with the game's
    loader). Its text is the complete rules file, headed by comment lines naming the settings."""
    settings = tuple(settings)
    if not settings:
        return src
    data = copy.deepcopy(src.data)
    for s in settings:
        set_in(data, s.path, s.value, seats=seats, what=f"--set {s.text}")
    text = _edited_text(src.text, src.data, data, settings)
    head = "".join(f"# --set {s.key}={format_value(_get(data, s.path))}\n" for s in settings)
    text = f"# {src.name} with these settings changed on the command line:\n{head}{text}"
    name = f"{src.name} with --set " + ", ".join(s.text for s in settings)
    return parse_toml(text, name=name)


def _get(data: Any, path: tuple) -> Any:
    for p in path:
        data = data[p]
    return data


def format_value(v: Any) -> str:
    """One TOML value written inline."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        out = ['"']
        for ch in v:
            if ch in '"\\':
                out.append("\\" + ch)
            elif ord(ch) < 0x20 or ord(ch) == 0x7F:
                out.append(f"\\u{ord(ch):04x}")
            else:
                out.append(ch)
        return "".join(out) + '"'
    if isinstance(v, list):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    if isinstance(v, dict):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {format_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else format_value(k)


def dumps(data: dict) -> str:
    """The whole document written again (used when an in-place edit is not possible)."""
    lines: list[str] = []
    _dump_table(data, (), lines)
    return "\n".join(lines).strip("\n") + "\n"


def _is_table_array(v: Any) -> bool:
    return isinstance(v, list) and bool(v) and all(isinstance(x, dict) for x in v)


def _dump_table(t: dict, prefix: tuple, lines: list[str]) -> None:
    for k, v in t.items():
        if not isinstance(v, dict) and not _is_table_array(v):
            lines.append(f"{_key(k)} = {format_value(v)}")
    for k, v in t.items():
        name = ".".join(_key(p) for p in (*prefix, k))
        if isinstance(v, dict):
            lines += ["", f"[{name}]"]
            _dump_table(v, (*prefix, k), lines)
        elif _is_table_array(v):
            for item in v:
                lines += ["", f"[[{name}]]"]
                for ik, iv in item.items():
                    lines.append(f"{_key(ik)} = {format_value(iv)}")


def _edited_text(text: str, before: dict, after: dict, settings) -> str:
    """``text`` with the values of the set keys replaced in place (comments kept), checked by
    parsing it again; the whole document written anew when that is not possible."""
    edited = text
    for s in settings:
        keys = []
        for p in s.path:
            if not isinstance(p, str):
                break
            keys.append(p)
        new = _edit_one(edited, tuple(keys), after) if keys else None
        if new is None:
            edited = None
            break
        edited = new
    if edited is not None:
        try:
            if toml_loads(edited) == after:
                return edited
        except tomllib.TOMLDecodeError:
            pass
    return ("# (written again from the parsed rules: the settings could not be edited in place)\n"
            + dumps(after))


def _header_re(table: tuple) -> re.Pattern:
    inner = r"\s*\.\s*".join(re.escape(_key(k)) if _BARE_KEY.fullmatch(k) else
                             f'(?:{re.escape(_key(k))}|{re.escape(k)})' for k in table)
    return re.compile(rf"(?m)^[ \t]*\[[ \t]*{inner}[ \t]*\][ \t]*(?:#.*)?$")


def _section_span(text: str, table: tuple) -> tuple[int, int] | None:
    """Start (after the header line) and end of the section of ``[table]`` (() = top level)."""
    if table:
        m = _header_re(table).search(text)
        if m is None:
            return None
        start = m.end() + 1 if m.end() < len(text) else m.end()
    else:
        start = 0
    nxt = re.compile(r"(?m)^[ \t]*\[").search(text, start)
    return start, (nxt.start() if nxt else len(text))


def _edit_one(text: str, keys: tuple, after: dict) -> str | None:
    """Replace the value of the innermost written key of ``keys`` (``[a.b] c = …`` or an inline
    table ``b = { c = … }`` under ``[a]``) with its value in ``after``; insert ``c = …`` under an
    existing ``[a.b]`` header when the key is not written. None when neither applies."""
    for j in range(len(keys) - 1, -1, -1):
        span = _section_span(text, keys[:j])
        if span is None:
            continue
        start, end = span
        k = keys[j]
        key_pat = re.escape(k) if _BARE_KEY.fullmatch(k) else re.escape(format_value(k))
        m = re.compile(rf"(?m)^([ \t]*){key_pat}([ \t]*=[ \t]*)").search(text, start, end)
        value = _get(after, keys[:j + 1])
        if m is None:
            if j == len(keys) - 1:
                return text[:start] + f"{_key(k)} = {format_value(value)}\n" + text[start:]
            continue
        vstart = m.end()
        line_end = text.find("\n", vstart)
        line_end = len(text) if line_end < 0 else line_end
        # the old value may span lines (a long array): extend until `x = <value>` parses
        stop = line_end
        while True:
            cand = text[vstart:stop]
            value_text, comment = _split_comment(cand)
            if value_text is not None:
                break
            if stop >= end:
                return None
            nxt = text.find("\n", stop + 1)
            stop = end if nxt < 0 or nxt > end else nxt
        new_value = format_value(value)
        pad = " " * max(len(value_text) - len(new_value), 1) if comment else ""
        return text[:vstart] + new_value + (pad + comment if comment else "") + text[stop:]
    return None


def _split_comment(cand: str) -> tuple[str | None, str]:
    """(value text, trailing comment) if ``cand`` is one whole TOML value, else (None, "")."""
    try:
        toml_loads("x = " + cand)
    except tomllib.TOMLDecodeError:
        return None, ""
    for i, ch in enumerate(cand):
        if ch == "#":
            head = cand[:i]
            try:
                toml_loads("x = " + head)
                return head.rstrip(), cand[i:]
            except tomllib.TOMLDecodeError:
                continue
    return cand.rstrip(), ""
