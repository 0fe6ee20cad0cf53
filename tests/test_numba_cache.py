"""simcore.numba_cache: a cached jitted function is recompiled when a file of its group changes.

Numba alone keys a function's cache on its own file (numba/numba#1833), so ``g`` below, which
inlines ``f`` and its constant from another file, would keep returning the old value.
"""

from __future__ import annotations

import pytest

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

A = """
from numba import njit
K = {k}
@njit(cache=True, inline="always")
def f(x):
    return x + K
"""
B = """
import os
from simcore.numba_cache import share_cache_stamp
HERE = os.path.dirname(__file__)
share_cache_stamp([os.path.join(HERE, "b.py")], depends_on=[os.path.join(HERE, "a.py")])
from numba import njit
from pk.a import f
@njit(cache=True)
def g(x):
    return f(x) * 10
"""
BOTS = """
from numba import njit
import simcore.rng
THRESHOLD = {k}
@njit(cache=True, inline="always")
def hold(total):
    return total >= THRESHOLD
"""
KERNEL = """
from numba import njit
from {pkg}.bots import hold
@njit(cache=True)
def play(total):
    return 1 if hold(total) else 0
"""
# One process per step for the three cases below (the group of share_cache_stamp, a registered
# game folder, the same folder unregistered): each a package of its own in one folder and cache,
# only ``pig_like`` registered. Four processes in all instead of ten (each ~0.8 s of CPU, nearly
# all of it Python's and Numba's start): every step is still a new process loading or compiling
# from the cache the previous one wrote. The same four processes run LAZY's steps first (below).
RUN = """
import json
from simcore import games
games.register("pig_like.spec")
from pk.b import g
from pig_like.kernel import play as registered
from pig_plain.kernel import play as unregistered
def result(f, x):
    r = f(x)
    return f"{r} {f.stats.cache_hits[f.signatures[0]] > 0}"
print(json.dumps({"group": result(g, 1), "registered": result(registered, 20),
                  "unregistered": result(unregistered, 20)}))
"""


def _game_folder(tmp: Path, pkg: str) -> Path:
    pk = tmp / pkg
    pk.mkdir()
    (pk / "__init__.py").write_text("")
    (pk / "spec.py").write_text("")
    (pk / "bots.py").write_text(textwrap.dedent(BOTS.format(k=20)))
    (pk / "kernel.py").write_text(textwrap.dedent(KERNEL.format(pkg=pkg)))
    return pk


@pytest.fixture(scope="module")
def processes(tmp_path_factory) -> list[tuple[dict[str, str], str]]:
    """Four processes, each one step of RUN (each case's result and whether it came from the
    cache: compiled; run again; after an edit to a.py (the group) and to both games' bots.py;
    after a new file in the registered game's folder) and, before it, one step of LAZY (1, 2, c,
    12c: test_a_callee_gets_machine_code_only_when_python_runs_it), which needs four processes
    too, each the one after the last: (RUN's result, LAZY's line) per process. Four processes for
    both scripts instead of eight (each ~1 s of CPU, nearly all of it Python's and Numba's start);
    each script has its own files in the cache folder, and LAZY's line is printed before RUN
    starts."""
    import json

    tmp = tmp_path_factory.mktemp("groups")
    pk = tmp / "pk"
    pk.mkdir()
    (pk / "__init__.py").write_text("")
    (pk / "a.py").write_text(textwrap.dedent(A.format(k=1)))
    (pk / "b.py").write_text(textwrap.dedent(B))
    registered, unregistered = _game_folder(tmp, "pig_like"), _game_folder(tmp, "pig_plain")
    (tmp / "lazy_mod.py").write_text(LAZY + RUN)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp), *sys.path]),
           "NUMBA_CACHE_DIR": str(tmp / "cache")}

    def run(lazy_steps: str) -> tuple[dict[str, str], str]:
        out = subprocess.run([sys.executable, str(tmp / "lazy_mod.py"), lazy_steps], cwd=tmp,
                             env=env, capture_output=True, text=True, check=True).stdout
        lines = out.strip().splitlines()
        return json.loads(lines[-1]), lines[-2].strip()

    found = [run("1"), run("2")]
    (pk / "a.py").write_text(textwrap.dedent(A.format(k=2)))
    for folder in (registered, unregistered):
        (folder / "bots.py").write_text(textwrap.dedent(BOTS.format(k=21)))
    found.append(run("c"))
    (registered / "notes.py").write_text("# any file of the folder\n")
    found.append(run("12c"))
    return found


