"""``balance replay`` of a Seigneurial game says how it ended in the reports' words.

The designer review found the replay's last lines saying "Game over after turn 6:
censitaire_objective, P4 wins" and "turns: 6; end: censitaire_objective; winner: P4; …": run.json's
internal names, where the page's End reasons table says "Censitaire objective" and "Seigneur goal,
winning a tie (SG-6)". Both lines now say the table's words.
"""

from __future__ import annotations

import re

import polars as pl

from simcore import runner
from simcore.games.seigneurial.spec import END_REASONS

# the End reasons table's words (docs/seigneurial.md, End reasons), written out here
WORDS = {0: "Censitaire objective", 1: "Seigneur goal", 2: "Turn limit reached",
         3: "Seigneur goal, winning a tie (SG-6)"}


def test_the_replay_ends_in_the_end_reasons_table_words(tmp_path):
    from analysis.length import end_reason_label
    from analysis.load import open_runs
    from in_process import balance

    run = runner.simulate("seigneurial", games=1000, seed=0, out=tmp_path / "sg", quiet=True)
    rs = open_runs([run])
    # the words written out above are the page's (its End reasons table's labels)
    assert {c: end_reason_label(END_REASONS[c], rs) for c in WORDS} == WORDS
    g = pl.read_parquet(run / "games.parquet")
    firsts = g.group_by("end_reason").agg(pl.col("game").min()).sort("end_reason")
    assert {1, 3} <= set(firsts["end_reason"].to_list())          # (the seed has both Seigneur wins)
    for code, game in zip(firsts["end_reason"], firsts["game"]):
        text = balance("replay", run, "--game", game).stdout
        turns = int(g.filter(pl.col("game") == game)["turns"][0])
        assert f"turns: {turns}; end: {WORDS[code]}; winner: " in text
        assert re.search(rf"Game over after turn {turns}: {re.escape(WORDS[code])}, ", text)
        for name in END_REASONS:
            if "_" in name:
                assert name not in text, (code, name)
