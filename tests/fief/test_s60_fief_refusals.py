"""Session 60 (review 248 #2-#4): Fief combat input that ran wrong or crashed is one line, exit 2.

- FF-3: a mercy threshold K above the largest army (9999 points) crashed simulate, fief-odds
  (Monte Carlo) and sweep with an OverflowError traceback at the kernel's int64 (exit 1); it is
  refused where the rules are validated, naming the setting and the range, before anything runs.
- FF-2/FF-7: ``--terrain castle,castle`` computed every cell twice, and the Monte Carlo check
  joined them as a cross product ("over 200 cells ... 400 tests" for 50 cells).
- FF-3: a mercy threshold for a side without Lords, under ``mercy.requires_lords = true``, can
  never apply (a side without a Lord never asks), yet ran titled "mercy defender:5" with no
  combat ended by mercy; it is refused naming both settings, as Jeanne d'Arc without a Lord is.
"""

from __future__ import annotations

import pytest

from in_process import balance
from simcore.errors import UsageError
from simcore.games.fief import rules as R
from simcore.games.fief.agreement import agreement
from simcore.games.fief.game import resolve_matchup
from simcore.games.fief.odds import odds_frame, parse_terrains

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

HUGE = "99999999999999999999"


def _refused(tmp_path, *args) -> str:
    """``balance ARGS --out tmp/out``: exit 2, one line on stderr, nothing written."""
    done = balance(*args, "--out", tmp_path / "out", check=False)
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()
    return lines[0]


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "fief-combat", "--mercy", f"defender:{HUGE}", "--games", 100],
    ["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--terrain", "open", "--method", "mc",
     "--games", 100, "--mercy", f"defender:{HUGE}"],
    ["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--terrain", "open", "--method", "both",
     "--games", 100, "--mercy", f"attacker:{HUGE}"],
    ["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--terrain", "open", "--mercy",
     f"defender:{HUGE}"],
    ["sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 100, "--mercy",
     f"defender:{HUGE}", "-q"],
])
def test_a_mercy_threshold_above_any_army_is_one_line_naming_the_option_and_range(tmp_path, args):
    """FF-3: K above 9999 (no army has more points) is refused before any combat is played."""
    line = _refused(tmp_path, *args)
    assert "--mercy" in line and "from 0 to 9999" in line, line


