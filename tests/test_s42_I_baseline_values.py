"""``balance check`` refuses a baseline whose measured values no run can have produced (review C #2,
session 42: a hand-edited ``value = 150`` was read as a -115 pp regression, exit 1, and ``se = 0``
ran to exit 3): a win share outside 0–100 %, a value outside its own ``ci_low``–``ci_high`` beyond
rounding, ``se = 0`` behind games played. One line naming the file, the block and the key, exit 2,
before any game is played. The baseline is a real one, written by ``balance baseline`` from a run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from analysis.check.baseline import load_baseline
from cli import _run
from simcore import runner


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("b")
    run = runner.simulate("seigneurial", games=2000, seed=3, out=root / "run", quiet=True)
    out = root / "base.toml"
    assert _run(["baseline", str(run), "--out", str(out), "--tolerance", "5", "--score-tolerance", "20"]) == 0
    return out


def _first_block(text: str) -> tuple[int, int]:
    start = text.index("\n[[metric]]\n") + 1
    end = text.index("\n[[metric]]\n", start) + 1
    return start, end


def _edited(baseline: Path, tmp_path: Path, key: str, new: str) -> Path:
    """The baseline with ``key`` of its first [[metric]] block (a win share) set to ``new``."""
    text = baseline.read_text(encoding="utf-8")
    start, end = _first_block(text)
    block = text[start:end]
    assert 'metric = "seat_win_share"' in block
    block, n = re.subn(rf"(?m)^{key} = .*$", f"{key} = {new}", block)
    assert n == 1
    out = tmp_path / f"{key}.toml"
    out.write_text(text[:start] + block + text[end:], encoding="utf-8")
    return out


def _value(baseline: Path, key: str) -> float:
    text = baseline.read_text(encoding="utf-8")
    start, end = _first_block(text)
    return float(re.search(rf"(?m)^{key} = (\S+)", text[start:end]).group(1))


def _refused(capsys, path: Path, key: str, *words: str) -> None:
    capsys.readouterr()
    code = _run(["check", "--baseline", str(path), "--games", "2000", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert len(err.strip().splitlines()) == 1, err
    assert f"{path.name}: metric[0].{key}:" in err, err
    for w in words:
        assert w in err, err
    assert "PASS" not in out and "FAIL" not in out and "games" not in out, out   # nothing played


def test_a_win_share_above_100_is_refused(baseline, tmp_path, capsys):
    _refused(capsys, _edited(baseline, tmp_path, "value", "150"), "value",
             "win share of 150 %", "between 0 and 100")


def test_a_value_outside_its_own_interval_is_refused(baseline, tmp_path, capsys):
    high = _value(baseline, "ci_high")
    _refused(capsys, _edited(baseline, tmp_path, "value", f"{high + 3:.2f}"), "value",
             "outside its own 95 % interval")


def test_a_zero_error_behind_games_is_refused(baseline, tmp_path, capsys):
    _refused(capsys, _edited(baseline, tmp_path, "se", "0"), "se", "standard error of 0")


def test_a_value_rounded_by_hand_still_loads(baseline, tmp_path):
    high = _value(baseline, "ci_high")
    # at the interval's edge, rounded to two decimals: within rounding
    path = _edited(baseline, tmp_path, "value", f"{high:.2f}")
    assert load_baseline(path).metrics[0].value == pytest.approx(round(high, 2))
    assert len(load_baseline(baseline).metrics) >= 4
