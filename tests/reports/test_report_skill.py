"""The balance report's skill section (``balance report RUN --skill DIR``): the section, its figure
and its sentence read from the skill table beside it; a directory that is not a finished balance
skill of the same game is one line with exit code 2, before anything is written."""

from __future__ import annotations

import json
import re

import polars as pl
import pytest
import analysis_runs as runs

from analysis import skill as K

# seats alike: no gap within a role (K.ROLE_GAP_COLUMNS, a game with roles only)
NO_ROLE_GAP = (None,) * len(K.ROLE_GAP_COLUMNS)
from cli import _run
from reports.build import build_report
from undrawn_figures import figures_undrawn

CHANCE = re.compile(r" \(with every seat equal, [\d,]+ games give a largest gap of about [\d.]+ pp by chance alone\)")

# seat 3 leads by 12 pp over seat 1 with the bots (budget 0) and by 2 pp, within the intervals' overlap of
# none, when every seat searches at 64: the advantage shrinks and is no longer distinguishable
SHARES = {0: [0.20, 0.23, 0.32, 0.25], 64: [0.25, 0.24, 0.26, 0.25]}
# the Balance figures of each budget (as balance_figures writes them): Ludii's Balance and the
# win-share balance with 95% intervals, then the win-share balance's 97.5% interval (the sentence's)
BALANCE = {0: (0.91, 0.89, 0.93, 0.88, 0.855, 0.905, 0.85, 0.91),
           64: (0.99, 0.97, 1.0, 0.98, 0.955, 1.0, 0.95, 1.0)}
# one searching seat: better than the seat's own bot in seats 1, 2 and 4, worse in seat 3
ONE = {0: [0.20, 0.23, 0.32, 0.25], 64: [0.55, 0.60, 0.30, 0.58]}


def skill_dir(path, game="middle-ages", players=4):
    from simcore.stats import wilson_interval
    rows = []
    for b, shares in SHARES.items():
        for s, w in enumerate(shares):
            lo, hi = wilson_interval(w, 2000)
            rows.append(("4p 4×balanced", players, b, "all", s, "player", f"search{b}", 2000, w, lo, hi,
                         *BALANCE[b], K.FAMILY_LEVEL, *NO_ROLE_GAP))
            rows.append(("4p 4×balanced", players, b, "one", s, "player", f"search{b}", 500, ONE[b][s], 0, 1,
                         *(None,) * (len(K.BALANCE_COLUMNS) + 1), *NO_ROLE_GAP))
    path.mkdir(parents=True)
    pl.DataFrame(rows, schema=K.SCHEMA, orient="row").write_parquet(path / "skill.parquet")
    (path / "skill.json").write_text(json.dumps({"kind": "balance-skill", "game": game, "players": players,
                                                 "games": 2000, "seed": 0, "policy": "balanced",
                                                 "budgets": [0, 64]}))
    return path


def _with_cells(path, cells):
    """The skill directory's skill.json recording the panel cells it played, as balance skill
    writes them: (players, line-up) each."""
    q = json.loads((path / "skill.json").read_text())
    q["panel"] = {"game": q["game"], "name": "single", "cells": [
        {"players": n, "lineup": lineup, "weight": 1.0, "label": f"{n}p"} for n, lineup in cells]}
    (path / "skill.json").write_text(json.dumps(q))


