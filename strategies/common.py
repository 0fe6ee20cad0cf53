"""What every game's strategy files share: reading a file of named strategies, finding the
strategy a user named (preset, ``file.toml`` or ``file.toml:name``), and spreading a
``--strategies`` value over the seats. Each game supplies its own parser of one strategy table.

May import the standard library and :mod:`simcore`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

from simcore.config import Table, read_toml
from simcore.errors import ConfigError, UsageError

S = TypeVar("S")


def load_strategy_file(path: str | Path, parse: Callable[[Table, str], S]) -> dict[str, S]:
    """Every top-level table of a strategies TOML, parsed by the game's ``parse``."""
    src = read_toml(path, what="strategies")
    top = Table(src.data, src.name)
    out = {name: parse(top.table(name), name) for name in list(src.data)}
    top.done()
    if not out:
        raise ConfigError(src.name, "", "defines no strategy")
    return out


def lookup_strategy(spec: str, presets: dict[str, S],
                    load_file: Callable[[str], dict[str, S]]) -> S:
    """A preset name, ``file.toml`` (one strategy) or ``file.toml:name``."""
    spec = spec.strip()
    if spec in presets:
        return presets[spec]
    path, _, name = (spec.partition(":") if spec.count(":") == 1 and not Path(spec).exists()
                     else (spec, "", ""))
    if path.endswith(".toml") or Path(path).is_file():
        found = load_file(path)
        if name:
            if name not in found:
                raise UsageError(f"--strategies {spec}: no strategy {name!r} in {path} "
                                 f"(it has: {', '.join(found)})")
            return found[name]
        if len(found) != 1:
            raise UsageError(f"--strategies {spec}: {path} holds {len(found)} strategies; "
                             f"pick one as {path}:NAME ({', '.join(found)})")
        return next(iter(found.values()))
    raise UsageError(f"--strategies: unknown strategy {spec!r} (presets: {', '.join(presets)}; "
                     "or a path to a .toml file)")


def seat_items(spec: list[str] | str, n_players: int) -> list[str]:
    """One strategy for every seat or one per seat → one item per seat."""
    items = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(items) == 1:
        items = items * n_players
    if len(items) != n_players:
        raise UsageError(f"--strategies: {len(items)} names for {n_players} players "
                         "(give one name for every seat or one per seat)")
    return items
