"""Session 63 #1 (review 283): ``balance skill --budgets 0,4 --games 400`` printed "over all its
games it is clearly the stronger player, so the budgets do measure stronger play" from one
searching seat among the bots only. The reverse, one non-searching bot among searchers, wins
36-45% at budget 4 in 4-player Middle-Ages (above the fair 25%; ``analysis.ladder.duel``, 800
games, seed 11): a lone seat gains whatever it plays, so a lone searching seat's gain is not by
itself stronger play, and a skill run does not play the reverse. The sentence now words what was
measured ("one searching seat gains …") and says what it does not show. Made-up skill tables; no
games are played."""

from __future__ import annotations

import polars as pl

from reports import skill as page


def _table(top_shares, base_shares=(0.25, 0.25, 0.25, 0.25), n_one=100, n_all=400):
    rows = []
    for seat, w in enumerate(base_shares):
        rows.append({"cell": "4p", "budget": 0, "part": "all", "seat": seat, "bot": "balanced",
                     "games": n_all, "win_share": w, "ci_low": max(w - 0.04, 0.0), "ci_high": min(w + 0.04, 1.0)})
        rows.append({"cell": "4p", "budget": 0, "part": "one", "seat": seat, "bot": "balanced",
                     "games": n_one, "win_share": w, "ci_low": max(w - 0.08, 0.0), "ci_high": min(w + 0.08, 1.0)})
    for seat, w in enumerate(top_shares):
        rows.append({"cell": "4p", "budget": 4, "part": "one", "seat": seat, "bot": "search4",
                     "games": n_one, "win_share": w, "ci_low": max(w - 0.1, 0.0), "ci_high": min(w + 0.1, 1.0)})
    return pl.DataFrame(rows)


def test_s63_every_seat_gaining_is_not_called_stronger_play():
    words = page.gain_sentence(_table((0.49, 0.56, 0.50, 0.52)))
    assert "measure stronger play" not in words and "bot is the stronger player," not in words, words
    assert ": one searching seat gains on the seat's own bot." in words, words
    assert "These games play no bot alone among searching seats" in words, words


def test_s63_an_overall_gain_is_not_called_stronger_play():
    # the review's run: seats 49, 56, 39, 39% of 100 games against about 25% (seat 3 not clear)
    words = page.gain_sentence(_table((0.49, 0.56, 0.33, 0.39), (0.20, 0.223, 0.308, 0.27)))
    assert "measure stronger play" not in words and "clearly the stronger player" not in words, words
    assert "over all its games one searching seat clearly gains on the bots, though seat by seat" in words, words
    assert "These games play no bot alone among searching seats" in words, words
