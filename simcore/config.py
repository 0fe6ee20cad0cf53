"""Strict reading of designer-editable TOML files.

A :class:`Table` wraps one TOML table with the file name and key path, so every validation error
names file, key and problem in one line (:class:`simcore.errors.ConfigError`). Unknown keys are
errors: a typo in a rules file must never be silently ignored.

May import only the standard library and :mod:`simcore.errors`.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simcore.errors import ConfigError, UsageError


@dataclass(frozen=True)
class TomlSource:
    """A TOML file as read: where it came from, its text, its sha256 and the parsed data."""

    name: str
    text: str
    sha256: str
    data: dict


def read_toml(path: str | Path, *, what: str = "config") -> TomlSource:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise UsageError(f"{what} file not found: {p}") from None
    except OSError as exc:
        raise UsageError(f"cannot read {what} file {p}: {exc.strerror}") from None
    return parse_toml(raw, name=str(p))


def parse_toml(raw: bytes | str, *, name: str) -> TomlSource:
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(name, "", "not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(name, "", f"invalid TOML ({exc})") from None
    return TomlSource(name=name, text=text, sha256=hashlib.sha256(raw).hexdigest(), data=data)


_TYPE_NAMES = {int: "an integer", float: "a number", str: "a string", bool: "true or false",
               list: "a list", dict: "a table"}


class Table:
    """One TOML table under validation; remembers which keys were read to reject unknown ones."""

    def __init__(self, data: Any, source: str, path: str = "") -> None:
        if not isinstance(data, dict):
            raise ConfigError(source, path or "(top level)", "must be a table")
        self.data, self.source, self.path, self._seen = data, source, path, set()

    def key(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name

    def error(self, name: str, problem: str) -> ConfigError:
        return ConfigError(self.source, self.key(name), problem)

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, kind: type, default: Any = ..., *, lo: float | None = None,
            hi: float | None = None, choices: list | None = None) -> Any:
        self._seen.add(name)
        if name not in self.data:
            if default is ...:
                raise self.error(name, "missing")
            return default
        value = self.data[name]
        ok = isinstance(value, kind) and not (kind in (int, float) and isinstance(value, bool))
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value, ok = float(value), True
        if not ok:
            raise self.error(name, f"must be {_TYPE_NAMES.get(kind, kind.__name__)}, got {value!r}")
        if kind is float and not math.isfinite(value):     # (nan passes every bound check)
            raise self.error(name, f"must be a finite number, got {value!r}")
        if lo is not None and value < lo:
            raise self.error(name, f"must be >= {lo}, got {value!r}")
        if hi is not None and value > hi:
            raise self.error(name, f"must be <= {hi}, got {value!r}")
        if choices is not None and value not in choices:
            raise self.error(name, f"must be one of {', '.join(map(str, choices))}; got {value!r}")
        return value

    def table(self, name: str, default: Any = ...) -> "Table":
        self._seen.add(name)
        if name not in self.data:
            if default is ...:
                raise self.error(name, "missing table")
            return Table({}, self.source, self.key(name))
        return Table(self.data[name], self.source, self.key(name))

    def tables(self, name: str) -> list["Table"]:
        """An array of tables (``[[name]]`` or a list of inline tables)."""
        self._seen.add(name)
        if name not in self.data:
            raise self.error(name, "missing")
        items = self.data[name]
        if not isinstance(items, list):
            raise self.error(name, "must be a list of tables")
        return [Table(item, self.source, f"{self.key(name)}[{i}]") for i, item in enumerate(items)]

    def names(self, name: str, allowed: list[str], default: Any = ...) -> list[str]:
        """A list of names, each from ``allowed``."""
        values = self.get(name, list, default)
        for v in values:
            if v not in allowed:
                raise self.error(name, f"unknown name {v!r} (known: {', '.join(allowed)})")
        return list(values)

    def done(self) -> None:
        """Reject keys that were never read (typos, settings that do not exist)."""
        unknown = [k for k in self.data if k not in self._seen]
        if unknown:
            near = difflib.get_close_matches(str(unknown[0]), sorted(self._seen), n=1)
            raise self.error(unknown[0], "unknown key" + (f"; did you mean {near[0]}?" if near else "")
                             + (f" (known here: {', '.join(sorted(self._seen))})" if self._seen else ""))
