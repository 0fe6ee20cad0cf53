"""``balance skill --against DIR``: a fix's effect on every seat, budget by budget, against a skill
directory of other rules. The intervals are Newcombe's (checked against statsmodels' own), they hold
together over the family (coverage by simulation), the words follow the intervals (holds, reverses,
cannot tell), and the command refuses what it cannot compare before --out is touched."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep

from analysis.skill_against import against, against_words, family_level
from analysis.stats import LARGE, MAY_MATTER, NOT_SHOWN, SMALL, newcombe, score_interval
from cli import _run

from undrawn_figures import skill_pages_undrawn


def _table(shares: dict[int, list[float]], games: int, cell: str = "4p 4×balanced") -> pl.DataFrame:
    """A skill table's ``all`` part (and a ``one`` part the comparison must ignore): budget -> each
    seat's win share."""
    rows = []
    for b, ws in shares.items():
        for part in ("all", "one"):
            for s, w in enumerate(ws):
                rows.append({"cell": cell, "players": len(ws), "budget": b, "part": part, "seat": s,
                             "role": "player", "games": games,
                             "win_share": w if part == "all" else 0.9})
    return pl.DataFrame(rows)


def test_the_interval_is_newcombes_at_the_family_level():
    before = _table({0: [0.22, 0.24, 0.29, 0.25], 16: [0.30, 0.27, 0.24, 0.19]}, 1000)
    after = _table({0: [0.28, 0.20, 0.27, 0.25], 16: [0.31, 0.22, 0.26, 0.21]}, 800)
    t = against(before, after, 0.01)
    assert t.height == 8 and t["level"].unique().to_list() == [pytest.approx(1 - 0.05 / 8)]
    for r in t.iter_rows(named=True):
        lo, hi = confint_proportions_2indep(r["after_win_share"] * 800, 800,
                                            r["before_win_share"] * 1000, 1000,
                                            method="newcomb", compare="diff", alpha=0.05 / 8)
        assert r["change_low"] == pytest.approx(lo, abs=1e-9)
        assert r["change_high"] == pytest.approx(hi, abs=1e-9)
        assert r["change"] == pytest.approx(r["after_win_share"] - r["before_win_share"])


def test_the_family_holds_together_at_95_percent():
    """Eight seat-budget comparisons of binomial samples: all eight intervals (Newcombe's at the
    family's level, as :func:`against` makes them: the test above) cover their true changes in at
    least ~95% of families (20,000 families; Monte Carlo SE 0.15 pp)."""
    rng = np.random.default_rng(7)
    level = family_level(8)
    p0 = np.array([0.15, 0.22, 0.30, 0.33, 0.20, 0.25, 0.28, 0.27])
    p1 = p0 + np.array([0.05, -0.03, 0.0, 0.02, -0.05, 0.0, 0.04, -0.02])
    for n in (60, 200, 1000):
        x0 = rng.binomial(n, p0, size=(20000, 8))
        x1 = rng.binomial(n, p1, size=(20000, 8))
        low, high = newcombe(x1 / n, *score_interval(x1, n, level), x0 / n, *score_interval(x0, n, level))
        covered = np.all((low <= p1 - p0) & (p1 - p0 <= high), axis=1).mean()
        assert covered >= 0.945, (n, covered)


def test_only_budgets_both_played_are_compared_and_one_parts_are_ignored():
    before = _table({0: [0.25] * 4, 4: [0.25] * 4}, 500)
    after = _table({0: [0.25] * 4, 4: [0.25] * 4, 16: [0.25] * 4}, 500)
    t = against(before, after, 0.01)
    assert sorted(set(t["budget"])) == [0, 4] and t.height == 8
    assert family_level(8) == pytest.approx(t["level"][0])
    assert set(t["verdict"]) == {NOT_SHOWN}
    # equal shares everywhere: the same games, said so (no bounds of noise after it)
    same = against_words(t, "the shipped rules", "these rules")
    assert "these rules play the same games" in same and "not excluded" not in same
    moved = against(before, _table({0: [0.26, 0.25, 0.25, 0.24], 4: [0.25] * 4}, 500), 0.01)
    assert "no seat's win share changes clearly (changes of up to ±" in against_words(moved, "a", "b")


def _words(last_seat1: float) -> tuple[pl.DataFrame, str]:
    before = _table({0: [0.20, 0.30, 0.25, 0.25], 64: [0.20, 0.30, 0.25, 0.25]}, 4000)
    after = _table({0: [0.30, 0.20, 0.25, 0.25], 64: [last_seat1, 0.30, 0.25, 0.25]}, 4000)
    t = against(before, after, 0.01)
    return t, against_words(t, "the shipped rules (skill-shipped)", "these rules (best_rules.toml)")


