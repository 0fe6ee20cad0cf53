"""Rules as data (MA-1, MA-2, MA-6, MA-7, MA-8, MA-10): the shipped table, validation, variants.

Every mistake a designer can make in a rules copy must stop with one line naming the file, the key
and the problem, and a valid variant must change the simulated game.
"""

from __future__ import annotations

import numpy as np
import pytest

from cli import _run
from simcore.errors import ConfigError
from simcore.games.middle_ages import driver as D
from simcore.games.middle_ages import rules as R

TEXT = R.default_rules_path().read_text(encoding="utf-8")


def variant(*pairs):
    text = TEXT
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


def test_default_tile_table_matches_ma2():
    """MA-1/MA-2: 84 tiles, 14…7 per type, the blue/orange split, numbers 1 + floor(i*23/84)."""
    r = R.load()
    assert r.n_tiles == 84
    assert np.bincount(r.tile_type).tolist() == [14, 13, 12, 11, 10, 9, 8, 7]
    blue = [int(((r.tile_type == t) & (r.tile_stack == R.BLUE)).sum()) for t in range(8)]
    assert blue == [9, 8, 7, 7, 6, 6, 5, 4]
    assert r.tile_number.tolist() == [1 + (i * 23) // 84 for i in range(84)]
    assert r.tile_peasants.sum() == 13 + 12 and r.tile_chests.sum() == 8 + 7
    assert r.tile_number[r.tile_type == R.PALAIS].min() == 22


def test_default_income_table_is_ma6():
    r = R.load()
    assert r.income_base.tolist() == [2, 2, 2, 2, 2, 2, 3, 3]
    counted = {R.DOMAINS[d]: [R.DOMAINS[t] for t in range(8) if r.income_counts[d, t]] for d in range(8)}
    assert counted["village"] == ["village", "rempart"]
    assert counted["rempart"] == ["champs", "rempart"]
    assert counted["marche"] == ["moulin", "marche"]
    assert counted["caserne"] == ["village", "caserne"]


@pytest.mark.parametrize("pairs,key,problem", [
    ((("start_coins = 0", "start_coin = 0"),), "setup.start_coin", "unknown key"),
    ((("moulin_payment = 2", 'moulin_payment = "two"'),), "effects.moulin_payment", "must be an integer"),
    ((("blue_tiles = 52", "blue_tiles = 50"),), "setup.blue_tiles", "tile_table has 52"),
    ((('{ id = 83, type = "palais"', '{ id = 82, type = "palais"'),), "tile_table.rows[83].id", "duplicate"),
    ((('{ id =  0, type = "champs"', '{ id =  0, type = "champ"'),), "tile_table.rows[0].type", "must be one of"),
    ((("allow_negative_coins = false", "allow_negative_coins = 0"),), "scoring.allow_negative_coins", "true or false"),
    ((('counts = ["village", "rempart"]', 'counts = ["village", "ramparts"]'),), "income.village.counts", "unknown name"),
    ((("per_tile = { rempart = 3 }", "per_tile = { remparts = 3 }"),), "per_tile.remparts", "unknown tile type"),
])
def test_config_mistakes_name_file_key_and_problem(pairs, key, problem):
    with pytest.raises(ConfigError) as exc:
        R.loads(variant(*pairs), name="my.toml")
    msg = str(exc.value)
    assert msg.startswith("my.toml: ") and key in msg and problem in msg, msg
    assert "\n" not in msg


def test_a_deck_of_fewer_than_four_events_is_refused():
    text = TEXT
    for i in range(12):
        text = text.replace(f"[[events]]\nid = {i}\n", f"[[events]]\nid = {i}\nin_deck = false\n", 1)
    with pytest.raises(ConfigError, match="3 card"):
        R.loads(text)


def test_tile_table_too_small_for_the_player_count_is_refused_before_playing(tmp_path, capsys):
    """MA-7: with 32 orange tiles turned blue→removed, 4 players run out; the error names the count."""
    rows = [line for line in TEXT.splitlines() if line.startswith("  { id") and "\"orange\"" in line]
    text = TEXT
    for line in rows[:10]:
        text = text.replace(line + "\n", "")
    text = text.replace("orange_tiles = 32", "orange_tiles = 22")
    # renumber ids so the table stays 0..n-1
    lines, n = [], 0
    for line in text.splitlines():
        if line.startswith("  { id = "):
            line = f"  {{ id = {n:2d}," + line.split(",", 1)[1]
            n += 1
        lines.append(line)
    path = tmp_path / "small.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rules = R.load(path)
    assert R.check_tile_supply(rules, 2) == 0
    with pytest.raises(ConfigError, match="not enough tiles for 4 players"):
        R.check_tile_supply(rules, 4)
    assert _run(["simulate", "--rules", str(path), "--games", "10", "--players", "4",
                 "--out", str(tmp_path / "run"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "small.toml" in err and "4 players" in err
    assert not (tmp_path / "run").exists()


def test_palais_base_income_change_moves_palais_scores(tmp_path):
    """A designer's variant (Palais base income 3 → 4) must change the games it touches and only
    through the Palais Income: same seed, same decisions, higher scores for Palais holders."""
    base = R.load()
    richer = R.loads(variant(("[income.palais]\nbase = 3", "[income.palais]\nbase = 4")))
    a = D.run_chunk(base, 4, 0, 3000, 8)
    b = D.run_chunk(richer, 4, 0, 3000, 8)
    has_palais = a["tiles"][:, R.PALAIS] > 0
    assert (b["score"][has_palais] >= a["score"][has_palais]).mean() > 0.95
    assert b["score"][has_palais].mean() > a["score"][has_palais].mean() + 1.0


def test_removing_an_event_card_from_the_deck_means_it_never_fires():
    text = TEXT.replace("[[events]]\nid = 8\n", "[[events]]\nid = 8\nin_deck = false\n", 1)
    out = D.run_chunk(R.loads(text), 4, 0, 5000, 1)
    assert not (out["events"] == 8).any()
    assert set(np.unique(out["events"]).tolist()) == set(range(15)) - {8}


def test_extra_coin_supply_at_or_above_the_eglise_tiles_never_binds():
    """MA-5 Église (docs/middle_ages_engine.md): an Église Effect needs an Église tile taken from the
    board, at most once per tile; the default table has 8 Église tiles, 5 blue (MA-2). So 5 tokens
    play the very games of 8 at 3 players (blue stack only), and 4 tokens do not; at 4 players 7
    tokens do not either (the orange Églises come in)."""
    base = R.load()

    def scores(tokens, players):
        rules = R.loads(variant(("extra_coin_tokens = 8 ", f"extra_coin_tokens = {tokens} ")))
        return D.run_chunk(rules, players, 0, 1500, 3)["score"]

    default3 = D.run_chunk(base, 3, 0, 1500, 3)["score"]
    np.testing.assert_array_equal(scores(5, 3), default3)
    assert not np.array_equal(scores(4, 3), default3)
    assert not np.array_equal(scores(7, 4), D.run_chunk(base, 4, 0, 1500, 3)["score"])
