"""A disk that fills while ``balance report`` or ``balance skill`` writes its page: one line naming
``--out`` and its path, exit 1 (a problem of the machine), nothing half-written left behind (review
s62 rv267 #6: both said only "error: No space left on device", and skill left ``report.html.tmp``,
118 kB, on the full disk). The disk is made full where the page is written (``Path.write_text`` of
report.html / report.html.tmp raises ENOSPC after writing part of it)."""

from __future__ import annotations

import errno
import pathlib

import pytest

from cli import _run

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


def _full_at(monkeypatch, name: str) -> None:
    real = pathlib.Path.write_text

    def write_text(self, data, *a, **k):
        if self.name == name:
            real(self, data[:1000], *a, **k)          # part of it reached the disk
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data, *a, **k)

    monkeypatch.setattr(pathlib.Path, "write_text", write_text)


def _line(capsys) -> str:
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert len(err) == 1, err
    return err[0]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("s62_disk") / "run"
    assert _run(["simulate", "--games", "200", "--seed", "1", "--out", str(d), "-q"]) == 0
    return d


def test_a_report_meeting_a_full_disk_names_its_out(small_run, tmp_path, capsys, monkeypatch):
    _full_at(monkeypatch, "report.html")
    out = tmp_path / "rep"
    code = _run(["report", str(small_run), "--out", str(out), "--questions-games", "0"])
    line = _line(capsys)
    assert code == 1
    assert line.startswith("error: --out ") and "rep: the disk ran out of space while writing it" in line, line
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == []


def test_a_skill_page_meeting_a_full_disk_names_its_out_and_leaves_no_partial_page(tmp_path, capsys,
                                                                                  monkeypatch):
    _full_at(monkeypatch, "report.html.tmp")
    out = tmp_path / "sk"
    code = _run(["skill", "--budgets", "0,1", "-n", "20", "-o", str(out), "-q"])
    line = _line(capsys)
    assert code == 1
    assert line.startswith("error: --out ") and "sk: the disk ran out of space" in line, line
    assert "same command again" in line, line
    assert not list(tmp_path.rglob("*.tmp")), list(tmp_path.rglob("*.tmp"))
