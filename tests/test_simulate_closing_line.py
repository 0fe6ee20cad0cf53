"""The closing line of ``simulate`` names each time for what it measures.

It said "(wall 0.37 s, kernel 0.27 s)" for a command that took 1.9 s from start to end: "wall" was
read as the command's time, but it is the playing loop's only. It now says "games played in 0.37 s,
of which the kernel 0.27 s; the command took 1.9 s", the command's time counted from the process's
start. The command's time is checked here against a clock outside the command (this test's own,
around the process it starts)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli.progress import command_seconds, process_seconds, times_said

ROOT = Path(__file__).resolve().parents[1]
BALANCE = Path(sys.executable).with_name("balance")


def test_each_time_is_named_for_what_it_measures():
    meta = {"wall_time_s": 0.371, "kernel_time_s": 0.268}
    assert times_said(meta, 1.93) == ("games played in 0.37 s, of which the kernel 0.27 s; "
                                      "the command took 1.9 s")
    assert "wall" not in times_said(meta, 1.93)


def test_without_the_command_time_the_clause_is_left_out():
    assert times_said({"wall_time_s": 0.371, "kernel_time_s": 0.268}, None) == (
        "games played in 0.37 s, of which the kernel 0.27 s")
    # a command's time shorter than its games cannot be right: not said
    assert "command" not in times_said({"wall_time_s": 2.0, "kernel_time_s": 1.0}, 1.5)


def test_a_kernel_time_longer_than_the_games_is_not_called_a_part_of_them():
    # chunks played at once on a cluster: their kernel times add up past the loop's time
    said = times_said({"wall_time_s": 1.0, "kernel_time_s": 3.5}, 4.0)
    assert "of which" not in said and "the kernel 3.50 s" in said


def test_a_process_start_is_read_from_the_system():
    code = ("import time; time.sleep(1.0); from cli.progress import process_seconds; "
            "print(process_seconds())")
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    outside = time.perf_counter() - t
    inside = float(out)
    assert 1.0 <= inside <= outside + 0.02          # (the start time is kept in 1/100 s)
    assert process_seconds() is not None


def test_a_command_run_inside_another_program_does_not_claim_its_time():
    # this process is pytest's, which has run other things before: its age is not a command's
    assert command_seconds() is None


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("command", [[str(BALANCE), "simulate"], [str(BALANCE.parent / "simulate")]],
                         ids=["balance simulate", "simulate (make run's)"])
def test_simulate_says_how_long_the_command_took(tmp_path, command):
    out = tmp_path / "run"
    t = time.perf_counter()
    proc = subprocess.run([*command, "--game", "medievallons", "--games", "100",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    outside = time.perf_counter() - t
    assert proc.returncode == 0, proc.stderr
    line = [x for x in proc.stdout.splitlines() if x.startswith("run directory:")]
    assert len(line) == 1, proc.stdout
    assert "wall" not in line[0]
    m = re.search(r"\(games played in ([0-9.]+) s, of which the kernel ([0-9.]+) s; "
                  r"the command took ([0-9.]+) s\)$", line[0])
    assert m, line[0]
    played, kernel, took = map(float, m.groups())
    meta = json.loads((out / "run.json").read_text())
    assert played == round(meta["wall_time_s"], 2) and kernel == round(meta["kernel_time_s"], 2)
    # the whole command, from the process's start: more than the games, at most this test's clock
    assert played <= took <= round(outside, 1) + 0.1
    assert took >= 0.2                                # Python's start and the imports at least
