"""A folder named ``configs`` in the working directory (ci.md has the user write
``configs/baselines/my_game.toml``) does not take the place of the toolkit's own (review s48 docs
#7: the documented Python examples stopped with "MultiplexedPath.joinpath() takes 2 positional
arguments but 3 were given")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
from simcore import runner
from simcore.games.middle_ages import rules
from strategies import middle_ages, panels
print(runner.simulate('fief-combat', attacker=10, defender=6, terrain='castle', games=200, out='r', quiet=True))
print(rules.default_rules_path())
print(middle_ages.presets_path())
print(panels.panels_path('seigneurial'))
"""


def test_a_local_configs_folder_is_not_the_toolkits(tmp_path):
    (tmp_path / "configs" / "baselines").mkdir(parents=True)
    (tmp_path / "configs" / "baselines" / "my_game.toml").write_text("# a user's baseline\n")
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "r" and (tmp_path / "r" / "run.json").is_file()
    for line, rel in zip(lines[1:], ("middle_ages/rules.toml", "middle_ages/strategies.toml",
                                     "seigneurial/panels.toml")):
        assert Path(line) == ROOT / "configs" / rel
