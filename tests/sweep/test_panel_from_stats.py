"""A panel's cells read from their statistics (issue 27): `balance report --cells` works on runs
without players.parquet (above 1e5 games by default), and a run's estimates from stats.json
(`analysis.sweep.metrics.summary_from_stats`: every seat's and role's win share and the game length,
mean ± Z·sd/√n with the sample sd) equal those from its rows (`summary_from_rows`, `mean_ci` of the
per-game samples) within 1e-9 relative, in every game, with roles and without, shared wins, mixed
and rotated line-ups."""

from __future__ import annotations

import re

import numpy as np
import pytest

from analysis import panel
from analysis.load import open_runs
from analysis.sweep.metrics import (cell_summary, load_variant, summary_from_rows,
                                    summary_from_stats)
from cli import _run
from simcore import runner
from simcore.rundir import PLAYERS
from undrawn_figures import figures_undrawn

CASES = {
    "middle-ages": dict(game="middle-ages", players=4),
    "middle-ages mixed, rotated": dict(game="middle-ages", players=4, strategies="greedy,random,greedy,random",
                                       rotate_seats=True),
    "medievallons": dict(game="medievallons", players=4),
    "fief-combat": dict(game="fief-combat"),
    "seigneurial 4p": dict(game="seigneurial", players=4),
    "seigneurial 5p": dict(game="seigneurial", players=5),
}


def _same(a, b):
    """Every estimate of summaries ``a`` and ``b`` equal within 1e-9 relative."""
    assert a.n_games == b.n_games and a.n_players == b.n_players
    assert list(a.estimates) == list(b.estimates)
    for key in a.estimates:
        ia, *xa = a.estimates[key]
        ib, *xb = b.estimates[key]
        assert ia == ib, key
        np.testing.assert_allclose(xb, xa, rtol=1e-9, atol=0, err_msg=key)


@pytest.mark.parametrize("case", list(CASES))
def test_a_runs_estimates_from_its_statistics_equal_those_from_its_rows(case, tmp_path):
    opts = dict(CASES[case])
    run = runner.simulate(opts.pop("game"), games=200, seed=7, out=tmp_path / "r", quiet=True, **opts)
    assert (run / PLAYERS).is_file()
    rows = summary_from_rows(load_variant(run))
    from_stats = summary_from_stats(open_runs([run], source="stats"))
    assert rows.source == "rows" and from_stats.source == "stats"
    _same(rows, from_stats)
    keys = set(rows.estimates)
    assert {f"seat_win_share_{s}" for s in range(1, rows.n_players + 1)} <= keys
    if case.startswith(("seigneurial", "fief")):
        assert any(k.startswith("role_win_share_") for k in keys)
    if case.startswith(("seigneurial", "fief", "medievallons")):
        assert "game_length" in keys
    # a win share's interval is Wilson's on the rows' sum (revB #2: a normal one went below 0 or
    # had zero width); the length's is the rows' mean ± Z·sd/√n with the sample sd (n − 1)
    from analysis.stats import wilson

    v = load_variant(run)
    for key, x in v.samples.items():
        if key in keys:
            _, m, lo, hi = from_stats.estimates[key]
            if v.info[key].share:
                wl, wh = wilson(x.sum(), x.size)
                want = [x.mean(), float(wl), float(wh)]
            else:
                half = 1.959963984540054 * np.std(x, ddof=1) / np.sqrt(x.size)
                want = [x.mean(), x.mean() - half, x.mean() + half]
            np.testing.assert_allclose([m, lo, hi], want, rtol=1e-9, atol=1e-15, err_msg=key)


