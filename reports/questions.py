"""Reading a questions directory for a report, and checking that it belongs to the baseline run.

A questions directory holds the balance questions a run cannot answer, played beforehand by the
analysis layer (:mod:`analysis.questions`; ``balance questions RUN --out DIR``, or ``balance report``
itself before it builds the report): one CSV per table and run.json (game, rules, seed, bots,
``files``, and ``not_played`` when nothing could be played). :func:`read_questions` reads it,
:func:`check_matches` refuses, in one line, a directory played for another game or other rules
than the baseline run's. The game's report hook (:mod:`reports.games`) turns it into a section.
A before/after's further run gets a questions directory of its own, played with its rules and
against the baseline's: its ``before_after`` table (what changed from the baseline's answers to
these, one row per answer, each change worded by size or "cannot tell") becomes the section "Balance
questions: VARIANT vs BASE" (:func:`before_after_sentences`, :func:`before_after_rows`,
:func:`before_after_intro`; placed by :func:`reports.build.questions_before_after`).
Reading only: nothing here plays a game.

May import polars, the standard library, :mod:`analysis.load` (types), :mod:`analysis.stats`
(verdict names and reading order), :mod:`reports.text` (how numbers are printed) and
:mod:`simcore.errors`.
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
    # a before/after's further configurations whose own played questions are compared with these,
    # as (label, section title): the baseline's questions section names them
    compared_in: list[tuple[str, str]] = field(default_factory=list)

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


# ---------------------------------------------------------------------------------------------
# A before/after's questions: both runs' answers and what changed
# ---------------------------------------------------------------------------------------------

BEFORE_AFTER = "before_after"     # the table a variant's questions directory holds (its changes)
QUESTION_ORDER = ("first_player", "card_types", "card_ablation", "best_of_three")


def compared(q: Questions | None) -> pl.DataFrame | None:
    """The ``before_after`` table of a questions directory played against the baseline's (what
    changed from the baseline's answers to these), or None."""
    if q is None or q.not_played:
        return None
    t = q.tables.get(BEFORE_AFTER)
    return t if t is not None and t.height else None


def _metric(r: dict) -> dict:
    """A row of the table as a compared share (:mod:`reports.text`'s before/after helpers)."""
    return {"metric": "win_share", "kind": "proportion", "base": r["before"], "variant": r["after"],
            "diff": r["change"] if r["change"] == r["change"] else float("nan")}


def _digits(rows: list[dict]) -> int:
    from reports.text import common_digits

    return common_digits([_metric(r) for r in rows if r["verdict"] != _CANNOT], more=1)


_CANNOT = "cannot tell"


def _value(r: dict, side: str, digits: int) -> str:
    """A side's answer as printed: a share ("57.9%") or, for the card ablation, a change ("−1.5 pp")."""
    from reports.text import metric_value, pp

    x = r[side]
    if x is None or x != x:
        return ""
    if r["question"] == "card_ablation":
        from reports.text import rounded
        return pp(rounded(100 * x, digits) / 100, digits)
    return metric_value(x, "win_share", "proportion", digits)


def _shown(r: dict, side: str, digits: int, least: int) -> str:
    """A side's answer in the table: its value, or, read on too few games, matches or founders to
    tell, their number instead (one founder's win prints as 100%)."""
    if r["why"] == "too_few":
        n = int(r[f"{side}_n"])
        noun = {"first_player": "games", "best_of_three": "matches"}.get(r["question"], "founders")
        return f"too few {noun} ({n:,})" if n < least else _value(r, side, digits)
    return _value(r, side, digits)


def _least(meta: dict) -> int:
    """Fewer games, matches or founders on a side than this: the change cannot be told (the
    questions' run.json ``against``, :data:`analysis.questions.medievallons.MIN_COUNT`)."""
    return int((meta.get("against") or {}).get("min_count") or 30)


def _change(r: dict, digits: int) -> tuple[str, str]:
    """(change, the interval its size is read on) as printed: after − before as printed is the
    change printed (:func:`reports.text.shown_change`)."""
    from reports.text import pp, pp_ci, shown_change

    if r["verdict"] == _CANNOT:
        return "", ""
    return pp(shown_change(_metric(r), digits), digits), pp_ci(r["low"], r["high"], digits)


def _why(r: dict, base: str, var: str, meta: dict) -> str:
    """Why an answer cannot be compared, in the page's words with the two runs' names."""
    noun = {"first_player": "games", "best_of_three": "matches"}.get(r["question"], "founders")
    least = _least(meta)
    rare = float((meta.get("against") or {}).get("min_founded") or 0.005)
    why = r["why"]
    if why == "not_played_before":
        return f"not played for {base}"
    if why == "not_played_after":
        return f"not played for {var}"
    if why == "too_few":
        return (f"too few {noun} to tell ({int(r['before_n']):,} with {base}'s rules, "
                f"{int(r['after_n']):,} with {var}'s; {least} needed on each side)")
    if why == "rare":
        return f"too few players to tell (under {100 * rare:g}% of the players found one with {base}'s or {var}'s rules)"
    if why == "no_ablation_verdict":
        return "too few players to tell (one side's ablation of this type has too few players to say)"
    return "no value on one side"


