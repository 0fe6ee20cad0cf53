"""A report page's tables as its reader sees them, for tests that read a page's numbers."""

from __future__ import annotations

import html
import re


def tables_by_heading(page: str) -> dict[str, list[dict]]:
    """Every table of a page by its heading (an ``<h3>``, with any paragraphs between it and the
    table): a list of rows, each column heading → the cell's text (tags dropped, entities
    unescaped)."""
    out = {}
    for m in re.finditer(r"<h3>(.*?)</h3>\s*(?:<p>.*?</p>\s*)*<table>(.*?)</table>", page, re.S):
        title = html.unescape(re.sub(r"<[^>]+>", "", m.group(1)))
        rows = re.findall(r"<tr>(.*?)</tr>", m.group(2), re.S)
        head = [html.unescape(re.sub(r"<[^>]+>", "", x)) for x in re.findall(r"<th[^>]*>(.*?)</th>", rows[0], re.S)]
        body = []
        for r in rows[1:]:
            cells = [html.unescape(re.sub(r"<[^>]+>", "", x)) for x in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            if cells:
                body.append(dict(zip(head, cells)))
        out[title] = body
    return out
