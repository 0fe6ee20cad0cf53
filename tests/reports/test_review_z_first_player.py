"""Review Z #2: Médiévallons' played first-player question led with "At each, Seat 1's advantage is
within noise" beside 34.9% (32.9–37.0) at 3 players: a verdict of no clear advantage, not of no
advantage. When the interval the verdict is read on (Bonferroni over the player counts) reaches
the smallest difference that matters, the lead now says how far these games cannot rule out."""

from __future__ import annotations

import polars as pl
from scipy.stats import norm

from reports.games.medievallons import _reach_words


def test_the_lead_says_how_large_an_advantage_these_games_cannot_rule_out():
    rows = pl.DataFrame({"players": [3, 4, 5], "advantage": [0.016, 0.004, -0.002], "z": [1.5, 0.4, -0.2]})
    words = _reach_words(rows, [0, 1, 2], 0.01)
    zc = norm.ppf(1 - 0.05 / 6)                      # Bonferroni over the 3 counts, two-sided
    se = 0.016 / 1.5
    low, high = 0.016 - zc * se, 0.016 + zc * se
    assert words == (f", but these games cannot rule out an advantage of up to +{100 * high:.1f} pp at 3 "
                     f"players (its interval over the player counts, −{100 * -low:.1f} to "
                     f"+{100 * high:.1f} pp), against the 1 pp that matters; more games would tell "
                     "(`balance questions --games`, or `balance report --questions-games`)"), words


def test_a_disadvantage_is_named_as_one_and_nothing_is_said_when_every_interval_is_narrow():
    rows = pl.DataFrame({"players": [2, 3], "advantage": [-0.02, 0.001], "z": [-1.8, 0.2]})
    assert "cannot rule out a disadvantage of up to −" in _reach_words(rows, [0, 1], 0.01)
    narrow = pl.DataFrame({"players": [3, 4], "advantage": [0.001, -0.001], "z": [1.0, -1.0]})
    assert _reach_words(narrow, [0, 1], 0.01) == ""          # every end within 1 pp of fair
