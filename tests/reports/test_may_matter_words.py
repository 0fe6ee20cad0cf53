"""The fourth verdict, "clear, may matter" (a clear difference whose interval straddles the smallest
difference that matters), in the sentences built from verdicts: each sentence stays true for the
numbers beside it (small synthetic tables; pure functions)."""

from __future__ import annotations

import polars as pl

from analysis import stats
from analysis.compare import COMPARE_SCHEMA
from reports.sections import _comparison_caption, _seat_caption
from reports.text import comparison_headlines, seat_gap_words

MAY, LARGE, SMALL, NONE = stats.MAY_MATTER, stats.LARGE, stats.SMALL, stats.NOT_SHOWN


def seats(gaps: list[tuple[float, str]]) -> pl.DataFrame:
    fair = 1 / len(gaps)
    return pl.DataFrame({"seat": list(range(len(gaps))), "seat_label": [f"Seat {k + 1}" for k in range(len(gaps))],
                         "win_share": [fair + d for d, _ in gaps], "fair_share": [fair] * len(gaps),
                         "diff": [d for d, _ in gaps], "verdict": [v for _, v in gaps],
                         "smallest": [0.01] * len(gaps)})


def test_a_seat_that_may_matter_is_named_without_calling_it_large_or_under_the_threshold():
    # +0.9 pp whose interval reaches past 1 pp: not "under the 1 pp that matters", not "do not win equally"
    text = seat_gap_words(seats([(0.009, MAY), (-0.004, SMALL), (-0.003, NONE), (-0.002, NONE)]))
    assert "under the 1 pp that matters" not in text and "do not win equally" not in text, text
    assert text == ("Seat 1 (+0.9 pp) is clearly off the fair 25.0%, perhaps by the 1 pp that matters; these "
                    "games cannot tell (Holm over the 4 seats; more games would)")
    # next to a large one: both named, the large one as shown, the other as may-matter
    text = seat_gap_words(seats([(0.03, LARGE), (-0.011, MAY), (-0.01, NONE), (-0.009, NONE)]))
    assert text.startswith("the seats do not win equally often: Seat 1 (+3.0 pp) is clear of the fair "
                           "25.0% by at least the 1 pp that matters (Holm over the 4 seats); Seat 2 "
                           "(−1.1 pp) is clearly off it too, perhaps by 1 pp or more (these games cannot tell)"), text
    # no may-matter seat: the old sentences
    assert "under the 1 pp that matters; 1 of these gaps is clear but small" in seat_gap_words(
        seats([(0.004, SMALL), (-0.002, NONE), (-0.001, NONE), (-0.001, NONE)]))


def test_the_seat_caption_keeps_one_colon_with_a_seat_that_may_matter():
    t = {"seats": seats([(0.03, LARGE), (-0.011, MAY), (-0.01, NONE), (-0.009, NONE)]),
         "seat_tests": pl.DataFrame({"p_value": [1e-9], "seats_differ": [True]})}
    caption = _seat_caption(t)
    assert caption.count(":") == 1 and "perhaps by 1 pp or more" in caption, caption


def row(metric: str, key: str, base: float, variant: float, half: float, verdict: str,
        size: tuple[float, float] | None = None) -> dict:
    diff = variant - base
    sig = verdict != NONE
    size = size or (diff - 1.7 * half, diff + 1.7 * half)
    return {"metric": metric, "key": key, "label": f"{key} {metric}", "kind": "proportion", "base": base,
            "base_low": base - half, "base_high": base + half, "variant": variant,
            "variant_low": variant - half, "variant_high": variant + half, "diff": diff,
            "diff_low": diff - half, "diff_high": diff + half, "z": 5.0 if sig else 0.5,
            "p_value": 1e-6 if sig else 0.6, "p_adjusted": 1e-5 if sig else 1.0, "significant": sig,
            "smallest": 0.01, "size_low": size[0], "size_high": size[1], "verdict": verdict}


