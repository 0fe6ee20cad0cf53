"""A path (or value) on the command line holding bytes that are not UTF-8 (a Latin-1 file name:
Python keeps such bytes as surrogates) is one line naming it, exit code 2, before any work (review
s62 rv267 #9: ``simulate -o $'runs/x\\xffy'`` was a UnicodeEncodeError from pyarrow, ``export
--out $'b\\xff.csv'`` and ``report $'d\\xff/demo'`` TypeErrors, each a traceback, exit 1)."""

from __future__ import annotations

import os

import pytest

from cli import _run

BAD = os.fsdecode(b"x\xffy")          # what Python makes of the byte 0xff in an argument


@pytest.mark.parametrize("argv, named", [
    (["simulate", "-n", "200", "-o", "runs/" + BAD, "-q"], "-o runs/x\\xffy"),
    (["export", "RUN", "--what", "seats", "--out", BAD + ".csv"], "--out x\\xffy.csv"),
    (["report", BAD + "/demo", "--out", "r"], "x\\xffy/demo"),
], ids=["simulate-out", "export-out", "report-run"])
def test_an_argument_that_is_not_utf8_is_one_line_exit_2(tmp_path, monkeypatch, capsys, argv, named):
    monkeypatch.chdir(tmp_path)
    assert _run(argv) == 2
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1 and err[0].startswith(f"error: {named}: ") and "not UTF-8" in err[0], err
    assert "0xff" in err[0]
    assert list(tmp_path.iterdir()) == []          # nothing created


def test_utf8_paths_still_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _run(["simulate", "-n", "60", "-o", "é ü", "-q"]) == 0
    assert (tmp_path / "é ü" / "run.json").is_file()
