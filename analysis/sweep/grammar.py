"""``--vary`` and the variants of a sweep: what changes, over which values.

``--vary PATH=2..5`` (whole numbers 2 to 5; in a sweep ``0..1e3`` too: ends that are whole numbers,
however written, without a step), ``PATH=0..1:0.25`` (a step), ``PATH=0.5..1.5`` (a
continuous range: ``balance tune`` only), ``PATH=[a, b, c]`` (listed values, each read as ``--set``
reads one, :func:`simcore.config.parse_value`, a bare word a string: ``combat.lords_removed=[last,
first]``, ``setup.start_coins=[[2,1,0,0],[0,0,0,0]]``, ``income.palais.counts=[[palais], [palais,
eglise]]``), ``setup.start_coins[0]=0..8`` (one seat of a per-seat list) and ``players=2..5`` (the
player count, not a rules setting). Several ``--vary`` make a grid (:func:`grid`) or, with
``--one-at-a-time``, one parameter moves while the others stay at the base rules' value
where their list has it, else at their first value (:func:`one_at_a_time`). Every malformed or oversized request is a one-line
:class:`~simcore.errors.UsageError` before anything is played.

Which seat an entry of a per-seat list belongs to (:func:`seat_index`: entry [0] is seat 1's unless
the game's spec says otherwise in ``seat_lists``, e.g. Seigneurial's ``resources.start_cards``, one
entry per Censitaire, seat 2 first), and the refusal of a ``--vary``/``--set PATH[k]`` whose seat
no played cell has (:func:`check_seat_entries`).

May import the standard library, :mod:`simcore.config` / :mod:`simcore.errors` and the registry
:mod:`simcore.games` (a game's spec: plain data).
"""

from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any

from simcore.config import format_value, parse_path, parse_value, path_text
from simcore.errors import UsageError

PLAYERS = "players"
#: the per-seat list settings whose entry [0] is seat 1's, whatever game declares them (Middle-Ages'
#: start coins, MA-1; Médiévallons' hand size, MV-2); a game's spec ``seat_lists`` adds its own with
#: their first seat. An index into a single number also makes a per-seat list
#: (:func:`simcore.config.set_in`), seat 1 first.
SEAT_LISTS = ("setup.start_coins", "setup.hand_size")
MAX_VARIANTS = 2000
MAX_TUNE_VALUES = 100_000       # values of one stepped range a tune may search
_NUM = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_RANGE = re.compile(rf"\s*(?P<lo>{_NUM})\s*\.\.\s*(?P<hi>{_NUM})\s*(?::\s*(?P<step>{_NUM})\s*)?")


@dataclass(frozen=True)
class Vary:
    """One ``--vary``: the parameter (a rules path, or ``players``) and its values or range.

    ``kind`` is ``int`` (a whole-number range), ``float`` (a range of numbers) or ``list`` (the
    values as listed). ``values`` are the values a sweep plays (empty for a float range without
    a step, which only ``balance tune`` accepts)."""

    text: str
    path: tuple | None            # None: the player count
    kind: str
    values: tuple
    lo: float | None = None
    hi: float | None = None
    step: float | None = None

    @property
    def name(self) -> str:
        return PLAYERS if self.path is None else path_text(self.path)

    @property
    def is_players(self) -> bool:
        return self.path is None

    def value_text(self, value: Any) -> str:
        return format_value(value)

    def to_json(self) -> dict:
        return {"text": self.text, "name": self.name, "kind": self.kind,
                "values": list(self.values), "lo": self.lo, "hi": self.hi, "step": self.step}


