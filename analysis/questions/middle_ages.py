"""Middle-Ages event-card ablation: the causal effect of every event card (MA-8), by playing the same
deals with that card made neutral.

"Which event cards swing games?" asks what a card *does* to who wins, including what it does
through the Fief: Invasion barbare, Peste noire, Révolte paysanne and Tremblement de terre destroy
tiles, Restauration brings one back; the coins a card gives at once (the per-game association of
:mod:`analysis.events`) miss all of that. Here, for each card of the deck, the run's deals are
played twice through the runner (:func:`simcore.runner.prepare` + :func:`simcore.runner.collect`):
with the rules as they are, and with that card **neutralised** — still in the deck, drawn at the
same moment (so every other random draw, every other card and tile, is the same: common random
numbers, same seed), but with every effect field zeroed (:func:`neutralised`; no coins, no losses,
no restoration). A game in which the card is not drawn is the same game in both. The card's
**total effect** on seat s is the mean over *all* the replayed games of (win share with the card −
win share with the neutral card), likewise for the score (final coins); its intervals come from the
paired per-game differences. The games that never draw the card (about three in four) count 0 in
that mean, so it answers "what does this card do to the game, averaged over every deal?"; divided
by the draw rate it is the effect **per game where the card is drawn** ("does it swing the games it
appears in?", :func:`analysis.events.ablation_when_drawn`), the scale of the association
(:mod:`analysis.events`), which is measured in the games where the card fires. The games played
are the run's *first* ``games`` deals (same seed, game indices 0…games − 1).

Intervals are **simultaneous** over the whole table (every card × seat, one family for win shares
and one for scores), built to hold the table as a whole at 95 %: a win-share cell is a paired difference
of proportions (a game moves the seat's win +1, −1 or not at all), its interval built for that
from the games moved up and down, at 1 − 0.05/cells (Bonferroni;
:func:`analysis.questions.share_intervals`; review 224 ablation #1: the normal max-|z| interval
held for the whole table in 87.5 % of tables at 1,000 games); scores, whose every drawn game
moves, keep max-|t| from the joint covariance of the per-game differences
(:func:`analysis.stats.simultaneous`), which holds the table at less than 95 % below 20,000 games
(measured: :data:`analysis.events.SCORE_COVERAGE`; run.json's ``intervals`` says so,
:func:`intervals_text`); ``verdict`` words each
win-share effect by :func:`analysis.stats.practical` against 1 pp (written in the page's words:
"within noise" for its "not shown", :func:`analysis.events.ablation_words`). :func:`event_ablation` returns
the table, :func:`ablation_for_run` plays it for a run directory and writes ``event_ablation.csv``
(one row per card and seat: ``event``, ``name``, ``seat``, ``win_share_effect``, ``score_effect``,
each with ``_low`` and ``_high``, plus ``fires`` (share of games in which the card is drawn),
``unchanged_when_not_drawn``, ``swing`` (the card's largest |win-share effect| over the seats),
``verdict`` and ``score_verdict`` (against the game's smallest score difference that matters),
``win_share_when_drawn`` and ``score_when_drawn`` with ``_low``/``_high``) with run.json,
atomically (:func:`analysis.questions.write_dir`).

May import numpy, polars, the standard library, :mod:`analysis.stats`, :mod:`analysis.load`,
:mod:`analysis.questions`, :mod:`analysis.events` (the table's per-drawn columns and order),
:mod:`simcore.runner`, :mod:`simcore.rundir`, :mod:`simcore.errors`, the Middle-Ages rules
module (never its kernel) and :mod:`strategies.common` (the run's recorded strategy files).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from analysis import events, stats
from analysis.load import seat_label, smallest_difference
from analysis.questions import Moments, deals_words, recorded_run, share_intervals, write_dir
from simcore import runner
from simcore.errors import UsageError
from simcore.games.middle_ages import rules as R
from strategies.common import using_recorded_files

GAME = "middle-ages"
ABLATION_GAMES = 20_000
SMALLEST_KINDS = ("share", "score")       # what --smallest-difference words here (win shares, coins)
SMALLEST_SHARE = 0.01
_EFFECT_FIELDS = ("event_per_tile", "event_per_peasant", "event_per_chest", "event_per_graveyard",
                  "event_per_domain", "event_lose", "event_restore")


def neutralised(rules: R.RulesArrays, event_id: int) -> R.RulesArrays:
    """``rules`` with event card ``event_id`` (MA-8 id) kept in the deck at its place but doing
    nothing: every effect field of its row zeroed (coins per tile/peasant/chest/graveyard tile/
    domain, tiles lost, tiles restored). The deck's size and order are unchanged, so the shuffle and
    every later draw are those of the unmodified rules (common random numbers)."""
    rows = np.flatnonzero(rules.event_ids == event_id)
    if rows.size != 1:
        raise UsageError(f"event {event_id}: not in the deck (ids {sorted(map(int, rules.event_ids))})")
    changes = {}
    for name in _EFFECT_FIELDS:
        a = np.array(getattr(rules, name), copy=True)
        a[rows[0]] = 0
        changes[name] = a
    return replace(rules, **changes)


def _play(rules: R.RulesArrays, players: int, games: int, seed: int, strategies, threads):
    """Win shares and scores (games × players) and the event cards drawn (games × N_EVENTS) of
    games 0 … games − 1 under ``rules``."""
    prep = runner.prepare(GAME, players=players, strategies=strategies, rules_arrays=rules, quiet=True)
    return _play_prepared(prep, players, games, seed, threads)


def _play_prepared(prep, players: int, games: int, seed: int, threads, first: int = 0):
    """:func:`_play` of a prepared run, games ``first`` … ``first + games − 1``."""
    played = runner.collect(prep, games=games, seed=seed, threads=threads, columns=("win_share", "score"),
                            first=first, statistics=False)
    w = np.asarray(played.players["win_share"], np.float64).reshape(-1, players)
    s = np.asarray(played.players["score"], np.float64).reshape(-1, players)
    ev = np.stack([np.asarray(played.games[f"event_{k}"]) for k in range(1, R.N_EVENTS + 1)], axis=1)
    return w, s, ev


#: Games of every deck held in memory at once: the ablation plays them in slices of this many,
#: each slice's paired differences merged into running means and cross-products (review s50
#: questions #2: every game's 2 × cards × seats differences were kept, ~4.3 KB a game, so some
#: millions of games ran out of memory after every deck had been played).
SLICE_GAMES = 1 << 16


_Moments = Moments     # (moved to analysis.questions, shared with the Seigneurial card ablation)


def event_ablation(games: int, *, players: int = 4, strategies=None, seed: int = 0,
                   rules: R.RulesArrays | None = None, threads: int | None = None,
                   progress: Callable[[str], None] | None = None,
                   smallest: dict | None = None) -> pl.DataFrame:
    """The total effect of every event card on every seat's win share and score (module docstring).

    Cards in reading order (:func:`in_reading_order`: clear effects first, by size; ties by event
    id), each card's seats in seat order. Columns: event, name, seat (0-based), seat_label ("Seat
    1"), fires (share of the replayed games that draw the card), unchanged_when_not_drawn (every game without the card came
    out the same in both decks), win_share_effect, win_share_effect_low, win_share_effect_high,
    score_effect, score_effect_low, score_effect_high (means over *all* the games, the ones without
    the card counting 0; simultaneous 95 % intervals, one family for win shares and one for
    scores), swing (the card's largest |win-share effect|), verdict, score_verdict (each effect
    worded by size against the smallest difference that matters: ``smallest``, by kind, over the
    game's own: 1 pp of win share, 2 coins), and the same effects per game where the card is
    drawn, win_share_when_drawn and score_when_drawn with their _low and _high (effect ÷ fires:
    :func:`analysis.events.ablation_when_drawn`).

    The decks are played :data:`SLICE_GAMES` games at a time (every deck's slice, then the next
    slice), their paired differences merged as they come (:class:`_Moments`): memory does not grow
    with ``games``, and game i is the same deal in every slice order (its stream is (seed, i))."""
    say = progress or (lambda _m: None)
    rules = rules if rules is not None else R.load()
    P = players
    ids = [int(e) for e in rules.event_ids]
    prep = runner.prepare(GAME, players=P, strategies=strategies, rules_arrays=rules, quiet=True)
    preps = [runner.prepare(GAME, players=P, strategies=strategies, rules_arrays=neutralised(rules, eid),
                            quiet=True) for eid in ids]
    width = len(ids) * P
    win, score = _Moments(width), _Moments(width)
    drawn_games = np.zeros(len(ids), np.int64)
    unchanged = [True] * len(ids)
    step = prep.games_per_deal * max(1, SLICE_GAMES // prep.games_per_deal)
    slices = [(a, min(step, games - a)) for a in range(0, games, step)]
    for i, (first, n) in enumerate(slices):
        part = (f"{games:,} games" if len(slices) == 1
                else f"games {first + 1:,}–{first + n:,} of {games:,}")
        base_w, base_s, ev = _play_prepared(prep, P, n, seed, threads, first)
        dw = np.empty((n, width))
        ds = np.empty((n, width))
        for k, (eid, deck) in enumerate(zip(ids, preps)):
            say(f"Event ablation: {rules.event_names[k]} neutralised ({k + 1}/{len(ids)}, {part})")
            w, s, ev_n = _play_prepared(deck, P, n, seed, threads, first)
            if not np.array_equal(ev, ev_n):
                raise RuntimeError("the neutralised deck drew other cards: common random numbers broken")
            sl = slice(k * P, (k + 1) * P)
            dw[:, sl] = base_w - w
            ds[:, sl] = base_s - s
            drawn = (ev == eid).any(axis=1)
            drawn_games[k] += int(drawn.sum())
            # a game that never draws the card is the same game in both decks (for bots that do
            # not look ahead at the deck): then effect ÷ fires is exactly the mean over the games
            # drawing it
            unchanged[k] = unchanged[k] and bool((dw[~drawn, sl] == 0).all() and (ds[~drawn, sl] == 0).all())
        win.add(dw)
        score.add(ds)
        del dw, ds
    fires = [float(d) / games for d in drawn_games]
    mw, _ = win.mean_cov()
    ms, cs = score.mean_cov()
    lw, hw = share_intervals(win)          # review 224 ablation #1: paired, per cell, Bonferroni
    ls, hs, _ = stats.simultaneous(ms, cs)
    lw, hw = _bounded(win.nonzero, lw, hw, fires, unchanged, games, P)
    verdict = stats.practical(mw, lw, hw, smallest_difference(GAME, "share", smallest))
    score_verdict = stats.practical(ms, ls, hs, smallest_difference(GAME, "score", smallest))
    rows = []
    for k, eid in enumerate(ids):
        sl = slice(k * P, (k + 1) * P)
        swing = float(np.abs(mw[sl]).max())
        for s in range(P):
            j = k * P + s
            rows.append({"event": eid, "name": rules.event_names[k], "seat": s,
                         "seat_label": seat_label(s), "fires": fires[k],
                         "unchanged_when_not_drawn": unchanged[k],
                         "win_share_effect": mw[j], "win_share_effect_low": lw[j],
                         "win_share_effect_high": hw[j], "score_effect": ms[j],
                         "score_effect_low": ls[j], "score_effect_high": hs[j], "swing": swing,
                         "verdict": str(verdict[j]), "score_verdict": str(score_verdict[j])})
    share = smallest_difference(GAME, "share", smallest)
    table = events.ablation_when_drawn(pl.DataFrame(rows), share, smallest_difference(GAME, "score", smallest))
    return in_reading_order(events.ablation_words(table), share)


def _bounded(moved: np.ndarray, low: np.ndarray, high: np.ndarray, fires: list[float],
             unchanged: list[bool], games: int, P: int) -> tuple[np.ndarray, np.ndarray]:
    """The win-share intervals within what the games can show (review s47 #1).

    A card and seat whose win share no game changes (every paired difference 0: no win flipped
    among the ~51 games of 200 that drew the card) had the point "0.0 to 0.0 pp", counted as ruling
    out 1 pp; such a cell gets the rule-of-three bound instead (:func:`analysis.stats.same_games_bound`
    over the games that draw the card, at the family's level: Bonferroni over the table's cells, so
    the table still holds at 95 % as a whole), scaled by how often the card is drawn when the games
    without it are the same games. And no interval reaches past what a difference of win shares can
    be: ±1 per game, so ±(share of games drawing the card) for the mean over all games when the
    others are unchanged. ``moved``: which cells any game's paired difference moved."""
    low, high = low.copy(), high.copy()
    level = 1.0 - (1.0 - stats.LEVEL) / len(moved)
    for k in range(len(fires)):
        limit = fires[k] if unchanged[k] else 1.0
        bound = stats.same_games_bound(int(round(fires[k] * games)), level) * fires[k]
        for j in range(k * P, (k + 1) * P):
            if not moved[j]:
                low[j], high[j] = -bound, bound
            low[j], high[j] = max(low[j], -limit), min(high[j], limit)
    return low, high


def in_reading_order(ab: pl.DataFrame, share: float) -> pl.DataFrame:
    """The ablation's rows card by card in the page's reading order
    (:func:`analysis.events.ablation_card_order`), each card's seats in seat order."""
    cards = events.ablation_card_order(ab, share)["event"].to_list()
    rank = {e: i for i, e in enumerate(cards)}
    return (ab.with_columns(pl.col("event").replace_strict(rank, return_dtype=pl.Int64).alias("_rank"))
            .sort(["_rank", "seat"]).drop("_rank"))


#: The fewest games per deck the ablation plays: each card is drawn in about a quarter of the games,
#: and with a handful of draws its intervals are NaN (--games 1) or reach past ±100 pp (review s47 #3)
MIN_GAMES = 100


def check_games(n, option: str = "--games") -> int:
    """Games per deck, said as ``option`` (the option the user typed: ``balance questions
    --games``, ``balance report --questions-games``; review s50 questions #5)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"{option} {n}: must be a positive whole number of games per deck")
    if n < MIN_GAMES:
        raise UsageError(f"{option} {n}: too few for the event ablation (each card is drawn in about "
                         f"a quarter of the games); give at least {MIN_GAMES} (default "
                         f"{ABLATION_GAMES:,})")
    return n


def ablation_for_run(run: str | Path, games: int, out: str | Path, *, force: bool = False,
                     threads: int | None = None,
                     progress: Callable[[str], None] | None = None,
                     smallest: dict | None = None, option: str = "--games") -> Path:
    """Play the event ablation for the Middle-Ages run ``run`` (its rules from run.json
    ``rules_text``, its player count, seed and bots) with ``games`` games per deck, and write
    ``event_ablation.csv`` and run.json into ``out``; ``smallest`` (``--smallest-difference``, by
    kind) words the effects and is recorded in run.json ``smallest_difference``. Errors (not a Middle-Ages run, no rules
    text, bots that cannot be rebuilt) are one-line :class:`UsageError` raised before any game."""
    games = check_games(games, option)     # (option: the games' option as the user typed it)
    run = Path(run)
    meta, rules, rules_name, P, names, seed = recorded_run(run, GAME, "the event ablation", R.loads)
    with using_recorded_files(meta.get("strategy_files")):     # the run's bots, as it read them
        try:      # the bots are resolved here, before the long work, so a bad name is one line
            runner.prepare(GAME, players=P, strategies=names, rules_arrays=rules, quiet=True)
        except UsageError as exc:
            raise UsageError(f"{run}: the run's bots cannot be rebuilt here ({exc})") from None
        t0 = time.perf_counter()
        table = event_ablation(games, players=P, strategies=names, seed=seed, rules=rules,
                               threads=threads, progress=progress, smallest=smallest)
    return write_dir(out, {"event_ablation": table}, {
        "game": GAME, "command": "questions", "for_run": str(run), "games": games,
        "players": P, "strategies": names, "seed": seed, "rules_name": rules_name,
        "rules_sha256": meta.get("rules_sha256"),
        "intervals": intervals_text(games),
        "deals": _deals_words(meta, games, seed),
        "smallest_share_difference": smallest_difference(GAME, "share", smallest),
        "smallest_difference": {k: smallest_difference(GAME, k, smallest) for k in ("share", "score")},
        "wall_time_s": round(time.perf_counter() - t0, 2)}, force)


_deals_words = deals_words     # (moved to analysis.questions)


def intervals_text(games) -> str:
    """run.json's ``intervals``: how the table's intervals were built and the level they hold at,
    with, below :data:`analysis.events.SCORE_HOLDS_FROM` games, the score family's measured
    shortfall (:func:`analysis.events.score_coverage`)."""
    text = ("simultaneous 95% over every card and seat, one family for win shares, one for scores: "
            "win shares, each cell's paired-proportions interval (MOVER over exact Clopper-Pearson "
            "ends) at 1 - 0.05/cells (Bonferroni); scores, max-|t| from the paired per-game "
            "differences")
    if events.score_coverage(games) is not None:
        text += (f"; with {int(games):,} games the score intervals hold together less often than "
                 f"95% ({events.measured_coverage(games)})")
    return text


questions_command = ablation_for_run     # what `balance questions RUN` plays for this game
