"""Process start of a small run (issue #27 item 5): what a `simulate` process imports, the command
table that lets `balance CMD` import one command module, and the options converted without
pydantic exactly as Typer's own adapters convert them."""

from __future__ import annotations

import json
import os
from collections import Counter
import subprocess
import sys
from pathlib import Path

import pytest
import typer

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

ROOT = Path(__file__).resolve().parents[1]

# imported by a small `simulate` run only if something on its path asks for them needlessly
NOT_IMPORTED = ("pydantic", "polars", "matplotlib", "dask", "distributed", "optuna", "rich",
                "pyarrow.compute", "scipy.linalg", "pandas", "analysis", "reports",
                # Numba's registries of implementations: only a compilation needs them
                "numba.np.random.generator_core", "numba.typed.typeddict", "numba.np.arraymath",
                # Numba's typeof of an array asks numpy for numpy.ma (0.04-0.05 s to import)
                "numpy.ma",
                # the module of the np.empty/np.zeros implementations the kernel inlines: their
                # cached environments are made without importing it (simcore.numba_cache)
                "numba.np.arrayobj", "numba.cpython.unicode",
                # Numba's threading layer (the kernels play on a Python thread pool) and
                # multiprocessing, which starting it imports (simcore.options.set_threads)
                "numba.np.ufunc.omppool", "numba.np.ufunc.tbbpool", "numba.np.ufunc.workqueue",
                "multiprocessing")

_CHILD = """
import json, sys
import cli
rc = cli._run(sys.argv[2:], prog="simulate", target=cli._simulate_app())
print(json.dumps({"rc": rc, "modules": sorted(m for m in sys.modules if m.split('.')[0] in
      {m.split('.')[0] for m in json.loads(sys.argv[1])})}))
"""


def test_a_small_simulate_run_imports_neither_the_analysis_stack_nor_numbas_registries(tmp_path):
    args = ["--games", "300", "--out", str(tmp_path / "run"), "--force", "-q"]
    # the first process may compile (a cold cache: compiling imports Numba's registries); then a
    # second one loads the cached kernel and is the one judged. With the cache warm (the suite's
    # warm-up) the first already loads it: judged alone, one Python start (1.1 s CPU) less
    for _ in range(2):
        out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(NOT_IMPORTED), *args],
                             capture_output=True, text=True, cwd=ROOT, check=True)
        result = json.loads(out.stdout.strip().splitlines()[-1])
        assert result["rc"] == 0
        loaded = [m for m in NOT_IMPORTED
                  if any(x == m or x.startswith(m + ".") for x in result["modules"])]
        if not loaded:
            break
    assert loaded == [], f"a 300-game simulate imported {loaded}"


def test_the_command_table_names_the_module_of_every_command():
    import importlib

    import cli

    found = {}
    for name in cli._COMMAND_MODULES:
        app = typer.Typer()
        importlib.import_module(f"cli.{name}").register(app)
        for c in app.registered_commands:
            found[c.name or c.callback.__name__] = name
    # the commands the games' specs add (cli.tables) go through the full registration
    assert {name: m for name, m in found.items() if m != "tables"} == cli.COMMAND_MODULE


def test_a_command_run_in_a_process_that_registered_every_command_builds_only_its_own():
    """``cli._app_for`` answers as a new process would, whatever an earlier call registered: the
    root and the named command's module only (the tests run hundreds of commands in one process:
    with every module registered, each call converted the whole tree of commands to click's,
    ~30 ms of CPU instead of 2-8), every module for ``--help`` or a name the table does not list."""
    import cli

    cli._register_all()
    for name, module in (("export", "export"), ("baseline", "check"), ("strategies", "strategies")):
        app = typer.Typer()
        __import__(f"cli.{module}", fromlist=["register"]).register(app)
        own = {c.name or c.callback.__name__ for c in app.registered_commands}
        own |= {g.name for g in app.registered_groups}
        command = typer.main.get_command(cli._app_for([name, "--help"]))
        assert set(command.commands) == own, name
        assert "--version" in {o for p in command.params for o in p.opts}
    everything = typer.main.get_command(cli._app_for(["--help"]))
    assert set(cli.COMMAND_MODULE) <= set(everything.commands)


def _all_plain_options():
    import cli

    command = typer.main.get_command(cli.app)
    cli._plain_options(command)
    out = []
    for sub in command.commands.values():
        for p in sub.params:
            if type(getattr(p, "_runtime_param", None)).__name__ == "Plain":
                out.append(p)
    return out


