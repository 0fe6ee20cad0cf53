"""The one line refusing a --questions directory played under other rules gives a command that
works (review s47 #2): it said "play them with the run's rules file", but `balance questions` has no
rules option, and a run changed with --set has no rules file. The command the line gives is run
here, as typed, and the report then accepts its directory."""

from __future__ import annotations

import re
import shlex

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def test_the_fix_the_line_gives_is_a_command_that_works(tmp_path, capsys, undrawn):
    # (figures undrawn: exit codes and the error line are read; a Médiévallons run's figures are
    # drawn by tests/medievallons/test_s53_ablation_founders.py's before/after)
    base, changed = tmp_path / "base", tmp_path / "win2"
    assert _run(["simulate", "--game", "medievallons", "-n", "40", "--out", str(base), "-q"]) == 0
    assert _run(["simulate", "--game", "medievallons", "-n", "40", "--set", "guilds.to_win=2",
                 "--out", str(changed), "-q"]) == 0
    q = tmp_path / "q"
    assert _run(["questions", str(base), "--games", "20", "--out", str(q), "-q"]) == 0
    capsys.readouterr()
    assert _run(["report", str(changed), "--out", str(tmp_path / "rep"), "--questions", str(q)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other rules than the baseline run" in err
    assert "rules file" not in err.replace("rules files included", "")
    command = re.search(r"with (balance questions \S+ --out DIR)", err)
    assert command, err
    args = shlex.split(command[1])[1:]
    fixed = tmp_path / "q-fixed"
    args[args.index("DIR")] = str(fixed)
    assert _run([*args, "--games", "20", "-q"]) == 0
    assert _run(["report", str(changed), "--out", str(tmp_path / "rep"), "--questions", str(fixed)]) == 0
