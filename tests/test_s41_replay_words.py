"""``balance replay`` and the golden playthroughs speak the game's words (designer review D #6).

The review found decision ids in brackets (``[found_size]``, ``[corvee_target]``, ``[draw_order]``),
a check line naming ``win_share`` and ``players.parquet``, a row-less check naming the kernel and a
"games row", ``--find`` saying "(221; 16052 candidate rows)", and a Middle-Ages log that showed the
move taken but not the options the README promises. Now each game's reference engine names its
decision kinds (``DECISION_WORDS``, read through :func:`simcore.golden.decision_words`, the kind
itself for an engine without them), Middle-Ages lists its options too (``option_text`` with the
table), the check line uses the reports' column names, and ``--find`` says what it chose among.
The expected figures below are counted from the run's own parquet files, not from the replay.
"""

from __future__ import annotations

import re
import types

import polars as pl
import pytest

from simcore import golden, runner
from simcore.games.medievallons import reference as MV
from simcore.games.middle_ages import reference as MA
from simcore.games.seigneurial import reference as SG
from simcore.replay import find_game, replay

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ENGINES = {"middle-ages": MA, "medievallons": MV, "seigneurial": SG}
GOLDENS = {"medievallons": "medievallons_4p_seed7.txt", "seigneurial": "seigneurial_4p_seed7.txt"}
LABEL = re.compile(r"^      \[([^\]]+)\] P\d chooses ")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("s41_words")
    return {
        # 1,200 games: --find's counts pass a thousand (the review's "16052" without a separator)
        "middle-ages": runner.simulate("middle-ages", games=1200, seed=5, out=root / "ma", quiet=True,
                                       players=4, strategies="balanced"),
        "seigneurial": runner.simulate("seigneurial", games=60, seed=5, out=root / "sg", quiet=True,
                                       players=4),
    }


@pytest.mark.parametrize("game", list(ENGINES))
def test_every_decision_kind_has_words_without_internal_ids(game):
    ref = ENGINES[game]
    words = ref.DECISION_WORDS
    assert set(words) == set(ref.DECISION_KINDS), game
    for kind, said in words.items():
        assert said and "_" not in said, (kind, said)
        assert golden.decision_words(ref, kind) == said


@pytest.mark.parametrize("game", list(GOLDENS))
def test_the_golden_playthroughs_name_decisions_in_words(game):
    """Every bracketed decision of the committed golden file is one of the game's words (no id)."""
    text = golden.golden_path(GOLDENS[game]).read_text(encoding="utf-8")
    labels = {m.group(1) for line in text.splitlines() if (m := LABEL.match(line))}
    assert len(labels) >= 10, labels
    assert labels <= set(ENGINES[game].DECISION_WORDS.values()), labels - set(ENGINES[game].DECISION_WORDS.values())
    for kind in ENGINES[game].DECISION_KINDS:
        if "_" in kind:
            assert f"[{kind}]" not in text, kind


def test_a_game_without_words_shows_its_decision_kind():
    """The hook is optional: an engine without ``DECISION_WORDS`` (or without a kind in it) shows
    the kind; an ``option_text`` without a ``state`` argument is called without it."""
    bare = types.SimpleNamespace(option_text=lambda kind, option: f"#{option}")
    assert golden.decision_words(bare, "pick_one") == "pick_one"
    assert golden.decision_line(bare, "pick_one", [3, 4], 1, 0) == \
        "      [pick_one] P0 chooses #4  (options: #3, #4)"
    some = types.SimpleNamespace(DECISION_WORDS={"a": "Alpha: target"},
                                 option_text=lambda kind, option, state=None: f"{option}@{state}")
    assert golden.decision_words(some, "b") == "b"
    assert golden.decision_line(some, "a", [1, 2, 3], 0, 2, state="T", shown=2) == \
        "      [Alpha: target] P2 chooses 1@T  (options: 1@T, 2@T, … (3 in all))"


