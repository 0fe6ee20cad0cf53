"""Open run directories for analysis: polars lazy scans, column detection, chunked per-game passes.

:func:`open_runs` pools one or several run directories of the same game and player count into a
:class:`RunSet` (a ``run`` column, 0, 1, …, tells the directories apart; games are keyed by
``(run, game)``). Nothing is read until a metric asks for columns: per-player metrics are polars
lazy queries (projection and predicate pushdown, streaming engine), and per-game metrics go through
:func:`run_pass`, which reads a range of games at a time (about :data:`ROWS_PER_CHUNK` player rows,
so a 1e7-game run stays within a few hundred MB) and hands each chunk to accumulators as a
:class:`Block` of ``(games × seats)`` numpy matrices. Only the common columns (:data:`COMMON_COLUMNS`)
are required; game-specific metrics ask :meth:`RunSet.has` first. :func:`group_runs` splits a list of
directories into configurations (same game, players, rules and strategies) for comparisons.

Every reader of run directories (analysis, reports, export, baseline, check) goes through
:func:`check_run`, once per directory and process: a damaged or hand-mixed directory is refused in
one line naming the file and what is wrong — run.json that is not UTF-8 JSON, not an object, of an
unknown game, with a field of the wrong type or a negative count; a players.parquet that cannot be
read, lacks the common columns, has columns the run's game does not write (a table of another
game), or whose games, seats or strategies disagree with run.json; a games.parquet that disagrees
with run.json, or that is missing where the reader needs it (a run the runner wrote always has one).

May import polars, numpy, the standard library, :mod:`simcore.rundir`, :mod:`simcore.errors`,
:mod:`simcore.contract` (the rotation columns), :mod:`simcore.config` (run.json's rules text read
as the rules files are: ``toml_loads``) and the registry of games (:mod:`simcore.games`, for
display names and the columns each game writes).
"""

from __future__ import annotations

import json
import math
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Protocol, Sequence

import numpy as np
import polars as pl

from simcore.config import toml_loads
from simcore.errors import UsageError
from simcore.games import DEFAULT_GAME
from simcore.options import MAX_AMOUNT
from simcore.rundir import GAMES, PLAYERS, RUN_JSON, check_distinct_runs, read_meta, verify_integrity

COMMON_COLUMNS = ("game", "seat", "strategy", "score", "win_share", "rank")
ROWS_PER_CHUNK = 4_000_000
KEY = ("run", "game")

def score_unit(game: str | None) -> str:
    """What a score counts in ``game``: its spec's ``score_unit`` (coins for Middle-Ages, guild
    cards for Médiévallons, % of own goal for Seigneurial); ``points`` for a game the registry does
    not know. The one lookup the reports, the sweep pages and the CI gate share."""
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    return spec.score_unit if spec is not None else "points"


def margin_words(game: str | None) -> str:
    """What ``game``'s winner's lead (``score_spread``, a sweep's ``winner_margin``) counts, where
    its spec words it (``extra["margin"]``: Fief's "the winning side's lead (a mutual wipe-out
    counting as 0)", since a combat both armies lose has no winner: review 247 #2); '' for the
    others, whose pages say "the winner's margin"."""
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    return str(spec.extra.get("margin") or "") if spec is not None else ""


SMALLEST_SHARE = 0.01      # 1 percentage point: the smallest win-share difference that matters

SMALLEST_COUNT = 0.01
"""The smallest change of a mean count per game that matters, other than the lead changes: the
reshuffles, at most one a game in Médiévallons (MV-6; 0.39 a game at 4 players with the shipped
rules), whose mean is then the share of games with one, so that 0.01 a game is the 1 pp a share is
sized at (Middle-Ages' are set by the table, MA-12: 0 or 2 a game by player count).
``--smallest-difference count=`` sets every count's."""

SMALLEST_LEAD_CHANGES = 0.1
"""The smallest change of the lead changes per game that matters: one more lead change in every ten
games (designer review: at 0.01 a game, "3.02 → 3.09 lead changes, +0.07" was listed among the
changes large enough to matter, beside a seat's −1.8 pp). The lead changes about 3 times a
Middle-Ages game, so 0.1 is about 3 % of the mean, as 1 pp is 4 % of a fair seat share of 25 %;
``--smallest-difference count=`` sets it."""

LEAD_CHANGE_METRICS = ("lead_changes", "lead_changes_by_turn")


def smallest_count(metric: str, overrides: dict | None = None) -> float:
    """The smallest change that matters of a before/after's mean count per game ``metric``
    (:data:`analysis.compare.COUNT_METRICS`): ``overrides["count"]`` (``--smallest-difference
    count=N``) for every count, else :data:`SMALLEST_LEAD_CHANGES` for the lead changes and
    :data:`SMALLEST_COUNT` for the others."""
    if overrides and "count" in overrides:
        return float(overrides["count"])
    return SMALLEST_LEAD_CHANGES if metric in LEAD_CHANGE_METRICS else SMALLEST_COUNT


def smallest_difference(game: str | None, kind: str, overrides: dict | None = None) -> float:
    """The smallest difference of a metric that matters, in its own unit: ``kind`` "share" (win
    shares and other shares, as a fraction: 0.01 = 1 pp), "score" (the game's score unit: scores,
    margins, swings) or "length" (turns). ``overrides`` (a run's or a baseline's own figures, by
    kind) win over the game's spec (``smallest_difference``), which wins over 1 pp / 1 unit."""
    if overrides and kind in overrides:
        return float(overrides[kind])
    if kind == "share":
        return SMALLEST_SHARE
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    return spec.smallest(kind) if spec is not None else 1.0


SMALLEST_METRICS = {"win_share": "share", "share": "share", "score": "score", "length": "length",
                    "turns": "length", "count": "count"}

SMALLEST_NAMES = {"share": "win_share", "score": "score", "length": "length", "count": "count"}
"""How ``--smallest-difference`` spells each kind :func:`parse_smallest_difference` returns."""


def parse_smallest_difference(text: str | None, option: str = "--smallest-difference") -> dict[str, float]:
    """``win_share=2pp,score=3,length=1,count=0.1`` → ``{"share": 0.02, "score": 3.0, "length": 1.0,
    "count": 0.1}`` (the kinds :func:`smallest_difference` takes, and ``count``, a count per game,
    :func:`smallest_count`'s). Win shares take ``2pp``, ``2%`` or ``2`` (percentage points); scores,
    lengths and counts a number in their unit (a count: per game). Every value must be > 0 (a share
    below 100 pp); an unknown metric, a repeated one or a bad value is one :class:`UsageError` line."""
    if text is None or not str(text).strip():
        return {}
    from simcore.errors import UsageError

    out: dict[str, float] = {}
    for part in str(text).split(","):
        name, sep, value = (x.strip() for x in part.partition("="))
        if not sep or not name:
            raise UsageError(f"{option} {text!r}: expected METRIC=VALUE[,METRIC=VALUE…], "
                             f"e.g. win_share=2pp,score=3")
        kind = SMALLEST_METRICS.get(name.lower())
        if kind is None:
            raise UsageError(f"{option} {name}: unknown metric (use win_share, score, length or count)")
        if kind in out:
            raise UsageError(f"{option} {name}: given twice")
        if kind == "share":
            out[kind] = share_points(value, f"{option} {name}={value}") / 100.0
            continue
        try:
            v = float(value.lower())
        except ValueError:
            raise UsageError(f"{option} {name}={value}: not a number (a number > 0)") from None
        if not (v > 0 and v == v and v <= MAX_AMOUNT):
            raise UsageError(f"{option} {name}={value}: must be > 0 and at most {MAX_AMOUNT:g}")
        out[kind] = v
    return out


