"""Numba's on-disk cache for jitted code split over several files: one freshness stamp per group.

Numba keys the cache of a jitted function (``cache=True``) on its own source file only: a cached
function that calls or inlines jitted functions, or reads constants, of *another* file keeps their
old machine code after that file changes (a documented limitation, numba/numba#1833). A kernel
split into modules (layout, decisions, rules of play, driver) would then run stale code after an
edit to any module but the entry point's. :func:`share_cache_stamp` closes that gap for a group of
files: every cached function defined in one of the group's ``members`` gets a freshness stamp that
covers the content of all the group's files (and of the files it ``depends_on``), so an edit to any
of them recompiles the whole group on the next run, as an edit to a single-file kernel did. It
wraps the cache locator Numba would choose (same cache directory, same file names); only the stamp
differs. It must run before the members' ``@njit(cache=True)`` decorators do. May import the
standard library and numba.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from numba.core import caching

_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl   # (_CacheImpl in older Numba)
_GROUPS: dict[str, tuple[str, ...]] = {}   # member file → every file of its group's stamp


@lru_cache(maxsize=None)
def _file_hash(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def group_stamp(files: tuple[str, ...]) -> str:
    """sha256 over the contents of ``files`` (re-read whenever one's mtime or size changes)."""
    h = hashlib.sha256()
    for path in files:
        st = os.stat(path)
        h.update(_file_hash(path, st.st_mtime_ns, st.st_size))
    return h.hexdigest()


class GroupStampLocator:
    """The locator Numba would choose for a member's function, with the group's stamp."""

    def __init__(self, inner, files: tuple[str, ...]) -> None:
        self._inner = inner
        self._files = files

    @classmethod
    def from_function(cls, py_func, py_file):
        files = _GROUPS.get(os.path.abspath(py_file))
        if files is None:
            return None
        for locator_class in _IMPL._locator_classes:
            if locator_class is cls:
                continue
            inner = locator_class.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, files)
        return None

    def get_source_stamp(self):
        return self._inner.get_source_stamp(), group_stamp(self._files)

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def ensure_cache_path(self):
        return self._inner.ensure_cache_path()

    def get_disambiguator(self):
        return self._inner.get_disambiguator()


def share_cache_stamp(members, depends_on=()) -> None:
    """Every cached function defined in one of ``members`` (paths of Python files) is fresh only
    while none of ``members`` and ``depends_on`` has changed since it was cached."""
    files = tuple(sorted({os.path.abspath(p) for p in (*members, *depends_on)}))
    for path in members:
        _GROUPS[os.path.abspath(path)] = files
    if GroupStampLocator not in _IMPL._locator_classes:
        _IMPL._locator_classes.insert(0, GroupStampLocator)
