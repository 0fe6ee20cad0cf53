"""The tables a sweep's page shows, as rows for files, and which value of a parameter to pick.

:func:`values_rows` is one row per variant (a swept value, or a combination of values in a grid)
and headline metric: the estimate with the page's 95% interval (a win share: Wilson's; the seat
imbalance: the Balance interval's construction; every other metric: the normal interval of its
mean, :func:`analysis.sweep.metrics.metric_table`), the values of every varied parameter in their
own columns, and, in a game whose games can stop at the turn limit, each variant's share of games
stopped there (Wilson). :func:`effect_rows` is one row per comparison and metric the page makes,
in the page's three families (first vs last value, each value against the others, a grid's other
slices), each row naming its family, the family's number of comparisons and the level every
interval of it is read at (Bonferroni over those comparisons, simultaneous over a comparison's
metrics). Shares and their changes are fractions (0.25 = 25%), as ``comparison.csv`` writes them.

:func:`which_value` answers "which value of this parameter to pick" from the page's own numbers: in
a game whose seats are alike, the value(s) with the smallest seat imbalance; in a game with roles
(no seat imbalance, no fair share per seat, and a sweep's page takes no target share), no value:
what the setting does to the sides (:func:`sides_answer`: the first role's share at every value and
its paired changes; the split between the sides is the designer's call); and, in a game with a role
of several seats, the value(s) whose seats of that role split its wins most evenly (the smallest
split gap, :func:`analysis.sweep.metrics.split_metrics`; :func:`which_values` gives every answer). Whether each other value
can be told apart from it is read on the paired intervals the page already prints (the
value-by-value family, :attr:`analysis.sweep.metrics.Sensitivity.value_effects`; a parameter of
two values: the first-vs-last family), never on a new unadjusted comparison; it also finds where the
response is flat (every two values from some value on within the smallest difference that matters
by those intervals: :func:`flat_from`) and, for a best value at the end of the range, whether the
game's rules allow a value beyond it (:func:`edge_of`: sweep.json ``beyond``, the game's loader run
when the sweep was planned, :func:`analysis.sweep.play.beyond_checks`).

May import numpy, polars, the standard library, :mod:`simcore` (the registry, rundir),
:mod:`analysis.stats`, :mod:`analysis.length` (the games stopped at the turn limit) and
:mod:`analysis.sweep` (metrics).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.sweep.metrics import (FIRST_VS_LAST, MATTERING, OTHER_SLICES, VALUE_BY_VALUE,
                                    against_reference, as_page_reads)
from simcore.config import format_value

# (the page's families of comparisons, FIRST_VS_LAST …, are defined beside the rows, in
# analysis.sweep.metrics, and exported here as effects.csv names them)


def _interval_kind(metric: str, share: bool) -> str:
    if metric == "balance":
        return "Balance interval (simultaneous seat shares, then the largest distance), 95%"
    if metric.startswith("role_split_"):
        return ("Bonferroni over the role's seats (each seat's share of the role's wins, delta "
                "method), then the largest distance from an equal split, 95%")
    return "Wilson score, 95%" if share else "normal, 95%"


def values_rows(s, sweep_dir: str | Path | None = None) -> pl.DataFrame:
    """One row per variant and headline metric of sweep ``s`` (a
    :class:`analysis.sweep.metrics.Sensitivity`), as the page's table "Every variant" holds them:
    ``variant``, ``settings``, one column per varied parameter (its value, as the page prints it),
    ``metric`` (key), ``label``, ``unit`` ("fraction" for a win share, the seat imbalance and a
    role's split gap: 0.25 = 25%, 0.05 = 5 pp; else the metric's own), ``estimate``, ``low``, ``high``, ``interval``
    (which 95% interval), ``games``; then, where ``sweep_dir`` is given and the game records why a
    game ended with a turn limit among the reasons, a row ``turn_limit_share`` per variant (the
    share of its games stopped there, Wilson)."""
    sw = s.sweep
    names = [v["name"] for v in sw["varies"]]
    by_id = {v["id"]: v for v in sw["variants"]}
    from analysis.sweep.metrics import _text

    rows = []
    for r in s.variants.iter_rows(named=True):
        var = by_id[r["variant"]]
        rows.append({"variant": r["variant"], "settings": r["label_variant"],
                     **{n: _text(var["values"][n]) for n in names},
                     "metric": r["metric"], "label": r["label"],
                     "unit": "fraction" if r["share"] else r["unit"],
                     "estimate": r["estimate"], "low": r["low"], "high": r["high"],
                     "interval": _interval_kind(r["metric"], r["share"]), "games": sw["games"]})
    if sweep_dir is not None:
        for vid in dict.fromkeys(s.variants["variant"].to_list() if s.variants.height else []):
            lim = turn_limit_of(Path(sweep_dir), vid)
            if lim is None or not lim.total:
                continue
            lo, hi = stats.wilson(lim.games, lim.total)
            var = by_id[vid]
            rows.append({"variant": vid, "settings": var["label"],
                         **{n: _text(var["values"][n]) for n in names},
                         "metric": "turn_limit_share",
                         "label": "the share of games stopped at the turn limit", "unit": "fraction",
                         "estimate": lim.games / lim.total, "low": float(lo), "high": float(hi),
                         "interval": "Wilson score, 95%", "games": lim.total})
    cols = ["variant", "settings", *names, "metric", "label", "unit", "estimate", "low", "high",
            "interval", "games"]
    if not rows:
        return pl.DataFrame()
    order = {vid: k for k, vid in enumerate(by_id)}
    return pl.DataFrame(rows).select(cols).with_columns(
        pl.col("variant").replace_strict(order, default=len(order), return_dtype=pl.Int64).alias("_o"),
        (pl.col("metric") == "turn_limit_share").alias("_t")).sort(
        ["_o", "_t"], maintain_order=True).drop("_o", "_t")


def turn_limit_of(sweep_dir: Path, vid: str):
    """The games of variant ``vid`` stopped at the turn limit (:func:`analysis.length.run_turn_limit`),
    None when its game has no such end."""
    from analysis.length import run_turn_limit

    return run_turn_limit(Path(sweep_dir) / "variants" / vid)


def _family_size(d: pl.DataFrame, keys: list[str]) -> int:
    return d.select(keys).unique().height if d.height else 0


def effect_rows(s) -> pl.DataFrame:
    """One row per comparison and metric of sweep ``s``'s page, every family in one table:
    ``family`` (:data:`FIRST_VS_LAST`, :data:`VALUE_BY_VALUE`, :data:`OTHER_SLICES`),
    ``comparisons_in_family`` (the m of its Bonferroni), ``level`` (each comparison's simultaneous
    level over its metrics, 1 − 0.05/m), ``against_base`` (a row comparing a value with a parameter's
    reference value, :func:`analysis.sweep.metrics.reference`, in the page's table "Each value
    against the base value": a value-by-value row, or the first-vs-last row of a pair that family
    states, which is in no other family), ``parameter``, ``from``, ``to`` (the lower value and the
    higher, of words the earlier and the later in the order tried, as the page reads every change:
    :func:`analysis.sweep.metrics.value_order`; the reference may be either),
    ``others_at`` (where the other parameters were held), ``metric``, ``label``,
    ``unit`` ("fraction" for shares), ``change`` (to − from, game by game), ``low``/``high`` (the
    family's adjusted interval), ``low_unadjusted``/``high_unadjusted`` (the metric's own 95%),
    ``smallest`` (the smallest difference that matters), ``verdict`` (the page's code:
    :func:`analysis.stats.practical`), ``read`` (False: the comparison's player count, ``players``,
    does not read the setting, so both variants played the same games:
    :func:`analysis.sweep.metrics.reads_comparison`; ``players`` empty for a comparison of player
    counts), ``same_as``/``mirror`` (a metric that repeats another), ``games``, ``same_games`` (the
    games, where no game differs between the two values: low/high are then the games' bound on the
    change, :func:`analysis.stats.same_games_bound`, as the before/after's ``change_at_most``; else
    empty), ``even_both`` (a role's split gap whose every seat may take an equal share of the
    role's wins at both values, the largest seat change fitting both ways: low/high are then ± that
    change, centred on 0 and not on ``change``, :func:`analysis.sweep.metrics._even_both`; False
    on every other row)."""
    parts = []
    keys = ["parameter", "from", "to", "at"]
    refs = {name: str(ref) for name, (ref, _) in (s.references or {}).items()}

    def on_base_table(r: dict) -> bool:
        """A row the page's table "Each value against the base value" shows."""
        return refs.get(r["parameter"]) in (str(r["from"]), str(r["to"]))

    for fam, d in ((FIRST_VS_LAST, s.effects), (VALUE_BY_VALUE, s.value_effects),
                   (OTHER_SLICES, s.slice_effects)):
        if d is not None and d.height and fam == VALUE_BY_VALUE and "family" in d.columns:
            # a pair the first-vs-last family states is that family's row (listed above), once
            d = d.filter(pl.col("family") == VALUE_BY_VALUE)
        if d is None or d.height == 0:
            continue
        m = _family_size(d, keys)
        # every row as the page reads it, earlier value → later (a value against the base
        # value too: session 55 review #2); ``against_base``: a row of the table "Each value
        # against the base value" (a stated first → last pair there is the first-vs-last row)
        rows = [{**as_page_reads(r), "against_base": fam != OTHER_SLICES and on_base_table(r)}
                for r in d.iter_rows(named=True)]
        for r in rows:
            parts.append({
                "family": fam, "comparisons_in_family": m, "level": 1 - (1 - stats.LEVEL) / max(m, 1),
                "against_base": r["against_base"], "parameter": r["parameter"],
                "from": str(r["from"]), "to": str(r["to"]), "others_at": r.get("at") or "",
                "metric": r["metric"], "label": r["label"],
                "unit": "fraction" if r["share"] else r["unit"], "change": r["delta"],
                "low": r["low"], "high": r["high"], "low_unadjusted": r.get("low_unadjusted"),
                "high_unadjusted": r.get("high_unadjusted"), "smallest": r.get("smallest"),
                "verdict": r.get("verdict"), "read": r.get("read", True), "players": r.get("players"),
                "same_as": r.get("same_as"),
                "mirror": bool(r.get("mirror")) if r.get("same_as") is not None else None,
                "games": r.get("games"), "same_games": r.get("same_games"),
                "even_both": bool(r.get("even_both"))})
    if not parts:
        return pl.DataFrame()
    return pl.DataFrame(parts, infer_schema_length=None)


