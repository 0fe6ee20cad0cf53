"""Review W #8: ``balance ladder`` piped into a file or another program cut its cells at the 80
columns rich assumes off a terminal ("86.5% (79.4–93.…"), so the printed matrix lost the
intervals' upper ends. Off a terminal a table is now printed at its natural width
(``cli.progress.print_table``), and a cell that must still wrap on a narrow terminal folds rather
than ending in "…". Each printed cell is checked against the matrix the ladder writes."""

from __future__ import annotations

import pytest
import polars as pl

from printed_numbers import shows_share

from in_process import balance


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_piped_ladder_prints_every_interval_whole(tmp_path):
    out = tmp_path / "ladder.csv"
    done = balance("ladder", "--bots", "random,greedy,balanced,farmer,pious", "--games", "120",
                   "--out", out)
    text = done.stdout
    assert "…" not in text, text
    rows = {ln.split("│")[1].strip(): ln for ln in text.splitlines() if ln.count("│") > 2}
    m = pl.read_csv(out)
    assert m.height == 20
    for r in m.iter_rows(named=True):
        assert shows_share(rows[r["bot"]], r["win_share"], r["ci_low"], r["ci_high"]), (r, rows[r["bot"]])
    # the family-wise error in words that say it (review Z #3: "these calls are wrong, together,
    # with probability at most 5%" read as all of them wrong at once)
    flat = " ".join(text.split())
    assert "the chance that any of these calls is wrong is at most 5%" in flat, flat[-600:]
    assert "wrong, together" not in flat
