"""Which tables the panels a game ships play: each panel's name and its number of cells at each
player count, read from ``configs/<game>/panels.toml``, for a page's advice on where else to ask
its question ("for other line-ups and player counts, simulate --panel …":
:func:`reports.text.scope_line`, :func:`reports.sections.holds_for`). Session 56 review #4: that
advice named ``--panel default`` for every run, whose cells are all at 4 players in every game that
ships one, so it covered neither other player counts nor a 3-player run's own.

Counts the cells from the file's structure as :mod:`strategies.panels` builds them (every count of
``players`` × every entry of ``lineups`` and every combination of ``roles``, then each ``cells``
entry at its own count); the loader's validation (bots, seats, duplicates) is not repeated here:
reports may not import the bots, even through analysis (the import contract "Reports only read"),
and a file the loader refuses is refused by the command the advice names.
tests/reports/test_s56_holds_for_panel.py checks these counts against the loader's cells for every
shipped panel.

Reads configuration only; plays nothing. May import the standard library, :mod:`simcore.config`
(TOML reading, the shipped configs folder), :mod:`simcore.errors` and :mod:`simcore.games` (the
registry: a game's folder and default player count).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from simcore import games as registry
from simcore.config import read_toml, shipped_configs
from simcore.errors import ConfigError, UsageError

PANELS_TOML = "panels.toml"          # (strategies.panels.PANELS_TOML: the same file)


@dataclass(frozen=True)
class ShippedPanel:
    """A panel as a page's advice names it: ``name`` (as ``--panel`` takes it) and ``cells``, its
    number of cells at each player count, in ascending player count."""

    name: str
    cells: tuple[tuple[int, int], ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p, _ in self.cells)

    @property
    def size(self) -> int:
        return sum(n for _, n in self.cells)

    def at(self, players: int) -> int:
        """Its cells at ``players`` (0 when it plays none)."""
        return dict(self.cells).get(players, 0)


def shipped_panels(game: str) -> tuple[ShippedPanel, ...]:
    """The panels ``game`` ships, in the order its panels.toml declares them; () for a game that
    ships none (no bots to line up, or a game added without a panels file) or whose file does not
    read as panels (a page's advice then names no panel; ``simulate --panel`` says what is wrong)."""
    try:
        spec = registry.get(game)
        path = shipped_configs() / spec.name.replace("-", "_") / PANELS_TOML
        if not path.is_file():
            return ()
        data = read_toml(path, what="panels").data
        return tuple(_panel(name, t, spec.default_players) for name, t in data.items())
    except (ConfigError, UsageError, KeyError, OSError, TypeError, ValueError):
        return ()


def _panel(name: str, t: dict, default_players: int) -> ShippedPanel:
    if not isinstance(t, dict):
        raise ValueError(f"{name}: not a table")
    players = [int(p) for p in t.get("players", [default_players])]
    roles = t.get("roles") or {}
    per_count = len(t.get("lineups") or []) + (math.prod(len(v) for v in roles.values()) if roles else 0)
    counts: dict[int, int] = {}
    for p in players:
        if per_count:
            counts[p] = counts.get(p, 0) + per_count
    for c in t.get("cells") or []:
        p = int(c.get("players", default_players))
        counts[p] = counts.get(p, 0) + 1
    return ShippedPanel(name, tuple(sorted(counts.items())))