# ---------------------------------------------------------------------------------------------
# Which value to pick
# ---------------------------------------------------------------------------------------------

def _chain_values(curves: pl.DataFrame, name: str, metric: str) -> list[dict]:
    """Parameter ``name``'s points of ``metric`` in the order of its chain (value, estimate, low,
    high, order)."""
    c = curves.filter((pl.col("parameter") == name) & (pl.col("metric") == metric))
    return list(c.sort("order").iter_rows(named=True))


def _against(s, name: str, metric: str, ref, values: list, call_of) -> tuple:
    """Each of ``values`` against ``ref`` on the page's paired rows (:func:`_pair_row`), with
    ``call_of(row)`` its call: (those rows with value and call, the family of the last row, the
    size of that family, where the others were held); values the page has no row for are left
    out. Each row keeps its own ``family`` and ``family_size``: a parameter of 3 values or more
    compares its first and last value in the first-vs-last family and every other two values in
    the value-by-value family (session 55 review #1), so one list can hold both."""
    others, family, pairs, at = [], None, None, ""
    for v in values:
        r = _pair_row(s, name, metric, ref, v)
        if r is None:
            continue
        family, pairs = r["family"], r["family_size"]
        at = r.get("at") or ""
        others.append({**r, "value": v, "call": call_of(r)})
    return others, family, pairs, at


