"""Review s51 (data safety, bad input): refusals before any game, and the output a command names."""

from __future__ import annotations

from pathlib import Path

import pytest

from simcore.errors import UsageError

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_a_player_count_of_zero_in_a_vary_is_refused_before_any_game():
    """--vary players=[0,4] played 0 as "not given" (4 players) under the label players=0, and the
    sweep's report then refused the sweep as damaged."""
    from analysis.sweep.play import plan_sweep

    with pytest.raises(UsageError) as e:
        plan_sweep("middle-ages", varies=["players=[0,4]"], games=100)
    assert "--players 0: Middle-Ages is played by 2 to 5 players" in str(e.value), str(e.value)


def test_a_report_published_beside_names_the_path_it_was_written_to(tmp_path, capsys):
    """A folder that appeared at --out while the report was written: the report is published as
    REP-2 (said on stderr) and the path returned (and printed) is REP-2's, not REP/report.html."""
    from reports.build import build_report
    from simcore import runner

    run = runner.simulate("middle-ages", games=300, seed=1, out=tmp_path / "run", quiet=True)
    rep = tmp_path / "REP"

    def progress(text, *args, **kwargs):
        if "Publishing" in str(text) and not rep.exists():
            rep.mkdir()
            (rep / "mine.txt").write_text("mine")

    from undrawn_figures import figures_undrawn

    # (figures 1x1 stand-ins: where the report went is read; its "Publishing" step still comes after
    # every figure; a Middle-Ages run's figures are drawn by tests/reports/test_s55_page_decimals.py)
    with figures_undrawn():
        got = build_report([run], rep, progress=progress)
    assert got == tmp_path / "REP-2" / "report.html" and got.is_file()
    assert (rep / "mine.txt").read_text() == "mine"
    assert "the output is" in capsys.readouterr().err


def test_published_as_names_where_an_output_went(tmp_path, capsys):
    """The sweep and tune pages, a sweep, a tune and a skill directory name the path
    :func:`simcore.atomic.published_as` gives: REP-2 where something appeared at REP meanwhile."""
    from simcore import atomic

    out = atomic.check_output_dir(tmp_path / "SW", False, kind="sweep")
    tmp = atomic.temporary_dir(out)
    (tmp / "sweep.json").write_text("{}")
    (tmp_path / "SW").mkdir()
    (tmp_path / "SW" / "mine.txt").write_text("mine")
    assert atomic.publish_dir(tmp, out) == tmp_path / "SW-2"
    assert atomic.published_as(tmp_path / "SW") == tmp_path / "SW-2"
    assert atomic.published_as(tmp_path / "other") == tmp_path / "other"
    atomic.release_claims()


def test_a_folder_that_appears_at_a_questions_out_meanwhile_is_kept_and_the_tables_go_beside(tmp_path, capsys):
    """balance questions RUN --out Q: a folder made at Q while the decks were played made the
    command exit 2 after every game ("directory exists and is not empty"), the tables lost."""
    import polars as pl

    from analysis.questions import write_dir
    from simcore import atomic

    q = atomic.check_output_dir(tmp_path / "Q", False, kind="questions")     # as the command does first
    q.mkdir()
    (q / "mine.txt").write_text("mine")
    got = write_dir(q, {"t": pl.DataFrame({"a": [1, 2]})}, {"game": "middle-ages"})
    assert got == tmp_path / "Q-2" and (got / "t.csv").is_file()
    assert (q / "mine.txt").read_text() == "mine" and sorted(p.name for p in q.iterdir()) == ["mine.txt"]
    err = capsys.readouterr().err
    assert "appeared there while this command ran" in err and str(tmp_path / "Q-2") in err
    atomic.release_claims()


