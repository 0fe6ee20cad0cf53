"""Panels: the players a balance answer holds for, as data (one loader, one frozen :class:`Panel`).

A panel is a named, weighted set of *cells*; a cell is a player count and a line-up (one bot per
seat). A single line-up at one player count is a panel of one cell. Panels are declared in
``configs/<game>/panels.toml`` (each game with bots ships ``default`` and ``wide``) or in a file of
the designer's own, one table per panel::

    [wide]
    description = "Every Seigneur preset against every uniform Censitaire line-up"
    players = [3, 4, 5]                       # crossed with every line-up below
    roles = { seigneur = ["even-lord", "greedy-lord", "harsh-lord"],
              censitaire = ["fair-share", "objective", "dutiful", "hoarder"] }
    lineups = ["balanced", "greedy,balanced,farmer,pious", { seigneur = "harsh-lord", censitaire = "dutiful" }]
    cells = [{ players = 4, lineup = "harsh-lord,objective,objective,objective", weight = 2 }]

``lineups`` entries are one name for every seat, one per seat (a comma list or a TOML list), one
per role in the game's order of roles (``harsh-lord,objective``: the Seigneur, then every
Censitaire), or a table with one bot per role (asymmetric games: the seat roles come from the game spec). ``roles``
crosses one bot per role (every combination). ``cells`` lists cells one by one (``weight``, default
1, weighs a cell in a mean over the panel). Every cell is validated the way ``simulate`` validates
``--strategies``, before any game: an unknown bot, a bot on a seat of a role it cannot play, a player
count the game does not take, a duplicate cell → one line (:class:`simcore.errors.UsageError`,
exit 2). On the command line, ``--players 3,4,5`` and ``--lineup A,B,C,D`` (repeatable) make the
panel of every player count × every line-up (:func:`from_options`).

May import the standard library, :mod:`simcore` (registry, config, errors) and the games'
strategy loaders (through the registry).
"""

from __future__ import annotations

import difflib
import itertools
import json
from dataclasses import dataclass, field
from pathlib import Path

from simcore import games as registry
from simcore.config import Table, read_toml, shipped_configs
from simcore.errors import ConfigError, UsageError

PANELS_TOML = "panels.toml"


#: The largest weight a cell may be given (weights are relative: only their ratios count).
MAX_WEIGHT = 1e6

@dataclass(frozen=True)
class Cell:
    """One player count and one line-up (a bot name or file spec per seat)."""

    players: int
    lineup: tuple[str, ...]
    weight: float = 1.0

    @property
    def strategies(self) -> str:
        """The line-up as ``--strategies`` takes it."""
        return ",".join(self.lineup)

    @property
    def label(self) -> str:
        """A short name: ``4p harsh-lord + 3×objective`` (runs of one bot counted)."""
        parts = []
        for name, run in itertools.groupby(self.lineup):
            k = len(list(run))
            parts.append(name if k == 1 else f"{k}×{name}")
        return f"{self.players}p " + " + ".join(parts)

    def to_json(self) -> dict:
        return {"players": self.players, "lineup": list(self.lineup), "weight": self.weight,
                "label": self.label}


