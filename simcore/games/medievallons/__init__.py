"""Médiévallons (shared/rules/medievallons.md): rules as data, Numba kernel, pure-Python reference
engine, runner adapter, golden playthrough and balance questions. See docs/medievallons.md."""
