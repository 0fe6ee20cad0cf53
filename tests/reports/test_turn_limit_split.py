"""The turn-limit warning says who won the finished games and who won the stopped ones.

A Médiévallons run whose games mostly stopped at the turn limit gave seat 4 about 28% of the
finished games and about half of the stopped ones: the warning said only that many games stopped,
so a designer could not see that the fall-back scoring of a stopped game, not the game, made seat
4's share. The warning now gives both shares per seat (per side in a game with roles). Every
number is checked here against the run's own rows (games.parquet and players.parquet, read with
polars in this file), in Médiévallons (seats) and Seigneurial (the Seigneur against the
Censitaires), from the statistics (``simulate``'s closing table) and from a report's tables.
"""

from __future__ import annotations

import io
import json

import polars as pl
import pytest
from rich.console import Console

from simcore import runner
from simcore.turn_limit import from_stats, warning


def _rows_split(run, groups: dict[str, list[int]]) -> tuple[int, int, dict[str, tuple[float, float]]]:
    """(finished games, stopped games, {who: (share of the finished games won, of the stopped)})
    from the run's rows alone."""
    names = {int(k): v for k, v in json.loads((run / "run.json").read_text())["end_reason_names"].items()}
    code = next(k for k, v in names.items() if v == "truncated")
    g = pl.read_parquet(run / "games.parquet").select("game", (pl.col("end_reason") == code).alias("stop"))
    p = pl.read_parquet(run / "players.parquet").select("game", "seat", "win_share").join(g, on="game")
    n_stop = int(g["stop"].sum())
    n_done = g.height - n_stop
    # a win shared by k players is stored as float32 1/k: counted in twelfths (k ≤ 4), exactly
    p = p.with_columns((pl.col("win_share").cast(pl.Float64) * 12).round().cast(pl.Int64).alias("twelfths"))
    out = {}
    for who, seats in groups.items():
        mine = p.filter(pl.col("seat").is_in(seats))
        done = int(mine.filter(~pl.col("stop"))["twelfths"].sum()) / 12 / n_done
        stop = int(mine.filter(pl.col("stop"))["twelfths"].sum()) / 12 / n_stop
        out[who] = (done, stop)
    return n_done, n_stop, out


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Médiévallons under a 40-turn bound and Seigneurial under an 8-turn bound: in both, many
    games stop at the bound and many do not."""
    base = tmp_path_factory.mktemp("turn_limit_split")
    return {name: runner.simulate(game, games=games, seed=7, out=base / name, settings=settings,
                                  raw=True, result=True, quiet=True, **kw)
            for name, game, settings, games, kw in (
                ("mv", "medievallons", ["end.max_turns=40"], 400, {"players": 4}),
                ("sg", "seigneurial", ["end.max_turns=8"], 600, {"players": 4}))}


GROUPS = {"mv": {f"Seat {i + 1}": [i] for i in range(4)},
          "sg": {"the Seigneur": [0], "the Censitaires": [1, 2, 3]}}


@pytest.mark.parametrize("name", ["mv", "sg"])
def test_the_split_is_the_rows_own(runs, name):
    res = runs[name]
    lim = from_stats(res.stats, res.meta["end_reason_names"])
    n_done, n_stop, want = _rows_split(res.path, GROUPS[name])
    assert (lim.finished, lim.games) == (n_done, n_stop)
    assert 0 < n_stop < n_done + n_stop           # both kinds of game, or the check says nothing
    assert [w for w, _, _ in lim.split] == list(want)
    for who, done, stop in lim.split:
        assert done == pytest.approx(want[who][0], rel=1e-12, abs=1e-15), who
        assert stop == pytest.approx(want[who][1], rel=1e-12, abs=1e-15), who
    said = warning(lim)
    parts = ", ".join(f"{w} {_pct(d)} and {_pct(s)}" for w, (d, s) in want.items())
    assert (f"Win shares in the {n_done:,} finished games and in the {n_stop:,} stopped ones, in that "
            f"order: {parts}.") in said, said


def test_the_split_moves_where_the_rows_say(runs):
    """Médiévallons' stopped games are scored by the fall-back (the most guilds, then cards): their
    winners differ from the finished games'; the sentence must show the two sets of shares apart,
    not one share twice."""
    _, _, want = _rows_split(runs["mv"].path, GROUPS["mv"])
    assert max(abs(d - s) for d, s in want.values()) > 0.05


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_closing_table_and_report_say_the_split(runs, tmp_path):
    from cli.progress import print_summary
    from in_process import balance

    res = runs["mv"]
    n_done, n_stop, want = _rows_split(res.path, GROUPS["mv"])
    parts = ", ".join(f"{w} {_pct(d)} and {_pct(s)}" for w, (d, s) in want.items())
    said = (f"Win shares in the {n_done:,} finished games and in the {n_stop:,} stopped ones, in that "
            f"order: {parts}.")
    out = io.StringIO()
    print_summary(Console(file=out, width=600), res)
    assert said in " ".join(out.getvalue().split())
    done = balance("report", res.path, "--out", tmp_path / "page", "--questions-games", "0")
    assert said in " ".join(done.stdout.split())
    assert said in (tmp_path / "page" / "report.html").read_text()
