"""Review D (session 42) #4 and #15 on a real Médiévallons run and its real balance questions.

#4: questions read from ``--questions DIR`` are not said to be "played for this report" (the
section's heading, the page's contents and the first-player table's From column name the directory);
questions the report played still say so. #15: the guild-types table prints no founders' win share
nor difference for a type of fewer than 30 founders (as the card-types table does); the best-of-3
figure's bar labels are the table's text, and its whiskers are not cut by the axis's edge.
Expected words are written here; the founders' counts are counted from the run's own rows.
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "analysis"))

import analysis_runs as runs  # noqa: E402

from analysis import analyse, open_runs  # noqa: E402
from analysis.questions import medievallons as MVQ  # noqa: E402
from reports.build import build_report  # noqa: E402
from reports.games import medievallons as hook  # noqa: E402
from reports.questions import read_questions  # noqa: E402
from reports.sections import FigureSet  # noqa: E402

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

QGAMES = 300


@pytest.fixture(scope="module")
def mv(tmp_path_factory):
    root = tmp_path_factory.mktemp("s42h_mv")
    run = runs.medievallons_run(root / "mv-run", 5000, 4, seed=0)
    qdir = MVQ.questions_for_run(run, QGAMES, root / "mv-q")
    rs = open_runs([run])
    return {"root": root, "run": run, "q": qdir, "rs": rs, "t": analyse(rs)}


def _section(mv, played_here: bool):
    q = read_questions(mv["q"])
    q.played_here = played_here
    figs = FigureSet()
    sec = next(s for s in hook.sections(mv["t"], mv["rs"], figs, q) if s.id == hook.SECTION_ID)
    return sec, figs, q


def _table(sec, start: str) -> pl.DataFrame:
    return next(df for cap, df in sec.tables if cap.startswith(start))


def test_questions_read_from_a_directory_are_not_said_played_for_this_report(mv):
    sec, _, q = _section(mv, played_here=False)
    assert sec.title == f"Balance questions (read from {q.path})"
    fp = _table(sec, "First-player advantage")
    played = fp.filter(pl.col("From") != "the run itself")
    assert played.height and set(played["From"]) == {f"read from {q.path}"}, fp
    assert "played for this report" not in " ".join([sec.title, *sec.sentences, *fp["From"].to_list()])
    # the page: its contents and heading
    out = mv["root"] / "rep-read"
    page = html.unescape(build_report([mv["run"]], out, questions=mv["q"]).read_text(encoding="utf-8"))
    assert "Balance questions (played for this report)" not in page
    assert f"Balance questions (read from {mv['q']})" in page


def test_questions_played_for_the_report_say_so(mv):
    sec, _, _ = _section(mv, played_here=True)
    assert sec.title == "Balance questions (played for this report)"
    fp = _table(sec, "First-player advantage")
    assert set(fp.filter(pl.col("From") != "the run itself")["From"]) == {"played for this report"}


def test_guild_types_print_no_share_nor_difference_for_too_few_founders(mv):
    """Founders counted here from players.parquet's founded_<type> columns (a player founded a
    type when that count is positive)."""
    players = pl.read_parquet(mv["run"] / "players.parquet")
    founded = {c.removeprefix("founded_"): int((players[c] > 0).sum())
               for c in players.columns if c.startswith("founded_")}
    few = {k: n for k, n in founded.items() if 0 < n < hook.MIN_FOUNDERS}
    assert few, founded                        # the shipped rules at 5,000 games: a Bouffon or so
    sec = hook._guild_section(mv["t"], FigureSet())
    g = next(df for _, df in sec.tables if "Card type" in df.columns)
    diff = next(c for c in g.columns if c.startswith("Founders − others"))
    for key, n in few.items():
        row = g.filter(pl.col("Card type") == hook.card_name(key)).row(0, named=True)
        assert row["Founders' win share"] == f"too few founders ({n})", row
        assert row[diff] == "", row
    many = [k for k, n in founded.items() if n >= 100]
    row = g.filter(pl.col("Card type") == hook.card_name(many[0])).row(0, named=True)
    assert re.fullmatch(r"\d+\.\d% \(.+\)", row["Founders' win share"]) and row[diff], row


def test_best_of_three_bars_print_the_tables_rates(mv):
    sec, figs, _ = _section(mv, played_here=True)
    table = _table(sec, "2 players: one round vs best of 3")
    fig = figs["questions_best_of_three"]
    ax = fig.axes[0]
    texts = [t.get_text().replace("\n", " ") for t in ax.texts]
    # one label per bar: the single rounds first (one per pairing), then the matches
    assert texts == table["One round"].to_list() + table["Best of 3"].to_list(), (texts, table)


def test_best_of_three_whiskers_are_not_cut_by_the_axis_edge(mv):
    """balanced vs random wins (almost) every match: its whisker ends at 100%, the axis's top."""
    _, figs, _ = _section(mv, played_here=True)
    ax = figs["questions_best_of_three"].axes[0]
    top = ax.get_ylim()[1]
    for coll in ax.collections:                # the whiskers (LineCollection) and caps
        segs = getattr(coll, "get_segments", lambda: [])()
        reach = max((float(np.max(s[:, 1])) for s in segs if len(s)), default=0.0)
        assert reach < top - 1e-9 or not coll.get_clip_on(), "a whisker ends on the axis's edge, cut"
    for line in ax.lines:
        y = np.asarray(line.get_ydata(), float)
        if line.get_marker() not in (None, "None", "") and y.size and np.nanmax(y) >= top - 1e-9:
            assert not line.get_clip_on(), "a whisker's cap at 100% is cut by the axis's edge"
