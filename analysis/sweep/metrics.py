"""Headline metrics of sweep variants, with intervals, and the paired effects of each parameter.

A variant's run directory is read into per-game samples (:func:`load_variant`): each seat's win
share, each strategy's and each role's win share where there are several, the winner's margin
(winner's score minus the runner-up's, in the game's score unit), the game length (turns, where the
game records it) and the event swing (the spread between the players' total event gains, where the
game records them). Every metric is a mean over games with a 95% interval (a win share: Wilson's score interval,
:func:`share_ci`, inside [0, 1] and never of zero width; every other metric normal: a sweep variant
has thousands of games); the seat balance — the largest distance of a seat's win share from the
fair share 1/P — gets the Balance interval's construction (simultaneous intervals on the seat
shares, then the interval of the maximum: :func:`analysis.stats.max_distance_interval`). In a game
with a role of several seats (Seigneurial's Censitaires) the role's split gap — the largest gap of
one of its seats' share of the role's wins from an equal split (:func:`split_metrics`,
:func:`role_splits`) — is read from the seats' mean win shares and their covariance (the
statistics every variant keeps: rows or exact sums), its interval the run page's Bonferroni
intervals of the seats' shares of the role's wins (:func:`analysis.roles.role_share_size_intervals`,
delta method) mapped through the largest distance; a change of it joins its comparison's
simultaneous family (:func:`_with_splits`) and is bounded as the seat imbalance's change is.

Between two player counts a seat's win share is compared against its reference at each count, so
that the effect is not the reference moving: 1/P where the seats are alike (:func:`fair_shares`),
its role's win share / the role's seats for a seat of a role of several seats (:func:`within_role`);
a side's share, and a role of one seat's, as they are. The seat imbalance whose change is one
seat's in the data (that seat furthest from fair at both values) is marked so
(:func:`furthest_seat`): equal there, not the same metric; followed, interval and all, only where
the seat is clearly the furthest at both values by the family's intervals, else with the seats
whose intervals reach as far named, and at which value.

Because every variant of a sweep plays the same games (common random numbers), an effect of a
parameter is measured game by game (:func:`paired_effect`): the interval of a difference between two
variants is that of the mean of per-game differences, narrower than two independent intervals.
Where no game differs between the two (a share with the same value in every game under both:
:func:`no_game_differs`), that mean has no variance and its interval would be the point 0 to 0,
which says more than the games do: the change is bounded as the before/after page bounds it
(:func:`analysis.stats.same_games_bound`, at the family's level; ``same_games`` on the row).
:func:`sensitivity` builds, per parameter, the curve of every metric against the parameter's value
(the other parameters at their base rules' value when the grid holds it, else at their first value:
:func:`anchors`; each effect row says where, column ``at``) and the effect of moving it from its
first to its last value — what ``balance report SWEEP_DIR`` shows. Every comparison says whether
it measured anything (columns ``read`` and ``players``, :func:`reads_comparison`): two variants of a
player count that does not read the setting (``track.goal.4`` at 3 players, in a sweep that also
varies ``players``) play the same games, and the page says "not read at 3 players" and counts them
nowhere, as a panel sweep does for its cells. The effects on a page are adjusted as one family
(:func:`parameter_effects`: simultaneous intervals over the metrics, Bonferroni over the
parameters), and each is worded by :func:`analysis.stats.practical` against the metric's smallest
difference that matters. In a grid the same comparisons are also made at every other combination of
the other parameters' values (:func:`other_slices`; ``Sensitivity.slice_effects``), as a second
family (Bonferroni over those comparisons), so an effect that differs where the others sit
elsewhere is measured, and the anchored family keeps its width. A parameter of 3 values or more is
also compared value by value (every two of its values, the others at their anchors:
``Sensitivity.value_effects``, a third family, Bonferroni over those pairs but the ones the
first-vs-last family states, which keep that family's row there: one comparison, one family and one
verdict on the page, column ``family``), so that each value can
be set against the base rules' value (:func:`reference`, :func:`against_reference`) and a response
that turns between the first and the last value is found (:func:`turns`): first → last alone
hides it (review L #2); a clear but small step back is said to level off (:func:`levels_off`), and
the first-vs-last effect quoted beside either is the page's own (``Sensitivity.effects``, review M
#2).

A variant played with rotated seats (``--rotate-seats``) has deals, not games, as its independent
units (:func:`deal_size`): every interval and effect of it reads the per-deal means of its rows
(:func:`by_deal`: exact), or its sweep's per-deal sums (:func:`joint_mean_cov`: the same numbers;
sums written without them: the games' covariance times the deal size, a bound on the design
effect that covers at least what it claims).

A run outside a sweep (a panel's cell, :mod:`analysis.panel`) needs only its statistics:
:func:`cell_summary` gives every seat's and role's win share (Wilson's interval) and the game length
(the interval of :func:`mean_ci`), from stats.json (:func:`summary_from_stats`: exact integer sums
and sums of squares) whatever the run's size, or from the rows for a run written before the
statistics (:func:`summary_from_rows`). On a run with both they agree within 1e-9 relative; the
statistics are the exact ones (players.parquet keeps win shares as float32, where a third is a third
within 3e-8 relative).

May import numpy, polars, pyarrow, the standard library, :mod:`simcore` (registry, rundir, errors; accumulate, lazily, for its file name),
:mod:`analysis.stats`, :mod:`analysis.load`, :mod:`analysis.roles` (a role's split, lazily),
:mod:`analysis.rules_diff` (whether a player count reads a setting, lazily) and
:mod:`analysis.sweep.store`.
"""

from __future__ import annotations

import math
import warnings

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from simcore import games as registry
from simcore.errors import UsageError
from simcore.rundir import GAMES, PLAYERS, read_meta, verify_integrity

from analysis import stats
from analysis.length import length_unit
from analysis.load import int_moments, margin_words, open_runs, score_unit, smallest_difference, value_sums
from analysis.sweep.store import check_variant, finished_variants, read_sweep, variant_dir

#: the page's families of comparisons, as effects.csv and each value-by-value row (column
#: ``family``) name them (:mod:`analysis.sweep.tables` re-exports them)
FIRST_VS_LAST = "first vs last value"
VALUE_BY_VALUE = "value by value"
OTHER_SLICES = "other values of the other parameters"

JOINT_FILE = "paired_stats.json"        # analysis.sweep.joint.JOINT_FILE (not imported: no cycle)

Z = 1.959963984540054


@dataclass(frozen=True)
class MetricInfo:
    key: str                      # seat_win_share_1, balance, winner_margin, game_length, …
    label: str                    # "seat 1's win share"
    unit: str                     # "pp" (shares, shown in percentage points) or the game's unit
    share: bool                   # a share (shown in %, differences in pp)


@dataclass
class VariantData:
    """Per-game samples of one variant (``samples[key]``: float64[games])."""

    path: Path
    meta: dict
    n_players: int
    samples: dict[str, np.ndarray]
    info: dict[str, MetricInfo]
    seat_wins: np.ndarray                       # float64[games, players] (no rows: [0, players])
    fair: float | None
    extra: dict = field(default_factory=dict)
    # a variant of a sweep played without rows: its sums in the sweep's paired_stats.json
    # (:class:`analysis.sweep.joint.JointSums`) under its id; ``samples`` is then empty
    joint: "object | None" = None
    vid: str | None = None
    # the games of one independent unit: a rotated-seat variant's deal (its players), else 1
    # (:func:`deal_size`); every interval of the variant reads its deals (:func:`by_deal`)
    games_per_deal: int = 1

    @property
    def n_games(self) -> int:
        return int(self.joint.n) if self.joint is not None else int(self.seat_wins.shape[0])

    @property
    def keys(self) -> list[str]:
        """Its metrics, in :func:`from_tables`' order (without rows: those defined in every game)."""
        return self.joint.usable(self.vid) if self.joint is not None else list(self.samples)

    def sums(self, key: str) -> tuple[int, int, int, int]:
        """(games, Σx, Σx², scale) of a metric of a variant without rows, x in units of 1/scale."""
        (t,), ((q,),), (c,) = self.joint.integer_sums([(self.vid, key)])
        return self.joint.n, t, q, c


def deal_size(meta: dict) -> int:
    """The games one independent unit of a run holds: its players when it was played with rotated
    seats (``--rotate-seats``: each deal played once per rotation, its games consecutive and
    sharing the deal's cards and dice), else 1."""
    return int(meta.get("players") or 1) if meta.get("rotate_seats") else 1


def by_deal(x: np.ndarray, g: int) -> np.ndarray:
    """Per-game values (rows game-major, a deal's ``g`` games consecutive) as one mean per deal,
    the independent units whose spread every interval reads: the mean is the games' mean, and the
    covariance of the mean across deals is exact whatever the games of a deal share (within a
    deal the seat shares of a rotated run correlate negatively, design effect ~0.6-1; a strategy's
    share positively, ~2: read game by game its interval was ~√2 too narrow). Unchanged where
    ``g`` is 1 or the games are not whole deals."""
    x = np.asarray(x, dtype=float)
    if g <= 1 or x.shape[0] % g or x.shape[0] == 0:
        return x
    y = x.reshape(x.shape[0] // g, g, *x.shape[1:])
    if not np.isnan(y).any():
        return y.mean(axis=1)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)      # a deal where a strategy never sat
        return np.nanmean(y, axis=1)


def _role_names(spec, role: str, table: str = "players") -> list[str]:
    """The names of the spec's columns with ``role`` (none for an unknown game)."""
    return [c.name for c in spec.columns_with_role(role, table)] if spec is not None else []


def share_metrics(spec, n_players: int) -> list[tuple[MetricInfo, list[int]]]:
    """The win-share metrics of a game at ``n_players``, each with the seats (0-based) whose
    shares it adds per game: every seat's (``seat_win_share_<s>``), then, in a game with roles,
    every role's (``role_win_share_<role>``: the sum of its seats' shares)."""
    P = n_players
    roles = spec.seat_roles(P) if spec is not None and not spec.roles_alike else None

    def display(r):
        return _role_display(spec, r)

    out = []
    for s in range(P):
        who = f"seat {s + 1}" + (f" ({display(roles[s])})" if roles else "")
        out.append((MetricInfo(f"seat_win_share_{s + 1}", f"{who}'s win share", "pp", True), [s]))
    if roles:
        for r in dict.fromkeys(roles):
            seats = [s for s, x in enumerate(roles) if x == r]
            side = f"the {display(r)}'s" if len(seats) == 1 else f"the {display(r)}s'"
            out.append((MetricInfo(f"role_win_share_{r}", f"{side} win share", "pp", True), seats))
    return out


def _role_display(spec, role: str) -> str:
    return next((x.display for x in spec.roles if x.name == role), role.title())


#: the key prefix of a role's split metric (:func:`split_metrics`)
SPLIT = "role_split_"


def split_metrics(spec, n_players: int) -> list[tuple[MetricInfo, list[int]]]:
    """The split metrics of a game with a role of several seats at ``n_players`` (Seigneurial's
    Censitaires, SG-1: one Seigneur, the other seats Censitaires), each with its seats (0-based):
    per such role, ``role_split_<role>``, the largest gap of one of its seats' share of the role's
    wins from an equal split 1/k (max_i |w_i / Σ_role w_j − 1/k|, w a seat's win share): how
    evenly the role's seats split its wins, the question a run's page answers per seat
    (:func:`analysis.roles.role_seat_table`). None in a game whose seats are alike, nor for a role
    of one seat (its share of its role's wins is 1)."""
    if spec is None or spec.roles_alike:
        return []
    roles = spec.seat_roles(n_players)
    out = []
    for r in dict.fromkeys(roles):
        seats = [s for s, x in enumerate(roles) if x == r]
        if len(seats) < 2:
            continue
        d = _role_display(spec, r)
        out.append((MetricInfo(f"{SPLIT}{r}", f"the largest gap of a {d} seat from an equal split of "
                                             f"the {d}s' wins", "pp", True), seats))
    return out


def length_info(game: str | None, column) -> MetricInfo:
    """The game length's label and unit: its column's unit (the spec's ``length`` column), a length
    in turns said as the run page says it (:func:`analysis.length.length_unit`: "player turns" where
    a turn is one player's); "turns" for a game without that column."""
    unit = column.unit if column is not None else "turns"
    return MetricInfo("game_length", "the game length", length_unit(game) if unit == "turns" else unit, False)


