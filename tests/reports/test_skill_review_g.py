"""Designer review G of ``balance skill``'s page and table: one gap, one interval (the sentence's,
in the table too); the searching seat measured against its own bot's best-measured share (every
seat at budget 0, not the one-seat part's first games of the same deals); the budget figures'
points on their budgets' ticks (figure checklist rule 3); a game with roles (Seigneurial) reported
by role shares and the gap within the Censitaires, no seat-balance index; the searching seat's
sentence true clause by clause; the lead sentence saying which part it reads."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from analysis import skill as K
from cli import _run
from simcore import games as registry

from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (every page undrawn)

NO_ROLE_GAP = (None,) * len(K.ROLE_GAP_COLUMNS)
ONE_NONE = (None,) * (len(K.BALANCE_COLUMNS) + 1) + NO_ROLE_GAP


def _row(cell, budget, part, seat, role, games, w, lo, hi, rest):
    return (cell, 4, budget, part, seat, role, "x", games, w, lo, hi, *rest)


def _text(page: str) -> str:
    import html
    # a sentence's hover titles (<abbr>, reports.html.with_titles) sit inside it: no space for them
    return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?abbr[^>]*>", "", page)))


# --- finding 1: one number, one interval --------------------------------------------------------

# Médiévallons at budget 0, 200 games: the gap 5.5 pp, 0.0 to 17.9 at 95%, 0.0 to 19.0 at 97.5%
GAP_FIGURES = (0.957, 0.855, 1.0, 0.945, 0.821, 1.0, 0.810, 1.0, K.FAMILY_LEVEL)
GAP_FIGURES_4 = (0.929, 0.826, 1.0, 0.92, 0.798, 1.0, 0.787, 1.0, K.FAMILY_LEVEL)


def _medievallons_dir(path):
    rows = []
    for b, figures, shares, one in ((0, GAP_FIGURES, [0.28, 0.24, 0.225, 0.255], [0.28, 0.20, 0.24, 0.28]),
                                    (4, GAP_FIGURES_4, [0.26, 0.29, 0.21, 0.24], [0.34, 0.32, 0.34, 0.32])):
        for s in range(4):
            lo, hi = K.seat_interval(shares[s], 200)
            rows.append(_row("4p 4×balanced", b, "all", s, "player", 200, shares[s], lo, hi,
                             figures + NO_ROLE_GAP))
            lo, hi = K.seat_interval(one[s], 50)
            rows.append(_row("4p 4×balanced", b, "one", s, "player", 50, one[s], lo, hi, ONE_NONE))
    path.mkdir(parents=True)
    pl.DataFrame(rows, schema=K.SCHEMA, orient="row").write_parquet(path / "skill.parquet")
    (path / "skill.json").write_text(json.dumps({"kind": "balance-skill", "game": "medievallons",
                                                 "players": 4, "games": 200, "seed": 0,
                                                 "policy": "balanced", "budgets": [0, 4]}))
    return path


def test_the_gap_has_one_interval_on_the_page_the_sentences(tmp_path):
    """The sentence gave 5.5 pp (0.0 to 19.0), its 97.5% interval, and the table beside it 0.0 to
    17.9 (95%) for the same number: the table now gives the sentence's interval, labelled."""
    from reports.skill import build_skill_page

    d = _medievallons_dir(tmp_path / "sk")
    text = _text(build_skill_page(d).read_text(encoding="utf-8"))
    assert "5.5 pp (0.0 to 19.0) at budget 0" in text
    assert "gap interval (97.5%, as in the sentence: two budgets compared)" in text
    assert "0.0 to 19.0" in text.split("Balance by budget, every seat searching")[1]
    assert "17.9" not in text                       # the 95% interval of the same gap is not shown


def test_the_terminal_gap_cell_is_the_sentences_interval():
    from cli.skill import _gap_cell

    r = dict(zip(K.BALANCE_COLUMNS, GAP_FIGURES))
    assert _gap_cell(r) == "5.5\n(0.0–19.0)"


# --- finding 2: the seat's own bot, best measured -----------------------------------------------

def test_the_searching_seat_is_compared_with_its_bot_over_every_game_at_budget_0(tmp_path):
    """At budget 0 both parts play the same bots on the same deals (the one-seat part's 50 games
    are the first 50 of the every-seat part's 200): the sentence compares with the 200 games' 24.0%
    for seat 2, not the 50 games' 20.0%, and says so."""
    from reports.skill import gain_sentence

    t = pl.read_parquet(_medievallons_dir(tmp_path / "sk") / "skill.parquet")
    words = gain_sentence(t)
    assert "every seat its own bot at budget 0, 200 games" in words
    assert "seat 2 32.0% of 50 games vs the bot's 24.0% of 200" in words and "vs the bot's 20.0%" not in words


