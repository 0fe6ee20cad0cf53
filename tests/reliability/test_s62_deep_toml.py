"""Review s62 #5: a TOML value nested thousands deep (``--set PATH=[[[[…]]]]``, a rules,
strategies, panels or baseline file, ``--vary``) stopped with a RecursionError of some 3,000 lines,
exit 1. Each is now one line, exit 2, saying it is nested too deeply (as run.json's reader says
of JSON)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliability_helpers import cli_in_process, one_error_line

DEEP = "[" * 5000 + "]" * 5000


@pytest.fixture
def here(tiny_run, monkeypatch):
    monkeypatch.chdir(tiny_run.parent)
    (tiny_run.parent / "deep.toml").write_text(f"x = {DEEP}\n", encoding="utf-8")
    return tiny_run.parent


CASES = {
    "set": ["simulate", "-n", "200", "-p", "4", "-q", "-o", "out",
            "--set", f"setup.extra_coin_tokens={DEEP}"],
    "set-list-of-words": ["simulate", "-n", "200", "-p", "4", "-q", "-o", "out",
                          "--set", f"setup.extra_coin_tokens=a,{DEEP}"],
    "rules": ["simulate", "-n", "200", "-p", "4", "-q", "-o", "out", "--rules", "deep.toml"],
    "strategies": ["simulate", "-n", "200", "-p", "4", "-q", "-o", "out", "--strategies", "deep.toml"],
    "panel": ["simulate", "-n", "200", "-q", "-o", "out", "--panel", "deep.toml"],
    "baseline": ["check", "run", "--baseline", "deep.toml"],
    "vary": ["sweep", "--vary", f"setup.extra_coin_tokens={DEEP}", "-n", "200", "-p", "4", "-q",
             "-o", "out"],
    "tune-vary": ["tune", "--vary", f"setup.extra_coin_tokens={DEEP}", "--target", "seat-balance:5",
                  "-p", "4", "-q", "-o", "out"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_s62_deeply_nested_toml_is_one_line(here, capsys, case, request):
    if case not in ("rules", "strategies"):      # (those two are read where a run is prepared)
        request.getfixturevalue("no_playing")
    code, err = cli_in_process(CASES[case], capsys)
    assert code == 2, err[-2000:]
    line = one_error_line(err)
    assert "nested too deeply" in line, line
    assert len(line) < 400, line
    assert not (here / "out").exists()
