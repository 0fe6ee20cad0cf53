"""Review R, the panel before/after page: two display defects.

* #7: in the figure "Change per seat and cell" the legend box ("best") was drawn over a whisker,
  hiding the lower end of Seat 3's interval in one cell. It now stands beside the axes: once drawn
  as the report renders it, its box does not meet the axes' area and lies within the saved image.
* #9: the table "Toward or away from a fair seat share, per cell" named the seat of the largest gap
  from fair. In a 2-player cell both seats' gaps are equal (56.5% / 43.5%: 6.5 pp each), and the
  seat named was the float's pick (Seat 2, below fair) beside a gap without a sign, so "6.5 pp (Seat
  2)" before and "6.1 pp (Seat 1)" after read as if the advantage had moved between seats. Equal gaps
  now go to the seat above fair (:func:`analysis.panel_compare.seat_balance`) and the table prints
  the gap signed from that seat's side. The two-run before/after reads the same function
  (:func:`analysis.panel_compare.run_pair_balance`), so it names the same seat.

Every expected seat, sign and size is computed here from the shares given, or from the panels'
players.parquet rows, not from the code under test.
"""

from __future__ import annotations

import html
import re

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.panel_compare import PanelComparison, panel_comparison, seat_balance
from tests.analysis.analysis_runs import write_run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

# Two 2-player cells and one 3-player cell, (before, after) shares per seat. Both 2-player cells tie
# by construction and their floats fall both ways: |0.565 − 0.5| < |0.435 − 0.5| in binary, so a
# plain "largest gap" picks the seat below fair in "2p a" before and the one above in "2p b" after.
KNOWN = {"2p a": ((0.565, 0.435), (0.561, 0.439)),
         "2p b": ((0.435, 0.565), (0.44, 0.56)),
         "3p c": ((0.30, 0.32, 0.38), (0.36, 0.30, 0.34))}
G = 2000


def _known_comparison() -> PanelComparison:
    rows = [{"cell": c, "players": len(b), "item": f"Seat {s + 1}", "key": f"Seat {s + 1}", "before": b[s],
             "after": a[s], "diff": a[s] - b[s], "games_before": G, "games_after": G}
            for c, (b, a) in KNOWN.items() for s in range(len(b))]
    return PanelComparison("middle-ages", pl.DataFrame(rows), list(KNOWN), "seat", 7, 0.01)


def _expected(shares, fair: float) -> tuple[int, float]:
    """The seat (from 1) the table must name and its signed gap: the largest |share − fair|, equal
    gaps (as printed to 9 decimals) going to the seat above fair, then to the lowest seat."""
    gaps = [round(abs(x - fair), 9) for x in shares]
    tied = [s for s in range(len(shares)) if gaps[s] == max(gaps)]
    s = min(tied, key=lambda k: (not shares[k] > fair, k))
    return s + 1, shares[s] - fair


_CELL = re.compile(r"^Seat (\d) ([+−])?(\d+\.\d+) pp \(size (\d+\.\d+) to (\d+\.\d+)\)$")


def _check_cell(text: str, seat: int, signed_gap: float) -> None:
    """One "Largest gap" cell of the table: the seat, and the gap with its sign, as computed."""
    m = _CELL.match(text)
    assert m, text
    assert int(m.group(1)) == seat, (text, seat)
    value = float(m.group(3)) * (-1 if m.group(2) == "−" else 1)
    half = 0.5 * 10 ** -len(m.group(3).split(".")[1])
    assert abs(value - 100 * signed_gap) <= half + 1e-9, (text, signed_gap)
    if abs(100 * signed_gap) >= 2 * half:          # a gap that does not print as 0 carries its sign
        assert m.group(2) == ("+" if signed_gap > 0 else "−"), (text, signed_gap)