@pytest.fixture(scope="module")
def steps(processes) -> list[dict[str, str]]:
    """RUN's result in each of the four processes (see ``processes``)."""
    return [run for run, _ in processes]


def test_an_edit_to_another_file_of_the_group_recompiles(steps):
    assert [s["group"] for s in steps] == [
        "20 False",         # compiled
        "20 True",          # loaded from the cache
        "30 False",         # a.py changed: recompiled
        "30 True"]


def test_a_registered_game_folder_recompiles_after_an_edit_to_any_of_its_files(steps):
    """The registry stamps a game's whole folder: an edit to bots.py (here a `>=` threshold the
    kernel inlines) recompiles the kernel, with no cache code in the game."""
    assert [s["registered"] for s in steps] == [
        "1 False", "1 True",
        "0 False",          # bots.py changed: recompiled
        "0 False"]          # a new file in the folder


def test_without_the_registry_numba_alone_keeps_stale_code(steps):
    """The mistake the registry's stamp prevents (numba/numba#1833): unregistered, the kernel
    keeps the old threshold after bots.py changes."""
    assert steps[0]["unregistered"] == "1 False"
    assert steps[2]["unregistered"] == "1 True"         # stale: still the old bots.py


# ---------------------------------------------------------------------------------------------
# njit_on_demand: one explicit signature, compiled when first needed (start-up and cold start)
# ---------------------------------------------------------------------------------------------
def test_an_on_demand_signature_compiles_nothing_at_import_and_one_specialisation_when_needed():
    from numba import njit

    from simcore.numba_cache import njit_on_demand

    @njit_on_demand("int64(int64, int64)")
    def scaled(x, kind):
        return x * (kind + 1)

    assert not scaled.overloads, "compiled at decoration: a warm start would load it at import"

    @njit
    def caller(x):     # constants at call sites: one specialisation, not one per literal value
        return scaled(x, 0) + scaled(x, 1) + scaled(x, 2)

    assert caller(3) == 3 + 6 + 9
    assert len(scaled.overloads) == 1
    assert scaled(2, 4) == 10 and len(scaled.overloads) == 1      # called from Python


def test_a_literal_argument_keeps_a_constant_per_value_and_the_others_stay_one_type():
    """``literal=("n",)`` (the Middle-Ages player count): a constant ``n`` compiles one
    specialisation per value, typed as that constant; a variable ``n`` the signature's type;
    constants passed to the other arguments still share one specialisation."""
    from numba import njit, types

    from simcore.numba_cache import njit_on_demand

    @njit_on_demand("int64(int64, int64)", literal=("n",))
    def total(kind, n):
        s = 0
        for i in range(n):
            s += i + kind
        return s

    @njit
    def four(x):
        return total(0, 4) + total(1, 4) + total(x, 4)

    @njit
    def any_count(x, n):
        return total(x, n)

    assert four(2) == 6 + 10 + 14
    assert [sig[1] for sig in total.overloads] == [types.literal(4)]
    assert any_count(2, 3) == 9 and any_count(0, 5) == 10
    assert sorted(str(sig[1]) for sig in total.overloads) == ["Literal[int](4)", "int64"]
    with pytest.raises(ValueError, match="count.*not arguments"):
        njit_on_demand("int64(int64)", literal=("count",))(lambda x: x)


def test_a_none_switch_keeps_the_unused_branch_out_of_the_compiled_code():
    """The switch Middle-Ages uses so that line-ups without events or denial weights never
    compile the full heuristic (bots.heuristic_for)."""
    from numba import njit

    from simcore.numba_cache import njit_on_demand

    @njit_on_demand("int64(int64)")
    def full_only(x):
        return x * 3

    @njit_on_demand("int64(int64)")
    def choose(x, full):
        if full is None:
            return x * 2
        return full_only(x)

    @njit
    def plain(x):
        return choose(x, None)

    @njit
    def with_full(x):
        return choose(x, True)

    assert plain(5) == 10
    assert not full_only.overloads, "the None specialisation typed (and compiled) the other branch"
    assert with_full(5) == 15 and len(full_only.overloads) == 1


