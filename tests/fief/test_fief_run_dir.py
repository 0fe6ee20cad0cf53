"""fief-combat through the runner: one matchup into a run directory (FF-1 … FF-4, FF-7)."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from simcore.errors import UsageError
from simcore.games.fief import kernel as K
from simcore.games.fief.exact import exact_combat
from simcore.games.fief.rules import CASTLE
from simcore.rundir import read_meta
from simcore.runner import simulate


def simulate_combats(**options):
    """One Fief matchup through the one simulation path every game takes."""
    return simulate("fief-combat", **options)


def test_run_directory_has_the_common_columns_and_reproducible_meta(tmp_path, capsys, rules):
    """FF-7: games.parquet one row per combat, players.parquet two rows with the common columns,
    run.json with the rules text and sha256; the odds are printed with Wilson intervals."""
    # the command line draws the closing table (the runner only returns it)
    from cli import _run

    assert _run(["simulate", "--game", "fief-combat", "--attacker", "10", "--defender", "6",
                 "--terrain", "castle", "--games", "20000", "--seed", "3", "--lords-attacker", "2",
                 "--lords-defender", "1", "--out", str(tmp_path / "run")]) == 0
    out = tmp_path / "run"
    printed = capsys.readouterr().out
    assert "P(attacker wins)" in printed and "95% interval" in printed
    games = pq.read_table(out / "games.parquet")
    players = pq.read_table(out / "players.parquet")
    assert games.num_rows == 20_000 and players.num_rows == 40_000
    assert players.schema.names == ["game", "seat", "strategy", "side", "score", "win_share", "rank"]
    assert [str(t) for t in players.schema.types] == ["int64", "int8", "string", "string", "int32",
                                                      "float", "int8"]
    assert players.column("side").to_pylist()[:4] == ["attacker", "defender"] * 2
    g = {c: games.column(c).to_numpy() for c in games.schema.names}
    assert np.array_equal(g["game"], np.arange(20_000))
    assert np.all(g["attacker_soldiers_left"] + g["attacker_lords_left"] == g["attacker_points_left"])
    assert np.all(g["attacker_lords_left"] + g["attacker_lords_captured"] + g["attacker_lords_killed"] == 2)
    share = players.column("win_share").to_numpy().reshape(-1, 2)
    assert np.allclose(share.sum(axis=1), 1.0)
    meta = read_meta(out)
    assert meta["game"] == "fief-combat" and meta["seed"] == 3 and meta["games"] == 20_000
    text = (out / "run.json").read_text(encoding="utf-8")
    assert json.loads(text)["rules_sha256"] == hashlib.sha256(meta["rules_text"].encode()).hexdigest()
    assert meta["games_per_s"] > 0 and meta["wall_time_s"] > 0
    p = meta["results"]["p_attacker_wins"]
    exact = exact_combat(rules, 10, 6, CASTLE, 0, 2, 1)[K.Q_ATT_WINS]
    assert p["ci95"][0] < p["p"] < p["ci95"][1]
    assert abs(p["p"] - exact) < 4 * np.sqrt(exact * (1 - exact) / 20_000)
    assert meta["players"] == 2 and meta["strategies"] == ["attacker", "defender"]
    summary = pq.read_table(out / "summary.parquet").to_pydict()
    assert summary["group"] == ["seat", "seat", "strategy", "strategy"]
    assert summary["games"] == [20_000] * 4
    assert summary["win_share_sum"][0] + summary["win_share_sum"][1] == pytest.approx(20_000)
    assert summary["score_sum"][0] == pytest.approx(g["attacker_points_left"].sum())


def test_existing_results_are_kept_without_force(tmp_path):
    """FF-7 outputs: nothing is overwritten without --force; with it the directory is replaced."""
    out = tmp_path / "run"
    simulate_combats(attacker=3, defender=3, terrain="open", games=100, out=out, quiet=True)
    with pytest.raises(UsageError, match="not empty"):
        simulate_combats(attacker=3, defender=3, terrain="open", games=100, out=out, quiet=True)
    simulate_combats(attacker=4, defender=3, terrain="open", games=50, out=out, quiet=True, force=True)
    assert read_meta(out)["games"] == 50


@pytest.mark.parametrize("kwargs,message", [
    (dict(terrain="swamp"), "unknown terrain"),
    (dict(darc="both"), "unknown side"),
    (dict(attacker=0), "--attacker 0"),
    (dict(lords_attacker=11), "--lords-attacker 11"),
    (dict(darc="defender", lords_defender=0), "needs at least 1 Lord"),
    (dict(games=0), "--games"),
    (dict(games=1.5), "--games"),
    (dict(mercy="sometimes"), "mercy policy"),
    (dict(threads=0), "--threads"),
])
def test_bad_matchups_are_one_line_usage_errors(tmp_path, kwargs, message):
    """FF-1/FF-3/FF-4: impossible armies and options stop before any combat is played."""
    args = dict(attacker=10, defender=6, terrain="castle", games=100, out=tmp_path / "x", quiet=True)
    args.update(kwargs)
    with pytest.raises(UsageError, match=message) as info:
        simulate_combats(**args)
    assert "\n" not in str(info.value)
    assert not (tmp_path / "x").exists()


def test_raw_false_leaves_out_the_player_rows(tmp_path):
    """FF-7 outputs of very large runs (as the runner): games.parquet, summary.parquet, run.json."""
    out = simulate_combats(attacker=5, defender=5, terrain="open", games=1000, out=tmp_path / "r",
                           quiet=True, raw=False)
    names = {p.name for p in out.iterdir()}
    assert {".balance-output.json", "games.parquet", "run.json", "summary.parquet"} <= names   # + the marker
    assert "players.parquet" not in names
