"""The README's examples run as written (documentation with tested examples).

Every line starting with ``$ `` inside a ```console block of README.md is run, in order, in one
temporary directory (later examples use earlier results). The first ``balance`` and the first
``simulate`` command run as the installed commands would (a process with the project's venv first
on PATH); the others run in this process, through the same entry points (``cli._run``; a ``python
-c`` line as its code). The fast suite plays at most FAST_GAMES games per command (the
examples' own counts cost about 50 CPU seconds, the largest test of the suite) and writes the
reports and Fief's heat maps with their figures undrawn (tests/undrawn_figures.py: each figure is
still built from the tables, a 1x1 stand-in written under its name); ``make test-slow`` runs them
as written, figures drawn.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from undrawn_figures import figures_undrawn, heat_maps_undrawn

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


def _in_process(argv: list[str]) -> tuple[int, str]:
    """Run one README command in this process: (exit code, what it printed)."""
    import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        if argv[0] == "python":
            assert argv[1] == "-c", argv
            exec(compile(argv[2], "<README>", "exec"), {"__name__": "__main__"})
            return 0, out.getvalue()
        if argv[0] == "simulate":
            code = cli._run(argv[1:], prog="simulate", target=cli._simulate_app())
        else:
            assert argv[0] == "balance", argv
            code = cli._run(argv[1:])
    return code, out.getvalue()


# The fast suite plays at most this many games per README command (--games, --questions-games);
# the examples' own counts (up to 100,000 games: about 50 CPU seconds in all) run under slow.
# Every command's output has the same shape at 300 games as at 1,000 (the check is that each runs
# and writes what the next one reads: the same files, the reports the same headings, compared
# once), and a run of 300 games is still two chunks (runner.FIRST_CHUNK is 256). 1,000 cost about
# 2-3 s more CPU (the rollout bot's example, the ladder, the questions), 4,000 2.6 s more again.
FAST_GAMES = 300
COUNT_OPTIONS = ("--games", "--questions-games")


# As written even so: the run a baseline is recorded from and the check against it (a baseline
# of fewer games is refused: its own standard error too large for the default tolerance).
AS_WRITTEN = (("simulate", "--out", "runs/demo"), ("balance", "check"))


def fewer_games(argv: list[str], cap: int) -> list[str]:
    """``argv`` with every game count above ``cap`` lowered to ``cap`` (but AS_WRITTEN)."""
    if any(argv[0] == keep[0] and all(w in argv for w in keep[1:]) for keep in AS_WRITTEN):
        return list(argv)
    out = list(argv)
    for i in range(1, len(out)):
        if out[i - 1] in COUNT_OPTIONS and out[i].isdigit() and int(out[i]) > cap:
            out[i] = str(cap)
    return out


# Drawing the figures was about 9 of the fast test's 22 s of CPU (the two comparison reports, the
# sweep page, Fief's heat maps), so the fast test writes 1x1 stand-ins for them (``undrawn``): the
# check here is that each command runs and writes what the next one reads (a figure that fails to
# build still fails it: the figures are built, only not drawn). Every figure these reports build
# (comparison, comparison_guilds, domain_pairs, event_impact, event_slots, game_flow, game_length,
# guild_types, questions_*, scores, seat_advantage, tile_impact; the sweep's curve_0 and tornado_*)
# is still drawn elsewhere, all under `make test-slow`: a comparison report's figures of every game measured
# drawn by tests/reports/test_figure_checklist.py (comparison_guilds only there), the others through
# the report's own draw_all by tests/reports (test_report.py, test_report_words_pdf.py, the played
# questions of test_report_medievallons.py) and tests/sweep/test_sweep.py (checked once by logging
# the names given to draw_all), the heat maps by tests/fief/test_cli_fief.py; and
# test_readme_examples_run_as_written draws them all.


def run_readme(tmp_path, monkeypatch, cap: int | None, undrawn: bool = False) -> None:
    if undrawn:
        with figures_undrawn(), heat_maps_undrawn():
            return run_readme(tmp_path, monkeypatch, cap)
    commands = readme_commands()
    assert len(commands) >= 10
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    monkeypatch.chdir(tmp_path)
    as_process = set()
    for cmd in commands:
        argv = shlex.split(cmd)
        if cap is not None:
            argv = fewer_games(argv, cap)
        if argv[0] in ("balance", "simulate") and argv[0] not in as_process:
            as_process.add(argv[0])
            proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=600)
            code, said = proc.returncode, proc.stdout[-2000:] + "\n" + proc.stderr[-2000:]
        else:
            code, said = _in_process(argv)
        assert code == 0, f"$ {shlex.join(argv)}\n{said[-4000:]}"
    assert as_process == {"balance", "simulate"}
    assert (tmp_path / "reports_out" / "palais" / "report.html").is_file()
    assert (tmp_path / "seats.csv").read_text(encoding="utf-8").splitlines()[0].startswith("seat")


def test_readme_examples_run(tmp_path, monkeypatch):
    """Every example, at most FAST_GAMES games each, the figures undrawn."""
    run_readme(tmp_path, monkeypatch, FAST_GAMES, undrawn=True)


@pytest.mark.slow
def test_readme_examples_run_as_written(tmp_path, monkeypatch):
    run_readme(tmp_path, monkeypatch, None)


def test_fewer_games_lowers_only_game_counts():
    argv = ["balance", "replay", "r", "--game", "30000", "--games", "20000", "--questions-games",
            "1000", "--seed", "9000"]
    assert fewer_games(argv, 4000) == ["balance", "replay", "r", "--game", "30000", "--games",
                                       "4000", "--questions-games", "1000", "--seed", "9000"]
    demo = ["simulate", "--games", "20000", "--out", "runs/demo"]
    assert fewer_games(demo, 4000) == demo
