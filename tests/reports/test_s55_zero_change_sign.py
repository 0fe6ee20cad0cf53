"""A change that prints as zero carries no sign, and one that is not zero never prints as zero
(session 55 review: "+0.0 pp"). Reproduced with ``balance skill --game seigneurial --budgets 0,1
--games 400 --seed 3``: the Seigneur won 2 of 400 games at both budgets and the trend sentence read
"a change of +0.0 pp that could lie anywhere from −2.1 to +2.1"; the --against sentence read "seat 2
+0.0 pp" of two equal shares (tests/analysis/test_skill_against.py) and a panel sweep's sentence
"effects from … to +0.0 pp (3p 3×greedy)" of a cell whose effect is 0
(tests/sweep/test_review_g_panel_pages.py). The toolkit's rule for a number that rounds to zero is
no sign (``reports.text.signed``: "−0.0" reads as a loss, "+0.0" as a gain); a change that is not
zero but prints as 0 at the sentence's decimals is given the decimals (up to 3) at which it does
not (``simcore.numbers.change_digits``), as ``balance check`` gives an interval's end that would
print as 0."""

from __future__ import annotations

import json
import re

import polars as pl

from analysis.skill_against import against, against_words, change_text
from analysis.skill_words import advantage, verdict
from simcore import games as registry

from test_s55_rare_share_lead_section import _seigneurial_dir
from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (every page undrawn)

ZERO = re.compile(r"[+−-]0\.0+ pp")      # a signed zero


def _row(after: float, before: float) -> dict:
    return {"after_win_share": after, "before_win_share": before, "change": after - before,
            "change_low": -0.033, "change_high": 0.034}


def test_the_against_change_of_two_equal_shares_has_no_sign():
    assert change_text(_row(0.30, 0.30)) == "0.0 pp (−3.3 to 3.4)"


def test_the_against_change_that_rounds_to_zero_gets_the_decimals_where_it_is_not():
    # 30.03% against 30.00%: both print 30.0% at one decimal; the change is +0.03 pp
    assert change_text(_row(0.3003, 0.30)) == "+0.03 pp (−3.3 to 3.4)"
    assert change_text(_row(0.2997, 0.30)) == "−0.03 pp (−3.3 to 3.4)"
    assert change_text(_row(0.325, 0.30)) == "+2.5 pp (−3.3 to 3.4)"      # as before


def test_the_against_sentence_and_tables_print_no_signed_zero():
    from cli.skill import against_terminal_cell
    from reports.skill import against_table

    def table(shares: dict, games: int) -> pl.DataFrame:
        rows = [("", 4, b, "all", s, "player", "x", games, w, 0.0, 1.0) for b, ws in shares.items()
                for s, w in enumerate(ws)]
        return pl.DataFrame(rows, schema=["cell", "players", "budget", "part", "seat", "role", "bot",
                                          "games", "win_share", "ci_low", "ci_high"], orient="row")

    before = table({0: [0.20, 0.30, 0.25, 0.25], 64: [0.20, 0.30, 0.25, 0.25]}, 4000)
    after = table({0: [0.30, 0.20, 0.25, 0.25], 64: [0.28, 0.30, 0.25, 0.2502]}, 4000)
    cmp = against(before, after, 0.01)
    words = against_words(cmp, "a", "b")
    assert "seat 2 0.0 pp (" in words and not ZERO.search(words), words
    shown = against_table(cmp)["change (pp)"].to_list()
    assert "0.0" in shown and "+0.02" in shown and not any(re.fullmatch(r"[+−-]0\.0+", x) for x in shown), shown
    cells = [against_terminal_cell(r) for r in cmp.iter_rows(named=True)]
    assert not any(ZERO.sub("", c) != c or re.match(r"[+−-]0\.0+\n", c) for c in cells), cells
    # the terminal's change is the page's: the difference of the shares as printed
    assert [c.split("\n")[0] for c in cells] == shown


def test_the_trend_sentences_change_of_equal_shares_has_no_sign(tmp_path):
    d = _seigneurial_dir(tmp_path / "sk", seigneur=(2, 2))
    spec = registry.get("seigneurial")
    words = verdict(advantage(pl.read_parquet(d / "skill.parquet"), spec.roles_alike))
    assert "a change of 0.00 pp that could lie anywhere" in words and not ZERO.search(words), words


def test_the_trend_sentences_change_that_rounds_to_zero_gets_the_decimals_where_it_is_not(tmp_path):
    # the Seigneur at 30.00% and 30.03% of 10,000 games: both "30.0%", a change of +0.03 pp
    d = _seigneurial_dir(tmp_path / "sk", seigneur=(3000, 3003), games=10_000)
    spec = registry.get("seigneurial")
    words = verdict(advantage(pl.read_parquet(d / "skill.parquet"), spec.roles_alike))
    assert "30.0% (" in words and "a change of +0.03 pp" in words and not ZERO.search(words), words


def test_a_panel_sweeps_sentence_prints_a_zero_effect_without_a_sign():
    from analysis.stats import NOT_SHOWN
    from analysis.sweep.panel_effects import sentences

    def effects(deltas: dict) -> pl.DataFrame:
        rows = [("start_coins", "0", "2", "seat_win_share_1", "seat 1's win share", "share", True,
                 d, d - 0.01, d + 0.01, NOT_SHOWN, 0.01, c) for c, d in deltas.items()]
        return pl.DataFrame(rows, schema=["parameter", "from", "to", "metric", "label", "unit", "share",
                                          "delta", "low", "high", "verdict", "smallest", "cell_label"],
                            orient="row")

    said = " ".join(sentences(effects({"3p 3×greedy": 0.0, "4p 4×greedy": 0.004}), 2))
    assert "effects from 0.0 pp (3p 3×greedy) to +0.4 pp (4p 4×greedy)" in said, said
    said = " ".join(sentences(effects({"3p 3×greedy": 0.0003, "4p 4×greedy": 0.004}), 2))
    assert "effects from +0.03 pp (3p 3×greedy) to +0.4 pp (4p 4×greedy)" in said, said
    said = " ".join(sentences(effects({"3p 3×greedy": -0.0003, "4p 4×greedy": 0.004}), 2))
    assert "effects from −0.03 pp (3p 3×greedy) to +0.4 pp (4p 4×greedy)" in said, said


def test_a_panel_sweeps_clear_effect_too_small_for_one_decimal_gets_the_decimals_where_it_is_not():
    """Clear in both cells, +0.03 and +0.4 pp: "by 0.03 to 0.4 pp", not "by 0.0 to 0.4 pp"."""
    from analysis.stats import SMALL
    from analysis.sweep.panel_effects import sentences

    rows = [("start_coins", "0", "2", "seat_win_share_1", "seat 1's win share", "share", True,
             d, d / 2, d * 1.5, SMALL, 0.01, c) for c, d in (("3p 3×greedy", 0.0003), ("4p 4×greedy", 0.004))]
    effects = pl.DataFrame(rows, schema=["parameter", "from", "to", "metric", "label", "unit", "share",
                                         "delta", "low", "high", "verdict", "smallest", "cell_label"],
                           orient="row")
    said = " ".join(sentences(effects, 2))
    assert "but by 0.03 to 0.4 pp (3p 3×greedy: least; 4p 4×greedy: most)" in said, said