@pytest.mark.parametrize("force", [False, True])
def test_a_file_that_appears_at_a_file_output_meanwhile_is_kept_and_the_output_goes_beside(tmp_path, capsys, force):
    """check --junit J.xml, ladder --out L.csv: a file written there while the command worked made
    a passing check exit 2 (without --force) or was replaced without a word (with --force)."""
    from simcore import atomic

    out = atomic.check_output_file(tmp_path / "L.csv", force, option="--junit")
    (tmp_path / "L.csv").write_text("my notes")
    with atomic.atomic_output(out, force, "--junit") as tmp:
        tmp.write_text("a,b\n1,2\n")
    assert (tmp_path / "L.csv").read_text() == "my notes"
    assert (tmp_path / "L-2.csv").read_text() == "a,b\n1,2\n"
    err = capsys.readouterr().err
    assert err.startswith(f"warning: --junit {tmp_path / 'L.csv'}: a file appeared there"), err
    assert atomic.published_as(tmp_path / "L.csv") == tmp_path / "L-2.csv"
    atomic.release_claims()


@pytest.mark.parametrize("inside", ["", "trials.csv", "my.db"])
def test_a_storage_that_is_the_tunes_out_or_a_file_in_it_is_refused_before_anything(tmp_path, inside):
    """--out tz --storage tz crashed with a traceback and left a half-made tz; --storage tz/trials.csv
    (a name the tune writes) crashed after play; --storage ty/my.db in an empty ty made ty non-empty,
    so the tune went to ty-2 and its study stayed behind."""
    from analysis.tune.search import check_storage_place

    out = tmp_path / "tz"
    out.mkdir()
    storage = str(out / inside) if inside else str(out)
    with pytest.raises(UsageError) as e:
        check_storage_place(storage, out)
    assert str(e.value).startswith(f"--storage {storage}: is ") and "\n" not in str(e.value)
    assert sorted(out.iterdir()) == []
    check_storage_place(str(out / "study.db"), out)          # its own study: taken
    check_storage_place(str(tmp_path / "elsewhere.db"), out)


def test_a_score_or_length_amount_past_a_billion_is_refused_in_one_line():
    """--smallest-difference score=1e29 crashed the report's rounding with a traceback (1e20
    worked); balance baseline --score-tolerance 1e30 was taken as "±1e+30 coins"."""
    from analysis.load import parse_smallest_difference
    from simcore.options import parse_tolerance

    for text in ("score=1e29", "length=2e9"):
        with pytest.raises(UsageError, match=r"must be > 0 and at most 1e\+09$"):
            parse_smallest_difference(text)
    with pytest.raises(UsageError, match=r"^--score-tolerance 1e30: must be a number > 0 and at most 1e\+09$"):
        parse_tolerance("1e30", "--score-tolerance")
    assert parse_smallest_difference("score=1e9") == {"score": 1e9}
    assert parse_tolerance("5", "--score-tolerance") == 5.0


def test_a_cell_weight_past_a_million_is_refused(tmp_path):
    """Two cell weights of 1e308 overflowed their sum: a tune's objective came out 0 with a NaN
    interval, exit 0."""
    from simcore.errors import ConfigError
    from strategies.panels import lookup

    f = tmp_path / "pan.toml"
    f.write_text('[huge]\ncells = [{players=4, lineup="balanced", weight=1e308}, '
                 '{players=3, lineup="greedy", weight=1e308}]\n')
    with pytest.raises((UsageError, ConfigError), match=r"huge\.cells\[0\]\.weight: must be <= "):
        lookup("middle-ages", f"{f}:huge")


def test_an_export_names_the_file_it_wrote_beside_one_that_appeared(tmp_path, monkeypatch, capsys):
    """balance export RUN --what seats --out S.csv prints the path it returns: S-2.csv when a file
    of the user's appeared at S.csv while the table was written (it printed S.csv)."""
    from analysis import export
    from simcore import atomic, runner

    run = runner.simulate("middle-ages", games=200, seed=1, out=tmp_path / "run", quiet=True)
    target = tmp_path / "S.csv"
    real = export.atomic_output

    def appearing(out, *a, **k):
        cm = real(out, *a, **k)

        class _Wrap:
            def __enter__(self):
                tmp = cm.__enter__()
                target.write_text("mine")                  # the user's file, after the check
                return tmp

            def __exit__(self, *exc):
                return cm.__exit__(*exc)
        return _Wrap()

    monkeypatch.setattr(export, "atomic_output", appearing)
    got = export.export(run, "seats", target, "csv")
    assert got == tmp_path / "S-2.csv" and got.read_text().startswith("seat,")
    assert target.read_text() == "mine"
    atomic.release_claims()


