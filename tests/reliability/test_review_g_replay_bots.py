"""Review G #5: ``balance replay RUN --strategies NAMES`` with bots other than the run's is refused
up front (one line, exit 2), before any game is played again: it replayed the whole game under a
header naming the run's bots and only then failed "the replay differs from the run's row", exit 1.
A name the game does not know is refused in the game's own words, not as "the bots of this run".
A seat whose recorded bot came from a strategy file takes the bot given for it (run.json names
only the file's path).
"""

from __future__ import annotations

import pytest

from in_process import balance


def one_line(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout == "", done.stdout                       # nothing replayed
    return lines[0]


@pytest.fixture
def never_replayed(monkeypatch):
    import simcore.replay as R

    def played(*a, **k):
        raise AssertionError("the game was played again before --strategies was refused")

    monkeypatch.setattr(R, "replay", played)
    monkeypatch.setattr(R, "find_game", played)


@pytest.mark.parametrize("how", [["--game", "3"], ["--find", "seat=1 loses max score"]])
def test_other_bots_than_the_runs_are_refused_before_the_replay(tiny_run, never_replayed, how):
    line = one_line(balance("replay", tiny_run, *how, "--strategies", "random", check=False))
    assert line == ("error: --strategies random: this run was played by balanced,balanced,balanced,"
                    "balanced (run.json), not random,random,random,random; a replay plays the run's "
                    "own bots (leave out --strategies, or name the same bots)"), line
    line = one_line(balance("replay", tiny_run, *how, "--strategies", "balanced,balanced,greedy,balanced",
                            check=False))
    assert "not balanced,balanced,greedy,balanced" in line, line


def test_an_unknown_name_is_not_called_the_runs_bots(tiny_run, never_replayed):
    line = one_line(balance("replay", tiny_run, "--game", "3", "--strategies", "nobot", check=False))
    assert line.startswith("error: --strategies: unknown strategy 'nobot'"), line
    assert "bots of this run" not in line


def test_the_runs_own_bots_and_a_file_bot_are_taken(tiny_run, tmp_path):
    assert balance("replay", tiny_run, "--game", "3", "--strategies", "balanced").returncode == 0
    # a run whose seat 4 played a bot of a strategy file: --strategies names that file elsewhere
    from simcore.replay import read_meta

    from cli.replay import check_strategies

    meta = read_meta(tiny_run)
    meta["strategies"] = ["balanced", "balanced", "balanced", "/elsewhere/bots.toml:mine"]
    check_strategies(meta, "balanced")                          # no refusal
    meta["strategies"] = ["greedy"] * 4
    from simcore.errors import UsageError

    with pytest.raises(UsageError, match="this run was played by greedy"):
        check_strategies(meta, "balanced")
