"""Review s46 (/tmp/s46/rev_tune/findings.md) #10: a tune of one seat's start coins with
Middle-Ages' heuristic bots says that its coins measure the bots' openings.

docs/sweep.md ("Caution: one seat's start coins"): the heuristics price a Moulin or Caserne by
what each opponent can pay now, so a seat given coins makes the *other* seats open on those tiles;
a compensation tuned with them measures those openings as much as the coins. The tune recommended
such compensations with no word of it. Its advice (terminal and page) now carries the caution,
pointing to random bots and the search bot; with random bots, or equal coins, it does not.
"""

from __future__ import annotations

import json

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

TUNE = ["tune", "--game", "middle-ages", "--players", "2", "--target", "seat-balance:20", "--trials",
        "1", "--min-games", "200", "--max-games", "200", "--confirm-games", "400", "-q"]


def test_start_coins_tuned_with_heuristic_bots_carry_the_caution(tmp_path, capsys):
    out = tmp_path / "t"
    assert _run(TUNE + ["--strategies", "balanced", "--vary", "setup.start_coins[1]=3..3",
                        "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    caution = next((ln for ln in printed.splitlines() if ln.startswith("Caution:")), None)
    assert caution is not None, printed
    assert "setup.start_coins = [0, 3]" in caution and "heuristic bots (balanced)" in caution
    assert "the bots' openings" in caution and "Caution: one seat's start coins" in caution
    assert f"--strategies random --rules {out / 'best_rules.toml'})" in caution
    assert "search bot (balance skill --game middle-ages --players 2" in caution
    # before the skill commands it qualifies
    lines = printed.splitlines()
    assert lines.index(caution) < next(i for i, x in enumerate(lines) if x.startswith("as play gets stronger"))
    # result.json names the file in the tune's directory (the same tune elsewhere writes the same)
    stored = json.loads((out / "result.json").read_text(encoding="utf-8"))["cautions"]
    assert len(stored) == 1 and "--rules best_rules.toml, in the tune's directory)" in stored[0]
    assert stored[0].split(" Before relying")[0] == caution.split(" Before relying")[0]
    # and the tune's page says it after its verdict
    assert _run(["report", str(out), "--out", str(tmp_path / "page")]) == 0
    page = (tmp_path / "page" / "report.html").read_text(encoding="utf-8")
    assert "Caution: the tuned rules give the seats different start coins" in page


def test_random_bots_or_equal_coins_carry_no_caution(tmp_path, capsys):
    for name, extra in (("random", ["--strategies", "random", "--vary", "setup.start_coins[1]=3..3"]),
                        # every seat the same coins: no seat is singled out
                        ("equal", ["--strategies", "balanced", "--set", "setup.start_coins=[2, 0]",
                                   "--vary", "setup.start_coins[1]=2..2"])):
        out = tmp_path / name
        assert _run(TUNE + extra + ["--out", str(out)]) == 0
        printed = capsys.readouterr().out
        assert "Caution:" not in printed, (name, printed)
        assert json.loads((out / "result.json").read_text(encoding="utf-8"))["cautions"] == []