@pytest.mark.parametrize("args", [
    ["simulate", "--game", "fief-combat", "--games", 100],
    ["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--terrain", "open", "--method", "mc",
     "--games", 100],
    ["sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 100, "-q"],
])
def test_a_rules_mercy_policy_above_any_army_is_one_line_naming_the_setting(tmp_path, args):
    """FF-3: the same K given as the rules' ``mercy.policy`` (``--set``) is named as that setting."""
    line = _refused(tmp_path, *args, "--set", f'mercy.policy="defender:{HUGE}"')
    assert "mercy.policy" in line and "from 0 to 9999" in line, line


def test_the_largest_mercy_threshold_is_taken_and_one_more_is_refused():
    """FF-3: 9999 is the bound (a side with at most 9999 points asks at K = 9999 as at any K above)."""
    assert R.parse_mercy("attacker:9999,defender:0") == (9999, 0)
    assert R.parse_mercy("defender:00010") == (-1, 10)
    for text in ("defender:10000", "attacker:" + "9" * 5000):
        with pytest.raises(UsageError, match="from 0 to 9999"):
            R.parse_mercy(text)


def test_a_terrain_given_twice_is_refused(tmp_path):
    """FF-7: each terrain's cells once; ``castle,Castle`` is castle twice."""
    for text in ("castle,castle", "open,castle,Castle"):
        line = _refused(tmp_path, "fief-odds", "--attackers", "1-10", "--defenders", "1-5",
                        "--terrain", text, "--method", "both", "--games", 200)
        assert line.startswith(f"error: --terrain '{text}'") and "castle given more than once" in line, line
    assert parse_terrains("city,open") == ["city", "open"]
    assert parse_terrains("all") == ["open", "castle", "city"]


def test_the_monte_carlo_check_counts_each_cell_once_even_when_a_cell_is_listed_twice(rules):
    """FF-7: the agreement joins Monte Carlo and exact rows one to one (it made a cross product of a
    cell listed twice: 4 joined rows per cell and twice the tests)."""
    once = odds_frame(rules, [1, 2, 3], [1, 2], ["castle"], method="both", games=300)
    twice = odds_frame(rules, [1, 2, 3], [1, 2], ["castle", "castle"], method="both", games=300)
    assert twice.height == 2 * once.height
    a, b = agreement(once, None), agreement(twice, None)
    assert (b["cells"], b["tests"]) == (a["cells"], a["tests"]) == (6, 6)
    assert b["p_bonferroni"] == a["p_bonferroni"]


@pytest.mark.parametrize("args,named", [
    (["fief-odds", "--attackers", "1-12", "--defenders", "1-8", "--terrain", "castle",
      "--lords-defender", 0, "--mercy", "defender:5"], ("--mercy defender:5", "--lords-defender 0")),
    (["fief-odds", "--attackers", "1-4", "--defenders", "1-3", "--terrain", "open", "--method", "mc",
      "--games", 100, "--lords-attacker", 0, "--mercy", "attacker:2,defender:1"],
     ("--mercy attacker:2,defender:1", "--lords-attacker 0")),
    (["simulate", "--game", "fief-combat", "--lords-defender", 0, "--mercy", "defender:5",
      "--games", 100], ("--mercy defender:5", "--lords-defender 0")),
    (["simulate", "--game", "fief-combat", "--lords-defender", 0, "--set", 'mercy.policy="defender:5"',
      "--games", 100], ('mercy.policy = "defender:5"', "--lords-defender 0")),
    (["simulate", "--game", "fief-combat", "--set", "combat.default_lords_attacker=0", "--mercy",
      "attacker:3", "--games", 100], ("--mercy attacker:3", "combat.default_lords_attacker = 0")),
    (["sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 100,
      "--lords-defender", 0, "--mercy", "defender:5", "-q"], ("--mercy defender:5", "--lords-defender 0")),
    (["sweep", "--game", "fief-combat", "--vary", "mercy.requires_lords=[false,true]", "--games", 100,
      "--lords-defender", 0, "--mercy", "defender:5", "-q"], ("--mercy defender:5", "--lords-defender 0")),
])
def test_a_mercy_policy_that_can_never_apply_is_refused_naming_both_settings(tmp_path, args, named):
    """FF-3: with ``mercy.requires_lords`` a side without a Lord never asks; a threshold for it is
    refused (one line, exit 2, nothing written), as Jeanne d'Arc without a Lord is (FF-4)."""
    line = _refused(tmp_path, *args)
    assert all(n in line for n in named) and "mercy.requires_lords" in line, line


def test_the_same_pairing_runs_where_a_side_without_lords_may_ask(rules):
    """FF-3: with ``mercy.requires_lords = false`` a side without Lords asks, so the pairing runs and
    mercy ends some combats (the refusal above is only where it never could)."""
    text = R.default_rules_path().read_text(encoding="utf-8")
    free = text.replace("requires_lords = true", "requires_lords = false")
    assert free != text
    loose = R.loads(free, name="<free>")
    R.check_mercy(loose, (-1, 5), (1, 0), True, (False, True))          # taken
    with pytest.raises(UsageError, match="--mercy defender:5 with --lords-defender 0"):
        R.check_mercy(rules, (-1, 5), (1, 0), True, (False, True))
    assert resolve_matchup(loose, attacker=10, defender=6, terrain="castle", darc="none",
                           lords_attacker=None, lords_defender=0, mercy="defender:5")[4] == (-1, 5)
    odds = odds_frame(loose, [10], [6], ["castle"], lords_defender=0, mercy=(-1, 5))
    assert odds["p_attacker_wins_by_mercy"][0] > 0.1
