"""simcore: the simulation core of the balance toolkit.

Shared machinery (RNG streams, chunked runner, run directories, CLI) and one sub-package per game
under :mod:`simcore.games`. May import numpy, numba, pyarrow, polars, typer and rich; never imports
:mod:`analysis` or :mod:`reports` at module level (the CLI imports them lazily).
"""

__version__ = "0.1.0"