def parse_vary(text: str, option: str = "--vary", *, need_values: bool = True) -> Vary:
    """Parse one ``--vary PATH=VALUES`` (see the module docstring)."""
    what = f"{option} {text}"
    if "=" not in text:
        raise UsageError(f"{what}: expected PATH=VALUES (e.g. income.palais.base=2..5 or "
                         "players=[3,4])")
    head, body = text.split("=", 1)
    head = head.strip()
    path = None if head == PLAYERS else parse_path(head, what)
    body = body.strip()
    m = _RANGE.fullmatch(body)
    if m:
        lo_s, hi_s, step_s = m.group("lo"), m.group("hi"), m.group("step")
        whole = all(re.fullmatch(r"[+-]?\d+", s) for s in (lo_s, hi_s, step_s or "1"))
        if not whole and need_values and step_s is None and _whole_numbers(lo_s, hi_s):
            # a sweep plays a range's values: ends that are whole numbers written otherwise (1e3,
            # 5.0) make the range of whole numbers 2..5 makes, counted as one (0..1e300 asked for
            # a step, as if its values could be played)
            lo, hi, step, whole = int(float(lo_s)), int(float(hi_s)), None, True
        else:
            try:
                lo, hi = (int(lo_s), int(hi_s)) if whole else (float(lo_s), float(hi_s))
                step = (int(step_s) if whole else float(step_s)) if step_s else None
            except ValueError:              # past Python's 4,300 digits of a whole number
                raise UsageError(f"{what}: a number of more digits than any setting takes") from None
        if hi < lo:
            raise UsageError(f"{what}: the range runs from {lo_s} up to {hi_s}; put the smaller first")
        if not all(math.isfinite(x) for x in (lo, hi, step or 1) if isinstance(x, float)):
            raise UsageError(f"{what}: the range's numbers must be finite")
        if step is not None and not step > 0:
            raise UsageError(f"{what}: the step must be more than 0")
        count = (hi - lo) // (step or 1) + 1 if whole else ((hi - lo) / step + 1 if step else 1)
        most = MAX_VARIANTS if need_values else MAX_TUNE_VALUES
        if count > most:                    # counted before any value is made
            shown = f"{count:,.0f}" if count < 1e9 else _many(count)
            raise UsageError(f"{what}: {shown} values is more than {most:,} (a larger "
                             "step, or a narrower range)")
        if whole:
            values = tuple(range(lo, hi + 1, step or 1))
            kind = "int"
        else:
            kind = "float"
            if step is None:
                if need_values:
                    raise UsageError(f"{what}: a sweep needs the values of a range of numbers: give "
                                     f"a step ({lo_s}..{hi_s}:0.5) or list them ([..])")
                values = ()
            else:
                n = int(math.floor((hi - lo) / step + 1e-9)) + 1
                values = tuple(round(lo + i * step, 12) for i in range(n))
    else:
        try:
            parsed = parse_value(body, what)
        except UsageError:
            if body.startswith("["):        # a list it cannot read: parse_value's line says why
                raise
            raise UsageError(f"{what}: expected a range (2..5, 0..1:0.25) or a list ([a, b, c])") \
                from None
        values = tuple(parsed) if isinstance(parsed, list) else (parsed,)
        if not values:
            raise UsageError(f"{what}: the list of values is empty")
        kind, lo, hi, step = "list", None, None, None
        if len(set(map(format_value, values))) != len(values):
            raise UsageError(f"{what}: a value is listed twice")
    if path is None:
        if kind == "float" or not all(isinstance(v, int) and not isinstance(v, bool)
                                      for v in values):
            raise UsageError(f"{what}: the player count takes whole numbers (players=2..5)")
    return Vary(text=text.strip(), path=path, kind=kind, values=values,
                lo=lo if m else None, hi=hi if m else None, step=step if m else None)


def _many(count) -> str:
    """A count of a billion or more as "1e+300", even past the largest float (a whole-number range
    of 400 digits)."""
    if isinstance(count, float) or count < 1e300:
        return f"{count:.3g}"
    exponent = math.floor(math.log10(count))
    if count < 10 ** exponent:              # the logarithm rounded up (10**400 - 1)
        exponent -= 1
    return f"{count // 10 ** (exponent - 2) / 100:.3g}e+{exponent}"


def _whole_numbers(*texts: str) -> bool:
    """Every one of ``texts`` is a finite whole number, however written (``1e3``, ``5.0``)."""
    values = [float(t) for t in texts]
    return all(math.isfinite(x) and x == math.floor(x) for x in values)


def parse_varies(texts, option: str = "--vary", *, need_values: bool = True) -> tuple[Vary, ...]:
    out = tuple(parse_vary(t, option, need_values=need_values) for t in (texts or ()))
    names = [v.name for v in out]
    for n in names:
        if names.count(n) > 1:
            raise UsageError(f"{option} {n}: varied twice (give its values in one --vary)")
    return out


@dataclass(frozen=True)
class Variant:
    """One point of a sweep: its id (``v000``…), the value of every varied parameter."""

    id: str
    values: tuple                 # one value per Vary, in the order of the --vary options

    def settings(self, varies: tuple[Vary, ...]) -> list[str]:
        """The ``--set`` texts of the rules values of this variant."""
        return [f"{v.name}={format_value(x)}" for v, x in zip(varies, self.values) if not v.is_players]

    def players(self, varies: tuple[Vary, ...]) -> int | None:
        for v, x in zip(varies, self.values):
            if v.is_players:
                return int(x)
        return None

    def label(self, varies: tuple[Vary, ...]) -> str:
        return ", ".join(f"{v.name}={format_value(x)}" for v, x in zip(varies, self.values))

    def to_json(self, varies: tuple[Vary, ...]) -> dict:
        return {"id": self.id, "values": {v.name: x for v, x in zip(varies, self.values)},
                "label": self.label(varies)}


def _check_size(n: int, option: str) -> None:
    if n > MAX_VARIANTS:
        raise UsageError(f"{option}: {n:,} variants is more than {MAX_VARIANTS:,} (fewer values, or "
                         "--one-at-a-time, or balance tune to search a large space)")


def grid(varies: tuple[Vary, ...], option: str = "--vary") -> list[Variant]:
    """Every combination of the values (the first --vary changes slowest)."""
    if not varies:
        raise UsageError(f"{option}: give at least one parameter to vary (e.g. --vary income.palais.base=2..5)")
    _check_size(math.prod(len(v.values) for v in varies), option)
    return [Variant(f"v{i:03d}", combo)
            for i, combo in enumerate(itertools.product(*(v.values for v in varies)))]


