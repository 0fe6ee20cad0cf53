"""``balance tune`` of a setting no player count it plays reads (session 62 #2).

``balance tune --game seigneurial --players 3 --vary track.goal.4=8..12 …`` searched the goal of 4
players in 3-player games: every candidate played the same games, so the search raced identical
candidates and confirmed whichever came first as "the" fix. A sweep refuses such a --vary before any
game (review s61 #1); the tune now does too, from the same decision (:func:`analysis.sweep.play.check_read`,
:func:`analysis.rules_diff.reads_setting`): one line, exit code 2, naming the setting and the count.
A setting read at some count the tune plays (a varied player count, a panel's cells) is tuned as
before. Médiévallons' End card of 2 players is the same case in another game (Middle-Ages reads every
setting at every count but a seat's start coins, which check_seats_of refuses already).
No game is played.
"""

from __future__ import annotations

import pytest

from in_process import balance
from simcore.errors import UsageError

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

PLAN = dict(targets=["role=seigneur:0.30:10"], trials=2, min_games=200, max_games=200, confirm_games=1000)


def test_s62_a_tune_of_a_setting_its_player_count_does_not_read_is_refused():
    from analysis.tune.search import plan_tune

    with pytest.raises(UsageError) as exc:
        plan_tune("seigneurial", varies=["track.goal.4=8..12"], players=3, **PLAN)
    assert str(exc.value) == ("--vary track.goal.4=8..12: Seigneurial does not read track.goal.4 at 3 "
                              "players: the rules played are the same at every value, so it would "
                              "change no game"), str(exc.value)
    # a list, and a range with a step
    for vary in ("track.goal.4=[9, 11]", "track.rent_before.5=1..4:3"):
        with pytest.raises(UsageError, match=r"^--vary .*: Seigneurial does not read track\.(goal\.4|rent_before\.5) at 3 players"):
            plan_tune("seigneurial", varies=[vary], players=3, **PLAN)
    # read at 3 players: planned; so is a range of one value (a setting held, compared with nothing)
    plan_tune("seigneurial", varies=["track.goal.3=8..12"], players=3, **PLAN)
    plan_tune("seigneurial", varies=["track.goal.3=8..12", "track.goal.4=10..10"], players=3, **PLAN)


def test_s62_a_tune_over_counts_refuses_only_a_setting_none_of_them_reads():
    from analysis.tune.search import plan_tune

    with pytest.raises(UsageError, match=r"^--vary track\.goal\.4=8\.\.12: Seigneurial does not read "
                                         r"track\.goal\.4 in any cell of this panel \(3 and 5 players\)"):
        plan_tune("seigneurial", varies=["track.goal.4=8..12"], panel="wide", players=[3, 5], **PLAN)
    # 4 players read it: a panel of 3 and 4, and players varied from 3 to 4, are planned
    plan_tune("seigneurial", varies=["track.goal.4=8..12"], panel="wide", players=[3, 4], **PLAN)
    plan_tune("seigneurial", varies=["players=3..4", "track.goal.4=8..12"], **PLAN)


def test_s62_the_command_line_refuses_it_in_one_line_with_exit_code_2(tmp_path):
    done = balance("tune", "--game", "medievallons", "--players", "4", "--vary", "setup.end_card.2=[red, yellow]",
                   "--target", "seat-balance", "--trials", 2, "--min-games", 200, "--max-games", 200,
                   "--out", tmp_path / "t", check=False)
    line = done.stderr.strip()
    assert done.returncode == 2 and len(line.splitlines()) == 1, line
    assert line == ('error: --vary setup.end_card.2=[red, yellow]: Médiévallons does not read '
                    'setup.end_card.2 at 4 players: the rules played are the same at every value, '
                    'so it would change no game'), line
    assert not (tmp_path / "t").exists()
