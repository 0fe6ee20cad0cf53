"""The report as one self-contained HTML page.

:func:`page` writes the sections of :mod:`reports.sections` (title, intro, sentences, figures,
tables) as a single HTML document: figures embedded as base64 PNG, CSS inline, no external link, so
the page opens offline and can be mailed. A table of the runs (baseline first) heads it.

May import polars, the standard library, :mod:`analysis.load` (types) and, for type checking only,
:mod:`reports.sections`.
"""

from __future__ import annotations

import base64
import html
from datetime import datetime, timezone
from typing import TYPE_CHECKING

import polars as pl

from analysis.load import RunSet

if TYPE_CHECKING:
    from reports.sections import Section

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:1200px;
margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#eef4fa}td:first-child,th:first-child{text-align:left}img{max-width:100%;height:auto}
ul.headlines li{margin:.3em 0}.meta td{text-align:left}.note{color:#555;font-size:.9em}
nav a{margin-right:1em}
"""


def _fmt_cell(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if v != v:
            return ""
        return f"{v:.4g}" if abs(v) >= 1e-3 or v == 0 else f"{v:.2e}"
    return html.escape(str(v))


def _html_table(df: pl.DataFrame, max_rows: int = 60) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{_fmt_cell(v)}</td>" for v in row) + "</tr>"
                   for row in df.head(max_rows).iter_rows())
    more = f'<p class="note">{df.height - max_rows} more rows not shown.</p>' if df.height > max_rows else ""
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{more}"


def meta_rows(groups: list[RunSet]) -> str:
    rows = []
    for i, g in enumerate(groups):
        m = g.metas[0]
        role = "baseline" if i == 0 else "variant"
        strategies = ", ".join(map(str, m.get("strategies") or [])) or "?"
        rows.append(f"<tr><td>{html.escape(g.label)} ({role})</td><td>{len(g.paths)}</td>"
                    f"<td>{g.n_games:,}</td>"
                    f"<td>{g.n_players}</td><td>{html.escape(strategies)}</td>"
                    f"<td>{html.escape(str(m.get('rules_name', '')))}</td>"
                    f"<td>{html.escape(str(m.get('rules_sha256', ''))[:12])}</td>"
                    f"<td>{html.escape(str(m.get('version', '')))}</td></tr>")
    return ("<table class='meta'><thead><tr><th>Run</th><th>Directories</th><th>Games</th><th>Players</th>"
            "<th>Strategies by seat</th><th>Rules</th><th>Rules SHA-256</th><th>Version</th></tr></thead>"
            "<tbody>"
            + "".join(rows) + "</tbody></table>")


def page(title: str, groups: list[RunSet], secs: list[Section], png: dict[str, bytes]) -> str:
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>",
             f"<p class='note'>Generated {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC. "
             "All intervals are 95%.</p>",
             meta_rows(groups),
             "<nav>" + "".join(f"<a href='#{s.id}'>{html.escape(s.title)}</a>" for s in secs) + "</nav>"]
    for s in secs:
        parts.append(f"<section id='{s.id}'><h2>{html.escape(s.title)}</h2>")
        if s.intro:
            parts.append(f"<p>{html.escape(s.intro)}</p>")
        if s.sentences:
            cls = " class='headlines'" if s.id == "headlines" else ""
            parts.append(f"<ul{cls}>" + "".join(f"<li>{html.escape(x)}</li>" for x in s.sentences) + "</ul>")
        for name in s.figures:
            data = base64.b64encode(png[name]).decode("ascii")
            parts.append(f"<figure><img alt='{html.escape(name)}' "
                         f"src='data:image/png;base64,{data}'></figure>")
        for caption, df in s.tables:
            parts.append(f"<h3>{html.escape(caption)}</h3>{_html_table(df)}")
        parts.append("</section>")
    parts.append("<p class='note'>Methods: Wilson intervals for proportions, Student t for means, Newcombe "
                 "for differences of proportions, Holm's correction across compared metrics; see "
                 "docs/analysis.md."
                 "</p></body></html>")
    return "\n".join(parts)
