"""Issue 28, point 2: sweeps and tunes are replaced whole, with one writer per directory.

Real processes: two tunes on the same ``--out`` (the second refused at once, the first unharmed),
Ctrl-C in a tune (one line, exit 130), and a ``sweep --force`` over another sweep killed with
SIGKILL mid-way (the old sweep stays as it was). In process: a resumed sweep is claimed, and a
``--force`` over another sweep leaves the old one until the new one is complete.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from reliability_helpers import balance, start, wait_for

# long enough to be interrupted on a fast machine: it tries every trial (--keep-going; 40 trials
# of 2,000-16,000 two-player games ended in ~3 s, before the test's Ctrl-C)
TUNE = ["tune", "--game", "middle-ages", "--players", "2", "--strategies", "random", "--vary",
        "setup.start_coins[0]=0..40:10", "--target", "seat-balance:5", "--trials", "200",
        "--min-games", "20000", "--max-games", "200000", "--keep-going", "--out", "tu"]


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.slow
def test_two_tunes_on_one_directory_and_ctrl_c(tmp_path):
    first = start(*TUNE, cwd=tmp_path)
    try:
        wait_for(lambda: (tmp_path / "tu" / "study.db").exists(), timeout=240, what="the first tune's study")
        second = balance(*TUNE, cwd=tmp_path, timeout=120)
        assert second.returncode == 2, second.stderr
        assert "another command is writing it" in second.stderr and "Traceback" not in second.stderr
        assert first.poll() is None                       # the first one goes on
        first.send_signal(signal.SIGINT)
        out, err = first.communicate(timeout=120)
    finally:
        if first.poll() is None:
            first.kill()
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert first.returncode == 130, err
    assert len(lines) == 1 and lines[0].startswith("interrupted (Ctrl-C)"), err
    assert "UnboundLocalError" not in err
    # nothing hidden left beside it; the tune resumes (same command again, not refused)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tu"]
    assert json.loads((tmp_path / "tu" / ".balance-output.json").read_text())["kind"] == "tune"


@pytest.mark.slow
def test_a_killed_sweep_force_leaves_the_old_sweep_whole(tmp_path):
    old = balance("sweep", "--game", "middle-ages", "--players", "4", "--vary", "setup.extra_coin_tokens=[6,8]",
                  "--games", "400", "--out", "sw", "-q", cwd=tmp_path, timeout=600)
    assert old.returncode == 0, old.stderr
    before = _tree(tmp_path / "sw")
    new = start("sweep", "--game", "middle-ages", "--players", "4", "--vary",
                "setup.extra_coin_tokens=[2,3,4,5,6,7,8,9,10]", "--games", "20000", "--out", "sw", "--force",
                cwd=tmp_path)
    try:
        wait_for(lambda: any(p.name.startswith(".sw.tmp-") and (p / "variants").is_dir()
                             and any((p / "variants").iterdir()) for p in tmp_path.iterdir()),
                 timeout=240, what="the new sweep's first variant")
        new.kill()                                          # SIGKILL: no cleanup at all
        new.wait()
    finally:
        if new.poll() is None:
            new.kill()
    assert _tree(tmp_path / "sw") == before                 # the old sweep, byte for byte
    # the next command cleans up what the killed one recorded, and only that
    again = balance("sweep", "--game", "middle-ages", "--players", "4", "--vary", "setup.extra_coin_tokens=[6,8]",
                    "--games", "400", "--out", "sw", "-q", cwd=tmp_path, timeout=600)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sw"]
    assert _tree(tmp_path / "sw") == before


def test_a_sweep_force_over_another_is_built_beside_it(tmp_path, monkeypatch):
    from analysis.sweep.play import begin_out, finish_out, prepare_out
    from simcore import atomic

    monkeypatch.chdir(tmp_path)
    # (the keys a sweep.json's readers index: a resumed one is checked for them, session 62)
    keys = {"format": 1, "kind": "sweep", "games": 10, "seed": 1, "varies": [], "variants": []}
    plan_a, plan_b = {**keys, "game": "a"}, {**keys, "game": "b"}
    out = tmp_path / "sw"
    assert prepare_out(plan_a, out, False) is False
    work = begin_out(out, "sweep", ("sweep.json", "variants"))
    assert work == out
    (out / "sweep.json").write_text(json.dumps(plan_a))
    finish_out(work, out)
    before = _tree(out)
    with pytest.raises(atomic.UsageError, match="holds another sweep"):
        prepare_out(plan_b, out, False)
    assert prepare_out(plan_b, out, True) is False
    work = begin_out(out, "sweep", ("sweep.json", "variants"))
    assert work != out and work.name.startswith(".sw.tmp-")
    (work / "sweep.json").write_text(json.dumps(plan_b))
    assert _tree(out) == before                              # the old one stays until the end
    finish_out(work, out)
    assert json.loads((out / "sweep.json").read_text()) == plan_b
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sw"]
    # a resumed sweep is claimed too (one writer per directory)
    assert prepare_out(plan_b, out, False) is True
    assert (tmp_path / ".sw.lock").exists()
    atomic.release_claims()
