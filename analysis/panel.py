"""The runs of a panel read back: one row per cell (player count and line-up) with every seat's and
role's win share and its interval (Wilson over the cell's games, :func:`analysis.stats.wilson`: a
share of 0 or 100% wins still has an interval of some width, and no end leaves [0, 1]; a
rotated-seat cell's over its deals, its seats', sides' and game length's alike,
:func:`_rotated_seats`), and whether a finding holds in every cell.

The cells are run directories (``balance tune``'s ``confirmations/trial-N/cell-K/``, or any runs of
one game a designer names, e.g. one ``simulate`` per line-up and player count), each read from its
statistics (stats.json, at any number of games; players.parquet is not needed) or, for a run
written before them, its rows (:func:`analysis.sweep.metrics.cell_summary`). The *finding* is
about the seat that deviates most from a fair seat share (1/P) over the whole panel (in a game with
roles, seat 1 is the first role's seat: the Seigneur): it is above (or below) 1/P in a cell when the
cell's *adjusted* interval lies above (below) it. The family adjusted over is every seat of every
cell (m = the sum of the cells' player counts seat × cell comparisons with 1/P): Bonferroni
simultaneous intervals, each the seat's Wilson interval at level 1 − 0.05/m. The seat is picked from the data among the P seats, so the family holds
every seat, not only the one reported: all m intervals hold together with probability at least
95% (as far as the Wilson intervals cover), and then every call the finding makes — above, below, "in every cell" —
is right, whichever seat the data pick. So the chance that any of the finding's calls is wrong is at most 5%. (The page used to
say "wrong with probability at most 2.5%": that is one one-sided intersection-union test, true only
for a seat and a side named before the data; for the seat and side picked from the data among P
seats, unadjusted, the union bound is P × 5%.) "In every cell" is said only when every
cell's adjusted interval is on the same side; otherwise the counts of cells above, below and
unclear. The page says first what the finding is (:func:`finding_statement`: the seat, its side
and why it was picked), then whether it holds (:func:`finding`), then one sentence per cell on the
finding's seat and the largest gap among the others (:func:`largest_gaps`), each gap worded by size
on its adjusted interval; :func:`cell_calls` gives the finding's call per cell for the table. The
cell × metric table keeps each cell's own 95% interval (not adjusted).

A game with roles (Seigneurial's one Seigneur against 2-4 Censitaires) has no fair share per seat:
there the lead (:func:`role_finding`) is, as on a run's page (:mod:`analysis.roles`), first each
side's win share over the cells (:func:`side_finding`: the lone role's side first, the Seigneur's,
per player count and by band), then, for each role of several seats, one headline on whether its
seats take equal shares of its wins (:func:`split_finding`): each seat's share of its role's wins
against the equal split 1/k, clear when Holm over every such seat of every cell rejects (exact
binomial tests of the seat's wins among its role's where the games are independent and every win
is one seat's, else Wald tests from the cell's seat covariance: the run page's p-values,
:func:`analysis.roles.within_role_p`), worded by size on Bonferroni intervals over the same
family (:func:`role_seat_calls`), the largest gap named only from a cell where the role won at
least :data:`MIN_ROLE_WINS` games. Its cells are summarised by player count and strategy
(:func:`cells_summary`, which the before/after page's lead uses too). The table adds those shares
(Wilson over the role's wins) and, per cell, the call on that split naming the seat
(:func:`role_cell_calls`).

The lead (:attr:`PanelTable.lead`, in a game with roles or without) is the page's lead as it is
printed: :mod:`reports.panel` renders these sentences and computes none of them. Its shares are
rounded as the page's tables round them (:func:`simcore.numbers.rounded`, halves away from zero:
:func:`_pct_ci` is :func:`reports.text.pct_ci`'s rule), so the lead and the table print one number.

May import numpy, polars, the standard library, :mod:`simcore`, :mod:`analysis.load` (smallest
differences, opening a cell), :mod:`analysis.stats` (critical values, intervals, the wording by
size), :mod:`analysis.roles` (a cell's seats within a role), :mod:`analysis.seats` (a rotated-seat
cell's seats and sides over its deals), :mod:`analysis.length` (its game length over its deals; the
turn limit), :mod:`analysis.rules_diff` and :mod:`analysis.sweep.grammar` (whether cells played one
rule set: :func:`one_rule_set`) and :mod:`analysis.sweep.metrics`.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from simcore import games as registry
from simcore import numbers
from simcore.errors import UsageError
from simcore.rundir import PANEL_JSON, RUN_JSON, panel_cell_mismatch, read_meta, unfinished_panel

from analysis import stats
from analysis.load import open_runs, smallest_difference
from analysis.rules_diff import MISSING, Defaulted, settings_diff, value_text
from analysis.stats import LARGE, MAY_MATTER, SMALL, VERDICT_ORDER, practical, wilson, z_quantile
from analysis.sweep.grammar import SEAT_LISTS
from analysis.sweep.metrics import cell_summary


def cell_runs(paths) -> list[Path]:
    """Run directories of a panel: the ones given, or a directory's ``cell-*`` sub-directories."""
    out = []
    for p in map(Path, paths):
        if (p / RUN_JSON).is_file():
            out.append(p)
            continue
        why = unfinished_panel(p)
        if why is not None:         # an interrupted simulate --panel: not the panel it asked for
            raise UsageError(f"{p}: {why}")
        subs = sorted((d for d in p.glob("cell-*") if (d / RUN_JSON).is_file()),
                      key=lambda d: int(d.name.split("-")[1]) if d.name.split("-")[1].isdigit() else 0)
        if not subs:
            raise UsageError(f"{p}: neither a run directory nor a directory of cell-*/ runs")
        for d in subs:
            why = panel_cell_mismatch(p, d.name, read_meta(d))
            if why is not None:
                raise UsageError(f"{p}: {why}")
        out += subs
    return out


def _lineup_of(run: Path) -> str | None:
    """A run's line-up as the pages name it (:func:`lineup_label`: "4p harsh-lord + 3×fair-share"),
    from its run.json; None when it names no strategies."""
    meta = read_meta(run)
    names = meta.get("strategies") or meta.get("strategy_names") or []
    if isinstance(names, str):
        names = names.split(",")
    players = meta.get("players") or len(names)
    return _label(int(players), list(names)) if names and players else None


def _same_lineup(run: Path, ours, given: list[Path]) -> Path | None:
    """The run played under the rule set ``ours`` (a predicate on a run: :func:`one_rule_set`
    with a run of that set) with ``run``'s line-up: one of the runs ``given``, else a cell of the
    panel directories they are in (``OUT/cell-K``); None when there is none."""
    want = _lineup_of(run)
    if want is None:
        return None
    pool = list(given)
    for g in given:
        if g.name.startswith("cell-"):
            pool += sorted((d for d in g.parent.glob("cell-*") if (d / RUN_JSON).is_file()),
                           key=lambda d: d.name)
    for r in dict.fromkeys(pool):
        if r != run and ours(r) and _lineup_of(r) == want:
            return r
    return None


def _seat_values(value, seats: int) -> list | None:
    """What the ``seats`` seats a per-seat list covers at a player count play with: a single
    number for each of them, else the list's first ``seats`` entries (a list shorter than that is
    padded with its last value, as :meth:`simcore.config.Table.per_seat` reads it); None for a
    value that is neither (a table)."""
    if isinstance(value, Defaulted):
        value = value.value
    if isinstance(value, dict) or value is MISSING:
        return None
    if not isinstance(value, list):
        return [value] * seats
    if not value:
        return []
    return list(value[:seats]) + [value[-1]] * max(0, seats - len(value))


def one_rule_set(a: dict, b: dict) -> bool:
    """Whether two runs (their run.json) were played under one set of rules, at their player counts:
    the same rules text, or rules whose settings differ only in per-seat lists (MA-1's
    ``setup.start_coins``, MV-2's ``setup.hand_size``, a game spec's ``seat_lists``) whose seats
    both runs seat play the same values (:func:`rule_differences` is empty). A ``--set
    setup.start_coins[0]=1`` on a single number makes a list of one entry per seat at each player
    count (:func:`simcore.config.set_in`): ``[1, 0, 0]`` at 3 players, ``[1, 0, 0, 0]`` at 4, two
    rules texts, but the rules one file gives every cell (the longer list, which a 3-player game
    reads up to its seat 3), so one rule set (review s59 fx229 #2: a panel tune's
    ``confirmations/trial-N`` over 3 and 4 players was refused as a mix of a before and an after).
    Texts that differ only in comments or layout are one rule set too (the same games)."""
    if str(a.get("rules_sha256")) == str(b.get("rules_sha256")):
        return True
    return rule_differences(a, b) == []


def rule_differences(a: dict, b: dict):
    """The settings (:class:`analysis.rules_diff.SettingChange`) in which two runs' rules differ as
    their games play them: every setting :func:`analysis.rules_diff.settings_diff` lists, but a
    per-seat list whose seats both player counts seat get the same values; None when either run's
    rules are not readable TOML (then they cannot be told to be one rule set)."""
    changes = settings_diff(a.get("rules_text"), b.get("rules_text"))
    if changes is None:
        return None
    game = a.get("game")
    try:
        declared = dict(registry.get(game).seat_lists or {}) if game else {}
    except Exception:           # (a game this version does not know: only the shared lists)
        declared = {}
    pa, pb = a.get("players"), b.get("players")
    if not (isinstance(pa, int) and isinstance(pb, int)):
        return changes
    out = []
    for c in changes:
        if c.path in declared or c.path in SEAT_LISTS:
            seats = min(pa, pb) - int(declared.get(c.path, 0))
            va, vb = (_seat_values(v, seats) for v in (c.before, c.after))
            if va is not None and va == vb:
                continue
        out.append(c)
    return out


def _rule_sets(runs: list[Path]) -> list[list[Path]]:
    """The runs grouped by rule set (:func:`one_rule_set` with every run of its group), in the
    order they are given."""
    groups: list[list[Path]] = []
    for r in runs:
        meta = read_meta(r)
        for g in groups:
            if all(one_rule_set(read_meta(x), meta) for x in g):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups


