"""What a sweep's variants recorded beyond the page's metrics, compared column by column, game by game.

The sweep page's metrics (:mod:`analysis.sweep.metrics`) are the seats' and roles' win shares, the
winner's margin, the game length and the event swing. A setting can leave every one of them the
same in every game and still change the games: which Lords of a Fief combat fall
(``combat.lords_removed``) moves no win, point or round, only the Lords columns (review 248 #1: the
page said "this setting does not act" while the attacker's Lords left differed in 4,859 of 5,000
combats). :func:`recorded_changes` compares every column of the variants' ``games.parquet`` and
``players.parquet`` (but the game and seat numbers, which say which row is which) along a
parameter's anchored chain, each variant against the chain's first, so that a page says "does not
act" only where nothing recorded changed and names what did otherwise. A sweep played without rows
keeps only its metrics' sums: nothing else can be compared, which :attr:`RecordedChanges.rows`
says.

May import polars, the standard library, :mod:`simcore` (registry, rundir, config) and
:mod:`analysis.sweep` (store, metrics).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from simcore import games as registry
from simcore.config import format_value
from simcore.rundir import GAMES, PLAYERS

from analysis.sweep.metrics import slices
from analysis.sweep.store import variant_dir

#: the columns that say which row is which, not what happened in the game
IDENTITY = ("game", "seat")


@dataclass(frozen=True)
class ColumnChange:
    """One recorded column that differs between the values of a parameter."""

    table: str                          # "games" or "players"
    column: str
    words: str                          # the spec's meaning ("the attacker's Lords at the end")
    differ: tuple[int, ...]             # per value after the first: games where it differs from the first's
    means: tuple[float | None, ...]     # per value: its mean over the rows (None: not a number)


@dataclass(frozen=True)
class RecordedChanges:
    """A parameter's chain, compared beyond the page's metrics (:func:`recorded_changes`)."""

    rows: bool                          # every variant of the chain kept its rows: all compared
    games: int
    values: tuple[str, ...]             # the chain's values as a --set writes them
    changes: tuple[ColumnChange, ...]   # the columns that differ somewhere (empty: none)


def _words(game: str, table: str, column: str) -> str:
    """A column as its spec means it, without the rule id ("the attacker's Lords at the end")."""
    spec = registry.specs().get(game)
    cols = () if spec is None else (spec.all_game_columns if table == "games" else spec.all_player_columns)
    col = next((c for c in cols if c.name == column), None)
    if col is None or not col.meaning:
        return column.replace("_", " ")
    meaning = col.meaning
    if meaning.endswith(")") and " (" in meaning:
        meaning = meaning[:meaning.rindex(" (")]
    return meaning


def _read(d: Path, table: str) -> pl.DataFrame | None:
    path = d / (GAMES if table == "games" else PLAYERS)
    if not path.is_file():
        return None
    frame = pl.read_parquet(path)
    keys = [k for k in IDENTITY if k in frame.columns]
    return frame.sort(keys) if keys else frame


def _differing_games(a: pl.DataFrame, b: pl.DataFrame, column: str) -> int:
    """Games whose ``column`` differs between ``a`` and ``b`` (rows of one game: its seats)."""
    if a.height != b.height or column not in b.columns:
        return a.select(pl.col("game").n_unique()).item() if "game" in a.columns else a.height
    mask = a[column].ne_missing(b[column])
    if "game" not in a.columns:
        return int(mask.sum())
    return int(a["game"].filter(mask).n_unique())


def recorded_changes(sweep_dir: str | Path, sweep: dict, name: str, done: set[str]) -> RecordedChanges:
    """Every recorded column of parameter ``name``'s anchored chain (:func:`analysis.sweep.metrics.slices`,
    the variants of ``done``), each value against the first, game by game."""
    chain = [c for c in slices(sweep).get(name, []) if c["id"] in done]
    values = tuple(format_value(c["values"][name]) for c in chain)
    dirs = [variant_dir(sweep_dir, c["id"]) for c in chain]
    changes: list[ColumnChange] = []
    tables = {t: [_read(d, t) for d in dirs] for t in ("games", "players")}
    kept = {t: sum(f is not None for f in fs) for t, fs in tables.items()}
    # (a game without game columns writes no games.parquet: the players' rows are then all)
    rows = len(chain) >= 2 and kept["players"] == len(chain) and kept["games"] in (0, len(chain))
    games = int(sweep.get("games") or 0)
    for table, frames in tables.items():
        if not rows or not frames or frames[0] is None:
            continue
        first = frames[0]
        if table == "games":
            games = first.height
        for column in first.columns:
            if column in IDENTITY:
                continue
            differ = tuple(_differing_games(first, f, column) for f in frames[1:])
            if not any(differ):
                continue
            numeric = first[column].dtype.is_numeric() or first[column].dtype == pl.Boolean
            means = tuple(float(f[column].cast(pl.Float64).mean()) if numeric and column in f.columns
                          else None for f in frames)
            changes.append(ColumnChange(table, column, _words(str(sweep.get("game")), table, column),
                                        differ, means))
    return RecordedChanges(rows, games, values, tuple(changes))
