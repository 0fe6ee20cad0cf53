"""Review s46 (/tmp/s46/rev_tune/findings.md) #8: a tune interrupted during its confirmation and
resumed writes the result.json of one never interrupted, the paired "as good as the best"
comparison included.

result.json ``as_good`` pairs each full-budget trial within the target with the best, game by game
on the search's games; the games were kept only in the memory of the process that played the
search, so a tune resumed after the search (``the search is done; the confirmation goes on``) wrote
``as_good.trials = {}`` where the uninterrupted tune had the paired intervals (and its page read
"unpaired"). The resumed tune plays those trials' games again on the search seed: the same games.
"""

from __future__ import annotations

import json

import pytest

import analysis.tune.search as search
from analysis.tune.search import plan_tune, run_tune

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _plan():
    return plan_tune("middle-ages", varies=["setup.start_coins[0]=0..2"], targets=["seat-balance:20"],
                     seed=4, trials=3, min_games=200, max_games=200, eta=2, confirm_games=400,
                     players=2, strategies="random", stop_when_met=False)


def test_a_tune_resumed_in_its_confirmation_pairs_the_trials_as_good_as_the_best(tmp_path, monkeypatch):
    whole = run_tune(_plan(), tmp_path / "whole")
    assert whole["as_good"]["trials"], whole["as_good"]          # the case: trials to pair
    real, calls = search.play_confirmation, []

    def cut(*args, **kwargs):
        calls.append(1)
        raise KeyboardInterrupt                 # Ctrl-C as the confirmation starts

    out = tmp_path / "cut"
    with monkeypatch.context() as m:
        m.setattr(search, "play_confirmation", cut)
        with pytest.raises(KeyboardInterrupt):
            run_tune(_plan(), out)
    assert calls and not (out / "result.json").exists()
    said = []
    resumed = run_tune(_plan(), out, progress=lambda *a: said.append(a))
    line = next(text for phase, *_, text in said if phase == "resume")
    assert "the search is done; the confirmation goes on" in line, line
    assert resumed["as_good"] == whole["as_good"]
    on_disk = json.loads((out / "result.json").read_text(encoding="utf-8"))
    assert on_disk["as_good"] == json.loads((tmp_path / "whole" / "result.json").read_text(
        encoding="utf-8"))["as_good"]
    assert resumed == whole                     # and the rest of result.json
