"""Numba's own start without two imports it makes only to check something a run never uses.

Importing numba imports PyYAML (``numba.core.config``: to read a ``.numba_config.yaml`` of the
current directory, when there is one) and scipy (``numba/__init__``: a version check, scipy 1.0 or
later, when scipy is installed): 0.02 s of CPU of every process that loads a kernel (a small run's
start is ~0.5 s). :func:`install` adds an import finder that answers "not installed" to those two
imports only while they come from numba's own start (the importing frame is ``numba`` or
``numba.core.config``), and only when the current directory has no ``.numba_config.yaml`` (then
numba reads it as it always did). Every other import of yaml or scipy (Dask's configuration, the
tests' statsmodels) finds them as usual; what numba's start concludes is the same as with them
absent: no config file to read (there is none) and no scipy to check (a Numba function that uses
BLAS still imports scipy when it compiles, :mod:`simcore.numba_cache`).

Installed by :mod:`simcore` on import (every path to a kernel imports it before numba). May import
the standard library only.
"""

from __future__ import annotations

import os
import sys
from importlib.abc import MetaPathFinder

_SKIPPED = {"yaml": ("numba.core.config",), "scipy": ("numba",)}


class _NumbaStartFinder(MetaPathFinder):
    """Refuses ``yaml`` and ``scipy`` to numba's start (see the module docstring)."""

    def find_spec(self, name, path=None, target=None):
        importers = _SKIPPED.get(name)
        if importers is None:
            return None
        if name == "yaml" and os.path.exists(".numba_config.yaml"):
            return None
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_globals.get("__name__") in importers:
                raise ModuleNotFoundError(f"No module named {name!r} (not needed by numba's start)",
                                          name=name)
            frame = frame.f_back
        return None


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (idempotent); does nothing once numba is imported."""
    if "numba" in sys.modules or any(isinstance(f, _NumbaStartFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _NumbaStartFinder())
