"""A Seigneurial panel's page and its printed lead carry the run page's word on SG-5.4's
``payment.order = "seat"`` where the panel calls a cell's Censitaire seats clearly off an equal
split, under the same condition (:func:`reports.games.seigneurial.payment_order_explains`: one bot
in every Censitaire seat or seats rotated, a later payer ahead), naming the cells (review s61 fix
258 #4: "clear and large enough to matter" in two cells of ``--players 3..5``, no word of the
payment order the single-run page gives for the same rules)."""

from __future__ import annotations

import html
import re

import polars as pl

from analysis.panel import panel_table
from reports.games.seigneurial import panel_payment_order_notes
from tests.in_process import balance
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

SAID = "--set payment.order=simultaneous"


def test_the_panel_page_names_the_payment_order_in_the_cells_it_can_explain(tmp_path):
    panel, out = tmp_path / "P", tmp_path / "RP"
    balance("simulate", "--game", "seigneurial", "--players", "3..5", "--games", "5000", "--seed", "4",
            "--out", panel)
    done = balance("report", panel, "--out", out)
    t = panel_table([panel])
    seats = t.cells.filter(pl.col("metric").str.starts_with("role_seat_share_"))
    clear = sorted(set(seats.filter(pl.col("clear").fill_null(False))["label"].to_list()))
    assert clear, "the review's panel: some cell's Censitaire seats clearly off an equal split"
    page = html.unescape(re.sub(r"<[^>]+>", "", (out / "report.html").read_text()))
    notes = panel_payment_order_notes(t.cells)
    assert len(notes) == 1
    note = notes[0]
    assert SAID in note and 'payment.order = "seat"' in note
    # the note names only cells the panel calls clear, each of one bot in every Censitaire seat
    named = [lab for lab in t.labels if lab in note]
    assert named and set(named) <= set(clear)
    assert note in page and note in " ".join(done.stdout.split())


def test_no_word_of_payment_order_in_cells_of_different_censitaire_bots(tmp_path):
    panel, out = tmp_path / "P", tmp_path / "RP"
    balance("simulate", "--game", "seigneurial", "--players", "3", "--lineup", "harsh-lord,objective,dutiful",
            "--lineup", "harsh-lord,dutiful,objective", "--games", "3000", "--seed", "1", "--out", panel)
    done = balance("report", panel, "--out", out)
    t = panel_table([panel])
    assert t.cells.filter(pl.col("clear").fill_null(False)).height     # gaps the bots make
    assert panel_payment_order_notes(t.cells) == []
    assert "payment.order" not in (out / "report.html").read_text() and "payment.order" not in done.stdout
