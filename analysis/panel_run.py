"""Play every cell of a panel into one directory, resumably (``simulate --panel``).

:func:`run_panel` writes ``panel.json`` (the panel, the rules text, the settings, the seed, the
games per cell and whether the cells keep their player rows: everything a second call compares)
and plays each cell as an ordinary run directory ``OUT/cell-0`` … ``OUT/cell-(K-1)`` (numbered
from 0, as ``sweep --panel``, a tune's confirmations and ``check --panel`` number theirs; published
atomically by :func:`simcore.runner.run`). A panel written before cells were numbered from 0
(``cell-1`` … ``cell-K``) keeps its names: they come from its ``panel.json`` when it resumes. Like a sweep (:mod:`analysis.sweep.play`), a new panel
is written in place, so the same command on the same directory plays only the cells not yet
published: an interrupted panel resumes where it stopped, and a cell is never half written. Another
panel in ``--out`` is refused unless ``--force``; it is then built beside the old one and replaces
it whole when every cell is done. :func:`analysis.panel.cell_runs` refuses an unfinished panel
(:func:`simcore.rundir.unfinished_panel`: its ``panel.json`` lists a cell not yet played) rather
than report the cells it has.

May import the standard library, :mod:`simcore` (runner, atomic, errors, config),
:mod:`strategies.panels` and :mod:`analysis.sweep.play` (the resumable directory).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import simcore
from simcore import runner
from simcore.atomic import write_text_atomic
from simcore.errors import UsageError
from simcore.rundir import PANEL_JSON, RUN_JSON, damage, panel_cell_mismatch, read_meta
from strategies.panels import Panel

from analysis.sweep.play import begin_out, finish_out, prepare_out

FORMAT = 1


def cell_name(k: int) -> str:
    """The directory of the k-th cell (from 0), as ``balance report DIR`` finds it."""
    return f"cell-{k}"


def recorded_cells(out: Path, n: int) -> list[str] | None:
    """The cell directories the panel in ``out`` recorded in its ``panel.json`` (``n`` of them),
    or None: an older panel numbered its cells from 1, and goes on under those names."""
    try:
        cells = json.loads((Path(out) / PANEL_JSON).read_text(encoding="utf-8")).get("cells")
    except (OSError, ValueError, AttributeError):
        return None
    if (isinstance(cells, list) and len(cells) == n and len(set(map(str, cells))) == n
            and all(str(c).startswith("cell-") and "/" not in str(c) for c in cells)):
        return [str(c) for c in cells]
    return None


@dataclass
class PanelRun:
    """A panel about to be played: its cells prepared (validated), nothing played yet."""

    panel: Panel
    games: int
    seed: int
    rules_name: str
    rules_text: str
    settings: tuple[str, ...]
    raw: bool                      # the cells keep their player rows
    preps: list = field(default_factory=list, repr=False)
    cell_dirs: list = field(default_factory=list)   # cell-0 …, or an older panel's own names

    def __post_init__(self) -> None:
        if not self.cell_dirs:
            self.cell_dirs = [cell_name(k) for k in range(len(self.panel.cells))]

    def to_json(self) -> dict:
        return {"format": FORMAT, "kind": "panel", "game": self.panel.game,
                "panel": self.panel.to_json(), "games": self.games, "seed": self.seed,
                "rules_name": self.rules_name, "rules_text": self.rules_text,
                "settings": list(self.settings), "player_rows": self.raw,
                "cells": list(self.cell_dirs),
                "version": simcore.__version__}


def plan_panel(panel: Panel, *, games: int, seed: int, rules=None, settings=(),
               raw: bool | None = None) -> PanelRun:
    """Every cell of ``panel`` prepared with the same rules and settings (a bad rule, bot or
    setting stops here, in one line, before any game)."""
    from simcore.config import parse_settings

    parsed = parse_settings(settings)
    src = runner.rules_source(panel.game, rules, ())
    preps = [runner.prepare(panel.game, players=c.players, strategies=c.strategies, rules=rules,
                            settings=parsed, quiet=True) for c in panel.cells]
    keep_rows = raw if raw is not None else games <= runner.RAW_LIMIT
    return PanelRun(panel=panel, games=games, seed=seed, rules_name=str(src.name),
                    rules_text=src.text, settings=tuple(s.text for s in parsed), raw=keep_rows,
                    preps=preps)


def claim_out(plan: PanelRun, out: str | Path, force: bool = False, inputs=()) -> bool:
    """Check and claim ``out`` before any game; True when it holds this very panel (it resumes:
    then ``plan.cell_dirs`` are the names its ``panel.json`` recorded)."""
    resuming = prepare_out(plan.to_json(), Path(out), force, kind="panel", inputs=inputs)
    if resuming:
        plan.cell_dirs = recorded_cells(Path(out), len(plan.panel.cells)) or plan.cell_dirs
    return resuming


def run_panel(plan: PanelRun, out: str | Path, *, force: bool = False, threads: int | None = None,
              chunk_size: int | None = None, inputs=(),
              on_cell: Callable[[int, int, str, bool], None] | None = None) -> Path:
    """Play every cell of ``plan`` not yet in ``out``; returns ``out``.

    ``on_cell(k, cells, label, already_played, directory)`` is called before each cell, ``k`` its
    position from 1 and ``directory`` its name (the command line says which cell it plays, or that
    a resumed cell is already there)."""
    final = Path(out)
    meta = plan.to_json()
    resuming = claim_out(plan, final, force, inputs)
    work = final
    if not resuming:
        meta["created_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        work = begin_out(final, "panel", (PANEL_JSON, *plan.cell_dirs))
        write_text_atomic(work / PANEL_JSON, json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                          force=True)
    n = len(plan.panel.cells)
    for k, (c, prep, name) in enumerate(zip(plan.panel.cells, plan.preps, plan.cell_dirs), start=1):
        target = work / name
        # a played cell damaged since (a file missing or changed) is played again, the same games
        played = (target / RUN_JSON).is_file() and damage(target) is None
        if on_cell is not None:
            on_cell(k, n, c.label, played, name)
        if played:
            why = panel_cell_mismatch(work, name, read_meta(target))
            if why is not None:
                raise UsageError(f"{final}: {why}")
            continue
        runner.run(prep, games=plan.games, seed=plan.seed, out=target, force=True, threads=threads,
                   chunk_size=chunk_size, raw=plan.raw, quiet=True)
    return finish_out(work, final)
