"""`balance questions RUN --smallest-difference` (issue 29): the event ablation's effects are worded
by the smallest difference given — "clear and large enough to matter" at or above it, "clear but
small" below it — recorded in the questions directory's run.json, printed in that order, and
`balance report RUN --questions DIR` words the section by the directory's figure unless given its
own. Wording never changes which effects are clear (the simultaneous intervals decide that)."""

from __future__ import annotations

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

TINY = "win_share=0.001pp,score=0.001"
HUGE = "win_share=99pp,score=100000"



@pytest.fixture(scope="module", autouse=True)
def quick_critical_values():
    """The simultaneous critical values of the questions and the reports drawn with 20,000 normal
    vectors instead of 200,000 (``analysis.stats.max_abs_normal_quantile``: within ~0.015 of them
    instead of ~0.005; ~1 s of CPU less): these tests check how each effect is worded against the
    smallest difference given, and that the same effects are clear whatever it is, not where the
    intervals end."""
    from functools import partial

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(stats, "max_abs_normal_quantile", partial(stats.max_abs_normal_quantile, draws=20_000))
        yield


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The questions played twice, worded by a tiny and a huge smallest difference. 1,000 games
    (was 3,000, 1.6 s of CPU more): 57 of the 60 tile cards' score effects are clear on them (the
    checks need some clear and some not, and only read how each is worded)."""
    root = tmp_path_factory.mktemp("abl")
    run = runner.simulate("middle-ages", games=300, seed=4, out=root / "run", quiet=True, players=4)
    dirs = {}
    for name, text in (("tiny", TINY), ("huge", HUGE)):
        dirs[name] = root / name
        assert _run(["questions", str(run), "--out", str(dirs[name]), "--games", "1000",
                     "--smallest-difference", text]) == 0
    return run, dirs


def _clear(d: pl.DataFrame, col: str) -> pl.Series:
    return (d[f"{col}_low"] > 0) | (d[f"{col}_high"] < 0)


def test_balance_questions_words_every_effect_by_the_smallest_difference_given(played, capsys):
    _, dirs = played
    tiny = pl.read_csv(dirs["tiny"] / "event_ablation.csv")
    huge = pl.read_csv(dirs["huge"] / "event_ablation.csv")
    for col, verdict in (("win_share_effect", "verdict"), ("score_effect", "score_verdict")):
        clear = _clear(tiny, col)
        # something to word: the tile cards' score effects are clear on a few thousand games (win
        # shares need far more games to be clear)
        assert clear.any() or col == "win_share_effect", col
        assert (clear == _clear(huge, col)).all()                   # the same effects are clear
        assert (tiny.filter(clear)[verdict] == stats.LARGE).all(), col
        assert (huge.filter(clear)[verdict] == stats.SMALL).all(), col
        assert (tiny.filter(~clear)[verdict] == "within noise").all()   # the page's word (revE #4)
    meta = json.loads((dirs["huge"] / "run.json").read_text())
    assert meta["smallest_difference"] == {"share": 0.99, "score": 100000.0}


def test_the_printed_cards_come_in_reading_order(played, capsys):
    from cli.questions import _print_event_cards

    d = played[1]["huge"]
    capsys.readouterr()
    _print_event_cards(pl.read_csv(d / "event_ablation.csv"), json.loads((d / "run.json").read_text()))
    out = capsys.readouterr().out
    assert "99 pp matters" in out
    lines = [x for x in out.splitlines() if re.search(r" pp seat \d", x)]
    assert len(lines) == 15
    from reports.text import verdict_words                  # as printed: "within noise", not "not shown"

    words = [verdict_words(w) for w in stats.VERDICT_ORDER]
    ranks = [next(i for i, w in enumerate(words) if w in x) for x in lines]
    assert ranks == sorted(ranks), lines                    # large first, ..., then within noise
    sizes = [abs(float(re.search(r"([+-]\d+\.\d+) pp seat", x).group(1))) for x in lines]
    for k in range(3):                                      # by size within each wording
        within = [z for z, r in zip(sizes, ranks) if r == k]
        assert within == sorted(within, reverse=True), lines


def test_the_report_words_the_ablation_by_the_questions_figure_or_its_own(played, tmp_path):
    run, dirs = played

    # the words and the kept table are read, not the figures' pixels: the questions section has
    # no figure of its own, the report's others are drawn for real by tests/reports/test_report.py
    def page(*extra):
        out = tmp_path / f"rep{len(list(tmp_path.iterdir()))}"
        with figures_undrawn():
            assert _run(["report", str(run), "--out", str(out), "--questions", str(dirs["tiny"]),
                         *extra]) == 0
        text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape((out / "report.html").read_text(encoding="utf-8"))))
        kept = pl.read_csv(out / "questions" / "event_ablation.csv")
        return text, kept

    text, kept = page()
    assert "at least 0.001 pp of win share" in text
    assert (kept.filter(_clear(kept, "score_effect"))["score_verdict"] == stats.LARGE).all()
    text, kept = page("--smallest-difference", HUGE)
    assert "at least 99 pp of win share, 100000 coins of score" in text and "0 of 15 event cards" in text
    assert (kept.filter(_clear(kept, "score_effect"))["score_verdict"] == stats.SMALL).all()
    assert kept.filter(_clear(kept, "score_effect")).height > 0
