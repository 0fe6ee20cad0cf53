"""docs/analysis.md's "In short" says every quote in it "is what these commands printed": its
three commands are run here exactly as written, and every quoted passage with a number is found in
what they print (the lead on stdout, or the report page's text), each part between the "…" that
leave words out. Likewise docs/sweep.md's quote of a Médiévallons panel before/after's game length
(its three commands, 2,000 games a cell).

Why (session 56 designer review C): the section quoted "24.7% → 24.9% (+0.2 pp …)", "113.367 →
117.915, +4.548" and "Palais −1.9 → +1.6" where the tool printed 24.717% → 24.935% (+0.218 pp),
113.37 → 117.91, +4.54 and −1.86 → +1.62: the page's precision had changed and nothing told the
docs; docs/sweep.md's panel quote said "turns" and "89.8% → 99.95%, +10.2 pp (+8.3 to +12.0)" where
the tool printed "player turns" and "89.80% → 99.95%, +10.15 pp (+8.33 to +11.97)". (The panel
examples, the In-short panel quote and docs/sweep.md's two worked panel sweeps, are run by
tests/test_s57_panel_doc_quotes.py.)"""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # 2 x 100,000 games and a Médiévallons panel pair, ~25 s: make test-slow and CI run it

DOC = Path(__file__).resolve().parents[1] / "docs" / "analysis.md"


def _section() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## In short")
    return text[start:text.index("--panel default", start)]


def _commands(section: str) -> list[list[str]]:
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [shlex.split(line) for line in block.splitlines() if line.strip()]


def _quotes(section: str) -> list[str]:
    """Every double-quoted passage with a digit, its line breaks as spaces."""
    flat = " ".join(section.split())
    return [q for q in re.findall(r'"([^"]+)"', flat) if re.search(r"\d", q)]


def _parts(quote: str) -> list[str]:
    """The parts of a quote between its "…", without the punctuation that joins them."""
    out = []
    for part in quote.split("…"):
        part = part.strip().strip(",;:").strip()
        if len(part) > 2:
            out.append(part)
    return out


def _page_text(path: Path) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", path.read_text(encoding="utf-8"))).split())


def test_the_in_short_quotes_are_what_its_commands_print(tmp_path, monkeypatch):
    section = _section()
    commands = _commands(section)
    assert [c[0] for c in commands] == ["simulate", "simulate", "balance"], commands
    quotes = _quotes(section)
    assert len(quotes) >= 8, quotes
    monkeypatch.chdir(tmp_path)
    said = _run_block(commands, tmp_path)
    missing = [(q, p) for q in quotes for p in _parts(q) if p not in said]
    assert not missing, missing


def _run_block(commands: list[list[str]], where: Path) -> str:
    """Run a code block's command lines in ``where``: their stdout, and the page the last writes."""
    printed = []
    for argv in commands:
        printed.append(balance(*(argv if argv[0] == "simulate" else argv[1:])).stdout)
    out = commands[-1][commands[-1].index("--out") + 1]
    return " ".join(" ".join(printed).split()) + " " + _page_text(where / out / "report.html")


def test_the_sweep_docs_panel_length_quote_is_what_its_commands_print(tmp_path, monkeypatch):
    text = (DOC.parent / "sweep.md").read_text(encoding="utf-8")
    at = text.index("Médiévallons, `guilds.to_win` 3 → 2 (2,000 games a cell):")
    block = text[at:text.index("\n\n", text.index("> … Largest other changes", at))]
    commands = _commands(block)
    assert [c[0] for c in commands] == ["simulate", "simulate", "balance"], commands
    quote = " ".join(line.removeprefix("> ") for line in block.splitlines() if line.startswith("> "))
    monkeypatch.chdir(tmp_path)
    said = _run_block(commands, tmp_path)
    missing = [p for p in _parts(quote) if p not in said]
    assert not missing, missing
