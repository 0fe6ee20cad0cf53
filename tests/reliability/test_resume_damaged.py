"""A resumed sweep or panel called a damaged variant or cell played (run.json there, a file
missing or changed since): exit 0 and "complete", after which balance report refused it and said
"rerun", which did nothing. A variant or cell whose files no longer match its run.json's
integrity record is now played again, the same games, on the same command."""

from __future__ import annotations

import pytest
from in_process import balance
from undrawn_figures import figures_undrawn   # the pages' words and refusals are read, not drawn

SWEEP = ("sweep", "--vary", "setup.extra_coin_tokens=[2,3]", "--games", 200, "--players", 4, "-q")
PANEL = ("simulate", "--panel", "default", "--games", 150, "-q")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_damaged_variant_is_played_again_on_resume(tmp_path):
    out = tmp_path / "sw"
    balance(*SWEEP, "--out", out)
    games = out / "variants" / "v000" / "games.parquet"
    whole = games.read_bytes()
    games.unlink()
    assert balance("report", out, "--out", tmp_path / "r0", check=False).returncode == 2
    balance(*SWEEP, "--out", out)
    assert games.read_bytes() == whole
    with figures_undrawn():
        assert balance("report", out, "--out", tmp_path / "r1").returncode == 0


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_damaged_cell_is_played_again_on_resume(tmp_path):
    out = tmp_path / "pa"
    balance(*PANEL, "--out", out)
    games = out / "cell-1" / "games.parquet"
    whole = games.read_bytes()
    games.write_bytes(whole[:-10] + b"0123456789")          # changed, same size
    balance(*PANEL, "--out", out)
    assert games.read_bytes() == whole
    with figures_undrawn():
        assert balance("report", out, "--out", tmp_path / "r").returncode == 0
