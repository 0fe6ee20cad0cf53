"""Balance questions for Médiévallons, answered straight from the kernel (no analysis package).

Each function plays what it needs with :func:`driver.run_chunk` at fixed seeds and returns a
:class:`polars.DataFrame` with standard errors beside every rate, so the answers are reproducible
and carry their own uncertainty:

- :func:`first_player_advantage` -- win share of each seat against the fair 1/P, per player count;
- :func:`game_length` and :func:`length_distribution` -- turns (mean, quantiles, binned) and the
  end reasons (MV-6/MV-7) per player count;
- :func:`card_types` -- per card type, the share of players who founded a guild of it and their win
  share, and the card ablation: the same figures when one copy of that type is removed from the
  deck (a rules variant built by :func:`rules.with_copies`, i.e. through the rules loader);
- :func:`best_of_three` -- the 2-player "best of 3 rounds" match (MV-7) next to the single round.

``balance medievallons-questions`` (:mod:`cli.medievallons`) runs them all, writes one CSV
per table and prints them. May import numpy, polars and :mod:`simcore`, :mod:`strategies`.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl

from simcore.games.medievallons import driver as D
from simcore.games.medievallons import layout as L
from simcore.games.medievallons import rules as R
from simcore.games.medievallons.reference import END_REASONS

CHUNK = 1 << 16


def _rules(rules) -> R.RulesArrays:
    return rules if rules is not None else R.load()


def play(rules, players: int, games: int, seed: int, strategies: list[str] | str,
         rotate: bool = False) -> dict:
    """``games`` games through the kernel in chunks; the kernel's arrays, concatenated."""
    from strategies import medievallons as S

    R.check_players(rules, players)
    _, rows = S.resolve(strategies, players)
    rk = D.pack_rules(rules)
    parts = []
    for first in range(0, games, CHUNK):
        o = D.run_chunk(rules, players, first, min(CHUNK, games - first), seed, rows, rk=rk,
                        rotate=rotate)
        if o["error"].any():
            code = int(o["error"][np.flatnonzero(o["error"])[0]])
            raise RuntimeError(L.ERROR_TEXT.get(code, f"kernel error {code}"))
        parts.append(o)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / math.sqrt(len(x))) if len(x) > 1 else float("nan")


def first_player_advantage(games: int, *, players=(2, 3, 4, 5), strategy: str = "balanced",
                           seed: int = 0, rules=None) -> pl.DataFrame:
    """Win share per seat (seat 0 plays first, MV-2) with identical bots, against 1/P.

    ``z`` = (win share - 1/P) / standard error; |z| > 3 is a seat effect beyond noise."""
    rules = _rules(rules)
    out = []
    for P in players:
        o = play(rules, P, games, seed, strategy)
        w = o["win_share"].reshape(-1, P).astype(np.float64)
        for s in range(P):
            m, se = float(w[:, s].mean()), _se(w[:, s])
            out.append(dict(players=P, seat=s, games=games, win_share=m, std_error=se,
                            fair=1 / P, advantage=m - 1 / P,
                            z=(m - 1 / P) / se if se > 0 else float("nan")))
    return pl.DataFrame(out)


