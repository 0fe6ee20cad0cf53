"""analysis.games: metric tables of one game each, found through the game's spec.

A game's spec (:mod:`simcore.games`, ``analysis_hooks``) names a module; when that module defines
``tables(rs) -> dict[str, DataFrame]``, :func:`analysis.analyse` adds its tables to the common ones
(the report hook of the same game shows them); the module's ``TABLES`` names the tables it may give
(:func:`table_names`). The Seigneurial tables (objective cards, land
improvements) live here; the Médiévallons hook is :mod:`analysis.questions.medievallons` (it plays
questions, and has no ``tables``).

May import the standard library and :mod:`simcore.games` (the registry); the game modules may import
polars, numpy, :mod:`analysis.load` and :mod:`analysis.stats`.
"""

from __future__ import annotations


def tables_for(rs) -> dict:
    """The game-specific tables of ``rs`` (empty when its spec names no hook with ``tables``)."""
    from simcore import games as registry

    spec = registry.specs().get(rs.game)
    if spec is None or not spec.analysis_hooks:
        return {}
    hook = registry.import_hook(spec.analysis_hooks)
    return hook.tables(rs) if hasattr(hook, "tables") else {}


def table_names() -> tuple[str, ...]:
    """The tables every registered game's analysis hook may add (its ``TABLES``), in registry
    order: the shared code names none of them."""
    from simcore import games as registry

    out: list[str] = []
    for spec in registry.specs().values():
        if spec.analysis_hooks:
            out += [t for t in getattr(registry.import_hook(spec.analysis_hooks), "TABLES", ())
                    if t not in out]
    return tuple(out)
