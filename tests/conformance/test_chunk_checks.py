"""The runner checks every chunk a game's adapter hands it against the spec, before any cast.

A kernel that produces another dtype than its spec declares (int32 for an int16 column, float64
for an integer), a missing column, or a value outside the column's declared range stops the run
with one line naming the column: the mistakes are made here on a real game's chunk, through the
runner (``make_part``) as a run meets them, and through the command line (exit code 2, one line).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cli import _run
from simcore import games as registry
from simcore import runner
from simcore.contract import (ChunkResult, Column, ColumnRangeError, ContractError, GameSpec,
                              check_chunk)

SPECS = list(registry.specs().values())
IDS = [s.name for s in SPECS]


@pytest.fixture(scope="module")
def played():
    """One small chunk of every game, as its adapter hands it to the runner."""
    out = {}
    for spec in SPECS:
        prep = runner.prepare(spec.name)
        out[spec.name] = (prep, prep.play(0, 50, 3))
    return out


def _with(chunk: ChunkResult, table: str, name: str, values) -> ChunkResult:
    cols = dict(getattr(chunk, table))
    cols[name] = values
    return dataclasses.replace(chunk, **{table: cols})


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_every_game_hands_over_the_spec_dtypes_and_ranges(spec, played):
    prep, chunk = played[spec.name]
    check_chunk(prep, chunk, 50)
    assert prep.bounds == spec.bounds() and "win_share" in prep.bounds


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_a_score_of_another_dtype_is_an_error_naming_the_column(spec, played):
    prep, chunk = played[spec.name]
    wrong = "int32" if spec.score_column.dtype != "int32" else "int64"
    bad = _with(chunk, "players", "score", np.asarray(chunk.players["score"]).astype(wrong))
    with pytest.raises(ContractError, match=rf"players column 'score' is {wrong} but the spec "
                                            rf"declares {spec.score_column.dtype}"):
        runner.make_part(prep, bad, 0, 50, runner.PartPlan(tuple(prep.players_schema.names)))


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_a_float_game_column_for_an_integer_one_is_an_error(spec, played):
    prep, chunk = played[spec.name]
    col = next(c for c in spec.game_columns if c.dtype.startswith("int"))
    bad = _with(chunk, "games", col.name, np.asarray(chunk.games[col.name]).astype(np.float64))
    with pytest.raises(ContractError, match=f"games column '{col.name}' is float64"):
        check_chunk(prep, bad, 50)


def test_a_missing_column_and_a_wrong_length_are_errors(played):
    prep, chunk = played["middle-ages"]
    cols = dict(chunk.players)
    del cols["rank"]
    with pytest.raises(ContractError, match="no column 'rank'"):
        check_chunk(prep, ChunkResult(cols, chunk.games), 50)
    short = _with(chunk, "games", "reshuffles", np.asarray(chunk.games["reshuffles"])[:-1])
    with pytest.raises(ContractError, match="'reshuffles' has 49 rows, not 50"):
        check_chunk(prep, short, 50)


def test_a_value_outside_the_declared_range_names_column_and_range(played):
    """A kernel writing into a column too narrow for the rules wraps around (int8: 130 → -126):
    the range check turns that into one line, not a silent wrong table."""
    prep, chunk = played["middle-ages"]
    wrapped = np.asarray(chunk.players["graveyard"]).copy()
    wrapped[7] = np.int8(-126)
    with pytest.raises(ColumnRangeError, match=r"players column 'graveyard' holds -126, outside "
                                               r"its declared range 0\.\.127 \(int8\)"):
        check_chunk(prep, _with(chunk, "players", "graveyard", wrapped), 50)


def test_a_range_wider_than_the_dtype_is_refused_when_the_spec_is_built():
    with pytest.raises(ValueError, match=r"rolls: the range 0\.\.300 does not fit int8.*widen"):
        Column("rolls", "int8", "dice rolled", low=0, high=300)


def test_a_spec_whose_score_unit_differs_from_its_score_column_is_refused():
    spec = registry.get("middle-ages")
    with pytest.raises(ValueError, match="score column's unit 'coins' differs from the spec's "
                                         "score_unit 'points'"):
        dataclasses.replace(spec, score_unit="points")
    with pytest.raises(ValueError, match="one column with role score"):
        GameSpec(**{**{f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)},
                    "player_columns": tuple(c for c in spec.player_columns if c.role != "score")})


def test_the_command_line_shows_a_range_error_as_one_line(tmp_path, capsys, monkeypatch):
    """Through `simulate`: a chunk outside its range stops the run with exit code 2, one line."""
    real = runner.build

    def narrow(game, kwargs, rules):
        prep = real(game, kwargs, rules)
        prep.bounds = {**prep.bounds, "score": (0, 5)}
        return prep

    monkeypatch.setattr(runner, "build", narrow)
    code = _run(["simulate", "--game", "middle-ages", "--games", "200", "--quiet",
                 "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "players column 'score' holds" in err and "declared range 0..5" in err
    assert not (tmp_path / "run").exists()