VALUES = {str: ["abc", "", "1e6", " padded ", "é–≥"], int: ["0", "-3", "42", "123456789012345678"],
          bool: [True, False], "list[str]": [("a=1", "b"), ()], "list[Path]": [("runs/a", "/tmp")]}


def _outcome(convert, value, param):
    """What a converter makes of ``value``: the value and its type, or the error it raises."""
    try:
        out = convert._coerce_value(value, param=param, ctx=None)
    except Exception as exc:           # e.g. a path that must exist: both must say the same
        return ("error", type(exc).__name__, str(exc))
    return (out, type(out))


def test_plain_options_convert_values_exactly_as_typers_adapters():
    from typer._coercion import build_runtime_param

    import cli

    params = _all_plain_options()
    assert len(params) > 50           # every command's plain options, not a handful
    kinds_seen = set()
    for p in params:
        desc = p.type_descriptor
        kind = cli._plain_type(desc.annotation)
        kinds_seen.add(kind if isinstance(kind, str) else kind.__name__)
        samples = VALUES.get(kind, ["runs/x", "/tmp", "a b/c.toml"])
        for v in samples:
            if kind == "list[str]" and not v:
                continue
            mine = _outcome(p._runtime_param, v, p)
            typers = _outcome(build_runtime_param(desc), v, p)
            assert mine == typers, (p.name, v, mine, typers)
    assert {"str", "int", "bool", "Path", "list[str]", "list[Path]"} <= kinds_seen


def test_values_the_plain_path_does_not_know_still_get_typers_messages():
    """In this process (what a command says, not how its process starts: tests/in_process.py)."""
    import contextlib
    import io

    import cli

    out = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(out):
        rc = cli._run(["--seed", "x1", "--games", "10"], prog="simulate", target=cli._simulate_app())
    assert rc == 2
    assert out.getvalue().strip() == ("error: Invalid value for '--seed': Input should be a valid integer, "
                                  "unable to parse string as an integer")


@pytest.mark.parametrize("text", ["007", "+5", "1_000", " 5", "٣"])
def test_whole_numbers_in_other_spellings_are_left_to_typer(text):
    import cli

    done, _ = cli._plain_value(int, text, None, None, None)
    assert not done


