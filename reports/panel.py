"""The page of a panel: the runs of its cells side by side, and of a sweep over a panel.

:func:`build_panel_report` reads the runs of a panel (:func:`analysis.panel.panel_table`: a tune's
``confirmations/trial-N/`` or any run directories of one game) and writes one page. Its lead is
the analysis layer's (:attr:`analysis.panel.PanelTable.lead`), rendered as it is: this module
words none of it. It says first what the finding is (which seat, and why that one), whether it
holds in every cell, and a sentence per cell on its largest gaps from 1/P; in a game with roles
(no fair share per seat), each side's win share over the cells, then, for a role of several
seats, whether its seats take equal shares of its wins (:func:`analysis.panel.role_finding`).
Then the cell × metric table (the finding's call in each cell, then every seat's and role's win
share with its 95% Wilson interval; the game length, in the game's unit, in a table of its own) and
a figure of every seat's win share per cell with its interval beside the fair share 1/P; in a game
with roles the table adds each seat's share of its role's wins, and its call column is the call on
each cell's split of a role's wins, naming the seat (:func:`analysis.panel.role_cell_calls`), and
the figure draws the sides and those shares against an equal split, no 1/P line. Every share and change is printed as
:mod:`reports.text` rounds it (halves away from zero), so a number reads the same in a sentence,
in a table and on the command line. :func:`build_panel_sweep_report` reads a panel sweep
(:mod:`analysis.sweep.panel`): per parameter, whether it moves every cell the same way and by how
much, the per-cell effects in a figure and a table. :func:`build_panel_comparison_report` reads
two panels, before and after a rule change (:mod:`analysis.panel_compare`): which seats moved in
which cells (in a game with roles, which sides, and whose share of a role's wins: the split the
panel page's finding is about), and whether the change moves the seats toward or away from fair;
its first answer ends with the largest other changes (:func:`other_changes_sentence`: each cell's
mean game length, in the game's unit, and the share of its games ending each way, one family of
their own), which a section gives cell by cell (:func:`other_table`).
All only read files.

May import polars, matplotlib, the standard library, :mod:`analysis.panel` (the panel's table
and lead; the cell summaries and share bands the before/after's lead words its cells with),
:mod:`analysis.sweep.panel_effects` (reading), :mod:`analysis.panel_compare` (the before/after
over a panel), :mod:`analysis.stats` (reading order), :mod:`analysis.start_coins` (the
caution of a change of some seats' start coins judged with heuristic bots),
:mod:`reports.sweep` (page helpers), :mod:`reports.text` (verdict words), :mod:`reports.panel_rows`
(how a row's change prints, shared with the tune page's 'How each cell responds'), :mod:`reports.sections`,
:mod:`reports.figures.common` (the run page's seat colours), :mod:`reports.games` (a game's
``panel_notes`` on the cells' calls) and :mod:`simcore` (atomic, errors, registry).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass

from pathlib import Path

import polars as pl

from analysis.panel import (BANDS_WORDS, NAMED_CELLS, _label_parts, _where, cells_summary, panel_table,
                            share_bands)
from analysis.start_coins import dir_caution, runs_caution
from reports.figures.common import OKABE_ITO
from reports.panel_rows import (CUT_AT_ZERO, LEVEL_DIGITS, _as_metric, _change, _decimals, _games_of,  # noqa: F401
                                 _interval_digits, _printed_change, _rare_share_digits, _row_print, _share,
                                 _share_at, shown_range)
from reports.sections import FigureSet, Section
from reports.sweep import _meta, _publish, _title, rounded
from reports.text import bound_pp, num, pct, pct_ci, verdict_words


def _cell_metric_table(cells: pl.DataFrame, calls: dict | None = None, calls_title: str = "",
                       length_unit: str = "") -> pl.DataFrame:
    """One row per cell, one column per metric: a share as ``27.9% (27.6–28.2)`` with as many
    decimals as its interval needs not to print as one value (:func:`reports.text.pct_ci`: no win
    in 20,000 games is ``0.00% (0.00–0.02)``, not ``0.0% (0.0–0.0)``); a seat written "Seat 1" as
    in the figure and on a run's page. ``calls`` (cell → words, :func:`analysis.panel.cell_calls`):
    the finding's call in each cell, a column headed ``calls_title``. A mean that is not a share is
    headed with its unit, the row's (``unit``: :class:`analysis.sweep.metrics.MetricInfo`'s), else,
    for the game length, ``length_unit`` (:func:`analysis.length.length_unit`: "player turns",
    "turns"): "mean game length (player turns)" (review s42 A #5: "54.94 (54.40 to 55.49)" without a
    unit).

    The columns are in one order whatever the cells: cell, players, games, the call, then each kind
    of metric in the order it first appears, a kind's numbered columns in their number's order
    (Seat 1 … Seat 5 together, wherever a cell first has a seat 4): in a panel of 3, 4 and 5
    players the call column sat between Seat 3 and Seat 4 (review G, panel #1), and, last, it lay
    past the right edge of a 1280-pixel page behind 5 seats and the game length (review s42 A #4)."""
    rows: dict = {}
    columns: dict[str, tuple] = {}       # column → where it goes (kind first seen, its number)
    kinds: dict[str, int] = {}
    for r in cells.iter_rows(named=True):
        row = rows.setdefault(r["cell"], {"cell": r["label"], "players": r["players"], "games": r["games"]})
        if r["share"]:
            text = pct_ci(r["estimate"], r["low"], r["high"])
        else:
            text = f"{num(r['estimate'], 2)} ({num(r['low'], 2)} to {num(r['high'], 2)})"
        what = r["what"]
        name = what[:1].upper() + what[1:] if what.startswith("seat ") else what
        unit = r.get("unit") or (length_unit if r.get("metric") == "game_length" else "")
        if r.get("metric") == "game_length" and unit:
            name = f"mean game length ({unit})"
        elif not r["share"] and unit:        # another mean in its unit: "the winner's margin (coins)"
            name = f"{what} ({unit})"
        row[name] = text
        metric = r.get("metric") or name           # a hand-built table may carry only the words
        kind, _, number = metric.rpartition("_")
        if not number.isdigit():
            kind, number = metric, "0"
        columns.setdefault(name, (kinds.setdefault(kind, len(kinds)), int(number)))
    order = ["cell", "players", "games", *([calls_title] if calls else []),
             *sorted(columns, key=columns.__getitem__)]
    if calls:
        for c, row in rows.items():
            row[calls_title] = calls.get(c, "")
    return pl.DataFrame([{k: row.get(k) for k in order} for row in rows.values()],
                        schema={k: (pl.Int64 if k in ("players", "games") else pl.String) for k in order})


def seat_share_figure(cells: pl.DataFrame, labels: list[str]):
    """Every seat's win share per cell (points with 95% Wilson intervals), the fair share 1/P dashed
    (a game whose seats are alike: :func:`role_share_figure` draws a game with roles)."""
    from matplotlib.figure import Figure     # (not pyplot: its figures stay open until closed)

    seats = cells.filter(pl.col("metric").str.starts_with("seat_win_share_"))
    n = len(labels)
    fig = Figure(figsize=(8, 0.45 * n + 1.4))
    ax = fig.subplots()
    P = int(seats["players"].max())
    colors = OKABE_ITO           # each seat the colour it has on a run's page (Seat 4 pink there too)
    for r in seats.iter_rows(named=True):
        s = int(r["metric"].rsplit("_", 1)[1])
        y = r["cell"] + (s - 1 - (P - 1) / 2) * 0.8 / max(P, 1)
        ax.errorbar(100 * r["estimate"], y, xerr=[[100 * (r["estimate"] - r["low"])],
                                                  [100 * (r["high"] - r["estimate"])]],
                    fmt="o", ms=3, color=colors[(s - 1) % len(colors)],
                    label=f"Seat {s}")
        ax.plot([100 * r["fair"]] * 2, [r["cell"] - 0.45, r["cell"] + 0.45], ls="--", color="grey", lw=0.8)
    ax.set_yticks(range(n), labels)
    ax.invert_yaxis()
    ax.set_xlabel("win share (%), 95% interval; dashed: a fair seat share 1/P")
    handles, names = ax.get_legend_handles_labels()
    seen = dict(zip(names, handles))
    # beside the axes, never over a point or an interval ("best" put it over seat 3's interval)
    ax.legend(seen.values(), seen.keys(), fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              borderaxespad=0.0)
    from reports.figures.checklist import zoomed_axis
    zoomed_axis(ax, "x")          # the win shares of a panel span a few pp: the axis does not start at 0
    fig.tight_layout()
    return fig


def role_share_figure(cells: pl.DataFrame, labels: list[str]):
    """A game with roles (no fair share per seat, so no 1/P line): left, each side's share of the
    games won per cell; right, each seat of a role of several seats, its share of its role's wins
    per cell against the equal split 1/k (dashed); points with each cell's own 95% Wilson interval,
    not adjusted."""
    from matplotlib.figure import Figure     # (not pyplot: its figures stay open until closed)

    n = len(labels)
    sides = cells.filter(pl.col("metric").str.starts_with("role_win_share_"))
    seats = cells.filter(pl.col("metric").str.starts_with("role_seat_share_"))
    fig = Figure(figsize=(11, 0.5 * n + 1.8))
    left, right = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [2, 3]})
    colors = OKABE_ITO           # the run page's palette

    def draw(ax, rows, key, name, first=0, title=""):
        kinds = list(dict.fromkeys(rows[key].to_list()))
        for r in rows.iter_rows(named=True):
            i = kinds.index(r[key])
            y = r["cell"] + (i - (len(kinds) - 1) / 2) * 0.8 / max(len(kinds), 1)
            ax.errorbar(100 * r["estimate"], y, xerr=[[100 * (r["estimate"] - r["low"])],
                                                      [100 * (r["high"] - r["estimate"])]],
                        fmt="o", ms=3, color=colors[(first + i) % len(colors)], label=name(r))
        handles, names = ax.get_legend_handles_labels()
        seen = dict(zip(names, handles))
        # above the axes, under its title, never over a point or an interval; a fixed few points
        # from the axes whatever the number of cells (s37 #11: under the axes, at a fraction of
        # their height, it sat far below a tall plot after a large blank gap, in a tiny font)
        ax.legend(seen.values(), seen.keys(), fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0),
                  ncol=min(len(seen), 3), borderaxespad=0.3, frameon=False, title=title,
                  title_fontsize=9)

    draw(left, sides, "metric", lambda r: r["what"].removesuffix(" win share").removeprefix("the ") + " side",
         title="Who wins, by side")
    left.set_xlim(-2, 102)
    left.set_xlabel("share of games the side wins (%)")
    if seats.height:
        # colours after the sides' (seat 2 is not the Seigneur's blue)
        draw(right, seats, "seat", lambda r: f"Seat {r['seat']} ({r['role_label']})",
             first=sides["metric"].n_unique(), title="Seats within a role")
        for r in seats.unique(["cell", "role"], keep="first").iter_rows(named=True):
            right.plot([100 * r["fair"]] * 2, [r["cell"] - 0.45, r["cell"] + 0.45], ls="--", color="grey",
                       lw=0.8)
        right.set_xlim(0, min(100.0, 100 * float(seats["high"].max()) * 1.15 + 2))
        right.set_xlabel("seat's share of its role's wins (%); dashed: an equal split")
    else:
        right.set_axis_off()
    left.set_yticks(range(n), labels)
    left.set_ylim(n - 0.5, -0.5)          # top to bottom, no blank band above the first cell
    fig.tight_layout()
    return fig


def roles_intro(smallest: float) -> str:
    """The introduction of the panel page of a game with roles (its lead:
    :func:`analysis.panel.role_finding`), the verdicts in reading order (:data:`analysis.stats.VERDICT_ORDER`)."""
    return ("Each cell is one player count and one line-up, played on its own games. A game with "
            "roles has no fair share per seat: the page gives each side's share of the games won "
            "and, for a role of several seats, each seat's share of its role's wins against an "
            "equal split among the role's seats. Intervals in the table and the figure: 95% Wilson "
            "intervals (shares: over the cell's games, a rotated-seat cell's over its deals, or over "
            "its role's wins), 95% normal intervals for the game length (a rotated-seat cell's: the t "
            "interval counting each deal as one game); each cell on its own (not adjusted over the "
            "panel). The finding's calls on the seats of a role are adjusted over the family of every "
            "seat of a role of several seats in every cell (Holm, from exact binomial tests of a seat's "
            "wins among its role's where the games are independent and no win is shared, else Wald "
            "tests on the cell's seat win shares and their covariance); their sizes are read on Bonferroni intervals over the "
            "same family: 'clear and large enough to matter' needs the whole adjusted interval at "
            f"least {100 * smallest:g} pp of the role's wins from an equal split (the smallest "
            "difference that matters, --smallest-difference), 'clear, may matter' is a clear seat "
            "whose interval reaches both sides of that (these games cannot tell whether it is that "
            "far), and 'clear but small' needs the whole interval closer. A cell is counted by its "
            "clear seat of the largest size.")


