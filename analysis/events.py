"""Event-card impact (Middle-Ages MA-8), per event id and per firing slot.

Needs the columns the spec declares ``gain_by_event`` (players) and ``event_by_slot`` (games), paired
by slot k (Middle-Ages' ``event_gain_k`` and ``event_k``, k = 1…4; event k fires at the end of turn
4k); ``checkpoint_by_event`` (``coins_before_event_k``) adds the leader-change metric. :func:`event_impact`
gives, per event and slot (slot 0 = every slot pooled): the mean coin gain per player, the spread of
the gain between the players of a game, how often the card changes the sole leader, and the win share
of the player it helped most. :func:`event_seat_table` gives each seat's win share in games with the
card against games without it. Both are filled by one :class:`EventAccumulator` pass. The event
ablation's reading (:func:`ablation_words`, :func:`ablation_when_drawn`, :func:`ablation_card_order`)
and its score family's measured coverage below 20,000 games (:func:`score_coverage`,
:func:`score_coverage_words`) are here too, for the page, the terminal and run.json alike.

May import polars, numpy, :mod:`analysis.load`, :mod:`analysis.seats` and :mod:`analysis.stats`.
"""

from __future__ import annotations


import numpy as np
import polars as pl

from analysis import stats
from analysis.load import Block, RunSet, int_moments, run_pass, seat_label
from analysis.seats import row_max, row_min, sole_leader, top_seat

N_IDS = 256  # event ids are int8; shifted by 128 so negative ids cannot break bincount


def slot_columns(rs: RunSet) -> list[dict]:
    """The event slots ``rs`` records, in slot order: ``{"slot": k, "event": games column of the
    card fired in slot k, "gain": players column of what it gave or took, "before": players
    column of the running total just before it, or None}``, paired by the spec's roles
    (``event_by_slot``, ``gain_by_event``, ``checkpoint_by_event``, on the slot as key); from the
    statistics, the same pairing stored in their layout."""
    if rs.from_stats:
        return [dict(s) for s in rs.stats.layout["event_slots"]]
    gains = {c.key: c.name for c in rs.role_columns("gain_by_event")}
    befores = {c.key: c.name for c in rs.role_columns("checkpoint_by_event")}
    out = [{"slot": int(c.key), "event": c.name, "gain": gains[c.key],
            "before": befores.get(c.key)}
           for c in rs.role_columns("event_by_slot", "games") if c.key in gains]
    out.sort(key=lambda s: s["slot"])
    if not all(s["before"] for s in out):
        for s in out:
            s["before"] = None
    return out


def event_slots(rs: RunSet) -> list[int]:
    """Slots k with both a gain (players) and the card fired (games) (:func:`slot_columns`)."""
    return [s["slot"] for s in slot_columns(rs)]


def has_events(rs: RunSet) -> bool:
    return bool(event_slots(rs))