def keeps_length(game: str | None) -> bool:
    """Whether ``game``'s runs keep a game length (a column of role ``length``): Middle-Ages' games
    all last 16 turns (MA-4) and keep none, so nothing of theirs is sized by ``length=``. An
    unknown game (None, or not registered) is taken to keep one: the caller refuses it elsewhere."""
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    if spec is None:
        return True
    return any(c.role == "length" for c in (*spec.all_player_columns, *spec.all_game_columns))


def refuse_unsized(small: dict, kinds, what: str) -> None:
    """One :class:`UsageError` line when ``small`` (:func:`parse_smallest_difference`'s) gives a
    kind that ``what`` (what a command sizes: "balance sweep's effects") sizes nothing of, rather
    than ignoring it; ``kinds``: the kinds it sizes (none: "nothing is sized there", a Fief
    combat run's page)."""
    unused = [k for k in small if k not in kinds]
    if unused:
        name = SMALLEST_NAMES[unused[0]]
        sized = (f"sized there: {', '.join(SMALLEST_NAMES[k] for k in kinds)}" if kinds
                 else "nothing is sized there")
        raise UsageError(f"--smallest-difference {name}: no {name} difference is sized by {what} ({sized})")


def share_points(value: str, said: str, limit: str = "between 0 and 100 pp") -> float:
    """A win-share change typed as ``2pp``, ``2%`` or ``2``, in percentage points (> 0, below 100);
    a bad value is one :class:`UsageError` line starting with ``said`` (the option and what was
    typed), ending with ``limit`` when out of range. ``--smallest-difference win_share=`` and
    ``balance baseline --tolerance`` read a share so."""
    from simcore.errors import UsageError

    raw = str(value).lower().removesuffix("pp").removesuffix("%").strip()
    try:
        v = float(raw)
    except ValueError:
        raise UsageError(f"{said}: not a number (percentage points, e.g. 2pp)") from None
    if not (v > 0 and v == v and v < 100.0):
        raise UsageError(f"{said}: must be {limit}")
    return v


def smallest_text(kind: str, value: float, game: str | None = None) -> str:
    """How a smallest difference is said: ``2 pp``, ``3 coins``, ``1 turn``."""
    v = f"{value * 100:g} pp" if kind == "share" else f"{value:g}"
    if kind == "score":
        v += f" {score_unit(game)}"
    elif kind == "length":
        v += " turn" if value == 1 else " turns"
    return v


def type_name(column_or_key: str, game: str = DEFAULT_GAME) -> str:
    """Human name of a type from a per-type column (``tiles_marche``) or its key (``marche``): the
    game's spec's ``type_names`` (``Marché``), else the key capitalised."""
    from simcore import games as registry

    spec = registry.specs().get(game)
    if spec is None:
        return column_or_key.replace("_", " ").capitalize()
    try:
        key = spec.column(column_or_key).key
    except KeyError:
        key = column_or_key
    return spec.type_name(key)


tile_name = type_name       # the name the tile tables of Middle-Ages used


def seat_label(seat: int) -> str:
    """Seats are 0-based in the data and shown to people as Seat 1…n."""
    return f"Seat {int(seat) + 1}"


#: The column types a questions directory records for its CSVs (run.json ``columns``), by name.
COLUMN_TYPES = {"float": pl.Float64, "int": pl.Int64, "bool": pl.Boolean, "text": pl.String}


def column_type(dtype) -> str:
    """The name :data:`COLUMN_TYPES` gives a polars column type (floats of any width are
    "float", integers "int")."""
    if dtype.is_float():
        return "float"
    if dtype.is_integer():
        return "int"
    return "bool" if dtype == pl.Boolean else "text"


def with_seat_label(table: pl.DataFrame) -> pl.DataFrame:
    """``table`` with ``seat_label`` (:func:`seat_label`: "Seat 1") right after its 0-based
    ``seat`` column, for the tables a user filters to match a page."""
    label = (pl.lit("Seat ") + (pl.col("seat") + 1).cast(pl.Utf8)).alias("seat_label")
    cols = [c for c in table.columns if c != "seat_label"]
    at = cols.index("seat") + 1
    return table.with_columns(label).select(cols[:at] + ["seat_label"] + cols[at:])


def collect(lf: pl.LazyFrame) -> pl.DataFrame:
    """Collect with the streaming engine (bounded memory on large scans)."""
    return lf.collect(engine="streaming")


def code_names(names) -> dict[int, str]:
    """A run.json table of names by integer code (a dict with string keys, or a list) as
    ``{code: name}``; keys that are not integers are skipped, anything else gives ``{}``."""
    if isinstance(names, list):
        return {i: str(v) for i, v in enumerate(names)}
    out: dict[int, str] = {}
    if isinstance(names, dict):
        for k, v in names.items():
            try:
                out[int(k)] = str(v)
            except (TypeError, ValueError):
                continue
    return out


def _event_names(meta: dict) -> dict[int, str]:
    names = meta.get("event_names")
    if isinstance(names, (dict, list)):
        return code_names(names)
    text = meta.get("rules_text")
    if isinstance(text, str) and text:
        try:
            events = toml_loads(text).get("events", [])       # (nested too deeply: session 63)
            return {int(e["id"]): str(e["name"]) for e in events if "id" in e and "name" in e}
        except (tomllib.TOMLDecodeError, TypeError, ValueError, KeyError):
            return {}
    return {}


# ---------------------------------------------------------------------------------------------
# Checking a run directory (once per directory and process)
# ---------------------------------------------------------------------------------------------

_CHECKED: dict[tuple, dict] = {}
_COUNT_FIELDS = ("threads", "chunk_size")


