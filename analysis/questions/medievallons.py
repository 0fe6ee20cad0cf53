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
another run refuses them. A before/after plays a further run's questions ``against`` the
baseline's directory: :func:`compare_questions` then adds ``before_after.csv``, what changed from
one run's answers to the other's, each change worded by size, or "cannot tell" where a side has too
few games, matches or founders; the answers both runs' own games give (:func:`runs_own`, from
run.json ``run_answers``: Seat 1 and the card types at the runs' player count, with the questions'
bots) are left to the report's before/after of the runs, which reads them on all their games.

May import numpy, polars, the standard library, :mod:`analysis.questions`, :mod:`analysis.stats`,
:mod:`analysis.load` (smallest differences), :mod:`analysis.guilds` (the founders a share needs), :mod:`simcore.runner`,
:mod:`simcore.rundir`, :mod:`simcore.errors`, the Médiévallons rules module (never its kernel) and,
lazily, :mod:`strategies.medievallons` (to look a bot up); :mod:`strategies.common` (the run's
recorded strategy files).
"""

from __future__ import annotations

import hashlib
import math
import time
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl

from analysis.guilds import ABLATION_MIN_FOUNDED, MIN_COUNT, NOT_IN_DECK, ablation_tested, not_in_deck
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
            out["digest"] = games_digest(out)
            self._memo[key] = out
        return self._memo[key]


def games_digest(out: dict) -> str:
    """A fingerprint of played games: SHA-256 (16 hex digits) of every recorded column a question
    reads (win shares, founded guilds, turns, end reasons, reshuffles), column by column in name
    order. Two configurations with the same fingerprint played the same games, as far as any answer
    can tell: a before/after says "the same games" there (:data:`SAME_GAMES`), not "within noise"."""
    h = hashlib.sha256()
    for name in sorted(k for k, v in out.items() if isinstance(v, np.ndarray)):
        a = np.ascontiguousarray(out[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def _joined(*digests: str) -> str:
    """One fingerprint of several plays' (:func:`games_digest`), in order."""
    return hashlib.sha256("|".join(digests).encode()).hexdigest()[:16]


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
                            z=(m - 1 / P) / se if se > 0 else float("nan"), games_digest=o["digest"]))
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
                   founders=n, games_digest=base["digest"])
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
                       delta_turns_std_error=math.hypot(_se(turns0), _se(t2)),
                       ablation_digest=_joined(base["digest"], o["digest"]))
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
            played_a = plays(rules, 2, size, seed + 2 * k, [a, b])
            played_b = plays(rules, 2, size, seed + 2 * k + 1, [b, a])
            pool_a = played_a["win_share"].reshape(-1, 2)[:, 0]
            pool_b = played_b["win_share"].reshape(-1, 2)[:, 1]
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
                        mean_rounds=float(rounds.mean()),
                        games_digest=_joined(played_a["digest"], played_b["digest"])))
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
    if kind in ("playout", "search"):
        # (review s50 questions #1: a search16 run's questions played search bots, ~20 minutes
        # for the report's default 10,000 games, where a playout run's took seconds)
        what = "a playout" if kind == "playout" else "a search"
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run's {name} is {what} "
                                   "bot, far too slow for this many games)")
    return name, f"{name} bots at every seat, as in the run"


