"""Balance by search budget (``balance skill``): the trend sentence is true for the numbers beside
it, cells already played are read back (resumable), bad input is one line with exit code 2."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import skill as K
from analysis.skill_words import advantage, verdict
from cli import _run


def _table(seat_shares: dict[int, list[tuple[float, float, float]]], cell: str = "2p balanced") -> pl.DataFrame:
    rows = []
    for b, shares in seat_shares.items():
        for s, (w, lo, hi) in enumerate(shares):
            rows.append((cell, len(shares), b, "all", s, "player", f"search{b}", 1000, w, lo, hi))
    return pl.DataFrame(rows, schema=list(K.COLUMNS), orient="row")


def test_the_advantage_is_best_seat_minus_worst_with_the_intervals_ends():
    t = _table({0: [(0.30, 0.28, 0.32), (0.20, 0.18, 0.22)]})
    a = advantage(t, True).row(0, named=True)
    assert a["value"] == pytest.approx(0.10)
    assert (a["low"], a["high"]) == (pytest.approx(0.06), pytest.approx(0.14))


@pytest.mark.parametrize("last, word", [
    ([(0.40, 0.38, 0.42), (0.10, 0.08, 0.12)], "grows"),       # 30 pp (26-34) vs 10 pp (6-14)
    ([(0.26, 0.24, 0.28), (0.25, 0.23, 0.27)], "no longer distinguishable"),   # 1 pp (-3..5)
    ([(0.31, 0.27, 0.35), (0.19, 0.15, 0.23)], "persists"),    # 12 pp (4-20) overlaps 6-14
])
def test_the_trend_sentence_follows_the_intervals(last, word):
    t = _table({0: [(0.30, 0.28, 0.32), (0.20, 0.18, 0.22)], 64: last})
    text = verdict(advantage(t, True))
    assert word in text and "10.0 pp at budget 0" in text


def test_roles_read_the_first_roles_win_share():
    t = _table({0: [(0.004, 0.002, 0.008), (0.332, 0.3, 0.36)], 16: [(0.10, 0.08, 0.12), (0.3, 0.28, 0.32)]})
    text = verdict(advantage(t.with_columns(pl.lit("seigneur").alias("role")), False))
    assert "rises" in text and "0.4% at budget 0" in text and "advantage" not in text


def test_a_second_call_reads_the_cells_back(tmp_path, monkeypatch):
    kw = dict(policy="balanced", roles=("player",) * 2, seed=3)
    first = K.balance_by_budget("middle-ages", 2, [0], 8, tmp_path, **kw)
    assert sorted(first["part"].unique().to_list()) == ["all", "one"]
    monkeypatch.setattr(K, "play_cell", lambda *a, **k: (_ for _ in ()).throw(AssertionError("replayed")))
    again = K.balance_by_budget("middle-ages", 2, [0], 8, tmp_path, **kw)
    assert again.equals(first)


@pytest.mark.parametrize("args, problem", [
    (["--budgets", "a,b"], "--budgets"),
    (["--budgets", "-4"], "--budgets"),
    (["--game", "fief-combat"], "no bots"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, capsys, args, problem):
    assert _run(["skill", *args, "--out", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip()
    assert problem in err and len(err.splitlines()) == 1
    assert not (tmp_path / "s").exists()


def test_a_panel_gets_one_sentence_per_cell_each_true_for_its_own_numbers():
    a = _table({0: [(0.30, 0.28, 0.32), (0.20, 0.18, 0.22)], 64: [(0.40, 0.38, 0.42), (0.10, 0.08, 0.12)]},
               "2p balanced")
    b = _table({0: [(0.30, 0.28, 0.32), (0.20, 0.18, 0.22)], 64: [(0.26, 0.24, 0.28), (0.25, 0.23, 0.27)]},
               "2p greedy")
    text = verdict(advantage(pl.concat([a, b]), True))
    first, second = text.split("2p greedy: ")
    assert first.startswith("2p balanced: ") and "grows" in first and "no longer" not in first
    assert "no longer distinguishable" in second and "grows" not in second


def test_a_panel_plays_every_cell_and_a_seat_searches_with_its_own_bot(tmp_path):
    """Two cells (2 and 3 players, one of them a line-up of non-default bots): every cell's rows,
    the search bot of a greedy seat plays greedy in its playouts (search_bots.toml)."""
    from strategies.panels import from_options
    panel = from_options("middle-ages", players="2,3", lineups=["balanced", "greedy"])
    t = K.balance_by_budget("middle-ages", None, [0, 1], 8, tmp_path, panel=panel, seed=3)
    assert t["cell"].unique(maintain_order=True).to_list() == [c.label for c in panel.cells]
    assert t.height == sum(c.players for c in panel.cells) * 2 * 2
    greedy = t.filter((pl.col("cell") == "2p 2×greedy") & (pl.col("budget") == 1))
    assert set(greedy["bot"]) == {f"{tmp_path / K.BOTS_FILE}:search1-greedy"}
    assert set(t.filter((pl.col("cell") == "3p 3×balanced") & (pl.col("budget") == 1))["bot"]) == {"search1"}
    from strategies import middle_ages as S
    bots = S.load_file(tmp_path / K.BOTS_FILE)
    assert bots["search1-greedy"].search.policy == "greedy"


def test_a_panel_seat_bot_that_cannot_be_a_playout_policy_is_one_line(tmp_path, capsys):
    assert _run(["skill", "--game", "middle-ages", "--strategies", "rollout", "--players", "2",
                 "--budgets", "0,4", "--games", "4", "--out", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip()
    assert "rollout" in err and len(err.splitlines()) == 1


def test_the_command_takes_a_line_up_and_writes_the_table_and_page(tmp_path):
    out = tmp_path / "s"
    assert _run(["skill", "--game", "middle-ages", "--strategies", "greedy,balanced", "--players", "2",
                 "--budgets", "0", "--games", "8", "--out", str(out), "--seed", "2"]) == 0
    t = pl.read_csv(out / "skill.csv")
    assert t["cell"].unique().to_list() == ["2p greedy + balanced"]
    assert t.filter(pl.col("part") == "all").sort("seat")["bot"].to_list() == ["greedy", "balanced"]
    assert (out / "report.html").is_file() and (out / "figures" / "budget.png").is_file()
    # the same question again resumes; another line-up in the same --out is refused
    assert _run(["skill", "--game", "middle-ages", "--strategies", "greedy,balanced", "--players", "2",
                 "--budgets", "0", "--games", "8", "--out", str(out), "--seed", "2"]) == 0
    assert _run(["skill", "--game", "middle-ages", "--strategies", "balanced", "--players", "2",
                 "--budgets", "0", "--games", "8", "--out", str(out), "--seed", "2"]) == 2
