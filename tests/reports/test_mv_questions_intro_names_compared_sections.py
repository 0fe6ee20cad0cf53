"""The baseline's balance questions section says whether other runs' rules were played, and where.

A before/after of Médiévallons plays each further run's questions with its own rules and compares
them with the baseline's in a section "Balance questions: VARIANT vs BASE". The baseline's own
questions section is told which variants were compared and in which sections (``compared_in`` on
its questions, set by ``reports.build.build_report``) and names them itself; told of none, it says
no other run's rules were played. The expected words are written out here by hand.
"""

from __future__ import annotations

import json

import analysis_runs as runs
import pytest

from analysis import analyse, open_runs
from reports.games import medievallons as hook
from reports.questions import Questions
from reports.sections import FigureSet
from tests.reports.test_mv_words import _first_player


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A small real run (its table of analyses) and a stand-in first-player question for it."""
    path = runs.medievallons_run(tmp_path_factory.mktemp("mvq") / "mv-a", 200, 4, seed=3)
    rs = open_runs([path])
    meta = json.loads((path / "run.json").read_text(encoding="utf-8"))
    return rs, analyse(rs), meta


def _intro(run, compared_in=None) -> str:
    rs, t, meta = run
    fp = _first_player(2_000, ((2, (0.55, 0.45)), (3, (0.34, 0.33, 0.33))))
    q = Questions(rs.paths[0] / "q", {"games": 2_000, "strategy": "balanced", "seed": meta["seed"],
                                      "players": [2, 3], "rules_sha256": meta["rules_sha256"],
                                      "rules_name": meta["rules_name"]}, {"first_player": fp},
                  played_here=True)
    if compared_in is not None:
        q.compared_in = compared_in
    section = next(s for s in hook.sections(t, rs, FigureSet(), q) if s.id == hook.SECTION_ID)
    return section.intro


def _rules(meta: dict, note: str) -> str:
    return (f"the rules of the baseline run mv-a only ({meta['rules_name']}; rules SHA-256 "
            f"{meta['rules_sha256'][:12]}, as in the table of runs: {note})")


def test_a_run_page_says_no_other_runs_rules_were_played(run):
    intro = _intro(run)
    assert _rules(run[2], "no other run's rules were played") in intro


def test_a_before_after_names_the_section_comparing_the_variants_own(run):
    intro = _intro(run, [("mv-b", "Balance questions: mv-b vs mv-a")])
    assert _rules(run[2], "mv-b's own are compared with them in the section "
                          "“Balance questions: mv-b vs mv-a”") in intro
    assert "no other run's rules were played" not in intro


def test_several_variants_are_all_named(run):
    intro = _intro(run, [("mv-b", "Balance questions: mv-b vs mv-a"),
                         ("mv-c", "Balance questions: mv-c vs mv-a")])
    assert _rules(run[2], "mv-b's and mv-c's own are compared with them in the sections "
                          "“Balance questions: mv-b vs mv-a” and “Balance questions: mv-c vs mv-a”") in intro
