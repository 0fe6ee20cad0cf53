"""The registry of games: one line per game, naming the module that declares its spec.

Every layer that needs to know which games exist, what they are called, how many players they
take, what their score counts or which bots they have reads this registry (``get``, ``names``,
``specs``) instead of keeping its own table. A spec module is plain data (see
:mod:`simcore.contract`): looking games up never imports a kernel or compiles anything.

Adding a game: its folder under ``simcore/games/<game>/`` with a ``spec.py``, and one line here.
Registering a game also gives its whole folder one Numba cache stamp (:mod:`simcore.cache_folders`):
an edit to any file of the folder recompiles its kernel; a game needs no cache code of its own.

May import the standard library, numpy (lazily: two rule sets compared as a player count reads
them), :mod:`simcore.contract`, :mod:`simcore.cache_folders` and :mod:`simcore.errors`.
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import os

from simcore import cache_folders
from simcore import config as _config

from simcore.contract import GameSpec
from simcore.errors import UsageError

REGISTRY = (
    "simcore.games.middle_ages.spec",
    "simcore.games.medievallons.spec",
    "simcore.games.fief.spec",
    "simcore.games.seigneurial.spec",
)

# The game a command plays when --game is not given (every command and analysis reads it here).
DEFAULT_GAME = "middle-ages"

_specs: dict[str, GameSpec] | None = None


def _folder_of(spec_module: str) -> str | None:
    """The folder of the package holding ``spec_module``, found without importing the package."""
    found = importlib.util.find_spec(spec_module.rsplit(".", 1)[0])
    locations = found.submodule_search_locations if found is not None else None
    return list(locations)[0] if locations else None


def register(spec_module: str) -> None:
    """Add a game (its spec module's path) to the registry, e.g. a game kept in tests/. Its
    folder gets one Numba cache stamp (:mod:`simcore.cache_folders`): register a game before
    importing any module of its folder."""
    global _specs, REGISTRY
    folder = _folder_of(spec_module)
    if folder is not None:                  # before the spec module imports anything of the folder
        cache_folders.register(folder)
    importlib.import_module(spec_module)      # a spec that does not build is refused here
    if spec_module not in REGISTRY:
        REGISTRY = (*REGISTRY, spec_module)
        _specs = None


for _path in REGISTRY:     # before any game module is imported: this package's __init__ runs first
    cache_folders.register(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        _path.split(".")[2]))


def specs() -> dict[str, GameSpec]:
    """Every registered game's spec, by name, in registry order."""
    global _specs
    if _specs is None:
        found: dict[str, GameSpec] = {}
        for path in REGISTRY:
            spec = importlib.import_module(path).SPEC
            if spec.name in found:
                raise RuntimeError(f"two games registered as {spec.name!r}")
            found[spec.name] = spec
        _specs = found
    return _specs


def names() -> tuple[str, ...]:
    return tuple(specs())


def get(name: str, option: str = "--game") -> GameSpec:
    """The spec of game ``name``; a one-line :class:`UsageError` (with a suggestion) otherwise."""
    all_specs = specs()
    if name in all_specs:
        return all_specs[name]
    near = difflib.get_close_matches(str(name), list(all_specs), n=1)
    hint = f"; did you mean {near[0]}?" if near else ""
    raise UsageError(f"{option} {name}: unknown game (known: {', '.join(all_specs)}){hint}")


def import_hook(module: str | None):
    """The module a spec names (adapter, strategies, golden, hooks), or None."""
    return importlib.import_module(module) if module else None


def shipped_rules() -> list[tuple[str, object]]:
    """Every registered game with rules and a function giving its shipped rules file's path (what
    :func:`simcore.config.other_game_rules` compares a refused rules file with)."""
    def path_of(module: str):
        return lambda: importlib.import_module(module).default_rules_path()

    return [(name, path_of(spec.rules_module)) for name, spec in specs().items() if spec.rules_module]


_config.shipped_rules = shipped_rules


def absent_defaults() -> dict[str, object]:
    """Settings a rules file may leave out, with the value each game's loader then takes (its rules
    module's ``ABSENT_DEFAULTS``, dotted paths): a rules text recorded before a setting existed
    plays it at that value, so a rules diff reads its absence as that value
    (:mod:`analysis.rules_diff`)."""
    out: dict[str, object] = {}
    for spec in specs().values():
        if spec.rules_module:
            out.update(getattr(importlib.import_module(spec.rules_module), "ABSENT_DEFAULTS", {}))
    return out
_config.seat_lists_of = lambda name: (get(name).seat_lists, get(name).players[1])


def rules_read_at(game: str, rules, n_players: int) -> dict:
    """The rules ``rules`` (a game's loaded rules object) as a game of ``n_players`` players reads
    them: every field the kernel and the reference are given, with the entries of another player
    count, or of a seat this count does not have, left out (the game's rules module's
    ``read_at(rules, n_players)``, where it declares one; else every field but ``source``, the file
    as read). Two rule sets whose forms are equal here play the same games at that count:
    ``track.goal.4`` is not read at 3 players, ``setup.start_coins`` [1, 0, 0] and [1, 0, 0, 0]
    are the same coins at 3 players (review s61 #1)."""
    import dataclasses

    module = importlib.import_module(get(game).rules_module)
    own = getattr(module, "read_at", None)
    if own is not None:
        return own(rules, int(n_players))
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules) if f.name != "source"}


def same_rules_at(game: str, a, b, n_players: int) -> bool:
    """Whether two loaded rule sets of ``game`` read alike at ``n_players`` players
    (:func:`rules_read_at`): arrays compared by dtype, shape and every value."""
    import numpy as np

    fa, fb = rules_read_at(game, a, n_players), rules_read_at(game, b, n_players)
    if fa.keys() != fb.keys():
        return False
    for k, x in fa.items():
        y = fb[k]
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            x, y = np.asarray(x), np.asarray(y)
            if x.dtype != y.dtype or x.shape != y.shape or not np.array_equal(x, y):
                return False
        elif x != y:
            return False
    return True
