"""Médiévallons (shared/rules/medievallons.md): rules as data, the Numba engine (layout, kernel =
rules of play, bots, playout, driver; imports one-way: layout <- bots <- kernel <- playout <-
driver), pure-Python reference engine, runner adapter, golden playthrough. The balance questions are
played through the runner by :mod:`analysis.questions.medievallons`. See docs/medievallons.md."""

