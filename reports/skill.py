"""The page of a ``balance skill`` directory (balance by search budget): reads ``skill.parquet``
and ``skill.json``, writes ``report.html`` with the trend sentence, the figure (every seat's win
share against the budget when every seat searches, with 95% intervals and the fair share; the
searching seat's win share against the cell's own bots beside it; one figure per cell of a panel) and
the tables (with seats alike the gap between seats, with the sentence's interval, and Ludii's
Balance; in a game with roles the role shares and the gap within the role of several seats, no
seat-balance index); with a ``--against`` comparison (``against.parquet``: these rules against a skill
directory of other rules), a section leading with it: its sentence, a figure of every seat's change
by budget and its table. Whether one searching seat beats the bots is read seat by seat and over all its games
(:func:`gain_sentence`, :func:`overall_gain`). Only reads files. :func:`skill_section` is the same reading as a section
of the balance report (``balance report RUN --skill DIR``; :func:`check_skill_dir` validates the
directory first).

May import polars, numpy, matplotlib (through :mod:`reports.figures.common`), :mod:`analysis.skill_words`
(the advantage and its sentence, computed from the table), :mod:`analysis.skill_against` (the
comparison's sentence), :mod:`analysis.start_coins` (its caution of some seats' start coins compared
with heuristic bots), :mod:`analysis.skill_target` (a target's reading, the roles' names),
:mod:`analysis.stats` and :mod:`analysis.load` (sizes against the smallest
difference that matters), :mod:`reports.html` (style, and the glossary's hover titles on the
page's sentences), :mod:`reports.glossary` (the page's "How to read this page"),
:mod:`reports.text` (number formats: every percentage rounded as the terminal rounds it,
halves away from zero, :func:`simcore.numbers.rounded`) and :mod:`simcore` (registry, numbers).
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
from pathlib import Path

import numpy as np
import polars as pl

from analysis.skill_against import (
    bound_text, change_number, change_text, row_digits, seat_text, verdict_text,
)
from analysis.start_coins import skill_caution
from analysis.stats import NOT_SHOWN
from analysis.skill_words import (
    BALANCE_COLUMNS, FAMILY_LEVEL, LEVEL_COLUMN, ROLE_GAP_COLUMNS, advantage, cells as skill_cells,
    bots_held, gap_headline, has_balance, lineup_bots, role_share_digits, several_seats_role,
    shown_gap, verdict,
)
from reports.figures.common import (
    OKABE_ITO, error_bars, new_figure, percent_axis, render, styled, subplots,
)
from reports import glossary
from reports.html import _CSS, _html_table, with_titles
from reports.text import pct, pct_ci
from simcore.numbers import rounded
from simcore import games as registry


def check_skill_dir(skill_dir: str | Path, game: str | None = None,
                    rules_sha256: "str | list[str] | None" = None, rules_name: str = "",
                    option: str = "--skill", runs_word: str | None = None) -> dict:
    """The question of a ``balance skill`` directory (its ``skill.json``), or one
    :class:`UsageError` line: not such a directory, not finished, of another game, or played under
    other rules than ``rules_sha256`` (the report's run, or a list: one of its runs, e.g. the after
    run of a before/after report, whose skill directory compares itself ``--against`` the before
    run's: its section says what "a property of the
    rules" the trend is, so both must be of the same rules; a directory written before the rules
    were recorded is taken as it is). ``option``: the command-line option each line names
    (``balance skill --against`` checks its directory here too)."""
    from simcore.errors import UsageError

    d = Path(skill_dir)
    meta = d / "skill.json"
    if not os.path.lexists(d):      # (revC #10: said "no readable skill.json")
        raise UsageError(f"{option} {d}: does not exist (give a directory balance skill wrote)")
    try:
        q = json.loads(meta.read_text())
    except (OSError, ValueError):
        raise UsageError(f"{option} {d}: not a balance skill directory (no readable skill.json)") from None
    if not isinstance(q, dict) or q.get("kind") != "balance-skill":
        raise UsageError(f"{option} {d}: not a balance skill directory (skill.json is not one)")
    if not (d / "skill.parquet").is_file():
        raise UsageError(f"{option} {d}: unfinished (no skill.parquet); run balance skill there again")
    schema = pl.read_parquet_schema(d / "skill.parquet")
    if not has_balance(schema):
        raise UsageError(f"{option} {d}: written by an older balance skill, without the Balance "
                         "figures; run balance skill there again (it plays only what is missing)")
    if LEVEL_COLUMN not in schema and "cell" in schema and \
            pl.read_parquet(d / "skill.parquet", columns=["cell"])["cell"].n_unique() > 1:
        raise UsageError(f"{option} {d}: written by an older balance skill, its panel's gap intervals "
                         "not adjusted over its cells; run balance skill there again (it plays only "
                         "the every-seat parts)")
    if game is not None and registry.get(q["game"]).name != registry.get(game).name:
        raise UsageError(f"{option} {d}: a balance skill of {q['game']}, but "
                         f"{'the report' if option == '--skill' else 'this one'} is of {game}")
    played = q.get("rules_sha256")
    allowed = [rules_sha256] if isinstance(rules_sha256, str) else [x for x in rules_sha256 or () if x]
    if allowed and played and played not in allowed:
        runs = runs_word or ("the report's run" if len(allowed) == 1 else "any of the report's runs")
        raise UsageError(f"{option} {d}: played under other rules ({q.get('rules_name') or '?'}) than "
                         f"{runs} ({rules_name or '?'}); run balance skill with the rules of the run "
                         "it is about (--rules, --set; for a before/after report, the after run's, "
                         "--against a skill directory of the before run's)")
    return q


def check_skill_lineups(q: dict, runs: list[tuple[int, list[str]]], skill_dir: str | Path,
                       option: str = "--skill") -> None:
    """One :class:`UsageError` line when the ``balance skill`` question ``q`` played none of the
    report's runs' (player count, line-up) pairs ``runs``: its section would quote another table's
    win shares as the trend of this run's (designer review 44 #1: a 4-player study under a
    3-player run's page read "4.6% … at budget 64 … 0.5%"). A line-up matches whatever the order
    of its bots (the skill rotates the searching seat); a directory that records no cells (written
    before they were) is checked on its player count alone."""
    from analysis.panel import lineup_label as label
    from simcore.errors import UsageError

    panel = q.get("panel")
    cells = panel.get("cells") if isinstance(panel, dict) else None
    if cells:
        played = [(int(c["players"]), sorted(map(str, c["lineup"]))) for c in cells]
        if any((n, sorted(map(str, lineup))) in played for n, lineup in runs if lineup):
            return
        if not any(lineup for _, lineup in runs):
            return
        told = ", ".join(label(int(c["players"]), list(c["lineup"])) for c in cells[:3]) + \
            (f" and {len(cells) - 3} more" if len(cells) > 3 else "")
        n, lineup = runs[0]
        raise UsageError(f"{option} {Path(skill_dir).name}: a balance skill of {told}, not of the "
                         f"report's run ({label(n, lineup)}); run balance skill with the run's "
                         f"player count and line-up (--players {n} --strategies {','.join(lineup)})")
    if q.get("players") is not None and all(int(q["players"]) != n for n, _ in runs):
        raise UsageError(f"{option} {Path(skill_dir).name}: a balance skill of {q['players']} players, "
                         f"not of the report's run ({runs[0][0]} players); run balance skill with "
                         f"--players {runs[0][0]}")


def rules_note(q: dict) -> str:
    """"Rules: <file> with <settings>." for a skill played under rules given to it (``--rules``,
    ``--set``), else "" (the shipped rules, or a directory written before the rules were
    recorded)."""
    name = q.get("rules_name")
    change = q.get("rules_change")          # a tune's best_rules.toml: what it changes
    return (f"Rules: {name}" + (f" ({change})" if change else "") + "."
            if name and q.get("rules_given") else "")


def _write_figure(d: Path, fig, name: str) -> str:
    """``figures/<name>.png`` and ``.svg`` in the skill directory ``d`` (each whole or not at all);
    the PNG as base64, for the page."""
    for fmt in ("png", "svg"):
        tmp = d / "figures" / f"{name}.{fmt}.tmp"
        tmp.write_bytes(render(fig, fmt))
        tmp.replace(d / "figures" / f"{name}.{fmt}")
    return base64.b64encode((d / "figures" / f"{name}.png").read_bytes()).decode("ascii")


# each seat's marker beside its colour, drawn open for every second seat, so that seats whose points
# meet are told apart (both figures, the budget figure and the --against one, also set the seats
# side by side at each budget, :func:`seat_offsets`)
SEAT_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def seat_offsets(seats: int) -> np.ndarray:
    """Each seat's small step beside its budget's tick in :func:`budget_figure` and
    :func:`against_figure`, in seat order (seat 1 leftmost), together at most a third of the space
    between two budgets (review N #10: every seat's error bar on the same x, seats 2 and 4 at
    budget 0 covering each other; the --against figure drew them so until session 55). The
    budgets are categories at equal steps (0, 4, 16 at 0, 1, 2), not values on a scale, so a point
    beside its tick is read as its budget's: nearer its own tick than any other."""
    step = min(0.08, 0.32 / max(1, seats))
    return (np.arange(seats) - (seats - 1) / 2) * step


def _seat_style(s: int) -> dict:
    """The matplotlib style of seat index ``s``'s points and bars on a budget axis: its colour and
    marker, an open marker for every second seat, so two seats on the same point both show."""
    colour = OKABE_ITO[s % 8]
    return {"color": colour, "marker": SEAT_MARKERS[s % len(SEAT_MARKERS)], "capsize": 3,
            "markersize": 6 if s % 2 == 0 else 8,
            "markerfacecolor": colour if s % 2 == 0 else "none", "markeredgewidth": 1.5,
            "alpha": 0.9}


def _seat_label(s: int, roles: tuple[str, ...], bots: list[str] | tuple[str, ...] = ()) -> str:
    """A figure's legend entry for seat index ``s``: "Seat 2", or with roles "Seat 1 (Seigneur)",
    as every other figure names a seat (review Y #10: "seat 1 (Seigneur)" here only); where the
    seats hold different bots (``bots``, each seat's), with its bot: "Seat 1 (balanced)", "Seat 1
    (Seigneur, harsh-lord)" (helper 228 #2: the legend of a mixed line-up named seats only, beside
    sentences saying its gaps are mostly its bots')."""
    said = [roles[s].capitalize()] if len(set(roles)) > 1 else []
    if len(set(bots)) > 1 and s < len(bots):
        said.append(bots[s])
    return f"Seat {s + 1}" + (f" ({', '.join(said)})" if said else "")


def rules_label(q: dict) -> str:
    """A skill question's rules as a sentence names them: "the shipped rules", or the rules file's
    name with its settings ("rules.toml with --set income.palais.base=4"; a tune's best rules with
    what they change, "best_rules.toml with setup.start_coins[3]=2")."""
    name = str(q.get("rules_name") or "")
    if not name or not q.get("rules_given"):
        return "the shipped rules"
    file, _, rest = name.partition(" with ")          # rest: "--set …", the settings given
    changed = [x for x in (q.get("rules_change"), rest) if x]   # a tune's best rules: what they change
    return Path(file).name + (" with " + " and ".join(changed) if changed else "")


