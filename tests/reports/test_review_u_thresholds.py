"""Review U #3: a before/after's count sentence printed the smallest difference that matters of
the tile slopes as "0.01 pp per tile" (the fraction 0.01, which is 1 pp per tile, with "pp" after
it), and the lead changes per game were sized against the game's score amount ("2 lead changes" in
Middle-Ages, two thirds of their mean of 3) where the page says a mean count per game is sized
against its own amount per game (0.01 then; 0.1 a game for the lead changes since a designer review,
tests/analysis/test_count_smallest_difference.py)."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import analyse, open_runs, stats
from analysis.compare import compare_tables
from analysis.load import smallest_difference
from simcore import runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_thresholds_are_printed_in_the_unit_of_their_rows():
    from reports.text import _small_thresholds

    rows = pl.DataFrame({"metric": ["seat_win_share", "tile_slope", "lead_changes_by_turn", "seat_mean_score"],
                         "key": ["Seat 1", "Palais", "all", "Seat 1"],
                         "kind": ["proportion", "slope", "mean", "mean"],
                         "smallest": [0.01, 0.01, 0.01, 2.0], "verdict": [stats.SMALL] * 4})
    assert _small_thresholds(rows, "coins") == "1 pp for shares, 1 pp per tile, 0.01 lead changes, 2 coins"
    two = rows.with_columns(pl.Series("smallest", [0.02, 0.005, 0.01, 2.0]))
    assert _small_thresholds(two, "coins").startswith("2 pp for shares, 0.5 pp per tile, ")


@pytest.fixture(scope="module")
def palais_tables(tmp_path_factory):
    root = tmp_path_factory.mktemp("review_u")
    b = runner.simulate("middle-ages", games=2000, seed=5, out=root / "base", quiet=True)
    v = runner.simulate("middle-ages", games=2000, seed=5, out=root / "palais", quiet=True,
                        settings=["income.palais.base=4"])
    tb, tv = analyse(open_runs([b])), analyse(open_runs([v]))
    return compare_tables(tb, tv, game="middle-ages"), tb, tv, b, v


@pytest.fixture(scope="module")
def palais(palais_tables):
    return palais_tables[0]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_lead_changes_are_sized_as_a_count_per_game_not_in_coins(palais):
    lead = palais.filter(pl.col("metric").str.starts_with("lead_changes"))
    assert lead.height == 1
    # the page's rule: 0.1 a game for the lead changes (analysis.load.SMALLEST_LEAD_CHANGES;
    # reports.sections' "How this is measured")
    assert lead["smallest"].to_list() == [pytest.approx(0.1)]
    assert smallest_difference("middle-ages", "score") != pytest.approx(0.01)     # (what it was sized on)
    coins = palais.filter(pl.col("metric") == "seat_mean_score")["smallest"].unique().to_list()
    assert coins == [pytest.approx(smallest_difference("middle-ages", "score"))]
    tiles = palais.filter(pl.col("metric") == "tile_slope")["smallest"].unique().to_list()
    assert tiles == [pytest.approx(0.01)]


# Review U #4: one change printed as two numbers on one page ("+0.2 pp" in the answer, "+0.3 pp" in
# the figure's caption, for 24.69% → 24.94%), and a change printed as none ("Seigneur side 0.4% →
# 0.4% (0.0 pp …)" for 0.42% → 0.45%).

def _seats(shares_before, shares_after, significant=False):
    from analysis.compare import COMPARE_SCHEMA

    rows = []
    for k, (b, v) in enumerate(zip(shares_before, shares_after)):
        d = v - b
        row = {c: None for c in COMPARE_SCHEMA}
        row.update(metric="seat_win_share", key=f"Seat {k + 1}", label=f"Seat {k + 1} win share",
                   kind="proportion", base=b, variant=v, diff=d, diff_low=d - 0.003, diff_high=d + 0.003,
                   z=d / 0.0015, p_value=0.5, p_adjusted=1.0, significant=significant, smallest=0.01,
                   verdict="within noise", paired=True)
        rows.append(row)
    return pl.DataFrame(rows, schema=COMPARE_SCHEMA)


def _seat_numbers(text: str, seat: str) -> tuple[float, float, float]:
    """(before, after, change) of a seat as the answer prints them: "Seat 1 24.69% → 24.94% (+0.25 pp"."""
    import re

    got = re.search(rf"{seat} ([\d.]+)% → ([\d.]+)% \(([+−-]?[\d.]+) pp", text).groups()
    return tuple(float(x.replace("−", "-")) for x in got)


@pytest.mark.parametrize("significant", [False, True])
def test_the_caption_prints_the_change_the_answer_prints(significant):
    import re

    from reports.sections import _comparison_caption
    from reports.text import seat_question

    cmp = _seats([0.2469, 0.2500, 0.2531, 0.2500], [0.2494, 0.2490, 0.2516, 0.2500], significant)
    answer, caption = seat_question(cmp), _comparison_caption(cmp, "coins")
    before, after, change = _seat_numbers(answer, "Seat 1")
    # the printed after − before is the change printed, within half a unit of the change (0.25 pp:
    # a tie at one decimal, which the answer printed +0.2 and the caption +0.3)
    assert change == pytest.approx(after - before) and abs(change - 0.25) <= 0.05 + 1e-9, answer
    in_caption = re.search(r"Seat 1 ([+−-]?[\d.]+) pp", caption).group(1)
    assert float(in_caption.replace("−", "-")) == change, (answer, caption)


def test_a_small_share_that_changed_does_not_print_as_unchanged():
    from reports.text import seat_question

    cmp = _seats([0.0042, 0.33, 0.33, 0.3358], [0.0044, 0.33, 0.33, 0.3356])
    answer = seat_question(cmp)
    before, after, change = __import__("re").search(r"Seat 1 ([\d.]+)% → ([\d.]+)% \(([+−-][\d.]+) pp", answer).groups()
    assert before != after and float(change.replace("−", "-")) != 0, answer
    assert abs(float(after) - float(before) - float(change.replace("−", "-"))) < 1e-9, answer


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_every_listed_change_carries_its_verdict(palais):
    """Review U #8: in the before/after's list of changes, the ones clear and large enough to matter
    carried no verdict, beside the long verdicts of the ones that may matter."""
    from reports.text import comparison_headlines, metric_label

    large = palais.filter(pl.col("verdict") == stats.LARGE)
    assert large.height
    lines = [x for item in comparison_headlines(palais, "palais", "base", "coins")
             for x in getattr(item, "items", ())]
    for r in large.iter_rows(named=True):
        if r["metric"] in ("seat_win_share", "role_win_share"):
            continue                          # (answered by the first question, not listed)
        (line,) = [x for x in lines if x.startswith(metric_label(r) + ":")]
        assert line.endswith(("clear and large enough to matter.")), line
    for x in lines:
        assert x.rstrip(".").endswith(("matter", "tell)", "small")) or "matter (" in x or "small (" in x, x


def test_the_figure_writes_each_seats_change_as_the_answer_prints_it(palais_tables):
    """Review U #7: the before/after figure's bars from 0 to 30% showed changes of 0.05-0.25 pp as
    none; each seat's change is now written above its pair of bars, as the page's answer prints it."""
    import re

    import reports.figures.common as F
    from reports.sections import _seat_changes
    from reports.text import seat_question

    cmp, tb, tv, _, _ = palais_tables
    fig = F.comparison(cmp, tb, tv, "base", "palais", changes=_seat_changes(cmp))
    upper = fig.subfigs[0].axes[0]
    written = {t.get_text() for t in upper.texts}
    seats = cmp.filter(pl.col("metric") == "seat_win_share")
    assert len(written) == seats.height == 4
    answer = seat_question(cmp)
    largest = re.search(r"(?:largest change is|moved beyond noise[^:]*:) Seat \d ([\d.]+)% → ([\d.]+)% \(([+−-]?[\d.]+ pp)",
                        answer)
    assert largest and largest.group(3) in written, (answer, written)
    for r in seats.iter_rows(named=True):
        change = 100 * (r["variant"] - r["base"])
        assert any(abs(float(w.replace("−", "-").split()[0]) - change) <= 0.051 for w in written), (change, written)


def test_a_side_winning_less_than_the_smallest_difference_is_told_how_to_size_smaller_changes():
    """Review U #5: "these games leave no room for a change that matters" beside a Seigneur side
    that wins 0.42% of games, where doubling his chances would not count at 1 pp."""
    from reports.text import seat_question

    cmp = _seats([0.0042, 0.33, 0.33, 0.3358], [0.0045, 0.33, 0.33, 0.3355])
    said = seat_question(cmp)
    assert ("Seat 1 wins 0.42% → 0.45% of games: the 1 pp that matters is more than its whole share"
            in said and "`--smallest-difference win_share=0.1pp`" in said), said
    assert "more than its whole share" not in seat_question(_seats([0.24, 0.25, 0.25, 0.26],
                                                                   [0.245, 0.25, 0.25, 0.255]))


def test_a_number_that_rounds_to_zero_has_no_sign():
    """Review U #15: a z of −0.04 in the first-player table printed "−0.0"."""
    from reports.text import num

    assert [num(-0.04, 1), num(-0.004), num(-0.06, 1), num(0.04, 1), num(-3.8)] == ["0.0", "0.00", "−0.1", "0.0", "−3.80"]


