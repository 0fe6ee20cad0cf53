"""The End reasons table of a game with sides reads by side, with each side's total.

The designer review (session 41) read a Seigneurial page's End reasons table in code order: "Seigneur
goal 21 games" and, two rows down, "Seigneur goal, winning a tie (SG-6) 61 games", with nothing
giving the Seigneur's 82 wins; they had to be added by hand. The table now names the side each
end reason gives the win to (SG-6: the Seigneur on his goal square, with or without the tie-break;
a Censitaire's objective, and the turn bound whose win the Censitaires share), keeps a side's rows
together and ends them with the side's total, its share of games with a Wilson interval. A game
without sides (Médiévallons) keeps its table.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import polars as pl
import pytest

from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

# SG-6, read from the rules (shared/rules/seigneurial.md), not from the spec: the codes of
# games.parquet's end_reason each side wins by
SEIGNEUR_CODES, CENSITAIRE_CODES = (1, 3), (0, 2)


class _Tables(HTMLParser):
    """The page's tables as lists of rows of cell texts, by the <h3> title before each."""

    def __init__(self):
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._title, self._in_title, self._rows, self._cell = "", False, None, None

    def handle_starttag(self, tag, attrs):
        if tag == "h3":
            self._in_title, self._title = True, ""
        elif tag == "table":
            self._rows = self.tables.setdefault(self._title, [])
        elif tag == "tr" and self._rows is not None:
            self._rows.append([])
        elif tag in ("td", "th") and self._rows is not None:
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "h3":
            self._in_title = False
        elif tag == "table":
            self._rows = None
        elif tag in ("td", "th") and self._cell is not None:
            self._rows[-1].append(self._cell.strip())
            self._cell = None

    def handle_data(self, data):
        if self._in_title:
            self._title += data
        elif self._cell is not None:
            self._cell += data


def _page_tables(path) -> dict[str, list[list[str]]]:
    p = _Tables()
    p.feed(path.read_text(encoding="utf-8"))
    return p.tables


def _share(cell: str) -> tuple[float, float, float]:
    """``0.4% (0.3–0.5)`` → (0.4, 0.3, 0.5), in percent."""
    m = re.fullmatch(r"([\d.]+)% \(([\d.]+)–([\d.]+)\)", cell)
    assert m, cell
    return tuple(float(x) for x in m.groups())


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_each_side_s_rows_stand_together_and_end_with_the_side_s_total(tmp_path):
    from analysis.stats import wilson
    from in_process import balance

    run = runner.simulate("seigneurial", games=2000, seed=0, out=tmp_path / "sg", quiet=True)
    balance("report", run, "--out", tmp_path / "r")
    tables = _page_tables(tmp_path / "r" / "report.html")
    head, *rows = tables["End reasons"]
    assert head == ["Side that wins", "End", "Code", "Games", "Share", "Mean turns"]
    g = pl.read_parquet(run / "games.parquet")
    n_games = g.height
    by_code = dict(g.group_by("end_reason").len().iter_rows())
    assert by_code.get(1, 0) and by_code.get(3, 0)        # (the seed has both of the Seigneur's ways)

    sides = [r[0] for r in rows]
    assert sides == sorted(sides, key=sides.index)        # each side's rows together
    assert set(sides) == {"Seigneur", "Censitaires"}
    role_wins = {r[0]: r[3] for r in tables["Roles"][1:]}    # the Roles table's "Side wins"
    for side, codes, total_label in (("Seigneur", SEIGNEUR_CODES, "Seigneur wins, all ways"),
                                     ("Censitaires", CENSITAIRE_CODES, "Censitaires win, all ways")):
        mine = [r for r in rows if r[0] == side]
        *ways, total = mine                                # the total closes the side's rows
        assert sorted(int(r[2]) for r in ways) == sorted(codes)
        assert total[1] == total_label and total[2] == " + ".join(r[2] for r in ways)
        # the total: the side's games counted from games.parquet, independently of the analysis
        won = sum(by_code.get(c, 0) for c in codes)
        assert int(total[3].replace(",", "")) == won == sum(int(r[3].replace(",", "")) for r in ways)   # (counts printed with thousands separators)
        share, lo, hi = _share(total[4])
        w_lo, w_hi = wilson(won, n_games)
        digits = len(total[4].split("%")[0].partition(".")[2])
        assert abs(share - 100 * won / n_games) <= 0.5 * 10 ** -digits + 1e-9
        assert abs(lo - 100 * float(w_lo)) <= 0.5 * 10 ** -digits + 1e-9
        assert abs(hi - 100 * float(w_hi)) <= 0.5 * 10 ** -digits + 1e-9
        # the side's total is the Roles table's side win share (a turn-limit game is the
        # Censitaires' shared win, SG-6)
        label = "Seigneur" if side == "Seigneur" else "Censitaire"
        assert role_wins[label] == total[4]


def test_a_game_without_sides_keeps_its_table(tmp_path):
    """Médiévallons has no sides: its End reasons table is as before (no side, no total)."""
    from analysis import analyse
    from analysis.load import open_runs
    from reports.sections import end_rows

    run = runner.simulate("medievallons", games=300, seed=0, out=tmp_path / "mv", quiet=True)
    rs = open_runs([run])
    table = end_rows(analyse(rs), rs)
    assert table.columns == ["End", "Code", "Games", "Share", "Mean turns"]
    assert not any("all ways" in x for x in table["End"])
    g = pl.read_parquet(run / "games.parquet")
    assert table["Code"].to_list() == [0, 1, 2] and int(table["Games"].sum()) == g.height


def test_the_length_figure_draws_the_ends_in_the_tables_order_with_their_colours_by_code(tmp_path):
    """The figure's "How games end" bars follow the End reasons table by side (the Seigneur's two
    ways together, then the Censitaires'), each end keeping the colour its code gives it."""
    from analysis import analyse, open_runs
    from reports.figures.common import OKABE_ITO, game_length
    from reports.sections import ends_by_side

    run = runner.simulate("seigneurial", games=600, seed=0, out=tmp_path / "sg", quiet=True)
    rs = open_runs([run])
    t = analyse(rs)
    er = t["end_reasons"]
    codes = er["end_reason"].to_list()
    # the sides' order from the rules (SG-6), not from the code under test
    want = sorted(codes, key=lambda c: (c not in SEIGNEUR_CODES, codes.index(c)))
    label = dict(zip(codes, er["label"].to_list()))
    fig = game_length(t, "turns", ends_by_side(t, rs))
    shown = [x.get_text() for x in fig.axes[1].get_yticklabels()]
    assert shown == [label[c] for c in want], shown
    bars = sorted(fig.axes[1].patches, key=lambda p: -p.get_y())      # top to bottom
    for c, bar in zip(want, bars):
        assert bar.get_facecolor()[:3] == pytest.approx(
            tuple(int(OKABE_ITO[codes.index(c) % 8][k:k + 2], 16) / 255 for k in (1, 3, 5)))
