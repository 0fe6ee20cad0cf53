"""A panel given beside one run is refused in words about that, in either order.

``balance report PANEL RUN`` said "the cells were played under 2 different rule sets … a panel's
page is about one set of rules", which misread the mistake; ``RUN PANEL`` said the panel is a panel
and to give a cell. Both now say what to compare with what.
"""

from __future__ import annotations

import pytest


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_panel_beside_a_run_is_named(tmp_path):
    from cli import _run, _simulate_app
    from in_process import balance
    from simcore import runner

    assert _run(["--panel", "default", "--games", "1000", "--out", str(tmp_path / "panel"), "-q"],
                prog="simulate", target=_simulate_app()) == 0
    run = runner.simulate("middle-ages", games=1000, seed=3, out=tmp_path / "run",
                          settings=["setup.start_coins=5"], quiet=True)
    done = balance("report", tmp_path / "panel", run, "--out", tmp_path / "r", check=False)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert "is a panel and" in line and "one run" in line and "different rule sets" not in line, line
    done = balance("report", run, tmp_path / "panel", "--out", tmp_path / "r", check=False)
    assert done.returncode == 2 and "a panel, not a run" in done.stderr
    assert not (tmp_path / "r").exists()
