"""A role target's share and band (review s48 tune #3): a bare 1 is refused (it could be 1% or
100%), and a band that reaches 0% or 100% is warned of before any game (a side that never, or
always, wins meets it), while a one-sided band stays a designer's target (test_s46_tune_targets)."""

from __future__ import annotations

import pytest

from simcore.errors import UsageError


def test_a_bare_one_is_neither_one_percent_nor_all_games():
    from analysis.tune.targets import parse_target

    with pytest.raises(UsageError, match=r"could be 1% or 100%: write 1% or 100%"):
        parse_target("role=seigneur:1", "seigneurial")
    assert parse_target("role=seigneur:1%", "seigneurial").aim == pytest.approx(0.01)
    assert parse_target("role=seigneur:100%:2", "seigneurial").aim == 1.0
    assert parse_target("role=seigneur:1.3", "seigneurial").aim == pytest.approx(0.013)
    assert parse_target("role=seigneur:0.3", "seigneurial").aim == pytest.approx(0.3)


@pytest.mark.parametrize("target, edge, side", [
    ("role=seigneur:1.3", "runs from −0.2% to 2.8%: it reaches 0%", "never"),
    ("role=seigneur:0.05:10", "runs from −5.0% to 15.0%: it reaches 0%", "never"),
    ("role=seigneur:0.995:1", "runs from 98.5% to 100.5%: it reaches 100%", "always"),
])
def test_a_band_reaching_an_end_is_warned_of(target, edge, side):
    from analysis.tune.search import plan_tune

    plan = plan_tune("seigneurial", varies=["track.start_square=0..3"], targets=[target],
                     confirm_games=400_000)
    said = [w for w in plan.warnings if "reaches" in w]
    assert len(said) == 1 and said[0].startswith(f"Warning: --target {target}: the band "), plan.warnings
    assert edge in said[0] and f"a Seigneur side that {side} wins meets it" in said[0], said


def test_a_band_inside_zero_to_one_hundred_is_not_warned_of():
    from analysis.tune.search import plan_tune

    plan = plan_tune("seigneurial", varies=["track.start_square=0..3"], targets=["role=seigneur:30%:10"],
                     confirm_games=20_000)
    assert not [w for w in plan.warnings if "reaches" in w], plan.warnings
