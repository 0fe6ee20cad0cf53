"""The page of a ``balance skill`` directory (balance by search budget): reads ``skill.parquet``
and ``skill.json``, writes ``report.html`` with the trend sentence, the figure (every seat's win
share against the budget when every seat searches, with 95% intervals and the fair share; the
searching seat's win share against the default bots beside it) and the table. Only reads files.

May import polars, numpy, matplotlib (through :mod:`reports.figures.common`), :mod:`analysis.skill_words`
(the advantage and its sentence, computed from the table), :mod:`reports.html` (style) and
:mod:`simcore` (registry).
"""

from __future__ import annotations

import base64
import html
import json
from pathlib import Path

import numpy as np
import polars as pl

from analysis.skill_words import advantage, verdict
from reports.figures.common import OKABE_ITO, error_bars, new_figure, render, styled, subplots
from reports.html import _CSS, _html_table
from simcore import games as registry


@styled
def budget_figure(table: pl.DataFrame, roles: tuple[str, ...], fair: float | None):
    """Left: win share per seat against the budget, every seat searching; right: the searching
    seat's win share against the default bots (mean over the seats it was rotated to)."""
    fig = new_figure(10, 4.2)
    ax, ax2 = subplots(fig, 1, 2)
    budgets = sorted(table["budget"].unique().to_list())
    x = np.arange(len(budgets))
    allp = table.filter(pl.col("part") == "all")
    P = int(allp["seat"].max()) + 1
    for s in range(P):
        t = allp.filter(pl.col("seat") == s).sort("budget")
        y = t["win_share"].to_numpy()
        ax.errorbar(x + (s - (P - 1) / 2) * 0.05, y, yerr=error_bars(t["ci_low"], y, t["ci_high"]),
                    marker="o", capsize=3, color=OKABE_ITO[s % 8],
                    label=f"seat {s + 1}" + ("" if len(set(roles)) <= 1 else f" ({roles[s]})"))
    if fair is not None:
        ax.axhline(fair, color="grey", lw=1, ls="--", label="fair share")
    ax.set_xticks(x, [str(b) for b in budgets])
    ax.set_xlabel("playouts per option (0 = the default bot)")
    ax.set_ylabel("win share, every seat searching")
    ax.legend(fontsize=8)
    one = table.filter(pl.col("part") == "one").group_by("budget").agg(
        ((pl.col("win_share") * pl.col("games")).sum() / pl.col("games").sum()).alias("w")).sort("budget")
    ax2.plot(np.arange(one.height), one["w"].to_numpy(), marker="o", color=OKABE_ITO[1])
    if fair is not None:
        ax2.axhline(fair, color="grey", lw=1, ls="--")
    ax2.set_xticks(np.arange(one.height), [str(b) for b in one["budget"].to_list()])
    ax2.set_xlabel("playouts per option")
    ax2.set_ylabel("one searching seat: win share")
    return fig


def build_skill_page(skill_dir: str | Path) -> Path:
    """Write ``report.html`` and ``figures/budget.png|svg`` into the skill directory."""
    d = Path(skill_dir)
    q = json.loads((d / "skill.json").read_text())
    table = pl.read_parquet(d / "skill.parquet")
    spec = registry.get(q["game"])
    roles = spec.seat_roles(q["players"])
    fig = budget_figure(table, roles, spec.fair_share(q["players"]))
    (d / "figures").mkdir(exist_ok=True)
    for fmt in ("png", "svg"):
        tmp = d / "figures" / f"budget.{fmt}.tmp"
        tmp.write_bytes(render(fig, fmt))
        tmp.replace(d / "figures" / f"budget.{fmt}")
    sentence = verdict(advantage(table, spec.roles_alike))
    png = base64.b64encode((d / "figures" / "budget.png").read_bytes()).decode("ascii")
    shown = table.with_columns([(pl.col(c) * 100).round(1) for c in ("win_share", "ci_low", "ci_high")])
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>Balance by search budget</title><style>{_CSS}</style></head><body>"
            f"<h1>{html.escape(spec.title)}, {q['players']} players: balance by search budget</h1>"
            f"<p>{html.escape(sentence)}</p>"
            f"<p class='note'>{q['games']:,} games per budget and part; playout policy "
            f"{html.escape(q['policy'])}; win shares in percent with 95% Wilson intervals.</p>"
            f"<figure><img alt='budget' src='data:image/png;base64,{png}'></figure>"
            + _html_table(shown) + "</body></html>")
    tmp = d / "report.html.tmp"
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(d / "report.html")
    return d / "report.html"
