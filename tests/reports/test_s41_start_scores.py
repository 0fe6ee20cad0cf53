"""The scores the rules fix before the first turn (the report hooks' ``start_scores``), checked
against each game's pure-Python reference engine set up under the same rules: the Seigneur's
progress on his starting square (SG-1, SG-8) and a Middle-Ages seat's start purse (MA-1, MA-9)."""

from __future__ import annotations

import pytest

from reports.games import middle_ages as MA_HOOK
from reports.games import seigneurial as SG_HOOK
from simcore.games.middle_ages import reference as MA_REF
from simcore.games.middle_ages import rules as MA_RULES
from simcore.games.seigneurial import reference as SG_REF
from simcore.games.seigneurial import rules as SG_RULES
from simcore.rng import PyStream


def _text(module, old: str, new: str) -> str:
    text = module.RULES.default_rules_path().read_text(encoding="utf-8")
    assert old in text, old
    return text.replace(old, new)


@pytest.mark.parametrize("square", [0, 1, 3])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_seigneurs_start_is_the_reference_engines_score_before_the_first_turn(square, players):
    text = _text(SG_RULES, "start_square = 0", f"start_square = {square}")
    state = SG_REF.setup_game(SG_RULES.loads(text), players, PyStream(7, 0))
    said = SG_HOOK.start_scores(text, players)
    assert said == {0: float(SG_REF.progress_percent(state, 0))}
    # the Censitaires' starts follow their dealt cards: not fixed by the rules, so not given
    assert set(said) == {0}


@pytest.mark.parametrize("coins", ["5", "[0, 3, 6, 9, 12]"])
@pytest.mark.parametrize("players", [2, 4, 5])
def test_a_seats_start_purse_is_the_reference_engines_coins_before_the_first_turn(coins, players):
    text = _text(MA_RULES, "start_coins = 0", f"start_coins = {coins}")
    rules = MA_RULES.loads(text)
    state = MA_REF.GameState(rules, players)
    assert MA_HOOK.start_scores(text, players) == {s: float(c) for s, c in enumerate(state.coins)}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_before_after_says_which_seat_the_changed_rules_start_with_more_coins(tmp_path, undrawn):
    """Seat 1's start purse 0 → 30 coins (MA-1): its final coins move partly by construction, which
    the before/after says beside that seat's score wherever the change is printed, and of no other
    seat (review #20, s38)."""
    from cli import _run
    from reports.build import build_report

    a, b = tmp_path / "a", tmp_path / "b"
    for out, more in ((a, []), (b, ["--set", "setup.start_coins=[30, 0, 0, 0]"])):
        assert _run(["simulate", "-n", "1200", "--seed", "2", *more, "--out", str(out), "--quiet"]) == 0
    answers: list[str] = []
    html = build_report([a, b], tmp_path / "rep", answers=answers)
    import html as H
    import re

    text = " ".join(H.unescape(re.sub(r"<[^>]+>", " ", html.read_text(encoding="utf-8"))).split())
    said = re.findall(r"the changed rules start (it|Seat \d) at (\d+) coins instead of (\d+)", text)
    assert said, "the start is said"
    assert {(n, b) for _, n, b in said} == {("30", "0")}, said
    # "it" only in Seat 1's own sentence, a seat named only as Seat 1
    assert {w for w, _, _ in said} <= {"it", "Seat 1"}, said
    for m in re.finditer(r"(Seat \d) mean final score: [^.]*?the changed rules start it", text):
        assert m.group(1) == "Seat 1", m.group(0)
    assert "the changed rules start" not in " ".join(x for x in answers if "Seat 1" not in x)