def _pair_row(s, name: str, metric: str, a: str, b: str) -> dict | None:
    """The page's paired comparison of ``metric`` between values ``a`` and ``b`` of ``name``,
    oriented b − a (``reversed`` when that is against the page's direction,
    :func:`analysis.sweep.metrics.as_page_reads`): the row of :attr:`Sensitivity.value_effects`
    (3 values or more; a pair the first-vs-last family states is that family's row there),
    else the first-vs-last family's (a parameter of two values); None when the page makes none.
    ``family`` names its family and ``family_size`` the number of comparisons it is adjusted
    over."""
    for d, fam in ((s.value_effects, VALUE_BY_VALUE), (s.effects, FIRST_VS_LAST)):
        if d is None or d.height == 0:
            continue
        sub = d.filter((pl.col("parameter") == name) & (pl.col("metric") == metric))
        for r in sub.iter_rows(named=True):
            if (str(r["from"]), str(r["to"])) not in ((a, b), (b, a)):
                continue
            row = r if (str(r["from"]), str(r["to"])) == (a, b) else \
                against_reference(sub.filter((pl.col("from") == r["from"]) & (pl.col("to") == r["to"])),
                                  name, a)[0]
            kind = r.get("family") or fam
            size = r.get("family_size") or (r.get("pairs") if kind == VALUE_BY_VALUE else
                                             _family_size(s.effects, ["parameter", "from", "to"]))
            return {**row, "family": kind, "family_size": size}
    return None


