"""Review s61 panels/tune #1: a tune's verdict and its "Every cell of the panel" table rounded a
win share's half the other way from the rest of the same page. Exact shares 0.0715 and 0.5325 (a
Seigneurial panel tune, seed 3) printed "7.1%" and "53.2%" there (Python's format of the binary
number just under the half, or of an exact half to even), "7.2%" and "53.3%" in every other table
and on the panel pages (:func:`simcore.numbers.rounded`, halves away from zero). Both now round
as the tables do."""

from __future__ import annotations

from analysis.tune.targets import interval_text, signed, target_bits
from reports.sweep import cell_target_table


def _cell(est: float, low: float, high: float) -> dict:
    return {"label": "3p even-lord + 2×fair-share", "players": 3, "met": False, "outcome": "missed",
            "targets": [{"target": "role=seigneur:0.30:10", "metrics": [
                {"metric": "role_win_share_seigneur", "estimate": est, "low": low, "high": high}]}]}


def test_the_verdicts_interval_rounds_a_half_as_the_tables_do():
    assert interval_text(0.0715, 0.0512, 0.0983, (0.2, 0.4)) == "7.2% (5.1 to 9.8)"
    assert interval_text(0.5325, 0.4915, 0.5725, (0.2, 0.4)) == "53.3% (49.2 to 57.3)"
    # a negative end keeps its true minus sign, rounded away from zero as well
    assert signed(100 * -0.0715, 1) == "\u22127.2"


def test_the_every_cell_table_rounds_a_half_as_the_tables_do():
    table = cell_target_table([_cell(0.0715, 0.0512, 0.0983), _cell(0.5325, 0.4915, 0.5725)],
                              "seigneurial")
    col = next(c for c in table.columns if "win share" in c)
    assert table[col].to_list() == ["7.2% (5.1 to 9.8)", "53.3% (49.2 to 57.3)"]


def test_the_verdict_sentence_of_a_role_target_prints_the_half_up():
    from analysis.tune.targets import parse_targets

    (t,) = parse_targets(["role=seigneur:0.30:10"], "seigneurial")
    import types

    j = types.SimpleNamespace(parts=[{"metrics": [{"estimate": 0.0715, "low": 0.0512, "high": 0.0983}],
                                      "met": False, "missed": True, "outcome": "missed"}])
    (said,) = target_bits(j, (t,), None)
    assert "7.2% (5.1 to 9.8)" in said, said