def test_a_change_that_holds_reverses_or_fades_is_said_so():
    t, held = _words(0.28)
    r = t.filter((pl.col("budget") == 0) & (pl.col("seat") == 0)).row(0, named=True)
    assert r["verdict"] == LARGE and r["change_low"] >= 0.01
    assert held.startswith("These rules (best_rules.toml) against the shipped rules (skill-shipped)")
    assert "At budget 64 the change of seat 1 holds: +8.0 pp" in held
    assert "At budget 64 these games cannot tell whether the change of seat 2 holds: seat 2 0.0 pp" in held
    last2 = t.filter((pl.col("budget") == 64) & (pl.col("seat") == 1)).row(0, named=True)
    assert f"at most {-100 * last2['change_low']:.1f} pp in the same direction" in held   # seat 2 fell
    assert "at 99.38%" in held and "8 seat and budget comparisons" in held
    _, reversed_ = _words(0.12)
    assert "At budget 64 the change of seat 1 reverses: −8.0 pp" in reversed_
    t, faded = _words(0.205)
    assert t.filter((pl.col("budget") == 64) & (pl.col("seat") == 0))["verdict"][0] == NOT_SHOWN
    assert "At budget 64 these games cannot tell whether the changes of seats 1 and 2 hold" in faded
    assert "holds:" not in faded and "reverse" not in faded


def test_seats_that_move_at_the_largest_budget_only_are_named():
    before = _table({0: [0.25] * 4, 64: [0.25] * 4}, 4000)
    after = _table({0: [0.25] * 4, 64: [0.25, 0.25, 0.35, 0.15]}, 4000)
    words = against_words(against(before, after, 0.01), "a", "b")
    assert "at budget 0: no seat's win share changes clearly (changes of up to ±" in words
    assert "At budget 64 the rules move seats 4 and 3: seat 4 −10.0 pp" in words, words


def test_each_clear_change_says_where_the_seat_moved_against_the_fair_share():
    before = _table({0: [0.20, 0.30, 0.25, 0.20]}, 4000)
    after = _table({0: [0.24, 0.34, 0.16, 0.32]}, 4000)
    words = against_words(against(before, after, 0.01), "a", "b", fair=lambda players: 1 / players)
    assert "seat 1 +4.0 pp" in words and "20.0% → 24.0%, toward the fair 25%" in words
    assert "30.0% → 34.0%, away from the fair 25%" in words
    assert "25.0% → 16.0%, away from the fair 25%" in words
    assert "20.0% → 32.0%, past the fair 25%: from 5.0 pp below to 7.0 pp above" in words
    assert "fair" not in against_words(against(before, after, 0.01), "a", "b")     # no fair share given


def test_each_rules_largest_gap_is_described_at_every_budget():
    def with_gap(t, gap, low, high):
        # the 95% interval (wider-looking stand-in numbers) must not be read: the gap's interval is
        # the adjusted one each rules' own trend and tables give (review K #4)
        return t.with_columns(pl.lit(1 - gap).alias("win_share_balance"),
                              pl.lit(1 - high + 0.01).alias("win_share_balance_low"),
                              pl.lit(1 - low - 0.01).alias("win_share_balance_high"),
                              pl.lit(1 - high).alias("win_share_balance_low_adjusted"),
                              pl.lit(1 - low).alias("win_share_balance_high_adjusted"),
                              pl.lit(0.975).alias("adjusted_level"))
    before = with_gap(_table({0: [0.20, 0.30, 0.25, 0.25]}, 4000), 0.10, 0.05, 0.15)
    after = with_gap(_table({0: [0.24, 0.26, 0.25, 0.25]}, 4000), 0.02, 0.0, 0.06)
    t = against(before, after, 0.01)
    assert t["before_gap"].to_list() == [pytest.approx(0.10)] * 4
    words = against_words(t, "the shipped rules (s)", "these rules (f)", before_short="shipped",
                          after_short="fix")
    assert ("the largest gap between two seats' win shares, shipped → fix, each with the adjusted "
            "interval of its own table (97.5%, the level its trend sentence reads its first and last "
            "budgets at: two budgets compared; a description of each rules, "
            "not a test of their difference: the seats' changes below are that): at budget 0: 10.0 pp "
            "(5.0 to 15.0) → 2.0 pp (0.0 to 6.0).") in words, words


