"""The seat imbalance's row names the seats that keep its seat from being clearly the furthest
(session 58): where a seat is the furthest from the fair share at both values by the estimates
but not by the intervals, the sentence and the table's "repeats" cell said "… but not clearly:
another seat's interval reaches as far from it", and a designer asked which seat. They now name
it, and the value(s) at which it does: "… but not clearly: seat 1's interval reaches as far from
it at both values, and those of seats 2 and 4 at 0" (column ``follows_rivals``,
:func:`analysis.sweep.metrics.furthest_seat`).

What the page says is checked against the seats' intervals computed here, from the per-game wins
(players.parquet, or the constructed winners) and the family's critical value read off a seat's
printed change (every row of a comparison's family is its estimate ± the same c × its standard
error, :func:`analysis.stats.simultaneous`), never against the new column: at each value, a seat
other than the furthest is named exactly when its interval's furthest distance from 1/P reaches
the furthest seat's nearest.

The real sweep: Middle-Ages `--vary 'scoring.empty_domain_penalty=[0,20]' --games 5000 --seed 1`
(found by trying settings and seeds): the imbalance moves by +3.2 pp (+0.8 to +5.6), clear, may
matter, the same estimate as seat 3's win share; seat 3 is the furthest above fair at 0 and at
20, but seat 1's interval reaches as far at both values and those of seats 2 and 4 at 0."""

from __future__ import annotations

import html
import re

import numpy as np
import polars as pl
import pytest

from in_process import balance
from tests.sweep.test_s57_imbalance_bar_as_a_seats import _variant

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

SETTING = "scoring.empty_domain_penalty"


# ------------------------------------------------------------------------------------------------
# The independent computation and the reading of the page's words
# ------------------------------------------------------------------------------------------------

def _reaching(wins_a: np.ndarray, wins_b: np.ndarray, seat_rows: dict[str, dict],
              frm: str, to: str) -> tuple[int, set[tuple[int, str]]]:
    """(the seat furthest from 1/P at both values by the estimates, 1-based; the (seat, value)
    pairs of every other seat whose interval reaches as far from 1/P as that seat's nearest).

    ``wins_a``/``wins_b``: per-game win shares (games × seats) at the two values; ``seat_rows``:
    the page's rows of each seat's change (``delta``, ``high``), from which the family's critical
    value is read: high = delta + c × sd(b − a)/√n."""
    n, P = wins_a.shape
    fair = 1.0 / P
    cs = []
    for s in range(P):
        sd = np.std(wins_b[:, s] - wins_a[:, s], ddof=1)
        if sd > 0:
            r = seat_rows[f"seat_win_share_{s + 1}"]
            cs.append((r["high"] - r["delta"]) / (sd / np.sqrt(n)))
    assert cs and np.ptp(cs) < 1e-6 * max(cs), cs          # one family: one critical value
    c = float(np.mean(cs))
    out, furthest = set(), []
    for wins, value in ((wins_a, frm), (wins_b, to)):
        mean = wins.mean(axis=0)
        half = c * wins.std(axis=0, ddof=1) / np.sqrt(n)
        lo, hi = mean - half, mean + half
        near = np.maximum(np.maximum(fair - hi, lo - fair), 0.0)
        far = np.maximum(fair - lo, hi - fair)
        s = int(np.argmax(np.abs(mean - fair)))
        furthest.append(s)
        out |= {(t + 1, value) for t in range(P) if t != s and far[t] >= near[s]}
    assert furthest[0] == furthest[1], furthest
    return furthest[0] + 1, out


def _said(clause: str, frm: str, to: str) -> set[tuple[int, str]]:
    """The (seat, value) pairs a clause "seat 1's interval reaches as far from it at both values,
    and those of seats 2 and 4 at 0" names."""
    out = set()
    for part in re.split(r", (?:and )?(?=seat |seats |those |the intervals )", clause):
        who, where = part.rsplit(" at ", 1)
        values = {frm, to} if where == "both values" else {where}
        seats = [int(x) for x in re.findall(r"\d+", who)]
        assert seats, part
        out |= {(s, v) for s in seats for v in values}
    return out


def _clause(text: str, end: str) -> str:
    """What follows "but not clearly: " in ``text``, up to ``end``."""
    m = re.search(r"but not clearly: (.*?)" + re.escape(end), text)
    assert m, text
    return m[1]


def _page_text(path) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))))


