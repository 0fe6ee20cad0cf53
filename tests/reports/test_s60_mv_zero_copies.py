"""Review s60 #1: a card type set to 0 copies (``--set deck.copies.etoile=0``) has no ablation (no
copy to remove), and the played questions' card table printed its row as "nan%" (founded by, one
copy fewer) and "+nan ± nan" (change of game length) beside "too few players to say"; the
sentence listed it among the types "left out … too few players to say" and card_types.csv gave it
that verdict too. Each now says the ablation was not played: the type has 0 copies. Synthetic
tables shaped as ``analysis.questions.medievallons.card_types`` writes them (the type's ablation
columns null)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.questions import medievallons as Q
from reports.games import medievallons as M
from reports.questions import read_table
from tests.reports.test_mv_review_g import _card_table

ABLATION = ("copies_after", "founded_share_after", "founders_after", "founders_win_share_after",
            "delta_founders_win_share", "delta_std_error", "z", "delta_mean_turns", "delta_turns_std_error")


def _without_etoile() -> pl.DataFrame:
    """The card table of a deck without Étoile: no founder, and no ablation columns for it (as
    ``card_types`` leaves them: it plays no deck with one copy fewer of a type without copies)."""
    ct = _card_table()
    etoile = pl.col("card") == "etoile"
    return ct.with_columns(
        [pl.when(etoile).then(None).otherwise(pl.col(c)).alias(c) for c in ABLATION]
        + [pl.when(etoile).then(0.0).otherwise(pl.col("founded_share")).alias("founded_share"),
           pl.when(etoile).then(0).otherwise(pl.col("founders")).alias("founders"),
           pl.when(etoile).then(float("nan")).otherwise(pl.col("founders_win_share")).alias("founders_win_share"),
           pl.when(etoile).then(float("nan")).otherwise(pl.col("founders_std_error")).alias("founders_std_error")])


def _as_read(ct: pl.DataFrame, tmp_path) -> pl.DataFrame:
    """``ct`` written to card_types.csv and read back as a report reads it (its missing floats NaN,
    its missing whole numbers null: :func:`reports.questions.read_table`)."""
    ct.write_csv(tmp_path / "card_types.csv")
    return read_table(tmp_path / "card_types.csv", None)


@pytest.mark.parametrize("read", [False, True], ids=["in memory", "read from its CSV"])
def test_a_type_without_copies_is_said_not_played_in_the_card_table_not_nan(read, tmp_path):
    ct = _as_read(_without_etoile(), tmp_path) if read else _without_etoile()
    table = M._card_rows(ct)
    row = table.filter(pl.col("Card type") == "Étoile").row(0, named=True)
    cells = {k: "" if v is None else str(v) for k, v in row.items()}
    assert not any("nan" in v for v in cells.values()), cells
    verdict = next(k for k in cells if k.startswith("Verdict"))
    assert cells[verdict] == "not played (0 copies)", cells
    assert cells["Change of mean length (player turns, 95%, unadjusted)"] == "", cells
    assert cells["Founded by, one copy fewer"] == "", cells
    # the other types keep their figures
    other = table.filter(pl.col("Card type") == "Chevalier").row(0, named=True)
    assert other["Founded by, one copy fewer"] == "29.0%" and "±" in other[
        "Change of mean length (player turns, 95%, unadjusted)"]


def test_the_sentence_names_a_type_without_copies_as_not_played_not_as_too_few_players(tmp_path):
    text = M.ablation_sentences(_as_read(_without_etoile(), tmp_path))[0]
    left = text.split("too few players to say):")[1]
    assert "Étoile" not in left.split("not played")[0], text
    assert "not played (0 copies in the deck): Étoile" in text, text
    assert "Bouffon (no founder with the full deck" in left, text      # the Bouffon still left out


def test_the_csv_verdict_of_a_type_without_copies_is_the_pages():
    ct = Q.card_ablation_verdicts(_without_etoile())
    words = dict(zip(ct["card"].to_list(), ct["verdict"].to_list()))
    assert words["etoile"] == "not played (0 copies)"
    assert words["bouffon"] == "too few players to say"
