"""What every game's strategy files share: reading a file of named strategies, the ``weights`` and
``bias`` tables of one strategy, finding the strategy a user named (preset, ``file.toml`` or
``file.toml:name``), and spreading a ``--strategies`` value over the seats as kernel rows. Each game
supplies its own parser of one strategy table (its kinds, features, types and extra settings).

A run records the text of every strategy file its bots were read from (:func:`recording_files`:
the game's presets and any ``file.toml`` a seat names), and a replay reads those texts instead of
the files (:func:`using_recorded_files`), so an edit of a file after the run, or a replay on
another machine, plays the run's own bots. A baseline's check reads a file a seat names from where
the baseline records it (:func:`reading_files_at`), whatever the working directory.

May import the standard library, numpy and :mod:`simcore`.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
from pathlib import Path
from typing import Callable, Iterator, Mapping, TypeVar

import numpy as np

from simcore.config import Table, parse_toml, read_toml
from simcore.errors import ConfigError, UsageError

S = TypeVar("S")


def weights_and_bias(t: Table, features: tuple[str, ...] | list[str], types: tuple[str, ...] | list[str],
                     type_word: str) -> tuple[dict[str, float], dict[str, float]]:
    """The ``weights`` table (one number per decision feature) and the ``bias`` table (one number
    per type, a ``type_word`` such as "tile type") of one strategy; an unknown name or a number
    outside ±1000 is an error naming the key."""
    out = []
    for key, known, what in (("weights", features, "feature"), ("bias", types, type_word)):
        sub = t.table(key, {})
        values = {}
        for k in list(sub.data):
            if k not in known:
                near = difflib.get_close_matches(k, list(known), n=1)
                raise sub.error(k, f"unknown {what}" + (f"; did you mean {near[0]}?" if near else "")
                                + f" (known: {', '.join(known)})")
            values[k] = sub.get(k, float, lo=-1000, hi=1000)
        sub.done()
        out.append(values)
    return out[0], out[1]


def check_weights(t: Table, kind: str, weights: dict, bias: dict, features) -> None:
    """A random strategy takes no weights or bias; any other kind needs some."""
    if kind == "random" and (weights or bias):
        raise t.error("weights", "a random strategy takes no weights or bias")
    if kind != "random" and not weights and not bias:
        raise t.error("weights", f"a {kind} strategy needs weights (features: {', '.join(features)})")


def check_search_settings(t: Table, kind: str, search_kind: str, keys) -> None:
    """Settings that only a strategy of kind ``search_kind`` reads (playouts …) are an error on
    any other kind: a designer who writes them expects them to change something."""
    if kind == search_kind:
        return
    for k in keys:
        if t.has(k):
            raise t.error(k, f'only a {search_kind} strategy reads it (kind = "{search_kind}"); '
                             f'this one is kind = "{kind}"')


_RECORDING: contextvars.ContextVar[dict | None] = contextvars.ContextVar("strategy_files_read",
                                                                       default=None)
_RECORDED: contextvars.ContextVar[Mapping | None] = contextvars.ContextVar("strategy_files_given",
                                                                          default=None)
_LOCATED: contextvars.ContextVar[Mapping | None] = contextvars.ContextVar("strategy_files_at",
                                                                          default=None)
_ROOT = Path(__file__).resolve().parents[1]


def file_key(path: str | Path) -> str:
    """How run.json names a strategy file: a file of this project (a game's presets,
    ``configs/<game>/strategies.toml``) by its path in the project, so that it is found again in
    another checkout; any other file as the seat named it."""
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(_ROOT).as_posix()
        except ValueError:
            pass
    return str(path)


@contextlib.contextmanager
def recording_files() -> Iterator[dict[str, dict]]:
    """Within the block, every strategy file read is kept: ``{file_key: {"sha256", "text"}}`` in
    the dict yielded (what run.json's ``strategy_files`` holds)."""
    files: dict[str, dict] = {}
    token = _RECORDING.set(files)
    try:
        yield files
    finally:
        _RECORDING.reset(token)


@contextlib.contextmanager
def using_recorded_files(files: Mapping | None) -> Iterator[None]:
    """Within the block, a strategy file that ``files`` (run.json's ``strategy_files``) holds is
    read from there, not from the disk: a replay plays the bots the run played even after the file
    was edited, moved, or on another machine. A malformed entry is left out (the file is read)."""
    given = {str(k): v["text"] for k, v in (files or {}).items()
             if isinstance(v, Mapping) and isinstance(v.get("text"), str)}
    token = _RECORDED.set(given or None)
    try:
        yield
    finally:
        _RECORDED.reset(token)


@contextlib.contextmanager
def reading_files_at(located: Mapping | None) -> Iterator[None]:
    """Within the block, a strategy file a seat names as a key of ``located`` (its :func:`file_key`)
    is read from the path it maps to, and recorded under the seat's name: a baseline names each
    bot file as the run's seats did and keeps where it is relative to the baseline file, so that
    ``balance check`` finds it from any working directory with the bots' names (the strategy
    metrics' keys) unchanged (review s61 #2)."""
    token = _LOCATED.set({str(k): str(v) for k, v in (located or {}).items()} or None)
    try:
        yield
    finally:
        _LOCATED.reset(token)


def _read_strategies(path: str | Path):
    key = file_key(path)
    given = _RECORDED.get()
    located = _LOCATED.get()
    if given is not None and key in given:
        src = parse_toml(given[key], name=f"{path} (as recorded in run.json)")
    elif located is not None and key in located:
        src = read_toml(located[key], what="strategies")
    else:
        src = read_toml(path, what="strategies")
    files = _RECORDING.get()
    if files is not None:
        files[key] = {"sha256": src.sha256, "text": src.text}
    return src


def load_strategy_file(path: str | Path, parse: Callable[[Table, str], S],
                       parse_search: Callable[[Table, str, dict], S] | None = None,
                       known: Callable[[], dict] = dict, presets: Path | None = None) -> dict[str, S]:
    """Every top-level table of a strategies TOML, parsed by the game's ``parse``; with
    ``parse_search``, tables of ``kind = "search"`` are parsed after the others, by
    ``parse_search(table, name, bots)`` where ``bots`` are ``known()`` and this file's other bots
    (:mod:`strategies.search`). ``presets``: the game's shipped strategies file; a file refused
    that is another game's strategies says so, with the ``--game`` to add (review s59 #4)."""
    src = _read_strategies(path)
    try:
        return _parsed_strategies(src, parse, parse_search, known)
    except ConfigError:
        from simcore.config import other_game_strategies

        found = None if presets is None else other_game_strategies(src.data, presets)
        if found is None:
            raise
        mine, other, foreign, kinds = found
        # only what is known: the kinds are the other game's, not that the file is valid there
        # (review s59 rv235 #4: a lone policy bot is refused by Seigneurial too)
        by_kind: dict[str, list[str]] = {}
        for bot, kind in foreign.items():
            by_kind.setdefault(kind, []).append(bot)
        said = "; ".join(f"kind \"{k}\" (bot{'s' if len(b) > 1 else ''} "
                         f"{', '.join(b[:3]) + (', …' if len(b) > 3 else '')})" for k, b in by_kind.items())
        one = len(by_kind) == 1
        raise ConfigError(src.name, "", f"{said}: {'a kind' if one else 'kinds'} of bot of {other}, "
                                        f"which {mine} does not have (its kinds: {', '.join(kinds)}); "
                                        f"if the file is written for {other}, give --game {other}") from None


def _parsed_strategies(src, parse, parse_search, known) -> dict:
    top = Table(src.data, src.name)
    tables = {name: top.table(name) for name in list(src.data)}
    out = {}
    for name, t in tables.items():
        if parse_search is None or t.data.get("kind") != "search":
            out[name] = parse(t, name)
    later = [n for n in tables if n not in out]
    if later:
        bots = {**known(), **out}
        for name in later:
            out[name] = parse_search(tables[name], name, bots)
        out = {name: out[name] for name in tables}
    top.done()
    if not out:
        raise ConfigError(src.name, "", "defines no strategy")
    return out


def spec_file(spec: str) -> tuple[str, str]:
    """(path, name) of a strategy spec as :func:`lookup_strategy` reads it: ``file.toml:name`` →
    (``file.toml``, ``name``); ``file.toml`` or a preset name → (the spec, '')."""
    spec = spec.strip()
    if spec.count(":") == 1 and not Path(spec).exists():
        path, _, name = spec.partition(":")
        return path, name
    return spec, ""


def strategy_files(strategies: str | None) -> list[str]:
    """What a ``--strategies`` list (comma-separated specs) may name as files, by
    :func:`spec_file`: the output check's inputs (an output may not be or hold them; names that
    are no file are dropped there)."""
    return [spec_file(item)[0] for item in (strategies or "").split(",") if item.strip()]


def lookup_strategy(spec: str, presets: dict[str, S],
                    load_file: Callable[[str], dict[str, S]], option: str = "--strategies") -> S:
    """A preset name, ``file.toml`` (one strategy) or ``file.toml:name``; errors name ``option``,
    the command-line option the spec came from."""
    spec = spec.strip()
    if spec in presets:
        return presets[spec]
    path, name = spec_file(spec)
    if path.endswith(".toml") or Path(path).is_file():
        found = load_file(path)
        if name:
            if name not in found:
                raise UsageError(f"{option} {spec}: no strategy {name!r} in {path} "
                                 f"(it has: {', '.join(found)})")
            return found[name]
        if len(found) != 1:
            raise UsageError(f"{option} {spec}: {path} holds {len(found)} strategies; "
                             f"pick one as {path}:NAME ({', '.join(found)})")
        return next(iter(found.values()))
    if "=" in spec and option == "--strategies":
        # the per-role form of --lineup and the ladder (review s46 #12): say what this option takes
        _, _, name = spec.partition("=")
        raise UsageError(f"{option}: {spec!r} is the ROLE=NAME form of --lineup; --strategies takes "
                         f"the names alone, one per role in the game's role order (e.g. {name},…) "
                         f"or one per seat")
    near = difflib.get_close_matches(spec, list(presets), n=1)
    hint = f"; did you mean {near[0]}?" if near else ""
    raise UsageError(f"{option}: unknown strategy {spec!r}{hint} (presets: {', '.join(presets)}; "
                     "or a path to a .toml file)")


def count_words(n_players: int, per_role: str = "") -> str:
    """The forms a line-up's count may take, as the count error words them: "1 name, played in
    every seat, or 4, one per seat", then ``per_role`` (a game with roles: ", or 2, one per role,
    …"). Review s61 fix 258 #3: "give one name for every seat or one per seat" read as one form said
    twice, and left out the per-role form the seat-role error offers."""
    return f"1 name, played in every seat, or {n_players}, one per seat{per_role}"


def seat_items(spec: list[str] | str, n_players: int, per_role: str = "") -> list[str]:
    """One strategy for every seat or one per seat → one item per seat; another count is refused
    in one line naming the forms (:func:`count_words`; ``per_role``: a game with roles adds its
    per-role form, which ``simulate`` spells out per seat before this)."""
    items = [s.strip() for s in spec.split(",")] if isinstance(spec, str) else list(spec)
    if len(items) == 1:
        items = items * n_players
    if len(items) != n_players:
        raise UsageError(f"--strategies: {len(items)} names for {n_players} players "
                         f"(give {count_words(n_players, per_role)})")
    return items


def resolve_rows(spec: list[str] | str, n_players: int, lookup: Callable[[str], S],
                 n_cols: int) -> tuple[list[str], np.ndarray]:
    """One strategy for every seat or one per seat → (names per seat, the kernel's strategy rows:
    float64[n_players, n_cols], each strategy's ``row``). A preset's name is its key; a file spec
    is kept as typed."""
    items = seat_items(spec, n_players)
    rows = np.zeros((n_players, n_cols), np.float64)
    cache: dict[str, S] = {}
    for seat, item in enumerate(items):
        if item not in cache:
            cache[item] = lookup(item)
        rows[seat] = cache[item].row
    return items, rows


class StrategyFiles:
    """A game's strategy loader written once (a :class:`simcore.contract.StrategyLoader`):
    ``presets_path`` is the game's strategies TOML, ``parse(table, name)`` its parser of one
    strategy (returning an object with a float64 ``row`` of ``n_cols``). A game's loader module
    can be ``LOADER = StrategyFiles(...)`` with ``presets = LOADER.presets`` and so on."""

    def __init__(self, presets_path: Callable[[], Path] | Path, parse: Callable[[Table, str], S],
                 n_cols: int, parse_search: Callable[[Table, str, dict], S] | None = None) -> None:
        self._path, self.parse, self.n_cols = presets_path, parse, n_cols
        self.parse_search = parse_search      # kind = "search" tables (strategies.search)

    def presets_path(self) -> Path:
        return Path(self._path() if callable(self._path) else self._path)

    def load_file(self, path: str | Path, known: Callable[[], dict] | None = None) -> dict[str, S]:
        """A strategies file; its search bots may name a bot of the file or a preset (``known``)."""
        return load_strategy_file(path, self.parse, self.parse_search,
                                  known if known is not None else self.presets,
                                  presets=self.presets_path())

    def presets(self) -> dict[str, S]:
        return self.load_file(self.presets_path(), known=dict)

    def lookup(self, spec: str, option: str = "--strategies") -> S:
        """A preset name, ``file.toml`` (one strategy), ``file.toml:name`` or ``searchN`` (the
        search bot at N playouts per option, :func:`strategies.search.by_budget`)."""
        known = self.presets()
        if self.parse_search is not None:
            from strategies.search import by_budget

            found = by_budget(spec, known, self.parse_search, option)
            if found is not None:
                return found
        return lookup_strategy(spec, known, self.load_file, option)

    def resolve(self, spec: list[str] | str, n_players: int) -> tuple[list[str], np.ndarray]:
        """One strategy for every seat or one per seat → (names per seat, strategy rows)."""
        return resolve_rows(spec, n_players, self.lookup, self.n_cols)
