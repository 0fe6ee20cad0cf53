"""``--force`` looked only at the top of a directory: a listed folder (a report's ``figures``, a
sweep's ``variants``, a panel's ``cell-N``) was removed whole with the user's files put inside it
(``figures/NOTES.txt`` gone, exit 0). A published or completed directory's marker now records
every path inside its listed folders (its ``tree``); anything else there is the user's, named in
the refusal, and a replacement removes only what the tree lists. A marker without a tree (written
before, or a directory still being written in place) is checked through the markers of the
folders inside it (a sweep's variants and a panel's cells are runs)."""

from __future__ import annotations

import json

import pytest

from simcore import atomic
from simcore.errors import UsageError

from in_process import balance


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _publish(target, kind, files, force=False):
    out = atomic.check_output_dir(target, force, kind=kind)
    tmp = atomic.temporary_dir(out)
    for name, text in files.items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text, encoding="utf-8")
    return atomic.publish_dir(tmp, out)


def test_a_users_file_inside_a_listed_folder_stops_force(tmp_path):
    _publish(tmp_path / "rep", "report", {"report.html": "<html>", "figures/seats.png": "png"})
    marker = atomic.read_marker(tmp_path / "rep")
    assert marker["tree"] == ["figures/seats.png"]
    (tmp_path / "rep" / "figures" / "NOTES.txt").write_text("mine")
    with pytest.raises(UsageError, match="figures/NOTES.txt, which this toolkit did not write"):
        atomic.check_output_dir(tmp_path / "rep", True, kind="report")
    (tmp_path / "rep" / "figures" / "drafts").mkdir()        # a folder of the user's, named once
    (tmp_path / "rep" / "figures" / "drafts" / "a.png").write_text("a")
    assert atomic.foreign_entries(tmp_path / "rep", marker) == ["figures/NOTES.txt",
                                                                "figures/drafts"]
    assert (tmp_path / "rep" / "figures" / "NOTES.txt").read_text() == "mine"


def test_a_replacement_removes_only_what_the_tree_lists(tmp_path, capsys):
    _publish(tmp_path / "rep", "report", {"report.html": "old", "figures/seats.png": "old png"})
    out = atomic.check_output_dir(tmp_path / "rep", True, kind="report")
    tmp = atomic.temporary_dir(out)
    (tmp / "report.html").write_text("new")
    (tmp_path / "rep" / "figures" / "NOTES.txt").write_text("mine")   # put there after the check
    atomic.publish_dir(tmp, out)
    assert (tmp_path / "rep" / "report.html").read_text() == "new"
    kept = [p for p in tmp_path.iterdir() if p.name.startswith(".rep.old-")]
    assert len(kept) == 1 and (kept[0] / "figures" / "NOTES.txt").read_text() == "mine"
    assert not (kept[0] / "figures" / "seats.png").exists()
    assert "figures" in capsys.readouterr().err


def test_without_a_tree_the_folders_own_markers_are_read(tmp_path):
    """A sweep written before trees (or interrupted in place): its variants are runs with markers."""
    sweep = tmp_path / "sw"
    (sweep / "variants").mkdir(parents=True)
    _publish(sweep / "variants" / "v000", "run", {"run.json": "{}"})
    (sweep / "sweep.json").write_text("{}")
    atomic.write_marker(sweep, "sweep", ["sweep.json", "variants"])
    assert atomic.foreign_entries(sweep, atomic.read_marker(sweep)) == []
    (sweep / "variants" / "v000" / "NOTES.txt").write_text("mine")
    with pytest.raises(UsageError, match="variants/v000/NOTES.txt, which this toolkit did not"):
        atomic.check_output_dir(sweep, True, kind="sweep")


