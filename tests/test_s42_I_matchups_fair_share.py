"""The matchups export of a game with roles reads each bot against its role's average seat, as the
report does, not 1/P (review C #6, session 42: a Seigneurial run's Censitaire bots were written with
``fair_share`` 0.25 beside a win share of 0.254, which read as fair where the report said 7.9 pp
below the role's average seat of 33.3 %). The expected value is computed here from the run's own
player rows."""

from __future__ import annotations

import polars as pl
import pytest

from cli import _run
from simcore import runner


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    return runner.simulate("seigneurial", games=2000, seed=7, out=tmp_path_factory.mktemp("m") / "mix",
                           quiet=True, raw=True, strategies="even-lord,fair-share,objective,fair-share")


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
def test_matchups_fair_share_is_the_roles_average_seat(mixed, tmp_path, suffix):
    out = tmp_path / f"matchups.{suffix}"
    assert _run(["export", str(mixed), "--what", "matchups", "--out", str(out)]) == 0
    table = pl.read_csv(out) if suffix == "csv" else pl.read_parquet(out)
    assert table.height == 2 and set(table["strategy"]) == {"fair-share", "objective"}
    rows = pl.read_parquet(mixed / "players.parquet")
    censitaire_seat = rows.filter(pl.col("seat") > 0)["win_share"].mean()     # seats 2-4: Censitaires
    assert table["fair_share"].to_list() == pytest.approx([censitaire_seat] * 2, abs=1e-9)
    assert abs(censitaire_seat - 0.25) > 0.05          # not 1/P
