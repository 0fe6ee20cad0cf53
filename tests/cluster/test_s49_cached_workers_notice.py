"""A --workers run whose kernel is already in the Numba cache says nothing about compiling: the
workers' warm-up shows its notice only while Numba really compiles, as a local run does (session
48's list: "Compiling the … kernel" flashed on every cached --workers run)."""

from __future__ import annotations

import pytest

from simcore import cluster, runner

pytestmark = pytest.mark.slow


def test_a_cached_kernel_is_loaded_without_the_compile_notice():
    prep = runner.prepare("middle-ages", players=4, strategies="balanced")
    prep.warmup()                                   # compiled or loaded: in the cache now
    again = runner.prepare("middle-ages", players=4, strategies="balanced")
    shown: list[str] = []

    def show(message):
        shown.append(message)
        return lambda: None

    with cluster.Cluster(workers=1, threads=1, quiet=True) as c:
        c.warm(again, show=show)
    assert again.compile_message not in shown, shown
    assert any("Warming the Dask workers" in m for m in shown), shown