def metric_info(game: str, n_players: int, key: str) -> MetricInfo:
    """The label and unit of per-game metric ``key`` (as :func:`from_tables` names them)."""
    spec = registry.specs().get(game)
    for m, _ in share_metrics(spec, n_players):
        if m.key == key:
            return m
    unit = score_unit(game)
    if key == "winner_margin":
        return MetricInfo(key, margin_words(game) or "the winner's margin", unit, False)
    if key == "event_swing":
        return MetricInfo(key, "the event swing", unit, False)
    if key == "game_length":
        length = next(iter(spec.columns_with_role("length", "games")), None) if spec else None
        return length_info(game, length)
    if key.startswith("strategy_win_share_"):
        k = key[len("strategy_win_share_"):]
        return MetricInfo(key, f"{k}'s win share (per seat it holds)", "pp", True)
    raise KeyError(key)


def load_variant_sums(path: str | Path, joint, vid: str, sums_path: str | Path | None = None,
                      fix: str = "move it away and run the same command again to play anew"
                      ) -> VariantData:
    """A variant played without rows: its run.json and its sums in ``joint`` (a
    :class:`analysis.sweep.joint.JointSums`, read from ``sums_path``). Sums made from other
    games or rules than the run's are refused in one line naming the sums file (``fix``: what
    to do)."""
    path = Path(path)
    meta = read_meta(path)
    game, P = meta["game"], int(meta["players"])
    spec = registry.specs().get(game)
    where = sums_path or "the exact sums"
    if vid not in joint.keys:
        raise UsageError(f"{where}: holds no sums of {vid} ({path}): not this run's; {fix}")
    why = joint.played(vid, meta.get("seed"), meta.get("rules_sha256"))
    if why is not None:
        raise UsageError(f"{where}: not made from {path} (its sums of {vid} have {why}); {fix}")
    info = {k: metric_info(game, P, k) for k in joint.keys[vid]}
    fair = 1.0 / P if spec is None or spec.roles_alike else None
    return VariantData(path, meta, P, {}, info, np.zeros((0, P)), fair, joint=joint, vid=vid,
                       games_per_deal=deal_size(meta))


def load_variant(path: str | Path) -> VariantData:
    """Read a variant's run directory (needs players.parquet: a sweep keeps it)."""
    path = Path(path)
    meta = read_meta(path)
    if (path / PLAYERS).is_file():
        verify_integrity(path, meta)    # sizes and hashes: a damaged file is named, not read
    else:
        raise UsageError(f"{path}: no {PLAYERS} (a sweep variant or a tune's confirmation is read from "
                         "its player rows, which sweeps and tunes write; a run of a panel is read from "
                         "its stats.json: cell_summary)")
    names = set(pq.read_schema(path / PLAYERS).names)
    spec = registry.specs().get(meta["game"])
    cols = ["seat", "strategy", "win_share", "score", *_role_names(spec, "gain_by_event")]
    players = pq.read_table(path / PLAYERS, columns=[c for c in cols if c in names])
    games = None
    length = _role_names(spec, "length", "games")
    if length and (path / GAMES).is_file() and length[0] in pq.read_schema(path / GAMES).names:
        games = pq.read_table(path / GAMES, columns=length)
    return from_tables(meta["game"], int(meta["players"]), players, games, path=path, meta=meta)


def from_tables(game: str, n_players: int, players, games=None, *, path: Path | None = None,
                meta: dict | None = None, games_per_deal: int | None = None) -> VariantData:
    """Per-game samples from a players table (and a games table): a run directory's or the
    in-memory tables of :func:`simcore.runner.collect` (whose prepared run gives
    ``games_per_deal``; a run directory's meta says it: :func:`deal_size`)."""
    P = n_players
    spec = registry.specs().get(game)
    unit = score_unit(game)
    names = set(players.column_names)
    gain_cols = [c for c in _role_names(spec, "gain_by_event") if c in names]
    length = next(iter(spec.columns_with_role("length", "games")), None) if spec else None
    t = players
    n = t.num_rows // P
    # players.parquet keeps win shares as float32 (a third within 3e-8): each is a whole number of
    # 1/L (L = lcm(1 … P)), taken exactly before any share is formed from it. Read as stored, a
    # side's share of a game it won shared (3 × float32 ⅓ = 1.00000003) differed from one it won
    # alone, and an unchanged 100% read as a "clear but small" change of 0.000 pp
    from simcore.accumulate import win_units

    L = win_units(P)
    win = np.rint(np.asarray(t["win_share"], np.float64).reshape(n, P) * L) / L
    samples: dict[str, np.ndarray] = {}
    info: dict[str, MetricInfo] = {}

    def add(key, label, u, share, x):
        samples[key] = np.asarray(x, np.float64)
        info[key] = MetricInfo(key, label, u, share)

    for m, seats in share_metrics(spec, P):
        add(m.key, m.label, m.unit, m.share,
            win[:, seats[0]] if len(seats) == 1 else np.rint(win[:, seats].sum(axis=1) * L) / L)
    fair = 1.0 / P if spec is None or spec.roles_alike else None
    if "score" in names:
        score = np.asarray(t["score"], np.float64).reshape(n, P)
        top2 = -np.sort(-score, axis=1)[:, :2]
        # (Fief: a mutual wipe-out's 0 counts, and the label says so: margin_words)
        add("winner_margin", margin_words(game) or "the winner's margin", unit, False, top2[:, 0] - top2[:, 1])
    if gain_cols:
        gains = sum(np.asarray(t[c], np.float64) for c in gain_cols).reshape(n, P)
        add("event_swing", "the event swing", unit, False, gains.max(axis=1) - gains.min(axis=1))
    if games is not None and length is not None and length.name in games.column_names:
        add("game_length", "the game length", length_info(game, length).unit, False,
            np.asarray(games[length.name], np.float64))
    if "strategy" in names:
        strat = np.asarray(t["strategy"].to_numpy(zero_copy_only=False)).reshape(n, P)
        kinds = list(dict.fromkeys(strat.ravel().tolist()))
        if len(kinds) > 1:
            for k in kinds:
                mask = strat == k
                seats = mask.sum(axis=1)
                share = np.where(seats > 0, (win * mask).sum(axis=1) / np.maximum(seats, 1), np.nan)
                add(f"strategy_win_share_{k}", f"{k}'s win share (per seat it holds)", "pp", True,
                    share)
    return VariantData(path or Path("."), meta or {"game": game, "players": P}, P, samples, info,
                       win, fair, games_per_deal=games_per_deal or deal_size(meta or {}))


def mean_ci(x: np.ndarray, g: int = 1) -> tuple[float, float, float]:
    """The mean of ``x`` with its normal 95% interval, over its deals when ``g`` > 1
    (:func:`by_deal`)."""
    x = by_deal(x, g)
    x = x[~np.isnan(x)]
    n = x.size
    if n == 0:
        return (float("nan"),) * 3
    m = float(x.mean())
    half = Z * float(x.std(ddof=1)) / np.sqrt(n) if n > 1 else float("nan")
    return m, m - half, m + half


def share_ci(x: np.ndarray, g: int = 1) -> tuple[float, float, float]:
    """A win share's mean over games with Wilson's score interval (:func:`analysis.stats.wilson`:
    the shares of a game's winners are the successes, fractional for a shared win), as the run page
    and ``balance export`` give it: inside [0, 1], and never of zero width (0 wins in 20,000 games:
    0.000% to 0.019%, where a normal interval claims 0 to 0). With ``g`` > 1 (a rotated-seat
    run) over its deals: Wilson's at the deals' effective number of games
    (:func:`analysis.stats.share_mean_wilson`), as a rotated run's page reads its seats."""
    if g > 1:
        d = by_deal(x, g)
        d = d[~np.isnan(d)]
        if d.size < 2:
            return (float(d.mean()) if d.size else float("nan"), float("nan"), float("nan"))
        m = float(d.mean())
        lo, hi = stats.share_mean_wilson(m, float(d.std(ddof=1)), d.size)
        return m, float(lo), float(hi)
    x = x[~np.isnan(x)]
    return share_ci_sums(x.size, float(x.sum()))


def share_ci_sums(n: int, successes: float) -> tuple[float, float, float]:
    """:func:`share_ci` from the number of games and the sum of the share over them."""
    if n <= 0:
        return (float("nan"),) * 3
    lo, hi = stats.wilson(successes, n)
    return successes / n, float(lo), float(hi)


def mean_ci_sums(n: int, total: int, squares: int, scale: float = 1.0) -> tuple[float, float, float]:
    """:func:`mean_ci` of ``n`` values given by their exact integer sum and sum of squares, in
    units of 1/``scale`` (the statistics' sums, :mod:`simcore.accumulate`): the same mean and
    interval, mean ± Z·sd/√n with the sample sd (n − 1), from the centred sum of squares formed in
    integers (:func:`analysis.load.int_moments`)."""
    if n <= 0:
        return (float("nan"),) * 3
    mean, m2 = int_moments(n, total, squares, scale)
    m = float(mean[0])
    half = Z * float(np.sqrt(max(float(m2[0]), 0.0) / (n - 1))) / np.sqrt(n) if n > 1 else float("nan")
    return m, m - half, m + half


@dataclass
class CellSummary:
    """A run's win-share and game-length estimates, as a panel shows them (:func:`cell_summary`):
    ``estimates[key]`` = (info, mean, low, high) for every ``seat_win_share_<s>``, every
    ``role_win_share_<role>`` (games with roles) and ``game_length`` (games that record it); a
    share's interval Wilson's (:func:`share_ci`), the length's that of :func:`mean_ci`. ``source``: ``"stats"`` (stats.json) or ``"rows"``."""

    path: Path
    meta: dict
    n_players: int
    n_games: int
    estimates: dict[str, tuple[MetricInfo, float, float, float]]
    source: str


def _panel_metric(key: str) -> bool:
    return key.startswith(("seat_win_share_", "role_win_share_")) or key == "game_length"


def summary_from_rows(v: VariantData) -> CellSummary:
    """The :class:`CellSummary` of a variant read from its rows (:func:`load_variant`)."""
    est = {k: (v.info[k], *(share_ci(x) if v.info[k].share else mean_ci(x)))
           for k, x in v.samples.items() if _panel_metric(k)}
    return CellSummary(v.path, v.meta, v.n_players, v.n_games, est, "rows")


def summary_from_stats(rs) -> CellSummary:
    """The :class:`CellSummary` of a run read from its statistics (an :class:`analysis.load.RunSet`
    with ``stats``, :func:`analysis.load.open_runs`): per game, a seat's win share has the sum
    Σ_s of its win units (its Wilson interval needs no more); a role's share (the sum of its
    seats' shares) has the sum over its seats; the game length has the sums of value × count and value² × count over its histogram (one bin per turn:
    exact). Equal to :func:`summary_from_rows` of the same run within float rounding
    (tests/sweep/test_panel_from_stats.py)."""
    st = rs.stats
    lay, f = st.layout, st.fixed
    P, n = int(lay["players"]), int(st.games)
    L = float(lay["win_units"])
    spec = registry.specs().get(rs.game)
    seat_sum = f["cell_win"].sum(axis=1)
    est: dict[str, tuple[MetricInfo, float, float, float]] = {}
    for info, seats in share_metrics(spec, P):
        total = sum(int(seat_sum[s]) for s in seats)
        est[info.key] = (info, *share_ci_sums(n, total / L))
    length = lay.get("length")
    col = next((c for c in spec.columns_with_role("length", "games") if c.name == length), None) \
        if spec is not None and length else None
    if col is not None and "length" in st.valued:
        values, counts = value_sums(st.valued["length"])     # every end reason
        k = int(counts.sum())
        total = sum(int(v) * int(c) for v, c in zip(values, counts) if c)
        squares = sum(int(v) * int(v) * int(c) for v, c in zip(values, counts) if c)
        est["game_length"] = (length_info(rs.game, col),
                              *mean_ci_sums(k, total, squares))
    return CellSummary(rs.paths[0], rs.metas[0], P, n, est, "stats")


def cell_summary(path: str | Path) -> CellSummary:
    """A run's :class:`CellSummary`: from its statistics (stats.json) when it has them, whatever
    its size and whether it kept players.parquet; from its rows otherwise (a run written before
    the statistics existed)."""
    from simcore.accumulate import STATS_FILE

    path = Path(path)
    if (path / STATS_FILE).is_file():
        return summary_from_stats(open_runs([path], source="stats"))
    return summary_from_rows(load_variant(path))


