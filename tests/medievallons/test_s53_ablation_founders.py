"""Review s53 Médiévallons #1: the card ablation printed, tested and headlined types with fewer than
30 founders on one side (deck.copies.etoile=2: "too few founders (24)" beside "+26.69 pp (+7.36 to
+46.02)", a verdict, a bar and the section's "largest change"). Checked on the questions' own CSV:
every type with fewer than 30 founders with the full deck or with one copy fewer is out of the
family, and the family counted in the printed sentences is exactly the others."""

from __future__ import annotations

import re

import polars as pl

from in_process import balance


def test_types_of_too_few_founders_are_left_out_of_the_ablation(tmp_path):
    balance("simulate", "--game", "medievallons", "--games", 2000, "--set", "deck.copies.etoile=2",
            "--out", tmp_path / "run", "-q")
    done = balance("questions", tmp_path / "run", "--games", 2000, "--out", tmp_path / "q")
    ct = pl.read_csv(tmp_path / "q" / "card_types.csv")
    few = ct.filter((pl.col("founders") < 30) | (pl.col("founders_after").fill_null(0) < 30))
    assert few.height >= 1 and "etoile" in few["card"].to_list()
    assert set(few["verdict"].to_list()) == {"too few players to say"}, few
    tested = ct.filter(~pl.col("verdict").is_in(["too few players to say"])
                       & pl.col("delta_founders_win_share").is_not_null())
    said = " ".join(done.stdout.split())
    m = re.search(r"The largest change among those (\d+) types: with one (\w+) fewer", said)
    assert m, said
    assert int(m.group(1)) == tested.height, (m.group(0), tested.height)
    names = {"etoile": "Étoile"}
    assert all(m.group(2) != names.get(c, c.capitalize()) for c in few["card"].to_list())
    balance("report", tmp_path / "run", "--out", tmp_path / "r", "--questions", tmp_path / "q")
    page = " ".join(re.sub(r"<[^>]+>", " ", (tmp_path / "r" / "report.html").read_text("utf-8")).split())
    # the ablation table's row: its founders counted, no change, no verdict but "too few"
    rows = re.findall(r"Étoile (?:(?!Étoile).)*?too few founders \(\d+\) too few players to say", page)
    assert rows and all(" pp" not in r for r in rows), rows
