"""Reading a questions directory for a report, and checking that it belongs to the baseline run.

A questions directory holds the balance questions a run cannot answer, played beforehand by the
analysis layer (:mod:`analysis.questions`; ``balance questions RUN --out DIR``, or ``balance report``
itself before it builds the report): one CSV per table and run.json (game, rules, seed, bots,
``files``, and ``not_played`` when nothing could be played). :func:`read_questions` reads it,
:func:`check_matches` refuses, in one line, a directory played for another game or other rules
than the baseline run's. The game's report hook (:mod:`reports.games`) turns it into a section.
Reading only: nothing here plays a game.

May import polars, the standard library, :mod:`analysis.load` (types) and :mod:`simcore.errors`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analysis.load import COLUMN_TYPES, RunSet
from simcore.errors import UsageError

RUN_JSON = "run.json"


@dataclass
class Questions:
    """A questions directory: ``meta`` is its run.json, ``tables`` its CSV tables by file stem."""

    path: Path
    meta: dict
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)
    played_here: bool = False      # played by `balance report` for this report (else read from path)

    @property
    def not_played(self) -> str | None:
        """Why nothing was played (run.json ``not_played``), or None."""
        why = self.meta.get("not_played")
        return str(why) if why else None


def read_questions(path: str | Path, option: str = "--questions") -> Questions:
    """The run.json and CSV tables (those run.json ``files`` lists) of a questions directory."""
    p = Path(path)
    meta_path = p / RUN_JSON
    if not os.path.lexists(p):      # (revC #10: said "not a questions directory (no run.json)")
        raise UsageError(f"{option} {p}: does not exist (write a questions directory with "
                         f"balance questions RUN --out DIR)")
    if not meta_path.is_file():
        raise UsageError(f"{option} {p}: not a questions directory (no {RUN_JSON}; write one with "
                         f"balance questions RUN --out DIR)")
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{option} {meta_path}: invalid JSON ({exc})") from None
    if not isinstance(meta, dict):
        raise UsageError(f"{option} {meta_path}: not a run.json object")
    tables = {}
    recorded = meta.get("columns") if isinstance(meta.get("columns"), dict) else {}
    for name in meta.get("files") or []:
        if not str(name).endswith(".csv"):
            continue
        try:
            tables[str(name)[:-4]] = read_table(p / name, recorded.get(str(name)[:-4]))
        except (OSError, pl.exceptions.PolarsError) as exc:
            raise UsageError(f"{option} {p}: cannot read {name} ({str(exc).splitlines()[0]})") from None
    return Questions(p, meta, tables)


def read_table(path: Path, columns: dict | None) -> pl.DataFrame:
    """One questions CSV as the code that wrote it held it: each column of the type run.json
    ``columns`` records (:data:`analysis.load.COLUMN_TYPES`), and a missing float (an empty cell,
    the exports' convention, or "NaN" in a directory written before it) as NaN, the value the
    tables' readers test for. A directory without ``columns`` is read with the types inferred."""
    known = {c: COLUMN_TYPES[t] for c, t in (columns or {}).items()
             if isinstance(t, str) and t in COLUMN_TYPES}
    df = pl.read_csv(path, schema_overrides=known or None, infer_schema_length=None)
    floats = [c for c, t in df.schema.items() if t.is_float()]
    return df.with_columns(pl.col(c).fill_null(float("nan")) for c in floats) if floats else df


def _short(sha) -> str:
    return str(sha)[:12] if sha else "none recorded"


def _strategies(value) -> list[str] | None:
    names = [s for s in value or [] if isinstance(s, str)] if isinstance(value, list) else [value]
    names = [s for s in names if isinstance(s, str)]
    return names or None


_SAME = {   # run.json field → (how the error line says it, how a value is compared)
    "players": ("player count", lambda v: v if not isinstance(v, (int, float)) else int(v)),
    "seed": ("seed", lambda v: int(v or 0) if isinstance(v, (int, float, type(None))) else v),
    "strategies": ("bots", _strategies),
}


def check_matches(q: Questions, rs: RunSet, option: str = "--questions", same: tuple = ()) -> None:
    """UsageError (one line) unless ``q`` was played for the game and rules of the baseline ``rs``,
    and, for each run.json field of ``same`` (the game's report hook, ``QUESTIONS_MATCH``:
    ``players``, ``seed``, ``strategies``), for the baseline's value of it: a section that says
    "the run's deals played again" must not show the deals of another run."""
    game = q.meta.get("game")
    if game != rs.game:
        raise UsageError(f"{option} {q.path}: questions of {game or 'no game'}, but the baseline run "
                         f"{rs.label} is {rs.game}")
    mine, theirs = q.meta.get("rules_sha256"), rs.metas[0].get("rules_sha256")
    if mine != theirs:
        raise UsageError(f"{option} {q.path}: played with other rules than the baseline run {rs.label} "
                         f"(rules sha256 {_short(mine)} vs {_short(theirs)}); play them with the run's "
                         f"rules file")
    run = rs.metas[0]
    for key in same:
        what, norm = _SAME[key]
        mine, theirs = norm(q.meta.get(key)), norm(run.get(key))
        if mine != theirs:
            def show(v):
                return ",".join(v) if isinstance(v, list) else str(v)
            raise UsageError(f"{option} {q.path}: played for another run than the baseline {rs.label} "
                             f"({what} {show(mine)} vs {show(theirs)}); play them for this run with "
                             f"balance questions RUN --out DIR")
