"""``balance skill`` in a directory that already holds budgets: the answer covers them all, and its
numbers are rounded on the terminal as on the page.

The budgets are not part of a skill directory's question (game, panel, games, seed, rules: a
resume checks those), and each budget's parts are files of their own in ``cells/``. A later call
naming fewer budgets said "answers budgets 0,1,2; playing 0,1 (cells already … are read back)" but
wrote skill.txt, skill.csv and the page of budgets 0 and 1 only, budget 2's parts still on disk;
``--budgets 2`` alone wrote "only one budget was played". Now the answer covers every budget the
call names, every budget the directory answered and every budget whose parts are all on disk and of
this question (:func:`analysis.skill.budgets_on_disk`), and the line says so.

The terminal wrote a win share of 0.3625 as 36.2% (Python's rounding of the binary 36.25) where
the page wrote 36.3% (:func:`simcore.numbers.rounded`, halves away from zero, the one rule of the
toolkit).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from in_process import balance
from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (autouse: no drawing)

from skill_dirs import SKILL, folder_tree, played_skill, sk  # noqa: F401  (sk: a fixture)

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

GAMES = ("--games", "8")


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A complete skill directory of budgets 0,1 (Middle-Ages, 2 players, 8 games), played once."""
    return played_skill(tmp_path_factory, *GAMES)


def _cells_budgets(sk: Path) -> list[int]:
    """The budgets of the parts in ``sk/cells``, from the parts' own rows."""
    return sorted({int(b) for f in (sk / "cells").glob("*.parquet")
                   for b in pl.read_parquet(f)["budget"].to_list()})


def _answer(sk: Path) -> dict:
    """What the directory publishes: skill.csv's budgets, skill.parquet's, skill.json's, the words."""
    return {"csv": sorted(set(pl.read_csv(sk / "skill.csv")["budget"].to_list())),
            "parquet": sorted(set(pl.read_parquet(sk / "skill.parquet")["budget"].to_list())),
            "json": json.loads((sk / "skill.json").read_text())["budgets"]}


def _same_rows(sk: Path, budget: int) -> None:
    """skill.csv's rows of ``budget`` are those of its parts in ``cells/`` (read here, not through
    the toolkit)."""
    table = pl.read_csv(sk / "skill.csv").filter(pl.col("budget") == budget)
    for part in ("one", "all"):
        own = pl.read_parquet(sk / "cells" / f"budget{budget}_{part}.parquet").sort("seat")
        rows = table.filter(pl.col("part") == part).sort("seat")
        assert rows["seat"].to_list() == own["seat"].to_list()
        assert rows["games"].to_list() == own["games"].to_list()
        assert rows["win_share"].to_list() == pytest.approx(own["win_share"].to_list(), abs=1e-12)


def _page_budgets(sk: Path) -> set[int]:
    """The budgets of the page's table rows (the number after the row's cell)."""
    import re

    return {int(b) for b in re.findall(r"<tr><td>[^<]*</td><td class='num'>(\d+)</td>",
                                       (sk / "report.html").read_text())}


def _answers_every_budget(sk) -> None:
    """skill.csv, skill.parquet and skill.json answer budgets 0, 1 and 2, the budgets of the
    parts in cells/, each with the rows of its parts."""
    assert _answer(sk) == {"csv": [0, 1, 2], "parquet": [0, 1, 2], "json": [0, 1, 2]}
    assert _answer(sk)["csv"] == _cells_budgets(sk)
    for b in (0, 1, 2):
        _same_rows(sk, b)


def _call_covers_all(sk, budgets: str, answered: str, alone: str):
    """A call with ``--budgets budgets`` on a directory answering ``answered``: its line says the
    answer covers budgets 0, 1 and 2 (and that ``alone`` needs another --out), and the files do."""
    done = balance(*SKILL, "--budgets", budgets, *GAMES, "--out", "sk")
    assert (f"skill: sk answers {answered}; with --budgets {budgets} the answer covers budgets 0,1,2 "
            f"(parts already in {Path('sk') / 'cells'} are read back; for {alone} alone, give "
            "another --out)") in done.stderr.splitlines(), done.stderr
    _answers_every_budget(sk)
    return done


def test_a_call_naming_fewer_budgets_keeps_every_budget_on_disk(sk, tmp_path):
    balance(*SKILL, "--budgets", "0,1,2", *GAMES, "--out", "sk")          # budget 2 added
    assert _answer(sk) == {"csv": [0, 1, 2], "parquet": [0, 1, 2], "json": [0, 1, 2]}
    cells = folder_tree(sk / "cells")
    # the line says what the answer covers, and the files say the same
    _call_covers_all(sk, "0,1", "budgets 0,1,2", "budgets 0,1")
    # the sentence reads the largest budget on disk, and the page has its rows
    words = (sk / "skill.txt").read_text()
    assert "at budget 2" in words and "only one budget" not in words, words
    assert _page_budgets(sk) == {0, 1, 2}, _page_budgets(sk)
    # nothing on disk was lost or changed: every part read back as it was
    assert folder_tree(sk / "cells") == cells