def _rules_words(ra: Path, rb: Path) -> tuple[str, str]:
    """How the message names the rule sets of ``ra`` and ``rb``: their ``rules_name``; where both
    read alike (the same file and ``--set`` list, the file edited in between, or the same list at
    other seats), each with the first settings the two differ in (review s59 fx229 #2: "… with
    --set setup.start_coins[0]=1; … with --set setup.start_coins[0]=1" named two rule sets as one)."""
    ma, mb = read_meta(ra), read_meta(rb)
    name = lambda m: str(m.get("rules_name") or "the shipped rules")  # noqa: E731
    wa, wb = name(ma), name(mb)
    if wa != wb:
        return wa, wb
    changes = rule_differences(ma, mb)
    if not changes:
        return (f"{wa} (rules sha256 {str(ma.get('rules_sha256'))[:12]}…)",
                f"{wb} (rules sha256 {str(mb.get('rules_sha256'))[:12]}…)")
    shown = changes[:3]
    more = f" and {len(changes) - 3} more" if len(changes) > 3 else ""
    side = lambda v: "(absent)" if v is MISSING else value_text(v)  # noqa: E731
    return (wa + ", where " + ", ".join(f"{c.path} = {side(c.before)}" for c in shown) + more,
            wb + ", where " + ", ".join(f"{c.path} = {side(c.after)}" for c in shown) + more)


def _one_rule_set(paths, runs: list[Path]) -> None:
    """A panel's finding is about one set of rules across line-ups: cells played under different
    rules (``--cells`` from a baseline's panel and a variant's, or more than two panels) would
    average the before and the after into one figure. Cells whose rules differ only as one rules
    file read at their player counts (:func:`one_rule_set`) are one rule set. One line naming both
    rule sets (:func:`_rules_words`: in words that differ) and what to give instead (two panel
    directories alone make a before/after per cell: :mod:`analysis.panel_compare`); for one
    line-up, its two runs, one under each rule set: the given cells when they are of one line-up,
    else the cell of the other rule set with the first one's line-up (the same ``cell-K`` of the
    other panel, or the cell its label names), or, when there is none, that the given cells are of
    two line-ups (review s42 A #2: the message suggested cell-0 against cell-1, a before/after of
    two line-ups that blamed the rules for the bots)."""
    groups = _rule_sets(runs)
    if len(groups) < 2:
        return
    ra, rb = groups[0][0], groups[1][0]
    panels = ""
    if ra.name.startswith("cell-") and rb.name.startswith("cell-") and ra.parent != rb.parent:
        panels = (f"for the change in every line-up give the two panel directories alone (balance "
                  f"report {ra.parent} {rb.parent} --out DIR), ")
    la, lb = _lineup_of(ra), _lineup_of(rb)
    if la == lb:
        one = f"for the change in one line-up give its two cells (balance report {ra} {rb} --out DIR)"
    else:
        given = groups[1]
        ours = lambda r: all(one_rule_set(read_meta(x), read_meta(r)) for x in given)  # noqa: E731
        match = _same_lineup(ra, ours, given)
        differ = (f"the two cells given are of two line-ups: {ra} is {la or 'one'} and {rb} is "
                  f"{lb or 'another'}")
        if match is not None:
            one = (f"for the change in one line-up give two cells of the same line-up, one under each "
                   f"rule set (balance report {ra} {match} --out DIR; {differ})")
        else:
            one = (f"for the change in one line-up give two runs of the same line-up, one under each "
                   f"rule set ({differ})")
    wa, wb = _rules_words(ra, rb)
    raise UsageError(
        f"the cells were played under {len(groups)} different rule sets ({ra}: {wa}; {rb}: "
        f"{wb}): a panel's page is about one set of rules, and these would mix a before and "
        f"an after; {panels}{one}")


def is_panel_dir(path) -> bool:
    p = Path(path)
    return not (p / RUN_JSON).is_file() and ((p / PANEL_JSON).is_file()
                                             or any((d / RUN_JSON).is_file() for d in p.glob("cell-*")))


def lineup_label(players: int, lineup: list[str]) -> str:
    """A cell as the pages name it: "4p 4×balanced", "4p harsh-lord + 3×fair-share"."""
    return _label(players, lineup)


def _label(players: int, lineup: list[str]) -> str:
    parts = []
    for name, run in itertools.groupby(lineup):
        k = len(list(run))
        parts.append(name if k == 1 else f"{k}×{name}")
    return f"{players}p " + " + ".join(parts)


@dataclass
class PanelTable:
    game: str
    cells: pl.DataFrame          # one row per cell and metric: cell, label, players, metric, …
    labels: list[str]
    finding: str                 # the lead sentences, joined
    smallest: float = 0.01       # the smallest win-share difference that matters (the finding's)
    roles: bool = False          # a game with roles: the finding is about sides and seats within a role
    lead: list[str] | None = None   # the page's lead, as printed: one paragraph each
    calls: dict | None = None    # per cell: the finding's call on its seat there (seat games), or on
    #                              the split of a role's wins, naming the seat (roles), or None
    calls_title: str = ""        # the heading of that column


def panel_table(paths, smallest: dict | None = None) -> PanelTable:
    """The cell × metric table of the runs of a panel and its finding sentence. ``smallest``: the
    smallest differences that matter, by kind, over the game's (:func:`analysis.load.smallest_difference`)."""
    runs = cell_runs(paths)
    games = {read_meta(r).get("game") for r in runs}
    if len(games) != 1:
        raise UsageError(f"the runs of a panel must be of one game (got {', '.join(sorted(map(str, games)))})")
    game = games.pop()
    _one_rule_set(paths, runs)
    spec = registry.get(game)
    roles = not spec.roles_alike
    rows, labels = [], []
    weights = _cell_weights(runs)
    for k, r in enumerate(runs):
        meta = read_meta(r)
        v = cell_summary(r)
        names = meta.get("strategies") or meta.get("strategy_names") or []
        if isinstance(names, str):
            names = names.split(",")
        label = _label(v.n_players, list(names)) if names else f"{v.n_players}p {r.name}"
        if label in labels:
            # a panel's cells are OUT/cell-K: two panels' cell-1 name neither, so name the panel too
            where = f"{r.parent.name}/{r.name}" if r.name.startswith("cell-") else r.name
            label = f"{label} ({where})"
        labels.append(label)
        # (a share's interval is Wilson's over the cell's games already: cell_summary; a
        # rotated-seat cell's seats, sides and game length are read over its deals: _rotated_seats)
        deals = _rotated_seats(r, meta, v.estimates)
        for key, (info, m, lo, hi) in v.estimates.items():
            n_eff = float(v.n_games)
            if deals is not None and key in deals:
                n_eff, lo, hi = deals[key]
            rows.append({"cell": k, "label": label, "players": v.n_players, "games": v.n_games,
                         "effective_games": n_eff, "weight": weights[k],
                         "run": str(r), "metric": key, "what": info.label,
                         "share": info.share, "unit": info.unit,     # (the length's: player turns)
                         "estimate": m, "low": lo, "high": hi,
                         # a seat's fair share 1/P only where the seats are alike (a game
                         # with roles has none per seat)
                         "fair": 1.0 / v.n_players if key.startswith("seat_") and not roles else None})
        if roles:
            rows += _role_seat_rows(r, k, label, v.n_players, v.n_games)
    cells = pl.DataFrame(rows, infer_schema_length=None)
    share = smallest_difference(game, "share", smallest)
    if roles:
        cells = role_seat_calls(cells, share)
        lead = role_finding(cells, len(runs), share)
        calls, title = role_cell_calls(cells)
    else:
        lead = [finding_statement(cells, spec), finding(cells, spec, len(runs), share),
                largest_gaps(cells, share)]
        calls, title = cell_calls(cells, share)
    # cells whose games mostly stopped at the turn limit: their shares describe unfinished games,
    # and the lead says so first (simcore.turn_limit)
    if (warned := turn_limit_of_cells(runs, labels)):
        lead = [warned] + lead
    return PanelTable(game, cells, labels, " ".join(lead), share, roles, lead, calls, title)


def _cell_weights(runs: list[Path]) -> list[float]:
    """Each run's ``weight`` in a mean over the panel (panels.toml: "weighs a cell in a mean over
    the panel"), from the panel.json of the panel directory every run is a cell of; 1 for each when
    the runs are not the cells of one panel (runs gathered by hand: no panel weighs them)."""
    import json

    if len({r.parent for r in runs}) != 1:
        return [1.0] * len(runs)
    try:
        meta = json.loads((runs[0].parent / PANEL_JSON).read_text(encoding="utf-8"))
        names = [str(c) for c in meta["cells"]]
        cells = meta["panel"]["cells"]
        out = [float(cells[names.index(r.name)].get("weight", 1.0)) for r in runs]
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return [1.0] * len(runs)
    # (a weight of 0 is a panel's to give, as long as they do not all are: strategies.panels)
    return out if all(w >= 0 and np.isfinite(w) for w in out) and sum(out) > 0 else [1.0] * len(runs)


def turn_limit_of_cells(runs, labels) -> str:
    """The warning a panel's lead starts with when 5% or more of some cell's games ended at the
    turn limit (:func:`simcore.turn_limit.warning_over`, each cell read by
    :func:`analysis.length.run_turn_limit`), else ''."""
    from analysis.length import run_turn_limit
    from simcore.turn_limit import warning_over

    return warning_over([(label, run_turn_limit(r)) for r, label in zip(runs, labels)], "cells",
                        about="Their win shares")