@dataclass(frozen=True)
class Panel:
    """A validated panel of one game: its cells in a fixed order (the order they are declared)."""

    game: str
    name: str
    cells: tuple[Cell, ...]
    description: str = ""
    source: str = ""            # where it was declared (a file, or "command line")
    _index: dict = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.cells)

    @property
    def made_here(self) -> bool:
        """Made on the command line from ``--players`` and ``--lineup`` (named "command-line"
        inside, a name no user gave)."""
        return self.source == "command line"

    @property
    def said(self) -> str:
        """How a message names the panel: "panel wide", or "the panel of --players and --lineup"
        for one made on the command line (s42 review A #9: "panel command-line" was printed)."""
        return "the panel of --players and --lineup" if self.made_here else f"panel {self.name}"

    @property
    def option(self) -> str:
        """The options a one-line error names the panel by: ``--panel wide`` or ``--players/--lineup``."""
        return "--players/--lineup" if self.made_here else f"--panel {self.name}"

    @property
    def typed(self) -> str:
        """The panel as ``--panel`` takes it: its name for a panel shipped with the game, else
        ``FILE:NAME`` (review s47: a fix said "--panel mine" for a panel of mine2.toml, and that
        command then stopped on "unknown panel 'mine'")."""
        if not self.source or self.made_here:
            return self.name
        try:
            if Path(self.source).resolve() == panels_path(self.game).resolve():
                return self.name
        except (OSError, KeyError, ValueError):
            pass
        return f"{self.source}:{self.name}"

    @property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted({c.players for c in self.cells}))

    @property
    def weights(self) -> tuple[float, ...]:
        return tuple(c.weight for c in self.cells)

    def only_players(self, counts) -> "Panel":
        """The cells at these player counts (``--panel wide --players 4``)."""
        counts = sorted(set(int(x) for x in counts))
        cells = tuple(c for c in self.cells if c.players in counts)
        missing = [n for n in counts if n not in self.player_counts]
        if missing:
            # every count asked for is played, or none: --players 3,4 on a panel of 4-player cells
            # played the 4-player cells alone under the name "default@3,4p" (designer review 44 #3)
            at = "that player count" if len(missing) == 1 else "those player counts"
            raise UsageError(f"--players {','.join(map(str, counts))}: panel {self.name} has no cell "
                             f"at {at} ({','.join(map(str, missing))}; it has "
                             f"{', '.join(map(str, self.player_counts))})")
        return Panel(self.game, f"{self.name}@{','.join(map(str, counts))}p", cells,
                     self.description, self.source)

    def to_json(self) -> dict:
        return {"game": self.game, "name": self.name, "description": self.description,
                "source": self.source, "cells": [c.to_json() for c in self.cells]}

    @classmethod
    def from_json(cls, d: dict) -> "Panel":
        return cls(d["game"], d["name"], tuple(Cell(int(c["players"]), tuple(c["lineup"]),
                                                    float(c.get("weight", 1.0))) for c in d["cells"]),
                   d.get("description", ""), d.get("source", ""))

    @property
    def sha(self) -> str:
        import hashlib

        return hashlib.sha256(json.dumps([c.to_json() for c in self.cells]).encode()).hexdigest()[:12]


def single(game: str, players: int | None = None, strategies: str | None = None) -> Panel:
    """The panel of one cell: ``players`` (default: the game's) and ``strategies`` as
    ``simulate`` takes them (default: the game's bots), validated."""
    spec = registry.get(game)
    p = int(players) if players is not None else spec.default_players
    lineup = _seat_names(game, strategies if strategies is not None else spec.default_strategy, p,
                         "--strategies")
    cell = _checked(game, Cell(p, lineup), "--strategies")
    return Panel(game, "single", (cell,), source="command line")


def panels_path(game: str) -> Path:
    folder = registry.get(game).name.replace("-", "_")
    return shipped_configs() / folder / PANELS_TOML


def shipped(game: str) -> dict[str, Panel]:
    """The panels shipped with ``game`` (``configs/<game>/panels.toml``)."""
    path = panels_path(game)
    if not path.is_file():
        raise UsageError(f"--panel: {registry.get(game).title} ships no panels (no bots to line up)")
    return load_file(game, path)


def load_file(game: str, path: str | Path, only: str | None = None) -> dict[str, Panel]:
    """Every panel of a panels TOML, validated (one line naming file and key on any error);
    ``only``: that panel alone (``--panel FILE:NAME``: an error in another panel of the file is not
    the one asked for). An unknown ``only`` returns the names found, unvalidated, as keys of None."""
    src = read_toml(path, what="panels")
    top = Table(src.data, src.name)
    out = {}
    if only is not None:
        if only not in src.data:
            return {name: None for name in src.data}
        return {only: _parse_panel(game, top.table(only), only, src.name)}
    for name in list(src.data):
        out[name] = _parse_panel(game, top.table(name), name, src.name)
    top.done()
    if not out:
        raise ConfigError(src.name, "", "defines no panel")
    return out


def lookup(game: str, spec: str) -> Panel:
    """``--panel NAME`` (shipped), ``--panel FILE.toml`` (a file of one panel) or
    ``--panel FILE.toml:NAME``."""
    spec = spec.strip()
    path, _, name = (spec.rpartition(":") if ":" in spec and not Path(spec).exists()
                     else (spec, "", ""))
    if path.endswith(".toml") or Path(path).is_file():
        found = load_file(game, path, only=name or None)
        if name:
            if name not in found:
                raise UsageError(f"--panel {spec}: no panel {name!r} in {path} (it has: {', '.join(found)})")
            return found[name]
        if len(found) != 1:
            raise UsageError(f"--panel {spec}: {path} holds {len(found)} panels; pick one as "
                             f"{path}:NAME ({', '.join(found)})")
        return next(iter(found.values()))
    found = shipped(game)
    if spec not in found:
        near = difflib.get_close_matches(spec, list(found), n=1)
        raise UsageError(f"--panel: unknown panel {spec!r}" + (f"; did you mean {near[0]}?" if near else "")
                         + f" (shipped with {game}: {', '.join(found)}; or a path to a .toml file)")
    return found[spec]