def test_budget_0s_one_seat_games_are_the_first_of_the_every_seat_games():
    """Why the two are not pooled: the same games, counted twice."""
    a = K._shares("medievallons", 4, ["balanced"] * 4, 10, 3, 1)[0]
    b = K._shares("medievallons", 4, ["balanced"] * 4, 40, 3, 1)[0]
    assert np.array_equal(a, b[:10])


# --- finding 3: points on their budgets' ticks --------------------------------------------------

def test_the_budget_figures_points_sit_on_their_budgets_ticks(tmp_path):
    """Both figures' points beside their budgets' ticks, each nearer its own budget's tick than any
    other: the budget figure's since review N #10 (seats' intervals drawn over each other,
    tests/reports/test_skill_review_n.py), the comparison figure's since session 55 (the same
    overlap there; it had every point on the tick: tests/reports/test_s55_skill_against_dodge.py)."""
    from reports.skill import against_figure, budget_figure

    t = pl.read_parquet(_medievallons_dir(tmp_path / "sk") / "skill.parquet")
    fig = budget_figure(t, ("player",) * 4, 0.25)
    assert len(fig.axes[0].get_lines()) >= 4
    for ax in fig.axes:
        ticks = np.asarray(ax.get_xticks(), float)
        for line in ax.get_lines():
            x = np.asarray(line.get_xdata(), float)
            if line.get_marker() in (None, "None", "") or x.size == 0:
                continue
            assert all(np.abs(ticks - v).min() < 0.5 * np.diff(ticks).min() for v in x), x
    # seats told apart by marker, as they may meet on a tick
    markers = {line.get_marker() for line in fig.axes[0].get_lines()} - {"None", "_", "|"}   # not the caps
    assert len(markers) == 4
    # seats named as every other figure names them (review Y #10: "seat 1" here only)
    labels = {x for ax in fig.axes for x in ax.get_legend_handles_labels()[1]}
    assert {"Seat 1", "Seat 2", "Seat 3", "Seat 4"} <= labels and not any(x.startswith("seat ") for x in labels), labels
    cmp = pl.DataFrame({"cell": ["c"] * 8, "players": [4] * 8, "budget": [0] * 4 + [4] * 4,
                        "seat": list(range(4)) * 2, "change": [0.01, -0.02, 0.03, 0.0] * 2,
                        "change_low": [-0.02] * 8, "change_high": [0.05] * 8})
    (ax,) = against_figure(cmp, ("player",) * 4, 0.01).axes
    ticks = np.asarray(ax.get_xticks(), float)
    points = [v for line in ax.get_lines() if line.get_marker() not in (None, "None", "", "_", "|")
              for v in np.asarray(line.get_xdata(), float)]                 # the points, not the caps
    assert len(points) == 8
    assert all(np.abs(ticks - v).min() < 0.5 * np.diff(ticks).min() for v in points), points


# --- findings 4 and 6: a game with roles --------------------------------------------------------

@pytest.fixture(scope="module")
def seigneurial(tmp_path_factory):
    """``balance skill --game seigneurial --budgets 0,4 --games 40`` (page undrawn)."""
    out = tmp_path_factory.mktemp("skill-sg") / "sk"
    assert _run(["skill", "--game", "seigneurial", "--budgets", "0,4", "--games", "40", "--seed", "3",
                 "--out", str(out), "--quiet"]) == 0
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_game_with_roles_records_no_seat_balance_index_but_the_gap_within_its_role(seigneurial):
    t = pl.read_parquet(seigneurial / "skill.parquet")
    allp = t.filter(pl.col("part") == "all")
    for c in K.BALANCE_COLUMNS:
        assert allp[c].null_count() == allp.height, c
    for b in (0, 4):
        part = allp.filter(pl.col("budget") == b).sort("seat")
        censitaires = part.filter(pl.col("role") == "censitaire")["win_share"].to_numpy()
        r = part.row(0, named=True)
        assert r["role_gap"] == pytest.approx(censitaires.max() - censitaires.min(), abs=1e-12)
        assert r["role_gap_low"] <= r["role_gap"] <= r["role_gap_high"]
    csv = (seigneurial / "skill.csv").read_text().splitlines()
    assert "role_gap" in csv[0]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_game_with_roles_pages_role_shares_and_says_which_part_it_reads(seigneurial):
    text = _text((seigneurial / "report.html").read_text(encoding="utf-8"))
    assert "Balance (Ludii)" not in text and "largest gap (pp)" not in text
    assert "Role shares by budget, every seat searching" in text
    assert "Seigneur: win share (95% interval)" in text and "Censitaires: win share (95% interval)" in text
    assert "largest gap between two Censitaires (pp)" in text
    # the lead sentence names its part
    assert ("In 4p 4×standard, with every seat searching at the budget (at budget 0 every seat plays its "
            "own bot), the Seigneur's win share is") in text