def test_a_tie_goes_to_the_seat_above_fair_and_the_gap_is_signed_from_its_side():
    from reports.panel import balance_table

    c = _known_comparison()
    bal = seat_balance(c)
    table = balance_table(bal, c.smallest)
    assert table["Cell"].to_list() == list(KNOWN)
    for k, (cell, (b, a)) in enumerate(KNOWN.items()):
        fair = 1 / len(b)
        r = bal.row(k, named=True)
        for when, shares, shown in (("before", b, table["Largest gap before"][k]),
                                    ("after", a, table["Largest gap after"][k])):
            seat, signed_gap = _expected(shares, fair)
            assert r[when + "_seat"] == seat, (cell, when, r[when + "_seat"], seat)
            assert r[when + "_signed_gap"] == pytest.approx(signed_gap, abs=1e-12), (cell, when)
            assert r[when] == pytest.approx(abs(signed_gap), abs=1e-12)
            _check_cell(shown, seat, signed_gap)
    # the review's cell, read as a designer would: Seat 1 above fair before and after, not "Seat 2"
    assert table["Largest gap before"][0].startswith("Seat 1 +6.5 pp (size ")
    assert table["Largest gap after"][0].startswith("Seat 1 +6.1 pp (size ")
    assert table["Largest gap before"][1].startswith("Seat 2 +6.5 pp (size ")
    # 3 seats: the largest gap after is below fair (Seat 2, 30.0% against 33.3%): said with its sign
    assert table["Largest gap after"][2].startswith("Seat 2 −3.3")


# ---------------------------------------------------------------------------------------------
# a 2-player panel written from rows, through the page and the two-run before/after
# ---------------------------------------------------------------------------------------------

# per cell, Seat 1's wins out of N games before and after (Seat 2 wins the others)
WINS = {"balanced": (226, 176), "greedy": (174, 224)}
N = 400


def _panels(tmp_path):
    out = {"base": tmp_path / "base", "variant": tmp_path / "variant"}
    rng = np.random.default_rng(3)
    for k, (bot, counts) in enumerate(WINS.items()):
        for side, first, sha in (("base", counts[0], "before"), ("variant", counts[1], "after")):
            winner = np.ones(N, int)
            winner[rng.choice(N, size=first, replace=False)] = 0
            game, seat = np.repeat(np.arange(N), 2), np.tile(np.arange(2), N)
            win = (seat == np.repeat(winner, 2)).astype(float)
            write_run(out[side] / f"cell-{k}", {"game": game, "seat": seat, "strategy": [bot] * (2 * N),
                                                "score": rng.integers(0, 30, size=2 * N), "win_share": win,
                                                "rank": np.where(win > 0, 1, 2)},
                      {"game": np.arange(N), "n_players": np.full(N, 2), "reshuffles": np.zeros(N, int)},
                      seed=7, strategies=[bot] * 2, rules_sha256=sha, rules_name=sha)
    return out["base"], out["variant"]


def _shares(run) -> list[float]:
    """Each seat's win share (seat 1 first), from the run's players.parquet."""
    p = pl.read_parquet(run / "players.parquet").group_by("seat").agg(
        pl.col("win_share").cast(pl.Float64).sum().alias("wins"), pl.len().alias("games")).sort("seat")
    return (p["wins"] / p["games"]).to_list()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_two_player_panel_page_names_the_seat_above_fair_with_its_sign(tmp_path, undrawn):
    # (the page's words and balance.csv are read: its figure need not be drawn, ``undrawn``; a
    # panel before/after's change figure is drawn in test_review_l_panel_rules.py)
    from reports.panel import build_panel_comparison_report

    base, variant = _panels(tmp_path)
    build_panel_comparison_report(base, variant, tmp_path / "r")
    page = html.unescape(re.sub(r"<[^>]+>", " ", (tmp_path / "r" / "report.html").read_text(encoding="utf-8")))
    page = re.sub(r"\s+", " ", page)
    section = page[page.index("Largest gap from fair, before and after"):]
    bal = pl.read_csv(tmp_path / "r" / "balance.csv")
    for k in range(len(WINS)):
        b, a = _shares(base / f"cell-{k}"), _shares(variant / f"cell-{k}")
        assert b[0] + b[1] == pytest.approx(1) and abs(b[0] - 0.5) == pytest.approx(abs(b[1] - 0.5))  # a tie
        row = bal.row(k, named=True)
        for when, shares in (("before", b), ("after", a)):
            seat, signed_gap = _expected(shares, 0.5)
            assert shares[seat - 1] > 0.5
            # balance.csv counts seats from 0, its label as the page says it (review s50 docs #1)
            assert row[when + "_seat"] == seat - 1 and row[when + "_seat_label"] == f"Seat {seat}"
            assert row[when + "_signed_gap"] == pytest.approx(signed_gap)
        # the page's row: "2p 2×balanced 50% Seat 1 +6.5 pp (size … ) Seat 2 +6.0 pp (size …) …"
        m = re.search(re.escape(row["cell"]) + r" 50% (Seat \d [+−]?\d+\.\d+ pp \(size [\d.]+ to [\d.]+\)) "
                      r"(Seat \d [+−]?\d+\.\d+ pp \(size [\d.]+ to [\d.]+\))", section)
        assert m, (row["cell"], section[:800])
        _check_cell(m.group(1), *_expected(b, 0.5))
        _check_cell(m.group(2), *_expected(a, 0.5))


