"""``balance sweep`` ends with the report command for its directory, one that runs as printed
(``--out <dir>-report``): the placeholder REPORT_DIR it printed made, copied, a directory of that
name (as ``balance tune`` and ``simulate --panel`` print it)."""

from __future__ import annotations

import shlex

from cli import _run


def test_the_printed_report_command_names_a_real_directory(tmp_path, capsys):
    out = tmp_path / "sw"
    assert _run(["sweep", "--game", "seigneurial", "--vary", "track.start_square=0..1", "--games", "40",
                 "--out", str(out), "--quiet"]) == 0
    line = capsys.readouterr().out.strip().splitlines()[-1]
    assert "REPORT_DIR" not in line
    command = shlex.split(line.split("; ", 1)[1])
    assert command == ["balance", "report", str(out), "--out", f"{out}-report"]