@pytest.mark.slow   # compiles what no warm-up job does, in a clean clone (3.3 s of CPU): make test-slow
@pytest.mark.parametrize("game", ["seigneurial", "middle-ages"])
def test_a_panel_of_runs_without_rows_equals_the_same_panel_read_from_rows(game, tmp_path, monkeypatch):
    lineups = (("standard", "random") if game == "seigneurial" else ("greedy", "random"))
    cells = {}
    for raw in (False, True):
        cells[raw] = [runner.simulate(game, games=200, seed=11 + k, raw=raw, quiet=True, players=p,
                                      strategies=s, out=tmp_path / str(raw) / f"cell-{k}")
                      for k, (p, s) in enumerate([(3, lineups[0]), (4, lineups[1])])]
    assert not any((r / PLAYERS).exists() for r in cells[False])
    without = panel.panel_table([tmp_path / "False"])
    assert all(cell_summary(r).source == "stats" for r in cells[False])
    monkeypatch.setattr(panel, "cell_summary", lambda r: summary_from_rows(load_variant(r)))
    with_rows = panel.panel_table([tmp_path / "True"])
    assert without.labels == with_rows.labels and without.finding == with_rows.finding
    a, b = without.cells.drop("run"), with_rows.cells.drop("run")
    assert a.columns == b.columns and a.height == b.height > 0
    for c in a.columns:
        if c in ("estimate", "low", "high"):
            np.testing.assert_allclose(a[c].to_numpy(), b[c].to_numpy(), rtol=1e-9, atol=0)
        else:
            assert a[c].to_list() == b[c].to_list(), c
    if game == "seigneurial":
        assert {"role_win_share_seigneur", "role_win_share_censitaire", "game_length"} <= set(a["metric"])


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_report_cells_of_runs_without_rows_writes_the_page(tmp_path):
    runs = [runner.simulate("seigneurial", games=200, seed=k, raw=False, quiet=True, players=4,
                            strategies=s, out=tmp_path / f"r{k}") for k, s in enumerate(("standard", "random"))]
    with figures_undrawn():     # the page's words are read, not its figures' pixels
        assert _run(["report", "--cells", *map(str, runs), "--out", str(tmp_path / "page")]) == 0
    text = re.sub(r"<[^>]+>", " ", (tmp_path / "page" / "report.html").read_text(encoding="utf-8"))
    assert "The finding" in text and "players.parquet" not in text
    # the page's directory is a report: --force writes the page again (it used to be marked a run,
    # and --force refused: "holds a run, not a report")
    from simcore.atomic import read_marker

    assert read_marker(tmp_path / "page")["kind"] == "report"
    with figures_undrawn():     # the page's words are read, not its figures' pixels
        assert _run(["report", "--cells", *map(str, runs), "--out", str(tmp_path / "page"),
                     "--force"]) == 0


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_roles_share_counts_its_seats_shared_wins_as_fractions(tmp_path):
    """Played games of a role rarely share a win, so the rows of a 5-player Seigneurial run are
    given shared wins (two or three Censitaires, or the Seigneur and one) and their statistics
    filled again: the Censitaires' share (the sum of their seats' shares) and its Wilson interval
    from the statistics equal those from the rows."""
    from analysis.stats import wilson

    from types import SimpleNamespace

    import pyarrow as pa
    import pyarrow.parquet as pq

    from simcore import accumulate
    from simcore.contract import ChunkResult
    from simcore.rundir import GAMES
    from analysis.sweep.metrics import from_tables

    run = runner.simulate("seigneurial", games=200, seed=5, out=tmp_path / "r", quiet=True, players=5)
    players, games = pq.read_table(run / PLAYERS), pq.read_table(run / GAMES)
    w = players["win_share"].to_numpy().astype(np.float64).reshape(-1, 5).copy()
    ties = {0: [0, 1 / 2, 1 / 2, 0, 0], 1: [0, 1 / 3, 0, 1 / 3, 1 / 3], 2: [1 / 2, 0, 0, 0, 1 / 2]}
    for g in range(0, w.shape[0], 2):
        w[g] = ties[(g // 2) % 3]
    # float64 shares: on disk they are float32, where 1/3 is 1/3 only within 3e-8 relative (the
    # statistics count whole 1/L units), and a third of these games share a win by three
    players = players.set_column(players.schema.get_field_index("win_share"), "win_share",
                                 pa.array(w.ravel()))
    st = accumulate.RunStats(open_runs([run], source="stats").stats.layout)
    st.add(ChunkResult({c: players[c].to_numpy(zero_copy_only=False) for c in players.column_names},
                       {c: games[c].to_numpy(zero_copy_only=False) for c in games.column_names}))
    cross = st.fixed["win_cross"]
    assert cross[1:, 1:].sum() > np.trace(cross[1:, 1:])       # shared Censitaire wins
    rows = summary_from_rows(from_tables("seigneurial", 5, players, games, path=run))
    from_stats = summary_from_stats(SimpleNamespace(stats=st, game="seigneurial", paths=(run,),
                                                    metas=(rows.meta,)))
    _same(rows, from_stats)
    x = w[:, 1:].sum(axis=1)
    _, m, lo, hi = from_stats.estimates["role_win_share_censitaire"]
    assert m == pytest.approx(x.mean(), rel=1e-12)
    assert (lo, hi) == pytest.approx(tuple(float(e) for e in wilson(x.sum(), x.size)), rel=1e-9)


def test_two_panels_cells_of_one_line_up_are_named_by_their_panel(tmp_path):
    """balance report P0 P1 of two panels played under different rules: both have cell-0 of the
    same line-up; the second was labelled "(cell-0)", which names neither panel."""
    for name in ("P0", "P1"):
        runner.simulate("middle-ages", games=40, seed=3, quiet=True, players=4,
                        strategies="balanced", out=tmp_path / name / "cell-0")
    t = panel.panel_table([tmp_path / "P0", tmp_path / "P1"])
    assert t.labels == ["4p 4×balanced", "4p 4×balanced (P1/cell-0)"]