@styled
def against_figure(cmp: pl.DataFrame, roles: tuple[str, ...], smallest: float):
    """Every seat's change of win share (these rules minus the others, every seat searching)
    against the budget, with its interval at the family's level; the band of changes smaller than
    the smallest difference that matters shaded around 0. Each seat's point a small step beside
    its budget's tick, in seat order (:func:`seat_offsets`, as the budget figure's: the session 55
    review found every seat's interval drawn on the tick, Middle-Ages seats 2 and 4 at budget 0
    covering each other), told apart by colour and marker (:func:`_seat_style`) and named in the
    legend. One cell's rows."""
    fig = new_figure(7.5, 4.2)
    ax = subplots(fig, 1, 1)
    budgets = sorted(cmp["budget"].unique().to_list())
    x = np.arange(len(budgets))
    P = int(cmp["seat"].max()) + 1
    beside = seat_offsets(P)
    ax.axhspan(-100 * smallest, 100 * smallest, color="0.9", lw=0,
               label=f"smaller than {100 * smallest:g} pp")
    ax.axhline(0, color="grey", lw=1)
    for s in range(P):
        t = cmp.filter(pl.col("seat") == s).sort("budget")
        y = 100 * t["change"].to_numpy()
        at = np.searchsorted(budgets, t["budget"].to_numpy())
        ax.errorbar(x[at] + beside[s], y, yerr=error_bars(100 * t["change_low"], y, 100 * t["change_high"]),
                    label=_seat_label(s, roles), **_seat_style(s))
    ax.set_xticks(x, [str(b) for b in budgets])
    # budget 0 is the line-up's own bots (greedy with --strategies greedy), not the game's default
    ax.set_xlabel("playouts per option (0 = each seat's own bot)")
    ax.set_ylabel("change in win share (pp), every seat searching")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def against_table(cmp: pl.DataFrame, other: str = "the other rules") -> pl.DataFrame:
    """The comparison as a designer reads it: a row per cell, budget and seat, both win shares
    (``other``: the other rules' name), the change with its interval, its verdict ("no clear
    change" where the interval holds 0) and the games each side played; each row at the decimals
    the sentence and the terminal print it with (:func:`analysis.skill_against.row_digits`)."""
    rows = []
    for r in cmp.iter_rows(named=True):
        # a row's decimals as the sentence and the terminal print it (review s58 #5: "+0.25 pp" there,
        # "+0.3" here; analysis.skill_against.row_digits)
        d = row_digits(r)
        rows.append({"cell": r["cell"], "budget": r["budget"], "seat": r["seat"] + 1,
                     "role": str(r["role"]).capitalize(),
                     f"win share, {other}": f"{pct(r['before_win_share'], d)}%",
                     "win share, these rules": f"{pct(r['after_win_share'], d)}%",
                     # the difference of the two shares as printed beside it (review s47: 23.0% and
                     # 22.3% beside −0.8)
                     # (a change that prints as 0 but is not gets the decimals where it is not,
                     # one of 0 no sign: analysis.skill_against.change_number)
                     "change (pp)": change_number(r, d),
                     "interval": f"{pct(r['change_low'], d)} to {pct(r['change_high'], d)}"
                     .replace("-", "−"),
                     "verdict": verdict_text(r["verdict"]),
                     "games": f"{r['before_games']:,} / {r['after_games']:,}"})
    out = pl.DataFrame(rows)
    drop = ["cell"] if out["cell"].n_unique() == 1 else []
    if out["role"].n_unique() == 1:
        drop.append("role")
    return out.drop(drop)


def against_sentence(cmp: pl.DataFrame, q: dict, spec) -> str:
    """The comparison's words (:func:`analysis.skill_against.against_words`) for the skill
    directory of question ``q`` (its ``skill.json``, with its ``against`` record): the rules named
    as the page and the terminal name them, each clear change placed against the fair share, and
    the budgets of this directory the other did not play. One function for the page, the report's
    section and the terminal."""
    from analysis.skill_against import against_words

    a = q["against"]
    other = rules_label(a)
    only_after = sorted(set(q.get("budgets") or []) - set(cmp["budget"].to_list()))
    return against_words(cmp, f"{other} ({a.get('dir')})", f"these rules ({rules_label(q)})",
                         spec.roles_alike, fair=spec.fair_share, only_after=only_after,
                         before_short=other, after_short="these rules")


def against_reading(d: Path, q: dict, spec, smallest: dict | None = None):
    """``(table, the other rules' name, smallest difference)`` of the directory's ``--against``
    comparison (``against.parquet``), each change worded against that smallest difference, or
    ``None`` without one. ``smallest``: the report's overrides by kind (the page uses the game's
    own). Its words: :func:`against_sentence`."""
    a = q.get("against")
    if not isinstance(a, dict) or not (d / "against.parquet").is_file():
        return None
    from analysis.load import smallest_difference
    from analysis.stats import practical

    cmp = pl.read_parquet(d / "against.parquet")
    if cmp.height == 0:
        return None
    small = smallest_difference(q["game"], "share", smallest)
    if "gap_level" not in cmp.columns:
        # written when each rules' gap was given its 95% interval, not the adjusted one its own
        # trend reads: made again from the two skill tables, or else not described (one gap, one
        # interval)
        cmp = _gaps_again(cmp, d, Path(str(a.get("dir") or "")), small)
    # each change worded against this reading's smallest difference (a report's override too)
    cmp = cmp.with_columns(pl.Series("verdict", list(practical(
        cmp["change"].to_numpy(), cmp["change_low"].to_numpy(), cmp["change_high"].to_numpy(), small)),
        pl.Utf8))
    return cmp, rules_label(a), small


def _gaps_again(cmp: pl.DataFrame, d: Path, before_dir: Path, small: float) -> pl.DataFrame:
    """An ``against.parquet`` written before ``gap_level``, its gap columns made again from the two
    skill tables (:func:`analysis.skill_against.against`), or emptied when the other directory's
    table can no longer be read (the sentence then describes no gap rather than a 95% interval
    as the adjusted one)."""
    from analysis.skill_against import against

    try:
        again = against(pl.read_parquet(before_dir / "skill.parquet"),
                        pl.read_parquet(d / "skill.parquet"), small)
    except Exception:           # moved, removed or unreadable: no gap described
        again = None
    gaps = [c for c in again.columns if "_gap" in c or c == "gap_level"] if again is not None else []
    if again is not None and again.height == cmp.height:
        return cmp.drop([c for c in gaps if c in cmp.columns]).join(
            again.select(["cell", "budget", "seat", *gaps]), on=["cell", "budget", "seat"], how="left")
    return cmp.with_columns([pl.lit(None, pl.Float64).alias(c) for c in
                             ("before_gap_low", "after_gap_low", "gap_level")])


def against_lines(words: str) -> list[str]:
    """The comparison's words one sentence per line: the rules named and the level, each rules'
    gap (or the role's share), then budget by budget (the page's list, the report's bullets)."""
    return re.split(r"(?<=\.) (?=At budget|In \S+ |The largest gap|The \w+'s win share|Budgets? \d"
                    r"|Every seat)", words)


def against_html(d: Path, q: dict, spec) -> str:
    """The page's section on the ``--against`` comparison (``against.parquet``), or "" without
    one: the sentence, a figure per cell and the table."""
    read = against_reading(d, q, spec)
    if read is None:
        return ""
    cmp, other, smallest = read
    words = against_sentence(cmp, q, spec)
    a = q["against"]
    figs = []
    for k, cell in enumerate(skill_cells(cmp)):
        ct = cmp if cell == "" else cmp.filter(pl.col("cell") == cell)
        fig = against_figure(ct, spec.seat_roles(int(ct["players"][0])), smallest)
        png = _write_figure(d, fig, "against" if k == 0 else f"against-{k + 1}")
        figs.append((f"<h3>{html.escape(cell)}</h3>" if cell and len(skill_cells(cmp)) > 1 else "")
                    + f"<figure><img alt='change against {html.escape(other)}' "
                      f"src='data:image/png;base64,{png}'></figure>")
    level = float(cmp["level"][0])
    parts = against_lines(words)
    # some seats' start coins compared at budget 0, the line-up's heuristic bots: after the list
    caution = skill_caution(q, cmp["budget"].unique().to_list())
    return (f"<h2>Against {html.escape(other)}: does the change hold as play gets stronger?</h2>"
            f"<p>{with_titles(parts[0])}</p><ul>"
            + "".join(f"<li>{with_titles(x)}</li>" for x in parts[1:]) + "</ul>"
            + (f"<p>{with_titles(caution)}</p>" if caution else "")
            + f"<p class='note'>Compared with the balance skill directory {html.escape(str(a.get('dir')))} "
            f"({html.escape(other)}): each seat's win share when every seat searches, these rules "
            f"minus those, with Newcombe's interval for a difference of two proportions (at "
            f"{100 * level:.4g}%, as the sentence says). The grey band holds the changes smaller than "
            f"the smallest difference that matters ({100 * smallest:g} pp).</p>"
            + "".join(figs) + _html_table(against_table(cmp, other)))


def _cells(table: pl.DataFrame) -> list[str]:
    return list(dict.fromkeys(table["cell"].to_list())) if "cell" in table.columns else [""]


def _cell_table(table: pl.DataFrame, cell: str) -> pl.DataFrame:
    return table if cell == "" else table.filter(pl.col("cell") == cell)


def _players_of(table: pl.DataFrame, q: dict) -> int:
    return int(table["players"][0]) if "players" in table.columns else int(q["players"])


def report_cell(table: pl.DataFrame, q: dict, players: int | None = None,
                lineup: list[str] | None = None) -> str:
    """The cell of a skill directory's ``table`` (its ``skill.parquet``, the advantage or the
    ``--against`` comparison) that a balance report reads for its run: the one of the run's player
    count and line-up (``players``, ``lineup``; whatever the order of its bots, as
    :func:`check_skill_lineups` matches them), else the first at that player count, else the
    first. Session 58 review: a report of two 4×greedy runs on a skill directory of the default
    panel led with the 4×balanced cell's "up to ±19.4 pp" (the greedy cell's: ±23.5) and plotted
    that cell, every cell having 4 players. "" for a table without cells."""
    names = _cells(table)
    if names == [""]:
        return ""
    panel = q.get("panel")
    if lineup and isinstance(panel, dict):
        from analysis.panel import lineup_label
        want = (players, sorted(map(str, lineup)))
        for c in panel.get("cells") or []:
            if (int(c["players"]), sorted(map(str, c["lineup"]))) == want:
                label = c.get("label") or lineup_label(int(c["players"]), list(c["lineup"]))
                if label in names:
                    return label
    if players is not None and "players" in table.columns:
        return next((c for c in names if int(_cell_table(table, c)["players"][0]) == players), names[0])
    return names[0]


def cell_words(table: pl.DataFrame, cell: str) -> str:
    """A figure caption's cell where the directory holds several (" Cell 4p 4×greedy, the report's
    line-up; the skill directory's page has the other 2 cells."), "" otherwise."""
    names = _cells(table)
    if not cell or len(names) < 2:
        return ""
    rest = len(names) - 1
    return (f" Cell {cell}, the report's line-up; the skill directory's page has the other "
            + (f"{rest} cells." if rest > 1 else "cell."))


