"""``balance report RUN … --skill DIR`` on a panel's skill directory reads the cell of the report's
own line-up, and its leading line says the level of its intervals (session 58 review, findings 2
and 3).

Finding 2: with the default panel (4p 4×balanced, 4×greedy, 4×eventwise) and runs of 4×greedy, the
lead line read "(…, 4p 4×balanced; against the shipped rules): at budget 4 no seat's win share
changes clearly (up to ±19.4 pp …)" while the greedy cell's own figure was ±23.5, and the section's
figure plotted the 4×balanced cell under a caption that named no cell: the cell was picked by
player count only (every cell has 4 players), or as the comparison's first.

Finding 3: the lead line's intervals are the comparison's Bonferroni ones (99.58% over 12 seat and
budget comparisons in the review), printed without a level on a page that says "Intervals are 95%,
each on its own, unless marked as adjusted".

The expected numbers are computed here from the directory's own ``against.parquet`` (the greedy
cell's rows, the largest budget) and from the family's size, not from the report's functions."""

from __future__ import annotations

import re

import polars as pl
import pytest

from cli import _run

from undrawn_figures import figures_undrawn

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

SETTING = "income.palais.base=4"
GREEDY = "4p 4×greedy"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    d = tmp_path_factory.mktemp("s58_cell")
    for name, extra in (("g_base", []), ("g_fix", ["--set", SETTING])):
        assert _run(["simulate", "-n", "200", "-s", "greedy", "--seed", "5", *extra,
                     "--out", str(d / name), "-q"]) == 0
    skill = ["skill", "--panel", "default", "--budgets", "0,1", "--games", "24", "--seed", "2", "-q"]
    assert _run(skill + ["--out", str(d / "skp_base")]) == 0
    assert _run(skill + ["--set", SETTING, "--against", str(d / "skp_base"), "--out", str(d / "skp_fix")]) == 0
    return d


def _report(played, tmp_path, monkeypatch, runs: list[str], skill: str):
    """The report's page as text, and the cells of the tables its skill figures were drawn from."""
    import reports.skill as rs

    drawn = {}
    budget_figure, against_figure = rs.budget_figure, rs.against_figure

    def budget(table, *a, **k):
        drawn["budget"] = sorted(set(table["cell"]))
        return budget_figure(table, *a, **k)

    def against(table, *a, **k):
        drawn["against"] = sorted(set(table["cell"]))
        return against_figure(table, *a, **k)

    monkeypatch.setattr(rs, "budget_figure", budget)
    monkeypatch.setattr(rs, "against_figure", against)
    out = tmp_path / "rep"
    with figures_undrawn():
        assert _run(["report", *[str(played / r) for r in runs], "--skill", str(played / skill),
                     "--out", str(out)]) == 0
    text = re.sub(r"<[^>]+>", "", (out / "report.html").read_text()).replace("&#x27;", "'")
    return text, drawn


def _lead(text: str) -> str:
    return text[text.index("As play gets stronger"):].split("(its section has")[0]


def test_the_lead_line_reads_the_cell_of_the_reports_line_up(played, tmp_path, monkeypatch):
    text, drawn = _report(played, tmp_path, monkeypatch, ["g_base", "g_fix"], "skp_fix")
    lead = _lead(text)
    cmp = pl.read_parquet(played / "skp_fix" / "against.parquet")
    assert set(cmp["cell"]) == {"4p 4×balanced", GREEDY, "4p 4×eventwise"}
    top = cmp.filter((pl.col("cell") == GREEDY) & (pl.col("budget") == 1))
    assert top.height == 4
    assert GREEDY in lead and "4×balanced" not in lead, lead
    # no seat's change is clear in 24 games: the bound is the greedy cell's widest interval end
    if "no seat's win share changes clearly" in lead:
        bound = 100 * max(max(abs(a), abs(b)) for a, b in zip(top["change_low"], top["change_high"]))
        assert f"±{bound:.1f} pp not excluded" in lead, (bound, lead)
    # the section's sentence on one searching seat is the greedy cell's, and says so after the
    # trend sentence that names every cell, the eventwise cell last
    assert f"In {GREEDY} (the report's line-up), at budget 1, one searching seat's" in text
    # Ludii's Balance below it too (it names its cell)
    assert f"win shares ({GREEDY}): from budget 0 to budget 1" in text
    # the section's figures are the greedy cell's, and their captions name it
    assert drawn == {"budget": [GREEDY], "against": [GREEDY]}, drawn
    for caption in ("Each seat's win share by search budget", "Each seat's change of win share against"):
        at = text.index(caption)
        assert GREEDY in text[at:at + 300], text[at:at + 300]


def test_the_trend_line_without_a_comparison_reads_the_same_cell(played, tmp_path, monkeypatch):
    text, drawn = _report(played, tmp_path, monkeypatch, ["g_base"], "skp_base")
    lead = text[text.index("As play gets stronger"):][:300]
    assert f"every seat searching, {GREEDY})" in lead, lead
    assert drawn == {"budget": [GREEDY]}, drawn


def test_the_lead_line_states_the_level_of_its_adjusted_intervals(played, tmp_path, monkeypatch):
    text, _ = _report(played, tmp_path, monkeypatch, ["g_base", "g_fix"], "skp_fix")
    lead = _lead(text)
    m = 3 * 2 * 4                       # cells × budgets × seats, all compared together
    level = f"{100 * (1 - 0.05 / m):.4g}%"
    assert level == "99.79%"
    assert f"intervals at {level}" in lead and f"Bonferroni over {m} " in lead, lead
