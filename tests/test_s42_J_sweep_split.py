"""Review D (session 42) #9: a Seigneurial sweep says how evenly the Censitaire seats split the
Censitaires' wins, and which value splits them most evenly.

On a real small sweep of ``payment.order=[seat,simultaneous,rotating]`` (the setting
docs/seigneurial.md suggests for the Censitaire seats' gap): every variant has the metric "the
largest gap of a Censitaire seat from an equal split of the Censitaires' wins", equal to the one
the run page's table gives (:func:`analysis.roles.role_seat_table`, read here on each variant's
own directory: max |share of the Censitaires' wins − 1/3|); the same numbers from the sweep's exact
sums (no rows) as from its rows; the paired change between two values is the difference of the
two variants' gaps; the page and the terminal lead with a "which value" line on it, naming the
value with the smallest gap and saying when the values cannot be told apart; the curves figure
draws it on its own axis. Middle-Ages and Médiévallons sweeps gain none of it.
"""

from __future__ import annotations

import json
import re

import numpy as np
import polars as pl
import pytest

from cli import _run

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

VARY = "payment.order=[seat,simultaneous,rotating]"
SPLIT = "role_split_censitaire"


def _sweep(root, name, *args):
    out = root / name
    assert _run(["sweep", *args, "--out", str(out), "--quiet"]) == 0
    return out


@pytest.fixture(scope="module")
def sg(tmp_path_factory):
    root = tmp_path_factory.mktemp("s42j")
    rows = _sweep(root, "rows", "--game", "seigneurial", "--players", "4", "--vary", VARY,
                  "--games", "2500", "--seed", "3", "--raw")
    sums = _sweep(root, "sums", "--game", "seigneurial", "--players", "4", "--vary", VARY,
                  "--games", "2500", "--seed", "3", "--no-raw")
    return rows, sums


def _variant_ids(sw) -> dict[str, str]:
    meta = json.loads((sw / "sweep.json").read_text())
    return {str(v["values"]["payment.order"]): v["id"] for v in meta["variants"]}


def _run_page_gap(run_dir) -> float:
    """The largest gap of a Censitaire seat from an equal split, as the run page's table has it."""
    from analysis.load import open_runs
    from analysis.roles import role_seat_table

    t = role_seat_table(open_runs([run_dir])).filter(pl.col("role") == "censitaire")
    assert t.height == 3
    return float((t["share_of_role"] - 1 / 3).abs().max())


def test_every_variant_has_the_censitaires_split_gap_of_the_run_page(sg):
    from analysis.sweep.metrics import sensitivity

    rows, _ = sg
    s = sensitivity(rows)
    v = s.variants.filter(pl.col("metric") == SPLIT)
    assert v.height == 3
    assert set(v["label"]) == {"the largest gap of a Censitaire seat from an equal split of the "
                               "Censitaires' wins"}
    for value, vid in _variant_ids(rows).items():
        r = v.filter(pl.col("variant") == vid).row(0, named=True)
        assert r["estimate"] == pytest.approx(_run_page_gap(rows / "variants" / vid), abs=1e-9), value
        assert 0.0 <= r["low"] <= r["estimate"] <= r["high"] < 0.2


def test_the_split_gap_from_exact_sums_is_the_one_from_rows(sg):
    from analysis.sweep.metrics import sensitivity

    rows, sums = sg
    a, b = sensitivity(rows), sensitivity(sums)
    assert b.source == "stats" and a.source == "rows"
    for fa, fb in ((a.variants, b.variants), (a.value_effects, b.value_effects)):
        x = fa.filter(pl.col("metric") == SPLIT)
        y = fb.filter(pl.col("metric") == SPLIT)
        assert x.height == y.height > 0
        for c in ("low", "high", "estimate" if "estimate" in x.columns else "delta"):
            np.testing.assert_allclose(x[c].to_numpy(), y[c].to_numpy(), atol=1e-9)


