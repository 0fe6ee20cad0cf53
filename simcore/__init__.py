"""simcore: the simulation core of the balance toolkit.

Shared machinery (RNG streams, chunked runner, mergeable statistics, run directories) and one
sub-package per game under :mod:`simcore.games`. May import numpy, numba, pyarrow and polars;
never rich, typer, matplotlib, :mod:`analysis`, :mod:`reports` or :mod:`cli` (import-linter: the
runner reports progress through callbacks, the command line draws).
"""

__version__ = "0.1.0"

from simcore import numba_start as _numba_start

_numba_start.install()       # numba's own start without its yaml and scipy imports (0.02 s)
