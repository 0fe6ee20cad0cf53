"""Review s51 (data safety, bad input): refusals before any game, and the output a command names."""

from __future__ import annotations

import pytest

from simcore.errors import UsageError


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
