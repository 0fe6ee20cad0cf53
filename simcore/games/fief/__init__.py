"""Fief 2 combat and calamity systems (shared/rules/fief.md, FF-1 … FF-7).

Modules: ``rules`` (rules.toml → arrays), ``kernel`` (Numba combats, plague, revolt), ``exact``
(dynamic-programming odds), ``reference`` (slow readable Python used by the tests), ``odds``
(grids, break-even tables), ``calamity`` (plague and revolt tables), ``spec`` (the ``fief-combat``
game spec) and ``game`` (its adapter: one matchup played by the runner into a run directory,
``simulate --game fief-combat``). Computations only: the heat maps are drawn by
:mod:`reports.figures.fief`, and ``cli/tables.py`` (from the spec's ``commands``) writes the
``fief-odds`` / ``fief-calamity``
directories and prints their tables.
"""
