"""Seigneurial tables: which objective cards are too easy or too hard, and what the land
improvements change (SG-2, SG-5.6, SG-6, SG-8).

:func:`objective_table`: per Objective card (the players' ``objective`` column indexes the rules'
``objectives.cards``, run.json ``rules_text``), how often a Censitaire holding it wins, with its
Wilson interval (``ci_low``, ``ci_high``: the card's own share, unadjusted), the average Censitaire's
share beside it (``censitaire_share``, ``diff``) and ``significant``: whether the card is clear of
that average as the page decides it (:func:`adjusted_objectives` over the distinct cards, Holm's
correction; a copy of an identical card carries its pooled card's decision), not whether its Wilson
interval leaves the average; its holders' mean progress toward it (``score``, % of the card's
requirement) and, where the run kept its player rows or its objectives summary, the share of its
holders that reached it (``score`` = 100: every type held in full). Each card is dealt at most once
per game, so its player rows come from independent games.
:func:`distinct_cards`: the same table with identical cards (the same requirement per type, run.json
``objectives``; the default deck holds three "each type ≥ 4") pooled into one row: copies of one
card are one card to a designer, and a ranking must not pick one copy out of them.
:func:`card_p_values`: each card's test against the average Censitaire (the exact two-sided
binomial test of its wins where the games are independent and no win is shared, else the score
test). :func:`adjusted_objectives`: the one decision the page's table, headlines and figure colours
and ``balance export --what objectives`` read: which cards are clear of the average (Holm over the
tested cards) and the size of each difference in words (SG-2), read on :func:`card_size_interval`
(the card's own exact interval, Wilson's where a win was shared or the seats rotated, at 1 −
0.05/cards, minus the average).
:func:`not_told_apart`: the distinct cards whose win share cannot be told from the easiest's (the
hardest's).
:func:`improvement_table`: how many games are played on with the land improvements (the Seigneur
reached the midpoint, games' ``improvement_turn`` ≥ 0, and at least one turn followed: the
improvements come at the end of that turn, SG-5.6, after which SG-6 may end the game before they
ever act), when they came, and who wins those games against the games that end before the
improvements act; and how many reach the midpoint at all (``reached``, those that end on that
very turn among them: at 5 players more than half, review s46 #2). These are associations under
bot play: a game that ends before the improvements is a short game, and short games favour
whoever is quick to their goal. :func:`seigneur_certain`: whether the Seigneur's share of the games
that end before the improvements act is 0 by the rules (SG-1, SG-5.6, SG-6), printed and exported
without an interval.
:func:`square_table`: the Seigneur's final square on the rent track (games' ``seigneur_square``).

:func:`tables` is the hook :func:`analysis.analyse` calls (through the spec's ``analysis_hooks``,
:mod:`analysis.questions.seigneurial`, which re-exports it);
:func:`available` says which of them a run has and :func:`table` computes one (``balance export``).

May import polars, numpy, the standard library, :mod:`analysis.load`, :mod:`analysis.stats`,
:mod:`simcore.config` (run.json's rules text read as the rules files are: ``toml_loads``) and
:mod:`simcore.games.seigneurial.rules` (a card's requirement in words, as the replay words it).
The spec's ``analysis_hooks`` is :mod:`analysis.questions.seigneurial`, which plays the card ablation
of ``balance questions`` and re-exports this module's table hooks (the report imports this module,
never the one that plays).
"""

from __future__ import annotations

import tomllib

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import PLAYERS, RunSet, collect, int_moments
from simcore.config import toml_loads

SEIGNEUR, CENSITAIRE = "seigneur", "censitaire"
TABLES = ("objectives", "improvements", "seigneur_squares")    # what :func:`tables` may give
#: What each table holds, in a designer's words (``balance export --what`` names them so)
TABLE_WORDS = {"objectives": "Objective cards", "improvements": "land improvements",
               "seigneur_squares": "Seigneur squares"}