def test_a_paired_change_of_the_gap_is_the_difference_of_the_two_gaps(sg):
    from analysis.sweep.metrics import sensitivity

    rows, _ = sg
    s = sensitivity(rows)
    ids = _variant_ids(rows)
    gap = {value: _run_page_gap(rows / "variants" / vid) for value, vid in ids.items()}
    pairs = s.value_effects.filter(pl.col("metric") == SPLIT)
    assert pairs.height == 3                       # every two of the three values
    for r in pairs.iter_rows(named=True):
        a, b = r["from"].strip('"'), r["to"].strip('"')
        assert r["delta"] == pytest.approx(gap[b] - gap[a], abs=1e-9)
        assert r["low"] <= r["delta"] <= r["high"]


def test_page_and_terminal_say_which_value_splits_the_censitaires_wins_most_evenly(sg, tmp_path):
    from analysis.sweep.metrics import sensitivity
    from reports import sweep as RS

    rows, _ = sg
    answers: list[str] = []
    page = RS.build_sweep_report(rows, tmp_path / "rep", answers=answers).read_text(encoding="utf-8")
    lines = [x.strip() for x in answers if "Most even split" in x]
    assert len(lines) == 1, answers
    line = lines[0]
    ids = _variant_ids(rows)
    gap = {value: _run_page_gap(rows / "variants" / vid) for value, vid in ids.items()}
    best = min(gap, key=gap.get)
    assert line.startswith("Most even split of the Censitaires' wins over payment.order"), line
    # the value named is the one with the smallest gap, printed as the page's variants table rounds it
    assert f'"{best}", {100 * gap[best]:.1f} pp (' in line, (line, gap)
    # told apart or not, as the page's own paired intervals (value by value) say
    s = sensitivity(rows)
    pairs = s.value_effects.filter(pl.col("metric") == SPLIT)
    clear = [r for r in pairs.iter_rows(named=True) if best in (r["from"].strip('"'), r["to"].strip('"'))
             and (r["low"] > 0 or r["high"] < 0)]
    if clear:
        assert "is clearly less even" in line or "are clearly less even" in line, line
    else:
        assert "these games cannot tell" in line and "no other value is clearly less even" in line, line
    # "seat" against each other value is the first-vs-last family's comparison (a list of words:
    # each against the first; session 55: in that family only), "simultaneous" → "rotating" the
    # value-by-value family's one pair
    assert "adjusted over the page's 2 first-vs-last comparisons" in line, line
    if best != "seat":
        assert "the others adjusted over the 1 other pair of values" in line, line
    assert "33.3% each" in line
    # the page leads with the same sentence
    import html as H

    text = H.unescape(re.sub(r"<[^>]+>", "", page))
    assert line in text


def test_the_curves_figure_draws_the_split_gap_on_its_own_axis(sg):
    from analysis.sweep.metrics import sensitivity
    from reports.figures import sweep as FS

    rows, _ = sg
    s = sensitivity(rows)
    fig = FS.curves(s.curves, "payment.order", None, s.score_unit)
    titles = [ax.get_title() for ax in fig.axes if ax.get_visible()]
    split = [t for t in titles if "equal split" in t]
    assert split and "Censitaires' wins" in split[0], titles
    ax = next(a for a in fig.axes if "equal split" in a.get_title())
    top = float(s.curves.filter(pl.col("metric") == SPLIT)["high"].max()) * 100
    assert ax.get_ylim()[1] < 20 and ax.get_ylim()[1] >= top     # zoomed, not 0-100%
    # each side's win share on its own axis, zoomed on its values (review s51: the Seigneur's
    # 0.2% → 0.4% was a flat line at 0 on a 0-100% axis shared with the Censitaires' 99.8%)
    for m in ("role_win_share_seigneur", "role_win_share_censitaire"):
        r = s.curves.filter((pl.col("metric") == m) & (pl.col("parameter") == "payment.order"))
        ax = next(a for a in fig.axes if a.get_visible() and len(a.lines)
                  and str(r["label"][0])[1:] in a.get_title())
        lo, hi = ax.get_ylim()
        assert lo <= 100 * float(r["low"].min()) and hi >= 100 * float(r["high"].max())
        assert hi - lo < 30, (m, lo, hi)                           # not the 0-100% axis