def test_a_skill_study_of_another_player_count_or_line_up_is_refused():
    """Its section would quote another table's win shares as this run's trend (designer review
    44 #1): refused in one line naming both and the command that plays the run's own; a line-up
    in another seat order is the same study (the skill rotates the searching seat)."""
    from reports.skill import check_skill_lineups
    from simcore.errors import UsageError
    q = {"game": "seigneurial", "players": 4, "panel": {"cells": [
        {"players": 4, "lineup": ["standard"] * 4}, {"players": 4, "lineup": ["harsh-lord", "fair-share",
                                                                            "fair-share", "fair-share"]}]}}
    check_skill_lineups(q, [(4, ["standard"] * 4)], "sk")
    check_skill_lineups(q, [(4, ["fair-share", "harsh-lord", "fair-share", "fair-share"])], "sk")
    check_skill_lineups(q, [(3, ["standard"] * 3), (4, ["standard"] * 4)], "sk")   # a before/after
    with pytest.raises(UsageError) as e:
        check_skill_lineups(q, [(3, ["standard"] * 3)], "sk")
    assert str(e.value) == ("--skill sk: a balance skill of 4p 4×standard, 4p harsh-lord + 3×fair-share, "
                            "not of the report's run (3p 3×standard); run balance skill with the run's "
                            "player count and line-up (--players 3 --strategies standard,standard,standard)")
    with pytest.raises(UsageError, match="not of the report.s run .4p harsh-lord . 3×objective"):
        check_skill_lineups(q, [(4, ["harsh-lord", "objective", "objective", "objective"])], "sk")
    # a directory written before the cells were recorded: its player count alone
    check_skill_lineups({"players": 4}, [(4, ["balanced"] * 4)], "sk")
    with pytest.raises(UsageError, match="a balance skill of 4 players, not of the report's run .3 players"):
        check_skill_lineups({"players": 4}, [(3, ["balanced"] * 3)], "sk")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("skillreport")
    base = runs.synthetic_run(root / "base", 2000, 4, seed=1)
    d = skill_dir(root / "skill")
    # the checks read the page and the files written; the skill figure is drawn and measured by
    # test_the_skill_figure_passes_the_figure_checklist (undrawn_figures.py)
    with figures_undrawn():
        page = build_report([base], root / "out", skill=d).read_text(encoding="utf-8")
    return {"root": root, "base": base, "skill": d, "page": page}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_report_has_the_skill_section_with_its_figure(built):
    page = built["page"]
    assert "<section id='skill'>" in page
    sec = page[page.index("<section id='skill'>"):]
    sec = sec[:sec.index("</section>")]
    assert "skill_budget" in sec and "data:image/png;base64," in sec
    assert (built["root"] / "out" / "figures" / "skill_budget.png").is_file()
    # the glossary stays the last section
    assert page.rindex("<section id='skill'>") < page.rindex("<section id='glossary'>")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_sentence_is_true_for_the_table_beside_it(built):
    import html
    text = html.unescape(re.sub(r"<[^>]+>", "", built["page"]))
    # led by the cell it holds for (player count and line-up)
    # the gaps and their 97.5% intervals: 1 minus the win-share balance and its adjusted bounds
    g = {b: (1 - BALANCE[b][3], 1 - BALANCE[b][7], 1 - BALANCE[b][6]) for b in BALANCE}
    at = {b: f"{100 * x:.1f} pp ({100 * lo:.1f} to {100 * hi:.1f}) at budget {b}" for b, (x, lo, hi) in g.items()}
    shrink = (g[0][0] - g[64][0], g[0][1] - g[64][2], g[0][2] - g[64][1])     # between the far ends
    assert shrink[1] >= 0.01 and g[0][1] >= 0.01 and g[64][1] <= 0 < 0.01 <= g[64][2]
    # (after a gap these games cannot tell from none, its chance level: review 45 #3, whose value
    # tests/stats/test_s45_chance_largest_gap.py checks)
    chance = CHANCE.search(text)
    assert chance, text
    assert ("In 4p 4×balanced, with every seat searching at the budget (at budget 0 every seat plays its own "
            "bot), the largest gap between two seats' win shares (97.5% intervals, two budgets "
            f"compared) is {at[0]} with seat 3 ahead of seat 1, a seat advantage of at least the 1 pp that "
            f"matters, and {at[64]}, where these games cannot tell a seat advantage of at least the 1 pp "
            f"that matters from none{chance.group(0)}. The gap shrinks by "
            f"{100 * shrink[0]:.1f} pp ({100 * shrink[1]:.1f} to {100 * shrink[2]:.1f}) from budget 0 to "
            "budget 64, at least the 1 pp that matters.") in text
    # the Balance table beside it: the gap with the sentence's interval (one number, one interval:
    # its 95% interval, 9.5 to 14.5, is not on the page), Ludii's Balance with its 95% interval
    assert "gap interval (97.5%, as in the sentence: two budgets compared)" in text
    assert "12.0" in text and f"{100 * g[0][1]:.1f} to {100 * g[0][2]:.1f}" in text
    assert "9.5 to 14.5" not in text
    assert "0.910" in text and "0.890 to 0.930" in text
    # the searching seat against its own bot with every seat at budget 0 (2,000 games), each clause
    # true of its numbers, worded by the size of each seat's difference (Holm over the seats, 1 pp
    # matters; tests/reports/test_review_r_skill_gain.py checks the intervals): seat 3's 30.0% of 500
    # games against its bot's 32.0% of 2,000 is not clearly different
    assert ("At budget 64, one searching seat's win share against the seat's own bot's there (every seat "
            "its own bot at budget 0, 2,000 games; Holm over the 4 seats compared, 1 pp matters) is clearly "
            "more, by enough to matter, in seats 1, 2 and 4 (seat 1 55.0% of 500 games vs the bot's 20.0% "
            "of 2,000, +35.0 pp, 95% interval ") in text
    assert ("; not clearly different in seat 3 (30.0% of 500 games vs the bot's 32.0% of 2,000, −2.0 pp, "
            "95% interval ") in text
    # (session 42, review B #6: over all the seats the searching seat's games are clearly more, so
    # seat 3 alone no longer asks for more games)
    # (session 63, review 283 #1: a searching seat's gain, not "stronger play": no bot played alone
    # among searching seats)
    assert ("over all its games one searching seat clearly gains on the bots, though seat by seat these "
            "games show it gaining in seats 1, 2 and 4 and cannot tell yet in seat 3. These games play "
            "no bot alone among searching seats") in text