def comparison(*rows: dict) -> pl.DataFrame:
    cmp = pl.DataFrame(list(rows), schema=COMPARE_SCHEMA)
    return cmp[stats.practical_order(cmp["verdict"].to_list(), cmp["diff"].to_numpy(), 0.01)]


def test_a_before_after_counts_and_lists_the_changes_that_may_matter():
    cmp = comparison(row("seat_win_share", "Seat 1", 0.25, 0.27, 0.003, LARGE),
                     row("end_reason_share", "a", 0.50, 0.511, 0.009, MAY, size=(0.0005, 0.0215)),
                     row("end_reason_share", "b", 0.30, 0.304, 0.002, SMALL),
                     row("end_reason_share", "c", 0.20, 0.201, 0.01, NONE))
    lines = comparison_headlines(cmp, "base", "variant", "coins")
    assert lines[1].startswith("variant against base: 1 of the 4 tested metrics moved clearly and by enough "
                               "to matter, 1 clearly and perhaps by enough to matter (these games cannot "
                               "tell), 1 clearly but by less than the smallest difference that matters"), lines[1]
    assert lines[2] == "Nothing else is shown to have moved by enough to matter; these may:"
    assert lines[3] == "Game shape (1 change):"        # the list is grouped by kind (revD #9)
    item = lines[3].items[0]                          # nested under its heading (revF #7)
    assert item.startswith("a end_reason_share: 50.0% → 51.1%, +1.1 pp (95% interval +0.2 to +2.0 pp)")
    assert item.endswith(": clear, may matter (all 4 tested metrics at once: +0.05 to +2.15 pp, on "
                             "both sides of the smallest difference that matters, 1 pp; more games would "
                             "tell)."), item
    # Holm can call a change clear whose wider interval still holds 0: the sign is Holm's, the range
    # starts at 0 on the change's side
    held = comparison(row("end_reason_share", "a", 0.50, 0.489, 0.009, MAY, size=(-0.0215, 0.0012)))
    line = comparison_headlines(held, "base", "variant", "coins")[-1].items[-1]
    assert "at once: −2.15 to 0.00 pp, on both sides of the smallest difference that matters, 1 pp" in line, line
    assert len(lines) == 4 and len(lines[3].items) == 1
    # a table without the size interval (older callers) still words it
    bare = comparison_headlines(cmp.with_columns(pl.lit(None, pl.Float64).alias("size_low")), "base", "variant",
                                "coins")
    assert bare[3].items[0].endswith(": clear, may matter (these games cannot tell whether it reaches the smallest "
                            "difference that matters).")
    # the caption: no other share shown large, the one that may matter said so
    caption = _comparison_caption(cmp, "coins")
    assert "No other share is shown to have moved by enough to matter; the largest clear change that may " \
           "matter (these games cannot tell): a end_reason_share" in caption, caption
    assert "Largest clear change" not in caption


def test_a_before_after_without_changes_that_may_matter_reads_as_before():
    cmp = comparison(row("seat_win_share", "Seat 1", 0.25, 0.27, 0.003, LARGE),
                     row("end_reason_share", "b", 0.30, 0.304, 0.002, SMALL))
    lines = comparison_headlines(cmp, "base", "variant", "coins")
    assert "perhaps" not in lines[1] and lines[-1] == "Nothing else moved by enough to matter."


def test_the_panel_sweep_agreement_counts_the_cells_where_an_effect_may_matter():
    from analysis.sweep.panel_effects import agreement

    rows = [(-0.02, -0.03, -0.01), (-0.012, -0.02, -0.004), (-0.004, -0.006, -0.002)]
    effects = pl.DataFrame([{"parameter": "p", "from": "1", "to": "2", "metric": "m", "label": "x",
                             "unit": "pp", "share": True, "cell_label": f"cell {k}", "delta": d, "low": lo,
                             "high": hi, "smallest": 0.01, "verdict": stats.practical(d, lo, hi, 0.01)}
                            for k, (d, lo, hi) in enumerate(rows)])
    a = agreement(effects, 3).row(0, named=True)
    assert (a["large"], a["may_matter"], a["small"]) == (1, 1, 1)


