"""A before/after over a panel: the same line-ups and player counts played under two rule sets
(``simulate --panel NAME --out BASE`` and ``simulate --panel NAME --set … --out VARIANT``), compared
cell by cell, so that a rule change's effect on the win rates says which line-ups it holds for.

:func:`pair_cells` pairs the two panels' cells by player count and line-up (the cell's label, as
the panel page names it), in order when a line-up appears twice; a cell of one panel alone is
named and left out. :func:`panel_comparison` compares each pair as ``balance report BASE/cell-K
VARIANT/cell-K`` does (:func:`analysis.compare.compare_runs`: paired game by game when both
cells played the same deals) and keeps the seat win shares (in a game with roles, the sides'):
one family over every cell and seat, Holm's step-down on the comparisons' two-sided p-values,
each change worded by its size on its Bonferroni interval over that family
(:func:`analysis.stats.practical_holm`), so that "moved in 3 of 3 cells" holds for the whole
table at once, not cell by cell. A row that cannot move is kept outside the family, not tested:
a side constant in both runs, or, paired game by game, a seat or side with the same result in
every game under both rules (:func:`_same_games_untested`). :func:`seat_balance` says per cell
whether the change moves the seats toward or away from fair (the largest gap from a fair share,
before and after, and the change in it read on simultaneous intervals).
The page's words are :mod:`reports.panel`'s (:func:`reports.panel.build_panel_comparison_report`).

May import polars, numpy, the standard library, :mod:`analysis` and its modules, and
:mod:`simcore` (run directories, errors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.panel import _label, cell_runs
from simcore.errors import UsageError
from simcore.rundir import read_meta

ALPHA = 0.05


@dataclass
class PanelComparison:
    """The seat (or side) win shares of every paired cell, before and after.

    ``rows``: one row per cell and seat: cell (its label: players and line-up), players, item (the
    seat's or side's label), before, after, diff (after − before), diff_low, diff_high (its own 95%
    interval, unadjusted), z, p_value, p_adjusted (Holm over the family), significant (p_adjusted
    below 0.05), size_low, size_high (the
    Bonferroni interval over the family, the verdict's, as computed: a page shows a clear change's
    on its side of 0), verdict (its size in words), paired (compared game by game), note (why a
    row outside the family is not tested; its interval, z, p and verdict are then null).
    ``family``: how many comparisons the correction runs over. ``left_out``: the cells found in one
    panel only."""

    game: str
    rows: pl.DataFrame
    cells: list[str]
    what: str                       # "seat", or "side" in a game with roles
    family: int
    smallest: float
    left_out: list[str] = field(default_factory=list)
    runs: list[tuple[Path, Path]] = field(default_factory=list)     # each pair's run directories


def _cell_label(run: Path) -> str:
    meta = read_meta(run)
    names = meta.get("strategies") or []
    if isinstance(names, str):
        names = names.split(",")
    players = int(meta.get("players") or len(names))
    return _label(players, list(names)) if names else f"{players}p {run.name}"


def pair_cells(base: str | Path, variant: str | Path) -> tuple[list[tuple[str, Path, Path]], list[str]]:
    """The cells of panel directories ``base`` and ``variant`` paired by player count and line-up
    (label, base cell, variant cell), in the base panel's order, and the labels of the cells
    found in one panel only. Refused in one line when the panels are of different games or share
    no line-up."""
    b_runs, v_runs = cell_runs([base]), cell_runs([variant])
    games = {read_meta(r).get("game") for r in b_runs + v_runs}
    if len(games) != 1:
        raise UsageError(f"{base} and {variant}: panels of different games "
                         f"({', '.join(sorted(map(str, games)))}) have no before/after")
    waiting: dict[str, list[Path]] = {}
    for r in v_runs:
        waiting.setdefault(_cell_label(r), []).append(r)
    pairs, alone = [], []
    for r in b_runs:
        lab = _cell_label(r)
        if waiting.get(lab):
            pairs.append((lab, r, waiting[lab].pop(0)))
        else:
            alone.append(f"{lab} ({r.parent.name}/{r.name})")
    alone += [f"{lab} ({r.parent.name}/{r.name})" for lab, rs in waiting.items() for r in rs]
    if not pairs:
        raise UsageError(f"{base} and {variant}: no cell of one panel has the players and line-up "
                         f"of a cell of the other, so there is nothing to compare (cells: "
                         f"{'; '.join(alone)})")
    return pairs, alone


def _untested_side(tb: dict, tv: dict, dropped: list, paired: bool) -> pl.DataFrame:
    """A game of two sides whose comparison kept neither side's win share (both constant: the
    Seigneur won no game in either run): the first side's row, before and after, not tested (no
    game differs), with the comparison's reason."""
    b, v = tb["roles"].row(0, named=True), tv["roles"].row(0, named=True)
    label = f"{b['role_label']} side"
    why = next((w for lab, w in dropped if lab.startswith(label)), "the same in every game of both runs")
    return pl.DataFrame([{"label": f"{label} win share", "key": str(b["role"]), "base": float(b["win_share"]),
                          "variant": float(v["win_share"]), "diff": float(v["win_share"]) - float(b["win_share"]),
                          "diff_low": None, "diff_high": None, "z": None, "p_value": None,
                          "paired": paired, "note": why}],
                        schema={"label": pl.String, "key": pl.String, "base": pl.Float64,
                                "variant": pl.Float64, "diff": pl.Float64, "diff_low": pl.Float64,
                                "diff_high": pl.Float64, "z": pl.Float64, "p_value": pl.Float64,
                                "paired": pl.Boolean, "note": pl.String})