def _rotated_seats(run: Path, meta: dict, estimates: dict | None = None) -> dict | None:
    """A rotated-seat cell (``--rotate-seats``: ``balance tune --panel … --rotate-seats``'s cells, or
    rotated runs given to ``--cells``) read over its deals, its independent units: per metric,
    (effective games, low, high). Each seat (``seat_win_share_<s>``) from the seat table
    (:func:`analysis.seats.seat_table`: the games over the design effect, Kish, and the Wilson
    interval on them). A panel's line-ups of one bot replay the same game in every rotation, so a
    cell of n games holds only n/P independent outcomes, and an interval over its games was half
    as wide as the deals give (statistics audit s37 #1). In a game with roles, each side
    (``role_win_share_<role>``, the sum of its seats' shares) the same way, from the seats'
    per-deal cross-products (:func:`_deal_share_interval`; statistics audit s38 #1: read over the
    games, a side's 95% interval covered 71% of replayed cells of 100 deals). The game length
    (``game_length``, given ``estimates``, :func:`analysis.sweep.metrics.cell_summary`'s) by
    counting each deal as one game: no per-deal sum of lengths is kept, and a deal's g games have
    at most g times the variance of g independent ones (:func:`analysis.length.deal_bound_interval`;
    read over the games it covered 67% at 50 deals). None for a cell whose games are its
    independent units. Refused in one line when the run has no per-deal sums to read (statistics
    written before them)."""
    if not meta.get("rotate_seats"):
        return None
    from analysis import seats as seats_mod
    from analysis.length import deal_bound_interval
    from analysis.load import run_pass

    rs = open_runs([run])
    if rs.games_per_unit <= 1:
        return None
    if rs.from_stats and "deal_win_sq" not in rs.stats.fixed:
        raise UsageError(f"{run}: a rotated-seat run whose statistics have no per-deal sums: its "
                         "games are not independent and a panel cannot read it over its deals; "
                         "play the cell again (or read it alone: balance report RUN)")
    t = seats_mod.seat_table(rs)
    out = {f"seat_win_share_{int(s) + 1}": (float(e), float(lo), float(hi))
           for s, e, lo, hi in zip(t["seat"].to_list(), t["effective_games"].to_list(),
                                   t["ci_low"].to_list(), t["ci_high"].to_list())}
    g = int(rs.games_per_unit)
    spec = registry.specs().get(rs.game)
    if spec is not None and not spec.roles_alike:
        if rs.from_stats:
            acc = seats_mod.seat_accumulator_from_stats(rs)
        else:
            acc = seats_mod.SeatAccumulator(rs.n_players)
            run_pass(rs, [acc])
        deals = seats_mod._deal_cross(rs)          # None: statistics without deal_win_cross
        seat_roles = spec.seat_roles(rs.n_players)
        for role in dict.fromkeys(seat_roles):
            mine = [s for s, x in enumerate(seat_roles) if x == role]
            out[f"role_win_share_{role}"] = _deal_share_interval(
                acc.total, acc.cross, acc.games, None if deals is None else deals[1], g, mine)
    est = (estimates or {}).get("game_length")
    if est is not None:
        _, m, lo, hi = est
        n = float(rs.n_games)
        # cell_summary's normal interval over the games is m ± Z·sd/√n: its sd read back
        sd = (hi - m) * np.sqrt(n) / z_quantile() if n > 1 and np.isfinite(hi) else float("nan")
        dlo, dhi = deal_bound_interval(m, sd, n, g)
        out["game_length"] = (n / g, float(dlo), float(dhi))
    return out


def _deal_share_interval(total, cross, games: int, deal_cross, games_per_deal: int, seats,
                         level: float = stats.LEVEL) -> tuple[float, float, float]:
    """(effective games, low, high) of the share Σ_{s ∈ seats} w_s of a rotated-seat run (a side's
    win share: its seats' shares summed per game), read over its D = games / games_per_deal deals
    as the seat table reads a seat (:func:`analysis.seats.seat_table`): the Wilson interval at the
    effective number of games n·v_game / (g·v_deal) (the games over the design effect, Kish), with
    v_game the per-game variance of the share (from the per-game cross-products ``cross`` = Σ w wᵀ:
    tie-aware) and v_deal that of its per-deal means (from ``deal_cross`` = Σ_d (Σ_deal w)(Σ_deal
    w)ᵀ, the statistics' ``deal_win_cross``; :func:`analysis.seats.deal_share_cov`). Where that
    cannot be estimated (no per-deal cross-products, fewer than two deals, or a share of no
    variance: a side that won every game or none) each deal counts as one game, D: the design
    effect is at most g (:attr:`analysis.load.RunSet.games_per_unit`), so that interval covers at
    least what it claims."""
    from analysis.seats import deal_share_cov

    idx = list(seats)
    G = float(games)
    g = float(games_per_deal)
    D = G / g
    p = float(np.asarray(total, dtype=float)[idx].sum()) / G
    block = np.asarray(cross, dtype=float)[np.ix_(idx, idx)].sum()
    v_game = (block - G * p * p) / (G - 1) if G > 1 else float("nan")   # per game, sample variance
    n_eff = D
    if deal_cross is not None and D >= 2 and v_game > 0:
        dcov = deal_share_cov(np.asarray(total, dtype=float), deal_cross, G, g)     # of the means
        v_mean = float(dcov[np.ix_(idx, idx)].sum())
        if np.isfinite(v_mean) and v_mean > 0:
            n_eff = v_game / v_mean
    lo, hi = stats.wilson(p * n_eff, n_eff, level)
    return float(n_eff), float(lo), float(hi)


def _role_seat_rows(run: Path, cell: int, label: str, players: int, games: int) -> list[dict]:
    """:func:`_role_seat_rows_of`, read once per run: a panel before/after asks it of each run two or
    three times (the split of the roles' wins, toward or away from fair, the panel page), each
    reading the run's rows again. Keyed by the run's path and its run.json's size and time (a run
    written again is read again); each caller gets its own copies."""
    import os

    try:
        st = os.stat(Path(run) / "run.json")
        key = (str(Path(run).resolve()), st.st_mtime_ns, st.st_size, cell, label, players, games)
    except OSError:
        return _role_seat_rows_of(run, cell, label, players, games)
    if key not in _ROLE_SEAT_ROWS:
        if len(_ROLE_SEAT_ROWS) >= 256:
            _ROLE_SEAT_ROWS.clear()
        _ROLE_SEAT_ROWS[key] = _role_seat_rows_of(run, cell, label, players, games)
    return [dict(r) for r in _ROLE_SEAT_ROWS[key]]


_ROLE_SEAT_ROWS: dict = {}


def _role_seat_rows_of(run: Path, cell: int, label: str, players: int, games: int) -> list[dict]:
    """A cell's seats of the roles of several seats, each seat's share of its role's wins
    (:func:`analysis.roles.role_seat_table`: Wilson over the role's wins, this seat's alone) against
    the equal split 1/k, with the p-value of "wins as often as its role's average seat" (the
    table's: the exact binomial test where the games are independent and no win of the role is
    shared, else the Wald test, :func:`analysis.roles.within_role_p`; unadjusted:
    :func:`role_seat_calls` adjusts over the panel) and the standard error of its share
    of the role's wins minus 1/k (delta method; :func:`analysis.roles.role_share_size_intervals`
    at one comparison, whose half-width over z is that se)."""
    from analysis.roles import _seat_mean_cov, has_roles, role_seat_table, role_share_size_intervals

    rs = open_runs([run])
    if not has_roles(rs):
        return []
    t = role_seat_table(rs).sort("seat")
    # the run page's p-values: exact binomial where the games are independent and no win of the
    # role is shared, else Wald (analysis.roles.within_role_p, one function for both)
    p = t["seat_p_value"].to_numpy().astype(float)
    # a seat of a role of several seats, the role with some win (no win: no share of it to compare)
    tested = np.isfinite(p) & np.isfinite(t["share_of_role"].to_numpy().astype(float))
    mean, cov = _seat_mean_cov(rs)
    # the intervals at one comparison each (alpha × m over m comparisons: level 1 − alpha), whose
    # half-width is z_(1 − alpha) · se
    lo, hi = role_share_size_intervals(mean, cov, t["role"].to_list(), tested,
                                       alpha=ALPHA * max(int(tested.sum()), 1))
    se = (hi - lo) / (2.0 * z_quantile(1.0 - ALPHA))
    out = []
    for i, r in enumerate(t.iter_rows(named=True)):
        if not tested[i]:
            continue
        role = r["role_label"]
        out.append({"cell": cell, "label": label, "players": players, "games": games, "run": str(run),
                    "metric": f"role_seat_share_{r['seat'] + 1}",
                    "what": f"seat {r['seat'] + 1}'s share of the {role}s' wins",
                    "share": True, "estimate": r["share_of_role"], "low": r["share_low"],
                    "high": r["share_high"], "fair": r["equal_share"],
                    "role": r["role"], "role_label": role, "seat": int(r["seat"]) + 1,
                    "p_value": float(p[i]), "diff_se": float(se[i]),
                    "win_share": r["win_share"], "win_low": r["ci_low"], "win_high": r["ci_high"]})
    return out


def _exact_role_p(t: pl.DataFrame, games_per_unit: int) -> np.ndarray:
    """Per seat of a table of :func:`analysis.roles.role_seat_table`'s columns (``t``, sorted by
    seat: role, wins, seat_p_value), the p-value of "wins as often as its role's average seat":
    :func:`analysis.roles.within_role_p`, the one function the run page's table uses too. Where the
    games are independent and every win of the role is one seat's (here: the seats' wins whole
    numbers), a seat's wins among the role's N wins are Binomial(N, 1/k) when its k seats win
    equally often: the exact binomial test. The Wald test is anti-conservative at a few dozen wins
    of the role (statistics audit s37 #2: 7.6–7.9% panels with a false "clear" call at ~40 wins a
    cell for a claimed 5%). Elsewhere (shared wins, or a rotated-seat run, whose games are not
    independent) the Wald test from the seat covariance. :func:`_role_seat_rows_of` reads the
    table's own ``seat_p_value``, which already is this (and knows the shared wins: statistics
    audit s38 #2)."""
    from analysis.roles import within_role_p

    p, _ = within_role_p(t["seat_p_value"].to_numpy().astype(float), t["wins"].to_numpy().astype(float),
                         t["role"].to_list(), games_per_unit)
    return p


ALPHA = 0.05                 # the family-wise error of the finding's calls, over every seat × cell


