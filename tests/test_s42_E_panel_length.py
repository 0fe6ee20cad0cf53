"""Review s42 A, findings 4 and 5, on a real Médiévallons panel of 3 and 5 players.

#4: on a panel page with 5-seat cells the "Win share per cell" table had 10 columns, its last the
finding's call, past the right edge of a 1280-pixel page: the call now follows the cell's size, and
the game length has a table of its own. #5: the panel page gave the game length without a unit
("54.94 (54.40 to 55.49)"), and the before/after said "(in the game's unit)": Médiévallons counts
player turns (MV-3). The length is checked against each cell's games.parquet, averaged here."""

from __future__ import annotations

import html
import re
from decimal import ROUND_HALF_UP, Decimal

import polars as pl
import pytest

from cli import _run
from undrawn_figures import figures_undrawn


def _tables(page: str) -> dict[str, list[list[str]]]:
    """Every table of a page by its heading: its rows of cell texts, the headings first."""
    out = {}
    for m in re.finditer(r"<h3>(.*?)</h3>\s*(?:<p>.*?</p>\s*)*<table>(.*?)</table>", page, re.S):
        rows = []
        for r in re.findall(r"<tr>(.*?)</tr>", m.group(2), re.S):
            rows.append([html.unescape(re.sub(r"<[^>]+>", "", x)) for x in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)])
        out[html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))] = rows
    return out


@pytest.fixture(scope="module")
def panels(tmp_path_factory):
    d = tmp_path_factory.mktemp("s42e_mv")
    for name, extra in (("a", []), ("b", ["--set", "guilds.to_win=2"])):
        assert _run(["simulate", "--game", "medievallons", "--players", "3,5", "--lineup", "balanced",
                     "--games", "200", "--seed", "1", "--quiet", "--out", str(d / name), *extra]) == 0
    from reports.panel import build_panel_comparison_report, build_panel_report

    with figures_undrawn():
        build_panel_report([d / "a"], d / "page")
        build_panel_comparison_report(d / "a", d / "b", d / "cmp")
    return d


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_call_comes_before_the_seats_and_the_length_has_its_own_table(panels):
    tables = _tables((panels / "page" / "report.html").read_text(encoding="utf-8"))
    head = tables["Win share per cell (each cell's own 95% interval)"][0]
    seats = [i for i, c in enumerate(head) if re.fullmatch(r"Seat \d's win share", c)]
    call = next(i for i, c in enumerate(head) if "the finding's call" in c)
    assert len(seats) == 5 and call < min(seats), head
    assert not any("length" in c for c in head), head


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_panel_page_gives_the_length_in_player_turns(panels):
    tables = _tables((panels / "page" / "report.html").read_text(encoding="utf-8"))
    rows = next(t for t in tables.values() if any("length" in c for c in t[0]))
    col = next(i for i, c in enumerate(rows[0]) if "length" in c)
    assert rows[0][col] == "mean game length (player turns)", rows[0]
    for r in rows[1:]:
        players = int(r[0].split("p", 1)[0])
        cell = next(c for c in sorted((panels / "a").glob("cell-*"))
                    if pl.read_parquet(c / "games.parquet")["n_players"][0] == players)
        turns = pl.read_parquet(cell / "games.parquet")["turns"].to_list()
        mean = (Decimal(sum(turns)) / Decimal(len(turns))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        assert r[col].startswith(f"{mean} ("), (r, mean)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_before_after_names_the_unit(panels):
    page = html.unescape((panels / "cmp" / "report.html").read_text(encoding="utf-8"))
    assert "in the game's unit" not in page
    assert "Each cell's mean game length (in player turns)" in page
