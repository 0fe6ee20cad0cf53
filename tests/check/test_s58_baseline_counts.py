"""Review s58 #5: a baseline whose sample sizes disagree with its run is refused, not read.

The test reads the baseline's error per game from ``se`` and ``n`` (or ``[run] games``:
``decision.run_error`` pools the run's variance with se² × the baseline's games). A ``[[metric]]``
with ``n = 0``, or ``[run] games = 20`` beside errors measured on 200,000 games, loaded and the check
passed (exit 0), while other edited values were refused (``se = 0``, a share of 250 %). Every
seat's and role's metric is measured on every game of the run, so its n is the run's games; a
strategy's share on its deals (rotated seats), games or player rows. Anything else is one line,
exit 2, naming the file and key.
"""

from __future__ import annotations

import re

import pytest

from cli import _run

LOOSE = ["--tolerance", "20", "--score-tolerance", "40"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("s58n")
    out = {}
    for name, extra in (("plain", []), ("rotated", ["--rotate-seats", "--strategies", "greedy,balanced,random,balanced"])):
        assert _run(["simulate", "--games", "200", "--seed", "3", *extra, "--out", str(root / name), "--quiet"]) == 0
        assert _run(["baseline", str(root / name), "--out", str(root / f"{name}.toml"), *LOOSE]) == 0
        out[name] = root / f"{name}.toml"
    return out


def _edited(path, pattern: str, new: str, count: int = 1):
    text = path.read_text(encoding="utf-8")
    edited, k = re.subn(pattern, new, text, count=count, flags=re.M)
    assert k == count, pattern
    bad = path.with_name("edited-" + path.name)
    bad.write_text(edited, encoding="utf-8")
    return bad


def _refused(path, capsys) -> str:
    capsys.readouterr()
    assert _run(["check", "--baseline", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"error: {path}: "), err
    return err


def test_the_files_as_written_load(files):
    from analysis.check.baseline import load_baseline

    # rotated: its strategies' shares count deals, 200 / 4 = 50 (docs/ci.md §1)
    assert {m.n for m in load_baseline(files["rotated"]).metrics if m.metric == "strategy_win_share"} == {50}
    assert {m.n for m in load_baseline(files["plain"]).metrics} == {200}


def test_a_metric_measured_on_no_game_is_refused(files, capsys):
    err = _refused(_edited(files["plain"], r"^n = 200\b", "n = 0"), capsys)
    assert "metric[0].n: Seat 1 win share: n = 0;" in err, err


def test_run_games_that_the_blocks_were_not_measured_on_are_refused(files, capsys):
    err = _refused(_edited(files["plain"], r"^games = 200\b", "games = 20"), capsys)
    assert "run.games: 20 games, but Seat 1 win share was measured on n = 200 " in err, err
    # every seat's n edited alike is no better: the seats' n and [run] games must agree
    err = _refused(_edited(files["plain"], r"^n = 200\b", "n = 200000", count=8), capsys)
    assert "run.games: 200 games, but Seat 1 win share was measured on n = 200,000" in err, err


def test_a_strategy_share_beyond_its_rows_is_refused(files, capsys):
    # 200 games of 4 players hold at most 800 player rows
    text = files["rotated"].read_text(encoding="utf-8")
    assert text.count("\nn = 50\n") == 3
    err = _refused(_edited(files["rotated"], r"^n = 50$", "n = 5000"), capsys)
    assert "run.games: 200 games, but greedy win share was measured on n = 5,000" in err, err
