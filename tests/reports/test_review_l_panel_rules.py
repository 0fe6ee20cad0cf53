"""Review L #1: two panels given to `balance report` (a baseline's and a variant's, the same line-ups
under two rule sets) were merged into one "panel of 6 cells" whose finding averaged the before and
the after. Two panel directories now make a before/after of every line-up
(:mod:`analysis.panel_compare`: cells paired by players and line-up, one family over every cell and
seat); cells of different rules mixed otherwise (`--cells` from both) are refused in one line."""

from __future__ import annotations

import csv
import io
import json

import polars as pl
import pytest

from cli import _run
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module")
def panels(tmp_path_factory):
    """The default Middle-Ages panel (3 line-ups of 4 players), 600 games a cell, before and after
    seat 1 starts with 40 coins (MA-1; the others with none): a change seat 1 feels in every
    line-up, by far more than the 1 pp that matters (about +40 pp), and the other seats lose."""
    root = tmp_path_factory.mktemp("review_l_panels")
    for name, extra in (("base", []), ("rich1", ["--set", "setup.start_coins[0]=40"])):
        assert _run(["simulate", "--panel", "default", "--games", "600", "--seed", "3", "--quiet",
                     "--out", str(root / name), *extra]) == 0
    return root


@pytest.fixture(scope="module")
def report_of_both(panels, tmp_path_factory):
    """``balance report BASE RICH1`` of the two panels, once for the module (two tests read it):
    (its directory, what it printed). Its figure is drawn: a drawing of a panel before/after's
    change figure of seats (under `make test-slow`, as the whole file)."""
    from in_process import balance

    out = tmp_path_factory.mktemp("review_l_report") / "r"
    done = balance("report", panels / "base", panels / "rich1", "--out", out)
    return out, done.stdout


def _seat_share(run, seat: int) -> float:
    """A seat's win share from the run's players.parquet (ties split as the rows record them)."""
    p = pl.read_parquet(run / "players.parquet")
    return float(p.filter(pl.col("seat") == seat)["win_share"].mean())


def test_two_panels_give_a_before_after_per_line_up(panels, report_of_both, multipletests):
    base, variant = panels / "base", panels / "rich1"
    r_dir, out = report_of_both
    assert out.startswith("What changed: rich1 changes 1 rule setting of base: setup.start_coins")
    assert "Seat 1 moved in 3 of 3 cells, up in every one (" in out, out
    rows = list(csv.DictReader(io.StringIO((r_dir / "comparison.csv").read_text())))
    assert len(rows) == 3 * 4
    cells = sorted({json.loads((d / "run.json").read_text())["strategies"][0] for d in base.glob("cell-*")})
    assert len(cells) == 3
    for k in range(3):          # every pair against the two cells' own rows
        b, v = base / f"cell-{k}", variant / f"cell-{k}"
        lineup = json.loads((b / "run.json").read_text())["strategies"]
        assert json.loads((v / "run.json").read_text())["strategies"] == lineup
        for seat in range(4):
            r = next(x for x in rows if x["cell"] == f"4p 4×{lineup[0]}" and x["item"] == f"Seat {seat + 1}")
            assert float(r["before"]) == pytest.approx(_seat_share(b, seat), abs=1e-12)
            assert float(r["after"]) == pytest.approx(_seat_share(v, seat), abs=1e-12)
            assert float(r["size_low"]) <= float(r["diff_low"]) <= float(r["diff"]) <= \
                float(r["diff_high"]) <= float(r["size_high"])      # the family's interval is wider
        seat1 = next(x for x in rows if x["cell"] == f"4p 4×{lineup[0]}" and x["item"] == "Seat 1")
        assert seat1["verdict"] == "clear and large enough to matter" and float(seat1["size_low"]) > 0.01
    # one family over the 12 comparisons, checked with scipy and statsmodels: Holm's step-down on
    # the comparisons' own p-values (never below them), and each size interval Bonferroni's: the
    # own 95% interval widened about the change by z(1 − 0.05/24) / z(0.975), each end separately
    from scipy import stats as sps

    p = [float(r["p_value"]) for r in rows]
    reject, holm, _, _ = multipletests(p, alpha=0.05, method="holm")
    widen = sps.norm.ppf(1 - 0.05 / (2 * 12)) / sps.norm.ppf(0.975)
    for r, raw, rej, adj in zip(rows, p, reject, holm):
        d = float(r["diff"])
        assert float(r["p_adjusted"]) == pytest.approx(adj, rel=1e-9, abs=1e-300)
        assert float(r["p_adjusted"]) >= raw
        assert (r["significant"] == "true") == bool(rej)
        assert float(r["size_low"]) == pytest.approx(d - (d - float(r["diff_low"])) * widen, rel=1e-9)
        assert float(r["size_high"]) == pytest.approx(d + (float(r["diff_high"]) - d) * widen, rel=1e-9)
        near = min(abs(float(r["size_low"])), abs(float(r["size_high"])))
        large = rej and float(r["size_low"]) * float(r["size_high"]) > 0 and near >= 0.01
        assert (r["verdict"] == "clear and large enough to matter") == large, r


def test_the_lead_says_the_cells_played_the_same_deals(report_of_both):
    # (what the module's report of the two panels printed: the same command, run once)
    assert ("Every cell's two runs played the same deals (seed 3, 600 games a cell): each change is "
            "paired game by game") in report_of_both[1]


