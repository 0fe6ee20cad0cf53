"""Two runs whose seats name the same bots (``bots.toml:mine``) read from a file edited between
them played other bots. run.json records each file's text and sha256 (``strategy_files``), and:

* ``balance report A B`` compares them (two configurations) instead of pooling them as one, or
  refusing them as "the very same games" (same seed): :func:`analysis.load.config_key` and
  :func:`simcore.rundir.run_identity` include the files' hashes (:func:`simcore.rundir.bots_key`);
* the before/after's first sentence says the bots' file was edited, instead of "any difference
  comes from the bots, the seed or the number of games" beside "the same game numbers and bots".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from in_process import balance

MINE = '''[mine]
description = "Balanced with a taste for Palais."
kind = "heuristic"
weights = { value = 1.0, fill = 0.5, combo = 1.0, order = 1.0, defense = 0.5 }
bias = { palais = 4.0 }
'''


@pytest.fixture(scope="module")
def edited(tmp_path_factory) -> tuple[Path, Path, Path]:
    """Runs A and B (same seed, rules and bot names; the file edited in between) and C (A again,
    the file as it was)."""
    root = tmp_path_factory.mktemp("edited")
    bots = root / "bots.toml"
    lineup = f"{bots}:mine,balanced,balanced,balanced"
    out = []
    for name, text in (("A", MINE), ("B", MINE.replace("palais = 4.0", "champs = 6.0")), ("C", MINE)):
        bots.write_text(text)
        balance("simulate", "--games", "300", "-q", "--out", root / name, "--strategies", lineup)
        out.append(root / name)
    return tuple(out)


def test_runs_of_an_edited_bot_file_are_two_configurations(edited):
    from analysis.load import group_runs
    from simcore.rundir import check_distinct_runs, read_meta

    from simcore.errors import UsageError

    a, b, c = edited
    assert len(group_runs([a, b])) == 2
    check_distinct_runs([a, b], [read_meta(a), read_meta(b)])        # not "given twice"
    # the file as it was: the very same games as A, refused when pooled
    with pytest.raises(UsageError, match="given twice"):
        group_runs([a, c])
    with pytest.raises(UsageError, match="given twice"):
        check_distinct_runs([a, c], [read_meta(a), read_meta(c)])


def test_the_before_after_says_the_bots_file_was_edited(edited):
    from reports.rules_diff import bot_file_changes, diff_sentences
    from simcore.rundir import read_meta

    a, b, c = edited
    ma, mb, mc = read_meta(a), read_meta(b), read_meta(c)
    bots = str(Path(a).parent / "bots.toml")
    assert bot_file_changes(ma, mb) == bots
    assert bot_file_changes(ma, mc) == ""
    first = diff_sentences([], "A", "B", ma, mb)[0]
    assert first == (f"B plays the same rule settings as A (same rules file hash) and bots of the same "
                     f"names read from files edited between the runs ({bots}): the differences come "
                     f"from those bots (and the seed or the number of games, where they differ).")
    # C is the very same games as A (above): said so, not "any difference comes from the bots"
    # (review s53 #4)
    assert "the same games, so the runs should not differ" in diff_sentences([], "A", "C", ma, mc)[0]
    # the presets edited: named as the game's preset bots
    mp = {**mb, "strategy_files": {**ma["strategy_files"]}}
    key = "configs/middle_ages/strategies.toml"
    mp["strategy_files"][key] = {**mp["strategy_files"][key], "sha256": "0" * 64}
    assert bot_file_changes(ma, mp) == f"the game's preset bots ({key})"