# ------------------------------------------------------------------------------------------------
# A constructed comparison
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def made_up():
    """Seat 1 furthest below fair at both values: at 0 seat 3 sits nearly as far above it (its
    interval reaches as far), at 4 seat 2 does; seat 4 near fair at both."""
    rng = np.random.default_rng(58)
    n = 20000
    wa = rng.choice(4, size=n, p=[0.19, 0.255, 0.30, 0.255])
    wb = rng.choice(4, size=n, p=[0.18, 0.315, 0.25, 0.255])
    a, b = _variant(wa), _variant(wb)
    from analysis.sweep.metrics import parameter_effects

    rows = parameter_effects(a, b)
    e = pl.DataFrame([{"parameter": "setup.start_coins[0]", "from": "0", "to": "4", "at": "",
                       "numeric": True, "rising": True, **r} for r in rows], infer_schema_length=None)
    return a.seat_wins, b.seat_wins, e


def test_a_constructed_comparison_names_the_seats_whose_intervals_reach_as_far(made_up):
    from reports.sweep import effect_sentence, effects_table, tornado_caption_notes

    wa, wb, e = made_up
    rows = {r["metric"]: r for r in e.iter_rows(named=True)}
    bal = rows["balance"]
    seat, want = _reaching(wa, wb, rows, "0", "4")
    assert bal["follows"] == f"seat_win_share_{seat}" and not bal["follows_clear"]
    # the case this test is about: one seat reaches as far at 0 only, another at 4 only
    assert want == {(3, "0"), (2, "4")}, want
    said = effect_sentence(bal)
    assert _said(_clause(said, ";"), "0", "4") == want, said
    assert "another seat's interval" not in said, said
    cell = effects_table(e).filter(pl.col("metric").str.starts_with("the seat imbalance"))["repeats"][0]
    assert _said(_clause(cell, ")"), "0", "4") == want, cell
    notes = tornado_caption_notes(e)
    assert _said(re.search(r"but not clearly \((.*?)\)", notes)[1], "0", "4") == want, notes


def test_a_row_read_the_other_way_keeps_each_seat_at_its_value(made_up):
    """A pair's row turned round (:func:`analysis.sweep.metrics.as_page_reads`, a value against the
    base value) names each seat at the same value as before."""
    from analysis.sweep.metrics import _oriented
    from reports.sweep import follows_cell

    _, _, e = made_up
    bal = e.filter(pl.col("metric") == "balance").row(0, named=True)
    turned = _oriented(bal, True)
    assert (turned["from"], turned["to"]) == ("4", "0")
    assert _said(_clause(follows_cell(turned), ")"), "4", "0") == _said(_clause(follows_cell(bal), ")"), "0", "4")


def test_a_clear_seat_names_no_rival():
    rng = np.random.default_rng(1)
    n = 20000
    a = _variant(rng.choice(4, size=n, p=[0.23, 0.245, 0.30, 0.225]))
    b = _variant(rng.choice(4, size=n, p=[0.22, 0.225, 0.31, 0.245]))
    from analysis.sweep.metrics import parameter_effects

    bal = parameter_effects(a, b)[0]
    assert bal["follows_clear"] is True and bal["follows_rivals"] == []
    assert all(r["follows_rivals"] is None for r in parameter_effects(a, b)[1:])


def test_a_sweep_whose_first_hundred_rows_name_no_seat_is_read(monkeypatch, tmp_path):
    """The effects' frames read every row's type: a column set only on the seat imbalance's row
    (follows, follows_rivals) null in the first hundred rows and set after them failed to build
    (polars infers a column's type from 100 rows by default)."""
    import analysis.sweep.metrics as M

    real = M.parameter_effects
    calls = {"n": 0}

    def first_ones_plain(a, b, *args, **kwargs):
        """The first 16 comparisons (7 rows each) name no seat, every later one does."""
        rows = real(a, b, *args, **kwargs)
        calls["n"] += 1
        for r in rows:
            named = calls["n"] > 16 and r["metric"] == "balance"
            r.update(follows="seat_win_share_1" if named else None,
                     follows_rivals=[{"seat": "seat_win_share_2", "at_from": True, "at_to": False}]
                     if named else None)
        return rows

    out = tmp_path / "sw"
    balance("sweep", "--vary", "setup.start_coins[0]=0..6", "--games", "400", "--seed", "3",
            "--threads", "1", "--out", out, "-q")
    monkeypatch.setattr(M, "parameter_effects", first_ones_plain)
    s = M.sensitivity(out)
    v = s.value_effects
    first = v.with_row_index().filter(pl.col("follows").is_not_null())["index"].min()
    assert first > 100, first
    assert v.filter(pl.col("follows").is_not_null())["follows_rivals"].to_list()[0] == \
        [{"seat": "seat_win_share_2", "at_from": True, "at_to": False}]


