"""The before/after figure's lower panel, "The shares that changed most": the largest changes,
largest at the top, whatever the evidence behind each (the colour says which moved clearly).

Why it matters: ranked by |z|, the most certain changes came first, so a designer reading down the
chart met +5 pp changes measured on every game before a +10 pp change measured on the games that
drew one card, under a title promising the largest.
"""

from __future__ import annotations

import polars as pl

from reports.figures import common as F


def _seats(shares):
    return {"seats": pl.DataFrame({"seat_label": [f"Seat {i + 1}" for i in range(len(shares))],
                                   "win_share": shares, "ci_low": [s - 0.01 for s in shares],
                                   "ci_high": [s + 0.01 for s in shares],
                                   "fair_share": [1 / len(shares)] * len(shares)})}


def test_the_largest_changes_are_shown_largest_first():
    # (label, change, half-width of its interval): z = change / (half-width / 1.96)
    rows = [("Leader at turn 10 wins", 0.060, 0.003), ("Bonnes récoltes: biggest gainer wins", 0.101, 0.007),
            ("Aide à la reconstruction: biggest gainer wins", -0.084, 0.005),
            ("Seat 3 win share", 0.011, 0.003), ("Alliance: biggest gainer wins", 0.02, 0.03)]
    cmp = pl.DataFrame({
        "label": [r[0] for r in rows], "metric": [f"m{i}" for i in range(len(rows))],
        "kind": ["proportion"] * len(rows),
        "diff": [r[1] for r in rows], "diff_low": [r[1] - r[2] for r in rows],
        "diff_high": [r[1] + r[2] for r in rows], "z": [r[1] / (r[2] / 1.96) for r in rows],
        "significant": [abs(r[1]) > r[2] for r in rows]})
    fig = F.comparison(cmp, _seats([0.25, 0.25, 0.26, 0.24]), _seats([0.25, 0.24, 0.27, 0.24]), "A", "B", top=4)
    lower = [ax for ax in fig.get_axes() if ax.get_title().startswith("The shares that changed most")][0]
    top_down = [t.get_text() for t in lower.get_yticklabels()][::-1]
    assert top_down == ["Bonnes récoltes: biggest gainer wins", "Aide à la reconstruction: biggest gainer wins",
                        "Leader at turn 10 wins", "Alliance: biggest gainer wins"], top_down


def test_a_leader_by_turn_series_is_one_bar_its_largest_change():
    """Every turn's leader moving together is one story: one bar, the largest turn's, saying so."""
    rows = [(f"leader_wins_turn_{t}", f"Leader at the end of turn {t} wins", d)
            for t, d in ((8, 0.052), (9, 0.060), (10, 0.062), (11, 0.061))]
    rows += [("event_gainer_wins_3", "Bonnes récoltes: biggest gainer wins", 0.101),
             ("seat_win_share_3", "Seat 3 win share", 0.011)]
    cmp = pl.DataFrame({
        "metric": [r[0] for r in rows], "label": [r[1] for r in rows], "kind": ["proportion"] * len(rows),
        "diff": [r[2] for r in rows], "diff_low": [r[2] - 0.003 for r in rows],
        "diff_high": [r[2] + 0.003 for r in rows], "z": [r[2] / 0.0015 for r in rows],
        "significant": [True] * len(rows)})
    fig = F.comparison(cmp, _seats([0.25] * 4), _seats([0.25] * 4), "A", "B")
    lower = [ax for ax in fig.get_axes() if ax.get_title().startswith("The shares that changed most")][0]
    top_down = [t.get_text() for t in lower.get_yticklabels()][::-1]
    assert top_down == ["Bonnes récoltes: biggest gainer wins",
                        "Leader at the end of turn 10 wins (largest of 4 turns)",
                        "Seat 3 win share"], top_down


def test_a_grey_bar_whose_own_interval_misses_zero_is_explained():
    """Review O: a grey ("within noise") bar whose whiskers do not reach 0 read as a contradiction;
    the axis says how many such bars there are and why (Holm over the tested metrics). A chart
    without one says nothing of it."""
    rows = [("A share that moved", 0.05, 0.01, True, 1e-6), ("Own interval misses 0", 0.02, 0.015, False, 0.2),
            ("Another that misses 0", -0.03, 0.02, False, 0.3), ("Within noise", 0.01, 0.02, False, 1.0)]
    cmp = pl.DataFrame({
        "label": [r[0] for r in rows], "metric": [f"m{i}" for i in range(len(rows))],
        "kind": ["proportion"] * len(rows), "diff": [r[1] for r in rows],
        "diff_low": [r[1] - r[2] for r in rows], "diff_high": [r[1] + r[2] for r in rows],
        "z": [r[1] / (r[2] / 1.96) for r in rows], "significant": [r[3] for r in rows],
        "p_adjusted": [r[4] for r in rows]})
    seats = _seats([0.25, 0.25, 0.25, 0.25])
    fig = F.comparison(cmp, seats, seats, "A", "B")
    lower = [ax for ax in fig.get_axes() if ax.get_title().startswith("The shares that changed most")][0]
    assert "2 grey bars miss 0 on their own 95% intervals, but not once all 4 tested metrics are weighed" \
        in lower.get_xlabel().replace("\n", " "), lower.get_xlabel()
    fig = F.comparison(cmp.filter(pl.col("label") != "Own interval misses 0").filter(
        pl.col("label") != "Another that misses 0"), seats, seats, "A", "B")
    lower = [ax for ax in fig.get_axes() if ax.get_title().startswith("The shares that changed most")][0]
    assert "miss" not in lower.get_xlabel(), lower.get_xlabel()


def test_a_grey_bar_is_explained_by_its_family_where_the_table_has_families():
    """A before/after adjusts the seats and the other metrics apart (analysis.compare): the axis
    must not say that "all N tested metrics" were weighed together."""
    rows = [("A share that moved", 0.05, 0.01, True, 1e-6, "seats"),
            ("Own interval misses 0", 0.02, 0.015, False, 0.2, "other metrics"),
            ("Another that misses 0", -0.03, 0.02, False, 0.3, "other metrics"),
            ("Within noise", 0.01, 0.02, False, 1.0, "seats")]
    cmp = pl.DataFrame({
        "label": [r[0] for r in rows], "metric": [f"m{i}" for i in range(len(rows))],
        "kind": ["proportion"] * len(rows), "diff": [r[1] for r in rows],
        "diff_low": [r[1] - r[2] for r in rows], "diff_high": [r[1] + r[2] for r in rows],
        "z": [r[1] / (r[2] / 1.96) for r in rows], "significant": [r[3] for r in rows],
        "p_adjusted": [r[4] for r in rows], "family": [r[5] for r in rows]})
    seats = _seats([0.25, 0.25, 0.25, 0.25])
    fig = F.comparison(cmp, seats, seats, "A", "B")
    lower = [ax for ax in fig.get_axes() if ax.get_title().startswith("The shares that changed most")][0]
    label = lower.get_xlabel().replace("\n", " ")
    assert "clear after Holm within its family" in label, label
    assert "2 grey bars miss 0 on their own 95% intervals, but not once their family is weighed" in label, label
    assert "all 4 tested metrics" not in label
