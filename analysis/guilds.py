"""Guild types: who founds a guild of each card type, and how founders fare (the spec's
``founded_by_type`` columns).

:func:`guild_table` gives one row per founded column (Médiévallons records how many guilds
of each type a player founded during the game, MV-9): the share of player-games that founded at
least one guild of the type, the founders' win share against everyone else's and against the fair
1/n, the difference with Newcombe's interval and a two-proportion z test (Holm-adjusted over the
types) and its size in words (``verdict``: :func:`analysis.stats.practical_holm`), the mean number of guilds of the type founded, and the mean number of powers of the type
used (the ``count_by_type`` column of the same type, when recorded: Médiévallons' powers). One polars pass of conditional sums over the player rows.
The founders − others difference, its interval, z and Holm's p-values take each game as a
cluster (:func:`clustered_diff_var`, from the statistics' per-game sums ``fclu:<group>`` or from
the rows): a game's founders and others split its one win, so their rows are negatively tied and
the difference's s.e. by game was 1.03-1.07x the one of independent rows, whose intervals covered
94.1% (92.4% for Artisan and Marchand; review s62 #2, which found the earlier docstring's "a
little conservative" wrong). The groups' own Wilson intervals still count rows; a rotated-seat
run's deal weighs as one game (a bound). :func:`family_verdicts` is the one reading of the verdicts and of the range
each is read on (the table's ``verdict``, the report's verdict column and "All N types at once"
range, MV-4).

May import polars, numpy, :mod:`analysis.load`, :mod:`analysis.stats` and
:mod:`simcore.accumulate` (the names of its per-game sums).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis import stats
from analysis.load import RunSet, collect
from simcore.accumulate import CLUSTER_TERMS

SCHEMA = {"card": pl.String, "card_name": pl.String, "players": pl.Int64, "founders": pl.Int64,
          "founded_share": pl.Float64, "founded_ci_low": pl.Float64, "founded_ci_high": pl.Float64,
          "mean_guilds": pl.Float64, "founders_win_share": pl.Float64, "founders_ci_low": pl.Float64,
          "founders_ci_high": pl.Float64, "others_win_share": pl.Float64, "others_ci_low": pl.Float64,
          "others_ci_high": pl.Float64, "fair_share": pl.Float64, "diff": pl.Float64,
          "diff_low": pl.Float64, "diff_high": pl.Float64, "diff_se": pl.Float64, "z": pl.Float64, "p_value": pl.Float64,
          "p_adjusted": pl.Float64, "significant": pl.Boolean, "verdict": pl.String,
          "mean_powers": pl.Float64}


#: A guild type is ranked (its test read, its verdict worded) only when at least this many
#: player-games founded one ...
RANK_FOUNDERS = 30
#: ... and at least this share of them: a test about almost nobody is not a finding (the report's
#: "too few players (0.03% found one)"; ``balance export --what guilds``: "too few players to say")
RANK_SHARE = 0.005


def ranked(g: pl.DataFrame) -> pl.DataFrame:
    """The rows of a :func:`guild_table` founded often enough to rank (≥ :data:`RANK_SHARE` of
    player-games and ≥ :data:`RANK_FOUNDERS` founders)."""
    return g.filter(pl.col("founders_win_share").is_not_null() & (pl.col("founders") >= RANK_FOUNDERS)
                    & (pl.col("founded_share") >= RANK_SHARE))


#: Fewer games, matches or founders than this behind a played question's answer: too few to say.
#: A before/after "cannot tell" its change (:mod:`analysis.questions.medievallons`); a single run's
#: first-player row played with fewer games has no verdict (MV-2,
#: :func:`reports.games.medievallons.first_player_verdicts`; review s60 #3: 5 games a count led
#: with an interval reaching a win share of 121%).
MIN_COUNT = 30

#: The card ablation (MV-1 deck: one copy of a type removed) tests a type's change of its founders'
#: win share only when the type is founded by at least this share of the players ...
ABLATION_MIN_FOUNDED = 0.005


def ablation_tested(ct: pl.DataFrame) -> pl.Series:
    """Which rows of a card-types table with the ablation (``delta_founders_win_share``, ``z``,
    ``founded_share``, ``founders``, ``founders_after``) are in the ablation's tested family: a
    change with a z, of a type founded by at least :data:`ABLATION_MIN_FOUNDED` of the players and
    by at least :data:`RANK_FOUNDERS` players with the full deck and with one copy fewer (a
    founders' win share of fewer is not printed, so it is neither tested nor drawn: review s53 MV
    #1, "too few founders (24)" beside a change of +26.7 pp, its verdict, its bar). The one rule of
    the played questions' verdicts, the report's sentences and the report's figure."""
    if "delta_founders_win_share" not in ct.columns:
        return pl.Series("tested", [False] * ct.height, pl.Boolean)
    # (a table without z, as some figure callers pass, is read on its changes alone)
    num = [pl.col(c).cast(pl.Float64).fill_null(np.nan) for c in ("delta_founders_win_share", "z")
           if c in ct.columns]
    enough = [pl.col(c).cast(pl.Float64).fill_null(0.0) >= RANK_FOUNDERS
              for c in ("founders", "founders_after") if c in ct.columns]
    return ct.select(pl.all_horizontal(
        [e.is_finite() for e in num] + enough
        + [pl.col("founded_share").cast(pl.Float64).fill_null(0.0) >= ABLATION_MIN_FOUNDED]
    ).alias("tested")).to_series()


#: The words of a type the deck holds no copy of (``--set deck.copies.etoile=0``): the card ablation
#: (MV-1 deck) removes one copy of a type, so it plays no deck for it (:func:`not_in_deck`).
NOT_IN_DECK = "not played (0 copies)"


def not_in_deck(ct: pl.DataFrame) -> pl.Series:
    """Which rows of a card-types table with the ablation are types the deck holds no copy of (MV-1
    deck): the ablation played no deck with one copy fewer of them, so their ``copies_after`` and
    every figure of that deck are empty (:func:`analysis.questions.medievallons.card_types`).
    Neither tested nor "too few players to say": not played (review s60 #1, "nan%" and "+nan ±
    nan" beside "too few players to say" for an Étoile set to 0 copies)."""
    if "delta_founders_win_share" not in ct.columns or "copies_after" not in ct.columns:
        return pl.Series("not_in_deck", [False] * ct.height, pl.Boolean)
    return ct.select(pl.col("copies_after").cast(pl.Float64).fill_nan(None).is_null()
                     .alias("not_in_deck")).to_series()


def guild_columns(rs: RunSet) -> tuple[str, ...]:
    """The founders' columns: the spec's ``founded_by_type`` group (Médiévallons' ``founded_<card>``)."""
    return tuple(c.name for c in rs.role_group("founded_by_type"))


def use_columns(rs: RunSet, cols) -> dict[str, str]:
    """Founded column → the ``count_by_type`` column of the same type this run has (Médiévallons'
    powers of the card used), for the types that have one."""
    by_key = {}
    for c in rs.role_columns("count_by_type"):
        by_key.setdefault(c.key, c.name)
    return {c: by_key[rs.type_key(c)] for c in cols if rs.type_key(c) in by_key}


def has_guilds(rs: RunSet) -> bool:
    return bool(guild_columns(rs))


def guild_table(rs: RunSet) -> pl.DataFrame:
    """One row per card type, in column (deck) order.

    Columns: card (the type's key), card_name, players (player-games), founders (player-games that
    founded ≥ 1 guild of the type), founded_share, founded_ci_low, founded_ci_high (Wilson),
    mean_guilds (guilds of the type founded per player-game), founders_win_share, founders_ci_low,
    founders_ci_high (Wilson; null without founders), others_win_share, others_ci_low,
    others_ci_high (the other player-games), fair_share (1/n), diff (founders − others), diff_low,
    diff_high (Newcombe's, at the effective counts: every count over the difference's design
    effect, its variance with each game a cluster over the rows', at least 1), diff_se (the
    difference's s.e., the games', the one z divides by and the verdict's range is read on), z (the
    two-proportion statistic, its s.e. the games', :func:`clustered_diff_var`), p_value (its two-sided
    p), p_adjusted (Holm over the types founded often enough to rank, :func:`ranked`; null for the
    others), significant (p_adjusted < 0.05), verdict (:func:`family_verdicts` at the run's
    smallest share difference), mean_powers (the type's ``count_by_type`` column per player-game;
    null when the type has no such column, e.g. the Bouffon).

    A rotated-seat run's counts are read with each deal as one game
    (:attr:`analysis.load.RunSet.games_per_unit`): every interval, z and p of the row, and so the
    verdict and the range it is read on (:func:`family_verdicts`), which the report's page reads
    from this table rather than from the player-game counts.
    """
    cols = list(guild_columns(rs))
    if not cols:
        return pl.DataFrame(schema=SCHEMA)
    powers = use_columns(rs, cols)
    pcols = list(powers.values())
    if rs.from_stats:
        st = rs.stats
        L = st.layout["win_units"]
        s = {"n": st.games * rs.n_players, "w": st.fixed["cell_win"].sum() / L}
        clu = {c: (j, st.fixed[f"fclu:{g}"]) for g, gc in st.layout.get("founder_groups", {}).items()
               if f"fclu:{g}" in st.fixed for j, c in enumerate(gc)}
        for i, c in enumerate(cols):
            h, hw = st.valued[f"n:{c}"], st.valued[f"w:{c}"]
            v, k, kw = h.values, h.a.sum(axis=0), hw.a.sum(axis=0)
            s[f"f{i}"], s[f"fw{i}"], s[f"g{i}"] = int(k[v > 0].sum()), kw[v > 0].sum() / L, float((v * k).sum())
            if c in powers:
                hp = st.valued[f"n:{powers[c]}"]
                s[f"p{i}"] = float((hp.values * hp.a.sum(axis=0)).sum())
            if c in clu:
                # per-game sums of the founders' count X, their win units A and the game's Y
                j, a = clu[c]
                t = dict(zip(CLUSTER_TERMS, a[j].astype(float)))
                s.update({f"xx{i}": t["XX"], f"xa{i}": t["XA"] / L, f"aa{i}": t["AA"] / (L * L),
                          f"xy{i}": t["XY"] / L, f"ay{i}": t["AY"] / (L * L), f"yy{i}": t["YY"] / (L * L)})
        return _guild_table(rs, cols, powers, pcols, s)
    w = pl.col("win_share").cast(pl.Float64)
    exprs = [pl.len().alias("n"), w.sum().alias("w")]
    for i, c in enumerate(cols):
        hit = pl.col(c) > 0
        exprs += [hit.sum().alias(f"f{i}"), pl.when(hit).then(w).otherwise(0.0).sum().alias(f"fw{i}"),
                  pl.col(c).cast(pl.Float64).sum().alias(f"g{i}")]
        if c in powers:
            exprs.append(pl.col(powers[c]).cast(pl.Float64).sum().alias(f"p{i}"))
    s = collect(rs.players(["win_share", *cols, *pcols]).select(exprs)).row(0, named=True)
    # per game (the cluster): the founders' count X, their win share A and the game's Y, and the
    # sums of their products over the games
    per_game = [pl.col("win_share").cast(pl.Float64).sum().alias("_y")]
    for i, c in enumerate(cols):
        hit = pl.col(c) > 0
        per_game += [hit.cast(pl.Float64).sum().alias(f"_x{i}"),
                     pl.when(hit).then(w).otherwise(0.0).sum().alias(f"_a{i}")]
    sums = []
    for i in range(len(cols)):
        x, a, y = pl.col(f"_x{i}"), pl.col(f"_a{i}"), pl.col("_y")
        sums += [(x * x).sum().alias(f"xx{i}"), (x * a).sum().alias(f"xa{i}"), (a * a).sum().alias(f"aa{i}"),
                 (x * y).sum().alias(f"xy{i}"), (a * y).sum().alias(f"ay{i}"), (y * y).sum().alias(f"yy{i}")]
    s.update(collect(rs.players(["game", "win_share", *cols]).group_by("run", "game").agg(per_game)
                     .select(sums)).row(0, named=True))
    return _guild_table(rs, cols, powers, pcols, s)


def clustered_diff_var(n, players, f, fw, w, xx, xa, aa, xy, ay, yy) -> np.ndarray:
    """The variance of founders' − others' win share with each game as a cluster (the sandwich,
    or linearised, variance of a difference of two ratio means): ``n`` player-games of ``players``
    seats, ``f`` founders winning ``fw``, ``w`` the win share of all; per game X the founders, A
    their win share, Y the game's (1 but for a game nobody won), and over the games ``xx`` = ΣX²,
    ``xa`` = ΣXA, ``aa`` = ΣA², ``xy`` = ΣXY, ``ay`` = ΣAY, ``yy`` = ΣY². A game's contribution
    is (A − p₁X)/n₁ − ((Y − A) − p₂(P − X))/n₂ (n₁ = f, n₂ = n − f); the variance is the sum of
    their squares. Treating the player rows as independent ignores that a game's founders and
    others split its one win: by game the s.e. was 1.03-1.07x the rows' (review s62 #2)."""
    n1, n2 = np.asarray(f, float), n - np.asarray(f, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p1, p2 = fw / n1, (w - fw) / n2
        alpha, beta, c = 1.0 / n1 + 1.0 / n2, p1 / n1 + p2 / n2, p2 * players / n2
        games = n / players
        # contribution = alpha·A − beta·X − Y/n₂ + c, squared and summed over the games
        out = (alpha * alpha * aa + beta * beta * xx + yy / (n2 * n2) + games * c * c
               - 2 * alpha * beta * xa - 2 * alpha * ay / n2 + 2 * alpha * c * fw
               + 2 * beta * xy / n2 - 2 * beta * c * f - 2 * c * w / n2)
    return np.where((n1 > 0) & (n2 > 0), np.clip(out, 0.0, None), np.nan)


def _guild_table(rs, cols, powers, pcols, s) -> pl.DataFrame:
    n, total_w = float(s["n"]), float(s["w"])
    f = np.array([s[f"f{i}"] for i in range(len(cols))], float)
    fw = np.array([s[f"fw{i}"] for i in range(len(cols))], float)
    g = np.array([s[f"g{i}"] for i in range(len(cols))], float)
    o, ow = n - f, total_w - fw
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    p1, lo1, hi1, p2, lo2, hi2, _, _, _ = stats.two_proportions(fw / u, f / u, ow / u, o / u)
    # the difference's design effect: its variance with the game as the cluster over the one of
    # independent rows, at least 1 (review s62 #2); the difference's interval and z count every
    # group as that many times fewer rows (Kish's effective number), so its s.e. is the games'
    deff = np.ones(len(cols))
    if all(f"xx{i}" in s for i in range(len(cols))):
        t = {k: np.array([s[f"{k}{i}"] for i in range(len(cols))], float)
             for k in ("xx", "xa", "aa", "xy", "ay", "yy")}
        v_game = clustered_diff_var(n, rs.n_players, f, fw, total_w, **t)
        with np.errstate(invalid="ignore", divide="ignore"):
            v_rows = (fw / f) * (1 - fw / f) / f + (ow / o) * (1 - ow / o) / o
            deff = np.where(np.isfinite(v_game) & (v_rows > 0), np.maximum(v_game / v_rows, 1.0), 1.0)
    k = u * deff
    *_, dlo, dhi, z = stats.two_proportions(fw / k, f / k, ow / k, o / k)
    se = stats.two_shares_se(fw / k, f / k, ow / k, o / k)      # the games' (a rotated run's deals')
    pv = stats.two_sided_p(z)
    # the family is the types founded often enough to rank (:func:`ranked`): a type the page marks
    # "too few players" is not tested, so it does not widen the others' correction (review s49 #3:
    # "Holm over the 13 types" counted the Bouffon's 25 founders beside "too few players")
    rankable = np.isfinite(p1) & (f >= RANK_FOUNDERS) & (f / n >= RANK_SHARE) if n > 0 \
        else np.zeros(len(cols), bool)
    adj = stats.holm(np.where(rankable, pv, np.nan))
    flo, fhi = stats.wilson(f / u, np.full(len(cols), n / u))

    def clean(x):
        return [float(v) if np.isfinite(v) else None for v in np.asarray(x, float)]

    table = pl.DataFrame({
        "card": [rs.type_key(c) for c in cols], "card_name": [rs.type_name(c) for c in cols],
        "players": np.full(len(cols), int(n), np.int64), "founders": f.astype(np.int64),
        "founded_share": f / n, "founded_ci_low": flo, "founded_ci_high": fhi, "mean_guilds": g / n,
        "founders_win_share": clean(p1), "founders_ci_low": clean(lo1), "founders_ci_high": clean(hi1),
        "others_win_share": clean(p2), "others_ci_low": clean(lo2), "others_ci_high": clean(hi2),
        "fair_share": np.full(len(cols), 1.0 / rs.n_players), "diff": clean(p1 - p2),
        "diff_low": clean(dlo), "diff_high": clean(dhi), "diff_se": clean(se),
        "z": clean(z), "p_value": clean(pv),
        "p_adjusted": clean(adj), "significant": np.nan_to_num(adj, nan=1.0) < 0.05,
        "verdict": [None] * len(cols),
        "mean_powers": [s[f"p{i}"] / n if c in powers else None for i, c in enumerate(cols)],
    }, schema=SCHEMA)
    # the founders − others difference worded by its size, as the report's page words it (one
    # reading: :func:`family_verdicts`)
    return table.with_columns(pl.Series("verdict", family_verdicts(table, rs.smallest_of("share"))[0],
                                        pl.String))


def family_verdicts(g: pl.DataFrame, smallest: float) -> tuple[list[str], np.ndarray, np.ndarray, int]:
    """Each type's founders − others verdict, the range its size was read on and the family's size,
    from a :func:`guild_table` (its ``diff`` and ``z``) and ``smallest``, the win-share difference
    that matters (MV-4).

    The family is the types that rank (:func:`ranked`) with a finite z: clear when Holm's step-down
    over their p-values rejects, then worded by size on the Bonferroni interval over them
    (:func:`analysis.stats.practical_holm`, :func:`analysis.stats.holm_size_interval`); the other
    types get a verdict of nan z (``not shown``) and no range. The one reading of the table's
    ``verdict`` (at the run's smallest difference), the report's verdict column and its "All N
    types at once" range (at the page's): a rotated run's z counts a deal as one game, as the
    type's own 95% interval does, so the range is that interval's s.e. times z_(1 − 0.025/m)
    instead of 1.96: wider, not narrower. (Session 60 review: the page read z
    again from the player-game counts, a rotated run as four times as many independent games:
    Rôdeur's all-at-once range 0.0 to +2.9 pp, "clear, may matter", beside its own −0.9 to +3.6
    pp, p (Holm) = 0.245, and the export's "within noise".)"""
    z = g["z"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    z = np.where(g["card"].is_in(ranked(g)["card"].implode()).to_numpy(), z, np.nan)
    diff = g["diff"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    # the difference's s.e. (the games', :func:`guild_table`): a 0 difference has one (review s62 #3)
    se = g["diff_se"].cast(pl.Float64).fill_null(np.nan).to_numpy() if "diff_se" in g.columns else None
    low, high = stats.holm_size_interval(diff, z, se=se)
    verdicts = [str(v) for v in np.atleast_1d(stats.practical_holm(diff, z, smallest, se=se))]
    return verdicts, low, high, int(np.isfinite(z).sum())
