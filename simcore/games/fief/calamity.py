"""Plague (FF-5) and the bishop's intervention in a peasant revolt (FF-6): exact tables, and Monte
Carlo from the kernel as a check.

Both are exact in closed form: plague removes a fixed number of soldiers (half, rounded as the
rules say) and each Lord survives independently with probability P(die >= threshold), so the
Lords left are binomial; the bishop succeeds when die + conviction points >= target.
:func:`calamity_request` validates the options of ``balance fief-calamity`` (including a limit
on the Monte Carlo work, checked before anything runs, and ``--games`` / ``--seed`` refused with the
exact method) into a :class:`CalamityRequest`, whose :meth:`~CalamityRequest.compute` gives the
survivor distribution (``plague``), its summary (``plague_summary``) and the revolt odds
(``revolt``), :meth:`~CalamityRequest.notes` what the tables cannot show at a glance (rules under
which no Lord survives, from how many écus the bishop cannot fail, which rows a --max-ecus shows:
:func:`plague_notes`, :func:`revolt_notes`), and :meth:`~CalamityRequest.meta` the run.json. Writing the output directory and the printed tables
live in :mod:`reports.games.fief`; the command is declared in the spec (``fief-calamity``, built
by ``cli/tables.py``).

May import numpy, polars, the standard library and the simcore packages (no matplotlib, no rich).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
import polars as pl

from simcore.errors import UsageError
from simcore.games.fief import kernel as K
from simcore.games.fief.odds import MC_BATCH_WORK, METHODS, monte_carlo_options, parse_points
from simcore.games.fief.rules import (
    DIE_SIDES, P_PLAGUE_LORD_SURVIVES, P_PLAGUE_ROUND_UP, P_REVOLT_ECUS, P_REVOLT_SUCCESS,
    FiefRules, load,
)
from simcore.games.fief.game import wilson
from simcore.options import as_count
from simcore.rng import stream_state

MAX_MC_WORK = 10**10     # games x (sum over plague cells of 1 + Lords, plus the revolt rows)
PLAGUE_KEY = 1 << 50     # cell keys, so plague and revolt streams never share a key with combats
REVOLT_KEY = 2 << 50


def die_at_least(target: int) -> float:
    """P(one six-sided die >= target)."""
    return min(max(DIE_SIDES + 1 - target, 0), DIE_SIDES) / DIE_SIDES


def soldiers_removed(rules: FiefRules, soldiers: int) -> int:
    """FF-5: half the soldiers die, the half rounded down by default ([plague] removed_rounding)."""
    return (soldiers + 1) // 2 if rules.param(P_PLAGUE_ROUND_UP) else soldiers // 2


def plague_exact(rules: FiefRules, soldiers, lords) -> pl.DataFrame:
    """FF-5 survivor distribution: one row per (soldiers, lords, lords_left) with its probability."""
    q = die_at_least(rules.param(P_PLAGUE_LORD_SURVIVES))
    rows = []
    for s in soldiers:
        left = s - soldiers_removed(rules, s)
        for n in lords:
            for k in range(n + 1):
                p = math.comb(n, k) * q ** k * (1 - q) ** (n - k)
                rows.append((s, n, left, k, left + k, p))
    return _plague_frame(rows, "exact", 0)


def _plague_frame(rows, method: str, games: int) -> pl.DataFrame:
    df = pl.DataFrame(rows, schema=[("soldiers", pl.Int32), ("lords", pl.Int32),
                                    ("soldiers_left", pl.Int32), ("lords_left", pl.Int32),
                                    ("points_left", pl.Int32), ("probability", pl.Float64)],
                      orient="row")
    return df.with_columns(method=pl.lit(method), games=pl.lit(games, pl.Int64))


def _batches(games: int, work_per_game: int):
    """Game index ranges [i0, i1) of about MC_BATCH_WORK work each (``work_per_game``: the work
    of one game index over every cell). One jitted call holds off Python's signal handlers until
    it returns, so a large grid played in one call stayed deaf to Ctrl-C and SIGTERM for minutes;
    every game draws from its own stream, so the batches change no number."""
    step = max(1, MC_BATCH_WORK // max(work_per_game, 1))
    return [(i0, min(i0 + step, games)) for i0 in range(0, games, step)]


def plague_mc(rules: FiefRules, soldiers, lords, games: int, seed: int) -> pl.DataFrame:
    """FF-5 by Monte Carlo (kernel.plague_grid); same layout as :func:`plague_exact`."""
    S = np.array([s for s in soldiers for _ in lords], np.int64)
    L = np.array([n for _ in soldiers for n in lords], np.int64)
    seeds = np.array([stream_state(np.uint64(seed), np.uint64(PLAGUE_KEY | (int(s) << 20) | int(n)))
                      for s, n in zip(S, L)], np.uint64)
    left = np.zeros(S.shape[0], np.int64)
    hist = np.zeros((S.shape[0], int(L.max()) + 1), np.int64)
    for i0, i1 in _batches(games, int((1 + L).sum())):
        K.plague_grid(seeds, S, L, np.int64(i0), np.int64(i1), rules.params, left, hist)
    rows = [(int(S[c]), int(L[c]), int(left[c]), k, int(left[c]) + k, hist[c, k] / games)
            for c in range(S.shape[0]) for k in range(int(L[c]) + 1)]
    return _plague_frame(rows, "mc", games)


def plague_summary(dist: pl.DataFrame) -> pl.DataFrame:
    """Per (method, soldiers, lords): soldiers removed and left, expected Lords and points left,
    P(no Lord survives), P(every Lord survives). A village without Lords has neither probability
    (null, an empty cell in the CSV): 'no Lord survives' and 'every Lord survives' would both be
    true of it, vacuously, and read as 1 and 1 beside each other."""
    no_lords = pl.col("lords") == 0
    return (dist.group_by(["method", "soldiers", "lords"], maintain_order=True).agg(
        pl.col("soldiers_left").first(),
        (pl.col("soldiers") - pl.col("soldiers_left")).first().alias("soldiers_removed"),
        (pl.col("lords_left") * pl.col("probability")).sum().alias("expected_lords_left"),
        (pl.col("points_left") * pl.col("probability")).sum().alias("expected_points_left"),
        pl.col("probability").filter(pl.col("lords_left") == 0).sum().alias("p_no_lord_survives"),
        pl.col("probability").filter(pl.col("lords_left") == pl.col("lords")).sum()
        .alias("p_all_lords_survive"),
        pl.col("games").first(),
    ).with_columns(pl.when(no_lords).then(None).otherwise(pl.col(c)).alias(c)
                   for c in ("p_no_lord_survives", "p_all_lords_survive")))


def plague_notes(rules: FiefRules) -> list[str]:
    """FF-5: what a plague table cannot show at a glance, in one sentence each: a survival
    threshold no die fails (every Lord survives) or none reaches (no Lord survives). The spec's
    rule is 4 or more; ``plague.lord_survives_at_least`` accepts 1 to 7 as variants (7: the plague
    kills every Lord), so a setting made by mistake is said, not refused."""
    at = rules.param(P_PLAGUE_LORD_SURVIVES)
    setting = f"plague.lord_survives_at_least = {at}"
    if die_at_least(at) == 0:
        return [f"No Lord survives the plague under these rules: a Lord survives on a die of {at} "
                f"or more ({setting}), which a six-sided die never rolls."]
    if die_at_least(at) == 1:
        return [f"Every Lord survives the plague under these rules: a Lord survives on a die of "
                f"{at} or more ({setting}), which every roll reaches."]
    return []


def revolt_notes(rules: FiefRules, max_ecus: int) -> list[str]:
    """FF-6: what the bishop's table cannot show at a glance, in the game's words, from the rules
    (not from the rows printed): which rows a ``max_ecus`` that is not a multiple of the point's
    price shows (the écus left over buy nothing); below the points at which even a 6 falls short
    of the target, that he is always stoned; and always, from how many écus he cannot fail (his
    lowest roll, 1, reaches the target), said beyond ``max_ecus`` when the table stops before it
    (its last row then still fails now and then), or said as buying nothing more when the table
    goes past it. A die of 1 plus target - 1 points always reaches the target (the rules accept
    any target from 1 and any number of points), so there is always such a sum."""
    price = rules.param(P_REVOLT_ECUS)
    target = rules.param(P_REVOLT_SUCCESS)
    last = max_ecus // price                       # the table's rows: 0 … last points
    pts = lambda k: f"{k} conviction point{'s' if k != 1 else ''}"  # noqa: E731
    notes = []
    if last * price != max_ecus:
        rows = (f"0 to {last * price:,} écus (0 to {pts(last)})" if last else
                "0 écus only (no conviction point)")
        notes.append(f"--max-ecus {max_ecus:,} is not a multiple of the {price:,} écus a conviction "
                     f"point costs: the rows are {rows}, what {max_ecus:,} écus buy.")
    no_chance = target - DIE_SIDES                 # fewer points: a 6 falls short of the target
    if no_chance > 0:
        if no_chance > last:
            plus = f" plus {pts(last)}" if last else ""
            notes.append(f"Up to {max_ecus:,} écus the bishop is always stoned: even a {DIE_SIDES}"
                         f"{plus} falls short of {target}; he needs {pts(no_chance)} "
                         f"({no_chance * price:,} écus) to have a chance.")
        else:
            notes.append(f"Below {no_chance * price:,} écus ({pts(no_chance)}) the bishop is always "
                         f"stoned: even a {DIE_SIDES} falls short of {target}.")
    sure = max(target - 1, 0)                      # from here a roll of 1 reaches the target
    why = (f"his lowest roll, 1, plus {sure} reaches {target}" if sure > 0 else
           f"his lowest roll, 1, reaches {target}")
    if sure > last:
        fails = min(target - 1 - last, DIE_SIDES)  # the faces that fall short at the last row
        # (review s52 Fief opinion: "on 1 roll of 6" read as one roll in six rolls)
        still = (f"; at {last * price:,} écus, the table's last row, he is still stoned on "
                 f"{fails} of the die's {DIE_SIDES} faces ({100 * fails / DIE_SIDES:.0f}%)"
                 if fails < DIE_SIDES else "")
        notes.append(f"The bishop is certain to succeed only from {sure * price:,} écus "
                     f"({pts(sure)}: {why}), beyond --max-ecus {max_ecus:,}{still}.")
    elif sure == 0:
        notes.append(f"The bishop cannot fail even without conviction points: {why}"
                     + (f"; spending more buys nothing (the rows up to {last * price:,} écus read "
                        "the same)." if last else "."))
    elif sure == last:
        notes.append(f"From {sure * price:,} écus ({pts(sure)}), the table's last row, the bishop "
                     f"cannot fail: {why}.")
    else:
        notes.append(f"From {sure * price:,} écus ({pts(sure)}) the bishop cannot fail: {why}; "
                     f"spending more buys nothing (the rows up to {last * price:,} écus read the "
                     "same).")
    return notes


def revolt_table(rules: FiefRules, max_ecus: int, method: str = "exact", games: int = 0,
                 seed: int = 0) -> pl.DataFrame:
    """FF-6: P(the bishop ends the revolt) against écus spent on conviction points (multiples of
    the point price from 0 to ``max_ecus``); the bishop is stoned otherwise."""
    price = rules.param(P_REVOLT_ECUS)
    target = rules.param(P_REVOLT_SUCCESS)
    points = np.arange(max_ecus // price + 1, dtype=np.int64)
    exact = np.array([die_at_least(target - int(c)) for c in points])
    frames = []
    if method in ("exact", "both"):
        frames.append(pl.DataFrame({"method": "exact", "ecus": points * price,
                                    "conviction_points": points, "p_success": exact,
                                    "p_bishop_stoned": 1 - exact, "p_success_lo": exact,
                                    "p_success_hi": exact, "games": np.zeros_like(points)}))
    if method in ("mc", "both"):
        seeds = np.array([stream_state(np.uint64(seed), np.uint64(REVOLT_KEY | int(c))) for c in points],
                         np.uint64)
        wins = np.zeros(points.shape[0], np.int64)
        for i0, i1 in _batches(games, points.shape[0]):
            K.revolt_grid(seeds, points, np.int64(i0), np.int64(i1), rules.params, wins)
        ci = np.array([wilson(w, games) for w in wins])
        p = wins / games
        frames.append(pl.DataFrame({"method": "mc", "ecus": points * price,
                                    "conviction_points": points, "p_success": p,
                                    "p_bishop_stoned": 1 - p, "p_success_lo": ci[:, 0],
                                    "p_success_hi": ci[:, 1], "games": np.full_like(points, games)}))
    return pl.concat(frames)


@dataclass(frozen=True)
class CalamityRequest:
    """The validated options of ``balance fief-calamity`` (see :func:`calamity_request`)."""

    soldiers_text: str
    lords_text: str
    soldiers: list[int]
    lords: list[int]
    max_ecus: int
    method: str
    games: int
    seed: int
    rules: FiefRules

    def compute(self) -> dict[str, pl.DataFrame]:
        """The tables by file stem: ``plague`` (survivor distribution), ``plague_summary``,
        ``revolt``."""
        parts = []
        if self.method in ("exact", "both"):
            parts.append(plague_exact(self.rules, self.soldiers, self.lords))
        if self.method in ("mc", "both"):
            parts.append(plague_mc(self.rules, self.soldiers, self.lords, self.games, self.seed))
        dist = pl.concat(parts)
        return {"plague": dist, "plague_summary": plague_summary(dist),
                "revolt": revolt_table(self.rules, self.max_ecus, self.method, self.games, self.seed)}

    def notes(self) -> dict[str, list[str]]:
        """What the tables cannot show at a glance (:func:`plague_notes`, :func:`revolt_notes`),
        by table: printed under it and kept in run.json's ``notes``."""
        return {"plague": plague_notes(self.rules),
                "revolt": revolt_notes(self.rules, self.max_ecus)}

    def agreement(self, tables: dict) -> dict | None:
        """Monte Carlo vs exact (``--method both``, :func:`calamity_agreement`), else None."""
        return calamity_agreement(tables) if self.method == "both" else None

    def meta(self, tables: dict, files: list[str], wall_time_s: float) -> dict:
        """run.json of the output directory."""
        return {
            "game": "fief-calamity", "mc_vs_exact": self.agreement(tables),
            "created_utc": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "soldiers": self.soldiers_text, "lords": self.lords_text, "max_ecus": self.max_ecus,
            "method": self.method, "games_per_cell": self.games if self.method != "exact" else 0,
            "seed": self.seed, "rules_name": str(self.rules.source.name),
            "rules_sha256": self.rules.source.sha256, "rules_text": self.rules.source.text,
            "rules_settings": self.rules.settings, "files": files, "wall_time_s": wall_time_s,
            "notes": [n for ns in self.notes().values() for n in ns],
        }