def cells_intro(smallest: float) -> str:
    """The panel page's introduction: each cell's own intervals, the finding's calls adjusted over
    every seat of every cell, and the three verdicts of a clear seat in reading order
    (:data:`analysis.stats.VERDICT_ORDER`), ``smallest`` (a share) the smallest difference that
    matters."""
    return ("Each cell is one player count and one line-up, played on its own games. "
            "Intervals in the table and the figure: 95% Wilson intervals of shares over the "
            "cell's games (a rotated-seat cell's over its deals), 95% normal intervals for the game "
            "length (a rotated-seat cell's: the t interval counting each deal as one game), each cell "
            "on its own (not "
            "adjusted over the panel). The finding's calls (above, below, unclear) are adjusted "
            "over the family of every seat of every cell (Bonferroni simultaneous 95% intervals, "
            "Wilson intervals each at level 1 − 0.05/m over the panel's m seat × cell comparisons "
            "with 1/P, as the seat is picked from the data); 'in every cell' needs every cell's "
            "adjusted interval on the same side of 1/P; 'clear and large enough to matter' "
            f"needs the whole adjusted interval at least {100 * smallest:g} pp from 1/P (the "
            "smallest difference that matters, --smallest-difference), 'clear, may matter' is "
            "a clear seat whose interval reaches both sides of that (these games cannot tell "
            "whether it is that far), and 'clear but small' needs the whole interval closer.")


def build_panel_report(paths, out: str | Path, force: bool = False, smallest: dict | None = None,
                       pdf: bool = False, svg: bool = False, answers: list[str] | None = None,
                       targets: tuple = ()) -> Path:
    """The page of the runs of a panel; returns the path of report.html. ``smallest``: the smallest
    differences that matter, by kind (``--smallest-difference``), over the game's: the finding
    says in how many cells the seat's distance from 1/P is large enough to matter. ``answers``,
    when given, gets the page's lead (the command line prints it, as a run's report prints its
    answer: the panel's printed only its path). ``targets``: a designer's ``--target``s (parsed),
    judged in every cell (:func:`analysis.panel.judge_cells`): the lead says where each is met,
    after the sides (or the seats), and targets.csv has every cell's reading."""
    t = panel_table(paths, smallest)
    title = f"{_title(t.game)}: a panel of {len(t.labels)} cells"
    figs = FigureSet()
    if t.roles:
        intro = roles_intro(t.smallest)
        figure = Section("figure", "Who wins, by side and by seat within a role, per cell",
                         figures=figs.add("cells", role_share_figure(t.cells, t.labels),
                                          "Each side's share of the games won, and each seat's share of "
                                          "its role's wins against an equal split (dashed), per cell, with "
                                          "95% Wilson intervals (each cell on its own, not adjusted)."))
    else:
        intro = cells_intro(t.smallest)
        figure = Section("figure", "Win share by seat, per cell",
                         figures=figs.add("cells", seat_share_figure(t.cells, t.labels),
                                          "Every seat's win share per cell with its 95% Wilson interval "
                                          "(each cell on its own, not adjusted); dashed: 1/P."))
    from analysis.length import length_unit

    table = _turn_limit_column(_cell_metric_table(t.cells, t.calls, t.calls_title, length_unit(t.game)), t)
    tables = _seat_tables(table) if not t.roles else _role_tables(table, t.calls_title)
    lead = t.lead or [t.finding]          # the analysis layer's lead, as it is (analysis.panel)
    # then the game's own word on the cells' calls, after the finding it reads (Seigneurial: the
    # payment order behind a Censitaire seats' gap, as the run page says it: review s61 fix 258 #4)
    from reports.games import hook_for

    hook = hook_for(t.game)
    notes = getattr(hook, "panel_notes", None)
    lead = lead + (notes(t.cells) if notes is not None else [])
    # the cell-by-cell paragraph (each cell's finding seat and largest other gap) opens "Every
    # cell", beside the table of those shares, not the page's "In short", which it made a second
    # copy of the table (review s45: "the In short block repeats its table"); the command line,
    # which prints no table, keeps it
    from analysis.panel import largest_gaps

    gaps = largest_gaps(t.cells, t.smallest) if not t.roles else ""
    page_lead = [x for x in lead if x != gaps] if gaps and gaps in lead else lead
    secs = [Section("cells", "Every cell", intro, tables=tables,
                    sentences=[gaps] if page_lead is not lead else []), figure]
    runs = sorted(set(t.cells["run"].to_list()))
    meta = _meta([("game", _title(t.game)), ("cells", str(len(t.labels))),
                  ("rules", "; ".join(_rules_of(runs))), ("runs", "; ".join(runs))])
    files = {}
    if targets:
        # the designer's targets, cell by cell, after the sides' (the seats') answer
        from analysis.export import csv_ready
        from analysis.panel import judge_cells, target_finding
        from analysis.skill_target import role_labels

        order = t.cells.select("cell", "run").unique().sort("cell")["run"].to_list()
        judged = judge_cells(order, t.labels, targets)
        from simcore import games as registry

        words = target_finding(judged, targets, role_labels(registry.get(t.game)))
        # cells whose games mostly stopped at the turn limit: their verdicts describe unfinished
        # games (the review: "met in 1 of the 4 cells" where 54% of that cell's games stopped)
        from analysis.length import run_turn_limit
        from reports.build import target_turn_limit_words

        stopped = [(lab, lim) for lab, run in zip(t.labels, order)
                   if (lim := run_turn_limit(run)) is not None and lim.flagged]
        if stopped:
            where = "; ".join(f"in {lab}: {pct(lim.share)}%, {lim.games:,} of {lim.total:,} games"
                              for lab, lim in stopped)
            words.insert(0, target_turn_limit_words(where))
        skip = ("Warning: ", "The finding, by side", "The other side")
        at = next((i for i, x in enumerate(lead) if not x.startswith(skip)), len(lead)) if t.roles else \
            min(len(lead), 1 + bool(lead and lead[0].startswith("Warning: ")))
        lead = lead[:at] + words + lead[at:]
        files["targets.csv"] = csv_ready(judged.drop("budget").rename({"budget_outcome": "outcome"})).write_csv()
    if answers is not None:
        answers += [f"{title}:"] + [f"  {x}" for x in lead]
    if page_lead is not lead:
        lead = [x for x in lead if x != gaps]
    return _publish(Path(out), force, title, meta, secs, figs, pdf, lead=lead, svg=svg, files=files)


def _turn_limit_column(table: pl.DataFrame, t) -> pl.DataFrame:
    """The cell table with a column of each cell's games stopped at the turn limit ("53.2% (426)"),
    when some cell's reach the share that warns (:mod:`simcore.turn_limit`; the lead names them:
    the second review asked the table to mark them too); else as it is."""
    from analysis.length import run_turn_limit

    runs = dict(t.cells.select("label", "run").unique().iter_rows())
    limits = {label: run_turn_limit(run) for label, run in runs.items()}
    if not any(lim is not None and lim.flagged for lim in limits.values()):
        return table
    said = [(f"{pct(lim.share)}% ({lim.games:,})" if (lim := limits.get(c)) is not None else "")
            for c in table["cell"].to_list()]
    return table.with_columns(pl.Series("games at the turn limit", said, dtype=pl.String))


#: the heading of the panel page's table of every seat's win share per cell (a game whose seats are alike)
WIN_SHARE_TABLE = "Win share per cell (each cell's own 95% interval)"


def _seat_tables(table: pl.DataFrame) -> list[tuple[str, pl.DataFrame]]:
    """The cell table of a game whose seats are alike in two (review s42 A #4: at 5 seats, 10
    columns squeezed every row to 110 pixels and put the finding's call past the right edge of a
    1280-pixel page): the cell, its size, the finding's call and every seat's win share; then the
    other metrics (the game length, in its unit)."""
    keep = [c for c in table.columns if c in ("cell", "players", "games", "games at the turn limit")
            or (c.startswith("Seat ") and (c.endswith("'s win share") or " against 1/P" in c))]
    rest = [c for c in table.columns if c not in keep]
    if not rest:
        return [(WIN_SHARE_TABLE, table)]
    return [(WIN_SHARE_TABLE, table.select(keep)),
            ("Game length per cell (each cell's own 95% interval)", table.select("cell", *rest))]


def _role_tables(table: pl.DataFrame, calls_title: str = "") -> list[tuple[str, pl.DataFrame]]:
    """The cell table of a game with roles in three (review N #11: in one, 12 columns ran past a
    1300-pixel window and the columns the finding reads sat behind a scroll bar): first what the
    finding reads, the cell's games, the call on the split of a role's wins naming the seat
    (``calls_title``, :func:`analysis.panel.role_cell_calls`, early as the seats-alike page's call:
    review s42 K #3), each side's win share and each seat's share of its role's wins; then the
    cell's players and games and each seat's win share of all games (a one-seat role's repeats its
    side's); then the other metrics (the game length, in its unit) in a table of their own, as
    :func:`_seat_tables` gives them."""
    seats = [c for c in table.columns if c.startswith("Seat ") and c.endswith("'s win share")]
    if not seats:
        return [("Win share per cell (each cell's own 95% interval)", table)]
    size = ("cell", "players", "games", "games at the turn limit")
    call = [calls_title] if calls_title and calls_title in table.columns else []
    shares = [c for c in table.columns if c not in seats and c not in size and c not in call
              and (c.endswith(" win share") or c.endswith(" wins"))]
    rest = [c for c in table.columns if c not in seats and c not in size and c not in call and c not in shares]
    first = [c for c in ("cell", "games", *call, "games at the turn limit") if c in table.columns] + shares
    out = [("Who wins, by side and by seat within a role, per cell (each cell's own 95% interval)",
            table.select(first)),
           ("Each seat's share of all games won, per cell (each cell's own 95% interval)",
            table.select("cell", "players", "games", *seats))]
    if rest:
        out.append(("Game length per cell (each cell's own 95% interval)", table.select("cell", *rest)))
    return out


def _rules_of(runs) -> list[str]:
    """The rules the cells played, as their run.json names them (the file, and any ``--set``), each
    once: a panel played by ``simulate --panel --set …`` says which rules its finding is about."""
    import json

    names = []
    for r in runs:
        try:
            name = json.loads((Path(r) / "run.json").read_text(encoding="utf-8")).get("rules_name")
        except (OSError, ValueError):
            name = None
        names.append(str(name or "the shipped rules"))
    return list(dict.fromkeys(names))


