"""A combat's before/after compares how often the loser's surrender ends it (FF-3 mercy).

Review Q #6 left this out: a designer changing the mercy policy (``--mercy defender:2`` →
``defender:4``) got a before/after of the sides' win shares and scores only, and never read how
often combats ended by mercy, the first thing the policy moves (run.json's ``…_by_mercy`` odds
said it, each run alone). ``by_mercy`` is now the spec's count per game (0 or 1): the comparison
holds the share of combats ended by mercy (no mean row: for a 0/1 count it is the same number),
paired game by game, from the rows or from the statistics alone, and the page leads with it.
Each figure is checked against the games' rows and run.json."""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from simcore import runner

from undrawn_figures import figures_undrawn


def _run(root, name: str, mercy: str, raw: bool = True):
    return runner.simulate("fief-combat", attacker=10, defender=6, terrain="castle", mercy=mercy,
                           games=3000, seed=5, out=root / name, quiet=True, raw=raw)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("mercy")
    return {(m, raw): _run(root, f"{m.replace(':', '')}-{raw}", m, raw)
            for m in ("defender:2", "defender:4") for raw in (True, False)}


def _by_mercy(run) -> float:
    """The share of combats ended by mercy, from the games' rows (cross-checked with run.json)."""
    share = float(pl.read_parquet(run / "games.parquet")["by_mercy"].cast(pl.Float64).mean())
    res = json.loads((run / "run.json").read_text(encoding="utf-8"))["results"]
    counted = (res["p_attacker_wins_by_mercy"]["count"] + res["p_defender_holds_by_mercy"]["count"]) / res["games"]
    assert share == pytest.approx(counted, abs=1e-12)
    return share


