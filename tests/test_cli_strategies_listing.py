"""``balance strategies`` (revD #12): at the default 80 columns the table wraps at spaces and never
breaks a word ("Game-independen|t"), fits the 80 columns, names how ``searchN`` bots are called,
and the rollout preset's description says what its playouts are (every seat on its own bot, this
one on its own weights, which include events), as strategies.toml's kind comment and weights say."""

from __future__ import annotations

import re

import pytest

from cli.strategies import list_strategies
from simcore import games as registry


@pytest.mark.parametrize("game", ["middle-ages", "medievallons", "seigneurial"])
def test_the_listing_wraps_at_spaces_within_80_columns(game, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "80")
    list_strategies(game=game, file="")
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80, out
    text = " ".join(re.sub(r"[│┃┏┓┗┛┡┩└┘┳┻╇━─┴┬]", " ", out).split())
    S = registry.import_hook(registry.get(game).strategies)
    for s in S.presets().values():
        for word in s.description.split():
            assert word in text.split(), (word, out)      # every word whole, none broken across lines
    assert "searchN" in out and "search64" in out


def test_the_rollout_description_says_what_its_playouts_play():
    from strategies import middle_ages

    rollout = middle_ages.presets()["rollout"]
    assert "balanced bots" not in rollout.description
    assert "every seat on its own bot" in rollout.description
    assert rollout.weights.get("events", 0) > 0 and "events" in rollout.description
