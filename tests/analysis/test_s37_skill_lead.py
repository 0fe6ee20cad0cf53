"""Review s37 (seig #10): the skill page's lead judged the Seigneur's win share against a built-in
"balance" range (25-50% at 4 players: "one seat's share in 4" to "an even split") although the
designer had given ``--target role=seigneur:0.30:5``, and hedged ("these games cannot tell whether
the Seigneur's advantage is there at every budget") with the Seigneur at 93% and 87% at budgets 4
and 16, while the target section of the same page said "missed at budget 4 … missed at budget 16".

Now, with a target that measures the first role's share, the lead judges every budget against it
(met, missed, cannot tell, as the target section does, and never the other way round); without
one, it says first what is clear (the side ahead at the budgets whose intervals lie outside the
range) and names the range as the one used when no target is given.

The tables are constructed (Seigneurial-like, as tests/analysis/test_skill_review_k1.py's)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import skill as K
from analysis.skill_target import judge, lead_band, role_labels
from analysis.skill_words import advantage, verdict
from analysis.tune.targets import parse_targets
from simcore import games as registry
from test_skill_review_k1 import _table        # a skill table of given Seigneur wins per budget

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

SEIG = registry.get("seigneurial")


# the review's case: the tuned "fix" at 26%, then 93% and 87% under search (100 games a budget)
REVIEW = {0: 26, 4: 93, 16: 87}


def _lead(table, texts=()):
    targets = parse_targets(list(texts), "seigneurial") if texts else ()
    band = lead_band(table, targets, role_labels(SEIG))
    return verdict(advantage(table, False), band=band), targets


def test_the_lead_judges_against_the_designers_target():
    t = _table(REVIEW, 100)
    text, targets = _lead(t, ["role=seigneur:0.30:5"])
    assert "Against the target role=seigneur:0.30:5 (the Seigneur's win share from 25% to 35%)" in text, text
    assert "one seat's share" not in text and "range a balance of the roles" not in text
    assert "missed at budgets 4 and 16 (the Seigneur wins too often)" in text, text
    assert "these games cannot tell at budget 0" in text, text
    assert "the strongest play read (budget 16) misses it" in text, text
    assert "cannot tell whether the Seigneur's advantage" not in text


@pytest.mark.parametrize("wins, texts", [
    (REVIEW, ["role=seigneur:0.30:5"]),
    ({0: 30, 4: 31, 16: 29}, ["role=seigneur:0.30:15"]),            # met at every budget
    ({0: 300, 4: 600, 16: 900}, ["role=seigneur:0.30:5"]),          # met, then missed
    ({0: 5, 4: 30, 16: 31}, ["role=censitaire:0.70:10"]),            # the other side's target
])
def test_the_lead_and_the_target_section_agree_budget_by_budget(wins, texts):
    """Every budget the lead calls met (missed, cannot tell) the target section calls met (missed,
    unclear): one target of one share, so both read the same intervals."""
    games = 1000 if max(wins.values()) > 100 else 100
    t = _table(wins, games)
    text, targets = _lead(t, texts)
    assert text.count("Against the target") == 1, text
    judged = judge(t, targets)
    said = {"met": [], "missed": [], "unclear": []}
    for b in sorted(wins):
        said[judged.filter(pl.col("budget") == b)["budget_outcome"][0]].append(b)
    from analysis.skill_words import _budgets

    if said["met"] and len(said["met"]) < len(wins):
        assert f"met at {_budgets(said['met'])}" in text, (said, text)
    if said["missed"] and len(said["missed"]) < len(wins):
        assert f"missed at {_budgets(said['missed'])}" in text, (said, text)
    if said["unclear"] and len(said["unclear"]) < len(wins):
        assert f"cannot tell at {_budgets(said['unclear'])}" in text, (said, text)
    if len(said["met"]) == len(wins):
        assert "the target is met at every budget, so it holds as play gets stronger" in text, text
    if said["met"] and said["missed"] and max(said["missed"]) == max(wins) > max(said["met"]):
        assert "so it does not hold as play gets stronger" in text, text


def test_the_other_sides_target_is_the_first_roles_band_turned_over():
    t = _table({0: 5, 4: 30, 16: 31}, 100)
    band = lead_band(t, parse_targets(["role=censitaire:0.70:10"], "seigneurial"), role_labels(SEIG))
    assert (band.low, band.high) == pytest.approx((0.2, 0.4))
    assert band.note == "what the Censitaires do not win"
    text, _ = _lead(t, ["role=censitaire:0.70:10"])
    assert ("Against the target role=censitaire:0.70:10 (the Seigneur's win share from 20% to 40%; "
            "what the Censitaires do not win)") in text, text


def test_without_a_target_what_is_clear_is_said_before_what_cannot_be_told():
    text, _ = _lead(_table(REVIEW, 100))
    assert ("the Seigneur's advantage is there at budgets 4 and 16, the strongest play read; these "
            "games cannot tell whether the Seigneur's advantage is there at every budget") in text, text
    # the range is said to be the one used when no target is given, in plain words
    assert ("With no target of one's own given, against the range a balance of the roles can sit in "
            "(from 25%, what any one of the 4 seats wins when all win alike, to 50%, what each side "
            "wins when the two sides win alike") in text, text
    assert "one seat's share in 4" not in text


def test_the_page_and_skill_txt_judge_against_the_target(tmp_path, monkeypatch):
    """balance skill --target: skill.txt, the terminal and the page's lead all judge against it."""
    from cli import _run
    from undrawn_figures import skill_pages_undrawn

    shares = {0: 0.26, 1: 0.93}

    def fake(game, players, budget, part, games, **kw):
        roles = kw["roles"]
        x = shares[budget]
        rows = []
        for s in range(players):
            w = x if s == 0 else (1 - x) / (players - 1)
            lo, hi = K.seat_interval(w, 100)
            rows.append((kw["label"], players, budget, part, s, roles[s], "b", 100, w, lo, hi,
                         *(None,) * len(K.BALANCE_COLUMNS), K.FAMILY_LEVEL, 0.0, 0.0, 0.1))
        return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")

    monkeypatch.setattr(K, "play_cell", fake)
    monkeypatch.chdir(tmp_path)
    with skill_pages_undrawn():
        code = _run(["skill", "--game", "seigneurial", "--players", "4", "--budgets", "0,1", "--games",
                     "100", "--target", "role=seigneur:0.30:5", "--out", "sk", "-q"])
    assert code == 0
    words = (tmp_path / "sk" / "skill.txt").read_text()
    assert "Against the target role=seigneur:0.30:5" in words and "missed at budget 1" in words, words
    import html
    import re

    page = html.unescape(re.sub(r"<[^>]+>", "", (tmp_path / "sk" / "report.html").read_text()))
    assert "Against the target role=seigneur:0.30:5" in page
    assert "range a balance of the roles" not in page
