"""A panel before/after lists a setting whose values differ by player count with each count's
values (review 45 #4: ``--set setup.start_coins[0]=5`` over cells of 3 and 4 players read
"setup.start_coins: 0 → [5, 0, 0]", the 3-player value, for every cell). The expected values are
each cell's own run.json rules, read with tomllib."""

from __future__ import annotations

import html
import json
import re
import tomllib

import pytest

from cli import _run
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _panel(out, *extra: str) -> None:
    assert _run(["simulate", "--players", "3,4", "--lineup", "balanced", "--games", "40", "--quiet",
                 "--out", str(out), *extra]) == 0


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    d = tmp_path_factory.mktemp("per_count")
    _panel(d / "a")
    _panel(d / "b", "--set", "setup.start_coins[0]=5")
    with figures_undrawn():
        assert _run(["report", str(d / "a"), str(d / "b"), "--out", str(d / "rep")]) == 0
    raw = (d / "rep" / "report.html").read_text(encoding="utf-8")
    return d, re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", raw)))


def _coins(run_dir) -> tuple[int, list]:
    meta = json.loads((run_dir / "run.json").read_text(encoding="utf-8"))
    return int(meta["players"]), tomllib.loads(meta["rules_text"])["setup"]["start_coins"]


def test_each_player_count_gets_its_own_values(page):
    d, text = page
    after = dict(_coins(p) for p in sorted((d / "b").glob("cell-*")))
    assert set(after) == {3, 4} and len(after[3]) == 3 and len(after[4]) == 4
    said = "; ".join(f"[{', '.join(map(str, after[P]))}] at {P} players" for P in (3, 4))
    assert f"setup.start_coins: 0 → {said}" in text, text[text.find("What changed"):][:400]
