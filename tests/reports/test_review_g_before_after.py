"""A before/after says what its pairing is for the game at hand (review G): with a rule that
changes what is dealt, the shared random streams are not the same cards throughout; the metrics
read unpaired are named by the kinds the game's table has (a Médiévallons comparison has no event
cards and no lead changes, which the paragraph used to give as its examples)."""

from __future__ import annotations

import html as html_text
import re

import pytest

from reports.build import build_report
from simcore import runner
from undrawn_figures import figures_undrawn


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("ba")
    a = runner.simulate("medievallons", games=1500, seed=2, out=root / "before", quiet=True, raw=True)
    b = runner.simulate("medievallons", games=1500, seed=2, out=root / "after", quiet=True, raw=True,
                        settings=["deck.copies.pretre=6"])
    with figures_undrawn():
        html = build_report([a, b], root / "rep", pool=False).read_text(encoding="utf-8")
    return " ".join(html_text.unescape(re.sub(r"<[^>]+>", " ", html)).split())


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_dealt_rule_change_says_the_cards_differ_from_there_on(page):
    assert "Both sides played the same 1,500 deals" in page
    assert "where the new rules change what is dealt or drawn, the cards differ from there on" in page


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_unpaired_metrics_are_named_by_what_the_game_has(page):
    m = re.search(r"read from each run's statistics, such as ([^)]*)\)", page)
    assert m is not None
    assert "event" not in m.group(1) and "lead changes" not in m.group(1)
    assert m.group(1)


def test_moved_seats_and_the_comparison_figure_are_worded_clear_not_significant():
    """The seat question said "moved beyond noise (significant after Holm's correction)" beside
    verdicts worded by size; it says "clear after Holm's correction" now (as does the comparison
    figure's key, reports.figures.common.comparison)."""
    import polars as pl

    from reports.text import seat_question

    rows = [dict(metric="seat_win_share", key=f"Seat {s}", label=f"Seat {s} win share", kind="proportion",
                 base=b, variant=v, diff=v - b, diff_low=v - b - 0.004, diff_high=v - b + 0.004,
                 significant=True, p_adjusted=0.001, verdict="clear and large enough to matter")
            for s, b, v in ((1, 0.25, 0.28), (2, 0.25, 0.22))]
    text = seat_question(pl.DataFrame(rows))
    assert text.startswith("Did the seat win rates move? Yes") and "significant" not in text, text
    assert "clear after Holm's correction over the tested metrics" in text

