"""simcore.numba_cache: a cached jitted function is recompiled when a file of its group changes.

Numba alone keys a function's cache on its own file (numba/numba#1833), so ``g`` below, which
inlines ``f`` and its constant from another file, would keep returning the old value.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

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
RUN = "from pk.b import g; r = g(1); print(r, g.stats.cache_hits[g.signatures[0]] > 0)"


def run(tmp: Path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp), *sys.path]),
           "NUMBA_CACHE_DIR": str(tmp / "cache")}
    return subprocess.run([sys.executable, "-c", RUN], cwd=tmp, env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_an_edit_to_another_file_of_the_group_recompiles(tmp_path):
    pk = tmp_path / "pk"
    pk.mkdir()
    (pk / "__init__.py").write_text("")
    (pk / "a.py").write_text(textwrap.dedent(A.format(k=1)))
    (pk / "b.py").write_text(textwrap.dedent(B))
    assert run(tmp_path) == "20 False"      # compiled
    assert run(tmp_path) == "20 True"       # loaded from the cache
    (pk / "a.py").write_text(textwrap.dedent(A.format(k=2)))
    assert run(tmp_path) == "30 False"      # a.py changed: recompiled
    assert run(tmp_path) == "30 True"
