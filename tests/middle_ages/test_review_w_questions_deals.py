"""Review W #2, #3: `balance questions` said it replayed "the run's first 8,000 deals" of a
4,000-game run, and the same of a rotated run whose seats it does not rotate. It now says which
games it played: the run's own deals only when they are."""

from __future__ import annotations

import pytest
from analysis.questions.middle_ages import _deals_words


def test_the_deals_are_the_runs_only_when_they_are():
    assert _deals_words({"games": 10_000}, 4000, 3) == "the run's first 4,000 deals (game indices 0 to 3,999, seed 3)"
    more = _deals_words({"games": 4000}, 8000, 3)
    assert more == "the run's 4,000 deals and 4,000 more of its seed (game indices 0 to 7,999, seed 3)"
    rotated = _deals_words({"games": 4000, "rotate_seats": True}, 2000, 3)
    assert "fixed seats" in rotated and "not the run's own games" in rotated and "first" not in rotated
    # one parenthetical, so the page's "… played again (same seed …)" is not spliced into it, and
    # the seats named with their bots (designer review 44, questions #6)
    named = _deals_words({"games": 4000, "rotate_seats": True,
                          "strategies": ["greedy", "balanced", "balanced", "balanced"]}, 2000, 3)
    assert named == ("2,000 games of the run's seed (game indices 0 to 1,999, seed 3) with its bots at "
                     "fixed seats (Seat 1 greedy, Seat 2 balanced, Seat 3 balanced, Seat 4 balanced; the run "
                     "rotated its seats, these games do not, so they are not the run's own games)")
    assert named.count("(") == named.count(")") and named.endswith(")")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_command_and_the_report_say_the_games_played(tmp_path):
    import json

    from in_process import balance

    from reports.games.middle_ages import _ablation_deals

    run = tmp_path / "run"
    assert balance("simulate", "--games", 400, "--rotate-seats", "--strategies", "balanced,greedy,random,random",
                   "-q", "--out", run).returncode == 0
    done = balance("questions", run, "--out", tmp_path / "q", "--games", 400)
    assert done.returncode == 0, done.stderr
    meta = json.loads((tmp_path / "q" / "run.json").read_text())     # (the questions directory's)
    assert "fixed seats" in done.stdout, done.stdout

    class Q:                                        # what the report reads of that directory
        pass

    q = Q()
    q.meta = meta
    assert "fixed seats" in _ablation_deals(q, 400) and "the run's first" not in _ablation_deals(q, 400)