def parse_players(text, option: str = "--players") -> list[int] | None:
    """``4`` or ``3,4,5`` or ``3..5`` → player counts; from Python also an int or a list of them
    (``players=4``, ``players=[3, 4]``, as docs/sweep.md's API lines give them: review s61 #3, a
    list was read as its text "[4]" and refused)."""
    if text is None:
        return None
    if isinstance(text, int):
        return [text]
    if isinstance(text, (list, tuple)):
        text = ",".join(str(x).strip() for x in text)
    s = str(text).strip()
    try:
        if ".." in s:
            a, b = s.split("..")
            out = list(range(int(a), int(b) + 1))
        else:
            out = [int(x) for x in s.split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"{option} {text}: expected a player count, a list (3,4,5) or a range (3..5)") from None
    if not out:
        raise UsageError(f"{option} {text}: no player count")
    return out


def from_options(game: str, *, panel: str | None = None, players=None, lineups=(),
                 strategies: str | None = None) -> Panel:
    """The panel the command line asks for: ``--panel`` (restricted to ``--players`` when given),
    else ``--players`` × ``--lineup`` (repeatable), else the one cell of ``--players`` and
    ``--strategies`` (the game's defaults)."""
    counts = parse_players(players)
    lineups = [x for x in (lineups or ()) if x is not None]
    if panel is not None:
        if lineups or strategies:
            raise UsageError("--panel: give a panel or --lineup/--strategies, not both")
        p = lookup(game, panel)
        return p.only_players(counts) if counts else p
    if lineups and strategies:
        raise UsageError("--lineup: give --lineup (repeatable) or --strategies, not both")
    spec = registry.get(game)
    if not lineups:
        if counts and len(counts) > 1:
            if not (strategies or spec.default_strategy):
                raise UsageError(f"--players {players}: {spec.title} has no bots to play at several "
                                 "player counts (give one count, or leave --players out)")
            if strategies:      # the same line-up at every count: named as the user gave it
                return _cells_of(game, parse_players(players), [strategies], "--strategies")
            return from_options(game, players=players, lineups=[spec.default_strategy])
        return single(game, counts[0] if counts else None, strategies)
    return _cells_of(game, counts or [spec.default_players], lineups, "--lineup")


def _cells_of(game: str, counts, lineups, where: str) -> Panel:
    """The panel of every count × line-up, its errors naming the option ``where`` the line-ups
    came from (--lineup, or --strategies played at several counts)."""
    cells = []
    for p in counts:
        for lu in lineups:
            cells.append(_checked(game, Cell(p, _seat_names(game, _lineup_text(lu), p, where)), where))
    _no_duplicates(cells, where)
    return Panel(game, "command-line", tuple(cells), source="command line")


def panel_options(panel: Panel) -> list[str] | None:
    """The options that make ``panel`` again on a command line: ``--panel NAME`` (a panels file's
    as ``FILE:NAME``; one restricted to some player counts, "wide@4p", as ``--panel wide --players
    4``), or, for one made from ``--players`` and ``--lineup``, those (review s61 #2: a panel run's
    baseline command said "--panel command-line", a panel no command knows). None when the cells
    are not every count × every line-up of some ``--lineup`` texts (checked by making the panel
    again from them)."""
    if not panel.made_here:
        name, _, at = panel.name.partition("@")
        source = Path(panel.source) if panel.source else None
        try:
            shipped_here = source is None or source.resolve() == panels_path(panel.game).resolve()
        except (OSError, KeyError, ValueError):
            shipped_here = False
        shipped_there = source is not None and source.parent.parent.name == "configs" \
            and source.name == PANELS_TOML           # (the shipped file of another checkout)
        typed = name if shipped_here or shipped_there or not source.is_file() else f"{source}:{name}"
        return ["--panel", typed] + (["--players", at.removesuffix("p")] if at else [])
    counts = list(dict.fromkeys(c.players for c in panel.cells))
    if not panel.cells or len(panel.cells) % len(counts):
        return None
    width = len(panel.cells) // len(counts)
    spec = registry.get(panel.game)
    texts = []
    for j in range(width):
        at = [panel.cells[i * width + j] for i in range(len(counts))]
        if all(len(set(c.lineup)) == 1 for c in at) and len({c.lineup[0] for c in at}) == 1:
            texts.append(at[0].lineup[0])                    # one bot in every seat
        elif len(at) == 1:
            texts.append(at[0].strategies)                   # one bot per seat, at one count
        else:                                                # one bot per role, at every count
            by_role: dict[str, str] = {}
            for c in at:
                for role, bot in zip(spec.seat_roles(c.players), c.lineup):
                    by_role.setdefault(role, bot)
            texts.append(",".join(f"{r}={b}" for r, b in by_role.items()))
    words = ["--players", ",".join(map(str, counts))]
    for t in texts:
        words += ["--lineup", t]
    try:
        again = from_options(panel.game, players=words[1], lineups=texts)
    except (UsageError, ConfigError):
        return None
    if [(c.players, c.lineup) for c in again.cells] != [(c.players, c.lineup) for c in panel.cells]:
        return None
    return words