def test_more_in_every_seat_is_called_stronger_play_only_when_the_intervals_are_apart():
    from reports.skill import gain_sentence

    def table(one64, lo64, hi64):
        rows = [("c", 4, b, "one", s, "player", "x", 500, w, lo, hi, *(None,) * (len(K.BALANCE_COLUMNS) + 1), *NO_ROLE_GAP)
                for b, ws, los, his in ((0, [0.2, 0.2], [0.18, 0.18], [0.22, 0.22]), (64, one64, lo64, hi64))
                for s, (w, lo, hi) in enumerate(zip(ws, los, his))]
        return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")

    # (no every-seat part here: the seat's own bot is read on the one-seat part's budget 0)
    apart = gain_sentence(table([0.5, 0.4], [0.45, 0.35], [0.55, 0.45]))
    assert ("is clearly more, by enough to matter, in seats 1 and 2 (seat 1 50.0% of 500 games vs the "
            "bot's 20.0% of 500, +30.0 pp, 95% interval ") in apart
    assert ": one searching seat gains on the seat's own bot. These games play no bot alone" in apart
    close = gain_sentence(table([0.5, 0.21], [0.45, 0.17], [0.55, 0.25]))
    assert ("is clearly more, by enough to matter, in seat 1 (50.0% of 500 games vs the bot's 20.0% of "
            "500, +30.0 pp, ") in close
    assert ("; not clearly different in seat 2 (21.0% of 500 games vs the bot's 20.0% of 500, +1.0 pp, "
            "95% interval ") in close
    # (session 42, review B #6: seat 1's +30 pp carries the searching seat's games over both seats,
    # clearly more; seat 2 alone cannot tell, and the sentence says so)
    assert "one searching seat gains on the seat's own bot." not in close
    assert ("over all its games one searching seat clearly gains on the bots, though seat by seat these "
            "games show it gaining in seat 1 and cannot tell yet in seat 2.") in close
    none = gain_sentence(table([0.21, 0.19], [0.17, 0.15], [0.25, 0.23]))
    assert ("is not clearly different in seats 1 and 2 (seat 1 21.0% of 500 games vs the bot's 20.0% of "
            "500, +1.0 pp, ") in none and "seat 2 19.0% of 500 games vs the bot's 20.0% of 500, −1.0 pp" in none
    assert "these games do not show a searching seat gaining in any seat" in none


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("make, problem", [
    (lambda p: p.mkdir(), "not a balance skill directory"),
    (lambda p: skill_dir(p, game="seigneurial"), "report is of middle-ages"),
    (lambda p: (skill_dir(p), (p / "skill.parquet").unlink()), "unfinished"),
    (lambda p: (skill_dir(p), pl.read_parquet(p / "skill.parquet").drop(list(K.BALANCE_COLUMNS))
                .write_parquet(p / "skill.parquet")), "older balance skill"),
    # a panel written before its gap intervals were adjusted over its cells (read at 97.5% each)
    (lambda p: (skill_dir(p), (lambda t: pl.concat([t, t.with_columns(pl.lit("4p 4×greedy").alias("cell"))])
                               .drop(K.LEVEL_COLUMN).write_parquet(p / "skill.parquet"))(
                                   pl.read_parquet(p / "skill.parquet"))), "not adjusted over its cells"),
    # a study of another player count or line-up than the run's (designer review 44 #1)
    (lambda p: (skill_dir(p), _with_cells(p, [(3, ["balanced"] * 3)])), "not of the report's run (4p"),
    (lambda p: (skill_dir(p), _with_cells(p, [(4, ["greedy"] * 4)])), "--players 4 --strategies"),
])
def test_a_bad_skill_directory_is_one_line_and_nothing_is_written(built, tmp_path, capsys, make, problem):
    d = tmp_path / "skill"
    make(d)
    out = tmp_path / "out"
    assert _run(["report", str(built["base"]), "--out", str(out), "--skill", str(d),
                 "--questions-games", "0"]) == 2
    err = capsys.readouterr().err.strip()
    assert problem in err and len(err.splitlines()) == 1
    assert not out.exists()


