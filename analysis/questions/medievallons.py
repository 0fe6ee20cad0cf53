"""Médiévallons balance questions, played by the runner at fixed seeds (MV-1, MV-2, MV-6, MV-7).

Each function plays what it needs through :func:`simcore.runner.prepare` +
:func:`simcore.runner.collect` (the same games ``simulate --game medievallons`` would write, read
by the spec's column names: ``win_share``, ``founded_<type>``, ``turns``, ``end_reason``,
``reshuffles``) and returns a :class:`polars.DataFrame` with standard errors beside every rate, so
the answers are reproducible and carry their own uncertainty:

- :func:`first_player_advantage` -- win share of each seat against the fair 1/P, per player count;
- :func:`game_length` -- turns (mean, quantiles, binned) and the end reasons (MV-6/MV-7) per player
  count;
- :func:`card_types` -- per card type, the share of players who founded a guild of it and their win
  share, and the card ablation: the same figures when one copy of that type is removed from the
  deck (a rules variant built by :func:`simcore.games.medievallons.rules.with_copies`, i.e. through
  the rules loader);
- :func:`best_of_three` -- the 2-player "best of 3 rounds" match (MV-7) next to the single round.

A :class:`Plays` plays each configuration once: the first-player and game-length tables of one
player count, and the card table at that count, share their games (same rules, bots and seed are
the same games). :func:`all_questions` plays every table for any settings (tests, Python);
:func:`questions_for_run` plays the set for one Médiévallons run (its rules from run.json
``rules_text``, its seed, its bot) into a questions directory: ``balance questions RUN --out DIR``
(:mod:`cli.questions`, which replaced ``balance medievallons-questions``) writes it, and
``balance report`` reads it or plays it itself (:mod:`reports.games.medievallons`, which also
words the summary ``balance questions`` prints). The card table's ``verdict`` column is in the
page's words (:func:`card_ablation_verdicts`), and run.json records the run the questions were
played for (path, creation time, games.parquet's SHA-256, player count, games), so a report of
another run refuses them.

May import numpy, polars, the standard library, :mod:`analysis.questions`, :mod:`analysis.stats`,
:mod:`analysis.load` (smallest differences), :mod:`simcore.runner`,
:mod:`simcore.rundir`, :mod:`simcore.errors`, the Médiévallons rules module (never its kernel) and,
lazily, :mod:`strategies.medievallons` (to look a bot up); :mod:`strategies.common` (the run's
recorded strategy files).
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from analysis.questions import std_error as _se
from analysis.questions import run_meta, write_dir
from simcore import runner
from simcore.errors import UsageError
from simcore.games.medievallons import rules as R
from strategies.common import using_recorded_files

GAME = "medievallons"
QUESTIONS_GAMES = 10_000          # per question and per rules variant: ~15 s for a 4-player run
FALLBACK_STRATEGY = "balanced"
SMALLEST_KINDS = ("share", "length")      # what --smallest-difference words here (win shares, turns)
DEFAULT_PAIRS = (("balanced", "collector"), ("saboteur", "balanced"), ("balanced", "random"))
FOUNDED = tuple(f"founded_{t}" for t in R.CARD_TYPES)
PLAYER_COLUMNS = ("win_share", *FOUNDED)


def _rules(rules) -> R.RulesArrays:
    return rules if rules is not None else R.load()


def _rules_key(rules: R.RulesArrays) -> tuple:
    return (rules.source.sha256, rules.copies.tobytes(), rules.params.tobytes(),
            tuple(rules.allowed_players))


class Plays:
    """Plays configurations through the runner, each once (same key, same games: no replay).

    ``plays(rules, players, games, seed, strategies)`` returns the games as numpy arrays by column
    name: the player columns ``win_share`` and ``founded_<type>`` (``games * players`` rows, game
    then seat) and the game columns ``turns``, ``end_reason``, ``reshuffles``, plus
    ``end_reason_names`` (code → name, as run.json records them).
    """

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads
        self._memo: dict[tuple, dict] = {}

    def __call__(self, rules: R.RulesArrays, players: int, games: int, seed: int,
                 strategies: list[str] | tuple[str, ...] | str) -> dict:
        who = strategies if isinstance(strategies, str) else tuple(strategies)
        key = (_rules_key(rules), players, games, seed, who)
        if key not in self._memo:
            names = strategies if isinstance(strategies, str) else list(strategies)
            prep = runner.prepare(GAME, players=players, strategies=names, rules_arrays=rules)
            played = runner.collect(prep, games=games, seed=seed, threads=self.threads,
                                    columns=PLAYER_COLUMNS)
            out = {c: played.players.column(c).to_numpy() for c in PLAYER_COLUMNS}
            out.update({c: played.games.column(c).to_numpy()
                        for c in ("turns", "end_reason", "reshuffles")})
            out["end_reason_names"] = {int(k): v for k, v in prep.meta["end_reason_names"].items()}
            self._memo[key] = out
        return self._memo[key]


def first_player_advantage(games: int, *, players=(2, 3, 4, 5), strategy: str = "balanced",
                           seed: int = 0, rules=None, plays: Plays | None = None) -> pl.DataFrame:
    """Win share per seat (seat 0 plays first, MV-2) with identical bots, against 1/P.

    ``z`` = (win share - 1/P) / standard error; |z| > 3 is a seat effect beyond noise."""
    rules, plays = _rules(rules), plays or Plays()
    out = []
    for P in players:
        o = plays(rules, P, games, seed, strategy)
        w = o["win_share"].reshape(-1, P).astype(np.float64)
        for s in range(P):
            m, se = float(w[:, s].mean()), _se(w[:, s])
            out.append(dict(players=P, seat=s, games=games, win_share=m, std_error=se,
                            fair=1 / P, advantage=m - 1 / P,
                            z=(m - 1 / P) / se if se > 0 else float("nan")))
    return pl.DataFrame(out)


def game_length(games: int, *, players=(2, 3, 4, 5), strategy: str = "balanced", seed: int = 0,
                rules=None, plays: Plays | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Turns per game (mean, standard error, quantiles) and end reasons per player count.

    Returns (summary, distribution): the distribution is the share of games per 10-turn bin."""
    rules, plays = _rules(rules), plays or Plays()
    summary, dist = [], []
    for P in players:
        o = plays(rules, P, games, seed, strategy)
        t = o["turns"].astype(np.float64)
        q = np.quantile(t, [0.05, 0.25, 0.5, 0.75, 0.95])
        row = dict(players=P, games=games, mean_turns=float(t.mean()), std_error=_se(t),
                   p05=q[0], p25=q[1], median=q[2], p75=q[3], p95=q[4], max=float(t.max()),
                   mean_reshuffles=float(o["reshuffles"].mean()))
        for code, name in sorted(o["end_reason_names"].items()):
            row[f"share_{name}"] = float((o["end_reason"] == code).mean())
        summary.append(row)
        edges = np.arange(0, int(t.max()) + 11, 10)
        counts, _ = np.histogram(t, bins=edges)
        for lo, c in zip(edges[:-1], counts):
            if c:
                dist.append(dict(players=P, turns_from=int(lo), turns_to=int(lo) + 9,
                                 games=int(c), share=c / games))
    return pl.DataFrame(summary), pl.DataFrame(dist)


