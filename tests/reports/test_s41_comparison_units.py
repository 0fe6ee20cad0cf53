"""Designer review (session 41) #1 and #2: a before/after names what it compares as the run page and
the exports do.

#1: Médiévallons counts a game's length in player turns (MV-3: each turn is one player's), and its run
page says "A game lasts 54.6 player turns"; its before/after said "game length −24.28 turns". The
comparison's unit for the game length now comes from the game's spec, as the run page's does, in
the page's table (Unit column, change, interval, verdict), its sentences and the terminal's lines; a
game whose run page says "turns" (Seigneurial's seasons) keeps "turns".

#2: in Seigneurial, "Seat 1 mean final score" is the Seigneur's; the exports say "Seat 1 (Seigneur)
win share" / "Seat 1 (Seigneur) mean score" (tests/export/test_export_seat_roles.py). The
comparison's seat rows now name the seat's role the same way: "Seat 1 (Seigneur) mean final score",
"Seat 2 (Censitaire) win share"; a game whose seats are alike (Middle-Ages) keeps "Seat 1".
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import polars as pl
import pytest

from analysis.compare import COMPARE_SCHEMA
from analysis import stats
from cli import _run
from reports.build import build_report
from reports.text import comparison_headlines, sides_named

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


class _Text(HTMLParser):
    """The visible text of a page, a cell or paragraph per line."""

    def __init__(self) -> None:
        super().__init__()
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in ("p", "li", "tr", "h2", "h3", "figcaption", "td", "th", "div"):
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.out.append(data)


def _page_lines(html_path) -> list[str]:
    p = _Text()
    p.feed(html_path.read_text(encoding="utf-8"))
    return [x.strip() for x in "".join(p.out).split("\n") if x.strip()]


def _before_after(tmp_path_factory, game: str, games: str, change: str) -> tuple[list[str], list[str]]:
    """A run of ``game`` and the same deals with ``change``: the before/after page's lines and the
    terminal's (the words are read: the figures built, not drawn)."""
    from undrawn_figures import figures_undrawn

    tmp = tmp_path_factory.mktemp(f"s41_{game}")
    a, b = tmp / f"{game}-a", tmp / f"{game}-b"
    for out, more in ((a, []), (b, ["--set", change])):
        assert _run(["simulate", "--game", game, "-n", games, "--seed", "3", *more,
                     "--out", str(out), "--quiet"]) == 0
    answers: list[str] = []
    with figures_undrawn():
        html = build_report([a, b], tmp / "rep", answers=answers)
    return _page_lines(html), answers


@pytest.fixture(scope="module")
def medievallons(tmp_path_factory):
    # a change that shortens the games by about 40% (two cards found a guild instead of three)
    return _before_after(tmp_path_factory, "medievallons", "1500", "guilds.min_cards=2")


@pytest.fixture(scope="module")
def seigneurial(tmp_path_factory):
    return _before_after(tmp_path_factory, "seigneurial", "3000", "track.start_square=3")


def _run_page_unit(lines: list[str]) -> str:
    """The unit the run page's length sentence says: "A game lasts 54.6 player turns on average"."""
    said = [m.group(1) for x in lines if (m := re.search(r"A game lasts [\d.]+ ([a-z ]+?) on average", x))]
    assert said, "the run page's length sentence"
    return said[0]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_game_length_of_a_medievallons_before_after_is_in_player_turns_as_its_run_page(medievallons):
    lines, answers = medievallons
    assert _run_page_unit(lines) == "player turns"
    # the table's row: its Unit cell, then the change, its interval and its verdict's interval
    at = lines.index("Mean game length")
    row = lines[at: at + 10]
    assert row[1] == "player turns", row
    assert re.fullmatch(r"−\d+\.\d+ player turns", row[4]), row
    assert re.fullmatch(r"−\d+\.\d+ to −\d+\.\d+ player turns", row[5]), row
    assert any(re.search(r"at once: −[\d.]+ to −[\d.]+ player turns\)", x) for x in row), row
    # the sentences: the listed change and the first answer's largest other changes
    listed = [x for x in lines if x.startswith("Mean game length:")]
    assert listed and re.search(r"→ [\d.]+ player turns, −[\d.]+ player turns \(95% interval −[\d.]+ to "
                                r"−[\d.]+ player turns\)", listed[0]), listed
    first = [x for x in lines if x.startswith("Did the seat win rates move?")]
    assert first and re.search(r"game length −[\d.]+ player turns \(", first[0]), first
    # the terminal's lines, as the page
    said = " ".join(answers)
    assert re.search(r"game length −[\d.]+ player turns \(", said), said
    # and nowhere in the before/after a length in bare "turns" (the run page's quantiles, "half of
    # the games end within 52 turns", are not the before/after's)
    before_after = [x for x in lines[: lines.index("How to read this report")] if "game length" in x.lower()
                    and not x.startswith(("A game lasts", "Game length moves most clearly"))]
    for x in before_after:
        assert not re.search(r"\d turns\b", x.replace("player turns", "")), x


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_game_whose_run_page_says_turns_keeps_turns(seigneurial):
    lines, answers = seigneurial
    assert _run_page_unit(lines) == "turns"
    at = lines.index("Mean game length")
    assert lines[at + 1] == "turns", lines[at: at + 6]
    assert "player turns" not in " ".join(answers)


