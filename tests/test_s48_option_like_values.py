"""Values a hurried user leaves out (review s48 safety): ``--out --force`` made a folder named
``--force``, and ``--strategies ""`` played the default bot without a word."""

from __future__ import annotations

import pytest

from in_process import balance


def _one_line(done) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("args", [("report", "RUN", "--out", "--force"),
                                  ("export", "RUN", "--what", "seats", "--out", "--force")])
def test_an_output_that_is_an_option_is_refused(tmp_path, monkeypatch, args):
    from simcore import runner

    run = runner.simulate("middle-ages", games=100, out=tmp_path / "run", quiet=True)
    monkeypatch.chdir(tmp_path)
    line = _one_line(balance(*[str(run) if a == "RUN" else a for a in args], check=False))
    assert line.startswith("error: --out --force: looks like an option, not a path"), line
    assert not (tmp_path / "--force").exists()


def test_a_name_starting_with_dashes_is_taken_inside_a_folder(tmp_path, monkeypatch):
    from simcore import runner

    run = runner.simulate("middle-ages", games=100, out=tmp_path / "run", quiet=True)
    monkeypatch.chdir(tmp_path)
    balance("export", run, "--what", "seats", "--out", "out/--seats.csv")
    assert (tmp_path / "out" / "--seats.csv").is_file()


def test_empty_strategies_are_refused(tmp_path):
    """(simulate is a command of its own: run through cli._run as its console script does)"""
    import contextlib
    import io

    from cli import _run

    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = _run(["simulate", "--games", "100", "--strategies", "", "--out", str(tmp_path / "x")])
    assert code == 2 and err.getvalue().strip().startswith("error: --strategies '': no strategy given")
    assert not (tmp_path / "x").exists()