def calamity_agreement(tables: dict) -> dict:
    """Monte Carlo vs exact for ``--method both`` (FF-5, FF-6), with the exact tests of
    :mod:`simcore.games.fief.agreement`: in every plague cell (soldiers, Lords), the number of
    trials in which exactly k Lords survive, for each k (binomial under the exact P(k survive));
    in every revolt row, the bishop's successes (binomial under the exact odds). Two-sided exact p
    per test (twice the smaller tail), the smallest of each table and where, and the smallest over
    all tests adjusted by Bonferroni; below 0.05 Monte Carlo and exact disagree. A Monte Carlo
    cell whose soldiers left differ from the rule's (no dice: they are fixed) is a disagreement
    too (``soldiers_left_differ``)."""
    from simcore.games.fief.agreement import ALPHA, two_sided_p

    keys = ["soldiers", "lords", "lords_left"]
    dist = tables["plague"]
    ex = dist.filter(pl.col("method") == "exact").select(
        *keys, pl.col("probability").alias("p_ex"), pl.col("soldiers_left").alias("left_ex"))
    mc = dist.filter(pl.col("method") == "mc").select(*keys, "probability", "soldiers_left", "games")
    j = mc.join(ex, on=keys, maintain_order="left")
    plague = []
    for r in j.iter_rows(named=True):
        n = int(r["games"])
        k = int(round(r["probability"] * n))
        p = two_sided_p([1.0 - r["p_ex"], r["p_ex"]], n, k)
        plague.append((p, {"soldiers": r["soldiers"], "lords": r["lords"],
                           "lords_left": r["lords_left"]}))
    differ = j.filter(pl.col("soldiers_left") != pl.col("left_ex")).select(
        "soldiers", "lords").unique().height
    rv = tables["revolt"]
    rex = rv.filter(pl.col("method") == "exact").select(
        "conviction_points", "ecus", pl.col("p_success").alias("p_ex"))
    rmc = rv.filter(pl.col("method") == "mc").select("conviction_points", "p_success", "games")
    revolt = []
    for r in rmc.join(rex, on="conviction_points", maintain_order="left").iter_rows(named=True):
        n = int(r["games"])
        p = two_sided_p([1.0 - r["p_ex"], r["p_ex"]], n, int(round(r["p_success"] * n)))
        revolt.append((p, {"ecus": r["ecus"], "conviction_points": r["conviction_points"]}))
    tests = len(plague) + len(revolt)

    def smallest(ps):
        if not ps:
            return None
        p, where = min(ps, key=lambda x: x[0])
        return {"p": float(p), **where}

    p_min = min(p for p, _ in plague + revolt) if tests else 1.0
    p_adj = min(1.0, tests * p_min)
    return {"plague_cells": mc.select("soldiers", "lords").unique().height,
            "games": int(mc["games"][0]) if mc.height else 0, "tests": tests,
            "plague": smallest(plague), "revolt": smallest(revolt), "p_bonferroni": p_adj,
            "soldiers_left_differ": differ, "disagree": bool(p_adj < ALPHA or differ > 0),
            "alpha": ALPHA,
            "test": "exact two-sided binomial p per count (twice the smaller tail) under the exact "
                    "odds: plague trials with k Lords surviving, per cell and k; revolt successes "
                    "per row; Bonferroni over the tests"}


