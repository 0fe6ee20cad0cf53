"""A single sweep over ``players`` and a setting some of those counts never read (session 62 #1).

``balance sweep --game seigneurial --vary players=3..4 --vary track.goal.4=8..12:4`` (2,000 games,
seed 0) held players at 3 (its first value) for track.goal.4's sentences, where the goal for 4
players is never read: the page said "Raising track.goal.4 from 8 to 12 with players = 3 … moves no
headline metric beyond its noise", its lead "Across every value tried (8 to 12) the Seigneur's win
share does not change by more than the 1 pp that matters", its table "within noise" beside 0.0 (0.0
to 0.0), and the slice sentence set the real −3.4 pp at 4 players "against 0.0 pp …, within noise,
at players = 3". The panel sweep already says "not read at N players" (test_s61_unread_setting_sweep);
the single sweep now does the same from the same decision
(:func:`analysis.rules_diff.reads_setting`, i.e. :func:`simcore.games.same_rules_at`), and leaves
such comparisons out of its counts.

Nothing is played: the sweep directory is written by hand (seat and win share), on the shipped
Seigneurial rules text (the decision loads it at both values), the two 3-player variants with the
same winners (as a count that does not read the goal plays them), the 4-player ones moving the
Seigneur from 10% to 4%.
"""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

N = 3000


def _sweep_dir(tmp_path, players=(3, 4), goals=(8, 12), mode="grid"):
    from simcore.runner import rules_source

    text = rules_source("seigneurial", None, ()).text
    variants = []
    combos = [(p, g) for p in players for g in goals]
    if mode == "one-at-a-time":            # players moves at goal 8, the goal at players 3
        combos = [(players[0], goals[0]), (players[1], goals[0]), (players[0], goals[1])]
    for i, (p, g) in enumerate(combos):
        vid = f"v{i:03d}"
        variants.append({"id": vid, "label": f"players={p}, track.goal.4={g}",
                         "values": {"players": p, "track.goal.4": g}})
        d = tmp_path / "sw" / "variants" / vid
        d.mkdir(parents=True)
        (d / "run.json").write_text(json.dumps({
            "game": "seigneurial", "players": p, "games": N, "seed": 0,
            "rules_name": f"rules.toml with --set track.goal.4={g}"}))
        u = np.random.default_rng(7).random(N)          # the same draws in every variant
        rest = np.random.default_rng(8).integers(1, p, size=N)
        seigneur = 0.10 if (p == 3 or g == 8) else 0.04
        winners = np.where(u < seigneur, 0, rest)
        w = np.zeros((N, p))
        w[np.arange(N), winners] = 1.0
        pq.write_table(pa.table({"seat": np.tile(np.arange(p), N), "win_share": w.ravel()}),
                       d / "players.parquet")
    sweep = {"format": 1, "kind": "sweep", "game": "seigneurial", "players": None, "games": N,
             "seed": 0, "rules_name": "rules.toml", "rules_text": text, "settings": [],
             "strategies": None, "mode": mode, "variants": variants,
             **({"held": "base"} if mode == "one-at-a-time" else {}),
             "varies": [{"text": f"players={list(players)}", "name": "players", "kind": "list",
                         "values": list(players)},
                        {"text": f"track.goal.4={list(goals)}", "name": "track.goal.4", "kind": "list",
                         "values": list(goals)}]}
    (tmp_path / "sw" / "sweep.json").write_text(json.dumps(sweep))
    return tmp_path / "sw"


@pytest.fixture(scope="module")
def grid(tmp_path_factory):
    from analysis.sweep.metrics import sensitivity

    d = _sweep_dir(tmp_path_factory.mktemp("s62"))
    return d, sensitivity(d)


def test_s62_a_comparison_at_a_count_that_does_not_read_the_setting_is_marked(grid):
    _, s = grid
    goal = s.effects.filter(pl.col("parameter") == "track.goal.4")
    # held at players = 3 (its first value): not read there, whatever the (exactly 0) effect
    assert goal.height and not goal["read"].any() and set(goal["players"]) == {3}
    at4 = s.slice_effects.filter(pl.col("parameter") == "track.goal.4")
    assert at4.height and at4["read"].all() and set(at4["players"]) == {4}
    # a player count compared is always read, and has no one count
    moved = pl.concat([s.effects, s.slice_effects], how="diagonal_relaxed").filter(
        pl.col("parameter") == "players")
    assert moved.height and moved["read"].all() and moved["players"].is_null().all()


