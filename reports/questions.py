"""Reading a questions directory for a report, and checking that it belongs to the baseline run.

A questions directory holds the balance questions a run cannot answer, played beforehand by the
analysis layer (:mod:`analysis.questions`; ``balance questions RUN --out DIR``, or ``balance report``
itself before it builds the report): one CSV per table and run.json (game, rules, seed, bots,
``files``, ``integrity`` and ``not_played`` when nothing could be played). :func:`read_questions`
reads it (refusing, in one line, files that differ from the integrity record),
:func:`check_matches` refuses, in one line, a directory played for another game or other rules
than the baseline run's. The game's report hook (:mod:`reports.games`) turns it into a section.
A before/after's further run gets a questions directory of its own, played with its rules and
against the baseline's: its ``before_after`` table (what changed from the baseline's answers to
these, one row per answer, each change worded by size or "cannot tell") becomes the section "Balance
questions: VARIANT vs BASE" (:func:`before_after_sentences`, :func:`before_after_rows`,
:func:`before_after_intro`; placed by :func:`reports.build.questions_before_after`): one answer per
question on the page (an answer the runs' own games give is the before/after's, pointed to), the
before/after's note where who founds a card type changed too (:func:`reports.text.composition_note`).
Reading only: nothing here plays a game.

May import polars, the standard library, :mod:`analysis.load` (types), :mod:`analysis.stats`
(verdict names and reading order), :mod:`reports.text` (how numbers are printed),
:mod:`simcore.errors` and :mod:`simcore.rundir` (the integrity record a questions directory's
run.json carries, checked as a run's is).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from analysis.load import COLUMN_TYPES, RunSet
from simcore.errors import UsageError
from simcore.rundir import verify_integrity

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
    try:        # (review s62 #3: a cut event_ablation.csv gave a page with 1 card of 15)
        verify_integrity(p, meta, what="questions directory",
                         again="play them again (balance questions RUN --out DIR)")
    except UsageError as exc:
        raise UsageError(f"{option} {exc}" if option.startswith("--") else str(exc)) from None
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
                         f"(rules sha256 {_short(mine)} vs {_short(theirs)}); play them for this run "
                         f"with balance questions {rs.paths[0]} --out DIR (it plays the run's own rules, "
                         f"--set and rules files included)")
    run = rs.metas[0]
    for key in same:
        what, norm = _SAME[key]
        mine, theirs = norm(q.meta.get(key)), norm(run.get(key))
        if mine != theirs:
            def show(v):
                return ",".join(v) if isinstance(v, list) else str(v)
            raise UsageError(f"{option} {q.path}: played for another run than the baseline {rs.label} "
                             f"({what} {show(mine)} vs {show(theirs)}); play them for this run with "
                             f"balance questions {rs.paths[0]} --out DIR")


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

    return common_digits([_metric(r) for r in rows if r["verdict"] not in _APART], more=1)


_CANNOT = "cannot tell"
_OWN = "the runs' own games"      # analysis.questions.medievallons.RUNS_OWN (why "runs_own")
_SAME_GAMES = "the same games"          # analysis.questions.medievallons.SAME_GAMES (why "same_games")
_NOT_PLAYED = "not played (0 copies)"   # analysis.questions.medievallons.NOT_PLAYED (why "not_in_deck_…")
_APART = (_CANNOT, _OWN, _SAME_GAMES, _NOT_PLAYED)   # outside their question's family: no change tested


def _not_played_runs(r: dict, base: str, var: str) -> str:
    """The run(s) whose deck holds no copy of a card type (why ``not_in_deck_before``,
    ``not_in_deck_after``, ``not_in_deck_before_after``): "b's rules", "a's and b's rules"."""
    sides = r["why"].removeprefix("not_in_deck_").split("_")
    names = [n for side, n in (("before", base), ("after", var)) if side in sides]
    return " and ".join(f"{n}'s" for n in names) + " rules"


def _not_played_words(rows: list[dict], base: str, var: str) -> str:
    """"Étoile is not played (0 copies) with b's rules": each card type a run's deck holds none of
    (verdict :data:`_NOT_PLAYED`, its full-deck answer and its ablation said once), as that run's
    own page says it (review s60 fix 250 #2)."""
    said = dict.fromkeys(f"{r['item']} is not played (0 copies) with {_not_played_runs(r, base, var)}"
                         for r in rows if r["verdict"] == _NOT_PLAYED)
    return "; ".join(said)


def _same_edge(r: dict) -> str | None:
    """"100%" (or "0%") where both runs gave a rate every game or match alike, the same on both
    sides: a ceiling (or a floor), not noise, worded "no change (100% in both)"; else None."""
    if r["question"] == "card_ablation" or r["verdict"] != "within noise":
        return None
    b, a = r["before"], r["after"]
    return f"{100 * b:g}%" if b == a and b in (0.0, 1.0) else None


def _name(r: dict) -> str:
    """An answer named in a list: "Seat 1 at 2 players", "Étoile", "one copy fewer of Étoile",
    "saboteur vs balanced"."""
    if r["question"] == "first_player":
        return f"Seat 1 at {r['item']}"
    if r["question"] == "card_ablation":
        return f"one copy fewer of {r['item']}"
    return str(r["item"])


def _names(rows: list[dict], most: int = 6) -> str:
    """"(Étoile, Prêtre and saboteur vs balanced)": the answers of a count, at most ``most`` named."""
    names = [_name(r) for r in rows]
    if len(names) > most:
        names = names[:most] + [f"{len(rows) - most} more"]
    return "(" + (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]) + ")"


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


