"""A fief-combat run's page names its combat (review G): runs of two matchups (a castle and a city
siege of 10 against 6) were pooled into one configuration, or refused as "the very same games",
and a before/after of them said they "play the same rule settings … any difference comes from the
bots, the seed or the number of games". The page now opens with the matchup and its three
outcomes (not the seats' win shares, which count half of each mutual wipe-out), and a Fief run gets
no "rotate the seats" advice (its sides are not bots)."""

from __future__ import annotations

import html
import json
import re

import pytest

from analysis import analyse, group_runs, open_runs
from reports.build import build_report
from reports.text import headlines
from simcore import runner
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def sieges(tmp_path_factory):
    root = tmp_path_factory.mktemp("fief")
    return {t: runner.simulate("fief-combat", attacker=10, defender=6, terrain=t, games=4000, seed=0,
                               out=root / t, quiet=True) for t in ("castle", "city")}


def _text(path) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))).split())


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_two_matchups_are_two_configurations_and_the_page_says_what_differs(sieges, tmp_path):
    groups = group_runs([sieges["castle"], sieges["city"]])
    assert len(groups) == 2
    with figures_undrawn():
        page = _text(build_report([sieges["castle"], sieges["city"]], tmp_path / "rep"))
    assert "city plays the same rule settings as castle (same rules file hash) but another matchup: " \
           "terrain castle → city." in page
    assert "any difference comes from the bots" not in page
    # a combat has dice, not deals, and no bots
    assert "Both sides played the same 4,000 random streams (seed 0, the same game numbers" in page
    what = page[page.index("What changed: "):]
    what = what[:what.index("are compared game by game")]
    assert "the dice fall differently once the matchups differ" in what and "deal" not in what


def test_the_page_opens_with_the_combat_and_its_odds(sieges):
    rs = open_runs([sieges["castle"]])
    lines = headlines(analyse(rs), rs)
    res = json.loads((sieges["castle"] / "run.json").read_text())["results"]
    first = lines[0]
    assert first.startswith("The combat: 10 points with 1 Lord attack 6 points with 1 Lord in castle "
                            "terrain (4,000 combats).")
    for key, words in (("p_attacker_wins", "takes the fief in"), ("p_defender_holds", "holds in"),
                       ("p_both_wiped", "wiped out in")):
        assert f"{words} {100 * res[key]['p']:.1f}% (" in first
    assert not any("rotate" in x for x in lines)
