"""A before/after over a panel: the same line-ups and player counts played under two rule sets
(``simulate --panel NAME --out BASE`` and ``simulate --panel NAME --set … --out VARIANT``), compared
cell by cell, so that a rule change's effect on the win rates says which line-ups it holds for.

:func:`pair_cells` pairs the two panels' cells by player count and line-up (the cell's label, as
the panel page names it), in order when a line-up appears twice; a cell of one panel alone is
named and left out. :func:`panel_comparison` compares each pair as ``balance report BASE/cell-K
VARIANT/cell-K`` does (:func:`analysis.compare.compare_runs`: paired game by game when both
cells played the same deals) and keeps the seat win shares (in a game with roles, the sides', and
each seat of a role of several seats, its share of its role's wins: :func:`_split_rows`, what the
panel page's finding is about): one family over every cell and row, Holm's step-down on the
comparisons' two-sided p-values,
each change worded by its size on its Bonferroni interval over that family
(:func:`analysis.stats.practical_holm`), so that "moved in 3 of 3 cells" holds for the whole
table at once, not cell by cell. A row that cannot move is kept outside the family, not tested:
a side constant in both runs, or, paired game by game, a seat or side with the same result in
every game under both rules (:func:`_same_games_untested`). A seat's share of its role's wins is a
ratio (its wins over the role's): its change is tested on its delta-method standard error, paired
game by game on each game's linearised contribution when both runs kept per-game rows of the same
deals (:class:`PairedRoleSplit`), else from each run's own (unpaired, :func:`analysis.panel.
_role_seat_rows`). :func:`seat_balance` says per cell
whether the change moves the seats toward or away from fair (the largest gap from a fair share,
before and after, and the change in it read on simultaneous intervals).
Beside the win shares, each cell's mean game length (in the game's unit: turns, or a Fief combat's
rounds) and the share of its games ending each way are compared as the same two-run comparison
computes them, from the runs' statistics (paired game by game where both runs played the same
deals and kept rows; else Welch's interval for a length, Newcombe's for a share): one family of
their own over every cell (:func:`other_changes`: Holm, and each interval rescaled to Bonferroni's
level, :func:`family_intervals`), so that the page can say the largest other changes
(:func:`largest_other`) without reading a row.
The page's words are :mod:`reports.panel`'s (:func:`reports.panel.build_panel_comparison_report`).

May import polars, numpy, the standard library, :mod:`analysis` and its modules, and
:mod:`simcore` (run directories, errors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.length import length_unit
from analysis.panel import _label, cell_runs
from simcore.errors import UsageError
from simcore.rundir import read_meta

ALPHA = 0.05

#: the metric of a row comparing a cell's mean game length, in the game's unit (``unit``: turns, or
#: a Fief combat's rounds)
LENGTH_METRIC = "mean_game_length"
#: the metric of a row comparing the share of a cell's games that end one way
END_METRIC = "end_reason_share"
#: the two-run comparison's metrics a panel's other changes are read from, and their names here
OTHER_METRICS = {"mean_turns": LENGTH_METRIC, "mean_length": LENGTH_METRIC, "end_reason_share": END_METRIC}

OTHER_SCHEMA = {"cell": pl.String, "players": pl.Int64, "metric": pl.String, "item": pl.String,
                "key": pl.String, "unit": pl.String, "before": pl.Float64, "after": pl.Float64,
                "diff": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64, "z": pl.Float64,
                "p_value": pl.Float64, "paired": pl.Boolean, "note": pl.String, "dof": pl.Float64,
                "smallest": pl.Float64, "games_before": pl.Int64, "games_after": pl.Int64,
                "seed_before": pl.Int64, "seed_after": pl.Int64, "unpaired_why": pl.String,
                "p_adjusted": pl.Float64, "significant": pl.Boolean, "size_low": pl.Float64,
                "size_high": pl.Float64, "verdict": pl.String}


@dataclass
class PanelComparison:
    """The seat (or side) win shares of every paired cell, before and after.

    ``rows``: one row per cell and seat: cell (its label: players and line-up), players, metric
    (``seat_win_share``, ``role_win_share`` for a side, :data:`SPLIT_METRIC` for a seat's share of
    its role's wins), item (the seat's or side's label, or "Seat 2's share of the Censitaires'
    wins"), key, before, after, diff (after − before), diff_low, diff_high (its own 95%
    interval, unadjusted), z, p_value, p_adjusted (Holm over the family), significant (p_adjusted
    below 0.05), size_low, size_high (the
    Bonferroni interval over the family, the verdict's, as computed: a page shows a clear change's
    on its side of 0), verdict (its size in words), paired (compared game by game), note (why a
    row outside the family is not tested; its interval, z, p and verdict are then null),
    change_at_most (a row with the same result in every paired game: the 95% bound the games put
    on its change either way, :func:`same_games_bound`, :func:`same_share_bound`; null otherwise).
    ``family``: how many comparisons the correction runs over. ``left_out``: the cells found in one
    panel only. ``other``: every cell's mean game length (metric :data:`LENGTH_METRIC`, ``unit``
    its unit) and end-reason shares (:data:`END_METRIC`), the columns of :data:`OTHER_SCHEMA`
    (as ``rows``, with ``unit``, ``dof`` of the change's t interval and ``smallest``), one family
    of ``other_family`` (:func:`other_changes`); ``other_constant``: (cell, label, why) of such a
    measure the same in every game of both runs (not compared)."""

    game: str
    rows: pl.DataFrame
    cells: list[str]
    what: str                       # "seat", or "side" in a game with roles
    family: int
    smallest: float
    left_out: list[str] = field(default_factory=list)
    runs: list[tuple[Path, Path]] = field(default_factory=list)     # each pair's run directories
    # the game length and end-reason shares of every cell (:func:`other_changes`), their own family
    other: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=OTHER_SCHEMA))
    other_family: int = 0
    # (cell, label, why) of a length or end-reason share the same in every game of both runs
    other_constant: list[tuple[str, str, str]] = field(default_factory=list)


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


same_games_bound = stats.same_games_bound      # (the two-run before/after's bound, one definition)


def same_share_bound(games: int, role_share: float, share: float, level: float = 0.95) -> float:
    """How far a seat's share of its role's wins can have moved when ``games`` paired games all give
    the seat and its role the same wins under both rules: with q the chance that a game differs
    (at most :func:`same_games_bound`), the seat's and the role's wins per game each move by at
    most q, so the share x/X (the role's wins per game X = ``role_share``, the seat's share of them
    S = ``share``) moves by at most (x + q)/(X − q) − x/X = q (1 + S) / (X − q) (1 when q ≥ X)."""
    q = same_games_bound(games, level)
    return 1.0 if q >= role_share else min(1.0, q * (1.0 + share) / (role_share - q))


def _same_games_untested(rows: pl.DataFrame) -> pl.DataFrame:
    """``rows`` (a cell's compared win shares) with every paired row whose per-game differences
    are all 0 (the side won the very same games under both rules: the paired t interval is the
    point 0 to 0, p = 1) made untested: no interval, z or p, the note :data:`SAME_GAMES`. A change
    of exactly 0 is not what the games show (only that no game differs: :func:`same_games_bound`),
    and such a row has no place in the family Holm and Bonferroni run over (review N #8: "0.0 to
    0.0 pp, within noise", counted in the family of 4). A row constant in both runs, the same in
    every game, is left out by the comparison itself (:func:`_untested_side`)."""
    same = (pl.col("paired") & (pl.col("diff") == 0) & (pl.col("diff_low") == 0) & (pl.col("diff_high") == 0))
    if "same_games" in rows.columns:        # the comparison's own mark of such a row, where it gives one
        same = same.fill_null(False) | pl.col("same_games").is_not_null()
    return rows.with_columns(
        *[pl.when(same).then(None).otherwise(pl.col(k)).alias(k) for k in ("diff_low", "diff_high", "z", "p_value")],
        pl.when(same).then(pl.lit(SAME_GAMES)).otherwise(pl.col("note")).alias("note"))


#: the metric of a row comparing a seat's share of its role's wins (a game with roles)
SPLIT_METRIC = "seat_share_of_role_wins"

#: the note of a seat's share the same in every game of both runs (it took none, or all, of its
#: role's wins), compared unpaired: nothing can move
SAME_SHARE = "the same in every game of both runs"


class PairedRoleSplit:
    """The seats' wins in paired games (the same deal before and after), summed chunk by chunk, from
    which each seat's change in its share of its role's wins gets a standard error that accounts
    for the pairing.

    A seat's share is a ratio, S = Σ_g w_g / Σ_g W_g (its wins over its role's, W the role's seats
    summed, over the G games). Its change ΔS = S_after − S_before is, to first order, the mean over
    the games of the paired per-game contributions d_g = (w'_g − S' W'_g) / W̄' − (w_g − S W_g) / W̄
    (the delta method: ' after, W̄ the role's mean wins per game), so var(ΔS) ≈ var(d) / G. d_g is
    linear in the game's win vector (both runs' seats), so var(d) = gᵀ Σ g with Σ the per-game
    covariance of that vector and g the gradient above: what is kept is the vector's mean and
    centred cross-products (merged across chunks by Chan et al.'s update), and which seats' and
    roles' per-game wins ever differ between the runs (a share with the same wins and role wins in
    every game cannot move: :func:`_same_games_untested`). Unpaired, the same gradient on each
    run's own covariance gives var_before + var_after (:func:`analysis.panel._role_seat_rows`)."""

    def __init__(self, seat_roles) -> None:
        self.roles = list(seat_roles)
        k = 2 * len(self.roles)
        self.n = 0.0
        self.mean = np.zeros(k)
        self.m2 = np.zeros((k, k))
        self.seat_differs = np.zeros(len(self.roles), bool)
        self.role_differs = {r: False for r in self.roles}

    def add(self, before, after) -> None:
        """Games × seats win shares of the same games (row by row) before and after."""
        before, after = np.asarray(before, dtype=float), np.asarray(after, dtype=float)
        if before.shape[0] == 0:
            return
        x = np.hstack([before, after])
        m = x.mean(axis=0)
        c = x - m
        n2 = float(x.shape[0])
        n = self.n + n2
        d = m - self.mean
        self.m2 = self.m2 + c.T @ c + np.outer(d, d) * self.n * n2 / n
        self.mean = self.mean + d * n2 / n
        self.n = n
        self.seat_differs |= (before != after).any(axis=0)
        for r in set(self.roles):
            mates = [j for j, q in enumerate(self.roles) if q == r]
            self.role_differs[r] |= bool((before[:, mates].sum(axis=1) != after[:, mates].sum(axis=1)).any())

    def changes(self) -> dict[int, dict]:
        """Per seat (0-based) of a role of several seats that won some game in both runs: before,
        after (its share of its role's wins), diff (after − before), se (of diff, paired: the class
        docstring), same (its wins and its role's the same in every game under both rules),
        role_share (the role's wins per game, before)."""
        P = len(self.roles)
        if self.n < 2:
            return {}
        cov = self.m2 / (self.n - 1.0)
        out = {}
        for s, role in enumerate(self.roles):
            mates = [j for j, q in enumerate(self.roles) if q == role]
            tb, ta = float(self.mean[mates].sum()), float(self.mean[[P + j for j in mates]].sum())
            if len(mates) < 2 or not (tb > 0 and ta > 0):
                continue
            sb, sa = self.mean[s] / tb, self.mean[P + s] / ta
            g = np.zeros(2 * P)
            g[mates] += sb / tb
            g[s] -= 1.0 / tb
            g[[P + j for j in mates]] -= sa / ta
            g[P + s] += 1.0 / ta
            out[s] = {"before": float(sb), "after": float(sa), "diff": float(sa - sb), "role_share": tb,
                      "se": float(np.sqrt(max(g @ cov @ g, 0.0) / self.n)),
                      "same": not self.seat_differs[s] and not self.role_differs[role]}
        return out


def paired_role_split(base_rs, variant_rs) -> PairedRoleSplit | None:
    """:class:`PairedRoleSplit` of two run sets that played the same deals, read from their rows a
    range of game numbers at a time and matched game by game as :func:`analysis.compare.pairing`
    matches them (:func:`analysis.compare._per_game`: (seed, game number)); None when the rows do
    not hold the same games or the seats' roles differ."""
    from analysis.compare import _per_game, open_runs_rows
    from analysis.load import ROWS_PER_CHUNK, _chunk_ranges, seat_label
    from analysis.roles import _seat_role_list

    b, v = open_runs_rows(base_rs), open_runs_rows(variant_rs)
    roles = _seat_role_list(b)
    if roles != _seat_role_list(v):
        return None
    acc = PairedRoleSplit(roles)
    seeds: dict = {}
    seats = [("seat_win_share", seat_label(s)) for s in range(len(roles))]
    for span in _chunk_ranges(b, ROWS_PER_CHUNK):
        lo, hi = span if span is not None else (None, None)
        kb, xb = _per_game(b, lo, hi, seeds)
        kv, xv = _per_game(v, lo, hi, seeds)
        if len(kb) != len(kv) or not np.array_equal(np.sort(kb), np.sort(kv)):
            return None
        ib, iv = np.argsort(kb, kind="stable"), np.argsort(kv, kind="stable")
        if len(kb):
            acc.add(np.column_stack([xb[k] for k in seats])[ib], np.column_stack([xv[k] for k in seats])[iv])
    return acc if acc.n == base_rs.n_games == variant_rs.n_games else None


SPLIT_SCHEMA = {"metric": pl.String, "label": pl.String, "key": pl.String, "base": pl.Float64,
                "variant": pl.Float64, "diff": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64,
                "z": pl.Float64, "p_value": pl.Float64, "paired": pl.Boolean, "note": pl.String,
                "change_at_most": pl.Float64}


def _split_rows(lab: str, b: Path, v: Path, brs, vrs, paired: bool) -> pl.DataFrame:
    """A cell's rows of every seat of a role of several seats, its share of its role's wins before
    and after (each run's own, :func:`analysis.panel._role_seat_rows`: the panel page's numbers)
    and the change's 95% Wald interval, z and two-sided p from its delta-method standard error:
    paired game by game (:class:`PairedRoleSplit`) when ``paired`` (the comparison paired the
    cell's runs) and the rows hold the same games, else var_before + var_after (each run's own
    delta-method variance: runs written without rows, other deals). Not tested (no interval, z or
    p): a seat whose wins and role's wins are the same in every paired game (the interval set to
    the point 0 to 0 for :func:`_same_games_untested`), one whose share is the same in every game
    of both runs (:data:`SAME_SHARE`), one whose role won no game in a run (no share to compare)."""
    from analysis.panel import _role_seat_rows

    got = {}
    for run, path in (("before", b), ("after", v)):
        meta = read_meta(path)
        for r in _role_seat_rows(path, 0, lab, int(meta.get("players") or 0), int(meta.get("games") or 0)):
            got.setdefault(r["seat"], {"role": r["role"], "what": r["what"], "role_label": r["role_label"]})[run] = r
    acc = paired_role_split(brs, vrs) if paired and got else None
    pair = acc.changes() if acc is not None else {}
    pair_games = acc.n if acc is not None else 0
    z975 = stats.z_quantile()
    out = []
    for seat in sorted(got):
        g = got[seat]
        rb, ra = g.get("before"), g.get("after")
        row = {"metric": SPLIT_METRIC, "label": g["what"][:1].upper() + g["what"][1:],
               "key": f"{g['role']} seat {seat}", "base": rb["estimate"] if rb else None,
               "variant": ra["estimate"] if ra else None, "diff": None, "diff_low": None, "diff_high": None,
               "z": None, "p_value": None, "paired": False, "note": None, "change_at_most": None}
        if rb is None or ra is None:
            row["note"] = (f"the {g['role_label']}s won no game {'before' if rb is None else 'after'}: "
                           "no share of their wins to compare")
            out.append(row)
            continue
        diff = float(ra["estimate"]) - float(rb["estimate"])
        p = pair.get(seat - 1)
        if p is not None:
            se = p["se"]
            row["paired"] = True
            if p["same"]:
                se, diff = 0.0, 0.0
                row["change_at_most"] = same_share_bound(int(pair_games), p["role_share"], p["before"])
        else:
            se = float(np.hypot(rb["diff_se"], ra["diff_se"]))
        row["diff"] = diff
        if se > 0:
            z = diff / se
            row.update(diff_low=diff - z975 * se, diff_high=diff + z975 * se, z=z,
                       p_value=float(stats.two_sided_p(z)))
        elif p is not None and p["same"]:
            row.update(diff_low=0.0, diff_high=0.0, z=0.0, p_value=1.0)    # made untested below
        elif se == 0:
            row["note"] = SAME_SHARE
        else:
            row["note"] = "no standard error of its change (a run's seat covariance is not finite)"
        out.append(row)
    return pl.DataFrame(out, schema=SPLIT_SCHEMA)


def role_split_vectors(base_rs, variant_rs):
    """The split of a role's wins among its seats, for a before/after of two runs of a game whose
    role has several seats (Seigneurial's Censitaires; review R #2: the page showed one role change
    as three seats' "changes that matter", each seat's share of all games mirroring the Seigneur's
    gain, and never answered whether the split among the Censitaires moved, the question the docs
    send designers to it with). Each seat's share of its role's wins (``seat_share_of_role_wins``,
    :data:`analysis.panel_compare.SPLIT_METRIC`), as the panel before/after compares it
    (:func:`analysis.panel_compare._split_rows`: each run's own share with its Wilson interval;
    the change with its delta-method standard error, paired game by game when the runs played the
    same deals and kept rows: :func:`analysis.compare.can_pair_rows`). Returns (base rows, variant rows) of :func:`metric_vector`'s shape
    and {(metric, key): (diff, low, high, z, p, paired)} of the tested changes, which
    :func:`analysis.compare.compare_runs` (``split``) tests in its family instead of its own; (None, None, {}) when a side pools several runs or no
    role has several seats."""
    from analysis.compare import VECTOR_SCHEMA, can_pair_rows
    from analysis.panel import _role_seat_rows
    from analysis.roles import has_roles

    if len(base_rs.paths) != 1 or len(variant_rs.paths) != 1 or not has_roles(base_rs):
        return None, None, {}
    b, v = base_rs.paths[0], variant_rs.paths[0]
    rows = _split_rows("", b, v, base_rs, variant_rs, can_pair_rows(base_rs, variant_rs))
    if rows.height == 0:
        return None, None, {}
    sides = []
    for path, rs in ((b, base_rs), (v, variant_rs)):
        own = {f"{r['role']} seat {r['seat']}": r for r in _role_seat_rows(path, 0, "", rs.n_players, rs.n_games)}
        sides.append(own)
    vb, vv, tested = [], [], {}
    for r in rows.iter_rows(named=True):
        k = r["key"]
        if r["p_value"] is None or k not in sides[0] or k not in sides[1]:
            continue
        label = r["label"]
        for side, out in zip(sides, (vb, vv)):
            s = side[k]
            out.append((SPLIT_METRIC, k, label, "proportion", float(s["estimate"]), float(s["low"]),
                        float(s["high"]), int(s["games"])))
        tested[(SPLIT_METRIC, k)] = (r["diff"], r["diff_low"], r["diff_high"], r["z"], r["p_value"],
                                     bool(r["paired"]))
    mk = lambda rows: pl.DataFrame(rows, schema=VECTOR_SCHEMA, orient="row")  # noqa: E731
    return mk(vb), mk(vv), tested


# Student t's quantile by bisection, kept by (dof, level): a paired family's cells share theirs
_t_quantile = lru_cache(maxsize=4096)(stats.t_quantile)


def _welch_dof(base_low: float, base_high: float, n_before: int, variant_low: float, variant_high: float,
               n_after: int) -> float:
    """The Welch–Satterthwaite degrees of freedom of the change of two means, each given by its own
    Student t interval over its games (mean ± t(n − 1)·sd/√n: its variance of the mean is
    (half-width / t(n − 1))²), as :func:`analysis.compare.compare_tables` recovers them for its
    Welch interval; infinite when a side has no spread."""
    v = []
    for lo, hi, n in ((base_low, base_high, n_before), (variant_low, variant_high, n_after)):
        if not (n > 1 and np.isfinite(lo) and np.isfinite(hi)):
            return float("inf")
        v.append(((hi - lo) / 2 / _t_quantile(float(n - 1))) ** 2)
    denom = v[0] ** 2 / (n_before - 1) + v[1] ** 2 / (n_after - 1)
    return float((v[0] + v[1]) ** 2 / denom) if denom > 0 else float("inf")


def _other_rows(lab: str, cmp: pl.DataFrame, comparison, b_meta: dict, v_meta: dict
                ) -> tuple[list[dict], list[tuple[str, str, str]]]:
    """A cell's rows of its mean game length and end-reason shares, before and after, from its
    two-run comparison (``comparison``, :func:`analysis.compare.compare_runs`: the runs' own values
    from their statistics; the change paired game by game, its t interval over the per-game
    differences, when both runs played the same deals and kept rows, else unpaired: Welch's
    interval for the length, Newcombe's for a share). ``dof``: the degrees of freedom of the
    change's t interval (n − 1 paired, Welch's unpaired; infinite for Newcombe's), which the
    family's intervals are rescaled with (:func:`family_intervals`). A row whose per-game
    differences are all 0 is kept untested (:data:`SAME_GAMES`). Returns the rows and (cell,
    label, why) of a length or end-reason share the comparison left out as the same in every game
    of both runs (a game that always lasts 16 turns; an end no game reached)."""
    gb, gv = int(b_meta.get("games") or 0), int(v_meta.get("games") or 0)
    moments = comparison.pairing.moments if comparison.pairing.paired else {}
    rows = []
    for r in cmp.filter(pl.col("metric").is_in(list(OTHER_METRICS))).iter_rows(named=True):
        metric = OTHER_METRICS[r["metric"]]
        unit = (length_unit(b_meta.get("game")) if r["metric"] == "mean_turns" else r["key"]
                if r["metric"] == "mean_length" else "share")
        same = r.get("same_games") is not None
        paired = bool(r["paired"])
        if paired and (r["metric"], r["key"]) in moments:
            dof = float(moments[(r["metric"], r["key"])][0]) - 1.0
        elif r["kind"] == "mean":
            dof = _welch_dof(r["base_low"], r["base_high"], gb, r["variant_low"], r["variant_high"], gv)
        else:
            dof = float("inf")
        untested = same or not np.isfinite(r["p_value"] if r["p_value"] is not None else np.nan)
        rows.append({"cell": lab, "players": int(b_meta.get("players") or 0), "metric": metric,
                     "item": "Mean game length" if metric == LENGTH_METRIC else r["label"],
                     "key": r["key"], "unit": unit, "before": r["base"], "after": r["variant"],
                     "diff": r["diff"],
                     **{k: None if untested else r[k] for k in ("diff_low", "diff_high", "z", "p_value")},
                     "paired": paired, "note": SAME_GAMES if same else None, "dof": dof,
                     "smallest": r["smallest"], "games_before": gb, "games_after": gv,
                     "seed_before": b_meta.get("seed"), "seed_after": v_meta.get("seed"),
                     "unpaired_why": comparison.pairing.why or ""})
    ends = ("Mean game length", "Mean length", "Games ending: ")
    constant = [(lab, label, why) for label, why in comparison.dropped
                if label.startswith(ends) and why.startswith("the same in every game of both runs")]
    return rows, constant


def family_intervals(diff, low, high, dof, tested, alpha: float = ALPHA) -> tuple[np.ndarray, np.ndarray]:
    """The intervals of a family's changes that hold all at once (Bonferroni over the m ``tested``
    ones, each at level 1 − alpha/m), from each change's own 95% interval [``low``, ``high``]:
    a t interval (``dof`` finite: paired, n − 1, or Welch's) is symmetric, diff ± t(dof)·se, so
    it is rescaled exactly, diff ± t(dof, 1 − alpha/m)·se; any other (``dof`` infinite: Newcombe's
    for a share) is widened about the change by z(1 − alpha/2m) / z(0.975), each end separately,
    as :func:`panel_comparison` sizes the win shares. nan for a row outside the family."""
    diff, low, high, dof = (np.asarray(x, dtype=float) for x in (diff, low, high, dof))
    tested = np.asarray(tested, dtype=bool) & np.isfinite(low) & np.isfinite(high)
    m = max(int(tested.sum()), 1)
    level = 1.0 - alpha / m
    c = stats.z_quantile(level) / stats.z_quantile()
    slo, shi = np.full(diff.shape, np.nan), np.full(diff.shape, np.nan)
    for i in np.flatnonzero(tested):
        if np.isfinite(dof[i]) and dof[i] > 0:
            ratio = _t_quantile(float(dof[i]), level) / _t_quantile(float(dof[i]))
            half = (high[i] - low[i]) / 2 * ratio
            slo[i], shi[i] = diff[i] - half, diff[i] + half
        else:
            slo[i], shi[i] = diff[i] - (diff[i] - low[i]) * c, diff[i] + (high[i] - diff[i]) * c
    return slo, shi


def other_changes(rows: list[dict], alpha: float = ALPHA) -> tuple[pl.DataFrame, int]:
    """Every cell's mean game length and end-reason shares (:func:`_other_rows`) as one family, as
    the win shares are one: Holm's step-down over their p-values says which changes are clear, each
    sized on its interval over the family (:func:`family_intervals`) against its smallest
    difference that matters (the game's for a length, in its unit; 1 pp for a share), in words
    (:func:`analysis.stats.practical`), so that the page's "largest other changes" hold all at
    once. Rows outside the family (no game differs) get no interval, p or verdict. Returns the
    rows (:data:`OTHER_SCHEMA`; cells in the panels' order, the length first) and the family's
    size."""
    if not rows:
        return pl.DataFrame(schema=OTHER_SCHEMA), 0
    t = pl.DataFrame(rows, schema={k: v for k, v in OTHER_SCHEMA.items() if k in rows[0]})
    p = t["p_value"].fill_null(np.nan).to_numpy()
    tested = np.isfinite(p)
    diff = t["diff"].to_numpy().astype(float)
    low, high = family_intervals(diff, t["diff_low"].fill_null(np.nan).to_numpy(),
                                 t["diff_high"].fill_null(np.nan).to_numpy(), t["dof"].to_numpy(), tested, alpha)
    padj = stats.holm(p)
    clear = np.nan_to_num(padj, nan=1.0) < alpha
    verdict = np.asarray(stats.practical(diff, low, high, t["smallest"].to_numpy().astype(float), clear=clear),
                         dtype=object)
    verdict[~tested] = None
    t = t.with_columns(pl.Series("p_adjusted", padj), pl.Series("significant", clear),
                       pl.Series("size_low", low), pl.Series("size_high", high),
                       pl.Series("verdict", list(verdict), dtype=pl.String))
    return t.select(list(OTHER_SCHEMA)), int(tested.sum())


def largest_other(c: PanelComparison, most: int = 3) -> pl.DataFrame:
    """The clear changes among ``c.other`` in reading order, at most ``most`` of their kinds (the
    game length, each end-reason share): per kind, its largest change (by size against its
    smallest difference that matters), with ``cells`` (in how many cells it is clear) and
    ``lowest``/``highest`` (its smallest and largest clear change, signed). Empty when none is
    clear."""
    o = c.other
    if o.height == 0:
        return o
    clear = o.filter(pl.col("verdict").is_not_null() & (pl.col("verdict") != stats.NOT_SHOWN))
    if clear.height == 0:
        return clear
    clear = clear.with_columns((pl.col("diff").abs() / pl.col("smallest")).round(9).alias("_size"))
    rank = {v: k for k, v in enumerate(stats.VERDICT_ORDER)}
    out = []
    for (metric, key), part in clear.group_by(["metric", "key"], maintain_order=True):
        top = part.sort("_size", descending=True).row(0, named=True)
        a = part["diff"].abs()
        out.append({**top, "cells": part.height, "lowest": float(part["diff"][int(a.arg_min())]),
                    "highest": float(part["diff"][int(a.arg_max())]), "_rank": rank.get(top["verdict"], 9)})
    t = pl.DataFrame(out).sort(["_rank", "_size"], descending=[False, True], maintain_order=True)
    return t.head(most).drop("_rank", "_size")


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
    tested. There, each seat of a role of several seats adds a row per cell, its share of its
    role's wins (:func:`_split_rows`, metric :data:`SPLIT_METRIC`), in the same family."""
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
    other: list[dict] = []
    constant: list[tuple[str, str, str]] = []
    for k, (lab, b, v) in enumerate(pairs):
        if progress is not None:
            progress(f"Comparing cell {k + 1} of {len(pairs)} ({lab})")
        brs, vrs = open_runs([b]), open_runs([v])
        if smallest:
            brs.smallest = vrs.smallest = dict(smallest)
        tb, tv = analyse(brs), analyse(vrs)
        comparison = compare_runs(brs, vrs, tb, tv, smallest=smallest)
        cmp = comparison.table
        o_rows, o_constant = _other_rows(lab, cmp, comparison, read_meta(b), read_meta(v))
        other += o_rows
        constant += o_constant
        rows = _same_games_untested(cmp.filter(pl.col("metric") == metric).with_columns(
            pl.lit(None, pl.String).alias("note")))
        if rows.height and small is None and "smallest" in rows.columns:
            small = float(rows["smallest"][0])
        if rows.height == 0 and what == "side":
            rows = _untested_side(tb, tv, comparison.dropped, bool(comparison.pairing.paired))
        rows = rows.with_columns(pl.lit(metric).alias("metric"), pl.lit(0).alias("_order"))
        if what == "side":
            paired = bool(comparison.pairing.paired) and comparison.pairing.source == "rows"
            split = _same_games_untested(_split_rows(lab, b, v, brs, vrs, paired))
            rows = pl.concat([rows.with_columns(pl.lit(None, pl.Float64).alias("change_at_most"))
                              .select(list(SPLIT_SCHEMA) + ["_order"]),
                              split.with_columns(pl.lit(1).alias("_order"))], how="vertical_relaxed")
        # a rotated-seat cell's seats count its deals (the seat table's effective games, Kish), as
        # the panel page's (statistics audit s37 #1): :func:`seat_balance` reads them
        effective = []
        for t_run in (tb, tv):
            st = t_run.get("seats")
            eff = (dict(zip(st["seat_label"].to_list(), st["effective_games"].to_list()))
                   if st is not None and "effective_games" in st.columns else {})
            effective.append(pl.Series([eff.get(k) for k in rows["key"].to_list()], dtype=pl.Float64))
        rows = rows.with_columns(effective[0].alias("_eff_before"), effective[1].alias("_eff_after"))
        parts.append(rows.select(
            pl.lit(k).alias("cell_index"), pl.lit(lab).alias("cell"),
            pl.lit(int(read_meta(b).get("players") or 0)).alias("players"), "metric",
            pl.col("label").str.replace(" win share$", "").alias("item"), pl.col("key"), "_order",
            pl.col("base").alias("before"), pl.col("variant").alias("after"), "diff", "diff_low",
            "diff_high", "z", "p_value", "paired", "note",
            (pl.col("change_at_most") if "change_at_most" in rows.columns else pl.lit(None, pl.Float64))
            .alias("change_at_most"),
            pl.lit(int(read_meta(b).get("games") or 0)).alias("games_before"),
            pl.lit(int(read_meta(v).get("games") or 0)).alias("games_after"),
            pl.col("_eff_before").alias("effective_games_before"),
            pl.col("_eff_after").alias("effective_games_after"),
            pl.lit(read_meta(b).get("seed")).cast(pl.Int64).alias("seed_before"),
            pl.lit(read_meta(v).get("seed")).cast(pl.Int64).alias("seed_after"),
            pl.lit(comparison.pairing.why or "", pl.String).alias("unpaired_why")))
    small = 0.01 if small is None else small
    t = pl.concat(parts, how="vertical_relaxed").sort(["cell_index", "_order", "key"]).drop("cell_index", "_order")
    # the bound a row with the same result in every paired game puts on its change (a share of a
    # role's wins has its own, set by _split_rows: same_share_bound)
    bound = pl.Series([same_games_bound(int(g)) for g in t["games_before"]], dtype=pl.Float64)
    t = t.with_columns(pl.when(pl.col("note") == SAME_GAMES).then(pl.coalesce("change_at_most", bound))
                       .otherwise(None).alias("change_at_most"))
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
    o, o_family = other_changes(other)
    return PanelComparison(game, t, [lab for lab, _, _ in pairs], what, m, small, alone,
                           [(b, v) for _, b, v in pairs], o, o_family, constant)


def moved(c: PanelComparison) -> pl.DataFrame:
    """The rows clear after the family's correction (every verdict but 'not shown'; not the rows
    outside the family)."""
    return c.rows.filter(pl.col("verdict").is_not_null() & (pl.col("verdict") != stats.NOT_SHOWN))



BALANCE_COLUMNS = {"cell": pl.String, "what": pl.String, "fair": pl.Float64, "before": pl.Float64,
                   "before_seat": pl.Int64, "before_signed_gap": pl.Float64, "before_low": pl.Float64,
                   "before_high": pl.Float64, "after": pl.Float64, "after_seat": pl.Int64,
                   "after_signed_gap": pl.Float64, "after_low": pl.Float64, "after_high": pl.Float64,
                   "change": pl.Float64, "change_low": pl.Float64, "change_high": pl.Float64,
                   "verdict": pl.String, "family": pl.Int64, "paired": pl.Boolean}

def balance_file(t: pl.DataFrame) -> pl.DataFrame:
    """:func:`seat_balance`'s table as ``balance.csv`` holds it: seats counted from 0 as in every
    table the toolkit writes (docs/export.md, "Seat numbers"), each with its label as a page says it
    ("Seat 1") beside it. The table itself, which the pages word, numbers them from 1 (review s50:
    the file's bare 1-based seats were one seat off every export and players.parquet)."""
    out = t
    for side in ("before", "after"):
        out = out.with_columns((pl.col(f"{side}_seat") - 1).alias(f"{side}_seat"),
                               pl.format("Seat {}", pl.col(f"{side}_seat")).alias(f"{side}_seat_label"))
    order = []
    for c in t.columns:
        order.append(c)
        if c in ("before_seat", "after_seat"):
            order.append(f"{c}_label")
    return out.select(order + [c for c in out.columns if c not in order])


#: two gaps from fair this close are the same gap: in a 2-player cell the seats' gaps are equal by
#: construction (56.5% / 43.5%: 6.5 pp each), and only floating-point rounding told them apart
GAP_TIE = 1e-12


def _largest_gap(rows: pl.DataFrame) -> dict:
    """The row of the seat with the largest gap from fair among ``rows`` (one cell, one run). Equal
    gaps (within :data:`GAP_TIE`) go to the seat above fair, then to the lowest seat number: in a
    2-player cell the seat above fair and the seat below are always tied, and the pick had been the
    float's, naming the losing seat in one run and the winning seat in the other, so that the table
    read as if the advantage had moved between seats. The seat above fair is the one the advantage
    is about."""
    top = float(rows["gap"].max())
    tied = [r for r in rows.iter_rows(named=True) if r["gap"] >= top - GAP_TIE]
    return min(tied, key=lambda r: (not r["estimate"] - r["fair"] > GAP_TIE, r["seat"]))


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
    ``change`` are the runs' values. ``before_seat`` (``after_seat``) holds the largest gap, equal
    gaps going to the seat above fair (:func:`_largest_gap`); ``before_signed_gap`` is that seat's
    share minus fair, + above fair and − below (its size is ``before``), so that a page can say from
    whose side the gap is: the largest gap alone cannot tell a favoured seat from a starved one.

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
        tb, ta = _largest_gap(b), _largest_gap(a)
        fairs = set(here["fair"].to_list())
        rows.append({"cell": cell, "what": str(here["what"][0]),
                     "fair": fairs.pop() if len(fairs) == 1 else None,
                     "before": tb["gap"], "before_seat": tb["seat"],
                     "before_signed_gap": tb["estimate"] - tb["fair"],
                     "before_low": float(b["near"].max()), "before_high": float(b["far"].max()),
                     "after": ta["gap"], "after_seat": ta["seat"],
                     "after_signed_gap": ta["estimate"] - ta["fair"],
                     "after_low": float(a["near"].max()), "after_high": float(a["far"].max())})
    if not rows:
        return pl.DataFrame(schema=BALANCE_COLUMNS)
    t = pl.DataFrame(rows, schema_overrides={k: BALANCE_COLUMNS[k] for k in rows[0]}).with_columns(
        (pl.col("after") - pl.col("before")).alias("change"),
        (pl.col("after_low") - pl.col("before_high")).alias("change_low"),
        (pl.col("after_high") - pl.col("before_low")).alias("change_high"))
    paired = c.what == "seat" and c.family != 0 and _all_paired(c.rows)
    if paired:
        # every seat of every cell paired game by game (two panels of the same deals): each cell's
        # change read on its seats' paired changes too, one family over every cell (3 intervals a
        # seat: before, after and the change; paired_gap_range)
        n = 3 * c.rows.height
        lows, highs = [], []
        for cell in t["cell"].to_list():
            r = c.rows.filter(pl.col("cell") == cell)
            gb = r["effective_games_before"] if "effective_games_before" in r.columns else r["games_before"]
            ga = r["effective_games_after"] if "effective_games_after" in r.columns else r["games_after"]
            same = (r["diff"].cast(pl.Float64).to_numpy() == 0) & ~np.isfinite(r["diff_low"].cast(pl.Float64).to_numpy())
            lo, hi = paired_gap_range(r["before"], r["after"], gb.fill_null(r["games_before"]),
                                      ga.fill_null(r["games_after"]), r["diff"], r["diff_low"], r["diff_high"],
                                      same, 1.0 / int(r["players"][0]), n, alpha)
            lows.append(lo)
            highs.append(hi)
        t = t.with_columns(pl.Series("change_low", lows, dtype=pl.Float64),
                           pl.Series("change_high", highs, dtype=pl.Float64))
    verdict = np.atleast_1d(stats.practical(t["change"].to_numpy(), t["change_low"].to_numpy(),
                                            t["change_high"].to_numpy(), c.smallest - 1e-12))
    return t.with_columns(pl.Series("verdict", list(verdict), dtype=pl.String),
                          pl.lit(n, pl.Int64).alias("family"),
                          pl.lit(paired).alias("paired")).select(list(BALANCE_COLUMNS))


def _seat_gaps(c: PanelComparison) -> pl.DataFrame:
    """Every seat's win share in every cell, before and after (the comparison's own numbers), with
    the cell's games (a rotated-seat cell's effective games, the games over the design effect of
    its deals, where the comparison has them) and its fair share 1/P: the rows
    :func:`seat_balance` reads."""
    out = []
    for r in c.rows.iter_rows(named=True):
        seat = int(str(r["key"]).rsplit(" ", 1)[-1])
        for run, share, games in (("before", r["before"], r["games_before"]), ("after", r["after"], r["games_after"])):
            # a rotated-seat cell: its games over the design effect of its deals (Kish)
            eff = r.get(f"effective_games_{run}")
            out.append({"cell": r["cell"], "run": run, "seat": seat, "what": "seat", "fair": 1.0 / r["players"],
                        "estimate": float(share), "games": float(games if eff is None else eff), "se": None})
    return pl.DataFrame(out, schema={"cell": pl.String, "run": pl.String, "seat": pl.Int64, "what": pl.String,
                                     "fair": pl.Float64, "estimate": pl.Float64, "games": pl.Float64,
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


def run_pair_balance(cmp: pl.DataFrame, base: dict[str, pl.DataFrame], variant: dict[str, pl.DataFrame],
                 players: int) -> pl.DataFrame:
    """Whether a two-run before/after (``cmp``, :func:`analysis.compare.compare_tables`' table of the
    runs whose tables are ``base`` and ``variant``) moves the seats toward or away from a fair share
    1/``players``: the panel before/after's answer (:func:`analysis.panel_compare.seat_balance`) for
    its one cell, the two runs. The largest gap of a seat's win share from 1/P before and after,
    whose it is, and its change read on the range every seat's Wilson interval over both runs
    allows at once (Bonferroni over the 2P intervals; wider than a paired test of the gap would
    be), worded by size against the seats' smallest difference that matters. Columns:
    :data:`analysis.panel_compare.BALANCE_COLUMNS` (``cell`` empty); empty in a game with roles (no
    fair seat share) or without seat rows. (Here, not in :mod:`analysis.compare`: this module
    imports that one; before, in reports/build.py.)"""
    seats = cmp.filter(pl.col("metric") == "seat_win_share")
    if "roles" in base or seats.height == 0 or players < 2:
        return pl.DataFrame(schema=BALANCE_COLUMNS)
    games = [int(t["seat_tests"]["games"][0]) if "seat_tests" in t else 0 for t in (base, variant)]
    rows = seats.select(pl.lit("").alias("cell"), "key", pl.col("base").alias("before"),
                        pl.col("variant").alias("after"), pl.lit(games[0]).alias("games_before"),
                        pl.lit(games[1]).alias("games_after"), pl.lit(players).alias("players"))
    small = float(seats["smallest"][0]) if "smallest" in seats.columns else 0.01
    out = seat_balance(PanelComparison(game="", rows=rows, cells=[""], what="seat", family=0, smallest=small))
    if out.height == 1 and _all_paired(seats):
        out = _paired_balance(out, seats, games, players, small)
    return out


def _all_paired(seats: pl.DataFrame) -> bool:
    """Every seat's change was measured game by game (the same deals on both sides: its interval
    is the paired one), with a finite interval."""
    if "paired" not in seats.columns or not bool(seats["paired"].fill_null(False).all()):
        return False
    finite = np.all([np.isfinite(seats[c].cast(pl.Float64).to_numpy()) for c in ("diff", "diff_low", "diff_high")],
                    axis=0)
    # no game differs: a change of exactly 0 (a run pair's same_games; a panel's row without an interval)
    same = (seats["same_games"].is_not_null().to_numpy() if "same_games" in seats.columns
            else (seats["diff"].cast(pl.Float64).to_numpy() == 0) & ~finite)
    return bool(np.all(same | finite))


def paired_gap_range(before, after, games_before, games_after, diff, diff_low, diff_high, same, fair: float,
                     n: int, alpha: float = ALPHA) -> tuple[float, float]:
    """The range of the change of one cell's largest seat gap from ``fair``, read on the pairing:
    every seat's win share before and after (Wilson's at 1 − alpha/n, over each side's games, a
    rotated cell's effective games) and its paired change (normal, from the comparison's own 95%
    paired interval, at 1 − alpha/n), the after shares also within before + change, all held at
    once with the rest of an n-interval family (Bonferroni); then
    :func:`analysis.stats.max_distance_change`. ``same``: seats where no game differs (a change of
    exactly 0)."""
    b, a = (np.asarray(x, dtype=float) for x in (before, after))
    gb, ga = (np.broadcast_to(np.asarray(x, dtype=float), b.shape) for x in (games_before, games_after))
    il, ih = stats.wilson(b * gb, np.maximum(gb, 1.0), 1.0 - alpha / n)
    al, ah = stats.wilson(a * ga, np.maximum(ga, 1.0), 1.0 - alpha / n)
    same = np.asarray(same, dtype=bool)
    d = np.where(same, 0.0, np.asarray(diff, dtype=float))
    se = np.where(same, 0.0, (np.asarray(diff_high, dtype=float) - np.asarray(diff_low, dtype=float))
                  / (2 * stats.z_quantile(0.95)))
    z = stats.z_quantile(1.0 - alpha / n)
    dl, dh = d - z * se, d + z * se
    cl, ch = np.maximum(al, il + dl), np.minimum(ah, ih + dh)
    if same.all():
        return 0.0, 0.0                    # no game differs: every seat's result is the same
    return stats.max_distance_change(il, ih, dl, dh, cl, ch, fair, fair)


def _paired_balance(out: pl.DataFrame, seats: pl.DataFrame, games: list[int], players: int, small: float,
                    alpha: float = ALPHA) -> pl.DataFrame:
    """:func:`run_pair_balance`'s change of the largest gap read on the pairing (designer review:
    read on both runs' intervals alone it was ~10 times wider than the paired seat changes beside
    it, and said "cannot tell" even where no game differed): one family of 3P intervals held at
    once (Bonferroni, each at 1 − alpha/3P), every seat's win share before and after (Wilson's)
    and its paired change after − before (normal, from the comparison's own paired interval),
    the after shares also no wider than before + change; the largest gap's change then lies in
    :func:`analysis.stats.max_distance_change` of those (as a tune's race reads a candidate
    against its incumbent). Where no game differs the change is 0, exactly."""
    s = seats.sort("key")
    P = s.height
    n = 3 * P
    same = (s["same_games"].is_not_null().to_numpy() if "same_games" in s.columns
            else np.zeros(P, bool))
    low, high = paired_gap_range(s["base"], s["variant"], games[0], games[1], s["diff"], s["diff_low"],
                                 s["diff_high"], same, 1.0 / players, n, alpha)
    r = out.row(0, named=True)
    verdict = str(np.atleast_1d(stats.practical(np.array([r["change"]]), np.array([low]), np.array([high]),
                                                small - 1e-12))[0])
    return out.with_columns(pl.lit(low).alias("change_low"), pl.lit(high).alias("change_high"),
                            pl.lit(verdict).alias("verdict"), pl.lit(n, pl.Int64).alias("family"),
                            pl.lit(True).alias("paired"))