def adjusted_seat_intervals(cells: pl.DataFrame, alpha: float = ALPHA) -> tuple[pl.DataFrame, int, float]:
    """The seat rows of ``cells`` with ``adj_low``/``adj_high``: Bonferroni simultaneous intervals
    over the family of every seat of every cell (m rows), each the Wilson interval
    (:func:`analysis.stats.wilson`) of the seat's wins over the cell's games at level 1 − alpha/m
    (a rotated-seat cell's: over its ``effective_games``, the games over the design effect of its
    deals, :func:`_rotated_seats`),
    so that an end never leaves [0, 1] and a seat with no win (or every win) still has an interval
    of some width. Returns (rows, m, z), z the two-sided normal critical value at that level."""
    seats = cells.filter(pl.col("metric").str.starts_with("seat_win_share_"))
    m = seats.height
    level = 1.0 - alpha / max(m, 1)
    # a rotated-seat cell's games over the design effect (Kish, :func:`_rotated_seats`): its deals
    # are its independent units, not its games (statistics audit s37 #1)
    col = "effective_games" if "effective_games" in seats.columns else "games"
    n = seats[col].fill_null(seats["games"].cast(pl.Float64)).to_numpy().astype(float)
    low, high = wilson(seats["estimate"].to_numpy().astype(float) * n, n, level)
    return (seats.with_columns(pl.Series("adj_low", low), pl.Series("adj_high", high)), m, z_quantile(level))


def role_seat_calls(cells: pl.DataFrame, smallest: float = 0.01, alpha: float = ALPHA) -> pl.DataFrame:
    """``cells`` with the panel's calls on every seat of a role of several seats (rows
    ``role_seat_share_<s>``, :func:`_role_seat_rows`): whether its share of its role's wins is
    clearly off the equal split 1/k — Holm over the family of every such seat of every cell (m rows;
    ``p_panel``, ``clear``: the chance that any clear call of the panel is wrong is at most
    ``alpha``) — and by how much (``verdict``, :func:`analysis.stats.practical` against
    ``smallest``, read on ``adj_low``/``adj_high``: the share minus 1/k ± z·se, Bonferroni over the
    same m, wider than any step of Holm's). Other rows get nulls. A game with roles
    has no fair share per seat; the seats of one role are meant to win equally often."""
    is_seat = cells["metric"].str.starts_with("role_seat_share_").to_numpy()
    k = int(is_seat.sum())
    if not k:
        return cells
    part = cells.filter(pl.Series(is_seat))
    diff = (part["estimate"] - part["fair"]).to_numpy().astype(float)
    se = part["diff_se"].to_numpy().astype(float)
    padj = stats.holm(part["p_value"].to_numpy().astype(float))
    clear = np.nan_to_num(padj, nan=1.0) < alpha
    low, high = stats.bonferroni_interval(diff, se, alpha, m=k)
    verdict = np.atleast_1d(practical(diff, low, high, smallest - 1e-12, clear=clear))

    def spread(x, dtype=None):
        full = np.full(cells.height, None, dtype=object)
        full[np.flatnonzero(is_seat)] = list(x)
        return pl.Series(full.tolist(), dtype=dtype)

    return cells.with_columns(spread(padj, pl.Float64).alias("p_panel"), spread(clear, pl.Boolean).alias("clear"),
                              spread(low, pl.Float64).alias("adj_low"), spread(high, pl.Float64).alias("adj_high"),
                              spread(verdict, pl.String).alias("verdict"))


def role_cell_calls(cells: pl.DataFrame) -> tuple[dict | None, str]:
    """Per cell (its index), the panel's call on how a role of several seats splits its wins there,
    naming the seat (review s42 K #3: the lead said "perhaps by 1 pp or more … in 1 (4p even-lord +
    3×fair-share)" and no place on the page said which seat): each seat clearly off an equal split
    (:func:`role_seat_calls`: Holm over every such seat of every cell), largest gap first, with its
    side and size, "Seat 2 below an equal split: clear, may matter", "Seat 4 above and Seat 2 below
    an equal split: clear and large enough to matter"; "no seat clearly off an equal split"; "no Censitaire seats to compare" in a cell without two of them. With several such roles,
    each cell's words per role ("Censitaire: …; Guard: …"). Returns (cell → words, the column's
    heading), or (None, "") when no role has several seats."""
    if "role" not in cells.columns:
        return None, ""
    seats = cells.filter(pl.col("metric").str.starts_with("role_seat_share_"))
    if seats.height == 0:
        return None, ""
    roles = list(dict.fromkeys(seats["role"].to_list()))
    labels = dict(zip(seats["role"].to_list(), seats["role_label"].to_list()))
    out: dict = {}
    for c in sorted(cells["cell"].unique().to_list()):
        words = []
        for role in roles:
            part = seats.filter((pl.col("cell") == c) & (pl.col("role") == role))
            if part.height == 0:
                said = f"no {labels[role]} seats to compare"
            else:
                hit = part.filter(pl.col("clear").fill_null(False)).with_columns(
                    (pl.col("estimate") - pl.col("fair")).alias("_gap")).with_columns(
                    pl.col("_gap").abs().alias("_a")).sort(["_a", "seat"], descending=[True, False])
                seats_ = [f"Seat {r['seat']} {'above' if r['_gap'] > 0 else 'below'}" for r in hit.iter_rows(named=True)]
                sizes = hit["verdict"].to_list()
                if not seats_:
                    said = "no seat clearly off an equal split"
                elif len(set(sizes)) == 1:     # one size: "Seat 4 above and Seat 2 below an equal split: …"
                    said = f"{_and(seats_)} an equal split: {sizes[0]}"
                else:
                    said = "; ".join(f"{x}{' an equal split' if k == 0 else ''}: {v}"
                                     for k, (x, v) in enumerate(zip(seats_, sizes)))
            words.append(said if len(roles) == 1 else f"{labels[role]}: {said}")
        out[c] = "; ".join(words)
    whose = f"the {labels[roles[0]]}s' wins" if len(roles) == 1 else "each role's wins"
    return out, f"split of {whose} (the call, adjusted over the panel)"


def _pct(p: float, digits: int = 1) -> str:
    """A share in % without the sign, a half rounded away from zero as every table rounds it
    (:func:`simcore.numbers.rounded`, :func:`reports.text.pct`'s rule: 2,566 wins of 4,000 are
    64.2%, which Python's formatting printed 64.1% in the lead above a table's 64.2%, review s42 A #1)."""
    return f"{numbers.rounded(100 * p, digits):.{digits}f}"


def _pct_ci(p: float, low: float, high: float) -> str:
    """``27.9% (27.6–28.2)``, as the page's tables print it (:func:`reports.text.pct_ci`, the same
    rule): more decimals (up to 3) while the interval would print as one value (``0.00%
    (0.00–0.02)`` for no win in 20,000 games, not ``0.0% (0.0–0.0)``) or an end as the estimate,
    0% or 100% without being it."""
    def onto(x: float, to: float, d: int) -> bool:
        return x != to and _pct(x, d) == _pct(to, d)

    digits = 1
    while digits < 3 and ((high > low and _pct(low, digits) == _pct(high, digits))
                          or any(onto(end, to, digits) for end in (low, high) for to in (p, 0.0, 1.0))):
        digits += 1
    return f"{_pct(p, digits)}% ({_pct(low, digits)}–{_pct(high, digits)})"


def _cells_named(labels: list[str], most: int = 5) -> str:
    """``" (4p a, 4p b)"``: the cells behind a count, named when there are at most ``most``."""
    return f" ({', '.join(labels)})" if 0 < len(labels) <= most else ""


# ---------------------------------------------------------------------------------------------
# The lead of a panel of a game with roles (session s37, Seigneurial designer, findings 3, 4, 11):
# the sides first, then each role's split of its wins, the cells summarised. The page renders it
# as it is (reports.panel); the cell summaries below also serve the page's before/after lead.

#: the fewest wins of a role in a cell for the page to name that cell's split of them as the
#: "largest gap" (s37 #4: "seat 3 takes 100.0% (2.5–100.0) of the Censitaires' wins" in a cell where
#: the Censitaires won 2 games of 2,000)
MIN_ROLE_WINS = 100

#: how many cells a sentence names before "and N more"
NAMED_CELLS = 3


def _label_parts(label: str) -> tuple[int | None, list[str]]:
    """(players, the line-up's strategies) of a cell label such as ``3p even-lord + 2×fair-share``
    (:func:`lineup_label`): ``(3, ["even-lord", "fair-share"])``; (None, []) for another label."""
    m = re.match(r"^(\d+)p (.+)$", label)
    if not m:
        return None, []
    parts = [re.sub(r"^\d+×", "", x.strip()) for x in m.group(2).split(" + ")]
    return int(m.group(1)), list(dict.fromkeys(parts))


def cells_summary(named, every, most: int = NAMED_CELLS) -> str:
    """The cells ``named`` (labels) out of the panel's ``every``, said briefly: whole groups first
    (``all 12 5p cells``, ``all 12 harsh-lord cells``: every cell of that player count, or with
    that strategy, is among them), then up to ``most`` more by name and ``and N more``. One cell:
    its name. The groups may overlap; every cell said is among ``named`` and every one of
    ``named`` is said or counted (s37 #4: 19 cell names, twice, took 9 lines of screen)."""
    named = list(dict.fromkeys(named))
    every = list(dict.fromkeys(every))
    if len(named) <= most + 1:
        return _and(named)
    chosen = set(named)
    groups: dict[str, list[str]] = {}
    for lab in every:
        p, parts = _label_parts(lab)
        if p is not None:
            groups.setdefault(f"{p}p", []).append(lab)
        for s in parts:
            groups.setdefault(s, []).append(lab)
    left = [x for x in named]
    said = []
    while True:
        best = None
        for key, members in groups.items():
            if len(members) < 2 or len(members) == len(every) or not set(members) <= chosen:
                continue
            new = sum(x in left for x in members)
            if new >= 2 and (best is None or new > best[0]):
                best = (new, key, members)
        if best is None:
            break
        new, key, members = best
        # a group that overlaps one already said counts only its other cells, so the counts add up
        said.append(f"all {len(members)} {key} cells" if new == len(members) else f"the {new} other {key} cells")
        left = [x for x in left if x not in members]
        groups.pop(key)
    if len(left) <= most + 1:
        said += left
    else:
        said += left[:most] + [f"{len(left) - most} more"]
    return _and(said)


def _and(xs: list[str]) -> str:
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1] if xs else ""


