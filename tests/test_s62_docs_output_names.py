"""Review 270 #5: the docs reused output folders across pages, so a reader who ran one page's
examples after another's met "--out …: exists" (or, with --force, lost the other page's result):
docs/medievallons.md's ``--out runs/mv`` was the README's, docs/ci.md's ``runs/base`` that of
docs/reports.md and docs/analysis.md, docs/sweep.md's ``sweeps/palais`` the README's. Every output
a page's examples write (``--out``/``-o`` in its code blocks) is now that page's own. The one page
that names another's on purpose is docs/reliability.md: its examples are the errors a command
gives over the README's ``runs/demo`` (its lines that write there are refusals)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# (page, output): another page's output named on purpose
ON_PURPOSE = {("reliability.md", "runs/demo")}


def outputs(page: Path) -> set[str]:
    """The outputs written by the commands of ``page``'s code blocks."""
    found, block = set(), False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.strip().startswith("```"):
            block = not block
            continue
        if block:
            for m in re.finditer(r"(?:--out|-o)\s+(\S+)", line):
                out = m.group(1).strip("'\"")
                if out.isupper() or "…" in out or out.startswith("$"):     # (placeholders)
                    continue
                found.add(out)
    return found


def test_s62_no_two_pages_write_the_same_output():
    by_output = defaultdict(set)
    for page in PAGES:
        for out in outputs(page):
            if (page.name, out) not in ON_PURPOSE:
                by_output[out].add(page.name)
    shared = {out: sorted(pages) for out, pages in by_output.items() if len(pages) > 1}
    assert shared == {}, shared


def test_s62_a_page_does_not_write_one_output_with_two_different_commands():
    # docs/analysis.md wrote runs/base with 1e5 games, then again with 1e6
    text = (ROOT / "docs" / "analysis.md").read_text(encoding="utf-8")
    writes = re.findall(r"^(?:balance )?simulate .*--out runs/base(?:\s|$)", text, re.M)
    assert len(writes) <= 1, writes
