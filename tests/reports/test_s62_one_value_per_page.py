"""A value a page prints in a sentence and in its table is printed the same in both (session 62).
On a 20,000-game Middle-Ages run (seed 0, 4 balanced players) the lead said "Seat 4 wins 27.8%
(26.7–29.1) of the games where Alliance fires against 24.0% (23.3–24.7) where it does not, +3.8 pp
(+2.4 to +5.2 pp" while the card table's row printed "27.84% (26.65–29.06)", "24.03% (23.34–24.72)"
and "+3.81 pp (+2.44 to +5.21 pp)": the table took the decimals its most demanding row needed. On
a 20,000-game Seigneurial run (seed 0) the length sentence said "Seigneur goal 0.1%" beside the End
reasons table's "0.11% (0.07–0.16)". Each number is read from the printed page and checked against
the run's parquet files, counted here."""

from __future__ import annotations

import html
import re

import polars as pl
import pytest

# 20,000-game runs of three games (~20 s of CPU): make test-slow and CI run them (docs/testing.md);
# tests/reports/test_s62_fair_share_one_value.py checks the fair share in make test
pytestmark = pytest.mark.slow

from page_tables import tables_by_heading
from printed_numbers import NUM, as_float, decimals


def _text(page: str) -> str:
    """The page's words as a reader sees them: styles left out, a block's tags a space, inline
    tags (an <abbr> of the glossary, a folded <span>) nothing."""
    page = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"</?(?:p|li|ul|td|th|tr|table|h\d|div|section|figcaption|figure|br|caption)\b[^>]*>", " ", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())


def _near(printed: str, value: float) -> bool:
    """Whether a printed percentage is ``value`` (in percent) within half a unit of its last digit."""
    return abs(as_float(printed) - value) <= 0.5 * 10.0 ** -decimals(printed) + 1e-9


def _report(tmp_path_factory, name: str, *args: str):
    from cli import _run

    root = tmp_path_factory.mktemp(name)
    run, out = root / "run", root / "report"
    assert _run(["simulate", *args, "--games", "20000", "--seed", "0", "--out", str(run), "--quiet"]) == 0
    assert _run(["report", str(run), "--out", str(out)]) == 0
    return run, (out / "report.html").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def middle_ages(tmp_path_factory):
    return _report(tmp_path_factory, "ma20k")


@pytest.fixture(scope="module")
def seigneurial(tmp_path_factory):
    return _report(tmp_path_factory, "sg20k", "--game", "seigneurial")


SWING = (rf"(Seat \d) wins ({NUM})% \(({NUM})–({NUM})\) of the games where ([^,]+?) fires against "
         rf"({NUM})% \(({NUM})–({NUM})\) where it does not, ({NUM}) pp \(({NUM}) to ({NUM}) pp")


def test_a_card_swing_prints_in_the_lead_as_in_its_table_row(middle_ages):
    run, page = middle_ages
    text = _text(page)
    said = re.findall(SWING, text.split(" Seat advantage ")[0])      # the headline findings
    assert said, text[:3000]
    tables = tables_by_heading(page)
    rows = next(v for k, v in tables.items() if k.startswith("Seats whose win share changes with the card"))
    ids = {m.group(1): int(m.group(2)) for r in next(v for k, v in tables.items() if k.startswith("Event cards"))
           if (m := re.match(r"(.+) \((\d+)\)$", r["Event"]))}
    players = pl.read_parquet(run / "players.parquet")
    games = pl.read_parquet(run / "games.parquet")
    events = [c for c in games.columns if re.fullmatch(r"event_\d+", c)]
    for seat, w, wlo, whi, card, wo, wolo, wohi, change, clo, chi in said:
        row = next(r for r in rows if r["Event"] == card and r["Seat"] == seat)
        assert row["Win share when it fires"] == f"{w}% ({wlo}–{whi})", (row, w)
        assert row["Win share when it does not"] == f"{wo}% ({wolo}–{wohi})", (row, wo)
        assert row["Change (pp, 95% interval, unadjusted)"].replace("\u00a0", " ") == f"{change} pp ({clo} to {chi} pp)", row
        # the run's own count: the seat's wins in the games where the card is among the drawn events
        fires = games.select("game", pl.any_horizontal([pl.col(c) == ids[card] for c in events]).alias("fires"))
        mine = players.filter(pl.col("seat") == int(seat.split()[1]) - 1).join(fires, on="game")
        with_, without = (100 * float(mine.filter(pl.col("fires") == f)["win_share"].mean()) for f in (True, False))
        assert _near(w, with_) and _near(wo, without), (w, with_, wo, without)
        assert round(as_float(w) - as_float(wo), decimals(change)) == as_float(change), (w, wo, change)


