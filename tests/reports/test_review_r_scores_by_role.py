"""Review R #12: a game of roles compares its seats' scores within a role.

Seigneurial's score page said "Seat 4 ends with the most % of own goal on average (80.62), Seat 1
with the fewest (36.10)": the Seigneur's squares on the rent track set against the Censitaires'
resources toward their Objective cards, and the figure's legend read "Seat 1 … Seat 4" with no
role. The caption now compares the seats of each role among themselves (the one-seat role alone)
and the legend names each seat's role. Checked against players.parquet."""

from __future__ import annotations

import re

import polars as pl
import pytest

from analysis import analyse, open_runs
from reports.figures import common as F
from reports.sections import _score_caption
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    run = runner.simulate("seigneurial", players=4, games=2000, seed=2, out=tmp_path_factory.mktemp("sc") / "r",
                          quiet=True)
    return run, analyse(open_runs([run]))


def test_the_caption_compares_seats_within_their_role(tables):
    run, t = tables
    p = pl.read_parquet(run / "players.parquet")
    mean = {s: float(p.filter(pl.col("seat") == s)["score"].cast(pl.Float64).mean()) for s in range(4)}
    text = _score_caption(t, "% of own goal")
    assert text.startswith(f"Final % of own goal, role by role: the Seigneur (Seat 1) ends with {mean[0]:.2f} on average; ")
    cens = {s: mean[s] for s in (1, 2, 3)}
    best, worst = max(cens, key=cens.get), min(cens, key=cens.get)
    assert (f"among the Censitaires, Seat {best + 1} ends with the most on average ({cens[best]:.2f}), "
            f"Seat {worst + 1} the fewest ({cens[worst]:.2f})") in text, text
    # no sentence sets a Censitaire's score against the Seigneur's
    assert not re.search(r"Seat 1 with the fewest|Seat 1 ends with the most", text)


def test_the_score_figure_names_each_seats_role(tables):
    _, t = tables
    fig = F.scores(t, unit="% of own goal")
    labels = [x.get_text() for x in fig.axes[0].get_legend().get_texts()]
    assert labels == ["Seat 1 (Seigneur)", "Seat 2 (Censitaire)", "Seat 3 (Censitaire)", "Seat 4 (Censitaire)"]


def test_seats_with_the_same_scores_stay_visible_on_top_of_each_other(tables):
    """Review Y #10: the three Censitaires play the same bot, so their step lines coincide, and a
    solid line drawn over another hid it. Each seat's line now has its own dash pattern beside its
    colour: where two coincide, both colours show."""
    from matplotlib.patches import StepPatch

    _, t = tables
    fig = F.scores(t, unit="% of own goal")
    steps = [a for a in fig.axes[0].patches if isinstance(a, StepPatch)]
    assert len(steps) == 4
    styles = [(a.get_edgecolor(), str(a.get_linestyle())) for a in steps]
    assert len({ls for _, ls in styles}) == 4, styles       # not only the colours differ


def test_seats_with_different_bots_name_their_bot_beside_their_role(tmp_path):
    """Review Y #10: with one Censitaire on fair-share the score legend said "(Censitaire)" where the
    role figure said "Seat 3 (fair-share)"; now the legend names both."""
    run = runner.simulate("seigneurial", players=4, games=600, seed=2, out=tmp_path / "m", quiet=True,
                          strategies="even-lord,standard,fair-share,standard")
    fig = F.scores(analyse(open_runs([run])), unit="% of own goal")
    labels = [x.get_text() for x in fig.axes[0].get_legend().get_texts()]
    assert labels == ["Seat 1 (Seigneur, even-lord)", "Seat 2 (Censitaire, standard)",
                      "Seat 3 (Censitaire, fair-share)", "Seat 4 (Censitaire, standard)"], labels
