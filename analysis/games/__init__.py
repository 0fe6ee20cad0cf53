"""analysis.games: metric tables of one game each, found through the game's spec.

A game's spec (:mod:`simcore.games`, ``analysis_hooks``) names a module; when that module defines
``tables(rs) -> dict[str, DataFrame]``, :func:`analysis.analyse` adds its tables to the common ones
(the report hook of the same game shows them); the module's ``TABLES`` names the tables it may give
(:func:`table_names`), and optionally ``available(rs)`` (which of them a run has), ``table(rs, name)``
(one of them) and ``TABLE_WORDS`` (what each holds, in a designer's words): ``balance export`` reads
those (:func:`table_for`, :func:`available_for`, :func:`table_words`, :func:`games_with_table`). The Seigneurial tables (objective cards, land
improvements) live here (the Seigneurial spec names :mod:`analysis.questions.seigneurial`, which
plays its card ablation and re-exports them); the Médiévallons hook is :mod:`analysis.questions.medievallons` (it plays
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


def _hook(rs):
    from simcore import games as registry

    spec = registry.specs().get(rs.game)
    return registry.import_hook(spec.analysis_hooks) if spec is not None and spec.analysis_hooks else None


def table_for(rs, name: str):
    """One game-specific table of ``rs`` (None when its game's hook does not give it for this
    run): only that table is computed, when the hook can say which it has (``available``)."""
    hook = _hook(rs)
    if hook is None or not hasattr(hook, "tables"):
        return None
    if hasattr(hook, "available") and name not in hook.available(rs):
        return None
    return hook.table(rs, name) if hasattr(hook, "table") else hook.tables(rs).get(name)


def available_for(rs) -> list[str]:
    """The game-specific tables ``rs`` has (its hook's ``available``, else the tables it gives)."""
    hook = _hook(rs)
    if hook is None or not hasattr(hook, "tables"):
        return []
    return list(hook.available(rs)) if hasattr(hook, "available") else list(hook.tables(rs))


def table_words(name: str) -> str:
    """What a game-specific table holds, in the words of the hook that gives it (its
    ``TABLE_WORDS``), else its name with spaces."""
    from simcore import games as registry

    for spec in registry.specs().values():
        if spec.analysis_hooks:
            words = getattr(registry.import_hook(spec.analysis_hooks), "TABLE_WORDS", {})
            if name in words:
                return words[name]
    return name.replace("_", " ")


def games_with_table(name: str) -> list[str]:
    """The titles of the registered games whose hook may give table ``name``."""
    from simcore import games as registry

    return [spec.title for spec in registry.specs().values() if spec.analysis_hooks
            and name in getattr(registry.import_hook(spec.analysis_hooks), "TABLES", ())]


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