def balance(v: VariantData) -> tuple[float, float, float] | None:
    """Seat balance: max over seats of |win share − 1/P|, with a 95% interval (None when the
    seats are not alike: asymmetric roles have no single fair share). The interval has the Balance
    interval's construction (:func:`analysis.stats.max_distance_interval`: simultaneous intervals
    on the seat shares from their covariance across games, then the interval of the maximum), so
    it covers a fair game (true 0) as often as an unfair one."""
    if v.fair is None:
        return None
    mean, cov = _seat_moments(v)
    return stats.max_distance_interval(mean, cov, v.fair, v.fair)


def _seat_moments(v: VariantData) -> tuple[np.ndarray, np.ndarray]:
    """The seat shares' mean and the covariance of that mean (:func:`analysis.stats.mean_cov`),
    from the rows (over the deals of a rotated-seat variant, :func:`by_deal`) or, without them,
    from the sweep's exact sums (a rotated variant's covariance times its deal size: the design
    effect's bound, as :func:`share_ci_sums`)."""
    if v.joint is None:
        return stats.mean_cov(by_deal(v.seat_wins, v.games_per_deal))
    return joint_mean_cov(v.joint, [(v.vid, f"seat_win_share_{s + 1}") for s in range(v.n_players)])


def joint_mean_cov(joint, columns: list[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
    """(mean, covariance of the mean) of ``columns`` from a sweep's exact sums: over the games, or
    over the deals of rotated-seat variants (:meth:`analysis.sweep.joint.JointSums.deal_moments`,
    exact: what :func:`by_deal` gives from rows); sums written without per-deal products: the
    games' covariance times the unit's games (the design effect's bound: a sum over a deal's g
    games has at most g times the variance of g independent games, Cauchy-Schwarz), which covers
    at least what it claims."""
    u = joint.unit_of(columns)
    if u > 1:
        try:
            n, mean, cov = joint.deal_moments(columns)
            return mean, cov / n
        except KeyError:
            pass
    n, mean, cov = joint.moments(columns)
    return mean, cov / n * u


def _estimate(v: VariantData, key: str) -> tuple[float, float, float]:
    """A metric's mean with its 95% interval: Wilson's for a share (:func:`share_ci`), else the
    normal one (:func:`mean_ci`); from the rows or from the exact sums (the same numbers)."""
    g = v.games_per_deal
    if v.joint is None:
        x = v.samples[key]
        return share_ci(x, g) if v.info[key].share else mean_ci(x, g)
    if g > 1:
        return _joint_estimate(v, key)
    n, t, q, c = v.sums(key)
    return share_ci_sums(n, t / c) if v.info[key].share else mean_ci_sums(n, t, q, c)


def _joint_estimate(v: VariantData, key: str) -> tuple[float, float, float]:
    """:func:`_estimate` of a rotated-seat variant from the sweep's sums, over its deals
    (:func:`joint_mean_cov`), as :func:`share_ci` and :func:`mean_ci` read its rows."""
    mean, cov = joint_mean_cov(v.joint, [(v.vid, key)])
    m, var = float(mean[0]), max(float(cov[0, 0]), 0.0)
    try:
        units = v.joint.deal_moments([(v.vid, key)])[0]
    except KeyError:
        units = v.joint.n // v.games_per_deal
    if v.info[key].share:
        lo, hi = stats.share_mean_wilson(m, np.sqrt(var * units), units)
        return m, float(lo), float(hi)
    half = Z * np.sqrt(var) if units > 1 else float("nan")
    return m, m - half, m + half


def seat_balance_met(v: VariantData, tolerance: float) -> bool:
    """Every seat's 95% interval lies within fair share ± ``tolerance``."""
    if v.fair is None:
        return False
    for s in range(v.n_players):
        if v.joint is None:
            _, lo, hi = mean_ci(v.seat_wins[:, s], v.games_per_deal)
        elif v.games_per_deal > 1:
            mean, cov = joint_mean_cov(v.joint, [(v.vid, f"seat_win_share_{s + 1}")])
            half = Z * np.sqrt(max(float(cov[0, 0]), 0.0))
            lo, hi = float(mean[0]) - half, float(mean[0]) + half
        else:
            _, lo, hi = mean_ci_sums(*v.sums(f"seat_win_share_{s + 1}"))
        if lo < v.fair - tolerance or hi > v.fair + tolerance:
            return False
    return True


BALANCE = MetricInfo("balance", "the seat imbalance (largest distance of a seat from the fair share; "
                                "lower is fairer)", "pp", True)


def metric_table(v: VariantData) -> list[dict]:
    """Every headline metric of a variant: key, label, unit, estimate, low, high (a win share's
    interval Wilson's, :func:`share_ci`; the seat balance's :func:`balance`; every other metric's
    the normal interval of its mean, :func:`mean_ci`)."""
    rows = []
    b = balance(v)
    if b is not None:
        rows.append({"metric": "balance", "label": BALANCE.label, "unit": "pp", "share": True,
                     "estimate": b[0], "low": b[1], "high": b[2]})
    for key in v.keys:
        i = v.info[key]
        m, lo, hi = _estimate(v, key)
        rows.append({"metric": key, "label": i.label, "unit": i.unit, "share": i.share,
                     "estimate": m, "low": lo, "high": hi})
    split = [{"metric": info.key, "label": info.label, "unit": info.unit, "share": True,
              "estimate": est, "low": lo, "high": hi} for info, (est, lo, hi) in role_splits(v)]
    return _after_roles(rows, split)


def _after_roles(rows: list[dict], extra: list[dict]) -> list[dict]:
    """``rows`` with ``extra`` (the split rows) put after the last role's win share (at the end
    where there is none)."""
    if not extra:
        return rows
    at = max((k + 1 for k, r in enumerate(rows) if r["metric"].startswith("role_win_share_")),
             default=len(rows))
    return rows[:at] + extra + rows[at:]


def _split_gradient(mean: np.ndarray, seats: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per seat i of a role (its ``seats``), d_i = w_i / S − 1/k (S = Σ_role w_j, k its seats) and
    the gradient of d_i over the seats' mean win shares, (e_i·S − w_i) / S² on the role's seats:
    the delta method of :func:`analysis.roles.role_share_size_intervals`. (nan, 0) where the role
    never won."""
    from analysis.roles import split_gap_gradient

    k, P = len(seats), mean.size
    d, grad = np.full(k, np.nan), np.zeros((k, P))
    for i, s in enumerate(seats):
        d[i], g = split_gap_gradient(mean, list(seats), s)
        if g is None:
            return np.full(k, np.nan), np.zeros((k, P))
        grad[i, seats] = g
    return d, grad


def role_splits(v: VariantData) -> list[tuple[MetricInfo, tuple[float, float, float]]]:
    """Each split metric of variant ``v`` (:func:`split_metrics`) with its 95% interval, from the
    seats' mean win shares and their covariance (:func:`_seat_moments`: the rows, or the sweep's
    exact sums without them): each seat's share of its role's wins minus 1/k on the Bonferroni
    interval over the role's seats of :func:`analysis.roles.role_share_size_intervals` (the run
    page's size intervals, delta method), then the interval of the largest |gap|
    (:func:`analysis.stats.band_distance_range`, as the seat imbalance's): whenever every seat's
    interval holds, the largest gap's does. A role that never won has no split (left out)."""
    from analysis.roles import role_share_size_intervals

    spec = registry.specs().get(v.meta.get("game"))
    splits = split_metrics(spec, v.n_players)
    if not splits:
        return []
    mean, cov = _seat_moments(v)
    roles = spec.seat_roles(v.n_players)
    out = []
    for info, seats in splits:
        tested = np.zeros(v.n_players, dtype=bool)
        tested[seats] = True
        d, _ = _split_gradient(mean, seats)
        if not np.isfinite(d).all():
            continue
        lo, hi = role_share_size_intervals(mean, cov, roles, tested)
        dlow, dhigh = stats.band_distance_range(lo[seats], hi[seats], 0.0, 0.0)
        out.append((info, (float(np.abs(d).max()), float(dlow.max()), float(dhigh.max()))))
    return out


def _smallest(info: MetricInfo, game: str | None, overrides: dict | None) -> float:
    if info.share:
        return smallest_difference(game, "share", overrides)
    return smallest_difference(game, "length" if info.key == "game_length" else "score", overrides)


ADVANTAGE = "advantage (win share − fair share)"     # a share's label between player counts


def fair_shares(v: VariantData) -> dict[str, float]:
    """The fair share of each win-share metric of ``v`` at its player count: 1/P for a seat of a
    game whose seats are alike. A game with roles has none (docs/sweep.md: no fair share per seat
    or side; seats / P is "a share nobody gave"): its shares are compared as they are between player
    counts (review s47: a Seigneurial --vary players=3..5 said the Seigneur's "advantage (win share
    − fair share)" rose by +9.0 pp while his wins fell from 4.35% to 0: 1/P falling faster)."""
    spec = registry.specs().get(v.meta.get("game"))
    if spec is not None and not spec.roles_alike:
        return {}
    return {m.key: len(seats) / v.n_players for m, seats in share_metrics(spec, v.n_players)
            if m.key in v.keys}


#: a seat's share between player counts of a game with roles, as a label says it (its role's name
#: in place of {role}; :func:`within_role`)
WITHIN_ROLE = "advantage among the {role} (win share − the {role}' win share / their seats)"


def role_references(v: VariantData) -> dict[str, tuple[str, int]]:
    """Per seat of ``v`` in a role of several seats (a game with roles: Seigneurial's
    Censitaires), ``seat_win_share_<s>`` → (its role's ``role_win_share_<role>``, the role's
    seats k): the seat's reference within its role is the role's win share / k, what it would win
    if the role's seats split the role's wins equally. None for a role of one seat (its seat's
    share is the role's) nor in a game whose seats are alike (:func:`fair_shares` gives 1/P)."""
    spec = registry.specs().get(v.meta.get("game"))
    if spec is None or spec.roles_alike:
        return {}
    roles = spec.seat_roles(v.n_players)
    out = {}
    for s, r in enumerate(roles):
        k = roles.count(r)
        if k > 1:
            out[f"seat_win_share_{s + 1}"] = (f"role_win_share_{r}", k)
    return out


def within_role(a: VariantData, b: VariantData, keys: list[str]) -> dict[str, tuple[int, int]]:
    """The seats of ``keys`` compared between ``a`` and ``b`` against their role's equal split
    (:func:`role_references`): a seat of the same role of several seats in both whose role has
    another number of seats in ``b`` than in ``a`` (between player counts), ``key`` → (k in a,
    k in b). Its effect is then the change of win share − the role's win share / k, the game
    with roles' counterpart of win share − 1/P (designer review s57 A: a Seigneurial --vary
    players=3..5 said seat 2 (Censitaire)'s win share moved by −27.6 pp, "clear and large enough
    to matter", the Censitaires' wins split over 4 seats instead of 2). At one player count
    nothing is changed: a seat's share is compared as it is."""
    ra, rb = role_references(a), role_references(b)
    out = {}
    for k in keys:
        if k in ra and k in rb and ra[k][0] == rb[k][0] and ra[k][1] != rb[k][1] and ra[k][0] in keys:
            out[k] = (ra[k][1], rb[k][1])
    return out


def _role_of(v: VariantData, key: str) -> str:
    return role_references(v)[key][0]


def parameter_effects(a: VariantData, b: VariantData, level: float = stats.LEVEL,
                      overrides: dict | None = None) -> list[dict]:
    """Every headline metric of ``b`` minus that of ``a``, measured game by game (common random
    numbers), as one family: simultaneous intervals at ``level`` over all of them at once (max-|t|
    from the joint covariance of the per-game differences, :func:`analysis.stats.simultaneous`),
    so a parameter that does nothing shows *any* clear effect in at most 1 − ``level`` of sweeps.
    The seat balance (a maximum, not a mean of games) joins the family through both variants'
    seat shares: its difference lies between low_b − high_a and high_b − low_a.

    Rows: metric, label, unit, share, delta, low, high (simultaneous), low_unadjusted,
    high_unadjusted (the metric's own 95% interval, shown as such: the same paired construction
    without the family's adjustment, never wider than low/high; for the seat imbalance and a role's
    split gap, the simultaneous 95% intervals of only the rows they are built from), smallest (the smallest
    difference that matters, :func:`analysis.load.smallest_difference`), verdict
    (:func:`analysis.stats.practical`), same_as and mirror (:func:`same_numbers`: the metric this
    row repeats, or None; whether it is that metric's mirror, moving by as much the other way),
    follows, follows_mirror and follows_clear (the seat imbalance's row only: the seat whose change
    its estimate is in these data, whether the seat is clearly the furthest, :func:`furthest_seat`;
    else None), follows_rivals (the seats that keep it from being clearly the furthest: a list of
    {seat, at_from, at_to}, at which of the two values each one's interval reaches as far from
    the fair share; [] when it is clear, None without a seat), follows_interval and
    follows_verdict (the imbalance's interval against that seat's change turned its way, "same",
    "wider", "narrower" or "other", and the seat's verdict), same_games (the games, where no game
    differs between the two variants in the row's share, :func:`no_game_differs` — or, for the
    seat imbalance and a role's split gap, in any of their seats' —: its interval is then the games'
    bound on the change, ±:func:`analysis.stats.same_games_bound` over the independent units at
    ``level``, and at 95% for the unadjusted one, never the point 0 to 0 the simultaneous
    construction gives a metric without variance (session 62: the sweep page printed "0.0 pp (0.0
    to 0.0)" and "does not change by more than the 1 pp that matters" where the before/after of
    the same variants bounded the change at 3 pp); else None), even_both (a role's split gap
    whose every seat may be at the equal split at both values, with the largest seat change
    fitting both ways: its change's interval is then ± that change, centred on 0 and not on the
    estimate, and the page says why, session 64: :func:`_even_both`; False on every other row).
    Empty when the variants played different games. Between two player counts a win share is compared by its distance from its fair share (the label says
    "seat 2's advantage (win share − fair share)"): its raw change is mostly 1/P moving; in a game
    with roles, a seat of a role of several seats by its distance from its role's equal split
    (:func:`within_role`: "seat 2 (Censitaire)'s advantage among the Censitaires (…)")."""
    if a.n_games != b.n_games:
        return []
    game = a.meta.get("game")
    b_keys = set(b.keys)
    keys = [k for k in a.keys if k in b_keys]
    # Across player counts a win share moves with the fair share (1/2 → 1/5 is −30 pp of nothing
    # but arithmetic): compare each share's distance from its own fair share instead.
    fair_a, fair_b = fair_shares(a), fair_shares(b)
    # In a game with roles, a seat of a role of several seats against its role's equal split
    # (the role's share / its seats), which moves with the role's seats as 1/P does with P
    within = within_role(a, b, keys)
    with_balance = a.fair is not None and b.fair is not None
    P = a.n_players
    splits = _common_splits(a, b)
    mean, cov = _effect_moments(a, b, keys, fair_a, fair_b, with_balance or bool(splits), within)
    if splits:
        mean, cov, at_split = _with_splits(mean, cov, len(keys), P, splits, with_balance)
    low, high, _ = stats.simultaneous(mean, cov, level)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    # a share no game moves (the same value in every game under both): its simultaneous interval
    # is the point 0 to 0, which says more than the games do; the games bound its change instead
    # (analysis.stats.same_games_bound, as the before/after page's "no game differs" rows,
    # analysis.compare), at the family's level, and at 95% alone (the metric's own interval)
    units = a.n_games // _pair_deal(a, b)
    same = np.zeros(mean.shape[0], dtype=bool)
    same[:len(keys)] = [a.info[k].share and fair_a.get(k) == fair_b.get(k) and k not in within
                        and no_game_differs(a, b, k) for k in keys]
    bound, bound_own = stats.same_games_bound(units, level), stats.same_games_bound(units, stats.LEVEL)

    def unmoved(at_most: float) -> tuple[np.ndarray, np.ndarray]:
        """The interval of each row of the family's vector that no game moves, from the games'
        bound ``at_most`` on the chance a game differs (nan elsewhere): ±at_most for a share; for
        a role's split gap whose seats no game moves (:func:`_with_splits`' paired changes), each
        seat's share of the role's wins w_i / S moved by at most at_most in w_i and in S, the
        extremes (w_i ± at_most) / (S ∓ at_most) within [0, 1] (plug-in w, S, as the delta method's)."""
        lo_v, hi_v = np.full(mean.shape[0], np.nan), np.full(mean.shape[0], np.nan)
        lo_v[same], hi_v[same] = -at_most, at_most
        if splits:
            w_all = _seat_moments(a)[0]
            for (_, seats), j in zip(splits, at_split):
                if not all(f"seat_win_share_{s + 1}" in keys and same[keys.index(f"seat_win_share_{s + 1}")]
                           for s in seats):
                    continue
                w = w_all[seats]
                S = float(w.sum())
                if S <= 0:
                    continue
                up = np.minimum((w + at_most) / (S - at_most), 1.0) if S > at_most else np.ones_like(w)
                down = np.maximum((w - at_most) / (S + at_most), 0.0)
                at = j + 2 * len(seats)
                lo_v[at:at + len(seats)], hi_v[at:at + len(seats)] = down - w / S, up - w / S
        return lo_v, hi_v

    fam_lo, fam_hi = unmoved(bound)
    low, high = np.where(np.isfinite(fam_lo), fam_lo, low), np.where(np.isfinite(fam_hi), fam_hi, high)
    own_lo, own_hi = unmoved(bound_own)

    def own(idx: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The rows ``idx`` of the family's vector with the simultaneous 95% intervals of those
        rows alone: a metric built from several of them (the seat imbalance, a role's split gap)
        gets its own interval by the same paired construction without the family's adjustment
        (review s46 #6: the unpaired difference of the two variants' own intervals, used before,
        was wider than the adjusted one). Never wider than the family's rows (a
        subset at a lower level; Monte Carlo noise of the critical value is cut at the family's)."""
        ix = np.asarray(idx, dtype=int)
        lo_o, hi_o, _ = stats.simultaneous(mean[ix], cov[np.ix_(ix, ix)], stats.LEVEL)
        lo_o = np.where(np.isfinite(own_lo[ix]), own_lo[ix], lo_o)
        hi_o = np.where(np.isfinite(own_hi[ix]), own_hi[ix], hi_o)
        return np.maximum(lo_o, low[ix]), np.minimum(hi_o, high[ix])

    rows = []
    if with_balance:
        k = len(keys)
        Pb = b.n_players
        ba, bb = balance(a)[0], balance(b)[0]
        seat_keys = [f"seat_win_share_{s + 1}" for s in range(P)]
        paired = a.fair == b.fair and a.n_players == b.n_players and all(x in keys for x in seat_keys)
        j = [keys.index(x) for x in seat_keys] if paired else []

        def imbalance_change(lo_v: np.ndarray, hi_v: np.ndarray) -> tuple[float, float]:
            """The range of the largest gap's change from intervals on [a's seats, b's seats,
            (the seats' paired changes)] (in that order)."""
            il, ih = lo_v[:P], hi_v[:P]
            bl, bh = lo_v[P:P + Pb], hi_v[P:P + Pb]
            la, ha = stats.band_distance_range(il, ih, a.fair, a.fair)
            lb, hb = stats.band_distance_range(bl, bh, b.fair, b.fair)
            lo_c, hi_c = float(lb.max() - ha.max()), float(hb.max() - la.max())
            if paired:
                # the same seats under both: read the largest gap's change on the seats' paired
                # changes too, in the same family (analysis.stats.max_distance_change, as a tune's
                # race; the designer review's sweep page called the 0→6 coins' imbalance change
                # "clear" in one sentence and a 0→1 change of the same size "within noise" in the
                # next, both read on the two variants' own intervals alone)
                dl, dh = lo_v[P + Pb:], hi_v[P + Pb:]
                lo_c, hi_c = stats.max_distance_change(il, ih, dl, dh, np.maximum(bl, il + dl),
                                                       np.minimum(bh, ih + dh), a.fair, a.fair)
            return lo_c, hi_c

        idx = list(range(k, k + P + Pb)) + j
        lo_b, hi_b = imbalance_change(low[idx], high[idx])
        lo_u, hi_u = imbalance_change(*own(idx))
        rows.append({"metric": "balance", "info": BALANCE, "delta": bb - ba,
                     "low": lo_b, "high": hi_b,
                     "low_unadjusted": max(lo_u, lo_b), "high_unadjusted": min(hi_u, hi_b),
                     **dict(zip(("follows", "follows_mirror", "follows_clear", "follows_rivals"),
                                furthest_seat(a, b, (low[k:k + P], high[k:k + P]),
                                              (low[k + P:k + P + Pb], high[k + P:k + P + Pb]))
                                if paired else (None, False, False, None))),
                     # every seat the same in every game: the imbalance moves by no more than they
                     "same_games": a.n_games if paired and all(same[i] for i in j) else None})
    for j, key in enumerate(keys):
        info = a.info[key]
        if key in fair_a and fair_a[key] != fair_b.get(key):
            info = MetricInfo(info.key, info.label.replace("win share", ADVANTAGE), info.unit, info.share)
        elif key in within:
            role = a.info[_role_of(a, key)].label.removeprefix("the ").removesuffix("' win share")
            info = MetricInfo(info.key, info.label.replace("win share", WITHIN_ROLE.format(role=role)),
                              info.unit, info.share)
        half = bound_own if same[j] else Z * se[j]
        rows.append({"metric": key, "info": info, "delta": float(mean[j]),
                     "low": float(low[j]), "high": float(high[j]),
                     "low_unadjusted": float(mean[j] - half),
                     "high_unadjusted": float(mean[j] + half),
                     "same_games": a.n_games if same[j] else None})
    if splits:
        own_a, own_b = dict(role_splits(a)), dict(role_splits(b))
        extra = []
        for (info, seats), j in zip(splits, at_split):
            k = len(seats)

            def gap_change(lo_v: np.ndarray, hi_v: np.ndarray) -> tuple[float, float]:
                """The range of the largest gap's change from intervals on [a's gaps, b's gaps,
                their paired changes]."""
                il, ih = lo_v[:k], hi_v[:k]
                bl, bh = lo_v[k:2 * k], hi_v[k:2 * k]
                dl, dh = lo_v[2 * k:], hi_v[2 * k:]
                return stats.max_distance_change(il, ih, dl, dh, np.maximum(bl, il + dl),
                                                 np.minimum(bh, ih + dh), 0.0, 0.0)

            idx = list(range(j, j + 3 * k))
            lo_s, hi_s = gap_change(low[idx], high[idx])
            lo_u, hi_u = gap_change(*own(idx))
            even_both = _even_both(low[j:j + k], high[j:j + k], low[j + k:j + 2 * k],
                                   high[j + k:j + 2 * k], low[j + 2 * k:j + 3 * k],
                                   high[j + 2 * k:j + 3 * k])
            ua = next((x for i, x in own_a.items() if i.key == info.key), None)
            ub = next((x for i, x in own_b.items() if i.key == info.key), None)
            if ua is None or ub is None:
                continue
            extra.append({"metric": info.key, "info": info, "delta": ub[0] - ua[0],
                          "low": lo_s, "high": hi_s,
                          "low_unadjusted": max(lo_u, lo_s), "high_unadjusted": min(hi_u, hi_s),
                          "same_games": a.n_games if np.isfinite(fam_lo[j + 2 * k:j + 3 * k]).all() else None,
                          "even_both": even_both})
        rows = _after_roles(rows, extra)
    twins = same_numbers(a, b, keys)
    for r in rows:
        info = r.pop("info")
        r.update(label=info.label, unit=info.unit, share=info.share,
                 smallest=_smallest(info, game, overrides))
        r["verdict"] = stats.practical(r["delta"], r["low"], r["high"], r["smallest"])
        r["same_as"], r["mirror"] = twins.get(r["metric"], (None, False))
        r.setdefault("follows", None)
        r.setdefault("follows_mirror", False)
        r.setdefault("follows_clear", False)
        r.setdefault("follows_rivals", None)
        r.setdefault("same_games", None)
        r.setdefault("even_both", False)
    for r in rows:
        r["follows_interval"], r["follows_verdict"] = _beside_followed(r, rows)
        # the seat's interval turned its way, so a page can print the digits that show how the
        # two differ (review s62 #4: "wider" beside two intervals printed alike)
        r["follows_low"], r["follows_high"] = _followed_ends(r, rows)
    return rows


def _even_both(i_low, i_high, b_low, b_high, d_low, d_high) -> bool:
    """Whether a role's split gap change (the family's intervals on the seats' gaps at the first
    value, at the second, and on their paired changes) is bounded by one seat's change alone, both
    ways: every seat's gap may be 0 (the equal split) at both values (its interval at the first
    value, and at the second cut to first + change as :func:`analysis.stats.max_distance_change`
    reads it, hold 0), and the largest of the seats' changes in size, M, fits both ways: a seat at
    the equal split may move by it (it lies in that seat's interval at the second value) and a
    seat may come back to the equal split by it (minus it lies in the seat's interval at the
    first). The change of the largest gap, max|c| − max|i|, is at most max |c − i| ≤ M and at least
    −M (|c| − |i| ≤ |c − i|), and each end is then reached, so the interval is exactly −M to +M:
    centred on 0 whatever the change seen (100 games of Seigneurial's ``payment.order``:
    "−1.0 pp (−9.6 to +9.6)"), which the page says (session 64). Not so at 2,000 games, where
    seat 2's after interval stops its change short of +2.2 pp ("−1.1 pp (−2.2 to +1.5)")."""
    il, ih, bl, bh, dl, dh = (np.asarray(x, dtype=float) for x in (i_low, i_high, b_low, b_high, d_low, d_high))
    if not all(np.isfinite(x).all() for x in (il, ih, bl, bh, dl, dh)) or il.size == 0:
        return False
    cl, ch = np.maximum(bl, il + dl), np.minimum(bh, ih + dh)
    tol = 1e-12
    if not (np.all(il <= tol) and np.all(ih >= -tol) and np.all(cl <= tol) and np.all(ch >= -tol)):
        return False
    ends = np.stack([dl, dh])                        # (2, seats)
    m = float(np.abs(ends).max())
    if m <= 0:
        return False
    far = np.abs(ends) >= m - tol * (1.0 + m)
    moves_out = far & (ends >= cl - tol) & (ends <= ch + tol)        # from 0 to the end, after
    comes_back = far & (-ends >= il - tol) & (-ends <= ih + tol)     # from −end to 0, before
    return bool(moves_out.any() and comes_back.any())


def _followed_ends(r: dict, rows: list[dict]) -> tuple[float | None, float | None]:
    """The interval of the seat the imbalance's row ``r`` names (``follows``), turned its way (a
    seat below fair: its change negated); (None, None) for any other row."""
    if r.get("follows") is None:
        return None, None
    seat = next(x for x in rows if x["metric"] == r["follows"])
    return (-seat["high"], -seat["low"]) if r["follows_mirror"] else (seat["low"], seat["high"])


def no_game_differs(a: VariantData, b: VariantData, key: str) -> bool:
    """Metric ``key`` has the same value in every game under ``a`` and ``b`` (the same games,
    common random numbers): Σ(x_b − x_a)² = 0 over the games, from the rows or exactly from the
    sweep's integer sums. Its change is then 0 in these games, and only the games' bound on the
    chance a game differs (:func:`analysis.stats.same_games_bound`) says how far it can be."""
    if key not in a.keys or key not in b.keys or a.n_games != b.n_games or a.n_games < 1:
        return False
    if a.joint is None or b.joint is None:
        xa, xb = a.samples[key], b.samples[key]
        return bool(xa.size and np.isfinite(xa).all() and np.isfinite(xb).all() and np.array_equal(xa, xb))
    _, ((qaa, qab), (_, qbb)), (ca, cb) = a.joint.integer_sums([(a.vid, key), (b.vid, key)])
    # x_a·ca and x_b·cb are whole numbers: Σ(x_b·ca·cb − x_a·ca·cb)² in integers
    return ca * ca * qbb - 2 * ca * cb * qab + cb * cb * qaa == 0


def _beside_followed(r: dict, rows: list[dict]) -> tuple[str | None, str | None]:
    """For the seat imbalance's row ``r`` naming a seat (``follows``): how its interval stands
    against that seat's change turned its way ("same", "wider", "narrower" or "other": neither
    holds the other) and the seat's verdict; (None, None) for any other row."""
    if r.get("follows") is None:
        return None, None
    seat = next(x for x in rows if x["metric"] == r["follows"])
    lo, hi = (-seat["high"], -seat["low"]) if r["follows_mirror"] else (seat["low"], seat["high"])
    tol = 1e-9
    if abs(r["low"] - lo) <= tol and abs(r["high"] - hi) <= tol:
        how = "same"
    elif r["low"] <= lo + tol and r["high"] >= hi - tol:
        how = "wider"
    elif r["low"] >= lo - tol and r["high"] <= hi + tol:
        how = "narrower"
    else:
        how = "other"
    return how, seat["verdict"]


def furthest_seat(a: VariantData, b: VariantData, a_seats: tuple | None = None,
                  b_seats: tuple | None = None) -> tuple[str | None, bool, bool, list[dict] | None]:
    """The seat whose win share the seat imbalance's estimated change repeats between ``a`` and
    ``b`` (one player count): the seat furthest from the fair share at both by the estimates, on
    the same side, as ``(seat_win_share_<s>, below, clear, rivals)``; the imbalance's estimate is
    then that seat's change (``below``: with the sign turned, the seat under the fair share). The two
    are not the same metric (the imbalance is no per-game number, :func:`same_numbers` cannot pair
    it; with another seat furthest at another value they part), only equal in these data (designer
    review s57 B: `setup.start_coins[0]=0..4` drew "the seat imbalance" and "seat 3's win share" as
    two bars of +0.8 pp (−0.15 to 1.75) under a caption saying a metric that repeats another is
    left out). ``(None, False, False, None)`` when no one seat is furthest at both, on one side.

    ``clear``: the seat is the furthest at both values by the intervals too, not by the estimates
    alone. ``a_seats`` and ``b_seats`` are (low, high) of each value's seat shares in the
    comparison's family, the intervals the imbalance's own interval is built from
    (:func:`analysis.stats.max_distance_change`): clear at a value when the seat's nearest
    distance from fair its interval allows is beyond every other seat's furthest. Only then is
    the seat the one the imbalance follows: the imbalance's interval is then bounded by that
    seat's change alone (the same as its interval, or narrower where the two values' own intervals
    cut it). A seat furthest only by the estimates is named by the page as having the same
    estimate, not as the seat the imbalance follows: the imbalance's interval also allows for
    another seat having been the furthest, so it is wider and its verdict may differ (review of
    s57 B: the same sweep's 1 → 2 coins read the imbalance −0.45 pp (−0.71 to +0.26) within noise
    beside seat 1's +0.45 (+0.19 to +0.71) clear but small, both called "the same change").
    Without the intervals, never clear.

    ``rivals``: the other seats whose interval reaches as far from the fair share as the seat's
    nearest distance, at one value or both: ``{"seat": seat_win_share_<t>, "at_from": at a,
    "at_to": at b}`` in seat order (session 58: the page said "another seat's interval reaches as
    far from it" and a designer asked which). [] when the seat is clear; None without the
    intervals or without a seat."""
    if a.fair is None or b.fair is None or a.n_players != b.n_players:
        return None, False, False, None
    found = []
    for v in (a, b):
        d = _seat_moments(v)[0] - v.fair
        far = np.flatnonzero(np.isclose(np.abs(d), np.abs(d).max(), rtol=0.0, atol=1e-12))
        if far.size != 1 or d[far[0]] == 0:
            return None, False, False, None
        found.append((int(far[0]), bool(d[far[0]] < 0)))
    if found[0] != found[1]:
        return None, False, False, None
    s, below = found[0]
    key = f"seat_win_share_{s + 1}"
    if a_seats is None or b_seats is None:
        return key, below, False, None
    clear, reach = True, []
    for v, seats in ((a, a_seats), (b, b_seats)):
        near, far_ = stats.band_distance_range(seats[0], seats[1], v.fair, v.fair)
        clear = clear and bool(near[s] > np.delete(far_, s).max())
        reach.append(far_ >= near[s])
    rivals = [{"seat": f"seat_win_share_{t + 1}", "at_from": bool(reach[0][t]), "at_to": bool(reach[1][t])}
              for t in range(a.n_players) if t != s and (reach[0][t] or reach[1][t])]
    return key, below, clear, rivals


def _common_splits(a: VariantData, b: VariantData) -> list[tuple[MetricInfo, list[int]]]:
    """The split metrics (:func:`split_metrics`) two variants share, seat for seat (none between
    player counts: a role's seats differ there), each with a win of the role in both."""
    if a.n_players != b.n_players or a.meta.get("game") != b.meta.get("game"):
        return []
    both = {i.key for i, _ in role_splits(a)} & {i.key for i, _ in role_splits(b)}
    spec = registry.specs().get(a.meta.get("game"))
    return [(i, seats) for i, seats in split_metrics(spec, a.n_players) if i.key in both]


def _with_splits(mean: np.ndarray, cov: np.ndarray, K: int, P: int, splits: list, with_balance: bool
                 ) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The family's vector [K changes, (a's and b's seat shares when ``with_balance``), then per
    split role: a's gaps d_i (its k seats), b's, and their paired changes d_i(b) − d_i(a)] from
    :func:`_effect_moments`' [K changes, a's seat shares, b's]: the gaps as plug-in ratios, their
    covariance by the delta method (:func:`_split_gradient`, the gradient of
    :func:`analysis.roles.role_share_size_intervals`), so that the split's change is read in the
    same simultaneous family as every other metric of the comparison. Returns (mean, cov, the
    index of each split role's first row)."""
    sa, sb = mean[K:K + P], mean[K + P:K + 2 * P]
    keep = K + (2 * P if with_balance else 0)
    rows_mean = [mean[:keep]]
    J_rows = [np.eye(K + 2 * P)[:keep]]
    starts, at = [], keep
    for _, seats in splits:
        da, ga = _split_gradient(sa, seats)
        db, gb = _split_gradient(sb, seats)
        k = len(seats)
        Ja = np.zeros((k, K + 2 * P))
        Jb = np.zeros((k, K + 2 * P))
        Ja[:, K:K + P] = ga
        Jb[:, K + P:K + 2 * P] = gb
        rows_mean += [da, db, db - da]
        J_rows += [Ja, Jb, Jb - Ja]
        starts.append(at)
        at += 3 * k
    J = np.vstack(J_rows)
    return np.concatenate(rows_mean), J @ cov @ J.T, starts


def _effect_moments(a: VariantData, b: VariantData, keys: list[str], fair_a: dict, fair_b: dict,
                    with_balance: bool, within: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Mean and covariance of the mean of the per-game vector [each metric's change (b − a, a
    share's from its fair share; a seat of ``within``, :func:`within_role`, from its role's share
    / its seats, game by game), then a's and b's seat shares when ``with_balance``]: from the
    rows, or without them as the linear map of the pair's exact sums
    (:meth:`analysis.sweep.joint.JointSums.moments`): mean A·μ + shift, covariance A·C·Aᵀ / n (over
    the deals of rotated-seat variants: :func:`joint_mean_cov`, as :func:`by_deal` from rows)."""
    within = within or {}

    def ref(v: VariantData, k: str, per_role: int) -> np.ndarray | float:
        return v.samples[_role_of(v, k)] / per_role

    if a.joint is None or b.joint is None:
        cols = [(b.samples[k] - fair_b.get(k, 0.0) - (ref(b, k, within[k][1]) if k in within else 0.0))
                - (a.samples[k] - fair_a.get(k, 0.0) - (ref(a, k, within[k][0]) if k in within else 0.0))
                for k in keys]
        X = np.column_stack(cols + ([a.seat_wins, b.seat_wins] if with_balance else []))
        return stats.mean_cov(by_deal(X, _pair_deal(a, b)))
    if not a.joint.has_pair(a.vid, b.vid):
        raise UsageError(f"variants {a.vid} and {b.vid}: the sweep's paired statistics do not pair "
                         "them (not a comparison of this sweep)")
    K = len(keys)
    columns = [(a.vid, k) for k in keys] + [(b.vid, k) for k in keys]
    seat_rows: list[tuple[str, str]] = []
    if with_balance:               # each variant's own seats (a player count may differ)
        seat_rows = [(v.vid, f"seat_win_share_{s + 1}") for v in (a, b) for s in range(v.n_players)]
    n = a.joint.n
    mu, C_mean = joint_mean_cov(a.joint, columns + seat_rows)   # (over deals where seats rotate)
    A = np.zeros((K + len(seat_rows), len(columns) + len(seat_rows)))
    shift = np.zeros(A.shape[0])
    for j, k in enumerate(keys):
        A[j, K + j], A[j, j] = 1.0, -1.0
        shift[j] = fair_a.get(k, 0.0) - fair_b.get(k, 0.0)
        if k in within:                 # − the role's share / its seats, in b and in a
            r = keys.index(_role_of(a, k))
            A[j, K + r] -= 1.0 / within[k][1]
            A[j, r] += 1.0 / within[k][0]
    for r in range(len(seat_rows)):
        A[K + r, len(columns) + r] = 1.0
    mean = A @ mu + shift
    # each change's mean formed exactly, (Σb·c_a − Σa·c_b) / (n·c_a·c_b) − (fair_b − fair_a) as a
    # fraction, then rounded once: a metric and its mirror move by exactly opposite amounts
    from fractions import Fraction

    sums, scales = a.joint.sums_of(columns)
    for j, k in enumerate(keys):
        ta, tb, ca, cb = sums[j], sums[K + j], scales[j], scales[K + j]
        # a fair share is (seats of the role) / P: exact as a fraction of small denominator
        fa, fb = (Fraction(f.get(k, 0.0)).limit_denominator(1000) for f in (fair_a, fair_b))
        if k in within:                 # the role's share / its seats, exact as the seat's
            r = keys.index(_role_of(a, k))
            fa += Fraction(sums[r], n * scales[r] * within[k][0])
            fb += Fraction(sums[K + r], n * scales[K + r] * within[k][1])
        mean[j] = float(Fraction(tb * ca - ta * cb, n * ca * cb) - fb + fa)
    return mean, A @ C_mean @ A.T


def _pair_deal(a: VariantData, b: VariantData) -> int:
    """The games of one independent unit of two variants compared game by game (they played the
    same deals): lcm of their deal sizes, whole deals of both (a sweep over the player count with
    rotated seats: 12 games for 3 and 4 players), as the sweep's sums keep them."""
    return math.lcm(a.games_per_deal, b.games_per_deal)


def _metric_rank(key: str) -> int:
    """Which of two metrics that are the same number a sentence names: a role's share before a
    seat's, a seat's before any other."""
    return 0 if key.startswith("role_win_share_") else 1 if key.startswith("seat_win_share_") else 2


def same_numbers(a: VariantData, b: VariantData, keys: list[str], tol: float = 1e-9
                 ) -> dict[str, tuple[str, bool]]:
    """The metrics of ``keys`` that are, game by game in both variants, the same number as another
    (``key → (other, False)``: a one-seat role's share is its seat's) or its mirror (``key →
    (other, True)``: with two roles and a winner in every game, one side's share is one minus the
    other's, so its change is the other's with the sign turned). ``other`` is the metric a sentence
    names (a role before a seat, :func:`_metric_rank`); a metric that is no other's is left out."""
    in_both = set(a.keys) & set(b.keys)
    order = sorted((k for k in keys if k in in_both), key=_metric_rank)
    out: dict[str, tuple[str, bool]] = {}
    kept: list[str] = []
    for k in order:
        for o in kept:
            if a.joint is None or b.joint is None:
                same = all(np.allclose(v.samples[k], v.samples[o], atol=tol, rtol=0.0, equal_nan=True)
                           for v in (a, b))
                total = [v.samples[k] + v.samples[o] for v in (a, b)]
                mirror = not same and all(t.size and np.isfinite(t).all() and np.ptp(t) <= tol
                                          for t in total) and abs(total[0][0] - total[1][0]) <= tol
            else:
                same, mirror = _same_from_sums(a, b, k, o)
            if same or mirror:
                out[k] = (o, bool(mirror))
                break
        else:
            kept.append(k)
    return out


def _same_from_sums(a: VariantData, b: VariantData, k: str, o: str) -> tuple[bool, bool]:
    """:func:`same_numbers`' two tests from exact sums: x_k = x_o in every game of both variants
    when Σ(x_k − x_o)² = 0; x_k + x_o the same constant in every game of both when its variance is
    0 in each and its mean the same (in whole units of 1/(scale_k·scale_o): exact)."""
    same, const = True, []
    for v in (a, b):
        (tk, to), ((qkk, qko), (_, qoo)), (ck, co) = v.joint.integer_sums([(v.vid, k), (v.vid, o)])
        n = v.joint.n
        # x_k·ck·co and x_o·ck·co are whole numbers: Wk·co and Wo·ck
        diff2 = co * co * qkk - 2 * ck * co * qko + ck * ck * qoo
        same &= diff2 == 0
        tot, tot2 = tk * co + to * ck, co * co * qkk + 2 * ck * co * qko + ck * ck * qoo
        const.append((n > 0 and n * tot2 - tot * tot == 0, tot, n * ck * co))
    mirror = not same and all(c[0] for c in const) and const[0][1] * const[1][2] == const[1][1] * const[0][2]
    return bool(same), bool(mirror)


def paired_effect(a: VariantData, b: VariantData, key: str) -> tuple[float, float, float] | None:
    """Metric ``key`` of ``b`` minus that of ``a``, measured game by game, with its own 95%
    interval (unadjusted: one metric alone; :func:`parameter_effects` adjusts a family); None when
    either variant lacks the metric or they played different games. A win share between two
    player counts: the change of its distance from its fair share, as in :func:`parameter_effects`."""
    if a.n_games != b.n_games:
        return None
    if key == "balance":
        if a.fair is None or b.fair is None:
            return None
        r = parameter_effects(a, b)[0]
        return r["delta"], r["low_unadjusted"], r["high_unadjusted"]
    if key not in a.keys or key not in b.keys:
        return None
    shift = fair_shares(b).get(key, 0.0) - fair_shares(a).get(key, 0.0)   # 0 at one player count
    role = role_references(a).get(key, ("",))[0]
    keys = [key] + ([role] if role and role in a.keys and role in b.keys else [])
    within = {k: v for k, v in within_role(a, b, keys).items() if k == key}
    if a.joint is None or b.joint is None:
        x = b.samples[key] - a.samples[key] - shift
        if within:
            x = x - b.samples[role] / within[key][1] + a.samples[role] / within[key][0]
        return mean_ci(x, _pair_deal(a, b))
    mean, cov = _effect_moments(a, b, keys, fair_shares(a), fair_shares(b), False, within)
    m, half = float(mean[0]), Z * float(np.sqrt(max(cov[0, 0], 0.0)))
    return m, m - half, m + half


@dataclass
class Sensitivity:
    """What a sweep says: ``variants`` (every metric of every variant), ``curves`` (per parameter,
    metric against value), ``effects`` (per parameter and metric, first value → last value, the
    others at their :func:`anchors`) and, in a grid, ``slice_effects`` (the same comparisons at
    every other combination of the others' values, :func:`other_slices`: a second family, column
    ``at`` names the slice). Every row of ``effects``, ``slice_effects`` and ``value_effects``
    has ``read`` (False: the comparison's player count does not read the setting at its two
    values, so both variants played the same games) and ``players`` (that count; None for a
    comparison of player counts): :func:`reads_comparison`."""

    sweep: dict
    variants: pl.DataFrame
    curves: pl.DataFrame
    effects: pl.DataFrame
    score_unit: str
    missing: list[str]
    slice_effects: pl.DataFrame = field(default_factory=pl.DataFrame)
    source: str = "rows"          # "stats": read from paired_stats.json (a sweep without rows)
    # every two values of a parameter of 3 values or more, the others at their anchors
    # (:func:`value_pairs`): a family of its own (``family`` "value by value", ``pairs`` its
    # size), but for the pairs ``effects`` states, whose rows are ``effects``' own (``family``
    # "first vs last value"); ``references``: per such parameter, the value each value is
    # compared with (:func:`reference`) and why
    value_effects: pl.DataFrame = field(default_factory=pl.DataFrame)
    references: dict = field(default_factory=dict)


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def base_value(sweep: dict, name: str):
    """The value of setting ``name`` in the sweep's base rules (its rules file with its own --set
    applied); None when the rules do not give it (``players``, a key the rules leave to its
    default, an unreadable rules text)."""
    import copy
    import tomllib

    from simcore.config import parse_path

    try:
        text, settings = sweep.get("rules_text") or "", tuple(sweep.get("settings") or ())
        try:
            hash(settings)
        except TypeError:                       # not a list of --set texts: read it here
            node = _base_rules.__wrapped__(text, settings)
        else:
            node = _base_rules(text, settings)
        if name == "players":
            return None             # the player count is the run's, not a rules value
        for step in parse_path(name, "--vary"):
            if isinstance(step, int) and not isinstance(node, list):
                continue                        # a single number stands for every seat
            node = node[step]
        if isinstance(node, dict):
            return None             # a table of the rules ([players] …) is no value (review s47)
        return copy.deepcopy(node)              # the kept rules are not the caller's to change
    except (tomllib.TOMLDecodeError, UsageError, KeyError, IndexError, TypeError):
        return None


@lru_cache(maxsize=16)
def _base_rules(rules_text: str, settings: tuple) -> dict:
    """The sweep's rules text read, its --set applied: read once per sweep, not once for every
    parameter and page that asks for a base value (reading a rules file is most of that)."""
    import tomllib

    from simcore.config import parse_settings, set_in, toml_loads

    data = toml_loads(rules_text)       # (nested too deeply: a decode error, session 63)
    for st in parse_settings(settings):
        set_in(data, st.path, st.value)
    return data


def anchors(sweep: dict) -> dict[str, tuple[object, str]]:
    """Per parameter, the value it is held at while another moves, and why: the base rules' value
    when its values hold it ("the base rules' value"), else the parameter's first value ("its first
    value"; "its first value as listed" when numbers are not listed lowest first, so that it is not
    read as the lowest, which the value sentences' reference takes: :func:`reference`); a one-at-a-time sweep written before it held the others at the base value
    (sweep.json without ``held``), always the first value (the only one the others were played
    with)."""
    out = {}
    by_base = sweep.get("mode") == "grid" or sweep.get("held") == "base"
    for v in sweep["varies"]:
        base = base_value(sweep, v["name"]) if by_base else None
        hit = next((x for x in v["values"] if base is not None and json_eq(x, base)), None)
        # a list of numbers not written lowest first: its first value as listed is not the lowest,
        # which the page's reference takes (review s62 #5: "= 20 (its first value)" beside a
        # reference defined as "its first value, of numbers the lowest")
        listed = v["values"][0]
        first = ("its first value" if json_eq(value_order(v["values"])[0], listed)
                 else "its first value as listed")
        out[v["name"]] = (hit, "the base rules' value") if hit is not None else (listed, first)
    return out


def condition_text(sweep: dict, name: str) -> str:
    """Where a parameter's effect is measured, in words: "track.goal.4 = 10 (the base rules'
    value)"; "" for a sweep of one parameter."""
    return "; ".join(f"{o} = {_text(value)} ({why})" for o, (value, why) in anchors(sweep).items()
                     if o != name)


def _chain(sweep: dict, name: str, held: dict) -> list[dict]:
    """The variants where only ``name`` moves, the others at ``held`` (name → value), in the
    order of its values: a parameter of numbers from the lowest to the highest, however its list
    was written (:func:`value_order`), a list of words in the order tried (a value the sweep has no
    variant for is left out)."""
    chosen = []
    for value in value_order(next(v for v in sweep["varies"] if v["name"] == name)["values"]):
        for var in sweep["variants"]:
            vals = var["values"]
            if json_eq(vals[name], value) and all(json_eq(vals[o], x) for o, x in held.items()
                                                  if o != name):
                chosen.append(var)
                break
    return chosen


def value_order(values: list) -> list:
    """A parameter's values in the order its page reads them: numbers from the lowest to the
    highest, as its curve draws them, whatever the order of the list (session 56 review: for
    ``--vary income.palais.base=[5, 3, 4]`` the turn sentence read "between 3 and 5", lowest →
    highest, beside "5 → 3" and "lowering … from 5 to 4" in the order written, and the
    first-vs-last effect compared 5 with 4, not the ends of the values tried); anything else (words,
    lists) in the order tried."""
    if values and all(_is_number(v) for v in values):
        return sorted(values, key=float)
    return list(values)


def slices(sweep: dict) -> dict[str, list[dict]]:
    """Per parameter, the variants where only it moves (the others at their :func:`anchors`: the
    base rules' value when a grid holds it, else their first value), in the order of its values."""
    first = {k: value for k, (value, _) in anchors(sweep).items()}
    return {v["name"]: _chain(sweep, v["name"], first) for v in sweep["varies"]}


def held_text(held: dict) -> str:
    """Where the other parameters are held, in words: "track.goal.4 = 8" ("; " between several)."""
    return "; ".join(f"{o} = {_text(value)}" for o, value in held.items())


def other_slices(sweep: dict) -> dict[str, list[tuple[dict, list[dict]]]]:
    """Per parameter of a grid, every *other* combination of the other parameters' values than
    its :func:`anchors` (the slices the page's sentences do not measure), each as (held: other
    parameter → value, the variants where only this parameter moves), in the grid's order. Empty
    for one parameter and for ``--one-at-a-time`` (its variants move one parameter from the first
    values only: there is no other slice)."""
    from itertools import product

    varies = sweep["varies"]
    if sweep.get("mode") != "grid" or len(varies) < 2:
        return {}
    first = {k: value for k, (value, _) in anchors(sweep).items()}
    out: dict[str, list[tuple[dict, list[dict]]]] = {}
    for v in varies:
        name = v["name"]
        others = [o for o in varies if o["name"] != name]
        out[name] = []
        for combo in product(*(o["values"] for o in others)):
            held = {o["name"]: x for o, x in zip(others, combo)}
            if all(json_eq(x, first[o]) for o, x in held.items()):
                continue                                   # the anchored slice: the sentences' own
            out[name].append((held, _chain(sweep, name, held)))
    return out


def json_eq(a, b) -> bool:
    return a == b and type(a) is type(b) or (_is_number(a) and _is_number(b) and a == b)


def read_joint(sweep_dir: str | Path, sweep: dict):
    """The sweep's paired statistics (:class:`analysis.sweep.joint.JointSums`), or None when it
    was played with its rows (no ``paired_stats.json``); one line when the file is not this
    sweep's (other variants or games)."""
    from analysis.sweep.joint import JointSums

    p = Path(sweep_dir) / JOINT_FILE
    if not p.is_file():
        return None
    joint = JointSums.read_checked(p)
    ids = [v["id"] for v in sweep["variants"]]
    if joint.variants != ids or joint.n != sweep.get("games") or \
            joint.meta.get("seed", sweep.get("seed")) != sweep.get("seed"):
        raise UsageError(f"{p}: holds {joint.n:,} games (seed {joint.meta.get('seed', '?')}) of "
                         f"variants {', '.join(joint.variants)}, not this sweep's "
                         f"{sweep.get('games'):,} (seed {sweep.get('seed')}) of {', '.join(ids)} "
                         "(the file or sweep.json changed after the sweep wrote them)")
    return joint


def reads_comparison(sweep: dict, name: str, x, y, a_players: int, b_players: int,
                     known: dict | None = None) -> tuple[bool, int | None]:
    """Whether a comparison of a sweep measured anything, and at which player count: ``(read,
    players)``. Two variants of one player count whose rules read alike there at ``x`` and ``y``
    (:func:`analysis.rules_diff.reads_setting`: ``track.goal.4`` at 3 players) played the same
    games: ``read`` False, and the page says "not read at 3 players" and leaves the comparison out
    of its counts, as a panel sweep does for its cells (:mod:`analysis.sweep.panel_effects`; review
    s61 #1, session 62 #1: a sweep of ``players=3..4`` × ``track.goal.4`` said the goal "moves no
    headline metric beyond its noise" at 3 players). A comparison of ``players`` (or between two
    counts) is read, at no one count (``players`` None). ``known``: the answers so far, by
    (name, x, y, count), since each decision loads the rules at both values."""
    from analysis.rules_diff import reads_setting

    if name == "players" or a_players != b_players:
        return True, None
    key = (name, _text(x), _text(y), int(a_players))
    if known is None or key not in known:
        read = reads_setting(sweep.get("game"), sweep.get("rules_text"), sweep.get("settings") or (),
                             int(a_players), name, [x, y])
        if known is None:
            return read, int(a_players)
        known[key] = read
    return known[key], int(a_players)


def sensitivity(sweep_dir: str | Path, overrides: dict | None = None,
                source: str | None = None) -> Sensitivity:
    """Read a (possibly unfinished) sweep directory into its sensitivity tables.

    The effects of the page are one family: every metric of every parameter's effect, with
    simultaneous intervals per parameter (:func:`parameter_effects`) at level 1 − 0.05/m for the
    m parameters with an effect (Bonferroni across parameters), so a sweep of parameters that do
    nothing shows any clear effect in at most 5 % of sweeps. In a grid, ``slice_effects`` holds the
    same comparisons at the other slices (:func:`other_slices`), a family of their own at level
    1 − 0.05/m' for their m' comparisons. ``overrides``: smallest differences
    that matter, by kind ("share", "score", "length"), over the sweep's own (sweep.json
    ``smallest_difference``, from ``balance sweep --smallest-difference``), over the game's.
    ``source``: where the per-game quantities come from: the sweep's exact sums
    (``paired_stats.json``, a sweep played without rows) when it has them, else the variants'
    rows (None); ``"rows"`` or ``"stats"`` to insist (the two give the same tables)."""
    sweep_dir = Path(sweep_dir)
    sweep = read_sweep(sweep_dir)
    # the sweep's own (balance sweep --smallest-difference), then the page's over them
    overrides = {**(sweep.get("smallest_difference") or {}), **(overrides or {})} or None
    done = {v["id"] for v in finished_variants(sweep_dir, sweep)}
    if not done:
        raise UsageError(f"{sweep_dir}: no variant of this sweep has finished yet")
    unit = score_unit(sweep["game"])
    cache: dict[str, VariantData] = {}

    by_id = {v["id"]: v for v in sweep["variants"]}
    joint = read_joint(sweep_dir, sweep) if source != "rows" else None
    if source == "stats" and joint is None:
        raise UsageError(f"{sweep_dir}: no {JOINT_FILE} (a sweep played with its rows is read from them)")
    if joint is None and source != "rows" and sweep.get("player_rows") is False:
        raise UsageError(f"{sweep_dir}: no {JOINT_FILE}, the exact sums of this sweep played without "
                         "player rows (moved or deleted?); run the same balance sweep again to play "
                         "it anew")

    def measured(pairs):
        """The pairs whose paired sums exist (all, from rows): a lockstep sweep whose last
        publications were cut short is reported with the pairs it has."""
        return [(a, b) for a, b in pairs if joint is None or joint.has_pair(a["id"], b["id"])]

    def get(vid: str) -> VariantData:
        if vid not in cache:
            d = variant_dir(sweep_dir, vid)
            check_variant(sweep_dir, sweep, by_id[vid], read_meta(d))
            cache[vid] = load_variant_sums(
                d, joint, vid, Path(sweep_dir) / JOINT_FILE,
                "restore this sweep's own file, or move it away and run the same balance sweep "
                "again to play every variant together") if joint is not None else load_variant(d)
        return cache[vid]

    rows = []
    for var in sweep["variants"]:
        if var["id"] not in done:
            continue
        v = get(var["id"])
        for r in metric_table(v):
            rows.append({"variant": var["id"], "label_variant": var["label"], **r})
        if len(cache) > 4:
            cache.clear()
    variants = pl.DataFrame(rows)
    known: dict = {}

    def reads(name, a: VariantData, b: VariantData, x, y) -> dict:
        """The columns ``read`` and ``players`` of a comparison's rows (:func:`reads_comparison`)."""
        read, n = reads_comparison(sweep, name, x, y, a.n_players, b.n_players, known)
        return {"read": read, "players": n}

    curve_rows, effect_rows = [], []
    n_effects = sum(len(measured(_compared(name, [c for c in chain if c["id"] in done])))
                    for name, chain in slices(sweep).items())
    family_level = 1 - (1 - stats.LEVEL) / max(n_effects, 1)
    for name, chain in slices(sweep).items():
        chain = [c for c in chain if c["id"] in done]
        at = condition_text(sweep, name)
        for c in chain:
            sub = variants.filter(pl.col("variant") == c["id"])
            value = c["values"][name]
            for r in sub.iter_rows(named=True):
                curve_rows.append({"parameter": name, "value": _text(value),
                                   "x": float(value) if _is_number(value) else None,
                                   "order": chain.index(c), "variant": c["id"], **{
                                       k: r[k] for k in ("metric", "label", "unit", "share",
                                                         "estimate", "low", "high")}})
        for first, last in measured(_compared(name, chain)):
            a, b = get(first["id"]), get(last["id"])
            x, y = first["values"][name], last["values"][name]
            reading = reads(name, a, b, x, y)
            for r in parameter_effects(a, b, level=family_level, overrides=overrides):
                effect_rows.append({
                    "parameter": name, "from": _text(x), "to": _text(y), "at": at,
                    "numeric": _is_number(x) and _is_number(y),
                    "rising": _is_number(x) and _is_number(y) and y > x,
                    **r, "games": a.n_games, **reading})
        cache.clear()
    # The same comparisons at the other slices of a grid: a second family (Bonferroni over its
    # comparisons), so the anchored family and its words stay as they were.
    extra = {name: [(held, [c for c in chain if c["id"] in done]) for held, chain in cuts]
             for name, cuts in other_slices(sweep).items()}
    n_extra = sum(len(measured(_compared(name, chain))) for cuts in extra.values() for _, chain in cuts)
    extra_level = 1 - (1 - stats.LEVEL) / max(n_extra, 1)
    slice_rows = []
    for name, cuts in extra.items():
        for held, chain in cuts:
            for first, last in measured(_compared(name, chain)):
                a, b = get(first["id"]), get(last["id"])
                x, y = first["values"][name], last["values"][name]
                reading = reads(name, a, b, x, y)
                for r in parameter_effects(a, b, level=extra_level, overrides=overrides):
                    slice_rows.append({
                        "parameter": name, "from": _text(x), "to": _text(y), "at": held_text(held),
                        "numeric": _is_number(x) and _is_number(y),
                        "rising": _is_number(x) and _is_number(y) and y > x,
                        **r, "games": a.n_games, **reading})
                if len(cache) > 4:
                    cache.clear()
    # Every two values of a parameter's anchored chain (3 values or more): first → last alone
    # hides a response that turns (review L #2). A third family: simultaneous over a pair's
    # metrics, Bonferroni over every pair of every such parameter **but the pairs the first-vs-last
    # family above already states** (first → last; a list of words: each value against the
    # first). Those keep the first-vs-last family's row wherever the page shows them (session 55
    # designer review #1: 3 → 5 printed "clear, may matter" in the sentences and "within noise" in
    # the table "Each value against the base value", one comparison in two families): the page's
    # comparisons are split between the families, each pair in one, each family adjusted over its own.
    chains = {name: [c for c in chain if c["id"] in done] for name, chain in slices(sweep).items()}
    stated = {name: {(a["id"], b["id"]) for a, b in measured(_compared(name, chain))}
              for name, chain in chains.items()}
    pairs = {name: measured(value_pairs(chain)) for name, chain in chains.items() if len(chain) >= 3}
    n_pairs = sum(1 for name, p in pairs.items() for a, b in p if (a["id"], b["id"]) not in stated[name])
    pair_level = 1 - (1 - stats.LEVEL) / max(n_pairs, 1)
    value_rows, references = [], {}
    for name, todo in pairs.items():
        if not todo:
            continue
        references[name] = reference(sweep, name, chains[name])
        at = condition_text(sweep, name)
        for first, last in todo:
            x, y = first["values"][name], last["values"][name]
            numeric = _is_number(x) and _is_number(y)
            where = {"from_x": float(x) if numeric else None, "to_x": float(y) if numeric else None,
                     "pairs": n_pairs}
            if (first["id"], last["id"]) in stated[name]:
                # the first-vs-last family's own row (the sentences', the tornado chart's, the
                # table "Every effect"'s): the same numbers and words on every line of the page
                value_rows += [{**r, **where, "family": FIRST_VS_LAST, "family_size": n_effects}
                               for r in effect_rows
                               if r["parameter"] == name and r["from"] == _text(x) and r["to"] == _text(y)]
                continue
            a, b = get(first["id"]), get(last["id"])
            reading = reads(name, a, b, x, y)
            for r in parameter_effects(a, b, level=pair_level, overrides=overrides):
                value_rows.append({
                    "parameter": name, "from": _text(x), "to": _text(y), "at": at,
                    "numeric": numeric, "rising": numeric and y > x,
                    **r, **where, "family": VALUE_BY_VALUE, "family_size": n_pairs,
                    "games": a.n_games, **reading})
        cache.clear()
    missing = [v["id"] for v in sweep["variants"] if v["id"] not in done]
    # every row's type read (infer_schema_length=None): a column such as follows, follows_rivals
    # (the seat imbalance's row only) can be null in a first hundred rows and set after them
    def frame(rows: list[dict]) -> pl.DataFrame:
        return pl.DataFrame(rows, infer_schema_length=None)

    return Sensitivity(sweep, variants, frame(curve_rows), frame(effect_rows),
                       unit, missing, frame(slice_rows),
                       source="stats" if joint is not None else "rows",
                       value_effects=frame(value_rows), references=references)


def value_pairs(chain: list[dict]) -> list[tuple[dict, dict]]:
    """Every two (finished) variants of a parameter's chain, (earlier, later) in the chain's order:
    the pairs :func:`sensitivity` compares value by value (a sweep without rows keeps their paired
    sums: :func:`analysis.sweep.play.compared_pairs`)."""
    return [(a, b) for i, a in enumerate(chain) for b in chain[i + 1:]]


def reference(sweep: dict, name: str, chain: list[dict]) -> tuple[str, str]:
    """The value of parameter ``name`` every other value is compared with, in words, and why: the
    base rules' value when ``chain`` (its finished variants) holds it, else the chain's first (of
    numbers, the lowest: :func:`value_order`)."""
    base = base_value(sweep, name)
    hit = next((c["values"][name] for c in chain if base is not None and json_eq(c["values"][name], base)),
               None)
    if hit is not None:
        return _text(hit), "the base rules' value"
    # (the chain of numbers runs lowest first, :func:`value_order`, whatever the list's order)
    listed = next((v["values"] for v in sweep.get("varies") or () if v["name"] == name), [])
    first = ("its first value" if not listed or json_eq(listed[0], chain[0]["values"][name])
             else "its lowest value")
    why = (f"{first} (the base rules' {_text(base)} is not among those tried)"
           if base is not None else first)
    return _text(chain[0]["values"][name]), why


def _oriented(r: dict, flip: bool) -> dict:
    """A pair's row read the other way round (to − from becomes from − to); ``reversed`` says
    whether it is now read against the page's direction (:func:`as_page_reads`)."""
    if not flip:
        return dict(r)
    return {**r, "from": r["to"], "to": r["from"], "from_x": r.get("to_x"), "to_x": r.get("from_x"),
            "delta": -r["delta"], "low": -r["high"], "high": -r["low"],
            "low_unadjusted": -r["high_unadjusted"], "high_unadjusted": -r["low_unadjusted"],
            **({"follows_low": -r["follows_high"], "follows_high": -r["follows_low"]}
               if r.get("follows_low") is not None and r.get("follows_high") is not None else {}),
            "rising": not r["rising"] if r.get("numeric") else r.get("rising"),
            # the seats whose interval reaches as far at from / at to (furthest_seat) keep their value
            **({"follows_rivals": [{**x, "at_from": x["at_to"], "at_to": x["at_from"]}
                                   for x in r["follows_rivals"]]} if r.get("follows_rivals") else {}),
            "reversed": not r.get("reversed", False)}


def as_page_reads(r: dict) -> dict:
    """A pair's row in the page's one direction (session 55 designer review #2: the lead printed
    "3 by +0.1 pp", 3 − 5, beside "5 by −0.1 pp", 5 − 3): from the earlier value to the later, in
    the parameter's chain (:func:`value_order`: numbers from the lowest, however listed; words in
    the order tried), ``delta`` = the later's metric −
    the earlier's, as the sweep's sentences, tables and files print every change. A row read the
    other way round for a computation (:func:`against_reference`, a value against the best) is
    turned back."""
    return _oriented(r, bool(r.get("reversed")))


def against_reference(value_effects: pl.DataFrame, name: str, ref: str) -> list[dict]:
    """Parameter ``name``'s every other value against its reference ``ref`` (:func:`reference`),
    one row per value and metric from :attr:`Sensitivity.value_effects`: ``from`` the reference,
    ``to`` the value, ``delta`` = the value's metric − the reference's, with the pair's interval of
    its family (the verdict is the pair's: the size of a difference does not depend on its
    sign). A row turned round for this (the value comes before the reference) has ``reversed``;
    the page prints it as :func:`as_page_reads` turns it back, earlier → later."""
    if value_effects.height == 0:
        return []
    out = []
    for r in value_effects.filter(pl.col("parameter") == name).iter_rows(named=True):
        if ref in (r["from"], r["to"]):
            out.append(_oriented(r, r["to"] == ref))
    return out


#: the verdicts of a step that may matter: its interval reaches the smallest difference that matters
MATTERING = (stats.LARGE, stats.MAY_MATTER)


def _clear(s: dict) -> bool:
    return s["low"] > 0 or s["high"] < 0


def first_vs_last(effects: pl.DataFrame | None, name: str, metric: str) -> dict | None:
    """The row of ``effects`` (:attr:`Sensitivity.effects`, the page's first-vs-last family: the
    sentences, the tornado chart and the table "Every effect") comparing numeric parameter
    ``name``'s first and last value on ``metric``, as the page prints it (its own from → to);
    None when there is none (no such frame, a pair not measured)."""
    if effects is None or effects.height == 0:
        return None
    d = effects.filter((pl.col("parameter") == name) & (pl.col("metric") == metric))
    if "numeric" in d.columns:
        d = d.filter(pl.col("numeric"))
    return d.row(0, named=True) if d.height == 1 else None


def hidden_by(ends: dict | None, steps: tuple[dict, dict]) -> bool | None:
    """Whether the first-vs-last effect ``ends`` hides a response made of ``steps`` (review M #3):
    yes when it is within noise (its interval holds 0), or when it falls short of the larger step,
    in that step's direction, by at least the smallest difference that matters (rises 2 pp then
    falls 1.2: first to last +0.8 pp, 1.2 short); no when it shows nearly all of the larger step
    (then it gives the net change, if not the turn). None without ``ends``. Estimates, each step
    oriented from the lower value to the higher, ``ends`` too."""
    if ends is None:
        return None
    if not _clear(ends):
        return True
    return bool(ends_short_of(ends, steps) >= max(steps, key=lambda s: abs(s["delta"]))["smallest"] - 1e-12)


def ends_short_of(ends: dict, steps: tuple[dict, dict]) -> float:
    """How far the first-vs-last effect ``ends`` falls short of the larger of ``steps``, in that
    step's direction and its unit: positive when short, negative when it goes beyond it (a response
    that falls 14.1 pp, rises 8.8 and falls again: first to last −22.9, 8.8 beyond the first fall;
    review s47: the page then said "within 1 pp of the fall")."""
    e = _oriented(ends, bool(ends.get("numeric")) and not ends.get("rising"))
    big = max(steps, key=lambda s: abs(s["delta"]))
    return abs(big["delta"]) - float(np.sign(big["delta"])) * e["delta"]


def _reversals(value_effects: pl.DataFrame, name: str):
    """Per metric of numeric parameter ``name`` (a repeat of another left out): its steps (every
    pair of values, oriented from the lower value to the higher) and every reversal: values
    a < b < c with b − a clearly one way and c − b clearly the other (each interval of the pair
    family excludes 0), as (a → b, b → c)."""
    d = value_effects.filter((pl.col("parameter") == name) & pl.col("numeric"))
    if "same_as" in d.columns:
        d = d.filter(pl.col("same_as").is_null())
    for (metric,), g in d.group_by(["metric"], maintain_order=True):
        steps = [_oriented(r, r["from_x"] > r["to_x"]) for r in g.iter_rows(named=True)]
        xs = sorted({s["from_x"] for s in steps} | {s["to_x"] for s in steps})
        found = []
        for mid in xs[1:-1]:
            into = [s for s in steps if s["to_x"] == mid and _clear(s)]
            out_of = [s for s in steps if s["from_x"] == mid and _clear(s)]
            found += [(a, b) for a in into for b in out_of if a["delta"] * b["delta"] < 0]
        yield metric, steps, found


def turns(value_effects: pl.DataFrame, name: str, effects: pl.DataFrame | None = None) -> list[dict]:
    """The metrics whose response to numeric parameter ``name`` clearly turns: values a < b < c
    (by value) with b − a clearly one way and c − b clearly the other, **each step's interval
    reaching the smallest difference that matters** (verdict "clear and large enough to matter"
    or "clear, may matter", :data:`MATTERING`; review M #3: a step back that is clear but small is
    no turn a designer acts on, :func:`levels_off` names it). Those intervals hold together at
    95 % over every pair of the page, so a response that is monotone in truth is flagged on at
    most 5 % of pages. Per metric, the turn whose smaller step is largest: rows with ``metric``,
    ``label``, ``share``, ``unit``, ``smallest``, ``first`` (the step a → b), ``second`` (b → c),
    ``ends`` (the first-vs-last effect: ``effects``' row, the page's first-vs-last family, as the
    sentences and the table "Every effect" give it; None without ``effects``), ``hidden``
    (:func:`hidden_by`), ``size`` (the smaller step's |change| over the smallest difference that
    matters); largest first."""
    if value_effects.height == 0:
        return []
    out = []
    for metric, steps, found in _reversals(value_effects, name):
        real = [(a, b) for a, b in found if a["verdict"] in MATTERING and b["verdict"] in MATTERING]
        if not real:
            continue
        a, b = max(real, key=lambda p: min(abs(p[0]["delta"]), abs(p[1]["delta"])))
        out.append(_found(metric, a, b, effects, name))
    return sorted(out, key=lambda t: -t["size"])


def levels_off(value_effects: pl.DataFrame, name: str, effects: pl.DataFrame | None = None
               ) -> list[dict]:
    """The metrics whose response to numeric parameter ``name`` moves clearly one way and then
    steps back by a clear but small amount (review M #3): a step a → b that may matter
    (:data:`MATTERING`) followed by b → c clearly the other way with its whole interval under the
    smallest difference that matters ("clear but small"), and no turn (:func:`turns`). It levels
    off there rather than turning. Rows as :func:`turns` gives them (the largest small step back
    first per metric, then the metrics by it)."""
    if value_effects.height == 0:
        return []
    out = []
    for metric, steps, found in _reversals(value_effects, name):
        if any(a["verdict"] in MATTERING and b["verdict"] in MATTERING for a, b in found):
            continue
        small = [(a, b) for a, b in found if a["verdict"] in MATTERING and b["verdict"] == stats.SMALL]
        if not small:
            continue
        a, b = max(small, key=lambda p: (abs(p[1]["delta"]), abs(p[0]["delta"])))
        out.append(_found(metric, a, b, effects, name))
    return sorted(out, key=lambda t: -t["size"])


def _found(metric: str, a: dict, b: dict, effects: pl.DataFrame | None, name: str) -> dict:
    ends = first_vs_last(effects, name, metric)
    size = min(abs(a["delta"]), abs(b["delta"]))
    return {"metric": metric, "label": a["label"], "share": a["share"], "unit": a["unit"],
            "smallest": a["smallest"], "first": a, "second": b, "ends": ends,
            "hidden": hidden_by(ends, (a, b)),
            "size": size / a["smallest"] if a["smallest"] else size}


def _compared(name: str, chain: list[dict]) -> list[tuple[dict, dict]]:
    """The pairs of a parameter's (finished) variants whose effect the page states: a range of
    numbers from its first to its last value (the curve shows the values between); a list of
    words or other values, each against the first (``payment.order=[seat,simultaneous,rotating]``:
    first to last alone never compared "simultaneous", the value the designer asked about)."""
    if len(chain) < 2:
        return []
    if all(_is_number(c["values"][name]) for c in chain):
        return [(chain[0], chain[-1])]
    return [(chain[0], c) for c in chain[1:]]


def _text(value) -> str:
    from simcore.config import format_value

    return format_value(value)