def build_panel_sweep_report(path: str | Path, out: str | Path, force: bool = False,
                             smallest: dict | None = None, pdf: bool = False, svg: bool = False,
                             answers: list[str] | None = None) -> Path:
    """The page of a sweep over a panel; returns the path of report.html. ``smallest``: the
    smallest differences that matter, by kind, over the sweep's own and the game's: every effect
    is worded by it and the tables are in reading order (large enough to matter first, by size).
    ``answers``, when given, gets the page's lead (the command line prints it, as it prints every
    other page's: review s61 #4, the start-coins caution was on the page only)."""
    from analysis.stats import practical_order
    from analysis.sweep.panel_effects import (agreement, headline_metric, headline_sentences, panel_effects,
                                              read_panel_sweep)

    meta = read_panel_sweep(path)
    effects = panel_effects(path, smallest)
    n = len(meta["panel"]["cells"])
    head = headline_metric(effects)
    lines = headline_sentences(effects, [c["label"] for c in meta["panel"]["cells"]])
    # values of some seats' start coins, played with heuristic bots (analysis.start_coins)
    lines += [caution] if (caution := dir_caution([path], "panel sweep")) else []
    title = f"{_title(meta['game'])}: a sweep over a panel of {n} cell{'s' if n != 1 else ''}"
    if answers is not None:
        answers += [f"{title}:"] + [f"  {x}" for x in lines]
    figs = FigureSet()
    # "cells": how many cells have the metric and measured it (a seat 4 only at 4 players or more):
    # the counts beside it add up to it, not to the panel's n (review G, panel #4)
    # a cell whose player count does not read the setting measured nothing (review s61 #1): out of
    # the figure and the counts, and said so in the table of every effect
    unread = ~pl.col("read") if "read" in effects.columns else pl.lit(False)
    of_n = f"cells (of {n})"
    agree = _in_units(agreement(effects, n), ("smallest_difference", "smallest", "largest")).select(
        "parameter", "from", "to", "label", "unit", pl.col("cells").alias(of_n), "up", "down", "unchanged",
        "unclear", "large", "may_matter", "small", "smallest_difference", "smallest", "largest",
        "same_way_everywhere", "not_read")

    params = list(dict.fromkeys(effects["parameter"].to_list()))
    order = practical_order(effects["verdict"].to_list(), effects["delta"].to_numpy(),
                            effects["smallest"].to_numpy())
    reading = {int(i): k for k, i in enumerate(order)}
    table = (_in_units(effects.with_columns(
        pl.Series("_p", [params.index(p) for p in effects["parameter"]]),
        pl.Series("_r", [reading[i] for i in range(effects.height)])), ("delta", "low", "high", "smallest"))
        .sort(["_p", "_r"])
        .with_columns(pl.col("verdict").map_elements(verdict_words, return_dtype=pl.String))
        .with_columns(pl.when(unread).then(pl.format("not read at {} players: the same games at both "
                                                     "values", pl.col("players")))
                      .otherwise(pl.col("verdict")).alias("verdict"))
        .select("parameter", "from", "to", "cell_label", "label", "delta", "low", "high", "unit", "smallest",
                "verdict"))
    drawn = effects.filter((pl.col("metric") == head) & ~unread)
    if not drawn.height:        # (a sweep recorded before the refusal of a setting no cell reads)
        drawn = effects.filter(pl.col("metric") == head)
    # the page leads with what moves what; how it is measured follows the sentences
    secs = [Section("findings", "What moves what, cell by cell",
                    "The paired change of each setting in every cell, worded by its size (how it "
                    "is measured: the next section).", sentences=lines),
            Section("method", "How these sentences are measured", sweep_method_words(effects, meta["game"])),
            Section("figure", "Effect per cell",
                    figures=figs.add("effects", effects_figure(drawn),
                                     "Each parameter's effect on the headline metric in every cell "
                                     "(none where a cell's player count does not read the setting).")),
            Section("agreement", "Does every cell move the same way?",
                    f"One row per parameter and metric. Column '{of_n}': the cells that have the "
                    f"metric and measured its effect, out of the panel's {n} (a seat 4 only in the "
                    "cells of 4 players or more; a cell with fewer than two finished variants of the "
                    "parameter is not counted); up, down, unchanged and unclear count those cells and "
                    "add up to it, large, may_matter and small split the clear ones by size; not_read "
                    "counts the cells whose player count does not read the setting (the same games "
                    "at both values: not in the other counts, nor in the figure); "
                    "smallest and largest are the smallest and largest effect over them. Each cell "
                    "is judged on its own intervals: the counts are not adjusted over the cells.",
                    tables=[("Does every cell move the same way?", agree)]),
            Section("effects", "Every effect in every cell",
                    tables=[("Every effect in every cell", table)])]
    rows = _meta([("game", _title(meta["game"])), ("cells", str(n)),
                  ("varied", "; ".join(v["text"] for v in meta["varies"])),
                  ("games per variant and cell", f"{meta['games']:,}")])
    return _publish(Path(out), force, title, rows, secs, figs, pdf, svg=svg)


def sweep_method_words(effects: pl.DataFrame, game: str | None) -> str:
    """How a panel sweep's sentences are measured, naming the smallest differences that matter its
    verdicts were sized against (:func:`sweep_amounts`; session 56 review: with
    ``--smallest-difference win_share=2pp`` the page named no amount, and the glossary's "1 pp for
    shares unless the page says otherwise" stood)."""
    said = sweep_amounts(effects, game)
    return ("Effects: paired differences between the parameter's first and last value within a "
            "cell (common random numbers); each cell's effects are one family (simultaneous 95% "
            "intervals over every metric, Bonferroni over the parameters, as on a sweep's page), "
            "not adjusted over the cells; shares in percentage points (pp), every other metric in its "
            "own unit (column unit). Verdict, read on the interval against the smallest "
            "difference that matters (" + (f"here {said}; " if said else "")
            + "column smallest, --smallest-difference): 'clear and large "
            "enough to matter' (the whole interval at least that far from 0), 'clear, may "
            "matter' (the interval excludes 0 but reaches both sides of that difference: more "
            "games would tell whether it matters), 'clear but small' (the whole interval "
            "closer to 0 than that) or 'within noise' (the interval holds 0); rows in that "
            "order, by size within each. Each cell is also "
            "an ordinary sweep directory (cells/cell-K) with its own sensitivity page.")


def sweep_amounts(effects: pl.DataFrame, game: str | None) -> str:
    """The smallest differences a panel sweep's effects were sized against, worded as the two-run
    before/after words them (:func:`reports.text.smallest_amounts`): "2 pp for shares, 3 pp of own
    goal for scores, 1 turn for game lengths". Its effects are put in the before/after's terms: a
    share as a proportion, the game length as a length in its unit, any other metric (the winner's
    margin, the event swing) as a score in its own unit, one call per such unit."""
    from reports.text import LENGTH_UNITS, smallest_amounts

    if effects.height == 0 or not {"smallest", "share", "unit", "metric"} <= set(effects.columns):
        return ""
    shares, lengths, scores = [], [], {}
    for r in effects.select("metric", "share", "unit", "smallest").unique(maintain_order=True).iter_rows(named=True):
        if r["share"]:
            shares.append({"metric": r["metric"], "kind": "proportion", "key": None, "smallest": r["smallest"]})
        elif r["metric"] == "game_length":
            lengths.append({"metric": "mean_turns" if r["unit"] in LENGTH_UNITS else "mean_length",
                            "kind": "mean", "key": r["unit"], "smallest": r["smallest"]})
        else:
            scores.setdefault(r["unit"], []).append({"metric": "seat_mean_score", "kind": "mean", "key": None,
                                                     "smallest": r["smallest"]})
    schema = {"metric": pl.String, "kind": pl.String, "key": pl.String, "smallest": pl.Float64}
    parts = [smallest_amounts(pl.DataFrame(shares, schema=schema), "", game),
             *(smallest_amounts(pl.DataFrame(rows, schema=schema), unit, game) for unit, rows in scores.items()),
             smallest_amounts(pl.DataFrame(lengths, schema=schema), "", game)]
    return ", ".join(x for x in parts if x)


def _in_units(df: pl.DataFrame, cols) -> pl.DataFrame:
    """``cols`` as a designer reads them: shares (fractions in the effects) in pp, every other metric
    in its own unit, with the ``unit`` column saying which; rounded to 2 decimals."""
    return df.with_columns(
        *[rounded(pl.when(pl.col("share")).then(pl.col(c) * 100).otherwise(pl.col(c))).alias(c)
          for c in cols],
        pl.when(pl.col("share")).then(pl.lit("pp")).otherwise(pl.col("unit")).alias("unit"))


def effects_figure(effects: pl.DataFrame):
    """Per parameter, the effect in every cell with its interval (one panel per parameter)."""
    from matplotlib.figure import Figure     # (not pyplot: its figures stay open until closed)

    params = list(dict.fromkeys(effects["parameter"].to_list()))
    cells = list(dict.fromkeys(effects["cell_label"].to_list()))
    fig = Figure(figsize=(4 * len(params) + 2, 0.4 * len(cells) + 1.5))
    axes = fig.subplots(1, len(params), squeeze=False, sharey=True)
    for ax, p in zip(axes[0], params):
        sub = effects.filter(pl.col("parameter") == p)
        share = bool(sub["share"][0])
        k = 100.0 if share else 1.0
        for r in sub.iter_rows(named=True):
            y = cells.index(r["cell_label"])
            ax.errorbar(k * r["delta"], y, xerr=[[k * (r["delta"] - r["low"])], [k * (r["high"] - r["delta"])]],
                        fmt="o", ms=4, color="C0")
        ax.axvline(0, color="grey", lw=0.8)
        ax.set_title(f"{p}: {sub['from'][0]} → {sub['to'][0]}", fontsize=9)
        # wrapped to its panel's width, unit kept whole on the last line (review s46 #11: the
        # seat imbalance's label ran off the figure, unit included)
        label = f"effect on {sub['label'][0]}" + (" (pp)" if share else f" ({sub['unit'][0]})")
        ax.set_xlabel("\n".join(textwrap.wrap(label, width=60, break_on_hyphens=False)), fontsize=8)
    axes[0][0].set_yticks(range(len(cells)), cells)
    axes[0][0].invert_yaxis()
    fig.tight_layout()
    return fig


__all__ = ["build_panel_report", "build_panel_sweep_report"]


@dataclass(frozen=True)
class CountChange:
    """A rule setting whose values differ by player count between two panels (a per-seat list has
    one entry a seat): ``before`` and ``after`` as printed, each "value at P players; …"."""

    path: str
    before: str
    after: str

    @property
    def text(self) -> str:
        return f"{self.path}: {self.before} → {self.after}"


def panel_rules_changes(pairs: list[tuple[dict, dict]], rules_diff) -> list | None:
    """The settings two panels' rules differ in, from every cell's pair of run.json (review 45 #4:
    read from the first cell alone, ``--set setup.start_coins[0]=5`` read "0 → [5, 0, 0]", the
    3-player value, over cells of 3 to 5 players): the first cell's
    (:func:`analysis.rules_diff.rules_diff`) when every player count's is the same, else each
    setting with its values per player count (:class:`CountChange`, "0 → [5, 0, 0] at 3 players;
    [5, 0, 0, 0] at 4 players; …"). None when a cell's rules are not recorded."""
    from analysis.rules_diff import value_text

    by_count: dict[int, list] = {}
    for b, v in pairs:
        d = rules_diff(b, v)
        if d is None:
            return None
        by_count.setdefault(int(b.get("players") or 0), d)
    diffs = list(by_count.values())
    if not diffs or all(d == diffs[0] for d in diffs):
        return diffs[0] if diffs else []
    paths = list(dict.fromkeys(ch.path for d in diffs for ch in d))
    out = []
    for path in paths:
        seen = {P: next((ch for ch in d if ch.path == path), None) for P, d in sorted(by_count.items())}

        def said(side: str) -> str:
            texts = {P: (value_text(getattr(ch, side)) if ch is not None else "unchanged") for P, ch in seen.items()}
            if len(set(texts.values())) == 1:
                return next(iter(texts.values()))
            return "; ".join(f"{t} at {P} players" for P, t in texts.items())
        out.append(CountChange(path, said("before"), said("after")))
    return out


def build_panel_comparison_report(base: str | Path, variant: str | Path, out: str | Path,
                                  force: bool = False, smallest: dict | None = None,
                                  pdf: bool = False, svg: bool = False, progress=None,
                                  answers: list[str] | None = None) -> Path:
    """The before/after of two panels, cell by cell (:func:`analysis.panel_compare.panel_comparison`):
    what changed in the rules, then whether each seat's (side's) win share moved and in which
    line-ups, one family over every cell and seat; the table of every cell and seat and a figure
    of the changes with their intervals over the family. ``answers``, when given, gets the lead
    sentences for the command line. Returns the path of report.html."""
    from analysis.panel_compare import panel_comparison, seat_balance
    from reports.rules_diff import diff_sentences, diff_table, rules_diff
    from simcore.rundir import read_meta

    c = panel_comparison(base, variant, smallest, progress=progress)
    balance = seat_balance(c)
    b_meta, v_meta = (read_meta(r) for r in c.runs[0])
    bl, vl = Path(base).name, Path(variant).name
    changes = panel_rules_changes([tuple(read_meta(r) for r in pair) for pair in c.runs], rules_diff)
    changed = diff_sentences(changes, bl, vl, b_meta, v_meta)
    lead = (["What changed: " + changed[0] + " " + pairing_words(c)] + level_words(c) + comparison_findings(c)
            + ([balance_sentence(balance, c.smallest)] if balance.height else []))
    # some seats' start coins changed, judged with heuristic bots (analysis.start_coins)
    caution = runs_caution([read_meta(pair[k]) for k in (0, 1) for pair in c.runs], "panel before/after")
    lead += [caution] if caution else []
    if c.left_out:
        lead.append(f"Left out, in one panel only: {'; '.join(c.left_out)}.")
    # cells of either panel whose games mostly stopped at the turn limit: said first (the review:
    # a before/after of two panels never warned, while one of two runs does)
    from analysis.length import run_turn_limit
    from simcore.turn_limit import warning_over

    stopped = [w for k, lab in ((1, vl), (0, bl))
               if (w := warning_over([(cell, run_turn_limit(pair[k])) for cell, pair in zip(c.cells, c.runs)],
                                     "cells", "Their win shares, and every change to or from them,",
                                     f"in the panel {lab}, "))]
    lead = stopped + lead
    figs = FigureSet()
    unit = "side" if c.what == "side" else "seat"
    whose = split_roles(c)
    split = "".join(f", and each seat's share of {w}" for w in whose)
    levels = level_table(c)
    secs = [*([Section("levels", LEVEL_TABLE,
                       f"One row a cell: each {unit}'s win share before → after (the runs' values), and its "
                       f"change with its interval over the family of {c.family} and its verdict, as in the "
                       "table of every cell below.", tables=[(LEVEL_TABLE, levels)])]
              if levels.height > NAMED_CELLS + 1 else []),
            Section("changes", f"Every cell and {unit}" + (", and the split within a role" if whose else ""),
                    f"Each {unit}'s win share{split + ',' if whose else ''} before and after, cell by cell, as a before/after of "
                    f"the cell's two runs computes it (paired game by game when both played the same "
                    f"deals). " + (SPLIT_HOW + " " if whose else "") +
                    f"The verdicts are one family over {family_words(c)}: clear after Holm's correction "
                    f"over them, and sized on the "
                    f"Bonferroni interval over them (the interval shown), against the "
                    f"{rounded_pp(c.smallest)} that matters" + (f"; {CUT_AT_ZERO}. comparison.csv keeps "
                    "the interval's own ends (size_low, size_high)." if cut_at_zero(c) else "."),
                    figures=figs.add("changes", change_figure(c),
                                     f"Each {unit}'s change in win share{split.replace(', and each', ', and in each')}, after − before, per cell, "
                                     f"with its interval over the family of {c.family} (Bonferroni"
                                     + ("; a clear change's drawn on its side of 0" if cut_at_zero(c) else "")
                                     + ")."),
                    tables=[(f"Win share per cell and {unit}{split}", comparison_table(c))]),
            *([Section("balance", _balance_heading(balance), balance_note(balance),
                       tables=[(_balance_table_title(balance), balance_table(balance, c.smallest))])]
              if balance.height else []),
            *([Section("length", OTHER_HEADING, other_note(c), tables=[(OTHER_TABLE, other_table(c))])]
              if c.other.height or c.other_constant else []),
            Section("rules", "What changed in the rules", " ".join(changed[1:]) if len(changed) > 1 else "",
                    tables=[("Settings that differ", diff_table(changes))] if changes else [])]
    meta = _meta([("game", _title(c.game)), ("cells compared", str(len(c.cells))),
                  ("before", f"{base}"), ("after", f"{variant}")])
    if answers is not None:
        answers += lead
    title = f"{_title(c.game)}: before / after over a panel of {len(c.cells)} cell{'s' if len(c.cells) != 1 else ''}"
    from analysis.export import table_csv
    from analysis.panel_compare import balance_file

    # one file of every compared row: the win shares, then each cell's game length and end-reason
    # shares (their own family: other_family)
    both = c.rows if c.other.height == 0 else pl.concat([c.rows, c.other.drop("dof")], how="diagonal_relaxed")
    csv = table_csv(both)
    files = {"comparison.csv": csv, **({"balance.csv": table_csv(balance_file(balance))} if balance.height else {})}
    return _publish(Path(out), force, title, meta, secs, figs, pdf, lead=lead, svg=svg, files=files)


