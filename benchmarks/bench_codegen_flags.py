"""LLVM code-generation settings for a kernel, measured in one process: ``bench_kernel_ab.py`` with
the *old* kernel (an export of ``--rev``, compiled afresh in a temporary Numba cache) compiled under
other settings than the working tree's (loaded from its cache, compiled with Numba's defaults).

Run: ``FLAGS=novec,noslp .venv/bin/python benchmarks/bench_codegen_flags.py --rev HEAD --runs 20
--games 3000`` (and every option of ``bench_kernel_ab.py``: ``--game``, ``--strategies``, …). The
ratio printed is new/old = Numba's defaults / the settings in ``FLAGS``:

* ``novec``: LLVM's loop vectoriser off (``numba.core.config.LOOP_VECTORIZE``);
* ``noslp``: its SLP vectoriser off (``SLP_VECTORIZE``);
* ``max``: Numba's cheap pre-pass at -O3 with loop vectorisation (what ``NUMBA_OPT=max`` does).

Warm the working tree's cache first (``tests/warm_kernels.py``): a kernel it has to compile here
would be compiled under ``FLAGS`` too. Nothing is asserted; the figures are in
docs/middle_ages_engine.md ("Code-generation settings").
"""
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import numba.core.config as config  # noqa: E402

import bench_kernel_ab  # noqa: E402


def main() -> None:
    flags = set(filter(None, os.environ.get("FLAGS", "").split(",")))
    unknown = flags - {"novec", "noslp", "max"}
    if unknown:
        raise SystemExit(f"FLAGS: unknown {', '.join(sorted(unknown))} (novec, noslp, max)")
    if "novec" in flags:
        config.LOOP_VECTORIZE = False
    if "noslp" in flags:
        config.SLP_VECTORIZE = False
    if "max" in flags:
        from numba.core.registry import cpu_target

        codegen = cpu_target.target_context.codegen()
        codegen._loopvect, codegen._opt_level = True, 3
    print(f"old kernel compiled with: {', '.join(sorted(flags)) or 'the defaults'}")
    bench_kernel_ab.main()


if __name__ == "__main__":
    main()
