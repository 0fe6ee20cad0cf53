"""The guild before/after caption says which clear founded-share changes the figure leaves out
(review s47: "and 10 more (all in the figure)" counted the Bouffon, founded by 25 player-games,
which the figure leaves out as too rare to draw)."""

from __future__ import annotations

import polars as pl

from reports.games.medievallons import _more_clear

CARDS = ["assassin", "pretre", "etoile", "moine", "bouffon", "noble"]


def _guilds(rare: set[str]) -> dict:
    return {"guild_types": pl.DataFrame({
        "card": CARDS,
        "founders": [25 if c in rare else 5000 for c in CARDS],
        "founded_share": [0.0003 if c in rare else 0.3 for c in CARDS],
        "founders_win_share": [0.5] * len(CARDS)})}


def test_a_rare_type_is_named_as_left_out_of_the_figure():
    clear = pl.DataFrame({"key": CARDS})
    said = _more_clear(clear, _guilds({"bouffon"}))
    assert said == "; and 3 more (2 in the figure; Bouffon only in the table, founded too rarely to draw)"


def test_all_in_the_figure_only_when_they_are():
    clear = pl.DataFrame({"key": CARDS})
    assert _more_clear(clear, _guilds(set())) == "; and 3 more (all in the figure)"
    assert _more_clear(clear.head(3), _guilds({"bouffon"})) == ""
