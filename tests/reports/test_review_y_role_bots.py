"""Review Y #4: "Among the 3 Censitaire bots, standard wins most: 37.9% (37.2–38.6) … clear and
large enough to matter" beside fair-share at 37.5% (36.8–38.2), a bot that plays the Censitaire
exactly as standard does: the headline read as one policy beating the other. A bot of the role
whose interval reaches the best's is named after it, with what that means."""

from __future__ import annotations

import pytest
import polars as pl

from reports.text import role_strategy_headlines


def _table(fair_share_high: float) -> pl.DataFrame:
    return pl.DataFrame({
        "role": ["censitaire"] * 3, "role_label": ["Censitaire"] * 3,
        "strategy": ["standard", "fair-share", "dutiful"],
        "win_share": [0.379, 0.375, 0.243], "ci_low": [0.372, 0.368, 0.237],
        "ci_high": [0.386, fair_share_high, 0.249], "fair_share": [0.332] * 3,
        "diff": [0.047, 0.043, -0.089], "p_value": [1e-9, 1e-9, 1e-12],
        "verdict": ["clear and large enough to matter"] * 3})


def test_a_bot_whose_interval_reaches_the_best_is_named():
    [line] = role_strategy_headlines(_table(0.382))
    assert line.startswith("Among the 3 Censitaire bots, standard wins most: 37.9% (37.2–38.6)"), line
    assert line.endswith("; fair-share 37.5% (36.8–38.2): its interval overlaps standard's, so these "
                         "games do not show standard ahead of it."), line
    assert "dutiful" not in line


def test_a_best_clear_of_the_others_is_said_alone():
    [line] = role_strategy_headlines(_table(0.371))
    assert "overlap" not in line and line.endswith("includes its seat's)."), line


def test_the_matchups_figure_shows_only_bots_that_met():
    """Review Y #10: in a Seigneurial run of even-lord and three Censitaire bots, the matchups
    figure gave even-lord a whole empty row and column (no Censitaire bot is matched with the
    Seigneur's). The figure's axes hold the bots of the matchups table only."""
    from reports.figures.common import matchups

    m = pl.DataFrame({"strategy": ["fair-share", "dutiful"], "opponent": ["dutiful", "fair-share"],
                      "ahead_share": [0.646, 0.354], "ci_low": [0.639, 0.348], "ci_high": [0.652, 0.361],
                      "confounded": [True, True], "paired": [False, False]})
    t = {"matchups": m, "strategies": pl.DataFrame({"strategy": ["even-lord", "fair-share", "dutiful"]})}
    ax = matchups(t).axes[0]
    assert [x.get_text() for x in ax.get_xticklabels()] == ["fair-share", "dutiful"]
    assert [y.get_text() for y in ax.get_yticklabels()] == ["fair-share", "dutiful"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_single_runs_report_prints_its_first_findings(tmp_path):
    """Review Y #12: `balance report RUN` printed the page's path only, where a before/after prints
    its answer. A single run prints the page's first findings (its name, then the lead sentences,
    the same words as the page's headline), then the path."""
    import html as H
    import re

    from in_process import balance
    from undrawn_figures import figures_undrawn

    balance("simulate", "--game", "seigneurial", "--games", "2000", "-q", "--out", tmp_path / "run")
    with figures_undrawn():
        done = balance("report", tmp_path / "run", "--out", tmp_path / "rep")
    lines = done.stdout.splitlines()
    assert lines[0] == "run:" and lines[-1].startswith("report: "), lines
    said = [x.strip() for x in lines[1:-1]]
    # three findings, then the SG-6 tie-break line (the hook's LEAD_IN_TERMINAL), then whom they
    # hold for (review s53: the printout named no line-up)
    assert 1 <= len(said) <= 5 and any(x.startswith("The Seigneur wins ") for x in said), said
    assert said[-1].startswith("These findings hold for"), said
    page = " ".join(H.unescape(re.sub(r"<[^>]+>", "", (tmp_path / "rep" / "report.html").read_text())).split())
    for x in said:
        assert x in page, x


def test_the_role_strategies_table_prints_the_average_seat_at_the_shares_decimals():
    """Review Y #10: "0.34% (0.27–0.43)" beside "0.3%" in one row of the strategies table: the
    role's average seat is printed at the decimals of the share beside it."""
    from reports.sections import strategy_rows

    s = pl.DataFrame({"strategy": ["even-lord", "fair-share"], "role": ["seigneur", "censitaire"],
                      "role_label": ["Seigneur", "Censitaire"], "units": [20000, 20000],
                      "win_share": [0.0034, 0.375], "ci_low": [0.0027, 0.368], "ci_high": [0.0043, 0.382],
                      "fair_share": [0.0034, 0.3322], "diff": [0.0, 0.0428], "p_value": [float("nan"), 1e-9],
                      "verdict": [None, "clear and large enough to matter"], "smallest": [0.01, 0.01],
                      "paired": [False, False]})
    rows = strategy_rows({"strategies": s})
    assert rows["Win share (95% interval, unadjusted)"].to_list() == ["0.34% (0.27–0.43)", "37.5% (36.8–38.2)"]
    assert rows["Its role's average seat"].to_list() == ["0.34%", "33.2%"]


def test_the_strategies_introduction_says_its_reference_is_not_the_seats_equal_share():
    """Review Y #5: one Censitaire seat and its bot read −9.0 pp against an equal 33.3% of the
    Censitaires' wins (the seats) and −8.9 pp against 33.2% (the strategies table, its role's
    average seat): the introduction of a game of roles says what its reference is and that it is
    not the seats' equal share of the role's wins."""
    from reports.sections import matchups_intro

    text = matchups_intro({"strategies": pl.DataFrame({"role": ["censitaire"], "smallest": [0.01]})})
    assert ("their role's average seat, the share of all games an average seat of the role wins; so a "
            "bot's difference here is not its seat's gap from an equal share of its role's wins") in text, text
    assert "role's average seat" not in matchups_intro({"strategies": pl.DataFrame({"smallest": [0.01]})})
