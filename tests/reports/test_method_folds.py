"""A page's method clauses fold away until the reader asks for them.

A before/after's first answer ran to ~200 words, most of them how each call was made ("clear after
Holm's correction over the 4 seat win shares alone; each size read on … Bonferroni …"), and a
designer read past the answer to find it. The page now shows "(…)" where such a clause stands; one
checkbox at the top (or a click on any "(…)") shows them all. The page's words are unchanged: these
tests read the page as a browser lays it out (an HTML parser here, not the module's own code) and
check that no word is lost, that what folds names a method, and that the answer stays in view.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from reports.build import build_report
from reports.html import method_spans, with_folds
from simcore import runner
from undrawn_figures import figures_undrawn

SEAT_LINE = ("Seat 1 wins 19.9% (19.3–20.4) against a fair 25.0%: −5.1 pp, clear and large enough to "
             "matter (Holm over the 4 seats; all 4 seats at once: −5.85 to −4.44 pp, against the 1 pp "
             "that matters).")
PAIRED_LINE = ("a change of −2.74 pp (−4.53 to −1.01 pp), clear and large enough to matter (before → "
               "after: the runs' values; the change read on the pairing, game by game: every seat's "
               "win share before and after and its paired change, all 12 at once, Bonferroni, each at "
               "level 1 − 0.05/12).")
MAY_MATTER = ("+2.219 pp (95% interval +1.193 to +3.243 pp): clear, may matter (all 60 other tested "
              "metrics at once: +0.470 to +3.964 pp, on both sides of the smallest difference that "
              "matters, 1 pp; more games would tell).")


def _folded(text: str) -> str:
    out, at = [], 0
    for start, end, mark in method_spans(text):
        out += [text[at:start], mark]
        at = end
    return "".join(out + [text[at:]])


def test_the_method_part_folds_and_the_interval_the_verdict_reads_stays():
    """The verdict is read on the interval over all 4 seats at once: that interval stays in view,
    only the correction's name folds."""
    assert _folded(SEAT_LINE) == ("Seat 1 wins 19.9% (19.3–20.4) against a fair 25.0%: −5.1 pp, clear "
                                  "and large enough to matter (…; all 4 seats at once: −5.85 to −4.44 "
                                  "pp, against the 1 pp that matters).")


def test_a_later_method_part_folds_after_the_values():
    assert _folded(PAIRED_LINE).endswith("clear and large enough to matter (before → after: the runs' "
                                         "values; …).")


@pytest.mark.parametrize("text", [
    MAY_MATTER,                                       # the interval and "more games would tell"
    "Seat 2 wins 25.0% (24.4–25.6) against a fair 25.0% (95%, unadjusted).",   # a result, no method
    "A list: 1) Holm over the seats, 2) the rest (left open, Holm over the 4 seats",  # never closed
    "No method here (the games where a card fires against the others, 49 characters).",
])
def test_what_carries_a_result_or_is_not_closed_stays(text):
    assert method_spans(text) == []


def test_a_nested_clause_folds_with_its_outer_one():
    text = "moved (clear after Holm's correction (over the 4 seats) at level alpha) here"
    (start, end, _), = method_spans(text)
    assert text[start:end] == "(clear after Holm's correction (over the 4 seats) at level alpha)"


