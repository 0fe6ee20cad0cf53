"""Issue #27 item 1: no analysis requires players.parquet. A run of every game written without
player rows (what `simulate` writes above 1e5 games, or with --no-raw) is reported, alone and in a
before/after, from its statistics; a table that needs rows says so with nulls instead of failing.
(The Seigneurial report crashed on such a run: its Objective-card table built the "reached" columns,
which only rows can count, as empty columns beside the cards' rows. No test had reported a run
without rows of any game.)

The report's figures are built but not drawn (tests/undrawn_figures.py): what fails here is the
analysis and the page's words, which read the tables."""

from __future__ import annotations

import json

import pytest

from analysis import open_runs
from reports.build import build_report
from simcore import games as registry
from simcore import runner
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

# every game that plays whole games with bots (Fief's combat odds run without player rows in
# tests/fief/test_fief_run_dir.py)
GAMES = [name for name, spec in registry.specs().items() if spec.strategies is not None]


def _without_rows(root, game: str, seed: int):
    out = root / f"{game}-{seed}"
    runner.simulate(game, games=600, seed=seed, out=out, quiet=True, raw=False)
    assert not (out / "players.parquet").exists()
    return out


@pytest.fixture(scope="module", params=GAMES)
def two_runs(request, tmp_path_factory):
    """Two runs of the game without player rows, seeds 3 and 4."""
    root = tmp_path_factory.mktemp("norows")
    return request.param, [_without_rows(root, request.param, s) for s in (3, 4)]


def test_a_run_without_player_rows_is_reported(two_runs, tmp_path):
    _, (first, _) = two_runs
    with figures_undrawn():
        html = build_report([first], tmp_path / "rep").read_text(encoding="utf-8")
    assert "Headline findings" in html


def test_a_before_after_of_runs_without_player_rows_is_reported(two_runs, tmp_path):
    _, (first, second) = two_runs
    with figures_undrawn():
        html = build_report([first, second], tmp_path / "rep", pool=False).read_text(encoding="utf-8")
    assert "headline findings" in html and "Before / after: " in html


def test_the_seigneurial_card_table_without_rows_is_the_table_from_rows(tmp_path):
    """The Objective-card table from the statistics alone (stats.json, and for the reached columns
    objectives_summary.parquet) equals the one from rows (the same games played again with rows),
    the reached counts included; a run without rows written before objectives_summary.parquet
    existed (the file removed) leaves only the reached columns null."""
    from analysis.games import seigneurial as sg
    from simcore.rundir import read_meta

    stats_only = _without_rows(tmp_path, "seigneurial", 3)
    with_rows = tmp_path / "rows"
    runner.simulate("seigneurial", games=600, seed=3, out=with_rows, quiet=True, raw=True)
    a = sg.objective_table(open_runs([stats_only]))
    b = sg.objective_table(open_runs([with_rows]))
    reached = ["reached", "reached_share", "reached_ci_low", "reached_ci_high"]
    assert a.height == b.height > 0
    assert b["reached"].sum() > 0 and b["reached"].to_list() != b["dealt"].to_list()
    for c in a.columns:
        if a[c].dtype.is_float():
            assert a[c].to_numpy() == pytest.approx(b[c].to_numpy(), rel=1e-9, nan_ok=True), c
        else:
            assert a[c].to_list() == b[c].to_list(), c
    # the summary's holders are the cards' dealt counts from stats.json
    import polars as pl

    summary = pl.read_parquet(stats_only / sg.OBJECTIVES_SUMMARY).sort("objective")
    dealt = dict(zip(a["objective"].to_list(), a["dealt"].to_list()))
    assert dict(zip(summary["objective"].to_list(), summary["holders"].to_list())) == dealt
    # an older run without rows (no objectives_summary.parquet): only the reached columns null
    older = tmp_path / "older"
    import shutil

    shutil.copytree(stats_only, older)
    (older / sg.OBJECTIVES_SUMMARY).unlink()
    meta = read_meta(older)
    del meta["integrity"]["files"][sg.OBJECTIVES_SUMMARY]       # as run.json was written then
    (older / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    c = sg.objective_table(open_runs([older]))
    for col in reached:
        assert c[col].null_count() == c.height, col
    for col in (x for x in c.columns if x not in reached):
        assert c[col].to_list() == a[col].to_list() or c[col].dtype.is_float(), col
