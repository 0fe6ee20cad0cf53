"""The Médiévallons balance questions (analysis.questions.medievallons, played by the runner) and the
`balance questions RUN` command (which replaced `balance medievallons-questions`): every table is
self-consistent, the card ablation goes through the rules loader, the best-of-3 composition
follows its rules, and the command writes its CSV tables atomically with one-line errors for bad
input.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from cli import _run
from analysis.questions import medievallons as Q
from simcore import runner
from simcore.games.medievallons import rules as R


def run_cli(*args) -> int:
    return _run(list(args))


def test_first_player_advantage_is_consistent():
    df = Q.first_player_advantage(3000, players=(2, 4), seed=1)
    assert df.height == 6
    for P in (2, 4):
        sub = df.filter(pl.col("players") == P)
        assert sub["win_share"].sum() == pytest.approx(1.0, abs=1e-6)
        assert np.allclose(sub["advantage"], sub["win_share"] - 1 / P)
        assert np.allclose(sub["z"], sub["advantage"] / sub["std_error"])
    # at 2 players the first player's edge is large (measured ~0.577 +- 0.004 at 20,000 games)
    two = df.filter((pl.col("players") == 2) & (pl.col("seat") == 0))
    assert two["z"][0] > 4


def test_game_length_quantiles_and_end_reasons():
    summary, dist = Q.game_length(2000, players=(2, 5), seed=2)
    for row in summary.iter_rows(named=True):
        assert row["p05"] <= row["p25"] <= row["median"] <= row["p75"] <= row["p95"] <= row["max"]
        assert row["share_third_guild"] + row["share_empty_pile"] + row["share_truncated"] == \
            pytest.approx(1.0)
    assert summary.filter(pl.col("players") == 2)["mean_reshuffles"][0] == 0   # MV-2: yellow
    shares = dist.group_by("players").agg(pl.col("share").sum(), pl.col("games").sum())
    assert np.allclose(shares["share"], 1.0) and (shares["games"] == 2000).all()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_card_types_and_ablation_of_one_copy(monkeypatch):
    """The table's make-up, not its figures: every type in order, each ablation through the rules
    loader, the delta the difference of its columns. 500 games (was 1,500: 1.2 s of CPU more)
    found every type but the Bouffon (founded in 1 of 6,000 player-games, so at 1,500 games too
    its row is mostly NaN, which the delta check allows)."""
    seen = []
    real = R.with_copies

    def spy(rules, changes):
        seen.append(dict(changes))
        return real(rules, changes)

    monkeypatch.setattr(Q.R, "with_copies", spy)
    df = Q.card_types(500, players=4, seed=3)
    assert df["card"].to_list() == list(R.CARD_TYPES)
    assert seen == [{t: 7} for t in R.CARD_TYPES]          # through the rules loader, one each
    assert (df["copies_after"] == 7).all()
    assert np.allclose(df["delta_founders_win_share"],
                       df["founders_win_share_after"] - df["founders_win_share"], equal_nan=True)
    assert ((df["founded_share"] >= 0) & (df["founded_share"] <= 1)).all()
    no_ab = Q.card_types(500, players=3, seed=3, ablation=False)
    assert "delta_founders_win_share" not in no_ab.columns


def test_best_of_three_composition_rules():
    one, zero, half = 1.0, 0.0, 0.5
    # match 0: A starts (A wins), B starts (A wins) -> A in 2 rounds
    # match 1: B starts (B wins), A starts (shared), B starts (B wins) -> B in 3 rounds
    res, rounds = Q.compose_matches(np.array([one, half]), np.array([one, zero, zero]))
    assert res.tolist() == [1.0, 0.0] and rounds.tolist() == [2, 3]
    # all rounds shared: after max_rounds the match is shared
    res, rounds = Q.compose_matches(np.full(10, half), np.full(10, half), max_rounds=5)
    assert res[0] == 0.5 and rounds[0] == 5


def test_best_of_three_plays_at_most_three_rounds_as_the_book_says():
    """MV-7 2-player variant, the book: "Jouez au maximum 3 manches. Celui qui remporte 2 manches
    gagne la partie." A won by A, a round won by B and a shared round: the match stops after the
    third round, level, and is shared (a fourth round, won by A here, must not be played)."""
    one, zero, half = 1.0, 0.0, 0.5
    # match 0: A starts (A wins), B starts (B wins), A starts (shared) -> shared after 3 rounds
    # match 1 starts with B: B starts (A wins), A starts (A wins) -> A in 2 rounds
    res, rounds = Q.compose_matches(np.array([one, half, one, one]), np.array([zero, one, one]))
    assert res.tolist()[:2] == [0.5, 1.0] and rounds.tolist()[:2] == [3, 2]
    df = Q.best_of_three(20, pairs=(("balanced", "random"),), seed=1)
    assert df["mean_rounds"][0] <= 3


def test_best_of_three_amplifies_a_skill_gap_and_stays_fair_between_equals():
    df = Q.best_of_three(600, pairs=(("balanced", "random"), ("collector", "collector")), seed=4)
    strong = df.row(0, named=True)
    assert strong["match_win_rate"] >= strong["single_round_win_rate"] > 0.9
    equal = df.row(1, named=True)
    assert abs(equal["single_round_win_rate"] - 0.5) < 4 * equal["single_std_error"]
    assert abs(equal["match_win_rate"] - 0.5) < 4 * equal["match_std_error"]
    assert equal["as_first_player"] > equal["as_second_player"]      # the 2-player seat edge


@pytest.fixture(scope="module")
def mv_run(tmp_path_factory):
    return runner.simulate("medievallons", games=60, players=3, seed=4, quiet=True,
                           out=tmp_path_factory.mktemp("mvq") / "run")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_command_writes_csv_tables_and_run_json(mv_run, tmp_path, capsys):
    out = tmp_path / "q"
    assert run_cli("questions", str(mv_run), "--games", "60", "--out", str(out)) == 0
    files = {p.name for p in out.iterdir()}
    assert files == {"first_player.csv", "card_types.csv", "best_of_three.csv", "run.json",
                     ".balance-output.json"}                  # the ownership marker
    meta = json.loads((out / "run.json").read_text())
    assert meta["games"] == 60 and meta["players"] == [2, 3, 4, 5] and meta["card_players"] == 3
    assert meta["command"] == "questions" and meta["for_run"] == str(mv_run)
    printed = capsys.readouterr().out            # the summary in the report's words
    assert "First player: win share per seat" in printed and "Seat 3" in printed
    assert "2 players: one round vs a best-of-3 match" in printed and "not shown" not in printed
    # "more games would tell" names an option of the command that printed it too: `balance
    # questions` has --games, not the report's --questions-games
    said = " ".join(printed.split())
    assert "more games would tell" in said
    assert "(`--questions-games`" not in said and "more --questions-games would tell" not in said
    assert "`balance questions --games`" in said
    assert pl.read_csv(out / "first_player.csv").height == 2 + 3 + 4 + 5
    # an existing result is never overwritten without --force
    assert run_cli("questions", str(mv_run), "--games", "60", "--out", str(out)) == 2
    assert "not empty" in capsys.readouterr().err


def test_the_old_command_is_gone(capsys):
    assert run_cli("medievallons-questions", "--games", "10") == 2


@pytest.mark.parametrize("args,needle", [
    (("--games", "0"), "at least 1"),
    (("--games", "x"), "--games"),
    (("--threads", "0"), "--threads 0"),
])
def test_command_refuses_bad_input_in_one_line(mv_run, tmp_path, capsys, args, needle):
    assert run_cli("questions", str(mv_run), "--out", str(tmp_path / "q"), *args) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1
    assert not (tmp_path / "q").exists()


def test_the_output_may_not_be_the_run(mv_run, capsys):
    assert run_cli("questions", str(mv_run), "--games", "10", "--out", str(mv_run), "--force") == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1




@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_force_over_another_runs_questions_names_what_it_replaces(mv_run, tmp_path, capsys):
    """``--force`` over the questions of another run (here of another game) replaced them without a
    word; it now names what it replaces, before playing. Over this run's own, nothing is said."""
    out = tmp_path / "q"
    assert run_cli("questions", str(mv_run), "--games", "20", "--out", str(out)) == 0
    capsys.readouterr()
    assert run_cli("questions", str(mv_run), "--games", "20", "--out", str(out), "--force") == 0
    assert "replacing" not in capsys.readouterr().err
    ma = runner.simulate("middle-ages", games=20, players=4, seed=4, quiet=True, out=tmp_path / "ma")
    # (the Middle-Ages event ablation plays at least 100 games a deck: review s47)
    assert run_cli("questions", str(ma), "--games", "100", "--out", str(out), "--force") == 0
    err = capsys.readouterr().err
    assert f"replacing {out}: the Médiévallons questions of {mv_run} (20 games)" in err.splitlines(), err
    assert json.loads((out / "run.json").read_text())["game"] == "middle-ages"
