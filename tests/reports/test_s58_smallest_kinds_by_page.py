"""Which kinds of ``--smallest-difference`` each ``balance report`` page really sizes (session 58).

:func:`reports.build.page_sizes` declares, per page kind and game, the kinds (share, score, length,
count) a page sizes anything by, and ``balance report`` refuses the others in one line with exit
code 2 (:func:`reports.build.refuse_unsized_page`). It was tested on a run's page and a two-run
before/after. Here every other page kind — a tune's, a panel's, a before/after of two panels, a
panel sweep's, a plain sweep's and the side-by-side report, and a Fief combat run's page — is
checked per game against what the page really does (:data:`SIZED` and :data:`SLOW`, written from
the pages, not from ``page_sizes``):

(a) every kind the page sizes changes a verdict on it: ``balance report`` with that kind alone at a
tiny and at a huge amount writes pages that differ in a sentence or a table row holding a verdict
word ("clear and large enough to matter" …) and the kind's unit, every number blanked first (so
neither the amount the page repeats nor the decimals it prints count as a change);
(b) every other kind is refused by ``balance report`` in one line naming it, exit code 2, with
nothing written, before any page is built or any balance question played (the builders and the
question players are replaced by ones that fail the test if called);
(c) no kind the page really uses is refused ((a) runs the command, which must succeed), and the
kinds it refuses change nothing: the page built directly, past the command's refusal, is the same
(numbers blanked) with all of them tiny as with all of them huge.

The fast tier (about 15 s of CPU) builds the cheap pages: sweeps of two values, 4-cell panels of
1,500 games, runs of 1,500 games and one real tune; the other tunes, the panel sweeps, Médiévallons'
panels and sweep, the panel before/afters (Seigneurial's too since session 62) and the side-by-side reports with played questions
are slow (about 31 s). Each data directory is played once, by the first test that reads it. The
failing sides were each seen: a kind listed as sized whose page does not move fails (a), one listed
as unsized that the page uses fails (b) and (c) (Seigneurial's sweep with ``score`` taken out of its
list, tried).

What these tests found (each failed before the fix; helper 216, session 58):
* a tune's page was declared to size game lengths in every game that keeps one, but sizes them only
  in its fit of a length target and, over a panel, its cells' length changes: a Seigneurial tune of
  a role target, a Médiévallons seat-balance tune and every Fief combat tune (which cannot take a
  length target) took ``length=`` and changed nothing. A tune over a panel of several cells with
  length targets only sizes no win share either (its cells' changes are lengths), and took
  ``win_share=`` without a word. ``page_sizes`` now reads the tune's targets (tune.json).
* a Fief combat run's page and a side-by-side report of Fief runs size nothing (two one-seat sides:
  no fair share, no split of a role's wins, no bots), yet took ``win_share=`` without a word; they
  now refuse every kind, the message saying nothing there is sized.
* over a panel, "How each cell responds" named the share amount its changes were "worded against"
  when none of them was a share ("99 pp of win share, 1 turns of game length" for a tune of a length
  target) and said "1 turns": it names the kinds its changes have, "1 turn".
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

import pytest

from in_process import balance

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow

KINDS = ("share", "score", "length", "count")
NAMES = {"share": "win_share", "score": "score", "length": "length", "count": "count"}
# amounts no test data prints by chance (numbers are blanked before pages are compared anyway)
TINY = {"share": "win_share=0.0013pp", "score": "score=0.0013", "length": "length=0.0013", "count": "count=0.0013"}
HUGE = {"share": "win_share=97pp", "score": "score=97000", "length": "length=97000", "count": "count=97000"}
GAMES = {"ma": "middle-ages", "sg": "seigneurial", "mv": "medievallons", "fief": "fief-combat"}
FIEF = ["--darc", "attacker", "--attacker", 8, "--defender", 8, "--terrain", "castle"]
TUNE = ["--trials", 5, "--min-games", 1000, "--max-games", 2000, "--eta", 2, "--confirm-games", 4000,
        "--keep-going"]
# every trial on the full budget, so that the tune's fit of its target has trials enough
TUNE_FIT = ["--trials", 5, "--min-games", 1500, "--max-games", 1500, "--confirm-games", 4000, "--keep-going"]

# How each data directory is made (played once per module, when a test first needs it): the
# settings are chosen to move every sized metric clearly (a kind whose metrics all stay within
# noise changes no verdict, whatever its amount)
RECIPES = {
    "sweep-ma": ["sweep", "--game", "middle-ages", "--vary", "income.palais.base=[1,9]", "--games", 1500],
    "sweep-sg": ["sweep", "--game", "seigneurial", "--vary", "track.start_square=[0,3]", "--games", 1500],
    "sweep-mv": ["sweep", "--game", "medievallons", "--vary", "guilds.to_win=[2,4]", "--games", 1500],
    "sweep-fief": ["sweep", "--game", "fief-combat", "--vary", "darc.bonus=[2,6]", "--games", 2000, *FIEF],
    "psweep-ma": ["sweep", "--game", "middle-ages", "--lineup", "balanced", "--lineup", "random", "--players", 4,
                  "--vary", "setup.start_coins[0]=[0,20]", "--vary", "income.palais.base=[1,9]", "--games", 1000],
    "psweep-sg": ["sweep", "--game", "seigneurial", "--lineup", "standard", "--lineup", "random", "--players", 4,
                  "--vary", "track.start_square=[0,3]", "--games", 1500],
    "psweep-mv": ["sweep", "--game", "medievallons", "--lineup", "balanced,random,random,random", "--lineup",
                  "random", "--players", 4, "--vary", "guilds.to_win=[2,4]", "--games", 1500],
    "panel-ma": ["simulate", "--game", "middle-ages", "--panel", "default", "--games", 1500, "--seed", 1],
    "panel-sg": ["simulate", "--game", "seigneurial", "--panel", "default", "--games", 1500, "--seed", 1],
    "panel-mv": ["simulate", "--game", "medievallons", "--lineup", "balanced,random,random,random", "--lineup",
                 "random", "--players", 4, "--games", 1500, "--seed", 1],
    "panel2-ma": ["simulate", "--game", "middle-ages", "--panel", "default", "--games", 1500, "--seed", 1,
                  "--set", "setup.start_coins[0]=10"],
    "panel2-sg": ["simulate", "--game", "seigneurial", "--panel", "default", "--games", 1500, "--seed", 1,
                  "--set", "track.start_square=3"],
    "panel2-mv": ["simulate", "--game", "medievallons", "--lineup", "balanced,random,random,random", "--lineup",
                  "random", "--players", 4, "--games", 1500, "--seed", 1, "--set", "guilds.to_win=2"],
    "tune-ma": ["tune", "--game", "middle-ages", "--set", "setup.start_coins[0]=15",
                "--vary", "setup.start_coins[1]=0..15", "--target", "seat-balance:4", *TUNE],
    "tune-sg-role": ["tune", "--game", "seigneurial", "--vary", "track.start_square=0..3",
                     "--target", "role=seigneur:0.3:10", *TUNE],
    "tune-sg-length": ["tune", "--game", "seigneurial", "--vary", "track.start_square=0..4",
                       "--set", "track.midpoint.3=5", "--target", "length=5..7", *TUNE_FIT],
    "tune-mv": ["tune", "--game", "medievallons", "--strategies", "balanced,random,random,random",
                "--vary", "guilds.to_win=2..4", "--target", "seat-balance:4", *TUNE],
    "tune-fief": ["tune", "--game", "fief-combat", "--vary", "darc.bonus=0..6", "--target",
                  "role=attacker:0.5:10", *FIEF, *TUNE],
    "ptune-sg-role": ["tune", "--game", "seigneurial", "--lineup", "standard", "--lineup", "random",
                      "--players", 4, "--vary", "track.start_square=0..3", "--target", "role=seigneur:0.3:10",
                      *TUNE],
    "ptune-sg-length": ["tune", "--game", "seigneurial", "--lineup", "standard", "--lineup", "random",
                        "--players", 4, "--vary", "track.start_square=0..3", "--target", "length=5..7", *TUNE],
}
for _g in ("ma", "sg", "mv"):
    for _p in (3, 4):
        RECIPES[f"run-{_g}-{_p}"] = ["simulate", "--game", GAMES[_g], "--players", _p, "--games", 1500, "--seed", 1]
RECIPES["run-fief-a"] = ["simulate", "--game", "fief-combat", "--games", 2000, "--seed", 1]
RECIPES["run-fief-b"] = ["simulate", "--game", "fief-combat", "--games", 2000, "--seed", 1, "--darc", "attacker"]
# the balance questions of a side-by-side report's first run (its baseline), played once
QUESTIONS = {"ma": ("run-ma-3", ["--games", 300]), "sg": ("run-sg-3", ["--games", 300]),
             "mv": ("run-mv-3", ["--games", 300])}


def _page(kind: str, game: str, *, questions: bool = False, tune: str = "") -> dict:
    """A page to check: what ``balance report`` is given (data names; "Q" for the questions
    directory), the builder that writes it directly, past the command's refusals."""
    if kind in ("sweep", "panel sweep", "tune", "panel"):
        data = {"sweep": "sweep", "panel sweep": "psweep", "panel": "panel"}.get(kind) or tune
        data = data if kind == "tune" else f"{data}-{game}"
        return {"kind": kind, "game": GAMES[game], "args": [data], "data": [data]}
    if kind == "panel before/after":
        return {"kind": kind, "game": GAMES[game], "args": [f"panel-{game}", f"panel2-{game}"],
                "data": [f"panel-{game}", f"panel2-{game}"]}
    if kind == "run":
        return {"kind": kind, "game": GAMES[game], "args": [f"run-{game}-a"], "data": [f"run-{game}-a"]}
    runs = ["run-fief-a", "run-fief-b"] if game == "fief" else [f"run-{game}-3", f"run-{game}-4"]
    extra = ["--questions", "Q"] if questions else (["--questions-games", "0"] if game == "mv" else [])
    return {"kind": kind, "game": GAMES[game], "args": ["--side-by-side", *runs, *extra], "data": runs,
            "questions": questions and game}


