"""Sweep page words (review s47): a first-vs-last effect that goes beyond the larger step of a
turning response is not "within the 1 pp that matters of" it (Médiévallons, seat 2's hand size
17..20 at 2 players: −22.9 pp against a fall of −14.1)."""

from __future__ import annotations

import pytest

from reports.sweep import _ends_clause

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _row(delta, lo, hi, frm="17", to="20", verdict="clear and large enough to matter"):
    return {"delta": delta, "low": lo, "high": hi, "smallest": 0.01, "verdict": verdict,
            "numeric": True, "rising": True, "low_unadjusted": lo, "high_unadjusted": hi,
            "from": frm, "to": to, "share": True, "unit": "pp"}


@pytest.mark.parametrize("ends,said", [
    (_row(-0.229, -0.262, -0.197), "goes 8.8 pp beyond the fall from 17 to 18 (it adds the later steps) and hides it"),
    (_row(-0.137, -0.17, -0.10), "is within the 1 pp that matters of the fall from 17 to 18"),
    (_row(-0.145, -0.18, -0.11), "is within the 1 pp that matters of the fall from 17 to 18"),
    (_row(-0.10, -0.13, -0.07), "hides it"),
])
def test_the_first_vs_last_clause_says_how_it_stands_to_the_larger_step(ends, said):
    from analysis.sweep.metrics import ends_short_of, hidden_by

    fall, rise = _row(-0.141, -0.179, -0.103, "17", "18"), _row(0.088, 0.049, 0.127, "18", "19")
    t = {"ends": ends, "first": fall, "second": rise, "share": True, "unit": "pp", "smallest": 0.01,
         "hidden": hidden_by(ends, (fall, rise))}
    clause = _ends_clause(t, "it")
    assert said in clause, clause
    # the gap the clause prints is the ends' excess over the fall, from the numbers themselves
    if "beyond" in said:
        assert -ends_short_of(ends, (fall, rise)) == pytest.approx(0.229 - 0.141)


def test_a_players_sweep_names_no_rules_table_as_its_base_value():
    """`--vary players=2..5`: the page said "(the base rules' { allowed = [2, 3, 4, 5] } is not
    among those tried)": the rules' [players] table taken for the base value."""
    from pathlib import Path

    from analysis.sweep.metrics import base_value

    text = (Path(__file__).resolve().parents[2] / "configs" / "medievallons" / "rules.toml").read_text()
    assert "[players]" in text
    sweep = {"rules_text": text, "settings": []}
    assert base_value(sweep, "players") is None
    assert base_value(sweep, "guilds.to_win") == 3


def test_a_seigneurial_players_sweep_reads_the_sides_as_they_are(tmp_path, capsys):
    """--vary players=3..5 (review s47): the page said the Seigneur's "advantage (win share − fair
    share)" rose by +9.0 pp while his wins fell from 4.35% to 0 (1/P falling faster). A game with
    roles has no fair share: the change is his win share's, recomputed here from each variant's rows,
    and the page leads with what the count does to the sides."""
    import html
    import re

    import polars as pl

    from cli import _run

    out = tmp_path / "sw"
    assert _run(["sweep", "--game", "seigneurial", "--vary", "players=3..5", "--games", "1500",
                 "--out", str(out), "-q"]) == 0
    assert _run(["report", str(out), "--out", str(tmp_path / "rep")]) == 0
    capsys.readouterr()
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", (tmp_path / "rep" / "report.html").read_text())))
    assert "advantage (win share − fair share)" not in page
    assert "What players does to the sides: the Seigneur's win share is" in page

    def lord(players: int) -> float:
        runs = [p for p in out.rglob("players.parquet")
                if pl.read_parquet(p)["seat"].max() == players - 1]
        assert len(runs) == 1
        p = pl.read_parquet(runs[0]).filter(role="seigneur")
        return float(p["win_share"].cast(pl.Float64).mean())

    change = 100 * (lord(5) - lord(3))
    said = re.search(r"Raising players from 3 to 5 moves the Seigneur's win share by ([−+\-]?\d+\.\d) pp", page)
    assert said, page[:3000]
    assert float(said[1].replace("−", "-")) == pytest.approx(change, abs=0.051)
