"""A Fief rules file that leaves a setting out plays the loader's default, and a rules diff reads it
so (review s52 Fief #4: "darc.bonus: 6 → (absent)" beside identical odds)."""

from __future__ import annotations

import re
from dataclasses import fields

import numpy as np
import pytest

from analysis.rules_diff import settings_diff
from simcore.games.fief import rules as R

SHIPPED = open(R.default_rules_path() if hasattr(R, "default_rules_path") else "configs/fief/rules.toml",
               encoding="utf-8").read()


def _same(a, b) -> bool:
    for f in fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name == "source":
            continue
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            if not np.array_equal(np.asarray(x), np.asarray(y)):
                return False
        elif x != y:
            return False
    return True


@pytest.mark.parametrize("key", sorted(R.ABSENT_DEFAULTS))
def test_a_setting_left_out_is_the_default_in_play_and_in_the_diff(key):
    name = key.split(".")[1]
    left_out, n = re.subn(rf"^{name}\s*=.*\n", "", SHIPPED, flags=re.M)
    assert n == 1, key
    assert _same(R.loads(left_out), R.loads(SHIPPED)), key
    assert settings_diff(SHIPPED, left_out) == [] and settings_diff(left_out, SHIPPED) == []


def test_a_real_change_of_a_left_out_setting_is_still_said():
    left_out = re.sub(r"^bonus\s*=.*\n", "", SHIPPED, flags=re.M)
    changed = re.sub(r"^bonus\s*=\s*6", "bonus = 9", SHIPPED, flags=re.M)
    assert [c.text for c in settings_diff(left_out, changed)] == ["darc.bonus: 6 (left out: the default) → 9"]
