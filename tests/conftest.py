"""Suite-wide hooks: the CPU each test costs, and the slowest tests listed after every run.

``--cpu-top N`` (the Makefile passes 15) prints, after the run, the N tests that cost the most CPU
seconds (this process and its threads, plus the processes it started and waited for: setup, call
and teardown together, module fixtures counted where they ran) beside their wall time, and the
suite's total. CPU seconds are the figure to compare: the machine is shared, so wall time moves
with everyone else's load. docs/testing.md gives the per-test budget this list is read against.
(No test asserts a time: the list is for people.)

Also: the costliest test files are handed out first (COSTLY_FIRST, with the Makefile's
``--no-loadscope-reorder``), test files sharing a session fixture go to one xdist worker
(SAME_WORKER), and a game a test module registers is taken out of the registry after that module.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import time
from pathlib import Path

import pytest

# As the command line sets it (cli/__init__.py): numpy's BLAS on one thread, before any test
# module imports numpy. Two xdist workers with two OpenBLAS threads each on two cores spun more
# than they computed: the analysis tests took 78.9 s of CPU with the default, 47.4 s with one thread.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# Python's cyclic garbage collector less often than its default (700, 10, 10): a test worker holds
# numpy, Numba, matplotlib, scipy, statsmodels and dask, and every full collection walks all of
# their objects. Measured (gc.callbacks timing each collection, `pytest -n 2 --dist loadfile`,
# whole suite): 14 s of CPU per worker in 7,000-7,500 collections, 11 s of it full ones; on five
# report, sweep and analysis files in one process, 1.66 s of CPU with the default against 0.41 s
# with these thresholds (598 collections against 1,349). Nothing a test checks depends on when
# cyclic garbage is freed; the command lines the tests start keep Python's default.
gc.set_threshold(2000, 20, 50)

_CPU = pytest.StashKey[float]()


def _cpu_now() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pytest_addoption(parser):
    parser.addoption("--cpu-top", type=int, default=0, metavar="N",
                     help="after the run, list the N tests that cost the most CPU seconds")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # makereport runs right after each phase (setup, call, teardown): the CPU since the previous
    # phase ended (or since the test started) is this phase's
    start = item.stash.get(_CPU, None)
    outcome = yield
    now = _cpu_now()
    if start is not None:
        outcome.get_result().user_properties.append(("cpu_s", round(now - start, 3)))
    item.stash[_CPU] = now


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item.stash[_CPU] = _cpu_now()
    yield


class _CpuTable:
    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.wall: dict[str, float] = {}
        self.start = time.time()
        self.workers: dict[str, dict[str, tuple[float, float]]] = {}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node, error):
        # (an xdist hook) the worker's timeline, sent with its last message: see _worker_timeline
        timeline = getattr(node, "workeroutput", {}).get("timeline")
        if timeline:
            self.workers[node.gateway.id] = timeline

    def pytest_runtest_logreport(self, report):
        for key, value in report.user_properties:
            if key == "cpu_s":
                self.cpu[report.nodeid] = self.cpu.get(report.nodeid, 0.0) + value
        self.wall[report.nodeid] = self.wall.get(report.nodeid, 0.0) + report.duration

    def pytest_terminal_summary(self, terminalreporter, config):
        n = config.getoption("--cpu-top")
        if not self.cpu:
            return
        tr = terminalreporter
        tr.write_sep("=", f"{n} tests costing the most CPU (budget: docs/testing.md)")
        for nodeid, cpu in sorted(self.cpu.items(), key=lambda kv: -kv[1])[:n]:
            tr.write_line(f"{cpu:7.1f} s CPU {self.wall.get(nodeid, 0.0):7.1f} s wall  {nodeid}")
        tr.write_line(f"{sum(self.cpu.values()):7.1f} s CPU in {len(self.cpu)} tests "
                      "(the test processes and what they started; without collection)")
        for name, t in sorted(self.workers.items()):
            # when each worker was ready, had collected, had run its last test (wall from the start
            # of this run), and its CPU at each: the two should end together (docs/testing.md)
            (w0, c0), (w1, c1), (w2, c2) = t["configured"], t["collected"], t["finished"]
            tr.write_line(f"{name}: started +{w0 - self.start:.0f} s ({c0:.1f} s CPU), collected "
                          f"+{w1 - self.start:.0f} s ({c1 - c0:.1f} s CPU), tests done "
                          f"+{w2 - self.start:.0f} s ({c2 - c1:.1f} s CPU)")


def pytest_configure(config):
    if config.getoption("--cpu-top", 0) > 0 and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_CpuTable(), "cpu-table")
    if hasattr(config, "workerinput"):
        config.stash[_TIMELINE] = {"configured": (time.time(), _cpu_now())}


_TIMELINE = pytest.StashKey[dict]()


def pytest_collection_finish(session):
    timeline = session.config.stash.get(_TIMELINE, None)
    if timeline is not None:
        timeline["collected"] = (time.time(), _cpu_now())


def pytest_sessionfinish(session):
    """An xdist worker sends its timeline (wall time and CPU when configured, when its tests were
    collected, when its last test ended) to the controller with its last message."""
    timeline = session.config.stash.get(_TIMELINE, None)
    if timeline is not None and "collected" in timeline:
        timeline["finished"] = (time.time(), _cpu_now())
        session.config.workeroutput["timeline"] = timeline


# The test files costing the most CPU (clean-clone `make test`, docs/testing.md), handed to the
# xdist workers first: with `--dist loadfile` a file runs whole on one worker, and xdist's own
# order (most tests first) left these few-test, costly files for the end, one worker running them
# while the other had finished. A file not listed keeps its place after them.
COSTLY_FIRST = (
    # make test-slow's costliest files (CPU seconds, session 43: 435, 208, 157, 124, 115, 97, 87,
    # 85, 49, 44), so that the longest is not the last one a worker starts; make test deselects
    # their slow tests, and what is left of them is cheap
    "tests/analysis/test_race_paired.py", "tests/reliability/test_hostile.py",
    "tests/reports/test_panel_compare_coverage.py", "tests/analysis/test_multiplicity_and_maxima.py",
    "tests/medievallons/test_mv_kernel_boundscheck.py", "tests/fief/test_review_k_agreement.py",
    "tests/fief/test_fief_exact_odds.py", "tests/reports/test_seat_family.py",
    "tests/middle_ages/test_kernel_boundscheck.py", "tests/stats/test_rotated_deal_bound_coverage.py",
    # make test's: CPU seconds of a clean clone's run after the warm-up, costliest first (session
    # 58: 10.9 s to 2.8 s; the search hooks, test_mistakes.py, test_kernel_variants.py and
    # test_s46_rollout_hidden.py compile what only they call: kernel functions from Python,
    # deliberately broken Pigs); a file's place matters only among the costly ones, the rest
    # follow in xdist's order
    "tests/conformance/test_search_hooks.py", "tests/middle_ages/test_s50_ablation_slices.py",
    "tests/sweep/test_s58_imbalance_names_the_rival_seats.py", "tests/test_readme.py",
    "tests/medievallons/test_s53_ablation_founders.py", "tests/seigneurial/test_sg_card_ablation.py",
    "tests/conformance/test_mistakes.py", "tests/reports/test_start_coins_caution_pages.py",
    "tests/fief/test_s52_fief_review.py", "tests/medievallons/test_mv_kernel_vs_reference.py",
    "tests/reports/test_s55_page_decimals.py", "tests/reports/test_start_coins_caution_review.py",
    "tests/test_s50_sweep_unfinished_edge.py", "tests/sweep/test_s46_sweep_review.py",
    "tests/conformance/test_game_contract.py", "tests/seigneurial/test_sg_kernel_vs_reference.py",
    "tests/middle_ages/test_kernel_variants.py", "tests/middle_ages/test_s46_rollout_hidden.py",
    "tests/middle_ages/test_kernel_vs_reference.py",
)


# A file whose every test is slow (``pytestmark = pytest.mark.slow`` on a line of its own) is not
# even imported when the run deselects the slow tier (``-m "not slow"``, make test's default): each
# xdist worker imports every test file it collects, and rewriting a file's asserts and importing
# it cost its share of the ~20 s of CPU a worker spends collecting, for tests it then deselects.


def pytest_ignore_collect(collection_path, config):
    if (collection_path.suffix == ".py" and collection_path.name.startswith("test_")
            and (config.option.markexpr or "").replace(" ", "") == "notslow"):
        try:
            from warm_kernels import is_whole_file_slow

            return is_whole_file_slow(Path(collection_path)) or None
        except OSError:
            return None
    return None


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(COSTLY_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


# Test files that read the same session-scoped fixture (named on the right: it is built once per
# xdist worker), handed to one worker together, as one unit of `--dist loadfile`'s work: spread
# over both workers, each would build it.
SAME_WORKER = {
    "tests/reports/test_report.py": "middle_ages_report",
    "tests/reports/test_report_game_words.py": "middle_ages_report",
    "tests/reports/test_report_flow_by_turn.py": "middle_ages_report",
    "tests/reports/test_s62_fair_share_one_value.py": "middle_ages_report",
    "tests/middle_ages/test_event_ablation.py": "middle_ages_report",
    "tests/reports/test_s46_rare_ends.py": "harsh_lord_run",
    "tests/reports/test_s46_length_figure.py": "harsh_lord_run",
}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadfile`` with SAME_WORKER's files as one unit (other files: one unit each)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class FilesSharingFixturesTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SAME_WORKER.get(path, path)

    return FilesSharingFixturesTogether(config, log)


@pytest.fixture(autouse=True, scope="module")
def _registry_restored_after_each_module():
    """A test module that registers a game (a renamed copy, a broken Pig) takes it away with it:
    the registry is a process-wide list, and the next module on the same xdist worker (which one
    depends on the order files are handed out) would otherwise see the game among the shipped ones
    (tests/replay/test_replay.py failed so once the costliest files went first)."""
    from simcore import games as registry

    before = registry.REGISTRY
    yield
    if registry.REGISTRY != before:
        registry.REGISTRY = before
        registry._specs = None


@pytest.fixture(scope="session")
def middle_ages_report(tmp_path_factory) -> tuple[Path, Path]:
    """``simulate --games 2000 --seed 3`` (Middle-Ages, its 4 players and balanced line-up by
    default) and ``balance report RUN`` of it: (the run, the report's folder). Three test files
    read it (SAME_WORKER keeps them on one xdist worker): each played and drew the same run and
    report of its own (about 3 s of CPU each), and an ablation test drew it to see that a plain
    report plays no questions."""
    from cli import _run

    root = tmp_path_factory.mktemp("ma2000")
    run, out = root / "run", root / "report"
    assert _run(["simulate", "--games", "2000", "--seed", "3", "--out", str(run), "--quiet"]) == 0
    meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
    assert (meta["game"], meta["players"], meta["strategies"]) == ("middle-ages", 4, ["balanced"] * 4)
    assert _run(["report", str(run), "--out", str(out)]) == 0
    return run, out
