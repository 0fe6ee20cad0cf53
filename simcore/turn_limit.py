"""Games stopped at the turn limit: how many, and the warning every answer built on them leads with.

A game stopped by the rules' safety bound (``end.max_turns``; the end reason every game's spec names
``truncated``, shown as "Turn limit reached") has no winner by the rules of the book: the game
scores it by a fall-back (in Seigneurial, a Seigneur loss and a win shared by the Censitaires; in
Médiévallons, as on an empty draw pile). A win share, a before/after or a tuned fix read on many
such games describes unfinished games, so from :data:`TURN_LIMIT_WARN` of a run's games every
answer warns first: ``simulate``'s closing table (:mod:`cli.progress`), a run's page and the lines
``balance report`` prints (:mod:`reports.text`), a before/after's lead, the design targets' verdicts
and a tune's verdict (:mod:`analysis.tune.ends`).

* :func:`from_counts` — the share from the games per end reason (a run's statistics or its
  end-reason table), as a :class:`TurnLimit`;
* :func:`from_stats` — the same from a run's mergeable statistics (no polars: ``simulate``'s
  closing table reads it at the end of every run);
* :func:`split_from_stats` — who won the finished games and who the stopped ones, per seat or
  side (:func:`sides`), from the statistics; the warning says both (:func:`split_words`): a
  Médiévallons seat 4 that wins 28% of the finished games and 52% of the stopped ones shows that
  the fall-back scoring, not the game, makes its share;
* :func:`warning` — the sentence, or '' below the threshold; :func:`warning_over` the same over
  several runs (a sweep's variants, a panel's cells).

Here, below the runner and the analysis, so that ``simulate``'s closing table says it without
importing the analysis package. May import the standard library and numpy only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: The share of a run's games ended at the turn limit from which an answer warns. A game stopped at
#: the bound is scored by a fall-back, not won by the rules, so each such game can move a side's or
#: a seat's win share; at 5% of the games they alone can move a share by up to 5 pp, as much as a
#: role target's usual tolerance (``role=NAME:SHARE:5``) and more than the default seat-balance
#: tolerance (1.5 pp). Below it the win shares still describe finished games in the main; at or
#: above it they may be an artefact of the bound.
TURN_LIMIT_WARN = 0.05

#: The end reason names that mean "stopped at the turn limit" (every game's spec names it so).
TURN_LIMIT_REASONS = ("truncated",)

#: The rules' setting of the bound (Médiévallons' and Seigneurial's ``[end] max_turns``).
TURN_LIMIT_SETTING = "end.max_turns"


@dataclass(frozen=True)
class TurnLimit:
    """A run's games ended at the turn limit: ``games`` of ``total`` (``share``), the end reason's
    ``label`` as the reports show it, and the mean length in turns of all the run's games (None
    without a length in turns)."""

    games: int
    total: int
    label: str = "Turn limit reached"
    mean_turns: float | None = None
    limit: int | None = None          # the bound the stopped games reached (their length), if known
    #: who won the finished games and who the stopped ones: (who, share of the finished games won,
    #: share of the stopped games won), per seat or, in a game with roles, per side
    #: (:func:`split_from_stats`); () when not known
    split: tuple[tuple[str, float, float], ...] = ()

    @property
    def finished(self) -> int:
        """The games that ended by the rules (not at the turn limit)."""
        return self.total - self.games

    @property
    def share(self) -> float:
        return self.games / self.total if self.total else 0.0

    @property
    def flagged(self) -> bool:
        return self.total > 0 and self.share >= TURN_LIMIT_WARN

    def as_dict(self) -> dict:
        """The figures as JSON holds them (a tune's result.json): a share of no games (0 of 0,
        NaN here: no game stopped, or none finished) is None, since JSON has no NaN (review D
        #12: Node's, Go's and Rust's parsers refuse ``NaN``)."""
        return {"games": self.games, "total": self.total, "share": self.share, "label": self.label,
                "mean_turns": _number(self.mean_turns), "limit": self.limit,
                "split": [{"who": w, "finished": _number(f), "stopped": _number(st)}
                          for w, f, st in self.split]}


def _number(x):
    """``x`` as JSON can hold it: None for None, NaN or ±inf."""
    if x is None:
        return None
    x = float(x)
    return x if np.isfinite(x) else None


def from_counts(games_by_reason: dict[str, int], label: str = "Turn limit reached",
                mean_turns: float | None = None, limit: float | None = None,
                split: tuple[tuple[str, float, float], ...] = ()) -> TurnLimit | None:
    """The :class:`TurnLimit` of a run from its games per end reason name; None when its game has
    no turn-limit end reason (a Middle-Ages game always ends by its rules, a Fief combat by its
    last round) or it played no game."""
    if not any(r in games_by_reason for r in TURN_LIMIT_REASONS):
        return None
    total = int(sum(games_by_reason.values()))
    if total <= 0:
        return None
    stopped = int(sum(games_by_reason.get(r, 0) for r in TURN_LIMIT_REASONS))
    bound = int(round(limit)) if limit is not None and limit == limit and stopped else None
    return TurnLimit(stopped, total, label, mean_turns, bound, tuple(split))


def _names(names) -> dict[int, str]:
    """run.json's ``end_reason_names`` (a dict with string keys, or a list) as ``{code: name}``."""
    if isinstance(names, list):
        return dict(enumerate(map(str, names)))
    out = {}
    for k, v in (names or {}).items() if isinstance(names, dict) else ():
        try:
            out[int(k)] = str(v)
        except (TypeError, ValueError):
            continue
    return out


def sides(seat_roles, display: dict[str, str] | None = None) -> list[tuple[str, list[int]]]:
    """Who the split of a run's wins names: every seat ("Seat 1" …), or, in a game with roles
    (``seat_roles``: the role name of every seat, more than one role), every side ("the Seigneur",
    "the Censitaires": the role's ``display`` name, plural when several seats play it), each with
    the seats (0-based) that make it up."""
    roles = [str(r) for r in seat_roles or ()]
    if len(set(roles)) <= 1:
        return [(f"Seat {i + 1}", [i]) for i in range(len(roles))]
    out = []
    for r in dict.fromkeys(roles):
        seats = [i for i, x in enumerate(roles) if x == r]
        name = (display or {}).get(r) or r.replace("_", " ").capitalize()
        out.append((f"the {name}" + ("s" if len(seats) > 1 and not name.endswith("s") else ""), seats))
    return out


def split_from_stats(stats, end_reason_names, who: list[tuple[str, list[int]]] | None = None
                     ) -> tuple[tuple[str, float, float], ...]:
    """Who won the finished games and who the stopped ones, from a run's statistics (the win units
    of every seat per end reason, ``valued["gw:<end reason column>"]``, and the games per end
    reason, ``valued["g:<end reason column>"]``): per entry of ``who`` (:func:`sides`; by default
    from the statistics' seat roles), (who, its share of the finished games' wins, its share of the
    stopped games' wins), a share NaN where there is no such game. () when the statistics do not
    hold them or the game has no turn-limit end reason."""
    names = _names(end_reason_names)
    layout = getattr(stats, "layout", None) or {}
    col = layout.get("end_reason")
    valued = getattr(stats, "valued", {})
    g, gw = valued.get(f"g:{col}"), valued.get(f"gw:{col}")
    if col is None or g is None or gw is None or not any(n in TURN_LIMIT_REASONS for n in names.values()):
        return ()
    a, aw = np.asarray(g.a), np.asarray(gw.a)
    if a.ndim != 1 or aw.ndim != 2 or a.size == 0:
        return ()
    stop = np.array([names.get(int(v)) in TURN_LIMIT_REASONS for v in g.values])
    stop_w = np.array([names.get(int(v)) in TURN_LIMIT_REASONS for v in gw.values])
    n_stop, n_done = float(a[stop].sum()), float(a[~stop].sum())
    units = float(layout.get("win_units") or 1)
    wins_stop = aw[:, stop_w].sum(axis=1) / units
    wins_done = aw[:, ~stop_w].sum(axis=1) / units
    if who is None:
        who = sides(layout.get("seat_roles") or ["player"] * aw.shape[0])

    def share(w, n):
        return float(w / n) if n > 0 else float("nan")

    return tuple((name, share(wins_done[seats].sum(), n_done), share(wins_stop[seats].sum(), n_stop))
                 for name, seats in who)


def from_stats(stats, end_reason_names, who: list[tuple[str, list[int]]] | None = None
               ) -> TurnLimit | None:
    """The :class:`TurnLimit` of a run from its statistics (:class:`simcore.accumulate.RunStats`:
    the games per end reason and length, ``valued["length"]``) and run.json's
    ``end_reason_names``; None where they say nothing of a turn limit."""
    names = _names(end_reason_names)
    h = getattr(stats, "valued", {}).get("length")
    if h is None or not names or not any(n in TURN_LIMIT_REASONS for n in names.values()):
        return None
    a = np.asarray(h.a)
    if a.ndim != 2 or a.size == 0:
        return None
    by_reason = a.sum(axis=1)
    counts = {names.get(i, f"end_reason_{i}"): int(by_reason[i]) for i in range(len(by_reason))}
    for n in names.values():
        counts.setdefault(n, 0)
    total = int(by_reason.sum())
    mean = float((a.sum(axis=0) * h.values).sum() / total) if total else None
    # the stopped games' length: the bound itself (every one of them ran to it)
    code = next((i for i, n in names.items() if n in TURN_LIMIT_REASONS and i < a.shape[0]), None)
    bound = (float((a[code] * h.values).sum() / a[code].sum())
             if code is not None and a[code].sum() else None)
    return from_counts(counts, mean_turns=mean, limit=bound,
                       split=split_from_stats(stats, end_reason_names, who))


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def warning(t: TurnLimit | None, whose: str = "the games", about: str = "The win shares") -> str:
    """The warning an answer read on ``t``'s games leads with, or '' below :data:`TURN_LIMIT_WARN`:
    "Warning: 57.3% of the games (1,145 of 2,000) ended at the turn limit ('Turn limit reached',
    the rules' safety bound end.max_turns, not an end of the game's own; the games lasted 142.1
    turns on average). The win shares count those unfinished games …". ``whose`` names the games
    ("the games", "B's games"), ``about`` what is read on them."""
    if t is None or not t.flagged:
        return ""
    mean = f"; all the games lasted {t.mean_turns:.1f} turns on average" if t.mean_turns else ""
    at = f" of {t.limit} turns" if t.limit else ""
    return (f"Warning: {_pct(t.share)} of {whose} ({t.games:,} of {t.total:,}) ended at the turn limit{at} "
            f"('{t.label}', the rules' safety bound {TURN_LIMIT_SETTING}, not an end of the game's "
            f"own{mean}).{split_words(t)} {about} count those unfinished games, scored by the rules' fall-back for a "
            "stopped game, so they do not describe finished games: before acting on them, make "
            f"the games end by the rules (or raise {TURN_LIMIT_SETTING} if the games were close "
            "to ending).")


def split_words(t: TurnLimit) -> str:
    """" Win shares in the 414 finished games and in the 1,586 stopped ones, in that order: Seat 1
    24.4% and 9.3%, …, Seat 4 28.0% and 51.5%." (with a leading space): who won the games that ended by the
    rules against who won those the bound stopped, so that a designer sees how far the fall-back
    scoring moves each share; '' without a split or when either kind of game is missing."""
    if not t.split or t.games <= 0 or t.finished <= 0:
        return ""
    parts = ", ".join(f"{who} {_pct(done)} and {_pct(stop)}" for who, done, stop in t.split
                      if done == done and stop == stop)
    if not parts:
        return ""
    return (f" Win shares in the {t.finished:,} finished games and in the {t.games:,} stopped ones, "
            f"in that order: {parts}.")


def warning_over(named: list[tuple[str, TurnLimit | None]], kind: str = "variants",
                 about: str = "Their win shares, and every change to or from them,", where: str = "") -> str:
    """The warning of a page over several runs (a sweep's variants, a panel's cells), or '' when
    none reaches :data:`TURN_LIMIT_WARN`: "Warning: in 2 of the 3 variants, 5% or more of the games
    ended at the turn limit (…): end.max_turns=8: 96.5% of 600; … Their win shares … count those
    unfinished games …". ``named``: (the run's label, its :class:`TurnLimit` or None); ``where``:
    whose runs, before "in …" (a panel before/after: "in the panel pawns1, ")."""
    known = [(lab, t) for lab, t in named if t is not None]
    bad = [(lab, t) for lab, t in known if t.flagged]
    if not bad:
        return ""
    one = kind.removesuffix("s")
    which = (f"the {one}" if len(known) == 1 else f"every {one} ({len(bad)})" if len(bad) == len(known)
             else f"{len(bad)} of the {len(known)} {kind}")
    shown = bad if len(bad) <= 8 else bad[:8]
    listed = "; ".join(f"{lab}: {_pct(t.share)} of {t.total:,}" + (f" (at {t.limit} turns)" if t.limit else "")
                       for lab, t in shown)
    more = f"; and {len(bad) - len(shown)} more" if len(bad) > len(shown) else ""
    return (f"Warning: {where}in {which}, {TURN_LIMIT_WARN:.0%} or more of the games ended at the turn limit "
            f"(the rules' safety bound {TURN_LIMIT_SETTING}, not an end of the game's own): "
            f"{listed}{more}. {about} count those unfinished games, scored by the rules' fall-back "
            "for a stopped game, so they do not describe finished games.")


__all__ = ["TURN_LIMIT_WARN", "TURN_LIMIT_REASONS", "TURN_LIMIT_SETTING", "TurnLimit", "from_counts",
           "from_stats", "sides", "split_from_stats", "split_words", "warning", "warning_over"]
