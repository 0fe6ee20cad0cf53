"""Fief combat odds over a grid of (attacker points, defender points) (FF-7): the computations.

:func:`odds_frame` computes, for each terrain, the odds of every cell exactly (``exact.py``), by
Monte Carlo (``kernel.combat_grid``) or both; :func:`break_even` finds the smallest attacker
reaching given probabilities and marks the ones Monte Carlo cannot pin down (intervals adjusted
for all the break-evens of the tables) and the exact ones equal to the level;
:func:`simcore.games.fief.agreement.agreement` tests Monte Carlo against exact.
:func:`odds_request` validates the options of ``balance fief-odds`` (one-line UsageError; a grid
too large for its rows or work is refused by :func:`check_work` before anything runs, and
``--games`` / ``--seed`` with the exact method by :func:`monte_carlo_options`) into an
:class:`OddsRequest`, whose :meth:`~OddsRequest.compute` gives the tables and
:meth:`~OddsRequest.meta` the run.json. Writing the output directory, the heat maps
(:mod:`reports.figures.fief`) and the printed tables live in :mod:`reports.games.fief`; the
command is declared in the spec (``fief-odds``, built by ``cli/tables.py``).

Monte Carlo streams: combat i of a cell uses ``stream_state(cell_seed, i)`` with
``cell_seed = stream_state(seed, key(terrain, darc, a, d))``, so a cell's estimate does not depend
on the rest of the grid, the thread count or the mercy / Lords settings (common random numbers).

May import numpy, polars, the standard library and the simcore packages (no matplotlib, no rich).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from statistics import NormalDist

import numpy as np
import polars as pl

from simcore.errors import UsageError
from simcore.games.fief import kernel as K
from simcore.games.fief.agreement import agreement
from simcore.games.fief.exact import exact_grid, rounds_pmf_grid
from simcore.games.fief.rules import (
    DARC_SIDES, P_DARC_FIRST, P_LORDS_FIRST, TERRAINS, FiefRules, check_army, check_mercy,
    darc_index, load, mercy_text, parse_mercy, terrain_index,
)
from simcore.games.fief.spec import AT_LEVEL, AT_MOST, LEVEL_TOL, WITHIN_NOISE, noise_confidence
from simcore.options import as_count, check_seed
from simcore.rng import stream_state
from simcore.games.fief.game import wilson
from simcore.stats import wilson_interval

METHODS = ("exact", "mc", "both")
MAX_POINTS = 999
SMALLEST_ARMY = 1               # points: the smallest army of a grid (parse_points' min_points)
# FF-7 work limits, checked by odds_request before anything is computed or written.
MAX_ROWS = 1_000_000            # odds rows: cells x terrains x methods
MAX_MC_WORK = 10**10            # sum over cells and terrains of games x (1 + the smaller army)
MC_BATCH_WORK = 5 * 10**7       # Monte Carlo work per jitted call (~0.4 s on 2 cores): signals between
MAX_EXACT_WORK = 5 * 10**7      # states solved cell by cell: sum over cells and terrains of a x d
ODDS_COLUMNS = [
    "attacker", "defender", "terrain", "darc", "method", "p_attacker_wins", "p_defender_holds",
    "p_both_wiped", "expected_rounds", "attacker_points_left", "defender_points_left",
    "attacker_points_left_if_wins", "defender_points_left_if_holds",
    "p_attacker_wins_lo", "p_attacker_wins_hi", "p_attacker_wins_by_mercy",
    "p_defender_holds_by_mercy", "attacker_lords", "defender_lords", "attacker_lords_lost",
    "defender_lords_lost", "attacker_lords_captured", "defender_lords_captured", "mercy", "games",
    "se_p_attacker_wins", "se_expected_rounds",
]


def parse_points(text: str, what: str, max_points: int = MAX_POINTS, min_points: int = 1) -> list[int]:
    """``"1-30"``, ``"7"`` or ``"1-5,8,10-12"`` → sorted distinct points; UsageError otherwise."""
    values: set[int] = set()
    for part in str(text).replace(" ", "").split(","):
        lo_s, sep, hi_s = part.partition("-")
        if not lo_s.isdigit() or (sep and not hi_s.isdigit()):
            raise UsageError(f"{what} {text!r}: write a range like 1-30, a number, or a list like 1-5,8")
        lo, hi = int(lo_s), int(hi_s) if sep else int(lo_s)
        if hi < lo:
            raise UsageError(f"{what} {text}: the range {part} goes down (write low-high, low <= high)")
        if lo < min_points or hi > max_points:
            raise UsageError(f"{what} {text}: values must be from {min_points} to {max_points}")
        values.update(range(lo, hi + 1))
    return sorted(values)


def parse_terrains(text: str) -> list[str]:
    """``--terrain`` (FF-2): ``all`` or a list of distinct terrains → their names; a terrain named
    twice is refused (one UsageError line): its cells were computed twice, and the Monte Carlo
    check counted every cell 4 times over (review 248 #3)."""
    if text.strip().lower() == "all":
        return list(TERRAINS)
    names = [TERRAINS[terrain_index(t)] for t in text.split(",")]
    twice = list(dict.fromkeys(t for i, t in enumerate(names) if t in names[:i]))
    if twice:
        raise UsageError(f"--terrain {text!r}: {' and '.join(twice)} given more than once "
                         f"(name each terrain once: {', '.join(TERRAINS)} or all)")
    return names


def cell_seeds(seed: int, terrain: int, darc: int, attackers, defenders) -> np.ndarray:
    keys = [(((terrain * 4 + darc) << 40) | (a << 20) | d) for a in attackers for d in defenders]
    return np.array([stream_state(np.uint64(seed), np.uint64(k)) for k in keys], np.uint64)


def mc_grid(rules: FiefRules, attackers, defenders, terrain: int, darc: int, lords_attacker: int,
            lords_defender: int, mercy: tuple[int, int], games: int, seed: int):
    """FF-7 by Monte Carlo (the combats of FF-2, FF-3): sums and sums of squares ``[i, j, Q_*]``
    over ``games`` combats per cell, played in batches of about MC_BATCH_WORK."""
    A = np.array([a for a in attackers for _ in defenders], np.int64)
    D = np.array([d for _ in attackers for d in defenders], np.int64)
    LA = np.minimum(A, lords_attacker)
    LD = np.minimum(D, lords_defender)
    sums = np.zeros((A.shape[0], K.NQ))
    sumsq = np.zeros((A.shape[0], K.NQ))
    # Cells run longest-first so the parallel loop ends evenly; results are per cell, unaffected.
    order = np.argsort(-(A * 64 + D), kind="stable")
    seeds = cell_seeds(seed, terrain, darc, attackers, defenders)[order]
    A_o, D_o, LA_o, LD_o = A[order], D[order], LA[order], LD[order]
    # In batches of about MC_BATCH_WORK (~0.4 s on 2 cores): one jitted call holds off Python's
    # signal handlers until it returns, and a whole grid ran for minutes deaf to Ctrl-C and
    # SIGTERM. Every cell draws from its own streams: the batches change no number.
    work = np.cumsum(games * (1 + np.minimum(A_o, D_o)))
    start = 0
    while start < A_o.shape[0]:
        done = work[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(work, done + MC_BATCH_WORK, side="right")))
        K.combat_grid(seeds[start:stop], A_o[start:stop], D_o[start:stop], LA_o[start:stop],
                      LD_o[start:stop], np.int64(terrain), np.int64(darc), np.int64(mercy[0]),
                      np.int64(mercy[1]), np.int64(games), *rules.kernel_args(),
                      sums[start:stop], sumsq[start:stop])
        start = stop
    back = np.empty_like(order)
    back[order] = np.arange(order.shape[0])
    shape = (len(attackers), len(defenders), K.NQ)
    return sums[back].reshape(shape), sumsq[back].reshape(shape)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Conditional mean E[X | event] = E[X 1_event] / P(event); NaN when the event never happens."""
    out = np.full(num.shape, np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _frame(attackers, defenders, terrain: str, darc: str, method: str, mean: np.ndarray,
           lords_attacker: int, lords_defender: int, mercy: str, games: int,
           se_win: np.ndarray | None, se_rounds: np.ndarray | None, n_wins: np.ndarray | None):
    A = np.repeat(np.array(attackers), len(defenders))
    D = np.tile(np.array(defenders), len(attackers))
    m = mean.reshape(-1, K.NQ)
    la = np.minimum(A, lords_attacker)
    ld = np.minimum(D, lords_defender)
    p_win = m[:, K.Q_ATT_WINS]
    n = A.shape[0]
    if n_wins is None:
        lo = hi = p_win
        se_w = se_r = np.zeros_like(p_win)
    else:
        # (simcore.stats.wilson_interval per cell: exactly 0 at no win, 1 at every win, FF-7)
        ci = np.array([wilson(k, games) for k in n_wins.reshape(-1)])
        lo, hi = ci[:, 0], ci[:, 1]
        se_w, se_r = se_win.reshape(-1), se_rounds.reshape(-1)
    return pl.DataFrame({
        "attacker": A.astype(np.int32), "defender": D.astype(np.int32),
        "terrain": [terrain] * n, "darc": [darc] * n, "method": [method] * n,
        "p_attacker_wins": p_win, "p_defender_holds": m[:, K.Q_DEF_HOLDS],
        "p_both_wiped": m[:, K.Q_BOTH_WIPED], "expected_rounds": m[:, K.Q_ROUNDS],
        "attacker_points_left": m[:, K.Q_ATT_PTS], "defender_points_left": m[:, K.Q_DEF_PTS],
        "attacker_points_left_if_wins": _ratio(m[:, K.Q_ATT_PTS], p_win),
        "defender_points_left_if_holds": _ratio(m[:, K.Q_DEF_PTS], m[:, K.Q_DEF_HOLDS]),
        "p_attacker_wins_lo": lo, "p_attacker_wins_hi": hi,
        "p_attacker_wins_by_mercy": m[:, K.Q_ATT_WINS_MERCY],
        "p_defender_holds_by_mercy": m[:, K.Q_DEF_HOLDS_MERCY],
        "attacker_lords": la.astype(np.int32), "defender_lords": ld.astype(np.int32),
        "attacker_lords_lost": la - m[:, K.Q_ATT_LORDS],
        "defender_lords_lost": ld - m[:, K.Q_DEF_LORDS],
        "attacker_lords_captured": m[:, K.Q_ATT_CAPTURED],
        "defender_lords_captured": m[:, K.Q_DEF_CAPTURED],
        "mercy": [mercy] * n, "games": np.full(n, games, np.int64),
        "se_p_attacker_wins": se_w, "se_expected_rounds": se_r,
    }).select(ODDS_COLUMNS)


def odds_frame(rules: FiefRules, attackers, defenders, terrains, *, darc: str = "none",
               method: str = "exact", games: int = 20000, seed: int = 0, lords_attacker: int = 1,
               lords_defender: int = 1, mercy: tuple[int, int] = (-1, -1)) -> pl.DataFrame:
    """One row per (terrain, method, attacker, defender) with the ODDS_COLUMNS (FF-7).

    Expected points / Lords left are unconditional means (0 for a side that lost).
    """
    if method not in METHODS:
        raise UsageError(f"--method {method!r}: use {', '.join(METHODS)}")
    di = darc_index(darc)
    mtext = mercy_text(*mercy)
    frames = []
    for terrain in terrains:
        ti = terrain_index(terrain)
        if method in ("exact", "both"):
            ex = exact_grid(rules, attackers, defenders, ti, di, lords_attacker, lords_defender, mercy)
            frames.append(_frame(attackers, defenders, TERRAINS[ti], DARC_SIDES[di], "exact", ex,
                                 lords_attacker, lords_defender, mtext, 0, None, None, None))
        if method in ("mc", "both"):
            s, sq = mc_grid(rules, attackers, defenders, ti, di, lords_attacker, lords_defender,
                            mercy, games, seed)
            mean = s / games
            var = np.maximum(sq / games - mean * mean, 0.0) * games / max(games - 1, 1)
            se = np.sqrt(var / games)
            frames.append(_frame(attackers, defenders, TERRAINS[ti], DARC_SIDES[di], "mc", mean,
                                 lords_attacker, lords_defender, mtext, games,
                                 se[..., K.Q_ATT_WINS], se[..., K.Q_ROUNDS], s[..., K.Q_ATT_WINS]))
    return pl.concat(frames)


def wilson_bounds(p: np.ndarray, n: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """The Wilson score interval at ``confidence`` of proportions ``p`` observed over ``n`` trials
    (arrays): :func:`simcore.stats.wilson_interval` for each (a grid has at most a few thousand
    cells; exactly 0 at p = 0, 1 at p = 1)."""
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    ends = np.array([wilson_interval(float(a), max(float(b), 1.0), z) for a, b in zip(p, n)],
                    float).reshape(-1, 2)
    return ends[:, 0], ends[:, 1]


def break_even(odds: pl.DataFrame, levels=(0.5, 0.75, 0.9)) -> pl.DataFrame:
    """FF-7: smallest attacker points with P(attacker wins) >= each level, per defence and terrain
    (``min_attacker_p<level>``; null = not reached within the grid's attackers), and how sure
    that attacker is (``mark_p<level>``).

    Uses the exact rows when present (marks from :mod:`simcore.games.fief.spec`). Exact odds
    within ``LEVEL_TOL`` (1e-12) of the level reach it and mark the cell ``AT_LEVEL``
    ("exactly": the odds equal the level, they do not pass it). Monte Carlo odds mark the cell
    ``WITHIN_NOISE`` ("≈") when the Wilson interval of P(attacker wins) holds the level at the
    break-even attacker (it may be below) or at a smaller attacker of the grid (it may be above):
    the break-even may then be another attacker. A cell not reached is marked so when an attacker
    of the grid has the level within its interval. A break-even at the grid's smallest attacker
    (above 1 point, the smallest army) is not known to be it: an attacker below the grid may
    reach the level too (open ground, attackers 20-30 v 5: the exact break-even at 50 % is 6), so
    the cell is marked ``AT_MOST`` ("≤20": that attacker or fewer; in place of "exactly", and
    beside "≈" as ``WITHIN_NOISE + AT_MOST``, "≈≤20"); so is a break-even just after a gap of the
    grid (attackers 1-5,8: a break-even at 8 may be 6 or 7, which the grid skips). Null mark otherwise. The intervals are not the
    cells' 95 % ones (``p_attacker_wins_lo/_hi``): a table holds k break-evens (terrains x
    defences x levels, ~180 by default), and at 95 % each some of the unmarked ones were wrong
    by chance in most runs; each is at :func:`~simcore.games.fief.spec.noise_confidence` (1 -
    0.05 / k, Bonferroni over the k break-evens).
    """
    methods = odds["method"].unique().to_list()
    method = "exact" if "exact" in methods else "mc"
    # sorted by attacker, so a group's first reaching row is its break-even
    src = odds.filter(pl.col("method") == method).sort("attacker", maintain_order=True)
    if method == "mc":
        family = src.select("terrain", "darc", "defender").unique().height * len(levels)
        lo, hi = wilson_bounds(src["p_attacker_wins"].to_numpy(), src["games"].to_numpy(),
                               noise_confidence(family))
        src = src.with_columns(_lo=pl.Series(lo), _hi=pl.Series(hi))
    p, a = pl.col("p_attacker_wins"), pl.col("attacker")
    # a break-even whose attacker one point smaller is not in the grid (the grid's smallest
    # attacker, or the first after a gap such as 1-5,8) is that attacker or fewer (AT_MOST), unless
    # it is the smallest army, below which there is no attacker
    grid = src["attacker"].unique().to_list()
    aggs, marks = [], []
    for lv in levels:
        name = level_percent(lv)
        be = pl.col(f"min_attacker_p{name}")
        at_most = ((be > SMALLEST_ARMY) & ~(be - 1).is_in(grid)).fill_null(False)
        if method == "exact":
            reached = p >= lv - LEVEL_TOL
            aggs += [a.filter(reached).min().alias(f"min_attacker_p{name}"),
                     ((p.filter(reached).first() - lv).abs() <= LEVEL_TOL).alias(f"_mark{name}")]
            mark = (pl.when(at_most).then(pl.lit(AT_MOST))
                    .when(pl.col(f"_mark{name}")).then(pl.lit(AT_LEVEL)))
        else:
            reached = p >= lv
            aggs += [a.filter(reached).min().alias(f"min_attacker_p{name}"),
                     (pl.col("_lo").filter(reached).first() < lv).alias(f"_lo_below{name}"),
                     a.filter(pl.col("_hi") >= lv).min().alias(f"_may{name}")]
            may = pl.col(f"_may{name}")
            noisy = (pl.col(f"_lo_below{name}").fill_null(False)
                     | (may.is_not_null() & (be.is_null() | (may < be))))
            mark = (pl.when(noisy & at_most).then(pl.lit(WITHIN_NOISE + AT_MOST))
                    .when(at_most).then(pl.lit(AT_MOST))
                    .when(noisy).then(pl.lit(WITHIN_NOISE)))
        marks.append(mark.otherwise(pl.lit(None, pl.String)).alias(f"mark_p{name}"))
    out = (src.group_by(["terrain", "darc", "method", "defender"], maintain_order=True).agg(aggs)
           .with_columns(marks).sort(["terrain", "defender"], maintain_order=True))
    return out.select("terrain", "darc", "method", "defender",
                      *(f"min_attacker_p{level_percent(lv)}" for lv in levels),
                      *(f"mark_p{level_percent(lv)}" for lv in levels))


@dataclass(frozen=True)
class OddsRequest:
    """The validated options of ``balance fief-odds`` (see :func:`odds_request`)."""

    attackers_text: str
    defenders_text: str
    attackers: list[int]
    defenders: list[int]
    terrains: list[str]
    darc: str
    method: str
    games: int
    seed: int
    levels: list[float]
    rules: FiefRules
    lords_attacker: int
    lords_defender: int
    mercy: tuple[int, int]
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    def compute(self) -> dict[str, pl.DataFrame]:
        """The tables by file stem: ``odds`` (one row per cell, terrain and method) and
        ``break_even`` (the smallest attacker reaching each level)."""
        odds = odds_frame(self.rules, self.attackers, self.defenders, self.terrains, darc=self.darc,
                          method=self.method, games=self.games, seed=self.seed,
                          lords_attacker=self.lords_attacker, lords_defender=self.lords_defender,
                          mercy=self.mercy)
        return {"odds": odds, "break_even": break_even(odds, self.levels)}

    def exact_covers(self) -> bool:
        """Whether ``--method exact`` computes this grid too (its work limit, :func:`check_work`):
        a Monte Carlo table then says that exact odds, without sampling, are a run away."""
        try:
            check_work(self.rules, self.attackers, self.defenders, self.terrains, "exact", 0)
        except UsageError:
            return False
        return True

    def agreement(self, tables: dict) -> dict | None:
        """Monte Carlo vs exact agreement (``--method both``; exact tests of every cell's wins and
        rounds, :func:`simcore.games.fief.agreement.agreement`), else None. Computed once per
        tables (run.json and the printed line read the same)."""
        if self.method != "both":
            return None
        key = id(tables["odds"])
        if key not in self._memo:
            self._memo.clear()
            self._memo[key] = agreement(tables["odds"], self.rounds_pmf())
        return self._memo[key]

    def rounds_pmf(self) -> dict | None:
        """The exact distribution of rounds of every cell, ``{(terrain, attacker, defender):
        pmf}`` (:func:`simcore.games.fief.exact.rounds_pmf_grid`); None when a terrain's is too
        costly (the rounds are then not tested)."""
        out: dict = {}
        for terrain in self.terrains:
            pmf = rounds_pmf_grid(self.rules, self.attackers, self.defenders,
                                  terrain_index(terrain), darc_index(self.darc),
                                  self.lords_attacker, self.lords_defender, self.mercy)
            if pmf is None:
                return None
            for i, a in enumerate(self.attackers):
                for j, d in enumerate(self.defenders):
                    out[(terrain, a, d)] = pmf[i, j]
        return out

    def meta(self, tables: dict, files: list[str], wall_time_s: float) -> dict:
        """run.json of the output directory."""
        mc_vs_exact = self.agreement(tables)
        return {
            "game": "fief-odds",
            "created_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "attackers": self.attackers_text, "defenders": self.defenders_text,
            "terrains": self.terrains, "darc": self.darc, "method": self.method,
            "games_per_cell": self.games if self.method != "exact" else 0,
            "seed": self.seed, "lords_attacker": self.lords_attacker,
            "lords_defender": self.lords_defender, "mercy": mercy_text(*self.mercy),
            "levels": self.levels, "rules_name": str(self.rules.source.name),
            "rules_sha256": self.rules.source.sha256, "rules_text": self.rules.source.text,
            "rules_settings": self.rules.settings, "files": files, "mc_vs_exact": mc_vs_exact,
            "wall_time_s": wall_time_s,
        }


def monte_carlo_options(method: str, games, seed, default_games: int,
                        exact_words: str) -> tuple[int, int]:
    """``--games`` and ``--seed`` of a table command (FF-7): their values checked, then refused
    (one UsageError line) with ``--method exact``, where they would do nothing: the exact tables
    are computed outright, and a designer who gave ``--games`` expecting Monte Carlo must not
    read the exact tables as the ones asked for. None = not given (``default_games``, seed 0).
    Called before the rules are read, so nothing starts before the refusal."""
    n = default_games if games is None else as_count(games, "--games", hi=10**9)
    s = 0 if seed is None else check_seed(seed)
    given = [f"{flag} {value}" for flag, value in (("--games", games), ("--seed", seed))
             if value is not None]
    if method == "exact" and given:
        raise UsageError(f"{', '.join(given)}: only with --method mc or both ({exact_words} are "
                         "computed outright, without rolling any dice; --method both adds a "
                         "Monte Carlo check)")
    return n, s


DEFAULT_GAMES = 20000           # Monte Carlo combats per cell when --games is not given


def odds_request(*, attackers: str = "1-30", defenders: str = "1-20", terrain: str = "all",
                 darc: str = "none", method: str = "exact", games: int | str | None = None,
                 seed: int | None = None,
                 rules_path: str | Path | None = None, lords_attacker: int | None = None,
                 lords_defender: int | None = None, mercy: str | None = None,
                 levels: str = "0.5,0.75,0.9") -> OddsRequest:
    """Validate the options of ``balance fief-odds`` (FF-1 … FF-4, FF-7); one-line UsageError."""
    atts = parse_points(attackers, "--attackers")
    defs = parse_points(defenders, "--defenders")
    terrains = parse_terrains(terrain)
    di = darc_index(darc)
    if method not in METHODS:
        raise UsageError(f"--method {method!r}: use {', '.join(METHODS)}")
    games, seed = monte_carlo_options(method, games, seed, DEFAULT_GAMES, "the exact odds")
    lv = parse_levels(levels)
    rules = load(rules_path)
    check_work(rules, atts, defs, terrains, method, games)
    la = rules.default_lords[0] if lords_attacker is None else int(lords_attacker)
    ld = rules.default_lords[1] if lords_defender is None else int(lords_defender)
    # Lords are capped at each cell's points; check the largest army of each side.
    check_army(rules, "attacker", max(atts), min(la, max(atts)) if lords_attacker is None else la,
               DARC_SIDES[di] == "attacker", MAX_POINTS)
    check_army(rules, "defender", max(defs), min(ld, max(defs)) if lords_defender is None else ld,
               DARC_SIDES[di] == "defender", MAX_POINTS)
    k = rules.default_mercy if mercy is None else parse_mercy(mercy, "--mercy")
    # (each cell's Lords are min(points, la): at least 1 wherever la is, so la = 0 is the only
    # setting under which a side can never ask)
    check_mercy(rules, k, (la, ld), mercy is not None,
                (lords_attacker is not None, lords_defender is not None))
    return OddsRequest(attackers, defenders, atts, defs, terrains, DARC_SIDES[di], method, games,
                       seed, lv, rules, la, ld, k)


def level_percent(level: float) -> str:
    """A break-even level as its column / header name: 0.5 → ``50``, 0.999 → ``99.9`` (never
    rounded to a level it is not)."""
    return f"{level * 100:.6g}"


#: The most break-even levels one fief-odds run takes (reports.figures.fief draws one border colour each).
MAX_LEVELS = 4


def parse_levels(text: str) -> list[float]:
    try:
        lv = [float(x) for x in str(text).split(",") if x.strip()]
    except ValueError:
        raise UsageError(f"--levels {text!r}: write probabilities like 0.5,0.75,0.9") from None
    if not lv or not all(0 < x <= 1 for x in lv):
        raise UsageError(f"--levels {text!r}: each level must be in (0, 1]")
    if len(lv) > MAX_LEVELS:
        # each level is a border of its own colour and width on the heat maps: past four, colours
        # repeated and the widest border hid its cells (review s52 Fief #6)
        raise UsageError(f"--levels {text!r}: at most {MAX_LEVELS} levels (each is drawn as a border "
                         "of its own colour on the heat maps); run fief-odds again for others")
    names = [level_percent(x) for x in lv]
    if len(set(names)) < len(names):
        raise UsageError(f"--levels {text!r}: levels must differ in their first 6 significant "
                         "digits of percent (each names a break-even column)")
    return lv


def check_work(rules: FiefRules, attackers, defenders, terrains, method: str, games: int) -> None:
    """FF-7: refuse (one-line UsageError) a grid whose tables or computation would be too large,
    before any of it starts: at most MAX_ROWS odds rows, MAX_MC_WORK Monte Carlo work (combats
    times 1 + the smaller army's points, which rounds grow with) and, when every cell needs its
    own exact solve (Lords removed first, or d'Arc falling first), MAX_EXACT_WORK states."""
    grid = f"--attackers x --defenders x terrains = {len(attackers)} x {len(defenders)} x {len(terrains)}"
    rows = len(attackers) * len(defenders) * len(terrains) * (2 if method == "both" else 1)
    if rows > MAX_ROWS:
        raise UsageError(f"{grid}: {rows:,} rows, at most {MAX_ROWS:,} rows per run; "
                         "use a smaller grid")
    if method in ("mc", "both"):
        d = np.array(defenders, np.int64)
        per_game = sum(int((1 + np.minimum(a, d)).sum()) for a in attackers) * len(terrains)
        if games * per_game > MAX_MC_WORK:
            raise UsageError(f"--games {games:,} over {grid}: Monte Carlo work {games * per_game:.2g} "
                             f"(combats x (1 + the smaller army's points)), at most "
                             f"{MAX_MC_WORK:.0e}; use fewer --games or a smaller grid")
    if method in ("exact", "both") and (rules.param(P_LORDS_FIRST) or rules.param(P_DARC_FIRST)):
        states = sum(attackers) * sum(defenders) * len(terrains)
        if states > MAX_EXACT_WORK:
            raise UsageError(f"{grid}: exact work {states:.2g} states (each cell is solved on "
                             f"its own with these rules), at most {MAX_EXACT_WORK:.0e}; "
                             "use a smaller grid")
