"""Longer Médiévallons statistics (pytest -m slow): more games for the exact and distributional
kernel-vs-reference checks, every bot replayed at every player count, and the wider skill ladder.
The default test set runs the same checks on fewer games, but for the skill ladder: the one in
test_mv_strategies.py runs under ``make test-slow`` too.
"""

from __future__ import annotations

import numpy as np
import pytest

from simcore.games.medievallons import driver as D
from simcore.games.medievallons import reference as REF
from simcore.games.medievallons import rules as R
from strategies import medievallons as S

from test_mv_kernel_vs_reference import PLAYER_FIELDS, _figures, assert_same_game
from test_mv_strategies import _duel

pytestmark = pytest.mark.slow
RULES = R.load()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kernel_replays_reference_exactly_on_many_games(players):
    out = D.run_chunk(RULES, players, 50_000, 600, 31, debug=True, trace_decisions=True)
    assert not out["error"].any()
    for g in range(600):
        assert_same_game(out, g, REF.play_game(RULES, players, 31, 50_000 + g, debug=True), players)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_bot_replays_exactly_at_every_seat(players):
    for bots in (["planner", "balanced", "collector", "saboteur", "random"],
                 ["saboteur", "random", "planner", "collector", "balanced"]):
        _, rows = S.resolve(bots[:players], players)
        out = D.run_chunk(RULES, players, 0, 60, 5, rows, debug=True, trace_decisions=True)
        assert not out["error"].any()
        for g in range(60):
            replay = REF.ReplayStrategy(out["trace"][g], consume_draw=True)
            rec = REF.play_game(RULES, players, 5, g, strategies=[replay] * players, debug=True)
            assert_same_game(out, g, rec, players, trace=False)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_kernel_and_reference_agree_in_distribution_on_many_games(players):
    k = D.run_chunk(RULES, players, 0, 100_000, 4048)
    recs = [REF.play_game(RULES, players, 991, g) for g in range(1500)]
    ref = {f: np.concatenate([getattr(r, f) for r in recs]) for f in PLAYER_FIELDS}
    for f in ("turns", "end_reason", "reshuffles"):
        ref[f] = np.array([getattr(r, f) for r in recs])
    fk, fr = _figures(k, players), _figures(ref, players)
    for name, a in fk.items():
        b = fr[name]
        se = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
        if se > 0:
            assert abs(a.mean() - b.mean()) / se < 4.5, (players, name, a.mean(), b.mean())
    from scipy.stats import ks_2samp

    assert ks_2samp(fk["turns"], fr["turns"]).pvalue > 1e-4


@pytest.mark.parametrize("bot,opponent,games,players", [
    ("planner", "saboteur", 2000, 4),
    ("planner", "random", 1000, 4),
    ("balanced", "random", 2000, 3),
    ("balanced", "random", 2000, 5),
    ("planner", "balanced", 1000, 3),
    ("balanced", "collector", 1000, 2),
])
def test_wider_skill_ladder(bot, opponent, games, players):
    """Measured (seed 2026): planner vs 3 saboteur ~0.48, vs 3 random ~0.98; balanced vs random
    ~0.99 at 3 and 5 players; planner vs 2 balanced ~0.45 (fair 0.33); at 2 players balanced vs
    collector ~0.62 (planner vs balanced at 2 players is only ~0.53 +- 0.014: not asserted)."""
    share, se = _duel(bot, opponent, games, players)
    assert share - 1 / players > 5 * se, (share, se)
