"""Comparison of two configurations (baseline vs variant rules, or two strategy sets).

:func:`metric_vector` flattens the tables of :func:`analysis.analyse` into one row per scalar metric
(seat win shares and mean scores, each role's win share in an asymmetric game, Ludii's Balance
and the win-share Balance, outcome metrics, pooled event metrics, tile slopes, strategy win shares
and matchups, mean game length and end-reason shares, guild types' founded share and founders' win
share), each with its estimate, 95 % interval and count. :func:`compare_tables` joins two such
vectors: the difference variant − baseline, its 95 % interval and a two-sided p-value — Newcombe's
interval and the two-proportion z test for proportions, Welch's t interval and test for means (each
run's standard deviation recovered exactly from its Student t interval), the tie-aware Wald test
for seat win shares (per-game variance from the seat table), a normal interval from the
half-widths otherwise (slopes) — and a Holm-adjusted p-value within the row's family. The tested
metrics form two families (``family``, :func:`family_of`), each adjusted among its own members
only: the designer's first question, who wins by seat — the seat win shares (:data:`SEATS`), or in
a game with roles the roles' (sides') win shares, the seats' win shares left beside them and each
seat's share of its role's wins (:data:`ROLES`) — and every other tested metric
(:data:`OTHER`). So the seats' verdicts do not depend on how many event cards, tiles or turns the
game has; each family keeps its own family-wise error rate (two runs of the same configuration
flag *any* seat in at most ~5 % of comparisons, and any other metric in at most ~5 %; either of
the two in at most ~10 %). Each difference is worded by its practical size (``verdict``:
:func:`analysis.stats.practical`, read on the metric's interval at the Bonferroni level over its
family) and the table is ordered by that wording and by size, never by p-value.
``significant`` uses the adjusted p-value. Balance rows (kind ``index``) are
shown with both runs' intervals and the difference but not tested: a maximum over seat pairs has no
standard error to combine (their intervals come from simultaneous intervals, not from a normal law),
and the seat win-share rows carry the test. Neither is a row compared game by game whose per-game
differences are all 0 (:func:`compare_runs`: every game gives it the same value in both runs, a side
that won the very same games): its paired t interval would be the point 0 to 0 with p = 1 ("0.0 to
0.0 pp, within noise", counted in the family), which says more than the games do. It is shown with
no interval, z, p-value, verdict or family, outside the families Holm and the Bonferroni sizes run
over, with ``same_games`` (how many games, none differing) and, for a share, ``change_at_most``: the
games' 95 % bound on its change, :func:`analysis.stats.same_games_bound` (a mean, a score or a
length, gets no bound: one game that differs can move it by any amount).

May import polars, numpy, :mod:`analysis` and its modules, and the registry of games
(:mod:`simcore.games`: which games size a count, :func:`counts_sized`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, collect, rows_flag

ALPHA = 0.05
_Z = stats.z_quantile()

VECTOR_SCHEMA = {"metric": pl.String, "key": pl.String, "label": pl.String, "kind": pl.String,
                 "estimate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64, "n": pl.Int64}


def _rows(df: pl.DataFrame, metric: str, key, label, kind: str, est: str, lo: str, hi: str,
          n: str | None) -> list[tuple]:
    out = []
    for r in df.iter_rows(named=True):
        if r[est] is None or r[est] != r[est]:
            continue        # not measured in this run (a seat balance of a game with roles): nothing to compare
        k = key(r) if callable(key) else key
        lab = label(r) if callable(label) else label
        count = int(r[n]) if n is not None and r[n] is not None else 0
        out.append((metric, str(k), lab, kind, r[est], r[lo], r[hi], count))
    return out


def metric_vector(tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """One row per comparable scalar metric.

    Columns: metric, key (which seat / event / tile / strategy), label (a sentence fragment for
    people), kind (proportion, mean, slope, index), estimate, ci_low, ci_high, n.
    """
    rows: list[tuple] = []
    if "seats" in tables:
        t = tables["seats"]
        rows += _rows(t, "seat_win_share", lambda r: r["seat_label"],
                      lambda r: f"{r['seat_label']} win share", "proportion",
                      "win_share", "ci_low", "ci_high", "games")
        rows += _rows(t, "seat_mean_score", lambda r: r["seat_label"],
                      lambda r: f"{r['seat_label']} mean score", "mean",
                      "mean_score", "score_ci_low", "score_ci_high", "games")
    if "roles" in tables:
        rows += _rows(tables["roles"], "role_win_share", lambda r: r["role"],
                      lambda r: f"{r['role_label']} side win share", "proportion",
                      "win_share", "ci_low", "ci_high", "games")
    if "seat_tests" in tables and "roles" not in tables:
        # (a game with roles has no fair seat share: a seat-balance index over every seat, the
        # Seigneur's included, measures the roles, which the role rows already compare; revB #10)
        st = tables["seat_tests"]
        rows += _rows(st, "balance", "all", "Balance (Ludii: 1 − largest seat gap in place credit)", "index",
                      "balance", "balance_low", "balance_high", "games")
        if "win_share_balance" in st.columns:
            rows += _rows(st, "win_share_balance", "all", "Win-share balance (1 − largest seat gap in win share)",
                          "index", "win_share_balance", "win_share_balance_low", "win_share_balance_high",
                          "games")
    if "outcomes" in tables:
        for r in tables["outcomes"].iter_rows(named=True):
            rows.append((r["metric"], "all", r["label"], r["kind"], r["estimate"], r["ci_low"], r["ci_high"],
                         r["n"]))
    if "events" in tables:
        t = tables["events"].filter(pl.col("slot") == 0)
        name = lambda r: f"{r['event_name']}"  # noqa: E731
        rows += _rows(t, "event_mean_gain", name, lambda r: f"{r['event_name']}: mean coin gain per player",
                      "mean", "mean_gain", "gain_ci_low", "gain_ci_high", "games")
        rows += _rows(t.filter(pl.col("leader_change").is_not_null() & pl.col("leader_change").is_not_nan()),
                      "event_leader_change", name, lambda r: f"{r['event_name']}: changes the leader",
                      "proportion", "leader_change", "leader_change_ci_low", "leader_change_ci_high", "games")
        rows += _rows(t.filter(pl.col("top_gainer_games") > 0), "event_top_gainer_wins", name,
                      lambda r: f"{r['event_name']}: biggest gainer wins", "proportion",
                      "top_gainer_win_share", "top_gainer_ci_low", "top_gainer_ci_high", "top_gainer_games")
    if "tile_summary" in tables:
        t = tables["tile_summary"].filter(pl.col("slope").is_not_nan())
        rows += _rows(t, "tile_slope", lambda r: r["tile_name"],
                      lambda r: f"Win share per extra {r['tile_name']} tile", "slope",
                      "slope", "slope_ci_low", "slope_ci_high", None)
    if "strategies" in tables:
        rows += _rows(tables["strategies"], "strategy_win_share", lambda r: r["strategy"],
                      lambda r: f"{r['strategy']} win share", "proportion", "win_share", "ci_low", "ci_high",
                      "units")
    if "matchups" in tables:
        t = tables["matchups"].filter(pl.col("strategy") < pl.col("opponent"))
        rows += _rows(t, "matchup_ahead_share", lambda r: f"{r['strategy']} vs {r['opponent']}",
                      lambda r: f"{r['strategy']} finishes ahead of {r['opponent']}", "proportion",
                      "ahead_share", "ci_low", "ci_high", "units")
    if "length" in tables:
        rows += _rows(tables["length"], "mean_turns", "all", "Mean game length (turns)", "mean",
                      "mean_turns", "ci_low", "ci_high", "games")
    if "end_reasons" in tables:
        rows += _rows(tables["end_reasons"], "end_reason_share", lambda r: r["end_reason_name"],
                      lambda r: f"Games ending: {r['label']}", "proportion", "share", "ci_low", "ci_high",
                      "total")
    if "objectives" in tables:
        # Seigneurial's Objective cards (SG-2), card by card as the page numbers them (#1 = the
        # rules' first card): a before/after of a card change must say what it did to the cards'
        # holders (review s46 #1: "Nothing else moved" while the changed cards' holders went
        # 12.8% → 16.7%); each card's dealings are independent games (one holder a game)
        # a pooled row's key names every card it pools, "#10+#11+#12" (review 225 #3: it was "#10",
        # the key the summary export gives card #10 alone, so a join on (metric, key) matched a
        # pooled 14,799 holders with one card's 4,868)
        rows += _rows(tables["objectives"], "objective_win_share",
                      lambda r: (r["cards1"].replace(", ", "+") if (r.get("copies") or 1) > 1
                                 else f"#{int(r['objective']) + 1}"),
                      lambda r: (f"Objective cards {r['cards1']} ({r['label']}, {r['copies']} identical "
                                 "cards): their holders' win share" if (r.get("copies") or 1) > 1 else
                                 f"Objective card #{int(r['objective']) + 1} ({r['label']}): its holders' win share"),
                      "proportion", "win_share", "ci_low", "ci_high", "dealt")
    if "guild_types" in tables:
        t = tables["guild_types"]
        rows += _rows(t, "guild_founded_share", lambda r: r["card"],
                      lambda r: f"{r['card_name']}: players founding a guild", "proportion",
                      "founded_share", "founded_ci_low", "founded_ci_high", "players")
        rows += _rows(t.filter(pl.col("founders") > 0), "guild_founders_win_share", lambda r: r["card"],
                      lambda r: f"{r['card_name']}: founders' win share", "proportion",
                      "founders_win_share", "founders_ci_low", "founders_ci_high", "founders")

    def num(x) -> float:
        return float(x) if x is not None else float("nan")

    fixed = [(m, k, lab, kind, num(e), num(lo), num(hi), n) for m, k, lab, kind, e, lo, hi, n in rows]
    return pl.DataFrame(fixed, schema=VECTOR_SCHEMA, orient="row")


def _with_sd(vec: pl.DataFrame, tables: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """``vec`` with ``sd``: the per-game standard deviation of the seat win shares (tie-aware:
    shared wins make it smaller than √(p(1 − p))) where the seat table has it, else null."""
    seats = tables.get("seats")
    if seats is None or "win_share_sd" not in seats.columns:
        return vec.with_columns(pl.lit(None, pl.Float64).alias("sd"))
    sd = seats.select(pl.lit("seat_win_share").alias("metric"), pl.col("seat_label").alias("key"),
                      pl.col("win_share_sd").cast(pl.Float64).alias("sd"))
    return vec.join(sd, on=["metric", "key"], how="left")


def _smallest_kind(metric: str, kind: str) -> str:
    if kind in ("proportion", "slope", "index"):
        return "share"
    return "length" if metric in ("mean_turns", "mean_length") else "score"


COMPARE_SCHEMA = {"metric": pl.String, "key": pl.String, "label": pl.String, "kind": pl.String,
                  "base": pl.Float64, "base_low": pl.Float64, "base_high": pl.Float64,
                  "variant": pl.Float64, "variant_low": pl.Float64, "variant_high": pl.Float64,
                  "diff": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64, "z": pl.Float64,
                  "p_value": pl.Float64, "p_adjusted": pl.Float64, "significant": pl.Boolean,
                  "family": pl.String, "family_size": pl.Int64,
                  "smallest": pl.Float64, "size_low": pl.Float64, "size_high": pl.Float64,
                  "verdict": pl.String, "paired": pl.Boolean,
                  "same_games": pl.Int64, "change_at_most": pl.Float64,
                  "base_fit": pl.Float64, "variant_fit": pl.Float64,
                  "base_spread": pl.Float64, "variant_spread": pl.Float64,
                  "base_n": pl.Int64, "variant_n": pl.Int64}


PAIRED_METRICS = ("seat_win_share", "seat_mean_score", "role_win_share", "shared_wins", "score_spread",
                  "end_reason_share", "mean_turns", "mean_length", "count_mean", "count_share",
                  "guild_founded_share")
"""The metrics compared game by game when both runs played the same deals (:func:`pairing`): the
ones with one value per game in players.parquet / games.parquet (a guild type's founded share: the
share of a game's players founding one, whose mean over the games is the share of player-games,
:func:`analysis.guilds.guild_table`'s). The others (a guild type's founders' win share, a ratio;
event and tile metrics, strategy and leader metrics) stay unpaired; a founders' win share is still
untested where no game differs in it (:data:`FOUNDERS_WINS`)."""

FOUNDERS_WINS = "guild_founders_wins"
"""A per-game quantity of the pairing only (no row of its own): the win shares a game's founders of
a guild type took. Where it and the type's founded share are the same in every game of both runs,
the type's founders' win share (founders' wins / founders) is made of the same games' figures on
both sides: no game differs in it, and :func:`_compare` leaves it untested as a paired row whose
differences are all 0."""

COUNT_METRICS = ("count_mean", "lead_changes", "lead_changes_by_turn")
"""The compared means that are counts per game, each sized against
:func:`analysis.load.smallest_count` (``--smallest-difference count=N``, else 0.1 a game for the
lead changes, :data:`analysis.load.SMALLEST_LEAD_CHANGES`, and 0.01 for the reshuffles,
:data:`analysis.load.SMALLEST_COUNT`). Review U #3: the lead changes were sized against the
game's score amount, "2 lead changes" in Middle-Ages, two thirds of their mean; a designer review
then found 0.01 a game too small for a mean of 3 (+0.07 listed as large enough to matter)."""


def counts_sized(game: str | None) -> bool:
    """Whether a two-run before/after of ``game`` sizes a count per game (:data:`COUNT_METRICS`),
    read from its spec: its lead changes (a game with running totals, ``checkpoint_by_turn`` or
    ``checkpoint_by_event`` columns: Middle-Ages), or a ``count_per_game`` column that can be more
    than one a game. One of at most one a game (a bool, or ``high`` ≤ 1: Médiévallons' reshuffles,
    MV-6; Fief's surrenders) is dropped by :func:`_left_out` as the same number as the share of
    games with one, so such a game sizes no count (``balance report`` refuses ``count=`` for it)."""
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    if spec is None:
        return False
    cols = (*spec.all_player_columns, *spec.all_game_columns)
    if any(c.role in ("checkpoint_by_turn", "checkpoint_by_event") for c in cols):
        return True
    return any(c.role == "count_per_game" and c.dtype != "bool" and (c.high is None or c.high > 1)
               for c in cols)


SEATS = "seats"
"""The family of a game without roles' seat win shares (``family``): Holm's correction and the
Bonferroni size intervals over them alone, the first question a before/after answers."""

ROLES = "roles"
"""The family of a game with roles' first questions (``family``): each role's (side's) win share,
the seats' win shares left beside them (a one-seat role's seat is its role's copy, left out:
:func:`_left_out`) and each seat's share of its role's wins (``seat_share_of_role_wins``,
:func:`analysis.panel_compare.role_split_vectors`), adjusted among themselves."""

OTHER = "other metrics"
"""The family of every other tested metric (mean scores, game length, end reasons, event cards,
tiles, strategies, guilds …), adjusted among themselves."""

SPLIT_METRIC = "seat_share_of_role_wins"     # (analysis.panel_compare.SPLIT_METRIC; that module imports this one)

FIRST_METRICS = {SEATS: ("seat_win_share",),
                 ROLES: ("role_win_share", "seat_win_share", SPLIT_METRIC)}
"""The metrics of the first family, by its name (:func:`family_of`)."""


def family_of(metric: str, roles: bool) -> str:
    """The family a tested metric is adjusted in: :data:`SEATS` for a seat win share (in a game
    with roles, ``roles``: :data:`ROLES` for the roles', the seats' and the split's shares), else
    :data:`OTHER`. Holm's correction and the Bonferroni size intervals run within a family, so
    that the seats' verdicts do not depend on how many other metrics the game has."""
    first = ROLES if roles else SEATS
    return first if metric in FIRST_METRICS[first] else OTHER


def _families(metrics: list, tested: np.ndarray, roles: bool) -> np.ndarray:
    """Each row's family (:func:`family_of`), None for an untested row."""
    return np.array([family_of(m, roles) if t else None for m, t in zip(metrics, tested)], dtype=object)


def _holm_by_family(p: np.ndarray, family: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(Holm-adjusted p-values, family sizes m): Holm's step-down within each family over its
    tested rows (finite p); nan and 0 for a row in none."""
    adj = np.full(p.shape, np.nan)
    size = np.zeros(p.shape, dtype=np.int64)
    for f in {x for x in family if x is not None}:
        idx = np.flatnonzero(family == f)
        adj[idx] = stats.holm(p[idx])
        size[idx] = int(np.isfinite(p[idx]).sum())
    return adj, size


@dataclass
class Pairing:
    """Whether a before/after compares its metrics game by game (``paired``: the same ``games``
    deals on both sides, per-game rows on both) and, when not, why (``why``, a sentence fragment
    for the page: "the after run kept no per-game rows")."""

    paired: bool
    games: int = 0
    why: str = ""
    moments: dict = field(default_factory=dict)     # (metric, key) → (n, mean, sd) of after − before
    source: str = "rows"        # where the per-game differences come from: "rows", or "sums" (a sweep's)


@dataclass
class Comparison:
    """A before/after: the compared metrics (:func:`compare_tables`' columns, plus ``paired``),
    how they were compared (:class:`Pairing`), and the rows left out of the table, each as
    (label, why): a founders' win share of a guild founded by almost nobody, a copy of another row
    (a seat of a one-seat role)."""

    table: pl.DataFrame
    pairing: Pairing
    dropped: list = field(default_factory=list)
    # toward or away from a fair seat share (analysis.panel_compare.run_pair_balance: the panel
    # before/after's seat_balance, in the module that imports this one, for the one cell); empty in
    # a game with roles or until a report fills it
    balance: pl.DataFrame = field(default_factory=pl.DataFrame)


def compare_tables(base: dict[str, pl.DataFrame], variant: dict[str, pl.DataFrame],
                   alpha: float = ALPHA, game: str | None = None,
                   smallest: dict | None = None) -> pl.DataFrame:
    """Every metric present in both analyses: difference variant − base with interval and flag,
    every run's games independent of the other's (:func:`compare_runs` pairs them when it can).

    Columns: metric, key, label, kind, base, base_low, base_high, variant, variant_low,
    variant_high, diff, diff_low, diff_high, z, p_value, p_adjusted (Holm, within the row's family),
    significant (p_adjusted < alpha), family (:func:`family_of`: :data:`SEATS`, :data:`ROLES` or
    :data:`OTHER`; null for an untested row), family_size (how many tested rows that family holds,
    the m of its Holm and Bonferroni; null for an untested row), smallest (the metric's smallest
    difference that matters,
    :func:`analysis.load.smallest_difference` for ``game``, ``smallest`` overriding by kind;
    :func:`analysis.load.smallest_count` for a mean count per game, :data:`COUNT_METRICS`, ``smallest["count"]``
    overriding it), size_low, size_high (the interval the
    verdict's size is read on: :func:`_size_intervals`), verdict (:func:`analysis.stats.practical`,
    when significant: "clear and large enough to matter" when its interval's near end is at least
    ``smallest``, "clear but small" when its far end is below it, "clear, may matter" when the
    interval straddles it; else "not shown"), paired (the row's interval and test are over per-game
    differences), same_games (a paired row whose per-game differences are all 0: the number of
    games, each giving it the same value in both runs; untested, see the module docstring; null
    otherwise), change_at_most (such a row's 95 % bound on its change, either way, when it is a
    share: :func:`analysis.stats.same_games_bound`; nan otherwise), base_fit, variant_fit,
    base_spread, variant_spread (a tile slope's curve in each run: :func:`_tile_curves`; nan for
    other rows), base_n, variant_n (the count each run's estimate is over: games for a seat's or
    side's win share, players, founders, meetings …; 0 where none, a tile slope's; a share times
    its count is the games it was won in, :func:`factor_interval`'s counts). The size is read on
    the Bonferroni interval over the tested metrics of the row's family, :func:`_size_intervals`: wider than the diff_low/diff_high shown, which are each metric's own
    95 % interval. Seat win shares are tested with the tie-aware per-game variance (Wald), not
    p(1 − p). Rows left out (see :func:`compare_runs`): a guild's founders' win share where fewer
    than 1 % of players found it in both runs (a share of almost nobody; in one run only, it is
    kept but never shown as moved), and in a game with roles a seat or end-reason share that
    equals a role's win share in both runs (the same number: one copy in the tested family).
    Sorted by verdict; clear changes by size |diff| / smallest, the rest (within noise) by |z|,
    the strength of their evidence — never by p-value or by the point estimate alone. Balance rows
    (kind ``index``) have no diff interval, z or p-value (see the module docstring), are never
    significant, and are left out in a game with roles (no fair seat share to measure).
    """
    return _compare(base, variant, alpha, game, smallest)[0]


def compare_runs(base_rs: RunSet, variant_rs: RunSet, base: dict[str, pl.DataFrame],
                 variant: dict[str, pl.DataFrame], alpha: float = ALPHA,
                 smallest: dict | None = None, split=None) -> Comparison:
    """The before/after of two run sets (their tables ``base`` and ``variant`` from
    :func:`analysis.analyse`): :func:`compare_tables` plus the count metrics of the games table
    (the share of games with a reshuffle and the mean reshuffles per game, :func:`count_vector`),
    paired game by game when both sides played the same deals (:func:`pairing`): then the
    :data:`PAIRED_METRICS` get the paired t interval and test of the per-game differences
    after − before (mean ± t(n−1)·sd/√n over the n deals; Holm and the Bonferroni size interval
    within the row's family as for the others). A paired metric whose per-game differences are all
    0 is not tested (no interval, z, p-value, verdict or family; ``same_games``, ``change_at_most``:
    the module docstring) and is not counted in the family m that sizes the others' Bonferroni
    intervals. ``balance`` is left empty here (a report fills it: :func:`analysis.panel_compare.run_pair_balance`). ``split``:
    the split of a role's wins among its seats, (base rows, variant rows, tested changes) from
    :func:`analysis.panel_compare.role_split_vectors`, compared in the roles' family
    (:data:`ROLES`)."""
    from analysis.load import score_unit
    from analysis.rules_diff import goal_changes, goal_words, rules_diff

    pair = pairing(base_rs, variant_rs)
    base, variant = _identical_cards_pooled(base, variant, base_rs.games_per_unit,
                                            variant_rs.games_per_unit)
    unit = score_unit(base_rs.game)
    goal = goal_changes(rules_diff(base_rs.metas[0], variant_rs.metas[0]), base_rs.game,
                        base_rs.n_players)
    set_aside = (goal.keys(), f"not comparable: {goal_words(goal, unit)}") if goal else None
    split_b, split_v, tested = split if split is not None else (None, None, {})
    extra_b = [count_vector(base_rs), length_vector(base_rs), *([split_b] if split_b is not None else [])]
    extra_v = [count_vector(variant_rs), length_vector(variant_rs), *([split_v] if split_v is not None else [])]
    df, dropped = _compare(base, variant, alpha, base_rs.game, smallest, set_aside=set_aside,
                           extra=(pl.concat(extra_b), pl.concat(extra_v)),
                           paired=pair.moments if pair.paired else None, tested=tested)
    return Comparison(df, pair, dropped)


def _identical_cards_pooled(base: dict, variant: dict, units_b: int, units_v: int) -> tuple[dict, dict]:
    """The two runs' tables with the Objective cards (Seigneurial, SG-2) that are identical in both
    runs pooled into one row each (:func:`analysis.games.seigneurial.distinct_cards`, the grouping
    the page's Objective section uses): one card dealt three times is one metric, tested once
    (review s48 SG #1: #10, #11 and #12, the same card, read "may matter", "may matter" and
    "within noise"). A card the change made differ from its former copies stands alone. Tables
    without ``same_as`` are returned as they are."""
    ob, ov = base.get("objectives"), variant.get("objectives")
    if ob is None or ov is None or "same_as" not in ob.columns or "same_as" not in ov.columns:
        return base, variant
    from analysis.games.seigneurial import distinct_cards

    sb = dict(zip(ob["objective"].to_list(), ob["same_as"].to_list()))
    sv = dict(zip(ov["objective"].to_list(), ov["same_as"].to_list()))
    groups: dict[tuple, int] = {}
    for o in sorted(set(sb) | set(sv)):
        groups.setdefault((sb.get(o, -1 - o), sv.get(o, -1 - o)), o)    # its lowest card

    def pooled(t: pl.DataFrame, units: int) -> pl.DataFrame:
        key = [groups[(sb.get(o, -1 - o), sv.get(o, -1 - o))] for o in t["objective"].to_list()]
        d = distinct_cards(t.with_columns(pl.Series("same_as", key, dtype=pl.Int16)), units)
        ones = [", ".join(f"#{int(c) + 1}" for c in re.findall(r"\d+", x)) for x in d["cards"].to_list()]
        return d.with_columns(pl.Series("cards1", ones))

    return {**base, "objectives": pooled(ob, units_b)}, {**variant, "objectives": pooled(ov, units_v)}


def _compare(base: dict[str, pl.DataFrame], variant: dict[str, pl.DataFrame], alpha: float,
             game: str | None, smallest: dict | None, extra=None, paired: dict | None = None,
             set_aside: tuple[set[tuple[str, str]], str] | None = None,
             tested: dict | None = None) -> tuple[pl.DataFrame, list]:
    from analysis.load import smallest_count, smallest_difference

    vb, vv = metric_vector(base), metric_vector(variant)
    if extra is not None:
        vb, vv = pl.concat([vb, extra[0]]), pl.concat([vv, extra[1]])
    b = _with_sd(vb, base)
    v = _with_sd(vv, variant)
    j = b.join(v, on=["metric", "key"], how="inner", suffix="_v")
    # an Objective card whose requirement the rules changed: its label names both ("#10 (grain ≥ 4,
    # wood ≥ 4, fish ≥ 4 → grain ≥ 4, wood ≥ 4, fish ≥ 3)"), the base's alone would read as the old card
    changed = (pl.col("metric") == "objective_win_share") & (pl.col("label") != pl.col("label_v"))
    j = j.with_columns(pl.when(changed).then(
        pl.col("label").str.replace(r"\): its holders", pl.lit(" → ") + pl.col("label_v")
                                     .str.extract(r"\((.*)\): its holders", 1) + pl.lit("): its holders"),
                                    literal=False))
        .otherwise(pl.col("label")).alias("label"))
    j, dropped = _left_out(j, roles="roles" in base)
    if set_aside is not None:
        # rows that do not measure the same thing before and after (a score in % of a goal the
        # change moved: those seats' mean scores and the winner's lead, (metric, key) pairs):
        # out of the table and the tested family, listed with why
        keys, why = set_aside
        apart = pl.Series([(m, k) in keys for m, k in zip(j["metric"].to_list(), j["key"].to_list())],
                          dtype=pl.Boolean)
        out = j.filter(apart)
        dropped = dropped + [(r["label"], why) for r in out.iter_rows(named=True)]
        j = j.filter(~apart)
    e1, l1, h1, n1 = (j[c].to_numpy() for c in ("estimate", "ci_low", "ci_high", "n"))
    e2, l2, h2, n2 = (j[c].to_numpy() for c in ("estimate_v", "ci_low_v", "ci_high_v", "n_v"))
    kind = j["kind"].to_numpy()
    se1, se2 = (h1 - l1) / (2 * _Z), (h2 - l2) / (2 * _Z)
    se = np.sqrt(se1 ** 2 + se2 ** 2)
    diff = e2 - e1
    nlo, nhi = stats.newcombe(e2, l2, h2, e1, l1, h1)   # from the tables' Wilson intervals (exact ends)
    prop = kind == "proportion"
    dlo = np.where(prop, nlo, diff - _Z * se)
    dhi = np.where(prop, nhi, diff + _Z * se)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.nan))
    p = stats.two_sided_p(z)
    welch_sd = {}
    for i in np.flatnonzero(kind == "mean"):
        if n1[i] > 1 and n2[i] > 1 and np.isfinite(h1[i] - l1[i]) and np.isfinite(h2[i] - l2[i]):
            # Student t interval mean ± t(n−1)·sd/√n  →  sd = half-width · √n / t(n−1)
            sd1 = (h1[i] - l1[i]) / 2 * np.sqrt(n1[i]) / stats.t_quantile(float(n1[i] - 1))
            sd2 = (h2[i] - l2[i]) / 2 * np.sqrt(n2[i]) / stats.t_quantile(float(n2[i] - 1))
            _, lo, hi, pw = stats.welch(e2[i], sd2, n2[i], e1[i], sd1, n1[i])
            dlo[i], dhi[i], p[i] = lo, hi, pw
            welch_sd[i] = (sd1, sd2)
    sd1, sd2 = (j[c].fill_null(np.nan).to_numpy() for c in ("sd", "sd_v"))
    wald = prop & np.isfinite(sd1) & np.isfinite(sd2) & (n1 > 0) & (n2 > 0)
    if wald.any():      # tie-aware Wald test and interval of a seat's win-share change
        with np.errstate(invalid="ignore", divide="ignore"):
            wse = np.sqrt(sd1 ** 2 / n1 + sd2 ** 2 / n2)
            wz = np.where(wse > 0, diff / wse, np.where(diff == 0, 0.0, np.inf))
        z = np.where(wald, wz, z)
        p = np.where(wald, stats.two_sided_p(wz), p)
        dlo = np.where(wald, diff - _Z * wse, dlo)
        dhi = np.where(wald, diff + _Z * wse, dhi)
    metrics = j["metric"].to_list()
    keys = j["key"].to_list()
    is_paired = np.zeros(j.height, bool)
    pair_t = {}             # row → (n, mean, sd) of the per-game differences
    same_games = [None] * j.height       # paired games, where every one has the same value both sides
    for i, (m, k) in enumerate(zip(metrics, keys)):
        if paired and (m, k) in paired and paired[(m, k)][0] > 1:
            pair_t[i] = paired[(m, k)]
            is_paired[i] = True
            n, mean, sd = paired[(m, k)]
            diff[i], dlo[i], dhi[i], z[i], p[i] = (mean, *_paired_t(n, mean, sd))
            welch_sd.pop(i, None)
            if mean == 0 and sd == 0:
                same_games[i] = int(n)
        if (paired and m == "guild_founders_win_share" and _no_game_differs(paired, ("guild_founded_share", k))
                and _no_game_differs(paired, (FOUNDERS_WINS, k))):
            # the founders and their wins the same in every game of both runs (FOUNDERS_WINS)
            same_games[i] = int(paired[("guild_founded_share", k)][0])
        if tested and (m, k) in tested:
            # a change tested by its own construction (a seat's share of its role's wins: a ratio,
            # its delta-method error; role_split_vectors), in the roles' family (family_of)
            diff[i], dlo[i], dhi[i], z[i], p[i], is_paired[i] = tested[(m, k)]
            welch_sd.pop(i, None)
    same = np.array([g is not None for g in same_games], dtype=bool)
    # untested: a Balance index (no standard error), and a paired row whose per-game differences
    # are all 0 (its t interval is the point 0 to 0 and p = 1: "0.0 to 0.0 pp, within noise" says
    # more than the games do; only the games' bound on a share's change, :func:`analysis.stats.
    # same_games_bound`, holds). Neither is in the family Holm and Bonferroni run over.
    untested = (kind == "index") | same
    z = np.where(untested, np.nan, z)
    p = np.where(untested, np.nan, p)
    dlo = np.where(untested, np.nan, dlo)
    dhi = np.where(untested, np.nan, dhi)
    at_most = np.array([stats.same_games_bound(g) if g is not None and kd == "proportion" else np.nan
                        for g, kd in zip(same_games, kind)], dtype=float)
    # two families, each adjusted among its own (module docstring): the seats' (roles') win shares,
    # and every other tested metric
    family = _families(metrics, np.isfinite(p), roles="roles" in base)
    adj, family_size = _holm_by_family(p, family)
    significant = np.nan_to_num(adj, nan=1.0) < alpha
    slo, shi = _size_intervals(diff, dlo, dhi, p, alpha, welch_sd, (e1, n1, e2, n2), pair_t, family_size)
    small = np.array([smallest_count(m, smallest) if m in COUNT_METRICS else
                      smallest_difference(game, _smallest_kind(m, k), smallest)
                      for m, k in zip(metrics, kind)], dtype=float)
    founded = {r["key"]: min(r["estimate"], r["estimate_v"]) for r in
               j.filter(pl.col("metric") == "guild_founded_share").iter_rows(named=True)}
    support = np.array([founded.get(k, 1.0) if m == "guild_founders_win_share" else 1.0
                        for m, k in zip(metrics, keys)], dtype=float)
    verdict = stats.practical(diff, slo, shi, small, support=support, clear=significant)
    out = pl.DataFrame({
        "metric": j["metric"], "key": j["key"], "label": j["label"], "kind": j["kind"],
        "base": e1, "base_low": l1, "base_high": h1, "variant": e2, "variant_low": l2, "variant_high": h2,
        "diff": diff, "diff_low": dlo, "diff_high": dhi, "z": z, "p_value": p, "p_adjusted": adj,
        "significant": significant,
        "family": pl.Series(list(family), dtype=pl.String),
        "family_size": pl.Series([int(x) if f is not None else None for x, f in zip(family_size, family)],
                                 dtype=pl.Int64),
        "smallest": small, "size_low": slo, "size_high": shi,
        "verdict": verdict, "paired": is_paired,
        "same_games": pl.Series(same_games, dtype=pl.Int64), "change_at_most": at_most,
        **_tile_curves(metrics, keys, base, variant),
        "base_n": n1.astype(np.int64), "variant_n": n2.astype(np.int64)}, schema=COMPARE_SCHEMA)
    return out[reading_order(verdict, diff, small, z)], dropped


def _no_game_differs(paired: dict, key: tuple) -> bool:
    """The pairing's per-game differences of ``key`` are all 0 (over more than one game)."""
    m = paired.get(key)
    return m is not None and m[0] > 1 and m[1] == 0 and m[2] == 0


def _tile_curves(metrics: list, keys: list, base: dict, variant: dict) -> dict[str, np.ndarray]:
    """For each compared row, where it is a tile's slope (``tile_slope``), each run's
    ``linear_fit`` (how much of the tile's curve the straight line describes) and ``spread``
    (highest minus lowest win share over the tile counts held by at least 1% of players) from
    :func:`analysis.tiles.tile_summary`, as ``base_fit``, ``variant_fit``, ``base_spread``,
    ``variant_spread``; nan elsewhere. A page says a slope's change summarises a curve that bends
    when a fit is low (revF #6), and shows the runs' ranges beside it."""
    out = {}
    for side, tables in (("base", base), ("variant", variant)):
        ts = tables.get("tile_summary")
        by = ({r["tile_name"]: r for r in ts.iter_rows(named=True)}
              if ts is not None and "linear_fit" in ts.columns else {})
        for col, src in (("fit", "linear_fit"), ("spread", "spread")):
            out[f"{side}_{col}"] = np.array(
                [float(by[k][src]) if m == "tile_slope" and k in by and by[k][src] is not None else np.nan
                 for m, k in zip(metrics, keys)], dtype=float)
    return out


def reading_order(verdicts, diff, smallest, z) -> np.ndarray:
    """Rows in reading order: by verdict (:data:`analysis.stats.VERDICT_ORDER`); the clear changes
    by size |diff| / smallest (:func:`analysis.stats.practical_order`), the ones within noise by
    |z| (how far the evidence is from showing a change; untested rows last), so that a wide
    interval around a large point estimate does not head the table (revA #11)."""
    order = stats.practical_order(verdicts, diff, smallest)
    verdicts = np.asarray(verdicts)
    shown = [i for i in order if verdicts[i] != stats.NOT_SHOWN]
    rest = [i for i in order if verdicts[i] == stats.NOT_SHOWN]
    strength = np.nan_to_num(np.abs(np.asarray(z, dtype=float)), nan=-1.0)
    rest.sort(key=lambda i: -strength[i])          # stable: ties keep their size order
    return np.array(shown + rest, dtype=np.int64)


def _left_out(j: pl.DataFrame, roles: bool) -> tuple[pl.DataFrame, list]:
    """``j`` (the joined metric vectors) without the rows a page must not show, and those rows as
    (label, why). A guild's founders' win share where the guild is founded by under 1 % of players
    in both runs (:data:`analysis.stats.MIN_SUPPORT`: a share of almost nobody, its interval many
    pp wide). A count the same in every game of both runs (the shipped Middle-Ages rules reshuffle
    exactly twice at 3 players, never at 4: it cannot move). A mean count per game equal to the
    share of games with one in both runs (never more than one a game: one number twice). In a game with roles, a seat's win share or an end reason's share that equals a
    role's win share in both runs (a one-seat role's seat; an end reason that is that role's win,
    as Seigneurial's "Seigneur goal" was before its tie-break wins had an end reason of their own):
    the same number, tested once, as the role's; of two roles
    whose win shares add up to 100% in both runs, the second (revB #10)."""
    drop: list[tuple[str, str, str, str]] = []
    founded = {r["key"]: max(r["estimate"], r["estimate_v"]) for r in
               j.filter(pl.col("metric") == "guild_founded_share").iter_rows(named=True)}
    for r in j.filter(pl.col("metric") == "guild_founders_win_share").iter_rows(named=True):
        if founded.get(r["key"], 1.0) < stats.MIN_SUPPORT:
            drop.append((r["metric"], r["key"], r["label"], "a share of almost nobody: the guild is "
                         f"founded by under {stats.MIN_SUPPORT:.0%} of players in both runs"))
    constant = set()
    for r in j.filter(pl.col("kind").is_in(["proportion", "mean"])).iter_rows(named=True):
        # the same value in every game of both runs (the shipped rules reshuffle exactly twice at 3
        # players, never at 4; no game ends in a shared win; a card that only moves tiles gains no
        # coin and never changes the leader): nothing can move, so nothing is tested (rev22 #3,
        # revF #5: one rule for every metric, so the family Holm and Bonferroni run over holds only
        # metrics that can move)
        if _constant(r):
            constant.add((r["metric"], r["key"]))
            what = (f"{r['estimate']:g} a game" if r["metric"] == "count_mean"
                    else f"always {r['estimate']:g}" if r["kind"] == "mean"
                    else "in every game" if r["estimate"] == 1 else "in no game")
            drop.append((r["metric"], r["key"], r["label"], f"the same in every game of both runs ({what}): "
                         "it cannot move"))
    shares = {r["key"]: r for r in j.filter(pl.col("metric") == "count_share").iter_rows(named=True)}
    for r in j.filter(pl.col("metric") == "count_mean").iter_rows(named=True):
        s = shares.get(r["key"])
        if (r["metric"], r["key"]) in constant:
            continue
        if s is not None and r["estimate"] == s["estimate"] and r["estimate_v"] == s["estimate_v"]:
            # never more than one per game on either side: the mean is the share, one number
            drop.append((r["metric"], r["key"], r["label"], f"the same number as {s['label']}: never "
                         "more than one a game"))
    # a shared win that is one of the game's endings in both runs (Fief's mutual wipe-out: the
    # same games), tested once, as the ending (review Q #6: counted twice in "7 of the 8 moved")
    ends = j.filter(pl.col("metric") == "end_reason_share")
    for r in j.filter(pl.col("metric") == "shared_wins").iter_rows(named=True):
        if (r["metric"], r["key"]) in constant:
            continue
        for e in ends.iter_rows(named=True):
            if (r["n"] == e["n"] and r["n_v"] == e["n_v"] and abs(r["estimate"] - e["estimate"]) < 1e-12
                    and abs(r["estimate_v"] - e["estimate_v"]) < 1e-12):
                drop.append((r["metric"], r["key"], r["label"], f"the same number as {e['label']}: a shared "
                             "win is that ending"))
                break
    if roles:
        anchors = j.filter(pl.col("metric") == "role_win_share")
        if anchors.height == 2:      # two sides and no shared win: the second is 1 − the first
            a, c = anchors.row(0, named=True), anchors.row(1, named=True)
            if abs(a["estimate"] + c["estimate"] - 1) < 1e-12 and abs(a["estimate_v"] + c["estimate_v"] - 1) < 1e-12:
                drop.append((c["metric"], c["key"], c["label"], f"100% minus {a['label']}"))
        # (a strategy that is its role's only bot, Fief's attacker and defender, repeats its side's
        # share: review M #5 counted one fact three times)
        for r in j.filter(pl.col("metric").is_in(["seat_win_share", "end_reason_share",
                                                  "strategy_win_share"])).iter_rows(named=True):
            for a in anchors.iter_rows(named=True):
                if _same_number(r, a):
                    drop.append((r["metric"], r["key"], r["label"], f"the same number as {a['label']}"))
                    break
    # a bot that holds one seat in every game (seats not rotated) has that seat's win share: the
    # same number, tested once, as the seat's (paired) share (review s48 SG #2: "Seat 3 win share
    # … clear but small" beside "dutiful win share … within noise", one number)
    gone_already = {(m, k) for m, k, _, _ in drop}
    seats = [a for a in j.filter(pl.col("metric") == "seat_win_share").iter_rows(named=True)
             if (a["metric"], a["key"]) not in gone_already or not roles]
    for r in j.filter(pl.col("metric") == "strategy_win_share").iter_rows(named=True):
        if (r["metric"], r["key"]) in gone_already:
            continue
        for a in seats:
            if _same_number(r, a):
                drop.append((r["metric"], r["key"], r["label"], f"the same number as {a['label']}: "
                             "the bot holds that seat in every game"))
                break
    if not drop:
        return j, []
    gone = pl.DataFrame([(m, k) for m, k, _, _ in drop], schema=["metric", "key"], orient="row")
    return j.join(gone, on=["metric", "key"], how="anti", maintain_order="left"), \
        [(lab, why) for _, _, lab, why in drop]


def _same_number(r: dict, a: dict) -> bool:
    """Whether joined rows ``r`` and ``a`` are one number: the same games and the same estimate in
    both runs, and not a share of none or all of the games in both (a coincidence, and constant
    anyway). One run at 0 is enough (review s48 SG #3: a Seigneur who never wins under the shipped
    rules at 5 players, 0 → 0.34%, was tested as his side, his seat and an ending: three times)."""
    return (r["n"] == a["n"] and r["n_v"] == a["n_v"]
            and (0 < a["estimate"] < 1 or 0 < a["estimate_v"] < 1)
            and abs(r["estimate"] - a["estimate"]) < 1e-12
            and abs(r["estimate_v"] - a["estimate_v"]) < 1e-12)


def _constant(r: dict) -> bool:
    """Whether a joined row (``estimate``, ``ci_low``, ``ci_high`` of the baseline, the same with
    ``_v`` of the variant) is the same in every game of both runs, with the same value on both
    sides: a share of 0 or 1 (none or all of the games), a mean whose interval is a point (a
    standard deviation of 0: every game the same). Such a row cannot move, so it is not tested."""
    if r["n"] < 1 or r["n_v"] < 1 or r["estimate"] != r["estimate_v"]:
        return False
    if r["kind"] == "proportion":
        return r["estimate"] in (0.0, 1.0)
    return all(r[f"ci_low{s}"] == r[f"estimate{s}"] == r[f"ci_high{s}"] for s in ("", "_v"))


def _paired_t(n: float, mean: float, sd: float, level: float = stats.LEVEL) -> tuple[float, float, float, float]:
    """(low, high, t, two-sided p) of the one-sample t interval and test of per-game differences
    with mean ``mean`` and sample sd ``sd`` over ``n`` games: mean ± t(n−1)·sd/√n (the paired t
    test). A constant difference (sd 0) is a point: p is 1 when it is 0, else 0."""
    if not sd > 0:
        return mean, mean, (0.0 if mean == 0 else np.sign(mean) * np.inf), (1.0 if mean == 0 else 0.0)
    se = sd / np.sqrt(n)
    q = stats.t_quantile(float(n - 1), level)
    t = mean / se
    return mean - q * se, mean + q * se, t, 2 * stats.t_sf(abs(t), float(n - 1))


def _size_intervals(diff, dlo, dhi, p, alpha: float, welch_sd: dict, runs, paired: dict | None = None,
                    family_size=None) -> tuple[np.ndarray, np.ndarray]:
    """The intervals the verdicts' sizes are read on: each tested metric's own interval at the
    Bonferroni level 1 − alpha/m over the m tested metrics of its family (``family_size``, row by
    row; all tested rows when not given: the family Holm's correction runs over; Bonferroni is
    wider than any of Holm's steps, so conservative for it). Welch's interval is
    recomputed at that level (its t quantile); every other interval (normal, the tie-aware Wald,
    Newcombe's) is widened about the difference by z(1 − alpha/(2m)) / z(0.975), each end
    separately (exact for the normal ones; for Newcombe's score interval the same widening of its
    two sides); a paired row's t interval at that level (``paired``: row → (n, mean, sd)). nan for
    an untested row."""
    if family_size is None:
        family_size = np.full(np.shape(p), int(np.isfinite(p).sum()))
    m = np.maximum(np.asarray(family_size, dtype=float), 1.0)
    z = {k: stats.z_quantile(1.0 - alpha / k) for k in set(m.tolist())}      # (one per family size)
    c = np.array([z[k] for k in m.tolist()], dtype=float) / _Z
    slo = np.where(np.isfinite(p), diff - (diff - dlo) * c, np.nan)
    shi = np.where(np.isfinite(p), diff + (dhi - diff) * c, np.nan)
    e1, n1, e2, n2 = runs
    for i, (sd1, sd2) in welch_sd.items():
        _, slo[i], shi[i], _ = stats.welch(e2[i], sd2, n2[i], e1[i], sd1, n1[i], level=1.0 - alpha / m[i])
    for i, (n, mean, sd) in (paired or {}).items():
        if np.isfinite(p[i]):
            slo[i], shi[i], _, _ = _paired_t(n, mean, sd, level=1.0 - alpha / m[i])
    return slo, shi


def factor_interval(x1: int, n1: float, x2: int, n2: float,
                    level: float = stats.LEVEL) -> tuple[float, float]:
    """The exact conditional ``level`` interval of the factor R = (x2 / n2) / (x1 / n1) by which a
    rare share moved from ``x1`` of ``n1`` games (before) to ``x2`` of ``n2`` (after), the two runs'
    games independent: given x1 + x2 = s, x2 is Binomial(s, π) with π = R·n2 / (n1 + R·n2), so the
    Clopper-Pearson interval of π (:func:`analysis.stats.clopper_pearson`) gives R's, R = π·n1 / ((1 − π)·n2).
    Exact for two Poisson counts and, for two binomial shares, close to it where they are small (a
    side that wins under 1 pp of games); at least ``level`` coverage either way (Clopper-Pearson
    is conservative). 0 below when x2 = 0 (it never wins after), inf above when x1 = 0; (0, inf)
    when both are 0. Two runs of the same deals (paired) are read here as independent too: their
    own pairing is not used."""
    s = int(x1) + int(x2)
    if s == 0 or n1 <= 0 or n2 <= 0:
        return 0.0, float("inf")
    lo, hi = stats.clopper_pearson(int(x2), s, level)
    low = lo * n1 / ((1.0 - lo) * n2)
    high = float("inf") if hi >= 1.0 else hi * n1 / ((1.0 - hi) * n2)
    return low, high


def paired_factor_interval(old: float, new: float, se_diff: float, n: int,
                           level: float = stats.LEVEL, se_old: float | None = None,
                           se_new: float | None = None) -> tuple[float, float] | None:
    """The ``level`` interval of the factor R = new / old by which a rare share moved between two
    rule sets played on the same ``n`` units (deals: paired mode of ``balance check``), from the
    two shares (fractions, means over the units), the standard error of their mean paired
    difference and, where the units are not single games, each side's own standard error
    (``se_old``, ``se_new``; each the units' sample standard deviation / √n, in the same fraction).

    For units that are each one game's 0 or 1 the paired counts are x_old = n·old and x_new = n·new
    games won, and b + c = Σ dᵢ² = n·((n − 1)·se_diff² + d²) the games won under one rule set only
    (d = new − old); the delta method gives var(log R̂) = (b + c) / (x_old · x_new), the two
    shares' correlation over the same deals cut out (which :func:`factor_interval`, reading them
    as independent, keeps). With an add-one adjustment, one game added to each side's wins and
    two to the discordant ones, R̂ = (x_new + 1) / (x_old + 1) and var = (b + c + 2) / ((x_old +
    1)(x_new + 1)), the interval covers R in 91.5-99 % of samples from 3 expected wins on a side
    up, 94.6-95.7 % from 20 (paired binomial simulations, n = 2,000-128,000 deals, shares
    0.3-0.5 %, factors 0.25-4, in tests/check/test_s61_paired_factor.py), where the plain delta
    method covered 79 % at 7 expected wins.

    Units that are means (a deal of k rotated games, a tie split) are counted in wins of
    their own size w = (Σ oldᵢ² + Σ newᵢ²) / (Σ oldᵢ + Σ newᵢ), read off the sides' errors (1 for
    0/1 games, 1/k for a deal of k games with one won, less for a split tie): x = n·share / w and
    b + c = Σ dᵢ² / w², so one win added is one game, not one deal (session 62: counted in deals,
    the adjustment was k games, and on deals of 2-5 games with ties split the interval covered
    99.6-100 % at factor 1 up to 20 expected wins, up to 2.1 times as wide as it needs; now
    93.0-100 % from 3 expected wins up, 94.7-97.7 % from 20: 2,000 simulated checks a cell,
    benchmarks/paired_factor_coverage.py, docs/ci.md; tests/check/test_s62_rotated_factor.py).
    Without the sides' errors w = 1. None when a side never won, or an error is not known."""
    errors = (se_diff,) + tuple(e for e in (se_old, se_new) if e is not None)
    if not all(isinstance(v, (int, float)) and math.isfinite(v) for v in (old, new) + errors):
        return None
    if not (old > 0 and new > 0 and n >= 2 and min(errors) >= 0):
        return None
    # Σ uᵢ² of n units with mean m and standard error se (sample sd / √n): n·((n − 1)·se² + m²)
    def squares(m: float, se: float) -> float:
        return n * ((n - 1) * se * se + m * m)

    size = 1.0
    if se_old is not None and se_new is not None:
        size = (squares(old, se_old) + squares(new, se_new)) / (n * (old + new))
    x_old, x_new = old * n / size, new * n / size
    disc = squares(new - old, se_diff) / (size * size)
    z = stats.z_quantile(level)
    log_r = math.log((x_new + 1.0) / (x_old + 1.0))
    half = z * math.sqrt((disc + 2.0) / ((x_old + 1.0) * (x_new + 1.0)))
    return math.exp(log_r - half), math.exp(log_r + half)


def compare(base: RunSet, variant: RunSet, alpha: float = ALPHA) -> pl.DataFrame:
    """Analyse two run sets and compare them (see :func:`compare_tables`)."""
    from analysis import analyse

    return compare_tables(analyse(base), analyse(variant), alpha, game=base.game)


# ---------------------------------------------------------------------------------------------
# Count metrics of the games table (reshuffles), and the paired pass over the same deals
# ---------------------------------------------------------------------------------------------

def _count_words(column: str) -> tuple[str, str]:
    """(plural, singular) of a count column's name: ``reshuffles`` → reshuffles, reshuffle."""
    plural = column.replace("_", " ")
    return plural, plural[:-1] if plural.endswith("s") else plural


def _count_labels(col) -> tuple[str | None, str]:
    """The labels of a ``count_per_game`` column's two rows (:func:`count_vector`): the mean per
    game (None for a ``bool`` column: 0 or 1 a game, its mean is the share) and the share of
    games with at least one. A ``bool`` column's share reads with its ``display`` words (Fief's
    ``by_mercy``: "Games ended by the loser's surrender (mercy granted)")."""
    plural, singular = _count_words(col.name)
    if col.dtype == "bool":
        return None, f"Games {col.display}" if col.display else f"Games with {singular}"
    return f"Mean {plural} per game", f"Games with at least one {singular}"


def _games_column_counts(rs: RunSet, column: str) -> tuple[np.ndarray, np.ndarray] | None:
    """(values, games holding each) of a games column: the statistics' histogram (``g:<column>``,
    summed over its cells) or the rows; None when the statistics have none."""
    if rs.from_stats:
        h = rs.stats.valued.get(f"g:{column}")
        if h is None or h.a.size == 0:
            return None
        return h.values, h.a.reshape(-1, h.a.shape[-1]).sum(axis=0)
    x = collect(rs.games([column]).select(pl.col(column).cast(pl.Float64)))[column].to_numpy()
    return np.unique(x, return_counts=True)


def count_vector(rs: RunSet) -> pl.DataFrame:
    """Rows of :func:`metric_vector`'s shape for every ``count_per_game`` column of the games
    table (:func:`analysis.length.count_columns`: Middle-Ages' and Médiévallons' ``reshuffles``):
    ``count_mean`` (the mean per game, t interval) and ``count_share`` (the share of games with at
    least one, Wilson), from the statistics or the rows."""
    rows = []
    for col in rs.role_columns("count_per_game", "games"):
        c = col.name
        got = _games_column_counts(rs, c)
        if got is None:
            continue
        values, counts = got
        mom = stats.Moments.of_counts(values, counts)
        some = int(counts[values > 0].sum())
        n = int(mom.n)
        if n < 2:
            continue
        mean, sd = mom.mean_sd()
        u = float(rs.games_per_unit)     # a rotated run's deals weigh as one game each
        lo, hi = stats.t_interval(mean, sd, n / u)
        slo, shi = stats.wilson(some / u, n / u)
        mean_label, share_label = _count_labels(col)
        if mean_label is not None:
            rows.append(("count_mean", c, mean_label, "mean", float(mean), float(lo), float(hi), n))
        rows.append(("count_share", c, share_label, "proportion", some / n, float(slo), float(shi), n))
    return pl.DataFrame(rows, schema=VECTOR_SCHEMA, orient="row")


def length_vector(rs: RunSet) -> pl.DataFrame:
    """The row of :func:`metric_vector`'s shape for a game length not in turns
    (:func:`analysis.length.other_length_column`: a Fief combat's rounds), which the length tables
    leave out: ``mean_length``, keyed by its unit, the mean per game with its t interval, from the
    statistics (the games column's histogram) or the rows. Empty for a game whose length is in
    turns (``mean_turns``) or that has none."""
    from analysis.length import other_length_column

    col = other_length_column(rs)
    rows = []
    got = _games_column_counts(rs, col.name) if col is not None else None
    if got is not None:
        mom = stats.Moments.of_counts(*got)
        if int(mom.n) >= 2:
            mean, sd = mom.mean_sd()
            lo, hi = stats.t_interval(mean, sd, int(mom.n) / rs.games_per_unit)
            rows.append(("mean_length", col.unit, "Mean length", "mean", float(mean),
                         float(lo), float(hi), int(mom.n)))
    return pl.DataFrame(rows, schema=VECTOR_SCHEMA, orient="row")


def _deals(metas) -> list[tuple]:
    """The deals a run set plays, run by run: (seed, first game, games, line-up)."""
    return sorted((str(m.get("seed")), int(m.get("first_game") or 0), int(m.get("games") or 0),
                   tuple(m.get("strategies") or ())) for m in metas)


def _unpaired_why(base: RunSet, variant: RunSet) -> tuple[str, bool]:
    """Why two run sets cannot be paired from their rows ('' when they can), and whether it is only
    that a side kept no rows (then a sweep's sums may pair them: :func:`sweep_pairing`); read from
    run.json and the files present, no row read."""
    from simcore.rundir import GAMES, PLAYERS

    db, dv = _deals(base.metas), _deals(variant.metas)
    if [d[:3] for d in db] != [d[:3] for d in dv]:
        return "the two runs played different deals (seeds or game numbers differ)", False
    if db != dv:
        return "the line-up of bots differs, so game N is not the same game", False
    if any(m.get("rotate_seats") for m in (*base.metas, *variant.metas)):
        return "seats rotate within deals, so games are not independent units", False
    said, lacking = [], []
    for rs in (base, variant):
        # which rows are missing (review S: a --no-raw run keeps games.parquet, one row per game,
        # and was said to keep "no per-game rows"); the pairing needs both tables. Both sides are
        # named when both lack them (review s49 summary-only #2: only the first was, and simulating
        # that one again with --raw still left the comparison unpaired)
        gone = [name for name, f in (("players.parquet", PLAYERS), ("games.parquet", GAMES))
                if not all((p / f).is_file() for p in rs.paths)]
        if gone:
            said.append((rs.label, " or ".join(gone)))
            lacking += [m for p, m in zip(rs.paths, rs.metas) if not (p / PLAYERS).is_file()]
    # the flag that left the rows out (session 60 #2: "simulate with --raw" for --no-raw runs of
    # 20,000 games, whose rows the default keeps)
    flag = rows_flag(lacking)
    if len(said) == 2:
        (a, ga), (b, gb) = said
        kept = f"neither {a} nor {b} kept {ga}" if ga == gb else f"{a} kept no {ga} and {b} no {gb}"
        return f"{kept} (simulate both {flag} to pair)", True
    if said:
        return f"{said[0][0]} kept no {said[0][1]} (simulate {flag} to pair)", True
    return "", False


def can_pair_rows(base: RunSet, variant: RunSet) -> bool:
    """Whether :func:`pairing` would pair the two run sets from their rows (the same deals and
    line-up, no rotation, players.parquet and games.parquet on both sides), without reading a row."""
    return not _unpaired_why(base, variant)[0]


def pairing(base: RunSet, variant: RunSet) -> Pairing:
    """Whether ``base`` and ``variant`` can be compared game by game, and the per-game differences
    when they can: the same deals (run.json: the same seeds and game numbers, so game N of each
    side starts from the same random stream — common random numbers), the same line-up of bots,
    seats not rotated within deals (games of a deal are not independent), and per-game rows
    (players.parquet and games.parquet) on both sides covering the same games. Otherwise an
    unpaired :class:`Pairing` saying why."""
    why, rows_missing = _unpaired_why(base, variant)
    if rows_missing:
        from_sums = sweep_pairing(base, variant)
        if from_sums is not None:
            return from_sums
    if why:
        return Pairing(False, why=why)
    return _paired_moments(open_runs_rows(base), open_runs_rows(variant))


def sweep_pairing(base: RunSet, variant: RunSet) -> Pairing | None:
    """Two variants of one sweep played together without rows (``SWEEP/variants/vNNN``, the
    sweep's ``paired_stats.json`` holding the cross-products of the two: variants of one parameter's
    chain, :mod:`analysis.sweep.joint`), paired from those exact sums: the seat and role win shares
    and the game length, each the mean and sd of the per-game difference after − before over the
    same games. None when the two are not such variants, or the sums do not hold them as played
    (other games, seed or rules): the caller then compares them unpaired."""
    from analysis.sweep.joint import JOINT_FILE, JointSums
    from analysis.sweep.metrics import share_metrics
    from analysis.length import length_column
    from analysis.load import seat_label

    if len(base.paths) != 1 or len(variant.paths) != 1:
        return None
    a, b = Path(base.paths[0]).resolve(), Path(variant.paths[0]).resolve()
    sweep = a.parent.parent
    if a.parent.name != "variants" or b.parent != a.parent or not (sweep / JOINT_FILE).is_file():
        return None
    try:
        joint = JointSums.read(sweep / JOINT_FILE)
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None
    if not joint.has_pair(a.name, b.name) or joint.n != base.n_games or joint.n != variant.n_games:
        return None
    for name, rs in ((a.name, base), (b.name, variant)):
        meta = rs.metas[0]
        if joint.played(name, meta.get("seed"), meta.get("rules_sha256")) is not None:
            return None
    from simcore import games as registry

    spec = registry.specs().get(base.game)
    wanted = {}
    for m, seats in share_metrics(spec, base.n_players):
        if m.key.startswith("seat_win_share_"):
            wanted[m.key] = ("seat_win_share", seat_label(seats[0]))
        else:
            wanted[m.key] = ("role_win_share", m.key.removeprefix("role_win_share_"))
    if length_column(base) is not None and length_column(variant) is not None:
        wanted["game_length"] = ("mean_turns", "all")
    usable = set(joint.usable(a.name)) & set(joint.usable(b.name))
    out = {}
    for key, row in wanted.items():
        if key not in usable:
            continue
        n, mean, cov = joint.moments([(a.name, key), (b.name, key)])
        var = max(float(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), 0.0)
        out[row] = (float(n), float(mean[1] - mean[0]), float(np.sqrt(var)))
    if not out:
        return None
    return Pairing(True, games=joint.n, moments=out, source="sums")


def open_runs_rows(rs: RunSet) -> RunSet:
    """``rs`` read from its rows (players.parquet, games.parquet), whatever it was opened from."""
    if not rs.from_stats:
        return rs
    from analysis.load import open_runs

    return open_runs(rs.paths, label=rs.label, source="rows")


def _game_keys(rs: RunSet, run: np.ndarray, game: np.ndarray, seeds: dict) -> np.ndarray:
    """A key per game naming its deal across both sides: (seed, game number)."""
    sid = np.array([seeds.setdefault(str(m.get("seed")), len(seeds)) for m in rs.metas], np.int64)
    return sid[run] * (1 << 40) + game


def _per_game(rs: RunSet, lo: int | None, hi: int | None, seeds: dict) -> tuple[np.ndarray, dict]:
    """(deal keys, {(metric, key): per-game values}) of the games numbered lo ≤ game < hi (all
    with None): the :data:`PAIRED_METRICS` with the same keys as :func:`metric_vector`'s rows."""
    from analysis import length, roles, seats
    from analysis.load import _game_rows, game_major, seat_label

    from analysis.guilds import guild_columns

    n = rs.n_players
    has_roles = roles.has_roles(rs)
    founded = guild_columns(rs)
    lf = rs.players(["game", "seat", "score", "win_share", *([roles._role_column(rs)] if has_roles else []),
                     *founded])
    if has_roles:
        lf = lf.with_columns(roles._role_expr(rs))
    if lo is not None:
        lf = lf.filter((pl.col("game") >= lo) & (pl.col("game") < hi))
    df = collect(lf)
    if df.height == 0:
        return np.zeros(0, np.int64), {}
    df = game_major(rs, df, n)
    G = df.height // n
    run = df["run"].to_numpy()[::n].astype(np.int64)
    game = df["game"].to_numpy()[::n].astype(np.int64)
    w = df["win_share"].cast(pl.Float64).to_numpy().reshape(G, n)
    score = df["score"].to_numpy().reshape(G, n)
    out: dict = {}
    for s in range(n):
        out[("seat_win_share", seat_label(s))] = w[:, s]
        out[("seat_mean_score", seat_label(s))] = score[:, s].astype(float)
    if has_roles:
        for r in df["role"].drop_nulls().unique(maintain_order=True):
            mine = (df["role"] == r).fill_null(False).to_numpy().reshape(G, n)
            out[("role_win_share", str(r))] = np.where(mine, w, 0.0).sum(axis=1)
    out[("shared_wins", "all")] = (seats.row_max(w) < 1.0 - seats._SHARED_EPS).astype(float)
    best = seats.row_max(score)
    count, _ = seats.top_seat(score, best)
    out[("score_spread", "all")] = np.clip(best.astype(np.int64) - seats.runner_up(score, best, count), 0,
                                           seats.OutcomeAccumulator.MAX_SPREAD).astype(float)
    turns, why = length.length_column(rs), length.reason_column(rs)
    other = length.other_length_column(rs)
    counts = length.count_columns(rs)
    gcols = [c for c in (turns, other.name if other is not None else None,
                         why.name if why is not None else None, *counts) if c]
    g = _game_rows(rs, gcols, run, game) if gcols else {}
    if turns:
        out[("mean_turns", "all")] = g[turns].astype(float)
    if other is not None:
        out[("mean_length", other.unit)] = g[other.name].astype(float)
    if why is not None:
        names = length.end_reason_names(rs)
        codes = g[why.name].astype(float)
        for code in sorted(set(names) | {int(c) for c in np.unique(codes[np.isfinite(codes)])}):
            out[("end_reason_share", length._name(names, code))] = (codes == code).astype(float)
    for col in rs.role_columns("count_per_game", "games"):
        x = g[col.name].astype(float)
        if _count_labels(col)[0] is not None:
            out[("count_mean", col.name)] = x
        out[("count_share", col.name)] = (x > 0).astype(float)
    for c in founded:       # a guild type: the share of the game's players founding one, their wins
        hit = (df[c].to_numpy() > 0).reshape(G, n)
        out[("guild_founded_share", str(rs.type_key(c)))] = hit.mean(axis=1)
        out[(FOUNDERS_WINS, str(rs.type_key(c)))] = np.where(hit, w, 0.0).sum(axis=1)
    return _game_keys(rs, run, game, seeds), out


def _paired_moments(base: RunSet, variant: RunSet) -> Pairing:
    """The per-game differences variant − base of every :data:`PAIRED_METRICS` row, game by game
    over the same deals, read a range of game numbers at a time (:data:`analysis.load.
    ROWS_PER_CHUNK` player rows, as :func:`analysis.load.run_pass`); unpaired when the two sides'
    rows do not hold the same games."""
    from analysis.load import ROWS_PER_CHUNK, _chunk_ranges

    seeds: dict = {}
    moments: dict = {}
    games = 0
    for span in _chunk_ranges(base, ROWS_PER_CHUNK):     # (the game numbers a pass reads at once)
        a, b = span if span is not None else (None, None)
        kb, xb = _per_game(base, a, b, seeds)
        kv, xv = _per_game(variant, a, b, seeds)
        if len(kb) != len(kv) or not np.array_equal(np.sort(kb), np.sort(kv)):
            return Pairing(False, why="the two runs' per-game rows do not hold the same games")
        ib, iv = np.argsort(kb, kind="stable"), np.argsort(kv, kind="stable")
        games += len(kb)
        for key in xb.keys() & xv.keys():
            d = xv[key][iv] - xb[key][ib]
            if not np.isfinite(d).all():
                continue
            m = stats.Moments.of(d)
            moments[key] = m if key not in moments else moments[key].merge(m)
    if games != base.n_games or games != variant.n_games:
        return Pairing(False, why="the two runs' per-game rows do not hold the same games")
    out = {}
    for key, m in moments.items():
        if float(m.n) == games:          # a metric on some chunks only is not paired
            mean, sd = m.mean_sd()
            out[key] = (float(m.n), float(mean), float(sd))
    return Pairing(True, games=games, moments=out)
