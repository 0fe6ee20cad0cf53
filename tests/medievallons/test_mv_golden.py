"""Golden playthrough (ARCHITECTURE.md): the reference engine's log of 4 players, seed 7, game 0,
random bots, committed as tests/golden/medievallons_4p_seed7.txt. A rules or engine change shows
up as a readable diff; regenerate with `python -m simcore.games.medievallons.golden --write`.
The log's last lines say how the game ended in the reports' words (the spec's END_WORDS: "Draw pile
ran out"), not run.json's name (``empty_pile``), which the designer review found there.
"""

from __future__ import annotations

import numpy as np

from simcore.games.medievallons import golden
from simcore.games.medievallons import driver as D
from simcore.games.medievallons import reference as REF
from simcore.games.medievallons import rules as R
from simcore.games.medievallons.spec import END_REASONS, END_WORDS


def test_golden_game_is_the_kernels_game_and_says_how_it_ended():
    """The logged game is the one the kernel plays for (seed 7, game 0), to the last decision."""
    text = golden.GOLDEN_PATH.read_text(encoding="utf-8")
    out = D.run_chunk(R.load(), golden.N_PLAYERS, golden.GAME, 1, golden.SEED, trace_decisions=True)
    rec = REF.play_game(R.load(), golden.N_PLAYERS, golden.SEED, golden.GAME)
    assert out["trace"][0] == [(n, c) for _, n, c in rec.decisions]
    np.testing.assert_array_equal(out["win_share"], rec.win_share)
    words = END_WORDS[END_REASONS[rec.end_reason]]
    assert f"turns: {rec.turns}; end: {words}; reshuffles: " in text
    assert f"Game over after {rec.turns} turns: {words} (" in text
    assert not [name for name in END_REASONS if "_" in name and name in text]
    assert text.count("\nTurn ") == rec.turns
    assert text.count("[action]") + text.count("no card and no guild") + text.count("passes") >= rec.turns