class EventAccumulator:
    """Per (slot, event id) sums over games, and per (event id, seat) win shares with the card."""

    def __init__(self, rs: RunSet) -> None:
        cols = slot_columns(rs)
        self.slots = [s["slot"] for s in cols]
        self.n = rs.n_players
        self.with_coins = all(s["before"] for s in cols)
        self.columns = {s["slot"]: s for s in cols}
        self.player_columns = ("win_share", *[s["gain"] for s in cols],
                               *([s["before"] for s in cols] if self.with_coins else []))
        self.game_columns = tuple(s["event"] for s in cols)
        shape = (len(self.slots), N_IDS)
        self.games = np.zeros(shape)
        self.gain = stats.Moments.zeros(shape)     # per-game mean gain, centred (two-pass + merge)
        self.spread = stats.Moments.zeros(shape)
        self.changes = np.zeros(shape)
        self.top_games = np.zeros(shape)
        self.top_wins = np.zeros(shape)
        self.seat_with = np.zeros((N_IDS, self.n))
        self.games_with = np.zeros(N_IDS)
        self.seat_total = np.zeros(self.n)
        self.games_total = 0

    def add(self, block: Block) -> None:
        w = block.p["win_share"]
        rows = np.arange(block.n_games)
        # Games without a games.parquet row (nan event ids) count neither with nor without a card.
        known = np.ones(block.n_games, bool)
        for k in self.slots:
            ev = np.asarray(block.g[self.columns[k]["event"]])
            if ev.dtype.kind == "f":
                known &= np.isfinite(ev)
        self.seat_total += w[known].sum(axis=0, dtype=np.float64)
        self.games_total += int(known.sum())
        for i, k in enumerate(self.slots):
            ev_raw = np.asarray(block.g[self.columns[k]["event"]])
            valid = np.isfinite(ev_raw) if ev_raw.dtype.kind == "f" else None
            ev = (np.where(valid, ev_raw, 0) if valid is not None else ev_raw).astype(np.int64) + 128
            if valid is not None:
                ev = ev[valid]
            pick = (lambda a: a[valid]) if valid is not None else (lambda a: a)
            gain = block.p[self.columns[k]["gain"]]
            best = row_max(gain)
            mean_gain = pick(gain.sum(axis=1, dtype=np.float64) / gain.shape[1])
            spread = pick(best.astype(np.float64) - row_min(gain))
            count, seat = top_seat(gain, best)
            sole = count == 1
            top_ws = np.where(sole, w[rows, np.maximum(seat, 0)], 0.0)
            self.gain.n[i], self.gain.mean[i], self.gain.m2[i] = _merged(self.gain[i], ev, mean_gain)
            self.spread.n[i], self.spread.mean[i], self.spread.m2[i] = _merged(self.spread[i], ev, spread)
            stats_ = [(self.games, None), (self.top_games, pick(sole)), (self.top_wins, pick(top_ws))]
            if self.with_coins:
                before = block.p[self.columns[k]["before"]]
                after = np.add(before, gain, dtype=np.int32)
                changed = sole_leader(before) != sole_leader(after)
                stats_.append((self.changes, pick(changed)))
            for target, weights in stats_:
                target[i] += np.bincount(ev, weights=weights, minlength=N_IDS)
            self.games_with += np.bincount(ev, minlength=N_IDS)
            for s in range(self.n):
                self.seat_with[:, s] += np.bincount(ev, weights=pick(w[:, s]), minlength=N_IDS)


def accumulator_from_stats(rs: RunSet) -> EventAccumulator:
    """An :class:`EventAccumulator` filled from the statistics (sums per slot and card id,
    exact; the per-game mean gain's moments from Σ and Σ² of the players' total gain)."""
    st = rs.stats
    acc = EventAccumulator.__new__(EventAccumulator)
    lay, v = st.layout, st.valued
    L, P = lay["win_units"], st.n_players
    acc.slots = [int(s["slot"]) for s in lay["event_slots"]]
    acc.n = P
    acc.with_coins = all(s["before"] for s in lay["event_slots"])
    acc.player_columns, acc.game_columns = (), ()
    ns = len(acc.slots)

    def ids(name):                        # (slots or seats, N_IDS) indexed by id + 128
        h = v[name]
        out = np.zeros((*h.a.shape[:-1], N_IDS), np.int64)
        if h.lo is not None:
            out[..., h.lo + 128: h.lo + 128 + h.a.shape[-1]] = h.a
        return out

    n = ids("ev_games")
    acc.games = n.astype(float)
    mean, m2 = int_moments(n, ids("ev_gain_s"), ids("ev_gain_q"), scale=P)
    acc.gain = stats.Moments(n.astype(float), np.nan_to_num(mean), m2)
    mean, m2 = int_moments(n, ids("ev_spread_s"), ids("ev_spread_q"))
    acc.spread = stats.Moments(n.astype(float), np.nan_to_num(mean), m2)
    acc.changes = ids("ev_changes").astype(float)
    acc.top_games = ids("ev_top_games").astype(float)
    acc.top_wins = ids("ev_top_win") / L
    acc.seat_with = (ids("ev_seat_win") / L).T.copy()
    acc.games_with = n.sum(axis=0).astype(float) if ns else np.zeros(N_IDS)
    acc.seat_total = st.fixed["cell_win"].sum(axis=1) / L
    acc.games_total = st.games
    return acc


