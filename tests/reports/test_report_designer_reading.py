"""What a designer reads against numbers computed here, apart from the report's own code: the
glossary's definitions give the printed numbers, verdicts say what a shown row means, a comparison
leads with the rule that changed, and sizes (not p-values) choose the words."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
import analysis_runs as runs

from reports.build import build_report
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def plain_text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def glossary(page: str) -> dict[str, str]:
    """The "How to read this report" table as {term: meaning}."""
    rows = re.findall(r"<tr><td>([^<]+)</td><td>(.*?)</td></tr>", page)
    return {html.unescape(t): plain_text(m) for t, m in rows}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("designer")
    base = runs.synthetic_run(root / "base", 3000, 4, seed=1, seat_edge=3.0)
    variant = runs.synthetic_run(root / "variant", 3000, 4, seed=2, seat_edge=0.5)
    rules = (Path(__file__).resolve().parents[2] / "configs" / "middle_ages" / "rules.toml").read_text()
    assert "[income.palais]\nbase = 3\n" in rules
    for run, text, sha in ((base, rules, "base-rules"),
                           (variant, rules.replace("[income.palais]\nbase = 3\n", "[income.palais]\nbase = 4\n"),
                            "variant-rules")):
        meta = json.loads((run / "run.json").read_text())
        meta.update(rules_sha256=sha, rules_text=text)
        (run / "run.json").write_text(json.dumps(meta))
    # every check reads the pages' words and tables: the figures are built, not drawn
    # (undrawn_figures.py; 9.7 -> 3.0 s CPU)
    with figures_undrawn():
        single = build_report([base], root / "single").read_text(encoding="utf-8")
        both = build_report([base, variant], root / "both").read_text(encoding="utf-8")
    return {"base": base, "variant": variant, "single": single, "both": both}


def _seat_numbers(run) -> dict:
    """Seat win shares and Ludii's place credit (1 first … 0 last, ties share their places'
    mean), computed here from players.parquet."""
    p = pl.read_parquet(run / "players.parquet")
    n = int(p["seat"].max()) + 1
    ws = p.group_by("seat").agg(pl.col("win_share").mean()).sort("seat")["win_share"].to_numpy()
    tied = p.group_by(["game", "rank"]).agg(pl.len().alias("k"))
    p = p.join(tied, on=["game", "rank"])
    place = p["rank"].to_numpy() + (p["k"].to_numpy() - 1) / 2      # mean of the shared places
    p = p.with_columns(pl.Series("credit", 1 - (place - 1) / (n - 1)))
    credit = p.group_by("seat").agg(pl.col("credit").mean()).sort("seat")["credit"].to_numpy()
    return {"win_shares": ws, "credit": credit,
            "ws_balance": 1 - (ws.max() - ws.min()), "balance": 1 - (credit.max() - credit.min())}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_glossary_balance_definitions_give_the_printed_numbers(built):
    """The glossary said Balance = 1 − (largest − smallest seat win share) and AdvantageP1 = Seat 1's
    win share, while the report prints Ludii's place-credit indices under those names (0.915 vs
    a win-share balance of 0.904 in a 2e5-game Middle-Ages run): each definition must give the
    number printed under its name."""
    page, text = built["single"], plain_text(built["single"])
    nums = _seat_numbers(built["base"])
    assert abs(nums["balance"] - nums["ws_balance"]) > 0.002     # the two indices differ here
    printed_balance = float(re.search(r"Balance is (\d\.\d{3})", text).group(1))
    printed_adv = float(re.search(r"AdvantageP1 is (\d\.\d{3})", text).group(1))
    printed_ws = float(re.search(r"win-share balance is (\d\.\d{3})", text).group(1))
    g = glossary(page)
    by_win_share = [t for t, m in g.items() if "smallest seat win share" in m]
    for term in by_win_share:                  # the entry defined on win shares names that number
        value = printed_ws if term.lower() == "win-share balance" else printed_balance
        assert value == pytest.approx(nums["ws_balance"], abs=0.0015), term
    assert "Balance" in g and "place" in g["Balance"]
    assert printed_balance == pytest.approx(nums["balance"], abs=0.0015)
    adv = g["AdvantageP1"]
    if re.search(r"the win share of Seat 1", adv):
        assert printed_adv == pytest.approx(nums["win_shares"][0], abs=0.0015)
    assert printed_adv == pytest.approx(nums["credit"][0], abs=0.0015)


def _comparison_rows(page: str) -> list[list[str]]:
    """The rows of the before/after table of every compared metric, cell by cell, as plain text."""
    start = page.index("compared metrics (clear")
    table = page[start:page.index("</table>", start)]
    return [[plain_text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", table) if "<td" in row]


def test_balance_indices_in_the_comparison_are_readable(built):
    """The before/after table showed "Balance 0.915 0.910 −0.006 +nan to +nan" with no unit, and
    "Win-share balance 0.90 0.91 0.00" (before, after and change disagreeing): each index row must
    show before and after to 3 decimals equal to the values computed here, a change equal to their
    difference, a unit, and no "nan"."""
    rows = {r[0]: r for r in _comparison_rows(built["both"])}
    base, var = _seat_numbers(built["base"]), _seat_numbers(built["variant"])
    for key, name in (("ws_balance", "Win-share balance"), ("balance", "Balance")):
        label = next(k for k in rows if k.startswith(name))
        metric, unit, before, after, change, interval = rows[label][:6]
        assert unit, label
        assert float(before) == pytest.approx(base[key], abs=0.0006), label
        assert float(after) == pytest.approx(var[key], abs=0.0006), label
        assert float(change.replace("−", "-").split()[0]) == pytest.approx(var[key] - base[key], abs=0.0011)
        assert "nan" not in " ".join(rows[label]).lower(), label


def test_a_shown_verdict_never_reads_not_shown(built):
    """Seat tables and headlines printed "Seat 4 wins 25.1% (24.9–25.3) against a fair 25.0%: +0.1
    pp, not shown" — on a row that is shown. A seat whose own 95% interval (computed here) holds
    the fair share is not clear under any correction: its verdict must say "within noise"; and
    no verdict cell of the before/after table may read "not shown"."""
    text = plain_text(built["single"])
    p = pl.read_parquet(built["base"] / "players.parquet")
    n_games = p["game"].n_unique()
    checked = 0
    for seat, d in p.group_by("seat"):
        x = d["win_share"].to_numpy()
        share, se = x.mean(), x.std(ddof=1) / np.sqrt(n_games)
        if abs(share - 0.25) < 1.96 * se:
            label = f"Seat {int(seat[0]) + 1}"
            sentence = re.search(rf"{label} wins [^\n]*?against a fair 25\.0%: [^,]+, ([^(]+)\(Holm", text)
            assert sentence and sentence.group(1).strip() == "within noise", label
            checked += 1
    assert checked                                   # the planted run has such a seat (Seat 2)
    assert "not shown (Holm" not in text
    verdicts = [r[-1] for r in _comparison_rows(built["both"])]
    assert verdicts and "not shown" not in verdicts
    assert "within noise" in verdicts


def test_a_comparison_leads_with_the_rule_that_changed(built):
    """The before/after opened with "Did the seat win rates move?" and named the changed rule only
    pages later, in its rules diff: its first sentence must say which setting changed, before and
    after (here income.palais.base, 3 in the base run's rules text and 4 in the variant's)."""
    page = built["both"]
    sec = page[page.index("<section id='comparison'>"):]
    first = plain_text(re.search(r"<li>(.*?)</li>", sec, re.S).group(1))
    assert "income.palais.base: 3 → 4" in first, first
    assert "Did the seat win rates move?" not in first


def test_the_seat_figure_caption_is_one_sentence_with_one_colon(built):
    """Figure 1's caption read "... against a fair 25.0%: the seats do not win equally often: Seat 1
    (+21.8 pp) ... are clear of ...": two colons in a row. It stays one sentence with one colon and
    gives the most and least winning seats' shares as computed here from the run's rows."""
    ws = _seat_numbers(built["base"])["win_shares"]
    caps = [plain_text(c) for c in re.findall(r"<figcaption>(.*?)</figcaption>", built["single"], re.S)]
    cap = next(c for c in caps if " wins most (" in c)
    cap = re.sub(r"^Figure \d+\.\s*", "", cap)
    best, worst = int(np.argmax(ws)), int(np.argmin(ws))
    assert cap.startswith(f"Seat {best + 1} wins most ({100 * ws[best]:.1f}%, +{100 * (ws[best] - 0.25):.1f} pp) "
                          f"and Seat {worst + 1} least ({100 * ws[worst]:.1f}%, ")
    assert cap.count(":") == 1, cap
    assert cap.count(". ") == 0 and cap.endswith(".")


_NUM = r"([−+-]?\d+(?:\.\d+)?)"


def _f(x: str) -> float:
    return float(x.replace("−", "-"))


def test_before_after_change_agrees_with_the_printed_values(built):
    """The before/after said "Seat 2, 24.7% → 24.9% (+0.3 pp …)": the change came from the
    unrounded shares, the two values from rounded ones. In every before → after of the comparison
    (sentences and table), the printed change must be the printed after − before at the printed
    precision, and the seats' values must be the win shares computed here from the rows."""
    base, variant, page = built["base"], built["variant"], built["both"]
    # (the module's two runs: 3,000 games each, two rule sets)
    sec = page[page.index("<section id='comparison'>"):]
    sec = sec[:sec.index("</section>")]
    text = plain_text(re.sub(r"</(li|p|td|tr|figcaption)>", "\n", sec))
    assert not re.search(r"(Seat \d), \1 ", text)            # the seat named once
    pairs = re.findall(rf"{_NUM}%? → {_NUM}%?(?: [a-z]+)?,? \(?{_NUM} (pp|coins|turns)", text)
    assert len(pairs) >= 3, text[:2000]
    for before, after, change, _ in pairs:
        digits = len(change.split(".")[1]) if "." in change else 0
        assert len(before.split(".")[-1]) == digits == len(after.split(".")[-1]), (before, after, change)
        assert round(_f(after) - _f(before), digits) == pytest.approx(_f(change), abs=1e-9), (before, after, change)
    # the seats' numbers, against the rows
    shares = {}
    for name, run in (("base", base), ("variant", variant)):
        p = pl.read_parquet(run / "players.parquet")
        shares[name] = p.group_by("seat").agg(pl.col("win_share").mean()).sort("seat")["win_share"].to_numpy()
    for seat, before, after, change in re.findall(rf"Seat (\d) {_NUM}% → {_NUM}% \({_NUM} pp", text):
        s = int(seat) - 1
        d = len(change.split(".")[1])
        assert _f(before) == pytest.approx(round(100 * shares["base"][s], d), abs=1e-9)
        assert _f(after) == pytest.approx(round(100 * shares["variant"][s], d), abs=1e-9)
    rows = re.findall(r"<tr>(.*?)</tr>", sec[sec.index("compared metrics (clear"):])
    checked = 0
    for r in rows:
        cells = [plain_text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
        if len(cells) < 5 or not re.fullmatch(r"[−+-]?\d+\.\d+%?", cells[2]):
            continue
        before, after, change = cells[2].rstrip("%"), cells[3].rstrip("%"), cells[4].split()[0]
        digits = len(change.split(".")[1])
        assert round(_f(after) - _f(before), digits) == pytest.approx(_f(change), abs=1e-9), cells
        checked += 1
    assert checked >= 5
