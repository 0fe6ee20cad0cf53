"""Review 270 #4: a plain ``simulate`` ended with "run directory: runs/demo (…)" and no next
command, while a panel, a sweep and a tune print "balance report DIR --out DIR-report";
``balance questions`` and ``balance skill`` said nothing either. Each now prints the command that
reads what it wrote ("next: …"), and the command runs as printed (here: copied from the output
and run in the same folder)."""

from __future__ import annotations

import shlex

import pytest

from in_process import balance
from undrawn_figures import figures_undrawn, skill_pages_undrawn

# the tests' CPU over docs/testing.md's budget (session 63): this module runs in make test-slow
# and CI, not in make test
pytestmark = pytest.mark.slow


def _next(stdout: str) -> list[list[str]]:
    """The printed next command(s), split as a shell splits them ("a && b": two)."""
    lines = [x for x in stdout.splitlines() if x.startswith("next: ")]
    assert len(lines) == 1, stdout
    return [shlex.split(part) for part in lines[0][len("next: "):].split(" && ")]


def _run(argv: list[str]):
    assert argv[0] in ("balance", "simulate"), argv
    return balance(*(argv[1:] if argv[0] == "balance" else argv))


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_s62_a_plain_run_and_its_questions_print_a_report_command_that_runs(here):
    done = balance("simulate", "--games", "300", "--out", "runs/demo")
    [cmd] = _next(done.stdout)
    assert cmd == ["balance", "report", "runs/demo", "--out", "runs/demo-report"], cmd
    with figures_undrawn():
        _run(cmd)
    assert (here / "runs/demo-report/report.html").is_file()

    asked = balance("questions", "runs/demo", "--out", "q_demo", "--games", "100")
    [cmd] = _next(asked.stdout)
    assert cmd == ["balance", "report", "runs/demo", "--questions", "q_demo", "--out",
                   "runs/demo-report"], cmd
    cmd += ["--force"]                     # (the first report's folder, written above)
    with figures_undrawn():
        _run(cmd)
    assert "questions" in (here / "runs/demo-report/report.html").read_text().lower()
    # --quiet: the path only, as before
    assert balance("questions", "runs/demo", "--out", "q2", "--games", "100", "-q").stdout.strip() == "q2"


def test_s62_skill_prints_a_run_and_a_report_with_its_section_that_run(here):
    with skill_pages_undrawn():
        done = balance("skill", "--game", "middle-ages", "--players", "2", "--budgets", "0,1",
                       "--games", "10", "--set", "setup.start_coins=[1, 0]", "--out", "sk")
    simulate, report = _next(done.stdout)
    assert simulate[0] == "simulate" and report[:2] == ["balance", "report"], (simulate, report)
    assert "--set" in simulate and "--skill" in report, (simulate, report)
    _run(simulate + ["--games", "400"])       # (fewer games than its default: a test)
    with figures_undrawn():
        _run(report)
    assert (here / "sk-run-report/report.html").is_file()