def flat_from(s, name: str, metric: str, values: list[str], distance_sign: dict | None = None
              ) -> tuple[str, str] | None:
    """The first value from which ``metric`` of ``name`` is flat by the page's intervals: every two
    values from it to the last (at least two values) with the whole paired interval within the
    smallest difference that matters (|low| and |high| below it: the change is shown to be under
    it); returned as (that value, the last value), None when no such stretch exists."""
    for k in range(len(values) - 1):
        tail = values[k:]
        ok = True
        for i, a in enumerate(tail):
            for b in tail[i + 1:]:
                r = _pair_row(s, name, metric, a, b)
                if r is None or not (abs(r["low"]) < r["smallest"] and abs(r["high"]) < r["smallest"]):
                    ok = False
                    break
            if not ok:
                break
        if ok:
            return tail[0], tail[-1]
    return None


def held_unread(s, name: str) -> bool:
    """Whether sweep ``s`` compares parameter ``name``'s values, the others held where its page
    holds them, only at a player count that does not read it (every first-vs-last row of it has
    ``read`` False: :func:`analysis.sweep.metrics.reads_comparison`)."""
    e = s.effects
    if e is None or e.height == 0 or "read" not in e.columns:
        return False
    d = e.filter(pl.col("parameter") == name)
    return d.height > 0 and not d["read"].any()


def which_values(s, name: str, sweep_dir: str | Path | None = None) -> list[dict]:
    """Every "which value" answer for parameter ``name``: :func:`which_value` on the page's first
    metric (the seat imbalance, or the first role's win share), then, in a game with a role of
    several seats, one on each role's split gap (:func:`analysis.sweep.metrics.split_metrics`:
    the value whose seats of that role split its wins most evenly). No answer for a parameter whose
    values the page compares at a player count that does not read it (:func:`held_unread`): every
    value played the same games there, so no value is fairer nor any response flat (session 62 #1:
    "Across every value tried (8 to 12) the Seigneur's win share does not change by more than the
    1 pp that matters", of track.goal.4 at 3 players)."""
    from analysis.sweep.metrics import SPLIT

    if held_unread(s, name):
        return []
    out = [w] if (w := which_value(s, name, sweep_dir)) is not None else []
    if s.curves.height:
        ms = s.curves.filter((pl.col("parameter") == name) & pl.col("metric").str.starts_with(SPLIT))
        for m in dict.fromkeys(ms["metric"].to_list()):
            if (w := which_value(s, name, sweep_dir, metric=m)) is not None:
                out.append(w)
    return out