def _baseline_with_a_file_appearing(tmp_path, monkeypatch, appears: str, settings=()):
    """make_baseline of a 2,000-game run (``settings``: its --set) into ``tmp_path/<name>.toml``,
    a file of the user's ("my notes") written at ``appears`` while the run is measured."""
    from analysis.check import baseline as B
    from simcore import runner

    prep = runner.prepare("middle-ages", settings=list(settings), quiet=True)
    run = runner.run(prep, games=2000, seed=1, out=tmp_path / "run", quiet=True)
    real = B.measure_run

    def measuring(r):
        (tmp_path / appears).write_text("my notes")
        return real(r)

    monkeypatch.setattr(B, "measure_run", measuring)
    out = tmp_path / ("c.toml" if settings else "b.toml")
    return B.make_baseline(run, out, tolerance={"seat_win_share": 5.0, "seat_mean_score": 20.0})


def test_a_baseline_names_the_rules_file_it_wrote_when_one_appeared_at_its_name(tmp_path, monkeypatch):
    """A baseline of a run played with --set writes the rules it measured beside it; a file of the
    user's that appeared at c.rules.toml meanwhile is kept, the rules go to c.rules-2.toml, and the
    baseline names that file (it named c.rules.toml, so a check read the user's notes as rules)."""
    from analysis.check import baseline as B
    from simcore import atomic

    got = _baseline_with_a_file_appearing(tmp_path, monkeypatch, "c.rules.toml",
                                          ["setup.start_coins=[3,2,1,0]"])
    assert got == tmp_path / "c.toml"
    assert (tmp_path / "c.rules.toml").read_text() == "my notes"
    named = B.load_baseline(got).rules_path()
    assert named.resolve() == (tmp_path / "c.rules-2.toml").resolve()
    assert "start_coins = [3, 2, 1, 0]" in named.read_text()
    atomic.release_claims()


def test_a_baseline_published_beside_names_itself_in_its_commands(tmp_path, monkeypatch):
    from simcore import atomic

    got = _baseline_with_a_file_appearing(tmp_path, monkeypatch, "b.toml")
    assert got == tmp_path / "b-2.toml" and (tmp_path / "b.toml").read_text() == "my notes"
    text = got.read_text()
    assert f"--baseline {tmp_path / 'b-2.toml'}" in text and f"--baseline {tmp_path / 'b.toml'}" not in text
    atomic.release_claims()


def test_a_panel_baseline_published_beside_returns_the_path_it_wrote(tmp_path, monkeypatch, capsys):
    """balance baseline --lineup … --out PB: a folder that appeared at PB meanwhile sent the panel
    to PB-2, and the command printed PB, then read PB/cell-0.toml and exited 2 after every game."""
    from analysis.check.panel import record_panel_baseline
    from simcore import atomic
    from strategies.panels import from_options

    pb = tmp_path / "PB"
    real = atomic.publish_dir

    def appearing(tmp, target, *a, **k):
        if Path(target) == pb:
            pb.mkdir()
            (pb / "mine.txt").write_text("mine")
        return real(tmp, target, *a, **k)

    monkeypatch.setattr(atomic, "publish_dir", appearing)
    panel = from_options("middle-ages", players="3,4", lineups=["balanced"])
    got = record_panel_baseline(panel, pb, games=3000, seed=1,
                                tolerance={"seat_win_share": 5.0, "seat_mean_score": 20.0})
    assert got == tmp_path / "PB-2" and (got / "cell-0.toml").is_file() and (got / "cell-1.toml").is_file()
    assert (pb / "mine.txt").read_text() == "mine"
    err = capsys.readouterr().err
    assert f"move {got} to {pb} to use them as written" in err, err
    atomic.release_claims()
