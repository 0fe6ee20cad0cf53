"""A designer's ``--target`` judged in every cell of a panel (``balance report PANEL --target``).

The panel page refused ``--target``: a designer with a band for the Seigneur had to report every
cell on its own and add up the verdicts. Now each target is judged in every cell on the cell's own
shares (Wilson intervals, Bonferroni over every share judged on the page, as a run's report judges
its runs), the lead says where it is met, missed or unclear, and targets.csv has every cell's
reading. Checked here against the cells' own rows and statsmodels' Wilson interval.
"""

from __future__ import annotations

import csv

import polars as pl
import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module")
def panel(tmp_path_factory):
    from cli import _run, _simulate_app

    d = tmp_path_factory.mktemp("panel_targets") / "panel"
    # one Censitaire pawn: the Seigneur wins from under 1% to over 80% of the games across the cells
    assert _run(["--game", "seigneurial", "--panel", "default", "--games", "800", "--seed", "5",
                 "--set", "censitaires.pawns=1", "--out", str(d), "-q"], prog="simulate",
                target=_simulate_app()) == 0
    return d


def _role_shares(cell) -> dict[str, tuple[float, int]]:
    """Each role's share of the cell's games (its seats' win shares summed, float32 in the rows), from the rows."""
    p = pl.read_parquet(cell / "players.parquet")
    games = p["game"].n_unique()
    by = p.group_by("role").agg(pl.col("win_share").sum())
    return {r: (float(w) / games, games) for r, w in by.iter_rows()}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_each_cell_is_judged_on_its_own_shares(panel, tmp_path):
    from statsmodels.stats.proportion import proportion_confint

    targets = ["role=seigneur:35%:10", "role=censitaire:65%:5"]
    done = balance("report", panel, "--out", tmp_path / "page", *[x for t in targets for x in ("--target", t)])
    with open(tmp_path / "page" / "targets.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    cells = sorted(p for p in panel.iterdir() if (p / "run.json").is_file())
    m = len(cells) * len(targets)
    assert len(rows) == m                                  # one share per cell and target
    outcomes = {}
    for cell, label in zip(cells, dict.fromkeys(r["cell"] for r in rows)):
        shares = _role_shares(cell)
        for t in targets:
            role, aim, tol = t.removeprefix("role=").split(":")
            r = next(x for x in rows if x["cell"] == label and x["target"] == t)
            share, n = shares[role]
            assert float(r["win_share"]) == pytest.approx(share, abs=1e-6) and int(r["games"]) == n
            assert float(r["level"]) == pytest.approx(1 - 0.05 / m)
            lo, hi = proportion_confint(round(share * n), n, alpha=0.05 / m, method="wilson")
            band = (float(aim.rstrip("%")) / 100 - float(tol) / 100, float(aim.rstrip("%")) / 100 + float(tol) / 100)
            if min(abs(lo - band[0]), abs(lo - band[1]), abs(hi - band[0]), abs(hi - band[1])) < 0.003:
                continue                                   # too near an edge for two constructions
            want = ("met" if band[0] <= lo and hi <= band[1] else
                    "missed" if hi < band[0] or lo > band[1] else "unclear")
            assert r["outcome"] == want, (label, t, share, lo, hi, r)
            outcomes.setdefault(t, {})[label] = want
    # the cells differ: each outcome is met somewhere
    assert {v for by in outcomes.values() for v in by.values()} == {"met", "missed", "unclear"}, outcomes
    text = " ".join(done.stdout.split())
    for t, by in outcomes.items():
        said = text[text.index(f"Design target {t} "):]
        said = said[:min(i for i in (said.find("Design target", 1), said.find("How the targets are read"), len(said)) if i > 0)]
        for outcome in ("met", "missed", "unclear"):
            k = sum(v == outcome for v in by.values())
            if k == len(cells):
                assert f"{outcome} in all {len(cells)} cells" in said, said
            elif k:
                assert f"{outcome} in {k}" in said, said
    assert f"How the targets are read: each interval at {100 * (1 - 0.05 / m):.4g}%, Bonferroni over the {m} shares judged" in text
    # the sides first, then the targets
    lines = [x.strip() for x in done.stdout.splitlines()]
    assert lines.index(next(x for x in lines if x.startswith("The other side"))) < \
        lines.index(next(x for x in lines if x.startswith("Design target")))


def test_a_target_the_panel_cannot_judge_is_one_line(panel, tmp_path):
    done = balance("report", panel, "--out", tmp_path / "page", "--target", "seat-balance", check=False)
    assert done.returncode == 2 and "no single fair share" in done.stderr, done.stderr
    assert not (tmp_path / "page").exists()


def test_a_target_missed_everywhere_names_the_nearest_cell(panel, tmp_path):
    done = balance("report", panel, "--out", tmp_path / "page", "--target", "role=seigneur:10%:5")
    text = " ".join(done.stdout.split())
    cells = sorted(p for p in panel.iterdir() if (p / "run.json").is_file())
    with open(tmp_path / "page" / "targets.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["outcome"] for r in rows} == {"missed"}
    dist = {r["cell"]: max(0.05 - float(r["win_share"]), float(r["win_share"]) - 0.15) for r in rows}
    near = min(dist, key=dist.get)
    assert len(rows) == len(cells)
    assert f"missed in all {len(cells)} cells (nearest the band, {near}: " in text, text[:600]