def test_a_report_imports_neither_pydantic_nor_numba(tmp_path):
    """The report's figures are built but undrawn (tests/undrawn_figures.py: 1x1 stand-ins, 2.1 s
    of CPU instead of 5.3): drawing (reports.figures.draw) may import only matplotlib and the
    standard library, and runs in a forked child whose imports this process never sees anyway."""
    from simcore import runner

    run = runner.simulate("middle-ages", games=200, seed=1, out=tmp_path / "run", players=4)
    code = ("import json, sys, cli\n"
            "from undrawn_figures import figures_undrawn\n"
            "with figures_undrawn():\n"
            "    rc = cli._run(['report', sys.argv[1], '--out', sys.argv[2]])\n"
            "print(json.dumps([rc] + [m for m in ('pydantic', 'numba', 'simcore.replay') "
            "if m in sys.modules]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT), *sys.path])}
    out = subprocess.run([sys.executable, "-c", code, str(run), str(tmp_path / "rep")],
                         capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [0]
    assert "balance replay" in (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")


_CONSOLE = """
import atexit, sys, threading, time
import cli
atexit.register(lambda: print("atexit handler ran", flush=True))
returned = threading.Event()
command = cli._run

def run_and_say(*args, **kwargs):   # the command itself, then a word to the thread below
    try:
        return command(*args, **kwargs)
    finally:
        returned.set()

cli._run = run_and_say

def late():     # still working when the command returns: a normal exit waits for it
    returned.wait(60)       # (was: polling for run.json, 5 s of waiting when none is written)
    time.sleep(0.5)
    print("thread finished")

threading.Thread(target=late).start()
cli.simulate_main()
"""


@pytest.mark.parametrize("bad", [False, True])
def test_a_console_script_ends_after_the_threads_and_exit_handlers_with_its_exit_code(tmp_path, bad):
    """simulate/balance started as console scripts end with os._exit (no interpreter teardown),
    after what a normal exit does first: other threads joined, atexit handlers run, output
    flushed; the exit code is the command's."""
    out = tmp_path / "run"
    args = ["--games", "50", "--out", str(out), "-q"] + (["--players", "9"] if bad else [])
    r = subprocess.run([sys.executable, "-c", _CONSOLE, *args], capture_output=True, text=True,
                       cwd=ROOT)
    assert r.returncode == (2 if bad else 0), r.stderr
    lines = r.stdout.splitlines()
    assert lines[-2:] == ["thread finished", "atexit handler ran"]
    if bad:
        assert r.stderr.startswith("error: ") and len(r.stderr.splitlines()) == 1
        assert not out.exists()
    else:
        assert lines[0] == str(out)
        assert (out / "run.json").exists() and (out / "stats.json").exists()


_START = """
import atexit, ctypes, gc, json, sys, tempfile
libc_class = ctypes.CDLL
collections = []
gc.callbacks.append(lambda phase, info: phase == "start" and collections.append(info["generation"]))
tested = []
numbas_test = tempfile.TemporaryFile

def counted(*args, **kwargs):       # Numba's test of a cache folder: a file made and deleted
    tested.append(kwargs.get("dir"))
    return numbas_test(*args, **kwargs)

tempfile.TemporaryFile = counted
import cli
collections.clear()                         # (importing cli itself, typer: before the command)
cli.START_WITHOUT_COLLECTOR_S = 600.0       # the whole command in the pause, however slow
during = []
command = cli._run
asked = []
libc = ctypes.CDLL(None)

class RecordingLibc:            # glibc as the command finds it, its mallopt calls recorded
    def __getattr__(self, name):
        return getattr(libc, name)

    @property
    def mallopt(self):
        real = libc.mallopt

        class Recorded:
            argtypes = restype = None

            def __call__(self, option, value):
                asked.append([option, value])
                real.argtypes, real.restype = self.argtypes, self.restype
                return real(option, value)

        return Recorded()

ctypes.CDLL = lambda name, *a, **k: RecordingLibc() if name is None else libc_class(name, *a, **k)

def run_and_count(*args, **kwargs):
    try:
        return command(*args, **kwargs)
    finally:
        during.extend(collections)

cli._run = run_and_count
atexit.register(lambda: print(json.dumps({"collections": during, "enabled": gc.isenabled(),
                                          "tested": tested, "mallopt": asked}), flush=True))
cli.simulate_main()
"""


def test_a_console_command_starts_without_the_collector_and_tests_each_cache_folder_once(tmp_path):
    """The start of a console command (issue #27 item 5): no cyclic garbage collection while it
    imports and loads its kernels (cli._start_without_collector; the collector is on again when
    the command ends), Numba's test that a cache folder is writable made once per folder, not
    once per jitted function (simcore.numba_cache._ensure_cache_path_once), and glibc asked to keep
    freed blocks of a chunk's size in its heap rather than map and zero them afresh for every
    chunk (cli._keep_freed_memory: the request itself is what is checked)."""
    out = tmp_path / "run"
    # without glibc's MALLOC_*_ variables, which the command leaves to the user when set (Dask's
    # nanny sets MALLOC_TRIM_THRESHOLD_ in the process that starts a local cluster: a cluster test
    # earlier on the same pytest worker made this child skip the call in two clean-clone runs)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    r = subprocess.run([sys.executable, "-c", _START, "--games", "16", "--out", str(out), "-q"],
                       capture_output=True, text=True, cwd=ROOT, env=env)
    assert r.returncode == 0, r.stderr
    seen = json.loads(r.stdout.splitlines()[-1])
    assert (out / "stats.json").exists()
    assert seen["collections"] == [], "the collector ran during the command's start"
    assert seen["enabled"], "the collector stayed off after the command"
    folders = [d for d in seen["tested"] if d is not None]
    # glibc asked to keep freed blocks of a chunk's size in the heap (M_MMAP_THRESHOLD -3, then
    # M_TRIM_THRESHOLD -1); measured (docs/cluster.md, session 30): half the page faults of a run
    keep = 256 << 20
    assert seen["mallopt"] == [[-3, keep], [-1, keep]], seen["mallopt"]
    twice = {d: n for d, n in Counter(folders).items() if n > 1}
    assert twice == {}, f"cache folders tested more than once (folder: times): {twice}"


def test_the_start_pause_gives_the_collector_back_after_its_time_or_at_the_end(monkeypatch):
    """cli._start_without_collector: off inside; on again when its timer ends (a long command
    collects as before) or when the block ends, whichever is first; a process whose collector
    was off before is left with it off."""
    import gc
    import time

    import cli

    assert gc.isenabled()
    monkeypatch.setattr(cli, "START_WITHOUT_COLLECTOR_S", 0.05)
    try:
        with cli._start_without_collector():
            assert not gc.isenabled()
            deadline = time.monotonic() + 10
            while not gc.isenabled() and time.monotonic() < deadline:
                time.sleep(0.01)
            assert gc.isenabled(), "the timer did not give the collector back"
        monkeypatch.setattr(cli, "START_WITHOUT_COLLECTOR_S", 600.0)
        with cli._start_without_collector():
            assert not gc.isenabled()
        assert gc.isenabled()
        gc.disable()
        with cli._start_without_collector():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_statistics_helpers_compile_only_the_listed_specialisations(monkeypatch):
    """Each statistics helper takes one dtype per argument, so a cold run compiles one
    specialisation per column dtype: the ones accumulate.helpers_for lists for its configuration
    and no other (a helper typed on whatever arrives would compile again for every caller's
    dtypes, seconds of a cold first run)."""
    from simcore import accumulate, runner

    for game, options in (("middle-ages", dict(players=4)),
                          ("middle-ages", dict(players=4, strategies="balanced,greedy,random,balanced")),
                          ("medievallons", dict(players=3, rotate_seats=True,
                                                strategies="balanced,random,balanced")),
                          ("seigneurial", dict(players=4)), ("fief-combat", {})):
        monkeypatch.setattr(accumulate, "_COMPILED", {})     # this run's specialisations only
        prep = runner.prepare(game, **options)
        n = 6 * prep.games_per_deal
        runner.make_part(prep, prep.play(0, n, 1), 0, n,
                         runner.PartPlan(tuple(prep.players_schema.names)))
        dtypes = {f.name: str(f.type) for f in (*prep.players_schema, *prep.games_schema)}
        ahead = accumulate.helpers_for(runner.stats_layout(prep), dtypes)
        listed = accumulate.helper_signatures()
        for name, dispatcher in accumulate._COMPILED.items():
            assert name in ahead, (game, name)
            want = {sig for sig in listed[name][1]
                    if not ahead[name] or str(sig[0].dtype) in ahead[name]}
            extra = set(dispatcher.signatures) - want
            assert not extra, f"{game}: {name} compiled for {sorted(map(str, extra))}, not ahead"


def test_the_array_types_numba_sees_are_its_own_without_numpy_ma():
    """simcore.numba_cache types plain numpy arrays itself (no numpy.ma import): the same Numba
    type as Numba's own function for every dtype, layout and writeability; anything else (masked
    arrays, unsupported dtypes) gets Numba's own answer or error."""
    import numpy as np
    from numba.core import errors
    from numba.core.typing.typeof import Purpose, typeof

    from simcore import numba_cache

    numba_own = numba_cache._typeof_ndarray_numba
    base = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    arrays = []
    for dt in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
               np.float32, np.float64, np.bool_, np.complex128):
        a = base.astype(dt)
        ro = a.copy()
        ro.flags.writeable = False
        arrays += [a, a[0], a.ravel(), np.asfortranarray(a), a[:, ::2], a[0, :, 1], ro, ro[1],
                   np.zeros(0, dt), np.array(1, dt)]
    for a in arrays:
        assert typeof(a, Purpose.argument) == numba_own(a, None), (a.dtype, a.shape, a.strides)
    masked = np.ma.masked_array([1, 2], mask=[0, 1])
    with pytest.raises(errors.NumbaTypeError):
        typeof(masked, Purpose.argument)
    objects = np.zeros(2, np.longdouble)                    # a dtype Numba does not take
    with pytest.raises(Exception) as ours:
        numba_cache._typeof_plain_ndarray(objects, None)
    with pytest.raises(Exception) as theirs:
        numba_own(objects, None)
    assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)


