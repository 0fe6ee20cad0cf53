"""``simulate --panel`` resumes: an interrupted panel keeps the cells it finished, the same command
plays only the rest, and the result is the panel an uninterrupted command writes (revC #5: before,
Ctrl-C threw every finished cell away). An unfinished panel is refused by ``balance report`` in one
line rather than reported with the cells it has; another panel in ``--out`` is refused without
``--force``."""

from __future__ import annotations

import json
import signal

import pytest
from in_process import balance
from undrawn_figures import figures_undrawn

import analysis.panel_run as panel_run
from cli import _resumes
from simcore.errors import Interrupted

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

ARGS = ("simulate", "--game", "middle-ages", "--panel", "default", "--games", 300, "--seed", 4, "-q")


def _interrupt_at_cell(monkeypatch, k_stop: int) -> list[str]:
    """Let ``runner.run`` play cells before the k_stop-th call, then Ctrl-C there."""
    real = panel_run.runner.run
    played = []

    def run(prep, *, out, **kw):
        if len(played) + 1 == k_stop:
            raise Interrupted(signal.SIGINT)      # what the command line's Ctrl-C handler raises
        played.append(out.name)
        return real(prep, out=out, **kw)

    monkeypatch.setattr(panel_run.runner, "run", run)
    return played


def _stats(out):
    return {d.name: (d / "stats.json").read_bytes() for d in sorted(out.glob("cell-*"))}


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The panel of ARGS played in one go, never interrupted: what the two resumed panels below
    must equal (played once for the module)."""
    out = tmp_path_factory.mktemp("whole") / "whole"
    balance(*ARGS, "--out", out)
    return out


def test_an_interrupted_panel_resumes_with_the_cells_it_finished(tmp_path, monkeypatch, whole):
    out = tmp_path / "pan"
    played = _interrupt_at_cell(monkeypatch, 2)
    first = balance(*ARGS, "--out", out, check=False)
    assert first.returncode == 130 and played == ["cell-0"]
    assert "after" in first.stderr and "run the same command again to resume" in first.stderr, first.stderr
    assert (out / "cell-0" / "run.json").is_file() and not (out / "cell-1").exists()
    kept = (out / "cell-0" / "run.json").read_bytes()

    # the unfinished panel is not reported as if it were the panel asked for
    early = balance("report", out, "--out", tmp_path / "rep", check=False)
    lines = [ln for ln in early.stderr.splitlines() if ln.strip()]
    assert early.returncode == 2 and len(lines) == 1, early.stderr
    assert "unfinished panel: 1 of 3 cells played" in lines[0] and "cell-1" in lines[0]
    assert not (tmp_path / "rep").exists()

    # the same command plays the two other cells only
    monkeypatch.undo()
    played = _interrupt_at_cell(monkeypatch, 99)
    again = balance(*ARGS[:-1], "--out", out)
    assert played == ["cell-1", "cell-2"]
    assert "cell 1 of 3 (cell-0): 4p 4×balanced (played before: kept)" in again.stderr
    assert (out / "cell-0" / "run.json").read_bytes() == kept      # not played again

    # the same statistics as the panel played in one go
    monkeypatch.undo()
    assert _stats(out) == _stats(whole) and len(_stats(out)) == 3
    with figures_undrawn():     # reported (its figure need not be drawn: undrawn_figures.py)
        assert balance("report", out, "--out", tmp_path / "rep").returncode == 0


def test_another_panel_in_out_is_refused_unless_forced(tmp_path, monkeypatch):
    out = tmp_path / "pan"
    played = _interrupt_at_cell(monkeypatch, 2)
    balance(*ARGS, "--out", out, check=False)
    assert played == ["cell-0"]
    other = balance(*ARGS[:-3], "--seed", 5, "-q", "--out", out, check=False)
    assert other.returncode == 2 and "holds another panel (different seed)" in other.stderr, other.stderr
    assert sorted(p.name for p in out.glob("cell-*")) == ["cell-0"]      # left as it was
    monkeypatch.undo()
    balance(*ARGS[:-3], "--seed", 5, "-q", "--out", out, "--force")
    assert json.loads((out / "panel.json").read_text())["seed"] == 5
    assert {json.loads((d / "run.json").read_text())["seed"] for d in out.glob("cell-*")} == {5}


def test_rows_kept_are_part_of_what_a_resume_compares(tmp_path, monkeypatch):
    out = tmp_path / "pan"
    _interrupt_at_cell(monkeypatch, 2)
    balance(*ARGS, "--out", out, check=False)       # 300 games: rows kept by default
    again = balance(*ARGS, "--no-raw", "--out", out, check=False)
    assert again.returncode == 2 and "was played with player rows; give --raw to resume it" \
        in again.stderr, again.stderr


def test_which_commands_resume_their_directory():
    assert _resumes(["sweep", "--vary", "x=1..2"]) and _resumes(["tune"])
    assert _resumes(["simulate", "--panel", "default"]) and _resumes(["--panel=default", "-n", "5"])
    assert _resumes(["-n", "5", "--panel", "wide"])                 # the simulate script
    assert not _resumes(["simulate", "-n", "5"]) and not _resumes(["-n", "5"])
    assert not _resumes(["baseline", "--panel", "default"]) and not _resumes([])


def test_a_panel_numbered_from_1_before_resumes_under_its_own_names(tmp_path, monkeypatch, whole):
    # simulate --panel numbered its cells from 1 before session 27 (cell-1 … cell-3); such a panel,
    # interrupted, goes on under the names its panel.json recorded: it plays the cells it lacks
    # and keeps the ones it has, as the same panel played in one go today (cell-0 … cell-2)
    out = tmp_path / "old"
    played = _interrupt_at_cell(monkeypatch, 2)
    balance(*ARGS, "--out", out, check=False)
    assert played == ["cell-0"]
    (out / "cell-0").rename(out / "cell-1")               # as the older version wrote it
    meta = json.loads((out / "panel.json").read_text())
    meta["cells"] = ["cell-1", "cell-2", "cell-3"]
    (out / "panel.json").write_text(json.dumps(meta))
    marker = json.loads((out / ".balance-output.json").read_text())
    if "entries" in marker:
        marker["entries"] = [{"cell-0": "cell-1", "cell-1": "cell-2", "cell-2": "cell-3"}.get(e, e)
                             for e in marker["entries"]]
        (out / ".balance-output.json").write_text(json.dumps(marker))
    kept = (out / "cell-1" / "run.json").read_bytes()
    monkeypatch.undo()
    played = _interrupt_at_cell(monkeypatch, 99)
    again = balance(*ARGS[:-1], "--out", out)
    assert played == ["cell-2", "cell-3"], again.stderr
    assert "cell 1 of 3 (cell-1): 4p 4×balanced (played before: kept)" in again.stderr
    assert (out / "cell-1" / "run.json").read_bytes() == kept
    assert not (out / "cell-0").exists()
    monkeypatch.undo()
    assert sorted(_stats(out).values()) == sorted(_stats(whole).values())
    with figures_undrawn():     # reported (its figure need not be drawn: undrawn_figures.py)
        assert balance("report", out, "--out", tmp_path / "rep").returncode == 0