def _where(named, every) -> str:
    """``in 4p a`` (one cell) or ``in 19 cells (all 12 5p cells, …)``."""
    named = list(dict.fromkeys(named))
    if len(named) == 1:
        return f"in {named[0]}"
    if len(named) == len(every):
        return f"in all {len(named)} cells"
    return f"in {len(named)} cells ({cells_summary(named, every)})"


def _cell_pct(r: dict) -> str:
    """A row's estimate with its interval, as :func:`_pct_ci` prints it."""
    return _pct_ci(r["estimate"], r["low"], r["high"])


def _side_rows(cells: pl.DataFrame) -> tuple[pl.DataFrame, list[str], list[str]]:
    """The side rows (``role_win_share_<role>``), the side metrics with a role of one seat first
    (the Seigneur: what a designer of a game with roles asks about first), and every cell label."""
    sides = cells.filter(pl.col("metric").str.starts_with("role_win_share_"))
    many = set()
    if "role" in cells.columns:
        many = set(cells.filter(pl.col("metric").str.starts_with("role_seat_share_"))["role"].drop_nulls()
                   .to_list())
    metrics = list(dict.fromkeys(sides["metric"].to_list()))
    metrics.sort(key=lambda m: m.removeprefix("role_win_share_") in many)     # stable: lone roles first
    every = list(dict.fromkeys(cells.sort("cell")["label"].to_list()))
    return sides, metrics, every


def side_finding(cells: pl.DataFrame, n: int) -> list[str]:
    """The first sentences of :func:`role_finding`, the finding by side (s37 #4: the page's one bold
    finding was the seat order among the Censitaires, while a designer asks how the Seigneur fares
    against them): the lone role's side's win share over the cells, lowest and highest (each cell's
    own 95% Wilson interval), per player count, and how many cells fall below 25%, from 25% to 50%
    and above 50% (point estimates, :func:`share_bands`); then each other side's range in one
    sentence. The cells are summarised (:func:`cells_summary`); the page's table has each."""
    sides, metrics, every = _side_rows(cells)
    if not metrics:
        return []
    out = []
    for k, metric in enumerate(metrics):
        r = sides.filter(pl.col("metric") == metric).sort("estimate")
        who = r["what"][0].removesuffix(" win share")
        lo, hi = r.row(0, named=True), r.row(-1, named=True)
        low_at = r.filter(pl.col("estimate") == lo["estimate"]).sort("cell")["label"].to_list()
        high_at = r.filter(pl.col("estimate") == hi["estimate"]).sort("cell")["label"].to_list()
        if r.height == 1 or lo["estimate"] == hi["estimate"]:
            span = f"{who} win share is {_cell_pct(lo)}" + (f" in every one of the {r.height} cells"
                                                             if r.height > 1 else "")
        else:
            span = (f"{who} win share runs from {_cell_pct(lo)} {_where(low_at, every)} to "
                    f"{_cell_pct(hi)} {_where(high_at, every)}")
        if k:
            out.append(f"The other side: {span}.")
            continue
        per = []
        players = sorted(set(r["players"].to_list()))
        if len(players) > 1:
            for p in players:
                mine = r.filter(pl.col("players") == p)
                a, b = mine["estimate"].min(), mine["estimate"].max()
                said = (f"{_pct(a)}% in every one" if _pct(a) == _pct(b)
                        else f"{_pct(a)}% to {_pct(b)}%")
                per.append(f"{p}p {said} ({mine.height} cell{'s' if mine.height != 1 else ''})")
        band = share_bands(r["estimate"])
        out.append(f"The finding, by side: {span} (the share of games the side wins, over the {n} "
                   f"cell{'s' if n != 1 else ''}; each cell's own 95% Wilson interval; a game with roles has "
                   "no fair share per side to test it against)."
                   + (f" By player count: {'; '.join(per)}." if per else "")
                   + (f" Point estimates, {BANDS_WORDS}: {band}." if r.height > 1 else ""))
    return out


#: how a page of a game with roles introduces :func:`share_bands` (review s42 A #7: "below 25%" right
#: after "no fair share per side" read as a fair-share line, 25% being 1/P at 4 players)
BANDS_WORDS = "counted in fixed bands of the games won (a quarter, a half), not against a fair share"


def share_bands(shares: pl.Series) -> str:
    """How many of the cells' win shares (``shares``, one a cell) fall below 25%, from 25% to 50%
    and above 50%, the counts of 0 left out: ``"below 25% in 2 cells, 25% to 50% in 1 cell"``,
    ``"below 25% in all 36 cells"``, ``"below 25% in both cells"`` (:func:`side_finding`; the
    before/after page's levels). The bands are fixed (a quarter and a half of the games), not a fair
    share: a game with roles has none, and its pages say so beside them (:data:`BANDS_WORDS`)."""
    bands = [(int((shares < 0.25).sum()), "below 25%"),
             (int(((shares >= 0.25) & (shares <= 0.5)).sum()), "25% to 50%"),
             (int((shares > 0.5).sum()), "above 50%")]
    said = [(k, w) for k, w in bands if k]
    if len(shares) == 1:                # (a panel of one cell: "below 25% in all 1 cells")
        return f"{said[0][1]} in its one cell"
    return (f"{said[0][1]} in {_all(len(shares))} cells" if len(said) == 1 else
            ", ".join(f"{w} in {k} cell{'s' if k != 1 else ''}" for k, w in said))


def role_wins(cells: pl.DataFrame) -> dict:
    """(cell, role) → the games the role's side won in the cell (its win share × the cell's games,
    a shared win counted as the side's share of it), from the side rows."""
    sides = cells.filter(pl.col("metric").str.starts_with("role_win_share_"))
    return {(r["cell"], r["metric"].removeprefix("role_win_share_")): r["estimate"] * r["games"]
            for r in sides.iter_rows(named=True)}


def split_finding(cells: pl.DataFrame, n: int, smallest: float) -> list[str]:
    """The last sentences of :func:`role_finding`: per role of several seats, one headline on its
    seats' shares of its wins (s37 #4: "The finding: the Censitaires' seats do not win equally
    often", then "The finding does not hold in every cell" read as a contradiction): "Censitaire
    seats split the Censitaires' wins unequally in 7 of the 36 cells: …", the calls and sizes of
    :func:`role_seat_calls` as they are (Holm over every seat of every cell, sizes on Bonferroni intervals over the same family),
    the cells summarised. The largest gap is named only from a cell where the role won at least
    :data:`MIN_ROLE_WINS` games (a clear gap first): a split of 2 wins cannot be read."""
    if "role" not in cells.columns:
        return []
    seats = cells.filter(pl.col("metric").str.starts_with("role_seat_share_"))
    _, _, every = _side_rows(cells)
    wins = role_wins(cells)
    m = seats.height
    that = f"{100 * smallest:g} pp"
    out = []
    for role in dict.fromkeys(seats["role"].to_list()):
        part = seats.filter(pl.col("role") == role).sort(["cell", "seat"])
        label = part["role_label"][0]
        cells_of = list(dict.fromkeys(part["label"].to_list()))
        have = len(cells_of)
        per_cell = {}
        for lab in cells_of:
            hit = part.filter((pl.col("label") == lab) & pl.col("clear").fill_null(False))["verdict"].to_list()
            per_cell[lab] = min(hit, key=VERDICT_ORDER.index) if hit else None
        hits = [c for c, v in per_cell.items() if v is not None]
        within = "cells" if have == n else f"cells with {label} seats to compare"
        sizes = []
        for verdict, words in ((LARGE, f"by at least {that} of the {label}s' wins (clear and large enough to matter)"),
                               (MAY_MATTER, f"perhaps by {that} or more (clear, may matter: these games cannot tell)"),
                               (SMALL, f"by less than {that} (clear but small)")):
            at = [c for c in hits if per_cell[c] == verdict]
            if at and len(at) == len(hits):          # one size for every clear cell
                sizes.append(f"in that cell ({at[0]}), {words}" if len(at) == 1 else f"{words} in {'both' if len(at) == 2 else f'all {len(at)} of them'}")
            elif at:
                sizes.append(f"{words} in {len(at)} ({cells_summary(at, every)})")
        if hits:
            head = (f"{label} seats split the {label}s' wins unequally in "
                    + (f"{_all(have)} {within}" if len(hits) == have else f"{len(hits)} of the {have} {within}")
                    + f": some seat's share of the {label}s' wins is clearly off an equal split, "
                    + "; ".join(sizes))
            if len(hits) < have:
                rest = [c for c in cells_of if c not in hits]
                head += (f"; in the other {len(rest)} ({cells_summary(rest, every)}) no seat is clearly off it"
                         if len(rest) > 1 else f"; in the other, {rest[0]}, no seat is clearly off it")
        else:
            head = (f"{label} seats split the {label}s' wins unequally in none of the {have} {within}: no "
                    f"seat's share of the {label}s' wins is clearly off an equal split")
        # the largest gap, only where the role won enough games to read a split of them
        readable = part.filter(pl.Series([wins.get((c, role), 0.0) >= MIN_ROLE_WINS for c in part["cell"]]))
        few = [c for c in cells_of if c not in set(readable["label"].to_list())]
        pool = readable.filter(pl.col("clear").fill_null(False))
        pool = pool if pool.height else readable
        if pool.height:
            top = pool.with_columns((pl.col("estimate") - pl.col("fair")).abs().alias("_gap")).sort(
                ["_gap", "cell"], descending=[True, False]).row(0, named=True)
            cell = part.filter(pl.col("cell") == top["cell"]).sort("estimate")
            lo, hi = cell.row(0, named=True), cell.row(-1, named=True)
            gap = (f"the largest {'clear ' if top['clear'] else ''}gap is in {top['label']} "
                   f"({wins[(top['cell'], role)]:,.0f} {label} wins): Seat {hi['seat']} takes {_cell_pct(hi)} "
                   f"of the {label}s' wins and Seat {lo['seat']} {_cell_pct(lo)}, against an equal "
                   f"{_pct(top['fair'])}% each (unadjusted 95% Wilson intervals), and win "
                   f"{_pct_ci(hi['win_share'], hi['win_low'], hi['win_high'])} and "
                   f"{_pct_ci(lo['win_share'], lo['win_low'], lo['win_high'])} of all games")
            if not top["clear"]:
                gap += "; that gap is not clear after the adjustment"
        else:
            gap = (f"no cell has {MIN_ROLE_WINS} {label} wins or more, too few to name a largest gap "
                   f"in how they split")
        if few and pool.height:
            gap += (f"; not ranked, with fewer than {MIN_ROLE_WINS} {label} wins each (too few to read a "
                    f"split): {cells_summary(few, every)}")
        no_seats = ("" if have == n else f"; {n - have} of the {n} cells {'has' if n - have == 1 else 'have'} "
                    f"no {label} seats to compare (fewer than two {label}s, or no {label} win)")
        family = (f" (clear: Holm over the panel's {m} seat × cell comparisons of a seat's share of "
                  f"its role's wins with an equal split, every seat of a role of several seats in "
                  f"every cell, exact binomial tests of a seat's wins among its role's (Wald tests from "
                  f"the cell's seat covariance where wins are shared or seats rotate); the chance that any of "
                  f"these calls is wrong is at most {100 * ALPHA:g}%; sizes read on Bonferroni intervals over "
                  f"the same {m})")
        out.append(f"{head}. {gap[:1].upper() + gap[1:]}{no_seats}{family}.")
    return out


