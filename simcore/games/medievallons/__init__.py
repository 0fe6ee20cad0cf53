"""Médiévallons (shared/rules/medievallons.md): rules as data, the Numba engine (layout, kernel =
rules of play, bots, playout, driver; imports one-way: layout <- bots <- kernel <- playout <-
driver), pure-Python reference engine, runner adapter, golden playthrough and balance questions.
See docs/medievallons.md."""