def _merged(old: stats.Moments, ev: np.ndarray, x: np.ndarray):
    m = old.merge(stats.Moments.grouped(ev, x, N_IDS))
    return m.n, m.mean, m.m2


def _acc(rs: RunSet, acc: EventAccumulator | None) -> EventAccumulator:
    if acc is None and rs.from_stats:
        acc = accumulator_from_stats(rs)
    if acc is None:
        acc = EventAccumulator(rs)
        if acc.slots:
            run_pass(rs, [acc])
    return acc


_IMPACT_SCHEMA = {
    "event": pl.Int16, "event_name": pl.String, "slot": pl.Int8, "turn": pl.Int16, "games": pl.Int64,
    "mean_gain": pl.Float64, "gain_sd": pl.Float64, "gain_ci_low": pl.Float64, "gain_ci_high": pl.Float64,
    "mean_spread": pl.Float64, "spread_ci_low": pl.Float64, "spread_ci_high": pl.Float64,
    "leader_change": pl.Float64, "leader_change_ci_low": pl.Float64, "leader_change_ci_high": pl.Float64,
    "top_gainer_games": pl.Int64, "top_gainer_win_share": pl.Float64, "top_gainer_ci_low": pl.Float64,
    "top_gainer_ci_high": pl.Float64, "fair_share": pl.Float64,
}


def event_impact(rs: RunSet, acc: EventAccumulator | None = None) -> pl.DataFrame:
    """Impact of each event card, pooled over slots (slot 0) and per slot (1…4, turn 4k).

    Columns: event, event_name, slot, turn, games, mean_gain (coins per player, averaged over the
    players of a game, then over games), gain_sd (sd of that per-game mean), gain_ci_low/high
    (t interval), mean_spread (largest − smallest gain in a game) with spread_ci_low/high,
    leader_change (share of games whose sole leader differs before and after the card, counting a
    lead that becomes or stops being shared; null without coins_before_event_k) with Wilson
    interval, top_gainer_games (games with a single biggest gainer), top_gainer_win_share (that
    player's win share) with Wilson interval, fair_share (1/n). Sorted by slot then event. In a
    rotated-seat run the intervals read each deal as one game (:attr:`RunSet.games_per_unit`).
    """
    acc = _acc(rs, acc)
    if not acc.slots:
        return pl.DataFrame(schema=_IMPACT_SCHEMA)
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    frames = []
    pooled = [acc.games.sum(0), acc.gain.sum(0), acc.spread.sum(0),
              acc.changes.sum(0), acc.top_games.sum(0), acc.top_wins.sum(0)]
    per_slot = [[a[i] for a in (acc.games, acc.gain, acc.spread, acc.changes,
                                acc.top_games, acc.top_wins)] for i in range(len(acc.slots))]
    for slot, arrays in [(0, pooled)] + list(zip(acc.slots, per_slot)):
        games, gain, spread, changes, top_games, top_wins = arrays
        ids = np.flatnonzero(games > 0)
        if ids.size == 0:
            continue
        n = games[ids]
        mg, sd = gain[ids].mean_sd()
        glo, ghi = stats.t_interval(mg, sd, n / u)
        ms, ssd = spread[ids].mean_sd()
        slo, shi = stats.t_interval(ms, ssd, n / u)
        if acc.with_coins:
            lc = changes[ids] / n
            llo, lhi = stats.wilson(changes[ids] / u, n / u)
        else:
            lc = llo = lhi = np.full(ids.size, np.nan)
        tn = top_games[ids]
        with np.errstate(invalid="ignore", divide="ignore"):
            tw = np.where(tn > 0, top_wins[ids] / tn, np.nan)
        tlo, thi = stats.wilson(top_wins[ids] / u, tn / u)
        event = ids - 128
        frames.append(pl.DataFrame({
            "event": event, "event_name": [rs.event_name(e) for e in event], "slot": np.full(ids.size, slot),
            "turn": [4 * slot if slot else None] * ids.size, "games": n.astype(np.int64),
            "mean_gain": mg, "gain_sd": sd, "gain_ci_low": glo, "gain_ci_high": ghi,
            "mean_spread": ms, "spread_ci_low": slo, "spread_ci_high": shi,
            "leader_change": lc, "leader_change_ci_low": llo, "leader_change_ci_high": lhi,
            "top_gainer_games": tn.astype(np.int64), "top_gainer_win_share": tw,
            "top_gainer_ci_low": tlo, "top_gainer_ci_high": thi,
            "fair_share": np.full(ids.size, 1.0 / rs.n_players),
        }, schema=_IMPACT_SCHEMA))
    return pl.concat(frames).sort(["slot", "event"])


