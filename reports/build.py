"""``build_report``: the designer report of one or several run directories, written atomically.

:func:`build_report` analyses the runs (:func:`analysis.analyse`; runs of the same configuration
are pooled, each further configuration is compared with the first, the baseline), builds the
sections (:mod:`reports.sections`, with the game's report hook) and writes into ``out``:
``report.html`` (:mod:`reports.html`, figures embedded as base64 PNG, readable offline),
``figures/<name>.png`` and ``.svg``, with ``pdf=True`` ``report.pdf`` (:mod:`reports.pdf`), and the
files the game's hook keeps (for Médiévallons, the played questions as ``questions/*.csv``). Played
questions are read from a questions directory (``questions=``, :mod:`reports.questions`) that must
belong to the baseline run; the report itself never plays a game. Output goes to a temporary
directory renamed into place when complete; a non-empty ``out`` is refused unless ``force``.

May import polars, the standard library, :mod:`analysis`, :mod:`simcore.atomic`,
:mod:`simcore.errors` and the other :mod:`reports` modules (none of which imports this one).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable, Iterable

import polars as pl

from analysis import analyse, group_runs, open_runs
from analysis.compare import compare_tables
from reports.figures.common import render
from reports.games import hook_for
from reports.html import page
from reports.pdf import write_pdf
from reports.questions import check_matches, read_questions
from reports.sections import build_sections
from reports.text import game_title
from simcore.errors import UsageError
from simcore.atomic import check_output_dir, publish_dir, temporary_dir


def build_report(runs: Iterable[str | Path], out: str | Path, force: bool = False, pdf: bool = False,
                 pool: bool = True, questions: str | Path | None = None,
                 progress: Callable[[str], None] | None = None) -> Path:
    """Analyse ``runs`` and write the report into ``out``; returns the path of report.html.

    Runs of one configuration are pooled (``pool=False`` keeps every directory separate); the first
    configuration is the baseline and every other one gets a before/after section. ``questions`` is
    a questions directory played for the baseline (``balance medievallons-questions``, or the one
    ``balance report`` plays first): it must be of the baseline's game and rules (one-line
    :class:`UsageError` otherwise), and the game's hook shows it. ``progress`` receives a short text
    whenever a long step starts (the CLI shows it as a spinner on stderr).
    """
    say = progress or (lambda _msg: None)
    runs = [Path(r) for r in runs]
    if not runs:
        raise UsageError("give at least one run directory")
    target = check_output_dir(out, force)
    groups = group_runs(runs) if pool else [open_runs([r]) for r in runs]
    for g in groups[1:]:
        if g.game != groups[0].game:
            raise UsageError(f"cannot compare {groups[0].game} with {g.game}: runs of different games")
    base_rs = groups[0]
    hook = hook_for(base_rs.game)
    played = None
    if questions is not None:
        if hook is None or not hasattr(hook, "QUESTIONS"):
            raise UsageError(f"--questions {questions}: {game_title(base_rs)} reports read no played "
                             f"questions")
        played = read_questions(questions)
        check_matches(played, base_rs)
    say("Analysing " + (f"{len(groups)} configurations" if len(groups) > 1 else base_rs.label))
    tables = [analyse(g) for g in groups]
    base = tables[0]
    labels = _unique_labels([g.label for g in groups])
    base_rs.label = labels[0]
    cmps = [(labels[i], compare_tables(base, tables[i]), tables[i]) for i in range(1, len(groups))]
    say("Drawing the figures")
    secs, figs = build_sections(base, base_rs, cmps, played)
    files: dict = hook.question_files(played, base_rs) if played is not None else {}
    say("Writing the report")
    title = f"Balance report: {game_title(base_rs)}, {base_rs.n_players} players, {labels[0]}"

    tmp = temporary_dir(target)
    (tmp / "figures").mkdir()
    try:
        png = {}
        for name, fig in figs.items():
            png[name] = render(fig, "png")
            # Freeze the constrained layout computed for the PNG: later formats skip the solver.
            fig.set_layout_engine("none")
            (tmp / "figures" / f"{name}.png").write_bytes(png[name])
            (tmp / "figures" / f"{name}.svg").write_bytes(render(fig, "svg"))
        for rel, content in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, pl.DataFrame):
                content.write_csv(path)
            else:
                path.write_text(content, encoding="utf-8")
        (tmp / "report.html").write_text(page(title, groups, secs, png), encoding="utf-8")
        if pdf:
            write_pdf(tmp / "report.pdf", title, secs, figs)
        publish_dir(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target / "report.html"


def _unique_labels(labels: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} #{seen[lab]}")
    return out
