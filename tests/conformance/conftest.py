"""The conformance suite also checks Pig (tests/conformance/pig), a game registered only here:
the worked example of docs/adding-a-game.md."""

from simcore import games

games.register("pig.spec")