def _compare(base, variant):
    rs, vrs = open_runs([base]), open_runs([variant])
    return compare_runs(rs, vrs, analyse(rs), analyse(vrs)).table


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_share_of_combats_ended_by_mercy_is_compared_game_by_game(runs):
    base, variant = runs[("defender:2", True)], runs[("defender:4", True)]
    before, after = _by_mercy(base), _by_mercy(variant)
    assert 0 < before < after < 1                         # the policy moves it
    cmp = _compare(base, variant)
    rows = cmp.filter(pl.col("key") == "by_mercy")
    assert rows["metric"].to_list() == ["count_share"]    # no mean row: for 0 or 1 a game, the same number
    r = rows.row(0, named=True)
    assert r["base"] == pytest.approx(before, abs=1e-12) and r["variant"] == pytest.approx(after, abs=1e-12)
    assert r["label"] == "Games ended by the loser's surrender (mercy granted)"
    # paired: the mean of the per-game differences with its t interval, computed here from the rows
    a = pl.read_parquet(base / "games.parquet").sort("game")["by_mercy"].cast(pl.Float64).to_numpy()
    b = pl.read_parquet(variant / "games.parquet").sort("game")["by_mercy"].cast(pl.Float64).to_numpy()
    from scipy import stats as st

    d = b - a
    half = st.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
    assert r["paired"] and r["diff"] == pytest.approx(d.mean(), abs=1e-12)
    assert (r["diff_low"], r["diff_high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_without_rows_the_statistics_give_the_same_shares(runs):
    """Runs written without rows: the share of each side comes from the statistics (stats.json's
    histogram of the games column), equal to the rows' of the runs that kept them (same seed)."""
    cmp = _compare(runs[("defender:2", False)], runs[("defender:4", False)])
    r = cmp.filter(pl.col("key") == "by_mercy").row(0, named=True)
    assert r["metric"] == "count_share" and not r["paired"]
    assert r["base"] == pytest.approx(_by_mercy(runs[("defender:2", True)]), abs=1e-12)
    assert r["variant"] == pytest.approx(_by_mercy(runs[("defender:4", True)]), abs=1e-12)


def test_the_page_leads_with_the_mercy_endings(runs):
    from reports.text import comparison_headlines, sides_named

    base, variant = runs[("defender:2", True)], runs[("defender:4", True)]
    cmp = _compare(base, variant)
    # a kind of change heads its changes (reports.text.Grouped: the string is the heading, the
    # changes are its items): every sentence the page prints, in order
    lines = [s for x in comparison_headlines(sides_named(cmp, "fief-combat"), "d2", "d4", "points",
                                             game="fief-combat") for s in (str(x), *getattr(x, "items", ()))]
    first = lines[0]
    # no mutual wipe-out here: the outcomes are the sides' win shares, left to the role question
    assert first.startswith("Did the mercy endings move? Yes, by enough to matter (clear after Holm's"), first
    got = re.search(r"the loser's surrender \(mercy granted\) ends the combat in (\d+\.(\d+))% → (\d+\.\d+)% "
                    r"of combats", first)
    assert got is not None, first
    ulp = 10.0 ** -len(got.group(2))
    assert abs(float(got.group(1)) - 100 * _by_mercy(base)) <= ulp / 2 + 1e-9
    assert abs(float(got.group(3)) - 100 * _by_mercy(variant)) <= ulp / 2 + 1e-9
    assert "the attacker's and defender's outcomes are their sides' win shares" in first
    assert lines[1].startswith("Did the role win rates move?")
    # answered first, so not listed again among the changes
    assert "Games ended by the loser's surrender" not in " ".join(lines[2:])


def test_the_rounds_a_combat_lasts_are_compared_in_rounds(runs):
    """A combat's length is in rounds, which the length tables (in turns) leave out; the
    before/after compares its mean ("Mean length", in rounds), paired, from the rows or the
    statistics, and lists it in rounds."""
    from reports.text import comparison_headlines, sides_named

    base, variant = runs[("defender:2", True)], runs[("defender:4", True)]
    a = pl.read_parquet(base / "games.parquet").sort("game")["rounds"].cast(pl.Float64).to_numpy()
    b = pl.read_parquet(variant / "games.parquet").sort("game")["rounds"].cast(pl.Float64).to_numpy()
    for res, x in ((json.loads((base / "run.json").read_text())["results"], a),
                   (json.loads((variant / "run.json").read_text())["results"], b)):
        assert res["expected_rounds"]["mean"] == pytest.approx(x.mean(), rel=1e-12)
    cmp = _compare(base, variant)
    r = cmp.filter(pl.col("metric") == "mean_length").row(0, named=True)
    assert r["key"] == "rounds" and r["paired"]
    assert (r["base"], r["variant"], r["diff"]) == pytest.approx((a.mean(), b.mean(), (b - a).mean()), rel=1e-9)
    unpaired = _compare(runs[("defender:2", False)], runs[("defender:4", False)])
    u = unpaired.filter(pl.col("metric") == "mean_length").row(0, named=True)
    assert not u["paired"] and (u["base"], u["variant"]) == pytest.approx((a.mean(), b.mean()), rel=1e-9)
    # Welch's interval, from the two runs' own t intervals
    from scipy import stats as st

    w = st.ttest_ind(b, a, equal_var=False)
    lo, hi = w.confidence_interval(0.95)
    assert (u["diff_low"], u["diff_high"]) == pytest.approx((lo, hi), rel=1e-6)
    said = [s for x in comparison_headlines(sides_named(cmp, "fief-combat"), "d2", "d4", "points",
                                            game="fief-combat") for s in (str(x), *getattr(x, "items", ()))]
    line = next(s for s in said if s.startswith("Mean length:"))
    assert f"{a.mean():.2f} → {b.mean():.2f} rounds" in line, line
    assert "turns" not in line


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_review_s_the_lead_is_worded_by_size_and_printed_on_the_terminal(runs, tmp_path, capsys):
    """Review S #2, #8, #9: the combat's first answer opens with the size of what moved (it said
    "Yes, beyond noise" over changes all clear but small), the terminal prints it as the page leads
    (it printed only the role answer), and the count's "smallest difference that matters" names the
    thresholds of the small changes it counts (it said "1 pp for shares" of a change in points)."""
    from analysis import stats
    from cli import _run
    from reports.text import comparison_headlines, sides_named

    base, variant = runs[("defender:2", True)], runs[("defender:4", True)]
    cmp = _compare(base, variant)
    lines = [str(x) for x in comparison_headlines(sides_named(cmp, "fief-combat"), "d2", "d4", "points",
                                                  game="fief-combat")]
    r = cmp.filter(pl.col("key") == "by_mercy").row(0, named=True)
    opener = {stats.LARGE: "Yes, by enough to matter", stats.MAY_MATTER: "Yes, perhaps by enough to matter",
              stats.SMALL: "Not by enough to matter"}[r["verdict"]]
    assert lines[0].startswith(f"Did the mercy endings move? {opener}"), lines[0]
    count = next(x for x in lines if x.startswith("d4 against d2: "))
    small = cmp.filter(pl.col("verdict") == stats.SMALL)
    if small.height:
        said = re.search(r"smallest difference that matters \(([^)]*)\)", count).group(1)
        for s in small.iter_rows(named=True):
            want = f"{100 * s['smallest']:g} pp for shares" if s["kind"] == "proportion" else f"{s['smallest']:g} point"
            assert want in said, (want, said)
    capsys.readouterr()
    # the terminal's lines are read, not the figures' pixels (tests/undrawn_figures.py: the
    # before/after figures are drawn by tests/reports)
    with figures_undrawn():
        assert _run(["report", str(base), str(variant), "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith(f"  Did the mercy endings move? {opener}"), out[:3]
    assert out[2].startswith("  Did the role win rates move? "), out[:3]


def test_review_s_no_wipe_out_no_contradiction_and_no_100_percent_that_is_not(runs):
    """Review S #7: without a mutual wipe-out the run page said "the defender's win share, 2.1%, is
    not how often it holds (2.1%)", beside two equal numbers (and the before/after says they are the
    same); review S #2: 99.958% printed as 100.0% of combats. The share printed is never 0.0% or
    100.0% unless it is."""
    from reports.games.fief import lead_headlines
    from reports.text import common_digits, metric_value

    run = runs[("defender:4", True)]
    games = pl.read_parquet(run / "games.parquet")
    assert int((games["winner"] == 2).sum()) == 0                # the premise: no mutual wipe-out
    rs = open_runs([run])
    lead = lead_headlines(analyse(rs), rs)[0]
    assert "is not how often it holds" not in lead and "no combat ended with both armies wiped out" in lead
    row = {"metric": "count_share", "kind": "proportion", "base": 0.85092, "variant": 0.99958, "diff": 0.14866}
    d = common_digits([row])
    assert metric_value(row["variant"], "count_share", "proportion", d) != "100.0%"
    assert metric_value(1.0, "count_share", "proportion", d).startswith("100")


def test_review_s_a_combats_score_caption_does_not_ask_to_compare_within_a_role(runs):
    """Review S #9: every side of a combat is one seat, so "compare seats within a role" asked for
    nothing; the caption compares the sides by their win shares only."""
    from reports.sections import _score_caption

    rs = open_runs([runs[("defender:2", True)]])
    text = _score_caption(analyse(rs), "points")
    assert "within a role" not in text and text.endswith("Compare the roles by their win shares."), text


def test_review_s_an_unpaired_reason_names_the_table_missing(runs):
    """Review S: runs written without rows keep games.parquet (one row per combat) and were said to
    have kept "no per-game rows"; the reason names the table that is missing."""
    base, variant = runs[("defender:2", False)], runs[("defender:4", False)]
    assert (base / "games.parquet").is_file() and not (base / "players.parquet").exists()
    rs, vrs = open_runs([base]), open_runs([variant])
    why = compare_runs(rs, vrs, analyse(rs), analyse(vrs)).pairing.why
    # both sides kept none: both are named (review s49 summary-only #2)
    # (3,000 combats each, written with --no-raw: the default keeps their rows, session 60 #2)
    assert why == (f"neither {rs.label} nor {vrs.label} kept players.parquet (simulate both without "
                   "--no-raw to pair)"), why
    one = open_runs([runs[("defender:4", True)]])
    why = compare_runs(rs, one, analyse(rs), analyse(one)).pairing.why
    assert why == f"{rs.label} kept no players.parquet (simulate without --no-raw to pair)", why