def which_value(s, name: str, sweep_dir: str | Path | None = None, metric: str | None = None
                ) -> dict | None:
    """Which value of parameter ``name`` to pick, from sweep ``s``'s page numbers; None when the
    page has no comparison of its values (one value) or no metric to read it on.

    A game whose seats are alike: the value(s) with the smallest seat imbalance (``kind``
    "balance"). With ``metric`` a role's split gap (``role_split_<role>``, ``kind`` "split"): the
    value(s) whose role's seats split its wins most evenly (the smallest largest gap from an equal
    split), read as the seat imbalance is. A game with roles has no fair share per seat and a
    sweep takes no target share, so its first answer picks no value: it says what the setting does
    to the sides (``kind`` "sides", :func:`sides_answer`; review s46 SG #5: it was the value whose
    lone Seigneur's share came closest to its seats / P, a share the designer never gave). Returns
    ``kind``, ``metric``, ``label``, ``parameter``, ``best`` (the values with the smallest
    distance by its estimate, several when tied), ``points`` (value → its estimate, low, high and
    distance), ``others``: per other value, the page's paired row best → it (``delta`` as the
    change of the distance, the pair family's interval, ``verdict``) and ``call``: "further"
    (clearly further from fair than the best: the interval excludes 0), "apart" (cannot be told
    apart), ``flat`` (:func:`flat_from` on the metric itself, or None), ``spread`` (the values from
    the first of the longest run whose estimates lie within the smallest difference that matters
    of each other, to the last, when not flat by the intervals), ``edge`` (:func:`edge_of`: the best
    is the first or last value tried of a numeric parameter and the step into it is clear and may
    matter, with whether the rules allow a value beyond), ``family`` and ``pairs``."""
    curves = s.curves
    if curves.height == 0:
        return None
    has_balance = curves.filter((pl.col("parameter") == name) & (pl.col("metric") == "balance")).height
    if metric is not None:
        kind = "split"
        equal = _even_share(s, name, metric, sweep_dir, split=True)
    elif has_balance:
        metric, kind, equal = "balance", "balance", None
    else:
        roles = [m for m in dict.fromkeys(curves.filter(pl.col("parameter") == name)["metric"].to_list())
                 if m.startswith("role_win_share_")]
        return sides_answer(s, name, roles) if roles else None
    pts = _chain_values(curves, name, metric)
    if len(pts) < 2:
        return None
    values = [str(p["value"]) for p in pts]
    dist = {str(p["value"]): p["estimate"] for p in pts}
    low = min(dist.values())
    best = [v for v in values if dist[v] <= low + 1e-12]
    ref = best[0]
    others, family, pairs, at = _against(
        s, name, metric, ref, [v for v in values if v not in best],
        lambda r: "further" if r["low"] > 0 else ("closer" if r["high"] < 0 else "apart"))
    if not others:
        return None
    smallest = others[0]["smallest"]
    flat = flat_from(s, name, metric, values)
    spread = None
    if flat is None:
        # the longest stretch reaching the last value whose estimates lie within the smallest
        # difference of each other (what the curve shows, not yet what the intervals show)
        for k in range(len(values) - 2):
            est = [p["estimate"] for p in pts[k:]]
            if max(est) - min(est) < smallest:
                widest = max((max(abs(r["low"]), abs(r["high"]))
                              for i, a in enumerate(values[k:]) for b in values[k + 1 + i:]
                              if (r := _pair_row(s, name, metric, a, b)) is not None), default=None)
                spread = {"from": values[k], "to": values[-1], "range": max(est) - min(est),
                          "widest": widest}
                break
    edge = edge_of(s, name, pts, best, others, flat)
    label = pts[0]["label"]
    return {"kind": kind, "metric": metric, "label": label, "parameter": name, "best": best,
            "points": {str(p["value"]): {"estimate": p["estimate"], "low": p["low"], "high": p["high"],
                                        "distance": dist[str(p["value"])]} for p in pts},
            "values": values, "even": None, "others": others, "flat": flat, "spread": spread,
            "edge": edge, "family": family, "pairs": pairs, "smallest": smallest, "at": at,
            "equal": equal if kind == "split" else None}


