"""Review G, panel commands (designer pass):

1. ``simulate`` takes a panel the way sweep, skill, ladder, baseline and check do: ``--players
   3,4,5`` (several counts) and ``--lineup`` (repeatable) make one, played as ``--panel FILE`` is
   (it said "Input should be a valid integer" and "No such option: --lineup"); what a panel cannot
   take is one line naming what to give instead.
2. Every line of ``baseline --panel`` / ``check --baseline DIR`` that names a cell by its position
   names its file too ("cell 1 of 2 (cell-0.toml)"): the files are numbered from 0, the lines from 1.
3. A panel check's FAIL line says how many of the cell's other metrics were left undecided (the
   check stops at a cell's first regression); ``--junit``/``--summary`` write one file for the panel,
   a test suite / section per cell, a test case per cell and metric.
4. ``balance ladder`` over several player counts adjusts its calls over every matchup of the
   ladder (one family), says "matchups", prints the games played (rounded up to whole rotations) and
   which calls hold at every player count.

Small: panels of 2 cells, a few hundred games each."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def one_line(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


# --- 1. simulate takes --players 3,4 and --lineup -----------------------------------------------

def test_simulate_plays_a_panel_of_players_and_lineups_as_a_panel_file(tmp_path):
    out = tmp_path / "X"
    done = balance("simulate", "--players", "3,4", "--lineup", "greedy", "--games", "60",
                   "--out", out, "-q")
    assert "(2 cells x 60 games)" in done.stdout, done.stdout
    # named by the options given, not by the internal name "command-line" (s42 review A #9)
    assert done.stdout.startswith(f"the panel of --players and --lineup: {out} ("), done.stdout
    assert sorted(p.name for p in out.glob("cell-*")) == ["cell-0", "cell-1"]
    cells = [(c["players"], c["lineup"]) for c in
             json.loads((out / "panel.json").read_text())["panel"]["cells"]]
    assert cells == [(3, ["greedy"] * 3), (4, ["greedy"] * 4)]
    for k, p in ((0, 3), (1, 4)):
        run = json.loads((out / f"cell-{k}" / "run.json").read_text())
        assert run["players"] == p and run["strategies"] == ["greedy"] * p and run["games"] == 60
    # the same cells from a panel file: the same games (the same statistics, byte for byte)
    (tmp_path / "p.toml").write_text('[two]\nplayers = [3, 4]\nlineups = ["greedy"]\n')
    balance("simulate", "--panel", tmp_path / "p.toml", "--games", "60", "--out", tmp_path / "F", "-q")
    for k in (0, 1):
        assert (out / f"cell-{k}" / "stats.json").read_bytes() == \
            (tmp_path / "F" / f"cell-{k}" / "stats.json").read_bytes()


def test_simulate_panel_with_several_player_counts_is_read_not_refused(tmp_path, monkeypatch):
    """--panel wide --players 3,4,5 (a panel kept at those counts) reaches the panel's plan."""
    import analysis.panel_run as panel_run

    seen = []

    def plan(panel, **kw):
        seen.append(sorted({c.players for c in panel.cells}))
        raise SystemExit(0)

    monkeypatch.setattr(panel_run, "plan_panel", plan)
    balance("simulate", "--panel", "wide", "--players", "3,4,5", "--games", "60", "--out", tmp_path / "W")
    assert seen == [[3, 4, 5]]


@pytest.mark.parametrize("args, start, names", [
    (["--panel", "default", "--lineup", "greedy"], "error: --panel: give a panel or --lineup", ()),
    (["--players", "3,4", "--rotate-seats"], "error: --rotate-seats: not with a panel",
     ("without the panel",)),
    (["--players", "x"], "error: --players x: expected a player count", ()),
    (["--game", "fief-combat", "--lineup", "x"], "error: --lineup: fief-combat has no bots",
     ("simulate it without",)),
    (["--game", "fief-combat", "--players", "3,4"], "error: --players 3,4: fief-combat does not take",
     ()),
])
def test_simulate_refuses_what_a_panel_cannot_take_in_one_line(args, start, names, tmp_path):
    done = balance("simulate", *args, "--games", "60", "--out", tmp_path / "Z", check=False)
    line = one_line(done)
    assert line.startswith(start), line
    assert all(n in line for n in names), line
    assert not (tmp_path / "Z").exists()


# --- 2 and 3. a panel baseline and its check ------------------------------------------------------

@pytest.fixture(scope="module")
def _tiny_panel(tmp_path_factory):
    root = tmp_path_factory.mktemp("review-g-panel-cli")
    # a line at every cell off a terminal (as on one): off one a baseline says its cells at most a
    # minute apart, none in the first (session 63)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("BALANCE_LOG_EVERY", "0")
        done = balance("baseline", "--lineup", "random", "--lineup", "greedy", "--players", "2",
                       "--games", "400", "--tolerance", "10", "--score-tolerance", "20",
                       "--out", root / "tb")
    return root / "tb", done.stderr


@pytest.fixture
def tb(_tiny_panel, tmp_path):
    return Path(shutil.copytree(_tiny_panel[0], tmp_path / "tb"))


