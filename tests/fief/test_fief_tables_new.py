"""Fief's printed tables say something a reader can use (revA #19, FF-6, FF-7): an exact row of the
revolt table prints "exact", not the interval "0.5000 – 0.5000" (the MC-vs-exact line of
``fief-odds --method both``: test_review_k_agreement.py); the heat map's break-even contours follow the cell edges (revA #18)."""

from __future__ import annotations

import pytest
import numpy as np
import polars as pl

from cli import _run


def test_exact_revolt_rows_print_exact_not_a_zero_width_interval(tmp_path, capsys):
    """FF-6: 0 and 500 écus give 1/2 and 2/3 exactly; the Monte Carlo rows keep their Wilson interval."""
    assert _run(["fief-calamity", "--soldiers", "0-2", "--lords", "1", "--max-ecus", "500",
                 "--method", "both", "--games", "2000", "--out", str(tmp_path / "cal")]) == 0
    out = capsys.readouterr().out
    out = out[out.index("Bishop's intervention"):]         # (the plague table has method rows too)
    rows = [line for line in out.splitlines() if line.count("│") >= 6 and ("exact" in line or " mc " in line)]
    exact = [r for r in rows if r.split("│")[1].strip() == "exact"]
    mc = [r for r in rows if r.split("│")[1].strip() == "mc"]
    assert len(exact) == 2 and len(mc) == 2, out
    assert all(r.split("│")[5].strip() == "exact" for r in exact), exact
    assert "0.5000 – 0.5000" not in out and "0.6667 – 0.6667" not in out
    for r in mc:                                    # a real interval around the estimate
        lo, hi = (float(x) for x in r.split("│")[5].split("–"))
        assert lo < float(r.split("│")[4]) < hi


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_heat_map_contours_are_steps_on_the_cell_edges(tmp_path, monkeypatch):
    """FF-7 (revA #18): the break-even borders follow the cells, as the break-even table reads: in a
    castle with d'Arc on the defender's side, 1 defender point needs 6 attackers for 50 %, so the
    50 % border at defender 1 is the edge between attackers 5 and 6 (y = 5.5), not an
    interpolated 5.8; every vertex of every drawn line lies on a cell edge."""
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    from reports.figures import fief as figs

    assert _run(["fief-odds", "--attackers", "1-8", "--defenders", "1-2", "--terrain", "castle",
                 "--darc", "defender", "--out", str(tmp_path / "odds"), "-q"]) == 0
    odds = pl.read_parquet(tmp_path / "odds" / "odds.parquet")
    be = pl.read_parquet(tmp_path / "odds" / "break_even.parquet").filter(pl.col("defender") == 1)
    assert be["min_attacker_p50"][0] == 6
    drawn = []
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: drawn.append(self))
    figs.heatmap(odds, "castle", tmp_path / "h.png", [0.5, 0.75, 0.9])
    ax = drawn[0].axes[0]
    points = np.concatenate([path.vertices for c in ax.collections for path in c.get_paths()])
    assert len(points) and np.allclose(points % 1.0, 0.5), points      # cell edges only
    # the 50 % border at defender 1 (x from 0.5 to 1.5): the edge under attacker 6
    fifty = next(c for c in ax.collections if c.get_gid() == "level 0.5")     # (its rim: "rim 0.5")
    assert isinstance(fifty, LineCollection)
    under = [s[0, 1] for s in fifty.get_segments()
             if np.allclose(s[:, 1], s[0, 1]) and np.allclose(sorted(s[:, 0]), [0.5, 1.5])]
    assert under == [5.5], fifty.get_segments()
    # a grid with a border on both kinds of edge
    segs = figs.level_edges(np.array([[0.4, 0.1], [0.6, 0.3]]), 0.5, np.array([0.5, 1.5, 2.5]),
                            np.array([0.5, 1.5, 2.5]))
    assert sorted(segs) == [((0.5, 1.5), (1.5, 1.5)), ((1.5, 1.5), (1.5, 2.5))]
