"""``balance fief-odds`` says what its break-even tables mean for a designer (FF-7): per terrain, how
many times the defender's points an attacker needs to take the fief at the table's first level.
Checked against the ratios computed here from the command's own break_even.csv."""

from __future__ import annotations

import re

import polars as pl

from cli import _run


def test_the_break_even_sentence_is_the_tables_own(tmp_path, capsys):
    out = tmp_path / "odds"
    assert _run(["fief-odds", "--attackers", "1-30", "--defenders", "1-20", "--terrain", "all",
                 "--out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    m = re.search(r"To take the fief with P\(attacker wins\) ≥ 50%, an attacker needs (.*?) \(the smallest "
                  r"such attacker divided by the defender's points, over defences of (\d+) to (\d+) points\)\.", said)
    assert m, said
    be = pl.read_csv(out / "break_even.csv").filter(pl.col("method") == "exact")
    words = {"open": "in open ground", "castle": "in a castle", "city": "in a city"}
    lows, highs = [], []
    for terrain, where in words.items():
        sub = be.filter((pl.col("terrain") == terrain) & (pl.col("defender") >= 5)
                        & pl.col("min_attacker_p50").is_not_null())
        r = sub["min_attacker_p50"] / sub["defender"]
        lows.append(int(sub["defender"].min()))
        highs.append(int(sub["defender"].max()))
        want = f"{r.min():.2g} to {r.max():.2g}"
        assert re.search(rf"{re.escape(want)}( times the defender's points)? {where}", m.group(1)), (want, m.group(1))
    assert (int(m.group(2)), int(m.group(3))) == (min(lows), max(highs))
    # a city needs more than a castle, a castle more than open ground (FF-2's terrain bonuses)
    assert m.group(1).index("open ground") < m.group(1).index("castle") < m.group(1).index("city")