def test_the_seats_of_a_game_with_roles_are_named_with_their_roles(seigneurial):
    lines, answers = seigneurial
    # the page's table, as the exports label them ("Seat 1 (Seigneur) mean score"), the score "final"
    # as the before/after has always said it
    for seat, role in ((1, "Seigneur"), (2, "Censitaire"), (3, "Censitaire"), (4, "Censitaire")):
        assert f"Seat {seat} ({role}) mean final score" in lines, seat
    for seat in (2, 3, 4):        # (Seat 1's win share is the Seigneur side's: left out as its copy)
        assert f"Seat {seat} (Censitaire) win share" in lines, seat
    # no seat row named without its role anywhere on the page's before/after or in the terminal
    end = lines.index("How to read this report")
    for x in lines[:end] + answers:
        assert not re.search(r"Seat \d (mean final score|win share)", x), x
    assert "Seat 1 (Seigneur) mean final score" in " ".join(answers)


def _row(metric, key, label, base, variant, kind="mean", verdict=stats.LARGE, **more) -> dict:
    half = 0.02 * max(abs(base), abs(variant), 1e-3)
    diff = variant - base
    return {"metric": metric, "key": key, "label": label, "kind": kind, "base": base, "base_low": base - half,
            "base_high": base + half, "variant": variant, "variant_low": variant - half,
            "variant_high": variant + half, "diff": diff, "diff_low": diff - half, "diff_high": diff + half,
            "z": 9.0, "p_value": 1e-9, "p_adjusted": 1e-8, "significant": True, "family": "other metrics",
            "family_size": 3, "smallest": 2.0 if kind == "mean" else 0.01, "size_low": diff - 2 * half,
            "size_high": diff + 2 * half, "verdict": verdict, "paired": True, **more}


def _table(*rows) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=COMPARE_SCHEMA)


def test_naming_a_table_twice_names_it_once_and_a_game_of_alike_seats_keeps_its_names():
    cmp = _table(_row("seat_mean_score", "Seat 1", "Seat 1 mean score", 36.0, 64.0),
                 _row("seat_win_share", "Seat 2", "Seat 2 win share", 0.32, 0.28, kind="proportion"),
                 _row("mean_turns", "all", "Mean game length (turns)", 7.6, 6.9))
    once = sides_named(cmp, "seigneurial")
    twice = sides_named(once, "seigneurial")
    assert once["label"].to_list() == twice["label"].to_list() == [
        "Seat 1 (Seigneur) mean score", "Seat 2 (Censitaire) win share", "Mean game length (turns)"]
    # the keys other tables match on are kept where asked (a CSV's)
    assert sides_named(cmp, "seigneurial", keys=False)["key"].to_list() == ["Seat 1", "Seat 2", "all"]
    alike = sides_named(cmp, "middle-ages")
    assert alike.filter(pl.col("metric") != "mean_turns")["label"].to_list() == ["Seat 1 mean score",
                                                                                 "Seat 2 win share"]
    heads = " ".join(comparison_headlines(cmp, "a", "b", "coins", game="middle-ages"))
    assert "Seat 1 mean final score" in heads and "(Seigneur)" not in heads
    heads = " ".join(comparison_headlines(cmp, "a", "b", "% of own goal", game="seigneurial"))
    assert "Seat 1 (Seigneur) mean final score" in heads


def test_the_terminal_lines_name_the_length_unit_without_the_page(tmp_path):
    # comparison_headlines is what the terminal prints (reports.build), on the comparison as
    # analysis.compare makes it (key "all"): the unit is the game's all the same
    cmp = _table(_row("mean_turns", "all", "Mean game length (turns)", 54.6, 31.6))
    said = " ".join(comparison_headlines(cmp, "a", "b", "guild cards", game="medievallons"))
    assert re.search(r"game length −23\.00 player turns", said), said
    said = " ".join(comparison_headlines(cmp, "a", "b", "coins", game="middle-ages"))
    assert re.search(r"game length −23\.00 turns", said) and "player turns" not in said, said


def test_the_seigneurs_moved_start_is_said_beside_his_score_change(seigneurial):
    """Review #20 (s38): "Seat 1 mean final score +27.98 pp of own goal" where the changed rule put
    the Seigneur 3 squares along his track before the first turn. The start the rules give him, read
    here from the shipped rules file (SG-1, SG-8: 100 · square // goal), is said beside that change,
    on the page and in the terminal, and beside no other row."""
    import tomllib

    from simcore.games.seigneurial.rules import RULES

    track = tomllib.loads(RULES.default_rules_path().read_text(encoding="utf-8"))["track"]
    start = 100 * 3 // int(track["goal"]["4"])
    words = f"the changed rules start it at {start}% of own goal instead of 0"
    lines, answers = seigneurial
    listed = [x for x in lines if x.startswith("Seat 1 (Seigneur) mean final score:")]
    assert listed and words in listed[0], listed
    first = [x for x in lines if x.startswith("Did the role win rates move?")]
    assert first and f"Seat 1 (Seigneur) mean final score +" in first[0] and words in first[0], first
    assert any(words in x for x in answers), answers
    # said of that seat only
    assert sum("the changed rules start" in x for x in lines) == len(
        [x for x in lines if words in x]), [x for x in lines if "the changed rules start" in x]


def test_no_start_is_said_where_the_rules_fix_none(medievallons):
    lines, answers = medievallons
    assert not [x for x in lines + answers if "the changed rules start" in x]
