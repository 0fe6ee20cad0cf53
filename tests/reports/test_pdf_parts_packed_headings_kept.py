"""Two layout rules of the PDF writer (reports.pdf), on the structure it produces.

1. A table cut into parts of its columns is packed to use the width: balanced parts, each run of
   related columns (every seat's share, an objective with its interval) whole in one part, the
   objective beside the settings that gave it. Session 57 review: the Seigneurial panel tune's
   "Every trial" was cut into a part of 5 columns, half its width empty, and one of 13 (seats 2-4,
   both sides, the length, the four bots' shares, the objective and its interval): seat 1's
   share apart from the other seats', the settings apart from their objective (the cut minimised
   the rows' wrapped lines, blind to a dozen narrow numbers under headers of five lines).
2. A section's heading and intro are kept with the start of its table: `balance report` of a
   Seigneurial sweep of players=3..5 left "Every effect"'s heading and intro alone at the foot of
   page 3, its 7-row table on page 4.
"""

from __future__ import annotations

import polars as pl

from reports.pdf import PdfDocument, _Layout, write_pdf
from reports.sections import Section

SEATS = [f"seat {k} win share (%)" for k in range(1, 5)]
BOTS = [f"{b} win share (%)" for b in ("even-lord", "fair-share", "objective", "harsh-lord")]


def _trials() -> pl.DataFrame:
    """The tune's "Every trial" as `balance tune --game seigneurial --panel default --players 4
    --target role=seigneur:0.45:10 --vary track.goal.4=6..14 --vary track.start_square=0..3
    --trials 4 ... --seed 11` gave it to the PDF."""
    worst = ["4p even-lord + 3×fair-share", "4p even-lord + 3×objective", "4p even-lord + 3×objective",
             "4p harsh-lord + 3×fair-share"]
    seats = [["0.0", "32.2", "33.9", "34.0"], ["0.0", "33.9", "33.3", "32.9"], ["0.0", "33.0", "33.2", "33.9"],
             ["1.0", "30.8", "33.2", "35.2"]]
    bots = [["0.0", "33.3", None, None], ["0.0", None, "33.3", None], ["0.0", None, "33.3", None],
            [None, "33.0", None, "1.0"]]
    rows = []
    for t in range(4):
        rows.append({"Trial": t, "State": "played to the last rung", "track.goal.4": [12, 13, 14, 7][t],
                     "track.start_square": [0, 2, 3, 2][t], "Games": 2000, "Worst cell (its shares shown)": worst[t],
                     **dict(zip(SEATS, seats[t])), "Seigneur side win share (%)": seats[t][0],
                     "Censitaire side win share (%)": ["100.0", "100.0", "100.0", "99.0"][t],
                     "mean length (turns)": ["7.5", "7.2", "6.8", "4.0"][t], **dict(zip(BOTS, bots[t])),
                     "Objective": ["4.50", "4.50", "4.50", "4.41"][t],
                     "Objective's 95% interval": ["4.48 to 4.50"] * 3 + ["4.35 to 4.44"],
                     "Target on the search's games": "not met"})
        rows[-1]["Objective's 95% interval"] = rows[-1]["Objective's 95% interval"][t]
    return pl.DataFrame(rows)


def _parts(monkeypatch, table: pl.DataFrame) -> list[list[str]]:
    """The columns of each part add_table draws (key columns included)."""
    drawn: list[list[str]] = []
    monkeypatch.setattr(_Layout, "_add_table", lambda self, caption, df, **_: drawn.append(list(df.columns)))
    _Layout(PdfDocument("t"), "t").add_table("Trials", table)
    return drawn