def test_middle_ages_replay_lists_the_options_of_every_decision(runs):
    """The README's "every decision with its options" holds for Middle-Ages too: one decision line
    per decision of the game (the final table's count), each naming a tile among its options, and
    the Lord then moves to the tile chosen (the engine's own next line says where)."""
    text = replay(runs["middle-ages"], 3).text
    lines = text.splitlines()
    decided = [i for i, x in enumerate(lines) if LABEL.match(x)]
    n = int(re.search(r"decisions: (\d+)", text).group(1))
    assert len(decided) == n and n >= 64, (len(decided), n)      # 4 placements + 60 moves at least
    moves = 0
    for i in decided:
        line = lines[i]
        label = LABEL.match(line).group(1)
        assert label in MA.DECISION_WORDS.values()
        chosen = re.search(r" chooses (.+?)  \(options: (.+)\)$", line)
        assert chosen, line
        options = chosen.group(2).split(", ")
        assert chosen.group(1) in options or "in all)" in options[-1], line
        if label == MA.DECISION_WORDS[MA.MOVE]:
            seat, row, col = re.search(r"P(\d) chooses row (\d) c(\d) \S+", line).groups()
            assert re.match(rf"    P{seat}: Lord row \d c\d -> row {row} c{col}", lines[i + 1]), lines[i:i + 2]
            moves += 1
    assert moves == 60


def test_the_check_line_and_the_find_note_are_in_the_reports_words(runs):
    run = runs["middle-ages"]
    last = replay(run, 0).lines[-1]
    assert last == ("Check: the final coins, win share, rank, Champs … Palais tiles, Graveyard, penalty, "
                    "event 1 gain … event 4 gain, coins before event 1 … coins before event 4 and "
                    "coins after turn 1 … coins after turn 16 of every seat match the run's records, "
                    "and so do the game's event 1 … event 4 and reshuffles (37 per-seat columns and "
                    "5 of the game's)."), last          # every column compared (review s46 #5)
    df = pl.read_parquet(run / "players.parquet")
    lost = df.filter((pl.col("seat") == 0) & (pl.col("win_share") == 0))
    best = int(lost["score"].max())
    g, why = find_game(run, "seat=1 loses max score")
    assert why == (f"game {g}: seat 1 loses with the most coins ({best} coins; among the "
                   f"{lost.height:,} games seat 1 lost)"), why
    _, why = find_game(run, "loses min score")
    losers = df.filter(pl.col("win_share") == 0)
    assert losers.height >= 1000 and f"{losers.height:,}" in why      # "3,550", not "3550"
    assert why.endswith(f"; among the {losers.height:,} losers of "
                        f"{losers['game'].n_unique():,} games)"), why


def test_a_role_of_several_seats_is_a_censitaire_among_its_places(runs):
    run = runs["seigneurial"]
    df = pl.read_parquet(run / "players.parquet")
    lost = df.filter((pl.col("seat") > 0) & (pl.col("win_share") == 0))
    _, why = find_game(run, "role=censitaire loses max score")
    assert ": a Censitaire loses with the highest goal progress (" in why, why
    assert why.endswith(f"% of own goal; among the {lost.height:,} times a Censitaire lost, in "
                        f"{lost['game'].n_unique():,} games)"), why
    seigneur_lost = df.filter((pl.col("seat") == 0) & (pl.col("win_share") == 0))
    _, why = find_game(run, "role=seigneur loses min score")
    assert ": the Seigneur loses with the lowest goal progress (" in why, why
    assert why.endswith(f"; among the {seigneur_lost.height:,} games the Seigneur lost)"), why
    text = replay(run, 1).text
    labels = {m.group(1) for x in text.splitlines() if (m := LABEL.match(x))}
    assert labels and labels <= set(SG.DECISION_WORDS.values()), labels


def test_a_replay_of_a_run_without_rows_says_so_in_words(tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "RAW_LIMIT", 5)
    run = runner.simulate("middle-ages", games=12, seed=3, out=tmp_path / "big", quiet=True, players=3)
    assert not (run / "players.parquet").exists()
    last = replay(run, 4).lines[-1]
    assert last.startswith("Check: the final coins, win share, rank, Champs … Palais tiles, Graveyard, "
                           "penalty, "), last                   # every column (review s46 #5)
    assert "of every seat match the game played again by the simulator" in last, last
    for word in ("kernel", "games row", "parquet", "win_share"):
        assert word not in last, (word, last)
