"""Keep Numba's on-disk cache honest when a kernel is split over several modules.

Numba keys a cached function on its own source file's timestamp only: after an edit to a module
it calls (or to the layout constants it freezes at compile time) a cached caller silently runs the
old code. :func:`invalidate_if_sources_changed`, called by a game's driver when it is imported
(before any jitted function is called, so before any cache is read), hashes the game's kernel
sources and removes that folder's cached ``*.nbi`` / ``*.nbc`` files when the hash differs from
the one recorded at the last check.

May import the standard library only.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

STAMP = "kernel-sources.sha256"


def invalidate_if_sources_changed(package_dir: str | Path, modules: tuple[str, ...]) -> bool:
    """Drop the Numba cache of ``package_dir`` if any of ``modules`` (file names) changed since
    the last call; returns True when it did. Never raises: a read-only install keeps its cache."""
    folder = Path(package_dir)
    digest = hashlib.sha256()
    for name in modules:
        digest.update(name.encode())
        digest.update((folder / name).read_bytes())
    cache = folder / "__pycache__"
    stamp = cache / STAMP
    try:
        if stamp.is_file() and stamp.read_text(encoding="ascii").strip() == digest.hexdigest():
            return False
        dropped = False
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            f.unlink(missing_ok=True)
            dropped = True
        cache.mkdir(exist_ok=True)
        tmp = cache / f"{STAMP}.tmp"
        tmp.write_text(digest.hexdigest() + "\n", encoding="ascii")
        tmp.replace(stamp)
        return dropped
    except OSError:
        return False