def test_with_roles_the_first_roles_share_leads_at_every_budget():
    before = _table({0: [0.01, 0.33, 0.33, 0.33], 16: [0.01, 0.33, 0.33, 0.33]}, 400)
    after = _table({0: [0.02, 0.33, 0.32, 0.33], 16: [0.10, 0.30, 0.30, 0.30]}, 400).with_columns(
        pl.when(pl.col("seat") == 0).then(pl.lit("seigneur")).otherwise(pl.lit("censitaire")).alias("role"))
    words = against_words(against(before, after, 0.01), "a", "b", roles_alike=False)
    assert "the Seigneur's win share: budget 0: 1.00% → 2.00%, +1.00 pp (" in words      # small: 2 decimals
    assert "no clear change; budget 16: 1.0% → 10.0%, +9.0 pp (" in words
    assert "At budget 16 the rules move seat 1 (Seigneur): +9.0 pp (" in words      # named once


def test_rules_that_play_the_same_games_and_budgets_played_on_one_side_are_said_so():
    t = _table({0: [0.25, 0.2, 0.3, 0.25], 4: [0.25, 0.2, 0.3, 0.25]}, 300)
    words = against_words(against(t, t, 0.01), "the shipped rules (s)", "these rules (f)", only_after=[32])
    assert "these rules play the same games" in words
    assert "Budget 32 was not played under the shipped rules (s): not compared" in words


def test_a_change_that_may_matter_is_worded_so():
    before = _table({0: [0.25, 0.25, 0.25, 0.25]}, 20000)
    after = _table({0: [0.265, 0.245, 0.245, 0.245]}, 20000)
    t = against(before, after, 0.01)
    r = t.filter(pl.col("seat") == 0).row(0, named=True)
    assert r["change_low"] > 0 and r["change_low"] < 0.01 < r["change_high"] and r["verdict"] == MAY_MATTER
    assert "seat 1 +1.5 pp" in against_words(t, "a", "b") and "clear, may matter" in against_words(t, "a", "b")


def test_with_roles_each_seat_is_named_with_its_role():
    before = _table({0: [0.01, 0.33, 0.33, 0.33]}, 4000).with_columns(
        pl.when(pl.col("seat") == 0).then(pl.lit("seigneur")).otherwise(pl.lit("censitaire")).alias("role"))
    after = before.with_columns(pl.when((pl.col("seat") == 0) & (pl.col("part") == "all"))
                                .then(pl.lit(0.10)).otherwise(pl.col("win_share")).alias("win_share"))
    words = against_words(against(before, after, 0.01), "a", "b", roles_alike=False)
    assert "seat 1 (Seigneur) +9.0 pp" in words and "the other 3 seats: no clear change" in words


# --- the command ------------------------------------------------------------------------------

SETTING = "setup.start_coins=[0,0,40,0]"     # seat 3 starts 40 coins ahead: it wins clearly more


@pytest.fixture(scope="module", autouse=True)
def pages_undrawn():
    """The commands' pages get 1x1 stand-ins for their figures (undrawn_figures.py): these tests
    read the tables, words and file names, never the pixels (~0.8 s of CPU a figure drawn). The
    comparison figure is measured and drawn by test_the_comparison_figure_passes_the_figure_checklist,
    the budget figure measured by test_report_skill.py's checklist test and drawn by the skill
    commands of tests/reliability/test_designer_inputs.py."""
    with skill_pages_undrawn():
        yield


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill") / "shipped"
    assert _run(["skill", "--budgets", "0,1", "--games", "60", "--seed", "3", "--out", str(out)]) == 0
    return out


FIX = ["skill", "--budgets", "0,1", "--games", "60", "--seed", "3", "--set", SETTING]


