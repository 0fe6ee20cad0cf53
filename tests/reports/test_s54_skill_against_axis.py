"""The --against figure's budget axis says what budget 0 is as the budget figure does: each seat's
own bot (session 54 review of balance skill: it said "0 = the default bot", false of a line-up of
other bots, ``--strategies greedy`` in Middle-Ages, whose default bot is balanced, or Seigneurial's
Seigneur and Censitaires)."""

from __future__ import annotations

import polars as pl

from reports.skill import against_figure, budget_figure
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _cmp() -> pl.DataFrame:
    return pl.DataFrame({"cell": ["4p 4×greedy"] * 8, "players": [4] * 8, "budget": [0] * 4 + [4] * 4,
                         "seat": list(range(4)) * 2, "change": [0.01, -0.02, 0.03, 0.0] * 2,
                         "change_low": [-0.02] * 8, "change_high": [0.05] * 8})


def test_the_against_axis_names_each_seats_own_bot():
    (ax,) = against_figure(_cmp(), ("player",) * 4, 0.01).axes
    label = ax.get_xlabel()
    assert "default bot" not in label
    assert label == "playouts per option (0 = each seat's own bot)"


def test_the_two_figures_say_budget_0_alike():
    rows = [("c", 4, b, part, s, "player", "greedy", 40, 0.25, 0.1, 0.4)
            for b in (0, 4) for part in ("all", "one") for s in range(4)]
    t = pl.DataFrame(rows, schema=["cell", "players", "budget", "part", "seat", "role", "bot", "games",
                                   "win_share", "ci_low", "ci_high"], orient="row")
    budget_labels = {ax.get_xlabel() for ax in budget_figure(t, ("player",) * 4, 0.25).axes}
    (ax,) = against_figure(_cmp(), ("player",) * 4, 0.01).axes
    assert budget_labels == {ax.get_xlabel()}
