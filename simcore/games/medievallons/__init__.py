"""Médiévallons (shared/rules/medievallons.md): rules as data, the Numba engine (layout, kernel =
rules of play, bots, playout, driver; imports one-way: layout <- bots <- kernel <- playout <-
driver), pure-Python reference engine, runner adapter, golden playthrough. The balance questions are
played through the runner by :mod:`analysis.questions.medievallons`. See docs/medievallons.md."""

from pathlib import Path as _Path

from simcore.jitcache import invalidate_if_sources_changed as _invalidate

# Before any jitted module of this package loads its cache: a change to any of them drops it.
_invalidate(_Path(__file__).parent, ("layout.py", "bots.py", "kernel.py", "playout.py",
                                     "driver.py", "rules.py"))