@pytest.fixture(scope="module")
def fixed(shipped):
    out = shipped.parent / "fix"
    assert _run(FIX + ["--out", str(out), "--against", str(shipped)]) == 0
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_against_writes_the_comparison_of_the_two_directories(shipped, fixed):
    out = fixed
    cmp = pl.read_csv(out / "against.csv")
    mine = pl.read_parquet(out / "skill.parquet").filter(pl.col("part") == "all")
    theirs = pl.read_parquet(shipped / "skill.parquet").filter(pl.col("part") == "all")
    for r in cmp.iter_rows(named=True):
        key = (pl.col("budget") == r["budget"]) & (pl.col("seat") == r["seat"])
        assert r["after_win_share"] == pytest.approx(mine.filter(key)["win_share"][0])
        assert r["before_win_share"] == pytest.approx(theirs.filter(key)["win_share"][0])
    assert cmp.height == 8
    # seats count from 0 in the files, from 1 on the pages: the label beside it is the page's
    assert cmp.columns.index("seat_label") == cmp.columns.index("seat") + 1
    assert cmp["seat_label"].to_list() == [f"Seat {s + 1}" for s in cmp["seat"]]
    seat3 = cmp.filter(pl.col("seat") == 2)
    assert (seat3["change"] > 0).all()          # 40 coins ahead: seat 3 wins more at both budgets
    q = json.loads((out / "skill.json").read_text())
    assert q["against"]["dir"] == str(shipped) and q["budgets"] == [0, 1]
    page = (out / "report.html").read_text()
    assert "Against the shipped rules" in page and (out / "figures" / "against.png").is_file()
    # the page leads with the comparison: its title names both rules, its section comes before
    # these rules' own trend
    assert "<h1>Middle-Ages, 4 players: rules.toml with --set setup.start_coins=[0,0,40,0] against the " \
           "shipped rules as play gets stronger</h1>" in page
    assert page.index("Against the shipped rules") < page.index("These rules as play gets stronger")
    assert (out / "against.txt").read_text().startswith("These rules (rules.toml with --set "
                                                        "setup.start_coins=[0,0,40,0]) against")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_comparison_figure_passes_the_figure_checklist(fixed):
    """The page's figure of the --against comparison (a stand-in in the other tests here), built from
    the directory as the page builds it, measured and drawn: no breach of the figure checklist, one
    series per seat with a point per budget, the changes in pp; its PNG and SVG as the page writes
    them (``render``, the real one: this test's drawing, under `make test-slow`)."""
    import io
    import xml.etree.ElementTree as ET

    from PIL import Image

    from reports.figures.checklist import problems
    from reports.figures.common import render
    from reports.skill import against_figure, against_reading
    from simcore import games as registry

    q = json.loads((fixed / "skill.json").read_text())
    spec = registry.get(q["game"])
    cmp, _, smallest = against_reading(fixed, q, spec)
    fig = against_figure(cmp, spec.seat_roles(4), smallest)
    assert problems(fig) == []
    (ax,) = fig.axes
    series = [c for c in ax.containers if len(c.lines[0].get_xdata()) == 2]
    assert len(series) == 4
    for seat, c in enumerate(series):           # seat by seat, budget by budget: the table's changes
        want = 100 * cmp.filter(pl.col("seat") == seat).sort("budget")["change"].to_numpy()
        assert np.allclose(c.lines[0].get_ydata(), want), seat
    assert "pp" in ax.get_ylabel()
    png = Image.open(io.BytesIO(render(fig, "png")))
    assert png.format == "PNG" and min(png.size) > 200
    svg = ET.fromstring(render(fig, "svg"))
    assert svg.tag.endswith("svg") and len(svg.findall(".//{http://www.w3.org/2000/svg}text")) > 5


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_call_without_against_removes_the_earlier_comparison(fixed, tmp_path, capsys):
    import shutil

    out = tmp_path / "fix"
    shutil.copytree(fixed, out)
    capsys.readouterr()
    assert _run(FIX + ["--out", str(out)]) == 0          # the same question: nothing played again
    assert "the comparison with other rules in" in capsys.readouterr().err
    assert not (out / "against.csv").exists() and "against" not in json.loads((out / "skill.json").read_text())
    assert not list((out / "figures").glob("against*"))
    assert "Against the shipped rules" not in (out / "report.html").read_text()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_reports_skill_section_carries_the_comparison_worded_by_its_smallest_difference(fixed):
    from reports.sections import FigureSet
    from reports.skill import skill_section

    saved = pl.read_parquet(fixed / "against.parquet")
    figs = FigureSet()
    section = skill_section(fixed, figs, players=4)
    # the trend, then the comparison one sentence per bullet (the rules and level, the gap, each budget)
    assert section.sentences[1].startswith("These rules (rules.toml")
    assert any(x.startswith("At budget 0") for x in section.sentences[2:])
    assert "skill_against" in figs and "skill_against" in section.figures
    title, table = section.tables[-1]
    assert title.startswith("Against the shipped rules")
    assert table["verdict"].to_list() == [
        "no clear change" if v == NOT_SHOWN else v for v in saved["verdict"].to_list()]
    # seat 3's change, clear and large at the game's 1 pp, is clear but small against a report's 90 pp
    assert set(table.filter(pl.col("seat") == 3)["verdict"]) == {LARGE}
    wide = skill_section(fixed, FigureSet(), players=4, smallest={"share": 0.9}).tables[-1][1]
    assert set(wide.filter(pl.col("seat") == 3)["verdict"]) == {SMALL}