def game_length(games: int, *, players=(2, 3, 4, 5), strategy: str = "balanced", seed: int = 0,
                rules=None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Turns per game (mean, standard error, quantiles) and end reasons per player count.

    Returns (summary, distribution): the distribution is the share of games per 10-turn bin."""
    rules = _rules(rules)
    summary, dist = [], []
    for P in players:
        o = play(rules, P, games, seed, strategy)
        t = o["turns"].astype(np.float64)
        q = np.quantile(t, [0.05, 0.25, 0.5, 0.75, 0.95])
        row = dict(players=P, games=games, mean_turns=float(t.mean()), std_error=_se(t),
                   p05=q[0], p25=q[1], median=q[2], p75=q[3], p95=q[4], max=float(t.max()),
                   mean_reshuffles=float(o["reshuffles"].mean()))
        for code, name in enumerate(END_REASONS):
            row[f"share_{name}"] = float((o["end_reason"] == code).mean())
        summary.append(row)
        edges = np.arange(0, int(t.max()) + 11, 10)
        counts, _ = np.histogram(t, bins=edges)
        for lo, c in zip(edges[:-1], counts):
            if c:
                dist.append(dict(players=P, turns_from=int(lo), turns_to=int(lo) + 9,
                                 games=int(c), share=c / games))
    return pl.DataFrame(summary), pl.DataFrame(dist)


def _founder_figures(o: dict, P: int) -> dict[int, tuple[float, float, float, float, int]]:
    """Per type: (share of player-games founding it, founders' win share, its SE,
    non-founders' win share, founders count)."""
    w = o["win_share"].astype(np.float64)
    res = {}
    for t in range(R.N_TYPES):
        f = o["founded"][:, t] > 0
        n = int(f.sum())
        res[t] = (float(f.mean()), float(w[f].mean()) if n else float("nan"),
                  _se(w[f]) if n > 1 else float("nan"),
                  float(w[~f].mean()) if (~f).any() else float("nan"), n)
    return res


def card_types(games: int, *, players: int = 4, strategy: str = "balanced", seed: int = 0,
               rules=None, ablation: bool = True) -> pl.DataFrame:
    """Per card type: who founds a guild of it and how they fare; then the card ablation.

    ``founded_share`` = share of player-games that founded at least one guild of the type;
    ``founders_win_share`` = their mean win share (1/P = no better than anyone). For the ablation
    the same games are played with one copy of the type removed (``copies - 1``, a rules variant
    loaded and validated like a file): ``delta_founders_win_share`` is the change of the founders'
    win share, with its standard error (independent samples) and ``z``; ``delta_mean_turns`` the
    change in game length. The Bouffon row counts guilds of Bouffons only."""
    rules = _rules(rules)
    base = play(rules, players, games, seed, strategy)
    fb = _founder_figures(base, players)
    turns0 = base["turns"].astype(np.float64)
    out = []
    for t, name in enumerate(R.CARD_TYPES):
        share, wf, se, wn, n = fb[t]
        row = dict(card=name, players=players, games=games, founded_share=share,
                   founders_win_share=wf, founders_std_error=se, others_win_share=wn,
                   founders=n)
        if ablation and int(rules.copies[t]) > 0:
            variant = R.with_copies(rules, {name: int(rules.copies[t]) - 1})
            o = play(variant, players, games, seed + 1 + t, strategy)
            share2, wf2, se2, _, _ = _founder_figures(o, players)[t]
            d = wf2 - wf
            sd = math.sqrt(se * se + se2 * se2) if se == se and se2 == se2 else float("nan")
            t2 = o["turns"].astype(np.float64)
            row.update(copies_after=int(rules.copies[t]) - 1, founded_share_after=share2,
                       founders_win_share_after=wf2, delta_founders_win_share=d,
                       delta_std_error=sd, z=d / sd if sd and sd == sd else float("nan"),
                       delta_mean_turns=float(t2.mean() - turns0.mean()),
                       delta_turns_std_error=math.hypot(_se(turns0), _se(t2)))
        out.append(row)
    return pl.DataFrame(out)


def compose_matches(a_first: np.ndarray, b_first: np.ndarray, max_rounds: int = 5
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Best-of-3 matches (MV-7 2-player variant) from independent rounds, in order.

    ``a_first`` / ``b_first``: bot A's win share in rounds started by A / by B (1, 0 or 0.5 for a
    shared round). Match m starts with A if m is even, with B otherwise, then the first player
    alternates. A shared round gives no round win; the match ends at 2 round wins or after
    ``max_rounds`` rounds (more round wins takes it, else shared: 0.5). Rounds are consumed from
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


def best_of_three(games: int, *, pairs=(("balanced", "collector"), ("saboteur", "balanced"),
                                        ("balanced", "random")),
                  seed: int = 0, rules=None, max_rounds: int = 5) -> pl.DataFrame:
    """2 players: bot A against bot B, one round versus a best-of-3 match (MV-7 variant).

    ``games`` matches per pair (:func:`compose_matches`: the first player alternates, A starts
    half of the matches). The single-round rate is A's mean win share over as many rounds started
    by A as by B; ``as_first_player`` / ``as_second_player`` split it by seat."""
    rules = _rules(rules)
    R.check_players(rules, 2)
    out = []
    for k, (a, b) in enumerate(pairs):
        size = games * 3 // 2 + 64          # ~1.25 rounds per match from each pool on average
        while True:
            pool_a = play(rules, 2, size, seed + 2 * k, [a, b])["win_share"].reshape(-1, 2)[:, 0]
            pool_b = play(rules, 2, size, seed + 2 * k + 1, [b, a])["win_share"].reshape(-1, 2)[:, 1]
            match, rounds = compose_matches(pool_a, pool_b, max_rounds)
            if len(match) >= games:
                break
            size *= 2                       # same seeds: the first rounds are the same games
        match, rounds = match[:games], rounds[:games]
        single = np.concatenate([pool_a, pool_b]).astype(np.float64)
        out.append(dict(bot=a, opponent=b, matches=games,
                        single_round_win_rate=float(single.mean()), single_std_error=_se(single),
                        as_first_player=float(pool_a.mean()), as_second_player=float(pool_b.mean()),
                        match_win_rate=float(match.mean()), match_std_error=_se(match),
                        mean_rounds=float(rounds.mean())))
    return pl.DataFrame(out)


def all_questions(games: int, *, players=(2, 3, 4, 5), strategy: str = "balanced", seed: int = 0,
                  rules=None, card_players: int = 4, ablation: bool = True,
                  pairs=None) -> dict[str, pl.DataFrame]:
    """Every table, by file stem (what ``balance medievallons-questions`` writes)."""
    rules = _rules(rules)
    length, dist = game_length(games, players=players, strategy=strategy, seed=seed, rules=rules)
    tables = {
        "first_player": first_player_advantage(games, players=players, strategy=strategy,
                                               seed=seed, rules=rules),
        "game_length": length,
        "length_distribution": dist,
        "card_types": card_types(games, players=card_players, strategy=strategy, seed=seed,
                                 rules=rules, ablation=ablation),
    }
    if 2 in rules.allowed_players:
        kw = {} if pairs is None else {"pairs": pairs}
        tables["best_of_three"] = best_of_three(games, seed=seed, rules=rules, **kw)
    return tables


def write_tables(tables: dict[str, pl.DataFrame], directory: Path) -> list[str]:
    names = []
    for stem, df in tables.items():
        df.write_csv(directory / f"{stem}.csv")
        names.append(f"{stem}.csv")
    return names
