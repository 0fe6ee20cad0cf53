"""The game folders whose jitted code shares one Numba cache stamp (kept free of numba).

The registry (:mod:`simcore.games`) registers the folder of every game it lists, before any of
the game's modules can be imported; :mod:`simcore.numba_cache` then gives every cached function
defined in such a folder a freshness stamp over the content of *all* the folder's Python files
(and :mod:`simcore.rng`), so an edit to any file of a game's folder recompiles the game. Numba
alone would only notice an edit to the function's own file (numba/numba#1833). Listing games
imports this module, so it must not import numba.

May import the standard library only.
"""

from __future__ import annotations

import os

FOLDERS: set[str] = set()


def register(folder: str) -> None:
    """Make ``folder`` (a game's package folder) one cache-stamp group."""
    FOLDERS.add(os.path.abspath(folder))


_LISTED: dict[str, tuple[int, tuple[str, ...]]] = {}   # folder → (its mtime, its Python files)


def folder_files(py_file: str) -> tuple[str, ...] | None:
    """Every Python file of the registered folder holding ``py_file`` (sorted), or None when the
    file is in no registered folder. Listed again whenever the folder's modification time
    changes (a file added, removed or renamed): every jitted function of a game's modules asks,
    67 listings of the same folder at every start otherwise."""
    folder = os.path.dirname(os.path.abspath(py_file))
    if folder not in FOLDERS:
        return None
    mtime = os.stat(folder).st_mtime_ns
    listed = _LISTED.get(folder)
    if listed is None or listed[0] != mtime:
        files = tuple(sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".py")))
        listed = _LISTED[folder] = (mtime, files)
    return listed[1]
