"""Reading a sweep over a panel (:mod:`analysis.sweep.panel` plays it): every cell's paired effects,
whether a parameter moves every cell the same way (cells whose 95% interval is above 0, below 0, or
holds 0), the spread of the effects, and a sentence per parameter. Reading only: the reports use it.

May import polars, the standard library, :mod:`simcore.errors`, :mod:`simcore.numbers` (a change's
sign and decimals, as every page prints them),
:mod:`analysis.stats` (the wording by size) and :mod:`analysis.sweep` (metrics, store; whether a
cell's player count reads a setting: :func:`analysis.sweep.metrics.reads_comparison`).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simcore.errors import UsageError
from simcore.numbers import change_digits, rounded, signed, singular

from analysis.stats import LARGE, MAY_MATTER, SMALL

from analysis.sweep.store import read_json

PANEL_SWEEP_JSON = "panel_sweep.json"
CELLS = "cells"


def read_panel_sweep(path: str | Path) -> dict:
    return read_json(path, PANEL_SWEEP_JSON, "panel sweep")


def panel_effects(path: str | Path, overrides: dict | None = None) -> pl.DataFrame:
    """Every cell's paired effects (:func:`analysis.sweep.metrics.sensitivity`), one row per cell,
    parameter and metric, with the cell's label and player count, the smallest difference that
    matters (``smallest``: ``overrides`` by kind over the sweep's own, over the game's) and the
    effect's wording by size (``verdict``, :func:`analysis.stats.practical` on the cell's
    simultaneous interval: "clear and large enough to matter", "clear, may matter", "clear but
    small", "not shown") and whether the cell's player count reads the compared setting (``read``:
    False for ``track.goal.4`` in a 3-player cell, whose games are the same at both values; decided
    for every sweep, a cell's as a single one's, by
    :func:`analysis.sweep.metrics.reads_comparison`)."""
    from analysis.sweep.metrics import sensitivity

    path = Path(path)
    meta = read_panel_sweep(path)
    overrides = {**(meta.get("smallest_difference") or {}), **(overrides or {})} or None
    frames = []
    for k, (c, d) in enumerate(zip(meta["panel"]["cells"], meta["cells"])):
        e = sensitivity(path / d, overrides).effects
        if e.height:
            # "read": a cell that does not read the setting played the same games at both values:
            # it measured nothing, and the counts of cells leave it out (review s61 #1:
            # track.goal.4 in a 3-player cell was counted "unchanged")
            frames.append(e.with_columns(pl.lit(k).alias("cell"), pl.lit(c["label"]).alias("cell_label"),
                                         pl.lit(c["players"]).alias("players"),
                                         (pl.col("read") if "read" in e.columns else pl.lit(True)).alias("read")))
    if not frames:
        raise UsageError(f"{path}: no cell of this panel sweep has two finished variants of a parameter")
    return pl.concat(frames, how="diagonal_relaxed")


def agreement(effects: pl.DataFrame, n_cells: int) -> pl.DataFrame:
    """Per parameter and metric: cells whose effect is clearly up (interval above 0), clearly
    down, unclear; how many are large enough to matter (``large``: the interval beyond
    ``smallest_difference``), may matter (``may_matter``: clear, the interval straddles it) and
    clear but small (``small``: the interval inside it); the smallest and largest effect; whether
    every cell moves the same way (``same_way_everywhere``: "yes" or "no", over the cells that
    have the metric and measured it — a Censitaire's strategy exists only in the cells that seat
    it — and saying so when they are fewer than the panel's: "yes (in the 1 of 4 cells that
    measure it)"; review L #9: a metric of one cell, up there, read "no"); the cells of each way (``cells_in``, ``up_in``, ``down_in``,
    ``unchanged_in``, ``unclear_in``: lists of cell labels). A cell whose player count does not read
    the setting (column ``read`` False, :func:`panel_effects`) measured nothing and is in none of
    these counts: ``not_read`` counts it, ``not_read_in`` names it, ``not_read_at`` lists those
    player counts, and ``same_way_everywhere`` says "in the k of N cells that read it" (or "no cell
    reads it"). Rows in reading order: parameters whose effect is large enough
    to matter in more cells first, then may matter in more, then clear but small in more, then by
    size (the largest |effect| over the smallest difference), never by p-value."""
    if "read" not in effects.columns:
        effects = effects.with_columns(pl.lit(True).alias("read"))
    if "players" not in effects.columns:
        effects = effects.with_columns(pl.lit(None, pl.Int64).alias("players"))
    r = pl.col("read")                  # a cell that does not read the setting measured nothing
    # unchanged: no game's figure moved, the point 0 to 0, or for a share the games' bound on a
    # change where no game differs (``same_games``, analysis.sweep.metrics.parameter_effects)
    still = (pl.col("low") == 0) & (pl.col("high") == 0)
    if "same_games" in effects.columns:
        still = still | pl.col("same_games").is_not_null()
    delta = pl.col("delta").filter(r)
    g = effects.group_by(["parameter", "from", "to", "metric", "label", "unit", "share"],
                         maintain_order=True).agg(
        r.sum().cast(pl.UInt32).alias("cells"),
        ((pl.col("low") > 0) & r).sum().cast(pl.UInt32).alias("up"),
        ((pl.col("high") < 0) & r).sum().cast(pl.UInt32).alias("down"),
        ((pl.col("verdict") == LARGE) & r).sum().cast(pl.UInt32).alias("large"),
        ((pl.col("verdict") == MAY_MATTER) & r).sum().cast(pl.UInt32).alias("may_matter"),
        ((pl.col("verdict") == SMALL) & r).sum().cast(pl.UInt32).alias("small"),
        pl.col("smallest").first().alias("smallest_difference"),
        delta.abs().max().alias("_size"),
        (still & r).sum().cast(pl.UInt32).alias("unchanged"),
        delta.min().alias("smallest"),
        delta.max().alias("largest"),
        pl.col("cell_label").filter(r).sort_by(delta).first().alias("smallest_in"),
        pl.col("cell_label").filter(r).sort_by(delta).last().alias("largest_in"),
        pl.col("cell_label").filter(r).alias("cells_in"),
        *([pl.col("at").first().alias("at")] if "at" in effects.columns else []),
        pl.col("cell_label").filter((pl.col("low") > 0) & r).alias("up_in"),
        pl.col("cell_label").filter((pl.col("high") < 0) & r).alias("down_in"),
        pl.col("cell_label").filter(still & r).alias("unchanged_in"),
        pl.col("cell_label").filter((pl.col("low") <= 0) & (pl.col("high") >= 0) & r & ~still).alias("unclear_in"),
        (~r).sum().cast(pl.UInt32).alias("not_read"),
        pl.col("cell_label").filter(~r).alias("not_read_in"),
        pl.col("players").filter(~r).unique(maintain_order=True).alias("not_read_at"),
    )
    same = (pl.col("cells") > 0) & ((pl.col("up") == pl.col("cells")) | (pl.col("down") == pl.col("cells")))
    words = pl.when(same).then(pl.lit("yes")).otherwise(pl.lit("no"))
    g = g.with_columns(
        (pl.col("cells") - pl.col("up") - pl.col("down") - pl.col("unchanged")).alias("unclear"),
        pl.when(pl.col("cells") == 0)
        .then(pl.lit("no cell reads it"))
        .when(pl.col("not_read") > 0)
        .then(pl.format("{} (in the {} of {} cells that read it)", words, pl.col("cells"),
                        pl.lit(n_cells) - pl.col("not_read")))
        .when(pl.col("cells") < n_cells)
        .then(pl.format("{} (in the {} of {} cells that measure it)", words, pl.col("cells"), pl.lit(n_cells)))
        .otherwise(words).alias("same_way_everywhere"))
    return g.sort(["metric", "large", "may_matter", "small", "_size"],
                  descending=[False, True, True, True, True], maintain_order=True).drop("_size")


def headline_metric(effects: pl.DataFrame) -> str:
    """The metric a sentence speaks of: the first role's win share (asymmetric games), else the
    seat balance, else the first seat's win share."""
    keys = list(dict.fromkeys(effects["metric"].to_list()))
    for prefix in ("role_win_share_", "balance", "seat_win_share_1"):
        for k in keys:
            if k.startswith(prefix):
                return k
    return keys[0]


def in_cells(counts: list[tuple], n_cells: int) -> str | None:
    """``"up in 2, down in 1 of 3 cells"``: each wording with its count of cells (a ``(words,
    count)`` or ``(words, count, note)`` tuple; the note follows the count), the counts of 0 left
    out, the last followed by "of N cells"; ``None`` when every count is 0 (the caller says so in
    words). The order given is kept (the reading order)."""
    shown = [(f"{c[0]} in {c[1]}", f" {c[2]}" if len(c) > 2 else "") for c in counts if c[1]]
    if not shown:
        return None
    *head, (last, note) = shown
    return ", ".join([w + n for w, n in head] + [f"{last} of {n_cells} cells{note}"])


NAMED_CELLS = 3      # a sentence names the cells behind a count up to this many


def _named(ways: list[tuple], cells: dict[str, list[str]]) -> list[tuple]:
    """The ways of :func:`in_cells` with the cells behind every count but the largest named
    (``"unclear in 1 (harsh-lord + 3×fair-share)"``), when they are at most :data:`NAMED_CELLS`."""
    top = max((c[1] for c in ways), default=0)
    out, skipped = [], False
    for c in ways:
        names = cells.get(c[0]) or []
        if c[1] and names and len(names) <= NAMED_CELLS and (c[1] < top or skipped):
            why = f": {c[2].strip('()')}" if len(c) > 2 and c[2] else ""
            out.append((c[0], c[1], f"({', '.join(names)}{why})"))
        else:
            skipped = skipped or c[1] == top
            out.append(c)
    return out


def not_adjusted(n_cells: int) -> str:
    """The caveat every panel sweep's counts of cells carry: what the counts are (each cell judged
    in its own family) and what a designer can do with them. Nothing in the toolkit adjusts a
    sweep's effects over the cells (``balance report --cells``, once named here, adjusts a panel of
    runs' seat finding, not a sweep's effects: review G, panel #3)."""
    return (f"These counts of cells are not adjusted over the {n_cells} cells, and nothing adjusts "
            "them: each cell's effects are a family of their own (95% intervals simultaneous over "
            "that cell's metrics and parameters), so over many cells a parameter that does nothing "
            f"can come out clear in one or two by chance. Read \"k of {n_cells} cells\" as unadjusted; "
            "read one cell's effects on its own sweep page (balance report DIR/cells/cell-K, K from 0 "
            "in the panel's order), and confirm an effect that matters in one cell by sweeping that "
            "cell again on fresh games (another --seed).")


def most_moved(effects: pl.DataFrame) -> dict[tuple, str]:
    """Per comparison (parameter, from, to), the metric it moves most over the cells: clear and
    large enough to matter in the most cells, then may matter, then clear but small, then the
    largest |effect| over its smallest difference; a metric that is the same number as another, or
    its mirror (column ``same_as``), is left to that one."""
    d = effects
    if "same_as" in d.columns:
        d = d.filter(pl.col("same_as").is_null())
    g = d.group_by(["parameter", "from", "to", "metric"], maintain_order=True).agg(
        (pl.col("verdict") == LARGE).sum().alias("large"),
        (pl.col("verdict") == MAY_MATTER).sum().alias("may"),
        (pl.col("verdict") == SMALL).sum().alias("small"),
        (pl.col("delta").abs() / pl.col("smallest")).max().alias("size"))
    g = g.sort(["large", "may", "small", "size"], descending=True, maintain_order=True)
    out: dict[tuple, str] = {}
    for r in g.iter_rows(named=True):
        out.setdefault((r["parameter"], r["from"], r["to"]), r["metric"])
    return out


def _twin_of(effects: pl.DataFrame, metric: str) -> set[str]:
    """``metric`` and the metrics that are the same number or its mirror."""
    if "same_as" not in effects.columns:
        return {metric}
    pairs = effects.select("metric", "same_as").unique().drop_nulls().iter_rows()
    out = {metric}
    for m, o in pairs:
        if m == metric or o == metric:
            out |= {m, o}
    return out


def sentences(effects: pl.DataFrame, n_cells, metric: str | None = None) -> list[str]:
    """One sentence per parameter on ``metric`` (default :func:`headline_metric`): which way it
    moves the metric in how many cells (up, down, unchanged, unclear, and not measured: a cell with
    fewer than two finished variants of it), the cells behind every count but the largest named,
    the range of its effects, and in how many cells the effect is clear and large enough to matter,
    may matter or is clear but small (in that reading order). Counts of 0 are left out
    (:func:`in_cells`); when no cell's effect is clear, the sentence says so in words.

    ``n_cells``: the panel's number of cells, or its cell labels (then a cell with no measured
    effect is named). On the headline metric (``metric`` None or :func:`headline_metric`), a
    parameter whose most moved metric (:func:`most_moved`) is another gets a second sentence on
    that one (a payment order moves the split among the Censitaire seats, not the Seigneur's share),
    unless it is seat 1's share beside the seat balance (the callers print that one), and the
    sentences end with the caveat that the counts are not adjusted over the cells
    (:func:`not_adjusted`)."""
    labels = list(n_cells) if not isinstance(n_cells, int) else None
    n_cells = len(labels) if labels is not None else n_cells
    head = headline_metric(effects)
    metric = metric or head
    extra = most_moved(effects) if metric == head else {}
    skip = _twin_of(effects, metric) | ({"seat_win_share_1"} if metric == "balance" else set())
    out = []
    # per comparison, the cells that measured it (any metric): a cell among them without the
    # metric does not have it (a strategy it does not seat), not "fewer than two finished variants"
    measured: dict[tuple, set] = {}
    for p, f, t, c in effects.select("parameter", "from", "to", "cell_label").iter_rows():
        measured.setdefault((p, f, t), set()).add(c)
    for r in agreement(effects.filter(pl.col("metric") == metric), n_cells).iter_rows(named=True):
        out.append(_sentence(r, n_cells, labels, measured=measured.get((r["parameter"], r["from"], r["to"]))))
        other = extra.get((r["parameter"], r["from"], r["to"]))
        if other and other not in skip:
            sub = effects.filter((pl.col("metric") == other) & (pl.col("parameter") == r["parameter"])
                                 & (pl.col("from") == r["from"]) & (pl.col("to") == r["to"]))
            for o in agreement(sub, n_cells).iter_rows(named=True):
                out.append(_sentence(o, n_cells, labels, most=True,
                                     measured=measured.get((o["parameter"], o["from"], o["to"]))))
    if out and metric == head:
        out.append(not_adjusted(n_cells))
    return [s[0].upper() + s[1:] for s in out]


def unread_counts_text(at) -> str:
    """"3 players", "3 and 5 players": the player counts of cells that do not read a setting."""
    at = sorted({int(x) for x in at or () if x is not None})
    return (" and ".join(map(str, at)) + " players") if at else "their player count"


def unread_note(unread: list[str], at, left: str = "left out of these counts",
                named: int | None = NAMED_CELLS) -> str:
    """"not read at 3 players (2 cells, left out of these counts: 3p …, 3p …)": the cells of a
    panel whose player count does not read a setting (``unread``: their labels; ``at``: their
    counts), as a panel sweep names them after its counts and a panel tune after its verdict
    (``left``: what became of them there; ``named``: the most cells named, None for every one)."""
    which = f": {', '.join(unread)}" if named is None or len(unread) <= named else ""
    return (f"not read at {unread_counts_text(at)} ({len(unread)} cell{'s' if len(unread) != 1 else ''}, "
            f"{left}{which})")


def _sentence(r: dict, n_cells: int, labels: list[str] | None, most: bool = False,
              measured: set | None = None) -> str:
    """One parameter's sentence on one metric (:func:`sentences`); ``measured``: the cells that
    measured the comparison (any metric), so that a cell among them without the metric is said not
    to have it, and "every cell" is said only of the panel's every cell. A cell that does not read
    the setting (``not_read_in``, :func:`agreement`) is left out of the counts and named after them
    ("not read at 3 players (2 cells, left out of these counts: …)"); when no cell reads it, one
    sentence says so."""
    unread = list(r.get("not_read_in") or [])
    if unread:
        # a cell that does not read the setting played the same games at both values: it measured
        # nothing, so it is left out of every count ("k of N": N the cells that read it) and named
        # (review s61 #1: track.goal.4 "unchanged in 3 of 4 cells", two of them 3-player cells)
        at = [int(x) for x in (r.get("not_read_at") or []) if x is not None]
        if not r["cells"] and len(unread) >= n_cells:
            return (f"moving {r['parameter']} from {r['from']} to {r['to']} changes no game in any "
                    f"of the {n_cells} cells: none reads {r['parameter']} (not read at "
                    f"{unread_counts_text(at)}).")
        note = "; " + unread_note(unread, at)
        n_cells -= len(unread)
        labels = [c for c in labels if c not in unread] if labels is not None else None
        measured = (measured - set(unread)) if measured is not None else None
    else:
        note = ""
    scale, unit = (100.0, " pp") if r["share"] else (1.0, f" {r['unit']}")
    matter = r["smallest_difference"] * scale
    matter_unit = f" {singular(unit.strip())}" if matter == 1 and not r["share"] else unit
    lo, hi = r["smallest"] * scale, r["largest"] * scale
    at = f" with {r['at']}" if r.get("at") else ""
    move = f"moving {r['parameter']} from {r['from']} to {r['to']}{at}"
    what = r["label"] + (" (the metric it moves most)" if most else "")
    by_size = in_cells([(f"clear and large enough to matter (at least {matter:g}{matter_unit})",
                         r["large"]),
                        (f"clear, may matter (these games cannot tell whether it reaches "
                         f"{matter:g}{matter_unit})", r["may_matter"]),
                        # the figure is named once, on the first wording printed
                        ("clear but small" if r["large"] or r["may_matter"]
                         else f"clear but small (less than {matter:g}{matter_unit})", r["small"])],
                       n_cells)
    size = f": {by_size}" if by_size else f": clear in none of the {n_cells} cells"
    have = set(r["cells_in"])
    lacking = sorted(measured - have) if measured is not None else []
    missing = n_cells - r["cells"] - len(lacking)
    unmeasured = [c for c in labels if c not in have and c not in lacking] if labels is not None else []
    gone = (f"; not measured in {missing} (fewer than two finished variants"
            + (f": {', '.join(unmeasured)}" if unmeasured else "") + ")") if missing > 0 else ""
    if lacking:
        gone += (f"; {len(lacking)} cell{'s' if len(lacking) != 1 else ''} "
                 f"{'do' if len(lacking) != 1 else 'does'} not have it"
                 + (f" ({', '.join(lacking)})" if len(lacking) <= NAMED_CELLS else ""))
    gone += note
    k = r["cells"]
    if note and missing <= 0 and not lacking and 0 < k == n_cells and (r["up"] == k or r["down"] == k):
        verb, a, b = ("raises", lo, hi) if r["up"] == k else ("lowers", -hi, -lo)
        least, most_in = ((r["smallest_in"], r["largest_in"]) if r["up"] == k
                          else (r["largest_in"], r["smallest_in"]))
        by = (f"by {_size(a)}{unit} ({least})" if k == 1 else
              f"by {_size(a)} to {_size(b)}{unit} ({least}: least; {most_in}: most)")
        return (f"{move} {verb} {what} in every cell that reads it, {k} of {n_cells}{gone}, "
                f"{by}{size}.")
    if lacking and missing <= 0 and 0 < k < n_cells and (r["up"] == k or r["down"] == k):
        verb, a, b = ("raises", lo, hi) if r["up"] == k else ("lowers", -hi, -lo)
        least, most_in = ((r["smallest_in"], r["largest_in"]) if r["up"] == k
                          else (r["largest_in"], r["smallest_in"]))
        by = (f"by {_size(a)}{unit} ({least})" if k == 1 else
              f"by {_size(a)} to {_size(b)}{unit} ({least}: least; {most_in}: most)")
        return (f"{move} {verb} {what} in every cell that measures it, {k} of {n_cells}{gone}, "
                f"{by}{size}.")
    if r["up"] == n_cells:
        return (f"{move} raises {what} in every cell ({n_cells} of {n_cells}), but by "
                f"{_size(lo)} to {_size(hi)}{unit} ({r['smallest_in']}: least; {r['largest_in']}: most){size}.")
    if r["down"] == n_cells:
        return (f"{move} lowers {what} in every cell ({n_cells} of {n_cells}), but by "
                f"{_size(-hi)} to {_size(-lo)}{unit} ({r['largest_in']}: least; {r['smallest_in']}: most){size}.")
    ways = in_cells(_named([("up", r["up"]), ("down", r["down"]),
                            ("unchanged", r["unchanged"], "(no game's outcome moved)"),
                            ("unclear", r["unclear"])],
                           {"up": r["up_in"], "down": r["down_in"], "unchanged": r["unchanged_in"],
                            "unclear": r["unclear_in"]}), n_cells)
    ways = (ways or f"measured in none of the {n_cells} cells") + gone
    # an effect of 0 without a sign, one that is not 0 never printed as 0 (session 55 review: "+0.0
    # pp (3p 3×greedy)" for a cell whose effect is 0): _effect
    effects_from = (f"effects from {_effect(lo)}{unit} ({r['smallest_in']}) to "
                    f"{_effect(hi)}{unit} ({r['largest_in']})")
    if r["up"] == r["down"] == 0 and not by_size:
        # nothing clear anywhere: "clear in none" would only repeat the opening
        return f"{move} moves {what} clearly in none of the {n_cells} cells: {ways}; {effects_from}."
    return f"{move} does not move {what} the same way in every cell: {ways}; {effects_from}{size}."


def _effect(x: float) -> str:
    """An effect with its sign, as the toolkit prints a change (:func:`simcore.numbers.signed`: one
    that rounds to zero without a sign, "0.0"), at one decimal, or at the decimals (up to 3) where
    an effect that is not 0 does not print as 0 (:func:`simcore.numbers.change_digits`: +0.03 pp
    is "+0.03", not "+0.0")."""
    return signed(x, change_digits(x))


def _size(x: float) -> str:
    """The size of a clear effect after "by" (its sign said by "raises" or "lowers"): one decimal,
    or the decimals (up to 3) where one that is not 0 does not print as 0 ("by 0.03 to 4.5 pp",
    not "by 0.0 to 4.5 pp": :func:`simcore.numbers.change_digits`), halves away from zero as the
    tables round (:func:`simcore.numbers.rounded`)."""
    d = change_digits(x)
    return f"{abs(rounded(x, d)):.{d}f}"


def headline_sentences(effects: pl.DataFrame, labels: list[str]) -> list[str]:
    """The sentences a panel sweep leads with (the terminal and its page): on the headline metric
    (:func:`headline_metric`), preceded by seat 1's win share when the headline is the seat balance
    (the headline's sentences end with the caveat); ``labels``: the panel's cells, so that a cell
    with no measured effect is named."""
    shown = [headline_metric(effects)]
    if shown[0] == "balance" and "seat_win_share_1" in set(effects["metric"].to_list()):
        shown.insert(0, "seat_win_share_1")
    return [line for metric in shown for line in sentences(effects, labels, metric)]


__all__ = ["read_panel_sweep", "panel_effects", "agreement", "headline_metric", "headline_sentences", "sentences", "in_cells",
           "most_moved", "not_adjusted", "unread_note", "unread_counts_text",
           "PANEL_SWEEP_JSON", "CELLS"]
