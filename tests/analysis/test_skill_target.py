"""``balance skill --target``: a tune's target judged at every budget with every seat searching
(:mod:`analysis.skill_target`). The shares judged are the ones the table holds (a role's: the sum of
its seats'), each interval is Wilson's at the Bonferroni level over every share judged (checked
against statsmodels), and the words are the tune's: met, missed, unclear."""

from __future__ import annotations

import json

import polars as pl
import pytest
from statsmodels.stats.proportion import proportion_confint

from analysis.skill_target import judge, sentences
from analysis.tune.targets import parse_targets
from cli import _run

from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401 (autouse: pages undrawn)


def _table(shares_by_budget: dict[int, list[float]], roles: list[str], games: int = 1000,
           cell: str = "4p x") -> pl.DataFrame:
    rows = []
    for b, shares in shares_by_budget.items():
        for part in ("one", "all"):
            for s, w in enumerate(shares):
                rows.append({"cell": cell, "players": len(shares), "budget": b, "part": part, "seat": s,
                             "role": roles[s], "bot": "x", "games": games,
                             # the one-seat part must not be read: give it shares that would change every outcome
                             "win_share": w if part == "all" else 1.0 - w})
    return pl.DataFrame(rows)


SG_ROLES = ["seigneur", "censitaire", "censitaire", "censitaire"]


def test_a_role_target_is_met_missed_or_unclear_at_each_budget():
    table = _table({0: [0.30, 0.25, 0.25, 0.20], 16: [0.46, 0.20, 0.20, 0.14],
                    64: [0.40, 0.20, 0.20, 0.20]}, SG_ROLES)
    targets = parse_targets(["role=seigneur:0.30:10", "role=censitaire:0.70:10"], "seigneurial")
    j = judge(table, targets)
    assert j.height == 6 and j["level"].unique().to_list() == [pytest.approx(1 - 0.05 / 6)]
    out = {(r["target"], r["budget"]): r for r in j.iter_rows(named=True)}
    lord = "role=seigneur:0.30:10"
    assert [out[(lord, b)]["budget_outcome"] for b in (0, 16, 64)] == ["met", "missed", "unclear"]
    # a role of several seats: the sum of their win shares (the share of games that side wins)
    tenants = "role=censitaire:0.70:10"
    assert out[(tenants, 16)]["win_share"] == pytest.approx(0.54)
    assert out[(tenants, 16)]["budget_outcome"] == "missed" and out[(tenants, 0)]["budget_outcome"] == "met"
    # Wilson's interval at the family's level, as statsmodels computes it
    level = 1 - 0.05 / 6
    for r in j.iter_rows(named=True):
        lo, hi = proportion_confint(round(r["win_share"] * 1000), 1000, alpha=1 - level, method="wilson")
        assert (r["low"], r["high"]) == (pytest.approx(lo, abs=1e-9), pytest.approx(hi, abs=1e-9))
    words = " ".join(sentences(j, targets, {"seigneur": "Seigneur", "censitaire": "Censitaires"}))
    assert "the Seigneur's win share from 20.0% to 40.0%" in words
    assert "the Censitaires' win share from 60.0% to 80.0%" in words
    assert "missed at budget 16 (46.0%" in words and "met at budget 0 (30.0%" in words
    assert "unclear at budget 64 (40.0%" in words and "across the 40.0% edge" in words
    assert "at 99.17%: Bonferroni over the 6 shares judged" in words


def test_seat_balance_names_the_seat_furthest_from_the_fair_share():
    table = _table({0: [0.25, 0.25, 0.25, 0.25], 4: [0.36, 0.22, 0.22, 0.20]}, ["player"] * 4,
                   games=2000)
    targets = parse_targets(["seat-balance:5"], "middle-ages")
    j = judge(table, targets)
    assert j.height == 8 and j["level"][0] == pytest.approx(1 - 0.05 / 8)
    assert j.filter(pl.col("budget") == 0)["budget_outcome"].unique().to_list() == ["met"]
    assert j.filter(pl.col("budget") == 4)["budget_outcome"].unique().to_list() == ["missed"]
    words = sentences(j, targets)[0]
    assert "every seat's win share from 20.0% to 30.0%" in words
    assert "missed at budget 4 (seat 1 36.0%" in words


def test_skill_refuses_a_target_it_cannot_measure_before_out_is_touched(tmp_path, capsys):
    out = tmp_path / "sk"
    rc = _run(["skill", "--budgets", "0", "--games", "8", "--target", "no-dominant-strategy", "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "win shares only" in err[0], err
    assert not out.exists()
    rc = _run(["skill", "--budgets", "0", "--games", "8", "--target", "role=lord:0.3", "--out", str(out)])
    assert rc == 2 and not out.exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_call_without_target_removes_the_earlier_judgement(tmp_path, capsys):
    out = tmp_path / "sk"
    args = ["skill", "--budgets", "0", "--games", "8", "--players", "3", "--out", str(out)]
    assert _run(args + ["--target", "seat-balance:20"]) == 0
    shown = capsys.readouterr().out
    assert "balance by search budget" in shown and "Target seat-balance:20" in shown
    assert (out / "target.csv").is_file()
    assert json.loads((out / "skill.json").read_text())["target"] == ["seat-balance:20"]
    assert "The target as play gets stronger" in (out / "report.html").read_text()
    assert _run(args + ["-q"]) == 0
    shown = capsys.readouterr().out          # --quiet: no tables, the sentence and the closing line
    assert "balance by search budget" not in shown and f"skill: {out}" in shown
    assert not (out / "target.csv").exists() and not (out / "target.txt").exists()
    assert "The target as play gets stronger" not in (out / "report.html").read_text()


def test_an_out_of_something_else_is_named_in_the_refusal(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text("{}")
    assert _run(["skill", "--budgets", "0", "--games", "8", "--out", str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a run (run.json), not a balance skill directory" in err[0], err


def test_the_page_says_how_many_games_each_seat_of_the_one_seat_part_played():
    """rev22: the page said "300 games per budget and part" where the one-searching-seat part
    played 75 games at each of 4 seats (its intervals rest on those)."""
    from reports.skill import _per_seat

    t = _table({0: [0.25] * 4}, ["player"] * 4, games=300).with_columns(
        pl.when(pl.col("part") == "one").then(75).otherwise(300).alias("games"))
    assert _per_seat({"games": 300}, t) == "75"