def test_an_interval_end_near_the_smallest_difference_is_not_printed_on_it():
    """Review U #9: the table printed "+0.368 to +1.000 pp" (on the 1 pp that matters) where the
    list printed "+0.3681 to +0.9996 pp" for the same interval."""
    from reports.text import metric_change

    r = {"metric": "leader_wins_turn_6", "kind": "proportion", "smallest": 0.01, "base": 0.44707,
         "variant": 0.45391, "diff": 0.006840, "diff_low": 0.003681, "diff_high": 0.009996}
    for digits in (None, 1, 2):
        _, interval = metric_change(r, "pp", digits)
        assert interval == "+0.3681 to +0.9996 pp", (digits, interval)


def test_the_tile_types_whose_slope_moved_are_drawn_before_and_after_from_the_players_rows(palais_tables):
    """Review U #6: a before/after of a rule that changes a tile's worth (the Palais's income) showed
    that tile only as a straight-line slope the page itself called a poor summary of its curve. The
    Middle-Ages before/after now draws the win share by number of tiles held, before and after, for
    the tile types whose slope moved clearly; checked here against the players' rows."""
    from reports.games.middle_ages import TILE_CURVES_SHOWN, comparison_figures
    from reports.sections import FigureSet

    cmp, tb, tv, b, v = palais_tables
    figs = FigureSet()
    assert comparison_figures("comparison", tb, tv, "base", "palais", figs, cmp) == ["comparison_tiles"]
    moved = cmp.filter((pl.col("metric") == "tile_slope") & pl.col("significant")
                       & (pl.col("verdict") != stats.NOT_SHOWN))
    names = moved["key"].to_list()[:TILE_CURVES_SHOWN]
    assert names[0] == "Palais"                      # the rule changed its income: its slope moved most
    fig = figs["comparison_tiles"]
    shown = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in shown] == names
    caption = figs.captions["comparison_tiles"]
    assert caption.startswith(f"With palais, the straight-line slope of the win share per extra tile moved "
                              f"clearly for {moved.height} tile type")
    # each curve: the win share of the players ending with that many tiles, from players.parquet
    for run, k in ((b, 0), (v, 1)):
        rows = pl.read_parquet(run / "players.parquet")
        for ax, name in zip(shown, names):
            col = {"Église": "tiles_eglise", "Marché": "tiles_marche"}.get(name, f"tiles_{name.lower()}")
            line = ax.get_lines()[k]
            x, y = line.get_xdata(), line.get_ydata()
            truth = rows.group_by(col).agg(pl.col("win_share").mean(), pl.len()).sort(col)
            want = dict(zip(truth[col].to_list(), truth["win_share"].to_list()))
            assert len(x) >= 3
            for count, share in zip(x, y):
                assert share == pytest.approx(want[int(count)], abs=1e-6), (name, k, count)   # (float32 rows)


