"""Review s51 (reproducibility): the same figure written twice as SVG (or PDF) is the same bytes.
matplotlib put the time in ``<dc:date>`` and random clip-path ids in every SVG, so two reports of
one run, or a skill directory played with 1 and 2 threads, never compared equal."""

from __future__ import annotations

import time

import matplotlib


matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

import pytest  # noqa: E402

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

from reports.figures.common import render  # noqa: E402


def _figure() -> Figure:
    fig = Figure(figsize=(4, 3))
    ax = fig.subplots()
    ax.plot([0, 1, 2], [0.2, 0.3, 0.25], marker="o")
    ax.bar([0, 1], [0.1, 0.2])
    return fig


@pytest.mark.parametrize("fmt", ["svg", "pdf"])
def test_a_vector_figure_is_the_same_bytes_every_time(fmt):
    first = render(_figure(), fmt)
    time.sleep(1.1)                       # a date to the second would differ now
    assert render(_figure(), fmt) == first
    if fmt == "svg":
        assert b"<dc:date>" not in first and b"clip-path" in first