def objective_labels(rs: RunSet) -> dict[int, str]:
    """Objective index → its requirement in words (``grain ≥ 6, wood ≥ 4``), from the rules text
    in run.json; ``Objective k`` when the text is missing or unreadable."""
    try:
        from simcore.games.seigneurial.rules import objective_label    # the replay's words too

        cards = toml_loads(rs.metas[0].get("rules_text") or "")["objectives"]["cards"]
        return {i: objective_label(card) for i, card in enumerate(cards)}
    except (tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError):
        return {}


def objective_requirements(rs: RunSet) -> dict[int, tuple]:
    """Objective index → its requirement as a tuple of (type, amount) pairs in a fixed type order,
    from run.json ``objectives`` (amounts per ``resource_types``), else the rules text; {} when
    neither is readable (then no two cards are known to be identical)."""
    meta = rs.metas[0]
    table, types = meta.get("objectives"), meta.get("resource_types")
    if isinstance(table, list) and isinstance(types, list):
        try:
            return {i: tuple((t, int(v)) for t, v in zip(types, row) if v) for i, row in enumerate(table)}
        except (TypeError, ValueError):
            pass
    try:
        cards = toml_loads(meta.get("rules_text") or "")["objectives"]["cards"]
        return {i: tuple(sorted((k, int(v)) for k, v in card.items() if v)) for i, card in enumerate(cards)}
    except (tomllib.TOMLDecodeError, KeyError, TypeError, AttributeError, ValueError):
        return {}


def has_objectives(rs: RunSet) -> bool:
    return rs.has("objective", "role", "win_share")


def _is_censitaire() -> pl.Expr:
    return pl.col("role").cast(pl.Utf8) == CENSITAIRE


_OBJECTIVE_COLUMNS = ("objective", "label", "same_as", "dealt", "wins", "win_share", "ci_low", "ci_high",
                      "censitaire_share", "diff", "significant", "mean_progress", "progress_sd",
                      "progress_ci_low", "progress_ci_high", "reached", "reached_share", "reached_ci_low",
                      "reached_ci_high")