def test_baseline_and_check_lines_name_each_cells_file(_tiny_panel, tb):
    logged = _tiny_panel[1]
    assert "cell 1 of 2 (cell-0.toml): 2p 2×random (400 games)" in logged, logged
    assert "cell 2 of 2 (cell-1.toml): 2p 2×greedy (400 games)" in logged, logged
    # the file a line names is the cell it describes
    assert "greedy" in (tb / "cell-1.toml").read_text() and "greedy" not in (tb / "cell-0.toml").read_text()
    done = balance("check", "--baseline", tb)
    assert "cell 1 of 2 (cell-0.toml): 2p 2×random" in done.stderr, done.stderr
    assert "cell 2 of 2 (cell-1.toml): 2p 2×greedy" in done.stderr, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("2p 2×random (cell-0.toml): ") and lines[2].startswith("2p 2×greedy (cell-1.toml): ")


def test_a_panel_check_writes_one_junit_file_and_one_summary(tb, tmp_path):
    junit, summary = tmp_path / "j.xml", tmp_path / "s.md"
    done = balance("check", "--baseline", tb, "--set", "income.palais.base=9", "--junit", junit,
                   "--summary", summary, check=False)
    assert done.returncode == 1, done.stderr
    root = ET.parse(junit).getroot()
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["balance check cell-0.toml: 2p 2×random",
                                               "balance check cell-1.toml: 2p 2×greedy"]
    cases = root.findall("testsuite/testcase")
    assert len(cases) == int(root.get("tests")) == 8          # 2 cells x 4 metrics
    assert {c.get("classname").split(".")[2] for c in cases} == {"cell-0", "cell-1"}
    assert len({(c.get("classname"), c.get("name")) for c in cases}) == 8   # each case its own
    assert int(root.get("failures")) == sum(int(s.get("failures")) for s in suites) >= 1
    verdict = {p.get("name"): p.get("value") for p in suites[0].find("properties")}
    assert verdict["panel_verdict"] == done.stdout.splitlines()[0]
    assert verdict["alpha"] == "0.025"                        # the cell's share of the panel's alpha
    text = summary.read_text()
    assert done.stdout.splitlines()[0] in text
    assert "### 2p 2×random (`cell-0.toml`)" in text and "### 2p 2×greedy (`cell-1.toml`)" in text
    # run again: the JUnit file is this toolkit's, replaced without --force; the summary appended
    balance("check", "--baseline", tb, "--junit", junit, "--summary", summary)
    assert summary.read_text().count("balance check (panel)") == 2


@pytest.mark.parametrize("extra", [["--save-run", "SR"], ["--against-rules", "OLD"]])
def test_what_a_panel_check_cannot_take_names_the_cell_file_to_give(extra, tb, tmp_path):
    extra = [str(tmp_path / x) if x.isupper() else x for x in extra]
    line = one_line(balance("check", "--baseline", tb, *extra, check=False))
    assert f"{extra[0]} is for one baseline file; give --baseline {tb}/cell-K.toml" in line, line


def _result(verdicts):
    """A check result whose metrics have these verdicts."""
    from analysis.check.decision import CheckResult, MetricResult
    from analysis.check.measure import DEFAULT_TOLERANCE
    from analysis.check.baseline import Baseline

    b = Baseline(path=Path("tb/cell-0.toml"), game="middle-ages", players=2,
                 strategies=["balanced"] * 2, rotate_seats=False, engine="kernel", seed=7,
                 games=10_000, rules="default", rules_sha256="a" * 64, version="", created_utc="",
                 alpha=0.05, check_games=10_000, seed_offset=1, on_inconclusive="pass",
                 tolerance=dict(DEFAULT_TOLERANCE), metrics=[])
    def one(k, v):
        value = 56.0 if v == "fail" else 50.5
        return MetricResult("seat_win_share", f"Seat {k}", f"Seat {k} win share", 50.0, 49.8, 50.2,
                            0.1, 10_000, value, value - 1.0, value + 1.0, 0.5, 3000, value - 50.0,
                            0.5, 1.0, 0.0, 0.0, 5.0, -3.0, v)

    results = [one(k, v) for k, v in enumerate(verdicts, start=1)]
    meta = {"game": "middle-ages", "players": 2, "games": 3000, "seed": 8, "rules_sha256": "a" * 64}
    return CheckResult(b, results, 0.025, 0.05, meta, "runs/x", [], games=3000, max_games=9000)


def test_a_failing_cells_line_says_its_other_metrics_were_not_decided():
    from analysis.check.panel import PanelCheck, panel_lines

    stopped = _result(["fail", "undecided", "pass", "undecided"])
    decided = _result(["fail", "pass", "pass", "pass"])
    pc = PanelCheck(["2p 2×balanced", "2p 2×greedy"], [stopped, decided], 0.05, 0.025,
                    ["cell-0.toml", "cell-1.toml"])
    lines = panel_lines(pc)
    assert lines[1].startswith("2p 2×balanced (cell-0.toml): FAIL: 1 of 4 metrics moved"), lines[1]
    assert lines[1].endswith("; 2 of the other 3 metrics not decided: the check stops at a cell's "
                             "first regression"), lines[1]
    assert lines[2].startswith("2p 2×greedy (cell-1.toml): FAIL: 1 of 4") and "not decided" not in lines[2]
    assert panel_lines(pc, quiet=True) == lines[:1]


