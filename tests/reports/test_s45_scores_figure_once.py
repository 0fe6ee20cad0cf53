"""The scores figure draws the by-strategy panel only where it shows something the by-seat panel
does not (Fief review 45 #6: in a combat each side is its own strategy, and "Final score by seat"
and "Final score by strategy" were the same chart twice); a mixed line-up keeps both."""

from __future__ import annotations

from analysis import analyse, open_runs
from reports.figures import common as F
from simcore import runner
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _titles(fig):
    return [ax.get_title() for ax in fig.axes if ax.get_title()]


def test_a_combat_draws_its_scores_once(tmp_path):
    run = runner.simulate("fief-combat", attacker=10, defender=6, terrain="castle", games=400, seed=1,
                          out=tmp_path / "siege", quiet=True)
    t = analyse(open_runs([run]))
    seat = t["scores_by_seat"].sort(["group", "score"])
    strat = t["scores_by_strategy"].sort(["group", "score"])
    assert seat["players"].to_list() == strat["players"].to_list()      # the same distributions
    assert _titles(F.scores(t, "points")) == ["Final score by seat"]


def test_a_mixed_line_up_keeps_both_panels(tmp_path):
    run = runner.simulate("middle-ages", strategies="random,balanced,random,balanced", games=400, seed=1,
                          out=tmp_path / "mixed", quiet=True)
    t = analyse(open_runs([run]))
    assert _titles(F.scores(t, "coins")) == ["Final score by seat", "Final score by strategy"]
