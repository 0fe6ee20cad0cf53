"""Review s51 (data safety, bad input): refusals before any game, and the output a command names."""

from __future__ import annotations

import pytest

from simcore.errors import UsageError


def test_a_player_count_of_zero_in_a_vary_is_refused_before_any_game():
    """--vary players=[0,4] played 0 as "not given" (4 players) under the label players=0, and the
    sweep's report then refused the sweep as damaged."""
    from analysis.sweep.play import plan_sweep

    with pytest.raises(UsageError) as e:
        plan_sweep("middle-ages", varies=["players=[0,4]"], games=100)
    assert "--players 0: Middle-Ages is played by 2 to 5 players" in str(e.value), str(e.value)
