"""A Seigneurial before/after read as a designer reads it (review s46 #6).

(a) Its answer said "Did the role win rates move? Not by enough to matter" and the figure's
caption, just below, "Role win rates moved: Seigneur side +0.4 pp (clear but small)": each true,
together a contradiction to the eye. The caption now says the move is not by enough to matter
whenever every role that moved did so by less than what matters.

(b) Two runs of the same rules and different bots: the page said "any difference comes from the
bots, the seed or the number of games" and then "The bots differ too …, so not all of a change
comes from the rules", where none of it does."""

from __future__ import annotations

import html
import re

import undrawn_figures as undrawn
from cli import _run
import pytest

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


def _page(out) -> str:
    text = (out / "report.html").read_text()
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", text)))


def test_caption_says_a_small_move_is_not_enough_to_matter(tmp_path):
    a, b, rep = tmp_path / "a", tmp_path / "b", tmp_path / "rep"
    assert _run(["simulate", "--game", "seigneurial", "--games", "20000", "--out", str(a), "-q"]) == 0
    assert _run(["simulate", "--game", "seigneurial", "--set", "payment.order=simultaneous",
                 "--games", "20000", "--out", str(b), "-q"]) == 0
    with undrawn.figures_undrawn():
        assert _run(["report", str(a), str(b), "--out", str(rep)]) == 0
    page = _page(rep)
    answer = re.search(r"Did the role win rates move\? (.{0,40})", page)[1]
    caption = re.search(r"Role win rates (moved.{0,60}|did not move[^(]*)", page)[1]
    # (seed 0, 20,000 games: the Seigneur's side +0.4 pp, clear but small)
    assert answer.startswith("Not by enough to matter"), answer
    assert caption.startswith("moved, though not by enough to matter: Seigneur side +0.4"), caption


def test_bots_alone_differ_no_rule_share_claimed(tmp_path):
    a, b, rep = tmp_path / "a", tmp_path / "b", tmp_path / "rep"
    assert _run(["simulate", "--game", "seigneurial", "--games", "2000", "--out", str(a), "-q"]) == 0
    assert _run(["simulate", "--game", "seigneurial", "--strategies",
                 "harsh-lord,objective,dutiful,hoarder", "--games", "2000", "--out", str(b), "-q"]) == 0
    with undrawn.figures_undrawn():
        assert _run(["report", str(a), str(b), "--out", str(rep)]) == 0
    page = _page(rep)
    assert "plays the same rule settings as a" in page, page[:2000]
    assert "not all of a change comes from the rules" not in page
    assert ("The bots differ (a: standard, standard, standard, standard; b: harsh-lord, objective, "
            "dutiful, hoarder).") in page
