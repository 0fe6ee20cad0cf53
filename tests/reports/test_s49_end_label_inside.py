"""The end-reason panel's label of a bar reaching near the axis' end sits inside the bar, within the
axes (the figure checklist's rule 4; review s49 reports #4: Seigneurial's 99.6% "Censitaire
objective" printed its label past the 100% tick, at the figure's edge). Measured on the drawn
figure: every label's box against the panel's box, in pixels."""

from __future__ import annotations

from analysis import analyse, open_runs
from cli import _run
from reports.figures.common import game_length
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_every_end_label_lies_within_the_panel(tmp_path):
    run = tmp_path / "r"
    assert _run(["simulate", "--game", "seigneurial", "--games", "4000", "--out", str(run), "-q"]) == 0
    fig = game_length(analyse(open_runs([run])))
    fig.canvas.draw()
    ax = fig.axes[1]
    box = ax.get_window_extent()
    labels = [t for t in ax.texts if t.get_text().endswith("%")]
    assert any(float(t.get_text().rstrip("%")) > 90 for t in labels)      # the Censitaires' end
    for t in labels:
        b = t.get_window_extent()
        assert box.x0 <= b.x0 and b.x1 <= box.x1, (t.get_text(), b, box)
