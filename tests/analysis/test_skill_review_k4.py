"""Review K #4: the page's comparison section gave each rules' largest gap between two seats its 95%
interval ("4.4 pp (0.0 to 9.0)") while the trend sentence and the table gave the same gap its
adjusted 97.5% one ("4.4 pp (0.0 to 9.5)"); and against.csv wrote "not shown" where the page says
"no clear change". One gap now has one interval (the adjusted one, named with its level) wherever it
is shown, and the files write the page's words."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

from analysis.skill_against import against, against_words, written
from analysis.stats import NOT_SHOWN
from cli import _run

from undrawn_figures import skill_pages_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module", autouse=True)
def pages_undrawn():
    with skill_pages_undrawn():
        yield


def _table(gap: float, low95: float, high95: float, low_adj: float, high_adj: float,
           shares=(0.25, 0.25, 0.25, 0.25)) -> pl.DataFrame:
    rows = [{"cell": "4p x", "players": 4, "budget": 0, "part": "all", "seat": s, "role": "player",
             "games": 1500, "win_share": w, "win_share_balance": 1 - gap,
             "win_share_balance_low": 1 - high95, "win_share_balance_high": 1 - low95,
             "win_share_balance_low_adjusted": 1 - high_adj, "win_share_balance_high_adjusted": 1 - low_adj,
             "adjusted_level": 0.975}
            for s, w in enumerate(shares)]
    return pl.DataFrame(rows)


def test_the_comparison_reads_each_gaps_adjusted_interval_and_names_its_level():
    # (shares whose largest gap is the table's: the sentence prints the gap as the difference of
    # the shares as printed, review s47)
    before = _table(0.069, 0.023, 0.115, 0.018, 0.120, shares=(0.29, 0.221, 0.25, 0.239))
    after = _table(0.044, 0.0, 0.090, 0.0, 0.095, shares=(0.27, 0.24, 0.26, 0.226))
    t = against(before, after, 0.01)
    assert (t["after_gap_low"][0], t["after_gap_high"][0]) == (pytest.approx(0.0), pytest.approx(0.095))
    assert t["gap_level"][0] == pytest.approx(0.975)
    words = against_words(t, "a", "b")
    assert "4.4 pp (0.0 to 9.5)" in words and "(0.0 to 9.0)" not in words, words
    assert "each with the adjusted interval of its own table (97.5%, the level its trend sentence reads its first and last budgets at: two budgets compared" in words
    assert "95% interval" not in words


def test_the_files_write_the_pages_verdict_words():
    t = against(_table(0.0, 0.0, 0.05, 0.0, 0.06), _table(0.0, 0.0, 0.05, 0.0, 0.06), 0.01)
    assert set(t["verdict"]) == {NOT_SHOWN}
    assert set(written(t)["verdict"]) == {"no clear change"}


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    root = tmp_path_factory.mktemp("k4")
    base = ["skill", "--budgets", "0,1", "--games", "60", "--seed", "3"]
    assert _run(base + ["--out", str(root / "shipped")]) == 0
    assert _run(base + ["--set", "setup.start_coins=[0,1,2,3]", "--out", str(root / "fix"),
                        "--against", str(root / "shipped")]) == 0
    return root / "fix"


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_one_gap_has_one_interval_on_the_page_and_the_csv_has_the_pages_words(compared):
    page = html.unescape((compared / "report.html").read_text())
    table = pl.read_parquet(compared / "skill.parquet").filter(pl.col("part") == "all")
    for b in (0, 1):
        r = table.filter(pl.col("budget") == b).row(0, named=True)
        # the gap as the page prints it: the difference of the largest and smallest shares as
        # printed (halves away from zero; review s47: one figure per gap on the page)
        from decimal import ROUND_HALF_UP, Decimal

        printed = [float(Decimal(repr(100 * w)).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
                   for w in table.filter(pl.col("budget") == b)["win_share"]]
        gap = f"{max(printed) - min(printed):.1f} pp"
        # every place the page gives this rules' gap at this budget, its interval
        shown = set(re.findall(re.escape(gap) + r" \(([−\d.]+ to [−\d.]+)\)", page))
        adjusted = (f"{100 * (1 - r['win_share_balance_high_adjusted']):.1f} to "
                    f"{100 * (1 - r['win_share_balance_low_adjusted']):.1f}")
        assert shown == {adjusted}, (b, shown, adjusted)
    csv = pl.read_csv(compared / "against.csv")
    assert NOT_SHOWN not in set(csv["verdict"])
    assert set(csv["verdict"]) <= {"no clear change", "clear but small", "clear, may matter",
                                   "clear and large enough to matter"}


def test_a_comparison_written_before_the_adjusted_gap_is_read_with_it_or_not_described(compared, tmp_path):
    """An against.parquet without ``gap_level`` held each gap's 95% interval: the page makes the
    gaps again from the two skill tables (the adjusted interval), or, with the other directory
    gone, describes no gap rather than a 95% interval named as the adjusted one."""
    import json
    import shutil

    from reports.skill import against_reading, against_sentence
    from simcore import games as registry

    d = tmp_path / "old"
    shutil.copytree(compared, d)
    new = pl.read_parquet(d / "against.parquet")
    old = new.drop("gap_level").with_columns(pl.col("after_gap_low") - 0.01, pl.col("before_gap_high") + 0.01)
    old.write_parquet(d / "against.parquet")
    q = json.loads((d / "skill.json").read_text())
    spec = registry.get(q["game"])
    cmp = against_reading(d, q, spec)[0]
    for c in ("after_gap_low", "before_gap_high", "gap_level"):
        assert cmp[c].to_list() == pytest.approx(new[c].to_list()), c
    q["against"]["dir"] = str(tmp_path / "gone")
    cmp = against_reading(d, q, spec)[0]
    assert "largest gap between two seats" not in against_sentence(cmp, q, spec)
