"""The seats and summary exports of a game with roles name each seat's role: Seigneurial's Seat 1 is
the Seigneur's (``role_label`` "Seigneur" in ``--what seats``, "Seat 1 (Seigneur) win share" in
the summary's ``label``), a Fief combat's seats the Attacker's and the Defender's, read here from
each run's own raw rows (the players' ``role`` / ``side`` column). The names other code matches
on stay as they were: ``seat_label`` and the summary's ``key`` are "Seat 1" (baselines and
``balance compare`` key on them), and a Middle-Ages export is unchanged (no ``role_label``, labels
"Seat 1 win share")."""

from __future__ import annotations

import polars as pl
import pytest

from cli import _run

SEATS_ALIKE = ["seat", "seat_label", "games", "effective_games", "wins", "win_share", "ci_low",
               "ci_high", "fair_share", "diff", "diff_low", "diff_high", "win_share_sd", "p_value",
               "p_adjusted", "significant", "verdict", "smallest", "mean_score", "score_sd",
               "score_ci_low", "score_ci_high", "mean_rank"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("seat_roles")
    out = {}
    for game, extra in (("seigneurial", ["-n", "300"]), ("middle-ages", ["-n", "200"]),
                        ("fief-combat", ["-n", "300", "--attacker", "10", "--defender", "6"])):
        out[game] = tmp / game
        assert _run(["simulate", "--game", game, *extra, "--seed", "4", "--out", str(out[game]),
                     "--quiet"]) == 0
    return out


def _export(run, what, path) -> pl.DataFrame:
    assert _run(["export", str(run), "--what", what, "--out", str(path)]) == 0
    return pl.read_csv(path)


def _roles_of_seats(run, column) -> dict[int, str]:
    """Seat → the role its raw rows record (one role per seat), capitalised as the reports print it."""
    rows = pl.read_parquet(run / "players.parquet").select("seat", column).unique()
    assert rows.height == rows["seat"].n_unique()
    return {int(s): str(r).capitalize() for s, r in rows.iter_rows()}


@pytest.mark.parametrize("game, column", [("seigneurial", "role"), ("fief-combat", "side")])
def test_the_seats_export_of_a_game_with_roles_names_each_seats_role(runs, tmp_path, game, column):
    seats = _export(runs[game], "seats", tmp_path / "seats.csv")
    assert seats.columns == SEATS_ALIKE + ["role_label"]
    roles = _roles_of_seats(runs[game], column)
    for r in seats.iter_rows(named=True):
        assert r["seat_label"] == f"Seat {r['seat'] + 1}"          # unchanged: what baselines key on
        assert r["role_label"] == roles[r["seat"]], r
    if game == "seigneurial":
        assert seats.filter(pl.col("seat") == 0)["role_label"].to_list() == ["Seigneur"]
        assert set(seats.filter(pl.col("seat") > 0)["role_label"]) == {"Censitaire"}


def test_the_summary_of_a_game_with_roles_says_each_seats_role_under_the_same_key(runs, tmp_path):
    run = runs["seigneurial"]
    summary = _export(run, "summary", tmp_path / "summary.csv")
    roles = _roles_of_seats(run, "role")
    players = pl.read_parquet(run / "players.parquet")
    for metric, what in (("seat_win_share", "win share"), ("seat_mean_score", "mean score")):
        rows = summary.filter(pl.col("metric") == metric)
        assert rows["key"].to_list() == [f"Seat {s + 1}" for s in range(4)]
        for s, r in enumerate(rows.iter_rows(named=True)):
            assert r["label"] == f"Seat {s + 1} ({roles[s]}) {what}", r
            col = "win_share" if metric == "seat_win_share" else "score"
            assert r["estimate"] == pytest.approx(players.filter(pl.col("seat") == s)[col].cast(pl.Float64).mean())
    assert summary.filter(pl.col("key") == "Seat 1")["label"].to_list() == [
        "Seat 1 (Seigneur) win share", "Seat 1 (Seigneur) mean score"]
    # the other rows keep their words
    side = summary.filter(pl.col("metric") == "role_win_share")
    assert side["key"].to_list() == ["seigneur", "censitaire"]
    assert side["label"].to_list() == ["Seigneur side win share", "Censitaire side win share"]


def test_a_middle_ages_export_names_no_role(runs, tmp_path):
    seats = _export(runs["middle-ages"], "seats", tmp_path / "seats.csv")
    assert seats.columns == SEATS_ALIKE
    summary = _export(runs["middle-ages"], "summary", tmp_path / "summary.csv")
    for metric, what in (("seat_win_share", "win share"), ("seat_mean_score", "mean score")):
        rows = summary.filter(pl.col("metric") == metric)
        assert rows.height == 4
        assert rows["label"].to_list() == [f"Seat {s} {what}" for s in range(1, 5)]
        assert rows["key"].to_list() == [f"Seat {s}" for s in range(1, 5)]
