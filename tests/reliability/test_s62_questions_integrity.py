"""Review s62 #3: ``balance report RUN --questions DIR`` checks the questions directory against
its run.json's integrity record (each file's bytes and sha256), as a run directory is checked:
a truncated or garbled ``event_ablation.csv`` gave a page with 1 card of 15 as if complete, or
no section at all. Now it is refused in one line, exit 2, naming the file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reliability_helpers import cli_in_process, one_error_line

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def _questions_source(tmp_path_factory) -> Path:
    from cli import _run
    from simcore import runner

    root = tmp_path_factory.mktemp("s62-questions")
    runner.simulate("middle-ages", games=200, seed=3, out=root / "run", quiet=True, players=4)
    assert _run(["questions", str(root / "run"), "--out", str(root / "q"), "-n", "200", "-q"]) == 0
    return root


@pytest.fixture
def played(_questions_source, tmp_path, monkeypatch) -> Path:
    """A copy of a 200-game run and of its questions directory (``balance questions``) in tmp_path."""
    for name in ("run", "q"):
        shutil.copytree(_questions_source / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "q"


def _cut(p: Path) -> None:
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 10])


def _garble(p: Path) -> None:
    data = bytearray(p.read_bytes())
    i = data.rindex(b"\n", 0, len(data) - 1) + 1        # a digit of the last row changed, same size
    j = next(k for k in range(i, len(data)) if chr(data[k]).isdigit())
    data[j] = ord("9") if data[j] != ord("9") else ord("1")
    p.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_cut, _garble], ids=["truncated", "garbled"])
def test_s62_report_refuses_a_damaged_questions_directory(played, capsys, damage):
    damage(played / "event_ablation.csv")
    code, err = cli_in_process(["report", "run", "--questions", "q", "--out", "rep"], capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert "event_ablation.csv" in line and "questions directory" in line, line
    assert not Path("rep").exists()
