"""Session 64: a 100-game Seigneurial sweep of ``payment.order`` prints the Censitaires' split-gap
change "seat" → "simultaneous" as −1.0 pp (−9.6 to +9.6), an interval centred on 0 beside a change
that is not. The "which value" sentence says why (``even_both``,
:func:`analysis.sweep.metrics._even_both`: every Censitaire seat may take an equal share of the
Censitaires' wins at both values, and the largest seat change fits both ways), but the page's
effect tables ("Every effect", "Each value against the base value", "Every two values") printed the
bare −9.6 / 9.6 with no word, and ``effects.csv`` had no column saying so.

Now the row's 'repeats' cell says it (the sentence's words, shortened) and ``effects.csv`` has a
boolean column ``even_both``. Where the interval is not centred on 0 — the 2,000-game sweep's "seat" →
"rotating", −1.1 pp (−2.2 to +1.5), whose seat 2 cannot come back to the equal split at
"rotating" — neither says anything.

Whether a row is such a one is read here apart from the code: every point of the seats' three
family intervals (the real sweeps', tests/analysis/test_s63_gap_change_after_box.py) tried by
brute force, the range of the largest gap's change is −M to +M, M the largest seat change.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.sweep import metrics as M
from analysis.sweep.tables import FIRST_VS_LAST, VALUE_BY_VALUE, effect_rows
from reports import sweep as R
from tests.analysis.test_s63_gap_change_after_box import SWEEP_100, SWEEP_2000, _points
from tests.sweep.test_s64_split_gap_even_sentence import _variant   # (one winner a game, 4 seats)

LABEL = "the largest gap of a Censitaire seat from an equal split of the Censitaires' wins"
MARK = ("interval centred on 0 whatever the change seen: every Censitaire seat may still take an equal "
        "share of the Censitaires' wins at both values")


def _centred_by_brute_force(box: dict) -> tuple[bool, float, float]:
    """Whether the largest gap's change over every point of the seats' intervals spans exactly
    −M to +M (M the largest seat change), with that range's ends."""
    pts = _points(box, 50_000, 64)
    m = float(np.abs(np.r_[box["dl"], box["dh"]]).max())
    return bool(abs(pts.max() - m) < 5e-4 and abs(pts.min() + m) < 5e-4), float(pts.min()), float(pts.max())


def _gap_row(box: dict, frm: str, to: str, delta: float) -> dict:
    """A split gap's row as :func:`analysis.sweep.metrics.parameter_effects` gives it, from the
    real sweep's family intervals ``box``: its interval the brute-force range, ``even_both`` the
    code's flag on those intervals."""
    _, low, high = _centred_by_brute_force(box)
    flag = M._even_both(box["il"], box["ih"], box["cl"], box["ch"], box["dl"], box["dh"])
    return {"parameter": "payment.order", "from": frm, "to": to, "at": "", "metric": "role_split_censitaire",
            "label": LABEL, "unit": "pp", "share": True, "delta": delta, "low": low, "high": high,
            "low_unadjusted": low, "high_unadjusted": high, "smallest": 0.01,
            "verdict": stats.practical(delta, low, high, 0.01), "same_as": None, "mirror": False,
            "same_games": None, "even_both": flag, "games": 100, "read": True, "players": None}


@pytest.mark.parametrize("box,frm,to,delta,centred", [
    (SWEEP_100, '"seat"', '"simultaneous"', -0.010, True),      # 100 games: −1.0 pp (−9.6 to +9.6)
    (SWEEP_2000, '"seat"', '"rotating"', -0.011, False),        # 2,000 games: −1.1 pp (−2.2 to +1.5)
])
def test_s64_effects_table_says_why_an_interval_is_centred_on_0(box, frm, to, delta, centred):
    assert _centred_by_brute_force(box)[0] is centred           # (the premise, apart from the code)
    row = _gap_row(box, frm, to, delta)
    table = R.effects_table(pl.DataFrame([row]))
    cell = table["repeats"][0]
    assert (MARK in cell) is centred, cell
    # the tables of pairs (value against base, every two values) are the same table with a column
    pairs = R._pairs_table(pl.DataFrame([{**row, "family": VALUE_BY_VALUE}]))
    assert (MARK in pairs["repeats"][0]) is centred


def test_s64_no_mark_where_no_game_differs():
    # a change no game moves prints the games' bound, said beside it: not this reason
    row = {**_gap_row(SWEEP_100, '"seat"', '"simultaneous"', -0.010), "same_games": 100}
    assert R.effects_table(pl.DataFrame([row]))["repeats"][0] == ""


def test_s64_effects_csv_has_the_column():
    a = _gap_row(SWEEP_100, '"seat"', '"simultaneous"', -0.010)
    b = _gap_row(SWEEP_2000, '"seat"', '"rotating"', -0.011)
    s = SimpleNamespace(effects=pl.DataFrame([b]), value_effects=pl.DataFrame([{**a, "family": VALUE_BY_VALUE}]),
                        slice_effects=None, references={"payment.order": ('"seat"', "first value")})
    rows = effect_rows(s)
    got = {(r["family"], r["from"], r["to"]): r["even_both"] for r in rows.iter_rows(named=True)}
    assert rows.schema["even_both"] == pl.Boolean
    assert got == {(FIRST_VS_LAST, '"seat"', '"rotating"'): False,
                   (VALUE_BY_VALUE, '"seat"', '"simultaneous"'): True}


