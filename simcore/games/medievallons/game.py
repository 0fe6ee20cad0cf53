"""Médiévallons adapter for the runner: options → :class:`simcore.contract.PreparedRun`.

Declares the exact Arrow schemas of ``players.parquet`` and ``games.parquet`` (MV-9), validates the
player count against the rules file (MV-1) before any game is played, and provides the per-chunk
play function for either engine: the Numba kernel (default) or the pure-Python reference
(``engine="reference"``, slow, random bots only, for small runs and cross-checks), through the
shared skeleton :func:`simcore.adapter.player_run`.

End reasons are stored as an int8 code in ``games.parquet``; run.json's ``end_reason_names`` maps
the codes to names: 0 third_guild (a player founded the winning guild, MV-7), 1 empty_pile (the draw
pile ran out with the End card yellow, MV-6), 2 truncated (the max_turns safety bound, MV-7).

May import numpy, :mod:`simcore.contract`, :mod:`simcore.adapter` and this game's modules
(never :mod:`strategies`: the runner resolves the bots and passes their rows).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from simcore.games.medievallons import driver, layout
from simcore.games.medievallons import rules as rules_mod
from simcore.games.medievallons.rules import CARD_TYPES, POWER_TYPES
from simcore.games.medievallons.spec import FOUNDED_COLS, POWER_COLS, SPEC
from simcore.adapter import player_run, record_arrays
from simcore.contract import PreparedRun

END_REASON_NAMES = dict(enumerate(layout.END_REASONS))
SUMMARY_COLUMNS = ("score", "guilds", "hand", *FOUNDED_COLS, *POWER_COLS)


def prepare(*, players: int = 4, bots: tuple[list[str], np.ndarray] | None = None,
            rules_path: str | Path | None = None, engine: str = "kernel", debug: bool = False,
            rotate_seats: bool = False, rules=None) -> PreparedRun:
    """Validate the options and build the run (rules loaded once).

    ``bots`` is ``(names, rows)`` as :func:`strategies.medievallons.resolve` returns them
    (default: random at every seat); ``rules`` (a :class:`RulesArrays`) overrides ``rules_path``
    for programmatic variants.
    """
    if rules is None:
        rules = rules_mod.load(rules_path)
    rules_mod.check_players(rules, players)
    names, strat_rows = bots if bots is not None else (
        ["random"] * players, np.zeros((players, layout.N_STRAT_COLS), np.float64))
    n_rot = players if rotate_seats else 1
    rk = driver.pack_rules(rules)
    return player_run(
        SPEC, players=players, names=names, rules=rules, engine=engine,
        kernel=lambda first, n, seed: _spec_powers(driver.run_chunk(
            rules, players, first, n, seed, strat_rows, debug=debug, rk=rk, rotate=rotate_seats)),
        reference=lambda first, n, seed: _spec_powers(
            reference_chunk(rules, players, first, n, seed, n_rot, debug)),
        warmup=lambda: driver.run_chunk(rules, players, 0, 1, 0, strat_rows, debug=debug, rk=rk),
        all_random=bool(np.all(strat_rows[:, layout.S_KIND] == layout.STRAT_RANDOM)),
        error_text=layout.ERROR_TEXT, rotate_seats=rotate_seats, debug=debug,
        meta={"end_reason_names": END_REASON_NAMES, "card_types": list(CARD_TYPES)},
        summary_columns=SUMMARY_COLUMNS)


def _spec_powers(o: dict) -> dict:
    """The driver's ``powers`` (one column per card type) as the spec's group: the types with a
    power (MV-5: not the Bouffon)."""
    o["powers"] = o["powers"][:, list(POWER_TYPES)]
    return o


def reference_chunk(rules, P: int, first: int, n: int, seed: int, n_rot: int = 1,
                    debug: bool = False) -> dict:
    """The same outputs as :func:`driver.run_chunk` (random bots), from the reference engine.

    With seat rotation every rotation of a deal replays the deal's stream: random bots at every
    seat make the rotations identical games, as the kernel does."""
    from simcore.games.medievallons import reference

    recs = [reference.play_game(rules, P, seed, (first + g) // n_rot, debug=debug)
            for g in range(n)]
    return record_arrays(
        recs, {"score": np.int32, "win_share": np.float32, "rank": np.int8, "guilds": np.int8,
               "hand": np.int16, "founded": np.int8, "powers": np.int16},
        {"turns": np.int16, "end_reason": np.int8, "reshuffles": np.int8})