class _Page(HTMLParser):
    """The body's children in order, and each list item's text twice: every word, and the words a
    browser shows while the methods are folded (a ``label.how``'s inner span hidden)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth, self.body_children = 0, []
        self.items: list[list[str]] = []        # per <li>: [all words, visible words]
        self.stack: list[tuple[str, bool]] = []  # (tag, hidden)
        self.folds: list[dict] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        hidden = bool(self.stack and self.stack[-1][1])
        if tag == "span" and self.stack and self.stack[-1][0] == "label.how":
            hidden = True
        name = "label.how" if tag == "label" and a.get("class") == "how" else tag
        if name == "label.how":
            self.folds.append(a)
        if tag == "li":
            self.items.append(["", ""])
        if self.stack and self.stack[-1][0] == "body":
            self.body_children.append((tag, a.get("id")))
        if tag not in ("meta", "img", "input", "br"):
            self.stack.append((name, hidden))

    def handle_endtag(self, tag):
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if not self.items or not any(t == "li" for t, _ in self.stack):
            return
        self.items[-1][0] += data
        if not (self.stack and self.stack[-1][1]):
            self.items[-1][1] += data


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("folds")
    a = runner.simulate("middle-ages", games=3000, seed=4, out=root / "before", quiet=True, raw=True)
    b = runner.simulate("middle-ages", games=3000, seed=4, out=root / "after", quiet=True, raw=True,
                        settings=["setup.start_coins=5"])
    with figures_undrawn():
        text = build_report([a, b], root / "rep", pool=False).read_text(encoding="utf-8")
    parsed = _Page()
    parsed.feed(text)
    return text, parsed


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_first_answer_keeps_its_answer_in_view_and_folds_its_methods(page):
    _, p = page
    whole, shown = next(x for x in p.items if "Did the seat win rates move?" in x[0])
    # the answer: every seat that moved, before → after with its change, stays in view
    moved = re.findall(r"Seat \d \d+\.\d+% → \d+\.\d+% \([+−]\d+\.\d+ pp", whole)
    assert moved and all(m in shown for m in moved)
    assert "Holm" in whole and "Bonferroni" in whole
    assert "Holm" not in shown and "Bonferroni" not in shown
    assert len(shown) < 0.8 * len(whole), (len(shown), len(whole))
    # the intervals the verdicts are read on stay: each moved seat's interval over the 4 at once
    assert shown.count("(all 4 seat win shares at once: ") == len(moved) >= 1


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_no_word_is_lost_and_every_fold_names_a_method(page):
    text, p = page
    assert p.folds and all(f.get("for") == "show-methods" and f.get("data-fold") in ("(…)", "(…;", "; …")
                           for f in p.folds)
    for whole, shown in p.items:
        hidden = whole
        for word in shown.split():
            hidden = hidden.replace(word, "", 1)
        if hidden.split():
            assert re.search(r"Holm|Bonferroni|common random numbers|pairing|each at level|Newcombe|"
                             r"Welch|Wilson|Ludii", hidden), hidden[:200]
            # nothing folded carries a result: no share, change or interval, no advice
            assert not re.search(r"\d\s*(%|pp\b)|[+−]\d|more games|cannot tell", hidden), hidden[:300]
    # the page's words are the sentences' words: strip the tags and nothing is added or missing
    plain = html.unescape(re.sub(r"<[^>]+>", "", text))
    assert "clear after Holm's correction over the 4 seat win shares alone" in plain


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_checkbox_precedes_every_section_at_the_top_of_the_body(page):
    """The folds are CSS that reaches what follows the checkbox at its own level: placed inside a
    paragraph or after a section it would fold nothing there (or never unfold)."""
    _, p = page
    tags = [t for t, _ in p.body_children]
    at = p.body_children.index(("input", "show-methods"))
    assert "section" in tags and at < tags.index("section") and at <= 2
    # its label in the bar right after it (a body child, so it can stick to the window's top), saying
    # what a tick does either way
    text, _ = page
    bar = text[text.index("<div class='methods-bar'>"):]
    bar = bar[:bar.index("</div>")]
    assert p.body_children[at + 1] == ("div", None) and "for='show-methods'" in bar
    assert "Show how each verdict was reached" in bar and "Hide how each verdict was reached" in bar


def test_with_folds_keeps_the_glossary_titles_inside_and_outside_a_fold():
    out = with_folds(SEAT_LINE)
    plain = html.unescape(re.sub(r"<[^>]+>", "", out))
    assert plain == SEAT_LINE
    assert out.count("<label") == out.count("</label>") == 1
    assert out.count("<abbr") == out.count("</abbr>") >= 1


def test_why_an_interval_ends_at_zero_stays_in_view():
    """'cut at 0 …' explains the 0.00 end of an interval printed beside 'clear': it stays."""
    text = ("moved beyond noise (clear after Holm's correction over the 7 side and seat shares alone; each "
            "size read on the change's interval over all 7 side and seat shares at once, Bonferroni, given "
            "after its verdict: cut at 0 where Holm shows the sign but that wider interval still holds 0): "
            "Seat 3 −1.0 pp (all 7 side and seat shares at once: −1.93 to 0.00 pp)")
    shown = _folded(text)
    assert "cut at 0 where Holm shows the sign" in shown and "clear after Holm's" not in shown, shown
