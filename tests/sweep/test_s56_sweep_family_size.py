"""The sweep page says what its intervals are adjusted over, counted, and that a two-run page of two
of its variants adjusts over fewer (session 56 designer review D).

The designer read seat 1's 0 → 4 change of a `setup.start_coins[0]=0..4` sweep as "−0.7, within
noise (−1.44 to +0.05)" on the sweep page and, from `balance report SWEEP/variants/v000
SWEEP/variants/v004`, as "−0.7 pp … clear, may matter (−1.34 to −0.05)": the sweep adjusts each
comparison over all its metrics at once (7 here), the two-run page its seat win shares over the 4
seats alone. Both are right; the pages now say so. Checked on a real (small) sweep: the count the
sweep page names is the rows of its table "Every effect" per comparison, and the seats it names for
the two-run page are the ones that page's own family names."""

from __future__ import annotations

import re

import polars as pl
import pytest

from in_process import balance
from undrawn_figures import figures_undrawn

NAME = "setup.start_coins[0]"


@pytest.fixture(scope="module")
def swept(tmp_path_factory):
    from reports import sweep as RS

    root = tmp_path_factory.mktemp("s56_family")
    balance("sweep", "--out", root / "sw", "--vary", f"{NAME}=0..4", "--games", 1000, "--quiet")
    seen = {}
    real = RS._publish

    def publish(out_, force, title, meta, secs, figs, pdf, notes=(), lead=(), **kw):
        seen["secs"] = secs
        return real(out_, force, title, meta, secs, figs, pdf, notes, lead=lead, **kw)

    mp = pytest.MonkeyPatch()
    mp.setattr(RS, "_publish", publish)
    try:
        with figures_undrawn():
            RS.build_sweep_report(root / "sw", root / "rep")
    finally:
        mp.undo()
    return root, seen["secs"]


def _section(secs, sid):
    return next(s for s in secs if s.id == sid)


@pytest.mark.slow   # a real sweep and two pages, ~6 s: make test-slow and CI run it (docs/testing.md)
def test_the_sweep_page_names_how_many_metrics_each_comparison_is_adjusted_over(swept):
    _, secs = swept
    table = dict(_section(secs, "effects").tables)["Every effect"]
    per = table.group_by(["parameter", "from", "to"]).len()["len"].to_list()
    assert per == [7], per                                   # (imbalance, 4 seats, margin, swing)
    method = _section(secs, "method").intro
    assert "simultaneous over the 7 metrics of a comparison" in method, method
    for sid in ("effects", "values"):
        intro = _section(secs, sid).intro
        assert "adjusted over the 7 metrics of each comparison at once" in intro, (sid, intro)


@pytest.mark.slow   # (the same sweep, and a two-run page of two of its variants)
def test_it_says_a_two_run_page_of_two_variants_adjusts_over_the_seats_alone(swept):
    root, secs = swept
    intro = _section(secs, "effects").intro
    m = re.search(r"a two-run page of two of these variants \(([^)]*)\) adjusts its win shares over "
                  r"its (\d+) seat win shares alone", intro)
    assert m, intro
    assert "balance report" in m.group(1) and "variants/" in m.group(1)
    assert "fewer" in intro and "narrower" in intro
    seats = int(m.group(2))
    assert seats == 4
    # the two-run page of the first and last variants names that family itself
    balance("report", root / "sw" / "variants" / "v000", root / "sw" / "variants" / "v004",
            "--out", root / "two")
    page = (root / "two" / "report.html").read_text(encoding="utf-8")
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))
    assert f"the {seats} seat win shares and the" in text, "the two-run page's family"


def _effects(metrics: list[str], parameter: str = NAME) -> pl.DataFrame:
    return pl.DataFrame({"parameter": [parameter] * len(metrics), "from": ["0"] * len(metrics),
                         "to": ["4"] * len(metrics), "at": [""] * len(metrics), "metric": metrics})


def test_the_words_count_a_comparisons_metrics_and_the_two_run_pages_seats():
    """The words alone, on a comparison of a Middle-Ages sweep's 7 metrics (the fast tier's check;
    the pages themselves above, under make test-slow)."""
    from reports.sweep import family_size_words

    seven = ["balance", *(f"seat_win_share_{k}" for k in range(1, 5)), "margin", "event_swing"]
    words = family_size_words(_effects(seven), {"game": "middle-ages", "varies": [{"name": NAME}]}, "sw")
    assert words.startswith("The intervals here are adjusted over the 7 metrics of each comparison at "
                            "once; a two-run page of two of these variants (balance report "
                            "sw/variants/vNNN sw/variants/vMMM) adjusts its win shares over its 4 seat "
                            "win shares alone"), words
    three = family_size_words(_effects(["balance", "seat_win_share_1", "seat_win_share_2"]),
                              {"game": "middle-ages", "varies": [{"name": NAME}]}, "sw")
    assert "the 3 metrics" in three and "its 2 seat win shares alone" in three, three


def test_no_two_run_words_between_player_counts():
    """A two-run page refuses runs of different player counts: a sweep of `players` gets the count
    of its family but no advice to compare two of its variants so."""
    from reports.sweep import family_size_words

    effects = pl.DataFrame({"parameter": ["players"] * 3, "from": ["3"] * 3, "to": ["4"] * 3, "at": [""] * 3,
                            "metric": ["seat_win_share_1", "seat_win_share_2", "balance"]})
    words = family_size_words(effects, {"varies": [{"name": "players"}]})
    assert words.startswith("The intervals here are adjusted over the 3 metrics of each "
                            "comparison at once"), words
    assert "two-run" not in words
