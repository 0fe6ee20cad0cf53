"""fief-calamity's tables as a designer's 80-column terminal shows them (session 45's Fief
review, left open then): with ``--method both`` the plague table held a method column beside an
interval column, and Rich cut every probability to "0.50…"; and its interval read "0.498–0.501"
where the bishop's table, just below, reads "0.4971 – 0.5110". Each method now has its own plague
table, and both tables write an interval the same way."""

from __future__ import annotations

import re

import polars as pl

from cli import _run


def test_plague_probabilities_print_whole_and_intervals_alike(tmp_path, capsys):
    assert _run(["fief-calamity", "--soldiers", "0-4", "--lords", "1-4", "--method", "both",
                 "--games", "4000", "--seed", "3", "--out", str(tmp_path / "c")]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("│")]
    assert rows and not [r for r in rows if "…" in r], "\n".join(r for r in rows if "…" in r)
    intervals = [c.strip() for r in rows for c in r.split("│") if "–" in c]
    plague = [c for c in intervals if c.count(".") == 2 and len(c.split(" – ")[0]) == 5]
    bishop = [c for c in intervals if c not in plague]
    assert len(plague) == 4 and len(bishop) == 5, intervals      # 4 Lords counts; 0-2,000 écus
    assert all(re.fullmatch(r"\d\.\d{3} – \d\.\d{3}", c) for c in plague), plague
    assert all(re.fullmatch(r"\d\.\d{4} – \d\.\d{4}", c) for c in bishop), bishop
    # every pooled Monte Carlo probability is printed whole (4 decimals), as computed from the file
    dist = pl.read_parquet(tmp_path / "c" / "plague.parquet").filter(pl.col("method") == "mc")
    four = dist.filter(pl.col("lords") == 4).with_columns((pl.col("probability") * 4000).round()
                                                          .alias("c"))
    pooled = four.group_by("lords_left").agg(pl.col("c").sum()).sort("lords_left")["c"] / 20000
    mc_start = out.index("(Monte Carlo")
    line = next(r for r in out[mc_start:].splitlines() if re.match(r"│\s+4 │", r))
    assert [c.strip() for c in line.split("│")[2:7]] == [f"{p:.4f}" for p in pooled], line