def test_s62_the_sentences_say_not_read_and_compare_no_slice_with_it(grid):
    from reports.sweep import sweep_sentences

    _, s = grid
    every = sweep_sentences(s.effects, slice_effects=s.slice_effects)
    k = next(i for i, x in enumerate(every) if x.startswith("Raising track.goal.4"))
    lines = every[k:k + 2]
    text = " ".join(lines)
    assert lines[0] == ("Raising track.goal.4 from 8 to 12 with players = 3 (its first value) changes "
                        "no game: not read at 3 players (the rules played are the same at both values)."), lines
    assert "beyond its noise" not in text, text
    # the effect where a count reads it, on its own: not "against 0.0 pp …, within noise, at players = 3"
    assert "At players = 4 the same change moves the Seigneur's win share by −" in text, text
    assert "against" not in lines[1] and "within noise, at players = 3" not in text, lines[1]


def test_s62_the_slice_sentence_leaves_unread_slices_out_of_its_count():
    """players = 3 (read: the anchor at 4), players = 5 not read … a goal of 5 players moved at
    3, 4 and 5 players with the sentences held at 5: the slices 3 and 4 do not read it."""
    from analysis.stats import LARGE, NOT_SHOWN
    from reports.sweep import sweep_sentences

    def row(at, players, read, delta, verdict):
        return {"parameter": "track.goal.5", "from": "10", "to": "14", "numeric": True, "rising": True,
                "at": at, "metric": "role_win_share_seigneur", "label": "the Seigneur's win share",
                "unit": "pp", "share": True, "delta": delta, "low": delta - 0.004 if delta else 0.0,
                "high": delta + 0.004 if delta else 0.0, "smallest": 0.01, "verdict": verdict,
                "same_as": None, "mirror": False, "read": read, "players": players}

    effects = pl.DataFrame([row("players = 5 (its last value)", 5, True, -0.03, LARGE)])
    slices = pl.DataFrame([row("players = 3", 3, False, 0.0, NOT_SHOWN),
                           row("players = 4", 4, False, 0.0, NOT_SHOWN)])
    last = sweep_sentences(effects, slice_effects=slices)[-1]
    # no read slice is left: the sentence does not say "the same verdict at the other values"
    assert "same verdict" not in last and "against" not in last, last
    assert last == ("At the other values of the other parameters the same change of track.goal.5 is "
                    "not read: not read at 3 and 4 players (players = 3; players = 4: the same games "
                    "at both values)."), last


def test_s62_the_tables_say_not_read_at_3_players(grid):
    from reports.sweep import effects_table

    _, s = grid
    t = effects_table(s.effects).filter(pl.col("parameter") == "track.goal.4")
    assert set(t["verdict"]) == {"not read at 3 players: the same games at both values"}, t["verdict"]
    t = effects_table(s.slice_effects).filter(pl.col("parameter") == "track.goal.4")
    assert "not read" not in " ".join(t["verdict"].to_list())


def test_s62_the_lead_does_not_say_the_setting_moves_nothing(grid):
    """The sides' answer for track.goal.4 held at 3 players said its share "does not change by more
    than the 1 pp that matters" across every value tried; the idle sentence must not call the goal
    a setting that "does not act in these games" (it acts at 4 players)."""
    from reports.sweep import idle_sentences, not_read_sentences, which_value_sentences

    d, s = grid
    lead = idle_sentences(s, "", d) + which_value_sentences(s, d)
    text = " ".join(lead)
    assert "What players with track.goal.4 = 8 (its first value) does to the sides" in text, text
    assert "What track.goal.4 with" not in text and "does not act" not in text, text
    assert not_read_sentences(s) == [
        "track.goal.4 with players = 3 (its first value): not read at 3 players, so every value "
        "tried plays the same games there and nothing of it is measured at that count; where a "
        "count reads it (players = 4), its effects are in the table \"Effects at the other values "
        "of the other parameters\"."], not_read_sentences(s)


def test_s62_a_one_at_a_time_sweep_held_at_a_count_that_does_not_read_it(tmp_path):
    """One at a time, the goal moves at players 3 only: no slice reads it, and the page says so
    rather than "moves no headline metric beyond its noise"."""
    from analysis.sweep.metrics import sensitivity
    from reports.sweep import not_read_sentences, sweep_sentences

    s = sensitivity(_sweep_dir(tmp_path, mode="one-at-a-time"))
    lines = [x for x in sweep_sentences(s.effects, slice_effects=s.slice_effects)
             if x.startswith("Raising track.goal.4")]
    assert lines == ["Raising track.goal.4 from 8 to 12 with players = 3 (its first value) changes no "
                     "game: not read at 3 players (the rules played are the same at both values)."], lines
    assert not_read_sentences(s) == [
        "track.goal.4 with players = 3 (its first value): not read at 3 players, so every value "
        "tried plays the same games there and nothing of it is measured at that count; this sweep "
        "compares its values at no count that reads it (sweep it with --players at a count that "
        "reads it)."], not_read_sentences(s)