@pytest.mark.parametrize("n,changed,centred", [(100, 0.10, True), (3000, 0.30, False)])
def test_s64_from_paired_games_to_the_table_and_the_file(n, changed, centred):
    # two paired variants (the Censitaire seats winning alike; a share of the games re-dealt
    # towards seat 2 under the second value) through parameter_effects, the table and the file
    rng = np.random.default_rng(64)
    before = rng.integers(1, 4, n)
    redealt = rng.random(n) < changed
    after = np.where(redealt, np.where(rng.random(n) < 0.6, 1, rng.integers(1, 4, n)), before)
    rows = [{**r, "parameter": "payment.order", "from": '"seat"', "to": '"rotating"', "at": "", "games": n}
            for r in M.parameter_effects(_variant(before), _variant(after))]
    gap = next(r for r in rows if r["metric"] == "role_split_censitaire")
    # centred on 0 by its own numbers: the interval is ± the largest seat change
    assert (gap["low"] == pytest.approx(-gap["high"], abs=1e-12)) is centred
    effects = pl.DataFrame(rows, infer_schema_length=None)
    table = R.effects_table(effects)
    marked = [m for m, c in zip(table["metric"], table["repeats"]) if MARK in c]
    assert marked == ([LABEL] if centred else [])
    s = SimpleNamespace(effects=effects, value_effects=None, slice_effects=None, references={})
    file = effect_rows(s)
    assert file.filter(pl.col("even_both"))["metric"].to_list() == (["role_split_censitaire"] if centred else [])


def _gap_rows(page: str) -> list[str]:
    """The text of every row of ``page``'s effect tables ("Every effect", "Each value against the
    base value", "Every two values": the sections before "Every variant") that holds the split
    gap's change (tags out, entities read)."""
    import html

    tables = page[page.index("<section id='effects'>"):page.index("<section id='variants'>")]
    rows = re.findall(r"<tr>(?:(?!</tr>).)*</tr>", tables, re.S)
    text = [html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " | ", r))) for r in rows]
    return [t for t in text if LABEL in t]


@pytest.mark.slow   # two real sweeps and their pages (~10 s of CPU)
def test_s64_real_sweeps_mark_the_rows_centred_on_0_and_only_those(tmp_path):
    from in_process import balance

    for games in (100, 2000):
        out, page = tmp_path / f"sw{games}", tmp_path / f"page{games}"
        balance("sweep", "--game", "seigneurial", "--vary", "payment.order=[seat,simultaneous,rotating]",
                "--games", games, "--out", out, "--quiet")
        balance("report", out, "--out", page)
        eff = pl.read_csv(page / "effects.csv").filter(pl.col("metric") == "role_split_censitaire")
        assert eff.schema["even_both"] == pl.Boolean
        # the column says what its interval shows: ± the same amount about 0, beside a change
        # that is not 0 (read from the file's own ends, not from the flag)
        centred = {(r["from"], r["to"]): abs(r["low"] + r["high"]) < 1e-9 for r in eff.iter_rows(named=True)}
        flags = {(r["from"], r["to"]): r["even_both"] for r in eff.iter_rows(named=True)}
        assert flags == centred, eff
        rows = _gap_rows((page / "report.html").read_text())
        marked = [r for r in rows if MARK in r]
        if games == 100:
            # "seat" → "simultaneous": −1.0 pp (−9.6 to +9.6), centred on 0
            assert flags[('"seat"', '"simultaneous"')] is True
            one = eff.filter((pl.col("from") == '"seat"') & (pl.col("to") == '"simultaneous"')).row(0, named=True)
            assert (round(100 * one["change"], 1), round(100 * one["low"], 1), round(100 * one["high"], 1)) == (-1.0, -9.6, 9.6)
            assert any("-9.6" in r and "9.6" in r for r in marked), rows
            assert len(marked) == len(rows)       # every gap row of this sweep is such a one
        else:
            # "seat" → "rotating": −1.1 pp (−2.2 to +1.5), not centred: no mark, False in the file
            assert flags[('"seat"', '"rotating"')] is False
            one = eff.filter((pl.col("from") == '"seat"') & (pl.col("to") == '"rotating"')).row(0, named=True)
            lo, hi = f"{100 * one['low']:.2f}", f"{100 * one['high']:.2f}"
            assert (lo, hi) == ("-2.16", "1.55")
            row = [r for r in rows if lo in r and hi in r]
            assert row and not any(MARK in r for r in row), rows
        # on the page too, a row is marked exactly where its printed ends are ± one number
        for r in rows:
            ends = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", r.split(" pp ")[0])][-2:]
            assert (MARK in r) is (ends[0] == -ends[1] != 0), r
