"""Review s60 #2: the played first-player figure labelled Seat 1's 0.3485 win share at 3 players
"34.8%" (an f-string's ``:.1f`` of 34.849999…) where the table and the sentences print 34.9%
(:func:`reports.text.pct`, half away from zero). Every share a figure labels now goes through that
formatter, and the first-player figure draws the table's interval (Wilson's: within 0–100%, where
±1.96 SE reached past 100% at 5 games)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.axes import Axes

from reports.figures import common as C
from reports.figures import medievallons as F
from reports.games import medievallons as M
from reports.figures.common import new_figure, subplots

FIGURES = Path(__file__).resolve().parents[2] / "reports" / "figures"


def _first_player(games: int, shares: dict[int, tuple[float, ...]]) -> pl.DataFrame:
    rows = []
    for players, by_seat in shares.items():
        for seat, p in enumerate(by_seat):
            se = (p * (1 - p) / games) ** 0.5
            rows.append(dict(players=players, seat=seat, games=games, win_share=p, std_error=se,
                             fair=1 / players, advantage=p - 1 / players,
                             z=(p - 1 / players) / se if se > 0 else float("nan")))
    return pl.DataFrame(rows)


def _labels(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_the_first_player_figure_labels_seat_1_as_its_table_prints_it():
    fp = M.with_run_first_player(_first_player(4000, {3: (0.3485, 0.314375, 0.337125)}), {}, None)
    table = M._first_player_rows(fp)
    printed = table.filter(pl.col("Seat") == "Seat 1")["Win share"][0]
    assert printed.startswith("34.9% ("), printed
    assert _labels(F.played_first_player(fp)) == ["34.9%"]


def test_the_first_player_figures_intervals_stay_within_0_and_100_percent():
    fp = M.with_run_first_player(_first_player(5, {3: (0.6, 0.4, 0.0)}), {}, None)
    fig = F.played_first_player(fp)
    ax = fig.axes[0]
    ends = np.concatenate([np.asarray(seg)[:, 1] for c in ax.containers if hasattr(c, "errorbar")
                           and c.errorbar is not None for seg in c.errorbar.lines[2][0].get_segments()])
    assert ends.min() >= 0.0 and ends.max() <= 1.0 + 1e-12, ends
    # the seat that won none has an interval (0.0–43.4%), not a bar without a whisker
    assert ends.max() > 0.9          # Seat 1's 60% of 5 games: up to 95.2%


def test_a_bar_label_prints_a_share_as_the_tables_do():
    fig = new_figure()
    ax: Axes = subplots(fig)
    C.bar_label(ax, 0.0, 0.3485)
    C.bar_label(ax, 1.0, 0.28125)
    assert _labels(fig) == ["34.9%", "28.1%"]


def test_no_figure_module_rounds_a_share_label_with_an_f_string():
    """Every ``…:.1f}%`` in a figure module was a share labelled with Python's own rounding (binary,
    half to even), not the tables' (:func:`reports.text.pct`). The checklist's messages about an
    axis's range (not a label drawn on a figure) are left out."""
    found = []
    for path in sorted(FIGURES.glob("*.py")):
        if path.name == "checklist.py":
            continue
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if re.search(r":\.\d+f\}%", line) or re.search(r"\{100 \* [^{}]*:\.\d+f\}", line):
                found.append(f"{path.name}:{i}: {line.strip()}")
    assert not found, "\n".join(found)
