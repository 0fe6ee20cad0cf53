"""Plan and play a sweep: validate every variant through the runner, then play them into one directory.

:func:`plan_sweep` parses ``--vary`` (:mod:`analysis.sweep.grammar`), builds the variants and
prepares each one with :func:`simcore.runner.prepare` (the rules file with the variant's settings,
validated by the game's own loader), so a bad path, type or value stops the sweep in a second with
one line, before any game (so does a ``--vary`` of one value, :func:`check_compared`, and a
fractional step on a whole-number setting is named as such); it also puts the value past each end
of a numeric range through the loader (:func:`beyond_checks`: the page suggests no value the rules
refuse). :func:`run_sweep` writes ``sweep.json`` (everything needed to play the
sweep again: game, seed, games, the base rules text, the ranges and the variants) and plays every
variant with the same seed (common random numbers: game i of every variant draws from the stream
(seed, i), so differences between variants are not blurred by different dice) into
``variants/<id>/``, a run directory published atomically. Running the same sweep again into the same
directory skips the variants already published: an interrupted sweep resumes where it stopped. The
kernels compile once per process: a variant's rules are runtime arrays, not compile-time constants.

A sweep without player rows (above :data:`simcore.runner.RAW_LIMIT` games per variant, or
``raw=False``: ``balance sweep --no-raw``) plays its variants together instead, chunk by chunk
(:func:`play_together`), and keeps the exact sums its paired effects need in ``paired_stats.json``
(:mod:`analysis.sweep.joint`): its report costs the same at any number of games. While it plays,
what the variants have played is kept every 8 chunks (``played_so_far/``): interrupted, it goes on
from there; interrupted after paired_stats.json is written, only the variants not yet published
are played, each alone.

May import numpy, the standard library, :mod:`simcore.runner`, :mod:`simcore` (config, errors, rundir,
atomic, registry), :mod:`analysis.sweep.grammar`, :mod:`analysis.sweep.joint` and, lazily, the
variant pairs and anchors of :mod:`analysis.sweep.metrics` and :mod:`analysis.rules_diff` (whether a
player count reads a setting, :func:`check_read`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

import simcore
from simcore import games as registry
from simcore import runner
from simcore.atomic import (check_output_dir, claim_output, mark_dir, ownership_problem, publish_dir,
                            read_marker, recover_leftovers, release_claim, seal_dir, temporary_dir,
                            write_text_atomic)
from simcore.config import format_value, parse_settings
from simcore.errors import ConfigError, UsageError
from simcore.options import check_chunk_size, check_seed
from simcore.rundir import RUN_JSON, damage

from analysis.sweep.grammar import (PLAYERS, Vary, Variant, check_seats_of, grid, one_at_a_time,
                                    parse_varies)
from analysis.sweep.joint import JOINT_FILE, metric_scales
from analysis.sweep.store import SWEEP_JSON, VARIANTS, read_sweep  # noqa: F401  (API)
from analysis.sweep.store import shape_problem

FORMAT = 1
# what must match for a directory to be resumed (the rest: times, status)
PLAN_KEYS = ("format", "kind", "game", "players", "strategies", "games", "seed", "rules_text",
              "settings", "varies", "mode", "variants", "rotate_seats", "targets", "confirm_games",
              "confirm_seed", "panel", "aggregate", "player_rows", "options", "panel_intervals")


@dataclass
class SweepPlan:
    """A validated sweep: the variants and their prepared runs (nothing played yet)."""

    game: str
    games: int
    seed: int
    varies: tuple[Vary, ...]
    variants: list[Variant]
    mode: str                                   # "grid" or "one-at-a-time"
    players: int | None
    strategies: str | None
    rules: str | None                           # the rules file given (None: the game's default)
    rules_name: str
    rules_text: str                             # the base rules file (before any --set)
    settings: tuple[str, ...]
    rotate_seats: bool | None
    preps: list = field(default_factory=list, repr=False)
    smallest: dict | None = None                # smallest differences that matter, by kind (or the game's)
    player_rows: bool = True                    # keep players.parquet (False: played together, paired_stats.json)
    rows_given: bool = False                    # --raw / --no-raw given (else the default by size)
    beyond: dict = field(default_factory=dict)  # the loader on the value past each end (beyond_checks)
    options: dict = field(default_factory=dict)  # the game's own options given (a Fief combat's matchup)

    def variant_dir(self, out: Path, v: Variant) -> Path:
        return Path(out) / VARIANTS / v.id

    def to_json(self) -> dict:
        return {
            "format": FORMAT, "kind": "sweep", "game": self.game, "players": self.players,
            "strategies": self.strategies, "games": self.games, "seed": self.seed,
            "rules_name": self.rules_name, "rules_text": self.rules_text,
            "settings": list(self.settings), "varies": [v.to_json() for v in self.varies],
            "mode": self.mode, "variants": [v.to_json(self.varies) for v in self.variants],
            "rotate_seats": self.rotate_seats, "version": simcore.__version__,
            "common_random_numbers": "every variant plays games 0..games-1 of the same seed: game i "
                                     "draws from the stream (seed, i)",
            **({"smallest_difference": dict(self.smallest)} if self.smallest else {}),
            # a sweep without rows (above the runner's row limit, or --no-raw) plays its variants
            # together; a sweep with rows writes no key (as every sweep did before), so it resumes
            **({"player_rows": False} if not self.player_rows else {}),
            # one at a time: the others held at the base rules' value where listed (metrics.anchors;
            # a sweep written before held them at their first value and has no key)
            **({"held": "base"} if self.mode == "one-at-a-time" else {}),
            # whether the rules take the value past each end of a numeric range (beyond_checks;
            # a sweep written before has no key, and its page cannot say)
            **({"beyond": self.beyond} if self.beyond else {}),
            # the game's own options every variant plays with (a Fief combat's --attacker, --darc
            # …; a sweep written before, or without any, has no key)
            **({"options": dict(self.options)} if self.options else {}),
        }


def base_rules(game: str, rules: str | Path | None):
    """The rules file a sweep or tune starts from (the file given, or the game's default), as a
    TomlSource; the base ``--set`` are applied with each variant's own (the player count of a
    variant decides how long a per-seat list made from one value is)."""
    return runner.rules_source(game, rules, ())


def plan_sweep(game: str, *, varies: list[str], games: int, seed: int = 0,
               one_at_a_time_mode: bool = False, players: int | None = None,
               strategies: str | None = None, rules: str | Path | None = None,
               settings: list[str] | tuple = (), rotate_seats: bool | None = None,
               option: str = "--vary", smallest: dict | None = None,
               raw: bool | None = None, all_players: tuple[int, ...] | None = None,
               options: dict | None = None) -> SweepPlan:
    """Parse and validate a sweep; every variant is prepared (validated) here, none is played.
    ``raw``: keep every variant's players.parquet (default: up to the runner's row limit,
    :data:`simcore.runner.RAW_LIMIT` games per variant, as ``simulate`` does). Without rows the
    variants are played together (:func:`run_sweep`). A ``--vary``/``--set PATH[k]`` of a per-seat
    list whose seat none of the player counts played has is refused
    (:func:`analysis.sweep.grammar.check_seats_of`; ``all_players``: every cell's count, for a
    panel's cell). ``options``: the game's own options (a Fief combat's ``attacker``, ``darc`` …,
    as ``simulate`` takes them; None values are "not given"), the same for every variant."""
    spec = registry.get(game)
    check_seed(seed)
    options = {k: v for k, v in (options or {}).items() if v is not None}
    spec.check_options(options)
    parsed = parse_varies(varies, option)
    check_compared(parsed, option)
    base = parse_settings(settings)
    for v in parsed:
        if v.is_players and "players" not in spec.takes:
            raise UsageError(f"{option} {v.text}: {spec.name} has no player count to vary")
        if not v.is_players and any(s.path == v.path for s in base):
            raise UsageError(f"{option} {v.text}: also given with --set (give it once)")
    src = base_rules(game, rules)
    counts = all_players or next((v.values for v in parsed if v.is_players), None) \
        or (players or spec.default_players,)
    check_seats_of(spec, parsed, base, counts, src.data, option)
    if all_players is None:                 # (a panel's cells: plan_panel_sweep, once for all)
        check_read(game, parsed, base, counts, src.text, option)
    # moving one at a time, the others stay at the base rules' value where their list has it (the
    # shipped game a designer compares against), else at their first value (metrics.anchors)
    variants = (one_at_a_time(parsed, option, held_at_base(parsed, src.text, [s.text for s in base]))
                if one_at_a_time_mode else grid(parsed, option))
    plan = SweepPlan(game=game, games=games, seed=seed, varies=parsed, variants=variants,
                     mode="one-at-a-time" if one_at_a_time_mode else "grid", players=players,
                     strategies=strategies, rules=str(rules) if rules is not None else None,
                     rules_name=src.name, rules_text=src.text,
                     settings=tuple(s.text for s in base), rotate_seats=rotate_seats,
                     smallest=dict(smallest) if smallest else None,
                     player_rows=raw if raw is not None else games <= runner.RAW_LIMIT,
                     rows_given=raw is not None, options=options)
    for v in variants:
        plan.preps.append(prepare_variant(plan, v, src))
    plan.beyond = beyond_checks(plan, src)
    return plan


def check_read(game: str, varies, settings, counts, rules_text: str, option: str = "--vary",
               panel: bool = False) -> None:
    """Refuse, in one line before any game, a ``--vary`` of a setting that no player count played
    reads (:func:`analysis.rules_diff.reads_setting`: its rules read alike at every value at each
    count): ``track.goal.4`` at 3 players is the goal of another count, so every variant plays the
    same games, and the page said the setting "does not change" the outcome by more than what
    matters (review s61 #1). ``counts``: every player count played (a panel's cells' counts)."""
    counts = sorted({int(c) for c in counts if c})
    if not counts:
        return
    unread = unread_counts(game, varies, settings, counts, rules_text)
    for v in varies:
        if v.is_players or len(unread.get(v.name, ())) < len(counts):
            continue
        at = counts_text(counts)
        where = f"in any cell of this panel ({at} players)" if panel else f"at {at} players"
        raise UsageError(f"{option} {v.text}: {registry.get(game).title} does not read {v.name} "
                         f"{where}: the rules played are the same at every value, so it would "
                         "change no game")


def unread_counts(game: str, varies, settings, counts, rules_text: str) -> dict[str, list[int]]:
    """Per varied setting, the player counts among ``counts`` that do not read it at its values
    (:func:`analysis.rules_diff.reads_setting`; ``settings``: the ``--set`` settings played): the
    decision :func:`check_read` refuses a ``--vary`` by when it is every count, and a tune over a
    panel leaves cells out by when it is some (session 63). A varied player count reads itself."""
    from analysis.rules_diff import reads_setting

    counts = sorted({int(c) for c in counts if c})
    texts = [s.text for s in settings]
    return {v.name: [n for n in counts if not reads_setting(game, rules_text, texts, n, v.name, v.values)]
            for v in varies if not v.is_players}


def counts_text(counts) -> str:
    """"3", "3 and 5", "3, 4 and 5": player counts, lowest first, as a refusal names them."""
    counts = sorted({int(c) for c in counts})
    return (str(counts[0]) if len(counts) == 1 else
            ", ".join(map(str, counts[:-1])) + f" and {counts[-1]}")


def check_compared(varies, option: str = "--vary") -> None:
    """Every ``--vary`` of a sweep has two values or more: a sweep compares values, and one value
    has nothing to be compared with (review s46 #11: ``--vary income.palais.base=3..3`` played its
    games and wrote a page whose "What moves what" was empty). One line, before any game."""
    import math

    for v in varies:
        odd = next((x for x in v.values if isinstance(x, float) and not math.isfinite(x)), None)
        if odd is not None:     # (said first: "one value (nan)" read as if nan were one, review s51)
            raise UsageError(f"{option} {v.text}: {v.value_text(odd)} is not a number a setting can "
                             "take: give finite numbers")
        if len(v.values) == 1:
            only = v.value_text(v.values[0])
            alone = (f"--players {only}" if v.is_players else f"--set {v.name}={only}")
            raise UsageError(f"{option} {v.text}: one value ({only}), so the sweep has nothing to "
                             f"compare it with: give two values or more (play it alone with "
                             f"{alone})")


def _step_words(vary: Vary) -> str | None:
    """Why a range of numbers with a step (``3..5:0.5``) is refused by a setting that takes whole
    numbers: the step (or an end) is not a whole number, so the range's values are read as decimals
    (review s46 #11: "must be an integer, got 3.0" named the value, not the step). None for a range
    of whole numbers or a list."""
    if vary.kind != "float" or vary.step is None:
        return None
    bad = next((x for x in vary.values if float(x) != int(x)), None)
    if bad is not None:
        cause = (f"the step {format_value(vary.step)} makes {format_value(bad)}"
                 if float(vary.lo) == int(vary.lo) else f"the range starts at {format_value(vary.lo)}")
    else:
        cause = "the range is written with decimals, so its values are read as decimals"
    whole = (f"{int(vary.lo)}..{int(vary.hi)}:{max(1, round(vary.step))}"
             if float(vary.lo) == int(vary.lo) and float(vary.hi) == int(vary.hi) else None)
    return (f"{vary.name} takes whole numbers, but {cause}"
            + (f" (in whole numbers: {vary.name}={whole})" if whole else " (give whole numbers)"))


def held_at_base(varies, rules_text: str, settings: list[str]) -> list[int]:
    """Per parameter of a one-at-a-time sweep, the index of the value the others are played with
    while it stays put: the base rules' value (the rules text with the sweep's own --set) where its
    list has it, else 0 (its first value)."""
    from analysis.sweep.metrics import base_value, json_eq

    sweep = {"rules_text": rules_text, "settings": list(settings)}
    out = []
    for v in varies:
        base = None if v.is_players else base_value(sweep, v.name)
        out.append(next((k for k, x in enumerate(v.values) if base is not None and json_eq(x, base)), 0))
    return out


def prepare_variant(plan: SweepPlan, v: Variant, src=None):
    """The prepared run of variant ``v`` (the base rules with its settings; its player count)."""
    if src is None:
        from simcore.config import parse_toml

        src = parse_toml(plan.rules_text, name=plan.rules_name)
    p = v.players(plan.varies)
    if p is None:               # (not `or`: --vary players=[0,4] played 0 as "not given", review s51)
        p = plan.players
    try:
        return runner.prepare(plan.game, rules=src, settings=[*plan.settings, *v.settings(plan.varies)],
                              players=p,
                              strategies=plan.strategies, rotate_seats=plan.rotate_seats,
                              **plan.options)
    except ConfigError as exc:
        # a value of a --vary: name the --vary the designer typed, not the --set it is played as
        key = str(exc.key or "")
        vary = next((x for x in plan.varies if not x.is_players and key
                     and (x.name == key or x.name.startswith(key + "[") or key.startswith(x.name + ".")
                          # an unknown table of the path (nope.x: the error names "nope")
                          or x.name.startswith(key + "."))),
                    None)
        if vary is None:
            raise
        if "integer" in str(exc.problem) and (step := _step_words(vary)) is not None:
            raise UsageError(f"--vary {vary.text}: {step}") from None
        raise UsageError(f"--vary {vary.text}: variant {v.label(plan.varies)}: {key}: {exc.problem}") \
            from None
    except UsageError as exc:
        msg = str(exc)
        vary = next((x for x in plan.varies if msg.startswith(f"--set {x.name}=")), None)
        if type(exc) is UsageError and vary is not None and ": " in msg:
            raise UsageError(f"--vary {vary.text}: variant {v.label(plan.varies)}: "
                             f"{msg.split(': ', 1)[1]}") from None
        # a game option's own refusal (--darc nobody) is every variant's: said as the option's
        flags = {o.flag for o in registry.get(plan.game).options if o.name in plan.options}
        if any(msg.startswith(f + " ") or msg.startswith(f + ":") for f in flags):
            raise
        raise type(exc)(f"variant {v.label(plan.varies)}: {exc}") if type(exc) is UsageError \
            else exc


def _refusal(plan: SweepPlan, values: dict, src=None) -> str | None:
    """The game's loader's line refusing the variant of ``plan`` with the values ``values`` (name →
    value, ``players`` the player count), prepared as :func:`prepare_variant` prepares a variant
    (nothing played); None when it takes them."""
    if src is None:
        from simcore.config import parse_toml

        src = parse_toml(plan.rules_text, name=plan.rules_name)
    sets = [f"{n}={format_value(x)}" for n, x in values.items() if n != PLAYERS]
    try:
        runner.prepare(plan.game, rules=src, settings=[*plan.settings, *sets],
                       players=values.get(PLAYERS, plan.players), strategies=plan.strategies,
                       rotate_seats=plan.rotate_seats, **plan.options)
    except ConfigError as exc:
        return f"{exc.key}: {exc.problem}" if exc.key else str(exc)
    except UsageError as exc:
        return str(exc)
    return None


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def beyond_checks(plan: SweepPlan, src=None) -> dict:
    """sweep.json ``beyond``: per numeric parameter whose values rise, the next value past each end
    of its range put through the game's loader, with the other parameters where the page's
    sentences hold them (:func:`analysis.sweep.metrics.anchors`): ``{name: {"low": {"at", "value",
    "refused"}, "high": {…}}}``, ``value`` one unit past the end for whole numbers (else the
    spacing of the two end values), ``refused`` the loader's line for it, None when taken. The page
    reads it before it suggests a value beyond those tried (review s46 #3: "a lower value may be
    fairer" for start coins of 0, which cannot go below 0; the tune's range advice does the same,
    result.json ``edges``). Nothing is played."""
    from analysis.sweep.metrics import anchors

    held = {name: value for name, (value, _) in anchors(plan.to_json()).items()}
    out = {}
    for v in plan.varies:
        xs = list(v.values)
        if len(xs) < 2 or not all(_is_number(x) for x in xs) or xs != sorted(xs):
            continue
        ints = all(isinstance(x, int) for x in xs)
        rec = {}
        for side, at, gap in (("low", xs[0], xs[1] - xs[0]), ("high", xs[-1], xs[-1] - xs[-2])):
            step = 1 if ints else gap
            beyond = at - step if side == "low" else at + step
            beyond = int(beyond) if ints else round(float(beyond), 12)
            values = {o: x for o, x in held.items() if o != v.name}
            try:
                refused = _refusal(plan, {**values, v.name: beyond}, src)
            except Exception:               # noqa: BLE001 - not the loader's line: nothing said
                continue
            rec[side] = {"at": at, "value": beyond, "refused": refused}
        if rec:
            out[v.name] = rec
    return out


def keep_recorded_rows(plan, out: str | Path, kind: str = "sweep") -> None:
    """A sweep resumed without ``--raw``/``--no-raw`` is played as its directory records it: with
    rows or without (a directory written before sweeps could go without rows records no
    ``player_rows``: its variants kept their rows). Else the same sweep on the other side of the
    1e5-game default would be "another sweep" and refused. ``plan``: a :class:`SweepPlan` or a
    panel sweep's plan (its ``plans``)."""
    plans = getattr(plan, "plans", [plan])
    if any(p.rows_given for p in plans):
        return
    try:
        before = json.loads((Path(out) / f"{kind}.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        return
    if shape_problem(before, f"{kind}.json"):
        return                          # (prepare_out says what is wrong with it)
    recorded = before.get("player_rows", True) is not False
    mine = plan.to_json()
    if recorded != plans[0].player_rows and _same_plan(
            {**before, "player_rows": mine.get("player_rows")}, mine):
        for p in plans:
            p.player_rows = recorded


def plan_value(plan: dict, key: str):
    """``plan[key]`` as it decides what is played: ``players`` not given (None) is the game's
    default count, so a command that leaves ``--players 4`` out resumes the one that gave it
    (review s48 tune #5: "holds another tune (different players)" for the same tune)."""
    v = plan.get(key)
    if key == "players" and v is None and plan.get("game"):
        spec = registry.get(plan["game"]) if plan["game"] in registry.names() else None
        if spec is not None and "players" in spec.takes:
            return spec.default_players
    return v


def _same_plan(a: dict, b: dict) -> bool:
    return all(json.dumps(plan_value(a, k), sort_keys=True) == json.dumps(plan_value(b, k), sort_keys=True)
               for k in PLAN_KEYS)


def prepare_out(plan_json: dict, out: Path, force: bool, kind: str = "sweep", inputs=()) -> bool:
    """Check and claim ``out`` before any game: a new or empty directory, or one holding this very
    plan (then it resumes: returns True). Another plan there is refused unless ``force``; the new
    one is then built beside it and replaces it whole when complete (:func:`begin_out`). Either way
    the directory is claimed: a second command writing it stops at once. ``inputs``: files the
    command reads, which ``out`` must neither be nor hold (:func:`simcore.atomic.check_output_dir`)."""
    out = Path(out)
    name = f"{kind}.json"
    old = out / name
    if old.is_file():
        try:
            before = json.loads(old.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError, OSError, RecursionError):
            before = {}
        # not an object, or (to be resumed) not the shape its readers index
        problem = (shape_problem(before, name) if not isinstance(before, dict) else
                   shape_problem(before, name) if before and _same_plan(before, plan_json) else None)
        if problem:
            # edited by hand into another shape (review s62 rv267 #7: a traceback, resumed or not)
            if not force:
                raise UsageError(f"--out {out}: its {name} is not as balance writes it ({problem}): "
                                 f"give a new --out, or --force to play the {kind} anew (the "
                                 "directory is replaced whole only when the new one is complete)")
            before = {}
        if _same_plan(before, plan_json):
            marker = read_marker(out)
            if marker is None or marker["kind"] != kind:
                raise UsageError(f"--out {out}: cannot resume: "
                                 + (ownership_problem(out, kind) or f"not a {kind} directory"))
            claim_output(out, kind=kind)        # one writer per directory
            return True
        if not force:
            if kind == "tune" and plan_json.get("panel_intervals") and not before.get("panel_intervals") \
                    and _same_plan({**before, "panel_intervals": plan_json["panel_intervals"]}, plan_json):
                # (review s59 rv235 #5: resumed, its earlier trials' worst-cell intervals, each
                # cell's own 95%, were mixed with the new ones at 1 − 0.05/cells)
                raise UsageError(f"--out {out}: this tune was started by an earlier version of the "
                                 "toolkit, whose intervals over the panel's cells differ (each cell's "
                                 "own 95%, not 1 − 0.05/cells), so it cannot be resumed; rerun with "
                                 "--force to play it anew, or give a new --out")
            if _same_plan({**before, "player_rows": plan_json.get("player_rows")}, plan_json):
                was = before.get("player_rows", True) is not False
                either = " (or neither)" if kind in ("sweep", "panel_sweep") else ""  # keep_recorded_rows
                raise UsageError(f"--out {out}: this {kind.replace('_', ' ')} was played "
                                 f"{'with' if was else 'without'} player rows; give "
                                 f"{'--raw' if was else '--no-raw'}{either} to resume it, or "
                                 "--force to play it anew the other way")
            raise UsageError(f"--out {out}: holds another {kind} (different {_first_diff(before, plan_json)}); "
                             f"use another --out, or --force to replace it")
    check_output_dir(out, force, inputs=inputs, kind=kind)
    return False


def begin_out(out: Path, kind: str, entries) -> Path:
    """Where a new sweep or tune is written: ``out`` itself when new or empty (so a killed one
    resumes), else (``--force`` over another one) a hidden directory beside it that
    :func:`finish_out` publishes whole, so the old one stays until the new one is complete."""
    out = Path(out)
    if out.is_dir() and any(out.iterdir()):
        work = temporary_dir(out)
    else:
        out.mkdir(parents=True, exist_ok=True)
        work = out
    mark_dir(work, kind, entries)
    return work


#: What a sweep writes inside its listed folders (:func:`simcore.atomic.seal_dir`'s ``inside``):
#: a variant ``variants/v000`` … (a run, whose own marker lists its files).
SWEEP_INSIDE = {VARIANTS: r"v[0-9]{3,}"}


def finish_out(work: Path, out: Path, inside: dict[str, str] | None = None) -> Path:
    """Publish a sweep or tune written by :func:`begin_out` and release its claim. Written in place
    (new, or resumed), its marker records the paths inside its folders that it wrote
    (:func:`simcore.atomic.seal_dir`; ``inside``: the names it writes there), never a user's file
    found there (review s59 #1: a sweep run again took one in, and the next --force deleted it)."""
    if Path(work) != Path(out):
        return publish_dir(work, out)       # (beside, when something appeared there meanwhile)
    else:
        seal_dir(out, inside)    # the paths inside its folders, for a later --force to check
        release_claim(out, True)
    return Path(out)


def _first_diff(a: dict, b: dict) -> str:
    for k in PLAN_KEYS:
        if json.dumps(plan_value(a, k), sort_keys=True) != json.dumps(plan_value(b, k), sort_keys=True):
            return k.replace("_", " ")
    return "settings"


def check_play_options(plans: list[tuple[SweepPlan, Path]], out: str | Path,
                       chunk_size: int | None) -> None:
    """Everything the variants will be played with, checked before anything is created (one line,
    exit 2; review G #3: ``--chunk-size -5`` was refused only after ``--out`` held sweep.json and
    an empty variants/, which the next sweep then called another sweep): ``--chunk-size``, the
    games against every variant's deal (``--rotate-seats``: a multiple of its players), and the
    disk space of the variants not yet played. ``plans``: (sweep plan, the directory it is played
    into), one per panel cell."""
    check_chunk_size(chunk_size)
    runs, rows = [], []
    for plan, where in plans:
        for v, prep in zip(plan.variants, plan.preps):
            if plan.games % prep.games_per_deal:
                raise UsageError(f"--games {plan.games}: with --rotate-seats the count must be a "
                                 f"multiple of {prep.games_per_deal} (one game per rotation of every "
                                 "deal)")
            if not (plan.variant_dir(where, v) / RUN_JSON).is_file():
                runs.append((prep, plan.games))
                rows.append(plan.player_rows)
    if runs:
        try:
            runner.check_disk_space(runs, out, any(rows), option="--out")
        except UsageError as exc:
            raise UsageError(str(exc).replace("the run needs", f"the {len(runs)} variants to play need")
                             .replace(", drop --raw", ", --no-raw, fewer variants")) from None


def run_sweep(plan: SweepPlan, out: str | Path, *, force: bool = False, threads: int | None = None,
              chunk_size: int | None = None,
              progress: Callable[[int, int, str], None] | None = None, executor=None,
              on_resume: Callable[[Path, int, str | None], None] | None = None) -> Path:
    """Play every variant of ``plan`` not yet in ``out``; returns ``out``.

    ``progress(games_done, games_total, variant_label)`` is called as games complete (the command
    line draws one bar over the whole sweep). ``executor``: where the games are played (default
    here; a :class:`simcore.cluster.Cluster` plays them on Dask, the same run directories).
    ``on_resume(out, start, problem)``: a sweep without rows, once what ``played_so_far/`` kept
    has been read (:func:`simcore.runner.execute_together`'s ``on_resume``: the first game its
    variants play, and why a checkpoint there could not be used, or None)."""
    final = Path(out)
    keep_recorded_rows(plan, final)
    meta = plan.to_json()
    check_play_options([(plan, final)], final, chunk_size)   # before anything is created
    resuming = prepare_out(meta, final, force)
    out = final
    if not resuming:
        meta["created_utc"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        out = begin_out(final, "sweep", (SWEEP_JSON, VARIANTS, JOINT_FILE, PLAYED_SO_FAR))
        write_text_atomic(out / SWEEP_JSON, json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                          force=True)
    (out / VARIANTS).mkdir(exist_ok=True)
    recover_leftovers(out / VARIANTS)
    total = plan.games * len(plan.variants)
    done = 0
    say = progress or (lambda *_: None)
    if (out / JOINT_FILE).is_file():
        check_joint(plan, out / JOINT_FILE)         # before a variant is played against it
    if not plan.player_rows and not (out / JOINT_FILE).is_file():
        play_together(plan, out, threads=threads, chunk_size=chunk_size, executor=executor,
                      progress=lambda d, t: say(d, total, "every variant, together"),
                      on_resume=None if on_resume is None
                      else (lambda start, problem: on_resume(out, start, problem)))
        return finish_out(out, final, SWEEP_INSIDE)
    # Rows kept: one variant after another, each resumable. Without rows, once paired_stats.json
    # is written only a publication cut short is left: the variants missing are played alone
    # (the same games: their directories are the same as the lockstep's).
    for v, prep in zip(plan.variants, plan.preps):
        target = plan.variant_dir(out, v)
        label = v.label(plan.varies)
        if (target / RUN_JSON).is_file() and damage(target) is None:
            done += plan.games
            say(done, total, label)
            continue
        # not played, or played and damaged since (a file missing or changed): played again, the
        # same games (a resume called a damaged variant played, and the report then refused it)
        before = done
        runner.run(prep, games=plan.games, seed=plan.seed, out=target, force=True, threads=threads,
                   chunk_size=chunk_size, raw=plan.player_rows, quiet=True, executor=executor,
                   on_chunk=lambda d, b=before, lab=label: say(b + d, total, lab))
        done += plan.games
    return finish_out(out, final, SWEEP_INSIDE)


# a sweep without rows keeps the games played so far here while it plays (every 8 chunks of every
# variant: a Ctrl-C or a kill loses at most those); removed once every variant is published
PLAYED_SO_FAR = "played_so_far"

# the lockstep's chunk when none is given: every variant's per-game metrics of a chunk are held
# until the last variant has played it (float64[games, metrics] each: 2.6 MB at 10 metrics)
TOGETHER_CHUNK = 1 << 15


def play_together(plan: SweepPlan, out: Path, *, threads: int | None = None,
                  chunk_size: int | None = None, executor=None, progress=None,
                  on_resume=None) -> None:
    """Play every variant of ``plan`` together, chunk by chunk (:func:`simcore.runner.execute_together`),
    into ``out/variants/<id>/`` without player rows, and write ``out/paired_stats.json``
    (:class:`analysis.sweep.joint.JointSums`: the exact sums and cross-products of every variant's
    per-game metrics, and of the pairs the sweep compares) before any variant is published.
    ``on_resume(start, problem)``: as :func:`simcore.runner.execute_together` calls it."""
    play_with_sums(plan.game, plan.preps, [v.id for v in plan.variants],
                   [plan.variant_dir(out, v) for v in plan.variants], out / JOINT_FILE,
                   games=plan.games, seed=plan.seed, pairs=compared_pairs(plan.to_json()),
                   threads=threads, chunk_size=chunk_size, executor=executor, progress=progress,
                   checkpoint=out / PLAYED_SO_FAR, on_resume=on_resume)


def play_with_sums(game: str, preps: list, names: list[str], outs: list[Path], sums_path: Path, *,
                   games: int, seed: int, pairs: list[tuple[str, str]] = (),
                   threads: int | None = None, chunk_size: int | None = None, executor=None,
                   progress=None, raw: bool = False, checkpoint: Path | None = None,
                   on_resume=None):
    """Play ``preps`` together on the same games into the run directories ``outs`` (players.parquet
    only with ``raw``), and write ``sums_path`` (:class:`analysis.sweep.joint.JointSums` of the
    runs, named ``names``, with the cross-products of ``pairs``) before any run is published: a
    sweep without rows, a tune's confirmation without rows and its start rules. Returns the
    :class:`~analysis.sweep.joint.JointSums`. ``checkpoint``: where the games played so far are
    kept as they are played (:func:`simcore.runner.execute_together`), so that the same call
    after an interruption goes on from there; ``on_resume(start, problem)`` is told once what it
    kept has been read (:func:`simcore.runner.execute_together`)."""
    from analysis.sweep.joint import JointSums

    joint = JointSums(list(names), list(pairs),
                      meta={"seed": seed, "rules_sha256": {n: p.rules_sha256 for n, p in zip(names, preps)}},
                      deal={n: p.games_per_deal for n, p in zip(names, preps)})
    held: dict[int, dict[str, tuple]] = {}        # first game of a chunk → its runs' metrics so far
    needed = ("seat", "strategy", "win_share", "score")

    def observe(k: int, part) -> None:
        mine = held.setdefault(part.first, {})
        mine[names[k]] = chunk_metrics(game, preps[k].n_players, part.players, part.games)
        if not raw:
            part.players = None                              # the rows are not kept
        if len(mine) == len(names):                          # every run has played this chunk
            joint.add_chunk(held.pop(part.first))             # (exact sums: in any order)

    spec = registry.get(game)
    gains = tuple(c.name for c in spec.columns_with_role("gain_by_event", "players"))
    runner.execute_together(list(preps), games=games, seed=seed, outs=list(outs), force=True,
                            threads=threads, chunk_size=chunk_size or TOGETHER_CHUNK, raw=raw,
                            executor=executor, progress=progress,
                            player_columns=needed + gains, observe=observe,
                            before_publish=lambda: joint.write(sums_path), checkpoint=checkpoint,
                            observer_state=(joint.to_dict, lambda d: joint.load_dict(d)),
                            on_resume=on_resume)
    return joint


def check_joint(plan: SweepPlan, path: Path) -> None:
    """One line unless ``path`` holds this sweep's exact sums: its variants, games, seed and each
    variant's rules (a file copied from another sweep was blamed on a good variant, and moving
    the variant away only played it again against the same wrong file)."""
    from analysis.sweep.joint import JointSums

    joint = JointSums.read_checked(path)
    ids = [v.id for v in plan.variants]
    wrong = []
    if joint.variants != ids:
        wrong.append(f"variants {', '.join(joint.variants)}, not {', '.join(ids)}")
    if joint.n != plan.games:
        wrong.append(f"{joint.n:,} games, not {plan.games:,}")
    for vid, prep in zip(ids, plan.preps):
        why = joint.played(vid, plan.seed, prep.rules_sha256)
        if why is not None:
            wrong.append(f"{vid}: {why}")
            break
    if wrong:
        raise UsageError(f"{path}: not this sweep's exact sums ({'; '.join(wrong)}): restore its "
                         "own file, or move it away and run the same balance sweep again to play "
                         "every variant together")


def compared_pairs(sweep: dict) -> list[tuple[str, str]]:
    """The (earlier, later) variant ids of every two variants in one chain of the sensitivity page
    (:func:`analysis.sweep.metrics.sensitivity`: each parameter's anchored slice and, in a grid,
    every other slice): the pairs it compares, and those it would compare if only some of a
    chain's variants were published (the first and last published of a chain)."""
    from analysis.sweep.metrics import other_slices, slices

    chains = list(slices(sweep).values())
    chains += [chain for cuts in other_slices(sweep).values() for _, chain in cuts]
    pairs: list[tuple[str, str]] = []
    for chain in chains:
        ids = [c["id"] for c in chain]
        pairs += [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]]
    return list(dict.fromkeys(pairs))


def chunk_metrics(game: str, n_players: int, players, games) -> tuple[list[str], list[int],
                                                                     np.ndarray]:
    """A chunk's per-game metrics (:func:`analysis.sweep.metrics.from_tables`) as (keys, scales,
    float64[games, metrics])."""
    from analysis.sweep.metrics import from_tables

    # (from_tables takes each float32 win share as the whole number of 1/L it is)
    v = from_tables(game, n_players, players, games)
    keys = list(v.samples)
    x = np.column_stack([v.samples[k] for k in keys]) if keys else np.zeros((v.n_games, 0))
    return keys, metric_scales(keys, n_players), x
