"""Review s61 #2-#5: what a baseline file holds is checked as it loads, and its bot files are found
from any working directory.

#3: a hand-edited tolerance of 500 pp loaded (the gate silently off) while ``balance baseline
--tolerance 500`` is refused; the same bounds now apply to the file, naming file and key, exit 2.
#4: ``rules_sha256 = "xyz"`` loaded, and the check then said the shipped rules changed and that "the
baseline records no rules text" (both false): refused unless 64 hexadecimal digits.
#5: ``engine = "gpu"`` read "--engine gpu: must be kernel or reference", an option check does not
have: the file's key ``run.engine`` is named.
#2: a strategy file a seat names was stored as typed, relative to the working directory, so a check
from another directory failed ("strategies file not found"); it is now recorded relative to the
baseline file with its sha256, an edited bot file is said as a change, and a file written before
(no ``strategy_files``) still loads and says once that it reads them from the working directory.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

from cli import _run

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

LOOSE = ["--tolerance", "20", "--score-tolerance", "40"]


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    root = tmp_path_factory.mktemp("s61k")
    assert _run(["simulate", "--games", "200", "--seed", "3", "--out", str(root / "run"), "--quiet"]) == 0
    assert _run(["baseline", str(root / "run"), "--out", str(root / "b.toml"), *LOOSE]) == 0
    return root / "b.toml"


def _edited(path, pattern: str, new: str):
    text = path.read_text(encoding="utf-8")
    edited, k = re.subn(pattern, new, text, count=1, flags=re.M)
    assert k == 1, pattern
    bad = path.with_name("edited-" + path.name)
    bad.write_text(edited, encoding="utf-8")
    return bad


def _refused(path, capsys) -> str:
    capsys.readouterr()
    assert _run(["check", "--baseline", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"error: {path}: "), err
    return err


@pytest.mark.parametrize("value", ["500", "100", "100.0"])
def test_a_win_share_tolerance_of_100_pp_or_more_is_refused_naming_its_key(plain, capsys, value):
    err = _refused(_edited(plain, r"^seat_win_share = \S+", f"seat_win_share = {value}"), capsys)
    assert "tolerance.seat_win_share" in err and "below 100 pp" in err, err


def test_a_metric_blocks_own_tolerance_is_bounded_too(plain, capsys):
    err = _refused(_edited(plain, r"^n = 200$", "n = 200\ntolerance = 250"), capsys)
    assert "tolerance" in err and "below 100 pp" in err, err


def test_a_score_tolerance_beyond_what_balance_baseline_takes_is_refused(plain, capsys):
    err = _refused(_edited(plain, r"^seat_mean_score = \S+", "seat_mean_score = 1e12"), capsys)
    assert "tolerance.seat_mean_score" in err and "at most 1e+09" in err, err


def test_a_tolerance_balance_baseline_takes_still_loads(plain):
    from analysis.check.baseline import load_baseline

    ok = _edited(plain, r"^seat_win_share = \S+", "seat_win_share = 99.5")
    assert load_baseline(ok).tolerance["seat_win_share"] == 99.5


@pytest.mark.parametrize("sha", ["xyz", "", "g" * 64, "a" * 63])
def test_a_rules_sha256_that_is_not_64_hex_digits_is_refused(plain, capsys, sha):
    err = _refused(_edited(plain, r'^rules_sha256 = "[0-9a-f]+"', f'rules_sha256 = "{sha}"'), capsys)
    assert "run.rules_sha256" in err and "64 hexadecimal digits" in err, err


def test_an_unknown_engine_names_the_files_key_not_an_option(plain, capsys):
    err = _refused(_edited(plain, r'^engine = "kernel"', 'engine = "gpu"'), capsys)
    assert "run.engine" in err and "--engine" not in err and "kernel" in err, err


# ---- #2: custom bot files ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """The review's layout: out/repo/strategies/mybot.toml, a run and a baseline made in out/repo."""
    out = tmp_path_factory.mktemp("s61bots")
    repo = out / "repo"
    (repo / "strategies").mkdir(parents=True)
    from simcore.config import shipped_configs

    presets = (shipped_configs() / "middle_ages" / "strategies.toml").read_text(encoding="utf-8")
    body = presets.split("[balanced]", 1)[1].split("\n[", 1)[0]
    (repo / "strategies" / "mybot.toml").write_text("[mybot]" + body + "\n", encoding="utf-8")
    here = os.getcwd()
    os.chdir(repo)
    try:
        assert _run(["simulate", "--games", "400", "--seed", "2024", "--strategies",
                     "strategies/mybot.toml:mybot,balanced,balanced,balanced", "--out", "runs/c",
                     "--quiet"]) == 0
        assert _run(["baseline", "runs/c", "--out", "baselines/c.toml", "--tolerance", "20pp",
                     "--score-tolerance", "40"]) == 0
    finally:
        os.chdir(here)
    return repo


def _check_from(where, *args):
    import contextlib
    import io

    here = os.getcwd()
    os.chdir(where)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = _run(["check", *map(str, args)])
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def test_the_baseline_records_each_bot_file_relative_to_itself_with_its_sha256(repo):
    import hashlib

    from analysis.check.baseline import load_baseline

    b = load_baseline(repo / "baselines" / "c.toml")
    sha = hashlib.sha256((repo / "strategies" / "mybot.toml").read_bytes()).hexdigest()
    assert b.strategy_files == [{"name": "strategies/mybot.toml", "path": "../strategies/mybot.toml",
                                 "sha256": sha}]
    # the seats' names (the strategy metrics' keys) are the run's, unchanged
    assert b.strategies[0] == "strategies/mybot.toml:mybot"


def test_a_check_from_another_directory_finds_the_bot_file(repo):
    code, out, err = _check_from(repo.parent, "--baseline", "repo/baselines/c.toml", "--games", 600, "-q")
    assert code in (0, 3), err
    assert "not found" not in err and "edited" not in out, (out, err)


def test_an_edited_bot_file_is_said_as_a_change(repo, tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(repo, copy)
    bot = copy / "strategies" / "mybot.toml"
    bot.write_text(bot.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    code, out, err = _check_from(tmp_path, "--baseline", "repo/baselines/c.toml", "--games", 600)
    assert code in (0, 1, 3), err
    first = out.splitlines()[0]
    assert "strategy file edited since the baseline: strategies/mybot.toml" in first, first
    assert "note: strategy files edited since the baseline measured them: strategies/mybot.toml (sha256" in out, out


def test_a_baseline_written_before_reads_them_from_the_working_directory_and_says_so(repo, tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(repo, copy)
    old = copy / "baselines" / "c.toml"
    text = old.read_text(encoding="utf-8")
    text, k = re.subn(r"(?m)^strategy_files = .*\n", "", text)
    assert k == 1
    old.write_text(text, encoding="utf-8")
    code, out, err = _check_from(copy, "--baseline", "baselines/c.toml", "--games", 600)
    assert code in (0, 3), err
    said = [x for x in out.splitlines() if "written before baselines recorded their strategy files" in x]
    assert len(said) == 1 and "strategies/mybot.toml read relative to the working directory" in said[0], out
