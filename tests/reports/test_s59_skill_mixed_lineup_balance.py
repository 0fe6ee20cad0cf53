"""Helper 228 #2: on the skill page of a mixed line-up (seats holding different bots, e.g. `balance
skill --game middle-ages --strategies balanced,greedy,greedy,greedy`), the lead and trend sentences
say a gap between seats of different bots is mostly those bots' difference (review s58 #1), but
the Ludii Balance note under the Balance table read the seats' places as a seat balance without a
word, and the budget figure's legend named the seats ("Seat 1") without their bots. Now the note
says the same caveat when (and only when) the seats hold different bots, and the legend names each
seat's bot ("Seat 1 (balanced)"), as the line-up names it at budget 0."""

from __future__ import annotations

import matplotlib
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

matplotlib.use("Agg")

import polars as pl  # noqa: E402

from analysis import skill as K  # noqa: E402
from reports.skill import balance_note, budget_figure  # noqa: E402
from simcore import games as registry  # noqa: E402

MIXED = ["balanced", "greedy", "greedy", "greedy"]
# at budget 4 the seats play search bots whose playouts are their own bots (as balance skill names
# them: the bots file's path, then the bot)
SEARCH = ["search4", "/tmp/sk/search_bots.toml:search4-greedy",
          "/tmp/sk/search_bots.toml:search4-greedy", "/tmp/sk/search_bots.toml:search4-greedy"]


def _table(bots0, bots4) -> pl.DataFrame:
    """One cell, two budgets, both parts: the reviewer's shares (balance skill --game middle-ages
    --strategies balanced,greedy,greedy,greedy --budgets 0,4 --games 200 --seed 3)."""
    balance = {0: (0.755, 0.663, 0.865), 4: (0.863, 0.767, 0.970)}
    shares = {0: (0.365, 0.19, 0.21, 0.235), 4: (0.235, 0.26, 0.25, 0.255)}
    rows = []
    for b, bots in ((0, bots0), (4, bots4)):
        for part in ("all", "one"):
            for s in range(4):
                w = shares[b][s]
                rest = [None] * len(K.BALANCE_COLUMNS)
                rest[K.BALANCE_COLUMNS.index("balance")] = balance[b][0]
                rest[K.BALANCE_COLUMNS.index("balance_low")] = balance[b][1]
                rest[K.BALANCE_COLUMNS.index("balance_high")] = balance[b][2]
                rows.append(("4p balanced + 3×greedy", 4, b, part, s, "player", bots[s],
                             200 if part == "all" else 50, w, w - 0.06, w + 0.06, *rest,
                             None, *(None,) * len(K.ROLE_GAP_COLUMNS)))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


def test_the_balance_note_of_a_mixed_lineup_says_its_seats_hold_different_bots():
    spec = registry.get("middle-ages")
    said = balance_note(_table(MIXED, SEARCH), spec)
    assert "it goes 0.755 → 0.863" in said, said
    assert ("The seats hold different bots (seat 1 balanced, seats 2, 3 and 4 greedy)" in said
            and "mostly" in said and "not a balance of the seats" in said), said
    same = balance_note(_table(["balanced"] * 4, ["search4"] * 4), spec)
    assert "it goes 0.755 → 0.863" in same and "different bots" not in same, same


def _labels(fig) -> list[str]:
    return [t.get_text() for lg in fig.legends for t in lg.get_texts() if t.get_text().startswith("Seat")]


def test_the_budget_figure_names_each_seats_bot_when_they_differ():
    labels = _labels(budget_figure(_table(MIXED, SEARCH), ("player",) * 4, 0.25))
    assert labels[:4] == ["Seat 1 (balanced)", "Seat 2 (greedy)", "Seat 3 (greedy)", "Seat 4 (greedy)"], labels
    alike = _labels(budget_figure(_table(["balanced"] * 4, ["search4"] * 4), ("player",) * 4, 0.25))
    assert alike[:4] == ["Seat 1", "Seat 2", "Seat 3", "Seat 4"], alike
    # a game with roles keeps the role and adds the bot
    roles = ("seigneur",) + ("censitaire",) * 3
    both = _labels(budget_figure(_table(["harsh-lord"] + ["objective"] * 3, ["search4"] * 4), roles, None))
    assert both[:2] == ["Seat 1 (Seigneur, harsh-lord)", "Seat 2 (Censitaire, objective)"], both