def test_the_shown_table_numbers_seats_from_one_in_percent(built):
    from reports.skill import _percent
    from simcore.stats import wilson_interval
    t = _percent(pl.read_parquet(built["skill"] / "skill.parquet"))
    assert sorted(set(t["seat"].to_list())) == [1, 2, 3, 4]
    every = t.filter((pl.col("budget") == 0) & (pl.col("who searches") == "every seat"))
    # the shares written as a designer reads them, with their 95% Wilson interval (2,000 games)
    want = []
    for w in SHARES[0]:
        lo, hi = wilson_interval(w, 2000)
        want.append(f"{100 * w:.1f}% ({100 * lo:.1f}–{100 * hi:.1f})")
    assert every["win share (95% interval)"].to_list() == want
    assert t.filter(pl.col("who searches") == "one seat").height == 8
    # the cell names the player count and line-up (as the sentences do); one role: no role column
    assert t["cell"].unique().to_list() == ["4p 4×balanced"] and "players" not in t.columns
    assert "role" not in t.columns


def test_the_skill_figure_passes_the_figure_checklist(built):
    from reports.figures.checklist import problems
    from reports.skill import budget_figure
    fig = budget_figure(pl.read_parquet(built["skill"] / "skill.parquet"), ("player",) * 4, 0.25)
    assert problems(fig) == []
    from matplotlib.ticker import PercentFormatter
    for ax in fig.axes:           # both panels are share axes from 0 (a zoom would exaggerate)
        assert isinstance(ax.yaxis.get_major_formatter(), PercentFormatter)
        assert ax.get_ylim()[0] == 0


def test_a_gap_not_shown_but_wide_is_worded_by_its_size(built):
    """Middle-Ages 4p, --budgets 0,4, 200 games: the section said only "these games show no seat
    advantage at either budget" for gaps whose intervals ran 0.0 to 18.1 and 0.0 to 23.6 pp, far
    above the 1 pp that matters (and beside a seat section with a clear 10 pp gap). Here, at budget
    64 the planted gap's 97.5% interval is 0.0 to 5.0 pp (1 − the planted win-share balance's
    adjusted bounds): it reaches past 1 pp, so the page must say these games cannot tell a gap that
    matters from none, in the trend sentence itself (no note after it); at budget 0 the gap (9.0 to
    15.0) lies above 1 pp and gets no such words."""
    import html
    text = html.unescape(re.sub(r"<[^>]+>", "", built["page"]))
    high64 = 100 * (1 - BALANCE[64][6])
    low0 = 100 * (1 - BALANCE[0][7])
    assert low0 >= 1.0 and high64 >= 1.0
    assert re.search(re.escape(f"(0.0 to {high64:.1f}) at budget 64, where these games cannot tell a seat "
                               "advantage of at least the 1 pp that matters from none") + CHANCE.pattern + r"\.",
                     text), text
    assert f"({low0:.1f} to 15.0) at budget 0 with seat 3 ahead of seat 1, a seat advantage of at least" in text
    assert "the gap's interval reaches up to" not in text and "show no seat advantage" not in text