def _decks(r: dict, side: str, joint: str = ", ") -> str:
    """A card ablation's founders on ``side`` with each deck: "0 with the full deck, 2 with one copy
    fewer"; '' for another answer or a row without them."""
    full, fewer = r.get(f"{side}_n_full"), r.get(f"{side}_n_fewer")
    if r.get("question") != "card_ablation" or full is None or fewer is None:
        return ""
    return f"{int(full):,} with the full deck{joint}{int(fewer):,} with one copy fewer"


def _shown(r: dict, side: str, digits: int, least: int) -> str:
    """A side's answer in the table: its value, or, read on too few games, matches or founders to
    tell, their number instead (one founder's win prints as 100%); a card ablation's with each
    deck's (:func:`_decks`)."""
    if r["why"] == "too_few":
        n = int(r[f"{side}_n"])
        noun = {"first_player": "games", "best_of_three": "matches"}.get(r["question"], "founders")
        decks = _decks(r, side)
        return (f"too few {noun} ({decks or format(n, ',')})" if n < least else _value(r, side, digits))
    return _value(r, side, digits)


def _least(meta: dict) -> int:
    """Fewer games, matches or founders on a side than this: the change cannot be told (the
    questions' run.json ``against``, :data:`analysis.questions.medievallons.MIN_COUNT`)."""
    return int((meta.get("against") or {}).get("min_count") or 30)


def _change(r: dict, digits: int) -> tuple[str, str]:
    """(change, the interval its size is read on) as printed: after − before as printed is the
    change printed (:func:`reports.text.shown_change`)."""
    from reports.text import pp, pp_ci, shown_change

    if r["verdict"] in _APART:
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
    if why == "too_few" and _decks(r, "before") and _decks(r, "after"):
        # the card ablation is read on two decks a side: each count with its deck (review s55 #4:
        # "0 with mv's rules" beside the baseline's "no founder with the full deck; 2 founders …
        # with one copy fewer")
        return (f"too few {noun} to tell (with {base}'s rules, {_decks(r, 'before', ' and ')}; with "
                f"{var}'s, {_decks(r, 'after', ' and ')}; {least} needed with each deck)")
    if why == "too_few":
        return (f"too few {noun} to tell ({int(r['before_n']):,} with {base}'s rules, "
                f"{int(r['after_n']):,} with {var}'s; {least} needed on each side)")
    if why == "rare":
        return f"too few players to tell (under {100 * rare:g}% of the players found one with {base}'s or {var}'s rules)"
    if why == "no_ablation_verdict":
        return "too few players to tell (one side's ablation of this type has too few players to say)"
    return "no value on one side"