def test_the_skill_csv_says_the_level_of_each_interval_it_holds(seigneurial):
    """Review N #9: every row of a Seigneurial skill.csv said adjusted_level 0.975, no ``_adjusted``
    column filled, beside the role gap's interval at 95%: a reader paired the role gap with 97.5%.
    Now a level stands only beside a filled interval, the role gap's in ``role_gap_level``, the
    level the page names for it."""
    t = pl.read_csv(seigneurial / "skill.csv")
    adjusted = t["win_share_balance_low_adjusted"].is_not_null()
    assert t.filter(~adjusted)[K.LEVEL_COLUMN].null_count() == t.filter(~adjusted).height
    gap = t["role_gap_low"].is_not_null()
    assert gap.sum() > 0 and t.filter(~gap)["role_gap_level"].null_count() == t.filter(~gap).height
    levels = set(t.filter(gap)["role_gap_level"].to_list())
    # the seat as the page names it beside the file's 0-based seat
    assert t.columns.index("seat_label") == t.columns.index("seat") + 1
    assert t["seat_label"].to_list() == [f"Seat {s + 1}" for s in t["seat"]]
    page = _text((seigneurial / "report.html").read_text(encoding="utf-8"))
    named = set(re.findall(r"its (\d+(?:\.\d+)?)% interval \(over the Censitaires' pairs\)", page))
    assert named and {float(x) / 100 for x in named} == levels, (named, levels)


def test_the_role_table_sums_a_roles_seats_and_keeps_a_one_seat_roles_interval(seigneurial):
    from reports.skill import balance_table
    from analysis.stats import wilson

    t = pl.read_parquet(seigneurial / "skill.parquet")
    table = balance_table(t, registry.get("seigneurial"))
    assert not any("Balance" in c or "two seats" in c for c in table.columns)
    part = t.filter((pl.col("part") == "all") & (pl.col("budget") == 0)).sort("seat")
    s = part.row(0, named=True)
    row = table.filter(pl.col("budget") == 0).row(0, named=True)
    assert row["Seigneur: win share (95% interval)"] == (
        f"{100 * s['win_share']:.1f}% ({100 * s['ci_low']:.1f}–{100 * s['ci_high']:.1f})")
    share = float(part.filter(pl.col("role") == "censitaire")["win_share"].sum())
    lo, hi = wilson(share * 40, 40)
    assert row["Censitaires: win share (95% interval)"] == (
        f"{100 * share:.1f}% ({100 * float(lo):.1f}–{100 * float(hi):.1f})")


# --- finding 5: each clause true of its numbers -------------------------------------------------

def test_each_clause_of_the_searching_seats_sentence_is_true_of_its_numbers():
    """Seigneurial, 200 games, budget 4: the sentence said "clearly … in 1, not in seats 1, 2 and 3"
    beside seat 2 44.0% vs 28.0% and seat 1 0.0% vs 0.0%."""
    from reports.skill import gain_sentence

    roles = ("seigneur", "censitaire", "censitaire", "censitaire")
    rows = []
    for b, part, games, shares in ((0, "all", 200, [0.0, 0.33, 0.29, 0.38]),
                                   (0, "one", 50, [0.0, 0.28, 0.32, 0.40]),
                                   (4, "one", 50, [0.0, 0.44, 0.40, 0.68])):
        for s, w in enumerate(shares):
            lo, hi = K.seat_interval(w, games)
            rows.append(_row("c", b, part, s, roles[s], games, w, lo, hi, ONE_NONE))
    words = gain_sentence(pl.DataFrame(rows, schema=K.SCHEMA, orient="row"))
    # each seat worded by the size of its difference (Holm over the 3 seats with one to measure)
    assert ("Holm over the 3 seats compared, 1 pp matters) is clearly more, by enough to matter, in seat 4 "
            "(68.0% of 50 games vs the bot's 38.0% of 200, +30.0 pp, 95% interval ") in words
    assert ("; not clearly different in seats 2 and 3 (seat 2 44.0% of 50 games vs the bot's 33.0% of 200, "
            "+11.0 pp, ") in words and "seat 3 40.0% of 50 games vs the bot's 29.0% of 200, +11.0 pp" in words
    assert ("; no difference to measure (neither wins there) in seat 1 (0.0% of 50 games vs the bot's "
            "0.0% of 200)") in words
    assert "not in seat" not in words
