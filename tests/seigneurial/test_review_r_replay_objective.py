"""Review R #6: a Seigneurial replay numbered the same Objective card two ways in one file.

``balance replay RUN --find 'role=seigneur loses max score'`` printed "P2 objective #12: grain ≥ 4,
…" in its setup lines (cards numbered from #1, as the reports' Objective-card table numbers them)
and 11 under "objective" in its final table (players.parquet's 0-based index): a designer matching
the table to the report's card table picked the wrong card. The final table now names the card as
the header does; the replay's check of its figures against the run's row is unchanged (it compares
the record's arrays, not the printed table).

Checked on a small real run: the card in the final table equals the header's and players.parquet's
``objective`` + 1, read here from the run's rows, and the replay still says its figures equal them.
"""

from __future__ import annotations

import re

import polars as pl
import pytest

from simcore import runner
from simcore.replay import find_game, replay

COLUMNS = "seat role share rank score grain wood fish favour sick objective paid seized".split()


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("seigneurial", games=30, seed=5, out=tmp_path_factory.mktemp("sg") / "sg",
                           quiet=True, players=4)


def _final_table(lines: list[str]) -> dict[int, dict[str, str]]:
    """The replay's final table: seat (from 1, as printed "P1") → column → the printed text."""
    at = lines.index("Final table")
    assert lines[at + 1].split() == COLUMNS, lines[at + 1]
    out = {}
    for line in lines[at + 2:]:
        if not line.startswith("P"):
            break
        cells = line.split()
        assert len(cells) == len(COLUMNS), line
        out[int(cells[0][1:])] = dict(zip(COLUMNS, cells))
    return out


def _header_cards(text: str) -> dict[int, str]:
    """The setup lines' card per seat: ``  P2 objective #12: …`` → {2: "#12"}."""
    return {int(s): card for s, card in re.findall(r"^  P(\d) objective (#\d+): ", text, flags=re.M)}


def test_the_final_table_names_the_card_as_the_header_and_the_reports_do(run):
    players = pl.read_parquet(run / "players.parquet")
    found, _ = find_game(run, "role=seigneur loses max score")        # the review's command
    games = sorted({found, 0, 7})
    for g in games:
        r = replay(run, g)
        assert r.matches, (g, r.differences)                          # the check still holds
        assert "objective" in r.text.split("Check: the final ")[1].split(" of every seat")[0]
        table, header = _final_table(r.lines), _header_cards(r.text)
        rows = players.filter(pl.col("game") == g).sort("seat")
        assert len(table) == rows.height == 4
        for row in rows.iter_rows(named=True):
            seat = row["seat"] + 1                                      # P1 is seat 1 in the replay
            shown = table[seat]["objective"]
            if row["role"] == "seigneur":
                assert row["objective"] == -1 and shown == "-", (g, seat, shown)     # he holds no card
                assert seat not in header
            else:
                assert shown == f"#{row['objective'] + 1}", (g, seat, shown, row["objective"])
                assert header[seat] == shown, (g, seat, header[seat], shown)
