"""A skill study's Balance table marks the budgets its sentence does not read (review 45 #2: at
budget 4 of 0,4,16 a gap of "13.8 (1.5–25.5)" under "97.5%, as in the sentence: two budgets
compared", which the sentence never mentions and which 1,200 more games put at 0.8 pp), and the
note under it says that such a row's level holds for two budgets compared, not for all of them."""

from __future__ import annotations

import polars as pl
import pytest
from skill_dirs import played_skill

from reports.skill import balance_note, balance_table

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    out = played_skill(tmp_path_factory, "--budgets", "0,1,2", "--games", "40")
    return pl.read_parquet(out / "skill.parquet")


def test_only_the_budgets_between_first_and_last_are_marked(table):
    t = balance_table(table)
    col = next(c for c in t.columns if c.startswith("gap interval"))
    marked = {r["budget"]: r[col].endswith("(not read by the sentence)") for r in t.iter_rows(named=True)}
    assert marked == {0: False, 1: True, 2: False}


def test_the_note_names_the_budgets_the_sentence_compares(table):
    note = balance_note(table)
    assert "The sentence compares budgets 0 and 2; the gap interval at budget 1 is at the same level" in note
    assert "not for the 3 budgets read together" in note