def options_panel(game: str, *, panel: str | None, players: str | int | None, lineups=(),
                  strategies: str | None = None) -> tuple["Panel | None", int | None]:
    """What a command that plays a line-up or a panel was given: ``(panel, None)`` when
    ``--panel``, ``--lineup`` or several ``--players`` were given, else ``(None, players)`` (the
    one line-up of ``--strategies``, as before panels)."""
    counts = parse_players(players)
    if panel is not None or lineups or (counts is not None and len(counts) > 1):
        return from_options(game, panel=panel, players=players, lineups=lineups,
                            strategies=strategies), None
    return None, counts[0] if counts else None


def _lineup_text(text: str):
    """``seigneur=harsh-lord,censitaire=objective`` → a role table; anything else as it is."""
    if "=" in text:
        out = {}
        for part in text.split(","):
            role, eq, bot = part.partition("=")
            if not eq or not bot.strip():
                raise UsageError(f"--lineup {text}: expected ROLE=BOT,ROLE=BOT or BOT,BOT,…")
            out[role.strip()] = bot.strip()
        return out
    return text


def seats_of_roles(game: str, strategies: str, players: int) -> str:
    """``simulate --strategies``'s comma list with one bot per role (``greedy-lord,objective``, as
    --lineup and balance skill take it) spelled out per seat; any other list as it is. simulate
    refused that form ("2 names for 4 players") that skill accepted (designer review 44 #4)."""
    spec = registry.get(game)
    items = [x.strip() for x in strategies.split(",")]
    if spec.strategies is None or spec.roles_alike or not (len(items) == len(spec.roles) != players):
        return strategies
    return ",".join(_seat_names(game, items, players, "--strategies"))


def _seat_names(game: str, lineup, players: int, where: str) -> tuple[str, ...]:
    """A line-up (a name, a comma list, a list, or a table by role) → one bot per seat."""
    spec = registry.get(game)
    spec.check_players(players)
    if spec.strategies is None:
        raise UsageError(f"{where}: {spec.title} has no bots to line up")
    if isinstance(lineup, dict):
        if spec.roles_alike:
            raise UsageError(f"{where}: every seat of {spec.title} plays the same role; give one bot "
                             "per seat or one for every seat")
        names = [r.name for r in spec.roles]
        named = {}
        for role in lineup:
            if spec.role_named(role) is None:
                raise UsageError(f"{where}: unknown role {role!r} (roles of {spec.title}: {', '.join(names)})")
            named[spec.role_named(role)] = lineup[role]
        lineup = named
        missing = [r for r in names if r not in lineup]
        if missing:
            raise UsageError(f"{where}: no bot for the {missing[0]} role (give one per role: "
                             + ", ".join(f"{r}=BOT" for r in names) + ")")
        return tuple(str(lineup[r]) for r in spec.seat_roles(players))
    items = [s.strip() for s in lineup.split(",")] if isinstance(lineup, str) else [str(s) for s in lineup]
    if len(items) == 1:
        items = items * players
    if not spec.roles_alike and len(items) == len(spec.roles) != players:
        # one bot per role, in the order the game declares its roles (harsh-lord,objective)
        return _seat_names(game, dict(zip([r.name for r in spec.roles], items)), players, where)
    if len(items) != players:
        # (the words of strategies.common.count_words: review s61 fix 258 #3, "one per role" was
        # offered for games without roles too)
        per_role = ("" if spec.roles_alike else
                    f", or {len(spec.roles)}, one per role, the {spec.roles[0].display}'s first")
        raise UsageError(f"{where}: {len(items)} bots for {players} players (give 1 bot, played in "
                         f"every seat, or {players}, one per seat{per_role})")
    return tuple(items)