@pytest.mark.parametrize("game,args", [
    ("middle-ages", ["--vary", "setup.start_coins=0..2", "--games", "1500", "--seed", "2"]),
    ("medievallons", ["--players", "2", "--vary", "setup.hand_size[1]=6..8", "--games", "1500"]),
])
def test_games_without_a_role_of_several_seats_gain_no_split_rows(game, args, tmp_path):
    from analysis.sweep.metrics import sensitivity
    from analysis.sweep.tables import values_rows, which_values
    from reports import sweep as RS

    sw = _sweep(tmp_path, "sw", "--game", game, *args)
    s = sensitivity(sw)
    for frame in (s.variants, s.effects, s.value_effects, values_rows(s, sw)):
        assert not frame["metric"].str.starts_with("role_split_").any()
    name = s.sweep["varies"][0]["name"]
    assert [w["kind"] for w in which_values(s, name, sw)] == ["balance"]
    answers: list[str] = []
    page = RS.build_sweep_report(sw, tmp_path / "rep", answers=answers).read_text(encoding="utf-8")
    assert not any("split" in x for x in answers), answers
    assert "Most even split" not in page and "largest gap of a" not in page


LABEL = "the largest gap of a Censitaire seat from an equal split of the Censitaires' wins"


def _hand_made(gaps_pp: list[float], half_pp: float):
    """A one-parameter sweep 'p' over values 0..k−1 whose Censitaires' split gap is ``gaps_pp``,
    each pair's paired interval its change ± ``half_pp``."""
    from types import SimpleNamespace

    from analysis import stats

    k = len(gaps_pp)
    curves = pl.DataFrame([{"parameter": "p", "value": str(i), "x": float(i), "order": i,
                            "variant": f"v{i:03d}", "metric": SPLIT, "label": LABEL, "unit": "pp",
                            "share": True, "estimate": g / 100, "low": max(g - 1.5, 0) / 100,
                            "high": (g + 1.5) / 100} for i, g in enumerate(gaps_pp)])
    rows = []
    for a in range(k):
        for b in range(a + 1, k):
            d, h = (gaps_pp[b] - gaps_pp[a]) / 100, half_pp / 100
            rows.append({"parameter": "p", "from": str(a), "to": str(b), "at": "", "numeric": True,
                         "rising": True, "from_x": float(a), "to_x": float(b), "metric": SPLIT,
                         "delta": d, "low": d - h, "high": d + h, "low_unadjusted": d - h / 2,
                         "high_unadjusted": d + h / 2, "label": LABEL, "unit": "pp",
                         "share": True, "smallest": 0.01, "verdict": stats.practical(d, d - h, d + h, 0.01),
                         "same_as": None, "mirror": False, "pairs": k * (k - 1) // 2, "games": 10000})
    return SimpleNamespace(curves=curves, value_effects=pl.DataFrame(rows), effects=pl.DataFrame(),
                           sweep={"game": "seigneurial", "varies": [{"name": "p"}]})


def test_the_split_line_is_worded_by_size_and_says_which_values_are_clearly_less_even():
    from analysis.sweep.tables import which_value
    from reports.sweep import which_value_sentence

    # value 0 splits the Censitaires' wins 3.0 pp off equal, 1 and 2 about 0.5 pp: 0 clearly less even
    text = which_value_sentence(which_value(_hand_made([3.0, 0.5, 0.8], 1.0), "p", metric=SPLIT))
    assert text.startswith("Most even split of the Censitaires' wins over p: 1, largest gap 0.5 pp "
                           "(0.0 to 2.0)"), text
    # every change reads from the earlier value to the later (session 55 review #2)
    assert "2 cannot be told apart from it (1 → 2 by +0.3 pp (−0.7 to +1.3), within noise" in text, text
    assert ("0 is clearly less even: 0 → 1 by −2.5 pp (−3.5 to −1.5), clear and large enough to "
            "matter (intervals adjusted over the 3 pairs of values)") in text, text
    # no value clearly apart: said so, not a pick
    text = which_value_sentence(which_value(_hand_made([1.2, 0.5, 0.8], 1.0), "p", metric=SPLIT))
    assert text.startswith("Most even split of the Censitaires' wins over p: these games cannot tell. "
                           "The largest gap of a Censitaire seat from an equal split of the "
                           "Censitaires' wins is smallest at 1, 0.5 pp (0.0 to 2.0), but no other "
                           "value is clearly less even"), text