def _fair_of(balance: pl.DataFrame) -> str:
    """The fair share the balance is read against: ``1/P = 25%`` (a seat's win share), ``33.3%`` (an
    equal split of a role's wins), or per cell when the cells differ (the table gives each)."""
    fairs = set(balance["fair"].drop_nulls().to_list())
    seat = balance["what"][0] == "seat"
    if len(fairs) != 1:
        return "1/P, the cell's own" if seat else "1/k a seat, k the cell's own number of them"
    f = f"{100 * fairs.pop():.3g}%"
    return f"1/P = {f}" if seat else f


def _subject(balance: pl.DataFrame) -> tuple[str, str]:
    """(the question, what the largest gap is of) for the page's balance words: a seat's win share
    from a fair seat share, or, in a game with roles, a seat's share of its role's wins from an
    equal split (what the panel page's finding is about)."""
    what = balance["what"][0]
    if what == "seat":
        return (f"Toward or away from a fair seat share ({_fair_of(balance)})?",
                "The largest gap of a seat's win share from 1/P")
    fair = _fair_of(balance)
    fair = fair if fair.startswith("1/k") else f"{fair} a seat"
    return (f"Toward or away from an equal split of the {what}s' wins ({fair})?",
            f"The largest gap of a {what} seat's share of the {what}s' wins from an equal split")


def _balance_table_title(balance: pl.DataFrame) -> str:
    """The heading of :func:`balance_table`: from fair (a seat's win share), or, in a game with
    roles, from an equal split of a role's wins, as :func:`_subject` asks (review s42 A #7: "Largest
    gap from fair" under "Toward or away from an equal split of the Censitaires' wins")."""
    return ("Largest gap from fair, before and after" if balance["what"][0] == "seat" else
            "Largest gap from an equal split, before and after")


def _balance_heading(balance: pl.DataFrame) -> str:
    return ("Toward or away from a fair seat share, per cell" if balance["what"][0] == "seat" else
            f"Toward or away from an equal split among the {balance['what'][0]}s, per cell")


def _gap_digits(r: dict, smallest: float) -> int:
    """The decimals of a cell's largest gaps, their ranges and their change (:func:`reports.text.
    gap_digits`, each gap as its seat's printed share minus the printed fair share, :func:`_shown`;
    at most 2 decimals, where a last digit may still differ by rounding: 1.8 → 0.4 pp
    beside a change of −1.5 pp). Where the change's range is the difference of the two ranges' ends
    (:func:`_range_of_ends`), :func:`_gap_change` prints it from the ends as printed (review s42 K
    #6: "size 0.0 to 5.2" before, "size 0.0 to 4.3" after, beside a change of "−5.2 to +4.2 pp");
    more decimals, up to 3, only while an end so printed would lie on the other side of 0 or of the
    smallest difference that matters than the range its verdict was read on."""
    from reports.text import gap_digits

    d = gap_digits(r, smallest, most=2, from_shares=True)
    if not _range_of_ends(r):
        return d
    s = 100 * smallest

    def off(k: int) -> bool:
        for true, shown in zip((100 * r["change_low"], 100 * r["change_high"]), _printed_range(r, k)):
            shown *= 100
            if (true > 0) != (shown > 0) or (true < 0) != (shown < 0) or (abs(true) >= s) != (abs(shown) >= s):
                return True
        return False
    while d < 3 and off(d):
        d += 1
    return d


def _printed_range(r: dict, d: int) -> tuple[float, float]:
    """A balance row's change range from the ends of its gap's ranges before and after as printed at
    ``d`` decimals (after's low end minus before's high end, to after's high end minus before's low
    end: :func:`_range_of_ends`), as fractions."""
    from reports.text import rounded

    return ((rounded(100 * r["after_low"], d) - rounded(100 * r["before_high"], d)) / 100,
            (rounded(100 * r["after_high"], d) - rounded(100 * r["before_low"], d)) / 100)


def _range_of_ends(r: dict) -> bool:
    """Whether a balance row's change range is read on the ranges of its gap before and after
    (after's low end minus before's high end, to after's high end minus before's low end:
    :func:`analysis.panel_compare.seat_balance`, unpaired), so that the page prints it as the
    difference of the ends it prints (:func:`_gap_change`); a paired row's is its own."""
    keys = ("before_low", "before_high", "after_low", "after_high", "change_low", "change_high")
    if r.get("paired") or any(r.get(k) is None for k in keys):
        return False
    return (abs(r["after_low"] - r["before_high"] - r["change_low"]) < 1e-12
            and abs(r["after_high"] - r["before_low"] - r["change_high"]) < 1e-12)


def _gap(x: float, d: int) -> str:
    return pct(x, d)           # (halves as the tables round them: the change beside it is rounded so)


def _shown(r: dict, when: str, d: int) -> str:
    """A cell's largest gap ``when`` ("before", "after") in pp at ``d`` decimals, as its seat's
    printed share minus the printed fair share (:func:`reports.text.shown_gap`, as the two-run
    before/after and ``simulate``'s closing table print it: "0.5 pp" for a share of 24.55% printed
    24.6% beside a 1/P of 25%, session 56's review of the panel before/after)."""
    from reports.text import shown_gap

    return f"{shown_gap(r, when, d):.{d}f}"


def _gap_change(r: dict, smallest: float) -> str:
    """``−2.3 pp (−4.2 to −0.4 pp)``: a cell's change in its largest gap with the range the games
    allow (:func:`_gap_digits`); where that range is read on the ranges of the gap before and after
    (:func:`_range_of_ends`), the difference of their ends as printed, so that by the printed
    numbers after's high end minus before's low end is the range's high end (review s42 K #6)."""
    from reports.text import pp_ci

    from reports.text import shown_gap

    d = _gap_digits(r, smallest)
    lo, hi = _printed_range(r, d) if _range_of_ends(r) else (r["change_low"], r["change_high"])
    # (the change beside the gaps as printed: each its seat's printed share minus the fair share)
    change = _printed_change(shown_gap(r, "before", d), shown_gap(r, "after", d), 100 * r["change"], d)
    return f"{change} pp ({pp_ci(lo, hi, d)})"