def _line(r: dict, base: str, var: str, digits: int, family: int, own_count: int | None) -> str:
    """One answer before → after in words: its two values, the change with the interval its size is
    read on, and the verdict."""
    before, after = _value(r, "before", digits), _value(r, "after", digits)
    change, interval = _change(r, digits)
    across = {"first_player": "player counts", "best_of_three": "pairings"}.get(r["question"], "types")
    size = (f"({change}; 95% interval {interval} over the {family} {across} at once), {r['verdict']}")
    if r["question"] == "first_player":
        own = (" (the questions' own games; the seats' before/after above reads the runs' own games at this "
               "player count)"
               if own_count is not None and r["item"] == f"{own_count} players" else "")
        return f"{r['item']}: Seat 1 (plays first) wins {before} → {after} {size}{own}."
    if r["question"] == "card_types":
        return f"{r['item']}, {before} → {after} {size}"
    if r["question"] == "card_ablation":
        def own(v):      # each run's own verdict on its ablation of the type
            return f" ({v} there)" if v else ""
        return (f"{r['item']}: one copy fewer moves its founders' win share by {before} with {base}'s rules"
                f"{own(r.get('before_verdict'))} and {after} with {var}'s{own(r.get('after_verdict'))}: a "
                f"difference of {change} (95% interval {interval} over the {family} types at once), {r['verdict']}")
    return f"2 players, {r['item']}: the best-of-3 match win rate goes {before} → {after} {size}."


def _counts(rows: list[dict]) -> dict[str, int]:
    from analysis import stats

    out = {v: 0 for v in (stats.LARGE, stats.MAY_MATTER, stats.SMALL, "within noise", _CANNOT)}
    for r in rows:
        out[r["verdict"]] = out.get(r["verdict"], 0) + 1
    return out


def _reach(rows: list[dict], smallest: float) -> list[dict]:
    """The answers within noise whose interval reaches the smallest difference that matters."""
    return [r for r in rows if r["verdict"] == "within noise" and r["low"] == r["low"]
            and max(abs(r["low"]), abs(r["high"])) >= smallest]


def before_after_sentences(q_before: Questions, q_after: Questions, base: str, var: str,
                           own_count: int | None = None) -> list[str]:
    """What changed in the balance questions from ``base``'s answers to ``var``'s (each played with
    its own rules), question by question: the count of answers by verdict, then each clear change
    (every player count and pairing; for the card types and the ablation the clear ones, then the
    names of the others), what cannot be told and why, and where answers within noise still leave a
    change of the smallest difference that matters open. ``own_count``: the runs' player count,
    whose first-player answer the seats' before/after also gives (on the runs' own games)."""
    from analysis import stats

    t = compared(q_after)
    if t is None:
        return []
    rows = list(t.iter_rows(named=True))
    smallest = float(rows[0]["smallest"]) if rows and rows[0]["smallest"] == rows[0]["smallest"] else 0.01
    n = _counts(rows)
    tested = len(rows) - n[_CANNOT]
    parts = [(stats.LARGE, "moved clearly and by enough to matter"),
             (stats.MAY_MATTER, "moved clearly and perhaps by enough to matter (these games cannot tell)"),
             (stats.SMALL, f"moved clearly but by less than {100 * smallest:g} pp"),
             ("within noise", "within noise")]
    said = [f"{n[k]} {words}" for k, words in parts if n[k]] or ["none"]
    lead = (f"What changed in the balance questions, {var} against {base} (each played with its own rules): of "
            f"{tested} answers both runs could give, " + (", ".join(said[:-1]) + " and " + said[-1]
                                                          if len(said) > 1 else said[0])
            + " (Holm over each question's answers)"
            + (f"; {n[_CANNOT]} cannot be told (too few games or founders, or not played for one run)."
               if n[_CANNOT] else "."))
    out = [lead]
    for qid in QUESTION_ORDER:
        mine = [r for r in rows if r["question"] == qid]
        if not mine:
            continue
        title = mine[0]["question_title"]
        live = [r for r in mine if r["verdict"] != _CANNOT]
        digits = _digits(live) if live else 1
        family = len(live)
        # (player counts and pairings in the table's order; card types by verdict, then size)
        order = live if qid in ("first_player", "best_of_three") else [live[i] for i in stats.practical_order(
            [stats.NOT_SHOWN if r["verdict"] == "within noise" else r["verdict"] for r in live],
            [r["change"] for r in live], smallest)]
        clear = [r for r in order if r["verdict"] != "within noise"]
        quiet = [r for r in order if r["verdict"] == "within noise"]
        if qid in ("first_player", "best_of_three"):
            text = " ".join(_line(r, base, var, digits, family, own_count) for r in order)
        else:
            what = ("Card types: the founders' win share with the full deck" if qid == "card_types" else
                    "Card ablation: the change one copy fewer makes to a type's founders' win share")
            text = (f"{what} moved clearly for {len(clear)} of {family} types: "
                    + "; ".join(_line(r, base, var, digits, family, own_count) for r in clear) + "."
                    if clear else f"{what} moved clearly for none of the {family} types.")
            if clear and quiet:
                text += (f" Within noise: {', '.join(r['item'] for r in quiet)}.")
        if not live:
            text = f"{title}: no answer both runs could give."
        gone = [r for r in mine if r["verdict"] == _CANNOT]
        if gone:
            text += " Cannot tell: " + "; ".join(f"{r['item']}, {_why(r, base, var, q_after.meta)}"
                                                 for r in gone) + "."
        open_ = _reach(live, smallest)
        if open_:
            far = max(open_, key=lambda r: max(abs(r["low"]), abs(r["high"])))
            end = far["high"] if abs(far["high"]) >= abs(far["low"]) else far["low"]
            from reports.text import pp
            text += (f" These games cannot rule out a change of {100 * smallest:g} pp (the smallest difference "
                     f"that matters) for {len(open_)} of the {len(quiet)} answers within noise (the furthest: "
                     f"{far['item']}, {pp(end)}); more games would tell (balance report --questions-games).")
        out.append(text)
    return out