def edge_of(s, name: str, pts: list[dict], best: list[str], others: list[dict], flat
            ) -> dict | None:
    """Whether a value beyond those tried may do better: the single best value is the first (or
    last) of a numeric parameter whose values rise, and the step into it from its neighbour is
    clear *and may matter* (its interval reaches the smallest difference that matters: review s46
    #3, a clear but small step beside "no longer changes by more than the 1 pp that matters" read
    as "look further"), outside a stretch the intervals show flat. ``{"value", "neighbour", "last",
    "checked", "beyond", "refused"}``: ``beyond`` the next value past it and ``refused`` the game's loader's
    line refusing it (sweep.json ``beyond``, checked when the sweep was planned,
    :func:`analysis.sweep.play.beyond_checks`: a setting already at the rules' bound, "coins never
    go below 0"), None when the rules take it or the sweep did not record it (``checked`` False: a
    sweep written before). None when no value beyond is worth a word. (The page only reads: the loader ran when
    the sweep was planned.)"""
    values = [str(p["value"]) for p in pts]
    if len(best) != 1 or len(values) < 2:
        return None
    ref = best[0]
    k = values.index(ref)
    if k not in (0, len(values) - 1):
        return None
    xs = [p.get("x") for p in pts]
    if any(x is None or not np.isfinite(x) for x in xs) or xs != sorted(xs):
        return None                          # words, or values not in order: nothing lies "beyond"
    nb = values[1] if k == 0 else values[-2]
    step = next((o for o in others if o["value"] == nb), None)
    if step is None or step["call"] != "further" or step.get("verdict") not in MATTERING:
        return None
    if flat is not None and values.index(flat[0]) <= min(k, values.index(nb)):
        return None
    last = k == len(values) - 1
    # an unfinished sweep: values of the range past this one are planned but not played yet
    # (review s50 sweep #2: "6 is the highest value tried … a higher value may be fairer, if the
    # rules allow one (this sweep was written before sweeps checked)" while 7 and 8 were to come)
    planned = next((v.get("values") or [] for v in (s.sweep or {}).get("varies") or []
                    if v.get("name") == name), [])
    ahead = [v for v in planned if isinstance(v, (int, float)) and not isinstance(v, bool)
             and (v > xs[k] if last else v < xs[k])]
    if ahead:
        return {"value": ref, "neighbour": nb, "last": last, "checked": True, "beyond": None,
                "refused": None, "unplayed": [format_value(v) for v in sorted(ahead, reverse=not last)]}
    rec = (((s.sweep or {}).get("beyond") or {}).get(name) or {}).get("high" if last else "low")
    known = rec is not None and rec.get("at") is not None and float(rec["at"]) == float(xs[k])
    return {"value": ref, "neighbour": nb, "last": last, "checked": known,
            "beyond": rec["value"] if known else None, "refused": rec.get("refused") if known else None}