def role_finding(cells: pl.DataFrame, n: int, smallest: float = 0.01) -> list[str]:
    """The lead of a panel of a game with roles (no fair share per seat), one paragraph each, as
    the panel page prints it (:attr:`PanelTable.lead`): first the sides (:func:`side_finding`: the
    lone role's side's win share over the ``n`` cells, lowest and highest with each cell's own 95%
    Wilson interval, per player count and by band; then the other side's range), then, for each
    role of several seats, one headline on how its seats split its wins (:func:`split_finding`: in
    how many cells some seat's share of the role's wins is clearly off an equal split, Holm over
    every such seat of every cell (:func:`role_seat_calls`), those cells by size, and the largest
    gap, named only from a cell where the role won at least :data:`MIN_ROLE_WINS` games). The
    cells are summarised (:func:`cells_summary`); ``smallest`` is the smallest difference that
    matters, in a share of the role's wins. ``cells``: the panel's rows with the calls of
    :func:`role_seat_calls`."""
    return side_finding(cells, n) + split_finding(cells, n, smallest)


def finding(cells: pl.DataFrame, spec, n: int, smallest: float = 0.01) -> str:
    """The finding sentence; a cell's call (above, below or unclear) is from its adjusted interval
    (:func:`adjusted_seat_intervals`: Bonferroni over every seat of every cell, so the calls hold
    together whichever seat the data pick); the cells where the seat is clearly on its side of 1/P
    are split by size, read on that adjusted interval (:func:`analysis.stats.practical`): all of it
    at least ``smallest`` from 1/P ("clear and large enough to matter"), all of it closer ("clear but
    small"), or reaching both ("clear, may matter": these games cannot tell). Counts of 0 are left
    out (no "in 0 of those 1"): the counts printed add up to the cells they split; when no cell is
    clear on the seat's side, the sentence answers :func:`finding_statement`'s question in words
    ("No cell shows it: … in none of the 3 cells") and names the clear calls on other seats, or
    that there are none (:func:`_other_seats_clear`)."""
    seats, m, _ = adjusted_seat_intervals(cells)
    key, mean_gap = picked_seat(seats)
    up = mean_gap > 0
    s = seats.filter(pl.col("metric") == key)
    above = int((s["adj_low"] > s["fair"]).sum())
    below = int((s["adj_high"] < s["fair"]).sum())
    seat = int(key.rsplit("_", 1)[1])
    role = "" if spec.roles_alike else f" ({spec.seat_roles(int(s['players'][0]))[seat - 1]})"
    who = f"Seat {seat}{role}"
    side = "more" if up else "less"
    hits = above if up else below
    side_rows = (s.filter(pl.col("adj_low") > pl.col("fair")) if up
                 else s.filter(pl.col("adj_high") < pl.col("fair")))
    words = practical((side_rows["estimate"] - side_rows["fair"]).to_numpy(),
                      (side_rows["adj_low"] - side_rows["fair"]).to_numpy(),
                      (side_rows["adj_high"] - side_rows["fair"]).to_numpy(), smallest - 1e-12)
    large, small = int((words == LARGE).sum()), int((words == SMALL).sum())
    may = hits - large - small
    that = f"{100 * smallest:g} pp"
    size = _by_size([(f"by at least {that} (clear and large enough to matter)", large),
                    (f"perhaps by {that} or more (clear, may matter: these games cannot tell)", may),
                    (f"by less than {that} (clear but small)", small)], hits)
    spread = _spread(s)
    family = (f" ({'clear' if hits else 'calls'}: {100 * (1 - ALPHA):g}% intervals simultaneous over the "
              f"panel's {m} seat × cell comparisons with 1/P, every seat of every cell, Bonferroni; the "
              f"chance that any of the calls is wrong is at most {100 * ALPHA:g}%)")
    have = s.height
    if not hits:
        # the finding's seat is clearly on its side in no cell: the finding was put as a question
        # (:func:`finding_statement`), this answers it, then says what is clear (review N #4)
        where = f"{have} cells with a seat {seat}" if have < n else f"{n} cells"
        none = ""
        if have < n:
            counts = sorted(set(seats["players"].to_list()) - set(s["players"].to_list()))
            none = (f"; {n - have} of the {n} cells have no seat {seat} "
                    f"({', '.join(map(str, counts))} player{'s' if counts != [1] else ''})")
        return (f"No cell shows it: {who} wins {side} than a fair seat share (1/P) in none of the "
                f"{where} ({_calls(above, below, have)}){none}; {spread}{family}. "
                + _other_seats_clear(cells, key, smallest))
    if have < n:
        # cells at fewer players have no such seat: they are neither above, below nor unclear
        counts = sorted(set(seats["players"].to_list()) - set(s["players"].to_list()))
        none = (f"{n - have} of the {n} cells have no seat {seat} "
                f"({', '.join(map(str, counts))} player{'s' if counts != [1] else ''})")
        if hits == have:
            return (f"The finding holds in every cell that has a seat {seat}, not in every cell: {who} "
                    f"wins {side} than a fair seat share (1/P) in {_all(have)} cells with a seat "
                    f"{seat}{size}; {none}; {spread}{family}.")
        return (f"The finding does not hold in every cell: {who} wins {side} than a fair seat share "
                f"(1/P) in {hits or 'none'} of the {have} cells with a seat {seat} "
                f"({_calls(above, below, have)}){size}; {none}; {spread}{family}.")
    if hits == n:
        return (f"The finding holds in every cell: {who} wins {side} than a fair "
                f"seat share (1/P) in {_all(n)} cells{size}; {spread}{family}.")
    return (f"The finding does not hold in every cell: {who} wins {side} than a fair seat share (1/P) "
            f"in {f'{hits} of {n}' if hits else f'none of the {n}'} cells ({_calls(above, below, n)}){size}; "
            f"{spread}{family}.")


def _other_seats_clear(cells: pl.DataFrame, key: str, smallest: float, most: int = 5) -> str:
    """When the finding's seat (``key``) is clear in no cell: the clear calls on the other seats, on
    the same adjusted intervals (:func:`seat_calls`), largest gap first, or that there is none, so
    that the lead does not put forward a seat no cell shows and leave out the one it does (review N
    #4: Seat 1 in 4p 4×balanced, 8.3 pp below 1/P, clear and large enough to matter, only named as
    "the largest gap among the other seats")."""
    calls = (seat_calls(cells, smallest).filter((pl.col("metric") != key) & pl.col("side").is_not_null())
             .with_columns(pl.col("gap").abs().alias("_a")).sort("_a", descending=True))
    if calls.height == 0:
        return "No other seat is clearly off 1/P in any cell either."
    said = "; ".join(f"Seat {r['metric'].rsplit('_', 1)[1]} in {r['label']}, "
                     f"{_fair_pp(r['estimate'], r['fair'], signed=False)} "
                     f"{r['side']} 1/P ({r['size']})" for r in calls.head(most).iter_rows(named=True))
    more = f"; and {calls.height - most} more" if calls.height > most else ""
    if calls.height == 1:
        return f"The only clear call is about another seat, on the same intervals: {said}."
    return f"The clear calls are about other seats, on the same intervals: {said}{more}."


def _spread(s: pl.DataFrame) -> str:
    """The range of the finding's seat over the cells that have it (``s``: its rows). At one player
    count, its win share ("its win share runs from 19.6% (4p a) to 27.4% (4p b)"); over several, its
    gap from each cell's own 1/P, each end with its win share and that 1/P: 37.2% at 3 players is
    +3.8 pp over its fair share, 14.8% at 5 players −5.3 pp under its own, and the raw shares are not
    comparable across player counts (review G, panel #2)."""
    if s["players"].n_unique() == 1:
        lo_row = s.sort("estimate").row(0, named=True)
        hi_row = s.sort("estimate").row(-1, named=True)
        return (f"its win share runs from {_pct(lo_row['estimate'])}% ({lo_row['label']}) to "
                f"{_pct(hi_row['estimate'])}% ({hi_row['label']})")
    by_gap = s.with_columns((pl.col("estimate") - pl.col("fair")).alias("_gap")).sort("_gap")

    def end(r) -> str:
        return (f"{_fair_pp(r['estimate'], r['fair'])} ({r['label']}: {_pct(r['estimate'])}% against 1/P = "
                f"{100 * r['fair']:.3g}%)")

    return (f"its gap from 1/P (win share minus the cell's own 1/P) runs from "
            f"{end(by_gap.row(0, named=True))} to {end(by_gap.row(-1, named=True))}")


def _mean_gaps(seats: pl.DataFrame) -> pl.DataFrame:
    """Every seat's mean gap from 1/P over the cells that have it (``metric``, ``d``), weighted
    by the cells' ``weight`` (the panel's, :func:`_cell_weights`; review s61 #5: the mean ignored
    them), largest in size first: the ranking :func:`picked_seat` picks from."""
    w = pl.col("weight").fill_null(1.0) if "weight" in seats.columns else pl.lit(1.0)
    d = pl.col("estimate") - pl.col("fair")
    return (seats.with_columns(d.alias("d"), pl.when(d.is_not_null()).then(w).alias("_w"))
            .group_by("metric", maintain_order=True)
            # (the plain mean where the cells that have the seat all weigh 0)
            .agg(pl.when(pl.col("_w").sum() > 0)
                 .then((pl.col("d") * pl.col("_w")).sum() / pl.col("_w").sum())
                 .otherwise(pl.col("d").mean()).alias("d"))
            .sort(pl.col("d").abs(), descending=True, maintain_order=True))


