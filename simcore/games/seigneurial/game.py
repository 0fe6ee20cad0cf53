"""Seigneurial adapter for the runner: options → :class:`simcore.contract.PreparedRun`.

Builds the exact Arrow tables of ``players.parquet`` and ``games.parquet`` from the spec's columns
(SG-8), validates the player count against the rules file (SG-1) before any game is played, and
provides the per-chunk play function for either engine: the Numba kernel (default) or the
pure-Python reference (``engine="reference"``, slow, random bots only, for small runs and
cross-checks), through the shared skeleton :func:`simcore.adapter.player_run`. Seat rotation is not taken: a seat's bot must fit its role (seat 0 is the Seigneur).

End reasons are stored as an int8 code in ``games.parquet``; run.json's ``end_reason_names`` maps
the codes to names: 0 censitaire_objective, 1 seigneur_goal, 2 truncated,
3 seigneur_goal_over_objective (SG-6: the Seigneur on the goal square while a Censitaire holds its
objective; he wins the tie). Codes 1 and 3 are Seigneur wins.

May import numpy, pyarrow, :mod:`simcore.contract`, :mod:`simcore.adapter` and this game's modules
(never :mod:`strategies`: the runner resolves the bots and passes their rows).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa

from simcore.adapter import player_run, record_arrays
from simcore.contract import PreparedRun
from simcore.games.seigneurial import driver, layout
from simcore.games.seigneurial import rules as rules_mod
from simcore.games.seigneurial.rules import RESOURCE_TYPES
from simcore.games.seigneurial.spec import END_REASONS, SPEC

END_REASON_NAMES = dict(enumerate(END_REASONS))
SUMMARY_COLUMNS = ("score", *RESOURCE_TYPES, "favour", "turns_sick", "paid", "seized")
_ROLES = pa.array(["seigneur", "censitaire"], pa.string())
_WINNER_ROLES = pa.array(["seigneur", "censitaire", "censitaires"], pa.string())


def prepare(*, players: int = 4, bots: tuple[list[str], np.ndarray] | None = None,
            rules_path: str | Path | None = None, engine: str = "kernel", debug: bool = False,
            rules=None) -> PreparedRun:
    """Validate the options and build the run (rules loaded once).

    ``bots`` is ``(names, rows)`` as :func:`strategies.seigneurial.resolve` returns them (default:
    random at every seat); ``rules`` (a :class:`RulesArrays`) overrides ``rules_path``.
    """
    if rules is None:
        rules = rules_mod.load(rules_path)
    rules_mod.check_players(rules, players)
    names, strat_rows = bots if bots is not None else (
        ["random"] * players, np.zeros((players, layout.N_STRAT_COLS), np.float64))
    rk = driver.pack_rules(rules)
    return player_run(
        SPEC, players=players, names=names, rules=rules, engine=engine,
        kernel=lambda first, n, seed: _spec_arrays(driver.run_chunk(
            rules, players, first, n, seed, strat_rows, debug=debug, rk=rk), players),
        reference=lambda first, n, seed: _spec_arrays(
            reference_chunk(rules, players, first, n, seed, debug), players),
        warmup=lambda: driver.run_chunk(rules, players, 0, 1, 0, strat_rows, debug=debug, rk=rk),
        all_random=bool(np.all(strat_rows[:, layout.S_KIND] == layout.KIND_RANDOM)),
        error_text=layout.ERROR_TEXT, debug=debug,
        meta={"end_reason_names": END_REASON_NAMES, "resource_types": list(RESOURCE_TYPES),
              "seat_roles": ["seigneur"] + ["censitaire"] * (players - 1),
              "goal_square": rules.goal(players), "midpoint": rules.midpoint(players),
              "objectives": rules.objectives.tolist()},
        summary_columns=SUMMARY_COLUMNS,
        extra_summaries={"objectives_summary": lambda: ObjectiveSummary(len(rules.objectives))})


# SG-2 / SG-6: a Censitaire's score is the % of its Objective card's requirement it holds at the
# end (capped per type); 100 = the whole requirement held
REACHED = 100


class ObjectiveSummary:
    """Per Objective card (SG-2), over the Censitaires that held it: ``holders`` (player-games) and
    ``reached`` (those that ended with its whole requirement held, score = :data:`REACHED`: a
    winner always, and a Censitaire that reached it on the turn another won, SG-6), kept for runs
    too large for player rows (``objectives_summary.parquet``; the objective table's "reached"
    column reads it when the run has no players.parquet). Seat 0 is the Seigneur, who holds none
    (SG-1). Its attributes are only the sums (:func:`simcore.runner.merge_sums` adds them)."""

    def __init__(self, n_objectives: int) -> None:
        self.holders = np.zeros(n_objectives, np.int64)
        self.reached = np.zeros(n_objectives, np.int64)

    def add(self, chunk) -> None:
        seat = np.asarray(chunk.players["seat"])
        censitaire = seat != 0
        card = np.asarray(chunk.players["objective"])[censitaire].astype(np.int64)
        full = np.asarray(chunk.players["score"])[censitaire] >= REACHED
        n = len(self.holders)
        self.holders += np.bincount(card, minlength=n)[:n]
        self.reached += np.bincount(card[full], minlength=n)[:n]

    def table(self) -> pa.Table:
        card = np.nonzero(self.holders)[0]
        return pa.table({"objective": pa.array(card.astype(np.int16), pa.int16()),
                         "holders": pa.array(self.holders[card], pa.int64()),
                         "reached": pa.array(self.reached[card], pa.int64())})


def _spec_arrays(o: dict, P: int) -> dict:
    """The driver's arrays in the spec's dtypes, with the seat roles (SG-1: seat 0 the Seigneur)
    and the winner's role (SG-6: a truncated game is the Censitaires' shared win)."""
    n = len(o["turns"])
    roles = np.tile(np.r_[0, np.ones(P - 1, np.int32)].astype(np.int32), n)
    reason = o["end_reason"].astype(np.int8)
    seigneur = (reason == layout.SEIGNEUR_GOAL) | (reason == layout.SEIGNEUR_GOAL_OVER_OBJECTIVE)
    winner_code = np.where(seigneur, 0, np.where(reason == layout.CENSITAIRE_OBJECTIVE, 1, 2)
                           ).astype(np.int32)
    o.update(
        role=pa.DictionaryArray.from_arrays(pa.array(roles), _ROLES).cast(pa.string()),
        rank=o["rank"].astype(np.int8), objective=o["objective"].astype(np.int8),
        end_reason=reason, winning_seat=o["winning_seat"].astype(np.int8),
        seigneur_square=o["seigneur_square"].astype(np.int8),
        winner_role=pa.DictionaryArray.from_arrays(pa.array(winner_code),
                                                   _WINNER_ROLES).cast(pa.string()))
    return o


def reference_chunk(rules, P: int, first: int, n: int, seed: int, debug: bool = False) -> dict:
    """The same outputs as :func:`driver.run_chunk` (random bots), from the reference engine."""
    from simcore.games.seigneurial import reference

    recs = [reference.play_game(rules, P, seed, first + g, debug=debug) for g in range(n)]
    return record_arrays(
        recs, {name: np.int16 for name in ("score", "rank", "resources", "favour", "turns_sick",
                                           "objective", "paid", "seized")}
        | {"win_share": np.float32},
        {"turns": np.int16, "end_reason": np.int16, "winning_seat": ("winner", np.int16),
         "seigneur_square": ("square", np.int16), "improvement_turn": np.int16})