# What each page really sizes, per game (read from the pages: a tune sizes game lengths only in its
# fit of a length target, and over a panel in its cells' changes of the length a target reads; a
# panel's page words its seats' (sides') distance from fair only; a Fief combat run's page sizes
# nothing; the side-by-side report is its first run's page beside the others, with that run's
# played questions when shown)
SIZED = {
    "sweep-ma": (_page("sweep", "ma"), ("share", "score")),
    "sweep-sg": (_page("sweep", "sg"), ("share", "score", "length")),
    "sweep-fief": (_page("sweep", "fief"), ("share", "score", "length")),
    "panel-ma": (_page("panel", "ma"), ("share",)),
    "panel-sg": (_page("panel", "sg"), ("share",)),
    "side-ma": (_page("side by side", "ma"), ("share", "score")),
    "side-sg": (_page("side by side", "sg"), ("share",)),
    "side-fief": (_page("side by side", "fief"), ()),
    "run-fief": (_page("run", "fief"), ()),
    "tune-sg-role": (_page("tune", "sg", tune="tune-sg-role"), ("share",)),
}
SLOW = {
    # (~3.5 s of CPU in make test: slow since session 62, docs/testing.md)
    "panel-ba-sg": (_page("panel before/after", "sg"), ("share", "length")),
    "panel-ba-ma": (_page("panel before/after", "ma"), ("share",)),
    "sweep-mv": (_page("sweep", "mv"), ("share", "score", "length")),
    "panel-sweep-ma": (_page("panel sweep", "ma"), ("share", "score")),
    "panel-sweep-sg": (_page("panel sweep", "sg"), ("share", "score", "length")),
    "panel-sweep-mv": (_page("panel sweep", "mv"), ("share", "score", "length")),
    "panel-mv": (_page("panel", "mv"), ("share",)),
    "panel-ba-mv": (_page("panel before/after", "mv"), ("share", "length")),
    "side-mv": (_page("side by side", "mv"), ("share",)),
    "side-ma-questions": (_page("side by side", "ma", questions=True), ("share", "score")),
    "side-sg-questions": (_page("side by side", "sg", questions=True), ("share", "score")),
    "side-mv-questions": (_page("side by side", "mv", questions=True), ("share", "length")),
    "tune-ma": (_page("tune", "ma", tune="tune-ma"), ("share",)),
    "tune-sg-length": (_page("tune", "sg", tune="tune-sg-length"), ("share", "length")),
    "tune-mv": (_page("tune", "mv", tune="tune-mv"), ("share",)),
    "tune-fief": (_page("tune", "fief", tune="tune-fief"), ("share",)),
    "panel-tune-sg-role": (_page("tune", "sg", tune="ptune-sg-role"), ("share",)),
    "panel-tune-sg-length": (_page("tune", "sg", tune="ptune-sg-length"), ("length",)),
}
ALL = {**SIZED, **SLOW}