def test_two_panels_of_one_rule_set_on_other_deals_move_no_seat(panels, tmp_path, capsys):
    """The baseline's rules on other deals (seed 4): compared unpaired, said so, no seat moved."""
    other = tmp_path / "base4"
    assert _run(["simulate", "--panel", "default", "--games", "600", "--seed", "4", "--quiet",
                 "--out", str(other)]) == 0
    capsys.readouterr()
    with figures_undrawn():
        assert _run(["report", str(panels / "base"), str(other), "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "played different deals (seed 3 before, 4 after): each cell is compared unpaired" in out
    # 600 games a cell cannot rule out a change of 1 pp: "cannot tell", not "no" (review V #1)
    assert "Cannot tell: no seat's win share moved beyond noise in any of the 3 cells" in out, out
    assert "cannot rule out a change of 1 pp, the smallest difference that matters, in every cell" in out


def test_a_panel_against_itself_is_refused_in_one_line(panels, tmp_path, capsys):
    """Review M #6: it printed "(+nan to +nan pp) … more games per cell would tell", exit 0."""
    capsys.readouterr()
    assert _run(["report", str(panels / "base"), str(panels / "base"), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a panel compared with itself has no before/after" in err, err
    assert not (tmp_path / "r").exists()


def test_a_side_constant_in_a_cell_stays_a_side_outside_the_family(tmp_path, capsys):
    """Review M #1: in a Seigneurial cell where the Seigneur won no game before nor after, the
    comparison fell back to the Censitaires' seats ("Did the seat win rates move … Seat 2, Seat 3
    and Seat 4 moved in no cell"). The harsh lord wins none of 150 games against fair-share
    Censitaires under either rule set, the even lord some: every cell is read by side, the
    constant one named and left out of the family."""
    for name, extra in (("a", []), ("b", ["--set", "track.start_square=2"])):
        assert _run(["simulate", "--game", "seigneurial", "--players", "4", "--lineup",
                     "seigneur=harsh-lord,censitaire=fair-share", "--lineup",
                     "seigneur=even-lord,censitaire=fair-share", "--games", "150", "--seed", "5",
                     "--quiet", "--out", str(tmp_path / name), *extra]) == 0
    import polars as pl

    lords = {}
    for name in ("a", "b"):
        for cell in sorted((tmp_path / name).glob("cell-*")):
            line = json.loads((cell / "run.json").read_text())["strategies"][0]
            won = pl.read_parquet(cell / "games.parquet")["winner_role"]
            lords.setdefault(line, []).append(int((won == "seigneur").sum()))
    assert lords["harsh-lord"] == [0, 0] and sum(lords["even-lord"]) > 0, lords
    capsys.readouterr()
    with figures_undrawn():
        assert _run(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    # (since review N #3 the family also holds each Censitaire seat's share of the Censitaires'
    # wins, 3 a cell: 1 tested side + 6 seat rows = 7; what this test guards is that the cells are
    # read by side, not by the seats' own win shares)
    assert "Did the side win rates move, line-up by line-up?" in out, out
    assert "Seat 2 win share" not in out and "Seat 2, Seat 3 and Seat 4 moved" not in out, out
    assert ("over the 7 comparisons of every cell and side, and of each seat's share of the "
            "Censitaires' wins") in out, out
    assert ("Not tested, the same in every game of both runs: Seigneur side in 4p harsh-lord + "
            "3×fair-share (0.0% before and after).") in out, out
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r" / "comparison.csv").read_text())))
    rows = [r for r in rows if r["metric"] == "role_win_share"]
    assert [r["item"] for r in rows] == ["Seigneur side"] * 2
    harsh = next(r for r in rows if "harsh" in r["cell"])
    assert harsh["verdict"] == "" and harsh["p_value"] == "" and harsh["note"], harsh


def test_cells_of_different_rules_are_refused_in_one_line(panels, tmp_path, capsys):
    base, variant = panels / "base", panels / "rich1"
    out = tmp_path / "page"
    capsys.readouterr()
    assert _run(["report", "--cells", str(base / "cell-0"), str(variant / "cell-0"), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: the cells were played under 2 different rule sets") and \
        err.count("\n") == 1, err
    assert "with --set setup.start_coins[0]=40" in err and "mix a before and an after" in err
    assert f"balance report {base} {variant} --out DIR" in err, err
    assert f"balance report {base / 'cell-0'} {variant / 'cell-0'} --out DIR" in err, err
    assert not out.exists()


def test_each_panel_alone_and_one_line_ups_before_after_still_report(panels, tmp_path):
    with figures_undrawn():
        assert _run(["report", str(panels / "base"), "--out", str(tmp_path / "p")]) == 0
        assert _run(["report", str(panels / "base" / "cell-0"), str(panels / "rich1" / "cell-0"),
                     "--out", str(tmp_path / "ba")]) == 0
    page = (tmp_path / "ba" / "report.html").read_text()
    assert "setup.start_coins" in page            # the before/after's rules diff


def test_each_rows_printed_change_is_its_printed_after_minus_before(panels):
    """Review V #5: the panel before/after's table printed "29.6% | 29.0% | −0.7 pp" (and three more
    rows like it): a change the printed before and after do not give. Each row now takes the
    decimals at which they agree, as the pair page does."""
    from analysis.panel_compare import panel_comparison
    from reports.panel import comparison_table

    t = comparison_table(panel_comparison(panels / "base", panels / "rich1"))
    num = lambda x: float(x.replace("−", "-").replace("%", "").replace(" pp", ""))  # noqa: E731
    checked = 0
    for r in t.iter_rows(named=True):
        if not r["Change"] or not r["Before"]:
            continue
        decimals = len(r["Change"].split(" ")[0].split(".")[-1])
        assert round(num(r["After"]) - num(r["Before"]), decimals) == pytest.approx(num(r["Change"])), r
        checked += 1
    assert checked == t.height == 12
