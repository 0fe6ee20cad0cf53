"""Review s62 #4: ``-`` as an output is standard output where a command can write there
(``export --out -``, ``replay --out -``, ``check --summary -``) and is refused in one line where it
cannot: ``check --junit -`` (standard output carries the check's verdict and table, which would
make the XML unreadable) and ``baseline --out -`` (a baseline is a file a check reads back: its
commands name it, and the rules of a run played with --set are written beside it). Both wrote a
file named ``-``."""

from __future__ import annotations

from pathlib import Path

import pytest

from reliability_helpers import cli_in_process, one_error_line

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"


@pytest.fixture
def here(tiny_run, monkeypatch, no_playing):
    monkeypatch.chdir(tiny_run.parent)
    return tiny_run.parent


def test_s62_check_junit_dash_is_refused_in_one_line(here, capsys):
    code, err = cli_in_process(["check", "run", "--baseline", BASELINE, "--junit", "-"], capsys)
    assert code == 2, err
    assert one_error_line(err).startswith("error: --junit -: "), err
    assert not (here / "-").exists()


@pytest.mark.parametrize("extra", [[], ["--panel", "default"]], ids=["run", "panel"])
def test_s62_baseline_out_dash_is_refused_in_one_line(here, capsys, extra):
    args = ["baseline", *([] if extra else ["run", "--tolerance", "40", "--score-tolerance", "40"]),
            "--out", "-", *extra]
    code, err = cli_in_process(args, capsys)
    assert code == 2, err
    assert one_error_line(err).startswith("error: --out -: "), err
    assert not (here / "-").exists()