def test_an_unliteral_helper_compiles_once_for_constants_of_one_type():
    """``simcore.rng.shuffle_range`` is called with a different constant offset at each site:
    one specialisation, not one per constant (njit_unliteral)."""
    from numba import njit

    from simcore.numba_cache import njit_unliteral

    @njit_unliteral()
    def at(a, start):
        return a[start] * 2

    @njit
    def caller(a):
        return at(a, 0) + at(a, 1) + at(a, 2)

    assert caller(np.arange(3)) == 6
    assert len(at.overloads) == 1


# ---------------------------------------------------------------------------------------------
# Cold compiles: Numba's IR inliner with less repeated work (lighter_ir_inlining)
# ---------------------------------------------------------------------------------------------
def test_inlined_copies_share_one_scope_and_compile_the_same_code():
    """The shim copies a function's blocks with one memo (one scope copy shared by every block,
    as in the original) only while Numba's ``inline_ir`` runs, and a callee's untyped IR is built
    once for its two call sites; the code compiled so is the code compiled without either (the
    same LLVM IR but for the functions' unique names), and any compilation installs them."""
    import copy
    import re

    from numba import njit
    from numba.core import inline_closurecall as icc
    from numba.core.compiler import run_frontend

    from simcore import numba_cache

    @njit(inline="always")
    def helper(x, k):
        s = 0
        for i in range(k):
            if i % 3 == 0:
                s += x * i
            else:
                s -= i
        return s

    def outer(x):
        return helper(x, 4) + helper(x + 1, 5)

    def llvm(fn) -> str:
        text = next(iter(fn.inspect_llvm().values()))
        text = re.sub(r"B\d+v\d+B", "BvB", text)            # the functions' unique ids
        text = re.sub(r"\[\d+ x i8\]", "[n x i8]", text)     # (strings that hold them)
        return re.sub(r'%"[^"]*"|%[\w.$]+', "%v", text)      # value names (inlined variables')

    import numba

    njit(lambda x: x + 1)(1)                 # any compilation installs the shim
    lo, hi = numba_cache._INLINER_TESTED
    if not lo <= numba_cache._version(numba.__version__) < hi:
        # another Numba than the ones checked: its own inliner is left alone
        assert not isinstance(icc.copy, numba_cache._SharedMemoCopy)
        return
    assert isinstance(icc.copy, numba_cache._SharedMemoCopy)
    with_shim = njit(outer)
    assert with_shim(3) == helper.py_func(3, 4) + helper.py_func(4, 5)

    shim, wrapped, wrapped_fn = icc.copy, icc.InlineWorker.inline_ir, icc.InlineWorker.inline_function
    icc.copy, icc.InlineWorker.inline_ir = copy, wrapped.__wrapped__
    icc.InlineWorker.inline_function = wrapped_fn.__wrapped__
    try:
        without = njit(outer)
        assert without(3) == with_shim(3)
    finally:
        icc.copy, icc.InlineWorker.inline_ir = shim, wrapped
        icc.InlineWorker.inline_function = wrapped_fn
    assert llvm(with_shim) == llvm(without)

    fir = run_frontend(helper.py_func)
    src = numba_cache._SharedMemoCopy(copy)
    src.memos = [{}]                         # as inside inline_ir
    copies = [src.deepcopy(b) for b in fir.blocks.values()]
    assert len(copies) > 2 and len({id(b.scope) for b in copies}) == 1
    assert copies[0].scope is not next(iter(fir.blocks.values())).scope
    assert all(src.deepcopy(b) is b for b in copies), "inline_ir's discarded copy was made"
    src.memos = None                         # outside inline_ir: Numba's own copies
    alone = [src.deepcopy(b) for b in fir.blocks.values()]
    assert len({id(b.scope) for b in alone}) == len(alone)


# ---------------------------------------------------------------------------------------------
# Cold compiles: SSA reconstruction over the blocks that hold each variable (lighter_ssa)
# ---------------------------------------------------------------------------------------------
def _ssa_sample(x, k, flag):
    """Many blocks and several variables assigned more than once (as an inlined callee leaves
    them), some used only in a few blocks, one used before any assignment on one path."""
    s = 0
    t = 1
    u = x
    for i in range(k):
        if i % 3 == 0:
            s += x * i
            t = t * 2
        elif i % 3 == 1:
            s -= i
        else:
            u = u + s
    if flag:
        v = s + 1
    else:
        v = t - 1
    w = 0
    if v > 10:
        w = v * 2
    if u > 3:
        w = w + u
        t = 0
    return s + t + u + v + w