def test_gaps_under_1_pp_are_said_under_it_only_when_the_intervals_are():
    """Review K #10: "the seats' win shares differ from the fair 25.0% by at most 0.4 pp, under the
    1 pp that matters" read the estimates alone, where a seat's interval reached 1.0 pp below the
    fair share. The sentence says "under" only when every seat's interval, held for all seats at
    once (Bonferroni: z at 1 − 0.05/(2·4), from scipy here), stays within 1 pp; else it names the
    seat whose interval reaches past it."""
    import numpy as np
    from scipy.stats import norm

    def table(games):
        t = seats([(0.004, NONE), (-0.002, NONE), (-0.001, NONE), (-0.001, NONE)])
        sd = np.full(4, 0.43)
        z = t["diff"].to_numpy() / (sd / np.sqrt(games))
        return t.with_columns(pl.Series("win_share_sd", sd), pl.Series("games", [games] * 4),
                              pl.Series("p_value", 2 * norm.sf(np.abs(z))))

    q = norm.ppf(1 - 0.05 / 8)
    for games in (4_000, 200_000):
        text = seat_gap_words(table(games))
        reach = 0.004 + q * 0.43 / np.sqrt(games)          # Seat 1's far end, +0.4 pp plus the half-width
        assert text.startswith("the seats' win shares differ from the fair 25.0% by at most 0.4 pp (Seat 1)")
        if reach < 0.01:
            assert "under the 1 pp that matters" in text and "cannot rule out" not in text, text
        else:
            assert "under the 1 pp that matters" not in text, text
            assert text.endswith(f"cannot rule out a gap of the 1 pp that matters: Seat 1's interval, held "
                                 f"for all 4 seats at once, reaches +{100 * reach:.2f} pp"), text
    assert 0.004 + q * 0.43 / np.sqrt(4_000) >= 0.01 > 0.004 + q * 0.43 / np.sqrt(200_000)   # both cases met


def test_nothing_else_moved_is_said_only_when_the_intervals_rule_it_out():
    """Review s50 PDF (Seigneurial): "Nothing else moved by enough to matter" stood beside a caption
    saying 9 of 19 shares could still have moved by 1 pp. With a metric within noise whose interval
    over its family reaches the smallest difference, the sentence says these games cannot rule it out."""
    # (the 95% interval decides, as the figure's caption counts: a row whose family interval alone
    # reaches 1 pp is ruled out in both)
    wide = row("end_reason_share", "b", 0.30, 0.302, 0.009, NONE, size=(-0.015, 0.019))
    narrow = row("end_reason_share", "c", 0.20, 0.201, 0.001, NONE, size=(-0.012, 0.014))
    cmp = comparison(row("seat_win_share", "Seat 1", 0.25, 0.27, 0.003, LARGE), wide, narrow)
    last = comparison_headlines(cmp, "base", "variant", "coins")[-1]
    assert last.startswith("Nothing else is shown to have moved by enough to matter, but these games cannot "
                           "rule out a change that matters for 1 of the 2 other tested metrics"), last
    # both within it: the plain sentence stands
    cmp = comparison(row("seat_win_share", "Seat 1", 0.25, 0.27, 0.003, LARGE), narrow)
    assert comparison_headlines(cmp, "base", "variant", "coins")[-1] == "Nothing else moved by enough to matter."


def test_a_percent_scores_smallest_difference_is_said_in_pp():
    """Review s50 PDF (Seigneurial): the count sentence gave the score's smallest difference as
    "2 % of own goal" while every change beside it is in "pp of own goal"."""
    from reports.text import _small_thresholds

    cmp = pl.DataFrame([{"metric": "seat_mean_score", "kind": "mean", "key": "Seat 2",
                         "verdict": SMALL, "smallest": 2.0},
                        {"metric": "seat_win_share", "kind": "proportion", "key": "Seat 1",
                         "verdict": SMALL, "smallest": 0.01}])
    said = _small_thresholds(cmp, "% of own goal")
    assert "2 pp of own goal" in said and "2 % of own goal" not in said and "1 pp for shares" in said