def test_a_budget_alone_is_added_to_the_answer(sk):
    done = _call_covers_all(sk, "2", "budgets 0,1", "budget 2")
    words = (sk / "skill.txt").read_text()
    assert "only one budget" not in words and "at budget 0" in words and "at budget 2" in words, words
    assert "only one budget" not in done.stdout


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_budget_whose_parts_are_on_disk_comes_back_into_the_answer(sk):
    """A directory an earlier call left with budget 2's parts in cells/ but not in its table (what
    a call naming fewer budgets wrote before): the next call's answer has budget 2 again, read
    back, nothing played; a budget with a part that is not of this question (cut short) is left
    out, and its files as they are."""
    balance(*SKILL, "--budgets", "0,1,2", *GAMES, "--out", "sk")
    for name in ("skill.csv", "skill.parquet"):          # the table of 0,1 only, as written before
        t = pl.read_parquet(sk / "skill.parquet").filter(pl.col("budget") != 2)
        t.write_csv(sk / name) if name.endswith(".csv") else t.write_parquet(sk / name)
    from analysis import skill as K

    played = []
    real = K.play_cell

    def play(*args, **kwargs):
        played.append(args)
        return real(*args, **kwargs)

    K.play_cell = play
    try:
        done = balance(*SKILL, "--budgets", "0,1", *GAMES, "--out", "sk")
    finally:
        K.play_cell = real
    assert played == []
    assert "the answer covers budgets 0,1,2" in done.stderr, done.stderr
    assert _answer(sk)["csv"] == [0, 1, 2] == _cells_budgets(sk)
    _same_rows(sk, 2)
    # budget 2's every-seat part cut short: not this question's answer any more, so not counted
    for name in ("skill.csv", "skill.parquet"):
        t = pl.read_parquet(sk / "skill.parquet").filter(pl.col("budget") != 2)
        t.write_csv(sk / name) if name.endswith(".csv") else t.write_parquet(sk / name)
    cut = sk / "cells" / "budget2_all.parquet"
    cut.write_bytes(cut.read_bytes()[:100])
    kept = folder_tree(sk / "cells")
    done = balance(*SKILL, "--budgets", "0,1", *GAMES, "--out", "sk")
    assert _answer(sk)["csv"] == [0, 1], done.stderr
    assert folder_tree(sk / "cells") == kept


def _half_way_shares(sk: Path) -> None:
    """Budget 0's every-seat part with shares and interval ends at exact halves of a tenth of a
    percent (36.25%: Python writes "36.2", the toolkit's rule "36.3"), kept as the part of this
    question (its recorded question and gap-interval method unchanged)."""
    import pyarrow.parquet as pq

    from analysis import skill as K

    path = sk / "cells" / "budget0_all.parquet"
    meta = pq.read_schema(path).metadata or {}
    df = pl.read_parquet(path).sort("seat")
    halves = {"win_share": [0.3625, 0.6375], "ci_low": [0.2125, 0.4625], "ci_high": [0.5375, 0.7875]}
    df = df.with_columns([pl.Series(k, v, pl.Float64) for k, v in halves.items()])
    K._write_part(df, path, meta.get(K.QUESTION_KEY))


@pytest.mark.parametrize("columns", [80, 160], ids=["narrow", "wide"])
def test_the_terminal_rounds_the_shares_as_the_page_does(sk, monkeypatch, columns):
    from simcore.numbers import rounded

    _half_way_shares(sk)
    monkeypatch.setenv("COLUMNS", str(columns))
    loud = [a for a in SKILL if a != "-q"]            # (with its tables)
    done = balance(*loud, "--budgets", "0,1", *GAMES, "--out", "sk")
    table = pl.read_csv(sk / "skill.csv").filter((pl.col("part") == "all") & (pl.col("budget") == 0))
    assert table.sort("seat")["win_share"].to_list() == [0.3625, 0.6375]
    page = (sk / "report.html").read_text()
    text = " ".join(done.stdout.split())          # (the wide table puts the interval on a line of its own)

    def p(x: float) -> str:
        return f"{rounded(100 * x, 1):.1f}"

    for r in table.iter_rows(named=True):
        assert f"{100 * r['win_share']:.1f}" != p(r["win_share"])     # a value that rounds both ways
        whole = f"{p(r['win_share'])}% ({p(r['ci_low'])}–{p(r['ci_high'])})"
        assert whole in page, whole                                    # the page's digits …
        if columns < 120:                                              # … and the terminal's
            assert whole in text, (whole, done.stdout)
        else:           # (a row per budget: the share and, below it, its interval, in its column)
            assert f"{p(r['win_share'])}%" in text and f"({p(r['ci_low'])}–{p(r['ci_high'])})" in text, \
                done.stdout
        assert f"{100 * r['win_share']:.1f}%" not in text, done.stdout
