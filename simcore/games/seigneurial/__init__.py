"""Seigneurial (shared/rules/seigneurial.md): the asymmetric lord-vs-tenants game. Rules as data,
the Numba engine (layout, bots = decisions, kernel = rules of play, driver; imports one-way:
layout <- bots <- kernel <- driver), pure-Python reference engine, runner adapter, golden
playthrough. See docs/seigneurial.md."""
