"""rules.toml: the FF-1/FF-2 data, the [assumption] settings and strict validation."""

from __future__ import annotations

import pytest

from simcore.errors import ConfigError, UsageError
from simcore.games.fief import rules as R

from fief_helpers import variant

SPEC_TABLE = {
    "city":   [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4],
    "castle": [0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6],
    "open":   [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9],
}


def test_dice_by_points_follow_the_thresholds(rules):
    """FF-1: 1 die for 1-6 points, 2 for 7-12, 3 for 13 or more (10 → 2, 7 → 2, 6 → 1)."""
    assert [rules.dice_for(p) for p in (1, 6, 7, 10, 12, 13, 40)] == [1, 1, 2, 2, 2, 3, 3]


def test_results_table_is_the_spec_table_and_sums_above_18_read_column_18(rules):
    """FF-2: the shipped table equals the spec; [assumption] sums above 18 read the 18 column."""
    for name, row in SPEC_TABLE.items():
        t = R.TERRAINS.index(name)
        assert list(rules.loss[t, 1:19]) == row
        assert all(rules.loss[t, s] == row[-1] for s in range(19, rules.loss.shape[1]))
    assert rules.loss.shape[1] - 1 == 18 + 6        # 3 dice + d'Arc's 6 (FF-4)


def test_shipped_assumption_defaults(rules):
    """FF-2, FF-3, FF-5: each [assumption] of the spec is a setting with the spec's default."""
    s = rules.settings
    assert s["results.clamp_above_table"] is True
    assert s["combat.lords_removed"] == "last"
    assert s["mercy.policy"] == "never" and s["mercy.grant_probability"] == 1.0
    assert s["plague.removed_rounding"] == "down"
    assert rules.default_mercy == (-1, -1)


def test_unclamped_table_must_cover_every_reachable_sum():
    """FF-2: with clamp_above_table = false, 18 columns are not enough once d'Arc adds 6."""
    with pytest.raises(ConfigError, match="results.open: has 18 columns; needs 24"):
        variant(clamp_above_table="false")
    long_row = "[" + ", ".join(str(min(9, (s + 1) // 2)) for s in range(24)) + "]"
    r = variant(clamp_above_table="false", open=long_row, castle=long_row, city=long_row)
    assert r.loss[R.OPEN, 24] == 9


@pytest.mark.parametrize("key,value,message", [
    ("dice_thresholds", "[2, 7]", "must start at 1"),
    ("dice_thresholds", '"three"', "must be a list"),
    ("open", "[0, 1, 1, 2, 2, 3, 2, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9]", "must not decrease"),
    ("city", "[0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]", "single die must be able to inflict a loss"),
    ("lords_removed", '"random"', "must be one of last, first"),
    ("grant_probability", "1.5", "must be <= 1.0"),
    ("requires_lords", "1", "must be true or false"),
    ("policy", '"sometimes"', "not understood"),
    ("removed_rounding", '"nearest"', "must be one of down, up"),
])
def test_bad_settings_stop_with_one_line_naming_the_key(key, value, message):
    """FF-1 … FF-6: wrong types, values and tables are refused with one line."""
    with pytest.raises(ConfigError, match=message) as info:
        variant(**{key: value})
    assert "\n" not in str(info.value)


def test_unknown_key_is_refused():
    """FF-3: a typo in a setting name never passes silently."""
    text = R.default_rules_path().read_text(encoding="utf-8").replace(
        "lords_removed =", "lord_removed =")
    with pytest.raises(ConfigError, match="combat: lords_removed: missing|unknown key"):
        R.loads(text)
    text = R.default_rules_path().read_text(encoding="utf-8") + "\n[weather]\nrain = 1\n"
    with pytest.raises(ConfigError, match="weather: unknown key"):
        R.loads(text)


@pytest.mark.parametrize("text,expected", [
    ("never", (-1, -1)), ("defender:2", (-1, 2)), ("attacker:0", (0, -1)),
    ("attacker:3,defender:1", (3, 1)), ("Defender: 4", (-1, 4)),
])
def test_mercy_policies_parse(text, expected):
    """FF-3: never / when_points_at_most k for either or both sides."""
    assert R.parse_mercy(text) == expected


@pytest.mark.parametrize("text", ["always", "defender", "defender:-1", "defender:2,defender:3", "x:1"])
def test_bad_mercy_policy_is_a_usage_error(text):
    """FF-3: an unreadable policy is one clear line."""
    with pytest.raises(UsageError, match="mercy policy"):
        R.parse_mercy(text)


def test_a_clamped_table_still_needs_a_column_for_every_sum_of_the_dice():
    """FF-2 [assumption] clamps only sums above the table (Jeanne d'Arc's bonus, FF-4): a row of 6
    columns read sums 7-18 from its sixth, silently (review AA #7); it is now one line."""
    with pytest.raises(ConfigError, match=r"results.city: has 6 columns; needs 18 \(one per sum of 3 dice"):
        variant(city="[0, 0, 0, 1, 1, 1]")