def check_games(n, option: str = "--questions-games") -> int:
    """Games per question for :func:`questions_for_run`: a positive whole number (UsageError),
    said as ``option``, the option the user typed."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        zero = " 0 (skip the played questions) or" if option == "--questions-games" else ""
        raise UsageError(f"{option} {n}: must be{zero} a positive whole number of games")
    return n


WITHIN_NOISE = "within noise"          # the page's words (analysis.export.report_verdicts)
TOO_FEW = "too few players to say"


def ablation_family(ct: pl.DataFrame) -> np.ndarray:
    """Which rows of ``ct`` are tested in the card ablation's family
    (:func:`analysis.guilds.ablation_tested`: the one rule of these verdicts, the report's section
    and its figure, so the CSV and the page agree)."""
    return ablation_tested(ct).to_numpy()


def card_ablation_verdicts(ct: pl.DataFrame, smallest: dict | None = None) -> pl.DataFrame:
    """``ct`` (:func:`card_types` with the ablation) with ``smallest`` (the smallest win-share
    difference that matters: ``smallest`` by kind over the game's own, 1 pp) and ``verdict``: each
    type's change of its founders' win share worded by size, in the words the report's page gives
    it (:func:`analysis.stats.practical_holm`: clear by Holm over the types of
    :func:`ablation_family`, its size read on the Bonferroni interval over them: "clear and large
    enough to matter" / "clear, may matter" / "clear but small" / "within noise"; a type founded
    by under 1 % of the players, before or after, is never clear; a type outside the family, "too
    few players to say"; a type the deck holds no copy of, whose ablation was not played,
    :data:`analysis.guilds.NOT_IN_DECK`: "not played (0 copies)")."""
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
                                                     d["z"].to_numpy(), small, support=support,
                                                     se=(d["delta_std_error"].cast(pl.Float64).fill_null(np.nan)
                                                         .to_numpy() if "delta_std_error" in d.columns
                                                         else None)))
        words[family] = [WITHIN_NOISE if str(v) == stats.NOT_SHOWN else str(v) for v in verdict]
    words[not_in_deck(ct).to_numpy()] = NOT_IN_DECK
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
                      smallest: dict | None = None, against: str | Path | None = None,
                      option: str = "--questions-games") -> Path:
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

    ``against``: the questions directory of the run this one is compared with (a before/after's
    baseline, played by this function for it): the directory then also holds ``before_after.csv``,
    what changed from those answers to these (:func:`compare_questions`, worded by ``smallest``),
    and run.json ``against`` (its path and run); a directory that is not one of these questions is
    a one-line :class:`UsageError` before any game is played.
    """
    games = check_games(games, option)     # (option: the games' option as the user typed it)
    meta = run_meta(Path(run))
    before = _against(against) if against is not None else None
    with using_recorded_files(meta.get("strategy_files")):     # the run's bots, as it read them
        return _questions_for_run(Path(run), meta, games, out, force, threads, progress, smallest,
                                  before)


def _against(path: str | Path) -> tuple[Path, dict, dict]:
    """(path, run.json, tables) of the questions directory a run's questions are compared with."""
    from analysis.questions import read_dir

    p = Path(path)
    try:
        meta, tables = read_dir(p)
    except (OSError, ValueError, pl.exceptions.PolarsError) as exc:
        raise UsageError(f"{p}: not a questions directory to compare with ({str(exc).splitlines()[0]})") from None
    if meta.get("game") != GAME:
        raise UsageError(f"{p}: questions of {meta.get('game') or 'no game'}, not of {GAME}")
    return p, meta, tables


def _questions_for_run(run: Path, meta: dict, games: int, out, force: bool, threads, progress,
                       smallest, before: tuple[Path, dict, dict] | None = None) -> Path:
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
    from simcore.config import reading_recorded_rules

    try:
        with reading_recorded_rules(meta, f"{run}/run.json"):
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
    answers = run_answers(meta, strategy)
    against: dict = {}
    if before is not None:
        path, bmeta, btables = before
        own = runs_own(bmeta, {"for_run_players": P, "card_players": P, "strategy": strategy,
                               "run_answers": answers})
        against = {"against": {"questions": str(path), "for_run": bmeta.get("for_run"),
                               "rules_sha256": bmeta.get("rules_sha256"), "games": bmeta.get("games"),
                               "for_run_games": bmeta.get("for_run_games"), "min_count": MIN_COUNT, "min_founded": ABLATION_MIN_FOUNDED,
                               "runs_own": own}}
        if bmeta.get("not_played"):
            against["against"]["not_compared"] = f"nothing was played for {bmeta.get('for_run')}"
        else:
            tables["before_after"] = compare_questions(btables, tables, smallest, own)
    return write_dir(out, tables, {
        **record, **against, "players": list(counts), "card_players": P, "strategy": strategy,
        "run_answers": answers,
        "strategy_note": why, "pairs": [list(p) for p in pairs], "ablation": not ablation_note,
        "ablation_note": ablation_note, "seed": seed, "rules_text": text,
        "smallest_difference": {"share": _smallest_share(smallest),
                                **({"length": smallest["length"]} if smallest and "length" in smallest else {})},
        "wall_time_s": round(time.perf_counter() - t0, 2)}, force)


def run_answers(meta: dict, strategy: str) -> list[str]:
    """The compared questions (:data:`COMPARED` ids) a run's own games answer at its player count,
    as the questions played for it with ``strategy`` would (MV-2, MV-4): the card types (each
    type's founders' win share) when every seat of the run plays ``strategy``, and the first
    player too when its seats are not rotated (the report's seat before/after then gives Seat 1's
    win share; ``reports.games.medievallons.run_measures_first_player`` reads the run the same
    way). Recorded in the questions' run.json as ``run_answers``."""
    names = [s for s in meta.get("strategies") or [] if isinstance(s, str)]
    if not names or set(names) != {strategy}:
        return []
    return ["card_types"] + ([] if meta.get("rotate_seats") else ["first_player"])


def _recorded_answers(qmeta: dict) -> list[str]:
    """A questions directory's ``run_answers``; for one written before they were recorded, read
    again from its run's run.json when that is still there (else none: nothing is left out)."""
    if isinstance(qmeta.get("run_answers"), list):
        return [str(x) for x in qmeta["run_answers"]]
    path = qmeta.get("for_run_path") or qmeta.get("for_run")
    try:
        return run_answers(run_meta(Path(str(path))), str(qmeta.get("strategy"))) if path else []
    except (OSError, ValueError, UsageError):
        return []


def runs_own(before: dict, after: dict) -> dict[str, int]:
    """The questions both runs answer with their own games, each at the player count where they do
    ({question id: player count}), from the two questions directories' run.json (``before``,
    ``after``: ``for_run_players``, ``card_players``, ``strategy``, ``run_answers``). Both runs
    must play that count with the same bots as the questions; the card types also at the count
    both played them. A report's before/after of those two runs compares these answers on the runs'
    own games, so :func:`compare_questions` leaves them to it (one answer per question on a page)."""
    if before.get("strategy") != after.get("strategy"):
        return {}
    P = before.get("for_run_players")
    if not isinstance(P, int) or P != after.get("for_run_players"):
        return {}
    both = set(_recorded_answers(before)) & set(_recorded_answers(after))
    out = {}
    if "first_player" in both:
        out["first_player"] = P
    if "card_types" in both and before.get("card_players", P) == P == after.get("card_players", P):
        out["card_types"] = P
    return out


def _smallest_share(smallest: dict | None) -> float:
    from analysis.load import smallest_difference

    return smallest_difference(GAME, "share", smallest)


questions_command = questions_for_run    # what `balance questions RUN` plays for this game


# ---------------------------------------------------------------------------------------------
# A before/after: the same questions played for two runs, and what changed
# ---------------------------------------------------------------------------------------------

# MIN_COUNT (analysis.guilds, 30): fewer games, matches or founders on a side: the change cannot be told
CANNOT_TELL = "cannot tell"
#: the verdict of an answer both runs' own games give (:func:`runs_own`): left to the runs' before/after
RUNS_OWN = "the runs' own games"
#: the verdict of an answer both rules played with the very same games (:func:`games_digest`: a setting
#: of another player count, a card the answer's games never deal): no change, untested
SAME_GAMES = "the same games"
#: the verdict of a card type one run's deck holds no copy of (MV-1 deck, ``--set
#: deck.copies.etoile=0``): its questions played no such card, so there is nothing to compare
#: (:data:`analysis.guilds.NOT_IN_DECK`, as that run's card_types.csv and single-run page say)
NOT_PLAYED = NOT_IN_DECK
#: The questions a before/after compares, in the page's order: (id, title, measure).
COMPARED = (
    ("first_player", "First-player advantage", "Seat 1's win share (it plays first)"),
    ("card_types", "Card types, full deck", "founders' win share"),
    ("card_ablation", "Card ablation", "change of the founders' win share with one copy fewer"),
    ("best_of_three", "Best of 3 (2 players)", "the first-named bot's best-of-3 match win rate"),
)
COMPARISON_COLUMNS = ("question", "question_title", "item", "measure", "before", "before_se",
                      "before_n", "after", "after_se", "after_n", "change", "std_error", "z", "low",
                      "high", "family_size", "smallest", "verdict", "why", "before_verdict",
                      "after_verdict", "players", "key", "founded_before", "founded_after",
                      "founded_change", "founded_verdict", "before_n_full", "before_n_fewer",
                      "after_n_full", "after_n_fewer")


def _num(x) -> float:
    return float("nan") if x is None else float(x)


def _side_rows(question: str, tables: dict) -> dict[str, dict]:
    """One side's answers to ``question`` by item: {item: {value, se, n, verdict}} (n: the games,
    matches or founders the value is read on; for the card ablation the fewer of the two decks')."""
    out: dict[str, dict] = {}
    if question == "first_player" and "first_player" in tables:
        for r in tables["first_player"].filter(pl.col("seat") == 0).iter_rows(named=True):
            out[f"{int(r['players'])} players"] = dict(value=_num(r["win_share"]), se=_num(r["std_error"]),
                                                     n=int(r["games"]), players=int(r["players"]),
                                                     key=str(int(r["players"])), digest=_digest(r))
    elif question in ("card_types", "card_ablation") and "card_types" in tables:
        ct = tables["card_types"]
        ablation = "delta_founders_win_share" in ct.columns
        family = set(ct.filter(pl.Series(ablation_family(ct)))["card"].to_list()) if ablation else set()
        for r in ct.iter_rows(named=True):
            name = R.CARD_NAMES[R.CARD_TYPES.index(r["card"])] if r["card"] in R.CARD_TYPES else str(r["card"])
            founders = int(r.get("founders") or 0)
            # the player-games the founded share is read on (none in a table without them)
            games, players = r.get("games"), r.get("players")
            where = dict(key=str(r["card"]), players=int(players) if players is not None else None,
                         founded=_num(r["founded_share"]),
                         player_games=int(games) * int(players) if games is not None and players is not None else 0)
            if question == "card_types":
                out[name] = dict(value=_num(r["founders_win_share"]), se=_num(r["founders_std_error"]),
                                 n=founders, support=_num(r["founded_share"]), digest=_digest(r), **where)
            elif ablation and r.get("delta_founders_win_share") is not None:
                after_n = r.get("founders_after")
                out[name] = dict(value=_num(r["delta_founders_win_share"]), se=_num(r["delta_std_error"]),
                                 n=min(founders, int(after_n if after_n is not None else 0)),
                                 # each deck's founders (review s55 #4: a count said without its deck)
                                 n_full=founders, n_fewer=int(after_n if after_n is not None else 0),
                                 support=min(_num(r["founded_share"]), _num(r.get("founded_share_after"))),
                                 tested=r["card"] in family, verdict=str(r.get("verdict") or ""),
                                 digest=_digest(r, "ablation_digest"), **where)
    elif question == "best_of_three" and "best_of_three" in tables:
        for r in tables["best_of_three"].iter_rows(named=True):
            out[f"{r['bot']} vs {r['opponent']}"] = dict(value=_num(r["match_win_rate"]),
                                                          se=_num(r["match_std_error"]), n=int(r["matches"]),
                                                          players=2, key=f"{r['bot']} vs {r['opponent']}",
                                                          digest=_digest(r))
    return out


def _not_in_deck(tables: dict) -> set[str]:
    """The card types (by name, as :func:`_side_rows` names them) one side's deck holds no copy of
    (:func:`analysis.guilds.not_in_deck` on its card_types table: no ablation deck played for
    them)."""
    ct = tables.get("card_types")
    if ct is None:
        return set()
    cards = ct.filter(not_in_deck(ct))["card"].to_list()
    return {R.CARD_NAMES[R.CARD_TYPES.index(c)] if c in R.CARD_TYPES else str(c) for c in cards}


def _digest(r: dict, column: str = "games_digest") -> str | None:
    """A row's fingerprint of the games it was read on (:func:`games_digest`); None in a table
    written before they were recorded."""
    d = r.get(column)
    return d if isinstance(d, str) and d else None


def _se_floor(p: float, se: float, n: int) -> float:
    """``se``, or where it is 0 (every game, match or founder of a side gave the same result: 100%
    of the matches won) the plus-four standard error of a rate ``p`` over ``n``, √(p̃(1 − p̃)/(n + 4))
    with p̃ = (pn + 2)/(n + 4) (Agresti and Coull's "plus four" for one proportion; Agresti and
    Caffo's adding of a win and a loss to each side is for a difference of two): 120 matches won of 120 do not show a rate of
    exactly 100%."""
    if se > 0 or n <= 0:
        return se
    pt = (p * n + 2) / (n + 4)
    return math.sqrt(pt * (1 - pt) / (n + 4))


def _founded_changes(before: dict, after: dict, small: float) -> dict[str, dict]:
    """Each card type's share of players founding it, before and after, from the two runs' card
    tables (full deck, at their card player count), by the type's name: the change, and its
    verdict as every change here is worded (two independent proportions over the player-games,
    Holm over the types with a test, sizes on the Bonferroni interval over them; "within noise"),
    for the note that who founds a type changed too (MV-4). Types without player-games on a side
    have none."""
    from analysis import stats

    b, a = _side_rows("card_types", before), _side_rows("card_types", after)
    items = [k for k in b if k in a and b[k]["player_games"] > 0 and a[k]["player_games"] > 0
             and math.isfinite(b[k]["founded"]) and math.isfinite(a[k]["founded"])]
    if not items:
        return {}
    nb = np.array([b[k]["player_games"] for k in items], float)
    na = np.array([a[k]["player_games"] for k in items], float)
    pb = np.array([b[k]["founded"] for k in items])
    pa = np.array([a[k]["founded"] for k in items])
    z = stats.two_proportions(pa * na, na, pb * nb, nb)[-1]
    se = stats.two_shares_se(pa * na, na, pb * nb, nb)
    verdict = np.atleast_1d(stats.practical_holm(pa - pb, z, small, se=se))
    return {k: dict(founded_before=float(x), founded_after=float(y), founded_change=float(y - x),
                    founded_verdict=WITHIN_NOISE if str(v) == stats.NOT_SHOWN else str(v))
            for k, x, y, v in zip(items, pb, pa, verdict)}


def compare_questions(before: dict[str, pl.DataFrame], after: dict[str, pl.DataFrame],
                      smallest: dict | None = None, runs_own: dict[str, int] | None = None) -> pl.DataFrame:
    """What changed between two runs' balance questions (the tables :func:`questions_for_run`
    wrote for each, by file stem), one row per answer either gave (:data:`COMPARED`, in that
    order, then each question's items in the tables' order): Seat 1's win share per player count
    (MV-2), each card type's founders' win share with the full deck, each type's ablation effect
    (the change of its founders' win share with one copy fewer, MV-1 deck: ``before_verdict`` and
    ``after_verdict`` are each side's own verdict on it) and each pairing's best-of-3 match win
    rate (MV-7); ``before_n``/``after_n`` the games, matches or founders each is read on (for the
    card ablation the fewer of its two decks'; ``before_n_full``/``before_n_fewer`` and
    ``after_n_full``/``after_n_fewer`` each deck's founders, the full deck and one copy fewer, so
    that a page can say which deck a count is for).

    ``change`` = after − before, its ``std_error`` that of two independent samples (the two sides'
    standard errors in quadrature; both sides play the same seed, so where their games coincide in
    part this overstates the noise: the reading is conservative), ``z`` = change / std_error; a
    rate with a standard error of 0 on a side (every game alike) gets the plus-four one there
    (:func:`_se_floor`, recorded in ``before_se``/``after_se``).
    Each question is one family: ``verdict`` is clear by Holm's step-down over its rows and worded
    by size on the Bonferroni interval over them (``low``/``high``, as
    :func:`analysis.stats.practical_holm` reads it) against the smallest win-share difference that
    matters (``smallest`` by kind, over 1 pp): "clear and large enough to matter", "clear, may
    matter", "clear but small" or "within noise". An answer that cannot be compared is
    :data:`CANNOT_TELL`, outside the family and with no change, and ``why`` says why (an answer
    both sides read on the very same games, :func:`games_digest` alike, is :data:`SAME_GAMES`, why
    ``same_games``, outside the family and with no change either: more games could not move it):
    ``not_played_before``/``not_played_after`` (that side did not play it: another player count,
    no ablation, rules without 2 players), ``too_few`` (under :data:`MIN_COUNT` games, matches or
    founders on a side), ``rare`` (a type founded by under :data:`ABLATION_MIN_FOUNDED` of the
    players on a side), ``no_ablation_verdict`` (a side's ablation of that type has too few
    players to say), ``no_value``. A card type a side's deck holds no copy of (MV-1 deck, 0
    copies: :func:`analysis.guilds.not_in_deck`) is :data:`NOT_PLAYED`, "not played (0 copies)",
    why ``not_in_deck_before``, ``not_in_deck_after`` or ``not_in_deck_before_after``, for its
    full-deck answer and its ablation alike, before any other reason (review s60 fix 250 #2).

    ``runs_own`` (:func:`runs_own`: {question id: player count}): the answers both runs' own games
    give, Seat 1's win share at the runs' player count and each type's founders' win share with the
    full deck there; a report's before/after of the two runs compares them on those games (more
    than the questions replay), so here they are :data:`RUNS_OWN` (``why`` ``runs_own``), outside
    the family, with no change: one answer per question on the page.
    ``players`` is the player count an answer is read at, ``key`` its card type (``etoile``),
    player count or pairing; the card rows carry each type's share of players founding it before and
    after, its change and verdict (``founded_*``, :func:`_founded_changes`)."""
    from analysis import stats
    from analysis.load import smallest_difference

    small = smallest_difference(GAME, "share", smallest)
    own = dict(runs_own or {})
    founded = _founded_changes(before, after, small)
    absent = {"before": _not_in_deck(before), "after": _not_in_deck(after)}
    rows: list[dict] = []
    for qid, title, measure in COMPARED:
        b, a = _side_rows(qid, before), _side_rows(qid, after)
        items = list(b) + [k for k in a if k not in b]
        start = len(rows)
        for item in items:
            rb, ra = b.get(item), a.get(item)
            row = dict(question=qid, question_title=title, item=item, measure=measure,
                       before=rb["value"] if rb else float("nan"), before_se=rb["se"] if rb else float("nan"),
                       before_n=rb["n"] if rb else 0, after=ra["value"] if ra else float("nan"),
                       after_se=ra["se"] if ra else float("nan"), after_n=ra["n"] if ra else 0,
                       before_verdict=(rb or {}).get("verdict", ""), after_verdict=(ra or {}).get("verdict", ""),
                       before_n_full=(rb or {}).get("n_full"), before_n_fewer=(rb or {}).get("n_fewer"),
                       after_n_full=(ra or {}).get("n_full"), after_n_fewer=(ra or {}).get("n_fewer"),
                       why="", players=(rb or ra or {}).get("players"), key=(rb or ra or {}).get("key"),
                       **(founded.get(item, {}) if qid in ("card_types", "card_ablation") else {}))
            gone = [side for side in ("before", "after") if item in absent[side]]
            if qid in ("card_types", "card_ablation") and gone:
                # a type one run's deck holds none of: not played there (review s60 fix 250 #2: "cannot
                # be told (… one copy fewer of Étoile)", "too few founders … Étoile" for 0 copies)
                row["why"] = "not_in_deck_" + "_".join(gone)
            elif rb is not None and ra is not None and qid in own and rb.get("players") == ra.get("players") == own[qid]:
                row["why"] = "runs_own"
            elif rb is None or ra is None:
                row["why"] = "not_played_after" if ra is None else "not_played_before"
            elif rb.get("digest") is not None and rb.get("digest") == ra.get("digest"):
                row["why"] = "same_games"
            elif min(rb["n"], ra["n"]) < MIN_COUNT:
                row["why"] = "too_few"
            elif "support" in rb and not min(rb["support"], ra["support"]) >= ABLATION_MIN_FOUNDED:
                row["why"] = "rare"
            elif qid == "card_ablation" and not (rb["tested"] and ra["tested"]):
                row["why"] = "no_ablation_verdict"
            elif not all(math.isfinite(x) for x in (rb["value"], ra["value"], rb["se"], ra["se"])):
                row["why"] = "no_value"
            rows.append(row)
        fam = [r for r in rows[start:] if not r["why"]]
        for r in fam:
            r["change"] = r["after"] - r["before"]
            if qid != "card_ablation":      # a rate every game of a side gave alike: no spread to read
                r["before_se"] = _se_floor(r["before"], r["before_se"], r["before_n"])
                r["after_se"] = _se_floor(r["after"], r["after_se"], r["after_n"])
            r["std_error"] = math.hypot(r["before_se"], r["after_se"])
            r["z"] = (r["change"] / r["std_error"] if r["std_error"] > 0 else
                      (0.0 if r["change"] == 0 else math.copysign(math.inf, r["change"])))
        if fam:
            d = np.array([r["change"] for r in fam])
            z = np.array([r["z"] for r in fam])
            # (the interval the size is read on: Bonferroni over the family, as practical_holm's)
            lo, hi = stats.bonferroni_interval(d, np.array([r["std_error"] for r in fam]), m=len(fam))
            verdict = np.atleast_1d(stats.practical_holm(
                d, z, small, se=np.array([r["std_error"] for r in fam])))
            for r, low, high, v in zip(fam, np.atleast_1d(lo), np.atleast_1d(hi), verdict):
                r.update(low=float(low), high=float(high), family_size=len(fam),
                         verdict=WITHIN_NOISE if str(v) == stats.NOT_SHOWN else str(v))
        for r in rows[start:]:
            if r["why"]:
                r.update(change=float("nan"), std_error=float("nan"), z=float("nan"), low=float("nan"),
                         high=float("nan"), family_size=len(fam),
                         verdict=RUNS_OWN if r["why"] == "runs_own" else
                         NOT_PLAYED if r["why"].startswith("not_in_deck") else
                         SAME_GAMES if r["why"] == "same_games" else CANNOT_TELL)
            r["smallest"] = small
    schema = {c: (pl.Float64 if c in ("before", "before_se", "after", "after_se", "change", "std_error",
                                      "z", "low", "high", "smallest", "founded_before", "founded_after",
                                      "founded_change")
                  else pl.Int64 if c in ("before_n", "after_n", "family_size", "players", "before_n_full",
                                         "before_n_fewer", "after_n_full", "after_n_fewer") else pl.String)
              for c in COMPARISON_COLUMNS}
    return pl.DataFrame([{c: r.get(c) for c in COMPARISON_COLUMNS} for r in rows], schema=schema)