def test_a_tree_too_large_is_not_recorded(tmp_path, monkeypatch):
    monkeypatch.setattr(atomic, "TREE_MAX", 2)
    _publish(tmp_path / "rep", "report", {"report.html": "x", "figures/a.png": "a",
                                          "figures/b.png": "b", "figures/c.png": "c"})
    assert "tree" not in atomic.read_marker(tmp_path / "rep")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_sweep_force_keeps_a_users_file_in_a_variant(tmp_path):
    sweep = ["sweep", "--games", 100, "--players", 4, "--out", tmp_path / "sw", "-q"]
    balance(*sweep, "--vary", "setup.extra_coin_tokens=[2,3]")
    marker = json.loads((tmp_path / "sw" / atomic.MARKER).read_text())
    assert "variants/v000/run.json" in marker["tree"]          # sealed once complete
    (tmp_path / "sw" / "variants" / "v000" / "NOTES.txt").write_text("mine")
    done = balance(*sweep, "--vary", "setup.extra_coin_tokens=[4,5]", "--force", check=False)
    assert done.returncode == 2 and "variants/v000/NOTES.txt" in done.stderr, done.stderr
    assert (tmp_path / "sw" / "variants" / "v000" / "NOTES.txt").read_text() == "mine"
    (tmp_path / "sw" / "variants" / "v000" / "NOTES.txt").unlink()
    balance(*sweep, "--vary", "setup.extra_coin_tokens=[4,5]", "--force")
    assert sorted(p.name for p in (tmp_path / "sw" / "variants").iterdir()) == ["v000", "v001"]


def _panel(tmp_path):
    _publish(tmp_path / "pa" / "cell-0", "run", {"run.json": "{}"})
    (tmp_path / "pa" / "panel.json").write_text("{}")
    atomic.write_marker(tmp_path / "pa", "panel", ["panel.json", "cell-0", "cell-1"])
    return tmp_path / "pa"


def test_force_while_a_command_writes_inside_names_the_command_not_its_files(tmp_path):
    """simulate --panel … --force while the same panel was being played said its .cell-1.lock,
    .cell-1.claim and temporary folder were 'not written by this toolkit … move them'."""
    import subprocess
    import sys

    from reliability_helpers import ROOT

    pa = _panel(tmp_path)
    code = ("import sys, time; sys.path.insert(0, sys.argv[1]); from simcore import atomic; "
            "atomic.claim_output(sys.argv[2]); atomic.temporary_dir(__import__('pathlib').Path("
            "sys.argv[2])); print('held', flush=True); time.sleep(30)")
    holder = subprocess.Popen([sys.executable, "-c", code, str(ROOT), str(pa / "cell-1")],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(UsageError, match=r"another command is writing it right now "
                                             r"\(\.cell-1\.lock is held\)"):
            atomic.check_output_dir(pa, True, kind="panel")
    finally:
        holder.kill()
        holder.wait()
    # killed: what it left inside is cleaned up by the next --force, which then goes ahead
    assert any(p.name.startswith(".cell-1.tmp-") for p in pa.iterdir())
    atomic.check_output_dir(pa, True, kind="panel")
    assert sorted(p.name for p in pa.iterdir()) == [atomic.MARKER, "cell-0", "panel.json"]


def test_an_output_inside_another_toolkit_directory_is_refused(tmp_path):
    """simulate --out SWEEP/variants/v000 --force replaced a sweep's played variant by an unrelated
    run (the sweep's page then failed on it); a report written into another report's figures/
    was lost with it. The guard refuses both before any game, in one line."""
    sweep = tmp_path / "sw"
    (sweep / "variants").mkdir(parents=True)
    _publish(sweep / "variants" / "v000", "run", {"run.json": "{}"})
    atomic.write_marker(sweep, "sweep", ["variants"])
    before = (sweep / "variants" / "v000" / "run.json").read_bytes()
    done = balance("simulate", "--games", 100, "--out", sweep / "variants" / "v000", "--force",
                   check=False)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "a sweep this toolkit wrote" in lines[0] and "write somewhere else" in lines[0]
    assert (sweep / "variants" / "v000" / "run.json").read_bytes() == before
    _publish(tmp_path / "rep", "report", {"report.html": "x", "figures/a.png": "a"})
    done = balance("simulate", "--games", 100, "--out", tmp_path / "rep" / "figures" / "mine",
                   check=False)
    assert done.returncode == 2 and "a report this toolkit wrote" in done.stderr, done.stderr
    assert not (tmp_path / "rep" / "figures" / "mine").exists()


def test_the_guard_reads_the_markers_name_the_output_check_writes():
    from cli import guards

    assert guards.MARKER == atomic.MARKER