def _founder_figures(o: dict) -> dict[int, tuple[float, float, float, float, int]]:
    """Per type: (share of player-games founding it, founders' win share, its SE,
    non-founders' win share, founders count)."""
    w = o["win_share"].astype(np.float64)
    res = {}
    for t, col in enumerate(FOUNDED):
        f = o[col] > 0
        n = int(f.sum())
        res[t] = (float(f.mean()), float(w[f].mean()) if n else float("nan"),
                  _se(w[f]) if n > 1 else float("nan"),
                  float(w[~f].mean()) if (~f).any() else float("nan"), n)
    return res


def card_types(games: int, *, players: int = 4, strategy: str = "balanced", seed: int = 0,
               rules=None, ablation: bool = True, plays: Plays | None = None) -> pl.DataFrame:
    """Per card type: who founds a guild of it and how they fare; then the card ablation.

    ``founded_share`` = share of player-games that founded at least one guild of the type;
    ``founders_win_share`` = their mean win share (1/P = no better than anyone). For the ablation
    the same games are played with one copy of the type removed (``copies - 1``, a rules variant
    loaded and validated like a file; ``founders_after`` founders there): ``delta_founders_win_share`` is the change of the founders'
    win share, with its standard error (independent samples) and ``z``; ``delta_mean_turns`` the
    change in game length. The Bouffon row counts guilds of Bouffons only."""
    rules, plays = _rules(rules), plays or Plays()
    base = plays(rules, players, games, seed, strategy)
    fb = _founder_figures(base)
    turns0 = base["turns"].astype(np.float64)
    out = []
    for t, name in enumerate(R.CARD_TYPES):
        share, wf, se, wn, n = fb[t]
        row = dict(card=name, players=players, games=games, founded_share=share,
                   founders_win_share=wf, founders_std_error=se, others_win_share=wn,
                   founders=n)
        if ablation and int(rules.copies[t]) > 0:
            variant = R.with_copies(rules, {name: int(rules.copies[t]) - 1})
            o = plays(variant, players, games, seed + 1 + t, strategy)
            share2, wf2, se2, _, n2 = _founder_figures(o)[t]
            d = wf2 - wf
            sd = math.sqrt(se * se + se2 * se2) if se == se and se2 == se2 else float("nan")
            t2 = o["turns"].astype(np.float64)
            row.update(copies_after=int(rules.copies[t]) - 1, founded_share_after=share2,
                       founders_after=n2, founders_win_share_after=wf2, delta_founders_win_share=d,
                       delta_std_error=sd, z=d / sd if sd and sd == sd else float("nan"),
                       delta_mean_turns=float(t2.mean() - turns0.mean()),
                       delta_turns_std_error=math.hypot(_se(turns0), _se(t2)))
        out.append(row)
    return pl.DataFrame(out)


