"""--smallest-difference on a panel sweep and on a panel's page (issue 29): `balance sweep --panel`
records it and words every cell's effect by it; `balance report PANEL_SWEEP --smallest-difference`
and `balance report --cells RUN … --smallest-difference` word the page by the figure given (the same
effects are clear whatever the figure: only the wording by size moves)."""

from __future__ import annotations

import contextlib
import html
import json
import re

import polars as pl
import pytest

from analysis import stats
from cli import _run
from simcore import runner

from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

TINY, HUGE = "win_share=0.001pp,score=0.001,length=0.001", "win_share=99pp,score=100000,length=100000"


def _page(out) -> str:
    text = re.sub(r"<[^>]+>", " ", html.unescape((out / "report.html").read_text(encoding="utf-8")))
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def panel_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("ps") / "ps"
    assert _run(["sweep", "--game", "seigneurial", "--lineup", "standard", "--lineup", "random",
                 "--players", "4", "--vary", "track.start_square=0..3", "--games", "1500",
                 "--smallest-difference", TINY, "--out", str(out), "--quiet"]) == 0
    return out


def test_a_panel_sweep_records_the_smallest_difference_and_words_its_effects(panel_sweep):
    from analysis.sweep.panel_effects import panel_effects

    meta = json.loads((panel_sweep / "panel_sweep.json").read_text())
    assert meta["smallest_difference"]["share"] == pytest.approx(0.00001)
    tiny = panel_effects(panel_sweep)
    huge = panel_effects(panel_sweep, {"share": 0.99, "score": 1e5, "length": 1e5})
    clear = (tiny["low"] > 0) | (tiny["high"] < 0)
    assert clear.any() and (clear == ((huge["low"] > 0) | (huge["high"] < 0))).all()
    assert (tiny.filter(clear)["verdict"] == stats.LARGE).all()
    assert (huge.filter(clear)["verdict"] == stats.SMALL).all()


def test_the_panel_sweep_page_words_and_orders_its_effects_by_size(panel_sweep, tmp_path):
    pages = {}
    for name, text in (("tiny", None), ("huge", HUGE)):
        out = tmp_path / name
        # the checks read the words: the second page's figures are 1x1 stand-ins (undrawn_figures.py);
        # the first is drawn (once the fast suite's only drawing of a panel sweep's effects figure;
        # this file now runs under `make test-slow`)
        with (figures_undrawn() if text else contextlib.nullcontext()):
            assert _run(["report", str(panel_sweep), "--out", str(out),
                         *(["--smallest-difference", text] if text else [])]) == 0
        pages[name] = _page(out)
    assert "clear and large enough to matter (at least 0.001 pp)" in pages["tiny"]
    # the method names the amounts the verdicts used, not only the table's smallest column (session 56
    # review: the page named no share amount beside the glossary's "1 pp for shares unless the page
    # says otherwise")
    assert "smallest difference that matters (here 99 pp for shares, 100000 pp of own goal for scores, " \
        "100000 turns for game lengths; column smallest" in pages["huge"], pages["huge"]
    assert "smallest difference that matters (here 0.001 pp for shares, " in pages["tiny"]
    # every clear effect is small at 99 pp: the sentence names the figure on "clear but small" and
    # prints no count of 0 ("clear and large enough to matter (at least 99 pp) in 0, …")
    assert "clear but small (less than 99 pp) in " in pages["huge"], pages["huge"][:600]
    assert "enough to matter (at least 99 pp)" not in pages["huge"]
    assert not re.search(r"\bin 0(?![.\d])", pages["huge"]), pages["huge"][:600]
    words = [w for w in re.findall(r"(clear and large enough to matter|clear but small|not shown)",
                                   pages["huge"].split("Every effect in every cell", 1)[1]
                                   .split("How to read this report", 1)[0])]
    assert words and stats.LARGE not in words
    ranks = [stats.VERDICT_ORDER.index(w) for w in words]
    assert ranks == sorted(ranks), words                    # reading order, never by p-value
    # every effect says its unit: shares in pp beside the margin in its own unit (the table gave
    # shares as fractions, 0.05, in the same column as 0.14 of a score, with no unit). Seat 1's
    # effect in every cell from the raw rows (track.start_square 0 -> 3: v000 -> v003)
    table = pages["tiny"].split("Every effect in every cell", 2)[2]
    shown = [float(x) for x in re.findall(r"seat 1 \(Seigneur\)'s win share (-?[\d.]+) -?[\d.]+ -?[\d.]+ pp", table)]
    want = []
    for cell in sorted((panel_sweep / "cells").iterdir()):
        a, b = (pl.read_parquet(cell / "variants" / v / "players.parquet", columns=["game", "seat", "win_share"])
                .filter(pl.col("seat") == 0).sort("game")["win_share"].to_numpy() for v in ("v000", "v003"))
        want.append(round(100 * float((b.astype(float) - a.astype(float)).mean()), 2))
    assert sorted(shown) == pytest.approx(sorted(want), abs=0.006), (shown, want)


def test_a_panel_page_says_in_how_many_cells_the_seat_is_far_enough_from_fair(tmp_path):
    runs = [runner.simulate("seigneurial", games=1500, seed=1, out=tmp_path / f"r{k}", quiet=True,
                            players=4, strategies=s) for k, s in enumerate(("standard", "random"))]
    pages = {}
    # (a panel's page sizes win shares only: since session 57 `balance report` refuses a kind no
    # page of its sizes, so the shares' part of TINY and HUGE alone)
    for name, text in (("tiny", TINY.split(",")[0]), ("huge", HUGE.split(",")[0])):
        out = tmp_path / name
        # the checks read the words: the figures are 1x1 stand-ins (undrawn_figures.py); a --cells
        # page's figure is drawn in test_panel_from_stats.py and test_panel_states_its_finding.py
        with figures_undrawn():
            assert _run(["report", "--cells", *map(str, runs), "--out", str(out),
                         "--smallest-difference", text]) == 0
        pages[name] = _page(out)
    # every clear cell is far enough at 0.001 pp, none at 99 pp (no count of 0 is printed); a game with
    # roles: the seats of the Censitaires against an equal split of their wins, the cell named
    large = r"by at least 0.001 pp of the Censitaires' wins \(clear and large enough to matter\)"
    assert re.search(rf"in that cell \([^)]*\), {large}|{large} in all \d of them", pages["tiny"]), pages["tiny"][:600]
    assert re.search(r"in that cell \([^)]*\), by less than 99 pp \(clear but small\)|by less than 99 pp \(clear but "
                     r"small\) in all \d of them", pages["huge"]), pages["huge"][:600]
    assert "by at least 99 pp" not in pages["huge"]
    assert not re.search(r"\bin 0(?![.\d])", pages["huge"]), pages["huge"][:600]
