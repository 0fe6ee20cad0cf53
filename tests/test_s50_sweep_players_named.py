"""A sweep page says the player count it was played at when the sweep was run without --players
(review s50 PDF #1: sweep.json records players = null then, and the printed page said the count
nowhere: not in its title, its header table or its first sentence)."""

from __future__ import annotations

import html
import json
import re

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_sweep_without_players_names_the_count_played(tmp_path):
    sweep = tmp_path / "sw"
    assert _run(["sweep", "--out", str(sweep), "--vary", "income.palais.base=2..3", "--games", "3000",
                 "--quiet"]) == 0
    assert json.loads((sweep / "sweep.json").read_text())["players"] is None     # the case
    played = {json.loads(p.read_text())["players"] for p in (sweep / "variants").glob("v*/run.json")}
    assert played == {4}
    assert _run(["report", str(sweep), "--out", str(tmp_path / "r")]) == 0
    page = html.unescape((tmp_path / "r" / "report.html").read_text(encoding="utf-8"))
    assert "<title>Middle-Ages, 4 players: what each setting changes</title>" in page
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert re.search(r"players 4 ", text)                               # the header table's row
    assert "at 4 players" in text