@pytest.mark.parametrize("share, at0, change", [
    # 10 pp: 9.0 to 15.0 reaches both sides of it; the shrink (4.0 to 15.0) too
    (0.10, "a clear seat advantage, though these games cannot tell whether it reaches the 10 pp that matters",
     "These games cannot tell whether the gap changes by as much as the 10 pp that matters"),
    # 20 pp: 9.0 to 15.0 lies below it; the change (-15.0 to -4.0) within 20 pp either way
    (0.20, "a clear seat advantage but smaller than the 20 pp that matters",
     "The gap changes by less than the 20 pp that matters from budget 0 to budget 64 (−10.0 pp, −15.0 to −4.0)"),
])
def test_the_section_words_the_gap_against_the_reports_smallest_difference(built, share, at0, change):
    """``balance report --smallest-difference win_share=…`` reaches the skill sentence: the same
    table worded against 10 pp and 20 pp (the planted gaps as above)."""
    from reports.sections import FigureSet
    from reports.skill import skill_section
    sec = skill_section(built["skill"], FigureSet(), 4, {"share": share})
    text = " ".join(sec.sentences)
    assert f"12.0 pp (9.0 to 15.0) at budget 0 with seat 3 ahead of seat 1, {at0}, and " in text
    assert change in text, text


def test_a_skill_directory_given_as_the_run_points_to_its_page_and_to_skill(built, tmp_path, capsys):
    """balance report SKILLDIR --out R said "not a run directory (no run.json)" and no more."""
    out = tmp_path / "r"
    assert _run(["report", str(built["skill"]), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "balance skill directory" in err
    assert str(built["skill"] / "report.html") in err and f"--skill {built['skill']}" in err
    assert not out.exists()


def test_the_headlines_say_what_stronger_play_shows(built):
    """Review K #5: a report with --skill led with a 0.7 pp card effect and seat 1's deficit with
    the bots while its skill section showed another seat ahead once every seat searched. The
    leading section now says it: at the largest budget (64 here) the largest gap is 26 − 24 = 2.0 pp,
    its interval 1 − the win-share balance's adjusted ends (0.0 to 5.0 pp: BALANCE), which reaches
    0, so no seat is named as leading there (review N #5: it said "seat 3 leads seat 2 by 2.0 pp
    (0.0 to 5.0)", as if the interval were of those two seats' gap and excluded none); with the
    bots seat 3 led seat 1, by 32 − 20 = 12 pp (9.0 to 15.0: clear of 1 pp)."""
    page = built["page"]
    lead = page.split("<section id='headlines'>")[1].split("</section>")[0] if "<section id='headlines'>" in page \
        else page.split("</section>")[0]
    import html
    text = html.unescape(re.sub(r"<[^>]+>", "", lead))
    assert ("As play gets stronger (balance skill skill: 2,000 games per budget, every seat searching, "
            "4p 4×balanced): at budget 64 these games cannot tell a seat advantage of at least the 1 pp "
            "that matters from none: the largest gap between two seats' win shares is 2.0 pp (0.0 to "
            "5.0); with the bots (budget 0) seat 3 led seat 1: the largest gap was 12.0 pp (9.0 to "
            "15.0), a seat advantage of at least the 1 pp that matters (97.5% intervals of that "
            "largest gap") in text, text[:3000]
    line = text.split("As play gets stronger")[1].split("has every budget).")[0]
    assert "leads" not in line and "instead" not in line
