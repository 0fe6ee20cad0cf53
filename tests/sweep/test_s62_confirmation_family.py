"""Review s62 (/tmp/rv268/out/tu-ff2, sim-ff2-*) #3: a tune confirms up to five candidates on fresh
games, one after another, setting aside each one not confirmed. Read at 95% each, "Target met" on
the k-th attempt did not hold at 95%: the reviewer's seed swaps showed trial 2 (p = 0.0816) unclear
on its own seed and met on trial 3's. Each attempt is now read at 1 − 0.05/5 (Bonferroni over the
attempts the search may make), an attempt not confirmed is worded unclear or missed (not "Met: no",
"a candidate that missed"), and the verdict says which attempt it was."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from analysis.sweep.metrics import VariantData
from analysis.tune.targets import MAX_CONFIRMATIONS, confirmation_level, evaluate, parse_target


def _accepted(level: float, reps: int, games: int, rng) -> float:
    """The share of simulated tunes in which some confirmation attempt reads "met" when every
    candidate it confirms sits on the tolerance's edge (the attacker's true share 82% against
    80% ± 2 pp: the hardest case for the level, each attempt a fresh seed)."""
    target = (parse_target("role=attacker:0.80:2", "fief-combat"),)
    accepted = 0
    for _ in range(reps):
        for _ in range(MAX_CONFIRMATIONS):
            x = (rng.random(games) < 0.82).astype(float)
            v = VariantData(Path("confirmations"), {}, 2, {"role_win_share_attacker": x}, {},
                            np.zeros((games, 2)), None)
            if evaluate(v, target, level=level).met:
                accepted += 1
                break
    return accepted / reps


@pytest.mark.slow   # a level simulation (~7 s of CPU): make test-slow and CI run it (docs/testing.md)
def test_s62_confirmation_attempts_hold_their_level_together():
    """400 simulated tunes of five attempts of 10,000 games each (a few seconds): at the tune's
    level the family reads met for candidates on the edge in ≤ 5% of them (2.0% here; about 2.5%
    expected: one side of a two-sided interval, five times); at 95% per attempt, as before, 14.5%
    here (11.5% over 2,000 tunes): the simulation tells the two apart."""
    rng = np.random.default_rng(62)
    level = confirmation_level(stop_when_met=True)
    assert level == 1 - 0.05 / MAX_CONFIRMATIONS
    family = _accepted(level, 400, 10000, rng)
    assert family <= 0.05, family
    before = _accepted(0.95, 400, 10000, rng)
    assert before > 0.07, before
    # one attempt only (--keep-going) keeps 95%
    assert confirmation_level(stop_when_met=False) == 0.95


def test_s62_unclear_attempt_worded_unclear_and_verdict_counts_attempts():
    from analysis.tune.search import attempts_sentence
    from reports.sweep import attempts_table

    level = confirmation_level(True)
    earlier = [{"trial": 2, "seed": 226510850113340357, "objective": 0.68, "low": 0.29,
                "high": 1.06, "outcome": "unclear", "level": level, "met": False}]
    said = attempts_sentence(2, level, True, earlier)
    assert said.startswith("Confirmation attempt 2 of at most 5: each attempt is read at 99% "), said
    assert "(1 unclear)" in said and "missed" not in said, said
    title, table = attempts_table(earlier + [{"trial": 3, "seed": 545238203442645140,
                                              "objective": 0.2, "low": 0.0, "high": 0.58,
                                              "met": True, "outcome": "met", "level": level}])
    assert "a candidate that missed" not in title and "unclear or missed" in title, title
    assert "each read at 99%" in title and "holds at 95%" in title, title
    assert table["Outcome"].to_list() == ["unclear", "met"]
    assert table["Level"].to_list() == ["99%", "99%"]
    assert "Met" not in table.columns and "95% interval" not in table.columns