def balance_sentence(balance: pl.DataFrame, smallest: float, most: int = 5) -> str:
    """The lead's answer to "does the change help balance?" (review N #2: the page gave only
    directions, "up in every one", while the coins unbalanced one line-up): per cell, the largest
    gap from a fair share before → after, grouped by whether it clearly shrinks, clearly grows or
    these games cannot tell (:func:`analysis.panel_compare.seat_balance`: the change in the largest
    gap read on the range every seat's interval over both panels allows, worded by size); the
    before → after values are the runs'. Up to ``most`` cells with numbers per group, the rest
    named (the table has every one)."""
    from analysis import stats
    from reports.text import verdict_words

    ask, subject = _subject(balance)

    every = balance["cell"].to_list()

    def said(rows: pl.DataFrame, numbers: bool) -> str:
        parts = [f"{r['cell']} ({_shown(r, 'before', _gap_digits(r, smallest))} → "
                 f"{_shown(r, 'after', _gap_digits(r, smallest))} pp; change "
                 f"{_gap_change(r, smallest)}, {verdict_words(r['verdict'])})"
                 for k, r in enumerate(rows.iter_rows(named=True)) if numbers and k < most]
        rest = rows["cell"].to_list()[len(parts):]
        if len(rest) > NAMED_CELLS + 1:      # many cells: counted and summarised (s37 #3: 32 names)
            parts.append(f"{len(rest)} {'more ' if parts else ''}cells ({cells_summary(rest, every)})")
        else:
            parts += rest
        return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]

    clear = pl.col("verdict") != stats.NOT_SHOWN
    paired = "paired" in balance.columns and bool(balance["paired"].fill_null(False).all())
    # read on the pairing, a change within noise may still be bounded inside the smallest
    # difference that matters: "no change that matters", not "cannot tell"
    steady = (pl.col("change_low").abs() < smallest) & (pl.col("change_high").abs() < smallest) & pl.lit(paired)
    shrinks = balance.filter(clear & (pl.col("change") < 0)).sort("change")
    grows = balance.filter(clear & (pl.col("change") > 0)).sort("change", descending=True)
    level = balance.filter(~clear & steady)
    untold = balance.filter(~clear & ~steady)
    parts = []
    if shrinks.height:
        parts.append(f"shrinks in {said(shrinks, True)}")
    if grows.height:
        parts.append(f"grows in {said(grows, True)}")
    if level.height:
        parts.append(f"moves by less than the {100 * smallest:g} pp that matters in {said(level, True)}")
    why = ""
    if untold.height and paired:
        why = "; more games would tell"
    elif untold.height:        # the untold cell whose gap moved most, in the seats' words
        from reports.text import untold_gap_words

        r = untold.with_columns(pl.col("change").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
        why = untold_gap_words(r, _gap_digits(r, smallest),       # (a lone cell was just named)
                               "" if untold.height == 1 else f"in {r['cell']}, for one, ",
                               "the fair share" if balance["what"][0] == "seat" else "the equal split")
    if not parts and balance.height > NAMED_CELLS + 1:      # many cells: the range, not every one (s37 #3)
        d = max(_gap_digits(r, smallest) for r in balance.iter_rows(named=True))
        def span(col: str) -> str:
            from reports.text import shown_gap

            gaps = [shown_gap(r, col, d) for r in balance.iter_rows(named=True)]
            a, b = f"{min(gaps):.{d}f}", f"{max(gaps):.{d}f}"
            return a if a == b else f"{a} to {b}"
        return (f"{ask} These games cannot tell in any of the {balance.height} cells{why}. {subject}: "
                f"{span('before')} pp before, {span('after')} pp after, over the cells; each cell's, with its "
                f"change, in the table below ({_balance_how(balance)}).")
    if not parts:
        cells = "the one cell" if balance.height == 1 else f"any of the {balance.height} cells"
        return (f"{ask} These games cannot tell in {cells}{why}. {subject}, before → after: " + "; ".join(
            f"{r['cell']} {_shown(r, 'before', _gap_digits(r, smallest))} → {_shown(r, 'after', _gap_digits(r, smallest))} "
            f"pp (change {_gap_change(r, smallest)})"
            for r in balance.iter_rows(named=True)) + f" ({_balance_how(balance)}).")
    told = "; it ".join(parts)
    rest = f"; these games cannot tell in {said(untold, False)}{why}" if untold.height else ""
    return f"{ask} {subject} {told}{rest} ({_balance_how(balance)})."


def _balance_how(balance: pl.DataFrame) -> str:
    n = int(balance["family"][0])
    if "paired" in balance.columns and bool(balance["paired"].fill_null(False).all()):
        # (analysis.panel_compare.paired_gap_range: the cells' seats paired game by game)
        return (f"before → after: the runs' values; each change read on the pairing, game by game: "
                f"every seat's win share before and after and its paired change in every cell, all "
                f"{n} at once, Bonferroni")
    return (f"before → after: the runs' values; each change read on the range that every seat's "
            f"interval over every seat of every cell of both panels allows, Bonferroni over "
            f"{n}, wider than a paired test would be")


def balance_note(balance: pl.DataFrame) -> str:
    """The balance section's note: what the largest gap is, where its range comes from, and that
    the points are the runs' values."""
    ask, subject = _subject(balance)
    seat = balance["what"][0] == "seat"
    interval = ("Wilson interval of its win share" if seat else
                "interval of its share of its role's wins (share ± z·se, as the panel page's calls)")
    above = ("the seat wins more than its fair share" if seat else
             f"the seat takes more of the {balance['what'][0]}s' wins than an equal split")
    tie = (", as the two seats' of a 2-player cell always are, go to the seat above fair" if seat else
           " go to the seat above the equal split")
    family = int(balance["family"][0])
    paired = "paired" in balance.columns and bool(balance["paired"].fill_null(False).all())
    # the sizes' family: every seat's interval before and after (2 a seat); a paired reading of the
    # change adds each seat's paired change to its family (3 a seat: analysis.panel_compare.
    # seat_balance), so the sizes are at 2/3 of it (review 45 #3: the note said 1 − 0.05/108 for
    # sizes computed at 1 − 0.05/72, and the unpaired formula for changes read on the pairing)
    sizes = family * 2 // 3 if paired else family
    change = ("the change is read on the pairing, game by game: every seat's win share before and "
              "after and its paired change after − before in every cell, all "
              f"{family} at once (Bonferroni, each at level 1 − 0.05/{family}; the after shares also "
              "within before + change), the range of the largest gap's change those allow, so the "
              "change's range is not the difference of the two sizes' ranges"
              if paired else
              "the change is read on those two ranges (after's low end minus before's high end, to "
              "after's high end minus before's low end), so it is wider than a paired test of it "
              "would be")
    return (f"{subject}, in each cell before and after, and whose it is, signed from that seat's "
            f"side (+: {above}; −: less; equal gaps{tie}, then to the lowest seat), the runs' values. "
            "The range of its size: "
            f"every seat's {interval}, all {sizes} of both panels at once "
            f"(Bonferroni, each at level 1 − 0.05/{sizes}), bound the largest gap between the largest "
            f"of the seats' nearest distances and the largest of their furthest; {change}; the change "
            "is worded by size on it against the smallest difference that matters. 'Within noise': "
            "these games cannot tell whether the largest gap moved.")


def balance_table(balance: pl.DataFrame, smallest: float) -> pl.DataFrame:
    """One row per cell: the largest gap before and after, each as the seat that holds it and its
    gap signed from that seat's side ("Seat 1 +6.5 pp": it wins 6.5 pp more than fair; "Seat 3
    −4.0 pp": less), then the range of the gap's size. Review R #9: "6.5 pp (Seat 2; …)" before
    beside "6.1 pp (Seat 1; …)" after, in a 2-player cell where Seat 1 was above fair both times,
    read as if the advantage had moved from seat 2 to seat 1; a tie now goes to the seat above fair
    (:func:`analysis.panel_compare.seat_balance`) and the sign says which side it is on."""
    from reports.text import fair_gap_pp, pp, verdict_words

    seat = balance["what"][0] == "seat"

    def gap(r: dict, when: str) -> str:
        d = _gap_digits(r, smallest)
        signed_gap, fair = r[when + "_signed_gap"], r["fair"]
        # the seat's printed share minus the printed fair share (the comparison table prints the
        # share): reports.text.fair_gap_pp, as the two-run before/after
        shown = (fair_gap_pp(fair + signed_gap, fair, d) if fair is not None and signed_gap is not None
                 else pp(signed_gap, d))
        return (f"Seat {r[when + '_seat']} {shown} (size {_gap(r[when + '_low'], d)} "
                f"to {_gap(r[when + '_high'], d)})")

    rows = list(balance.iter_rows(named=True))
    return pl.DataFrame({
        "Cell": [r["cell"] for r in rows],
        ("1/P" if seat else "Equal split"): [f"{100 * r['fair']:.3g}%" if r["fair"] is not None else ""
                                              for r in rows],
        "Largest gap before": [gap(r, "before") for r in rows],
        "Largest gap after": [gap(r, "after") for r in rows],
        # the change of the gap's size, not of the signed values beside it (review S #9)
        "Change in the gap's size (range)": [_gap_change(r, smallest) for r in rows],
        "Verdict": [verdict_words(r["verdict"]) for r in rows]})


def _comparisons(m: int) -> str:
    return f"{m} comparison" + ("" if m == 1 else "s")


def rounded_pp(share: float) -> str:
    return f"{100 * share:g} pp"


def cut_at_zero(c) -> bool:
    """Whether some change Holm calls clear is shown cut at 0 (:func:`shown_range`): its
    Bonferroni interval over the family still holds 0."""
    return any(shown_range(r) != (r["size_low"], r["size_high"]) for r in c.rows.iter_rows(named=True)
               if r["significant"])


def pairing_words(c) -> str:
    """Whether each cell's two runs played the same deals (seed and games), as the two-run page
    says it: paired changes are measured game by game; other deals or game counts are compared
    unpaired, with wider intervals (review M #9)."""
    r = c.rows.unique(subset=["cell"], maintain_order=True)
    paired = c.rows.group_by("cell").agg(pl.col("paired").any())["paired"].all()
    sb, sa = set(r["seed_before"].to_list()), set(r["seed_after"].to_list())
    gb, ga = set(r["games_before"].to_list()), set(r["games_after"].to_list())
    games = lambda g: "/".join(f"{x:,}" for x in sorted(g))  # noqa: E731
    if paired:
        return (f"Every cell's two runs played the same deals (seed {'/'.join(map(str, sorted(sb)))}, "
                f"{games(gb)} games a cell): each change is paired game by game, so only the rules differ.")
    what = []
    if sb != sa or len(sb) > 1:
        what.append(f"seed {'/'.join(map(str, sorted(sb)))} before, {'/'.join(map(str, sorted(sa)))} after")
    if gb != ga:
        what.append(f"{games(gb)} games a cell before, {games(ga)} after")
    if not what:            # the same deals, but not paired: the comparison says why
        why = next((w for w in r["unpaired_why"].to_list() if w), "no per-game rows to pair")
        return (f"The cells' two runs played the same deals but are compared unpaired ({why}), so "
                "each interval is wider than a paired one would be.")
    return ("The cells' two runs played different deals (" + "; ".join(what) +
            "): each cell is compared unpaired, so its interval is wider than a paired one would be "
            "(a change within it may come from the deals as well as the rules).")


def _row_digits(r: dict, smallest: float = 0.01) -> int:
    """The decimals :func:`comparison_table` prints a row's before and after with (:func:`_row_print`)."""
    return _row_print(r, smallest)[0]


def _level(r: dict, x: float) -> str:
    """A row's before or after in a sentence, as the table of every cell prints it (review s42 A
    #1: "0.025% before and after" in the lead beside "0.03% | 0.03%" in the table)."""
    return _share_at(x, _row_digits(r), _games_of(r, x))


def same_games_words(r: dict) -> str:
    """What the games say of a row the same in every game under both rules, paired
    (:data:`analysis.panel_compare.SAME_GAMES`): not a change of exactly 0, a bound on it (the
    row's ``change_at_most``, or :func:`analysis.stats.same_games_bound` of its games)."""
    from analysis.stats import same_games_bound

    n = int(r["games_before"])
    bound = r.get("change_at_most")
    bound = same_games_bound(n) if bound is None or bound != bound else bound
    return f"no game of the {n:,} differs, so its change is at most {bound_pp(bound)} pp either way, 95% bound"


def _grouped(rows: pl.DataFrame, words, sep: str, every) -> str:
    """``Seigneur side in 4p a (0.0% before and after)`` per row, or, for more than
    :data:`NAMED_CELLS` + 1 rows of one item saying the same words, one phrase for them: ``Seigneur
    side in 5 cells (…) (0.0% before and after)`` (s37 #3)."""
    groups: dict = {}
    for r in rows.iter_rows(named=True):
        groups.setdefault((r["item"], words(r)), []).append(r["cell"])
    out = []
    for (item, said), at in groups.items():
        if len(at) <= NAMED_CELLS + 1:
            out += [f"{item} in {x} ({said})" for x in at]
        else:
            out.append(f"{item} {_where(at, every)}, each {said}")
    return sep.join(out)


def _untested_words(rows: pl.DataFrame, every=None) -> list[str]:
    """The lead's sentences on the rows outside the family: a side the same in every game of both
    runs (a Seigneur who won none), and, paired game by game, a side with the same result in every
    game under both rules (the Seigneur won the very same games: review N #8), with what the games
    bound its change by."""
    from analysis.panel_compare import SAME_GAMES

    untested = rows.filter(pl.col("verdict").is_null())
    one_run = untested.filter(pl.col("before").is_null() | pl.col("after").is_null())
    untested = untested.filter(pl.col("before").is_not_null() & pl.col("after").is_not_null())
    constant = untested.filter(pl.col("note").is_null() | (pl.col("note") != SAME_GAMES))
    same = untested.filter(pl.col("note") == SAME_GAMES)
    out = []
    every = rows["cell"].unique(maintain_order=True).to_list() if every is None else every
    if one_run.height:
        out.append("Not tested: " + "; ".join(f"{r['item']} in {r['cell']} ({r['note']})"
                                              for r in one_run.iter_rows(named=True)) + ".")
    if constant.height:
        said = _grouped(constant, lambda r: f"{_level(r, r['before'])} before and after", ", ", every)
        out.append(f"Not tested, the same in every game of both runs: {said}.")
    if same.height:
        said = _grouped(same, lambda r: f"{_level(r, r['before'])} before and after: {same_games_words(r)}", "; ",
                        every)
        out.append(f"Not tested, the same result in every game under both rules (paired game by game): "
                   f"{said}.")
    return out


def split_mask(rows: pl.DataFrame) -> pl.Series:
    """Which rows of a comparison are a seat's share of its role's wins
    (:data:`analysis.panel_compare.SPLIT_METRIC`), not a seat's or a side's win share."""
    from analysis.panel_compare import SPLIT_METRIC

    if "metric" not in rows.columns:
        return pl.Series([False] * rows.height)
    return (rows["metric"] == SPLIT_METRIC).fill_null(False)


def _split_whose(item: str) -> str:
    """``the Censitaires' wins`` of ``Seat 2's share of the Censitaires' wins``."""
    return item.split("'s share of ", 1)[1]


def split_roles(c) -> list[str]:
    """The roles' wins a comparison splits by seat, as its rows name them ("the Censitaires' wins"),
    in the rows' order."""
    items = c.rows.filter(split_mask(c.rows))["item"].to_list()
    return list(dict.fromkeys(_split_whose(x) for x in items))


def family_words(c) -> str:
    """What the family is over: ``the 11 comparisons of every cell and side, and of each seat's
    share of the Censitaires' wins``."""
    unit = "side" if c.what == "side" else "seat"
    extra = "".join(f", and of each seat's share of {w}" for w in split_roles(c))
    return f"the {_comparisons(c.family)} of every cell and {unit}{extra}"


def comparison_findings(c) -> list[str]:
    """The lead of a panel's before/after: per seat (side) that moved, in how many cells and which
    way, each change with its interval over the family and its size in words; the seats that moved
    in no cell; or that none moved anywhere and whether the games leave room for a change that
    matters. In a game with roles the same, then, per role of several seats, for each seat's share
    of the role's wins (whether the split moved: the panel page's finding), in the same family."""
    rows = c.rows
    split = split_mask(rows)
    unit = "side" if c.what == "side" else "seat"
    family = (f"(clear after Holm's correction over {family_words(c)}; intervals over that family"
              + (f", {CUT_AT_ZERO}" if cut_at_zero(c) else "") + ")")
    out = _moved_words(c, rows.filter(~split), f"Did the {unit} win rates move, line-up by line-up?",
                       f"{unit}'s win share", family,
                       f"(Holm's correction over {family_words(c)}; intervals over that family)")
    for whose in split_roles(c):
        mine = rows.filter(split & pl.col("item").str.ends_with(f"'s share of {whose}"))
        out += _moved_words(c, mine, f"Did the split of {whose} among their seats move, line-up by line-up?",
                            f"seat's share of {whose}", f"(the same family of {c.family}: clear after Holm's "
                            "correction over it, intervals over it)", "(the same family)")
    other = other_changes_sentence(c)
    if other and out:       # the first answer ends with what else moved (the game length, how games end)
        out[0] = f"{out[0]} {other}"
    return out


def _interval_of(item: str) -> str:
    """``Seat 1's interval``; ``the interval of Seat 4's share of the Censitaires' wins`` (not
    "… wins's interval")."""
    return f"the interval of {item}" if "'s share of " in item else f"{item}'s interval"


def _moved_words(c, rows: pl.DataFrame, question: str, noun: str, family: str, family_no: str) -> list[str]:
    """:func:`comparison_findings`' sentences on one group of rows (the seats' or sides' win
    shares, or the seats' shares of one role's wins): ``question`` answered, ``noun`` what a row is
    ("side's win share"), ``family`` / ``family_no`` the words on the family after Yes / No."""
    from analysis import stats
    from reports.text import pp

    n = len(c.cells)
    clear = rows.filter(pl.col("verdict").is_not_null() & (pl.col("verdict") != stats.NOT_SHOWN))
    aside = _untested_words(rows, list(c.cells))
    tested = rows.filter(pl.col("verdict").is_not_null())
    if tested.height == 0:
        return [f"{question} No {noun} could be tested in any of the {n} cells."] + aside
    if clear.height == 0:
        r = tested.with_columns(pl.col("diff").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
        reach = tested.with_columns(pl.max_horizontal(pl.col("size_low").abs(), pl.col("size_high").abs())
                                    .alias("_r")).sort("_r", descending=True).row(0, named=True)
        if reach["_r"] < c.smallest:
            answer = "No"
            room = (f"every interval lies within ±{rounded_pp(c.smallest)}, the smallest difference "
                    f"that matters: these games leave no room for a change that matters in any cell")
        else:
            # answered by size (review V #1: "No" opened a sentence whose intervals reached three
            # times the 1 pp that matters), and in how many cells (it read "in every cell" and named one)
            answer = "Cannot tell"
            open_cells = tested.filter(pl.max_horizontal(pl.col("size_low").abs(), pl.col("size_high").abs())
                                       >= c.smallest)["cell"].n_unique()
            where = "in every cell" if open_cells == n else f"in {open_cells} of the {n} cells"
            end = reach["size_high"] if abs(reach["size_high"]) >= abs(reach["size_low"]) else reach["size_low"]
            room = (f"these games cannot rule out a change of {rounded_pp(c.smallest)}, the smallest "
                    f"difference that matters, {where} (the furthest: {_interval_of(reach['item'])} in "
                    f"{reach['cell']} reaches {pp(end)}); more games per cell would tell")
        return [f"{question} {answer}: no {noun} moved beyond noise in any of the {n} cells {family_no}. "
                f"The largest change is {r['item']} in {_change(r, c.smallest)}; {room}."] + aside
    out = []
    order = (clear.group_by("item").agg(pl.len().alias("k"), pl.col("diff").abs().max().alias("a"))
             .sort(["k", "a"], descending=True)["item"].to_list())
    for item in order:
        mine = clear.filter(pl.col("item") == item)
        up = mine.filter(pl.col("diff") > 0)
        down = mine.filter(pl.col("diff") < 0)
        k = mine.height
        if up.height and down.height:
            way = f"up in {up.height} and down in {down.height}: not one way"
        else:
            way = ("up" if up.height else "down") + (" in every one" if k == n else " in each" if k > 1 else "")
        if k <= NAMED_CELLS + 1:
            where = "; ".join(f"{_change(r, c.smallest)}, {verdict_words(r['verdict'])}{_factor(r, c.smallest)}"
                              for r in mine.iter_rows(named=True))
        else:       # many cells: the range, the counts by size, the extremes named (s37 #3)
            where = _moved_summary(mine, c.smallest)
        n_item = tested.filter(pl.col("item") == item).height
        rest = f"; within noise in the other {n_item - k}" if k < n_item else ""
        cells = f"{k} of {n_item} cells" + ("" if n_item == n else f" where it was tested")
        out.append(f"{item} moved in {cells}, {way} ({where}){rest}.")
    still = [i for i in tested["item"].unique(maintain_order=True).to_list() if i not in order]
    from reports.text import moved_opener

    # opened by the size of what moved (review R #4), as the two-run page's first answer
    # the answer first, then what it was read on (s37 #3: the family's words stood before the
    # first ": ", so the page's bold ran over five lines)
    opener = moved_opener(clear['verdict'].to_list(), c.smallest)
    claims = [_factor_claim(r, c.smallest) for r in clear.iter_rows(named=True)] if opener.startswith("Not by enough") else []
    if claims and any(claims):
        # a share under the smallest difference that doubled (review s53 #2: the Seigneur's 0.41%
        # → 0.83%, "clear but small", where the two-run page of the same cell said "1.9 times");
        # "large" only where a cell's factor interval shows it (review s64 #1), else the factors a
        # cell's interval allows
        said = [x for x in claims if x]
        opener += (", though by a large factor for a share this small" if "by a large factor" in said else
                   f", though {said[0]} for a share this small" if len(said) == 1 else
                   ", though by a factor for a share this small (each cell's below)")
    head = f"{question} {opener}: "
    tail = ([f"{', '.join(still[:-1]) + ' and ' + still[-1] if len(still) > 1 else still[0]} moved "
             f"in no cell."] if still else [])
    return [head + out[0].removesuffix(".") + f" {family}."] + out[1:] + tail + aside


def _factor_claim(r: dict, smallest: float) -> str:
    """What a clear but small change of a share under the smallest difference that matters says of
    its factor (:func:`reports.text.factor_clause`, read on the factor's 95% interval: "by a large
    factor", "by a factor of 1.04 to 1.82"); '' for any other row, or an interval holding 1."""
    from analysis import stats
    from reports.text import factor_clause

    if r.get("verdict") != stats.SMALL or r.get("before") is None or r.get("after") is None:
        return ""
    if min(float(r["before"]), float(r["after"])) >= smallest:
        return ""
    return factor_clause(_factor_row(r))


def _factor_row(r: dict) -> dict:
    """A panel row as :func:`reports.text.factor_words` reads it."""
    return {"base": r["before"], "variant": r["after"], "base_n": r.get("games_before"),
            "variant_n": r.get("games_after"), "paired": r.get("paired")}


def _factor(r: dict, smallest: float) -> str:
    """A clear but small change of a share under the smallest difference that matters, said as a
    factor with its games and the factor's 95% interval, as the two-run page says it
    (:func:`reports.text.factor_words`): ", though by a large factor (82 → 166 games: 2.0 times as
    often; 95% interval 1.5 to 2.7 times)"; "large" only where that interval's near end is 1.25
    or more (:func:`reports.text.factor_size`, review s64 #1), else the factor and the interval
    alone, " (129 → 94 games: 1.4 times less often; 95% interval 1.04 to 1.81 times)"; '' for any
    other row, or an interval holding 1."""
    from reports.text import factor_words

    claim = _factor_claim(r, smallest)
    if not claim:
        return ""
    how = factor_words(_factor_row(r))
    return f", though by a large factor ({how})" if claim == "by a large factor" else f" ({how})"


def _moved_summary(mine: pl.DataFrame, smallest: float) -> str:
    """The clear changes of one seat or side in many cells, said briefly (s37 #3: 28 cells listed
    one by one in bold): per direction, how many cells of each size and the smallest and largest
    change with its interval over the family (:func:`_change`); every cell is in the table."""
    from analysis.stats import VERDICT_ORDER

    parts = []
    one_way = not ((mine["diff"] > 0).any() and (mine["diff"] < 0).any())
    for name, part in (("up", mine.filter(pl.col("diff") > 0)), ("down", mine.filter(pl.col("diff") < 0))):
        if not part.height:
            continue
        part = part.with_columns(pl.col("diff").abs().alias("_a")).sort("_a")
        sizes = part.group_by("verdict").len()
        counts = sorted(sizes.iter_rows(), key=lambda x: VERDICT_ORDER.index(x[0]) if x[0] in VERDICT_ORDER else 9)
        said = "; ".join(f"{m} {verdict_words(v)}" for v, m in counts)
        lo, hi = part.row(0, named=True), part.row(-1, named=True)
        span = (f"smallest {_change(lo, smallest)}, largest {_change(hi, smallest)}" if part.height > 1
                else _change(hi, smallest))
        parts.append(f"{name + ': ' if one_way is False else ''}{span}; {said}")
    return "; ".join(parts) + "; every cell in the tables below"


#: how a seat's share of its role's wins is compared (the comparison's section)
SPLIT_HOW = ("A seat's share of its role's wins (its wins over the role's, what the panel page's "
             "finding is about) is a ratio: its change is tested on its delta-method standard error, "
             "paired game by game on each game's linearised contribution where both runs kept per-game "
             "rows of the same deals, else each run's own variance added (unpaired, wider); the column "
             "'Paired by deal' says which each row used.")


def comparison_table(c) -> pl.DataFrame:
    """One row per cell and side or seat: before, after and the change as :func:`_row_print` prints
    them (the printed after − before is the printed change; levels at 1 or 2 decimals, a rare share
    at the panel page's, :func:`_rare_share_digits`), the interval
    over the family at :func:`_interval_digits`, the verdict and whether it was paired."""
    from analysis.panel_compare import SAME_GAMES
    from reports.text import pp_ci

    r = c.rows
    rows = list(r.iter_rows(named=True))
    shown = [shown_range(x) for x in rows]
    digits = [_interval_digits(x, c.smallest) for x in rows]
    printed = [_row_print(x, c.smallest) for x in rows]

    def share(x, d, row, side):           # 0.015%, not 0.0% (review N #8), at the row's decimals
        return "" if x is None else _share_at(x, d, _games_of(row, row[side]))

    return pl.DataFrame({
        "Cell": r["cell"], ("Side or seat" if split_mask(r).any() else c.what.capitalize()): r["item"],
        # (at the change's decimals: "32.2% | 32.5% | +0.34 pp" gave no change its levels gave)
        "Before": [share(x, p[0], row, "before") for x, p, row in zip(r["before"], printed, rows)],
        "After": [share(x, p[0], row, "after") for x, p, row in zip(r["after"], printed, rows)],
        "Change": [p[2] for p in printed],
        f"Interval over the family of {c.family}": [
            pp_ci(lo, hi, d) if v is not None else "" for (lo, hi), d, v in
            zip(shown, digits, r["verdict"])],
        "Verdict": [verdict_words(x["verdict"]) if x["verdict"] is not None else
                    f"not tested (the same result in every game under both rules, paired game by game: "
                    f"{same_games_words(x)})" if x["note"] == SAME_GAMES else
                    f"not tested ({x['note']})" for x in rows],
        "Paired by deal": ["yes" if p else "no" for p in r["paired"]]})


def change_figure(c):
    """Each seat's (side's, and in a game with roles each seat's share of its role's wins) change
    after − before in pp, per cell, with its interval over the family; dashed lines at ± the
    smallest difference that matters. Up to 8 cells (one colour each, :data:`OKABE_ITO`): grouped
    bars; more: :func:`change_dots`, one row per cell (s37 #3: 36 bars a group, colours repeating
    every 8, a legend cut off after 25 cells)."""
    if len(c.cells) > len(OKABE_ITO):
        return change_dots(c)
    return _change_bars(c)


def _facet_title(item: str) -> str:
    import textwrap

    return textwrap.fill(item, 34)


def change_dots(c):
    """The change figure of a panel of many cells: one small panel per seat or side (and per seat's
    share of a role's wins), each a row per cell, labelled, its change after − before in pp as a
    dot with its interval over the family (black: clear after Holm; grey: within noise; no dot: not
    tested), 0 and ± the smallest difference that matters marked, a thin line between player
    counts. No colour stands for a cell, so none repeats, and no legend lists the cells."""
    import math

    from matplotlib.lines import Line2D

    from reports.figures.common import new_figure

    rows = c.rows
    items = sorted(rows["item"].unique(maintain_order=True).to_list(), key=lambda s: (len(s), s))
    cells = list(c.cells)
    k = len(cells)
    ncols = min(len(items), 3)
    nrows = math.ceil(len(items) / ncols)
    label_width = max(len(x) for x in cells) * 0.075
    fig = new_figure(label_width + 3.1 * ncols, nrows * (0.22 * k + 1.0) + 0.9)
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False)
    breaks = [i for i in range(1, k) if _label_parts(cells[i])[0] != _label_parts(cells[i - 1])[0]]
    for n_ax, ax in enumerate(axes.flat):
        if n_ax >= len(items):
            ax.set_axis_off()
            continue
        item = items[n_ax]
        sub = rows.filter((pl.col("item") == item) & pl.col("diff").is_not_null())
        for r in sub.iter_rows(named=True):
            y = cells.index(r["cell"])
            low, high = shown_range(r)
            clear = r["verdict"] is not None and r["verdict"] != _not_shown()
            d = 100 * r["diff"]
            ax.errorbar(d, y, xerr=[[max(d - 100 * low, 0.0)], [max(100 * high - d, 0.0)]], fmt="o", ms=4,
                        color="black" if clear else "#999999", ecolor="black" if clear else "#999999",
                        elinewidth=1.2, capsize=2)
        ax.axvline(0, color="black", linewidth=0.8)
        for sign in (-1, 1):
            ax.axvline(sign * 100 * c.smallest, color="#777777", linestyle="--", linewidth=0.8)
        for b in breaks:
            ax.axhline(b - 0.5, color="#cccccc", linewidth=0.8)
        ax.set_title(_facet_title(item), fontsize=9)
        ax.set_xlabel("change, after − before (pp)", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", color="#eeeeee", linewidth=0.6)
        ax.set_axisbelow(True)
    first = axes[0][0]
    first.set_yticks(range(k), cells, fontsize=8)
    first.set_ylim(k - 0.5, -0.5)
    for ax in axes[:, 0]:
        ax.tick_params(axis="y", labelsize=8)
    handles = [Line2D([], [], marker="o", color="black", label="clear (Holm over the family)"),
               Line2D([], [], marker="o", color="#999999", label="within noise"),
               Line2D([], [], color="#777777", linestyle="--",
                      label=f"± {rounded_pp(c.smallest)}, the smallest difference that matters")]
    fig.legend(handles=handles, loc="outside upper center", ncol=3, fontsize=8, frameon=False)
    return fig


def _not_shown() -> str:
    from analysis import stats

    return stats.NOT_SHOWN


def _change_bars(c):
    """:func:`change_figure` of a few cells: grouped bars, one colour per cell."""
    import numpy as np

    from reports.figures.common import new_figure, subplots

    rows = c.rows
    items = rows["item"].unique(maintain_order=True).to_list()
    items = sorted(items, key=lambda s: (len(s), s))
    fig = new_figure(10, 4.6)
    ax = subplots(fig)
    k = len(c.cells)
    width = 0.8 / max(k, 1)
    for i, cell in enumerate(c.cells):
        sub = rows.filter(pl.col("cell") == cell)
        x, d, lo, hi = [], [], [], []
        for j, item in enumerate(items):
            r = sub.filter((pl.col("item") == item) & pl.col("diff").is_not_null())
            if r.height:
                x.append(j - 0.4 + width * (i + 0.5))
                d.append(100 * r["diff"][0])
                low, high = shown_range(r.row(0, named=True))       # a clear change on its side of 0
                lo.append(100 * low)
                hi.append(100 * high)
        d = np.array(d)
        ax.bar(x, d, width=width * 0.9, color=OKABE_ITO[i % 8], label=cell,
               yerr=np.nan_to_num(np.vstack([d - np.array(lo), np.array(hi) - d])),   # (untested: none)
               capsize=3, ecolor="black")
    ax.axhline(0, color="black", linewidth=0.8)
    for s in (-1, 1):
        ax.axhline(s * 100 * c.smallest, color="#777777", linestyle="--", linewidth=1,
                   label="the smallest difference that matters" if s == 1 else None)
    whose = split_roles(c)
    if whose:       # a seat's share of a role's wins: its tick in lines ("Seat 2 / share of the / …")
        import textwrap

        ax.set_xticks(range(len(items)), [textwrap.fill(x, 18)
                                          if "'s share of " in x else x for x in items], fontsize=8)
        ax.set_ylabel("Change, after − before (pp)")
    else:
        ax.set_xticks(range(len(items)), items)
        ax.set_ylabel("Change in win share, after − before (pp)")
    split = "".join(f", and in each seat's share of {w}" for w in whose)
    ax.set_title(f"Change per {'side' if c.what == 'side' else 'seat'} and cell{split} (intervals over "
                 f"the family of {c.family})", fontsize=9 if whose else None)
    # beside the axes, never over a bar or a whisker (review R #7: "best" put the box over Seat 3's
    # interval, hiding its lower end); the figure's constrained layout narrows the axes to make room,
    # so the legend stays inside the saved image (rendered without bbox_inches="tight": nothing
    # outside the figure would be drawn)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return fig


def _lone_items(c) -> list[str]:
    """The side rows of a before/after of a game with roles, the side of a role of one seat first
    (the Seigneur's: the side a designer reads first); a seat game's seats."""
    items = c.rows.filter(~split_mask(c.rows))["item"].unique(maintain_order=True).to_list()
    whose = split_roles(c)

    def many(item: str) -> bool:
        name = item.removesuffix(" side")
        return f"the {name}' wins" in whose or f"the {name}'s wins" in whose
    return sorted(items, key=many)


def _span(rows: pl.DataFrame, side: str, smallest: float) -> str:
    """The lowest to the highest of the rows' ``side`` ("before", "after"), each printed as the table
    of every cell prints it (:func:`_table_share`: 8 wins in 20,000 read "0.040%" here against
    "0.04%" there, session 56 review #4); one share when both print alike."""
    ordered = rows.sort(side)
    a, b = (_table_share(ordered.row(k, named=True), side, smallest) for k in (0, -1))
    return a if a == b else f"{a} to {b}"


def _table_share(r: dict, side: str, smallest: float) -> str:
    """A row's before or after as :func:`comparison_table` prints it: at the row's decimals
    (:func:`_row_print`), a rare share at the panel page's (:func:`_share_at`)."""
    return _share_at(r[side], _row_print(r, smallest)[0], _games_of(r, r[side]))


def level_words(c) -> list[str]:
    """The levels a before/after over a panel leads to, not only its changes (s37 #3: "in which
    cells is the Seigneur now in 25–35%?" had no answer on the page): for the side of a role of one
    seat (each side when none is), its win share over the cells before → after, per player count,
    and how many cells are below 25%, from 25% to 50%, above 50% after (the runs' values, each
    printed as the table of every cell prints it, :func:`_span`; the table per cell has each with
    its change)."""
    if c.what != "side":
        return []
    items = _lone_items(c)
    rows = c.rows.filter(~split_mask(c.rows) & pl.col("before").is_not_null() & pl.col("after").is_not_null())
    out = []
    for item in items[:1]:
        mine = rows.filter(pl.col("item") == item)
        if not mine.height:
            continue
        players = [_label_parts(x)[0] for x in mine["cell"]]
        mine = mine.with_columns(pl.Series("_p", players, dtype=pl.Int64))
        per = []
        if len(set(players)) > 1 and None not in players:
            for p in sorted(set(players)):
                part = mine.filter(pl.col("_p") == p)
                per.append(f"{p}p {_span(part, 'before', c.smallest)} → {_span(part, 'after', c.smallest)}")
        after = mine["after"]
        band = share_bands(after)
        out.append(f"Levels, before → after: the {item}'s win share {_span(mine, 'before', c.smallest)} → "
                   f"{_span(mine, 'after', c.smallest)} " + (f"over the {mine.height} cells" if mine.height > 1 else "in the one cell")
                   + " (the runs' values)"
                   + (f"; by player count: {'; '.join(per)}" if per else "")
                   + f". After the change, {BANDS_WORDS}: {band}; every cell's before, after and change in the table "
                   f"'{LEVEL_TABLE}'.")
    return out


#: the heading of the before/after's table per cell (one row a cell)
LEVEL_TABLE = "Per cell, before → after"


def level_table(c) -> pl.DataFrame:
    """One row per cell (s37 #3: the table of every cell, side and seat's share ran to 180 rows):
    for each side (seat, in a game without roles), its win share before → after, and its change
    with its interval over the family and the verdict, as the full table prints them
    (:func:`comparison_table`)."""
    full = comparison_table(c)
    keep = ~split_mask(c.rows)
    full = full.filter(keep)
    what = full.columns[1]
    interval = next(x for x in full.columns if x.startswith("Interval over the family"))
    out: dict = {}
    for r in full.iter_rows(named=True):
        row = out.setdefault(r["Cell"], {"Cell": r["Cell"]})
        item = r[what]
        row[f"{item}: before → after"] = (f"{r['Before']} → {r['After']}" if r["Before"] and r["After"]
                                          else r["Before"] or r["After"])
        row[f"{item}: change (interval), verdict"] = (
            f"{r['Change']} ({r[interval]}), {r['Verdict']}" if r[interval] else
            f"{r['Change']}, {r['Verdict']}" if r["Change"] else r["Verdict"])
    items = _lone_items(c)
    cols = ["Cell"] + [f"{i}: {k}" for i in items for k in ("before → after", "change (interval), verdict")]
    order = [x for x in c.cells if x in out] + [x for x in out if x not in c.cells]
    return pl.DataFrame([{k: out[x].get(k, "") for k in cols} for x in order],
                        schema={k: pl.String for k in cols})


# ---------------------------------------------------------------------------------------------
# The other changes: each cell's game length and the share of its games ending each way
# ---------------------------------------------------------------------------------------------

#: the heading of the section on the game length and the ends, and of its table
OTHER_HEADING = "Game length and how games end, per cell"
OTHER_TABLE = "Mean game length and share of games ending each way, per cell"


def _other_unit(r: dict) -> str:
    """A row's unit as the page prints a change of it: ``turns`` (the game's unit), or ``pp``."""
    return "pp" if r["unit"] == "share" else str(r["unit"])


def _other_digits(r: dict, lo: float, hi: float) -> int:
    """The decimals a change and its interval print with: 1, or more while an end would print as 0
    or as ± the smallest difference that matters without being it (:func:`reports.text.
    verdict_digits`), or while its two ends print alike (up to 3, as the two-run page's
    :func:`reports.text.interval_digits`: a Seigneurial length's change of 0.882 turns, paired on
    20,000 deals, printed "+0.9 to +0.9 turns" for its interval of 0.854 to 0.910, review s56 B)."""
    from reports.text import rounded, verdict_digits

    scale = 100.0 if r["unit"] == "share" else 1.0
    d = verdict_digits(lo, hi, float(r["smallest"]), scale)
    while d < 3 and hi > lo and rounded(scale * lo, d) == rounded(scale * hi, d):
        d += 1
    return d


def _other_level(x: float | None, r: dict, bare: bool = False, digits: int = 1) -> str:
    """A before or after value: ``54.8 turns`` (``bare``: ``54.8``; at ``digits``), ``89.8%``; a
    share at the decimals that keep it from printing as 0% or 100% when it is neither (``0.05%``,
    ``99.95%``: :func:`_share_digits`)."""
    from reports.text import num

    if x is None:
        return ""
    if r["unit"] != "share":
        return num(x, digits) + ("" if bare else f" {r['unit']}")
    # at the change's decimals (so that after − before is the change printed), halves rounded as the
    # tables round them (review s42 A #1: 0.0785 printed 7.8% beside a change of +7.9 pp)
    return f"{pct(x, max(digits, _share_digits(x)))}%"


def _share_digits(x: float) -> int:
    """The decimals of a share in %: 1, or 2 when it is within 0.1 pp of 0% or 100% without being
    it (``0.05%``, ``99.95%``: not 0.1% or 100.0%)."""
    return min(2, _decimals(100 * min(x, 1.0 - x))) if 0 < x < 1 else 1


def _other_change(r: dict, with_interval: bool = True) -> str:
    """A change with its interval over the family (:func:`shown_range`: a clear change's on its side
    of 0), in its unit: ``−24.3 turns (−25.3 to −23.3 turns)``, ``+10.2 pp (+8.3 to +12.0 pp)``."""
    from reports.text import signed

    scale = 100.0 if r["unit"] == "share" else 1.0
    u = _other_unit(r)
    d = _change_digits(r)
    text = f"{signed(scale * r['diff'], d)} {u}"
    if r["before"] is not None and r["after"] is not None:
        # beside the levels printed at d (:func:`_change_digits`): the change rounded where the
        # printed after − before is that, at d or one decimal fewer, else that difference
        # (:func:`_printed_change`: 4.073 → 4.096 turns beside +0.023, a change of 0.0235)
        text = f"{_printed_change(scale * r['before'], scale * r['after'], scale * r['diff'], d)} {u}"
    if r["verdict"] is None or r["size_low"] is None or not with_interval:
        return text
    lo, hi = shown_range(r)
    return f"{text} ({signed(scale * lo, d)} to {signed(scale * hi, d)} {u})"


def _change_digits(r: dict) -> int:
    """The decimals a row's change prints with: its interval's over the family
    (:func:`_other_digits`), or, untested, 2 significant digits below 0.1 (0.022 turns, not 0.0);
    then more, up to 2 (:data:`LEVEL_DIGITS`, not 3: review s42 K #8), until the printed after −
    before is the change rounded (7.33 → 6.96 turns beside −0.37 turns, not 7.3 → 7.0 beside −0.4;
    where 2 do not make it so, :func:`_printed_change` prints the change), a share's too (review s42 A #1: 0.0% → 7.8%
    beside +7.9 pp), each rounded as the tables round (:func:`reports.text.rounded`, halves away
    from zero); a share's levels print at least at their own decimals, :func:`_share_digits`, so
    its change prints at least at theirs (0.0% → 0.05%, +0.05 pp)."""
    from reports.text import rounded

    scale = 100.0 if r["unit"] == "share" else 1.0
    if r["verdict"] is None or r["size_low"] is None:
        d = _decimals(scale * r["diff"])
    else:
        d = _other_digits(r, *shown_range(r))
    if r["before"] is None or r["after"] is None:
        return d
    if r["unit"] == "share":      # the levels' own decimals: 0.0% → 0.05%, +0.05 pp
        d = max(d, *(_share_digits(x) for x in (r["before"], r["after"])))
    while d < LEVEL_DIGITS and rounded(rounded(scale * r["after"], d) - rounded(scale * r["before"], d), d) != \
            rounded(scale * r["diff"], d):
        d += 1
    return d


def _relative(r: dict) -> str:
    """A length's change relative to its length before: ``44% shorter``, ``3% longer``; '' for a share,
    a length of 0 before, or one that did not change (review s42 A #6: "under 1% shorter" beside a
    change of 0.0 turns, the same in every game)."""
    if r["unit"] == "share" or not r["before"] or not r["diff"]:
        return ""
    k = r["diff"] / r["before"]
    return f"{num(abs(100 * k), 0)}% {'longer' if k > 0 else 'shorter'}" if abs(100 * k) >= 1 else \
        f"under 1% {'longer' if k > 0 else 'shorter'}"


def _other_name(item: str) -> str:
    """``the mean game length``; ``games ending: Draw pile ran out``."""
    return "the mean game length" if item == "Mean game length" else item[:1].lower() + item[1:]


def _other_family_words(c) -> str:
    what = ("game length and end-reason shares" if c.other["metric"].n_unique() > 1
            else "game length" if c.other["metric"][0] == "mean_game_length" else "end-reason shares")
    return f"the {_comparisons(c.other_family)} of every cell's {what}"


def _mirrored(r: dict, said: list[dict], rows: pl.DataFrame) -> bool:
    """Whether an end-reason share's clear changes are the exact mirror of one already said (a game
    that ends one of two ways: the games that no longer end by the draw pile are the games that
    now reach the guild goal), so that saying both would say one change twice."""
    from analysis.panel_compare import END_METRIC

    if r["metric"] != END_METRIC:
        return False
    mine = rows.filter((pl.col("metric") == END_METRIC) & (pl.col("key") == r["key"])).select("cell", "diff")
    for x in said:
        if x["metric"] != END_METRIC:
            continue
        other = rows.filter((pl.col("metric") == END_METRIC) & (pl.col("key") == x["key"])).select("cell", "diff")
        j = mine.join(other, on="cell", how="full")
        if j.height == mine.height == other.height and \
                ((j["diff"] + j["diff_right"]).abs() < 1e-12).fill_null(False).all():
            return True
    return False


def other_changes_sentence(c) -> str:
    """The end of the before/after's first answer: the largest clear changes that are not the seats'
    or sides' win shares (the mean game length in its unit, the share of games ending each way;
    :func:`analysis.panel_compare.largest_other`: at most two, the game length one of them when it
    is clear, an end's share that only mirrors one already said left out: :func:`_other_slots`),
    each with its size and interval over their own family, then the other clear measures named
    with the cells they are clear in; or that none is clear (with the largest change, within
    noise); '' when the runs record neither a game length nor how games end."""
    from analysis import stats
    from analysis.panel_compare import largest_other
    from reports.text import num

    o = getattr(c, "other", None)
    if o is None or o.height == 0:
        if getattr(c, "other_constant", None):
            return ("Largest other changes: none; the game length and how games end are the same in "
                    "every game of both panels' runs.")
        return ""
    tested = o.filter(pl.col("verdict").is_not_null())
    family = f"(Holm's correction over {_other_family_words(c)}; intervals over that family)"
    if tested.height == 0:
        return ("Largest other changes: none could be tested (no game's length or end differs "
                "between the rules).")
    top = largest_other(c, most=o.height)
    if top.height == 0:
        r = tested.with_columns((pl.col("diff").abs() / pl.col("smallest")).alias("_a")).sort(
            "_a", descending=True).row(0, named=True)
        return (f"Largest other changes: none clear {family}; the largest, {_other_name(r['item'])} in "
                f"{r['cell']} {_other_change(r)}, within noise.")
    chosen, left, _ = _other_slots(top, tested)
    parts = []
    for r in chosen:
        rel = _relative(r)
        d = max(1, _change_digits(r))           # (a length's levels at its change's decimals)
        level = f"{_other_level(r['before'], r, bare=True, digits=d)} → {_other_level(r['after'], r, digits=d)}"
        if r["cells"] == 1:
            parts.append(f"{_other_name(r['item'])} in {r['cell']} {level}, {_other_change(r)}"
                         f"{' (' + rel + ')' if rel else ''}, {verdict_words(r['verdict'])}")
            continue
        n_item = tested.filter((pl.col("metric") == r["metric"]) & (pl.col("key") == r["key"])).height
        mine = tested.filter((pl.col("metric") == r["metric"]) & (pl.col("key") == r["key"])
                             & (pl.col("verdict") != stats.NOT_SHOWN))
        ups, downs = int((mine["diff"] > 0).sum()), int((mine["diff"] < 0).sum())
        longer, shorter = ("longer", "shorter") if r["metric"] == "mean_game_length" else ("up", "down")
        u = _other_unit(r)
        if ups and downs:
            # (each end a change alone: not r's levels, which belong to r's own change)
            lo, hi = (_other_change({**r, "diff": x, "verdict": None, "before": None, "after": None})
                      for x in (mine["diff"].min(), mine["diff"].max()))
            way = f"{longer} in {ups} and {shorter} in {downs} of {n_item} cells, {lo.removesuffix(' ' + u)} to {hi}"
        else:
            scale = 100.0 if r["unit"] == "share" else 1.0
            d = min(2, _decimals(scale * abs(r["lowest"])))       # both ends at the smaller's decimals
            lo, hi = (num(scale * abs(x), d) for x in (r["lowest"], r["highest"]))
            span = f"{lo} {u}" if lo == hi else f"{lo} to {hi} {u}"
            rels = sorted({_relative(x).split("%")[0] for x in mine.iter_rows(named=True)} - {""},
                          key=lambda t: float(t.split()[-1]))
            pct = (f" ({rels[0]}%)" if len(rels) == 1 else f" ({rels[0]}% to {rels[-1]}%)") if rels and rel else ""
            way = f"{longer if ups else shorter} in {mine.height} of {n_item} cells by {span}{pct}"
        verdicts = sorted(mine["verdict"].value_counts().iter_rows(), key=lambda x: stats.VERDICT_ORDER.index(x[0]))
        sizes = (f"each {verdict_words(r['verdict'])}" if len(verdicts) == 1 else
                 ", ".join(f"{k} {verdict_words(v)}" for v, k in verdicts))
        parts.append(f"{_other_name(r['item'])}, {way}, {sizes}; the most in {r['cell']}: {level}, {_other_change(r)}")
    rest = ""
    if left:
        # what the rest counts: the measures, each with the cells it is clear in (review s42 K #4:
        # "and 2 more in the table" counted kinds of measure, and read as rows)
        named = [f"{_other_name(r['item'])} in {r['cells']} {'cell' if r['cells'] == 1 else 'cells'}"
                 for r in left[:OTHER_NAMED]]
        if len(left) > OTHER_NAMED:
            named.append(f"{len(left) - OTHER_NAMED} more measures")
        rest = (f"; clear too, in the table '{OTHER_TABLE}': "
                + (named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]))
    return "Largest other changes: " + "; ".join(parts) + rest + f" {family}."


#: the other clear measures the lead names after its two (:func:`other_changes_sentence`)
OTHER_NAMED = 3


def _other_slots(top: pl.DataFrame, tested: pl.DataFrame, most: int = 2) -> tuple[list[dict], list[dict], list[dict]]:
    """(the clear measures :func:`other_changes_sentence` gives with numbers, at most ``most``; the
    other clear measures, named after them; those said, for :func:`_mirrored`), in the order of
    :func:`analysis.panel_compare.largest_other`. An end-reason share that only mirrors one said is
    left out. The game length, when clear, is given one of the slots (review s42 K #4: the lead
    spent both on the Censitaire-objective and Seigneur-goal endings of one cell, which with the
    tie-winning ending partition one change, and did not name its games 71% longer): the end-reason
    shares of a cell add up to 100% before and after, so a second one adds less than the length."""
    rows = [r for r in top.iter_rows(named=True)]
    said: list[dict] = []
    kept: list[dict] = []
    for r in rows:
        if _mirrored(r, said + kept, tested):
            continue
        kept.append(r)
        if len(said) < most:
            said.append(r)
    length = next((r for r in kept if r["metric"] == "mean_game_length"), None)
    if length is not None and length not in said and len(said) == most:
        said[-1] = length
    chosen = [r for r in kept if any(r is x for x in said)]
    left = [r for r in kept if not any(r is x for x in said)]
    return chosen, left, said


def other_note(c) -> str:
    """How the game length and the end-reason shares were compared (the section's words)."""
    o = c.other
    out = []
    if o.height:
        smallest = []
        for metric in ("mean_game_length", "end_reason_share"):
            part = o.filter(pl.col("metric") == metric)
            if part.height:
                x = float(part["smallest"][0])
                unit = str(part["unit"][0])
                smallest.append(f"{rounded_pp(x)} for a share" if metric == "end_reason_share"
                                else f"{x:g} {unit.removesuffix('s') if x == 1 else unit} of game length")
        paired = bool(o["paired"].all())
        units = o.filter(pl.col("metric") == "mean_game_length")["unit"].unique().to_list()
        unit = f"in {units[0]}" if len(units) == 1 else "in the game's unit"
        out.append(f"Each cell's mean game length ({unit}) and share of games ending each way, "
                   "before and after, from each run's statistics; "
                   + ("each change paired game by game (the same deals both sides: a t interval over "
                      "the per-game differences). " if paired else
                      "each change paired game by game where both runs played the same deals and kept "
                      "per-game rows (a t interval over the per-game differences), else unpaired (Welch's "
                      "interval for the length, Newcombe's for a share: wider); the column 'Paired by deal' "
                      "says which. ")
                   + f"One family of {c.other_family} (every cell's length and end-reason shares, apart "
                   "from the seats' win shares): clear after Holm's correction over it, sized on the "
                   "Bonferroni interval over it (the interval shown), against the "
                   + " and ".join(smallest) + " that matter.")
    if c.other_constant:
        groups: dict = {}
        for cell, label, why in c.other_constant:
            what = why.split("(", 1)[1].split(")", 1)[0] if "(" in why else why
            groups.setdefault((label, what), []).append(cell)
        said = "; ".join(f"{label} ({what}) {_where(cells, list(c.cells))}"
                         for (label, what), cells in groups.items())
        out.append(f"The same in every game of both runs, so not compared: {said}.")
    return " ".join(out)


def other_table(c) -> pl.DataFrame:
    """One row per cell and measure: its value before and after, the change (and a length's
    relative to its length before: ``44% shorter``) with its interval over the family and the
    verdict, and whether it was paired."""
    from analysis.panel_compare import SAME_GAMES

    rows = []
    for r in c.other.iter_rows(named=True):
        rel = _relative(r)
        if r["verdict"] is not None:
            lo, hi = shown_range(r)
            verdict = verdict_words(r["verdict"])
        else:
            verdict = ("not tested (the same in every game under both rules, paired game by game: no game "
                       f"of the {int(r['games_before']):,} differs)" if r["note"] == SAME_GAMES
                       else f"not tested ({r['note'] or 'no interval'})")
        # a length before and after at the change's decimals, so that the printed after − before is
        # the printed change (4.00 → 3.98 turns beside −0.02 turns, not 4.0 → 4.0)
        d = max(1, _change_digits(r))
        rows.append({"Cell": r["cell"], "Measure": r["item"],
                     "Before": _other_level(r["before"], r, digits=d), "After": _other_level(r["after"], r, digits=d),
                     "Change": _other_change(r, with_interval=False), "Relative to before": rel,
                     f"Interval over the family of {c.other_family}":
                         _other_change(r).split(" (", 1)[1].rstrip(")") if r["verdict"] is not None else "",
                     "Verdict": verdict, "Paired by deal": "yes" if r["paired"] else "no"})
    cols = ["Cell", "Measure", "Before", "After", "Change", "Relative to before",
            f"Interval over the family of {c.other_family}",
            "Verdict", "Paired by deal"]
    return pl.DataFrame(rows, schema={k: pl.String for k in cols})