def objective_table(rs: RunSet) -> pl.DataFrame:
    """One row per Objective card dealt, easiest first.

    Columns: objective (index in the rules' deck), label, same_as (the lowest index of a card with
    the same requirement: the card itself when it has no copy), dealt (player-games of a Censitaire
    holding it), wins (Σ win_share), win_share, ci_low, ci_high (Wilson), censitaire_share (every
    Censitaire's win share: the average card), diff (win_share − censitaire_share), significant
    (clear of the average as the page decides it: :func:`adjusted_objectives` over the distinct
    cards, a copy of an identical card carrying its pooled card's result), mean_progress, progress_sd, progress_ci_low,
    progress_ci_high (mean ``score`` of its holders at the end, % of the card's requirement held;
    t interval: not the share that reached it), reached (holders ending with ``score`` = 100, the
    whole requirement held; a winner always has, and so has a Censitaire that reached it on the
    turn the Seigneur or a richer Censitaire won, SG-6), reached_share, reached_ci_low,
    reached_ci_high (Wilson over the holders). Without player rows the reached counts come from
    objectives_summary.parquet (every run written since it exists); the reached columns are null
    only for a run without rows written before.
    """
    if rs.from_stats:
        st = rs.stats
        seats = [i for i, r in enumerate(st.layout["seat_roles"]) if r == CENSITAIRE]
        v = st.valued["n:objective"].values
        n_v, w_v, s_v, q_v = (st.valued[f"{p}:objective"].a[seats].sum(axis=0) for p in "nwsq")
        keep = n_v > 0
        mean, m2 = int_moments(n_v[keep], s_v[keep], q_v[keep])
        with np.errstate(invalid="ignore", divide="ignore"):
            sd = np.where(n_v[keep] > 1, np.sqrt(np.maximum(m2, 0) / (n_v[keep] - 1)), np.nan)
        agg = pl.DataFrame({"objective": v[keep], "dealt": n_v[keep],
                            "wins": w_v[keep] / st.layout["win_units"], "mean_progress": mean, "_sd": sd})
    else:
        lf = rs.players(["role", "objective", "win_share", "score"]).filter(_is_censitaire())
        agg = collect(lf.group_by("objective").agg(
            pl.len().alias("dealt"),
            pl.col("win_share").cast(pl.Float64).sum().alias("wins"),
            pl.col("score").cast(pl.Float64).mean().alias("mean_progress"),
            pl.col("score").cast(pl.Float64).std().alias("_sd"),
        ).sort("objective"))
    n = agg["dealt"].to_numpy().astype(float)
    wins = agg["wins"].to_numpy()
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    low, high = stats.wilson(wins / u, n / u)
    overall = wins.sum() / n.sum() if n.sum() else np.nan
    mean = agg["mean_progress"].to_numpy()
    sd = np.nan_to_num(agg["_sd"].to_numpy().astype(float), nan=0.0)
    p_low, p_high = stats.t_interval(mean, sd, n / u)
    labels = objective_labels(rs)
    needs = objective_requirements(rs)
    first: dict[tuple, int] = {}
    for i in sorted(needs):
        first.setdefault(needs[i], i)
    reached = _reached(rs, agg["objective"].to_list())
    r_low, r_high = (stats.wilson(reached / u, n / u) if reached is not None else (None, None))
    out = pl.DataFrame({
        "objective": agg["objective"].cast(pl.Int16),
        "label": [labels.get(int(i), f"Objective {int(i)}") for i in agg["objective"]],
        "same_as": pl.Series([first.get(needs.get(int(i)), int(i)) for i in agg["objective"]], dtype=pl.Int16),
        "dealt": agg["dealt"].cast(pl.Int64), "wins": wins, "win_share": wins / n,
        "ci_low": low, "ci_high": high, "censitaire_share": np.full(len(n), overall),
        "diff": wins / n - overall, "significant": (low > overall) | (high < overall),
        "mean_progress": mean, "progress_sd": sd, "progress_ci_low": p_low, "progress_ci_high": p_high,
    }, strict=False)
    # without player rows the reached columns are null (a Series built from None has no rows: it
    # cannot sit in the frame beside the cards' columns)
    nulls = [None] * out.height
    out = out.with_columns(
        pl.Series("reached", nulls if reached is None else reached, dtype=pl.Int64, strict=False),
        pl.Series("reached_share", nulls if reached is None else reached / n, dtype=pl.Float64),
        pl.Series("reached_ci_low", nulls if reached is None else r_low, dtype=pl.Float64),
        pl.Series("reached_ci_high", nulls if reached is None else r_high, dtype=pl.Float64))
    # a card is clear of the average Censitaire as the page decides it (review 225 #1: the export
    # said significant where the page said "within the noise"): over the distinct cards, a copy of
    # an identical card carrying its pooled card's result
    pooled = distinct_cards(out, rs.games_per_unit)
    clear = dict(zip(pooled["same_as"].to_list(), pooled["significant"].to_list()))
    out = out.with_columns(pl.Series("significant", [clear[k] for k in out["same_as"].to_list()],
                                     dtype=pl.Boolean)).select(_OBJECTIVE_COLUMNS)
    return out.sort(["win_share", "objective"], descending=[True, False])


REACHED = 100       # score of a holder holding its whole requirement (SG-2; score = % of own goal)


OBJECTIVES_SUMMARY = "objectives_summary.parquet"   # simcore.games.seigneurial.game.ObjectiveSummary


def _reached(rs: RunSet, objectives: list) -> np.ndarray | None:
    """Per objective (in the order given), how many Censitaire holders ended with the whole
    requirement held (``score`` ≥ 100), from the player rows, else from every run's
    objectives_summary.parquet (its sums, written at any size); None when a run has neither (a
    run without rows written before that file existed)."""
    if not all((p / PLAYERS).is_file() for p in rs.paths) or not rs.has("role", "objective", "score"):
        if not all((p / OBJECTIVES_SUMMARY).is_file() for p in rs.paths):
            return None
        found: dict[int, int] = {}
        for p in rs.paths:
            t = pl.read_parquet(p / OBJECTIVES_SUMMARY)
            for o, r in zip(t["objective"].to_list(), t["reached"].to_list()):
                found[int(o)] = found.get(int(o), 0) + int(r)
        return np.array([float(found.get(int(o), 0)) for o in objectives])
    got = collect(rs.players(["role", "objective", "score"]).filter(_is_censitaire()).group_by("objective")
                  .agg((pl.col("score") >= REACHED).sum().alias("reached")))
    found = dict(zip(got["objective"].to_list(), got["reached"].to_list()))
    return np.array([float(found.get(o, 0)) for o in objectives])