def sides_answer(s, name: str, roles: list[str]) -> dict | None:
    """What parameter ``name`` does to the sides of a game with roles (``kind`` "sides"), for the
    page's lead in place of a value to pick: a sweep takes no target share and the split between
    the sides is the designer's call (review s46 SG #5). The first role's win share at every value
    (``points``), every other value against the reference (the base rules' value when tried, else
    the first: ``reference``, ``why``), each on the page's paired interval (``others``: the
    value-by-value family, or the first-vs-last one for two values; ``call`` "clear" when it
    excludes 0, else "apart"), whether the response is flat by those intervals (``flat``), and the
    other roles (``twins``: each with whether it is the same number or the mirror of the first,
    :func:`analysis.sweep.metrics.same_numbers`, else its own points). None with no comparison. A sweep of ``players`` gets it too: a game with roles compares its shares
    as they are between player counts (no fair share: :func:`analysis.sweep.metrics.fair_shares`;
    review s47, the page had no lead there)."""
    metric = roles[0]
    pts = _chain_values(s.curves, name, metric)
    if len(pts) < 2:
        return None
    values = [str(p["value"]) for p in pts]
    ref, why = _reference(s, name, values)
    others, family, pairs, at = _against(
        s, name, metric, ref, [v for v in values if v != ref],
        lambda r: "clear" if r["low"] > 0 or r["high"] < 0 else "apart")
    if not others:
        return None
    twins = []
    for m in roles[1:]:
        o = _pair_row(s, name, m, ref, others[0]["value"])
        f = _pair_row(s, name, metric, ref, others[0]["value"])
        kin = None
        for row, other in ((o, metric), (f, m)):
            if row is not None and row.get("same_as") == other:
                kin = "mirror" if row.get("mirror") else "same"
                break
        mp = _chain_values(s.curves, name, m)
        twins.append({"metric": m, "label": mp[0]["label"] if mp else m, "kin": kin,
                      "points": {str(p["value"]): {"estimate": p["estimate"], "low": p["low"],
                                                   "high": p["high"]} for p in mp}})
    return {"kind": "sides", "metric": metric, "label": pts[0]["label"], "parameter": name,
            "values": values, "reference": ref, "why": why,
            "points": {str(p["value"]): {"estimate": p["estimate"], "low": p["low"], "high": p["high"]}
                       for p in pts},
            "others": others, "flat": flat_from(s, name, metric, values), "twins": twins,
            "family": family, "pairs": pairs, "smallest": others[0]["smallest"], "at": at,
            "best": [], "edge": None}


def _reference(s, name: str, values: list[str]) -> tuple[str, str]:
    """The value of ``name`` the others are set against and why (as the page's value sentences,
    :func:`analysis.sweep.metrics.reference`): the base rules' value when it was tried, else the
    first value."""
    from analysis.sweep.metrics import _text, base_value

    refs = getattr(s, "references", None) or {}
    if name in refs and str(refs[name][0]) in values:
        return str(refs[name][0]), refs[name][1]
    base = base_value(s.sweep, name) if "rules_text" in (s.sweep or {}) else None
    if base is not None and _text(base) in values:
        return _text(base), "the base rules' value"
    return values[0], "its first value"


def _even_share(s, name: str, metric: str, sweep_dir, split: bool = False) -> float | None:
    """A role's share if every seat won equally often (its seats / P, as
    :func:`analysis.sweep.metrics.fair_shares` gives it) in ``name``'s variants: one number when
    they share a player count, else None (a sweep of ``players``: the page compares advantages
    there, not shares). ``split``: ``metric`` is a role's split gap, and the number is a seat's
    equal share of that role's wins (1/k, its k seats)."""
    from simcore import games as registry
    from simcore.rundir import read_meta

    from analysis.sweep.metrics import share_metrics, split_metrics

    if sweep_dir is None:
        return None
    spec = registry.specs().get(s.sweep.get("game"))
    c = s.curves.filter((pl.col("parameter") == name) & (pl.col("metric") == metric))
    shares = set()
    for vid in dict.fromkeys(c["variant"].to_list()):
        try:
            P = int(read_meta(Path(sweep_dir) / "variants" / vid)["players"])
        except Exception:                       # noqa: BLE001 - no player count read: no answer
            return None
        found = split_metrics(spec, P) if split else share_metrics(spec, P)
        seats = next((x for m, x in found if m.key == metric), None)
        if seats is None:
            return None
        shares.add(round(1.0 / len(seats) if split else len(seats) / P, 12))
    return shares.pop() if len(shares) == 1 else None


__all__ = ["FIRST_VS_LAST", "VALUE_BY_VALUE", "OTHER_SLICES", "values_rows", "effect_rows",
           "held_unread", "which_value", "which_values", "flat_from", "edge_of", "sides_answer"]
