"""Rule settings that differ between two rule texts: ``income.palais.base: 3 → 4``.

Every run records the rules it was played with (run.json ``rules_text``: the TOML after any
``--set``). :func:`settings_diff` parses two such texts and lists every dotted setting whose value
differs, whatever made it differ (a ``--set``, an edited rules file, a tuned candidate's rules);
:func:`rules_diff` does the same for two runs' run.json. Arrays of tables (Middle-Ages ``[[events]]``)
are compared element by element and named by their ``name``/``id`` key when they have one; plain
lists (``setup.start_coins``) compare as one value. Used by the before/after report
(:mod:`reports.rules_diff`, which adds its sentences and table) and by ``balance check``
(:mod:`analysis.check`, which leads its verdict with the settings a check's rules change from the
baseline's); it sits here, below both, so that neither copies it.

A setting one text leaves out reads as the value the game's loader then takes, where the game
declares it (:func:`simcore.games.absent_defaults`: a run recorded before the setting existed played
it at that value, so it is no change).

Which settings a player count reads: :func:`unread_at` (a change whose rules play the same games at
that count, :func:`simcore.games.same_rules_at`) and :func:`read_at` (the diff without them), used
per cell by ``balance check``; :func:`reads_setting` (whether a count reads a setting at some values),
used by a sweep (refused when no count played reads it) and a panel sweep's counts of cells.
:func:`loader_takes` (whether the loader takes a setting at a value): the before/after's suggested
sweep around the two values it compared (:func:`reports.sections.sweep_next_step`);
:func:`file_plays` (whether a rules file still gives a run's rules): the rules file that sweep, and
a sweep page's sweep over a panel (:func:`reports.sections.sweep_command`), name.

May import the standard library (tomllib) and, lazily, :mod:`simcore.games` (those defaults, and
the rules as a player count reads them), :mod:`simcore.config` (a change applied to a rules text)
and :mod:`simcore.errors`.
"""

from __future__ import annotations

import re

import tomllib
from dataclasses import dataclass


class _Missing:
    def __repr__(self) -> str:
        return "(absent)"


MISSING = _Missing()      # a setting one side does not have


@dataclass(frozen=True)
class Defaulted:
    """A setting one side leaves out, which the game's loader reads as ``value``
    (:func:`simcore.games.absent_defaults`): printed "1 (left out: the default)", not "(absent)"
    (review s51 Seigneurial #3: "corvee_discards: (absent) → 3" hid that the older run played 1)."""
    value: object


@dataclass(frozen=True)
class SettingChange:
    path: str
    before: object
    after: object

    @property
    def named(self) -> str:
        """The path, with the number a report gives an element of an array of tables beside its
        index: ``objectives.cards[9].fish (#10)``, as the Objective card table calls that card #10
        (review s46 #11: the diff's [9] beside the table's #9, another card). The path stays as
        ``--set`` takes it."""
        found = _INDEX.findall(self.path)
        return f"{self.path} (#{int(found[0]) + 1})" if len(found) == 1 else self.path

    @property
    def text(self) -> str:
        """``income.palais.base: 3 → 4`` (the report's rules diff)."""
        return f"{self.named}: {value_text(self.before)} → {value_text(self.after)}"

    @property
    def inline(self) -> str:
        """``income.palais.base 3 → 4``: the same, inside a sentence that already has a colon
        (``FAIL (rules differ from the baseline: income.palais.base 3 → 4): …``)."""
        return f"{self.named} {value_text(self.before)} → {value_text(self.after)}"


_INDEX = re.compile(r"\[(\d+)\]")      # an element of an array of tables, flattened (:func:`flatten`)


def value_text(v: object) -> str:
    """A TOML value as a designer typed it (``[2, 1, 0, 0]``, ``true``, ``"x"``); ``(absent)``."""
    if v is MISSING:
        return "(absent)"
    if isinstance(v, Defaulted):
        return f"{value_text(v.value)} (left out: the default)"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(value_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {value_text(x)}" for k, x in v.items()) + "}"
    return str(v)


def _element_key(i: int, d: dict) -> str:
    for k in ("name", "id", "type"):
        if k in d and isinstance(d[k], (str, int)):
            return f"[{d[k]!s}]" if k != "name" else f'["{d[k]}"]'
    return f"[{i}]"


