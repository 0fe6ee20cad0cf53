"""Mixed line-ups read as what they are (review G, 2026-11-25).

- When the seats hold different bots and keep them in every game, a seat's gap from the fair share
  is mostly its bot's strength: the headlines and the seat (or role) section say so first, naming
  each seat's bot. A rotated line-up, and one bot in every seat, get no such sentence.
- In a game with roles (Seigneurial) there is no fair 1/n for a bot: each bot is compared with the
  average seat of its own role (the Seigneur's bot, alone in its role, is not tested), and no
  matchup pairs bots of two roles (they play for different goals). Checked against a direct
  computation from the player rows (per game, the bot's seat's win share minus the mean of its
  role's seats; a normal test of its mean)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import analyse, open_runs
from reports.build import build_report
from reports.text import headlines
from simcore import runner
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

NOTE = "The seats hold different bots, each the same seat in every game"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("lineups")
    out = {}
    for name, game, kw in [
        ("mv-fixed", "medievallons", dict(strategies="balanced,collector,saboteur,random")),
        ("mv-rotated", "medievallons", dict(strategies="balanced,collector,saboteur,random",
                                            rotate_seats=True)),
        ("mv-one-bot", "medievallons", dict()),
        ("sg-fixed", "seigneurial", dict(strategies="harsh-lord,objective,dutiful,hoarder")),
        ("sg-default", "seigneurial", dict()),
    ]:
        out[name] = runner.simulate(game, games=2000, seed=7, out=root / name, quiet=True, raw=True, **kw)
    return out


def _lines(path):
    rs = open_runs([path])
    return headlines(analyse(rs), rs)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_fixed_mixed_line_up_is_named_before_the_seats_findings(runs, tmp_path):
    lines = _lines(runs["mv-fixed"])
    assert lines[0].startswith(NOTE)
    assert "(Seat 1 balanced, Seat 2 collector, Seat 3 saboteur, Seat 4 random)" in lines[0]
    assert "mostly its bot's strength" in lines[0]
    with figures_undrawn():
        html = build_report([runs["mv-fixed"]], tmp_path / "r").read_text(encoding="utf-8")
    section = html.split("Seat advantage</h2>", 1)[1]
    assert NOTE in section.split("</p>", 1)[0]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("name", ["mv-rotated", "mv-one-bot", "sg-default"])
def test_no_line_up_sentence_where_the_seats_are_measured(runs, name):
    assert not any(x.startswith(NOTE) for x in _lines(runs[name]))


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_role_game_compares_each_bot_with_its_own_roles_average_seat(runs):
    path = runs["sg-fixed"]
    for source in ("rows", "stats"):
        t = analyse(open_runs([path], source=source))
        s = t["strategies"].sort("strategy")
        assert set(s["role"]) == {"seigneur", "censitaire"}
        lord = s.filter(pl.col("role") == "seigneur").row(0, named=True)
        assert lord["strategy"] == "harsh-lord" and np.isnan(lord["p_value"])
        # independently, from the rows: seats 2-4 are the Censitaires, one bot each
        players = pl.read_parquet(path / "players.parquet", columns=["seat", "win_share"])
        w = players["win_share"].cast(pl.Float64).to_numpy().reshape(-1, 4)
        role_mean = w[:, 1:].mean(axis=1)
        for seat, bot in [(1, "objective"), (2, "dutiful"), (3, "hoarder")]:
            r = s.filter(pl.col("strategy") == bot).row(0, named=True)
            d = w[:, seat] - role_mean
            assert r["fair_share"] == pytest.approx(w[:, 1:].mean(), rel=1e-9)
            assert r["diff"] == pytest.approx(d.mean(), abs=1e-9)
            z = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
            assert r["p_value"] == pytest.approx(2 * sps.norm.sf(abs(z)), rel=1e-6)
        # no matchup across roles
        assert "harsh-lord" not in set(t["matchups"]["strategy"]) | set(t["matchups"]["opponent"])
        assert t["matchups"].height == 6


def test_the_role_games_strategy_sentence_names_the_role_and_its_numbers(runs):
    lines = _lines(runs["sg-fixed"])
    assert lines[0].startswith(NOTE) and "give every seat of a role the same bot" in lines[0]
    line = next(x for x in lines if x.startswith("Among the 3 Censitaire bots, "))
    t = analyse(open_runs([runs["sg-fixed"]]))
    best = t["strategies"].filter(pl.col("role") == "censitaire").sort("win_share", descending=True).row(0, named=True)
    from simcore.numbers import rounded     # (halves away from zero, as every table rounds them)

    assert line.startswith(f"Among the 3 Censitaire bots, {best['strategy']} wins most: "
                           f"{rounded(100 * best['win_share'], 1):.1f}%")
    assert f"against {rounded(100 * best['fair_share'], 1):.1f}% for the Censitaires' average seat" in line
    assert not any("against a fair 25.0%" in x for x in lines)


def test_the_seat_bots_table_names_each_seats_bot_only_on_fixed_mixed_seats(runs):
    """analysis.matchups.seat_bot_table, which the seat figures and the line-up sentence read."""
    t = analyse(open_runs([runs["mv-fixed"]]))
    assert t["seat_bots"].sort("seat")["bot"].to_list() == ["balanced", "collector", "saboteur", "random"]
    for name in ("mv-rotated", "mv-one-bot"):
        assert "seat_bots" not in analyse(open_runs([runs[name]]))
    assert analyse(open_runs([runs["sg-fixed"]], source="stats"))["seat_bots"]["bot"].to_list() == \
        ["harsh-lord", "objective", "dutiful", "hoarder"]



def test_a_bot_playing_two_roles_is_judged_within_each(tmp_path):
    """random in the Seigneur's seat and in a Censitaire's: it was given its first seat's role, its
    Censitaire seat pooled with it and compared with the Seigneur alone ("its role's only bot").
    Now one row per bot and role, each against that role's average seat; its matchups, which mix
    the two roles' goals, are left out."""
    path = runner.simulate("seigneurial", games=1500, seed=5, out=tmp_path / "r", quiet=True, raw=True,
                           strategies="random,standard,objective,random")
    s = analyse(open_runs([path]))["strategies"]
    rows = {(r["strategy"], r["role"]): r for r in s.iter_rows(named=True)}
    assert set(rows) == {("random", "seigneur"), ("random", "censitaire"), ("standard", "censitaire"),
                         ("objective", "censitaire")}
    w = pl.read_parquet(path / "players.parquet", columns=["win_share"])["win_share"].cast(pl.Float64) \
        .to_numpy().reshape(-1, 4)
    assert rows[("random", "censitaire")]["win_share"] == pytest.approx(w[:, 3].mean(), abs=1e-12)
    assert rows[("random", "censitaire")]["fair_share"] == pytest.approx(w[:, 1:].mean(), abs=1e-12)
    assert np.isnan(rows[("random", "seigneur")]["p_value"])
    assert not np.isnan(rows[("random", "censitaire")]["p_value"])
    m = analyse(open_runs([path]))["matchups"]
    assert "random" not in set(m["strategy"]) | set(m["opponent"]) and m.height == 2