def _checked(game: str, cell: Cell, where: str) -> Cell:
    """Validate a cell as ``simulate`` validates ``--strategies`` (unknown bot, wrong role)."""
    spec = registry.get(game)
    loader = registry.import_hook(spec.strategies)
    try:
        loader.resolve(list(cell.lineup), cell.players)
    except UsageError as exc:
        msg = str(exc).removeprefix("--strategies: ").removeprefix("--strategies ")
        raise UsageError(f"{where}: cell {cell.label}: {msg}") from None
    return cell


def _no_duplicates(cells, where: str) -> None:
    seen = set()
    for c in cells:
        key = (c.players, c.lineup)
        if key in seen:
            raise UsageError(f"{where}: cell {c.label} is given twice")
        seen.add(key)


def _parse_panel(game: str, t: Table, name: str, source: str) -> Panel:
    spec = registry.get(game)
    description = t.get("description", str, "")
    players = t.get("players", list, [spec.default_players])
    for k, p in enumerate(players):
        if not isinstance(p, int) or isinstance(p, bool):
            raise t.error("players", f"must be a list of player counts, got {p!r}")
        try:
            spec.check_players(p)
        except UsageError as exc:
            raise t.error("players", str(exc).removeprefix("--players ")) from None
    # a cell's weight is relative: at most a million (review s51 safety #6: two weights of 1e308
    # overflowed their sum, and a tune's objective came out 0 with a NaN interval, exit 0)
    weight = t.get("weight", float, 1.0, lo=0.0, hi=MAX_WEIGHT)
    lineups = []
    for k, lu in enumerate(t.get("lineups", list, [])):
        if not isinstance(lu, (str, list, dict)):
            raise t.error(f"lineups[{k}]", "must be a bot name, a list of bots or a table by role")
        lineups.append((f"lineups[{k}]", lu))
    roles = t.table("roles", {})
    if roles.data:
        if spec.roles_alike:
            raise t.error("roles", f"every seat of {spec.title} plays the same role")
        names = [r.name for r in spec.roles]
        choices = []
        for r in names:
            v = roles.get(r, list)
            if not v or not all(isinstance(x, str) for x in v):
                raise roles.error(r, "must be a non-empty list of bot names")
            choices.append(v)
        roles.done()
        for combo in itertools.product(*choices):
            lineups.append(("roles", dict(zip(names, combo))))
    cells: list[Cell] = []
    for p in players:
        for where, lu in lineups:
            cells.append(_cell(game, t, where, lu, p, weight))
    t._seen.add("cells")        # a known key even when absent (an unknown key's line lists it)
    for k, c in enumerate(t.tables("cells") if t.has("cells") else []):
        p = c.get("players", int, spec.default_players)
        try:
            spec.check_players(p)
        except UsageError as exc:
            raise c.error("players", str(exc).removeprefix("--players ")) from None
        if not c.has("lineup"):
            raise c.error("lineup", "missing (a bot name, a list of bots or a table by role)")
        lu = c.data["lineup"]
        c._seen.add("lineup")
        if not isinstance(lu, (str, list, dict)):
            raise c.error("lineup", "must be a bot name, a list of bots or a table by role")
        w = c.get("weight", float, weight, lo=0.0, hi=MAX_WEIGHT)
        c.done()
        cells.append(_cell(game, t, f"cells[{k}].lineup", lu, p, w))
    t.done()
    if not cells:
        raise t.error("lineups", "the panel has no cell (give lineups, roles or cells)")
    try:
        _no_duplicates(cells, "")
    except UsageError as exc:
        raise ConfigError(source, name, str(exc).removeprefix(": ")) from None
    if sum(c.weight for c in cells) <= 0:
        raise t.error("weight", "the weights of the cells add up to 0")
    return Panel(game, name, tuple(cells), description, source)


def _cell(game: str, t: Table, where: str, lineup, players: int, weight: float) -> Cell:
    try:
        return _checked(game, Cell(players, _seat_names(game, lineup, players, ""), weight), "")
    except UsageError as exc:
        raise t.error(where, str(exc).removeprefix(": ")) from None


__all__ = ["Cell", "Panel", "from_options", "options_panel", "load_file", "lookup", "shipped", "single",
           "parse_players", "panels_path"]