def test_the_two_run_before_after_names_the_same_seat(tmp_path):
    """reports/text.py's "Toward or away from a fair seat share" reads run_pair_balance, which is
    seat_balance for one cell: its seat is the one above fair too."""
    from analysis import analyse, open_runs
    from analysis.compare import compare_runs
    from analysis.panel_compare import run_pair_balance

    base, variant = _panels(tmp_path)
    for k in range(len(WINS)):
        b, v = open_runs([base / f"cell-{k}"]), open_runs([variant / f"cell-{k}"])
        tb, tv = analyse(b), analyse(v)
        r = run_pair_balance(compare_runs(b, v, tb, tv).table, tb, tv, 2).row(0, named=True)
        for when, run in (("before", base), ("after", variant)):
            seat, signed_gap = _expected(_shares(run / f"cell-{k}"), 0.5)
            assert (r[when + "_seat"], r[when + "_signed_gap"]) == (seat, pytest.approx(signed_gap)), (k, when)


# ---------------------------------------------------------------------------------------------
# #7: the legend beside the axes
# ---------------------------------------------------------------------------------------------

def _interval_comparison() -> PanelComparison:
    """Three cells of three seats with wide intervals down to the bottom right of the axes (where
    "best" had put the box), as panel_comparison gives them."""
    rows = [("2p 2×balanced", "Seat 1", 0.55, 0.556, 0.006, -0.035, 0.047, 0.9),
            ("2p 2×balanced", "Seat 2", 0.45, 0.444, -0.006, -0.047, 0.035, 0.9),
            ("3p 3×balanced", "Seat 1", 0.33, 0.331, 0.001, -0.040, 0.044, 0.9),
            ("3p 3×balanced", "Seat 2", 0.33, 0.331, 0.001, -0.040, 0.042, 0.9),
            ("3p 3×balanced", "Seat 3", 0.34, 0.338, -0.002, -0.044, 0.040, 0.9),
            ("3p 3×collector", "Seat 1", 0.30, 0.305, 0.005, -0.035, 0.046, 0.9),
            ("3p 3×collector", "Seat 2", 0.32, 0.300, -0.020, -0.061, 0.020, 0.5),
            ("3p 3×collector", "Seat 3", 0.38, 0.395, 0.015, -0.024, 0.054, 0.6)]
    t = pl.DataFrame([{"cell": c, "players": int(c[0]), "item": i, "key": i, "before": b, "after": a, "diff": d,
                       "size_low": lo, "size_high": hi, "p_adjusted": p, "significant": p < 0.05,
                       "paired": True, "note": None, "games_before": G, "games_after": G,
                       "seed_before": 5, "seed_after": 5, "unpaired_why": ""}
                      for c, i, b, a, d, lo, hi, p in rows], schema_overrides={"note": pl.String})
    verdict = stats.practical(t["diff"].to_numpy(), t["size_low"].to_numpy(), t["size_high"].to_numpy(),
                              0.01, clear=t["significant"].to_numpy())
    t = t.with_columns(pl.Series("verdict", list(verdict), dtype=pl.String))
    return PanelComparison("medievallons", t, ["2p 2×balanced", "3p 3×balanced", "3p 3×collector"], "seat", 8, 0.01)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_change_figure_legend_is_beside_the_axes_and_inside_the_saved_image():
    import io

    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    from reports.figures.common import DPI, RC, render
    from reports.panel import change_figure

    with matplotlib.rc_context(RC):
        fig = change_figure(_interval_comparison())
        ax = fig.axes[0]
        legend = ax.get_legend()
        assert legend is not None and len(legend.get_texts()) == 4         # 3 cells and the dashed line
        png = render(fig, "png")
        # drawn as render() draws it (the report's PNG), then measured at that size
        canvas = FigureCanvasAgg(fig)
        fig.dpi = DPI
        canvas.draw()
        renderer = canvas.get_renderer()
        box, area, page = legend.get_window_extent(renderer), ax.get_window_extent(renderer), fig.bbox
    width, height = Image.open(io.BytesIO(png)).size
    # the saved image is the figure's own area (no bbox cropping that would cut a legend off)
    assert (width, height) == (round(page.width), round(page.height))
    assert not box.overlaps(area), (box, area)                             # not over a bar or whisker
    assert box.x0 >= area.x1, (box, area)                                   # beside it, on the right
    assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1, (box, page)