@pytest.mark.parametrize("args, words", [
    (["--budgets", "0,1"], "same rules"),                                 # nothing to compare
    (["--budgets", "0,1", "--set", "effects.caserne_payment=2"], "written otherwise"),   # the file's value
    (["--budgets", "2", "--set", SETTING], "none of 2"),                  # no budget in common
    (["--budgets", "0", "--players", "3", "--set", SETTING], "another panel"),
])
def test_what_cannot_be_compared_is_one_line_before_out_is_made(shipped, tmp_path, capsys, args, words):
    out = tmp_path / "fix"
    capsys.readouterr()
    assert _run(["skill", "--games", "8", "--out", str(out), "--against", str(shipped), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--against" in err[0] and words in err[0], err
    assert not out.exists()


def test_against_a_directory_that_is_not_a_skill_or_is_out_itself(shipped, tmp_path, capsys):
    capsys.readouterr()
    assert _run(["skill", "--games", "8", "--budgets", "0", "--set", SETTING, "--out", str(tmp_path / "x"),
                 "--against", str(tmp_path)]) == 2
    assert "not a balance skill directory" in capsys.readouterr().err
    assert _run(["skill", "--games", "8", "--budgets", "0", "--set", SETTING, "--out", str(shipped),
                 "--against", str(shipped)]) == 2
    assert "is --out itself" in capsys.readouterr().err


def test_a_before_after_report_takes_the_after_runs_skill_directory(shipped, fixed):
    """``balance report BEFORE AFTER --skill DIR``: a skill directory of the after run's rules is
    taken (its comparison is against the before run's); one of neither run's rules is refused,
    naming the runs' rules."""
    from reports.skill import check_skill_dir
    from simcore.errors import UsageError

    ship = json.loads((shipped / "skill.json").read_text())["rules_sha256"]
    fix = json.loads((fixed / "skill.json").read_text())["rules_sha256"]
    assert check_skill_dir(fixed, "middle-ages", [ship, fix])["against"]["rules_sha256"] == ship
    with pytest.raises(UsageError, match="than the report's run"):
        check_skill_dir(fixed, "middle-ages", ship, "rules.toml")
    with pytest.raises(UsageError, match="than any of the report's runs"):
        check_skill_dir(fixed, "middle-ages", [ship, "0" * 64], "a, b")


def test_the_reports_leading_section_gets_a_line_on_the_comparison(fixed, shipped):
    from reports.skill import skill_headline

    line = skill_headline(fixed)
    cmp = pl.read_parquet(fixed / "against.parquet").filter(pl.col("budget") == 1)
    seat3 = cmp.filter(pl.col("seat") == 2).row(0, named=True)
    assert line.startswith("As play gets stronger (balance skill fix: 60 games per budget, every seat "
                           "searching, 4p 4×balanced; against the shipped rules; intervals at "
                           f"{100 * (1 - 0.05 / 8):.4g}%, Bonferroni over 8 seat and budget comparisons "
                           "holding together at 95%): at budget 1 ")
    assert f"seat 3 by {100 * seat3['change']:+.1f} pp".replace("-", "−") in line
    assert "budget 0" not in line               # the report's own tables are the bots' reading
    # no comparison: the trend at the largest budget instead (reports.skill.trend_headline)
    assert skill_headline(shipped).startswith("As play gets stronger (balance skill shipped:")
    assert "against" not in skill_headline(shipped)


def test_the_same_rules_read_are_refused_against_a_directory_written_before_they_were_recorded(
        shipped, tmp_path, capsys):
    """A skill directory without ``rules_data_sha256`` (written before it was recorded): the rules
    it names are read again, so a --set of the file's own value is still refused."""
    import shutil

    old = tmp_path / "old"
    shutil.copytree(shipped, old)
    q = json.loads((old / "skill.json").read_text())
    del q["rules_data_sha256"]
    (old / "skill.json").write_text(json.dumps(q))
    capsys.readouterr()
    assert _run(["skill", "--games", "8", "--budgets", "0", "--set", "effects.caserne_payment=2",
                 "--out", str(tmp_path / "x"), "--against", str(old)]) == 2
    assert "written otherwise" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
