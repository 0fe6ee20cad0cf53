"""A tune whose best candidate is the rules it started from, written otherwise, plays no start rules.

The tuned rules text is never the start rules' text when a setting is tuned: it carries the
``--set`` comment lines, and ``setup.start_coins[0]=0`` on Middle-Ages' single ``start_coins = 0``
makes it a per-seat list ``[0, 0]``. The tune decided "the best candidate is the start rules" by
the texts' sha256 and its page by the settings' values, so a best candidate at the start values
had the start rules played beside its confirmation (confirmations/start-rules/) and a zero
"response to the fix" recorded, while the page said the candidate was the start rules. Both now
ask :func:`analysis.tune.advice.is_start_rules` (by value). One trial of one value, 200-game
budgets: with the confirmation's rows, without them (the start rules would be played beside it:
:func:`analysis.tune.search.play_confirmation`), and over a panel of two cells
(:func:`analysis.tune.search.start_cells_response`).
"""

from __future__ import annotations

import json

import pytest

import simcore.runner as runner
from analysis.tune.advice import is_start_rules
from analysis.tune.search import CONFIRM, START_RULES, plan_tune, run_tune

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


@pytest.mark.parametrize("players,rows", [(2, True), (2, False), ((2, 3), True)],
                         ids=["rows", "sums", "panel"])
def test_a_best_candidate_at_the_start_values_plays_no_start_rules(tmp_path, monkeypatch, players,
                                                                   rows):
    panel = None
    if isinstance(players, tuple):
        from strategies.panels import from_options

        panel = from_options("middle-ages", players=",".join(map(str, players)), lineups=["random"])
    if not rows:
        monkeypatch.setattr(runner, "RAW_LIMIT", 100)
    plan = plan_tune("middle-ages", varies=["setup.start_coins[0]=[0]"], targets=["seat-balance:30"],
                     seed=3, trials=1, min_games=200, max_games=200, eta=2, confirm_games=200,
                     players=None if panel else players, strategies=None if panel else "random",
                     panel=panel, stop_when_met=False)
    out = tmp_path / "t"
    result = run_tune(plan, out)
    tune = json.loads((out / "tune.json").read_text(encoding="utf-8"))
    # the case: the start value in the base rules, a tuned rules text that is not the start one
    assert is_start_rules(tune, result), (tune["rules_text"][:200], result["values"])
    confirm = out / result["confirm"]["dir"]
    runs = sorted(confirm.glob("cell-*/run.json")) if panel else [confirm / "run.json"]
    start_sha = runner.prepare("middle-ages", players=2, strategies="random").rules_sha256  # shipped text
    assert runs and all(json.loads(r.read_text(encoding="utf-8"))["rules_sha256"] != start_sha
                        for r in runs)
    # no start rules played, no "response to the fix" of zero
    assert result["start"] is None and result["start_cells"] is None, (result["start"],
                                                                       result["start_cells"])
    assert not (out / CONFIRM / START_RULES).exists()
    assert not list((out / CONFIRM).glob(f"*{START_RULES}*"))


def test_the_start_values_are_read_with_the_tunes_own_set_applied_as_the_runner_applies_it():
    """The tune's ``--set`` is applied as a value, not kept as its text: ``setup.start_coins=[2, 0]``
    gives seat 1 two coins (it read as the text "[2, 0]", so a candidate at 2 was not the start
    rules); a number tuned as ``8.0`` is the rules' ``8``; a player count is not a rules value."""
    tune = {"rules_text": "[setup]\nstart_coins = 0\nbonus = 8\n",
            "settings": ["setup.start_coins=[2, 0]"]}
    assert is_start_rules(tune, {"values": {"setup.start_coins[0]": 2, "setup.bonus": 8.0}})
    assert not is_start_rules(tune, {"values": {"setup.start_coins[0]": 0}})
    assert not is_start_rules(tune, {"values": {"setup.start_coins[1]": 2, "setup.bonus": 8}})
    assert not is_start_rules(tune, {"values": {"setup.bonus": 8.5}})
    assert not is_start_rules(tune, {"values": {"players": 2}})