DEFAULT_GAMES = 100000          # Monte Carlo trials per cell when --games is not given


def calamity_request(*, soldiers: str = "0-30", lords: str = "1-4", max_ecus: int | str = 2000,
                     method: str = "exact", games: int | str | None = None,
                     seed: int | None = None,
                     rules_path: str | Path | None = None) -> CalamityRequest:
    """Validate the options of ``balance fief-calamity`` (FF-5, FF-6); one-line UsageError."""
    s_list = parse_points(soldiers, "--soldiers", max_points=9999, min_points=0)
    l_list = parse_points(lords, "--lords", max_points=16, min_points=0)
    if method not in METHODS:
        raise UsageError(f"--method {method!r}: use {', '.join(METHODS)}")
    max_ecus = as_count(max_ecus, "--max-ecus", lo=0, hi=10**9)
    games, seed = monte_carlo_options(method, games, seed, DEFAULT_GAMES,
                                      "the exact plague and revolt tables")
    rules = load(rules_path)
    if max_ecus // rules.param(P_REVOLT_ECUS) > 1000:
        raise UsageError(f"--max-ecus {max_ecus}: at most 1000 conviction points")
    if method in ("mc", "both"):
        # FF-5/FF-6: a plague trial rolls one die per Lord, a revolt trial one die.
        per_game = len(s_list) * sum(1 + n for n in l_list) + max_ecus // rules.param(P_REVOLT_ECUS) + 1
        if games * per_game > MAX_MC_WORK:
            raise UsageError(f"--games {games:,}: Monte Carlo work {games * per_game:.2g} (trials x "
                             f"dice over --soldiers x --lords and the revolt rows), at most "
                             f"{MAX_MC_WORK:.0e}; use fewer --games or fewer cells")
    return CalamityRequest(soldiers, lords, s_list, l_list, max_ecus, method, games, seed, rules)
