"""Two role-page words from review G: a role whose only seat won no game has no share of its
role's wins to show ("no wins to share", not "100%"), and the end reasons after the most common
keep their names as written (a role's name keeps its capital: "Seigneur goal")."""

from __future__ import annotations

import re

import pytest

from analysis import analyse, open_runs
from reports.sections import role_seat_rows
from reports.text import length_headlines
from simcore import runner


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    path = runner.simulate("seigneurial", games=400, seed=3, out=tmp_path_factory.mktemp("sg") / "r",
                           quiet=True, strategies="harsh-lord,objective,dutiful,hoarder")
    return analyse(open_runs([path]))


def test_a_role_seat_without_wins_shows_no_share_of_them(tables):
    t = dict(tables)
    lord = t["role_seats"]["role"] == "seigneur"
    t["role_seats"] = t["role_seats"].with_columns(
        share_of_role=t["role_seats"]["share_of_role"].scatter(lord.arg_true(), float("nan")))
    col = "Share of the role's wins (95% interval, unadjusted)"
    rows = role_seat_rows(t).to_dicts()
    assert rows[0]["Role"] == "Seigneur" and rows[0][col] == "no wins to share"
    t["role_seats"] = tables["role_seats"].with_columns(
        share_of_role=tables["role_seats"]["share_of_role"].fill_nan(1.0))
    assert role_seat_rows(t).to_dicts()[0][col] == "100% (its role's only seat)"


def test_the_other_end_reasons_keep_their_names_as_written(tables):
    line = length_headlines(tables)[-1]
    others = [r["label"] for r in tables["end_reasons"].sort("share", descending=True).iter_rows(named=True)][1:]
    # (an end no game reached closes the list, "none by A or B)": its name then ends at the ")")
    assert others and all(re.search(re.escape(label) + r"[ ,)]", line) for label in others), line


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_side_by_side_page_gives_every_player_counts_seats_within_a_role(tmp_path):
    """A 3- against a 5-player page led with the 3-player run's findings only; the 5-player gap
    between Censitaire seats appeared nowhere. Its headlines now give each count's answer."""
    import html
    import re

    from reports.build import build_report
    from undrawn_figures import figures_undrawn

    runs = [runner.simulate("seigneurial", players=p, games=1500, seed=2, out=tmp_path / f"sg{p}", quiet=True)
            for p in (3, 5)]
    with figures_undrawn():
        page = build_report(runs, tmp_path / "rep", side_by_side=True).read_text(encoding="utf-8")
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())
    title = "Headline findings (the findings after the first are sg3's) "
    head = text[text.index(title + "Player counts side by side"):]          # (not the contents list)
    head = head[:head.index("Role advantage")]
    assert "Player counts side by side (3p, 5p)" in head
    assert "At 3 players (sg3): " in head and "At 5 players (sg5): " in head
    # every section but the side-by-side one is the first run's: its heading says so (designer
    # review 44 #7: "Objective cards" showed 3-player numbers under an unmarked heading)
    heads = [html.unescape(re.sub(r"<[^>]+>", "", h)) for h in re.findall(r"<h2[^>]*>(.*?)</h2>", page)]
    own = [h for h in heads if not h.startswith(("Headline findings", "Player counts side by side",
                                                 "How to read this report"))]
    assert own and all(h.startswith("sg3 only: ") for h in own), heads
    assert "sg3 only: Role advantage" in heads and "Player counts side by side" in heads