def test_ssa_over_touched_blocks_gives_numbas_ir_and_visits_fewer_statements():
    """:func:`simcore.numba_cache._run_ssa_touched` turns the same IR into the same SSA form as
    Numba's own pass (same fresh names, phi nodes and statements), visits fewer statements than
    Numba's pass (which rewrites every statement of the function for every variable assigned
    more than once), leaves the caller's blocks alone, and functions compile to the same LLVM
    IR with it as without it; any compilation installs it."""
    import contextlib
    import copy
    import io

    import numba
    from numba import njit
    from numba.core import ssa
    from numba.core.compiler import run_frontend

    from simcore import numba_cache as nc

    njit(lambda x: x + 1)(1)                 # any compilation installs it
    lo, hi = nc._SSA_TESTED
    if not lo <= nc._version(numba.__version__) < hi:
        assert ssa._run_ssa is not nc._run_ssa_touched
        return
    assert ssa._run_ssa is nc._run_ssa_touched
    numbas = nc._run_ssa_touched.__wrapped__

    def dump(blocks) -> str:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            for label in sorted(blocks):
                print("block", label)
                blocks[label].dump()
        return out.getvalue()

    visits = {"n": 0}
    real_pass = ssa._run_ssa_block_pass

    def counted(states, blk, handler):
        for stmt in real_pass(states, blk, handler):
            visits["n"] += 1
            yield stmt

    results = {}
    for name, run in (("numba", numbas), ("touched", nc._run_ssa_touched)):
        blocks = run_frontend(_ssa_sample).blocks
        before = {label: list(b.body) for label, b in blocks.items()}
        visits["n"] = 0
        ssa._run_ssa_block_pass = counted
        try:
            out = run(copy.deepcopy(blocks) if name == "numba" else blocks)
        finally:
            ssa._run_ssa_block_pass = real_pass
        if name == "touched":
            assert {label: list(b.body) for label, b in blocks.items()} == before
        results[name] = (dump(out), visits["n"])
    assert "phi" in results["numba"][0] and ".1" in results["numba"][0]
    assert results["touched"][0] == results["numba"][0]
    assert results["touched"][1] < results["numba"][1] / 2, results

    with_pass = njit(_ssa_sample)
    assert with_pass(3, 7, True) == _ssa_sample(3, 7, True)
    ssa._run_ssa = numbas
    try:
        without = njit(_ssa_sample)
        assert without(3, 7, True) == with_pass(3, 7, True)
    finally:
        ssa._run_ssa = nc._run_ssa_touched
    assert _normalised_llvm(with_pass) == _normalised_llvm(without)


# ---------------------------------------------------------------------------------------------
# Cold compiles: builtin/@overload typing memoised (memo_function_typing)
# ---------------------------------------------------------------------------------------------
def _normalised_llvm(fn) -> str:
    import re

    text = "\n".join(fn.inspect_llvm().values())
    text = re.sub(r"B\d+v\d+B", "BvB", text)             # the functions' unique ids
    return re.sub(r"\[\d+ x i8\]", "[n x i8]", text)


def test_typing_memo_answers_repeated_calls_and_compiles_the_same_code():
    """The memo answers a builtin's second call site with the same argument types, and the code
    compiled with it is the code compiled without it; outside the tested Numba versions it is
    not installed."""
    import numba
    from numba import njit
    from numba.core.types import functions

    from simcore import numba_cache as nc

    def body(a, n):
        s = 0
        for i in range(n):
            s = s + a[i] * 3 - min(a[i], 2)
            if s > 100:
                s = s - 7 * a[i] + min(s, 50)
        return s

    lo, hi = nc._TYPING_MEMO_TESTED
    if not lo <= nc._version(numba.__version__) < hi:
        assert functions.BaseFunction.get_call_type is not nc._memo_get_call_type
        return
    assert functions.BaseFunction.get_call_type is nc._memo_get_call_type
    calls = []
    real = nc._real_get_call_type

    def counted(self, context, args, kws):
        calls.append(args)
        return real(self, context, args, kws)

    nc._real_get_call_type = counted
    try:
        with_memo = njit(body)
        assert with_memo(np.arange(5), 5) == body(np.arange(5), 5)
        typed = len(calls)
        functions.BaseFunction.get_call_type = counted              # Numba's own: every site
        without = njit(body)
        assert without(np.arange(5), 5) == with_memo(np.arange(5), 5)
    finally:
        nc._real_get_call_type = real
        functions.BaseFunction.get_call_type = nc._memo_get_call_type
    assert typed < len(calls) - typed, (typed, len(calls) - typed)
    assert _normalised_llvm(with_memo) == _normalised_llvm(without)


