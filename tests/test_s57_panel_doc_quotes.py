"""The panel examples the docs quote are what their commands print today: docs/analysis.md's "In
short" panel before/after, and docs/sweep.md's two worked panel sweeps (Seigneurial `wide` at 4
players, Middle-Ages `default`), each sentence quoted and each row of their tables of "Every effect
in every cell".

Why (session 56's leftover): tests/test_s56_in_short_quotes.py ran the docs' one-line-up examples
but not these (three panels of 3 to 12 cells, thought too costly: they take 5-10 s each), and the
Seigneurial quote was still "an earlier version" ("down in 8, … unclear in 2", "the seigneurs' win
share") where the tool printed "down in 7, … unclear in 3" and "the Seigneur's win share"; its
table rounded to one decimal and printed "-0.0 pp (-0.0 to -0.0)" for an effect the page calls
within noise."""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

import pytest

from in_process import balance
from test_s56_in_short_quotes import _page_text, _parts, _run_block

pytestmark = pytest.mark.slow   # three panels, ~25 s in all: make test-slow and CI run it

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _flat(text: str) -> str:
    return " ".join(text.replace("−", "-").split())


def _sh_block(text: str) -> list[list[str]]:
    """The command lines of the first ```sh block in ``text`` (a trailing backslash joins lines)."""
    block = re.search(r"```sh\n(.*?)```", text, re.S).group(1).replace("\\\n", " ")
    return [shlex.split(line) for line in block.splitlines() if line.strip()]


def _example(doc: str, heading: str) -> str:
    """The worked example starting at ``heading``, up to the next worked example or section."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    at = text.index(heading)
    ends = [i for i in (text.find("**Worked example", at + 1), text.find("\n#", at + 1)) if i > 0]
    return text[at:min(ends)]


def _quoted(example: str) -> list[str]:
    """The example's quoted output: its "> " lines, one paragraph each."""
    paragraphs = re.split(r"\n>\s*\n", "\n".join(
        line for line in example.splitlines() if line.startswith(">")))
    return [" ".join(line.removeprefix(">").strip() for line in p.splitlines()).strip()
            for p in paragraphs if p.strip(">\n ")]


def _page_effects(page: Path) -> dict[tuple[str, str], tuple[str, str, str, str]]:
    """Rows of the page's table "Every effect in every cell": (cell, metric) → (change, low, high,
    verdict), as the page prints them."""
    text = page.read_text(encoding="utf-8")
    at = text.index("Every effect in every cell")
    rows = {}
    for tr in re.findall(r"<tr>(.*?)</tr>", text[at:], re.S):
        cells = [_flat(html.unescape(re.sub(r"<[^>]+>", "", c)))
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)]
        if len(cells) == 11:
            rows[(cells[3], cells[4])] = (cells[5], cells[6], cells[7], cells[10])
    return rows


def _doc_rows(example: str) -> list[list[str]]:
    """The example's markdown table below its header row: the cells of each row."""
    rows = []
    for line in example.splitlines():
        if line.startswith("| ") and not line.startswith("| cell") and "---" not in line:
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


_ROW = re.compile(r"^(-?[\d.]+) \((-?[\d.]+) to (-?[\d.]+)\), (.+?)(?: \(no game's outcome moved\))?$")


def _check_table(example: str, page: Path, metrics: list[str]) -> None:
    """Every row of the example's table is the page's (change, low, high, verdict) of that cell,
    column k read as ``metrics[k]``; and every cell of the page's panel has a row."""
    effects = _page_effects(page)
    rows = _doc_rows(example)
    assert rows, "the example has no table"
    cells_on_page = {cell for cell, _ in effects}
    assert {row[0] for row in rows} == cells_on_page
    for row in rows:
        for metric, entry in zip(metrics, row[1:]):
            m = _ROW.match(_flat(entry))
            assert m, entry
            assert m.groups() == effects[(row[0], metric)], (row[0], metric, entry)


def test_the_in_short_panel_quote_is_what_its_commands_print(tmp_path, monkeypatch):
    text = (DOCS / "analysis.md").read_text(encoding="utf-8")
    at = text.index("A panel plays the\ngame's other line-ups")
    section = text[at:text.index("**Next**", at)]
    commands = _sh_block(section)
    assert [c[0] for c in commands] == ["simulate", "simulate", "balance"], commands
    assert "--panel" in commands[0]
    quote = " ".join(re.search(r'```\n\n"(.*?)" \(docs/sweep', section, re.S).group(1).split())
    monkeypatch.chdir(tmp_path)
    said = _run_block(commands, tmp_path)
    missing = [p for p in _parts(quote) if p not in said]
    assert not missing, missing


@pytest.mark.parametrize("heading, metrics", [
    ("**Worked example (Seigneurial, the `wide` panel at 4 players):**", ["the Seigneur's win share"]),
    ("**Worked example (Middle-Ages, the `default` panel",
     ["the seat imbalance (largest distance of a seat from the fair share; lower is fairer)",
      "seat 1's win share"]),
])
def test_the_worked_panel_sweeps_print_what_docs_sweep_quotes(heading, metrics, tmp_path, monkeypatch):
    example = _example("sweep.md", heading)
    commands = _sh_block(example)
    assert len(commands) == 1 and commands[0][:2] == ["balance", "sweep"], commands
    quotes = _quoted(example)
    assert quotes, "no quoted output"
    monkeypatch.chdir(tmp_path)
    printed = _flat(balance(*commands[0][1:]).stdout)
    for quote in quotes:
        assert _flat(quote) in printed, quote
    out = commands[0][commands[0].index("-o") + 1]
    balance("report", out, "--out", f"{out}-report")
    page = tmp_path / f"{out}-report" / "report.html"
    assert _page_text(page)
    _check_table(example, page, metrics)


def test_the_role_players_sweep_quotes_are_what_it_prints(tmp_path, monkeypatch):
    """docs/sweep.md's Seigneurial ``players=3..5`` sweep at 2,000 games (the paragraph on
    ``--vary players``): its two quotes of the page, the sides' lead and a Censitaire seat's
    advantage among the Censitaires (it quoted "4.3%" where the tool printed 4.4%, review s57 #8)."""
    text = (DOCS / "sweep.md").read_text(encoding="utf-8")
    at = text.index("Seigneurial's `players=3..5` at 2,000 games")
    para = " ".join(text[at:text.index("\n\n", at)].split())
    quotes = [q for q in re.findall(r'"([^"]+)"', para) if re.search(r"\d", q)]
    lead = next(q for q in quotes if q.startswith("the Seigneur's win share is"))
    advantage = next(q for q in quotes if q.startswith("moves seat 2 (Censitaire)'s advantage"))
    monkeypatch.chdir(tmp_path)
    balance("sweep", "--game", "seigneurial", "--vary", "players=3..5", "--games", "2000",
            "--out", "sweeps/sgp")
    balance("report", "sweeps/sgp", "--out", "sweeps/sgp-report")
    page = _page_text(tmp_path / "sweeps/sgp-report/report.html")
    for quote in (lead, advantage):
        missing = [p for p in _parts(quote) if p not in page]
        assert not missing, (quote, missing)
