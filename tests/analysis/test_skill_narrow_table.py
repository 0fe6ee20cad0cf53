"""`balance skill`'s budget table on a terminal of 80 columns (review K #9): seven columns of
"29.4% (27.1–31.8)" folded mid-number ("(12.3–37.\\n5)"); below WIDE_TABLE_COLUMNS the table has one
row per budget and seat, every share and interval whole on its line, and the wide table stays for
wide terminals."""

from __future__ import annotations

import polars as pl
import pytest

from cli import _run
from cli.skill import WIDE_TABLE_COLUMNS
from undrawn_figures import skill_pages_undrawn


@pytest.fixture(scope="module")
def skill_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("skill_narrow") / "sk"
    with skill_pages_undrawn():     # (the terminal's table is checked, not the page's pixels)
        assert _run(["skill", "--budgets", "0,1", "--games", "8", "--players", "2", "--out", str(out),
                     "-q"]) == 0
    return out


def _printed(skill_dir, monkeypatch, capsys, columns: int) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))
    capsys.readouterr()
    with skill_pages_undrawn():
        assert _run(["skill", "--budgets", "0,1", "--games", "8", "--players", "2", "--out",
                     str(skill_dir)]) == 0      # (resumed: every part kept, the answer printed again)
    return capsys.readouterr().out.splitlines()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_at_80_columns_every_share_and_interval_is_whole_on_its_line(skill_dir, monkeypatch, capsys):
    lines = _printed(skill_dir, monkeypatch, capsys, 80)
    # (the last lines name the directory, as long as its path, and the next command, one line to
    # copy whole: session 62)
    assert all(len(x) <= 80 for x in lines if not x.startswith(("skill: ", "next: "))), max(lines, key=len)
    table = pl.read_csv(skill_dir / "skill.csv").filter(pl.col("part") == "all")
    text = "\n".join(lines)
    for r in table.iter_rows(named=True):
        whole = f"{100 * r['win_share']:.1f}% ({100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f})"
        assert whole in text, (whole, text)
    assert "all searching: seat 1" not in text
    # review X #6: the one-searching shares come from a share of the games: each with its own
    # interval, and the caption says over how many games
    one = pl.read_csv(skill_dir / "skill.csv").filter(pl.col("part") == "one")
    for r in one.iter_rows(named=True):
        whole = f"{100 * r['win_share']:.1f}% ({100 * r['ci_low']:.1f}–{100 * r['ci_high']:.1f})"
        assert whole in text, (whole, text)
    assert f"over its own {int(one['games'].max()):,} games" in " ".join(text.split()), text


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_wide_terminal_keeps_the_table_of_a_row_per_budget(skill_dir, monkeypatch, capsys):
    text = "\n".join(_printed(skill_dir, monkeypatch, capsys, WIDE_TABLE_COLUMNS + 40))
    assert "all searching: seat 1" in text