def flatten(table: dict, prefix: str = "") -> dict[str, object]:
    """Dotted path → leaf value; arrays of tables are flattened per element."""
    out: dict[str, object] = {}
    for k, v in table.items():
        path = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, dict):
            out.update(flatten(v, path))
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for i, x in enumerate(v):
                out.update(flatten(x, path + _element_key(i, x)))
        else:
            out[path] = v
    return out


def parse_text(text: str | None) -> dict | None:
    """A rules text as a table (None when there is no text or it is not TOML)."""
    if not text:
        return None
    from simcore.config import toml_loads

    try:
        return toml_loads(text)     # (nested too deeply: a decode error, review s62 #5, session 63)
    except tomllib.TOMLDecodeError:
        return None


def parse_rules(meta: dict) -> dict | None:
    """The rules table a run played with (None when run.json holds no parseable rules text)."""
    return parse_text(meta.get("rules_text"))


def _diff_tables(a: dict, b: dict) -> list[SettingChange]:
    fa, fb = flatten(a), flatten(b)
    paths = list(fa) + [p for p in fb if p not in fa]
    known = _absent_defaults() if len(fa) != len(fb) or set(fa) != set(fb) else {}
    # (review s50 today #3: a Seigneurial run recorded before the card effects became settings was
    # said to change 4 of them, "(absent) → 1", beside 3,000 identical games)
    def side(f: dict, p: str):
        if p in f:
            return f[p]
        return Defaulted(known[p]) if p in known else MISSING

    def value(v):               # what the loader plays
        return v.value if isinstance(v, Defaulted) else v

    changes = [SettingChange(p, side(fa, p), side(fb, p)) for p in paths]
    return [c for c in changes if value(c.before) != value(c.after)]


def _absent_defaults() -> dict:
    from simcore.games import absent_defaults

    return absent_defaults()


def settings_diff(before_text: str | None, after_text: str | None) -> list[SettingChange] | None:
    """Every setting that differs between two rules texts (in the first text's order, then the
    settings only the second has), or None when either text is missing or not TOML (then no diff
    can be said). Texts that differ only in comments or layout give ``[]``."""
    a, b = parse_text(before_text), parse_text(after_text)
    if a is None or b is None:
        return None
    return _diff_tables(a, b)


def rules_diff(before_meta: dict, after_meta: dict) -> list[SettingChange] | None:
    """Every setting that differs between two runs (their run.json), or None when either run has
    no readable rules text."""
    return settings_diff(before_meta.get("rules_text"), after_meta.get("rules_text"))


def _rules_module(game: str | None):
    """The rules module of ``game`` (its loader and ``read_at``), or None for a game this version
    does not know or one without rules."""
    import importlib

    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    if spec is None or not spec.rules_module:
        return None
    return importlib.import_module(spec.rules_module)


def _loaded(module, text: str, settings=(), seats: int | None = None):
    from simcore.config import apply_settings, parse_toml

    return module.load(apply_settings(parse_toml(text, name="<rules>"), settings, seats=seats))


def unread_at(changes: list[SettingChange] | None, before_text: str | None, after_text: str | None,
              game: str | None, players: int | None) -> list[SettingChange]:
    """The changes a game of ``players`` players does not read: the rules before with that one
    change applied play the same games at that count as the rules before
    (:func:`simcore.games.same_rules_at`, the rules as that count reads them: ``track.goal.4`` at 3
    players, the 4th seat's entry of ``setup.start_coins``); every change when the two texts read
    alike at that count. A change that cannot be applied on its own (an element named by its
    ``name``, a setting one side leaves out) counts as read. [] when the game or a text is not
    known (review s61 #1: a 3-player cell said "rules differ … track.goal.4 10 → 11")."""
    from simcore.config import parse_path
    from simcore.errors import UsageError
    from simcore.games import same_rules_at

    if not changes or not before_text or not players:
        return []
    module = _rules_module(game)
    if module is None:
        return []
    try:
        before = _loaded(module, before_text)
        if after_text and same_rules_at(game, before, _loaded(module, after_text), int(players)):
            return list(changes)
    except (UsageError, ValueError, TypeError, KeyError):
        return []
    from simcore.config import Setting

    out = []
    for c in changes:
        if any(v is MISSING or isinstance(v, Defaulted) for v in (c.before, c.after)):
            continue
        try:
            one = _loaded(module, before_text, [Setting(parse_path(c.path, "rules diff"), c.after, c.path)],
                          seats=int(players))
        except (UsageError, ValueError, TypeError, KeyError, IndexError):
            continue
        if same_rules_at(game, before, one, int(players)):
            out.append(c)
    return out


