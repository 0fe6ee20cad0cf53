"""Review R #8: the Balance indices' direction as printed.

The Médiévallons before/after said "The table's two Balance indices both fall, untested (Balance,
on places, 0.992 → 0.992; …)": the first moved by −0.00008, which the page prints as no change.
Each index's direction is now read at the three decimals printed."""

from __future__ import annotations

import re

import polars as pl
import pytest

from analysis import stats
from reports.text import INDEX_METRICS, seat_balance_sentence

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _sentence(before_after: dict[str, tuple[float, float]]) -> str:
    balance = pl.DataFrame([{"before": 0.08, "after": 0.07, "before_seat": 1, "after_seat": 1, "change": -0.01,
                             "change_low": -0.03, "change_high": 0.01, "verdict": stats.NOT_SHOWN, "fair": 0.25,
                             "family": 8}])
    cmp = pl.DataFrame([{"metric": "seat_win_share", "key": "Seat 1", "smallest": 0.01, "base": 0.3, "variant": 0.3}]
                       + [{"metric": m, "key": "all", "smallest": None, "base": b, "variant": v}
                          for m, (b, v) in before_after.items()])
    return seat_balance_sentence(balance, cmp)


@pytest.mark.parametrize("values, way", [
    ((0.992375, 0.992292), (0.992, 0.990)),        # the review's: the first the same at three decimals
    ((0.9000, 0.9100), (0.8000, 0.8200)),
    ((0.9100, 0.9000), (0.8200, 0.8000)),
    ((0.9000, 0.9100), (0.8200, 0.8000)),
])
def test_each_index_is_said_to_move_the_way_its_printed_numbers_do(values, way):
    text = _sentence(dict(zip(INDEX_METRICS, (values, way))))
    clause = re.search(r"The table's two Balance indices(.*?), untested \((.*?)\): ", text)
    assert clause is not None, text
    verb, said = clause.group(1).strip(), clause.group(2)
    printed = [tuple(float(x) for x in pair) for pair in re.findall(r"(\d\.\d{3}) → (\d\.\d{3})", said)]
    assert len(printed) == 2
    signs = [(a > b) - (a < b) for b, a in printed]            # +1 up, −1 down, 0 the same as printed
    if signs[0] == signs[1] != 0:
        assert verb == ("both rise" if signs[0] > 0 else "both fall")
    elif signs[0] * signs[1] < 0:
        assert verb == "move opposite ways"
    else:
        assert verb == "" and "the same at three decimals" in said
        for s, part in zip(signs, said.split("; ")):
            assert part.endswith({1: ", up", -1: ", down", 0: ", the same at three decimals"}[s]), said


@pytest.mark.parametrize("game, why", [
    ("seigneurial", "another player count is another game (its roles' sizes and its rules by player count differ)"),
    ("middle-ages", "the fair share differs"),
])
def test_two_player_counts_are_refused_with_the_games_own_reason(game, why, tmp_path, capsys):
    """Review R #10: Seigneurial's refusal said "the fair share differs" of a game whose pages say
    it has none; a game of roles now says the player count changes the game."""
    from cli import _run
    from simcore import runner

    runs = [runner.simulate(game, players=n, games=200, seed=1, out=tmp_path / f"p{n}", quiet=True) for n in (4, 3)]
    capsys.readouterr()
    assert _run(["report", *map(str, runs), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"as a before/after: {why}; give --side-by-side" in err[0], err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("before, after", [(-0.0048, 0.0062), (0.031, -0.02), (0.01, 0.012)])
def test_the_seat_of_the_largest_gap_is_said_to_be_above_or_below_fair(before, after):
    """Review R #9's remainder on the two-run page: with three or more players the largest gap from
    fair may be a seat below it; the sentence now says which side each named seat is on, from the
    signed gap beside it (analysis.panel_compare.seat_balance)."""
    balance = pl.DataFrame([{"before": abs(before), "after": abs(after), "before_seat": 4, "after_seat": 2,
                             "before_signed_gap": before, "after_signed_gap": after, "change": abs(after) - abs(before),
                             "change_low": -0.03, "change_high": 0.03, "verdict": stats.NOT_SHOWN, "fair": 0.25,
                             "family": 8}])
    cmp = pl.DataFrame([{"metric": "seat_win_share", "key": "Seat 1", "smallest": 0.01, "base": 0.3, "variant": 0.3}])
    text = seat_balance_sentence(balance, cmp)
    way = lambda g: "above fair" if g > 0 else "below fair"  # noqa: E731
    assert f"pp (Seat 4, {way(before)}) to " in text and f"pp (Seat 2, {way(after)}), a change" in text, text