def _weighting(s: pl.DataFrame) -> tuple[str, str]:
    """How the finding's mean over the cells ``s`` (its seat's rows) is said: ("on average", "")
    when the cells weigh alike, else ("on weighted average", " (the panel's weights: 3 for 3p
    3×balanced, 1 for 4p 4×greedy)"), so that the mean printed is the one the numbers beside it
    give."""
    if "weight" not in s.columns or s["weight"].fill_null(1.0).n_unique() <= 1:
        return "on average", ""
    named = ", ".join(f"{w:g} for {c}" for w, c in zip(s["weight"].fill_null(1.0), s["label"]))
    return "on weighted average", f" (the panel's weights: {named})"


def picked_seat(seats: pl.DataFrame) -> tuple[str, float]:
    """The seat the finding is about (its metric, ``seat_win_share_<s>``) and its mean gap from 1/P:
    the seat whose win share minus the cell's 1/P, averaged over the cells that have it (weighted
    as the panel weighs its cells: :func:`_mean_gaps`), is largest in size (``seats``: the seat
    rows of a panel's cells)."""
    dev = _mean_gaps(seats)
    return dev["metric"][0], float(dev["d"][0])


def _fair_text(rows: pl.DataFrame) -> str:
    """1/P as a page says it: ``"1/P = 25%"``, or per player count when the cells differ
    (``"1/P: 25% at 4 players, 33.3% at 3"``)."""
    by = rows.select("players", "fair").unique().sort("players", descending=True)
    if by.height == 1:
        return f"1/P = {100 * by['fair'][0]:.3g}%"
    return "1/P: " + ", ".join(f"{100 * f:.3g}% at {p}" + (" players" if i == 0 else "")
                               for i, (p, f) in enumerate(by.iter_rows()))


def finding_statement(cells: pl.DataFrame, spec) -> str:
    """What the finding of a panel of a game whose seats are alike is, and why that seat, said
    before whether it holds (:func:`finding`): the seat whose win share is furthest from a fair seat
    share 1/P on average over the panel's cells (:func:`picked_seat`), on the side of that mean.
    The seat is picked from the data, which is why the finding's calls are adjusted over every seat
    of every cell.

    When the cells disagree (the seat is clearly above 1/P in one cell and clearly below in
    another, on the intervals adjusted over the panel as :func:`finding` reads them), no side is
    stated for the whole panel: the sentence says the seat is furthest from fair on average and
    where it is below and where above, with each cell's gap (revF #10: "Seat 1 wins less than a
    fair seat share" while the seat won clearly more in one cell). When the seat is clearly on
    that side in no cell, the finding holds nowhere, so it is asked, not stated: "The question:
    does Seat 3 win more than a fair seat share (1/P = 25%)? …" (review N #4), and
    :func:`finding` answers it."""
    adjusted, _, _ = adjusted_seat_intervals(cells)
    key, mean_gap = picked_seat(adjusted)
    s = adjusted.filter(pl.col("metric") == key).sort("cell")
    seat = int(key.rsplit("_", 1)[1])
    role = "" if spec.roles_alike else f" ({spec.seat_roles(int(s['players'][0]))[seat - 1]})"
    side = "more" if mean_gap > 0 else "less"
    n = s.height
    # the numbers behind "furthest on average" are gaps from each cell's own 1/P, never raw win
    # shares: those are not comparable across player counts (review G, panel #2)
    # (each the cell table's printed share minus the printed 1/P: _fair_pp)
    gaps = ", ".join(f"{_fair_pp(x, f)} in {c}" for x, f, c in zip(s["estimate"], s["fair"], s["label"]))
    ranked = _mean_gaps(adjusted)
    runner = (f"the next, Seat {ranked['metric'][1].rsplit('_', 1)[1]}: {_pp(float(ranked['d'][1]))}"
              if ranked.height > 1 else "")
    avg, weighed = _weighting(s)           # (review s61 #5: a weighted panel's mean, said so)
    over = (f"the panel's {n} cells that have a seat {seat}" if n < cells["cell"].n_unique()
            else f"the panel's {n} cells" if n > 1 else "the panel's one cell") + weighed
    why = (f"as the seat is picked from the data, the calls below are adjusted over every seat of "
           "every cell.")
    above = s.filter(pl.col("adj_low") > pl.col("fair"))
    below = s.filter(pl.col("adj_high") < pl.col("fair"))
    if above.height and below.height:
        def where(rows: pl.DataFrame, word: str) -> str:
            labels = rows["label"].to_list()
            gaps = ", ".join(_fair_pp(x, f) for x, f in zip(rows["estimate"], rows["fair"]))
            named = labels[0] if len(labels) == 1 else f"{', '.join(labels[:-1])} and {labels[-1]}"
            return f"{word} in {named} ({gaps})"
        noise = s.filter((pl.col("adj_low") <= pl.col("fair")) & (pl.col("adj_high") >= pl.col("fair")))
        parts = [where(below, "below"), where(above, "above")]
        if noise.height:
            parts.append(where(noise, "within noise"))
        return (f"The finding: Seat {seat}{role} is furthest from a fair seat share ({_fair_text(s)}) on "
                f"{avg.removeprefix('on ')} over {over} ({_pp(mean_gap)}), but not on one side of it: "
                f"{', '.join(parts[:-1])} and {parts[-1]} (clear on the adjusted intervals). Seat {seat} "
                f"is the seat picked because its mean gap from 1/P (win share minus the cell's own 1/P, "
                f"averaged over the cells{', weighted' if weighed else ''}), {_pp(mean_gap)}, is the "
                f"largest in size of any seat's"
                f"{f' ({runner})' if runner else ''}; {why}")
    beside = f"; {runner} {avg}" if runner else ""
    if not (above if mean_gap > 0 else below).height:
        # clear on its side in no cell: a question, not a finding stated as fact (review N #4)
        return (f"The question: does Seat {seat}{role} win {side} than a fair seat share "
                f"({_fair_text(s)})? Seat {seat} is the seat picked because its win share is furthest "
                f"from 1/P {avg} over {over}: {_pp(mean_gap)} {avg} (its gap from 1/P: "
                f"{gaps}{beside}); {why}")
    k = (above if mean_gap > 0 else below).height
    # clear on its side in some cells only: the statement says where (the designer review read
    # "The finding: Seat 1 wins more …" as a fact, two paragraphs above "holds in 1 of 3 cells")
    head = "The finding" if k == n else f"The finding, clear in {k} of the {n} cells"
    return (f"{head}: Seat {seat}{role} wins {side} than a fair seat share ({_fair_text(s)}). "
            f"Seat {seat} is the seat picked because its win share is furthest from 1/P {avg} "
            f"over {over}: {_pp(mean_gap)} {avg} (its gap from 1/P: {gaps}{beside}); {why}")


def _pp(d: float, signed: bool = True, digits: int = 1) -> str:
    """A gap in pp to ``digits`` decimals, signed (``"−5.1 pp"``, ``"+2.4 pp"``) as
    :func:`reports.text.signed` signs it: a value that prints as zero has no sign (``"0.0 pp"``,
    never ``"−0.0 pp"``, which reads as a loss: review s42 K #7)."""
    x = numbers.rounded(abs(100 * d), digits)           # (halves as the tables round them)
    text = f"{x:.{digits}f} pp"
    return (("+" if d > 0 else "−") + text) if signed and x != 0 else text


def _fair_pp(share: float, fair: float, signed: bool = True, digits: int = 1) -> str:
    """A seat's gap from 1/P in pp as :func:`_pp` prints it, but as the share printed at ``digits``
    decimals minus 1/P so printed (:func:`simcore.numbers.fair_gap`), so that a gap beside its share
    ("24.6%, 0.4 pp below 1/P", not "0.5 pp" for 24.55%) or beside the cell table's share adds up, as
    ``simulate``'s closing table and the before/after print it (review s55 #1, session 56)."""
    return _pp(numbers.fair_gap(100 * share, 100 * fair, digits) / 100, signed, digits)


def _interval_digits(low: float, high: float, smallest: float, most: int = 3) -> int:
    """The decimals an adjusted interval of a gap (a share, in pp) prints with beside its call
    (:func:`simcore.numbers.verdict_digits`, the reports' rule), so that each printed end lies on
    the side its call was read from: "−0.04 pp to +5.5 pp, within noise", not "−0.0 pp to +5.5 pp"
    (review s42 K #7)."""
    return numbers.verdict_digits(low, high, smallest, 100.0, 1, most)


NOISE = "within noise"           # the page's word for a gap whose adjusted interval holds 1/P


def seat_calls(cells: pl.DataFrame, smallest: float = 0.01) -> pl.DataFrame:
    """Every seat row of ``cells`` (games whose seats are alike) with ``gap`` (its win share minus
    1/P), its interval adjusted over the panel (``gap_low``/``gap_high``: the Bonferroni
    simultaneous intervals of :func:`adjusted_seat_intervals` minus 1/P), ``side`` ("above",
    "below", or null when the adjusted interval holds 1/P) and ``size``: the verdict read on that
    adjusted interval (:func:`analysis.stats.practical` against ``smallest``), :data:`NOISE` when
    it is not clear."""
    seats, _, _ = adjusted_seat_intervals(cells)
    gap = (seats["estimate"] - seats["fair"]).to_numpy().astype(float)
    low = (seats["adj_low"] - seats["fair"]).to_numpy().astype(float)
    high = (seats["adj_high"] - seats["fair"]).to_numpy().astype(float)
    clear = (low > 0) | (high < 0)
    words = np.atleast_1d(practical(gap, low, high, smallest - 1e-12, clear=clear))
    side = np.where(low > 0, "above", np.where(high < 0, "below", None))
    size = np.where(clear, words, NOISE)
    return seats.with_columns(pl.Series("gap", gap), pl.Series("gap_low", low), pl.Series("gap_high", high),
                              pl.Series("side", side.tolist(), dtype=pl.String),
                              pl.Series("size", size.tolist(), dtype=pl.String))


