"""revD #6-#9, #15: the before/after leads with what changed, and its numbers agree.

- #6: "Seat 3 30.05% → 31.07% (+1.02 pp …)" for a paired change of +1.028 pp: the change printed
  was the difference of the rounded before and after, not the change.
- #7: the section opened with a 250-word methods paragraph; "What changed" came second.
- #8: constant metrics were said to "repeat another row's number … kept once in the tested family".
- #9: the list ran "largest first" across units (coins between pp), with mixed precision in one
  sentence, and counted "42 of 77 compared metrics" beside "Holm over the 75 tested".
- #15: the win-share balance line repeated Seat 1's win share; "0.000% (0.000–0.002) of games end
  in a shared win"; the run table's unexplained "Directories 1"; literal Markdown backticks.
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.compare import COMPARE_SCHEMA

LARGE, MAY, SMALL, NONE = stats.LARGE, stats.MAY_MATTER, stats.SMALL, stats.NOT_SHOWN


def _row(metric, key, base, variant, diff=None, verdict=LARGE, kind="proportion", half=0.002, p=1e-6,
         smallest=0.01, label=None):
    diff = variant - base if diff is None else diff
    return {"metric": metric, "key": key, "label": label or f"{key} {metric}", "kind": kind,
            "base": base, "base_low": base - half, "base_high": base + half,
            "variant": variant, "variant_low": variant - half, "variant_high": variant + half,
            "diff": diff, "diff_low": diff - half, "diff_high": diff + half, "z": diff / half * 2,
            "p_value": p, "p_adjusted": p, "significant": verdict != NONE, "smallest": smallest,
            "size_low": diff - 2 * half, "size_high": diff + 2 * half, "verdict": verdict, "paired": True}


def _table(*rows) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=COMPARE_SCHEMA)


def _num(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


# the revD run's seats: wins over 200,000 deals (shares in steps of 1/800,000), paired changes
SEATS = (("Seat 3", 0.300455, 0.310735), ("Seat 2", 0.24724, 0.239455), ("Seat 4", 0.24983, 0.243505),
         ("Seat 1", 0.202475, 0.206305))


def test_the_seat_change_printed_is_the_change_and_agrees_with_before_and_after():
    """#6: Seat 3 moved +1.028 pp (62,147 − 60,091 wins over 200,000 deals); the page printed
    30.05% → 31.07% (+1.02 pp). Every seat of the sentence at one precision (#9)."""
    from reports.text import seat_question

    cmp = _table(*[_row("seat_win_share", k, b, v, v - b, MAY if k != "Seat 1" else SMALL, label=f"{k} win share")
                   for k, b, v in SEATS])
    line = seat_question(cmp, "coins")
    assert "+1.02 pp" not in line and "Seat 3 30.046% → 31.074% (+1.028 pp" in line, line
    found = re.findall(r"(Seat \d) ([\d.]+)% → ([\d.]+)% \(([+−][\d.]+) pp", line)
    assert len(found) == 4
    assert len({len(x.split(".")[1]) for _, b, v, c in found for x in (b, v, c)}) == 1, line   # one precision
    true = {k: 100 * (v - b) for k, b, v in SEATS}
    for seat, b, v, c in found:
        d = len(c.split(".")[1])
        assert round(float(v) - float(b), d) == pytest.approx(_num(c), abs=1e-9), (seat, line)
        assert abs(_num(c) - true[seat]) <= 0.5 * 10 ** -d + 1e-9, (seat, line)


def test_every_compared_metric_prints_a_change_its_before_and_after_agree_with():
    """#6 as a property: shares on a 1/800,000 grid (200,000 games of 4), paired changes exactly
    after − before, and means of whole coins over the deals: the printed after − before is the
    printed change, and the printed change is the true change rounded (half a unit at most)."""
    from reports.text import MORE_DIGITS, metric_digits, metric_value, shown_change

    rng = np.random.default_rng(6)
    for _ in range(400):
        if rng.random() < 0.5:
            b, v = (int(x) / 800_000 for x in rng.integers(100_000, 300_000, 2))
            r = _row("seat_win_share", "Seat 1", b, v, v - b)
            scale = 100
        else:
            b, v = (int(x) / 200_000 for x in rng.integers(20_000_000, 24_000_000, 2))
            r = _row("seat_mean_score", "Seat 1", b, v, v - b, kind="mean", smallest=2.0)
            scale = 1
        d = metric_digits(r)
        before, after = (_num(metric_value(r[k], r["metric"], r["kind"], d).rstrip("%")) for k in ("base", "variant"))
        change = round(scale * shown_change(r, d), d)
        assert round(after - before, d) == pytest.approx(change, abs=1e-9), (r["base"], r["variant"], d)
        # the change rounded; at the cap of decimals (2 more than the metric's own) within one unit
        own = 1 if scale == 100 else 2
        slack = 0.5 if d < own + MORE_DIGITS else 1.0
        assert abs(change - scale * r["diff"]) <= slack * 10 ** -d + 1e-9, (r["base"], r["variant"], d)


def _listed() -> pl.DataFrame:
    return _table(
        _row("seat_win_share", "Seat 1", 0.20, 0.23, label="Seat 1 win share"),
        _row("event_top_gainer_wins", "Alliance", 0.29, 0.23, label="Alliance: biggest gainer wins"),
        _row("leader_wins_turn_11", "all", 0.612, 0.673, label="Leader at the end of turn 11 wins"),
        _row("tile_slope", "Champs", -0.0166, 0.0327, kind="slope", label="Win share per extra Champs tile"),
        _row("seat_mean_score", "Seat 4", 111.84, 104.29, kind="mean", smallest=2.0, half=0.1,
             label="Seat 4 mean score"),
        _row("event_mean_gain", "Alliance", 3.0, 9.5, kind="mean", smallest=2.0, half=0.1,
             label="Alliance: mean coin gain per player"),
        _row("event_leader_change", "Alliance", 0.20, 0.165, label="Alliance: changes the leader"),
        _row("score_spread", "all", 23.22, 28.20, kind="mean", smallest=2.0, half=0.1,
             label="Winner's lead: the gap between the two highest final scores (coins)"),
        _row("event_leader_change", "Métiers", 0.087, 0.076, verdict=MAY, label="Métiers: changes the leader"),
        _row("shared_wins", "all", 0.0, 0.0, 0.0, verdict=NONE, p=1.0, label="Games with a shared win"),
        {**_row("balance", "all", 0.91, 0.92, kind="index", verdict=NONE, label="Balance"),
         "p_value": None, "p_adjusted": None, "z": None, "diff_low": float("nan"), "diff_high": float("nan")})


def test_the_changes_are_grouped_by_kind_and_sorted_by_size_within_a_unit():
    """#9: seats and scores first, then game shape, event cards, tiles; within a kind one unit at a
    time, largest first; a change that may matter sits by size among its kind's."""
    from reports.text import comparison_headlines

    lines = comparison_headlines(_listed(), "before", "after", "coins")
    # (revF #7: each kind's changes are nested under its heading, a Grouped sentence)
    heads = [x for x in lines if re.fullmatch(r"[A-Z][a-z ]+ \(\d+ changes?\):", x)]
    assert heads == ["Seats and scores (2 changes):", "Game shape (1 change):", "Event cards (4 changes):",
                     "Tiles (1 change):"], lines
    cards = list(heads[2].items)
    assert [x.split(":")[0] + ":" + x.split(":")[1] for x in cards] == [
        "Alliance: biggest gainer wins", "Alliance: changes the leader", "Métiers: changes the leader",
        "Alliance: mean coin gain per player"], cards   # coins: a unit of its own, not between pp
    assert "clear, may matter" in cards[2]
    scores = list(heads[0].items)
    assert scores[0].startswith("Seat 4 mean final score") and scores[1].startswith("Winner's lead")
    # the counts are of the tested metrics (the Balance index is shown, not tested) and add up to them
    count = lines[1]
    assert count.startswith("after against before: 8 of the 10 tested metrics moved clearly and by enough to "
                            "matter, 1 clearly and perhaps by enough to matter"), count
    assert "1 within noise (Holm over the 10; the table's other row, the Balance index, is shown but not " \
           "tested)" in count
    said = [int(x) for x in re.findall(r"(\d+) (?:of the \d+ tested metrics moved )?(?:clearly|within noise)",
                                       count.split(". Listed below")[0])]
    assert sum(said) == 10


class _About:
    def __init__(self, dropped):
        self.dropped, self.pairing = dropped, None


def test_constant_metrics_left_out_are_said_to_be_constant_and_untested():
    """#8: "2 rows that repeat another row's number (…: it cannot move; …), kept once in the tested
    family": they repeat no row and are not tested."""
    from reports.sections import _left_out_sentence

    text = _left_out_sentence(_About([
        ("Mean reshuffles per game", "the same in every game of both runs (0 a game): it cannot move"),
        ("Games with at least one reshuffle", "the same in every game of both runs (in no game): it cannot move")]))
    assert text == (" Left out of the table (2 rows): 2 metrics the same in every game of both runs, so they "
                    "cannot move and are not tested: Mean reshuffles per game (0 a game) and Games with at "
                    "least one reshuffle (in no game).")
    both = _left_out_sentence(_About([
        ("Games with at least one reshuffle", "the same in every game of both runs (in no game): it cannot move"),
        ("Seat 1 win share", "the same number as Seigneur side win share")]))
    assert "1 metric the same in every game of both runs, so it cannot move and is not tested" in both
    assert "1 row that repeats another row's number (Seat 1 win share (the same number as Seigneur side win " \
           "share)), kept once in the tested family" in both


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_before_after_leads_with_what_changed_and_measures_below(tmp_path):
    """#7: the section opens with "What changed" and the seats' answer; the methods paragraph,
    with what is tested and what is left out, is a "How this is measured" section after it."""
    import analysis_runs as runs
    from analysis import analyse, open_runs
    from analysis.compare import compare_runs
    from reports.sections import build_sections

    b = open_runs([runs.synthetic_run(tmp_path / "b", 200, 4, seed=1)])
    v = open_runs([runs.synthetic_run(tmp_path / "v", 200, 4, seed=2, seat_edge=3.0)])
    tb, tv = analyse(b), analyse(v)
    about = compare_runs(b, v, tb, tv)
    secs, _ = build_sections(tb, b, [(v.label, about.table, tv)], variants=[v], comparisons=[about])
    ids = [s.id for s in secs]
    assert ids[:3] == ["comparison", "comparison_how", "comparison_rules"], ids
    lead = secs[0]
    assert lead.intro == "" and lead.sentences[0].startswith("What changed: ")
    assert lead.sentences[1].startswith("Did the seat win rates move?")
    how = secs[1]
    assert how.title.startswith("How this is measured")
    n = int(about.table["p_adjusted"].is_not_null().sum() - about.table["p_adjusted"].is_nan().sum())
    assert f"The table compares {about.table.height} metrics; {n} are tested" in how.intro, how.intro
    assert "Holm-adjusted p-value" in how.intro


def test_the_seat_lines_say_seat_1_once_and_no_shared_win_reads_as_none():
    """#15: the win-share balance line repeated "Seat 1 wins 20.2% (20.1–20.4)" given on the seat
    line above it; "0.000% (0.000–0.002) of games end in a shared win" for none in 200,000."""
    from reports.text import seat_headlines, shared_win_sentence
    from analysis.stats import wilson

    lo, hi = wilson(0, 200_000)
    assert shared_win_sentence({"estimate": 0.0, "ci_low": lo, "ci_high": hi, "n": 200_000}) == (
        "No shared win in 200,000 games (at most 0.002%, the upper end of the 95% interval).")
    lo, hi = wilson(385, 100_000)
    assert shared_win_sentence({"estimate": 0.00385, "ci_low": lo, "ci_high": hi, "n": 100_000}) == (
        "0.39% (0.35–0.43) of games end in a shared win.")
    seats = pl.DataFrame({"seat": [0, 1], "seat_label": ["Seat 1", "Seat 2"], "win_share": [0.45, 0.55],
                          "ci_low": [0.44, 0.54], "ci_high": [0.46, 0.56], "fair_share": [0.5, 0.5],
                          "diff": [-0.05, 0.05], "significant": [True, True]})
    st = pl.DataFrame({"chi2": [100.0], "dof": [1], "p_value": [1e-9], "seats_differ": [True],
                       "balance": [0.9], "balance_low": [0.89], "balance_high": [0.91], "advantage_p1": [0.45],
                       "advantage_p1_low": [0.44], "advantage_p1_high": [0.46], "win_share_balance": [0.9],
                       "win_share_balance_low": [0.89], "win_share_balance_high": [0.91],
                       "first_seat_win_share": [0.45], "first_seat_win_share_low": [0.44],
                       "first_seat_win_share_high": [0.46]})
    lines = seat_headlines({"seats": seats, "seat_tests": st})
    assert sum("Seat 1 wins 45.0%" in x for x in lines) == 1, lines
    assert next(x for x in lines if "win-share balance" in x).endswith("two seats' win shares).")


def test_backticks_are_code_in_html_and_plain_in_the_pdf_and_directories_only_when_pooled(tmp_path):
    """#15: "the ablation section of `balance questions`" showed its backticks; the run table's
    "Directories" column of 1s was unexplained. The PDF drops the marks where every text of it is
    wrapped (reports.pdf), so every page's PDF does, not only the run report's."""
    import pypdfium2 as pdfium

    from reports.html import code_marks, meta_table, with_titles
    from reports.pdf import write_pdf
    from reports.sections import Section

    assert "<code>balance questions</code>" in with_titles("the ablation section of `balance questions`.")
    assert code_marks("a `b` c `d`") == "a <code>b</code> c <code>d</code>"
    write_pdf(tmp_path / "r.pdf", "T", [Section("x", "X", "see `balance questions`", sentences=["run `balance replay`"],
                                                tables=[("T", pl.DataFrame({"a": ["`cmd`"]}))], intro_in_pdf=True)],
              {}, {}, {})
    doc = pdfium.PdfDocument(str(tmp_path / "r.pdf"))
    text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    assert "run balance replay" in text and "cmd" in text and "`" not in text, text

    class G:
        def __init__(self, paths):
            self.paths, self.label, self.n_games, self.n_players = paths, "run", 10, 4
            self.metas = [{"strategies": ["balanced"] * 4, "rules_name": "r", "rules_sha256": "ab", "version": "1"}]

    assert "Directories" not in meta_table([G(["a"]), G(["b"])]).columns
    pooled = meta_table([G(["a", "b"]), G(["c"])])
    assert pooled["Run directories pooled"].to_list() == ["2", "1"]


@pytest.mark.parametrize("n", [10_000_000, 100_000_000, 1_000_000_000])
def test_no_shared_win_in_a_huge_run_gives_an_end_above_zero(n):
    """At 1e7 games and more "No shared win in 100,000,000 games (at most 0.0000%, …)": the end
    printed as zero, the very reading the sentence exists to avoid; every game shared read "at least
    100.0000%". The end is printed with the decimals it needs, and is the interval's own end."""
    import re

    from analysis.stats import wilson
    from reports.text import shared_win_sentence

    lo, hi = wilson(0, n)
    line = shared_win_sentence({"estimate": 0.0, "ci_low": lo, "ci_high": hi, "n": n})
    m = re.search(r"at most ([\d.]+)%", line)
    assert m and float(m.group(1)) > 0, line
    assert abs(float(m.group(1)) / (100 * hi) - 1) < 0.5, (line, hi)   # its first digit is the end's
    lo, hi = wilson(n, n)
    line = shared_win_sentence({"estimate": 1.0, "ci_low": lo, "ci_high": hi, "n": n})
    m = re.search(r"at least ([\d.]+)%", line)
    assert m and float(m.group(1)) < 100, line
