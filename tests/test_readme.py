"""The README's examples run as written (documentation with tested examples).

Every line starting with ``$ `` inside a ```console block of README.md is run, in order, in one
temporary directory (later examples use earlier results), with the project's venv first on PATH.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```console\n(.*?)```", text, flags=re.S)
    return [line[2:] for block in blocks for line in block.splitlines() if line.startswith("$ ")]


def test_readme_has_the_two_fresh_machine_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make run" in text and "make test" in text
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^run: setup\n\t.*simulate --games 1e6", makefile, flags=re.M)
    assert re.search(r"^test: setup\n\t.*pytest", makefile, flags=re.M)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "make test" in ci


def test_readme_examples_run(tmp_path):
    commands = readme_commands()
    assert len(commands) >= 10
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    for cmd in commands:
        argv = shlex.split(cmd)
        proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == 0, f"$ {cmd}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    assert (tmp_path / "reports_out" / "palais" / "report.html").is_file()
    assert (tmp_path / "seats.csv").read_text(encoding="utf-8").splitlines()[0].startswith("seat")
