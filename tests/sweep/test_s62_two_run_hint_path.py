"""Review s62 (/tmp/rv268/out/ma1-report) #6: a sweep written to out/ma1 and reported from the
folder above printed the two-run hint "balance report ma1/variants/vNNN …", its last part only,
which does not run from there. The hint names the sweep as the command was given it."""

from __future__ import annotations

import polars as pl


def _effects():
    rows = [{"parameter": "income.palais.base", "from": 2, "to": 4, "metric": m}
            for m in ("seat_win_share_1", "seat_win_share_2", "seat_win_share_3", "seat_win_share_4",
                      "balance")]
    return pl.DataFrame(rows)


def test_s62_two_run_hint_keeps_the_parent_folder():
    from reports.sweep import family_size_words

    said = family_size_words(_effects(), {"game": "middle-ages", "varies": []}, "out/ma1")
    assert "balance report out/ma1/variants/vNNN out/ma1/variants/vMMM" in said, said
    spaced = family_size_words(_effects(), {"game": "middle-ages", "varies": []}, "my runs/ma1")
    assert "balance report 'my runs/ma1/variants/vNNN' 'my runs/ma1/variants/vMMM'" in spaced, spaced