def _params(pairs):
    """One parameter per (page, kind), the slow pages' marked slow."""
    return [pytest.param(name, k, id=f"{name}-{k}", marks=[pytest.mark.slow] if name in SLOW else [])
            for name, (_, kinds) in ALL.items() for k in pairs(kinds)]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """``made(name)``: the data directory ``name`` of :data:`RECIPES` (``Q-<game>``: the questions
    of a side-by-side report's first run), played on first use."""
    root = tmp_path_factory.mktemp("s58-pages")
    done: dict[str, Path] = {}

    def make(name: str) -> Path:
        if name not in done:
            out = root / name
            if name.startswith("Q-"):
                run, extra = QUESTIONS[name[2:]]
                balance("questions", make(run), *extra, "--out", out)
            else:
                balance(*RECIPES[name], "--out", out, "-q")
            done[name] = out
        return done[name]
    return make


def _args(page: dict, made) -> list:
    return [made(f"Q-{page['questions']}") if a == "Q" else
            (made(a) if a in RECIPES else a) for a in page["args"]]


def _build_directly(page: dict, made, out: Path, smallest: dict) -> None:
    """The page as ``balance report`` builds it, without the command's refusal of a kind."""
    from undrawn_figures import figures_undrawn

    data = [made(d) for d in page["data"]]
    with figures_undrawn():
        if page["kind"] == "sweep":
            from reports.sweep import build_sweep_report
            build_sweep_report(data[0], out, smallest=smallest)
        elif page["kind"] == "tune":
            from reports.sweep import build_tune_report
            build_tune_report(data[0], out, smallest=smallest)
        elif page["kind"] == "panel sweep":
            from reports.panel import build_panel_sweep_report
            build_panel_sweep_report(data[0], out, smallest=smallest)
        elif page["kind"] == "panel":
            from reports.panel import build_panel_report
            build_panel_report(data, out, smallest=smallest)
        elif page["kind"] == "panel before/after":
            from reports.panel import build_panel_comparison_report
            build_panel_comparison_report(data[0], data[1], out, smallest=smallest)
        else:
            from reports.build import build_report
            q = made(f"Q-{page['questions']}") if page.get("questions") else None
            build_report(data, out, side_by_side=page["kind"] == "side by side", smallest=smallest, questions=q)


