"""Review U #15: the Seigneur's final-square figure did not mark the rent track's midpoint (the land
improvements) or his goal square (SG-1), nor did its sentence say how often he reaches them. Both
now do, at the run's player count; the share of games he ends on his goal square is his win share
(SG-6: he wins there), checked against games.parquet."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs
from analysis.games.seigneurial import track_squares
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = runner.simulate("seigneurial", players=4, games=3000, seed=4, out=tmp_path_factory.mktemp("sq") / "r",
                          quiet=True, settings=["track.goal.4=8"])
    rs = open_runs([out])
    return out, rs, analyse(rs)


def test_the_midpoint_and_goal_are_the_rules_at_the_runs_player_count(run):
    import tomllib

    _, rs, _ = run
    from pathlib import Path

    shipped = tomllib.loads((Path(__file__).resolve().parents[2] / "configs" / "seigneurial"
                             / "rules.toml").read_text(encoding="utf-8"))
    # the shipped midpoint at 4 players, and the goal as --set gave it
    assert track_squares(rs) == {"midpoint": shipped["track"]["midpoint"]["4"], "goal": 8}


def test_the_sentence_and_figure_mark_the_squares_and_the_goal_share_is_the_seigneurs_wins(run):
    import re

    from reports.figures import seigneurial as F
    from reports.games.seigneurial import square_sentences

    out, rs, t = run
    marks = track_squares(rs)
    (said,) = square_sentences(t["seigneur_squares"], marks)
    games = pl.read_parquet(out / "games.parquet")
    wins = float((games["winner_role"] == "seigneur").mean())
    past = float((games["seigneur_square"] >= 5).mean())
    got = re.search(r"at or past the midpoint \(square 5, the land improvements\) in ([\d.]+)% of games and "
                    r"on his goal square \(8\) in ([\d.]+)%", said)
    assert got, said
    assert float(got.group(1)) == pytest.approx(100 * past, abs=0.051)
    assert float(got.group(2)) == pytest.approx(100 * wins, abs=0.051) and wins > 0
    fig = F.final_squares(t["seigneur_squares"], marks)
    lines = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == "--"]
    assert sorted(float(ln.get_xdata()[0]) for ln in lines) == [5.0, 8.0]
