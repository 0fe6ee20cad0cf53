"""A sweep over a panel: the same variants played in every cell, and whether a lever moves every
cell the same way.

:func:`plan_panel_sweep` validates one :class:`~analysis.sweep.play.SweepPlan` per cell of a
:class:`strategies.panels.Panel` (the cell's player count and line-up; every variant of every cell
prepared before any game). :func:`run_panel_sweep` writes ``panel_sweep.json`` (the panel and what
is varied) and plays each cell as an ordinary sweep directory ``cells/cell-<k>/`` (common random
numbers inside a cell; each cell resumable and reportable on its own).
:func:`~analysis.sweep.panel_effects.panel_effects` reads them back (reading only, so the reports may): the paired effect of every parameter on every metric in every cell, and per parameter and
metric the *agreement* over the cells — in how many cells the effect's 95% interval is above 0,
below 0, or holds 0 — and the spread of the effects (smallest to largest), in a sentence:
"raising track.goal.4 from 8 to 12 raises the seigneurs' win share in every cell (12 of 12), by
2.1-19.0 pp". Each cell's effects are one family of their own (95% intervals simultaneous over the
cell's metrics and parameters, as on a sweep's page), not adjusted over the cells, and nothing
adjusts them over the cells: the counts "k of N cells" are unadjusted
(:func:`~analysis.sweep.panel_effects.not_adjusted` says so under the sentences). "In every cell" is
claimed only when every cell's interval excludes 0 on the same side (an intersection-union
statement: wrong with probability at most 2.5% for a side named before the data, 5% for the side
the data show).

May import polars, numpy, the standard library, :mod:`simcore`, :mod:`strategies.panels` and
:mod:`analysis.sweep`.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import simcore
from simcore import games as registry
from simcore.atomic import write_text_atomic
from simcore.errors import UsageError
from strategies.panels import Panel

from analysis.sweep.play import (SweepPlan, begin_out, finish_out, keep_recorded_rows, plan_sweep,
                                 prepare_out, run_sweep)
from analysis.sweep.panel_effects import (CELLS, PANEL_SWEEP_JSON, agreement, headline_metric,  # noqa: F401
                                          panel_effects, read_panel_sweep, sentences)


@dataclass
class PanelSweepPlan:
    panel: Panel
    plans: list[SweepPlan]

    @property
    def games(self) -> int:
        return self.plans[0].games

    @property
    def variants(self) -> list:
        return self.plans[0].variants

    @property
    def preps(self) -> list:
        return self.plans[0].preps

    def cell_dir(self, out: Path, k: int) -> Path:
        return Path(out) / CELLS / f"cell-{k}"

    def to_json(self) -> dict:
        first = self.plans[0].to_json()
        return {"format": 1, "kind": "panel_sweep", "game": self.panel.game,
                "panel": self.panel.to_json(), "games": first["games"], "seed": first["seed"],
                "rules_text": first["rules_text"], "rules_name": first["rules_name"],
                "settings": first["settings"], "varies": first["varies"], "mode": first["mode"],
                "variants": first["variants"], "rotate_seats": first["rotate_seats"],
                "cells": [f"{CELLS}/cell-{k}" for k in range(len(self.plans))],
                **({"smallest_difference": first["smallest_difference"]}
                   if first.get("smallest_difference") else {}),
                **({"player_rows": False} if "player_rows" in first else {}),
                "version": simcore.__version__}


def plan_panel_sweep(game: str, *, panel: Panel, varies: list[str], games: int, seed: int = 0,
                     one_at_a_time_mode: bool = False, rules=None, settings=(),
                     rotate_seats: bool | None = None, smallest: dict | None = None,
                     raw: bool | None = None, options: dict | None = None) -> PanelSweepPlan:
    """Validate the sweep in every cell of ``panel`` (nothing played). ``smallest``: the smallest
    differences that matter, by kind (``--smallest-difference``), recorded in every cell's
    sweep.json and in panel_sweep.json: the pages word the effects by them. ``options``: the
    game's own options, the same in every cell (:func:`~analysis.sweep.play.plan_sweep`)."""
    from analysis.sweep.grammar import parse_varies
    from analysis.sweep.play import check_compared

    try:
        parsed = parse_varies(varies)
    except UsageError:
        parsed = ()                             # (plan_sweep says why, in its cell's words)
    check_compared(parsed)                      # one line of its own, not a cell's
    if parsed:                                  # a setting no cell reads: one line, not a cell's
        from analysis.sweep.play import base_rules, check_read
        from simcore.config import parse_settings

        try:
            base, src = parse_settings(settings), base_rules(game, rules)
        except UsageError:
            base, src = None, None              # (plan_sweep says why)
        if src is not None:
            check_read(game, parsed, base, [c.players for c in panel.cells], src.text, panel=True)
    registry.get(game).check_options({k: v for k, v in (options or {}).items() if v is not None})
    plans = []
    for c in panel.cells:
        try:
            plans.append(plan_sweep(game, varies=varies, games=games, seed=seed,
                                    one_at_a_time_mode=one_at_a_time_mode, players=c.players,
                                    strategies=c.strategies, rules=rules, settings=settings,
                                    rotate_seats=rotate_seats, smallest=smallest, raw=raw,
                                    all_players=tuple(x.players for x in panel.cells),
                                    options=options))
        except UsageError as exc:
            raise type(exc)(f"cell {c.label}: {exc}") if type(exc) is UsageError else exc
    if any(v.is_players for v in plans[0].varies):
        raise UsageError("--vary players: the panel's cells fix the player counts")
    return PanelSweepPlan(panel, plans)