def compose_matches(a_first: np.ndarray, b_first: np.ndarray, max_rounds: int = 3
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Best-of-3 matches (MV-7 2-player variant) from independent rounds, in order.

    ``a_first`` / ``b_first``: bot A's win share in rounds started by A / by B (1, 0 or 0.5 for a
    shared round). Match m starts with A if m is even, with B otherwise, then the first player
    alternates. A shared round gives no round win; the match ends at 2 round wins or after
    ``max_rounds`` rounds (the book: "au maximum 3 manches"; more round wins takes it, else
    shared: 0.5). Rounds are consumed from
    the front of each pool; matches are composed while both pools last. Returns (A's match
    results, rounds per match).
    """
    used = [0, 0]
    pools = (a_first, b_first)
    results, rounds = [], []
    m = 0
    while True:
        wins_a = wins_b = r = 0
        while r < max_rounds and wins_a < 2 and wins_b < 2:
            starter = (m + r) % 2
            if used[starter] >= len(pools[starter]):
                return np.array(results, np.float64), np.array(rounds, np.int64)
            share = float(pools[starter][used[starter]])
            used[starter] += 1
            wins_a += share == 1.0
            wins_b += share == 0.0
            r += 1
        results.append(1.0 if wins_a > wins_b else (0.0 if wins_b > wins_a else 0.5))
        rounds.append(r)
        m += 1


def best_of_three(games: int, *, pairs=DEFAULT_PAIRS, seed: int = 0, rules=None,
                  max_rounds: int = 3, plays: Plays | None = None) -> pl.DataFrame:
    """2 players: bot A against bot B, one round versus a best-of-3 match (MV-7 variant).

    ``games`` matches per pair (:func:`compose_matches`: the first player alternates, A starts
    half of the matches). The single-round rate is A's mean win share over as many rounds started
    by A as by B; ``as_first_player`` / ``as_second_player`` split it by seat."""
    rules, plays = _rules(rules), plays or Plays()
    R.check_players(rules, 2)
    out = []
    for k, (a, b) in enumerate(pairs):
        size = games * 3 // 2 + 64          # ~1.25 rounds per match from each pool on average
        while True:
            pool_a = plays(rules, 2, size, seed + 2 * k, [a, b])["win_share"].reshape(-1, 2)[:, 0]
            pool_b = plays(rules, 2, size, seed + 2 * k + 1, [b, a])["win_share"].reshape(-1, 2)[:, 1]
            match, rounds = compose_matches(pool_a, pool_b, max_rounds)
            if len(match) >= games:
                break
            size *= 2                       # same seeds: the first rounds are the same games
        match, rounds = match[:games], rounds[:games]
        single = np.concatenate([pool_a, pool_b]).astype(np.float64)
        out.append(dict(bot=a, opponent=b, matches=games,
                        single_round_win_rate=float(single.mean()), single_std_error=_se(single),
                        single_rounds=len(single),
                        as_first_player=float(pool_a.mean()), as_second_player=float(pool_b.mean()),
                        match_win_rate=float(match.mean()), match_std_error=_se(match),
                        mean_rounds=float(rounds.mean())))
    return pl.DataFrame(out)


def all_questions(games: int, *, players=(2, 3, 4, 5), strategy: str = "balanced", seed: int = 0,
                  rules=None, card_players: int = 4, ablation: bool = True,
                  pairs=None, threads: int | None = None) -> dict[str, pl.DataFrame]:
    """Every table, by file stem (the full set of Médiévallons questions, any settings)."""
    rules, plays = _rules(rules), Plays(threads)
    length, dist = game_length(games, players=players, strategy=strategy, seed=seed, rules=rules,
                               plays=plays)
    tables = {
        "first_player": first_player_advantage(games, players=players, strategy=strategy,
                                               seed=seed, rules=rules, plays=plays),
        "game_length": length,
        "length_distribution": dist,
        "card_types": card_types(games, players=card_players, strategy=strategy, seed=seed,
                                 rules=rules, ablation=ablation, plays=plays),
    }
    if 2 in rules.allowed_players:
        kw = {} if pairs is None else {"pairs": pairs}
        tables["best_of_three"] = best_of_three(games, seed=seed, rules=rules, plays=plays, **kw)
    return tables


# ---------------------------------------------------------------------------------------------
# The questions a report shows for one run
# ---------------------------------------------------------------------------------------------

def choose_strategy(meta: dict) -> tuple[str, str]:
    """(strategy to play, why, as a phrase for the report's intro) for a run's run.json."""
    from strategies import medievallons as S

    names = [s for s in meta.get("strategies") or [] if isinstance(s, str)]
    if not names:
        return FALLBACK_STRATEGY, f"{FALLBACK_STRATEGY} bots at every seat (run.json names no strategies)"
    if len(set(names)) > 1:
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run mixes "
                                   f"{', '.join(dict.fromkeys(names))}; these questions need identical bots)")
    name = names[0]
    try:
        kind = S.lookup(name).kind
    except UsageError as exc:
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run's strategy {name} "
                                   f"cannot be loaded here: {exc})")
    if kind == "playout":
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run's {name} is a playout "
                                   "bot, far too slow for this many games)")
    return name, f"{name} bots at every seat, as in the run"


def check_games(n) -> int:
    """Games per question for :func:`questions_for_run`: a positive whole number (UsageError)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise UsageError(f"--questions-games {n}: must be 0 (skip the played questions) or a positive "
                         "whole number of games")
    return n


ABLATION_MIN_FOUNDED = 0.005     # a type founded by fewer players has no ablation verdict (the report's rule)
WITHIN_NOISE = "within noise"          # the page's words (analysis.export.report_verdicts)
TOO_FEW = "too few players to say"


def ablation_family(ct: pl.DataFrame) -> np.ndarray:
    """Which rows of ``ct`` are tested in the card ablation's family: a change with a z, of a type
    founded by at least :data:`ABLATION_MIN_FOUNDED` of the players (the rule the report's section
    applies, ``reports.games.medievallons._ablation_rows``, so the CSV and the page agree)."""
    d = ct["delta_founders_win_share"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    z = ct["z"].cast(pl.Float64).fill_null(np.nan).to_numpy()
    return np.isfinite(d) & np.isfinite(z) & (ct["founded_share"].to_numpy() >= ABLATION_MIN_FOUNDED)


def card_ablation_verdicts(ct: pl.DataFrame, smallest: dict | None = None) -> pl.DataFrame:
    """``ct`` (:func:`card_types` with the ablation) with ``smallest`` (the smallest win-share
    difference that matters: ``smallest`` by kind over the game's own, 1 pp) and ``verdict``: each
    type's change of its founders' win share worded by size, in the words the report's page gives
    it (:func:`analysis.stats.practical_holm`: clear by Holm over the types of
    :func:`ablation_family`, its size read on the Bonferroni interval over them: "clear and large
    enough to matter" / "clear, may matter" / "clear but small" / "within noise"; a type founded
    by under 1 % of the players, before or after, is never clear; a type outside the family, "too
    few players to say")."""
    if "delta_founders_win_share" not in ct.columns:
        return ct
    from analysis import stats
    from analysis.load import smallest_difference

    small = smallest_difference(GAME, "share", smallest)
    family = ablation_family(ct)
    words = np.array([TOO_FEW] * ct.height, dtype=object)
    if family.any():
        d = ct.filter(pl.Series(family))
        support = np.minimum(d["founded_share"].to_numpy(), d["founded_share_after"].fill_null(0.0).to_numpy())
        verdict = np.atleast_1d(stats.practical_holm(d["delta_founders_win_share"].to_numpy(),
                                                     d["z"].to_numpy(), small, support=support))
        words[family] = [WITHIN_NOISE if str(v) == stats.NOT_SHOWN else str(v) for v in verdict]
    return ct.with_columns(pl.lit(small).alias("smallest"), pl.Series("verdict", [str(v) for v in words]))


def _games_sha256(meta: dict) -> str | None:
    """The SHA-256 of a run's games.parquet as its run.json records it (``integrity``): what tells
    one run from another of the same settings written in the same second."""
    files = (meta.get("integrity") or {}).get("files") or {} if isinstance(meta.get("integrity"), dict) else {}
    sha = (files.get("games.parquet") or {}).get("sha256") if isinstance(files, dict) else None
    return sha if isinstance(sha, str) else None


def questions_for_run(run: str | Path, games: int, out: str | Path, *, force: bool = False,
                      threads: int | None = None,
                      progress: Callable[[str], None] | None = None,
                      smallest: dict | None = None) -> Path:
    """Play the questions a report shows for the Médiévallons run ``run`` into the directory ``out``.

    With the run's rules (rebuilt from run.json ``rules_text``), its seed and its strategy
    (:func:`choose_strategy`): first-player advantage at every player count the rules allow
    (MV-1), the card types and ablation at the run's player count, and, when the rules allow 2
    players, best of 3 for :data:`DEFAULT_PAIRS`; ``games`` games per question and rules variant.
    Writes ``first_player.csv``, ``card_types.csv``, ``best_of_three.csv`` and run.json (the
    settings, and ``for_run``). When nothing can be played (no ``rules_text``, rules that do not
    load) run.json says why in ``not_played`` and no table is written, so a report can say so
    instead of guessing. ``progress`` receives a short text whenever a long step starts.
    ``smallest`` (``--smallest-difference``, by kind) words the card ablation's changes by size
    (:func:`card_ablation_verdicts`) and is recorded in run.json ``smallest_difference``.
    """
    games = check_games(games)
    meta = run_meta(Path(run))
    with using_recorded_files(meta.get("strategy_files")):     # the run's bots, as it read them
        return _questions_for_run(Path(run), meta, games, out, force, threads, progress, smallest)


def _questions_for_run(run: Path, meta: dict, games: int, out, force: bool, threads, progress,
                       smallest) -> Path:
    say = progress or (lambda _msg: None)
    if meta.get("game") != GAME:
        raise UsageError(f"{run}: a {meta.get('game')} run; these questions are for {GAME} runs")
    P = int(meta.get("players") or 0)
    rules_name = str(meta.get("rules_name") or "run.json rules_text")
    # what the run was (a report refuses a directory played for another run: reports.games.medievallons)
    record = {"game": GAME, "command": "questions", "for_run": str(run),
              "for_run_path": str(run.resolve()), "for_run_created_utc": meta.get("created_utc"),
              "for_run_games_sha256": _games_sha256(meta),
              "for_run_players": P, "for_run_games": meta.get("games"),
              "games": games, "rules_name": rules_name, "rules_sha256": meta.get("rules_sha256")}
    text = meta.get("rules_text")
    if not isinstance(text, str) or not text.strip():
        return write_dir(out, {}, {**record, "not_played": (
            f"run.json of {run.name} has no rules_text, so the rules of the run are unknown. Runs "
            "written by `simulate --game medievallons` record them.")}, force)
    try:
        rules = R.loads(text, rules_name)
        R.check_players(rules, P)
    except UsageError as exc:
        return write_dir(out, {}, {**record, "not_played": f"the run's rules do not load here ({exc})."},
                         force)
    strategy, why = choose_strategy(meta)
    seed = int(meta.get("seed") or 0)
    counts = tuple(rules.allowed_players)
    plays = Plays(threads)
    t0 = time.perf_counter()
    parts = []
    for p in counts:
        say(f"Balance questions: first player at {p} players ({games:,} games)")
        parts.append(first_player_advantage(games, players=(p,), strategy=strategy, seed=seed,
                                            rules=rules, plays=plays))
    tables: dict[str, pl.DataFrame] = {"first_player": pl.concat(parts)}
    variants = int((rules.copies > 0).sum())
    say(f"Balance questions: card ablation at {P} players ({variants + 1} decks × {games:,} games)")
    ablation_note = ""
    try:
        tables["card_types"] = card_ablation_verdicts(
            card_types(games, players=P, strategy=strategy, seed=seed, rules=rules, plays=plays),
            smallest)
    except UsageError as exc:
        ablation_note = (f"The card ablation was not played: a deck with one copy fewer does not load "
                         f"({exc}).")
        tables["card_types"] = card_types(games, players=P, strategy=strategy, seed=seed, rules=rules,
                                          ablation=False, plays=plays)
    pairs: tuple = ()
    if 2 in counts:
        pairs = DEFAULT_PAIRS
        say(f"Balance questions: best of 3 at 2 players ({len(pairs)} pairings × {games:,} matches)")
        tables["best_of_three"] = best_of_three(games, seed=seed, rules=rules, pairs=pairs, plays=plays)
    return write_dir(out, tables, {
        **record, "players": list(counts), "card_players": P, "strategy": strategy,
        "strategy_note": why, "pairs": [list(p) for p in pairs], "ablation": not ablation_note,
        "ablation_note": ablation_note, "seed": seed, "rules_text": text,
        "smallest_difference": {"share": _smallest_share(smallest),
                                **({"length": smallest["length"]} if smallest and "length" in smallest else {})},
        "wall_time_s": round(time.perf_counter() - t0, 2)}, force)


def _smallest_share(smallest: dict | None) -> float:
    from analysis.load import smallest_difference

    return smallest_difference(GAME, "share", smallest)


questions_command = questions_for_run    # what `balance questions RUN` plays for this game