NUMBER = re.compile(r"[−+-]?\d[\d,.]*")
BLOCKS = re.compile(r"</(?:p|li|tr|h[1-6]|caption|summary|div|figcaption)>|<br\s*/?>", re.I)
VERDICTS = ("clear and large enough to matter", "clear, may matter", "clear but small", "not shown",
            "within noise")


def _chunks(out: Path) -> Counter:
    """The page's sentences, paragraphs and table rows, as text with every number blanked ("#")."""
    raw = (out / "report.html").read_text(encoding="utf-8")
    raw = re.sub(r"<(style|script)\b.*?</\1>", " ", raw, flags=re.S | re.I)
    found = Counter()
    for part in BLOCKS.split(raw):
        text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", part))).strip()
        if text:
            found[NUMBER.sub("#", text)] += 1
    return found


def _unit_words(kind: str, game: str) -> tuple[str, ...]:
    from analysis.load import score_unit

    return {"share": ("pp", "share"), "score": (score_unit(game).lstrip("% "),),
            "length": ("turn", "round", "length"), "count": ("a game",)}[kind]


def _report(page: dict, made, out: Path, smallest: str) -> tuple[int, str]:
    from undrawn_figures import figures_undrawn

    with figures_undrawn():
        done = balance("report", *_args(page, made), "--out", out, "--smallest-difference", smallest, check=False)
    return done.returncode, done.stderr.strip()


