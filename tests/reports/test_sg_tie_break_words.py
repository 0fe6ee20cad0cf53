"""How much of the Seigneur's wins SG-6's tie-break gave him: said early on a run's page, and said
before and after in a before/after (a designer found the run's figure the 12th of 13 findings and
no word of it in the before/after, where it moved from 74% to 60% of his wins). Checked against
the games' own end reasons in games.parquet."""

from __future__ import annotations

import polars as pl
import pytest

from simcore import runner


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("sg_tie")
    a = runner.simulate("seigneurial", games=3000, seed=2, out=root / "a", quiet=True, raw=True)
    b = runner.simulate("seigneurial", games=3000, seed=2, out=root / "b", quiet=True, raw=True,
                        settings=["track.start_square=3"])
    return a, b


def _tie_share(run) -> tuple[float, float, float]:
    """(tie-break share of his goal-square wins, tie share of games, no-tie share of games)."""
    import json

    names = {int(k): v for k, v in json.loads((run / "run.json").read_text())["end_reason_names"].items()}
    code = {v: k for k, v in names.items()}
    g = pl.read_parquet(run / "games.parquet")
    tie = int((g["end_reason"] == code["seigneur_goal_over_objective"]).sum())
    alone = int((g["end_reason"] == code["seigneur_goal"]).sum())
    return tie / (tie + alone), tie / g.height, alone / g.height


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_before_after_says_the_tie_breaks_share_of_his_wins_before_and_after(pair):
    from analysis import analyse, open_runs
    from analysis.compare import compare_runs
    from reports.text import comparison_headlines, pct

    a, b = pair
    ra, rb = open_runs([a]), open_runs([b])
    cmp = compare_runs(ra, rb, analyse(ra), analyse(rb)).table
    lines = comparison_headlines(cmp, "a", "b", "% of own goal", game="seigneurial")
    said = next(x for x in lines if x.startswith("How the Seigneur's wins came"))
    (fa, ta, aa), (fb, tb, ab) = _tie_share(a), _tie_share(b)
    assert f"gave him {pct(fa)}% of his goal-square wins before and {pct(fb)}% after" in said, said
    assert f"{pct(ta, 2)}% → {pct(tb, 2)}% by the tie, {pct(aa, 2)}% → {pct(ab, 2)}% with no Censitaire" in said
    # among the first answers: after the sides' and the split of the Censitaires' wins
    first = next(i for i, x in enumerate(lines) if x.startswith("Did the role"))
    assert first < lines.index(said) <= first + 2, lines


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_runs_page_says_it_right_after_the_sides(pair):
    from analysis import analyse, open_runs
    from reports.text import headlines, pct

    a, _ = pair
    rs = open_runs([a])
    lines = [str(x) for x in headlines(analyse(rs), rs)]
    at = next(i for i, x in enumerate(lines) if x.startswith("The Seigneur reached his goal square"))
    # after the sides' two lines and the Censitaires' split, before anything else
    censitaires = next(i for i, x in enumerate(lines) if x.startswith("The 3 Censitaires"))
    assert at <= censitaires + 2, lines
    assert f"({pct(_tie_share(a)[0])}% of his wins)" in lines[at], lines[at]
