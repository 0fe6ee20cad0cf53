"""Review Z #2: Médiévallons' played first-player question led with "At each, Seat 1's advantage is
within noise" beside 34.9% (32.9–37.0) at 3 players: a verdict of no clear advantage, not of no
advantage. When Seat 1's interval over the player counts (Bonferroni over them) reaches the
smallest difference that matters, the lead now says how far these games cannot rule out. That
interval is Wilson's of the win share at the Bonferroni level minus the fair share (review s60 #3:
the normal interval it was read on before reached a win share of 121% at 5 games a count)."""

from __future__ import annotations

import polars as pl

from analysis import stats
from reports.games.medievallons import _reach_words


def _rows(players, shares, games=2000) -> pl.DataFrame:
    fair = [1 / p for p in players]
    return pl.DataFrame({"players": players, "games": [games] * len(players), "win_share": shares,
                         "fair": fair, "advantage": [s - f for s, f in zip(shares, fair)],
                         "z": [0.0] * len(players)})


def test_the_lead_says_how_large_an_advantage_these_games_cannot_rule_out():
    rows = _rows([3, 4, 5], [1 / 3 + 0.016, 0.254, 0.198])
    words = _reach_words(rows, [0, 1, 2], 0.01)
    lo, hi = (float(x) - 1 / 3 for x in stats.wilson((1 / 3 + 0.016) * 2000, 2000, 1 - 0.05 / 3))
    assert words == (f", but these games cannot rule out an advantage of up to +{100 * hi:.1f} pp at 3 "
                     f"players (its interval over the player counts, −{100 * -lo:.1f} to "
                     f"+{100 * hi:.1f} pp), against the 1 pp that matters; more games would tell "
                     "(`balance questions --games`, or `balance report --questions-games`)"), words


def test_a_disadvantage_is_named_as_one_and_nothing_is_said_when_every_interval_is_narrow():
    rows = _rows([2, 3], [0.48, 1 / 3 + 0.001])
    assert "cannot rule out a disadvantage of up to −" in _reach_words(rows, [0, 1], 0.01)
    narrow = _rows([3, 4], [1 / 3 + 0.001, 0.249], games=1_000_000)
    assert _reach_words(narrow, [0, 1], 0.01) == ""          # every end within 1 pp of fair
