"""Where a cold Numba compile's CPU goes, per jitted function: run ``tests/warm_kernels.py`` (or
any script) with three of Numba's steps timed, in process CPU seconds, and print a table of each.

Run: ``NUMBA_CACHE_DIR=$(mktemp -d) .venv/bin/python benchmarks/compile_breakdown.py
tests/warm_kernels.py -j 1 medievallons:plain`` (an empty cache, else nothing compiles).

The three steps, each "incl" (with what it starts) and "excl" (without nested steps):
- **inlined**: Numba's IR inlining of an ``inline="always"`` function, per inlined function and
  number of call sites. Each site runs the callee's untyped passes again (its own inlined callees
  included) and deep-copies its IR twice: cost grows with the callee's size times its sites.
- **compiled**: a dispatcher's compile of one specialisation (typing, lowering, the per-function
  LLVM passes), per function and number of specialisations; a function compiled more often than
  expected is being specialised on a literal argument or a second type (``--signatures`` prints
  the argument types of every compile).
- **llvm finalize**: a code library's final LLVM step. Numba links every jitted callee's module
  into its caller's and optimises and emits machine code for the whole again, so a function
  that reaches the rules of play costs about as much here as the rules of play themselves.
  With :func:`simcore.numba_cache.code_for_callers_only` (installed on import) a callee's own
  finalize only links its callees: its module-level optimisation and machine code wait until
  Python calls it (not timed here), so the kernel's entry point carries nearly all of it.

``--numba-own`` runs the script inside :class:`simcore.numba_cache.numba_own_code` (Numba's own
code library, dispatcher and function typing), for a before/after in one tree.

Numbers under cProfile are inflated about twofold; these are not (a few per cent). Nothing is
asserted. May import the standard library, numba and :mod:`simcore.numba_cache` (its lighter IR
inliner, installed first so that it is what is timed, and its other cold-start changes, installed
on import).
"""

from __future__ import annotations

import atexit
import collections
import runpy
import sys
import time

from numba.core import codegen, dispatcher
from numba.core import inline_closurecall as icc

TABLES = {t: collections.defaultdict(lambda: [0, 0.0, 0.0])
          for t in ("inlined", "compiled", "llvm finalize")}
_stack: list[float] = []
SHOW_SIGNATURES = False


def _timed(table: str, name: str, fn):
    t = time.process_time()
    _stack.append(0.0)
    try:
        return fn()
    finally:
        dt = time.process_time() - t
        child = _stack.pop()
        if _stack:
            _stack[-1] += dt
        row = TABLES[table][name]
        row[0] += 1
        row[1] += dt
        row[2] += dt - child


def _name(f) -> str:
    return f.__module__.split(".")[-1] + "." + f.__qualname__


_inline = icc.InlineWorker.inline_function
_compile = dispatcher._FunctionCompiler._compile_core
_finalize = codegen.CPUCodeLibrary.finalize


def inline_function(self, caller_ir, block, i, function, arg_typs=None):
    return _timed("inlined", _name(function),
                  lambda: _inline(self, caller_ir, block, i, function, arg_typs))


def compile_core(self, args, return_type):
    if SHOW_SIGNATURES:
        print(f"compile {_name(self.py_func)} {args}", file=sys.stderr)
    return _timed("compiled", _name(self.py_func), lambda: _compile(self, args, return_type))


def finalize(self):
    return _timed("llvm finalize", self.name.split(".")[-1][:45], lambda: _finalize(self))


def report(top: int = 25) -> None:
    for title, table in TABLES.items():
        total = sum(r[2] for r in table.values())
        print(f"== {title}: {total:.1f} s CPU (excl, summed)", file=sys.stderr)
        for name, (n, inc, exc) in sorted(table.items(), key=lambda kv: -kv[1][2])[:top]:
            print(f"  {name:50s} n {n:4d}  incl {inc:7.1f}  excl {exc:7.1f}", file=sys.stderr)


def main(argv: list[str]) -> None:
    global SHOW_SIGNATURES
    own = False
    while argv[:1] in (["--signatures"], ["--numba-own"]):
        if argv[0] == "--signatures":
            SHOW_SIGNATURES = True
        else:
            own = True
        argv = argv[1:]
    if not argv:
        sys.exit("usage: compile_breakdown.py [--signatures] [--numba-own] SCRIPT [ARGS...]")
    global _inline
    try:        # the toolkit's lighter inliner (simcore.numba_cache), timed as Numba's would be
        from simcore.numba_cache import lighter_ir_inlining

        lighter_ir_inlining()
        _inline = icc.InlineWorker.inline_function
    except ImportError:
        pass
    icc.InlineWorker.inline_function = inline_function
    dispatcher._FunctionCompiler._compile_core = compile_core
    codegen.CPUCodeLibrary.finalize = finalize
    atexit.register(report)
    sys.argv = argv
    if own:
        from simcore.numba_cache import numba_own_code

        with numba_own_code():
            runpy.run_path(argv[0], run_name="__main__")
    else:
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