_CACHED = """
import json, sys
import numpy as np
import simcore.numba_cache as nc          # (what every kernel module imports first)
from llvmlite import binding as ll
from numba import njit
from numba.core.runtime import nrtdynmod

import importlib.metadata as metadata
calls = {"parse_bitcode": 0, "create_nrt_module": 0, "entry_points": 0}

def counted(module, name):
    real = getattr(module, name)
    def wrapper(*args, **kwargs):
        calls[name] += 1
        return real(*args, **kwargs)
    setattr(module, name, wrapper)

counted(ll, "parse_bitcode")
counted(nrtdynmod, "create_nrt_module")
counted(metadata, "entry_points")

@njit(cache=True)
def halves(n):
    out = np.empty(n)                     # numba.np.arrayobj's implementation, inlined
    for i in range(n):
        out[i] = i * 0.5
    return out

first = {"sum": float(halves(5).sum()), "arrayobj": "numba.np.arrayobj" in sys.modules,
         "deferred": len(nc._DEFERRED_ENVS), **calls}

@njit
def caller(n):                            # compiled here: links halves' cached IR
    return halves(n).sum() + 1.0

then = {"sum": float(caller(5)), "parse_bitcode": calls["parse_bitcode"]}
from numba.core.environment import Environment
import numba.np.arrayobj as arrayobj
envs = [e for e in list(Environment._memo.values()) if e.globals.get("__name__") == arrayobj.__name__]
then["filled"] = bool(envs) and all(e.globals.get("empty_like") is arrayobj.__dict__.get("empty_like")
                                    and e.globals.get("__file__") == arrayobj.__file__ for e in envs)
print(json.dumps({"first": first, "then": then}))
"""