def _stamp(p: Path) -> tuple:
    out = []
    for name in (RUN_JSON, PLAYERS, GAMES):
        try:
            st = (p / name).stat()
            out.append((st.st_ino, st.st_mtime_ns, st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_meta(p: Path, meta: dict):
    """The game spec of run.json's game; UsageError naming run.json and the field otherwise."""
    from simcore import games as registry

    where = p / RUN_JSON
    if "command" in meta or "files" in meta:
        by = meta.get("command") or meta.get("game")
        raise UsageError(f"{where}: a directory of tables written by balance {by}, not a run of "
                         "games (simulate writes those)")
    game = meta.get("game")
    if not isinstance(game, str):
        raise UsageError(f"{where}: game must be a game name (a string), got {game!r}"[:300])
    specs = registry.specs()
    if game not in specs:
        raise UsageError(f"{where}: unknown game {game!r} (known: {', '.join(specs)})"[:300])
    spec = specs[game]
    players = meta.get("players")
    if not _whole(players):
        raise UsageError(f"{where}: players must be a whole number, got {players!r}"[:300])
    lo, hi = spec.players
    if not lo <= players <= hi:
        raise UsageError(f"{where}: players = {players}, but {game} is played by {lo}-{hi} players")
    games = meta.get("games")
    if not _whole(games):
        raise UsageError(f"{where}: games must be a whole number, got {games!r}"[:300])
    if games < 1:
        raise UsageError(f"{where}: games = {games}, must be at least 1")
    text, sha = meta.get("rules_text"), meta.get("rules_sha256")
    if isinstance(text, str) and isinstance(sha, str) and re.fullmatch(r"[0-9a-f]{64}", sha):
        import hashlib

        # the rules a replay, the questions or a check play are the text; the hash is what a report
        # and a questions directory match runs by (review s50 questions #3: an edited rules_text
        # played other rules under the run's hash, and a report showed their ablation as the run's)
        try:
            toml_loads(text)        # (nested too deeply: a decode error, review s62 #5, session 63)
            reads = True
        except (tomllib.TOMLDecodeError, ValueError):
            reads = False      # its readers name the damage (simcore.config.reading_recorded_rules)
        if reads and hashlib.sha256(text.encode("utf-8")).hexdigest() != sha:
            raise UsageError(f"{where}: rules_text does not match rules_sha256 (run.json was edited "
                             "or damaged after the run was written); rerun the simulation")
    if "seed" in meta and not (_whole(meta["seed"]) and 0 <= meta["seed"] < 2**63):
        raise UsageError(f"{where}: seed must be a whole number from 0 to 2**63 - 1, got "
                         f"{meta['seed']!r}"[:300])
    for name in _COUNT_FIELDS:
        if meta.get(name) is not None and not (_whole(meta[name]) and meta[name] >= 1):
            raise UsageError(f"{where}: {name} must be a whole number >= 1, got {meta[name]!r}"[:300])
    strategies = meta.get("strategies")
    if strategies is not None:
        if not isinstance(strategies, list) or not all(isinstance(x, str) for x in strategies):
            raise UsageError(f"{where}: strategies must be a list of names, got {strategies!r}"[:300])
        if len(strategies) != players:
            raise UsageError(f"{where}: strategies names {len(strategies)} seats, players = {players}")
    for name in ("rules_name", "rules_sha256", "rules_text", "version"):
        if meta.get(name) is not None and not isinstance(meta[name], str):
            raise UsageError(f"{where}: {name} must be a string, got {type(meta[name]).__name__}")
    if "raw_players" in meta and not isinstance(meta["raw_players"], bool):
        raise UsageError(f"{where}: raw_players must be true or false, got {meta['raw_players']!r}"[:300])
    if "event_names" in meta and not isinstance(meta["event_names"], (dict, list)):
        raise UsageError(f"{where}: event_names must be a table of names")
    return spec


def _parquet_columns(path: Path) -> list[str]:
    try:
        return pl.scan_parquet(path).collect_schema().names()
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(f"{path}: cannot read ({str(exc).splitlines()[0] if str(exc) else exc!r})"[:300]) from None


def _foreign(names: list[str], known: set[str], path: Path, game: str) -> None:
    extra = [c for c in names if c not in known]
    if extra:
        raise UsageError(f"{path}: column(s) {', '.join(extra[:5])} are not columns of {game} runs "
                         "(a table of another game?)"[:300])


def _check_players(p: Path, meta: dict, spec) -> None:
    from simcore.contract import ROTATION_COLUMNS

    path = p / PLAYERS
    names = _parquet_columns(path)
    missing = [c for c in COMMON_COLUMNS if c not in names]
    if missing:
        raise UsageError(f"{path}: missing column(s) {', '.join(missing)}")
    known = {c.name for c in (*spec.all_player_columns, *ROTATION_COLUMNS)}
    _foreign(names, known, path, spec.name)
    try:
        row = collect(pl.scan_parquet(path).select(
            pl.col("game").min().alias("g0"), pl.col("game").max().alias("g1"),
            pl.col("seat").min().alias("s0"), pl.col("seat").max().alias("s1"),
            pl.col("strategy").cast(pl.String).unique().implode().alias("strategies"))).row(0, named=True)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(f"{path}: cannot read ({str(exc).splitlines()[0] if str(exc) else exc!r})"[:300]) from None
    games, players = meta["games"], meta["players"]
    if row["g0"] is None:
        raise UsageError(f"{path}: no rows, run.json says {games} games")
    if row["g0"] < 0 or row["g1"] != games - 1:
        raise UsageError(f"{path}: games {row['g0']}…{row['g1']}, but run.json says {games} games "
                         f"(0…{games - 1}): files of different runs?")
    if row["s0"] != 0 or row["s1"] != players - 1:
        raise UsageError(f"{path}: seats {row['s0']}…{row['s1']}, but run.json says {players} players "
                         f"(seats 0…{players - 1}): files of different runs?")
    listed = meta.get("strategies")
    if listed is not None:
        unknown = sorted(s for s in row["strategies"] if s is not None and s not in listed)
        if unknown:
            raise UsageError(f"{path}: strategy {', '.join(unknown[:3])} is not among run.json's "
                             f"strategies ({', '.join(dict.fromkeys(listed))}): files of different runs?"[:300])


def _check_games(p: Path, meta: dict, spec) -> None:
    path = p / GAMES
    names = _parquet_columns(path)
    if "game" not in names:
        raise UsageError(f"{path}: missing column game")
    _foreign(names, {c.name for c in spec.all_game_columns}, path, spec.name)
    try:
        row = collect(pl.scan_parquet(path).select(pl.col("game").min().alias("g0"),
                                                   pl.col("game").max().alias("g1"))).row(0)
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(f"{path}: cannot read ({str(exc).splitlines()[0] if str(exc) else exc!r})"[:300]) from None
    if row[0] is not None and (row[0] < 0 or row[1] > meta["games"] - 1):
        raise UsageError(f"{path}: games {row[0]}…{row[1]}, but run.json says {meta['games']} games "
                         "(files of different runs?)")


#: How far a game's win shares may add up from 1 (they are exact fractions such as 1/3 stored
#: as float64; a hand edit moves them by far more).
WIN_SUM_TOLERANCE = 1e-9


def _figure_error(path: Path, problem: str) -> UsageError:
    return UsageError(f"{path}: {problem}: the run directory was changed after it was written "
                      "(damaged, or files of different runs mixed); rerun the simulation"[:400])


def _replaced_since(run: str | Path, meta: dict) -> bool:
    """Whether ``run`` holds another run than the one whose run.json gave ``meta`` (its creation
    time or its integrity record differ, or it has no run.json right now: a ``--force``
    replacement between its two renames)."""
    try:
        now = json.loads((Path(run) / RUN_JSON).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    return (now.get("created_utc"), now.get("integrity")) != (meta.get("created_utc"), meta.get("integrity"))


def check_figures(run: str | Path, meta: dict) -> None:
    """:func:`_check_figures`; a figure that does not hold because another command replaced the
    run while this one read it (``simulate --out RUN --force``: run.json read before the swap, the
    tables after) is said as that, not as damage with advice to simulate again (review s46, gate
    #7: a complete, valid run was called "damaged")."""
    try:
        _check_figures(run, meta)
    except UsageError:
        if _replaced_since(run, meta):
            raise UsageError(f"{run}: replaced by another command while this one read it "
                             "(simulate --force into it); run this command again") from None
        raise


def _check_figures(run: str | Path, meta: dict) -> None:
    """The figures that tie a run's tables together, computed from the files themselves rather
    than taken on trust from their hashes (a table edited by hand with run.json's record written
    again is refused all the same):

    * stats.json: ``games`` as in run.json; every seat counted in every game; the win shares of all
      games adding up to the number of games (each game's add up to 1);
    * players.parquet: ``players`` rows per game, seats 0 … players-1 once each, win shares finite,
      in [0, 1] and adding up to 1 in every game; each seat's total win share equal to the one in
      stats.json (the two tables describe the same games).

    One :class:`UsageError` line naming the file and the first figure that does not hold."""
    from simcore import accumulate

    p = Path(run)
    games, n_players = meta["games"], meta["players"]
    st = read_stats(p)
    stats_wins = None
    if st is not None:
        where = p / accumulate.STATS_FILE
        try:
            f, units = st.fixed, int(st.layout["win_units"])
            seat_games = np.asarray(f["cell_n"]).sum(axis=1)
            seat_wins = np.asarray(f["cell_win"]).sum(axis=1)
        except (KeyError, TypeError, ValueError) as exc:
            raise UsageError(f"{where}: cannot read the statistics ({exc!r})"[:300]) from None
        if st.games != games:
            raise _figure_error(where, f"{st.games:,} games where run.json says {games:,}")
        if len(seat_games) != n_players or np.any(seat_games != games):
            raise _figure_error(where, f"games counted per seat {seat_games.tolist()[:6]} where "
                                f"{games:,} games of {n_players} players count {games:,} for every seat")
        total = int(seat_wins.sum())
        if units < 1 or total != games * units:
            raise _figure_error(where, f"the win shares of all games add up to {total / max(units, 1):,.6g} "
                                f"where {games:,} games make {games:,} (each game's add up to 1)")
        stats_wins = seat_wins / units
    path = p / PLAYERS
    if not path.is_file():
        return
    schema = pl.scan_parquet(path).collect_schema()
    for name in ("game", "seat", "win_share"):
        if name not in schema:
            raise UsageError(f"{path}: missing column {name}")
    if not schema["win_share"].is_float() or not schema["game"].is_integer() \
            or not schema["seat"].is_integer():
        raise _figure_error(path, f"win_share is {schema['win_share']}, game {schema['game']}, seat "
                            f"{schema['seat']} (a win share is a number, games and seats whole numbers)")
    if _regular_rows_hold(path, games, n_players, stats_wins):
        return
    scan = pl.scan_parquet(path).select("game", "seat", "win_share")
    try:
        per_game = collect(scan.group_by("game").agg(
            n=pl.len(), seats=pl.col("seat").n_unique(), s0=pl.col("seat").min(),
            s1=pl.col("seat").max(), w=pl.col("win_share").sum(), w0=pl.col("win_share").min(),
            w1=pl.col("win_share").max()))
        bad = per_game.filter(
            (pl.col("n") != n_players) | (pl.col("seats") != n_players) | (pl.col("s0") != 0)
            | (pl.col("s1") != n_players - 1)
            | ~((pl.col("w") - 1).abs() <= WIN_SUM_TOLERANCE)
            | ~(pl.col("w0") >= 0) | ~(pl.col("w1") <= 1)).sort("game").head(1)
        seat_sums = collect(scan.group_by("seat").agg(w=pl.col("win_share").sum()).sort("seat"))
    except (pl.exceptions.PolarsError, OSError) as exc:
        raise UsageError(f"{path}: cannot read ({str(exc).splitlines()[0] if str(exc) else exc!r})"[:300]) from None
    if len(bad):
        r = bad.row(0, named=True)
        g = r["game"]
        if r["n"] != n_players or r["seats"] != n_players or r["s0"] != 0 or r["s1"] != n_players - 1:
            raise _figure_error(path, f"game {g} has {r['n']} rows for {r['seats']} seats where a "
                                f"{n_players}-player game has one row per seat")
        if not abs(r["w"] - 1) <= WIN_SUM_TOLERANCE:
            raise _figure_error(path, f"the win shares of game {g} add up to {r['w']:.6g} (every "
                                "game's add up to 1)")
        raise _figure_error(path, f"game {g} has a win share of "
                            f"{r['w0'] if not r['w0'] >= 0 else r['w1']!r} (a win share is from 0 to 1)")
    g0, g1 = per_game["game"].min(), per_game["game"].max()
    if len(per_game) != games or g0 != 0 or g1 != games - 1:
        raise _figure_error(path, f"{len(per_game):,} games ({g0}…{g1}) where run.json says {games:,} "
                            f"(0…{games - 1})")
    if stats_wins is not None:
        rows = seat_sums["w"].to_numpy()
        if len(rows) != n_players or not np.allclose(rows, stats_wins, rtol=0, atol=1e-6 * games + 1e-9):
            raise _figure_error(path, f"the seats' total win shares {np.round(rows, 3).tolist()[:6]} "
                                f"differ from stats.json's {np.round(stats_wins, 3).tolist()[:6]}")


def _regular_rows_hold(path: Path, games: int, n_players: int, stats_wins) -> bool:
    """True when players.parquet holds its rows as the runner writes them (game-major: games
    0 … games-1 in order, seats 0 … players-1 within each) and every figure of
    :func:`check_figures` holds: read as numpy columns :data:`ROWS_PER_CHUNK` rows at a time,
    with no grouping (a 1e6-game run: 0.1 s instead of 0.5 s of CPU, and no hash table of a
    million games). False otherwise, and then the grouped query finds and names the problem (or
    finds none, for rows in another order)."""
    P = int(n_players)
    if P < 1 or games < 1:
        return False
    seat_sums = np.zeros(P)
    seats = np.arange(P)
    step = max(P, ROWS_PER_CHUNK - ROWS_PER_CHUNK % P)
    try:
        for start in range(0, games * P, step):
            t = collect(pl.scan_parquet(path).select("game", "seat", "win_share").slice(start, step))
            rows = t.height
            if rows == 0 or rows % P:
                return False
            g = t["game"].to_numpy().reshape(-1, P)
            seat = t["seat"].to_numpy().reshape(-1, P)
            w = t["win_share"].to_numpy().reshape(-1, P)
            first = start // P
            if not (np.array_equal(g, np.broadcast_to(np.arange(first, first + rows // P)[:, None], g.shape))
                    and np.array_equal(seat, np.broadcast_to(seats, seat.shape))):
                return False
            # each game's shares added in row order in the column's own type, as the grouped
            # query adds them
            total = w[:, 0].copy()
            for k in range(1, P):
                total += w[:, k]
            if not (np.all(np.abs(total.astype(np.float64) - 1) <= WIN_SUM_TOLERANCE)
                    and np.all(w >= 0) and np.all(w <= 1)):
                return False
            seat_sums += w.sum(axis=0, dtype=np.float64)
        n_rows = collect(pl.scan_parquet(path).select(pl.len())).item()
    except (pl.exceptions.PolarsError, OSError, ValueError, TypeError, ArithmeticError):
        return False
    if n_rows != games * P:
        return False
    return stats_wins is None or bool(np.allclose(seat_sums, stats_wins, rtol=0,
                                                  atol=1e-6 * games + 1e-9))


def check_run(run: str | Path, *, players: bool | None = None) -> dict:
    """run.json of run directory ``run`` after checking the directory (see the module docstring);
    ``players``: the reader needs players.parquet (default: only when the run has no statistics,
    stats.json, from which every analysis table derives). Checked once per directory and process (again
    if a file changed). Raises :class:`UsageError` with one line naming the file otherwise."""
    p = Path(run)
    meta = read_meta(p)
    if players is None:
        players = not (p / "stats.json").is_file()
    key = (os.path.abspath(p), players, _stamp(p))
    if key in _CHECKED:
        return _CHECKED[key]
    spec = _check_meta(p, meta)
    verify_integrity(p, meta)              # sizes, hashes and tying figures recorded in run.json
    if players:
        if not (p / PLAYERS).is_file():
            hint = f" ({rows_left_out(meta)})" if meta.get("raw_players") is False else ""
            raise UsageError(f"{p}: no {PLAYERS}{hint}")
        _check_players(p, meta, spec)
    if (p / GAMES).exists():
        _check_games(p, meta, spec)
    elif "raw_players" in meta:       # the runner writes games.parquet with every run
        raise UsageError(f"{p / GAMES}: missing (the runner writes it with every run: the directory "
                         "is damaged; rerun the simulation)")
    check_figures(p, meta)                 # the tying figures computed from the files again
    _CHECKED[key] = meta
    return meta


def rows_flag(metas: Iterable[dict]) -> str:
    """What a rerun needs to keep the player rows (players.parquet) the runs of ``metas`` were
    written without: ``"without --no-raw"`` when every one was written so (``raw_players`` false)
    at no more than :data:`simcore.rundir.RAW_LIMIT` games, where the rows are kept unless
    ``--no-raw`` is given, else ``"with --raw"`` (above the limit only ``--raw`` keeps them; it
    keeps them at any size). Session 60 #2: a 20,000-game ``--no-raw`` run was told "written
    without --raw: rerun with --raw", as if the default had left its rows out."""
    from simcore.rundir import RAW_LIMIT

    metas = list(metas)
    no_raw = bool(metas) and all(m.get("raw_players") is False and isinstance(m.get("games"), int)
                                 and m["games"] <= RAW_LIMIT for m in metas)
    return "without --no-raw" if no_raw else "with --raw"


def rows_left_out(meta: dict) -> str:
    """Why a run (its run.json, ``meta``) kept no players.parquet, and what brings the rows back,
    by the flag that left them out (:func:`rows_flag`): "the run was written with --no-raw: rerun
    without --no-raw", or, above :data:`simcore.rundir.RAW_LIMIT` games, "the run of 1,000,000
    games was written without --raw; above 100,000 games only --raw keeps the rows: rerun with
    --raw"."""
    from simcore.rundir import RAW_LIMIT

    if rows_flag([meta]) == "without --no-raw":
        return "the run was written with --no-raw: rerun without --no-raw"
    games = meta.get("games")
    size = f" of {games:,} games" if isinstance(games, int) else ""
    return (f"the run{size} was written without --raw; above {RAW_LIMIT:,} games only --raw keeps "
            "the rows: rerun with --raw")


@dataclass
class RunSet:
    """One or several run directories of one game and player count, read lazily.

    Attributes
    ----------
    paths, metas : the run directories and their run.json contents.
    label : a short name for reports (directory name, ``+k runs`` when pooled).
    game, n_players : from run.json (all pooled runs agree).
    player_columns, game_columns : column names present in every pooled players / games file.
    event_names : event id → name (run.json ``event_names``, else the ``[[events]]`` of
        ``rules_text``, else empty: callers show the id).
    """

    paths: tuple[Path, ...]
    metas: tuple[dict, ...]
    label: str
    game: str
    n_players: int
    player_columns: tuple[str, ...]
    game_columns: tuple[str, ...]
    event_names: dict[int, str]
    n_rows: int
    _strategies: tuple[str, ...] | None = field(default=None, repr=False)
    stats: object = field(default=None, repr=False)   # simcore.accumulate.RunStats, pooled
    # smallest differences that matter, by kind ("share", "score", "length"), over the game's own
    # (:func:`smallest_difference`; ``--smallest-difference``); None: the game's defaults
    smallest: dict | None = field(default=None, repr=False)

    def smallest_of(self, kind: str) -> float:
        """The smallest difference of ``kind`` that matters for this run set."""
        return smallest_difference(self.game, kind, self.smallest)

    @property
    def from_stats(self) -> bool:
        """True when the tables come from the runs' statistics (stats.json), not their rows."""
        return self.stats is not None

    def need_rows(self, what: str) -> None:
        """Raise a one-line :class:`UsageError` when ``what`` (a row-level question) is asked of
        runs read from their statistics without players.parquet."""
        lacking = [(p, m) for p, m in zip(self.paths, self.metas) if not (p / PLAYERS).is_file()]
        if lacking:
            p, meta = lacking[0]
            raise UsageError(f"{p}: {what} needs the player rows ({PLAYERS}); {rows_left_out(meta)}")

    # -- columns -------------------------------------------------------------------------------
    def has(self, *columns: str) -> bool:
        return all(c in self.player_columns for c in columns)

    def has_games(self, *columns: str) -> bool:
        return all(c in self.game_columns for c in columns)

    @property
    def games_per_unit(self) -> int:
        """The games one independent unit of the run holds: 1 where its games are independent, a
        rotated-seat run's deal size (``--rotate-seats``: each deal played once per rotation, its
        games sharing the deal's tiles and cards, often the same game with its seats permuted).

        The seat, strategy and matchup tables keep per-deal sums and read the deals exactly. Every
        other interval of such a run reads its game counts divided by this (each deal weighs as one
        game): a sum over a deal's g games has at most g times the variance of g independent games
        (Cauchy-Schwarz, (Σ z)² ≤ g·Σ z²: the design effect is at most g), so those intervals cover
        at least what they claim, at most √g wider than an exact reading over the deals, and
        nearly as narrow where the rotations replay one game (design effects of 3-4 measured on
        four-seat runs; docs/analysis.md "Rotated seats")."""
        if self.from_stats:
            return int(self.stats.layout.get("games_per_deal", 1))
        return self.n_players if self.cluster == "deal" else 1

    @property
    def cluster(self) -> str:
        """Independent unit of the run: ``deal`` for rotated-seat runs (paired analysis), else ``game``."""
        return "deal" if self.has("deal", "rotation") else "game"

    # -- columns by their role in the game's spec (never by name) -------------------------------
    @property
    def spec(self):
        """The game's :class:`simcore.contract.GameSpec` (None for a game the registry lacks)."""
        from simcore import games as registry

        return registry.specs().get(self.game)

    def role_columns(self, role: str, table: str = "players") -> tuple:
        """The spec's columns of ``table`` ("players" or "games") with ``role`` that this run
        has, in table order (:class:`simcore.contract.Column`)."""
        spec = self.spec
        if spec is None:
            return ()
        present = self.player_columns if table == "players" else self.game_columns
        return tuple(c for c in spec.columns_with_role(role, table) if c.name in present)

    def role_group(self, role: str, table: str = "players") -> tuple:
        """The first group of ``role`` columns this run has (e.g. the coins at the end of every
        turn), in table order; () when it has none."""
        cols = self.role_columns(role, table)
        return tuple(c for c in cols if c.group == cols[0].group) if cols else ()

    def role_column(self, role: str, table: str = "players") -> str | None:
        """The name of the run's one column with a single role (``length``, ``end_reason`` …)."""
        cols = self.role_columns(role, table)
        return cols[0].name if cols else None

    def type_key(self, column: str):
        """The type (``key``) of a per-type column (``tiles_marche`` → ``marche``)."""
        spec = self.spec
        try:
            return spec.column(column).key if spec is not None else column
        except KeyError:
            return column

    def type_name(self, column: str) -> str:
        """What a report calls the type of a per-type column (the spec's ``type_names``)."""
        key, spec = self.type_key(column), self.spec
        return spec.type_name(key) if spec is not None else str(key).replace("_", " ").capitalize()

    @property
    def tile_columns(self) -> tuple[str, ...]:
        """The per-type holdings the type tables study: the spec's ``drafted_by_type`` group."""
        return tuple(c.name for c in self.role_group("drafted_by_type"))

    @property
    def n_games(self) -> int:
        return self.n_rows // max(self.n_players, 1)

    def event_name(self, event_id: int) -> str:
        return self.event_names.get(int(event_id), f"Event {int(event_id)}")

    # -- lazy frames ---------------------------------------------------------------------------
    def players(self, columns: Sequence[str] | None = None) -> pl.LazyFrame:
        """Lazy scan of players.parquet of every pooled run, with a ``run`` column (Int32). Its
        ``win_share`` is read exactly, as Float64 whole units of 1/lcm(1 … P) (a float32 third is
        0.3333333433: summed over a run it left tables read from the rows ~5e-7 off those of the
        statistics, which count wins in those units; review s49 summary-only #1)."""
        frames = []
        for i, p in enumerate(self.paths):
            lf = pl.scan_parquet(p / PLAYERS)
            if columns is not None:
                lf = lf.select([c for c in columns if c != "run"])
            if columns is None or "win_share" in columns:
                meta = self.metas[i] if i < len(self.metas) else {}
                units = float(math.lcm(*range(1, int(meta.get("players") or 2) + 1)))
                lf = lf.with_columns(
                    ((pl.col("win_share").cast(pl.Float64) * units).round() / units).alias("win_share"))
            frames.append(lf.with_columns(pl.lit(i, pl.Int32).alias("run")))
        return frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical_relaxed")

    def games(self, columns: Sequence[str] | None = None) -> pl.LazyFrame | None:
        """Lazy scan of games.parquet (``None`` when a pooled run has none)."""
        if not self.game_columns:
            return None
        frames = []
        for i, p in enumerate(self.paths):
            lf = pl.scan_parquet(p / GAMES)
            if columns is not None:
                lf = lf.select([c for c in columns if c != "run"])
            frames.append(lf.with_columns(pl.lit(i, pl.Int32).alias("run")))
        return frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical_relaxed")

    @property
    def strategies(self) -> tuple[str, ...]:
        """Strategy names present, in run.json seat order first (used as category codes)."""
        if self._strategies is None and self.stats is not None:
            lay = self.stats.layout
            present = self.stats.fixed["cell_n"].sum(axis=0)
            self._strategies = tuple(s for s, n in zip(lay["strategies"], present) if n > 0)
        if self._strategies is None:
            listed: list[str] = []
            for m in self.metas:
                for s in m.get("strategies") or []:
                    if isinstance(s, str) and s not in listed:
                        listed.append(s)
            present = collect(self.players(["strategy"]).select(pl.col("strategy").unique()))
            found = {s for s in present["strategy"].to_list() if s is not None}
            self._strategies = tuple([s for s in listed if s in found] + sorted(found - set(listed)))
        return self._strategies


SOURCES = ("auto", "stats", "rows")


def read_stats(run: str | Path):
    """The statistics of run directory ``run`` (:class:`simcore.accumulate.RunStats`), or None when
    it has no stats.json (a run written before the statistics existed). A damaged file is a
    one-line :class:`UsageError` naming it."""
    from simcore import accumulate

    path = Path(run) / accumulate.STATS_FILE
    if not path.is_file():
        return None
    try:
        return accumulate.RunStats.read(path)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"{path}: cannot read the statistics ({str(exc).splitlines()[0] if str(exc) else exc!r})"[:300]) from None


def open_runs(paths: Iterable[str | Path], label: str | None = None, source: str = "auto") -> RunSet:
    """Pool run directories of one game and player count into a :class:`RunSet`.

    ``source``: where the tables come from. ``"stats"``: the runs' statistics (stats.json,
    merged exactly across pooled runs; no row is read, whatever the number of games);
    ``"rows"``: players.parquet and games.parquet; ``"auto"`` (default): the statistics when
    every run has them, else the rows. Raises :class:`UsageError` (one line) for a directory
    that is not a run, a run without what ``source`` needs, missing common columns, or runs that
    cannot be pooled.
    """
    paths = tuple(Path(p) for p in paths)
    if not paths:
        raise UsageError("no run directory given")
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}")
    # the same run given twice would count twice
    metas0 = [check_run(p, players=False) for p in paths]
    check_distinct_runs(paths, metas0)
    rotated = [p.name for p, m in zip(paths, metas0) if m.get("rotate_seats")]
    if rotated and len(rotated) < len(paths):
        fixed = next(p.name for p, m in zip(paths, metas0) if not m.get("rotate_seats"))
        raise UsageError(f"cannot pool {rotated[0]} (seats rotated) with {fixed} (fixed seats): two "
                         "designs, whose seats mean different things; compare them as a before/after "
                         "(balance report BASE VARIANT --no-pool) or play them alike")
    if source != "rows":
        rs = _open_stats(paths, label, required=source == "stats")
        if rs is not None:
            return rs
    metas, pcols, gcols, n_rows = [], None, None, 0
    for p in paths:
        meta = check_run(p)
        try:
            names = pl.scan_parquet(p / PLAYERS).collect_schema().names()
            rows = pl.scan_parquet(p / PLAYERS).select(pl.len()).collect().item()
        except (pl.exceptions.PolarsError, OSError) as exc:
            raise UsageError(f"{p / PLAYERS}: cannot read ({str(exc).splitlines()[0]})") from None
        missing = [c for c in COMMON_COLUMNS if c not in names]
        if missing:
            raise UsageError(f"{p / PLAYERS}: missing column(s) {', '.join(missing)}")
        gnames: list[str] = []
        if (p / GAMES).is_file():
            try:
                gnames = pl.scan_parquet(p / GAMES).collect_schema().names()
            except (pl.exceptions.PolarsError, OSError) as exc:
                raise UsageError(f"{p / GAMES}: cannot read ({str(exc).splitlines()[0]})") from None
            if "game" not in gnames:
                gnames = []
        pcols = names if pcols is None else [c for c in pcols if c in names]
        gcols = gnames if gcols is None else [c for c in gcols if c in gnames]
        metas.append(meta)
        n_rows += int(rows)
    games_played = {str(m.get("game")) for m in metas}
    if len(games_played) > 1:
        raise UsageError(f"cannot pool runs of different games: {', '.join(sorted(games_played))}")
    players = {m.get("players") for m in metas}
    if len(players) > 1:
        raise UsageError(f"cannot pool runs with different player counts: {sorted(map(str, players))}")
    n_players = next(iter(players))
    if not isinstance(n_players, int):
        n_players = int(collect(pl.concat([pl.scan_parquet(p / PLAYERS).select("seat") for p in paths])
                                .select(pl.col("seat").max())).item()) + 1
    if label is None:
        label = paths[0].name if len(paths) == 1 else f"{paths[0].name} (+{len(paths) - 1} runs)"
    return RunSet(paths=paths, metas=tuple(metas), label=label, game=games_played.pop(),
                  n_players=int(n_players), player_columns=tuple(pcols), game_columns=tuple(gcols),
                  event_names=_event_names(metas[0]), n_rows=n_rows)


def _open_stats(paths: tuple[Path, ...], label: str | None, required: bool) -> RunSet | None:
    """The :class:`RunSet` of ``paths`` read from their statistics; None (or, when ``required``,
    a UsageError) when a run has none or their layouts differ."""
    from simcore import accumulate

    metas, found = [], []
    for p in paths:
        meta = check_run(p, players=False)
        st = read_stats(p)
        if st is None:
            if required:
                raise UsageError(f"{p}: no {accumulate.STATS_FILE} (a run written before the "
                                 "statistics existed: read its rows instead)")
            return None
        metas.append(meta)
        found.append(st)
    if len({json_key(st.layout) for st in found}) > 1:
        # (auto: the rows pool what the runs share; without rows, this line rather than a missing
        # players.parquet's)
        if required or any(not (p / PLAYERS).is_file() for p in paths):
            raise UsageError(f"cannot pool the statistics of {paths[0]} and the others: different "
                             "configurations (game, players, line-up or columns)")
        return None
    for p, m, st in zip(paths, metas, found):
        if m.get("games") != st.games:
            raise UsageError(f"{p / accumulate.STATS_FILE}: {st.games} games, but run.json says "
                             f"{m.get('games')} (files of different runs?)")
    stats = accumulate.merged(found)
    lay = stats.layout
    if label is None:
        label = paths[0].name if len(paths) == 1 else f"{paths[0].name} (+{len(paths) - 1} runs)"
    return RunSet(paths=paths, metas=tuple(metas), label=label, game=lay["game"],
                  n_players=int(lay["players"]), player_columns=tuple(lay["player_columns"]),
                  game_columns=tuple(lay["game_columns"]), event_names=_event_names(metas[0]),
                  n_rows=stats.games * int(lay["players"]), stats=stats)


def json_key(obj) -> str:
    import json

    return json.dumps(obj, sort_keys=True)


def config_key(meta: dict) -> tuple:
    """What makes two runs the same configuration: game, players, rules, strategies (names and the
    files they were read from, :func:`simcore.rundir.bots_key`), whether the seats were rotated
    (a rotated line-up and the same line-up in fixed seats are two designs: pooled, seat 3's share
    averaged a bot's seat with every bot's; review s49 summary-only #1) and the game's matchup
    (Fief: attacker, defender, terrain, …; :func:`simcore.rundir.matchup_key`)."""
    from simcore.rundir import bots_key, matchup_key

    return (meta.get("game"), meta.get("players"), meta.get("rules_sha256"),
            tuple(meta.get("strategies") or ()), bots_key(meta), bool(meta.get("rotate_seats")),
            matchup_key(meta))


def group_runs(paths: Iterable[str | Path], source: str = "auto") -> list[RunSet]:
    """Split directories into configurations (order of first appearance), each pooled
    (``source``: see :func:`open_runs`)."""
    groups: dict[tuple, list[Path]] = {}
    for p in map(Path, paths):
        groups.setdefault(config_key(check_run(p, players=False)), []).append(p)
    return [open_runs(ps, source=source) for ps in groups.values()]


# ---------------------------------------------------------------------------------------------
# Chunked per-game passes
# ---------------------------------------------------------------------------------------------

@dataclass
class Block:
    """A range of whole games as matrices.

    ``p[col]`` is ``(games, seats)`` (row = game, column = seat 0…n−1); ``g[col]`` is ``(games,)``
    from games.parquet; ``cluster`` is ``(games,)``: an id of the independent unit (the deal in
    rotated-seat runs, else the game), unique across pooled runs. ``strategy`` is given as integer
    codes into :attr:`RunSet.strategies`.
    """

    n: int
    run: np.ndarray
    game: np.ndarray
    cluster: np.ndarray
    p: dict[str, np.ndarray]
    g: dict[str, np.ndarray]

    @property
    def n_games(self) -> int:
        return int(self.game.shape[0])


class Accumulator(Protocol):
    player_columns: tuple[str, ...]
    game_columns: tuple[str, ...]

    def add(self, block: Block) -> None: ...


def _chunk_ranges(rs: RunSet, rows_per_chunk: int) -> list[tuple[int, int] | None]:
    if rs.n_rows <= rows_per_chunk:
        return [None]
    c = rs.cluster
    lim = collect(rs.players([c]).select(pl.col(c).min().alias("lo"), pl.col(c).max().alias("hi")))
    lo, hi = int(lim["lo"][0]), int(lim["hi"][0])
    width = max(1, math.ceil((hi - lo + 1) * rows_per_chunk / rs.n_rows))
    return [(a, min(a + width, hi + 1)) for a in range(lo, hi + 1, width)]


def _regular(df: pl.DataFrame, n: int) -> bool:
    rows = df.height
    if rows % n:
        return False
    g = df["game"].to_numpy().reshape(-1, n)
    r = df["run"].to_numpy().reshape(-1, n)
    s = df["seat"].to_numpy().reshape(-1, n)
    if not ((g == g[:, :1]).all() and (r == r[:, :1]).all() and (s == np.arange(n)).all()):
        return False
    key = r[:, 0].astype(np.int64) * (1 << 40) + g[:, 0]
    return bool(np.all(np.diff(key) > 0))


def game_major(rs: RunSet, df: pl.DataFrame, n: int) -> pl.DataFrame:
    """Player rows ``df`` as every reader wants them: game-major, seats 0 … n − 1 within each game
    (sorted when they come otherwise); one :class:`UsageError` naming the file when a game's rows
    are not one per seat."""
    if not _regular(df, n):
        df = df.sort(["run", "game", "seat"])
        if not _regular(df, n):
            raise _irregular_error(rs, df)
    return df


def _irregular_error(rs: RunSet, df: pl.DataFrame) -> UsageError:
    counts = df.group_by(["run", "game"]).agg(pl.len().alias("rows"),
                                              pl.col("seat").n_unique().alias("seats"))
    bad = counts.filter((pl.col("rows") != rs.n_players) | (pl.col("seats") != rs.n_players)).head(1)
    if bad.height:
        run, game, rows = bad["run"][0], bad["game"][0], bad["rows"][0]
        return UsageError(f"{rs.paths[run] / PLAYERS}: game {game} has {rows} player rows with seats "
                          f"not 0…{rs.n_players - 1} (run.json players = {rs.n_players})")
    return UsageError(f"{rs.paths[0] / PLAYERS}: seats are not 0…{rs.n_players - 1} in every game")


def run_pass(rs: RunSet, accumulators: Sequence[Accumulator], rows_per_chunk: int = ROWS_PER_CHUNK) -> None:
    """Feed every game of ``rs`` to each accumulator, one :class:`Block` per chunk of games."""
    if not accumulators:
        return
    n = rs.n_players
    pcols = ["game", "seat"]
    for acc in accumulators:
        pcols += [c for c in acc.player_columns if c not in pcols]
    if rs.cluster == "deal" and "deal" not in pcols:
        pcols.append("deal")
    gcols: list[str] = []
    for acc in accumulators:
        gcols += [c for c in acc.game_columns if c not in gcols and c != "game"]
    cat = pl.Enum(list(rs.strategies)) if "strategy" in pcols else None
    c = rs.cluster
    for rng in _chunk_ranges(rs, rows_per_chunk):
        lf = rs.players(pcols)
        if rng is not None:
            lf = lf.filter((pl.col(c) >= rng[0]) & (pl.col(c) < rng[1]))
        if cat is not None:
            lf = lf.with_columns(pl.col("strategy").cast(pl.String).cast(cat).to_physical())
        df = collect(lf)
        if df.height == 0:
            continue
        df = game_major(rs, df, n)
        G = df.height // n
        run = df["run"].to_numpy()[::n].astype(np.int64)
        game = df["game"].to_numpy()[::n].astype(np.int64)
        unit = df["deal"].to_numpy()[::n].astype(np.int64) if c == "deal" else game
        cluster = run * (1 << 40) + unit
        # Fortran order: reductions over the seats of a game run along contiguous seat columns.
        p = {col: np.asfortranarray(df[col].to_numpy().reshape(G, n)) for col in pcols if col != "game"}
        g = _game_rows(rs, gcols, run, game) if gcols else {}
        block = Block(n=n, run=run, game=game, cluster=cluster, p=p, g=g)
        for acc in accumulators:
            acc.add(block)


def _game_rows(rs: RunSet, gcols: list[str], run: np.ndarray, game: np.ndarray) -> dict[str, np.ndarray]:
    """games.parquet columns aligned with the block's games (``nan`` where a game has no row)."""
    glf = rs.games(["game", *gcols])
    lo, hi = int(game.min()), int(game.max())
    gdf = collect(glf.filter((pl.col("game") >= lo) & (pl.col("game") <= hi)))
    gkey = gdf["run"].to_numpy().astype(np.int64) * (1 << 40) + gdf["game"].to_numpy()
    order = np.argsort(gkey, kind="stable") if not np.all(np.diff(gkey) > 0) else None
    if order is not None:
        gkey = gkey[order]
    want = run * (1 << 40) + game
    idx = np.clip(np.searchsorted(gkey, want), 0, max(len(gkey) - 1, 0))
    found = (gkey[idx] == want) if len(gkey) else np.zeros(len(want), bool)
    out = {}
    for col in gcols:
        vals = gdf[col].to_numpy()
        if order is not None:
            vals = vals[order]
        vals = vals[idx] if len(vals) else np.zeros(len(want))
        out[col] = vals if found.all() else np.where(found, vals.astype(float), np.nan)
    return out


# ---------------------------------------------------------------------------------------------
# Reading the statistics (exact integer sums, simcore.accumulate)
# ---------------------------------------------------------------------------------------------

def int_moments(n, total, squares, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(mean, centred sum of squares m2) of values given as exact integer sums: ``n`` values of
    sum ``total`` and sum of squares ``squares``, all in units of 1/``scale``. m2 = (n·Σx² −
    (Σx)²) / n is formed in Python integers, so no digit is lost to cancellation; ``nan`` mean
    where n = 0."""
    n_a, t_a, q_a = (np.atleast_1d(np.asarray(x)) for x in (n, total, squares))
    shape = np.broadcast(n_a, t_a, q_a).shape
    n_a, t_a, q_a = (np.broadcast_to(x, shape).ravel() for x in (n_a, t_a, q_a))
    mean = np.full(n_a.size, np.nan)
    m2 = np.zeros(n_a.size)
    for i in range(n_a.size):
        ni, ti, qi = int(n_a[i]), int(t_a[i]), int(q_a[i])
        if ni > 0:
            mean[i] = ti / ni / scale
            m2[i] = (ni * qi - ti * ti) / ni / (scale * scale)
    return mean.reshape(shape), m2.reshape(shape)


def value_sums(h, cells=None) -> tuple[np.ndarray, np.ndarray]:
    """(values, sums) of a :class:`simcore.accumulate.Valued` histogram over the cell axes
    ``cells`` (an index into the leading axes, e.g. a list of seats; None: every cell)."""
    a = h.a if cells is None else h.a[cells]
    while a.ndim > 1:
        a = a.sum(axis=0)
    return h.values, a
