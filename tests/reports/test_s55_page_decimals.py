"""Review s55 #3: one before/after table printed its rows at decimals that varied without reason.

README's `balance report runs/demo runs/richer-palais`: Seat 2's row read "25.0% → 24.9%, −0.1 pp"
while the figure labelled the same change −0.12 pp and Seat 4's row had two decimals; "Leader at
the end of turn 5 wins" read "41.255% → 42.417%" among rows of one decimal. The page now decides
each row's decimals once (reports.text.with_page_digits): the seats' win shares as the first
answer and the figure print them, every other unit at one precision (at most two decimals), each
printed change the difference of its printed before and after; the rule is said once, in the
comparison's "How this is measured"."""

from __future__ import annotations

import html
import re

import pytest

from simcore import runner
from tests.page_tables import tables_by_heading

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

SEATS = "4 seat win shares"


def _number(text: str) -> tuple[float, int]:
    m = re.search(r"[+−-]?\d+(?:\.(\d+))?", text)
    assert m, text
    return float(m.group(0).replace("−", "-")), len(m.group(1) or "")


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from cli import _run

    root = tmp_path_factory.mktemp("s55pal")
    # the README's runs: 20,000 games, seed 0, and income.palais.base 3 → 4
    for name, settings in (("demo", []), ("richer-palais", ["income.palais.base=4"])):
        runner.simulate("middle-ages", games=20_000, seed=0, out=root / name, settings=settings, quiet=True)
    assert _run(["report", str(root / "demo"), str(root / "richer-palais"), "--out", str(root / "rep")]) == 0
    text = (root / "rep" / "report.html").read_text()
    table = next(v for k, v in tables_by_heading(text).items() if k.startswith("All ") and "compared metrics" in k)
    return text, table


def test_the_rows_of_one_unit_print_at_one_precision_and_each_change_is_its_printed_difference(page):
    _, table = page
    by_group: dict[str, list] = {}
    for row in table:
        if not row["Before"] or not row["After"] or row["Unit"].startswith("index"):
            continue
        (before, db), (after, da) = _number(row["Before"]), _number(row["After"])
        change, dc = _number(row["Change"])
        assert db == da == dc, row
        assert round(after - before, dc) == pytest.approx(change, abs=1e-9), row
        group = "seats" if row.get("Family (adjusted together)") == SEATS else row["Unit"]
        by_group.setdefault(group, []).append((db, row))
    assert by_group.get("seats") and by_group.get("%, change in pp"), by_group.keys()
    for group, rows in by_group.items():
        least = min(d for d, _ in rows)
        assert least <= (3 if group == "seats" else 2), (group, least)
        for d, row in rows:
            if d == least:
                continue
            # more decimals only where, at the unit's, the change would print as none (the rule's
            # exception: "a change that would print as 0 without being it"), or for a share under 1%
            # or over 99% (two significant digits: session 56)
            (before, _), (after, _) = _number(row["Before"]), _number(row["After"])
            rare = row["Unit"].startswith("%") and min(before, after, 100 - before, 100 - after) < 1
            assert group != "seats" and (round(before, least) == round(after, least) or rare), (group, least, row)
    # the review's rows: one precision for every share (two decimals here)
    assert {d for d, _ in by_group["%, change in pp"]} == {2}, by_group["%, change in pp"][:3]


def test_the_figure_labels_the_seats_as_their_rows_print_them():
    """The figure's labels (reports.sections._seat_changes) are the table's seat changes: the
    review's seats, 25.0% → 24.875% (−0.125 pp; "−0.1 pp" at its own one decimal) beside 19.86% → 19.74%
    and 25.05% → 25.38%, and other shares."""
    from reports.sections import _seat_changes, comparison_rows
    from reports.text import with_page_digits
    from tests.reports.test_verdict_words_read_well import NONE, _comparison, _row

    seats = [("Seat 1", 0.19855, 0.1974), ("Seat 2", 0.25, 0.24875), ("Seat 3", 0.30105, 0.30005),
             ("Seat 4", 0.25045, 0.25375)]
    others = [("leader_wins_turn_5", "all", 0.412549, 0.424166), ("leader_wins_turn_3", "all", 0.345, 0.3559)]
    cmp = with_page_digits(_comparison(*[_row("seat_win_share", k, b, v, 0.006, NONE) for k, b, v in seats],
                                       *[_row(m, k, b, v, 0.006, NONE) for m, k, b, v in others]), "coins")
    labels = _seat_changes(cmp)
    rows = comparison_rows(cmp, "coins")
    shown = {r["Metric"].removesuffix(" win share"): r["Change"] for r in rows.iter_rows(named=True)
             if r["Metric"].startswith("Seat ")}
    assert labels == shown, (labels, shown)
    assert shown["Seat 2"] == "−0.12 pp", shown          # (−0.125: 25.00% → 24.88%, as printed)


def test_the_list_of_changes_prints_each_line_as_its_table_row(page):
    text, table = page
    rows = {r["Metric"].split(" (")[0]: r for r in table}
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    lines = re.findall(r"([A-ZÉ][^<>:]*?): ([−+]?\d+\.\d+%?) → ([−+]?\d+\.\d+%?)(?: [a-z ]+)?, ([−+]\d+\.\d+) ", plain)
    checked = 0
    for name, before, after, change in lines:
        r = rows.get(name.strip())
        if r is None:
            continue
        assert (r["Before"].rstrip("%"), r["After"].rstrip("%"), r["Change"].split(" ")[0]) == \
               (before.rstrip("%"), after.rstrip("%"), change), (name, r)
        checked += 1
    assert checked >= 5, lines


def test_the_rule_is_said_once_on_the_page(page):
    text, _ = page
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    assert plain.count("Decimals: each unit's rows print at one precision") == 1, plain[:200]


def test_the_headline_prints_a_change_as_its_table_row(page):
    """"Largest other changes: … (the most in proportion: Seat 4, +4.31 coins)" is the table's."""
    text, table = page
    plain = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    m = re.search(r"the most in proportion: (Seat \d), ([+−]\d+\.\d+) coins", plain)
    assert m, plain[:3000]
    row = next(r for r in table if r["Metric"] == f"{m.group(1)} mean final score")
    assert row["Change"] == f"{m.group(2)} coins", row
