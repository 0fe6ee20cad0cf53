"""Review fx04 #2: `balance report … --pdf` wrote report.pdf and closed with "report: …/report.html"
only: the PDF was never named. Every kind of report that takes --pdf (a run, a panel, a sweep's and
a tune's page) now names it on the line after the page's; without --pdf nothing more is printed.

Nothing costly is played: a 200-game run, hand-made panel cells, a hand-made sweep and tune; the
figures are white stand-ins (the lines printed are read, not the pixels)."""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _run(root):
    from in_process import balance

    balance("simulate", "--games", "200", "--seed", "3", "--quiet", "--out", root / "run")
    return root / "run"


def _panel(root):
    from tests.reports.test_panel_roles import _cell

    _cell(root / "panel" / "cell-1", (1, 1, 1), seigneur_wins=600, lineup=("greedy-lord", "dutiful"))
    _cell(root / "panel" / "cell-2", (1, 1, 1), seigneur_wins=20, seed=4)
    return root / "panel"


def _sweep(root):
    from handmade_sweep import plant_winners, write_sweep

    values = [0, 4, 8]
    winners = plant_winners(values, [0.2, 0.25, 0.3], [0.25] * 3, [0.25] * 3, 2000, seed=1)
    return write_sweep(root / "sweep", "setup.start_coins[0]", values, winners, 2000)


def _tune(root):
    from tests.reports.test_fx04_confirmation_verdict_once import UNCLEAR, _tune_dir

    root.mkdir(exist_ok=True)
    d, _ = _tune_dir(root, UNCLEAR, "unclear")
    return d


@pytest.mark.parametrize("kind", ["run", "panel", "sweep", "tune"])
def test_the_closing_lines_name_the_page_and_the_pdf(tmp_path, undrawn, kind):
    from in_process import balance

    src = {"run": _run, "panel": _panel, "sweep": _sweep, "tune": _tune}[kind](tmp_path / "in")
    out = tmp_path / "rep"
    lines = balance("report", src, "--out", out, "--pdf").stdout.splitlines()
    assert (out / "report.pdf").is_file()
    assert lines[-2:] == [f"report: {out / 'report.html'}", f"pdf: {out / 'report.pdf'}"], lines


def test_without_pdf_no_pdf_is_named(tmp_path, undrawn):
    from in_process import balance

    src = _tune(tmp_path / "in")
    lines = balance("report", src, "--out", tmp_path / "rep").stdout.splitlines()
    assert lines[-1] == f"report: {tmp_path / 'rep' / 'report.html'}", lines
    assert not any(x.startswith("pdf: ") for x in lines), lines
    assert not (tmp_path / "rep" / "report.pdf").exists()