@pytest.mark.parametrize("name,kind", _params(lambda kinds: kinds))
def test_a_kind_the_page_sizes_is_taken_and_moves_a_verdict_of_that_kind(made, tmp_path, name, kind):
    page, _ = ALL[name]
    pages = {}
    for size, amounts in (("tiny", TINY), ("huge", HUGE)):
        code, err = _report(page, made, tmp_path / size, amounts[kind])
        assert code == 0, f"{name}: --smallest-difference {amounts[kind]} refused: {err}"
        pages[size] = _chunks(tmp_path / size)
    moved = (pages["tiny"] - pages["huge"]) + (pages["huge"] - pages["tiny"])
    verdicts = [c for c in moved if any(v in c for v in VERDICTS)]
    assert verdicts, f"{name}: {kind} at {TINY[kind]} and at {HUGE[kind]} gives the same verdicts"
    unit = _unit_words(kind, page["game"])
    assert any(u in c for c in verdicts for u in unit), (unit, verdicts[:6])


def _guarded(monkeypatch) -> list[str]:
    """Every page builder and balance-question player replaced by one that records its call and
    fails: a refusal must come before any of them."""
    import cli.report
    import reports.build
    import reports.panel
    import reports.sweep

    called: list[str] = []

    def guard(what):
        def fail(*args, **kwargs):
            called.append(what)
            raise AssertionError(f"{what} called before the refusal")
        return fail

    for module, name in ((reports.sweep, "build_sweep_report"), (reports.sweep, "build_tune_report"),
                         (reports.panel, "build_panel_report"), (reports.panel, "build_panel_sweep_report"),
                         (reports.panel, "build_panel_comparison_report"), (reports.build, "build_report")):
        monkeypatch.setattr(module, name, guard(name))
    player = cli.report.questions_player
    monkeypatch.setattr(cli.report, "questions_player",
                        lambda run, play=False: None if player(run, play) is None else guard("questions"))
    return called


@pytest.mark.parametrize("name,kind", _params(lambda kinds: [k for k in KINDS if k not in kinds]))
def test_a_kind_the_page_does_not_size_is_refused_in_one_line_before_any_work(
        made, tmp_path, monkeypatch, name, kind):
    page, sized = ALL[name]
    args = _args(page, made)                  # (played before the builders are replaced)
    called = _guarded(monkeypatch)
    out = tmp_path / "rep"
    done = balance("report", *args, "--out", out, "--smallest-difference", TINY[kind], check=False)
    err = done.stderr.strip()
    assert done.returncode == 2 and len(err.splitlines()) == 1, err
    assert f"--smallest-difference {NAMES[kind]}: no {NAMES[kind]} difference is sized by" in err, err
    said = (f"(sized there: {', '.join(NAMES[k] for k in sized)})" if sized else "(nothing is sized there)")
    assert err.endswith(said), err
    assert not called and not out.exists(), called


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else [])
                                  for n in ALL])
def test_the_kinds_a_page_refuses_change_nothing_on_it(made, tmp_path, name):
    from analysis.load import parse_smallest_difference

    page, sized = ALL[name]
    unsized = [k for k in KINDS if k not in sized]
    pages = []
    for size, amounts in (("tiny", TINY), ("huge", HUGE)):
        out = tmp_path / size
        _build_directly(page, made, out, parse_smallest_difference(",".join(amounts[k] for k in unsized)))
        pages.append(_chunks(out))
    assert pages[0] == pages[1], [c for c in (pages[0] - pages[1]) + (pages[1] - pages[0])][:6]


def test_the_cell_response_names_only_the_kinds_its_changes_have():
    """A panel tune of a length target: its cells' changes are lengths only; the section named "1 pp
    of win share" beside them (and "1 turns")."""
    from reports.sweep import cell_response_section

    cells = {"games": 4000, "family": 2, "smallest": {"share": 0.01, "length": 1.0}, "cells": [
        {"cell": k, "label": f"4p 4×{lineup}", "players": 4, "metrics": [
            {"metric": "game_length", "start": 7.4, "tuned": 6.6, "change": -0.8, "se": 0.05, "smallest": 1.0,
             "clear": True, "size_low": -0.95, "size_high": -0.65, "verdict": "clear but small"}]}
        for k, lineup in enumerate(("standard", "random"))]}
    intro = cell_response_section(cells, "seigneurial").intro
    assert "(1 turn of game length)" in intro, intro
    assert "win share" not in intro, intro
    both = {**cells, "cells": [{**c, "metrics": [*c["metrics"], {**c["metrics"][0], "metric": "seat_win_share_1"}]}
                               for c in cells["cells"]], "smallest": {"share": 0.04, "length": 2.0}}
    assert "(4 pp of win share, 2 turns of game length)" in cell_response_section(both, "seigneurial").intro
