"""Seigneurial card ablation: what each Censitaire and Seigneur card (SG-3) does to who wins, by
playing the same deals with that card made neutral.

"Which card swings games?" For each card kind in the decks — Récolte, Cachette, Troc (the
Censitaires'), Réquisition, Corvée (the Seigneur's) — the run's deals are played twice through the
runner (:func:`simcore.runner.prepare` + :func:`simcore.runner.collect`): with the rules as they are,
and with that card **neutral** (:data:`NEUTRAL`): still in its deck, dealt, held and played by the
bots exactly as before, asking the same choices, but doing nothing — a Récolte draws no card
(``recolte_draws = 0``), a Cachette hides no hand (``cachette_hides = false``), a Troc keeps the card
given and draws none (``troc_discards = 0``, ``troc_draws = 0``), a Réquisition gives no extra forced
draw (``requisition_draws = 0``), a Corvée discards nothing (``corvee_discards = 0``). Same seed, same
game indices: every game starts from the same deal, and the two games part only where the card
would have acted (later draws from a resource pile then differ, since a card that draws nothing
leaves the pile as it was). The card's **total effect** on a seat is the mean over all the replayed
games of (win share with the card − win share with the card neutral), likewise for the score (% of
own goal, the game's score); intervals come from the paired per-game differences. Seat 1 is the
Seigneur, so his row is the role balance: the Censitaires together move by exactly the opposite
(every game's win shares sum to 1, SG-6). ``games_changed`` is the share of games whose win shares
differ at all between the two decks (how often the card decides who wins, either way).

The bots are the run's and do not know a card is neutral (their heuristics value a card whatever its
settings: docs/seigneurial.md), so the effect is the card's effect with the play held as it is —
except a search bot's, whose playouts play the neutral rules (run.json ``search_seats``; the page
and the printed summary say so); a
card absent from its deck (a count of 0) or already doing nothing under the run's rules has no row
(run.json ``left_out`` says why).

Intervals are **simultaneous** over the whole table (every card × seat, one family for win shares
and one for scores): a win-share cell, a paired difference of proportions, gets the interval built
for that from the games moved up and down at 1 − 0.05/cells (Bonferroni;
:func:`analysis.questions.share_intervals`, review 224 ablation #1); scores, max-|t| from the joint
covariance of the per-game differences (:func:`analysis.stats.simultaneous`); a cell no game moved gets the rule-of-three bound at the
family's level (:func:`analysis.stats.same_games_bound`). ``verdict`` words each win-share effect by
size against the smallest difference that matters (1 pp by default, ``--smallest-difference``),
``score_verdict`` each score effect (2 points of % of own goal), in the page's words
(:func:`analysis.events.ablation_words`: "within noise" where the interval holds 0).
:func:`card_ablation` returns the table; :func:`ablation_for_run` plays it for a run directory
(``balance questions RUN --out DIR``) and writes ``card_ablation.csv`` and run.json atomically
(:func:`analysis.questions.write_dir`).

This module is the Seigneurial spec's ``analysis_hooks`` (``balance questions`` finds
:data:`questions_command` here, as for Middle-Ages and Médiévallons); it re-exports the table hooks
of :mod:`analysis.games.seigneurial` (``tables``, ``table``, ``available``, ``TABLES``,
``TABLE_WORDS``), which the report reads without importing this module.

May import :mod:`analysis.games.seigneurial` (its table hooks), numpy, polars, the standard library, :mod:`analysis.stats`, :mod:`analysis.load`,
:mod:`analysis.events` (the verdicts' words), :mod:`analysis.questions`, :mod:`simcore.runner`,
:mod:`simcore.errors`, :mod:`simcore.config`, the Seigneurial rules module (never its kernel),
:mod:`strategies.common` (the run's recorded strategy files) and, lazily, :mod:`strategies.seigneurial`
(which seats a search bot plays).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from analysis import events, stats
from analysis.games.seigneurial import TABLE_WORDS, TABLES, available, table, tables  # noqa: F401 (the spec's hook)
from analysis.load import seat_label, smallest_difference
from analysis.questions import Moments, deals_words, recorded_run, share_intervals, write_dir
from simcore import runner
from simcore.errors import UsageError
from simcore.games.seigneurial import rules as R
from strategies.common import using_recorded_files

GAME = "seigneurial"
ABLATION_GAMES = 20_000
#: The fewest games per deck: below it most cells are bounds, not estimates.
MIN_GAMES = 100
SMALLEST_KINDS = ("share", "score")       # what --smallest-difference words here
#: Games of every deck held in memory at once (as the Middle-Ages ablation; memory stays flat).
SLICE_GAMES = 1 << 16

#: Each card kind: (key, name, deck, its count in the rules, the settings that make it neutral as
#: (``card_effects`` index, rules key)). SG-3.
CARDS = (
    ("recolte", "Récolte", "Censitaire", ("censitaire_counts", R.RECOLTE),
     ((R.FX_RECOLTE_DRAWS, "recolte_draws"),)),
    ("cachette", "Cachette", "Censitaire", ("censitaire_counts", R.CACHETTE),
     ((R.FX_CACHETTE_HIDES, "cachette_hides"),)),
    ("troc", "Troc", "Censitaire", ("censitaire_counts", R.TROC),
     ((R.FX_TROC_DISCARDS, "troc_discards"), (R.FX_TROC_DRAWS, "troc_draws"))),
    ("requisition", "Réquisition", "Seigneur", ("seigneur_counts", R.REQUISITION),
     ((R.FX_REQUISITION_DRAWS, "requisition_draws"),)),
    ("corvee", "Corvée", "Seigneur", ("seigneur_counts", R.CORVEE),
     ((R.FX_CORVEE_DISCARDS, "corvee_discards"),)),
)
#: What "neutral" sets, per card, in the rules' words (run.json and the page say it).
NEUTRAL = {key: ", ".join(f"{name} = {'false' if name == 'cachette_hides' else 0}" for _, name in fx)
           for key, _, _, _, fx in CARDS}


def neutralised(rules: R.RulesArrays, key: str) -> R.RulesArrays:
    """``rules`` with card kind ``key`` doing nothing (its :data:`CARDS` settings at 0); the decks,
    their counts and every other setting unchanged, so each game starts from the same deal."""
    fx = next(c[4] for c in CARDS if c[0] == key)
    effects = np.array(rules.card_effects, copy=True)
    for index, _ in fx:
        effects[index] = 0
    return replace(rules, card_effects=effects)


def left_out(rules: R.RulesArrays) -> dict[str, str]:
    """The card kinds the ablation plays no deck for, with why: none in the deck, or doing nothing
    already under these rules."""
    out = {}
    for key, name, deck, (counts, k), fx in CARDS:
        if int(getattr(rules, counts)[k]) == 0:
            out[key] = f"{name}: not in the {deck} deck (a count of 0)"
        elif all(rules.card_effect(i) == 0 for i, _ in fx):
            out[key] = f"{name}: does nothing already ({NEUTRAL[key]})"
    return out


def _play(prep, players: int, games: int, seed: int, threads, first: int):
    played = runner.collect(prep, games=games, seed=seed, threads=threads, columns=("win_share", "score"),
                            first=first, statistics=False)
    w = np.asarray(played.players["win_share"], np.float64).reshape(-1, players)
    s = np.asarray(played.players["score"], np.float64).reshape(-1, players)
    return w, s


def card_ablation(games: int, *, players: int = 4, strategies=None, seed: int = 0,
                  rules: R.RulesArrays | None = None, threads: int | None = None,
                  progress: Callable[[str], None] | None = None,
                  smallest: dict | None = None) -> pl.DataFrame:
    """The total effect of every card kind on every seat's win share and score (module docstring).

    Rows: cards in reading order (the largest |effect on the Seigneur's win share| first among the
    clear ones, :func:`in_reading_order`), each card's seats in seat order. Columns: card (the
    rules' key), name, deck ("Censitaire" or "Seigneur"), neutral (the settings that make it
    neutral), seat (0-based; 0 = the Seigneur), seat_label, role, games_changed (share of games
    whose win shares differ), win_share_with (the seat's win share over these games with the
    cards as they are, the same on every card's rows), win_share_neutral (with this card neutral),
    win_share_effect, win_share_effect_low, win_share_effect_high,
    score_effect, score_effect_low, score_effect_high, swing (|the Seigneur's win-share effect|:
    the role balance's move), verdict, score_verdict. Empty (no rows) when every card is left out."""
    say = progress or (lambda _m: None)
    rules = rules if rules is not None else R.load()
    P = players
    skip = left_out(rules)
    cards = [c for c in CARDS if c[0] not in skip]
    columns = ("card", "name", "deck", "neutral", "seat", "seat_label", "role", "games_changed",
               "win_share_with", "win_share_neutral",
               "win_share_effect", "win_share_effect_low", "win_share_effect_high", "score_effect",
               "score_effect_low", "score_effect_high", "swing", "verdict", "score_verdict")
    if not cards:
        return pl.DataFrame(schema={c: (pl.Int64 if c == "seat" else pl.Float64 if c.endswith(
            ("effect", "_low", "_high", "changed", "swing", "_with", "_neutral")) else pl.String)
            for c in columns})
    prep = runner.prepare(GAME, players=P, strategies=strategies, rules_arrays=rules, quiet=True)
    preps = [runner.prepare(GAME, players=P, strategies=strategies, rules_arrays=neutralised(rules, c[0]),
                            quiet=True) for c in cards]
    width = len(cards) * P
    win, score = Moments(width), Moments(width)
    changed = np.zeros(len(cards), np.int64)
    with_card = np.zeros(P)         # each seat's win share with the cards as they are (summed)
    step = prep.games_per_deal * max(1, SLICE_GAMES // prep.games_per_deal)
    slices = [(a, min(step, games - a)) for a in range(0, games, step)]
    for first, n in slices:
        part = (f"{games:,} games" if len(slices) == 1
                else f"games {first + 1:,}–{first + n:,} of {games:,}")
        say(f"Card ablation: the rules as they are ({part})")
        base_w, base_s = _play(prep, P, n, seed, threads, first)
        with_card += base_w.sum(axis=0)
        dw = np.empty((n, width))
        ds = np.empty((n, width))
        for k, (card, deck) in enumerate(zip(cards, preps)):
            say(f"Card ablation: {card[1]} neutral ({k + 1}/{len(cards)}, {part})")
            w, s = _play(deck, P, n, seed, threads, first)
            sl = slice(k * P, (k + 1) * P)
            dw[:, sl] = base_w - w
            ds[:, sl] = base_s - s
            changed[k] += int((dw[:, sl] != 0).any(axis=1).sum())
        win.add(dw)
        score.add(ds)
        del dw, ds
    mw, _ = win.mean_cov()
    ms, cs = score.mean_cov()
    lw, hw = share_intervals(win)          # review 224 ablation #1: paired, per cell, Bonferroni
    ls, hs, _ = stats.simultaneous(ms, cs)
    lw, hw = _bounded(win.nonzero, lw, hw, games, 1.0)
    ls, hs = _bounded(score.nonzero, ls, hs, games, 100.0)
    share = smallest_difference(GAME, "share", smallest)
    verdict = stats.practical(mw, lw, hw, share)
    score_verdict = stats.practical(ms, ls, hs, smallest_difference(GAME, "score", smallest))
    rows = []
    for k, (key, name, deck, _, _) in enumerate(cards):
        for s in range(P):
            j = k * P + s
            rows.append({"card": key, "name": name, "deck": deck, "neutral": NEUTRAL[key], "seat": s,
                         "seat_label": seat_label(s), "role": "Seigneur" if s == 0 else "Censitaire",
                         "games_changed": float(changed[k]) / games,
                         "win_share_with": float(with_card[s]) / games,
                         "win_share_neutral": float(with_card[s]) / games - mw[j],
                         "win_share_effect": mw[j], "win_share_effect_low": lw[j],
                         "win_share_effect_high": hw[j], "score_effect": ms[j],
                         "score_effect_low": ls[j], "score_effect_high": hs[j],
                         "swing": float(abs(mw[k * P])), "verdict": str(verdict[j]),
                         "score_verdict": str(score_verdict[j])})
    return in_reading_order(events.ablation_words(pl.DataFrame(rows)))


def _bounded(moved: np.ndarray, low: np.ndarray, high: np.ndarray, games: int,
             limit: float) -> tuple[np.ndarray, np.ndarray]:
    """Intervals within what the games can show: a cell no game moved (every paired difference 0)
    gets the rule-of-three bound over all the games at the family's level (Bonferroni over the
    table's cells, so the table still holds at 95 % as a whole), times the most one game's
    difference can be (``limit``: 1 for a win share, 100 for a score in % of own goal); no interval
    reaches past ± ``limit``."""
    low, high = low.copy(), high.copy()
    level = 1.0 - (1.0 - stats.LEVEL) / len(moved)
    bound = stats.same_games_bound(games, level) * limit
    for j in range(len(moved)):
        if not moved[j]:
            low[j], high[j] = -bound, bound
        low[j], high[j] = max(low[j], -limit), min(high[j], limit)
    return low, high


def in_reading_order(ab: pl.DataFrame) -> pl.DataFrame:
    """Cards by what they do to the role balance: clear effects on the Seigneur's win share first,
    by size, then the rest by size (ties in deck order); each card's seats in seat order."""
    seig = ab.filter(pl.col("seat") == 0)
    order = {k: i for i, k in enumerate(CARDS_ORDER)}
    keyed = sorted(seig.iter_rows(named=True), key=lambda r: (
        r["verdict"] == events.WITHIN_NOISE, -abs(r["win_share_effect"]), order[r["card"]]))
    rank = {r["card"]: i for i, r in enumerate(keyed)}
    return (ab.with_columns(pl.col("card").replace_strict(rank, return_dtype=pl.Int64).alias("_rank"))
            .sort(["_rank", "seat"]).drop("_rank"))


CARDS_ORDER = tuple(c[0] for c in CARDS)


def _search_seats(prep) -> list[int]:
    """The seats (0-based) a search bot plays: its playouts play the rules the deck is played with,
    so with a card made neutral it plays differently from its first decision."""
    from strategies import seigneurial as S

    out = []
    for seat, name in enumerate(getattr(prep, "strategy_names", None) or []):
        try:
            if S.lookup(str(name)).kind == "search":
                out.append(seat)
        except UsageError:
            pass
    return out


def check_games(n, option: str = "--games") -> int:
    """Games per deck, said as ``option`` (the option the user typed)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"{option} {n}: must be a positive whole number of games per deck")
    if n < MIN_GAMES:
        raise UsageError(f"{option} {n}: too few for the card ablation; give at least {MIN_GAMES} "
                         f"(default {ABLATION_GAMES:,})")
    return n


def ablation_for_run(run: str | Path, games: int, out: str | Path, *, force: bool = False,
                     threads: int | None = None, progress: Callable[[str], None] | None = None,
                     smallest: dict | None = None, option: str = "--games") -> Path:
    """Play the card ablation for the Seigneurial run ``run`` (its rules from run.json
    ``rules_text``, its player count, seed and bots) with ``games`` games per deck, and write
    ``card_ablation.csv`` and run.json into ``out``. Errors (not a Seigneurial run, no rules text,
    bots that cannot be rebuilt, no card to measure) are one-line :class:`UsageError` raised before
    any game."""
    games = check_games(games, option)
    run = Path(run)
    meta, rules, rules_name, P, names, seed = recorded_run(run, GAME, "the card ablation", R.loads)
    skip = left_out(rules)
    if len(skip) == len(CARDS):
        raise UsageError(f"{run}: no card to measure ({'; '.join(skip.values())})")
    with using_recorded_files(meta.get("strategy_files")):     # the run's bots, as it read them
        try:      # resolved before the long work, so a bad name is one line
            prep = runner.prepare(GAME, players=P, strategies=names, rules_arrays=rules, quiet=True)
        except UsageError as exc:
            raise UsageError(f"{run}: the run's bots cannot be rebuilt here ({exc})") from None
        search_seats = _search_seats(prep)
        t0 = time.perf_counter()
        table = card_ablation(games, players=P, strategies=names, seed=seed, rules=rules,
                              threads=threads, progress=progress, smallest=smallest)
    return write_dir(out, {"card_ablation": table}, {
        "game": GAME, "command": "questions", "for_run": str(run), "games": games,
        "players": P, "strategies": names, "seed": seed, "rules_name": rules_name,
        "rules_sha256": meta.get("rules_sha256"),
        "intervals": "simultaneous 95% over every card and seat, one family for win shares, one for "
                     "scores: win shares, each cell's paired-proportions interval (MOVER over exact "
                     "Clopper-Pearson ends) at 1 - 0.05/cells (Bonferroni); scores, max-|t| from "
                     "the paired per-game differences",
        "deals": deals_words(meta, games, seed),
        "neutral": {c[0]: NEUTRAL[c[0]] for c in CARDS if c[0] not in skip},
        "left_out": skip,
        # seats played by a search bot: its playouts play the neutral rules (the page says so)
        "search_seats": search_seats,
        "smallest_difference": {k: smallest_difference(GAME, k, smallest) for k in SMALLEST_KINDS},
        "wall_time_s": round(time.perf_counter() - t0, 2)}, force)


questions_command = ablation_for_run     # what `balance questions RUN` plays for this game
