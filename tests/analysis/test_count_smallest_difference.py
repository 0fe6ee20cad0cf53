"""Designer review (counts per game): a before/after sized the lead changes per game against
0.01 a game, which the designer could not change. With ``setup.start_coins=[4,0,0,0]``
(Middle-Ages, docs/reports.md) "Lead changes … 3.02 → 3.09 lead changes, +0.07 (+0.05 to +0.08)"
was listed first among the changes "clear and large enough to matter", beside a seat's −1.8 pp: a
2% shift of a mean of 3 a game. ``--smallest-difference count=0.1`` was refused ("unknown metric
(use win_share, score or length)").

Now ``count=N`` sets the smallest difference of every count per game, and by default the lead
changes (about 3 a game) are sized at 0.1 a game, one more lead change in ten games; a count of at
most one a game (reshuffles: its mean is the share of games with one) keeps 0.01 a game, 1 pp."""

from __future__ import annotations

import polars as pl
import pytest

from analysis import stats
from analysis.compare import compare_tables
from analysis.load import parse_smallest_difference, smallest_count
from cli import _run
from simcore import runner


def test_parse_takes_a_count_per_game():
    assert parse_smallest_difference("count=0.1") == {"count": 0.1}
    assert parse_smallest_difference("win_share=2pp, count=0.05") == {"share": 0.02, "count": 0.05}


@pytest.mark.parametrize("value,needle", [
    ("count=0", "count=0: must be > 0"),
    ("count=-1", "count=-1: must be > 0"),
    ("count=abc", "count=abc: not a number"),
    ("count=1e400", "count=1e400: must be > 0 and at most"),
    ("count=0.1,count=0.2", "count: given twice"),
    ("coins=3", "unknown metric (use win_share, score, length or count)"),
])
def test_a_bad_count_is_one_clear_line(value, needle):
    from simcore.errors import UsageError

    with pytest.raises(UsageError, match=None) as exc:
        parse_smallest_difference(value)
    assert needle in str(exc.value) and "\n" not in str(exc.value), str(exc.value)


def test_lead_changes_default_to_a_tenth_a_game_rare_counts_to_a_hundredth():
    assert smallest_count("lead_changes_by_turn") == pytest.approx(0.1)
    assert smallest_count("lead_changes") == pytest.approx(0.1)
    assert smallest_count("count_mean") == pytest.approx(0.01)          # reshuffles: at most 1 a game
    assert smallest_count("lead_changes_by_turn", {"count": 0.05}) == pytest.approx(0.05)
    assert smallest_count("count_mean", {"count": 0.05}) == pytest.approx(0.05)
    assert smallest_count("count_mean", {"share": 0.05}) == pytest.approx(0.01)   # another kind's


def _tables(lead: float, reshuffles: float) -> dict[str, pl.DataFrame]:
    """An analysis' outcomes rows of 1e6 games: the lead changes from turn to turn and the
    reshuffles per game, each with a 95% interval ±0.005 (what :func:`compare_tables` reads)."""
    rows = [("lead_changes_by_turn", "Lead changes from turn to turn", "mean", lead),
            ("count_mean", "Mean reshuffles per game", "mean", reshuffles)]
    return {"outcomes": pl.DataFrame(
        [{"metric": m, "label": lab, "kind": k, "estimate": e, "ci_low": e - 0.005, "ci_high": e + 0.005,
          "n": 1_000_000} for m, lab, k, e in rows])}


def _verdicts(smallest: dict | None = None) -> dict[str, tuple[float, str]]:
    # the docs' before/after: 3.02 → 3.09 lead changes a game (+0.07); reshuffles 0.39 → 0.41 (+0.02)
    cmp = compare_tables(_tables(3.02, 0.39), _tables(3.09, 0.41), game="middle-ages", smallest=smallest)
    return {r["metric"]: (r["smallest"], r["verdict"]) for r in cmp.iter_rows(named=True)}


def test_a_two_percent_shift_of_the_lead_changes_is_clear_but_small_by_default():
    got = _verdicts()
    assert got["lead_changes_by_turn"] == (pytest.approx(0.1), stats.SMALL), got
    # reshuffles keep 0.01 a game: +0.02 (its interval all above 0.01) matters
    assert got["count_mean"] == (pytest.approx(0.01), stats.LARGE), got