def before_after_rows(q_after: Questions, base: str, var: str) -> pl.DataFrame:
    """The table of both runs' answers and the change, one row per answer, in the table's order."""
    t = compared(q_after)
    rows = list(t.iter_rows(named=True)) if t is not None else []
    digits = {qid: _digits([r for r in rows if r["question"] == qid]) for qid in QUESTION_ORDER}
    least = _least(q_after.meta)
    cells = []
    for r in rows:
        d = digits.get(r["question"], 1)
        change, interval = _change(r, d)
        cells.append({
            "Question": r["question_title"], "Answer for": r["item"], "Measure": r["measure"],
            f"{base} (before)": _shown(r, "before", d, least), f"{var} (after)": _shown(r, "after", d, least),
            "Change": change,
            "95% interval (Bonferroni over the question's answers)": interval,
            "Verdict (Holm over the question's answers)": (
                f"cannot tell: {_why(r, base, var, q_after.meta)}" if r["verdict"] == _CANNOT else r["verdict"])})
    return pl.DataFrame(cells)


def before_after_intro(q_before: Questions, q_after: Questions, base: str, var: str) -> str:
    """How the two runs' questions were played and compared."""
    def sha(q):
        return str(q.meta.get("rules_sha256") or "")[:12]

    mb, ma = q_before.meta, q_after.meta
    smallest = ""
    t = compared(q_after)
    if t is not None and t.height:
        smallest = f"{100 * float(t['smallest'][0]):g} pp"
    least = _least(ma)
    games = (f"{int(mb.get('games') or 0):,} games per question and per rules variant for each"
             if mb.get("games") == ma.get("games") else
             f"{int(mb.get('games') or 0):,} and {int(ma.get('games') or 0):,} games per question and per rules "
             "variant")
    bots = ma.get("strategy_note") or f"{ma.get('strategy')} bots at every seat"
    seeds = (f"seed {mb.get('seed')} for both" if mb.get("seed") == ma.get("seed") else
             f"seeds {mb.get('seed')} and {ma.get('seed')}")
    return (f"The balance questions were played for both runs, each with its own rules ({base}: rules SHA-256 "
            f"{sha(q_before)}; {var}: {sha(q_after)}, as in the table of runs): {games}, {bots}, {seeds}. "
            f"Each row is one answer: {base}'s, then {var}'s, and the change. Each question is one family: a "
            f"change is clear when Holm's correction over that question's answers says so, and its size is "
            f"read on the interval shown, which holds for all of them at once (Bonferroni), against the "
            f"{smallest or 'smallest difference'} that matters. The two runs' games are read as independent "
            f"samples; they share a seed, so where their games coincide this overstates the noise. An answer "
            f"read on fewer than {least} games, matches or founders on either side, or one not played for one "
            f"run, is “cannot tell”, with no change given. Both runs' tables, and this one, as CSV in this "
            f"report's directory (questions/ and questions/{safe_label(var)}/).")


def safe_label(label: str) -> str:
    """A run's label as one folder name (``P0/cell-0`` → ``P0-cell-0``)."""
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", str(label)).strip("-.") or "variant"