def _whole(bars) -> None:
    """A seat's markers and bars drawn whole where they sit on the share axis' 0 or 100% (the
    Seigneur's 0.0%): the axis stays within 0–100% (the figure checklist's rule 4), so a marker
    there is not clipped at the axes' edge, half of it cut off."""
    line, caps, cols = bars.lines
    for artist in (line, *caps, *cols):
        if artist is not None:
            artist.set_clip_on(False)


@styled
def budget_figure(table: pl.DataFrame, roles: tuple[str, ...], fair: float | None):
    """Left: win share per seat against the budget, every seat searching (at budget 0 every seat
    plays its own bot); right: one searching seat's win share against the others' bots, per seat it
    was rotated to. Both with their 95% intervals, each seat's point a small step beside its
    budget's tick (:func:`seat_offsets`: no two seats' intervals drawn over each other), told apart
    by colour and marker (:func:`_seat_style`); the legend names each seat's bot where the seats
    hold different bots (:func:`_seat_label`, the bots as the line-up names them at budget 0,
    :func:`analysis.skill_words.lineup_bots`). One cell's rows; its caption:
    :func:`budget_caption`."""
    fig = new_figure(10, 4.2)
    ax, ax2 = subplots(fig, 1, 2)
    budgets = sorted(table["budget"].unique().to_list())
    x = np.arange(len(budgets))
    allp = table.filter(pl.col("part") == "all")
    P = int(allp["seat"].max()) + 1
    beside = seat_offsets(P)
    bots = lineup_bots(table, budgets[0])
    for s in range(P):
        t = allp.filter(pl.col("seat") == s).sort("budget")
        y = t["win_share"].to_numpy()
        at = np.searchsorted(budgets, t["budget"].to_numpy())
        _whole(ax.errorbar(x[at] + beside[s], y, yerr=error_bars(t["ci_low"], y, t["ci_high"]),
                           label=_seat_label(s, roles, bots), **_seat_style(s)))
    if fair is not None:
        ax.axhline(fair, color="grey", lw=1, ls="--", label="fair share")
    ax.set_xticks(x, [str(b) for b in budgets])
    ax.set_xlabel("playouts per option (0 = each seat's own bot)")
    ax.set_ylabel("win share, every seat searching")
    ax.set_ylim(bottom=0)
    percent_axis(ax)
    one = table.filter(pl.col("part") == "one")
    for s in range(P):
        t = one.filter(pl.col("seat") == s).sort("budget")
        y = t["win_share"].to_numpy()
        at = np.searchsorted(budgets, t["budget"].to_numpy())
        _whole(ax2.errorbar(x[at] + beside[s], y, yerr=error_bars(t["ci_low"], y, t["ci_high"]),
                            label=_seat_label(s, roles, bots), **_seat_style(s)))
    if fair is not None:
        ax2.axhline(fair, color="grey", lw=1, ls="--")
    ax2.set_xticks(x, [str(b) for b in budgets])
    ax2.set_ylim(bottom=0)
    ax2.set_xlabel("playouts per option (0 = each seat's own bot)")
    ax2.set_ylabel("one searching seat: its win share")
    percent_axis(ax2)
    # one legend for both panels, under them, off every point (review s49 skill #3: placed by
    # matplotlib inside the left panel, it hid the Seigneur's budget-0 point, his only win share
    # above 0)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 6), fontsize=8,
               frameon=False)
    return fig


def budget_caption(ct: pl.DataFrame) -> str:
    """What :func:`budget_figure` of one cell's rows ``ct`` shows, for the page and the report's
    section: the two panels and their games, and why the right panel's budget-0 points differ from
    the left's for the same bots (review N #10: 23/25/32/20% beside 20.5/24.2/29.8/25.5%, unsaid):
    at budget 0 nobody searches, so a one-seat game is an every-seat game, and the one-seat part's
    games there are the first of the every-seat part's (the same line-up and seed,
    :func:`gain_sentence`), each seat's point from those same few games."""
    def games(part: str, budget: int | None = None) -> int | None:
        t = ct.filter(pl.col("part") == part)
        t = t if budget is None else t.filter(pl.col("budget") == budget)
        return int(t["games"].min()) if t.height else None

    every, one = games("all"), games("one")
    text = ("Left: every seat searching, each seat's win share by budget"
            + (f" ({every:,} games a budget)" if every else "") + "; at budget 0 no seat searches, every "
            "seat plays its own bot. Right: one searching seat against the others' bots, each seat's "
            "win share when it is the one searching" + (f" ({one:,} games a seat)" if one else "") + ".")
    n0, m0 = games("all", 0), games("one", 0)
    if n0 and m0:
        text += (f" At budget 0 the right panel shows the same bots as the left, in only the first "
                 f"{m0:,} of the left's {n0:,} games (every seat's point from those same games), so "
                 "its points differ from the left's by chance: its wider intervals say how far.")
    return text + (" Each seat's point sits a small step beside its budget's tick, seat 1 leftmost; "
                   "95% Wilson intervals.")


def _percent(table: pl.DataFrame) -> pl.DataFrame:
    """The table as a designer reads it: one row per cell, budget, part and seat; who searches in
    words ("every seat", or "one seat" against the others' own bots), seats numbered from 1 (as
    everywhere in reports), the win share as ``27.9% (27.6–28.2)`` (95% Wilson interval). The cell
    (player count and line-up, as every sentence names it) stands for the player count, which is a
    column only in a table without cells; the role column goes when every seat plays the same role. The Balance figures are in their own table
    (:func:`balance_table`)."""
    t = table.drop([c for c in BALANCE_COLUMNS + (LEVEL_COLUMN,) + ROLE_GAP_COLUMNS if c in table.columns])
    rows = []
    for r in t.iter_rows(named=True):
        rows.append({"cell": r["cell"], "players": r["players"], "budget": r["budget"],
                     "who searches": "every seat" if r["part"] == "all" else "one seat",
                     "seat": r["seat"] + 1, "role": str(r["role"]).capitalize(), "bot": r["bot"], "games": f"{r['games']:,}",
                     "win share (95% interval)": pct_ci(r["win_share"], r["ci_low"], r["ci_high"])})
    out = pl.DataFrame(rows)
    drop = ["cell"] if set(out["cell"]) == {""} else ["players"]
    if out["role"].n_unique() == 1:
        drop.append("role")
    return out.drop(drop)


def gap_level_words(table: pl.DataFrame) -> tuple[float, str]:
    """The level of the seat gap's interval the trend sentence reads (:func:`analysis.skill_words.
    verdict`: two budgets compared, at 97.5%; a panel's at its family level, the table's
    ``adjusted_level``) and its words: "97.5%, as in the sentence: two budgets compared"."""
    levels = table.filter(pl.col("part") == "all")[LEVEL_COLUMN].drop_nulls() \
        if LEVEL_COLUMN in table.columns else pl.Series([], dtype=pl.Float64)
    level = float(levels.min()) if levels.len() else FAMILY_LEVEL
    k = round(0.05 / (2 * (1 - level))) if level < 1 else 1
    family = "two budgets compared" if k <= 1 else f"two budgets of each of {k} cells compared"
    return level, f"{100 * level:.4g}%, as in the sentence: {family}"


def balance_table(table: pl.DataFrame, spec=None) -> pl.DataFrame:
    """One row per cell and budget (every seat searching). Seats alike: the largest gap between two
    seats' win shares in pp (1 minus the win-share balance) with the interval the sentence reads
    (at its level, :func:`gap_level_words`: one number, one interval on the page), and Ludii's
    Balance (rank credits) with its 95% interval, both from simultaneous intervals on every pair of
    seats. A game with roles (``spec`` not ``roles_alike``): no seat-balance index but the role
    shares (:func:`role_table`)."""
    if spec is not None and not spec.roles_alike:
        return role_table(table, spec)
    level, words = gap_level_words(table)
    rows = []
    for c in skill_cells(table):
        t = table if c == "" else table.filter(pl.col("cell") == c)
        t = t.filter(pl.col("part") == "all")
        budgets = sorted(t["budget"].unique().to_list())
        for b in budgets:
            part = t.filter(pl.col("budget") == b)
            r = part.row(0, named=True)
            # the gap as the difference of the two shares as the win-share table prints them
            gap, d = shown_gap(list(part.iter_rows(named=True)))
            # the sentence compares the first and the last budget: a budget between them is not
            # read by it, and its interval at that level is not a finding of its own (review 45 #2)
            between = b not in (budgets[0], budgets[-1])
            rows.append({"cell": c, "budget": b,
                         "largest gap (pp)": pct(gap, d),
                         f"gap interval ({words})":
                             f"{pct(1 - r['win_share_balance_high_adjusted'], d)} to "
                             f"{pct(1 - r['win_share_balance_low_adjusted'], d)}"
                             + (" (not read by the sentence)" if between else ""),
                         "Balance (Ludii)": f"{r['balance']:.3f}",
                         "Balance 95% interval": f"{r['balance_low']:.3f} to {r['balance_high']:.3f}"})
    out = pl.DataFrame(rows)
    return out.drop("cell") if set(out["cell"]) == {""} else out


def balance_note(table: pl.DataFrame, spec=None, cell: str | None = None) -> str:
    """Under the Balance table, with seats alike: Ludii's Balance reads the seats' average places,
    not their wins, so it may move another way than the largest win-share gap the page's sentence
    reads (a designer saw it fall 0.922 → 0.858 beside a gap that shrank, without a word): its
    first and last budget's values in ``cell`` (the report's, :func:`report_cell`) or the first
    cell, and the change between them with its 95% interval (:func:`balance_change`), worded by
    whether it excludes 0. Where the seats hold different bots (at either budget,
    :func:`analysis.skill_words.lineup_bots`), it says so and that the Balance then reads mostly
    how those bots differ, not a balance of the seats, as the lead and trend sentences say of a
    gap (helper 228 #2: the note read a mixed line-up's places as a seat balance). '' for a game
    with roles or one budget."""
    if spec is not None and not spec.roles_alike:
        return ""
    cells = skill_cells(table)
    cell = cell if cell in cells else cells[0] if cells else ""
    t = table if cell == "" else table.filter(pl.col("cell") == cell)
    t = t.filter(pl.col("part") == "all").sort("budget")
    if "balance" not in t.columns or t["budget"].n_unique() < 2:
        return ""
    first, last = t["budget"].min(), t["budget"].max()
    middle = sorted(b for b in t["budget"].unique().to_list() if b not in (first, last))
    between = ""
    if middle:
        # (review 45 #2: a budget-4 gap of 13.8 pp (1.5 to 25.5) read as clear, though its level holds
        # for the two budgets the sentence compares, not for every budget of the table at once)
        named = ", ".join(map(str, middle))
        between = (f" The sentence compares budgets {first} and {last}; the gap interval at budget"
                   f"{'s' if len(middle) > 1 else ''} {named} is at the same level, which holds for two "
                   f"budgets compared, not for the {t['budget'].n_unique()} budgets read together: one of "
                   f"them that excludes 0 is not a finding on its own (play more games at that budget to "
                   f"tell).")
    a = t.filter(pl.col("budget") == first).row(0, named=True)
    b = t.filter(pl.col("budget") == last).row(0, named=True)
    d, lo, hi = balance_change(a, b)
    where = f" ({cell})" if cell else ""
    # the change as the difference of the two Balances printed beside it (session 56 review:
    # "0.940 → 0.844, a change of −0.097" for 0.9404 and 0.8436)
    shown = round(float(f"{b['balance']:.3f}") - float(f"{a['balance']:.3f}"), 3)
    span = f"{shown:+.3f} ({lo:+.3f} to {hi:+.3f})".replace("-", "−")
    if lo > 0 or hi < 0:
        way = (f"a change of {span}, so these games show it {'rising' if d > 0 else 'falling'}")
    else:
        way = f"a change of {span}, which these games cannot tell from no change"
    bots = next((x for x in (lineup_bots(t, first), lineup_bots(t, last)) if len(set(x)) > 1), [])
    lineup = (f" The seats hold different bots ({bots_held(bots)}), each the same seat in every game, "
              "so the Balance here reads mostly how differently those bots play, not a balance of the "
              "seats: to measure the seats, play one bot in every seat." if bots else "")
    return (f"Ludii's Balance reads the seats' average places (first to last), not their wins, so it "
            f"need not move with the largest gap between two seats' win shares{where}: from budget "
            f"{a['budget']} to budget {b['budget']} it goes {a['balance']:.3f} → {b['balance']:.3f}, "
            f"{way} (the 95% interval of the change, from the two budgets' intervals: the budgets "
            "play the same deals, which makes it, if anything, wide)." + lineup + between)