def read_at(changes: list[SettingChange] | None, before_text: str | None, after_text: str | None,
            game: str | None, players: int | None) -> list[SettingChange] | None:
    """``changes`` without those a game of ``players`` players does not read (:func:`unread_at`):
    the rules diff as that player count plays it (None stays None: no diff can be said)."""
    if changes is None:
        return None
    unread = unread_at(changes, before_text, after_text, game, players)
    return [c for c in changes if c not in unread]


def reads_setting(game: str | None, rules_text: str | None, settings, players: int | None,
                  path: str, values) -> bool:
    """Whether a game of ``players`` players reads setting ``path`` at these ``values``: the rules
    (``rules_text`` with the ``--set`` texts ``settings``) with ``path`` at each value do not all
    read alike at that count (:func:`simcore.games.same_rules_at`). False for ``track.goal.4`` at 3
    players: a sweep of it there changes no game (review s61 #1: a panel sweep counted such cells as
    measured and "unchanged"). True when it cannot be told (an unknown game, a value the loader
    refuses, fewer than two values)."""
    from simcore.config import Setting, apply_settings, parse_path, parse_settings, parse_toml
    from simcore.errors import UsageError
    from simcore.games import same_rules_at

    values = list(values)
    module = _rules_module(game)
    if module is None or not rules_text or not players or len(values) < 2:
        return True
    try:
        base = apply_settings(parse_toml(rules_text, name="<rules>"), parse_settings(settings or ()),
                              seats=int(players))
        key = parse_path(path, "--vary")
        first = None
        for v in values:
            one = module.load(apply_settings(base, [Setting(key, v, f"{path}={v}")], seats=int(players)))
            if first is None:
                first = one
            elif not same_rules_at(game, first, one, int(players)):
                return True
    except (UsageError, ValueError, TypeError, KeyError, IndexError):
        return True
    return False


def loader_takes(game: str | None, rules_text: str | None, settings, players: int | None,
                 path: str, value) -> bool | None:
    """Whether the game's loader takes the rules ``rules_text`` (with the ``--set`` texts
    ``settings``) with setting ``path`` at ``value``, at ``players`` players: True, False when it
    refuses them (a value out of the rules' range, counts that no longer add up), None when it
    cannot be told (an unknown game, no rules text). A before/after's suggested sweep around the two
    values it compared tries one value past each only where the rules take it
    (:func:`reports.sections.sweep_next_step`), as a sweep's page does (sweep.json ``beyond``)."""
    from simcore.config import Setting, apply_settings, parse_path, parse_settings, parse_toml
    from simcore.errors import ConfigError, UsageError

    module = _rules_module(game)
    if module is None or not rules_text:
        return None
    seats = int(players) if players else None
    try:
        base = apply_settings(parse_toml(rules_text, name="<rules>"), parse_settings(settings or ()), seats=seats)
        module.load(apply_settings(base, [Setting(parse_path(path, "--vary"), value, f"{path}={value}")],
                                   seats=seats))
    except (ConfigError, UsageError, ValueError, TypeError, KeyError, IndexError):
        return False
    return True


def file_plays(path, settings, recorded_text: str | None) -> bool:
    """Whether the rules file ``path`` with the ``--set`` texts ``settings`` still gives the rules
    ``recorded_text`` (a run's run.json ``rules_text``): no setting differs (comments and layout
    aside). False when the file is gone, unreadable or was edited since: a command that names it
    would then play other rules than the run's."""
    from simcore.config import apply_settings, parse_settings, read_toml
    from simcore.errors import ConfigError, UsageError

    try:
        now = apply_settings(read_toml(path, what="rules"), parse_settings(settings or ()))
    except (ConfigError, UsageError, OSError, ValueError, TypeError, KeyError, IndexError):
        return False
    return settings_diff(recorded_text, now.text) == []


