"""The report as one self-contained HTML page.

:func:`page` writes the sections of :mod:`reports.sections` (title, intro, sentences, figures with
their captions, tables with every row) as a single HTML document: figures embedded as base64 PNG,
CSS inline, no external link, so the page opens offline and can be mailed. A table of the runs
(baseline first) heads it. The statistics get hover titles from :mod:`reports.glossary`: the first
mention of a term in a sentence, and every column heading that names one.

May import polars, the standard library, :mod:`analysis.load` (types), :mod:`reports.glossary`,
:mod:`reports.text` (cell formats)
and, for type checking only, :mod:`reports.sections`.
"""

from __future__ import annotations

import base64
import html
import re
from typing import TYPE_CHECKING

import polars as pl

from analysis.load import RunSet
from reports import glossary
from reports.text import cell_text, method_spans

if TYPE_CHECKING:
    from reports.sections import Section

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:1200px;
margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.7em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:1em 0;font-size:.9em;display:block;max-width:100%;overflow-x:auto}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#eef4fa}td.num{text-align:right;white-space:nowrap}img{max-width:100%;height:auto}
ul.headlines li{margin:.3em 0}.meta td{text-align:left}.note{color:#555;font-size:.9em}
nav a{margin-right:1em}figure{margin:1.2em 0}figcaption{font-size:.95em;color:#333;margin-top:.3em;
border-left:3px solid #0072B2;padding-left:.6em}abbr[title]{text-decoration:underline dotted #888;cursor:help}
th[title]{cursor:help}.glossary td{text-align:left;vertical-align:top}
ul.grouped{list-style:circle;margin:.2em 0 .5em}ul.grouped li{margin:.15em 0}
"""


# A sentence's method clauses (how a call was made: the correction, the family, the pairing), folded
# to "(…)" until the reader asks for them: the first answer of a before/after ran to 200 words, most
# of them method, and a designer read past the answer. One checkbox at the top of the page
# (FOLD_TOGGLE, before every section: the CSS reaches what follows it) shows them all; a click on
# any "(…)" does too (each clause is a label of that checkbox). Folded by CSS alone: the page's text
# is unchanged (a copy, a search or a screen reader meets every word), and printing shows it whole.
FOLD_ID = "show-methods"
FOLD_CSS = (f"#{FOLD_ID}:not(:checked)~* .how>span{{display:none}}"
            f"#{FOLD_ID}:not(:checked)~* .how::before{{content:attr(data-fold);color:#777;font-size:.9em}}"
            ".how{cursor:pointer}.how>span{color:#555}"
            # the checkbox itself out of sight but fixed (a click on a fold focuses it: a fixed box
            # is always in view, so the page does not jump); its label in a bar that sticks to the
            # top of the window, the text scrolling under it, not behind a box over the column
            f"#{FOLD_ID}{{position:fixed;top:0;left:0;opacity:0;pointer-events:none;margin:0}}"
            ".methods-bar{position:sticky;top:0;z-index:1;background:#fff;text-align:right;"
            "font-size:.85em;padding:.25em 0;border-bottom:1px solid #eee}"
            ".methods-bar label{cursor:pointer;color:#0072B2}"
            f"#{FOLD_ID}:checked~.methods-bar .off,#{FOLD_ID}:not(:checked)~.methods-bar .on{{display:none}}"
            f"@media print{{#{FOLD_ID}~* .how>span{{display:inline}}#{FOLD_ID}~* .how::before{{content:none}}"
            f".methods-bar{{display:none}}}}\n")
FOLD_TOGGLE = (f"<input type='checkbox' id='{FOLD_ID}'>"
               f"<div class='methods-bar'><label class='toggle' for='{FOLD_ID}' title='Folded as … in the "
               "sentences: the corrections for many comparisons, which intervals are adjusted, the "
               "pairing. Every number a verdict is read on stays in view.'><span class='off'>☐ Show how "
               "each verdict was reached</span><span class='on'>☑ Hide how each verdict was reached"
               "</span></label></div>")
_CSS += FOLD_CSS


def with_folds(text: str, titles: bool = True) -> str:
    """``text`` escaped (with :func:`with_titles`' hover titles and code marks when ``titles``),
    each method clause (:func:`method_spans`) set as a label of the page's :data:`FOLD_TOGGLE`:
    folded to its mark until the reader shows the methods."""
    out = _marked(text, glossary.spans(text) if titles else [], method_spans(text))
    return code_marks(out) if titles else out


def _marked(text: str, terms: list, folds: list) -> str:
    """``text`` escaped, each glossary term span of ``terms`` (start, end, term) in its hover title
    and each fold of ``folds`` (start, end, mark) in a label of :data:`FOLD_TOGGLE` (a term never
    straddles a fold: the folds start and end at brackets and semicolons)."""
    cuts = sorted({0, len(text), *(x for s, e, _ in folds for x in (s, e)),
                   *(x for s, e, _ in terms for x in (s, e))})
    fold_at = {s: (e, mark) for s, e, mark in folds}
    term_at = {s: (e, t) for s, e, t in terms}
    out, fold_end, term_end = [], -1, -1
    for a, b in zip(cuts, cuts[1:]):
        if a == term_end:
            out.append("</abbr>")
        if a == fold_end:
            out.append("</span></label>")
        if a in fold_at:
            fold_end, mark = fold_at[a]
            out.append(f"<label class='how' for='{FOLD_ID}' data-fold='{html.escape(mark, quote=True)}' "
                       "title='How this verdict was reached: click to show every one'><span>")
        if a in term_at:
            term_end, term = term_at[a]
            out.append(f"<abbr title='{html.escape(glossary.TERMS[term], quote=True)}'>")
        out.append(html.escape(text[a:b]))
    end = len(text)
    if end == term_end:
        out.append("</abbr>")
    if end == fold_end:
        out.append("</span></label>")
    return "".join(out)


def _fmt_cell(v) -> str:
    return code_marks(html.escape(cell_text(v)))


_NUMBER = re.compile(r"^[×+−\-]?[\d.,]+(%| pp| coins| turns)?( \(.*\))?$")


def _td(v) -> str:
    """A cell; numbers (and numbers with their interval) align right, words left."""
    text = _fmt_cell(v)
    return f"<td class='num'>{text}</td>" if _NUMBER.match(html.unescape(text)) else f"<td>{text}</td>"


def _th(c: str) -> str:
    tip = glossary.title_for(c)
    title = f" title='{html.escape(tip, quote=True)}'" if tip else ""
    return f"<th{title}>{html.escape(c)}</th>"


def _html_table(df: pl.DataFrame, cls: str = "") -> str:
    """Every row of ``df`` (display tables are built to be read whole)."""
    head = "".join(_th(c) for c in df.columns)
    body = "".join("<tr>" + "".join(_td(v) for v in row) + "</tr>" for row in df.iter_rows())
    klass = f" class='{cls}'" if cls else ""
    return f"<table{klass}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def with_titles(text: str) -> str:
    """``text`` escaped, with the first mention of each glossary term wrapped in a hover title."""
    return code_marks(_marked(text, glossary.spans(text), []))


_CODE = re.compile(r"`([^`<>]+)`")


def code_marks(escaped: str) -> str:
    """Escaped page text with its Markdown code marks (`balance questions`) set as code: a hook's
    sentence names a command so, and the backticks showed literally."""
    return _CODE.sub(r"<code>\1</code>", escaped)


def _li(sentence: str) -> str:
    """A sentence as a list item; a heading with sentences of its own
    (:class:`reports.text.Grouped`: a before/after's kind of change) holds them in a list nested
    inside its item."""
    items = getattr(sentence, "items", ())
    inner = ("<ul class='grouped'>" + "".join(f"<li>{with_folds(x)}</li>" for x in items) + "</ul>"
             if items else "")
    head = f"<strong>{with_folds(sentence)}</strong>" if items else with_folds(sentence)
    return f"<li>{head}{inner}</li>"


POOLED = "Run directories pooled"


def meta_table(groups: list[RunSet]) -> pl.DataFrame:
    """The runs, baseline first: what the HTML page and the PDF show first. How many run
    directories each configuration pools (:data:`POOLED`) only when one pools several: a column
    of 1s, headed "Directories", was unexplained (revD #15)."""
    pooled = any(len(g.paths) > 1 for g in groups)
    rows: dict[str, list] = {"Run": [], **({POOLED: []} if pooled else {}), "Games": [], "Players": [],
                             "Strategies by seat": [], "Rules": [], "Rules SHA-256": [], "Version": []}
    for i, g in enumerate(groups):
        m = g.metas[0]
        # runs of other player counts are shown side by side, not compared (review Y #14: "def5
        # (variant)" on a page that says they are not a before/after)
        compared = len({x.n_players for x in groups}) == 1
        rows["Run"].append(f"{g.label} ({'baseline' if i == 0 else 'variant'})" if compared else g.label)
        if pooled:
            rows[POOLED].append(str(len(g.paths)))
        rows["Games"].append(f"{g.n_games:,}")
        rows["Players"].append(str(g.n_players))
        rows["Strategies by seat"].append(lineup_words(m.get("strategies") or [], getattr(g, "games_per_unit", 1)))
        rows["Rules"].append(str(m.get("rules_name", "")))
        rows["Rules SHA-256"].append(str(m.get("rules_sha256", ""))[:12])
        rows["Version"].append(str(m.get("version", "")))
    return pl.DataFrame(rows)


def lineup_words(strategies: list, games_per_deal: int = 1) -> str:
    """The strategies of a run's seats as the table of runs shows them: "balanced, greedy, random,
    random" seat by seat; with rotated seats (each deal played ``games_per_deal`` times, the line-up
    turned one seat each time) "rotated: 3 × balanced, greedy", no bot holding a seat (review U #11:
    a rotated run's "balanced, balanced, balanced, greedy" read as greedy always in Seat 4)."""
    names = [str(x) for x in strategies]
    if not names:
        return "?"
    if games_per_deal <= 1:
        return ", ".join(names)
    counts = {n: names.count(n) for n in dict.fromkeys(names)}
    return "rotated: " + ", ".join(f"{c} × {n}" if c > 1 else n for n, c in counts.items())


def meta_rows(groups: list[RunSet]) -> str:
    return _html_table(meta_table(groups), "meta")


NOTES = (glossary.INTERVALS_NOTE, glossary.METHODS_NOTE)


def page(title: str, groups: list[RunSet], secs: list[Section], png: dict[str, bytes],
         captions: dict[str, str] | None = None, generated: str | None = None,
         methods: str | None = None) -> str:
    """The page; ``generated``: its "Generated … UTC." line (:func:`reports.glossary.generated_note`,
    the PDF's too), the current time when not given; ``methods``: its closing note on the methods
    its numbers use (:func:`reports.sections.page_methods`), :data:`NOTES`' when not given."""
    captions = captions or {}
    generated = generated or glossary.generated_note()
    parts = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(title)}</title>"
             f"<style>{_CSS}</style></head><body><h1>{html.escape(title)}</h1>{FOLD_TOGGLE}",
             f"<p class='note'>{html.escape(generated)} {html.escape(NOTES[0])}</p>",
             meta_rows(groups),
             "<nav>" + "".join(f"<a href='#{s.id}'>{html.escape(s.title)}</a>" for s in secs) + "</nav>"]
    for s in secs:
        parts.append(f"<section id='{s.id}'><h2>{html.escape(s.title)}</h2>")
        if s.intro:
            parts.append(f"<p>{with_folds(s.intro)}</p>")
        if s.sentences:
            cls = " class='headlines'" if s.id == "headlines" else ""
            parts.append(f"<ul{cls}>" + "".join(_li(x) for x in s.sentences) + "</ul>")
        for k, name in enumerate(s.figures, 1):
            data = base64.b64encode(png[name]).decode("ascii")
            cap = captions.get(name, "")
            parts.append(f"<figure id='fig-{html.escape(name)}'><img alt='{html.escape(cap or name, quote=True)}' "
                         f"src='data:image/png;base64,{data}'>"
                         + (f"<figcaption>{with_folds(cap)}</figcaption>" if cap else "") + "</figure>")
        for caption, df in s.tables:
            parts.append(f"<h3>{html.escape(caption)}</h3>{_html_table(df, 'glossary' if s.id == 'glossary' else '')}")
        parts.append("</section>")
    parts.append(f"<p class='note'>{html.escape(methods or NOTES[1])}</p></body></html>")
    return "\n".join(parts)