def _same_line(rows: list[dict], digits: int) -> str:
    """The answers of a question both rules played with the very same games (verdict
    :data:`_SAME_GAMES`), in one sentence: more games could not move them."""
    said = [f"{_name(r)} ({_value(r, 'before', digits)} in both)" for r in rows]
    listed = ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]
    return (f"The same games with both rules, so no change: {listed} (no game of "
            f"{'these answers' if len(rows) > 1 else 'this answer'} differs: a setting that does not "
            f"play there; more games would not change {'them' if len(rows) > 1 else 'it'}).")


def _line(r: dict, base: str, var: str, digits: int, family: int, note: str = "") -> str:
    """One answer before → after in words: its two values, the change with the interval its size is
    read on, and the verdict (a rate both runs gave every game or match alike, the same: "no change
    (100% in both)"); ``note`` (who founds the type changed too) follows a card's."""
    before, after = _value(r, "before", digits), _value(r, "after", digits)
    change, interval = _change(r, digits)
    across = {"first_player": "player counts", "best_of_three": "pairings"}.get(r["question"], "types")
    edge = _same_edge(r)
    over = f" over the {family} {across} at once" if family > 1 else ""
    size = (f"no change ({edge} in both)" if edge else
            f"({change}; 95% interval {interval}{over}), {r['verdict']}")
    if r["question"] == "first_player":
        return f"{r['item']}: Seat 1 (plays first) wins {before} → {after} {size}."
    if r["question"] == "card_types":
        return f"{r['item']}, {before} → {after} {size}.{note}"
    if r["question"] == "card_ablation":
        def own(v):      # each run's own verdict on its ablation of the type
            return f" ({v} there)" if v else ""
        return (f"{r['item']}: one copy fewer moves its founders' win share by {before} with {base}'s rules"
                f"{own(r.get('before_verdict'))} and {after} with {var}'s{own(r.get('after_verdict'))}: a "
                f"difference of {change} (95% interval {interval}"
                + (f" over the {family} types at once" if family > 1 else "") + "), "
                f"{r['verdict']}.{note}")
    if edge:
        return f"2 players, {r['item']}: the best-of-3 match win rate, {size}."
    return f"2 players, {r['item']}: the best-of-3 match win rate goes {before} → {after} {size}."


def _counts(rows: list[dict]) -> dict[str, int]:
    from analysis import stats

    out = {v: 0 for v in (stats.LARGE, stats.MAY_MATTER, stats.SMALL, "within noise", *_APART)}
    for r in rows:
        out[r["verdict"]] = out.get(r["verdict"], 0) + 1
    return out


def _reach(rows: list[dict], smallest: float) -> list[dict]:
    """The answers within noise whose interval reaches the smallest difference that matters (not
    one both runs gave alike, :func:`_same_edge`)."""
    return [r for r in rows if r["verdict"] == "within noise" and not _same_edge(r) and r["low"] == r["low"]
            and max(abs(r["low"]), abs(r["high"])) >= smallest]


def _founded_source(r: dict, meta: dict, cmp: pl.DataFrame | None) -> pl.DataFrame | None:
    """Where a card type's founded share before and after is read for the note that who founds it
    changed too (:func:`reports.text.composition_note`): the runs' before/after (``cmp``, its
    ``guild_founded_share`` rows, the numbers the page gives there) when the runs' own games play the
    questions' bots at the questions' player count (run.json ``against.runs_own``), else the
    questions' own founded shares compared (the table's ``founded_*`` columns)."""
    from analysis import stats

    own = (meta.get("against") or {}).get("runs_own") or {}
    if cmp is not None and own.get("card_types") is not None and r.get("players") == own.get("card_types"):
        return cmp
    v, d = r.get("founded_verdict"), r.get("founded_change")
    if not v or d is None or d != d:
        return None
    return pl.DataFrame({"metric": ["guild_founded_share"], "key": [r.get("key")], "diff": [float(d)],
                         "verdict": [stats.NOT_SHOWN if v == "within noise" else str(v)]})


