"""Session 60 (review 248 #1): a sweep page says a setting "does not act" only when nothing its games
recorded changed.

Which of a Fief combat's Lords fall (FF-3 ``combat.lords_removed``) or how many Lords the attacker
brings (``combat.default_lords_attacker``) moves no win, point or round, so every metric of the
page was the same in every game, and the page said "this setting does not act" while the
attacker's Lords left differed in most combats; its "measured on" row named the first variant's
Lords for every variant. The page now compares every recorded column game by game and names those
that moved; a setting that truly does nothing (docs/middle_ages_engine.md: ``extra_coin_tokens``
6 → 8 at 3 players) still reads "does not act".
"""

from __future__ import annotations

import re

import polars as pl

from in_process import balance
from undrawn_figures import figures_undrawn
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _page_text(tmp_path, sweep) -> str:
    with figures_undrawn():         # (the words are read)
        balance("report", sweep, "--out", tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    return " ".join(re.sub(r"<[^>]+>", " ", page).replace("&quot;", '"').replace("&#x27;", "'").split())


def _games(sweep, vid: str) -> pl.DataFrame:
    return pl.read_parquet(sweep / "variants" / vid / "games.parquet").sort("game")


def test_which_lords_fall_is_not_called_idle_and_the_lords_that_moved_are_named(tmp_path):
    """FF-3: "last" → "first" changes the Lords left in most combats, no win, point or round."""
    sweep = tmp_path / "s"
    balance("sweep", "--game", "fief-combat", "--vary", 'combat.lords_removed=["last","first"]',
            "--games", 1000, "--out", sweep, "-q")
    a, b = _games(sweep, "v000"), _games(sweep, "v001")
    assert a["winner"].to_list() == b["winner"].to_list()
    moved = int((a["attacker_lords_left"] != b["attacker_lords_left"]).sum())
    assert moved > 500
    text = _page_text(tmp_path, sweep)
    assert "does not act" not in text and "gave every game the same result" not in text
    assert "combat.lords_removed: the page's figures did not change" in text, text[:3000]
    assert (f"attacker_lords_left (the attacker's Lords at the end) differs in {moved:,} of 1,000 games "
            f"(mean {a['attacker_lords_left'].mean():.3g} at \"last\", "
            f"{b['attacker_lords_left'].mean():.3g} at \"first\")") in text, text[:3000]


def test_each_variant_that_played_other_lords_is_measured_on_its_own_combat(tmp_path):
    """FF-1: the attacker's 1, 2 and 3 Lords are each named in "measured on", and the Lords left
    that moved are given at each value."""
    sweep = tmp_path / "s"
    balance("sweep", "--game", "fief-combat", "--vary", "combat.default_lords_attacker=1..3",
            "--games", 1000, "--out", sweep, "-q")
    text = _page_text(tmp_path, sweep)
    for n, lords in ((1, "1 Lord"), (2, "2 Lords"), (3, "3 Lords")):
        assert f"combat.default_lords_attacker={n}: 10 points with {lords} attacking 6 points" in text, text[:2000]
    means = [_games(sweep, v)["attacker_lords_left"].mean() for v in ("v000", "v001", "v002")]
    assert means[0] < means[1] < means[2]
    assert ("attacker_lords_left (the attacker's Lords at the end) differs from its value at 1 in "
            in text) and (f"(mean {means[0]:.3g} at 1, {means[1]:.3g} at 2, {means[2]:.3g} at 3)" in text)
    assert "does not act" not in text


def test_a_sweep_without_rows_says_what_it_compared(tmp_path):
    """Without rows only the page's metrics were summed: the page says so, not "does not act"."""
    sweep = tmp_path / "s"
    balance("sweep", "--game", "fief-combat", "--vary", 'combat.lords_removed=["last","first"]',
            "--games", 1000, "--no-raw", "--out", sweep, "-q")
    text = _page_text(tmp_path, sweep)
    assert "does not act" not in text
    assert ("combat.lords_removed: every value tried gave every game the same win shares, the "
            "winning side's lead (a mutual wipe-out counting as 0) and the game length (the page's "
            "figures); the sweep kept no game rows, so nothing else its games recorded was compared "
            "(sweep again without --no-raw to compare every column)") in text, text[:3000]


def test_a_setting_that_never_binds_still_does_not_act(tmp_path):
    """MA-5: 6 or 8 extra coin tokens at 3 players play the same games, every column the same."""
    sweep = tmp_path / "s"
    balance("sweep", "--game", "middle-ages", "--players", 3, "--vary", "setup.extra_coin_tokens=[6,8]",
            "--games", 200, "--out", sweep, "-q")
    text = _page_text(tmp_path, sweep)
    assert ("setup.extra_coin_tokens: every value tried gave every game the same result (no game's "
            "figures differ between them: the page's and every column its games recorded), so this "
            "setting does not act in these games") in text, text[:3000]
