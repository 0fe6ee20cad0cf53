"""Runs on a Dask cluster write what a local run writes, and a broken cluster is one clear line.

All under ``make test-slow`` (``-m slow``). Cheaper: an in-process LocalCluster of 2 worker
processes (``--workers 2`` and ``simcore.cluster.Cluster``) against local runs, byte for byte;
the options refused before any process starts; a scheduler nobody listens at; a worker whose
package or rules differ from the client's. Costlier: ``dask scheduler`` and ``dask worker``
processes on 127.0.0.1, a worker killed mid-run, the scheduler killed mid-run, a worker without
the package, a worker with another version of it.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

import cli
from simcore import cluster, runner
from simcore.errors import UsageError

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

ROOT = Path(__file__).resolve().parents[2]
LINE_UP = "balanced,random,greedy,eventwise"


def _simulate(*args: str) -> int:
    with pytest.raises(SystemExit) as exc:
        cli.simulate_main(list(args))
    return exc.value.code


def _files(run: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted([*run.glob("*.parquet"), *run.glob("stats.json")])}


def _nothing_in(folder: Path) -> bool:
    """No file or directory in ``folder`` but the lock files and claim records of outputs this
    process still claims (simcore.atomic: released at the end of a command)."""
    return [p.name for p in folder.iterdir() if not p.name.endswith((".lock", ".claim"))] == []


def _what_was_played(run: Path) -> dict:
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    return {k: v for k, v in meta.items() if k not in runner.RUN_JSON_HOW_IT_RAN}


def _assert_same_run(a: Path, b: Path, rows: bool = True) -> None:
    fa, fb = _files(a), _files(b)
    assert sorted(fa) == sorted(fb) and ("players.parquet" in fa) == rows and "summary.parquet" in fa
    for name in fa:
        assert fa[name] == fb[name], f"{name} differs"
    assert _what_was_played(a) == _what_was_played(b)


@pytest.fixture(scope="module")
def two_workers():
    """An in-process LocalCluster with 2 worker processes, shared by the tests of this module;
    opened here, so that a test run alone finds it as it does after the module's first test (its
    address, its fingerprint: both are set when it opens)."""
    with cluster.Cluster(workers=2, threads=1, quiet=True) as c:
        c.open()
        yield c


def test_two_local_workers_write_the_run_directory_of_a_local_run(two_workers, tmp_path, capsys,
                                                                  monkeypatch):
    # several chunks per worker, a mixed line-up (per-strategy sums) and uneven last chunk.
    # `--workers 2` is handed the module's running LocalCluster instead of starting its own (two
    # more worker processes importing the toolkit and loading the kernels: about 4 s of CPU); it
    # connects, checks, warms, plays and closes it as its own, but the close leaves it running.
    import distributed

    asked, closed, lent = [], [], two_workers.open().local_cluster

    def local_cluster(**kw):
        asked.append(kw)
        return lent

    monkeypatch.setattr(distributed, "LocalCluster", local_cluster)
    monkeypatch.setattr(lent, "close", lambda *a, **k: closed.append(True))
    args = ["--games", "2600", "--seed", "5", "--strategies", LINE_UP, "--chunk-size", "300",
            "--threads", "1", "-q"]
    assert _simulate(*args, "--out", str(tmp_path / "here")) == 0
    assert _simulate(*args, "--out", str(tmp_path / "dask"), "--workers", "2") == 0
    # the command asked for two worker processes of one thread each, and closed them after the run
    assert len(asked) == 1 and asked[0]["n_workers"] == 2 and asked[0]["processes"] is True
    assert asked[0]["threads_per_worker"] == 1 and closed == [True]
    _assert_same_run(tmp_path / "here", tmp_path / "dask")
    meta = json.loads((tmp_path / "dask" / "run.json").read_text(encoding="utf-8"))
    assert meta["executor"]["kind"] == "dask" and meta["executor"]["workers"] == 2


@pytest.mark.parametrize("game,options", [
    ("middle-ages", {"players": 3, "strategies": "balanced,greedy,random", "rotate_seats": True}),
    ("fief-combat", {"attacker": 8, "defender": 7, "terrain": "castle"}),
    ("medievallons", {"players": 4}),
    ("seigneurial", {}),
])
def test_every_game_plays_the_same_on_the_cluster(two_workers, tmp_path, game, options):
    prep = runner.prepare(game, **options)
    kw = dict(games=1200, seed=3, chunk_size=250, threads=1, quiet=True)
    runner.run(prep, out=tmp_path / "here", **kw)
    runner.run(prep, out=tmp_path / "dask", executor=two_workers, **kw)
    _assert_same_run(tmp_path / "here", tmp_path / "dask")


def test_in_memory_runs_collect_the_same_tables_on_the_cluster(two_workers):
    prep = runner.prepare("middle-ages", players=4, strategies="balanced")
    here = runner.collect(prep, games=900, seed=9, chunk_size=200, threads=1)
    there = runner.collect(prep, games=900, seed=9, chunk_size=200, executor=two_workers)
    assert here.players.equals(there.players) and here.games.equals(there.games)
    assert here.by_seat.table().equals(there.by_seat.table())


def test_summary_only_runs_on_the_cluster_write_no_player_rows(two_workers, tmp_path):
    prep = runner.prepare("middle-ages", players=4)
    kw = dict(games=800, seed=1, chunk_size=200, raw=False, quiet=True)
    runner.run(prep, out=tmp_path / "here", threads=1, **kw)
    runner.run(prep, out=tmp_path / "dask", executor=two_workers, **kw)
    assert not (tmp_path / "dask" / "players.parquet").exists()
    for name in ("games.parquet", "summary.parquet", "events_summary.parquet"):
        assert (tmp_path / "here" / name).read_bytes() == (tmp_path / "dask" / name).read_bytes()


# ---------------------------------------------------------------------------------------------
# Refused at once
# ---------------------------------------------------------------------------------------------

def _no_cluster(*_a, **_k):
    raise AssertionError("a cluster was started before the options were checked")


@pytest.mark.parametrize("args,message", [
    (["--workers", "0"], "--workers 0: must be at least 1"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "--workers and --scheduler"),
    (["--workers", "2", "--players", "9"], "--players 9"),
    (["--workers", "2", "--games", "0"], "--games 0"),
    (["--workers", "2", "--strategies", "no-such-bot"], "no-such-bot"),
])
def test_bad_options_are_refused_before_a_cluster_starts(tmp_path, capsys, monkeypatch, args,
                                                         message):
    monkeypatch.setattr(cluster.Cluster, "open", _no_cluster)
    out = tmp_path / "run"
    assert _simulate("--games", "100", *args, "--out", str(out)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not out.exists() and _nothing_in(tmp_path)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_scheduler_nobody_listens_at_is_one_line_and_nothing_written(tmp_path, capsys,
                                                                       monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT_S", 2.0)
    address = f"tcp://127.0.0.1:{_free_port()}"
    assert _simulate("--games", "100", "--scheduler", address, "--out", str(tmp_path / "r")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"--scheduler {address}: no Dask scheduler answered" in err[0]
    assert _nothing_in(tmp_path)


def test_workers_with_another_package_are_refused(two_workers, tmp_path):
    # every task carries the client's package fingerprint; the workers compare it with the one
    # they compute from their own files (a worker joining mid-run is checked the same way).
    # Opened first: opening sets the client's own fingerprint (run alone, this test was the first
    # to open the module's cluster, which then overwrote the one set here)
    two_workers.open()
    real = two_workers._fingerprint
    two_workers._fingerprint = "0.0.1+0000000000000000"
    try:
        prep = runner.prepare("middle-ages", players=2, strategies="greedy")
        with pytest.raises(UsageError, match=r"worker tcp://\S+ has balance-toolkit 0\.1\.0\+\w+, "
                                             r"the client 0\.0\.1\+0+: install the same"):
            runner.run(prep, games=100, out=tmp_path / "r", executor=two_workers, quiet=True)
    finally:
        two_workers._fingerprint = real
    assert _nothing_in(tmp_path)


def test_workers_playing_other_rules_are_refused(two_workers, tmp_path):
    # a run whose rules the workers do not have: the sha256 they compute differs
    prep = runner.prepare("middle-ages", players=2)
    prep.recipe.rules_sha256 = "f" * 64
    with pytest.raises(UsageError, match=r"worker tcp://\S+ plays other rules"):
        runner.run(prep, games=100, out=tmp_path / "r", executor=two_workers, quiet=True)
    assert _nothing_in(tmp_path)


# ---------------------------------------------------------------------------------------------
# Real processes (slow): dask scheduler / dask worker on 127.0.0.1
# ---------------------------------------------------------------------------------------------

class _AfterParts(cluster.Cluster):
    """A cluster executor that calls ``action`` once ``after`` parts were written."""

    def __init__(self, after: int, action, **kw) -> None:
        super().__init__(**kw)
        self.after, self.action, self.seen = after, action, 0

    def play(self, prep, spans, seed, plan, sink, progress=None):
        def counting_sink(part):
            sink(part)
            self.seen += 1
            if self.seen == self.after:
                self.action()
        super().play(prep, spans, seed, plan, counting_sink, progress)


@pytest.mark.slow
def test_a_worker_killed_mid_run_has_its_chunks_played_again_elsewhere(dask_processes, tmp_path):
    address = dask_processes.start_scheduler()
    victim = dask_processes.start_worker()
    dask_processes.start_worker()
    dask_processes.wait_for_workers(address, 2)
    prep = runner.prepare("middle-ages", players=4, strategies=LINE_UP)
    kw = dict(games=200_000, seed=2, chunk_size=5000, quiet=True, raw=True)   # rows compared too
    runner.run(prep, out=tmp_path / "here", threads=1, **kw)
    held = []

    def kill_when_busy():
        # once the run is going, kill the victim while the scheduler has chunks assigned to it
        # (running or queued there): they must be played again by the other worker
        pids = ex.client.run(os.getpid)
        where = next(a for a, pid in pids.items() if pid == victim.pid)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            mine = ex.client.processing().get(where)
            if mine:
                held.extend(mine)
                victim.kill()
                return
            time.sleep(0.002)

    killer = threading.Thread(target=kill_when_busy)
    ex = _AfterParts(2, killer.start, scheduler=address, quiet=True)
    with ex:
        runner.run(prep, out=tmp_path / "dask", executor=ex, **kw)
    killer.join()
    victim.wait(timeout=30)
    assert held and ex.seen == len(runner.chunk_spans(200_000, 5000))   # every chunk written once
    _assert_same_run(tmp_path / "here", tmp_path / "dask")


@pytest.mark.slow
def test_a_scheduler_dying_mid_run_is_one_line_and_nothing_published(dask_processes, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setattr(cluster, "LOST_SCHEDULER_S", 3.0)
    address = dask_processes.start_scheduler()
    dask_processes.start_worker()
    dask_processes.wait_for_workers(address, 1)
    prep = runner.prepare("middle-ages", players=4, strategies="balanced")

    def kill():
        dask_processes.scheduler.kill()
        dask_processes.scheduler.wait(timeout=30)

    out = tmp_path / "runs" / "r"
    with _AfterParts(1, kill, scheduler=address, quiet=True) as ex:
        # a problem of the machines (cluster.ClusterLost, exit 1), not of the input (review s48)
        with pytest.raises(cluster.ClusterLost, match=f"Dask scheduler {address}") as exc:
            runner.run(prep, games=20_000, seed=2, chunk_size=1000, out=out, executor=ex,
                       quiet=True)
    assert "\n" not in str(exc.value)
    assert not out.exists() and (not out.parent.exists() or _nothing_in(out.parent))


@pytest.mark.slow
def test_a_worker_without_the_package_is_one_line(dask_processes, tmp_path, capsys):
    address = dask_processes.start_scheduler()
    # no site: its .pth files (the editable install's finder) are not read; dask is importable
    # from the site-packages folder itself, the toolkit is not
    import distributed

    site = str(Path(distributed.__file__).parents[1])
    bare = tmp_path / "bare"
    bare.mkdir()
    dask_processes.start_worker(pythonpath=site, cwd=bare, python=[sys.executable, "-S"])
    dask_processes.wait_for_workers(address, 1)
    out = tmp_path / "r"
    assert _simulate("--games", "100", "--scheduler", address, "--out", str(out)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "balance-toolkit is not installed there" in err[0], err
    assert not out.exists()


@pytest.mark.slow
def test_a_worker_with_another_version_is_one_line(dask_processes, tmp_path, capsys):
    address = dask_processes.start_scheduler()
    other = tmp_path / "other"
    for pkg in ("simcore", "strategies", "configs", "cli", "analysis", "reports"):
        shutil.copytree(ROOT / pkg, other / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    rules = other / "configs" / "middle_ages" / "rules.toml"
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    dask_processes.start_worker(pythonpath=str(other), cwd=other)
    dask_processes.wait_for_workers(address, 1)
    out = tmp_path / "r"
    assert _simulate("--games", "100", "--scheduler", address, "--out", str(out)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has balance-toolkit 0.1.0+" in err[0], err
    assert "install the same version everywhere" in err[0]
    assert not out.exists()


def test_balance_check_plays_its_run_on_a_running_scheduler(two_workers, tmp_path, capsys):
    # the module's local cluster, reached by its address as --scheduler reaches any cluster
    baseline = ROOT / "configs" / "baselines" / "middle_ages_default.toml"
    codes = []
    for name, extra in (("here", []), ("dask", ["--scheduler", two_workers.address])):
        with pytest.raises(SystemExit) as exc:
            cli.main(["check", "--baseline", str(baseline), "--games", "2000", "--threads", "1",
                      "--save-run", str(tmp_path / name), "--quiet", *extra])
        codes.append(exc.value.code)
    assert codes[0] == codes[1] and codes[0] in (0, 1, 3)     # pass, fail, undecided
    _assert_same_run(tmp_path / "here", tmp_path / "dask")


def test_balance_check_of_a_given_run_refuses_a_cluster(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(cluster.Cluster, "open", _no_cluster)
    baseline = ROOT / "configs" / "baselines" / "middle_ages_default.toml"
    assert _simulate("--games", "200", "--out", str(tmp_path / "r"), "-q") == 0
    with pytest.raises(SystemExit) as exc:
        cli.main(["check", str(tmp_path / "r"), "--baseline", str(baseline), "--workers", "2"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--workers/--scheduler: only for the run the check plays" in err[0]


@pytest.mark.parametrize("rows", [True, False], ids=["with-rows", "without-rows"])
def test_a_sweep_on_the_cluster_writes_the_variants_of_a_local_sweep(two_workers, tmp_path, rows):
    """With rows (each variant alone) and without (the variants played together, issue #27):
    the variants, and without rows the paired sums, a cluster writes are those of the sweep played
    here on one thread (run.json records the chunk size, so both use the same; the sums'
    independence of it: tests/sweep/test_sweep_without_rows.py)."""
    from analysis.sweep.play import plan_sweep, run_sweep

    def plan():
        return plan_sweep("middle-ages", varies=["setup.start_coins[1]=[0,5]", "players=[3,4]"],
                          games=600, seed=17, one_at_a_time_mode=False, raw=rows)

    run_sweep(plan(), tmp_path / "here", threads=1, chunk_size=250)
    run_sweep(plan(), tmp_path / "dask", chunk_size=250, executor=two_workers)
    variants = sorted(p.name for p in (tmp_path / "here" / "variants").iterdir())
    assert len(variants) == 4
    for v in variants:
        _assert_same_run(tmp_path / "here" / "variants" / v, tmp_path / "dask" / "variants" / v,
                         rows=rows)
    if not rows:
        assert (tmp_path / "here" / "paired_stats.json").read_bytes() == \
            (tmp_path / "dask" / "paired_stats.json").read_bytes()


def test_a_tune_on_the_cluster_searches_and_confirms_as_a_local_tune(two_workers, tmp_path):
    """Three trials (five before) at this seed: two candidates played to the last rung and one
    dropped after the first (paired racing against the incumbent's games), so every kind of play a
    search asks of the cluster happens; the two trials more were two more complete candidates
    (and two repeated proposals, nothing played)."""
    from analysis.tune.search import plan_tune, run_tune

    def plan():
        return plan_tune("middle-ages", varies=["setup.start_coins[0]=0..80:20"],
                         settings=["setup.start_coins[1]=40"],
                         targets=["seat-balance:5"], seed=7, trials=3, min_games=400,
                         max_games=1600, eta=2, confirm_games=2000, players=2,
                         strategies="random", stop_when_met=False)

    here = run_tune(plan(), tmp_path / "here", threads=1)
    there = run_tune(plan(), tmp_path / "dask", executor=two_workers)
    assert here["values"] == there["values"]
    def trials(tune):     # every column but the seconds a trial took
        import csv

        rows = list(csv.DictReader((tune / "trials.csv").open(encoding="utf-8")))
        return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]

    assert trials(tmp_path / "here") == trials(tmp_path / "dask")
    # the 3 trials --trials asks for, besides proposals of settings already played (not counted)
    assert len([r for r in trials(tmp_path / "here") if r["state"] != "duplicate"]) == 3
    assert {r["state"] for r in trials(tmp_path / "here")} >= {"complete", "pruned"}
    confirm = sorted((tmp_path / "here" / "confirmations").iterdir())
    assert confirm
    for c in confirm:
        _assert_same_run(c, tmp_path / "dask" / "confirmations" / c.name)


def test_a_check_with_role_metrics_measures_the_same_on_the_cluster(two_workers, tmp_path):
    from analysis.check.baseline import make_baseline
    from cli.check import run_check

    prep = runner.prepare("seigneurial", players=4)
    # a small run: wide tolerances (in pp and in the score's unit) keep its baseline usable
    wide = {k: 25.0 for k in ("seat_win_share", "strategy_win_share", "seat_mean_score",
                              "role_win_share")}
    base = make_baseline(runner.run(prep, games=3000, seed=3, out=tmp_path / "run", quiet=True),
                         tmp_path / "base.toml", tolerance=wide, batch=1000)
    here = run_check(base, games=2000, threads=1)
    there = run_check(base, games=2000, executor=two_workers)
    assert any(r.metric == "role_win_share" for r in here.results)
    assert here.exit_code == there.exit_code
    assert [(r.metric, r.key, r.value) for r in here.results] == \
        [(r.metric, r.key, r.value) for r in there.results]


# ---------------------------------------------------------------------------------------------
# A worker of a LocalCluster (--workers N) lost at any moment costs only time (issue 28, item 5)
# ---------------------------------------------------------------------------------------------

class _LosesAWorker(_AfterParts):
    """A ``--workers 2`` cluster (LocalCluster: each worker a process under a nanny) that kills one
    worker process with SIGKILL at ``when``: "connect" (just before the version check asks every
    worker), "warm" (just before the warm-up asks every worker) or "play" (mid-run, while the
    scheduler has chunks on that worker)."""

    def __init__(self, when: str, **kw) -> None:
        super().__init__(3, self._start_killer if when == "play" else (lambda: None), workers=2,
                         threads=1, quiet=True, **kw)
        self.when, self.killed, self.calls, self.killer = when, [], 0, None

    def _start_killer(self) -> None:
        # in a thread of its own: polled from the sink, the run stood still until every chunk in
        # flight had finished, and on a quick machine none was left on a worker to be killed
        import threading

        self.killer = threading.Thread(target=self._kill_when_busy)
        self.killer.start()

    def _kill_one(self) -> None:
        import signal

        pids = self.client.run(os.getpid)
        addr, pid = sorted(pids.items())[0]
        os.kill(pid, signal.SIGKILL)
        self.killed.append((addr, pid))

    def _kill_when_busy(self) -> None:
        deadline = time.monotonic() + 60
        pids = self.client.run(os.getpid)
        while time.monotonic() < deadline:
            for addr, tasks in self.client.processing().items():
                if tasks and addr in pids:
                    import signal

                    os.kill(pids[addr], signal.SIGKILL)
                    self.killed.append((addr, pids[addr]))
                    return
            time.sleep(0.002)

    def _run_everywhere(self, fn, *args):
        self.calls += 1
        if (self.when, self.calls) in (("connect", 1), ("warm", 2)):
            self._kill_one()
        return super()._run_everywhere(fn, *args)


@pytest.fixture(scope="module")
def lost_worker_reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("lost-worker") / "here"
    prep = runner.prepare("middle-ages", players=4, strategies=LINE_UP)
    runner.run(prep, out=out, threads=1, games=24_000, seed=6, chunk_size=1000, quiet=True)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("when", ["connect", "warm", "play"])
def test_a_local_cluster_worker_killed_at_any_moment_costs_only_time(when, lost_worker_reference, tmp_path):
    prep = runner.prepare("middle-ages", players=4, strategies=LINE_UP)
    ex = _LosesAWorker(when)
    with ex:
        runner.run(prep, out=tmp_path / "dask", executor=ex, games=24_000, seed=6, chunk_size=1000,
                   quiet=True)
    if ex.killer is not None:
        ex.killer.join()
    assert len(ex.killed) == 1, ex.killed           # the loss did happen
    assert ex.seen > 3                              # (a "play" loss comes after part 3)
    _assert_same_run(lost_worker_reference, tmp_path / "dask")


def test_a_scheduler_run_records_the_threads_its_workers_played_with(two_workers, tmp_path):
    """run.json's ``threads`` was null for a --scheduler run (review s46): each worker plays with
    its own Numba threads, which the workers themselves are asked for here, independently of the
    warm-up that records them."""
    import numba

    out = tmp_path / "r"
    assert _simulate("--games", "300", "--scheduler", two_workers.address, "--out", str(out), "-q") == 0
    meta = json.loads((out / "run.json").read_text(encoding="utf-8"))
    asked = two_workers.client.run(numba.get_num_threads)
    assert meta["executor"]["threads_per_worker"] == dict(sorted(asked.items()))
    assert len(set(asked.values())) == 1 and meta["threads"] == next(iter(asked.values()))