def _note(r: dict, meta: dict, cmp: pl.DataFrame | None) -> str:
    """" Who founds it changed too (…): …" after a card type's clear change whose founded share
    moved clearly (:func:`reports.text.composition_note`, the before/after's own note); ''."""
    from reports.text import composition_note

    if r["question"] not in ("card_types", "card_ablation") or r["verdict"] in ("within noise", *_APART):
        return ""
    source = _founded_source(r, meta, cmp)
    if source is None:
        return ""
    return composition_note({"metric": "guild_founders_win_share", "key": r.get("key")}, source)


def _not_in_table(r: dict, cmp: pl.DataFrame | None) -> bool:
    """Whether an answer left to the runs' own games is one the runs' before/after table left out: a
    card type's founders' win share with too few founders there (the comparison's ``dropped``, e.g.
    the Bouffon, "a share of almost nobody"), so pointing to it would point at nothing (review s53
    MV #2: "each card type's founders' win share … in the before/after above" for 14 types, the
    table holding 12). False without the table (``cmp`` None) or for another answer."""
    if cmp is None or r.get("question") != "card_types" or "metric" not in cmp.columns:
        return False
    shown = set(cmp.filter(pl.col("metric") == "guild_founders_win_share")["key"].to_list())
    return str(r.get("key")) not in shown


def _own_words(qid: str, rows: list[dict], base: str, var: str, meta: dict) -> str:
    """The answers of a question the runs' own games give (why ``runs_own``): where the page has
    them (the before/after above), not repeated here."""
    runs = _runs_games(meta)
    if qid == "first_player":
        return " ".join(f"{r['item']} (the runs' own count): Seat 1's win share is read on the runs' own "
                        f"games{runs}, in the before/after above (its seat win shares), and not repeated here."
                        for r in rows)
    if qid == "card_types":
        at = rows[0].get("players")
        shown = [r for r in rows if not r.get("_left_out")]
        left = [r for r in rows if r.get("_left_out")]
        out = (f"Card types, the founders' win share with the full deck: at the runs' own {at} players "
               f"it is read on the runs' own games{runs}, in the before/after above (the "
               f"“founders' win share” of {len(shown)} type{'s' if len(shown) != 1 else ''}, with who "
               f"founds it), and not repeated here." if shown else "")
        if left:
            out += ((" " if out else "") + f"Not compared on the runs' own games either: "
                    f"{', '.join(r['item'] for r in left)} (too few founders there: the before/after "
                    f"above leaves {'it' if len(left) == 1 else 'them'} out).")
        return out
    return ""


def _runs_games(meta: dict) -> str:
    """" (2,000 games each)" or " (2,000 and 3,000 games)": the two runs' games, from the
    questions' run.json (``for_run_games`` of each; the baseline's under ``against``), or ''."""
    a = (meta.get("against") or {}).get("for_run_games")
    b = meta.get("for_run_games")
    if not isinstance(b, int):
        return ""
    if not isinstance(a, int) or a == b:
        return f" ({b:,} games each)" if isinstance(a, int) else ""
    return f" ({a:,} and {b:,} games)"