# --- 4. the ladder over several player counts -----------------------------------------------------

def _fake_ladder(truths: dict):
    """The analysis.ladder module with duels drawn from ``truths[(players, bot)]`` (a win share)."""
    from analysis import ladder as L

    rng = np.random.default_rng(11)

    def duel(a, b, n, *, players, **kw):
        deals = -(-n // players)
        q = np.clip(truths[(players, a)] + rng.choice([-0.05, 0.05], size=(deals, 1)), 0, 1)
        w = (rng.random((deals, players)) < q).astype(float)
        mean, se, lo, hi = L.deal_interval(w)
        return L.Cell(a, b, w.size, mean, se, lo, hi, 1.0 / players)

    return SimpleNamespace(pairs=L.pairs, duel=duel, fair_calls=L.fair_calls, ranking_sentence=L.ranking_sentence,
                           ladder_table=lambda cells, **kw: cells)


def test_a_ladder_over_player_counts_adjusts_its_calls_over_every_matchup():
    from rich.console import Console

    from cli.ladder import _ladders

    truths = {(3, "strong"): 0.55, (3, "weak"): 0.12, (4, "strong"): 0.45, (4, "weak"): 0.25}
    console = Console(record=True, width=400)
    fake = _fake_ladder(truths)
    seen = []
    real = fake.fair_calls
    fake.fair_calls = lambda cells, players, **kw: seen.append(kw.get("family")) or real(cells, players, **kw)
    _ladders(console, fake, SimpleNamespace(name="middle-ages"), {3: ["strong", "weak"],
                                                                   4: ["strong", "weak"]},
             400, 0, "middle-ages", None, ())
    out = " ".join(console.export_text().split())      # titles and captions wrap at the table's width
    assert seen == [4, 4]                          # 2 matchups at each of 2 counts: one family of 4
    assert "with all 4 matchups of the ladder (3 and 4 players) adjusted together" in out, out
    assert "1 − 0.05/4" in out and "unadjusted over the 2 matchups" in out and " cells" not in out
    # 400 games asked: 402 played at 3 players (134 deals x 3 rotations), 400 at 4
    assert "402 games per matchup, --games 400 rounded up to whole rotations of the 3 seats" in out
    assert "400 games per matchup, seats rotated" in out and "134 deals" in out
    # the call that holds at both counts (strong above, weak below at 3; at 4 weak is fair)
    assert ("Holds at every player count (3 and 4 players; calls adjusted over all 4 matchups): "
            "strong above its fair share against weak.") in out, out


def test_held_everywhere_names_only_calls_made_the_same_way_at_every_count():
    from cli.ladder import held_everywhere

    calls = {3: {("a", "b"): "above", ("b", "a"): "below", ("a", "c"): "above"},
             4: {("a", "b"): "above", ("b", "a"): None, ("a", "c"): "below"},
             5: {("a", "b"): "above", ("b", "a"): "below", ("a", "c"): "above"}}
    assert held_everywhere(calls, [3, 4, 5], 18) == ("Holds at every player count (3, 4 and 5 "
                                                     "players; calls adjusted over all 18 matchups): "
                                                     "a above its fair share against b.")
    calls[4][("a", "b")] = None
    assert held_everywhere(calls, [3, 4, 5], 18).startswith("No call holds at every player count")


def test_fair_calls_over_a_larger_family_are_stricter():
    from analysis import ladder as L

    c = L.Cell("a", "b", 400, 0.30, 0.02, 0.26, 0.34, 0.25)    # 2.5 se above the fair share
    assert L.fair_calls([c], 4) == ["above"]
    assert L.fair_calls([c], 4, family=18) == [None]
    with pytest.raises(ValueError):
        L.fair_calls([c, c], 4, family=1)


def test_several_player_counts_of_a_game_without_bots_is_one_line(tmp_path):
    """`balance sweep --game fief-combat --players 3,4` recursed until Python stopped it."""
    done = balance("sweep", "--game", "fief-combat", "--players", "3,4", "--vary",
                   "combat.lords_removed=[last,first]", "--games", 100, "--out", tmp_path / "s",
                   check=False)
    assert done.returncode == 2 and "has no bots to play at several player counts" in done.stderr
    assert not (tmp_path / "s").exists()


def test_a_strategies_list_wrong_at_one_count_names_strategies(tmp_path):
    """--strategies played at several counts named --lineup, an option the user had not typed."""
    done = balance("simulate", "--players", "3,4", "--strategies", "balanced,greedy,balanced",
                   "--games", 300, "--out", tmp_path / "x", check=False)
    assert done.returncode == 2 and done.stderr.startswith("error: --strategies: 3 bots for 4 players")
