"""A skill page says when the one-searching-seat part played more games than ``--games`` (review
45 #6: "302 games per budget and part … 76 per seat", 4 × 76 = 304 played). Read from the table."""

from __future__ import annotations

import json

import polars as pl
from skill_dirs import played_skill

from reports.skill import _per_seat
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_rounded_up_games_are_said(tmp_path_factory):
    out = played_skill(tmp_path_factory, "--games", "41")        # 2 players: 21 a seat, 42 in all
    q = json.loads((out / "skill.json").read_text())
    t = pl.read_parquet(out / "skill.parquet")
    one = t.filter(pl.col("part") == "one")
    per = int(one["games"].max())
    total = int(one.filter(pl.col("budget") == one["budget"].min())["games"].sum())
    assert total != q["games"] == 41
    assert _per_seat(q, t) == f"{per}, rounded up: {total} in all"