def before_after_sentences(q_before: Questions, q_after: Questions, base: str, var: str,
                           cmp: pl.DataFrame | None = None) -> list[str]:
    """What changed in the balance questions from ``base``'s answers to ``var``'s (each played with
    its own rules), question by question: the count of answers by verdict, each count naming its
    answers, then each clear change (every player count and pairing; for the card types and the
    ablation the clear ones, then the names of the others, the counts over all the card types), what
    cannot be told and why, and where answers within noise still leave a change of the smallest
    difference that matters open. A rate both runs gave every game or match alike is "no change
    (100% in both)", not noise. The answers the runs' own games give (``why`` ``runs_own``: Seat 1
    at the runs' player count, the card types' founders' win share there) are left to the runs'
    before/after and pointed to. A card type's clear change carries the before/after's note when who
    founds it changed clearly too (:func:`_note`; ``cmp``, the runs' comparison table, gives the
    founded shares the before/after gives)."""
    from analysis import stats

    t = compared(q_after)
    if t is None:
        return []
    rows = list(t.iter_rows(named=True))
    smallest = float(rows[0]["smallest"]) if rows and rows[0]["smallest"] == rows[0]["smallest"] else 0.01
    meta = q_after.meta
    live_all = [r for r in rows if r["verdict"] not in _APART]
    edges = [r for r in live_all if _same_edge(r)]
    by = {v: [r for r in live_all if r["verdict"] == v and not _same_edge(r)]
          for v in (stats.LARGE, stats.MAY_MATTER, stats.SMALL, "within noise")}
    parts = [(stats.LARGE, "moved clearly and by enough to matter", True),
             (stats.MAY_MATTER, "moved clearly and perhaps by enough to matter (these games cannot tell)", True),
             (stats.SMALL, f"moved clearly but by less than {100 * smallest:g} pp", True),
             ("within noise", "within noise", False)]
    said = [f"{len(by[k])} {words}" + (f" {_names(by[k])}" if name else "") for k, words, name in parts if by[k]]
    if edges:
        # the verdict's own words, "no change (100% in both)": not "the same with both rules", which
        # reads as the same games played (_SAME_GAMES, said apart below; designer review)
        said.append(f"{len(edges)} no change ("
                    + "; ".join(f"{_name(r)}: {_same_edge(r)} in both" for r in edges) + ")")
    said = said or ["none"]
    same = [r for r in rows if r["verdict"] == _SAME_GAMES]
    gone = [r for r in rows if r["verdict"] == _CANNOT]
    for r in rows:
        r["_left_out"] = r["verdict"] == _OWN and _not_in_table(r, cmp)
    own = [r for r in rows if r["verdict"] == _OWN and not r["_left_out"]]
    left_out = [r for r in rows if r["_left_out"]]
    lead = (f"What changed in the balance questions, {var} against {base} (each played with its own rules): of "
            f"{len(live_all)} answer{'' if len(live_all) == 1 else 's'} both runs could give here (Holm over "
            f"each question's answers), "
            + (", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0])
            + (f"; {len(same)} played the very same games with both rules, so no change {_names(same)}"
               if same else "")
            + (f"; {len(gone)} cannot be told {_names(gone)}" if gone else "")
            + (f"; {_not_played_words(rows, base, var)}" if any(r["verdict"] == _NOT_PLAYED for r in rows) else "")
            + (f"; {len(own)} are read on the runs' own games, in the before/after above "
               + ("(Seat 1 at " + ", ".join(r["item"] for r in own if r["question"] == "first_player")
                  + (f" and the founders' win share of {_count_types(own)})" if any(r["question"] == "card_types" for r in own)
                     else ")")
                  if any(r["question"] == "first_player" for r in own) else f"(the founders' win share of {_count_types(own)})")
               if own else "")
            + (f"; {len(left_out)} {'is' if len(left_out) == 1 else 'are'} not compared, too few "
               f"founders on the runs' own games {_names(left_out)}" if left_out else "")
            + ".")
    out = [lead]
    for qid in QUESTION_ORDER:
        mine = [r for r in rows if r["question"] == qid]
        if not mine:
            continue
        title = mine[0]["question_title"]
        live = [r for r in mine if r["verdict"] not in _APART]
        mine_own = [r for r in mine if r["verdict"] == _OWN]
        mine_same = [r for r in mine if r["verdict"] == _SAME_GAMES]
        digits = _digits(live) if live else 1
        family = len(live)
        # (player counts and pairings in the table's order; card types by verdict, then size)
        order = live if qid in ("first_player", "best_of_three") else [live[i] for i in stats.practical_order(
            [stats.NOT_SHOWN if r["verdict"] == "within noise" else r["verdict"] for r in live],
            [r["change"] for r in live], smallest)]
        clear = [r for r in order if r["verdict"] != "within noise"]
        quiet = [r for r in order if r["verdict"] == "within noise" and not _same_edge(r)]
        gone = [r for r in mine if r["verdict"] == _CANNOT]
        absent = [r for r in mine if r["verdict"] == _NOT_PLAYED]
        cannot = ("; ".join(f"{r['item']}, {_why(r, base, var, meta)}" for r in gone))
        if qid in ("first_player", "best_of_three"):
            text = " ".join(_line(r, base, var, digits, family, _note(r, meta, cmp)) for r in order)
            if gone:
                text += f" Cannot tell: {cannot}."
        elif live:
            what = ("Card types: the founders' win share with the full deck" if qid == "card_types" else
                    "Card ablation: the change one copy fewer makes to a type's founders' win share")
            # (the counts over every card type first, then each clear change in a sentence of its own)
            counts = [f"moved clearly for {len(clear) or 'none'}"
                      + (f" ({', '.join(r['item'] for r in clear)})" if clear else "")]
            if quiet:
                counts.append(f"within noise for {len(quiet)}" + (f" ({', '.join(r['item'] for r in quiet)})"
                                                                 if clear else ""))
            if gone:
                counts.append(f"cannot tell for {len(gone)}: {cannot}")
            if absent:
                counts.append(f"not played for {len(absent)}: "
                              + "; ".join(f"{r['item']}, not played (0 copies) with "
                                          f"{_not_played_runs(r, base, var)}" for r in absent))
            text = (f"{what}, for the {len(mine)} card types: " + ("; ".join(counts[:-1]) + "; and " + counts[-1]
                                                                   if len(counts) > 1 else counts[0]) + "."
                    + "".join(" " + _line(r, base, var, digits, family, _note(r, meta, cmp)) for r in clear))
        else:
            text = ""
        if mine_same:
            text = (text + " " if text else "") + _same_line(mine_same, digits if live else 1)
        if mine_own:
            text = (text + " " if text else "") + _own_words(qid, mine_own, base, var, meta)
        if absent and not live:     # (with live answers the counts above name them)
            text = (text + " " if text else "") + (
                f"{title}: " + "; ".join(f"{r['item']}, not played (0 copies) with "
                                         f"{_not_played_runs(r, base, var)}" for r in absent) + ".")
        if not live and not mine_own and not mine_same and not absent:
            text = f"{title}: no answer both runs could give." + (f" Cannot tell: {cannot}." if gone else "")
        open_ = _reach(live, smallest)
        if open_:
            far = max(open_, key=lambda r: max(abs(r["low"]), abs(r["high"])))
            end = far["high"] if abs(far["high"]) >= abs(far["low"]) else far["low"]
            from reports.text import pp
            which = (f"each of the {len(quiet)}" if len(open_) == len(quiet) and len(quiet) > 1 else
                     "the one" if len(quiet) == 1 else f"{len(open_)} of the {len(quiet)}")
            text += (f" These games cannot rule out a change of {100 * smallest:g} pp (the smallest difference "
                     f"that matters) for {which} within noise (the furthest: {far['item']}, {pp(end)}); more "
                     f"games would tell (balance report --questions-games).")
        out.append(text)
    return out


def _count_types(rows: list[dict]) -> str:
    n = sum(r["question"] == "card_types" for r in rows)
    return f"{n} card type{'s' if n != 1 else ''}"


def before_after_rows(q_after: Questions, base: str, var: str, cmp: pl.DataFrame | None = None) -> pl.DataFrame:
    """The table of both runs' answers and the change, one row per answer, in the table's order (an
    answer the runs' own games give: where the page has it, unless the runs' before/after ``cmp``
    left it out, :func:`_not_in_table`; one both runs gave alike: no change)."""
    t = compared(q_after)
    rows = list(t.iter_rows(named=True)) if t is not None else []
    digits = {qid: _digits([r for r in rows if r["question"] == qid]) for qid in QUESTION_ORDER}
    least = _least(q_after.meta)
    cells = []
    for r in rows:
        d = digits.get(r["question"], 1)
        change, interval = _change(r, d)
        own = r["verdict"] == _OWN
        edge = _same_edge(r)
        if edge:       # a ceiling (or floor) both runs hit: no change to size, as the sentence says
            change, interval = "", ""
        verdict = (f"cannot tell: {_why(r, base, var, q_after.meta)}" if r["verdict"] == _CANNOT else
                   f"not played (0 copies) with {_not_played_runs(r, base, var)}: no {r['item']} in "
                   f"{'its' if '_before_after' not in r['why'] else 'their'} deck"
                   if r["verdict"] == _NOT_PLAYED else
                   ("the runs' own games: too few founders there, left out of the before/after above"
                    if _not_in_table(r, cmp) else "the runs' own games: in the before/after above") if own else
                   "no change: the same games with both rules" if r["verdict"] == _SAME_GAMES else
                   f"no change ({edge} in both)" if edge else r["verdict"])
        cells.append({
            "Question": r["question_title"], "Answer for": r["item"], "Measure": r["measure"],
            f"{base} (before)": "" if own else _shown(r, "before", d, least),
            f"{var} (after)": "" if own else _shown(r, "after", d, least),
            "Change": change,
            "95% interval (Bonferroni over the question's answers)": interval,
            "Verdict (Holm over the question's answers)": verdict})
    return pl.DataFrame(cells)


def before_after_intro(q_before: Questions, q_after: Questions, base: str, var: str) -> str:
    """How the two runs' questions were played and compared, and which answers the runs' own games
    give instead (run.json ``against.runs_own``)."""
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
    own = (ma.get("against") or {}).get("runs_own") or {}
    shown_own = t is not None and (t["verdict"] == _OWN).any()
    what = [w for k, w in (("first_player", "Seat 1's win share"),
                           ("card_types", "the founders' win share with the full deck of each card type the "
                            "before/after above shows (it leaves out a type too few players found)")) if k in own]
    at = sorted(set(own.values()))
    runs = (f"At the runs' own {at[0]} players, {' and '.join(what)} are read on the runs' own games"
            f"{_runs_games(ma)}, in the before/after above, with the same bots: the questions would replay "
            f"only the first {int(ma.get('games') or 0):,} of those games, a second, less precise answer to the "
            f"same question, so this section leaves them to the before/after and gives no number for them. "
            if shown_own and what and len(at) == 1 else "")
    return (f"The balance questions were played for both runs, each with its own rules ({base}: rules SHA-256 "
            f"{sha(q_before)}; {var}: {sha(q_after)}, as in the table of runs): {games}, {bots}, {seeds}. "
            f"{runs}"
            f"Each row is one answer: {base}'s, then {var}'s, and the change. Each question is one family: a "
            f"change is clear when Holm's correction over that question's answers says so, and its size is "
            f"read on the interval shown, which holds for all of them at once (Bonferroni), against the "
            f"{smallest or 'smallest difference'} that matters. The two runs' games are read as independent "
            f"samples; they share a seed, so where their games coincide this overstates the noise. An answer "
            f"read on fewer than {least} games, matches or founders on either side, or one not played for one "
            f"run, is “cannot tell”, with no change given; a rate both runs gave every game or match alike is "
            f"“no change”, and so is an answer both rules played with the very same games (a setting that "
            f"does not play at that player count: no game of it differs, untested). Both runs' tables, and "
            f"this one, as CSV in this "
            f"report's directory (questions/ and questions/{safe_label(var)}/).")


def safe_label(label: str) -> str:
    """A run's label as one folder name (``P0/cell-0`` → ``P0-cell-0``)."""
    import re

    return re.sub(r"[^A-Za-z0-9._-]+", "-", str(label)).strip("-.") or "variant"
