"""Fief combat adapter for the runner: a matchup → :class:`simcore.contract.PreparedRun`.

Validates the matchup (FF-1 … FF-4 army limits, terrain, Jeanne d'Arc, mercy policy) before any
combat is played, and provides the per-chunk play function: combat ``i`` of the run draws from
``stream_state(seed, i)`` (:func:`simcore.games.fief.kernel.combat_chunk`), so results depend on
neither threads nor chunk size. Per chunk it returns the ``games`` rows (one per combat) and two
``players`` rows per combat (attacker then defender, with the common columns); the
:class:`CombatOdds` accumulator turns the combats into the odds with 95 % Wilson intervals that
run.json's ``results`` holds and the runner's closing table shows (FF-7). The games' ``winner`` is
their end reason (the spec's role): run.json's ``end_reason_names`` names its codes, as every game
names how its games end.

May import numpy, pyarrow (the side column), :mod:`simcore.contract`, :mod:`simcore.stats`,
:mod:`simcore.errors` and this game's modules.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore.contract import (ChunkResult, ClosingRow, PreparedRun, SeatStrategies,
                              chunk_from_arrays)
from simcore.games.fief import kernel as K
from simcore.games.fief.rules import (
    DARC_SIDES, TERRAINS, FiefRules, check_army, check_mercy, darc_index, load, mercy_text,
    parse_mercy, terrain_index,
)
from simcore.games.fief.spec import SIDES, SPEC, WINNER_NAMES
from simcore.stats import Z95, wilson_counts, wilson_interval

DEFAULT_CHUNK = 1 << 20          # combats are small: bigger chunks than the runner's default


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (95 % by default)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    return wilson_interval(k / n, n, z)


def resolve_matchup(rules: FiefRules, *, attacker: int, defender: int, terrain: str, darc: str,
                    lords_attacker: int | None, lords_defender: int | None, mercy: str | None):
    """Validate a matchup; returns (terrain index, darc index, Lords, mercy thresholds)."""
    ti = terrain_index(terrain)
    di = darc_index(darc)
    la = rules.default_lords[0] if lords_attacker is None else int(lords_attacker)
    ld = rules.default_lords[1] if lords_defender is None else int(lords_defender)
    if lords_attacker is None:
        la = min(la, max(attacker, 0))
    if lords_defender is None:
        ld = min(ld, max(defender, 0))
    check_army(rules, "attacker", attacker, la, DARC_SIDES[di] == "attacker")
    check_army(rules, "defender", defender, ld, DARC_SIDES[di] == "defender")
    k = rules.default_mercy if mercy is None else parse_mercy(mercy, "--mercy")
    check_mercy(rules, k, (la, ld), mercy is not None,
                (lords_attacker is not None, lords_defender is not None))
    return ti, di, la, ld, k


def prepare(*, attacker: int = 10, defender: int = 6, terrain: str = "open", darc: str = "none",
            lords_attacker: int | None = None, lords_defender: int | None = None,
            mercy: str | None = None, rules_path: str | Path | None = None,
            bots=None) -> PreparedRun:
    """Validate one matchup and build its run (FF-1 … FF-4); ``bots`` is unused (no bots)."""
    rules = load(rules_path)
    ti, di, la, ld, k = resolve_matchup(rules, attacker=attacker, defender=defender,
                                        terrain=terrain, darc=darc, lords_attacker=lords_attacker,
                                        lords_defender=lords_defender, mercy=mercy)

    seats = SeatStrategies(list(SIDES))       # seat 0 the attacker, seat 1 the defender

    def play(first: int, n: int, seed: int) -> ChunkResult:
        r = _run_chunk(rules, first, n, seed, attacker, defender, la, ld, ti, di, k)
        return chunk_from_arrays(SPEC.player_columns, SPEC.game_columns,
                                 {**_side_results(r), **_game_columns(r, la, ld)}, first, n, 2,
                                 seats)

    src = rules.source
    return PreparedRun(
        game=SPEC.name, n_players=2, strategy_names=list(SIDES),
        players_schema=SPEC.players_schema(), games_schema=SPEC.games_schema(), play=play,
        warmup=lambda: _run_chunk(rules, 0, 1, 0, attacker, defender, la, ld, ti, di, k),
        rules_name=str(src.name), rules_text=src.text, rules_sha256=src.sha256,
        meta={"rules_settings": rules.settings,
              "matchup": {"attacker": attacker, "defender": defender, "terrain": TERRAINS[ti],
                          "darc": DARC_SIDES[di], "lords_attacker": la, "lords_defender": ld,
                          "mercy": mercy_text(*k)},
              "stream": "combat i uses simcore.rng.stream_state(seed, i)",
              "columns": {"winner": dict(enumerate(WINNER_NAMES)), "seat": dict(enumerate(SIDES))},
              # the games' ``winner`` is their end reason (the spec's role): named as every game
              # names its end reasons, so analysis reads a combat's outcomes like any game's ends
              "end_reason_names": dict(enumerate(WINNER_NAMES))},
        summary_columns=("score",),
        compile_message="Compiling the Fief combat kernel (first run only; cached afterwards)",
        extra_summaries={"results": CombatOdds},
        score_unit=SPEC.score_unit, seat_labels=("attacker", "defender"), fair_share=None,
        default_chunk=DEFAULT_CHUNK)


def _run_chunk(rules, first, n, seed, a0, d0, la, ld, ti, di, k) -> dict:
    cols = {name: np.empty(n, np.int64) for name in
            ("winner", "mercy", "rounds", "a", "d", "lla", "lld", "capa", "capd")}
    K.combat_chunk(np.int64(first), np.int64(n), np.uint64(seed), np.int64(a0), np.int64(d0),
                   np.int64(la), np.int64(ld), np.int64(ti), np.int64(di), np.int64(k[0]),
                   np.int64(k[1]), *rules.kernel_args(), cols["winner"], cols["mercy"],
                   cols["rounds"], cols["a"], cols["d"], cols["lla"], cols["lld"], cols["capa"],
                   cols["capd"])
    return cols


def _game_columns(r: dict, la: int, ld: int) -> dict[str, np.ndarray]:
    i16 = lambda x: x.astype(np.int16)  # noqa: E731
    return {
        "winner": r["winner"].astype(np.int8), "by_mercy": r["mercy"].astype(bool),
        "rounds": i16(r["rounds"]),
        "attacker_points_left": i16(r["a"]), "defender_points_left": i16(r["d"]),
        "attacker_soldiers_left": i16(r["a"] - r["lla"]),
        "defender_soldiers_left": i16(r["d"] - r["lld"]),
        "attacker_lords_left": i16(r["lla"]), "defender_lords_left": i16(r["lld"]),
        "attacker_lords_captured": i16(r["capa"]), "defender_lords_captured": i16(r["capd"]),
        "attacker_lords_killed": i16(la - r["lla"] - r["capa"]),
        "defender_lords_killed": i16(ld - r["lld"] - r["capd"]),
    }


def _side_results(r: dict) -> dict:
    """Score, win share and rank of both sides of every combat (attacker then defender): the
    winner has 1, both wiped out 0.5 each (FF-3); not the highest score, since a side granted
    mercy loses with points left."""
    n = r["winner"].shape[0]
    score = np.empty(2 * n, np.int32)
    score[0::2] = r["a"]
    score[1::2] = r["d"]
    win = r["winner"]
    share = np.empty(2 * n, np.float32)
    share[0::2] = np.where(win == K.ATTACKER_WINS, 1.0, np.where(win == K.BOTH_WIPED, 0.5, 0.0))
    share[1::2] = 1.0 - share[0::2]
    side = pa.DictionaryArray.from_arrays(pa.array(np.tile(np.array([0, 1], np.int32), n)),
                                          pa.array(list(SIDES))).cast(pa.string())
    return {"side": side, "score": score, "win_share": share,
            "rank": np.where(share >= 0.5, 1, 2).astype(np.int8)}


class CombatOdds:
    """The odds of a matchup, accumulated chunk by chunk (bounded memory): FF-7's table.

    :meth:`meta` gives run.json's ``results`` (counts, estimates, 95 % Wilson intervals for the
    outcomes; means with normal intervals for rounds, points and Lords left);
    :meth:`closing_rows` the lines the runner prints under its table.
    """

    _MEANS = (("rounds", "expected_rounds"), ("attacker_points_left", "attacker_points_left"),
              ("defender_points_left", "defender_points_left"),
              ("attacker_lords_left", "attacker_lords_left"),
              ("defender_lords_left", "defender_lords_left"),
              ("attacker_lords_captured", "attacker_lords_captured"),
              ("defender_lords_captured", "defender_lords_captured"))

    def __init__(self) -> None:
        self.n = 0
        self.winner = np.zeros(3, np.int64)
        self.mercy = np.zeros(3, np.int64)
        self.sums = {col: 0.0 for col, _ in self._MEANS}
        self.sumsq = dict.fromkeys(self.sums, 0.0)

    def add(self, chunk: ChunkResult) -> None:
        g = chunk.games
        win = np.asarray(g["winner"], np.int64)
        self.n += win.shape[0]
        self.winner += np.bincount(win, minlength=3)[:3]
        self.mercy += np.bincount(win, weights=g["by_mercy"], minlength=3)[:3].astype(np.int64)
        for col in self.sums:
            x = np.asarray(g[col], np.float64)
            self.sums[col] += float(x.sum())
            self.sumsq[col] += float((x * x).sum())

    def table(self) -> None:
        return None           # everything goes into run.json

    def _mean_ci(self, col: str) -> tuple[float, float, float]:
        n = self.n
        m = self.sums[col] / n
        var = max(self.sumsq[col] / n - m * m, 0.0) * n / max(n - 1, 1)
        half = Z95 * math.sqrt(var / n)
        # every column here is a count (rounds, points left): never below 0, which a normal
        # interval about a mean of mostly zeros crossed ("0.020, −0.008 – 0.048", review s52 Fief #7)
        return m, max(m - half, 0.0), m + half

    def meta(self) -> dict:
        # the intervals balance report and balance export print for these shares (the exact Poisson
        # end at 1-3 combats: simcore.stats.wilson_counts; review 225 #2)
        out: dict = {"games": self.n}
        for code, key in enumerate(("p_attacker_wins", "p_defender_holds", "p_both_wiped")):
            k = int(self.winner[code])
            lo, hi = wilson_counts(k, self.n)
            out[key] = {"count": k, "p": k / self.n, "ci95": [lo, hi]}
        for code, key in ((0, "p_attacker_wins_by_mercy"), (1, "p_defender_holds_by_mercy")):
            k = int(self.mercy[code])
            out[key] = {"count": k, "p": k / self.n, "ci95": list(wilson_counts(k, self.n))}
        for col, name in self._MEANS:
            m, lo, hi = self._mean_ci(col)
            out[name] = {"mean": m, "ci95": [lo, hi]}
        return {"results": out}

    def closing_rows(self) -> list[ClosingRow]:
        r = self.meta()["results"]
        rows = [ClosingRow(label, r[key]["p"], *r[key]["ci95"]) for key, label in (
            ("p_attacker_wins", "P(attacker wins)"),
            ("p_attacker_wins_by_mercy", "  of which by mercy"),
            ("p_defender_holds", "P(defender holds)"),
            ("p_defender_holds_by_mercy", "  of which by mercy"),
            ("p_both_wiped", "P(both wiped out)"))]
        # the seat table above counts half of each mutual wipe-out as each side's "win share"
        # (88.25% beside P(attacker wins) 0.8524, review K #2): the same figure, named, here
        n = self.n
        share = (self.winner[K.ATTACKER_WINS] + 0.5 * self.winner[K.BOTH_WIPED]) / n
        rows.append(ClosingRow("attacker win share = wins + ½ both wiped out",
                               float(share), *wilson_counts(float(share) * n, n)))
        rows += [ClosingRow(label, r[key]["mean"], *r[key]["ci95"], percent=False)
                 for key, label in (("expected_rounds", "rounds (mean)"),
                                    ("attacker_points_left", "attacker points left (mean)"),
                                    ("defender_points_left", "defender points left (mean)"))]
        return rows