def test_no_slope_moved_no_tile_figure(palais_tables):
    from reports.games.middle_ages import comparison_figures
    from reports.sections import FigureSet

    cmp, tb, _, _, _ = palais_tables
    same = cmp.with_columns(pl.lit(False).alias("significant"), pl.lit(stats.NOT_SHOWN).alias("verdict"))
    figs = FigureSet()
    assert comparison_figures("comparison", tb, tb, "base", "base", figs, same) == [] and not figs


def test_no_seat_moved_answers_cannot_tell_when_an_interval_reaches_the_smallest_difference():
    """Review V #1: "Did the seat win rates move? No" opened a sentence whose intervals reached three
    times the 1 pp that matters. "No" only where every interval lies within it."""
    from reports.text import seat_question

    def seats(half):
        return _seats([0.25, 0.25, 0.25, 0.25], [0.2503, 0.2498, 0.2500, 0.2499]).with_columns(
            (pl.col("diff") - half).alias("diff_low"), (pl.col("diff") + half).alias("diff_high"))

    wide, narrow = seat_question(seats(0.03)), seat_question(seats(0.004))
    assert wide.startswith("Did the seat win rates move? Cannot tell: no seat's win share changed beyond noise")
    assert "cannot rule out a change of 1 pp" in wide
    assert narrow.startswith("Did the seat win rates move? No: no seat's win share changed beyond noise")
    assert "leave no room for a change that matters" in narrow


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_before_afters_replay_line_says_what_why_is_about(palais_tables, tmp_path):
    """Review U #15: "To see why in B, look at a game seat 1 (the weakest) lost" read as why the
    change happened; it is why B's weakest seat is weakest."""
    import html
    import re

    from undrawn_figures import figures_undrawn

    from reports.build import build_report

    _, _, tv, b, v = palais_tables
    weakest = tv["seats"].sort("win_share").row(0, named=True)
    with figures_undrawn():
        page = build_report([b, v], tmp_path / "r").read_text(encoding="utf-8")
    text = html.unescape(re.sub(r"<[^>]+>", "", page))
    seat = int(weakest["seat"]) + 1
    assert (f"To see why seat {seat} is the weakest in palais, look at a game it lost with its highest "
            f"score") in text
    assert "To see why in palais" not in text