def balance_change(a: dict, b: dict) -> tuple[float, float, float]:
    """Balance at budget ``b`` minus at budget ``a`` with a 95% interval from the two rows' own
    (``balance_low``/``balance_high``): the MOVER combination of Zou and Donner (Newcombe's for two
    proportions), each end the change's distance to the matching ends of the two intervals added in
    quadrature. It assumes the two estimates independent; two budgets played on the same deals
    are positively correlated, which narrows the true interval (review s49 skill #1: "its 95%
    intervals overlap, so these games do not tell the two apart" beside 0.940 (0.879–1.000) →
    0.844 (0.785–0.908), a fall of 0.096 (0.008 to 0.180): overlap is no test)."""
    x, y = float(a["balance"]), float(b["balance"])
    lx, ux, ly, uy = (float(a["balance_low"]), float(a["balance_high"]),
                      float(b["balance_low"]), float(b["balance_high"]))
    d = y - x
    lo = d - ((y - ly) ** 2 + (ux - x) ** 2) ** 0.5
    hi = d + ((uy - y) ** 2 + (x - lx) ** 2) ** 0.5
    return d, lo, hi


def balance_title(spec, section: bool = False, budgets=()) -> str:
    """The heading of :func:`balance_table`: the seat-balance figures with seats alike, the role
    shares in a game with roles (no seat-balance index there). ``section``: the report section's
    caption, which says what the intervals are. ``budgets``: the table's; with budget 0 the
    heading says that no seat searches there (review N #10: "every seat searching" over a budget-0
    row of the bots themselves)."""
    bots = " (budget 0: no seat searches, every seat plays its own bot)" if 0 in budgets else ""
    if not spec.roles_alike:
        return (f"Role shares by search budget, every seat searching{bots[:-1] + '; ' if bots else ' ('}"
                "each role's win share with its 95% Wilson interval; the largest gap between two seats "
                "of the role of several seats, 95% simultaneous over its pairs of seats)" if section else
                f"Role shares by budget, every seat searching{bots}")
    return (f"Balance by search budget, every seat searching{bots[:-1] + '; ' if bots else ' ('}"
            "largest gap between two seats' win shares with its interval at the sentence's level, and "
            "Ludii's Balance with its 95% interval; both simultaneous over the pairs of seats)" if section
            else f"Balance by budget, every seat searching{bots}")


def role_shares(part: pl.DataFrame, spec) -> list[tuple[str, float, float, float]]:
    """A budget's every-seat part (one cell, one budget) as its roles' win shares: (the role as the
    sentences write it, "Seigneur", "Censitaires"; its share; its 95% interval). A role of one seat
    is that seat's share and interval (as in the win-share table); a role of several seats the sum
    of its seats' shares (the share of games that side wins) with Wilson's interval over the games
    (a win share in [0, 1] per game has a variance of at most p(1 - p), as for a tune's role
    target, :mod:`analysis.skill_target`)."""
    from analysis.skill_target import role_labels
    from analysis.stats import wilson

    labels = role_labels(spec)
    part = part.sort("seat")
    out = []
    for role in dict.fromkeys(part["role"].to_list()):
        rows = part.filter(pl.col("role") == role)
        label = labels.get(role, str(role).capitalize())
        if rows.height == 1:
            r = rows.row(0, named=True)
            out.append((label, r["win_share"], r["ci_low"], r["ci_high"]))
            continue
        share, n = float(rows["win_share"].sum()), int(rows["games"].min())
        low, high = wilson(share * n, n)
        out.append((label, share, float(low), float(high)))
    return out


def role_share_texts(shares: list[tuple[str, float, float, float]]) -> list[tuple[str, str]]:
    """The roles' shares of :func:`role_shares` as the role table prints them ("0.8% (0.2–2.2)"),
    every share at the same decimals (the most any needs, :func:`analysis.skill_words.ci_digits`),
    and of two roles whose shares make the whole (a winner in every game) the second printed as
    100% minus the first as printed, so that the two add up (review s42 B #5: 0.75% and 99.25%
    printed 0.8% and 99.3%, 100.1% together); the intervals from the shares themselves."""
    from analysis.skill_words import ci_digits

    if not shares:
        return []
    d = max(ci_digits(share, low, high) for _, share, low, high in shares)
    printed = [rounded(100 * share, d) for _, share, _, _ in shares]
    if len(shares) == 2 and abs(shares[0][1] + shares[1][1] - 1.0) < 1e-9:
        printed[1] = round(100.0 - printed[0], d)
    return [(label, f"{printed[i]:.{d}f}% ({pct(low, d)}–{pct(high, d)})")
            for i, (label, _, low, high) in enumerate(shares)]


def role_table(table: pl.DataFrame, spec) -> pl.DataFrame:
    """A game with roles, every seat searching: one row per cell and budget with each role's win
    share and its 95% interval (:func:`role_shares`) and, within the role of several seats (the
    Censitaires), the largest gap between two of its seats with its 95% interval, simultaneous over
    that role's pairs of seats (:func:`analysis.skill.role_gap`; a table written before it has
    none). No seat-balance index: a Seigneur's and a Censitaire's shares differ by design."""
    from analysis.skill_target import role_labels

    labels = role_labels(spec)
    rows = []
    for c in skill_cells(table):
        t = (table if c == "" else table.filter(pl.col("cell") == c)).filter(pl.col("part") == "all")
        roles = tuple(t.filter(pl.col("budget") == t["budget"].min()).sort("seat")["role"].to_list())
        several = several_seats_role(roles)
        for b in sorted(t["budget"].unique().to_list()):
            part = t.filter(pl.col("budget") == b)
            row = {"cell": c, "budget": b}
            for label, text in role_share_texts(role_shares(part, spec)):
                row[f"{label}: win share (95% interval)"] = text
            r = part.row(0, named=True)
            if several is not None and r.get("role_gap") is not None:
                who = labels.get(several[0], several[0].capitalize())
                seats = list(part.sort("seat").iter_rows(named=True))
                gap, d = shown_gap([seats[s] for s in several[1] if s < len(seats)])
                row[f"largest gap between two {who} (pp)"] = pct(gap, d)
                row[f"its 95% interval (over the {who}' pairs)"] = (
                    f"{pct(r['role_gap_low'], d)} to {pct(r['role_gap_high'], d)}")
            rows.append(row)
    out = pl.DataFrame(rows)
    return out.drop("cell") if set(out["cell"]) == {""} else out


