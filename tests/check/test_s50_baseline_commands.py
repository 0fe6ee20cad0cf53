"""A baseline file's own commands run as written and write the file again (review s49).

Each baseline file opens with the commands that reproduce its run and itself, and check against it.
A panel baseline's cell file gave ``--out`` inside the panel's directory, which only the command
that wrote the panel may write into: both commands were refused (exit 2). And a baseline recorded
with ``--tolerance 5`` said to write it again without it: the file came back with ±1 pp, or was
refused as too small for that tolerance. Here every command a file gives is run from where the file
was written, and the baseline it writes has the file's settings and measurements (everything but
its creation time)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAMES = "3000"


def _commands(path: Path) -> list[list[str]]:
    """The file's ``#   balance …`` lines as argument lists (without ``balance`` and the note in
    brackets some end with)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"#   balance (.*?)(\s+\(.*\))?$", line)
        if m:
            out.append(shlex.split(m.group(1)))
    return out


def _settings(path: Path) -> list[str]:
    """The file's keys and values: every line but comments and the creation time."""
    lines = (re.sub(r"\s*#.*$", "", x) for x in path.read_text(encoding="utf-8").splitlines())
    return [x for x in lines if x and not x.startswith("created_utc")]


def _baseline_written_by(cmds: list[list[str]]) -> Path:
    (written,) = [Path(c[c.index("--out") + 1]) for c in cmds if c[0] == "baseline"]
    return written


def test_panel_cell_files_commands_run_outside_the_panel(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _run(["baseline", "--players", "3,4", "--lineup", "balanced", "--games", GAMES,
                 "--tolerance", "5", "--out", "pb"]) == 0
    for k in (0, 1):
        cell = Path("pb") / f"cell-{k}.toml"
        cmds = _commands(cell)
        assert [c[0] for c in cmds] == ["simulate", "baseline", "check", "check"]
        for c in cmds:
            assert _run(c) == 0, c
        assert _settings(_baseline_written_by(cmds)) == _settings(cell)
        # the checks name this cell and the whole panel
        assert [c[-1] for c in cmds[2:]] == [str(cell), "pb"]


def test_a_baselines_commands_give_its_settings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _run(["simulate", "--games", GAMES, "--players", "4", "--seed", "7", "--out", "runs/x",
                 "--quiet"]) == 0
    assert _run(["baseline", "runs/x", "--out", "b.toml", "--tolerance", "5", "--score-tolerance", "6",
                 "--alpha", "0.1", "--beta", "0.2", "--seed-offset", "3",
                 "--smallest-difference", "win_share=2pp,score=3"]) == 0
    kept = _settings(Path("b.toml"))
    Path("b.toml").rename("b-first.toml")
    import shutil

    shutil.rmtree("runs")
    cmds = _commands(Path("b-first.toml"))
    assert [c[0] for c in cmds] == ["simulate", "baseline", "check"]
    for c in cmds[:2]:
        assert _run(c) == 0, c
    assert _settings(Path("b.toml")) == kept


def test_a_baselines_header_lists_every_exit_code_of_a_check(tmp_path, monkeypatch):
    """Review s50 docs (an opinion): the header listed 0-3; a check also exits 4 on a problem of the
    machine (a full disk), which a CI author copying from the file would have missed."""
    monkeypatch.chdir(tmp_path)
    assert _run(["simulate", "--games", GAMES, "--out", "runs/x", "--quiet"]) == 0
    assert _run(["baseline", "runs/x", "--out", "b.toml", "--tolerance", "5"]) == 0
    head = " ".join(x.lstrip("# ") for x in Path("b.toml").read_text(encoding="utf-8").splitlines()[:12])
    for code in ("0 pass", "1 regression", "2 usage error", "3 undecided", "4 a problem of the machine"):
        assert code in head, code


def test_a_panel_baseline_records_seed_offset_and_smallest_difference(tmp_path, monkeypatch):
    """Review s50 today #2: balance baseline --lineup/--panel dropped --seed-offset and
    --smallest-difference (exit 0, the cells' files holding the defaults). Every cell's file now
    holds them, and its own commands write it again with them."""
    monkeypatch.chdir(tmp_path)
    assert _run(["baseline", "--players", "3", "--lineup", "balanced", "--games", "30000", "--seed", "12",
                 "--seed-offset", "7", "--smallest-difference", "win_share=2pp,score=3", "--out", "pb"]) == 0
    cell = Path("pb") / "cell-0.toml"
    got = _settings(cell)
    assert "seed_offset = 7" in got and "win_share = 2.0" in got and "score = 3.0" in got
    assert "seat_win_share = 2.0" in got          # the default tolerance: the smallest difference
    cmds = _commands(cell)
    for c in cmds[:2]:
        assert _run(c) == 0, c
    assert _settings(_baseline_written_by(cmds)) == got
