"""A --vary whose path starts with a table the rules do not have (``nope.x``) was refused in the
words of the --set it is played as: "error: …/rules.toml with --set nope.x=1: nope: unknown key"
(sweep) and "--vary at nope.x=1: …/rules.toml with --set nope.x=1: …" (tune). Both now name the
--vary typed, as they did for an unknown key inside a known table; one line, exit 2, no directory."""

from __future__ import annotations

import pytest

from in_process import balance


@pytest.mark.parametrize("command, extra", [("sweep", []), ("tune", ["--target", "seat-balance:2"])])
def test_an_unknown_table_is_named_by_the_vary_typed(tmp_path, command, extra):
    done = balance(command, "--vary", "nope.x=1..2", *extra, "--out", tmp_path / "out", check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1, line
    assert line.startswith("error: --vary nope.x=1..2: "), line
    assert "with --set" not in line and "rules.toml" not in line, line
    assert "nope: unknown key; did you mean income?" in line, line
    assert not (tmp_path / "out").exists()