def _list(seats: list[int]) -> str:
    """Seats numbered from 1 in words: "seat 2", "seats 2 and 3", "seats 1, 2 and 4"."""
    names = [str(s + 1) for s in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"


def _gain_item(seat: int, w: float, n: int, w0: float, n0: int, diff: float, low: float, high: float,
               flo: float, fhi: float, family: int, smallest: float, named: bool,
               digits: tuple[int, int] = (1, 1), at_once: str | None = None) -> str:
    """One seat of :func:`gain_sentence`: the two shares with the games each is from, the
    difference, its own 95% interval (Newcombe's) and the range its size was read on (Bonferroni
    over the seats compared, cut at 0 on the difference's side for a clear one,
    :func:`reports.text.size_range`), at the decimals that keep every end of that range on its side
    of 0 and of the smallest difference (:func:`reports.text.verdict_digits`). ``digits``: the
    decimals the table prints each share with (:func:`analysis.skill_words.ci_digits`); where both
    print at the same decimals the difference stated is that of the two shares as printed (review
    s42 B #5: "50.0% … vs … 33.3%, +16.8 pp"); where they print at different decimals (a share near
    0% gets more), the true difference at the coarser of the two (helper 228 #3: 33.3% against
    0.25% read "+33.05 pp", the printed shares subtracted at the finer decimals, for a true
    +33.08: now "+33.1 pp"; the coarser decimals, as the role sentence of
    :mod:`analysis.skill_words` prints its change since session 58). Its intervals come from the
    unrounded shares. ``at_once``: the words naming the family the range is over when it is not
    the cell's seats ("all 11 seats of the 3 cells at once")."""
    from reports.text import pp, pp_ci, verdict_digits

    dw, dw0 = digits
    head = ((f"seat {seat + 1} " if named else "")
            + f"{pct(w, dw)}% of {n:,} games vs the bot's {pct(w0, dw0)}% of {n0:,}")
    if not np.isfinite(diff):
        return head
    text = f"{head}, {pp(*_shown_change(w, dw, w0, dw0))}"
    if np.isfinite(low) and np.isfinite(high):
        text += f", 95% interval {pp_ci(low, high)}"
    if np.isfinite(flo) and np.isfinite(fhi):
        d = verdict_digits(flo, fhi, smallest)
        at_once = at_once or {1: "tested alone", 2: "both seats at once"}.get(family, f"all {family} seats at once")
        text += f", {at_once} {pp_ci(flo, fhi, d)}"
    return text


def _shown_change(w: float, dw: int, w0: float, dw0: int) -> tuple[float, int]:
    """(change, decimals) of share ``w`` printed at ``dw`` decimals against ``w0`` printed at
    ``dw0``, the one rule of :func:`gain_sentence`'s seat items and its overall clause: at the same
    decimals, the difference of the two as printed (review s42 B #5: 50.0% vs 33.3% is +16.7 pp);
    at different decimals, the true difference at the coarser (helper 228 #3: 33.3% vs 0.25% is
    +33.1 pp, not +33.05)."""
    if dw == dw0:
        return round(rounded(100 * w, dw) - rounded(100 * w0, dw0), dw) / 100, dw
    return w - w0, min(dw, dw0)      # (pp rounds it at the coarser)


#: a seat's clause in :func:`gain_sentence`, by its verdict and the side of 0 of its difference
_GAIN_WORDS = {("large", 1): "clearly more, by enough to matter,", ("may", 1): "clearly more, may matter,",
               ("small", 1): "clearly more but by less than {small}",
               ("large", -1): "clearly less, by enough to matter,", ("may", -1): "clearly less, may matter,",
               ("small", -1): "clearly less but by less than {small}",
               ("not", 0): "not clearly different",
               ("none", 0): "no difference to measure (neither wins there)"}


#: What a searching seat's gain does not say (review 283 #1): a skill run plays one searching seat
#: among the bots, never one bot among searchers, and in a game where a lone seat gains against
#: copies of another whatever it plays (4-player Middle-Ages: balanced alone among search4s won
#: 36.0% ▲, search4 alone among balanced bots 42.2% ▲, ``balance ladder``), a lone searching
#: seat's gain is not by itself stronger play. Until session 63 the sentence said "the search bot
#: is the stronger player, so the budgets do measure stronger play" from that one side.
LONE_SEAT = (" These games play no bot alone among searching seats, so they do not say whether the "
             "search bot is the stronger player (a lone seat may gain whatever it plays; balance "
             "ladder plays both ways).")


#: :func:`gain_sentence` of a table without budget 0 (the bots themselves): the searching seat has
#: nothing to be compared with, so whether the budgets measure stronger play is not read
NO_BUDGET_ZERO = (" Budget 0 (every seat its own bot) was not played, so these games do not say "
                  "whether one searching seat at budget {top} beats the seat's own bot: the same "
                  "balance skill command with "
                  "--budgets 0 adds it (it plays budget 0 only and keeps the budgets played).")


def gain_sentence(ct: pl.DataFrame, smallest: float | None = None,
                  family: pl.DataFrame | None = None) -> str:
    """Whether one searching seat does better than the cell's own bot in that seat, seat by seat at
    the largest budget: if it does not, the budgets do not measure stronger play. The seat's own
    bot is read at budget 0 with every seat its own bot (the every-seat part: all its games; the
    one-seat part's budget-0 games are the first of those, the same line-up and seed, so the two
    are not pooled), else, in a table without it, the one-seat part's budget 0.

    Each seat's difference (its searching share minus its bot's, two independent samples: the
    searching seat's few games of the one-seat part against the bot's games) is worded by its size
    against ``smallest`` (the share difference that matters, 1 pp by default), as every verdict of
    the toolkit: clear when Holm's step-down over the seats compared rejects (on the p-values of
    Newcombe's interval inverted, :func:`analysis.stats.newcombe_p`, so a verdict never says "not
    clear" beside a Bonferroni interval that leaves out 0), its size read on the
    Bonferroni interval over them (:func:`analysis.stats.practical_holm`,
    :func:`analysis.stats.holm_size_interval`) — never on whether the two shares' own 95% intervals
    overlap, which is no test of their difference (designer review: "clearly more (the 95% intervals apart)"
    beside 68.4% of 38 games vs 38.7% of 150, with no size read). Each seat prints the games each
    share is from, the difference with its own 95% interval (Newcombe's, unadjusted) and the
    range its verdict was read on (all the seats at once), so the clause is true of the numbers
    beside it; the difference stated is that of the two shares as printed. A seat where neither
    wins has no difference to measure.

    Then the searching seat over all its games (the seats in turn) against the bots' shares in the
    same seats (:func:`overall_gain`: Wald's interval for the difference of the two weighted means,
    a test at 5% whose false-positive rate tests/test_s42_F_skill.py measures): where the seats
    alone cannot tell (too few games each), a clear overall gain says one searching seat gains on
    the bots (review s42 B #6), with the seats it could not show it in; in a game with roles
    (its seats of different roles) it does not stand for the seats it could not show it in. A gain
    is worded as what was measured, one searching seat among the bots, never as "stronger play":
    the run plays no bot alone among searching seats, and a lone seat may gain whatever it plays
    (:data:`LONE_SEAT`, review 283 #1).

    ``family``: the whole table of the page (every cell of a panel), whose every (cell, seat)
    comparison the page states in its cells' gain sentences: Holm's step-down and the Bonferroni
    size ranges then run over all of them, so that the seat claims of the page's gain sentences
    hold together at 95%, as its trend sentence's claims over the cells do (their overall clauses
    are a family of their own over the cells: :func:`_gain_ending`), and the sentence names that family
    ("Holm over the 11 seats compared in the panel's 3 cells (every gain sentence of the page)";
    session 55 review: each cell's sentence was a family of its own seats, 4k claims at 5% each
    cell on a page of k cells). None, or a table of one cell: the cell's own seats, as before."""
    from analysis import stats
    from reports.text import size_range

    small = stats.DEFAULT_SMALLEST_SHARE if smallest is None else float(smallest)
    got = _gain_comparisons(ct)
    if isinstance(got, str):
        return got
    top, own, every0, pairs = got["top"], got["own"], got["every0"], got["pairs"]
    w, n, w0, n0s = got["w"], got["n"], got["w0"], got["n0s"]
    low, high, diff, neither, tested = got["low"], got["high"], got["diff"], got["neither"], got["tested"]
    p_values = got["p_values"]
    # Holm over the seats compared: this cell's, or every cell's of ``family`` (the page's)
    p_adjusted, family_size, family_cells, overall_cells = _gain_family(ct, p_values, tested, family)
    # the size read on Newcombe's interval at the Bonferroni level over the comparisons of the
    # family, as the seat's own 95% one is Newcombe's (review S #10: a Wald interval at 38 games
    # near 0% or 100% has an error near 0, and the family's range could fall inside the seat's own
    # interval); clear by Holm's step-down over the same comparisons
    level = 1.0 - 0.05 / max(family_size, 1)
    flo, fhi = stats.newcombe(w, *stats.score_interval(w * n, n, level),
                              w0, *stats.score_interval(w0 * n0s, n0s, level))
    flo, fhi = np.where(tested, flo, np.nan), np.where(tested, fhi, np.nan)
    verdicts = np.atleast_1d(stats.practical(diff, flo, fhi, small,
                                             clear=np.nan_to_num(p_adjusted, nan=1.0) < 0.05))
    size = {stats.LARGE: "large", stats.MAY_MATTER: "may", stats.SMALL: "small"}
    groups: dict[tuple[str, int], list[int]] = {k: [] for k in _GAIN_WORDS}
    for i in range(len(pairs)):
        key = (("none", 0) if neither[i] else ("not", 0) if verdicts[i] == stats.NOT_SHOWN
               else (size[str(verdicts[i])], 1 if diff[i] > 0 else -1))
        groups[key].append(i)
    if family_cells > 1:
        over = f"the {family_size} seats compared in the panel's {family_cells} cells"
        at_once = f"all {family_size} seats of the {family_cells} cells at once"
        why_not = f"over the seats of the panel's {family_cells} cells"
        holm = f"; Holm over {over} (every gain sentence of the page), {100 * small:g} pp matters"
    else:
        at_once = None
        why_not = "over the seats"
        holm = (f"; Holm over the {family_size} seat{'s' if family_size != 1 else ''} compared, "
                f"{100 * small:g} pp matters" if family_size else "")
    clauses = []
    for key, idx in groups.items():
        if not idx:
            continue
        items = []
        for i in idx:
            lo, hi = size_range(float(diff[i]), float(flo[i]), float(fhi[i]), verdicts[i] != stats.NOT_SHOWN)
            item = _gain_item(pairs[i][0]["seat"], w[i], int(n[i]), w0[i], int(n0s[i]),
                              np.nan if neither[i] else float(diff[i]),
                              float(low[i]), float(high[i]), lo, hi, family_size, small, len(idx) > 1,
                              (_row_digits(pairs[i][0]), _row_digits(pairs[i][1])), at_once)
            if key == ("not", 0) and family_size > 1 and (low[i] > 0 or high[i] < 0):
                # why "not clearly" beside an interval that excludes 0 (review S #10)
                item += f": its own 95% interval excludes 0, but not after Holm's correction {why_not}"
            items.append(item)
        words = _GAIN_WORDS[key].format(small=f"{100 * small:g} pp")
        clauses.append(f"{words} in {_list([pairs[i][0]['seat'] for i in idx])} ({'; '.join(items)})")
    return _gain_ending(ct, got, verdicts, groups, clauses, holm, small, overall_cells)


def _gain_comparisons(ct: pl.DataFrame):
    """The comparisons of :func:`gain_sentence` in one cell's table ``ct``: at the largest budget,
    each searching seat against the seat's own bot (budget 0), as arrays (``w``, ``n``: the
    searching seat's share and games; ``w0``, ``n0s``: the bot's; ``low``, ``high``: Newcombe's
    95% interval of the difference; ``neither``: no seat wins on either side, out of the family;
    ``tested``; ``p_values``: Newcombe's interval inverted, nan where not tested), with ``top``,
    ``own`` (what the bot's share is read from), ``every0`` and ``pairs`` (the rows). Or the
    sentence itself, where there is nothing to compare: :data:`NO_BUDGET_ZERO`, or ''."""
    from analysis import stats

    one = ct.filter(pl.col("part") == "one")
    budgets = sorted(one["budget"].unique().to_list())
    if budgets and budgets[0] != 0:
        # no budget 0: nothing to hold the searching seat against. Said, with what plays it (the
        # session 54 review: --budgets 4,16 printed no word on whether the search bot is the
        # stronger player, and the page and skill.txt read the trend as if it were)
        return NO_BUDGET_ZERO.format(top=budgets[-1])
    if len(budgets) < 2:
        return ""
    top = budgets[-1]
    every0 = ct.filter((pl.col("part") == "all") & (pl.col("budget") == 0))
    base_rows = every0 if every0.height else one.filter(pl.col("budget") == 0)
    base = {r["seat"]: r for r in base_rows.iter_rows(named=True)}
    n0 = int(base_rows["games"].min()) if base_rows.height else 0
    own = (f"every seat its own bot at budget 0, {n0:,} games" if every0.height else
           f"one seat at budget 0, {n0:,} games")
    pairs = [(r, base[r["seat"]]) for r in one.filter(pl.col("budget") == top).sort("seat").iter_rows(named=True)
             if r["seat"] in base]
    if not pairs:
        return ""
    w = np.array([float(r["win_share"]) for r, _ in pairs])
    n = np.array([int(r["games"]) for r, _ in pairs], dtype=float)
    w0 = np.array([float(b["win_share"]) for _, b in pairs])
    n0s = np.array([int(b["games"]) for _, b in pairs], dtype=float)
    # the shares as win counts (a shared win counts 1/k, so a count may be fractional); z is
    # infinite only where every game of both went one way and the two ways differ
    _, _, _, _, _, _, low, high, _ = stats.two_proportions(w * n, n, w0 * n0s, n0s, np.inf)
    diff = w - w0
    # a seat where neither wins (a Seigneurial seat the bots never win from) has no difference to
    # measure: out of the family, so "Holm over the N seats compared" counts the seats it words
    neither = (w == 0) & (w0 == 0)
    # every other seat is compared, a seat whose games all went one way on both sides (infinite
    # z) included: its p is Newcombe's, which is finite (review s49 skill #4: such a seat was left
    # out of Holm, yet worded "not clear after Holm's correction over the seats")
    tested = ~neither
    # the test that agrees with the size intervals (Newcombe's, inverted): the unpooled Wald z
    # said "not clear" of 3 wins in 75 against 0 in 300 beside a Bonferroni interval of +0.4 to
    # +14.0 pp (review s46 #3)
    p_values = np.where(tested, stats.newcombe_p(w * n, n, w0 * n0s, n0s), np.nan)
    return {"top": top, "own": own, "every0": every0, "pairs": pairs, "w": w, "n": n, "w0": w0,
            "n0s": n0s, "low": low, "high": high, "diff": diff, "neither": neither, "tested": tested,
            "p_values": p_values}


def _gain_family(ct: pl.DataFrame, p_values: np.ndarray, tested: np.ndarray,
                 family: pl.DataFrame | None) -> tuple[np.ndarray, int, int, int]:
    """(Holm-adjusted p-values of ``ct``'s seats, nan where not tested; the number of comparisons
    in the family; the number of cells they are of; the number of cells with an overall
    comparison, :func:`overall_gain`, the family of the overall clauses): over ``ct``'s own seats,
    or, given ``family`` (the page's whole table) of several cells, over every tested (cell, seat)
    comparison of all its cells (:func:`gain_sentence`), ``ct``'s cell among them."""
    from analysis import stats

    mine = ct["cell"][0] if "cell" in ct.columns and ct.height else ""
    cells = _cells(family) if family is not None else [mine]
    if len(cells) <= 1 or mine not in cells:
        return stats.holm(p_values), int(tested.sum()), 1, 1
    pooled, at, counted, overall = [], None, 0, 0
    for c in cells:
        got = _gain_comparisons(_cell_table(family, c))
        overall += 1 if isinstance(got, dict) and float(got["n"].sum()) > 0 else 0
        if c == mine:
            at = len(pooled)
            p = p_values[tested]
        elif isinstance(got, dict):
            p = got["p_values"][got["tested"]]
        else:
            continue
        counted += 1 if len(p) else 0
        pooled += [float(x) for x in p]
    adjusted = stats.holm(np.asarray(pooled, dtype=float))
    out = np.full(len(p_values), np.nan)
    out[tested] = adjusted[at:at + int(tested.sum())]
    return out, len(pooled), counted, max(overall, 1)


def _gain_ending(ct: pl.DataFrame, got: dict, verdicts, groups: dict, clauses: list[str], holm: str,
                 small: float, overall_cells: int = 1) -> str:
    """:func:`gain_sentence` from its seats' clauses on: the head, the searching seat over all its
    games (:func:`overall_gain`) and what the two say of the budgets. On a page of several cells
    (``overall_cells`` of them with such a comparison) the overall comparisons are a family too:
    each read at level 1 − 0.05/k (Bonferroni over the cells), so that the page's k overall
    clauses hold together at 95% as its seats' do (session 56 review: each cell's read on its own
    95% interval, k claims at 5% each beside seats adjusted over the page); the clause prints the
    cell's own 95% interval beside it, each named (:func:`_overall_words`)."""
    from analysis import stats

    top, own, every0, pairs = got["top"], got["own"], got["every0"], got["pairs"]
    w, n, w0, n0s, diff = got["w"], got["n"], got["w0"], got["n0s"], got["diff"]
    head = (f" At budget {top}, one searching seat's win share against the seat's own bot's there ({own}{holm}) "
            "is " + "; ".join(clauses))
    # over all the searching seat's games, against the bots' shares in the same seats: read when
    # the seat-by-seat tests cannot tell (review s42 B #6: 34, 34, 30 and 35% of 100 games each
    # against about 25% read "do not show it the stronger player in any seat")
    together = bool(every0.height)
    if overall_cells > 1:
        pooled = overall_gain(w, n, w0, n0s, together=together, level=1.0 - 0.05 / overall_cells)
        alone = overall_gain(w, n, w0, n0s, together=together)
    else:
        pooled, alone = overall_gain(w, n, w0, n0s, together=together), None
    # the overall shares at the finest decimals their seats' print at, so that a share near 0%
    # reads as in the seat items ("the bots' 0.25%", not "0.3%" beside "the bot's 0.25%")
    digits = (max(_row_digits(r) for r, _ in pairs), max(_row_digits(b) for _, b in pairs))
    head += "; " + _overall_words(pooled, small, alone, overall_cells, digits)
    clear = [i for i, v in enumerate(verdicts) if v != stats.NOT_SHOWN]
    more = [i for i in clear if diff[i] > 0]
    less = [i for i in clear if diff[i] < 0]

    def seats_of(idx: list[int]) -> str:
        return _list([pairs[i][0]["seat"] for i in idx])

    if less:
        return head + (f": it is clearly the weaker player in {seats_of(less)}, not the stronger "
                       "player everywhere; read the trend with care.")
    unclear = groups[("not", 0)]
    if more and not unclear:
        where = " wherever a seat can win" if groups[("none", 0)] else ""
        if all(verdicts[i] == stats.SMALL for i in more):
            return head + (f": one searching seat clearly gains on the seat's own bot{where}, but by less "
                           f"than the {100 * small:g} pp that matters in every seat.{LONE_SEAT}")
        return head + f": one searching seat gains on the seat's own bot{where}.{LONE_SEAT}"
    seat_by_seat = (f"seat by seat these games show it gaining in {seats_of(more)} and "
                    f"cannot tell yet in {seats_of(unclear)}" if more else
                    "seat by seat these games do not show it gaining in any seat")
    roles = {str(r["role"]) for r, _ in pairs} if "role" in ct.columns else set()
    if pooled is not None and pooled["clear"] and pooled["diff"] > 0 and len(roles) <= 1:
        mattering = [i for i in more if verdicts[i] in (stats.LARGE, stats.MAY_MATTER)]
        if overall_size(pooled, small) == stats.SMALL and not mattering:
            # clear but below the difference that matters, and no seat's gain may matter: as the
            # seats' own "barely" (session 54 review: +0.6 pp (+0.3 to +0.9) over all the games
            # read "the budgets do measure stronger play", worded by its p-value, not its size)
            return head + (f": over all its games one searching seat clearly gains on the bots, but by "
                           f"less than the {100 * small:g} pp that matters, and {seat_by_seat}.{LONE_SEAT}")
        return head + (f": over all its games one searching seat clearly gains on the bots, though "
                       f"{seat_by_seat}.{LONE_SEAT}")
    if pooled is not None and pooled["clear"] and pooled["diff"] > 0:
        # seats of different roles: the games pooled over them do not show it stronger in the
        # role of a seat the seat-by-seat test cannot tell
        where = ", ".join(f"seat {pairs[i][0]['seat'] + 1} ({str(pairs[i][0]['role']).capitalize()})"
                          for i in unclear)
        return head + (f": over all its games one searching seat clearly gains on the bots, but its "
                       f"seats play different roles and {seat_by_seat}: play more games before reading "
                       f"the trend in {where} as a searching seat's gain.{LONE_SEAT}")
    if pooled is not None and pooled["clear"] and pooled["diff"] < 0:
        return head + (f": over all its games it is clearly the weaker player ({seat_by_seat}); read "
                       "the trend with care.")
    if more:
        return head + (f": these games show a searching seat gaining in {seats_of(more)}; in "
                       f"{seats_of(unclear)} they cannot tell yet, nor over all its games: play more "
                       "games before reading the trend as a searching seat's gain.")
    return head + (": these games do not show a searching seat gaining in any seat, nor over all its "
                   "games; play more games before reading the trend as a searching seat's gain.")


def _row_digits(r: dict) -> int:
    """The decimals the table prints a row's share with (:func:`analysis.skill_words.ci_digits`)."""
    from analysis.skill_words import ci_digits

    return ci_digits(r["win_share"], r.get("ci_low", np.nan), r.get("ci_high", np.nan))


#: The level of the overall comparison's interval (:func:`overall_gain`), two-sided.
OVERALL_LEVEL = 0.95


def overall_gain(w, n, w0, n0, together: bool = True, level: float = OVERALL_LEVEL) -> dict | None:
    """One searching seat's win share over all its games (the seats in turn: seat ``i``'s ``n[i]``
    games at share ``w[i]``) against the bots' in the same seats, weighted alike (the seat's own
    bot's share ``w0[i]`` of ``n0[i]`` games): the difference of the two weighted means, with its
    Wald interval at ``level`` (two-sided), each seat's variance from its share moved one win
    towards a half (Agresti and Caffo's adding of a win and a loss, so a seat of 0 wins in 100
    games does not count as certain). The bots' seats are of the same games when ``together``
    (the every-seat part at budget 0: a game's shares sum to at most 1, so their weighted mean's
    variance is at most the multinomial one, (Σc²p − (Σcp)²)/n0; with the same weight on every
    seat and a winner in every game it is the fair share, with none), else of games of their own.
    Clear when the interval holds no 0, a test at 1 − ``level`` (its false-positive rate measured
    in tests/test_s42_F_skill.py). None without games. Returns ``share``, ``bots``, ``diff`` (the
    difference of the two, unrounded; :func:`_overall_words` prints its own), ``low``, ``high``, ``games`` and ``clear``."""
    from analysis.stats import z_quantile

    w, n, w0, n0 = (np.asarray(x, dtype=float) for x in (w, n, w0, n0))
    total = float(n.sum())
    if total <= 0 or not len(w):
        return None
    c = n / total
    share, bots = float((c * w).sum()), float((c * w0).sum())

    def adjusted(p, m):
        return (p * m + 1.0) / (m + 2.0)

    p = adjusted(w, n)
    var = float((c ** 2 * p * (1 - p) / n).sum())
    p0 = adjusted(w0, n0)
    if together:
        var += max(0.0, float((c ** 2 * p0).sum() - (c * p0).sum() ** 2)) / float(n0.min())
    else:
        var += float((c ** 2 * p0 * (1 - p0) / n0).sum())
    half = z_quantile(level) * np.sqrt(var)
    d = share - bots
    # a difference of two shares lies within ±1: the interval is cut there (review s49 skill #5:
    # "+28.8 to +121.2 pp" on a few games)
    return {"share": share, "bots": bots, "diff": d, "low": max(d - half, -1.0),
            "high": min(d + half, 1.0), "games": int(total), "clear": bool(d - half > 0 or d + half < 0)}


def overall_size(g: dict, small: float) -> str:
    """The size of :func:`overall_gain`'s difference against ``small`` (the share difference that
    matters), read on its interval as every verdict of the toolkit is
    (:func:`analysis.stats.practical`: clear when the interval holds no 0, as ``g["clear"]``)."""
    from analysis import stats

    return str(np.atleast_1d(stats.practical(g["diff"], g["low"], g["high"], small))[0])


#: the overall clause's words by :func:`overall_size`, after "clearly more" or "clearly less"
_OVERALL_SIZE = {"large": ", by enough to matter", "may": ", may matter",
                 "small": " but by less than the {small} pp that matters"}


def _overall_words(g: dict | None, small: float, alone: dict | None = None, cells: int = 1,
                   digits: tuple[int, int] = (1, 1)) -> str:
    """The overall comparison of :func:`overall_gain` in a clause: "over all its 400 games (the
    seats in turn) it wins 33.3% against the bots' 25.0% in the same seats, +8.3 pp (95% interval
    +3.6 to +12.9 pp, Wald's for the difference of the two means, every seat weighted by its
    games), clearly more". On a panel's page (``cells`` > 1), ``g`` is read at the level of the
    panel's cells at once and ``alone`` at the cell's own 95%: "(95% interval for this cell alone,
    not adjusted, +0.3 to +4.7 pp; all 3 cells' overall comparisons at once, Bonferroni at 98.33%
    each, −0.2 to +5.2 pp; both Wald's …), not clearly different", the verdict read on the second.
    ``digits``: the decimals of the searching seat's share and the bots' (the finest their seats'
    shares print at in the seat items); the change is stated by the seat items' rule,
    :func:`_shown_change` (helper 234 #3: "the bots' 0.3% …, +33.0 pp" beside the seat items'
    "the bot's 0.25% …, +33.1 pp")."""
    from reports.text import pp, pp_ci, verdict_digits

    if g is None:
        return ""
    dw, dw0 = digits
    d, kd = _shown_change(g["share"], dw, g["bots"], dw0)
    k = verdict_digits(g["low"], g["high"], small)     # no end printed as 0 without being it
    if cells > 1 and alone is not None:
        ka = verdict_digits(alone["low"], alone["high"], small)
        level = f"{100 * (1 - 0.05 / cells):.2f}".rstrip("0").rstrip(".")
        interval = (f"{100 * OVERALL_LEVEL:g}% interval for this cell alone, not adjusted, "
                    f"{pp_ci(alone['low'], alone['high'], ka)}; all {cells} cells' overall comparisons "
                    f"at once, Bonferroni at {level}% each, {pp_ci(g['low'], g['high'], k)}; both")
    else:
        interval = f"{100 * OVERALL_LEVEL:g}% interval {pp_ci(g['low'], g['high'], k)},"
    way = ("clearly more" if g["clear"] and g["diff"] > 0 else "clearly less" if g["clear"]
           else "not clearly different")
    if g["clear"]:
        # worded by its size against the difference that matters, as each seat's is
        from analysis import stats

        key = {stats.LARGE: "large", stats.MAY_MATTER: "may", stats.SMALL: "small"}.get(overall_size(g, small))
        if key is not None:
            way += _OVERALL_SIZE[key].format(small=f"{100 * small:g}")
    return (f"over all its {g['games']:,} games (the seats in turn) it wins {pct(g['share'], dw)}% against "
            f"the bots' {pct(g['bots'], dw0)}% in the same seats, {pp(d, kd)} ({interval} Wald's for the "
            f"difference of the two means, every seat weighted by its games), {way}")


def _per_seat(q: dict, table: pl.DataFrame) -> str:
    """The games each seat of the one-searching-seat part played, as the table has them ("75", or
    "75-100" when the panel's cells have different player counts); where they do not add up to
    ``--games`` (rounded up to whole seats), says so: "76, rounded up: 304 in all" (review 45 #6:
    302 games were said, 4 × 76 = 304 played)."""
    one = table.filter(pl.col("part") == "one") if "part" in table.columns else None
    if one is None or not one.height:
        return f"{q['games']:,}"
    lo, hi = int(one["games"].min()), int(one["games"].max())
    said = f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"
    keys = [c for c in ("cell", "budget") if c in one.columns]
    totals = sorted(set(one.group_by(keys).agg(pl.col("games").sum())["games"].to_list())) if keys else []
    if totals and totals != [int(q["games"])]:
        said += ", rounded up: " + " or ".join(f"{t:,}" for t in totals) + " in all"
    return said


def per_seat_words(q: dict, table: pl.DataFrame) -> str:
    """The games each seat of the one-searching-seat part played, as the page's note says them:
    "75 per seat", or where they do not add up to ``--games`` "134 per seat, rounded up: 402 in
    all" (:func:`_per_seat`). The page put " per seat" after the whole of :func:`_per_seat`'s
    text, "134, rounded up: 402 in all per seat", which calls the 402 games of the three seats
    together one seat's."""
    said = _per_seat(q, table)
    count, sep, rest = said.partition(", rounded up: ")
    return f"{count} per seat" + (f"{sep}{rest}" if sep else "")


def target_html(table: pl.DataFrame, q: dict, spec) -> str:
    """The section on the targets ``balance skill --target`` was given (a tune's): per cell and
    target, met, missed or unclear at every budget with every seat searching, and the table of
    every share judged (:mod:`analysis.skill_target`); "" without targets."""
    texts = q.get("target") or []
    if not texts:
        return ""
    from analysis.skill_target import judge, role_labels, sentences
    from analysis.tune.targets import parse_targets

    targets = parse_targets(texts, q["game"])
    judged = judge(table, targets)
    labels = role_labels(spec)
    words = sentences(judged, targets, labels)
    level = f"{100 * float(judged['level'][0]):.4g}%" if judged.height else ""
    # each row its own share's status against the band, beside the target's verdict at its budget
    # (from all its shares: a seat inside the band at a budget missed by another seat reads
    # inside / missed); an interval's end that would print as the band's edge it is not gets more
    # decimals (26.549% beside 26.5%: "26.55")
    rows = [{"cell": r["cell"], "budget": r["budget"], "target": r["target"],
             "share": labels.get(r["measure"], r["measure"]),
             # the level of the sentence above, not the 95% of the tables below (rev22)
             f"win share ({level} interval)": _band_ci(r),
             "tolerance": f"{pct(r['band_low'])}–{pct(r['band_high'])}%",
             "this share": {"inside": "inside the tolerance", "outside": "outside it",
                            "unclear": "unclear (across an edge)"}[r["share_status"]],
             "target at this budget": r["budget_outcome"]} for r in judged.iter_rows(named=True)]
    return ("<h2>The target as play gets stronger</h2>"
            + "".join(f"<p>{with_titles(w)}</p>" for w in words)
            + (_html_table(pl.DataFrame(rows)) if rows else ""))


def _band_ci(r: dict) -> str:
    """A judged share with its interval as the page writes one (:func:`reports.text.pct_ci`), with
    at least the decimals that tell its ends from the band's edges
    (:func:`analysis.skill_target.interval_text`)."""
    from analysis.skill_target import interval_text

    text = pct_ci(r["win_share"], r["low"], r["high"])
    ours = interval_text(r, sep=" (") + ")"
    return ours if len(ours) > len(text) else text


PERCENT_TITLE = ("Win share by seat and budget (at budget 0 nobody searches: both parts are the bots "
                 "themselves)")


BUDGET = "playouts per option"          # the search budget's glossary term


def terms_html(texts) -> str:
    """The page's "How to read this page": every glossary term the page uses
    (:func:`reports.glossary.used_terms` of ``texts``, the page's text, those found in it; the
    search budget's "playouts per option" among them), each with the explanation the run report
    gives (review N
    #6: "Balance (Ludii)", "pp" unexplained on the skill page). The sentences carry the same
    explanations as hover titles (:func:`reports.html.with_titles`)."""
    blob = "\n".join(str(t) for t in texts)
    found = {term for _, _, term in glossary.spans(blob)}
    used = [t for t in glossary.used_terms([blob]) if t in found]
    # the page is about budgets, which its figures' axes name: their term always comes first
    rows = glossary.section_rows([BUDGET] + [t for t in used if t != BUDGET])
    return ("<h2>How to read this page</h2><p class='note'>Every statistic this page uses, in plain "
            "words, as the balance report explains them (hover over a term or a column heading to read "
            "its entry). An interval is 95% unless its level is written beside it.</p>"
            + _html_table(pl.DataFrame({"Term": [k for k, _ in rows], "Meaning": [v for _, v in rows]}),
                          "glossary"))


def lead_band_of(table: pl.DataFrame, q: dict, spec):
    """The band the lead sentence judges the first role's win share against: the designer's
    ``--target`` recorded in ``skill.json`` that measures it (:func:`analysis.skill_target.
    lead_band`), else None (the built-in range; review s37 seig #10)."""
    texts = q.get("target") or []
    if not texts:
        return None
    from analysis.skill_target import lead_band, role_labels
    from analysis.tune.targets import parse_targets

    try:
        targets = parse_targets(texts, q["game"])
    except Exception:            # a target this toolkit no longer reads: the built-in range
        return None
    return lead_band(table, targets, role_labels(spec))


def build_skill_page(skill_dir: str | Path) -> Path:
    """Write ``report.html`` and ``figures/budget.png|svg`` (a panel's further cells:
    ``figures/budget-<k>.png|svg``) into the skill directory."""
    d = Path(skill_dir)
    q = json.loads((d / "skill.json").read_text())
    table = pl.read_parquet(d / "skill.parquet")
    spec = registry.get(q["game"])
    (d / "figures").mkdir(exist_ok=True)
    from analysis.load import smallest_difference
    small = smallest_difference(q["game"], "share")
    imgs = []
    for k, cell in enumerate(_cells(table)):
        ct = _cell_table(table, cell)
        P = _players_of(ct, q)
        fig = budget_figure(ct, spec.seat_roles(P), spec.fair_share(P))
        png = _write_figure(d, fig, "budget" if k == 0 else f"budget-{k + 1}")
        # every cell's gain sentence in one family (Holm over every cell's seats: the page's)
        imgs.append((cell, png, gain_sentence(ct, small, family=table).strip(), budget_caption(ct)))
    sentence = verdict(advantage(table, spec.roles_alike), small, lead_band_of(table, q, spec))
    budgets = sorted(table["budget"].unique().to_list())
    figures = "".join((f"<h2>{html.escape(cell)}</h2>" if cell else "")
                      + (f"<p>{with_titles(gain)}</p>" if gain else "")
                      + f"<figure><img alt='budget' src='data:image/png;base64,{png}'>"
                      f"<figcaption>{with_titles(caption)}</figcaption></figure>"
                      for cell, png, gain, caption in imgs)
    what = f"{q['players']} players" if len(imgs) == 1 else "a panel"
    compared = against_html(d, q, spec)
    # with a comparison the page leads with it (what the rules change, as play gets stronger),
    # then these rules' own trend
    title = (f"{spec.title}, {what}: {rules_label(q)} against {rules_label(q['against'])} as play "
             "gets stronger" if compared else f"{spec.title}, {what}: balance by search budget")
    note_text = (f"{q['games']:,} games per budget and part (the one-searching-seat part splits them "
                 f"over the seats it rotates through: {per_seat_words(q, table)}); a searching seat "
                 f"plays its own bot in its playouts (the game's default: {q['policy']}); win shares "
                 "in percent with 95% Wilson intervals. The terms are explained at the end of the page.")
    heading, balances, shares = (balance_title(spec, budgets=budgets), balance_table(table, spec),
                                 _percent(table))
    body = (f"<h1>{html.escape(title)}</h1>"
            + (f"<p><b>{html.escape(note)}</b></p>" if (note := rules_note(q)) else "")
            + f"<p class='note'>{with_titles(note_text)}</p>"
            + target_html(table, q, spec)
            + compared
            + ("<h2>These rules as play gets stronger</h2>" if compared else "")
            + f"<p>{with_titles(sentence)}</p>"
            + figures + f"<h2>{html.escape(heading)}</h2>"
            + _html_table(balances)
            + (f"<p class='note'>{with_titles(bn)}</p>" if (bn := balance_note(table, spec)) else "")
            + f"<h2>{html.escape(PERCENT_TITLE)}</h2>"
            + _html_table(shares))
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>" + body
            # the glossary of every word the page shows (its text, without the markup)
            + terms_html([html.unescape(re.sub(r"<[^>]+>", " ", body))]) + "</body></html>")
    tmp = d / "report.html.tmp"
    try:
        tmp.write_text(page, encoding="utf-8")
        tmp.replace(d / "report.html")
    except BaseException:       # (a full disk: not left behind, 118 kB on it; review s62 rv267 #6)
        tmp.unlink(missing_ok=True)
        raise
    return d / "report.html"