def test_count_sets_the_smallest_difference_of_every_count_per_game():
    got = _verdicts({"count": 0.05})
    assert got["lead_changes_by_turn"] == (pytest.approx(0.05), stats.LARGE), got
    assert got["count_mean"] == (pytest.approx(0.05), stats.SMALL), got


def test_the_comparison_names_each_count_amount_it_used():
    from reports.text import smallest_amounts

    cmp = compare_tables(_tables(3.02, 0.39), _tables(3.09, 0.41), game="middle-ages")
    said = smallest_amounts(cmp, "coins", "middle-ages")
    assert said == "0.1 a game for lead changes, 0.01 a game for reshuffles", said
    one = smallest_amounts(compare_tables(_tables(3.02, 0.39), _tables(3.09, 0.41), game="middle-ages",
                                          smallest={"count": 0.2}), "coins", "middle-ages")
    assert one == "0.2 a game for lead changes and reshuffles", one


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("middle-ages", games=300, seed=3, out=tmp_path_factory.mktemp("cnt") / "run",
                           quiet=True, players=4)


@pytest.mark.parametrize("command", ["report", "baseline", "check", "sweep", "questions"])
def test_a_bad_count_is_refused_in_one_line_by_every_command(run, tmp_path, capsys, command):
    args = {"report": ["report", str(run), "--out", str(tmp_path / "rep")],
            "baseline": ["baseline", str(run), "--out", str(tmp_path / "b.toml")],
            "check": ["check", str(run), "--baseline", str(tmp_path / "missing.toml")],
            "sweep": ["sweep", "--vary", "income.palais.base=3..4", "--games", "100",
                      "--out", str(tmp_path / "sw")],
            "questions": ["questions", str(run), "--out", str(tmp_path / "q")]}[command]
    code = _run([*args, "--smallest-difference", "count=0"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "count=0: must be > 0" in err and len(err.splitlines()) == 1, err


@pytest.mark.parametrize("command,sized", [
    ("baseline", "win_share, score"), ("check", "win_share, score"),
    ("sweep", "win_share, score)"), ("questions", "win_share, score")])
def test_a_command_that_sizes_no_count_says_so_rather_than_ignore_it(run, tmp_path, capsys, command, sized):
    args = {"baseline": ["baseline", str(run), "--out", str(tmp_path / "b.toml")],
            "check": ["check", str(run), "--baseline", str(tmp_path / "missing.toml")],
            "sweep": ["sweep", "--vary", "income.palais.base=3..4", "--games", "100",
                      "--out", str(tmp_path / "sw")],
            "questions": ["questions", str(run), "--out", str(tmp_path / "q")]}[command]
    code = _run([*args, "--smallest-difference", "count=0.1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "--smallest-difference count" in err and "no count" in err and sized in err, err
    assert not any((tmp_path / x).exists() for x in ("b.toml", "sw", "q")), list(tmp_path.iterdir())


def test_the_before_after_page_sizes_lead_changes_by_the_given_count(tmp_path):
    """The report command end to end: comparison.csv's lead changes row carries the count given,
    and "How this is measured" names it."""
    from undrawn_figures import figures_undrawn

    b = runner.simulate("middle-ages", games=300, seed=5, out=tmp_path / "b", quiet=True)
    v = runner.simulate("middle-ages", games=300, seed=5, out=tmp_path / "v", quiet=True,
                        settings=["income.palais.base=4"])
    out = tmp_path / "rep"
    with figures_undrawn():
        assert _run(["report", str(b), str(v), "--out", str(out), "--smallest-difference", "count=0.25"]) == 0
    t = pl.read_csv(out / "comparison.csv").filter(pl.col("metric").str.starts_with("lead_changes"))
    assert t.height == 1 and t["smallest"].to_list() == [pytest.approx(0.25)], t
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "0.25 a game for lead changes" in page


@pytest.mark.parametrize("command", ["baseline", "check"])
def test_baseline_and_check_refuse_a_length_they_never_size(run, tmp_path, capsys, command):
    """A check measures win shares and mean scores only (analysis.check.baseline.smallest_of): a
    ``length=`` was taken, written into the baseline file and ignored (helper-206's note)."""
    args = {"baseline": ["baseline", str(run), "--out", str(tmp_path / "b.toml")],
            "check": ["check", str(run), "--baseline", str(tmp_path / "missing.toml")]}[command]
    code = _run([*args, "--smallest-difference", "length=2"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "--smallest-difference length" in err and "(sized there: win_share, score)" in err, err
    assert not (tmp_path / "b.toml").exists()
