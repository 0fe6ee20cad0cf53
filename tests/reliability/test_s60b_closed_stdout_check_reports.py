"""Session 60 review: ``balance check --junit FILE | true`` exited 141, not its verdict, and wrote
no JUnit file.

The check said its report on stdout before writing its ``--junit``/``--summary`` files; the reader
had left (``| true``), the report met the closed pipe, and :func:`cli._output_closed` ended the
command with 141 since those files were still unfinished, before it read the verdict. The report
files are now written whatever happens to stdout, and the exit code is the verdict (0/1/3), in a
real ``bash -o pipefail`` pipeline as a CI step runs it.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from reliability_helpers import CLI, ROOT, balance, env
from tests.check.test_check_middle_ages import _moved   # (the planted shift, one copy)
import pytest

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"


def _piped_into_true(args, cwd: Path) -> tuple[int, str]:
    """``balance ARGS | true`` under ``set -o pipefail``: the reader leaves before the first line."""
    command = " ".join(shlex.quote(str(a)) for a in [sys.executable, "-c", CLI, *args])
    done = subprocess.run(["bash", "-c", f"set -o pipefail; {command} | true; echo $?"], cwd=cwd,
                          env=env(), capture_output=True, text=True, timeout=300)
    return int(done.stdout.strip()), done.stderr


def _passing_baseline(run: Path, tmp_path: Path) -> Path:
    """A baseline of ``run`` itself (±20 pp, ±20 coins), its recorded seed changed so that the
    check accepts the run as independent: every metric is within its tolerance, PASS."""
    made = balance("baseline", run, "--tolerance", "20pp", "--score-tolerance", "20", "--out",
                   tmp_path / "own.toml", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    text = (tmp_path / "own.toml").read_text(encoding="utf-8")
    assert "\nseed = 3 " in text
    out = tmp_path / "pass.toml"
    out.write_text(text.replace("\nseed = 3 ", "\nseed = 99 ", 1), encoding="utf-8")
    return out


def _assert_reports(tmp_path: Path, verdict_word: str) -> None:
    junit = tmp_path / "j.xml"
    assert junit.is_file(), "no --junit file"
    root = ET.parse(junit).getroot()
    assert list(root.iter("testcase")), junit.read_text()
    summary = tmp_path / "s.md"
    assert summary.is_file(), "no --summary file"
    assert verdict_word in summary.read_text(encoding="utf-8"), summary.read_text()


def test_passing_check_piped_into_true_exits_0_and_writes_its_junit_and_summary(tiny_run, tmp_path):
    base = _passing_baseline(tiny_run, tmp_path)
    read = balance("check", "--baseline", base, tiny_run, "--quiet", cwd=tmp_path)
    assert read.returncode == 0, (read.stdout, read.stderr)
    code, err = _piped_into_true(["check", "--baseline", base, tiny_run, "--junit", "j.xml",
                                  "--summary", "s.md"], tmp_path)
    assert code == 0 and "error" not in err and "Traceback" not in err, (code, err)
    _assert_reports(tmp_path, "PASS")


def test_failing_check_piped_into_true_exits_with_its_verdict_and_writes_its_junit_and_summary(
        tiny_run, tmp_path):
    planted = tmp_path / "planted.toml"
    planted.write_text(_moved(BASELINE.read_text(encoding="utf-8"), "Seat 1", 30.0), encoding="utf-8")
    read = balance("check", "--baseline", planted, tiny_run, "--quiet", cwd=tmp_path)
    # (a 30-point shift read on 200 games: 3, undecided, or 1, FAIL: either is a verdict)
    assert read.returncode in (1, 3), (read.stdout, read.stderr)
    code, err = _piped_into_true(["check", "--baseline", planted, tiny_run, "--junit", "j.xml",
                                  "--summary", "s.md"], tmp_path)
    assert code == read.returncode and "Traceback" not in err, (code, read.returncode, err)
    _assert_reports(tmp_path, "FAIL" if code == 1 else "UNDECIDED")


def test_failing_check_without_report_files_piped_into_true_still_exits_with_its_verdict(tiny_run, tmp_path):
    planted = tmp_path / "planted.toml"
    planted.write_text(_moved(BASELINE.read_text(encoding="utf-8"), "Seat 1", 30.0), encoding="utf-8")
    read = balance("check", "--baseline", planted, tiny_run, "--quiet", cwd=tmp_path)
    code, err = _piped_into_true(["check", "--baseline", planted, tiny_run], tmp_path)
    assert read.returncode in (1, 3) and code == read.returncode, (code, read.returncode, err)
