"""Review s62 #1: an ownership marker whose entries (or tree) name a path outside its directory
(``../victim``, an absolute path, ``..``) is not one this toolkit wrote: ``--force`` refuses the
directory as foreign, and nothing outside it is ever removed (it deleted ``../victim`` with exit 0,
or stopped with a ValueError or RecursionError traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simcore import atomic
from simcore.errors import UsageError

from reliability_helpers import cli_in_process, one_error_line


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _marker(folder: Path, entries, tree=None) -> None:
    folder.mkdir()
    data = {"toolkit": "balance-toolkit", "kind": "run", "format": 1, "id": "5f0c9e1a7b3d2c48",
            "entries": entries}
    if tree is not None:
        data["tree"] = tree
    (folder / atomic.MARKER).write_text(json.dumps(data), encoding="utf-8")


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "thesis.txt").write_text("hi", encoding="utf-8")
    return victim


BAD_ENTRIES = [["../victim"], ["VICTIM_ABS"], [".."], ["."], [""], ["figures/../../victim"],
               ["a\x00b"]]


@pytest.mark.parametrize("entries", BAD_ENTRIES)
def test_s62_marker_naming_a_path_outside_is_not_ours(tmp_path, entries):
    victim = _victim(tmp_path)
    entries = [str(victim) if e == "VICTIM_ABS" else e for e in entries]
    _marker(tmp_path / "x", entries)
    assert atomic.read_marker(tmp_path / "x") is None
    with pytest.raises(UsageError, match="not a directory this toolkit wrote"):
        atomic.check_output_dir(tmp_path / "x", True, kind="run")
    atomic._remove_owned(tmp_path / "x")            # (the old directory moved aside: same rule)
    assert (victim / "thesis.txt").read_text(encoding="utf-8") == "hi"
    assert (tmp_path / "x" / atomic.MARKER).exists()


@pytest.mark.parametrize("tree", [["figures/../../victim/thesis.txt"], ["figures/../../victim"],
                                  ["/abs/figures"], ["figures//x"]])
def test_s62_marker_tree_naming_a_path_outside_is_not_ours(tmp_path, tree):
    victim = _victim(tmp_path)
    tree = [t.replace("/abs", str(tmp_path)) for t in tree]
    _marker(tmp_path / "x", ["figures"], tree=tree)
    (tmp_path / "x" / "figures").mkdir()
    assert atomic.read_marker(tmp_path / "x") is None
    atomic._remove_owned(tmp_path / "x")
    assert (victim / "thesis.txt").read_text(encoding="utf-8") == "hi"


def test_s62_simulate_force_over_a_marker_naming_parent_refuses(tmp_path, capsys):
    victim = _victim(tmp_path)
    _marker(tmp_path / "x", ["../victim"])
    code, err = cli_in_process(["simulate", "-n", "200", "-p", "4", "-o", "x", "--force", "-q"], capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert "not a directory this toolkit wrote" in line, line
    # true of the directory: it has a marker file, one this toolkit did not write
    assert "no ownership marker" not in line and "is not one this toolkit wrote" in line, line
    assert (victim / "thesis.txt").read_text(encoding="utf-8") == "hi"
