"""Inputs a designer types that were read wrongly or harmed what was on disk (cli30): an output
inside an existing run directory (the run then fails every reader as "damaged"), an empty item in
a comma list (``--budgets 4,,16``: silently read as 4,16), ``balance skill --out FILE``, and
``balance baseline RUN`` with options only a panel uses. Each is refused in one line, exit code 2,
before any game is prepared or played, leaving the folder as it was."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pytest

from reliability_helpers import balance, cli_in_process, one_error_line


def _tree(folder: Path) -> dict[str, str]:
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            p = Path(root, name)
            rel = str(p.relative_to(folder))
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
    return out


INSIDE_A_RUN = [
    ["simulate", "--games", "200", "--out", "run/sub"],
    ["simulate", "--game", "fief-combat", "--games", "200", "--out", "run/sub"],
    ["export", "other", "--what", "games", "--out", "run/games2.parquet"],
    ["report", "other", "--questions-games", "0", "--out", "run/report"],
    ["skill", "--budgets", "0,4", "--games", "10", "--out", "run/skill"],
    ["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--out", "run/odds"],
    ["ladder", "--bots", "random,greedy", "--games", "40", "--out", "run/ladder.parquet"],
    ["baseline", "other", "--out", "run/sub/base.toml"],
]


@pytest.mark.parametrize("args", INSIDE_A_RUN, ids=[" ".join(a[:2]) + " " + a[-1] for a in INSIDE_A_RUN])
def test_an_output_inside_an_existing_run_is_refused(args, tiny_run, no_playing, capsys, monkeypatch):
    shutil.copytree(tiny_run, tiny_run.parent / "other")
    monkeypatch.chdir(tiny_run.parent)
    before = _tree(tiny_run.parent)
    code, err = cli_in_process(args, capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert "inside the run directory run" in line and args[-1] in line, line
    assert _tree(tiny_run.parent) == before


def test_a_check_does_not_save_its_run_or_junit_inside_a_run(tiny_run, tmp_path, capsys, monkeypatch):
    from reliability_helpers import WIDE

    from analysis.check.baseline import make_baseline

    make_baseline(tiny_run, tmp_path / "base.toml", tolerance=WIDE)
    monkeypatch.chdir(tmp_path)
    before = _tree(tiny_run)
    for option, value in (("--save-run", "run/again"), ("--junit", "run/check.xml"),
                          ("--summary", "run/summary.md")):
        code, err = cli_in_process(["check", "--baseline", "base.toml", "--games", "100",
                                    option, value], capsys)
        assert code == 2, err
        assert f"error: {option} {value}: is inside the run directory run" in one_error_line(err)
    assert _tree(tiny_run) == before


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_refused_run_is_still_readable_afterwards(tiny_run, tmp_path):
    """The whole story in real processes: the output is refused, the run is still read. The
    reader is ``export`` (its check of the run directory is the report's, analysis.load.check_run:
    a run with a run written inside it fails both with the same line, "run/sub/...: not written
    with this run"), not ``report``, whose figures cost 3 s of CPU more and read nothing else."""
    r = balance("simulate", "--games", "100", "--out", "run/sub", cwd=tmp_path)
    assert r.returncode == 2 and "inside the run directory run" in one_error_line(r.stderr)
    r = balance("export", "run", "--what", "seats", "--out", "seats.csv", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "seats.csv").read_text(encoding="utf-8").startswith("seat")


def test_an_output_beside_a_run_or_replacing_it_is_still_allowed(tiny_run, capsys, monkeypatch):
    from cli.guards import check_options

    monkeypatch.chdir(tiny_run.parent)
    check_options({"out": Path("run")})              # the run itself (--force replaces it)
    check_options({"out": Path("run2/sub")})
    check_options({"out": Path("seats.csv"), "run": Path("run")})


def test_a_replay_log_inside_the_run_it_reads_is_refused(tiny_run, capsys, monkeypatch):
    monkeypatch.chdir(tiny_run.parent)
    before = _tree(tiny_run)
    code, err = cli_in_process(["replay", "run", "--game", "1", "--out", "run/log.txt"], capsys)
    assert code == 2, err
    assert "--out run/log.txt: is inside run, which this command reads" in one_error_line(err)
    assert _tree(tiny_run) == before


def test_report_refuses_a_run_given_as_its_questions(tiny_run, capsys, monkeypatch):
    """--questions RUN (a run, not a questions directory) was read as questions with none."""
    shutil.copytree(tiny_run, tiny_run.parent / "other")
    monkeypatch.chdir(tiny_run.parent)
    code, err = cli_in_process(["report", "run", "--questions", "other", "--out", "rep"], capsys)
    assert code == 2, err
    assert "--questions other: holds a run, not balance questions" in one_error_line(err)
    assert not (tiny_run.parent / "rep").exists()


EMPTY_ITEMS = [
    (["skill", "--budgets", "4,,16", "--games", "10", "--out", "sk"], "--budgets"),
    (["skill", "--budgets", "0,4,", "--games", "10", "--out", "sk"], "--budgets"),
    (["skill", "--budgets", "0,4", "--players", "3,,4", "--games", "10", "--out", "sk"], "--players"),
    (["ladder", "--bots", "random,,greedy", "--games", "40"], "--bots"),
    (["ladder", "--bots", "random,greedy,", "--games", "40"], "--bots"),
    (["ladder", "--bots", "random,greedy", "--players", "3,", "--games", "40"], "--players"),
    (["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--levels", "0.5,,0.9", "--out", "fo"],
     "--levels"),
    (["baseline", "--panel", "default", "--players", "4,,5", "--out", "bp"], "--players"),
]


@pytest.mark.parametrize("args,option", EMPTY_ITEMS, ids=[" ".join(a[:3]) for a, _ in EMPTY_ITEMS])
def test_an_empty_item_in_a_comma_list_is_refused(args, option, tmp_path, no_playing, capsys,
                                                  monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(args, capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert line.startswith(f"error: {option} ") and "empty item" in line, line
    assert os.listdir(tmp_path) == []


def test_skill_out_that_is_a_file_is_a_usage_error(tmp_path, no_playing, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.toml").write_text("mine")
    code, err = cli_in_process(["skill", "--budgets", "0,4", "--games", "10", "--out", "notes.toml"],
                               capsys)
    assert code == 2, err
    assert "--out notes.toml: exists and is not a directory" in one_error_line(err)
    assert (tmp_path / "notes.toml").read_text() == "mine"
    assert sorted(os.listdir(tmp_path)) == ["notes.toml"]


@pytest.mark.parametrize("extra", [["--games", "5"], ["--seed", "7"], ["--game", "medievallons"],
                                   ["--players", "3"]], ids=lambda e: e[0])
def test_baseline_of_a_run_refuses_the_options_of_a_panel(extra, tiny_run, capsys, monkeypatch):
    monkeypatch.chdir(tiny_run.parent)
    code, err = cli_in_process(["baseline", "run", "--out", "base.toml", *extra], capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert line.startswith(f"error: {extra[0]}: only with --panel"), line
    assert not (tiny_run.parent / "base.toml").exists()


@pytest.fixture(scope="module")
def skill_budget_0(tmp_path_factory) -> Path:
    """``balance skill --budgets 0 --games 8 --out sk``: the earlier answer the three skill tests
    below start from, played once for the module (0.6 s of CPU each time); each test works on its
    own copy (``shutil.copytree(skill_budget_0, tmp_path / "sk")``)."""
    import contextlib
    import io

    from cli import _run

    out = tmp_path_factory.mktemp("skill") / "sk"
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = _run(["skill", "--budgets", "0", "--games", "8", "--out", str(out)])
    assert code == 0, err.getvalue()
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_skill_force_interrupted_leaves_no_earlier_answer_under_the_new_question(
        skill_budget_0, tmp_path, capsys, monkeypatch):
    """skill --force on another question, interrupted: the earlier skill.parquet was left beside
    the new skill.json, and a report --skill showed it as the new question's answer. Then the
    earlier answer was emptied first and lost (the reliability review of session 37): now the new
    question is built beside it and an interruption leaves the earlier answer whole, its files
    byte for byte, under its own question, and nothing beside it."""
    from analysis import skill as K
    from reports.skill import check_skill_dir

    monkeypatch.chdir(tmp_path)
    shutil.copytree(skill_budget_0, tmp_path / "sk")
    check_skill_dir(tmp_path / "sk")
    before = {p.relative_to(tmp_path / "sk"): p.read_bytes()
              for p in sorted((tmp_path / "sk").rglob("*")) if p.is_file()}

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(K, "balance_by_budget", interrupted)
    code, err = cli_in_process(["skill", "--budgets", "0", "--games", "12", "--out", "sk", "--force"],
                               capsys)
    assert code == 130, err
    assert '"games": 12' not in (tmp_path / "sk" / "skill.json").read_text()
    after = {p.relative_to(tmp_path / "sk"): p.read_bytes()
             for p in sorted((tmp_path / "sk").rglob("*")) if p.is_file()}
    assert after == before
    check_skill_dir(tmp_path / "sk")                 # the earlier answer, whole and readable
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sk"], list(tmp_path.iterdir())
    assert "keeps its earlier answer as it was" in err, err


@pytest.mark.parametrize("args", [["simulate", "--games", "50", "-q"],
                                  ["fief-odds", "--attackers", "1-2", "--defenders", "1-2",
                                   "--terrain", "open", "-q"]],
                         ids=["simulate", "fief-odds"])
def test_two_runs_in_the_same_second_without_out_do_not_collide(args, tmp_path, capsys, monkeypatch):
    """The default --out is named to the second: a second quick run (a loop over seeds) was
    refused, "directory exists ... use --force to replace it" (advice that would lose the first).
    (fief-odds on one terrain: one heat map per run, not four; the name does not depend on it.
    Its heat maps are written undrawn, tests/undrawn_figures.py: only the directories' names are
    read here.)"""
    from simcore import rundir
    from undrawn_figures import heat_maps_undrawn

    monkeypatch.setattr(rundir, "stamped_run_dir",
                        lambda game, root="runs": Path(root) / f"{game}-20250101T000000Z")
    monkeypatch.chdir(tmp_path)
    for _ in range(3):
        with heat_maps_undrawn():
            code, err = cli_in_process(args, capsys)
        assert code == 0, err
    names = sorted(os.listdir(tmp_path / "runs"))
    assert len(names) == 3 and names[1:] == [f"{names[0]}-2", f"{names[0]}-3"], names


@pytest.mark.parametrize("extra", [[], ["--players", "2", "--lineup", "random"]], ids=["default", "2p"])
def test_baseline_panel_with_too_few_games_is_refused_before_any_game(extra, tmp_path, no_playing,
                                                                      capsys, monkeypatch):
    """balance baseline --panel default --games 100 played the first cell and only then refused:
    the baseline's own standard error too large for the tolerance. Now one line before any game."""
    monkeypatch.chdir(tmp_path)
    args = ["baseline", "--panel", "default"] if not extra else ["baseline", *extra]
    code, err = cli_in_process([*args, "--games", "100", "--out", "bp"], capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert line.startswith("error: --games 100: too few for a baseline of "), line
    assert "too large for a tolerance of ±1 pp" in line and "or raise --tolerance" in line, line
    assert os.listdir(tmp_path) == []


def test_baseline_panel_refusal_agrees_with_the_later_check():
    """The games refused before playing are refused by the check's own rule (plan_games) for any
    seat whose win share varies at least half as much as a fair win-or-lose seat's."""
    import math

    from analysis.check.decision import plan_games, planned_baseline_games
    from analysis.check.measure import Measurement
    from simcore.errors import UsageError

    for players in (2, 3, 4, 5):
        least, _ = planned_baseline_games(players, 1.0)
        games = int(least) - 1
        sd = 100 * math.sqrt(0.5 * (1 / players) * (1 - 1 / players))
        base = [Measurement("seat_win_share", f"Seat {k + 1}", f"Seat {k + 1} win share", 100 / players,
                            0, 0, sd / math.sqrt(games), games) for k in range(2 * players)]
        with pytest.raises(UsageError, match="too large for a tolerance"):
            plan_games(base, [1.0] * len(base))
        base = [Measurement(m.metric, m.key, m.label, m.value, 0, 0, sd / math.sqrt(int(least) + 50),
                            int(least) + 50) for m in base]
        plan_games(base, [1.0] * len(base))


GAME_RULES = {"middle-ages": "middle_ages", "medievallons": "medievallons", "fief-combat": "fief",
              "seigneurial": "seigneurial"}
PAIRS = [(a, b) for a in GAME_RULES for b in GAME_RULES if a != b]


@pytest.mark.parametrize("game,other", PAIRS, ids=[f"{a}<-{b}" for a, b in PAIRS])
def test_rules_of_another_game_name_that_game(game, other):
    """--rules of another game read as this game's: 'setup.blue_tiles: missing'. Now the refusal
    names the game whose rules the file holds, for every pair of registered games."""
    import importlib

    from simcore import games as registry
    from simcore.errors import ConfigError

    loader = importlib.import_module(registry.get(game).rules_module)
    path = Path(__file__).resolve().parents[2] / "configs" / GAME_RULES[other] / "rules.toml"
    with pytest.raises(ConfigError) as info:
        loader.load(path)
    message = str(info.value)
    assert f"holds the rules of {other} (sections " in message, message
    assert message.endswith(f"not of {game}: add --game {other}"), message
    assert "\n" not in message


def test_simulate_with_another_games_rules_says_which_game(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rules = Path(__file__).resolve().parents[2] / "configs" / "medievallons" / "rules.toml"
    code, err = cli_in_process(["simulate", "--rules", str(rules), "--games", "10", "--out", "x"], capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert line.endswith("holds the rules of medievallons (sections deck, end, guilds, players, …), "
                         "not of middle-ages: add --game medievallons"), line
    assert os.listdir(tmp_path) == []


def test_a_damaged_rules_file_of_the_game_itself_still_names_the_key(tmp_path):
    from simcore.errors import ConfigError
    from simcore.games.middle_ages import rules as R

    text = R.default_rules_path().read_text(encoding="utf-8").replace("blue_tiles = 52", "")
    with pytest.raises(ConfigError, match="setup.blue_tiles: missing"):
        R.loads(text)


REPEATED_ITEMS = [
    (["skill", "--budgets", "0,4,4", "--games", "10", "--out", "sk"], "--budgets", "4 is given twice"),
    (["skill", "--budgets", "0,4,4.0", "--games", "10", "--out", "sk"], "--budgets",
     "4.0 is given twice (the same as 4)"),
    (["skill", "--budgets", "0,4", "--players", "3,4,3", "--games", "10", "--out", "sk"], "--players",
     "3 is given twice"),
    (["ladder", "--bots", "random,greedy,random", "--games", "40"], "--bots", "random is given twice"),
    (["ladder", "--bots", "random,greedy", "--players", "3,3", "--games", "40"], "--players",
     "3 is given twice"),
    (["fief-odds", "--attackers", "1-3", "--defenders", "1-3", "--levels", "0.5,0.9,0.5", "--out", "fo"],
     "--levels", "0.5 is given twice"),
    (["baseline", "--panel", "default", "--players", "4,4", "--out", "bp"], "--players", "4 is given twice"),
]


@pytest.mark.parametrize("args,option,words", REPEATED_ITEMS, ids=[" ".join(a[:3]) for a, _, _ in REPEATED_ITEMS])
def test_a_repeated_item_in_a_comma_list_is_refused(args, option, words, tmp_path, no_playing, capsys,
                                                    monkeypatch):
    """skill --budgets 0,4,4 silently played 0,4: a repeat in these lists means nothing."""
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(args, capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert line.startswith(f"error: {option} ") and words in line, line
    assert os.listdir(tmp_path) == []


def _budgets_on_disk(sk: Path) -> tuple[list, list]:
    import json

    import polars as pl

    table = pl.read_parquet(sk / "skill.parquet")
    return json.loads((sk / "skill.json").read_text())["budgets"], sorted(set(table["budget"].to_list()))


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_skill_resumed_with_more_budgets_and_interrupted_keeps_the_earlier_answer(
        skill_budget_0, tmp_path, capsys, monkeypatch):
    """balance skill resumed with more budgets, then Ctrl-C while playing: skill.json listed the new
    budgets beside a skill.parquet of the old ones, and report --skill showed that as the answer."""
    from analysis import skill as K
    from reports.skill import check_skill_dir

    monkeypatch.chdir(tmp_path)
    shutil.copytree(skill_budget_0, tmp_path / "sk")
    assert _budgets_on_disk(tmp_path / "sk") == ([0], [0])
    page = (tmp_path / "sk" / "report.html").read_bytes()
    real = K.play_cell
    calls = []

    def interrupted(game, players, budget, *args, **kwargs):
        calls.append(budget)
        if budget == 4 and len(calls) > 1:      # the new budget's second part
            raise KeyboardInterrupt
        return real(game, players, budget, *args, **kwargs)

    monkeypatch.setattr(K, "play_cell", interrupted)
    code, err = cli_in_process(["skill", "--budgets", "0,4", "--games", "8", "--out", "sk"], capsys)
    assert code == 130, err
    assert calls == [4, 4]                     # budget 0 was read back, budget 4 begun
    assert _budgets_on_disk(tmp_path / "sk") == ([0], [0])
    check_skill_dir(tmp_path / "sk")           # the earlier complete answer, as it was
    assert (tmp_path / "sk" / "report.html").read_bytes() == page
    monkeypatch.setattr(K, "play_cell", real)
    code, err = cli_in_process(["skill", "--budgets", "0,4", "--games", "8", "--out", "sk"], capsys)
    assert code == 0, err
    assert _budgets_on_disk(tmp_path / "sk") == ([0, 4], [0, 4])


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_skill_interrupted_while_writing_the_new_answer_reads_as_unfinished(
        skill_budget_0, tmp_path, capsys, monkeypatch):
    import polars as pl

    from reports.skill import check_skill_dir
    from simcore.errors import UsageError

    monkeypatch.chdir(tmp_path)
    shutil.copytree(skill_budget_0, tmp_path / "sk")

    real = pl.DataFrame.write_parquet

    def interrupted(self, file, *args, **kwargs):
        if Path(file).name.startswith("skill.parquet"):     # the table, once every cell is played
            raise KeyboardInterrupt
        return real(self, file, *args, **kwargs)

    monkeypatch.setattr(pl.DataFrame, "write_parquet", interrupted)
    code, err = cli_in_process(["skill", "--budgets", "0,4", "--games", "8", "--out", "sk"], capsys)
    assert code == 130, err
    with pytest.raises(UsageError, match="unfinished"):
        check_skill_dir(tmp_path / "sk")
    assert not (tmp_path / "sk" / "report.html").exists()
    monkeypatch.undo()
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(["skill", "--budgets", "0,4", "--games", "8", "--out", "sk"], capsys)
    assert code == 0, err
    assert _budgets_on_disk(tmp_path / "sk") == ([0, 4], [0, 4])


def test_no_budget_at_all_asks_for_one(tmp_path, no_playing, capsys, monkeypatch):
    """skill --budgets '' said "give budgets from 0 to 100000", as if a budget were out of range."""
    monkeypatch.chdir(tmp_path)
    code, err = cli_in_process(["skill", "--budgets", "", "--games", "10", "--out", "sk"], capsys)
    assert code == 2, err
    assert one_error_line(err) == "error: --budgets '': give at least one budget, e.g. 0,4,16,64"
    assert os.listdir(tmp_path) == []


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["middle-ages", "seigneurial"])
def test_a_rules_file_given_as_strategies_is_named_as_one(game, tmp_path, capsys, monkeypatch):
    """Review W #11: ``--strategies configs/middle_ages/rules.toml`` said "events: must be a table"
    (the rules read as bots). The one line names the file as a rules file of its game and says
    where rules and bots go; nothing is written."""
    monkeypatch.chdir(tmp_path)
    rules = ROOT / "configs" / game.replace("-", "_") / "rules.toml"
    code, err = cli_in_process(["simulate", "--game", game, "--games", "10", "--strategies",
                                str(rules), "--out", "r"], capsys)
    assert code == 2, err
    line = one_error_line(err)
    assert line.startswith(f"error: {rules}: is a rules file of {game} (sections "), line
    assert "not a strategies file: give rules to --rules" in line, line
    assert os.listdir(tmp_path) == []