def distinct_cards(o: pl.DataFrame, games_per_unit: int = 1) -> pl.DataFrame:
    """:func:`objective_table` with identical cards (same ``same_as``) pooled into one row, easiest
    first: objective (the lowest index), same_as, cards (every index, as "#9, #10, #11"), copies,
    label, and the columns of :func:`objective_table` over the copies' holders together (sums,
    then share and Wilson interval; the pooled mean, standard deviation (within and between the
    copies) and t interval of progress). Copies dealt in one game count as separate holders: at
    most one of them wins, so the win-share interval is if anything too wide. ``games_per_unit``:
    the run's :attr:`analysis.load.RunSet.games_per_unit` (a rotated run's deal weighs as one game)."""
    o = o.sort("objective")
    groups = list(dict.fromkeys(o["same_as"].to_list()))
    rows = []
    for key in groups:
        part = o.filter(pl.col("same_as") == key)
        n_i = part["dealt"].to_numpy().astype(float)
        m_i = part["mean_progress"].to_numpy().astype(float)
        sd_i = np.nan_to_num(part["progress_sd"].to_numpy().astype(float))
        n = n_i.sum()
        mean = float((n_i * m_i).sum() / n)
        ss = float(((n_i - 1) * sd_i ** 2).sum() + (n_i * (m_i - mean) ** 2).sum())
        reached = part["reached"]
        rows.append({"objective": int(part["objective"][0]), "same_as": key,
                     "cards": ", ".join(f"#{c}" for c in part["objective"]), "copies": part.height,
                     "label": part["label"][0], "dealt": int(n), "wins": float(part["wins"].sum()),
                     "censitaire_share": float(part["censitaire_share"][0]), "mean_progress": mean,
                     "progress_sd": np.sqrt(ss / (n - 1)) if n > 1 else 0.0,
                     "reached": None if reached.null_count() else int(reached.sum())})
    g = pl.DataFrame(rows, schema_overrides={"reached": pl.Int64, "objective": pl.Int16, "same_as": pl.Int16})
    n = g["dealt"].to_numpy().astype(float)
    wins = g["wins"].to_numpy()
    overall = g["censitaire_share"].to_numpy()
    u = float(games_per_unit)
    low, high = stats.wilson(wins / u, n / u)
    p_low, p_high = stats.t_interval(g["mean_progress"].to_numpy(), g["progress_sd"].to_numpy(), n / u)
    reached = g["reached"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    r_low, r_high = stats.wilson(reached / u, n / u)

    def col(x):
        return pl.Series(x, dtype=pl.Float64).fill_nan(None)

    out = g.with_columns(
        pl.Series("win_share", wins / n), pl.Series("ci_low", low), pl.Series("ci_high", high),
        pl.Series("diff", wins / n - overall),
        pl.Series("progress_ci_low", p_low), pl.Series("progress_ci_high", p_high),
        col(reached / n).alias("reached_share"), col(r_low).alias("reached_ci_low"),
        col(r_high).alias("reached_ci_high"))
    out = adjusted_objectives(out, games_per_unit=games_per_unit).drop("p_value", "verdict", "size_low", "size_high")
    return out.sort(["win_share", "objective"], descending=[True, False])


def card_p_values(wins, dealt, censitaire_share, games_per_unit: int = 1
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(p_value, se) per Objective card of "its holders win as often as the average Censitaire"
    (SG-2): under that hypothesis a card's ``dealt`` holders (each dealt it in a different game:
    independent) win like ``dealt`` draws of chance c = ``censitaire_share``. Where the games are
    independent (``games_per_unit`` 1) and the card's wins are a whole number (no shared win), the
    exact two-sided binomial test of the wins against Binomial(dealt, c)
    (:func:`analysis.stats.binomial_test`, the Roles table's test); elsewhere the score test, z =
    (share − c) / se with the hypothesis's standard error se = √(c(1 − c) / n) over the run's
    units n (a rotated run's deal weighs as one game). ``se`` is that standard error in every
    case: it does not vanish when the holders win every game or none (the card's own binomial
    s.e. √(p(1 − p)/n) is 0 there, which left a card no holder ever won "within the noise of the
    average", designer review 225 #1). nan where c is 0 or 1 (no Censitaire ever won, or every one
    did: every card is the average) or nobody held the card."""
    w = np.asarray(wins, dtype=float)
    n = np.asarray(dealt, dtype=float)
    c = np.broadcast_to(np.asarray(censitaire_share, dtype=float), w.shape)
    u = float(games_per_unit)
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(c * (1 - c) / (n / u))
        live = (n > 0) & (c > 0) & (c < 1) & np.isfinite(se) & (se > 0)
        se = np.where(live, se, np.nan)
        p = stats.two_sided_p(np.where(live, (w / n - c) / se, np.nan))
    if games_per_unit == 1:
        for i in np.flatnonzero(live & (np.abs(w - np.round(w)) < 1e-9)):
            p[i] = float(stats.binomial_test([round(w[i])], round(n[i]), float(c[i]))[0])
    return p, se


def adjusted_objectives(o: pl.DataFrame, smallest: float = stats.DEFAULT_SMALLEST_SHARE,
                        games_per_unit: int = 1) -> pl.DataFrame:
    """A table of cards (:func:`distinct_cards`) with ``p_value`` (:func:`card_p_values`),
    ``significant`` (clear of the average Censitaire: Holm's step-down over the tested cards at 5%)
    and ``verdict`` (its size worded against ``smallest``, the share difference that matters:
    :func:`analysis.stats.practical`, the sign Holm's), with ``size_low``, ``size_high``, the
    interval of the difference that size is read on (:func:`card_size_interval`: the card's own
    interval at 1 − 0.05/m, Bonferroni over the m tested cards, minus the average, which the test
    too takes as known; SG-2). The page's table, headlines and figure colours and ``balance export
    --what objectives`` all read this one function. A rotated run's deal weighs as one game
    (``games_per_unit``)."""
    if o.height == 0:
        return o.with_columns(pl.lit(None, dtype=pl.Float64).alias("p_value"),
                              pl.lit(False).alias("significant"), pl.lit(stats.NOT_SHOWN).alias("verdict"),
                              pl.lit(None, dtype=pl.Float64).alias("size_low"),
                              pl.lit(None, dtype=pl.Float64).alias("size_high"))
    diff = o["diff"].to_numpy().astype(float)
    p, _ = card_p_values(o["wins"].to_numpy(), o["dealt"].to_numpy(), o["censitaire_share"].to_numpy(),
                         games_per_unit)
    clear = stats.holm_reject(p)
    live = np.isfinite(p)
    low, high = card_size_interval(o["wins"].to_numpy(), o["dealt"].to_numpy(),
                                   o["censitaire_share"].to_numpy(), games_per_unit, m=int(live.sum()))
    low, high = np.where(live, low, np.nan), np.where(live, high, np.nan)
    verdict = stats.practical(diff, low, high, smallest, clear=clear)
    return o.with_columns(pl.Series("p_value", p, dtype=pl.Float64).fill_nan(None),
                          pl.Series("verdict", list(verdict)),
                          pl.Series("significant", [v != stats.NOT_SHOWN for v in verdict]),
                          pl.Series("size_low", low, dtype=pl.Float64).fill_nan(None),
                          pl.Series("size_high", high, dtype=pl.Float64).fill_nan(None))


def card_size_interval(wins, dealt, censitaire_share, games_per_unit: int = 1, m: int = 1,
                       alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """The interval of each card's difference from the average Censitaire that its size is worded
    on (:func:`adjusted_objectives`, SG-2): the card's own interval at level 1 − ``alpha``/``m``
    (Bonferroni over the ``m`` tested cards) minus the average ``censitaire_share``, taken as known
    as :func:`card_p_values`' test takes it. The exact (Clopper-Pearson) interval where that test is
    the exact binomial one (independent games, whole wins), Wilson's score interval over the run's
    units elsewhere (a shared win, a rotated run's deals): both valid at the edges, where diff ±
    z·√(c(1 − c)/n), the hypothesis's standard error that the old size read on, was ~5% too narrow
    for a card at 42% against an average of 33% and too wide for one at 12.6% (review s59 rv235 #2)."""
    w = np.asarray(wins, dtype=float)
    n = np.asarray(dealt, dtype=float)
    c = np.broadcast_to(np.asarray(censitaire_share, dtype=float), w.shape)
    level = 1.0 - alpha / max(int(m), 1)
    u = float(games_per_unit)
    lo, hi = (np.asarray(x, dtype=float) for x in stats.score_interval(w / u, n / u, level))
    lo, hi = lo.copy(), hi.copy()
    if games_per_unit == 1:
        for i in np.flatnonzero((n > 0) & (np.abs(w - np.round(w)) < 1e-9)):
            lo[i], hi[i] = stats.clopper_pearson(int(round(w[i])), int(round(n[i])), level)
    return lo - c, hi - c


def not_told_apart(o: pl.DataFrame, row: int, level: float = stats.LEVEL) -> list[int]:
    """Rows of ``o`` (a table of cards, e.g. :func:`distinct_cards`) whose win share cannot be told
    from row ``row``'s: Newcombe's interval of the difference (from Wilson's score intervals)
    holds 0, at level 1 − (1 − ``level``)/(m − 1), Bonferroni over the m − 1 comparisons with the
    other cards, so that the whole set is named with 95% confidence. Cards held in the same game
    make two shares slightly dependent (at most one holder wins); that is not in the interval."""
    n = o["dealt"].to_numpy().astype(float)
    w = o["wins"].to_numpy().astype(float)
    m = o.height
    if m < 2:
        return []
    each = 1.0 - (1.0 - level) / (m - 1)
    lo, hi = stats.score_interval(w, n, each)
    p = w / n
    d_lo, d_hi = stats.newcombe(p[row], lo[row], hi[row], p, lo, hi)
    return [i for i in range(m) if i != row and d_lo[i] <= 0 <= d_hi[i]]


def has_improvements(rs: RunSet) -> bool:
    return rs.has_games("improvement_turn", "turns") and rs.has("role", "win_share")


def _role_wins(rs: RunSet) -> pl.LazyFrame:
    """Per game: the Seigneur's win share and the game's improvement turn and length."""
    seig = (rs.players(["run", "game", "role", "win_share"])
            .filter(pl.col("role").cast(pl.Utf8) == SEIGNEUR)
            .select("run", "game", pl.col("win_share").cast(pl.Float64).alias("seigneur_win")))
    games = rs.games(["run", "game", "turns", "improvement_turn"])
    return games.join(seig, on=["run", "game"], how="inner")


def improvement_table(rs: RunSet) -> pl.DataFrame:
    """Two rows: games that ended before the land improvements acted (the Seigneur never reached
    the midpoint, or the game ended on the turn he did), and games played on with them (at least
    one turn after the turn they came).

    Columns: period ("before" / "after"), label, games, share (of all games; Wilson ci_low,
    ci_high), seigneur_wins, seigneur_share, seigneur_ci_low, seigneur_ci_high (the Seigneur's win
    share in those games, Wilson; null where the rules make it certain), seigneur_certain
    (:func:`seigneur_certain`: the "before" row's 0% is the rules', SG-1, SG-5.6, SG-6), mean_turns (game length), mean_improvement_turn (the turn the
    improvements came, for "after"; null for "before"), reached (games in which the Seigneur
    reached the midpoint at all, the same in both rows) and reached_share (of all games).
    """
    if rs.from_stats:
        return _improvements_from_stats(rs)
    d = collect(_role_wins(rs).select(
        ((pl.col("improvement_turn") >= 0) & (pl.col("turns") > pl.col("improvement_turn"))).alias("after"),
        (pl.col("improvement_turn") >= 0).alias("reached"),
        "seigneur_win", "turns", "improvement_turn"))
    total = d.height
    sums = {}
    for period, mask in (("before", ~d["after"]), ("after", d["after"])):
        part = d.filter(mask)
        n = part.height
        sums[period] = (n, float(part["seigneur_win"].sum()) if n else 0.0,
                        float(part["turns"].mean()) if n else np.nan,
                        float(part["improvement_turn"].mean()) if n else np.nan)
    return _improvement_rows(total, sums, rs.games_per_unit, int(d["reached"].sum()))


def _improvements_from_stats(rs: RunSet) -> pl.DataFrame:
    st = rs.stats
    L = st.layout["win_units"]
    seig = [i for i, r in enumerate(st.layout["seat_roles"]) if r == SEIGNEUR]
    h = st.valued["g:improvement_turn"]
    v, n = h.values, h.a
    w = st.valued["gw:improvement_turn"].a[seig].sum(axis=0) / L
    t = st.valued["gl:improvement_turn"].a
    # the games that ended on the very turn the improvements came, by their improvement turn (their
    # count, the Seigneur's wins among them, their length: equal to that turn), from games.parquet,
    # which the statistics do not cross with the length
    last = _ended_when_improved(rs, v)
    # those games move from "after" to "before": (games, Seigneur wins, turns played = their
    # improvement turn)
    moved = ((float(last[0].sum()), float(last[1].sum()), float((v * last[0]).sum()))
             if last is not None else (0.0, 0.0, 0.0))
    sums = {}
    for period, mask in (("before", v < 0), ("after", v >= 0)):
        sign = -1 if period == "after" else 1
        k = int(n[mask].sum()) + int(sign * moved[0])
        won = float(w[mask].sum()) + sign * moved[1]
        length = float(t[mask].sum()) + sign * moved[2]
        turn = float((v[mask] * n[mask]).sum()) - moved[2]       # (read for "after" only)
        sums[period] = (k, won, length / k if k else np.nan, turn / k if k else np.nan)
    return _improvement_rows(st.games, sums, rs.games_per_unit, int(n[v >= 0].sum()))


def _ended_when_improved(rs: RunSet, values: np.ndarray):
    """(games, Seigneur wins) per improvement turn in ``values`` among the games that ended on the
    turn the improvements came (the statistics' histogram of ``improvement_turn``), read from
    games.parquet; None when the run kept no such columns (its "after" row then counts every game
    that reached the midpoint)."""
    if not rs.has_games("improvement_turn", "turns", "winner_role"):
        return None
    d = collect(rs.games(["turns", "improvement_turn", "winner_role"])
                .filter((pl.col("improvement_turn") >= 0) & (pl.col("turns") == pl.col("improvement_turn")))
                .group_by("improvement_turn")
                .agg(pl.len().alias("n"), (pl.col("winner_role").cast(pl.Utf8) == SEIGNEUR).sum().alias("w")))
    where = {int(a): (int(b), int(c)) for a, b, c in d.iter_rows()}
    same_n = np.array([where.get(int(x), (0, 0))[0] for x in values], dtype=float)
    same_w = np.array([where.get(int(x), (0, 0))[1] for x in values], dtype=float)
    return same_n, same_w


def _improvement_rows(total: int, sums: dict, games_per_unit: int = 1,
                      reached: int | None = None) -> pl.DataFrame:
    u = float(games_per_unit)            # a rotated run's deals weigh as one game each
    rows = []
    for period, label in (("before", "Ended before the land improvements acted"),
                          ("after", "Played on with the land improvements")):
        n, w, mean_turns, mean_improvement = sums[period]
        lo, hi = stats.wilson(np.array([n / u]), np.array([total / u]))
        slo, shi = stats.wilson(np.array([w / u]), np.array([n / u])) if n else (np.array([np.nan]),) * 2
        certain = seigneur_certain(period, n, w)
        rows.append({
            "period": period, "label": label, "games": n, "share": n / total if total else np.nan,
            "ci_low": float(lo[0]), "ci_high": float(hi[0]),
            "seigneur_wins": w, "seigneur_share": w / n if n else np.nan,
            # certain by the rules: no interval, as the page shows none (review 225 #5)
            "seigneur_ci_low": None if certain else float(slo[0]),
            "seigneur_ci_high": None if certain else float(shi[0]),
            "seigneur_certain": certain,
            "mean_turns": float(mean_turns) if n else np.nan,
            "mean_improvement_turn": float(mean_improvement) if n and period == "after" else None,
            "reached": reached, "reached_share": reached / total if reached is not None and total else None,
        })
    return pl.DataFrame(rows, schema_overrides={"mean_improvement_turn": pl.Float64, "reached": pl.Int64,
                                                "reached_share": pl.Float64, "seigneur_ci_low": pl.Float64,
                                                "seigneur_ci_high": pl.Float64,
                                                "seigneur_certain": pl.Boolean})


def seigneur_certain(period: str, games: int, seigneur_wins: float) -> bool:
    """True when the Seigneur's share of a period's games is 0 by the rules, not by chance: the
    games that end before the land improvements act (SG-1: the midpoint lies below the goal square,
    which the rules' loader enforces; SG-5.6: he advances at most one square a turn; SG-6: he wins
    on the goal square), when there are such games and he won none. The page then prints "0%
    (certain by the rules)" without an interval and the export leaves the interval empty; one
    decision for both."""
    return period == "before" and games > 0 and seigneur_wins == 0


def square_table(rs: RunSet) -> pl.DataFrame:
    """The Seigneur's final square: columns square, games, share (of all games)."""
    if rs.from_stats:
        h = rs.stats.valued["g:seigneur_square"]
        keep = h.a > 0
        d = pl.DataFrame({"seigneur_square": h.values[keep].astype(np.int8), "games": h.a[keep]},
                         schema={"seigneur_square": pl.Int8, "games": pl.UInt32})
    else:
        d = collect(rs.games(["seigneur_square"]).group_by("seigneur_square").agg(pl.len().alias("games"))
                    .sort("seigneur_square"))
    total = d["games"].sum()
    return d.rename({"seigneur_square": "square"}).with_columns(
        (pl.col("games") / total).alias("share"))


def track_squares(rs: RunSet) -> dict[str, int] | None:
    """The rent track's midpoint (the land improvements) and goal square (the Seigneur wins there,
    SG-6) at the run's player count (SG-1), from run.json's ``rules_text``: {"midpoint": 5,
    "goal": 10}; None when the rules text does not give both."""
    try:
        track = toml_loads(rs.metas[0].get("rules_text") or "").get("track", {})
        key = str(rs.n_players)
        return {"midpoint": int(track["midpoint"][key]), "goal": int(track["goal"][key])}
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError, AttributeError):
        return None


def tables(rs: RunSet) -> dict[str, pl.DataFrame]:
    """The Seigneurial tables the columns of ``rs`` allow: ``objectives``, ``improvements``,
    ``seigneur_squares``."""
    return {name: table(rs, name) for name in available(rs)}


def table(rs: RunSet, name: str) -> pl.DataFrame:
    """One of :data:`TABLES` (``balance export --what objectives`` computes only that one)."""
    return {"objectives": objective_table, "improvements": improvement_table,
            "seigneur_squares": square_table}[name](rs)


def available(rs: RunSet) -> list[str]:
    """The tables of :data:`TABLES` the columns of ``rs`` allow (without computing them)."""
    has = {"objectives": has_objectives(rs), "improvements": has_improvements(rs),
           "seigneur_squares": rs.has_games("seigneur_square")}
    return [name for name in TABLES if has[name]]