def test_a_cached_function_loads_without_numbas_array_module_its_ir_or_compiling_the_runtime(tmp_path):
    """Loading a cached function (simcore.numba_cache): its environments of Numba's own modules
    are made without importing them (numba.np.arrayobj, 0.05-0.08 s) and given the module's
    globals once a compilation imports it; its IR is not parsed until a caller compiled later
    links it; the runtime's (NRT) functions come from an object-code file beside the cache
    instead of LLVM at every start. Results are Numba's in each process."""
    (tmp_path / "cached_mod.py").write_text(_CACHED)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT), *sys.path]),
           "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def run() -> dict:
        out = subprocess.run([sys.executable, str(tmp_path / "cached_mod.py")], cwd=tmp_path,
                             env=env, capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    compiled, loaded = run(), run()
    assert compiled["first"]["sum"] == loaded["first"]["sum"] == 5.0
    assert compiled["first"]["create_nrt_module"] == 1          # compiled once, then kept
    assert list((tmp_path / "cache").rglob("numba-nrt-*.nbo"))
    first = loaded["first"]
    assert (first["create_nrt_module"], first["parse_bitcode"], first["arrayobj"]) == (0, 0, False)
    assert compiled["first"]["entry_points"] == first["entry_points"] == 0    # no extension here
    assert first["deferred"] > 0
    assert loaded["then"]["sum"] == compiled["then"]["sum"] == 6.0
    assert loaded["then"]["parse_bitcode"] > 0 and loaded["then"]["filled"]


def test_the_names_a_loaded_library_defines_are_numbas():
    """The defined-symbol scan without llvmlite's wrappers (simcore.numba_cache) and the names
    read from a library's object code (a subset, the rest found by a scan when asked) agree
    with Numba's own scan of the same module."""
    import numpy as np
    from numba import njit
    from numba.core import codegen

    from simcore import numba_cache as nc

    @njit
    def grid(n):
        out = np.zeros((n, 2))
        for i in range(n):
            out[i, 0] = i
        return out

    grid(3)
    library = grid.overloads[grid.signatures[0]].library
    module = library._get_module_for_linking()
    numba_own = codegen.JitEngine.__new__(codegen.JitEngine)
    numba_own._defined_symbols = set()
    nc._real_env["load_defined_symbols"](numba_own, module)
    light = codegen.JitEngine.__new__(codegen.JitEngine)
    light._defined_symbols = set()
    nc._load_defined_symbols_light(light, module)
    assert light._defined_symbols == numba_own._defined_symbols and len(light._defined_symbols) > 3
    from_object = nc._elf_defined_symbols(library._codegen._tm.emit_object(library._final_module))
    if from_object is not None:                       # (an ELF platform)
        assert set(from_object) <= numba_own._defined_symbols
        assert any(n.startswith("_ZN") for n in from_object)


def test_numba_extensions_are_found_where_importlib_metadata_finds_them(tmp_path, monkeypatch):
    """Numba's start skips its scan of every distribution's entry points when no distribution
    declares a ``numba_extensions`` one (simcore.numba_cache): never when importlib.metadata
    finds one, as for a distribution on the path that declares it."""
    import importlib.metadata as metadata

    from simcore import numba_cache as nc

    def numba_finds() -> bool:
        return bool(list(metadata.entry_points().select(group="numba_extensions", name="init")))

    assert nc._may_declare_numba_extensions() or not numba_finds()
    for path_entry, info_name in (("a", "fake_ext-1.0.dist-info"), ("b", "fake_ext.egg-info"),
                                  ("c/fake_ext.egg", "EGG-INFO")):
        info = tmp_path / path_entry / info_name
        info.mkdir(parents=True)
        for meta in ("METADATA", "PKG-INFO"):
            (info / meta).write_text("Metadata-Version: 2.1\nName: fake-ext\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text("[numba_extensions]\ninit = fake_ext:init\n")
        with monkeypatch.context() as m:
            m.syspath_prepend(str(tmp_path / path_entry))
            assert numba_finds(), info_name
            assert nc._may_declare_numba_extensions(), info_name
