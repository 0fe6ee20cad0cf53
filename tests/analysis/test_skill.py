"""Balance by search budget (``balance skill``): the trend sentence is true for the numbers beside
it, cells already played are read back (resumable), bad input is one line with exit code 2."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import skill as K
from analysis.skill_words import advantage, verdict
from cli import _run


def _table(seat_shares: dict[int, list[tuple[float, float, float]]]) -> pl.DataFrame:
    rows = []
    for b, shares in seat_shares.items():
        for s, (w, lo, hi) in enumerate(shares):
            rows.append((b, "all", s, "player", f"search{b}", 1000, w, lo, hi))
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
