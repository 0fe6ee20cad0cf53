"""A CI gate over a panel: a baseline per cell, and a check that decides every cell's metrics with
the error rate controlled over the whole family.

:func:`record_panel_baseline` plays every cell of a :class:`strategies.panels.Panel` (``games``
games, the same seed; the runs kept under ``DIR/runs/cell-K/``) and writes one ordinary baseline
file per cell (``DIR/cell-K.toml``, :func:`analysis.check.baseline.make_baseline`) and
``DIR/panel.json`` (the panel and its files). :func:`check_panel` plays each cell's check
(:func:`analysis.check.play.play_check`, the sequential test per metric) with the chance of a false
FAIL split over the cells (Bonferroni: ``alpha / n_cells`` per cell, whose own test already controls
it over the cell's metrics), so the chance of any false FAIL over cells × metrics stays at most
``alpha``; ``beta`` (the chance that a shift of twice the tolerance passes) is per cell and metric.
The panel fails if a cell fails, is undecided if none fails and one is undecided, passes otherwise.

May import the standard library, :mod:`simcore` (runner lazily, as :mod:`analysis.check.play`),
:mod:`strategies.panels` and :mod:`analysis.check`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from simcore.errors import UsageError
from strategies.panels import Panel

PANEL_JSON = "panel.json"


def is_panel_baseline(path) -> bool:
    return Path(path).is_dir() and (Path(path) / PANEL_JSON).is_file()


def record_panel_baseline(panel: Panel, out: str | Path, *, games: int, seed: int = 0,
                          rules=None, force: bool = False, tolerance=None,
                          alpha: float | None = None, beta: float | None = None,
                          check_games: int | None = None, threads: int | None = None,
                          log=None, executor=None) -> Path:
    """Play every cell and write its baseline; returns ``out`` (a directory)."""
    from simcore import runner
    from simcore.atomic import check_output_dir, write_text_atomic

    from analysis.check.baseline import DEFAULT_ALPHA, DEFAULT_BETA, make_baseline

    out = Path(out)
    check_output_dir(out, force)
    preps = [runner.prepare(panel.game, players=c.players, strategies=c.strategies, rules=rules,
                            quiet=True) for c in panel.cells]   # validate first
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for k, (c, prep) in enumerate(zip(panel.cells, preps)):
        if log:
            log(f"cell {k + 1} of {len(panel)}: {c.label} ({games:,} games)")
        run = runner.run(prep, games=games, seed=seed, out=out / "runs" / f"cell-{k}", force=True,
                         threads=threads, quiet=True, executor=executor)
        name = f"cell-{k}.toml"
        make_baseline(run, out / name, force=True, tolerance=tolerance,
                      alpha=DEFAULT_ALPHA if alpha is None else alpha,
                      beta=DEFAULT_BETA if beta is None else beta, check_games=check_games)
        files.append(name)
    meta = {"format": 1, "kind": "panel-baseline", "panel": panel.to_json(), "baselines": files,
            "games": games, "seed": seed,
            "family": "a check splits alpha over the cells (alpha / n per cell)"}
    write_text_atomic(out / PANEL_JSON, json.dumps(meta, indent=2, ensure_ascii=False) + "\n", force=True)
    return out


@dataclass
class PanelCheck:
    labels: list[str]
    results: list                # one CheckResult per cell
    alpha: float                 # over the whole family
    alpha_cell: float

    @property
    def exit_code(self) -> int:
        codes = [r.exit_code for r in self.results]
        return 1 if 1 in codes else (3 if 3 in codes else 0)

    @property
    def verdict(self) -> str:
        return {0: "PASS", 1: "FAIL", 3: "UNDECIDED"}[self.exit_code]

    def text(self) -> str:
        from collections import Counter

        v = Counter(r.verdict for r in self.results)
        head = (f"panel check: {self.verdict} — {len(self.results)} cells ("
                + ", ".join(f"{n} {k}" for k, n in sorted(v.items())) + f"); a false FAIL anywhere "
                f"in the panel at most {self.alpha:g} ({self.alpha_cell:.4g} per cell)")
        return head


def check_panel(path: str | Path, *, games: int | None = None, rules=None, settings=(),
                alpha: float | None = None, beta: float | None = None, threads: int | None = None,
                log=None, executor=None) -> PanelCheck:
    """Check every cell of a panel baseline directory (see the module docstring)."""
    from analysis.check.baseline import load_baseline
    from analysis.check.play import play_check

    path = Path(path)
    try:
        meta = json.loads((path / PANEL_JSON).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise UsageError(f"{path}: not a panel baseline directory ({exc})") from None
    bases = [load_baseline(path / f) for f in meta["baselines"]]
    labels = [c["label"] for c in meta["panel"]["cells"]]
    family = bases[0].alpha if alpha is None else alpha
    per_cell = family / len(bases)
    results = []
    for k, (label, base) in enumerate(zip(labels, bases)):
        if log:
            log(f"cell {k + 1} of {len(bases)}: {label}")
        results.append(play_check(base, games=games, rules=rules, settings=settings,
                                  alpha=per_cell, beta=beta, threads=threads, log=log,
                                  executor=executor))
    return PanelCheck(labels, results, family, per_cell)


__all__ = ["record_panel_baseline", "check_panel", "is_panel_baseline", "PanelCheck"]
