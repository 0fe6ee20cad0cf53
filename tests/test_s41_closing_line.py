"""Session 41's designer review (findings 4 and 15): ``simulate``'s closing line.

A first run on a fresh clone said "(games played in 8.84 s, of which the kernel 8.65 s; the command
took 66.1 s)": 57 s unexplained, although run.json recorded them (``compile_or_load_s: 56.3``, the
kernels' compile). When getting the kernels ready took more than 2 s the line now says where the
time went, and whether it was a compile (the local executor's compile notice, shown only while
Numba compiles) or not. And ``--debug`` said nothing of the invariants it checked: a broken one
stops the run with an error naming the game, so a closing line after ``--debug`` means they held,
and it now says so."""

from __future__ import annotations

import pytest
import subprocess
import sys
from pathlib import Path

import cli.progress as P

ROOT = Path(__file__).resolve().parents[1]
SIMULATE = Path(sys.executable).with_name("simulate")

LOCAL = {"wall_time_s": 8.84, "kernel_time_s": 8.65, "executor": {"kind": "local"}}


def test_a_long_compile_is_said_with_its_time():
    meta = {**LOCAL, "compile_or_load_s": 56.3}
    assert P.times_said(meta, 66.1, compiled=True) == (
        "games played in 8.84 s, of which the kernel 8.65 s; the command took 66.1 s; compiling the "
        "kernels took 56 s, first run only: cached afterwards")


def test_a_long_load_is_not_called_a_compile():
    meta = {**LOCAL, "compile_or_load_s": 2.43}
    said = P.times_said(meta, 12.0, compiled=False)
    assert said.endswith("; loading the kernels from the cache took 2.4 s"), said
    assert "compiling" not in said
    # not known whether it compiled (no spinner in this process): both said
    assert P.times_said(meta, 12.0).endswith("; compiling or loading the kernels took 2.4 s")


def test_a_cluster_start_is_not_called_the_kernels_compile():
    # on Dask the time holds starting the cluster and warming its workers too
    meta = {**LOCAL, "executor": {"kind": "dask", "workers": 2}, "compile_or_load_s": 8.011}
    said = P.times_said(meta, 20.0, compiled=True)
    assert said.endswith("; starting the cluster and its kernels took 8.0 s"), said
    assert P.compiled_here(meta) is None


def test_a_short_setup_adds_nothing():
    meta = {**LOCAL, "compile_or_load_s": 0.097}
    assert P.times_said(meta, 9.9, compiled=False) == (
        "games played in 8.84 s, of which the kernel 8.65 s; the command took 9.9 s")


def test_a_reference_run_does_not_call_its_time_the_kernels():
    # --engine reference: the games were played by the pure-Python reference engine (s42)
    meta = {**LOCAL, "engine": "reference", "compile_or_load_s": 0.006}
    assert P.times_said(meta, 9.9) == (
        "games played in 8.84 s, of which the reference engine 8.65 s; the command took 9.9 s")


def test_the_spinner_tells_a_compile_from_a_load():
    from rich.console import Console

    quiet = Console(quiet=True)
    show = P.spinner(quiet)                     # a simulate's spinner: nothing shown yet
    assert P.compiled_here(LOCAL) is False
    assert show("Compiling the kernel (first run only; cached afterwards)") is None
    assert P.compiled_here(LOCAL) is True
    P.spinner(quiet)                            # the next simulate starts afresh
    assert P.compiled_here(LOCAL) is False
    assert P.NOTICES["made"]


def test_debug_says_the_invariants_held():
    assert P.checks_said({"debug": True, "engine": "kernel"}) == (
        "the game's invariants were checked in every game (--debug): all held")
    assert P.checks_said({"debug": False, "engine": "kernel"}) == ""
    assert P.checks_said({}) == ""
    # not every game's reference engine checks them: not claimed there
    assert P.checks_said({"debug": True, "engine": "reference"}) == ""


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_simulate_debug_closing_line(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run([str(SIMULATE), "--game", "medievallons", "--games", "100", "--debug",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    line = [x for x in proc.stdout.splitlines() if x.startswith("run directory:")]
    assert len(line) == 1, proc.stdout
    assert line[0].endswith("; the game's invariants were checked in every game (--debug): all held)"), line[0]
    plain = subprocess.run([str(SIMULATE), "--game", "medievallons", "--games", "100",
                            "--out", str(tmp_path / "plain")], cwd=ROOT, capture_output=True, text=True)
    assert plain.returncode == 0, plain.stderr
    assert "invariants" not in plain.stdout
