"""``balance report RUN --target``: a designer's target judged on the run's own win shares.

Review Y #6: a Seigneurial report said the Seigneur wins 0.4% and the Censitaires 99.6%, and no
verdict on whether that is the split the designer wants, because which split is "even" is the
designer's call. With ``--target role=Seigneur:25%:5`` the page and the terminal say met, missed
or unclear, with the share and its interval. Checked against players.parquet and statsmodels'
Wilson interval at the Bonferroni level over the shares judged (none of them near 0 or n
successes, where :func:`analysis.stats.wilson` takes Brown, Cai & DasGupta's ends instead)."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from cli import _run
from simcore import runner

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("targets")
    base = runner.simulate("seigneurial", players=4, games=3000, seed=11, out=root / "base", quiet=True)
    return root, base


def _shares(run) -> tuple[int, float, float]:
    p = pl.read_parquet(run / "players.parquet")
    n = p["game"].n_unique()
    lord = float(p.filter(pl.col("seat") == 0)["win_share"].cast(pl.Float64).sum())
    tenants = float(p.filter(pl.col("seat") > 0)["win_share"].cast(pl.Float64).sum())
    return n, lord / n, tenants / n


def _page_text(path) -> str:
    text = html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


def test_the_report_judges_each_target_on_the_runs_shares(runs, tmp_path, capsys):
    _, base = runs
    n, lord, tenants = _shares(base)
    assert 5 < lord * n < n - 5 and 5 < tenants * n < n - 5      # (the plain score interval)
    aim = round(100 * tenants, 1)
    targets = ["role=Seigneur:25%:5", f"role=censitaire:{aim}:5", f"role=Censitaire:{aim}:0.01"]
    out = tmp_path / "rep"
    code = _run(["report", str(base), "--out", str(out), *sum((["--target", t] for t in targets), [])])
    said = capsys.readouterr().out
    assert code == 0, said
    level = 1 - 0.05 / 3                      # Bonferroni over the three shares judged
    lo, hi = proportion_confint(lord * n, n, alpha=1 - level, method="wilson")
    assert hi < 0.20                          # wholly below the Seigneur's 20-30% band
    t = pl.read_csv(out / "targets.csv")
    assert t["outcome"].to_list() == ["missed", "met", "unclear"]
    assert t["win_share"].to_list() == pytest.approx([lord, tenants, tenants], abs=1e-12)
    assert t["low"][0] == pytest.approx(lo, abs=1e-9) and t["high"][0] == pytest.approx(hi, abs=1e-9)
    assert t["level"].to_list() == pytest.approx([level] * 3)
    first = (f"Design target role=Seigneur:25%:5 (the Seigneur's win share from 20.0% to 30.0%): "
             f"missed ({100 * lord:.1f}%, {100 * lo:.1f}–{100 * hi:.1f}, below the band).")
    third = f"(the Censitaires' win share from {aim - 0.01:.2f}% to {aim + 0.01:.2f}%): unclear ("
    for text in (said, _page_text(out / "report.html")):
        assert first in text, text[:3000]
        assert third in text and "wider than the band)." in text
        assert "Bonferroni over the 3 shares judged, all of them together at 95%" in text
    # the page leads with it: in the first section, before its lists
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.index("Design target role=Seigneur") < page.index("<section", page.index("<section") + 1)


def test_a_before_after_names_each_run(runs, tmp_path, capsys):
    root, base = runs
    other = runner.simulate("seigneurial", players=4, games=2000, seed=12, out=root / "other",
                            quiet=True, strategies="even-lord,standard,standard,standard")
    n, lord, _ = _shares(other)
    out = tmp_path / "ba"
    assert _run(["report", str(base), str(other), "--out", str(out), "--target",
                 "role=Seigneur:25%:5"]) == 0
    said = capsys.readouterr().out
    t = pl.read_csv(out / "targets.csv")
    assert t["run"].to_list() == ["base", "other"] and t["win_share"][1] == pytest.approx(lord)
    assert t["level"].to_list() == pytest.approx([1 - 0.05 / 2] * 2)
    assert re.search(r"\): \w+ in base \([\d.]+%.*; \w+ in other \(" + re.escape(f"{100 * lord:.1f}%"), said), said


@pytest.mark.parametrize("target, words", [
    ("seat-balance", "Seigneurial's seats play different roles"),
    ("role=lord:0.3", "unknown role 'lord'"),
    ("no-dominant-strategy", "balance report judges win shares only"),
    ("role=seigneur:130%", "must be from 0 to 100%"),
])
def test_a_target_the_report_cannot_judge_is_one_line_before_any_work(runs, tmp_path, capsys, target, words):
    _, base = runs
    out = tmp_path / "nothing"
    assert _run(["report", str(base), "--out", str(out), "--target", target]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1, err
    assert not out.exists()
