"""The search bot as data, for every game: ``kind = "search"`` tables of ``configs/<game>/strategies.toml``.

A search table names its playout ``policy`` (a bot of the same game, by name: its default
heuristic, ``random``, any heuristic; not another search or playout bot), the effort — either
``playouts`` per option (default 16) or ``budget`` playouts per decision — and ``select`` (``flat``:
the same number of playouts for every option; ``ucb``: UCB1 spends the budget). Its row is the
policy's row (so every decision the search does not judge is the policy's) with the kind set to the
game's search kind and the three search columns written by :func:`simcore.search.pack_settings`.
:func:`parse_search` validates a table; each game's loader wraps the result in its own strategy
value. Strategy files are read in two passes (:func:`strategies.common.load_strategy_file`): the
plain bots first, then the search bots, which may name a bot of the same file or a preset.

May import the standard library, numpy and :mod:`simcore`.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from simcore.config import Table

MAX_PLAYOUTS = 100_000
MAX_HORIZON = 10_000
SELECT_NAMES = ("flat", "ucb")      # the codes simcore.search reads (SELECT_FLAT, SELECT_UCB)


def pack_settings(row: np.ndarray, s_search: int, playouts: int, budget: int, select: str,
                  policy_kind: int, horizon: int = 0) -> None:
    """Write the three search columns of a strategy row, as :func:`simcore.search.settings` reads
    them (kept here, free of numba: listing bots must not import it)."""
    row[s_search] = playouts
    row[s_search + 1] = budget
    row[s_search + 2] = (horizon * 2 + SELECT_NAMES.index(select)) * 4 + policy_kind
DEFAULT_PLAYOUTS = 16


@dataclass(frozen=True)
class SearchSettings:
    playouts: int          # per option (0 when a budget is given)
    budget: int            # per decision (0 when playouts per option are given)
    policy: str            # the playout policy's name
    select: str            # flat | ucb
    horizon: int = 0       # turns a playout plays before the position is valued (0: to the end)

    def words(self) -> str:
        effort = f"{self.budget} playouts per decision" if self.budget else \
            f"{self.playouts} playouts per option"
        depth = f", {self.horizon} turns deep" if self.horizon else ", to the end"
        return f"{self.select} search, {effort}, playouts by {self.policy}{depth}"


def parse_search(t: Table, known: dict[str, Any], default_policy: str, *, allowed_kinds,
                 kind_of, row_of, kind_code: int, s_search: int, policy_kind_of,
                 default_horizon: int = 0, horizon_unit: str | None = "turns") -> tuple[
                     str, SearchSettings, Any, np.ndarray]:
    """(description, settings, the policy strategy, the kernel row) of one search table.

    ``known``: the strategies a policy may name; ``allowed_kinds``: the kinds a policy may be;
    ``kind_of``/``row_of``/``policy_kind_of``: a strategy's kind name, kernel row, and the kernel's
    kind code a playout plays it with; ``default_horizon``: the game's horizon when the table
    gives none (turns; 0: playouts to the end); ``horizon_unit``: what a turn is in the game's
    words, or None when its playouts cannot stop early (a table giving ``horizon`` is refused)."""
    description = t.get("description", str, "")
    t.get("kind", str, choices=["search"])
    has_p, has_b = t.has("playouts"), t.has("budget")
    if has_p and has_b:
        raise t.error("budget", "give either playouts (per option) or budget (per decision), not both")
    playouts = t.get("playouts", int, DEFAULT_PLAYOUTS, lo=1, hi=MAX_PLAYOUTS)
    budget = t.get("budget", int, 0, lo=1, hi=MAX_PLAYOUTS) if has_b else 0
    if has_b:
        playouts = 0
    policy = t.get("policy", str, default_policy)
    select = t.get("select", str, "flat", choices=list(SELECT_NAMES))
    if horizon_unit is None and t.has("horizon"):
        raise t.error("horizon", "this game's playouts always play to the end of the game")
    depth = t.get("horizon", int, default_horizon, lo=0, hi=MAX_HORIZON)
    t.done()
    if policy not in known:
        near = difflib.get_close_matches(policy, list(known), n=1)
        raise t.error("policy", f"unknown bot {policy!r}" + (f"; did you mean {near[0]}?" if near else "")
                      + f" (known: {', '.join(known)})")
    pol = known[policy]
    if kind_of(pol) not in allowed_kinds:
        raise t.error("policy", f"{policy!r} is a {kind_of(pol)} bot; a playout policy is one of the "
                                f"kinds {', '.join(allowed_kinds)}")
    row = np.array(row_of(pol), np.float64).copy()
    policy_kind = policy_kind_of(pol)
    row[0] = kind_code
    pack_settings(row, s_search, playouts, budget, select, policy_kind, depth)
    return description, SearchSettings(playouts, budget, policy, select, depth), pol, row


BY_BUDGET = re.compile(r"search(\d+)")


def by_budget(spec: str, presets: dict, parse, option: str = "--strategies") -> Any | None:
    """``searchN`` (N playouts per option, flat, the game's default policy) when it is not a preset:
    the search bot at any budget by name (``balance skill``, the ladder). ``parse(table, name,
    bots)`` is the game's search-table parser. None when ``spec`` is not of that form; a one-line
    :class:`~simcore.errors.UsageError` naming ``option`` when N is out of range."""
    m = BY_BUDGET.fullmatch(spec.strip())
    if m is None or spec in presets:
        return None
    n = int(m.group(1))
    if not 1 <= n <= MAX_PLAYOUTS:
        # (it said "unknown strategy 'search200000'; did you mean search16?": review 45 #5)
        from simcore.errors import UsageError

        raise UsageError(f"{option}: {spec.strip()!r}: searchN takes N playouts per option from 1 to "
                         f"{MAX_PLAYOUTS:,}")
    data = {"kind": "search", "playouts": n,
            "description": f"Search, {n} playouts per option (flat, default policy)."}
    return parse(Table(data, f"{spec} (search bot by name)"), spec, presets)