def event_seat_table(rs: RunSet, acc: EventAccumulator | None = None) -> pl.DataFrame:
    """Each seat's win share in games where the card fired (any slot) against games without it.

    Columns: event, event_name, seat, seat_label, games_with, win_share_with, with_ci_low,
    with_ci_high, games_without, win_share_without, without_ci_low, without_ci_high, diff (with −
    without), diff_low, diff_high (Newcombe), p_value (two-proportion z test, unpooled),
    p_adjusted (Holm over the whole table), significant (p_adjusted < 0.05), verdict (the size
    of the change against the smallest share difference that matters,
    :func:`analysis.stats.practical_holm`: clear by Holm over the whole table, worded on the
    Bonferroni interval over the same family; revD #4). ``diff_low``/``diff_high`` are each row's
    own 95% interval, unadjusted; ``family_low``/``family_high`` the interval the verdict's size is
    read on (:func:`analysis.stats.holm_size_interval`: every card and seat at once), over
    ``family_size`` tested rows (the same for every row). In a rotated-seat run the intervals and
    tests read each deal as one game (:attr:`RunSet.games_per_unit`).
    """
    acc = _acc(rs, acc)
    cols = ["event", "event_name", "seat", "seat_label", "games_with", "win_share_with", "with_ci_low",
            "with_ci_high", "games_without", "win_share_without", "without_ci_low", "without_ci_high",
            "diff", "diff_low", "diff_high", "family_low", "family_high", "family_size", "p_value",
            "p_adjusted", "significant", "verdict"]
    if not acc.slots:
        return pl.DataFrame(schema={c: (pl.String if c in ("event_name", "seat_label", "verdict") else
                                        pl.Boolean if c == "significant" else pl.Float64) for c in cols})
    ids = np.flatnonzero(acc.games_with > 0)
    ev = np.repeat(ids, acc.n)
    seat = np.tile(np.arange(acc.n), ids.size)
    n1 = acc.games_with[ev]
    s1 = acc.seat_with[ev, seat]
    n2 = acc.games_total - n1
    s2 = acc.seat_total[seat] - s1
    u = float(rs.games_per_unit)         # a rotated run's deals weigh as one game each
    p1, lo1, hi1, p2, lo2, hi2, dlo, dhi, z = stats.two_proportions(s1 / u, n1 / u, s2 / u, n2 / u, np.inf)
    pv = stats.two_sided_p(z)
    adj = stats.holm(pv)
    se = stats.two_shares_se(s1 / u, n1 / u, s2 / u, n2 / u)      # (a 0 change has one: review s62 #3)
    flo, fhi = stats.holm_size_interval(p1 - p2, z, se=se)
    return pl.DataFrame({
        "event": (ev - 128).astype(np.int16), "event_name": [rs.event_name(e - 128) for e in ev],
        "seat": seat.astype(np.int8), "seat_label": [seat_label(s) for s in seat],
        "games_with": n1.astype(np.int64), "win_share_with": p1, "with_ci_low": lo1, "with_ci_high": hi1,
        "games_without": n2.astype(np.int64), "win_share_without": p2,
        "without_ci_low": lo2, "without_ci_high": hi2,
        "diff": p1 - p2, "diff_low": dlo, "diff_high": dhi, "family_low": flo, "family_high": fhi,
        "family_size": np.full(ev.size, int(np.isfinite(z).sum()), dtype=np.int64),
        "p_value": pv, "p_adjusted": adj,
        "significant": np.nan_to_num(adj, nan=1.0) < 0.05,
        "verdict": [str(v) for v in stats.practical_holm(p1 - p2, z, rs.smallest_of("share"), se=se)],
    })


