"""Review s46 #5: a strategy's metric counts deals (rotated seats) or player rows (a bot on several
seats), and the power calculation called that count "games": a rotated run of 14,000 games (3,500
deals) was refused and told to record "about 13,705 games", fewer than it had, and a 56,000-game
baseline to record "at least 40,000 games". The advice is now in games (deals × games per deal),
and says what the count is. A bot on several seats of an unrotated run is measured per game (the
mean of its seats' shares, as a played check measures it), not over its player rows as if they
were independent (its seats' shares are negatively correlated)."""

from __future__ import annotations

import math
import re

import polars as pl

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ROTATED = "greedy,balanced,random,balanced"


def _refusal(capsys) -> str:
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


def test_a_rotated_baseline_refused_as_too_small_is_told_more_games_than_it_has(tmp_path, capsys):
    run = tmp_path / "rot14k"
    assert _run(["simulate", "--games", "14000", "--strategies", ROTATED, "--rotate-seats", "--seed", "11",
                 "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert _run(["baseline", str(run), "--out", str(tmp_path / "rot14.toml")]) == 2
    line = _refusal(capsys)
    assert "greedy win share" in line and "3,500 deals of 14,000 games" in line, line
    advised = int(re.search(r"record a baseline of about ([\d,]+) games", line).group(1).replace(",", ""))
    # the advice must exceed what was refused (it read 13,705 for a run of 14,000 games)
    assert advised > 14_000, line
    # and following it works: a rotated baseline of that many games (rounded up to whole deals) is
    # accepted for the same tolerance
    bigger = tmp_path / "rot-advised"
    games = -(-advised // 4) * 4
    assert _run(["simulate", "--games", str(games), "--strategies", ROTATED, "--rotate-seats", "--seed", "12",
                 "--out", str(bigger), "-q"]) == 0
    capsys.readouterr()
    assert _run(["baseline", str(bigger), "--out", str(tmp_path / "ok.toml")]) == 0, capsys.readouterr().err


def test_the_baseline_size_that_lifts_a_limit_is_more_than_the_baseline_has(tmp_path, capsys):
    """A rotated 56,000-game baseline whose greedy share is limited by its own error was told to
    record "at least 40,000 games" (40,000 deals: 160,000 games)."""
    run = tmp_path / "rot56k"
    assert _run(["simulate", "--games", "56000", "--strategies", ROTATED, "--rotate-seats", "--seed", "11",
                 "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert _run(["baseline", str(run), "--out", str(tmp_path / "rot56.toml")]) == 0
    err = capsys.readouterr().err
    assert "greedy win share" in err and "UNDECIDED" in err, err
    need = int(re.search(r"record a baseline of at least ([\d,]+) games", err).group(1).replace(",", ""))
    assert need > 56_000, err
    text = (tmp_path / "rot56.toml").read_text(encoding="utf-8")
    lift = int(re.search(r"a baseline of ([\d,]+) games or more would lift", text).group(1).replace(",", ""))
    assert lift == need


def test_a_bot_on_two_seats_is_measured_per_game(tmp_path, capsys):
    """balanced on Seats 3 and 4 of greedy,random,balanced,balanced: its share of a game is the mean
    of its two seats' shares; the baseline's error is that per-game mean's, computed here from
    players.parquet (the review: 0.156 pp per game against 0.241 pp over player rows)."""
    run = tmp_path / "mix"
    assert _run(["simulate", "--games", "20000", "--strategies", "greedy,random,balanced,balanced",
                 "--seed", "12", "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert _run(["baseline", str(run), "--out", str(tmp_path / "mix.toml")]) == 0
    import tomllib

    blocks = tomllib.loads((tmp_path / "mix.toml").read_text(encoding="utf-8"))["metric"]
    balanced = next(b for b in blocks if b["metric"] == "strategy_win_share" and b["key"] == "balanced")
    rows = pl.read_parquet(run / "players.parquet").filter(pl.col("strategy") == "balanced")
    per_game = rows.group_by("game").agg(pl.col("win_share").mean()).get_column("win_share").to_numpy()
    assert len(per_game) == 20_000
    se = 100 * per_game.std(ddof=1) / math.sqrt(len(per_game))
    assert balanced["n"] == 20_000
    assert abs(balanced["se"] - se) < 0.002 * se, (balanced, se)
    assert abs(balanced["value"] - 100 * per_game.mean()) < 1e-4
    # over the rows as if independent it was larger: what the old baseline recorded
    p = rows.get_column("win_share").mean()
    assert balanced["se"] < 0.8 * 100 * math.sqrt(p * (1 - p) / rows.height)