def test_the_every_trial_table_is_cut_into_balanced_parts_keeping_related_columns_together(monkeypatch):
    parts = _parts(monkeypatch, _trials())
    assert len(parts) == 2, parts
    sizes = [len(p) for p in parts]
    # balanced: was 5 and 13 columns (part 1 half empty)
    assert max(sizes) - min(sizes) <= 2, parts
    for together in (SEATS, BOTS, ["Objective", "Objective's 95% interval"],
                     ["Seigneur side win share (%)", "Censitaire side win share (%)"]):
        holding = [p for p in parts if set(together) & set(p)]
        assert len(holding) == 1 and set(together) <= set(holding[0]), (together, parts)
    # the objective with the settings that gave it
    settings = next(p for p in parts if "track.goal.4" in p)
    assert {"track.start_square", "Objective", "Objective's 95% interval"} <= set(settings), parts
    for p in parts:                                     # in the table's order, the key in each
        assert p[0] == "Trial" and p == [c for c in _trials().columns if c in p]


def _pages(monkeypatch, filler: int) -> tuple[int, int]:
    """The pages the section heading "Every effect" and its table's first row are drawn on, after
    a section of ``filler`` sentences."""
    seen: dict[str, int] = {}
    text_at = _Layout.text_at

    def record(self, x, y, text, *a, **kw):
        seen.setdefault(text, self.page_no)
        return text_at(self, x, y, text, *a, **kw)

    monkeypatch.setattr(_Layout, "text_at", record)
    metrics = ["seat 1 (Seigneur)'s win share", "the Seigneur's win share", "the Censitaires' win share",
               "the winner's margin", "the game length", "seat 2's advantage", "seat 3's advantage"]
    table = pl.DataFrame({"metric": metrics, "change": [-4.35] * 7, "low": [-5.51] * 7, "high": [-3.19] * 7,
                          "unit": ["pp"] * 7, "verdict": ["clear and large enough to matter"] * 7})
    secs = [Section("a", "Before", sentences=[f"Sentence {i} of the section before, long enough to wrap "
                                              "once or twice across the width of the page, as they do."
                                              for i in range(filler)]),
            Section("b", "Every effect", intro="Every comparison's paired change of every metric, with "
                    "the page's simultaneous 95% intervals and its words. " * 3, tables=[("Every effect", table)])]
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        write_pdf(Path(d) / "r.pdf", "t", secs, {})
    return seen["Every effect"], seen[metrics[0]]


def test_a_heading_and_its_intro_are_kept_with_the_start_of_their_table(monkeypatch):
    moved = 0
    for filler in range(10, 40):
        heading, first_row = _pages(monkeypatch, filler)
        assert heading == first_row, (filler, heading, first_row)
        moved += heading == 2
    assert moved, "the case this test is about: a section that goes to the next page"


def _sentence_pages(monkeypatch, filler: int) -> tuple[int, int]:
    """The pages the heading "Verdict" and its first sentence's first words are drawn on, after a
    section of ``filler`` sentences (the tune report's page 1 left "Verdict"'s heading and intro
    alone at its foot, the sentences on page 2)."""
    seen: dict[str, int] = {}
    text_at = _Layout.text_at

    def record(self, x, y, text, *a, **kw):
        seen.setdefault(text.split(" ")[0], self.page_no)
        return text_at(self, x, y, text, *a, **kw)

    monkeypatch.setattr(_Layout, "text_at", record)
    secs = [Section("a", "Before", sentences=[f"Sentence {i} of the section before, long enough to wrap "
                                              "once or twice across the width of the page, as they do."
                                              for i in range(filler)]),
            Section("b", "Verdict", intro="The best candidate of the search, played again on fresh games. " * 4,
                    sentences=["Firstsentence: the target NOT met in 1 of 4 cells, " * 4])]
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        write_pdf(Path(d) / "r.pdf", "t", secs, {})
    return seen["Verdict"], seen["Firstsentence:"]


def test_a_heading_and_its_intro_are_kept_with_the_first_lines_of_their_sentences(monkeypatch):
    moved = 0
    for filler in range(14, 34):
        heading, first = _sentence_pages(monkeypatch, filler)
        assert heading == first, (filler, heading, first)
        moved += heading == 2
    assert moved, "the case this test is about: a section that goes to the next page"