def run_bots_words(q: dict, cell: str, run: dict | None) -> str:
    """What the report's own run says of the bots' largest seat gap, beside the skill study's
    budget 0 (review 45 #1: "with the bots (budget 0) likewise: the largest gap was 9.0 pp (0.0 to
    19.8)" from 300 games, a bullet above the run's own 20,000 games' "win-share balance 0.993
    (0.980–1.000)", a gap of 0.7 pp): "the run's own 20,000 games with the same bots put it at
    0.7 pp (0.0 to 2.0, 95% intervals simultaneous over every pair of seats)". Only where the run
    is the study's budget 0 played longer: the same rules (SHA-256), player count and line-up
    (``run``: ``rules_sha256``, ``players``, ``lineup``, ``games`` and the seat tests' ``row``,
    from :mod:`reports.build`); '' otherwise."""
    if not run or run.get("row") is None or not q.get("rules_sha256") \
            or q.get("rules_sha256") != run.get("rules_sha256"):
        return ""
    panel = q.get("panel")
    cells = panel.get("cells") if isinstance(panel, dict) else None
    lineup = sorted(map(str, run.get("lineup") or []))
    if cells:
        if not any(int(c["players"]) == run["players"] and sorted(map(str, c["lineup"])) == lineup
                   for c in cells):
            return ""
        from analysis.panel import lineup_label
        if cell and cell != lineup_label(run["players"], list(run.get("lineup") or [])):
            return ""
    elif q.get("players") is not None and int(q["players"]) != run["players"]:
        return ""
    r = run["row"]
    gap, low, high = 1 - r["win_share_balance"], 1 - r["win_share_balance_high"], 1 - r["win_share_balance_low"]
    if not all(x == x for x in (gap, low, high)):
        return ""
    return (f"the run's own {run['games']:,} games with the same bots and rules put it at {pct(gap)} pp "
            f"({pct(max(low, 0.0))} to {pct(high)}, 95% intervals simultaneous over every pair of seats), the "
            f"closer reading of the bots")


