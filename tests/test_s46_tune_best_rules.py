"""Review s46 (/tmp/s46/rev_tune/findings.md) #1: a tune over several player counts writes a
best_rules.toml that every player count it confirmed can play.

A per-seat setting on a single value (``setup.hand_size[1]=7`` on Médiévallons' ``hand_size = 6``)
is expanded at each cell's own player count: ``[6, 7]`` at 2 players, ``[6, 7, 6]`` at 3.
best_rules.toml held the first cell's (2-player) expansion, which a 3-player game refuses ("lists
2 seats but a 3-player game has 3"), so ``simulate --players 3 --rules best_rules.toml`` and the
panel's ``simulate --players 2,3 --lineup … --rules best_rules.toml`` stopped with exit 2. The file
now holds the largest count's list; a longer list is taken at a smaller count, and every cell
plays under it what its confirmation played.
"""

from __future__ import annotations

import json
import tomllib

from cli import _run
from simcore import runner
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

GAME = "medievallons"


def _hands(rules_text: str, players: int) -> list[int]:
    """The hand sizes of the first ``players`` seats a rules text deals (one value, or a list)."""
    v = tomllib.loads(rules_text)["setup"]["hand_size"]
    return list(v[:players]) if isinstance(v, list) else [v] * players


def test_best_rules_of_a_tune_over_two_player_counts_plays_at_each_count(tmp_path):
    out = tmp_path / "mvt"
    assert _run(["tune", "--game", GAME, "--out", str(out), "--players", "2,3", "--lineup", "balanced",
                 "--vary", "setup.hand_size[1]=7..7", "--vary", "setup.hand_size[0]=6..6",
                 "--target", "seat-balance:10", "--trials", "1", "--min-games", "200",
                 "--max-games", "200", "--confirm-games", "400", "--seed", "1", "-q"]) == 0
    best = out / "best_rules.toml"
    text = best.read_text(encoding="utf-8")
    result = json.loads((out / "result.json").read_text(encoding="utf-8"))
    cells = result["confirm"]["cells"]
    assert sorted(c["players"] for c in cells) == [2, 3]
    for cell in cells:
        played = json.loads((out / cell["dir"] / "run.json").read_text(encoding="utf-8"))["rules_text"]
        # the seats of each cell get, under best_rules.toml, the hands its confirmation dealt
        assert _hands(text, cell["players"]) == _hands(played, cell["players"]), (cell["label"], text)
        # and the game's own loader takes the file at that count (it refused 3 players before)
        prep = runner.prepare(GAME, rules=best, players=cell["players"])
        assert prep.n_players == cell["players"]
    assert _hands(text, 3) == [6, 7, 6]
    # a list longer than the players changes no game: the 2-player cell's rules and best_rules.toml
    # play the same 2-player games, seat by seat
    from simcore.config import parse_toml

    two = next(c for c in cells if c["players"] == 2)
    played = json.loads((out / two["dir"] / "run.json").read_text(encoding="utf-8"))["rules_text"]
    games = []
    for src in (parse_toml(played, name="cell"), best):
        prep = runner.prepare(GAME, rules=src, players=2, strategies="balanced")
        t = runner.collect(prep, games=60, seed=5, columns=("seat", "win_share")).players
        games.append(t.select(["seat", "win_share"]).to_pylist())
    assert games[0] == games[1]
    # the commands the finding ran: one player count, and the tune's own panel
    assert _run(["simulate", "--game", GAME, "--players", "3", "--rules", str(best), "--games", "40",
                 "--out", str(tmp_path / "sim3"), "-q"]) == 0
    assert _run(["simulate", "--game", GAME, "--players", "2,3", "--lineup", "balanced", "--rules",
                 str(best), "--games", "40", "--out", str(tmp_path / "panel"), "-q"]) == 0