# ------------------------------------------------------------------------------------------------
# A real sweep
# ------------------------------------------------------------------------------------------------

def _wins(run_dir) -> np.ndarray:
    p = pl.read_parquet(run_dir / "players.parquet").with_columns(pl.col("win_share").cast(pl.Float64))
    P = int(p["seat"].max()) + 1
    return p.sort("game", "seat")["win_share"].to_numpy().reshape(-1, P)


@pytest.fixture(scope="module")
def penalty(tmp_path_factory):
    root = tmp_path_factory.mktemp("s58")
    common = ["--vary", f"{SETTING}=[0,20]", "--games", "5000", "--seed", "1", "--threads", "1", "-q"]
    balance("sweep", "--out", root / "rows", *common)
    balance("sweep", "--out", root / "sums", "--no-raw", *common)
    for d in ("rows", "sums"):
        balance("report", root / d, "--out", root / f"{d}-page")
    return root


def test_a_real_sweeps_sentence_and_cell_name_the_seats_its_intervals_show(penalty):
    from analysis.sweep.metrics import sensitivity
    from analysis.sweep.store import read_sweep

    sw = read_sweep(penalty / "rows")
    ids = {v["values"][SETTING]: v["id"] for v in sw["variants"]}
    wa, wb = (_wins(penalty / "rows" / "variants" / ids[x]) for x in (0, 20))
    e = sensitivity(penalty / "rows").effects
    seat, want = _reaching(wa, wb, {r["metric"]: r for r in e.iter_rows(named=True)}, "0", "20")
    # the case: a seat furthest by the estimates only, with rivals at one value and at both
    assert seat == 3 and {v for _, v in want} == {"0", "20"} and len({s for s, _ in want}) > 1, want
    for page in ("rows-page", "sums-page"):          # from the rows, and from the exact sums
        text = _page_text(penalty / page / "report.html")
        sentence = re.search(r"Raising scoring\.empty_domain_penalty from 0 to 20 moves the seat "
                             r"imbalance [^(]*\([^)]*\) by [^(]*\([^)]*\): [^(]*\((.*?)\)\.", text)
        assert sentence, text[:2000]
        assert "seat 3's win share" in sentence[1] and "another seat" not in sentence[1], sentence[1]
        assert _said(_clause(sentence[1], ";"), "0", "20") == want, sentence[1]
        cell = re.search(r"not the same metric: the same estimate as seat 3's win share here \((.*?)\), with",
                         text)
        assert cell, text
        assert _said(_clause(cell[1] + ")", ")"), "0", "20") == want, cell[1]


def test_a_panel_sweeps_cells_carry_the_rivals(tmp_path):
    """A panel sweep's cells are sweeps read by the same code (analysis.sweep.panel_effects): the
    4-player cell of the same games names the same seats on its page."""
    from analysis.sweep.panel_effects import panel_effects, read_panel_sweep
    from analysis.sweep.store import read_sweep

    out = tmp_path / "pan"
    balance("sweep", "--out", out, "--lineup", "balanced", "--players", "3,4", "--vary", f"{SETTING}=[0,20]",
            "--games", "5000", "--seed", "1", "--threads", "1", "-q")
    e = panel_effects(out).filter(pl.col("players") == 4)
    assert e.schema["follows_rivals"] == pl.List(pl.Struct({"seat": pl.String, "at_from": pl.Boolean,
                                                             "at_to": pl.Boolean}))
    meta = read_panel_sweep(out)
    cell = out / next(d for c, d in zip(meta["panel"]["cells"], meta["cells"]) if c["players"] == 4)
    ids = {v["values"][SETTING]: v["id"] for v in read_sweep(cell)["variants"]}
    wa, wb = (_wins(cell / "variants" / ids[x]) for x in (0, 20))
    seat, want = _reaching(wa, wb, {r["metric"]: r for r in e.iter_rows(named=True)}, "0", "20")
    bal = e.filter(pl.col("metric") == "balance").row(0, named=True)
    assert bal["follows"] == f"seat_win_share_{seat}" and not bal["follows_clear"] and want
    balance("report", cell, "--out", tmp_path / "page")
    text = _page_text(tmp_path / "page" / "report.html")
    said = re.search(r"moves the seat imbalance [^(]*\([^)]*\) by [^(]*\([^)]*\): [^(]*\((.*?)\)\.", text)
    assert said and _said(_clause(said[1], ";"), "0", "20") == want, said