def one_at_a_time(varies: tuple[Vary, ...], option: str = "--vary", held: list[int] | None = None
                  ) -> list[Variant]:
    """The base variant (every parameter at its held value), then each parameter through its
    other values with the others at their held value. ``held``: per parameter the index of the
    value it is held at (the base rules' value where the list has it, :func:`held_values`); by
    default its first value."""
    if not varies:
        raise UsageError(f"{option}: give at least one parameter to vary (e.g. --vary income.palais.base=2..5)")
    at = list(held) if held is not None else [0] * len(varies)
    base = tuple(v.values[k] for v, k in zip(varies, at))
    combos = [base]
    for i, v in enumerate(varies):
        for k, x in enumerate(v.values):
            if k != at[i]:
                combos.append(base[:i] + (x,) + base[i + 1:])
    _check_size(len(combos), option)
    return [Variant(f"v{i:03d}", c) for i, c in enumerate(combos)]


def _spec(game):
    """The spec of ``game`` (a name or a spec), or None."""
    if game is None or hasattr(game, "seat_lists"):
        return game
    from simcore import games as registry

    try:
        return registry.get(str(game))
    except Exception:                   # an unknown name (an old file's): no declarations
        return None


def first_seat(game, path: str) -> int:
    """The 0-based seat entry [0] of the per-seat list at ``path`` belongs to: the spec's
    ``seat_lists`` (Seigneurial's ``resources.start_cards``: 1, seat 2), else 0 (seat 1)."""
    spec = _spec(game)
    return int((getattr(spec, "seat_lists", None) or {}).get(path, 0))


def seat_index(name: str, base=None, game=None) -> int | None:
    """The 0-based seat a setting ``PATH[k]`` names when PATH is a per-seat list (declared by the
    game's spec, one of :data:`SEAT_LISTS`, or a single number in the base rules ``base``, which an
    index turns into one): the list's first seat (:func:`first_seat`) + k; None otherwise."""
    m = re.fullmatch(r"(.+)\[(\d+)\]", name)
    if not m:
        return None
    path = m.group(1)
    declared = path in (getattr(_spec(game), "seat_lists", None) or {})
    if declared or path in SEAT_LISTS or (base is not None and not isinstance(base, (list, dict, str))):
        return first_seat(game, path) + int(m.group(2))
    return None


def _seats_words(n: int, first: int) -> str:
    """The seats a per-seat list starting at seat ``first`` (0-based) covers at ``n`` players and
    their indices: "seats 1-2: indices [0] and [1]"."""
    a, b = first + 1, n
    last = n - 1 - first
    if last < 0:
        return "no seat of this list"
    seats = f"seat {a}" if a == b else f"seats {a}-{b}"
    idx = ("index [0]" if last == 0 else "indices [0] and [1]" if last == 1
           else f"indices [0] to [{last}]")
    return f"{seats}: {idx}"


def check_seats_of(game, varies, settings, counts, rules_data=None, option: str = "--vary") -> None:
    """:func:`check_seat_entries` for a sweep's or tune's ``varies`` (:class:`Vary`) and ``--set``
    ``settings`` (:class:`simcore.config.Setting`), ``rules_data`` the parsed base rules."""
    items = [(option, v.text, v.name) for v in varies if not v.is_players]
    items += [("--set", s.text, s.key) for s in settings]

    def base_of(name: str):
        node = rules_data
        for part in re.sub(r"\[\d+\]$", "", name).split("."):
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node

    check_seat_entries(game, items, counts, base_of if rules_data is not None else None)


def check_seat_entries(game, items, counts, base_of=None) -> None:
    """Refuse, in one line before any game, a ``--vary``/``--set PATH[k]`` of a per-seat list whose
    seat (:func:`seat_index`) no played cell has: ``counts`` the player counts of every cell the
    run plays, ``items`` (option, typed text, name) triples, ``base_of(name)`` the base rules'
    value at the name's path (for a single number an index makes a per-seat list). A seat some
    cell has is allowed (a panel's other cells simply have no such seat)."""
    counts = sorted({int(c) for c in counts if c})
    if not counts:
        return
    for option, text, name in items:
        k = seat_index(name, base_of(name) if base_of else None, game)
        if k is None or k < max(counts):
            continue
        path, idx = name.rsplit("[", 1)
        first = first_seat(game, path)
        if len(counts) == 1:
            has = f"this run has {counts[0]} players ({_seats_words(counts[0], first)})"
        else:
            listed = ", ".join(map(str, counts[:-1])) + f" and {counts[-1]}"
            has = (f"this run's cells have {listed} players (at most {_seats_words(counts[-1], first)})")
        raise UsageError(f"{option} {text}: [{idx} is seat {k + 1}'s, but {has}; it would "
                         "change no game")