def trend_headline(d: Path, q: dict, spec, smallest: dict | None = None,
                   players: int | None = None, run: dict | None = None,
                   lineup: list[str] | None = None) -> str:
    """The report's leading line on a ``--skill`` directory without a comparison (review K #5: the
    headlines led with a 0.7 pp card effect and seat 1's deficit with the bots while the skill
    section showed seat 1 ahead by 10.6 pp once every seat searched): the seat advantage (in a
    game with roles, the first role's win share) at the largest budget with every seat searching,
    worded by its size on its interval, beside what the bots themselves show (budget 0). The cell
    of the report's player count and line-up (``players``, ``lineup``: :func:`report_cell`); ""
    with one budget."""
    from analysis.load import smallest_difference

    table = pl.read_parquet(d / "skill.parquet")
    adv = advantage(table, spec.roles_alike)
    pick = report_cell(adv, q, players, lineup)
    one = (adv if pick == "" else adv.filter(pl.col("cell") == pick)).sort("budget")
    if one.height < 2:
        return ""
    first, last = one.row(0, named=True), one.row(-1, named=True)
    small = smallest_difference(q["game"], "share", smallest)
    head = (f"As play gets stronger (balance skill {d.name}: {int(last['games']):,} games per budget, "
            f"every seat searching" + (f", {pick}" if pick else "") + "): ")
    if spec.roles_alike:
        # worded as the trend sentence words the same two budgets (a leader or a reversal only
        # where the largest gap's interval lies above 0), the interval named as that gap's
        own = run_bots_words(q, pick, run) if first["budget"] == 0 else ""
        said = head + gap_headline(first, last, small, "its section, below, has every budget") + "."
        if own:
            said += (f" (Budget 0 is the study's {int(first['games']):,} games; {own}.)")
        return said
    who = str(last["figure"]).replace(" win share", "'s win share")
    # each share at the decimals the section's sentence prints it with (one rule: session 55
    # review, "0.50% (0.03–2.29)" here beside "0.5% (0.0 to 2.3)" there for the same number)
    rows = list(one.iter_rows(named=True))
    ds = role_share_digits(rows, small, lead_band_of(table, q, spec))

    def share(r: dict, k: int) -> str:
        return f"{pct(r['value'], k)}% ({pct(r['low'], k)}–{pct(r['high'], k)})"

    said = (f"at budget {last['budget']} the {who} is {share(last, ds[-1])} "
            f"({100 * float(last['level']):.4g}% interval)")
    bots = ((f"; with the bots (budget {first['budget']}) " if first["budget"] == 0 else
             f"; at budget {first['budget']} ") + share(first, ds[0]))
    return head + said + bots + " (its section, below, has every budget)."