# ---------------------------------------------------------------------------------------------
# The event ablation's table (written by analysis.questions.middle_ages), read for pages and the CLI
# ---------------------------------------------------------------------------------------------

_PER_DRAWN = {"win_share_effect": "win_share_when_drawn", "score_effect": "score_when_drawn"}
WITHIN_NOISE = "within noise"   # the pages' (and the CLI's) word for stats.NOT_SHOWN on a shown effect
_VERDICTS = ("verdict", "score_verdict")


def ablation_words(ab: pl.DataFrame) -> pl.DataFrame:
    """``ab`` with its ``verdict`` and ``score_verdict`` in the words the page and the CLI print
    (one vocabulary everywhere): :func:`analysis.stats.practical`'s "not shown" is "within noise"
    (every ablation effect is shown, and "not shown" there only ever means its interval holds 0);
    the other verdicts are the same words."""
    return ab.with_columns([pl.col(c).replace(stats.NOT_SHOWN, WITHIN_NOISE) for c in _VERDICTS
                            if c in ab.columns])


def _ranked(verdicts) -> list[str]:
    """Verdicts as :func:`analysis.stats.practical_order` ranks them ("within noise" is its "not shown")."""
    return [stats.NOT_SHOWN if v == WITHIN_NOISE else v for v in verdicts]


def ablation_when_drawn(ab: pl.DataFrame, share: float = stats.DEFAULT_SMALLEST_SHARE,
                        score: float = 2.0) -> pl.DataFrame:
    """The event ablation ``ab`` (one row per card and seat: ``fires``, ``win_share_effect`` and
    ``score_effect``, each with ``_low``/``_high``) with each effect also **per game where the card
    is drawn**: ``win_share_when_drawn`` and ``score_when_drawn``, each with ``_low``/``_high`` =
    the all-games effect and its interval ÷ ``fires`` (MA-8: a card acts only in the games that
    draw it).

    Why the division is the per-drawn effect: the ablation's effect is a mean over *all* the
    replayed games, and a game that never draws the card is the same game in both decks (0
    difference; :func:`analysis.questions.middle_ages.event_ablation` records it per card as
    ``unchanged_when_not_drawn``), so mean over all games = draw rate × mean over the games that
    draw it, exactly; ``fires`` is the draw rate of those very deals (counted, not estimated).

    Why the interval may be divided too: as an interval for the effect per drawn game *of these
    deals' kind* (the draw rate itself varies from one set of deals to another), it is conservative:
    with d a game's difference, I whether it drew the card and R the mean of d over drawn games,
    cov(d) = cov(d − R·I) + R² var(I) (the cross term is E[d·I] − R·E[I] = 0 when d = 0 without the
    card), so the all-games interval's width already carries the draw rate's own variation on top
    of the ratio's (delta-method) error; both families stay simultaneous (a positive factor per
    card keeps every joint statement). A card never drawn has no per-drawn figure (NaN).

    Each per-drawn effect is worded by size too (``verdict_when_drawn``,
    ``score_verdict_when_drawn``: :func:`analysis.stats.practical` on the divided interval against
    the same smallest differences, ``share`` and ``score`` coins, in the page's words,
    :func:`ablation_words`): whether it is clear is the all-games verdict's answer (a positive factor
    keeps 0 in or out of the interval), its size answers "does the card swing the games it appears
    in?"."""
    f = pl.when(pl.col("fires") > 0).then(pl.col("fires")).otherwise(None)
    kinds = [(effect, name, small, verdict) for (effect, name), small, verdict
             in zip(_PER_DRAWN.items(), (share, score), _VERDICTS) if effect in ab.columns]
    out = ab.with_columns([(pl.col(effect + end) / f).fill_null(float("nan")).alias(name + end)
                           for effect, name, _, _ in kinds for end in ("", "_low", "_high")])
    for _, name, small, verdict in kinds:
        v = stats.practical(out[name].to_numpy(), out[name + "_low"].to_numpy(),
                            out[name + "_high"].to_numpy(), small)
        out = out.with_columns(pl.Series(verdict + "_when_drawn", [WITHIN_NOISE if x == stats.NOT_SHOWN
                                                                   else str(x) for x in np.atleast_1d(v)],
                                         dtype=pl.String))
    return out


