"""``balance fief-odds`` says what its break-even tables mean for a designer (FF-7): per terrain, how
many times the defender's points an attacker needs to take the fief at the table's first level.
Checked against the ratios computed here from the command's own break_even.csv."""

from __future__ import annotations

import pytest
import re

import polars as pl

from cli import _run


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_break_even_sentence_is_the_tables_own(tmp_path, capsys):
    out = tmp_path / "odds"
    assert _run(["fief-odds", "--attackers", "1-30", "--defenders", "1-20", "--terrain", "all",
                 "--out", str(out)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    m = re.search(r"To take the fief with P\(attacker wins\) ≥ 50%, an attacker needs (.*?) \(the smallest "
                  r"such attacker divided by the defender's points, over defences (.*?)\)\.", said)
    assert m, said
    be = pl.read_csv(out / "break_even.csv").filter(pl.col("method") == "exact")
    words = {"open": "in open ground", "castle": "in a castle", "city": "in a city"}
    spans, stopped = {}, []
    for terrain, where in words.items():
        table = be.filter((pl.col("terrain") == terrain) & (pl.col("defender") >= 5))
        sub = table.filter(pl.col("min_attacker_p50").is_not_null())
        r = sub["min_attacker_p50"] / sub["defender"]
        spans[terrain] = (int(sub["defender"].min()), int(sub["defender"].max()))
        if table.filter(pl.col("defender") > spans[terrain][1]).height:
            stopped.append(where)
        want = f"{r.min():.2g} to {r.max():.2g}"
        assert re.search(rf"{re.escape(want)}( times the defender's points)? {where}", m.group(1)), (want, m.group(1))
    # the defences each terrain's ratio is read over, per terrain (session 41, designer review
    # #11: "over defences of 5 to 20 points" was said of a city whose table stops at 16), and why
    # the city's stop short: every defence above has "-" (not within the grid of 30 attackers)
    assert spans["open"] == spans["castle"] == (5, 20) and spans["city"][1] < 20 and stopped == ["in a city"]
    assert m.group(2) == (f"of 5 to 20 points in open ground and in a castle, and of {spans['city'][0]} to "
                          f"{spans['city'][1]} in a city: a larger one in a city is not taken with P ≥ 50% "
                          "by the grid's largest attacker, 30 points"), m.group(2)
    # a city needs more than a castle, a castle more than open ground (FF-2's terrain bonuses)
    assert m.group(1).index("open ground") < m.group(1).index("castle") < m.group(1).index("city")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_tables_and_heat_maps_name_rules_other_than_the_shipped_ones(tmp_path, capsys):
    """Two heat maps of different rules read alike once pasted into a design document: a rule
    change (--set) or another rules file is named in the heat map's title and the break-even
    table's; the shipped rules are not."""
    from reports.figures.fief import heatmap_title, rules_words

    assert rules_words("/x/configs/fief/rules.toml") == ""
    assert rules_words("/x/configs/fief/rules.toml with --set darc.bonus=4") == \
        "rules: rules.toml with --set darc.bonus=4"
    assert rules_words("/home/me/siege.toml") == "rules: siege.toml"
    odds = pl.DataFrame({"darc": ["none"], "mercy": ["never"], "attacker_lords": [1], "defender_lords": [1]})
    title = heatmap_title(odds, "castle", "exact", 200, "/x/configs/fief/rules.toml with --set darc.bonus=4")
    assert title.endswith("rules: rules.toml with --set darc.bonus=4"), title
    assert "rules:" not in heatmap_title(odds, "castle", "exact", 200, "/x/configs/fief/rules.toml")
    assert _run(["fief-odds", "--attackers", "1-4", "--defenders", "1-3", "--terrain", "open",
                 "--set", "combat.lords_removed=first", "--out", str(tmp_path / "o")]) == 0
    printed = " ".join(capsys.readouterr().out.split())
    assert "rules: rules.toml with --set combat.lords_removed=first" in printed, printed
