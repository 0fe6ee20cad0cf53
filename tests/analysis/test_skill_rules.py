"""``balance skill --rules/--set``: balance by search budget under rules of one's own (a tune's
fix: does it hold as play gets stronger?). The games must be played under those rules (checked
against the runner's own games under the same rules and seed, and against the shipped rules'),
the rules are part of the resumable question, and a report refuses a skill directory of other
rules than its run's."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from cli import _run
from simcore import runner

from undrawn_figures import figures_undrawn


@pytest.fixture(scope="module", autouse=True)
def pages_undrawn():
    """The commands' pages (the skill pages, the tune's page) get 1x1 stand-ins for their figures
    (undrawn_figures.py): these tests read the tables, words and file names, never the pixels. The
    skill page's budget figure is measured by test_report_skill.py's checklist test and drawn by
    tests/reliability/test_designer_inputs.py, the --against figure measured and drawn by
    test_skill_against.py's checklist test, the tune page's by test_sweep_tune_pages.py."""
    with figures_undrawn():
        yield


SETTING = "setup.start_coins=[0,0,9,0]"      # seat 3 starts 9 coins ahead: the win shares move


def _shares(settings=()) -> np.ndarray:
    prep = runner.prepare("middle-ages", players=4, strategies="balanced", settings=settings)
    played = runner.collect(prep, games=40, seed=5, columns=("game", "seat", "win_share", "rank"),
                            statistics=False)
    return played.win_shares(4).mean(axis=0)


ARGS = ["skill", "--budgets", "0", "--games", "40", "--seed", "5"]


@pytest.fixture(scope="module")
def skill_set(tmp_path_factory):
    """``balance skill`` under --set SETTING, 40 games at budget 0: read by the three tests below
    that need a skill directory of other rules than the shipped ones (each played one of its own,
    ~0.9 s of CPU each, most of it the page's figure)."""
    out = tmp_path_factory.mktemp("skill-rules") / "skill"
    assert _run([*ARGS, "--set", SETTING, "--out", str(out)]) == 0
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_games_are_played_under_the_rules_given_and_the_page_names_them(skill_set):
    out = skill_set
    t = pl.read_parquet(out / "skill.parquet").filter(pl.col("part") == "all").sort("seat")
    got = t["win_share"].to_numpy()
    assert np.allclose(got, _shares([SETTING]))
    assert not np.allclose(got, _shares())            # the shipped rules play other games
    q = json.loads((out / "skill.json").read_text())
    assert q["settings"] == [SETTING] and q["rules_given"] and q["rules_sha256"]
    page = (out / "report.html").read_text()
    assert "Rules: " in page and "setup.start_coins" in page


def test_a_resume_under_other_rules_is_another_question(skill_set, tmp_path, capsys):
    import shutil

    out = tmp_path / "skill"
    shutil.copytree(skill_set, out)          # played under --set SETTING; resumed under the shipped rules
    before = (out / "skill.parquet").read_bytes()
    capsys.readouterr()
    assert _run([*ARGS, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "another balance-skill question" in err[0]
    assert (out / "skill.parquet").read_bytes() == before


def test_a_bad_setting_is_one_line_before_out_is_made(tmp_path, capsys):
    out = tmp_path / "skill"
    assert _run(["skill", "--budgets", "0", "--games", "8", "--set", "setup.no_such_key=3",
                 "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no_such_key" in err[0]
    assert not out.exists()


def test_a_report_refuses_a_skill_directory_of_other_rules(skill_set, tmp_path, capsys):
    skill = skill_set
    run = tmp_path / "run"
    assert _run(["simulate", "--games", "200", "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    assert _run(["report", str(run), "--out", str(tmp_path / "rep"), "--skill", str(skill)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "other rules" in err[0], err
    assert not (tmp_path / "rep").exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_tune_says_how_to_ask_whether_its_fix_holds_as_play_gets_stronger(tmp_path, capsys):
    """balance tune ends with the balance skill command for its best_rules.toml, same game,
    line-up and player counts; and that command runs as printed."""
    import shlex

    from cli.tune import skill_hint

    out = tmp_path / "tu"
    args = ["tune", "--game", "middle-ages", "--players", "2", "--strategies", "random", "--vary",
            "setup.start_coins[0]=0..2", "--target", "seat-balance:40", "--trials", "2",
            "--min-games", "200", "--max-games", "200", "--confirm-games", "200", "--out", str(out),
            "-q"]
    assert _run(args) == 0
    printed = capsys.readouterr().out
    assert sum("balance skill" in ln for ln in printed.splitlines()) == 1, printed
    # the report command runs as printed: a directory beside the tune, not a placeholder
    assert f"balance report {out} --out {out}-report" in printed and "REPORT_DIR" not in printed
    command = skill_hint("middle-ages", out, ["setup.start_coins[0]=0..2"], players="2",
                         strategies="random")
    assert command == (f"balance skill --game middle-ages --rules {out / 'best_rules.toml'} "
                       f"--strategies random --players 2 --out {out}-skill")
    argv = shlex.split(command)[1:] + ["--budgets", "0", "--games", "8"]
    assert _run(argv) == 0
    q = json.loads((tmp_path / "tu-skill" / "skill.json").read_text())
    assert q["rules_given"] and q["rules"].endswith("best_rules.toml")
    # and against the rules the tune started from (the shipped ones here): two commands, the
    # second the one above with --against the first's directory; both run as printed
    line = next(ln for ln in printed.splitlines()
                if ln.startswith("as play gets stronger, against the rules it started from: "))
    first, second = line.split(": ", 1)[1].split(" && ")
    # with the budgets written out and --games sized for the target (revE #9: the default 2,000
    # here, the ±40 pp band being wide)
    sized = "--budgets 0,4,16,64 --games 2000"
    assert first == (f"balance skill --game middle-ages --strategies random --players 2 {sized} "
                     f"--out {out}-skill-start")
    # with the tune's target, judged at every budget (a seat-balance target: a win-share table measures it)
    assert second == (command.replace(" --out ", f" {sized} --out ")
                      + f" --against {out}-skill-start --target seat-balance:40")
    for cmd in (first, second):
        assert _run(shlex.split(cmd)[1:] + ["--budgets", "0", "--games", "8"]) == 0
    assert (tmp_path / "tu-skill" / "against.csv").is_file()
    assert (tmp_path / "tu-skill" / "target.csv").is_file()
    assert "The target as play gets stronger" in (tmp_path / "tu-skill" / "report.html").read_text()
    # the page names the fix by what the tune changed, not only by its file
    from reports.skill import rules_label
    change = json.loads((tmp_path / "tu-skill" / "skill.json").read_text())["rules_change"]
    assert change.startswith("setup.start_coins[0]=")
    assert f"best_rules.toml with {change}" in (tmp_path / "tu-skill" / "against.txt").read_text()
    assert rules_label(json.loads((tmp_path / "tu-skill" / "skill.json").read_text())) == \
        f"best_rules.toml with {change}"
    assert not json.loads((tmp_path / "tu-skill-start" / "skill.json").read_text())["rules_given"]
    # no bots (Fief 2 combats), or no best_rules.toml: no hint
    assert skill_hint("fief-combat", out, []) is None
    assert skill_hint("middle-ages", tmp_path / "none", []) is None
    assert "--players" not in skill_hint("middle-ages", out, ["players=2..5"], players="3")
