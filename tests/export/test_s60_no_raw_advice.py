"""Session 60 #2: the advice for a run without player rows names the flag that left them out.

``balance export runs/demo-noraw --what players`` on a 20,000-game run made with ``simulate
--no-raw`` said "the run was written without --raw: rerun with --raw": at that size the rows are
kept by default, so the cause is ``--no-raw`` and the advice is to rerun without it; above
:data:`simcore.rundir.RAW_LIMIT` games (1e5) the rows are kept only with ``--raw``, and the advice
stays. The before/after of a report says the same when it cannot pair two runs for want of rows.
"""

from __future__ import annotations

import pytest

from analysis import analyse, open_runs
from analysis.compare import compare_runs
from cli import _run
from simcore import atomic, rundir, runner

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def no_raw_runs(tmp_path_factory):
    """Two 300-game Middle-Ages runs made with --no-raw, the second with the Palais' income at 4,
    and that one again with its rows (the same deals: seed 1)."""
    root = tmp_path_factory.mktemp("noraw")
    palais = ["income.palais.base=4"]
    made = {name: runner.simulate("middle-ages", games=300, seed=1, out=root / name, quiet=True,
                                  raw=raw, settings=settings)
            for name, raw, settings in (("a", False, []), ("b", False, palais), ("rows", True, palais))}
    assert not (made["a"] / "players.parquet").exists() and (made["rows"] / "players.parquet").is_file()
    return made


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    yield
    atomic.release_claims()


def _export_line(run, capsys) -> tuple[int, str]:
    capsys.readouterr()
    code = _run(["export", str(run), "--what", "players", "--out", "p.csv"])
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    return code, err


def test_export_of_a_no_raw_run_under_the_limit_says_to_rerun_without_no_raw(no_raw_runs, capsys):
    code, err = _export_line(no_raw_runs["a"], capsys)
    assert code == 2 and err == (f"error: {no_raw_runs['a']}: no players.parquet (the run was written "
                                 "with --no-raw: rerun without --no-raw)"), err


def test_export_of_a_run_above_the_limit_says_to_rerun_with_raw(tmp_path, monkeypatch, capsys):
    """(the limit lowered to 100 games: a 200-game run keeps no rows by default)"""
    monkeypatch.setattr(runner, "RAW_LIMIT", 100)
    monkeypatch.setattr(rundir, "RAW_LIMIT", 100, raising=False)
    run = runner.simulate("middle-ages", games=200, seed=4, out=tmp_path / "big", quiet=True)
    assert not (run / "players.parquet").exists()
    code, err = _export_line(run, capsys)
    assert code == 2 and err == (f"error: {run}: no players.parquet (the run of 200 games was written "
                                 "without --raw; above 100 games only --raw keeps the rows: rerun "
                                 "with --raw)"), err


def test_a_before_after_unpaired_for_want_of_rows_names_no_raw(no_raw_runs):
    a, b, rows = (open_runs([no_raw_runs[k]]) for k in ("a", "b", "rows"))
    why = compare_runs(a, b, analyse(a), analyse(b)).pairing.why
    assert why == (f"neither {a.label} nor {b.label} kept players.parquet (simulate both without "
                   "--no-raw to pair)"), why
    why = compare_runs(a, rows, analyse(a), analyse(rows)).pairing.why
    assert why == f"{a.label} kept no players.parquet (simulate without --no-raw to pair)", why


def test_a_row_question_on_a_no_raw_run_names_no_raw(no_raw_runs):
    from simcore.errors import UsageError

    with pytest.raises(UsageError) as info:
        open_runs([no_raw_runs["a"]]).need_rows("this question")
    assert str(info.value).endswith("the run was written with --no-raw: rerun without --no-raw"), info.value
