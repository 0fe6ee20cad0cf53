"""Publishing replaces only what the command claimed to replace (review s48 safety #1): a file or
folder that appears at --out while a command works is left exactly where it is, the output takes
the first free visible name beside it (``<name>-2``, …), and stderr says so in one line."""

from __future__ import annotations

import pytest

from simcore import atomic


def _hidden(root):
    return sorted(p.name for p in root.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_something_that_appears_without_force_is_left_in_place(tmp_path, capsys, kind):
    out = atomic.check_output_dir(tmp_path / "RD", False, kind="run")
    tmp = atomic.temporary_dir(out)
    (tmp / "run.json").write_text("{\"new\": 1}")
    if kind == "file":
        (tmp_path / "RD").write_text("my file")
    else:
        (tmp_path / "RD").mkdir()
        (tmp_path / "RD" / "thesis.txt").write_text("x")
    (tmp_path / "RD-2").write_text("taken too")               # the next name is taken as well
    got = atomic.publish_dir(tmp, out)
    assert got == tmp_path / "RD-3"
    assert (got / "run.json").read_text() == "{\"new\": 1}"
    if kind == "file":
        assert (tmp_path / "RD").read_text() == "my file"
    else:
        assert (tmp_path / "RD" / "thesis.txt").read_text() == "x"
    assert (tmp_path / "RD-2").read_text() == "taken too"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"warning: --out {tmp_path / 'RD'}: a ")
    assert err[0].endswith(f"it is left as it was, and the output is {got}")
    atomic.release_claims()
    assert _hidden(tmp_path) == []


def test_a_folder_put_in_place_of_the_forced_one_is_not_replaced(tmp_path, capsys):
    """--force replaces the run it checked; a folder a user put in its place meanwhile is not it."""
    first = atomic.check_output_dir(tmp_path / "d", False, kind="run")
    tmp = atomic.temporary_dir(first)
    (tmp / "run.json").write_text("{}")
    atomic.publish_dir(tmp, first)
    atomic.release_claims()
    out = atomic.check_output_dir(tmp_path / "d", True, kind="run")
    tmp = atomic.temporary_dir(out)
    (tmp / "run.json").write_text("{\"new\": 1}")
    (tmp_path / "d").rename(tmp_path / "moved")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "mine.txt").write_text("mine")
    assert atomic.publish_dir(tmp, out) == tmp_path / "d-2"
    assert (tmp_path / "d" / "mine.txt").read_text() == "mine"
    atomic.release_claims()


def test_the_run_forced_over_is_still_replaced(tmp_path, capsys):
    first = atomic.check_output_dir(tmp_path / "d", False, kind="run")
    tmp = atomic.temporary_dir(first)
    (tmp / "run.json").write_text("{}")
    atomic.publish_dir(tmp, first)
    atomic.release_claims()
    out = atomic.check_output_dir(tmp_path / "d", True, kind="run")
    tmp = atomic.temporary_dir(out)
    (tmp / "run.json").write_text("{\"new\": 1}")
    assert atomic.publish_dir(tmp, out) == tmp_path / "d"
    assert (tmp_path / "d" / "run.json").read_text() == "{\"new\": 1}"
    assert not (tmp_path / "d-2").exists() and capsys.readouterr().err == ""
    atomic.release_claims()
    assert _hidden(tmp_path) == []