# ---------------------------------------------------------------------------------------------
# Cold compiles: a callee's machine code only when something runs it (code_for_callers_only)
# ---------------------------------------------------------------------------------------------
LAZY = """
import sys
import numpy as np
import simcore.numba_cache as nc
from numba import njit
from numba.core import codegen
kinds = []
real = codegen.CPUCodeLibrary._unserialize.__func__
codegen.CPUCodeLibrary._unserialize = classmethod(
    lambda cls, cg, st: kinds.append((st[0].split(".")[-1], st[1])) or real(cls, cg, st))
@njit(cache=True)
def callee(a):
    s = 0
    for x in a:
        s += x * 3
    if s > 1000:
        raise ValueError("too big", s)
    return s
@njit(cache=True)
def first(a):
    return callee(a) + 1
@njit(cache=True)
def second(a):
    return callee(a) * 2
for step in sys.argv[1]:
    f = {"1": first, "2": second, "c": callee}[step]
    print(f(np.arange(4)), end=" ")
entry = [type(c.entry_point).__name__ for c in callee.overloads.values()]
try:
    first(np.arange(4) * 100)
except ValueError as e:
    print(e, end=" ")
print(entry, sorted(kinds))
"""


def test_a_callee_gets_machine_code_only_when_python_runs_it(processes):
    """A function compiled for a jitted caller has no machine code of its own (its cache entry
    holds its IR); a caller compiled in a later process links that IR without generating it
    either; a call from Python completes it and rewrites its cache entry with object code; a
    caller loaded from the cache loads nothing else. Results, and an exception raised in the
    callee with a value computed at run time, are Numba's in every case. (LAZY's four steps, each
    a new process after the last: the ``processes`` fixture, which runs RUN's steps after them.)"""
    import numba

    from simcore import numba_cache as nc

    said = [line for _, line in processes]         # LAZY with "1", "2", "c", "12c"
    lo, hi = nc._LAZY_CODE_TESTED
    err = "('too big', 1800)"
    if not lo <= nc._version(numba.__version__) < hi:      # Numba's own behaviour
        assert said[0] == f"19 {err} ['builtin_function_or_method'] []"
        return
    assert said[0] == f"19 {err} ['_LazyEntry'] []"               # compiled: callee lazy
    assert said[1] == f"36 {err} ['_LazyEntry'] [('callee', 'bitcode'), ('first', 'object')]"
    assert said[2] == f"18 {err} ['builtin_function_or_method'] " \
                      "[('callee', 'bitcode'), ('first', 'object')]"   # completed, re-cached
    assert said[3] == f"19 36 18 {err} ['builtin_function_or_method'] " \
                      "[('callee', 'object'), ('first', 'object'), ('second', 'object')]"


def test_numba_own_code_compiles_what_numba_alone_compiles():
    """``numba_own_code`` (the comparisons' baseline) gives Numba's own behaviour back inside
    it: the callee gets its machine code at once and a real entry point."""
    from numba import njit

    from simcore import numba_cache as nc

    def fresh_pair():           # new dispatchers each time: nothing compiled yet
        @njit
        def leaf(x):
            return x * 2 + 1

        @njit
        def root(x):
            return leaf(x) - 1

        return leaf, root

    leaf, root = fresh_pair()
    with nc.numba_own_code():
        assert root(4) == 8
    assert type(leaf.overloads[next(iter(leaf.overloads))].entry_point).__name__ \
        == "builtin_function_or_method"

    leaf2, root2 = fresh_pair()
    assert root2(4) == 8
    lazy = nc._LAZY_CODE_TESTED[0] <= nc._version(__import__("numba").__version__) \
        < nc._LAZY_CODE_TESTED[1]
    entry = leaf2.overloads[next(iter(leaf2.overloads))].entry_point
    assert isinstance(entry, nc._LazyEntry) == lazy
    assert leaf2(4) == 9
    assert type(leaf2.overloads[next(iter(leaf2.overloads))].entry_point).__name__ \
        == "builtin_function_or_method"