def ablation_card_order(ab: pl.DataFrame, share: float = stats.DEFAULT_SMALLEST_SHARE) -> pl.DataFrame:
    """One row per card of the event ablation ``ab``, the card's leading seat, the cards in reading
    order (:func:`analysis.stats.practical_order` on the ``verdict`` of every card × seat row: large
    enough to matter first, then may matter, clear but small, within noise; by |win-share effect| /
    ``share`` within each): a card's place is that of its first row in that order, so a card with a
    clear seat comes before one whose largest estimate is within noise. Ties (equal verdict and
    size) go by event id, then seat, whatever order the rows came in (the same page every time)."""
    rows = ab.sort(["event", "seat"])
    order = stats.practical_order(_ranked(rows["verdict"].to_list()), rows["win_share_effect"].to_numpy(),
                                  share)
    ranked = rows[order]      # np.lexsort is stable: equal keys keep the event, seat order
    return ranked.unique("event", keep="first", maintain_order=True)


#: The score (coin) columns' whole-table coverage (every card × seat interval at once) of their
#: max-|t| "simultaneous 95 %" intervals, by games per deck: measured in session 59 (helper 232,
#: docs/analysis.md's event cards) on tables of games resampled from a real 20,000-game
#: Middle-Ages table (4 balanced, seed 0). The scores are skewed (a cell's skewness −6 to +6), so
#: the normal critical value falls short below :data:`SCORE_HOLDS_FROM`; the win shares' paired
#: intervals (:func:`analysis.questions.share_intervals`) covered 96-100 % at every size.
SCORE_COVERAGE = ((400, 0.85), (1_000, 0.915), (4_000, 0.92), (20_000, 0.958))
#: the games per deck from which the score intervals were measured to hold at 95 %
SCORE_HOLDS_FROM = 20_000


def score_coverage(games) -> tuple[int, float, bool] | None:
    """(size, coverage, fewer) measured for the score intervals of an ablation of ``games`` per
    deck when it has fewer than :data:`SCORE_HOLDS_FROM` (else None): the largest size measured
    not above ``games`` (the coverage grows with the games, 85 % → 95.8 %, so the figure does not
    flatter the run), or the smallest, 400, with ``fewer`` True below it (not measured there)."""
    try:
        n = int(games)
    except (TypeError, ValueError):
        return None
    if n >= SCORE_HOLDS_FROM or n < 1:
        return None
    below = [(k, c) for k, c in SCORE_COVERAGE if k <= n]
    k, c = below[-1] if below else SCORE_COVERAGE[0]
    return k, c, not below


def measured_coverage(games) -> str:
    """"measured: about 91.5% at 1,000 games; 95% from 20,000" (:func:`score_coverage`)."""
    k, c, fewer = score_coverage(games)
    return (f"measured: about {100 * c:g}% at {k:,} games{', less at fewer' if fewer else ''}; "
            f"95% from {SCORE_HOLDS_FROM:,}")


def score_coverage_words(games) -> str:
    """The sentence the page and the terminal put beside the coin columns when the ablation has
    fewer than :data:`SCORE_HOLDS_FROM` games per deck (helper 234 #1: both called every interval
    "simultaneous 95%"): "With 1,000 games the coin intervals hold together less often than 95%
    (measured: about 91.5% at 1,000 games; 95% from 20,000); the win-share intervals do hold 95%."
    '' from 20,000 games (or without a count)."""
    if score_coverage(games) is None:
        return ""
    return (f"With {int(games):,} games the coin intervals hold together less often than 95% "
            f"({measured_coverage(games)}); the win-share intervals do hold 95%.")