def skill_headline(skill_dir: str | Path, smallest: dict | None = None, players: int | None = None,
                   run: dict | None = None, lineup: list[str] | None = None) -> str:
    """One sentence for the report's leading section when its ``--skill`` directory compares its
    rules ``--against`` others: what these rules change at the largest budget with every seat
    searching (the clear changes, with their intervals; in a game with roles the first role's
    change, clear or not; where none is clear, how large a change the games still allow), with the
    games per budget it is read from and the level of its intervals (session 58 review: "seat 2 by
    −4.1 pp (−7.3 to −0.8)" were 99.58% intervals, unsaid, on a page whose intervals are 95% unless
    marked). The cell of the report's player count and line-up (``players``, ``lineup``:
    :func:`report_cell`). Only the largest budget: the report's own tables are the reading with the
    bots; without a comparison, the trend (:func:`trend_headline`)."""
    d = Path(skill_dir)
    q = json.loads((d / "skill.json").read_text())
    spec = registry.get(q["game"])
    read = against_reading(d, q, spec, smallest)
    if read is None:
        return trend_headline(d, q, spec, smallest, players, run, lineup)
    cmp, other, _ = read
    cell = report_cell(cmp, q, players, lineup)
    mine = cmp if cell == "" else cmp.filter(pl.col("cell") == cell)
    top = mine.filter(pl.col("budget") == mine["budget"].max()).sort("seat")
    hi = int(top["budget"][0])
    rows = list(top.iter_rows(named=True))
    games = min(int(top["after_games"].min()), int(top["before_games"].min()))
    # the comparison's one level (analysis.skill_against.against_words: Bonferroni over every
    # cell, budget and seat compared), named as its sentence names it
    level = (f"intervals at {100 * float(cmp['level'][0]):.4g}%, Bonferroni over {cmp.height} seat "
             "and budget comparisons holding together at 95%")
    head = (f"As play gets stronger (balance skill {d.name}: {games:,} games per budget, every seat "
            f"searching" + (f", {cell}" if cell else "") + f"; against {other}; {level}): at budget {hi} ")
    parts = []
    if not spec.roles_alike:                      # the first role's seat, clear or not
        r = rows[0]
        parts.append(f"the {str(r['role']).capitalize()}'s win share changes by {change_text(r)}"
                     + ("" if r["verdict"] != NOT_SHOWN else ", no clear change"))
        rows = rows[1:]
    clear = [r for r in rows if r["verdict"] != NOT_SHOWN]
    if clear:
        parts.append("these rules move " + ", ".join(f"{seat_text(r, spec.roles_alike)} by {change_text(r)}"
                                                     for r in clear))
    if len(clear) < len(rows):
        who = "no seat's" if not clear and spec.roles_alike else "no other seat's"
        parts.append(f"{who} win share changes clearly (up to "
                     f"{bound_text([r for r in rows if r['verdict'] == NOT_SHOWN])} not excluded)")
    return head + "; ".join(parts) + " (its section has the budgets before)."


def skill_section(skill_dir: str | Path, figs, players: int | None = None,
                  smallest: dict | None = None, lineup: list[str] | None = None):
    """The balance report's section on a ``balance skill`` directory (``balance report RUN --skill
    DIR``): the figures of the cell of the report's player count and line-up (:func:`report_cell`;
    their captions name it among several), the table, and
    the seat (role) advantage and its change as play gets stronger, each worded by its size
    against the smallest difference that matters (``smallest``: the report's overrides by kind)."""
    from reports.sections import Section

    d = Path(skill_dir)
    q = check_skill_dir(d)
    table = pl.read_parquet(d / "skill.parquet")
    spec = registry.get(q["game"])
    pick = report_cell(table, q, players, lineup)
    ct = _cell_table(table, pick)
    P = _players_of(ct, q)
    from analysis.load import smallest_difference
    small = smallest_difference(q["game"], "share", smallest)
    sentence = verdict(advantage(table, spec.roles_alike), small, lead_band_of(table, q, spec))
    budgets = sorted(table["budget"].unique().to_list())
    # read in the family of the skill page's gain sentences (every cell's seats), so that the
    # section says of this cell what the page says of it
    gain = gain_sentence(ct, small, family=table)
    if pick and len(_cells(table)) > 1 and gain.startswith(" At budget"):
        # the trend sentence before it reads every cell, its last named last: this one is the
        # report's cell only (session 58 review: it read as the last cell's)
        gain = f" In {pick} (the report's line-up), at budget" + gain[len(" At budget"):]
    # a caption of its own: the sentence is the section's first bullet, not repeated under the figure
    names = figs.add("skill_budget", budget_figure(ct, spec.seat_roles(P), spec.fair_share(P)),
                     "Each seat's win share by search budget." + cell_words(table, pick) + " "
                     + budget_caption(ct))
    # the directory's --against comparison (the fix against the rules before it), if it has one
    extra_tables, extra_sentences = [], []
    read = against_reading(d, q, spec, smallest)
    if read is not None:
        cmp, other, small = read
        words = against_sentence(cmp, q, spec)
        pick_cmp = cmp.filter(pl.col("cell") == pick) if pick in set(cmp["cell"]) else cmp
        names += figs.add("skill_against", against_figure(
            pick_cmp, spec.seat_roles(int(pick_cmp["players"][0])), small),
            f"Each seat's change of win share against {other} as play gets stronger (its interval, "
            "all holding together at 95%; grey: smaller than the difference that matters)."
            + cell_words(cmp, pick if pick in set(cmp["cell"]) else ""))
        extra_tables = [(f"Against {other}: each seat's change of win share, every seat searching "
                         f"(intervals at {100 * float(cmp['level'][0]):.4g}%, all holding together "
                         "at 95%)", against_table(cmp, other))]
        extra_sentences = against_lines(words)
        # (the caution of some seats' start coins compared with heuristic bots at budget 0)
        extra_sentences += [c] if (c := skill_caution(q, cmp["budget"].unique().to_list())) else []
    return Section(
        "skill", "Balance as play gets stronger (search budget)",
        f"From the balance skill directory {d.name} ({q['games']:,} games per budget and part; "
        + (f"rules {q['rules_name']}; " if rules_note(q) else "") +
        f"budgets {', '.join(map(str, budgets))}: playouts per option of the search bot, 0 = the bots "
        "themselves). Left: every seat searching, each seat's win share with its 95% Wilson "
        "interval; right: one searching seat against the others' bots. A seat (or role) advantage that "
        "persists as every seat plays better is a property of the rules; one that vanishes was a "
        "property of the bots.",
        names,
        [(balance_title(spec, section=True, budgets=budgets), balance_table(table, spec)),
         ("Win share by search budget (95% Wilson intervals; one seat searching: the others play "
          "their own bots; at budget 0 nobody searches)", _percent(table))] + extra_tables,
        [sentence + gain] + extra_sentences + ([bn] if (bn := balance_note(table, spec, pick)) else []))