#: the note of a row whose two runs, paired game by game, have the same result in every game
SAME_GAMES = "the same result in every game under both rules, paired game by game: no game differs"


def same_games_bound(games: int, level: float = 0.95) -> float:
    """How far a win share can have moved when ``games`` paired games all have the same result
    under both rules: at most the chance that a game's result differs (a change in win share is
    the mean of the per-game differences, each at most 1 in size), whose one-sided ``level`` upper
    bound after no differing game in ``games`` is 1 − (1 − level)^(1/games) (the rule of three:
    about 3 / games)."""
    return 1.0 - (1.0 - level) ** (1.0 / games) if games > 0 else 1.0


def _same_games_untested(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` (a cell's compared win shares) with every paired row whose per-game differences
    are all 0 (the side won the very same games under both rules: the paired t interval is the
    point 0 to 0, p = 1) made untested: no interval, z or p, the note :data:`SAME_GAMES`. A change
    of exactly 0 is not what the games show (only that no game differs: :func:`same_games_bound`),
    and such a row has no place in the family Holm and Bonferroni run over (review N #8: "0.0 to
    0.0 pp, within noise", counted in the family of 4). A row constant in both runs, the same in
    every game, is left out by the comparison itself (:func:`_untested_side`)."""
    same = (pl.col("paired") & (pl.col("diff") == 0) & (pl.col("diff_low") == 0) & (pl.col("diff_high") == 0))
    return rows.with_columns(
        *[pl.when(same).then(None).otherwise(pl.col(k)).alias(k) for k in ("diff_low", "diff_high", "z", "p_value")],
        pl.when(same).then(pl.lit(SAME_GAMES)).otherwise(pl.col("note")).alias("note"))


def panel_comparison(base: str | Path, variant: str | Path, smallest: dict | None = None,
                     progress=None) -> PanelComparison:
    """The before/after of two panels, cell by cell (module docstring). ``smallest``: the smallest
    differences that matter, by kind (``--smallest-difference``); ``progress(text)`` is told each
    cell as it is read.

    The family: Holm's step-down over the comparisons' own p-values (a paired t test when the cell
    pair played the same deals, else the tie-aware Wald test), each size interval the comparison's
    95% interval widened about the change by z(1 − α/2m) / z(0.975), each end separately (as
    :func:`analysis.compare.compare_tables` sizes its own family). A game with roles is read by
    side in every cell; a side constant in both runs of a cell (the Seigneur won no game), or,
    paired game by game, with the same result in every game under both rules (the Seigneur won
    the same 3 games: :func:`_same_games_untested`), is kept as a row outside the family, not
    tested."""
    from analysis import analyse, open_runs
    from analysis.compare import compare_runs
    from simcore import games as registry
    from simcore.rundir import check_distinct_runs

    pairs, alone = pair_cells(base, variant)
    for lab, b, v in pairs:
        try:
            check_distinct_runs([b, v], [read_meta(b), read_meta(v)])
        except UsageError as exc:
            raise UsageError(f"{base} and {variant}: the cells {lab} of both panels are one run "
                             f"({exc}); a panel compared with itself has no before/after") from None
    game = str(read_meta(pairs[0][1]).get("game"))
    spec = registry.specs().get(game)
    what = "seat" if spec is None or spec.roles_alike else "side"
    metric = "seat_win_share" if what == "seat" else "role_win_share"
    parts, small = [], None
    for k, (lab, b, v) in enumerate(pairs):
        if progress is not None:
            progress(f"Comparing cell {k + 1} of {len(pairs)} ({lab})")
        brs, vrs = open_runs([b]), open_runs([v])
        if smallest:
            brs.smallest = vrs.smallest = dict(smallest)
        tb, tv = analyse(brs), analyse(vrs)
        comparison = compare_runs(brs, vrs, tb, tv, smallest=smallest)
        cmp = comparison.table
        rows = _same_games_untested(cmp.filter(pl.col("metric") == metric).with_columns(
            pl.lit(None, pl.String).alias("note")))
        if rows.height and small is None and "smallest" in rows.columns:
            small = float(rows["smallest"][0])
        if rows.height == 0 and what == "side":
            rows = _untested_side(tb, tv, comparison.dropped, bool(comparison.pairing.paired))
        parts.append(rows.select(
            pl.lit(k).alias("cell_index"), pl.lit(lab).alias("cell"),
            pl.lit(int(read_meta(b).get("players") or 0)).alias("players"),
            pl.col("label").str.replace(" win share$", "").alias("item"), pl.col("key"),
            pl.col("base").alias("before"), pl.col("variant").alias("after"), "diff", "diff_low",
            "diff_high", "z", "p_value", "paired", "note",
            pl.lit(int(read_meta(b).get("games") or 0)).alias("games_before"),
            pl.lit(int(read_meta(v).get("games") or 0)).alias("games_after"),
            pl.lit(read_meta(b).get("seed")).cast(pl.Int64).alias("seed_before"),
            pl.lit(read_meta(v).get("seed")).cast(pl.Int64).alias("seed_after"),
            pl.lit(comparison.pairing.why or "", pl.String).alias("unpaired_why")))
    small = 0.01 if small is None else small
    t = pl.concat(parts, how="vertical_relaxed").sort(["cell_index", "key"]).drop("cell_index")
    diff = t["diff"].to_numpy()
    p = t["p_value"].fill_null(np.nan).to_numpy()
    live = np.isfinite(p)
    m = int(live.sum())
    c = stats.z_quantile(1.0 - ALPHA / max(m, 1)) / stats.z_quantile()
    dlo, dhi = t["diff_low"].fill_null(np.nan).to_numpy(), t["diff_high"].fill_null(np.nan).to_numpy()
    low = np.where(live, diff - (diff - dlo) * c, np.nan)
    high = np.where(live, diff + (dhi - diff) * c, np.nan)
    padj = stats.holm(p)
    clear = np.nan_to_num(padj, nan=1.0) < ALPHA
    verdict = np.asarray(stats.practical(diff, low, high, small, clear=clear), dtype=object)
    verdict[~live] = None                    # not tested: no verdict (the note says why)
    t = t.with_columns(pl.Series("p_adjusted", padj), pl.Series("significant", clear),
                       pl.Series("size_low", low), pl.Series("size_high", high),
                       pl.Series("verdict", list(verdict), dtype=pl.String))
    return PanelComparison(game, t, [lab for lab, _, _ in pairs], what, m, small, alone,
                           [(b, v) for _, b, v in pairs])


def moved(c: PanelComparison) -> pl.DataFrame:
    """The rows clear after the family's correction (every verdict but 'not shown'; not the rows
    outside the family)."""
    return c.rows.filter(pl.col("verdict").is_not_null() & (pl.col("verdict") != stats.NOT_SHOWN))



BALANCE_COLUMNS = {"cell": pl.String, "what": pl.String, "fair": pl.Float64, "before": pl.Float64,
                   "before_seat": pl.Int64, "before_low": pl.Float64, "before_high": pl.Float64,
                   "after": pl.Float64, "after_seat": pl.Int64, "after_low": pl.Float64,
                   "after_high": pl.Float64, "change": pl.Float64, "change_low": pl.Float64,
                   "change_high": pl.Float64, "verdict": pl.String, "family": pl.Int64}


def seat_balance(c: PanelComparison, alpha: float = ALPHA) -> pl.DataFrame:
    """Per cell, whether the change moves the seats toward or away from fair: the largest gap from
    a fair share before and after (its size, whose it is) and the change in it, worded by size.
    In a game whose seats are alike, each seat's win share against 1/P; in a game with roles, what
    the panel page's finding is about: each seat of a role of several seats, its share of its
    role's wins against an equal split 1/k (:func:`analysis.panel._role_seat_rows`).

    Each gap's interval: every seat's interval over every seat of every cell of both panels at
    once (Bonferroni over those n intervals, each at level 1 − alpha/n: Wilson's for a win share,
    as the panel page's calls; for a share of a role's wins, the share ± z·se of its delta-method
    Wald test, as :func:`analysis.panel.role_seat_calls`), so that all of them hold together with
    probability at least 1 − alpha. When they do, the largest gap lies between the largest of the
    seats' nearest distances from fair and the largest of their furthest (``before_low``,
    ``before_high``; the same after), and its change after − before between after_low −
    before_high and after_high − before_low (``change_low``, ``change_high``: wider than a paired
    test of it would be, never narrower); ``verdict`` is :func:`analysis.stats.practical` on that
    range against the panel's smallest difference that matters. ``before``, ``after`` and
    ``change`` are the runs' values.

    Columns: :data:`BALANCE_COLUMNS` (``what``: "seat", or the role's label; ``family``: n). Empty
    when no cell has such seats (a game whose roles are of one seat each)."""
    parts = _seat_gaps(c) if c.what == "seat" else _role_seat_gaps(c)
    if parts.height == 0:
        return pl.DataFrame(schema=BALANCE_COLUMNS)
    n = parts.height
    est, fair = parts["estimate"].to_numpy().astype(float), parts["fair"].to_numpy().astype(float)
    games = parts["games"].fill_null(0).to_numpy().astype(float)
    se = parts["se"].fill_null(np.nan).to_numpy().astype(float)
    wl, wh = stats.wilson(est * games, np.maximum(games, 1.0), 1.0 - alpha / n)
    z = stats.z_quantile(1.0 - alpha / n)
    wald = np.isfinite(se)
    lo = np.where(wald, est - z * np.nan_to_num(se), wl) - fair
    hi = np.where(wald, est + z * np.nan_to_num(se), wh) - fair
    near = np.where((lo <= 0) & (hi >= 0), 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    parts = parts.with_columns(pl.Series("gap", np.abs(est - fair)), pl.Series("near", near),
                               pl.Series("far", np.maximum(np.abs(lo), np.abs(hi))))
    rows = []
    for cell in c.cells:
        here = parts.filter(pl.col("cell") == cell)
        b, a = here.filter(pl.col("run") == "before"), here.filter(pl.col("run") == "after")
        if b.height == 0 or a.height == 0:
            continue
        tb = b.sort("gap", descending=True).row(0, named=True)
        ta = a.sort("gap", descending=True).row(0, named=True)
        fairs = set(here["fair"].to_list())
        rows.append({"cell": cell, "what": str(here["what"][0]),
                     "fair": fairs.pop() if len(fairs) == 1 else None,
                     "before": tb["gap"], "before_seat": tb["seat"],
                     "before_low": float(b["near"].max()), "before_high": float(b["far"].max()),
                     "after": ta["gap"], "after_seat": ta["seat"],
                     "after_low": float(a["near"].max()), "after_high": float(a["far"].max())})
    if not rows:
        return pl.DataFrame(schema=BALANCE_COLUMNS)
    t = pl.DataFrame(rows, schema_overrides={k: BALANCE_COLUMNS[k] for k in rows[0]}).with_columns(
        (pl.col("after") - pl.col("before")).alias("change"),
        (pl.col("after_low") - pl.col("before_high")).alias("change_low"),
        (pl.col("after_high") - pl.col("before_low")).alias("change_high"))
    verdict = np.atleast_1d(stats.practical(t["change"].to_numpy(), t["change_low"].to_numpy(),
                                            t["change_high"].to_numpy(), c.smallest - 1e-12))
    return t.with_columns(pl.Series("verdict", list(verdict), dtype=pl.String),
                          pl.lit(n, pl.Int64).alias("family")).select(list(BALANCE_COLUMNS))


def _seat_gaps(c: PanelComparison) -> pl.DataFrame:
    """Every seat's win share in every cell, before and after (the comparison's own numbers), with
    the cell's games and its fair share 1/P: the rows :func:`seat_balance` reads."""
    out = []
    for r in c.rows.iter_rows(named=True):
        seat = int(str(r["key"]).rsplit(" ", 1)[-1])
        for run, share, games in (("before", r["before"], r["games_before"]), ("after", r["after"], r["games_after"])):
            out.append({"cell": r["cell"], "run": run, "seat": seat, "what": "seat", "fair": 1.0 / r["players"],
                        "estimate": float(share), "games": int(games), "se": None})
    return pl.DataFrame(out, schema={"cell": pl.String, "run": pl.String, "seat": pl.Int64, "what": pl.String,
                                     "fair": pl.Float64, "estimate": pl.Float64, "games": pl.Int64,
                                     "se": pl.Float64})


def _role_seat_gaps(c: PanelComparison) -> pl.DataFrame:
    """Every seat of a role of several seats in every cell, before and after, its share of its
    role's wins with the equal split and the standard error of their difference
    (:func:`analysis.panel._role_seat_rows`, the panel page's rows): what :func:`seat_balance`
    reads in a game with roles."""
    from analysis.panel import _role_seat_rows

    out = []
    for cell, runs in zip(c.cells, c.runs):
        for run, path in zip(("before", "after"), runs):
            meta = read_meta(path)
            for r in _role_seat_rows(path, 0, cell, int(meta.get("players") or 0), int(meta.get("games") or 0)):
                out.append({"cell": cell, "run": run, "seat": r["seat"], "what": r["role_label"],
                            "fair": float(r["fair"]), "estimate": float(r["estimate"]), "games": None,
                            "se": float(r["diff_se"])})
    return pl.DataFrame(out, schema={"cell": pl.String, "run": pl.String, "seat": pl.Int64, "what": pl.String,
                                     "fair": pl.Float64, "estimate": pl.Float64, "games": pl.Int64,
                                     "se": pl.Float64})