def run_panel_sweep(plan: PanelSweepPlan, out: str | Path, *, force: bool = False,
                    threads: int | None = None, chunk_size: int | None = None,
                    progress: Callable[[int, int, str], None] | None = None,
                    executor=None, on_resume=None) -> Path:
    """Play every cell's sweep not yet in ``out``; returns ``out`` (resumable like a sweep).
    ``on_resume(cell_dir, start, problem)``: as :func:`~analysis.sweep.play.run_sweep` calls it,
    for each cell."""
    final = Path(out)
    keep_recorded_rows(plan, final, "panel_sweep")
    meta = plan.to_json()
    resuming = prepare_out(meta, final, force, kind="panel_sweep")
    out = final
    if not resuming:
        meta["created_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        # a --force replacement is built beside the old one and published whole
        out = begin_out(final, "panel_sweep", (PANEL_SWEEP_JSON, CELLS))
        write_text_atomic(out / PANEL_SWEEP_JSON, json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                          force=True)
    (out / CELLS).mkdir(exist_ok=True)
    per_cell = plan.games * len(plan.variants)
    total = per_cell * len(plan.plans)
    say = progress or (lambda *_: None)
    for k, (c, p) in enumerate(zip(plan.panel.cells, plan.plans)):
        run_sweep(p, plan.cell_dir(out, k), threads=threads, chunk_size=chunk_size,
                  executor=executor, on_resume=on_resume,
                  progress=lambda d, t, lab, b=k * per_cell, cl=c.label: say(b + d, total, f"{cl}: {lab}"))
    return finish_out(out, final, {CELLS: r"cell-[0-9]+"})   # each cell a sweep, marked


def sweep(game: str, *, varies: list[str], games: int, out: str | Path, panel=None,
          players: int | None = None, strategies: str | None = None, seed: int = 0,
          one_at_a_time_mode: bool = False, rules=None, settings=(),
          rotate_seats: bool | None = None, force: bool = False, threads: int | None = None,
          executor=None) -> Path:
    """The Python API of ``balance sweep``: plays the sweep into ``out`` and returns it.

    ``panel``: a :class:`strategies.panels.Panel` or a panel's name or file (the sweep is played
    in every cell: read it back with :func:`panel_effects` and :func:`sentences`); without it the
    one line-up of ``players`` and ``strategies``."""
    if panel is not None:
        if isinstance(panel, str):
            from strategies.panels import from_options

            panel = from_options(game, panel=panel, players=players)
        plan = plan_panel_sweep(game, panel=panel, varies=varies, games=games, seed=seed,
                                one_at_a_time_mode=one_at_a_time_mode, rules=rules,
                                settings=settings, rotate_seats=rotate_seats)
        return run_panel_sweep(plan, out, force=force, threads=threads, executor=executor)
    plan = plan_sweep(game, varies=varies, games=games, seed=seed,
                      one_at_a_time_mode=one_at_a_time_mode, players=players, strategies=strategies,
                      rules=rules, settings=settings, rotate_seats=rotate_seats)
    return run_sweep(plan, out, force=force, threads=threads, executor=executor)


__all__ = ["sweep", "PanelSweepPlan", "plan_panel_sweep", "run_panel_sweep", "read_panel_sweep",
           "panel_effects", "agreement", "sentences", "headline_metric", "PANEL_SWEEP_JSON"]