def cell_calls(cells: pl.DataFrame, smallest: float = 0.01) -> tuple[dict, str]:
    """Per cell (its index), the finding's call on the finding's seat there: ``"below 1/P: clear and
    large enough to matter"``, ``"unclear (within noise)"``, or ``"no seat 4"`` in a cell without that seat;
    and the column's heading (the seat, and that the calls are adjusted over the panel)."""
    calls = seat_calls(cells, smallest)
    key, _ = picked_seat(calls)
    seat = int(key.rsplit("_", 1)[1])
    out = {c: f"no seat {seat}" for c in cells["cell"].unique().to_list()}
    for r in calls.filter(pl.col("metric") == key).iter_rows(named=True):
        out[r["cell"]] = f"{r['side']} 1/P: {r['size']}" if r["side"] else f"unclear ({NOISE})"
    return out, f"Seat {seat} against 1/P (the finding's call, adjusted over the panel)"


def largest_gaps(cells: pl.DataFrame, smallest: float = 0.01) -> str:
    """One sentence per cell: the finding's seat there and the largest gap from 1/P among the
    cell's other seats (seats tied on it named together), each with its win share and the cell's
    own 95% Wilson interval (unadjusted), the gap in pp (the printed share minus the printed 1/P, at
    the share's decimals: :func:`_fair_pp`) and its size read on the interval adjusted over the
    panel (:func:`seat_calls`: the finding's family, every seat of every cell, so the wording of a
    gap picked from the data holds with the panel's other calls)."""
    calls = seat_calls(cells, smallest).with_columns(pl.col("gap").abs().alias("_a"))
    key, _ = picked_seat(calls)

    def said(r) -> str:
        where = "above" if r["gap"] > 0 else "below" if r["gap"] < 0 else "at"
        d = _interval_digits(r["gap_low"], r["gap_high"], smallest)
        share = _pct_ci(r["estimate"], r["low"], r["high"])
        k = len(share.split("%")[0].split(".")[1])       # (the share's decimals: the gap's)
        gap = _fair_pp(r["estimate"], r["fair"], signed=False, digits=k)
        return (f"{share}, {gap} {where} "
                f"1/P: {r['size']} (adjusted interval {_pp(r['gap_low'], digits=d)} to "
                f"{_pp(r['gap_high'], digits=d)})")

    out = []
    for c in sorted(calls["cell"].unique().to_list()):
        rows = calls.filter(pl.col("cell") == c)
        label = rows["label"][0]
        mine = rows.filter(pl.col("metric") == key)
        head = (f"In {label}, Seat {key.rsplit('_', 1)[1]} wins {said(mine.row(0, named=True))}"
                if mine.height else f"{label} has no seat {key.rsplit('_', 1)[1]}")
        rest = rows.filter(pl.col("metric") != key)
        if rest.height:
            top = rest.filter(pl.col("_a") == rest["_a"].max()).sort("metric")
            seats = [f"Seat {m.rsplit('_', 1)[1]}" for m in top["metric"].to_list()]
            whose = (f"{seats[0]}'s" if len(seats) == 1 else
                     " and ".join(seats) + "'s, each")
            head += (f"; the largest gap among the other seats is {whose}: "
                     + "; ".join(said(r) for r in top.iter_rows(named=True)))
        out.append(head + ".")
    return (" ".join(out) + " (Win shares with the cell's own 95% Wilson interval, unadjusted; each "
            "size read on the interval adjusted over the panel, as the finding's calls are.)")


def _all(k: int) -> str:
    """``"both"`` for 2, ``"all k"`` otherwise: "in both cells", "in all 3 cells"."""
    return "both" if k == 2 else f"all {k}"


def _calls(above: int, below: int, cells: int) -> str:
    """The cells' calls, ``"1 above, 2 unclear"``: the counts of 0 left out (they add up to
    ``cells``, which is at least 1)."""
    parts = [(above, "above"), (below, "below"), (cells - above - below, "unclear")]
    return ", ".join(f"{k} {w}" for k, w in parts if k)


def _by_size(counts: list[tuple[str, object]], hits: int) -> str:
    """How far a seat is off its mark in the ``hits`` cells where it is clearly on its side, in
    reading order (large enough to matter, may matter, clear but small), each wording with its
    count of cells, the counts of 0 left out (the counts shown add up to ``hits``). A count is a
    number, or the cells' names (a list: up to 5 named per count, :func:`_cells_named`):
    ``"; of those 3, by at least 1 pp (…) in 2 (4p a, 4p b), by less than 1 pp (…) in 1 (4p c)"``;
    ``"; in that cell (4p a), by …"`` for one cell; ``"; by … in all 3 of them"`` (``"in both"``
    for 2) when one wording holds them all; ``""`` when there is no such cell."""
    shown = [(words, x) for words, x in counts if x]
    if not hits:
        return ""
    named = isinstance(shown[0][1], list)
    if hits == 1:
        return f"; in that cell{f' ({shown[0][1][0]})' if named else ''}, {shown[0][0]}"
    if len(shown) == 1:
        return f"; {shown[0][0]} in {'both' if hits == 2 else f'all {hits} of them'}"
    return f"; of those {hits}, " + ", ".join(
        f"{words} in {len(x)}{_cells_named(x)}" if isinstance(x, list) else f"{words} in {x}"
        for words, x in shown)


__all__ = ["PanelTable", "panel_table", "cell_runs", "is_panel_dir", "adjusted_seat_intervals", "finding",
           "finding_statement", "largest_gaps", "seat_calls", "cell_calls", "picked_seat",
           "role_seat_calls", "role_finding", "side_finding", "split_finding", "cells_summary",
           "share_bands", "BANDS_WORDS", "MIN_ROLE_WINS", "NAMED_CELLS"]


# ---------------------------------------------------------------------------------------------
# A designer's --target judged in every cell of a panel

def judge_cells(runs, labels, targets) -> pl.DataFrame:
    """A designer's ``--target``s (seat balance, a role's share) judged on every cell's seat win
    shares (:func:`analysis.skill_target.judge` over the cells' :func:`analysis.skill_target.run_rows`:
    each cell's own bots, Wilson intervals at the cell's effective games, Bonferroni over every
    share judged on the page); one row per cell, target and share read."""
    from analysis.seats import seat_table
    from analysis.skill_target import judge, run_rows

    rows = []
    for r, label in zip(runs, labels):
        rs = open_runs([r])
        spec = registry.get(rs.game)
        rows.append(run_rows(label, seat_table(rs), spec.seat_roles(rs.n_players)))
    return judge(pl.concat(rows), tuple(targets))


def target_finding(judged: pl.DataFrame, targets, role_labels: dict[str, str] | None = None) -> list[str]:
    """What the panel says of each ``--target`` (``judged``: :func:`judge_cells`): in how many
    cells it is met, missed or unclear, the cells named (:func:`cells_summary`; with its share and
    interval when at most :data:`NAMED_CELLS` cells share an outcome), then the intervals' level.
    "Design target role=seigneur:25%:5 (the Seigneur's win share from 20.0% to 30.0%): missed in 3
    of the 4 cells (…); met in 1 (4p harsh-lord + 3×fair-share: 24.1%, 21.0–27.4)."."""
    from analysis.skill_target import _band_words, _decided_words, _deciding

    role_labels = role_labels or {}
    if not judged.height:
        return []
    every = list(dict.fromkeys(judged["cell"].to_list()))
    out = []
    for t in targets:
        rows = judged.filter(pl.col("target") == t.text)
        if not rows.height:
            continue
        decided = {c: _deciding(part) for c in every if (part := rows.filter(pl.col("cell") == c)).height}
        n = len(decided)
        players = sorted(set(rows["players"].to_list()))
        label = role_labels.get(t.role, (t.role or "").capitalize())
        band = (_band_words(t, int(players[0]), label) if len(players) == 1 or t.kind != "seat-balance"
                else f"every seat's win share within {100 * t.tol:g} pp of its fair share")
        parts = []
        for outcome in ("met", "missed", "unclear"):
            names = [c for c, q in decided.items() if q["budget_outcome"] == outcome]
            if not names:
                continue
            head = ((f"{outcome} in both cells" if n == 2 else f"{outcome} in all {n} cells")
                    if len(names) == n and n > 1 else outcome if n == 1
                    else f"{outcome} in {len(names)} of the {n} cells" if not parts
                    else f"{outcome} in {len(names)}")
            if len(names) <= NAMED_CELLS:     # each with the share that decides it
                said = "; ".join((f"{c}: " if n > 1 else "") + _decided_words(decided[c], t).split(" (", 1)[1][:-1]
                                 for c in names)
            else:                             # every cell: no list; else the cells, summarised
                said = "" if len(names) == n else cells_summary(names, every)
                if outcome == "missed":
                    # how far off: the cell nearest the band, with its share (designer review: a bare
                    # "missed in all 4 cells" left the designer guessing by how much)
                    near = min(names, key=lambda c: max(decided[c]["band_low"] - decided[c]["win_share"],
                                                        decided[c]["win_share"] - decided[c]["band_high"]))
                    said += ("; " if said else "") + f"nearest the band, {near}: " + \
                        _decided_words(decided[near], t).split(" (", 1)[1][:-1]
            parts.append(f"{head} ({said})" if said else head)
        out.append(f"Design target {t.text} ({band}): " + "; ".join(parts) + ".")
    level = float(judged["level"][0])
    # (the page bolds a lead sentence up to its first ": ": the question, not the whole sentence)
    if judged.height == 1:       # one cell, one share: no family to adjust over ("the 1 shares")
        return out + [f"How the target is read: its interval at {100 * level:.4g}%, the one share "
                      "judged; met, the interval inside the target's band; missed, wholly outside it; "
                      "unclear, neither (more games would tell)."]
    return out + [f"How the targets are read: each interval at {100 * level:.4g}%, Bonferroni over the "
                  f"{judged.height} shares judged, all of them together at 95%; met, every interval "
                  "inside the target's band; missed, one wholly outside it; unclear, neither (more "
                  "games would tell)."]
