"""Médiévallons (shared/rules/medievallons.md): rules as data, Numba kernel, pure-Python reference
engine, runner adapter, spec and golden playthrough. The balance questions are played through the
runner by :mod:`analysis.questions.medievallons`. See docs/medievallons.md."""