def test_the_weakest_seats_swing_names_its_share_as_its_seat_line(middle_ages):
    run, page = middle_ages
    text = _text(page)
    m = re.search(rf"For (Seat \d), the seat that wins least \(({NUM})% against a fair ({NUM})%\)", text)
    assert m, text[:3000]
    seat, share, fair = m.groups()
    line = re.search(rf"{seat} wins ({NUM})% \(", text)
    assert line and line.group(1) == share, (share, line and line.group(0))
    assert fair == "25.0", fair
    players = pl.read_parquet(run / "players.parquet").filter(pl.col("seat") == int(seat.split()[1]) - 1)
    assert _near(share, 100 * float(players["win_share"].mean())), share


def test_the_end_reasons_sentence_prints_each_share_as_its_table(seigneurial):
    run, page = seigneurial
    text = _text(page)
    m = re.search(rf"The most common end is “[^”]+”: {NUM}% \({NUM}–{NUM}\) of games \(then (.*?)"
                  r"(?:; none by [^)]*)?\)\.", text)
    assert m, text[:3000]
    table = {r["End"]: r for r in tables_by_heading(page)["End reasons"]}
    # (a label may hold a comma: "Seigneur goal, winning a tie (SG-6) 0.3%")
    said = [(label, x.group(1)) for label in table
            if (x := re.search(rf"(?:^|, ){re.escape(label)} ({NUM})%(?:, |$)", m.group(1)))]
    assert len(said) >= 2, m.group(1)
    games = pl.read_parquet(run / "games.parquet")
    for label, share in said:
        row = table[label]
        assert row["Share"].split("%")[0] == share, (label, share, row["Share"])
        codes = [int(c) for c in row["Code"].split(" + ")]
        count = games.filter(pl.col("end_reason").is_in(codes)).height
        assert _near(share, 100 * count / games.height), (label, share, count)


def test_the_average_censitaire_prints_as_the_roles_table_prints_it(seigneurial):
    # "an average of 33.20% (33.16–33.22) per Censitaire seat" in the lead and the Roles table,
    # "against 33.2% for the average Censitaire" in the Objective cards' sentences: one share
    run, page = seigneurial
    text = _text(page)
    roles = {r["Role"]: r for r in tables_by_heading(page)["Roles"]}
    per_seat = roles["Censitaire"]["Average per seat (the side's wins ÷ its seats, 95% interval)"].split("%")[0]
    said = re.findall(rf"against ({NUM})% for the average Censitaire", text)
    assert len(said) >= 2, text[:3000]
    assert set(said) == {per_seat}, (said, per_seat)
    players = pl.read_parquet(run / "players.parquet").filter(pl.col("role") == "censitaire")
    assert _near(per_seat, 100 * float(players["win_share"].mean())), per_seat


@pytest.fixture(scope="module")
def fief(tmp_path_factory):
    return _report(tmp_path_factory, "ff20k", "--game", "fief-combat")


def test_how_often_the_defender_holds_prints_one_value(fief):
    # the lead's "the defender holds in 0.2% (0.2–0.3)" and "how often it holds (0.2%)", the
    # length sentence's "Defender holds 0.21%": 41 of 20,000 combats, one share
    run, page = fief
    text = _text(page)
    lead = re.search(rf"the defender holds in ({NUM})% \(({NUM})–({NUM})\)", text)
    assert lead, text[:3000]
    share, low, high = lead.groups()
    assert decimals(low) == decimals(high) == decimals(share) and low != share, lead.group(0)   # (pct_ci's rule)
    said = (re.findall(rf"how often it holds \(({NUM})%\)", text)
            + re.findall(rf"Defender holds ({NUM})%", text))
    assert said and set(said) == {share}, (said, share)
    games = pl.read_parquet(run / "games.parquet")
    held = games.filter(pl.col("winner") == 1).height       # (0 attacker, 1 defender, 2 both wiped out)
    assert _near(share, 100 * held / games.height), (share, held)
    wiped = games.filter(pl.col("winner") == 2).height
    side = re.search(rf"the defender's win share, ({NUM})%", text)
    assert side and _near(side.group(1), 100 * (held + wiped / 2) / games.height), side
    roles = {r["Role"]: r for r in tables_by_heading(page)["Roles"]}
    assert roles["Defender"]["Side wins (95% interval, unadjusted)"].split("%")[0] == side.group(1), roles
