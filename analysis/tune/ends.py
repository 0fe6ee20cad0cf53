"""How a tune's confirmation games ended: the share stopped at the turn limit (s37 #1).

A game stopped by the rules' safety bound (``end.max_turns``; the end reason named ``truncated``,
shown as "Turn limit reached") has no winner by the rules of the book: the game scores it by a
fall-back (in Seigneurial, a win shared by the Censitaires). A fix that meets its target on such
games meets it on unfinished games, so the verdict, the page and best_rules.toml warn when the
share is large (:data:`TURN_LIMIT_WARN`, :mod:`simcore.turn_limit`'s).

* :func:`turn_limit` — one confirmation run's games at the turn limit (games, total, share, the
  mean length of all its games), from its statistics or rows (:mod:`analysis.length`).
* :func:`confirmation_turn_limits` — the same for every cell of a tune's confirmation.
* :func:`turn_limit_warning` — the warning sentence, or '' below the threshold.

May import :mod:`analysis.length`, :mod:`simcore.numbers` (rounding) and :mod:`simcore.turn_limit` (the threshold, :data:`TURN_LIMIT_WARN`, and the end reason names).
"""

from __future__ import annotations

from pathlib import Path

from simcore.numbers import rounded
from simcore.turn_limit import TURN_LIMIT_REASONS, TURN_LIMIT_WARN

# The threshold and the end reason names are the toolkit's one definition (:mod:`simcore.turn_limit`:
# a run's page, simulate's closing table and a before/after warn from the same share).


def turn_limit(run_dir: str | Path) -> dict | None:
    """The games of one run that ended at the turn limit: ``{"games", "total", "share", "label",
    "mean_turns"}`` (``mean_turns`` of all its games, None without a length in turns); None when the
    run cannot be read or its game has no turn-limit end reason (:func:`analysis.length.run_turn_limit`)."""
    from analysis.length import run_turn_limit

    t = run_turn_limit(run_dir)
    return t.as_dict() if t is not None else None


def confirmation_turn_limits(tune_dir: str | Path, result: dict) -> list[dict]:
    """:func:`turn_limit` of every confirmation run of a tune (result.json ``confirm``: its ``dir``,
    or over a panel each cell's), each with the cell's ``label``; runs that say nothing left out."""
    confirm = (result or {}).get("confirm") or {}
    cells = confirm.get("cells") or []
    runs = [(c.get("label") or "", c.get("dir")) for c in cells] if len(cells) > 1 else \
        [(confirm.get("label") or "", confirm.get("dir"))]
    out = []
    for label, d in runs:
        if not d:
            continue
        t = turn_limit(Path(tune_dir) / d)
        if t is not None:
            out.append({"cell": label, **t})
    return out


def _pct(x: float) -> str:
    return f"{rounded(100 * x, 1):.1f}%"          # (halves as the tables round them)


def flagged(limits: list[dict], threshold: float = TURN_LIMIT_WARN) -> list[dict]:
    """The runs of ``limits`` at or above the threshold."""
    return [t for t in limits or [] if t.get("share") is not None and t["share"] >= threshold]


def turn_limit_warning(limits: list[dict], threshold: float = TURN_LIMIT_WARN) -> str:
    """The warning a verdict leads with when at least ``threshold`` of a confirmation's games
    ended at the turn limit ("Warning: 57.0% of the 20,000 confirmation games (11,400) ended at
    the turn limit …"), else ''."""
    bad = flagged(limits, threshold)
    if not bad:
        return ""
    if len(limits) == 1:
        t = bad[0]
        mean = f"; the games lasted {t['mean_turns']:.1f} turns on average" if t.get("mean_turns") else ""
        where = (f"{_pct(t['share'])} of the {t['total']:,} confirmation games ({t['games']:,}) "
                 f"ended at the turn limit ('{t['label']}', the rules' safety bound, not an end "
                 f"of the game's own){mean}")
    else:
        cells = "; ".join(f"{t['cell']}: {_pct(t['share'])} of {t['total']:,}" for t in bad)
        which = f"every cell ({len(bad)})" if len(bad) == len(limits) else \
            f"{len(bad)} of the {len(limits)} cells"
        where = (f"in {which}, {threshold:.0%} or more of the "
                 f"confirmation games ended at the turn limit (the rules' safety bound, not an "
                 f"end of the game's own): {cells}")
    return (f"Warning: {where}. The verdict's win shares count those unfinished games (scored by "
            "the rules' fall-back for a stopped game), so they do not describe finished games: "
            "treat the verdict, met or not, as unproven until these rules' games end by the rules "
            "(check the game length before adopting them).")


#: what a met verdict says instead of a plain "Target met" when :func:`turn_limit_warning` warns
MET_AT_LIMIT = "Target met, but on games many of which stopped at the turn limit (see the warning),"


def qualified_verdict(verdict: str, limits: list[dict], threshold: float = TURN_LIMIT_WARN) -> str:
    """``verdict`` led by :func:`turn_limit_warning` when it warns, its "Target met" worded as
    :data:`MET_AT_LIMIT` (a fix is not simply "met" on unfinished games; over a panel "Target met in
    every cell" likewise, the warning naming the cells); else unchanged."""
    warning = turn_limit_warning(limits, threshold)
    if not warning or verdict.startswith(warning):
        return verdict
    every = "Target met in every cell"
    if verdict.startswith(every):
        verdict = f"{MET_AT_LIMIT} in every cell" + verdict[len(every):]
    elif verdict.startswith("Target met"):
        verdict = MET_AT_LIMIT + verdict[len("Target met"):]
    return f"{warning} {verdict}"


__all__ = ["TURN_LIMIT_WARN", "TURN_LIMIT_REASONS", "turn_limit", "confirmation_turn_limits",
           "flagged", "turn_limit_warning", "MET_AT_LIMIT", "qualified_verdict"]