@dataclass(frozen=True)
class GoalChange:
    """The changed settings that move what some seats' scores are measured against
    (:func:`goal_changes`): ``paths`` (in the diff's order), the 0-based ``seats`` whose score unit
    they move and how a sentence names those seats (``who``: "Seat 1 (Seigneur)", "Seats 2, 3 and
    4 (Censitaire)")."""
    paths: tuple[str, ...]
    seats: tuple[int, ...]
    who: str

    def keys(self) -> set[tuple[str, str]]:
        """The compared and checked metrics (metric, key) in the score's unit that this change
        makes incomparable: the mean score of every seat in :attr:`seats` (keys "Seat 1" …, as
        :func:`analysis.load.seat_label` writes them) and the winner's lead (``score_spread``:
        the gap between two seats' scores, either of which may be one of them)."""
        return {("seat_mean_score", f"Seat {s + 1}") for s in self.seats} | {("score_spread", "all")}


def _under(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + ".") or path.startswith(prefix + "[")


def goal_changes(changes: list[SettingChange] | None, game: str | None,
                 players: int | None) -> GoalChange | None:
    """The changed settings that move what a score is measured against, when the game's score is
    progress toward a goal the rules set (the game spec's ``score_goals``, role → settings:
    Seigneurial's Seigneur, ``track.goal.N`` at the N players played, SG-1/SG-8; its Censitaires,
    ``objectives.cards``, SG-2). A score in such a unit then measures progress toward another goal
    before and after, so a change of it is not a change of play: a before/after leaves those seats'
    mean scores out of its tested family and a check does not test them (review R #1: goal 10 → 7
    read as the Seigneur's +14.3 pp "that matters" and failed a check, while his mean final square
    fell). Only the seats whose goal moved, and only at the player count played: a goal of another
    player count, or a setting whose name merely contains "goal", moves no unit, and an Objective
    card leaves the Seigneur's unit alone (review s58 #1: any such setting dropped every seat's score,
    and a check of a real +10 pp regression passed once ``track.goal.5`` was added). None when no
    seat's unit moves."""
    if not changes or not game or not players:
        return None
    from simcore import games as registry

    spec = registry.specs().get(game)      # (a game this version does not know declares no goals)
    if spec is None:
        return None
    if not spec.score_goals:
        return None
    roles = spec.seat_roles(int(players))
    paths: list[str] = []
    moved: list[str] = []
    for role, prefixes in spec.score_goals.items():
        wanted = [p.replace("{players}", str(int(players))) for p in prefixes]
        hit = [c.path for c in changes if any(_under(c.path, p) for p in wanted)]
        if hit and role in roles:
            moved.append(role)
            paths += [p for p in hit if p not in paths]
    if not moved:
        return None
    seats = tuple(s for s, r in enumerate(roles) if r in moved)
    named = []
    for role in moved:
        mine = [s + 1 for s, r in enumerate(roles) if r == role]
        numbers = (str(mine[0]) if len(mine) == 1 else
                   ", ".join(map(str, mine[:-1])) + f" and {mine[-1]}")
        named.append(f"Seat{'s' if len(mine) > 1 else ''} {numbers} ({spec.role_display(role)})")
    order = [p for p in (c.path for c in changes) if p in paths]
    return GoalChange(tuple(order), seats, " and ".join(named))


def goal_words(goal: GoalChange, unit: str) -> str:
    """Why those scores are set aside, in one clause: "the goal of Seat 1 (Seigneur) changed
    (track.goal.4), so a score in % of own goal measures progress toward a different goal before
    and after"."""
    paths = goal.paths
    goals = "goals" if len(goal.seats) > 1 else "goal"
    return (f"the {goals} of {goal.who} changed ({', '.join(paths[:3])}{', …' if len(paths) > 3 else ''}), "
            f"so a score in {unit} measures progress toward a different goal before and after")


__all__ = ["MISSING", "Defaulted", "GoalChange", "SettingChange", "file_plays", "flatten", "goal_changes", "goal_words",
           "loader_takes",
           "parse_rules", "parse_text", "read_at", "reads_setting", "rules_diff", "settings_diff", "unread_at", "value_text"]
