"""Session 56 designer review, leftover #2: a numeric ``--vary`` list written out of order
(``income.palais.base=[5, 3, 4]``) gave a page that read its values two ways: "No headline metric's
response … is shown to turn between 3 and 5" (lowest → highest, as the curves draw them) beside
"5 → 3 by −0.1 pp" and "Lowering income.palais.base from 5 to 4" (the order written), the
first-vs-last effect comparing 5 with 4, neither end of the values tried. A parameter of numbers
is now read from its lowest value to its highest however its list was written
(:func:`analysis.sweep.metrics.value_order`): every sentence, the first-vs-last effect (lowest →
highest) and the tables' from → to. A list of words keeps the order tried.

The sweep is written by hand (:mod:`handmade_sweep`: seat and win share only, no game played):
seat 1's share planted 25 → 12 → 16 → 20 → 21 % as its start coins go 0 → 4 (a turn), seat 4's
25 → 29 % one way, listed as [3, 0, 4, 1, 2]."""

from __future__ import annotations

import html
import json
import re

import pytest
from handmade_sweep import plant_winners, write_sweep
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

N = 4000
NAME = "setup.start_coins[0]"
BY_VALUE = {0: (0.25, 0.25), 1: (0.12, 0.26), 2: (0.16, 0.27), 3: (0.20, 0.28), 4: (0.21, 0.29)}
WRITTEN = [3, 0, 4, 1, 2]


def _sweep(root, values):
    winners = plant_winners(values, [BY_VALUE[v][0] for v in values], [0.25] * len(values),
                            [BY_VALUE[v][1] for v in values], N, seed=11)
    write_sweep(root, NAME, values, winners, N)
    meta = json.loads((root / "sweep.json").read_text())
    meta["varies"][0]["text"] = f"{NAME}=[{', '.join(map(str, values))}]"
    (root / "sweep.json").write_text(json.dumps(meta))
    return root


def _page_text(sw, out) -> str:
    from reports.sweep import build_sweep_report

    with figures_undrawn():
        page = build_sweep_report(sw, out)
    text = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", page.read_text(encoding="utf-8"), flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", text))


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    root = tmp_path_factory.mktemp("s56_order")
    return (_page_text(_sweep(root / "written", WRITTEN), root / "rep_written"),
            _page_text(_sweep(root / "sorted", sorted(WRITTEN)), root / "rep_sorted"))


def _pairs(text: str) -> list[tuple[int, int]]:
    """Every two values a sentence reads one after the other: "a → b", "from a to b", "between a
    and b" (integers: the values of this parameter, not the intervals' decimals)."""
    pat = r"(?<![\d.])(-?\d+) → (-?\d+)(?![\d.])|\bfrom (-?\d+) to (-?\d+)(?![\d.])|\bbetween (-?\d+) and (-?\d+)(?![\d.])"
    out = []
    for m in re.finditer(pat, text):
        a, b = [int(x) for x in m.groups() if x is not None]
        out.append((a, b))
    return out


def test_every_sentence_reads_an_out_of_order_list_from_the_lower_value_to_the_higher(pages):
    written, _ = pages
    pairs = _pairs(written)
    assert len(pairs) >= 5, written
    backwards = [p for p in pairs if p[0] >= p[1]]
    assert not backwards, (backwards, written)
    # the response that turns is read in the order its curve draws: 0 → 1 down, then up
    assert ("Seat 1's win share does not move one way with setup.start_coins[0] (seat 1's): it falls "
            "from 0 to 1 by") in " ".join(written.split()), written
    # the first-vs-last effect is the ends of the values tried, lowest → highest
    assert f"Raising {NAME} (seat 1's) from 0 to 4 moves" in written, written
    assert "Lowering" not in written, written


def test_an_out_of_order_list_reads_as_the_same_values_listed_in_order(pages):
    """The page of [3, 0, 4, 1, 2] says what the page of [0, 1, 2, 3, 4] says, sentence for
    sentence (only its header's list and the variants' names differ)."""
    written, ordered = pages

    def sentences(text: str) -> str:
        return text[text.index("What moves what"):text.index("Which parameters move")]

    assert " ".join(sentences(written).split()) == " ".join(sentences(ordered).split())
