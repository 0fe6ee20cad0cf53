"""Seigneurial rules and bots as data: the shipped rules file (every [assumption] a setting with the
spec's default), validation (one line naming file and key), the run's tables (roles, winner role),
bots per role (a bot on a seat of another role is refused), bots that never read hidden values, the
per-role ladder, and the directional checks a designer expects (a higher goal square lowers the
Seigneur's win rate, a lower rent raises the Censitaires', a compensation start square raises the
Seigneur's). The directional checks run on a contested variant (harder objectives) where neither
side wins nearly always; their margins are many standard errors (numbers beside each assertion).
"""

from __future__ import annotations

import functools
import re

import numpy as np
import polars as pl
import pytest

from cli import _run
from simcore import runner
from simcore.errors import ConfigError, UsageError
from simcore.games.seigneurial import bots as B
from simcore.games.seigneurial import driver as D
from simcore.games.seigneurial import layout as L
from simcore.games.seigneurial import rules as R
from simcore.games.seigneurial.spec import SPEC
from strategies import seigneurial as S

TEXT = R.default_rules_path().read_text(encoding="utf-8")
HARD = re.sub(r"cards = \[.*?\n\]", "cards = [" + ", ".join(["{ grain = 8, wood = 8, fish = 8 }"] * 4)
              + "]", TEXT, flags=re.S)


def variant(*pairs, text=TEXT):
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


# ---------------------------------------------------------------------------------------------
# Rules as data
# ---------------------------------------------------------------------------------------------

def test_every_assumption_of_the_spec_is_a_setting_with_the_spec_default():
    r = R.load()
    assert r.allowed_players == (3, 4, 5)
    assert r.resource_counts[:, :5].tolist() == [[2, 8, 17, 5, 1]] * 3            # SG-1
    assert r.objectives.shape == (12, 3)                                             # SG-2
    assert r.censitaire_counts.tolist() == [9, 9, 9] and r.seigneur_counts.tolist() == [10, 10]
    assert (r.param(R.P_CC_HAND_LIMIT), r.param(R.P_CC_PLAY_LIMIT)) == (3, 2)        # SG-3
    assert r.seigneur_cards_per_year(4) == 4 and r.seigneur_cards_per_year(5) == 5
    assert (r.param(R.P_WINTER_PAYMENT), r.param(R.P_SICK_TURNS)) == (2, 2)          # SG-4
    assert (r.param(R.P_BONUS), r.param(R.P_FORCED_BEFORE), r.param(R.P_FORCED_AFTER)) == (1, 1, 2)
    assert r.param(R.P_FAVOUR_DISTRIBUTION) == 1 and r.param(R.P_FAVOUR_PER_CARD) == 2
    assert (r.param(R.P_CHURCH_CAP), r.param(R.P_MILL_CAP), r.param(R.P_PAWNS)) == (0, 0, 2)
    assert r.max_turns == 200                                                        # SG-6
    assert r.param(R.P_START_SQUARE) == 0 and [r.start_cards(s) for s in (1, 2, 3, 4)] == [0] * 4
    assert TEXT.count("[assumption]") >= 6


@pytest.mark.parametrize("pairs,key,problem", [
    ((("pawns = 2", "pawnz = 2"),), "censitaires.pawnz", "unknown key"),
    ((("troc = 9", 'troc = "nine"'),), "censitaire_cards.troc", "must be an integer"),
    ((("goal = { 3 = 8, 4 = 10", "goal = { 3 = 8, 4 = 5"),), "track.midpoint.4", "below the goal"),
    ((("start_square = 0", "start_square = 5"),), "track.start_square", "below the midpoint"),
    ((("start_cards = 0", "start_cards = [1, 2]"),), "resources.start_cards", "one entry per"),
    ((("start_cards = 0", "start_cards = -1"),), "resources.start_cards", "must be >= 0"),
    ((("values = { 0 = 2,", "values = { 9 = 1, 0 = 2,"),), "resources.values.9", "values are whole numbers"),
    ((('when_rent_met = "distribution"', 'when_rent_met = "both"'),), "favour.when_rent_met", "must be one of"),
    ((('per_year = "players"', 'per_year = "seasons"'),), "seigneur_cards.per_year", "must be a number of cards from 1 to 10, or \"players\""),
    ((("payment = 2", "payment = 4"),), "winter.payment", "must be <= 3"),
    ((("max_turns = 200", "max_turns = 0"),), "end.max_turns", "must be >= 1"),
    ((("allowed = [3, 4, 5]", "allowed = [2, 3]"),), "players.allowed", "from 3 to 5"),
    ((("{ grain = 6, wood = 4 },", "{ grain = 6, wod = 4 },"),), "objectives.cards[0].wod", "unknown key"),
])
def test_config_mistakes_name_file_key_and_problem(pairs, key, problem):
    with pytest.raises(ConfigError) as exc:
        R.loads(variant(*pairs), name="my.toml")
    msg = str(exc.value)
    assert msg.startswith("my.toml: ") and key in msg and problem in msg, msg
    assert "\n" not in msg


def test_the_track_is_checked_at_the_player_counts_the_rules_allow():
    """Review Y #13: a start square of 4 was refused because the 3-player midpoint is 4, though
    the rules (a tune's, played at 4 players only) allowed only 4 players. The track is checked at
    every count players.allowed lists, and the refusal names them."""
    only4 = variant(("allowed = [3, 4, 5]", "allowed = [4]"), ("start_square = 0", "start_square = 4"))
    r = R.loads(only4, name="my.toml")
    assert r.param(R.P_START_SQUARE) == 4 and r.allowed_players == (4,)
    with pytest.raises(ConfigError) as exc:
        R.loads(variant(("start_square = 0", "start_square = 4")), name="my.toml")
    assert str(exc.value) == ("my.toml: track.start_square: 4 must be below the midpoint (4 at 3 players, "
                              "a count players.allowed lists: 3, 4, 5; the rules must hold at every "
                              "count they allow: a start square below 4, track.midpoint.3 above 4, "
                              "or players.allowed without 3 (e.g. --set 'players.allowed=[4, 5]'))"), \
        str(exc.value)


def test_a_bad_rules_file_stops_the_cli_before_playing(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text(variant(("bonus = 1", "bonus = 9")), encoding="utf-8")
    assert _run(["simulate", "--game", "seigneurial", "--rules", str(bad), "--games", "10",
                 "--out", str(tmp_path / "x"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "improvements.bonus" in err
    assert not (tmp_path / "x").exists()


# ---------------------------------------------------------------------------------------------
# The run's tables (SG-8)
# ---------------------------------------------------------------------------------------------

def test_run_tables_carry_roles_winner_role_and_improvement_turn(tmp_path):
    out = tmp_path / "run"
    assert _run(["simulate", "--game", "seigneurial", "--games", "2000", "--players", "5",
                 "--seed", "2", "--out", str(out), "--quiet"]) == 0
    p = pl.read_parquet(out / "players.parquet")
    g = pl.read_parquet(out / "games.parquet")
    assert p.filter(pl.col("seat") == 0)["role"].unique().to_list() == ["seigneur"]
    assert p.filter(pl.col("seat") > 0)["role"].unique().to_list() == ["censitaire"]
    sei = p.filter(pl.col("seat") == 0)
    assert (sei["objective"] == -1).all() and (sei["grain"] + sei["wood"] + sei["fish"] == 0).all()
    assert (p.filter(pl.col("seat") > 0)["objective"].is_between(0, 11)).all()
    # the winner role agrees with the end reason and the winning seat
    codes = dict(zip(g["end_reason"].to_list(), g["winner_role"].to_list()))
    assert {k: codes[k] for k in codes} == {k: ("censitaire", "seigneur", "censitaires", "seigneur")[k]
                                            for k in codes}
    assert (g.filter(pl.col("end_reason").is_in([1, 3]))["winning_seat"] == 0).all()
    assert (g.filter(pl.col("end_reason") == 0)["winning_seat"] >= 1).all()
    wins = p.filter(pl.col("win_share") == 1).select("game", "seat").sort("game")
    joined = g.join(wins, on="game").filter(pl.col("winning_seat") != pl.col("seat"))
    assert joined.height == 0
    # improvements: exactly the games whose Seigneur reached the midpoint (6 at 5 players)
    assert ((g["improvement_turn"] >= 0) == (g["seigneur_square"] >= 6)).all()
    # a winner has 100% of its goal
    assert (p.filter(pl.col("win_share") == 1)["score"] == 100).all()


# ---------------------------------------------------------------------------------------------
# Bots per role (SG-7)
# ---------------------------------------------------------------------------------------------

def test_presets_cover_every_required_policy():
    found = S.presets()
    assert found["random"].roles == ("seigneur", "censitaire")
    assert {found[n].seigneur["rent"] for n in ("even-lord", "greedy-lord", "harsh-lord")} == \
        {"even", "most_held", "least_held"}
    assert found["objective"].censitaire["pay"] == "none" and found["objective"].censitaire["spare_objective"]
    assert found["dutiful"].censitaire["pay"] == "all"
    assert found["hoarder"].censitaire["reserve"] and found["hoarder"].censitaire["winter"] == "pay"
    assert SPEC.default_strategy == "standard" and set(found["standard"].roles) == {"seigneur", "censitaire"}
    for name in ("even-lord", "greedy-lord", "harsh-lord"):
        assert found[name].roles == ("seigneur",)
    for name in ("fair-share", "objective", "dutiful", "hoarder"):
        assert found[name].roles == ("censitaire",)


@pytest.mark.parametrize("lineup,seat", [("even-lord", 2), ("objective,objective,objective,objective", 1),
                                         ("random,fair-share,harsh-lord,random", 3)])
def test_a_bot_on_a_seat_of_another_role_is_refused_with_one_line(lineup, seat, tmp_path, capsys):
    with pytest.raises(UsageError, match=f"seat {seat} is a"):
        S.resolve(lineup, 4)
    assert _run(["simulate", "--game", "seigneurial", "--strategies", lineup, "--games", "10",
                 "--out", str(tmp_path / "x"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"seat {seat}" in err and not (tmp_path / "x").exists()


def test_designer_bot_in_toml_and_its_mistakes(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('[lord]\nkind = "policy"\nseigneur = { rent = "least_held", corvee = "never" }\n'
                 '[both]\nkind = "policy"\nseigneur = {}\ncensitaire = { pay = "all", church = 3 }\n',
                 encoding="utf-8")
    names, rows = S.resolve(f"{f}:lord,{f}:both,{f}:both", 3)
    assert rows[0, L.S_RENT] == 2 and rows[0, L.S_CORVEE] == 0 and rows[1, L.S_PAY] == 2
    assert rows[1, L.S_CHURCH] == 3.0
    bad = tmp_path / "bad.toml"
    bad.write_text('[x]\nkind = "policy"\nseigneur = { rent = "fair" }\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="x.seigneur.rent: must be one of"):
        S.load_file(bad)
    bad.write_text('[x]\nkind = "policy"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="needs a seigneur table, a censitaire table or both"):
        S.load_file(bad)


def test_the_seigneurs_rent_choice_reads_card_counts_never_values():
    """SG-7: the Seigneur's forced draws are blind and hands are public in count only: change
    every card's value keeping each hand's cards per type, and his scores stay the same."""
    _, rows = S.resolve(["greedy-lord", "fair-share", "fair-share", "fair-share"], 4)
    ws, fs = D.new_workspace(R.load(), rows, 4)
    ws[L.W_PL + L.X_OBJ] = -1
    hands = {1: [(0, 1), (0, 3), (1, 2)], 2: [(2, 1), (2, 1)], 3: [(0, 2), (1, 4)]}
    for p, cards in hands.items():
        for t, v in cards:
            B.hand_add(ws, p, t, v, 1)
    other = ws.copy()
    for p, cards in hands.items():
        for t, v in cards:
            B.hand_add(other, p, t, v, -1)
            B.hand_add(other, p, t, 1 + (v % 3), 1)
    for w in (ws, other):
        w[L.G_RENT], w[L.G_RENT + 1], w[L.G_RENT + 2] = 3, 0, 0
    sb = L.F_STRAT
    codes = [g * L.RENT_CODE + w for g in range(4) for w in range(4 - g)]
    a = [B.option_score(ws, fs, sb, L.D_RENT, 0, 4, c) for c in codes]
    b = [B.option_score(other, fs, sb, L.D_RENT, 0, 4, c) for c in codes]
    assert a == b and max(a) > min(a)
    for kind in (L.D_DRAW_ORDER, L.D_CORVEE_TARGET, L.D_FAVOUR):
        assert [B.option_score(ws, fs, sb, kind, 0, 4, q) for q in (1, 2, 3)] == \
            [B.option_score(other, fs, sb, kind, 0, 4, q) for q in (1, 2, 3)]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_policy_bots_beat_random_and_the_ladder_works_per_role(capsys):
    """Skill by role, through `balance ladder` and analysis.ladder.role_ladder: a policy Seigneur
    beats random Censitaires and loses to fair-share ones; a policy Censitaire among random ones
    wins far above the random seats' share, and the objective bot beats fair-share copies."""
    # the command's tables by role (their numbers are checked on role_ladder's cells below: 60
    # games a cell print the same tables as 600, 0.35 s of CPU less)
    assert _run(["ladder", "--game", "seigneurial", "--bots", "random,even-lord,objective,fair-share",
                 "--games", "60", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "Seigneur bot" in out and "Censitaire bot" in out
    from analysis import ladder as LD

    # 600 games a cell (was 1,200): the intervals' ends measured there, 0.94, 0.006, 0.94 and 0.42
    # (against 0.85, 0.1, 0.8 and the fair 0.33), stay far from the bounds; a bot playing as
    # random misses each by far
    cells = LD.role_ladder(["random", "even-lord", "objective", "fair-share"], 600, players=4,
                           game="seigneurial", roles_of=S.roles_of, lead_bot="even-lord")
    sei = {(c.bot, c.opponent): c for c in cells["seigneur"]}
    cen = {(c.bot, c.opponent): c for c in cells["censitaire"]}
    # (measured: even-lord 96% vs random Censitaires, < 1% vs fair-share)
    assert sei[("even-lord", "random")].ci_low > 0.85
    assert sei[("even-lord", "fair-share")].ci_high < 0.1
    # one objective Censitaire among random ones wins most games (measured ~95%); the random
    # seats' own share in all-random games is ~1% (the Seigneur wins the rest)
    c = cen[("objective", "random")]
    assert c.ci_low > 0.8 and c.fair < 0.1
    # and beats fair-share copies (measured ~48% against a fair 33%)
    c = cen[("objective", "fair-share")]
    assert c.ci_low > c.fair


# ---------------------------------------------------------------------------------------------
# Directional checks a designer expects
# ---------------------------------------------------------------------------------------------

# Games a side of a directional check: 2,000 where the effect is large (measured z at 2,000 games:
# 15.2 for the goal with standard bots, 7.7 and 25.1 for the rent, 20.5 for the compensation square;
# 26.4, 14.8, 41.8 and 34.2 at 6,000), so a setting that is ignored (z ~ 0) or pulls the wrong way
# still fails z > 5 by far; 6,000 for random bots, whose goal effect is small (z 5.7 at 6,000).
FEW, MANY = 2000, 6000


def _shares(text, lineup, games=MANY, players=4):
    """(Seigneur's, Censitaires') win share per game; the hard objectives' standard games, the base
    of three checks below, are played once."""
    return _played(text, tuple(lineup), games, players)


@functools.lru_cache(maxsize=None)
def _played(text, lineup, games, players):
    prep = runner.prepare("seigneurial", players=players, strategies=list(lineup),
                          rules_arrays=R.loads(text))
    w = runner.collect(prep, games=games, seed=3).win_shares(players)
    return w[:, 0], w[:, 1:].sum(axis=1)


def _z(a, b):
    return (a.mean() - b.mean()) / np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("lineup", [["standard"] * 4, ["random"] * 4])
def test_a_higher_goal_square_lowers_the_seigneurs_win_rate(lineup):
    base = HARD if lineup[1] != "random" else TEXT
    higher = variant(("goal = { 3 = 8, 4 = 10, 5 = 12 }", "goal = { 3 = 8, 4 = 12, 5 = 12 }"), text=base)
    games = FEW if lineup[1] != "random" else MANY
    a, _ = _shares(base, lineup, games)
    b, _ = _shares(higher, lineup, games)
    # measured (20,000 games): standard on hard objectives 55.7% -> 31.8%; random 93.4% -> 90.6%
    assert _z(a, b) > 5, (a.mean(), b.mean())


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_lower_rent_raises_the_censitaires_win_rate():
    lower = variant(("rent_before = { 3 = 2, 4 = 3, 5 = 4 }", "rent_before = { 3 = 2, 4 = 2, 5 = 4 }"),
                    ("rent_after = { 3 = 5, 4 = 7, 5 = 9 }", "rent_after = { 3 = 5, 4 = 5, 5 = 9 }"),
                    text=HARD)
    for lineup in (["standard"] * 4, ["even-lord"] + ["dutiful"] * 3):
        _, a = _shares(HARD, lineup, FEW)
        _, b = _shares(lower, lineup, FEW)
        # measured (20,000 games): standard 44.3% -> 57.9%, dutiful Censitaires 26.2% -> 61.6%
        assert _z(b, a) > 5, (lineup, a.mean(), b.mean())


def test_a_compensation_start_square_raises_the_seigneurs_win_rate():
    later = variant(("start_square = 0", "start_square = 2"), text=HARD)
    a, _ = _shares(HARD, ["standard"] * 4, FEW)
    b, _ = _shares(later, ["standard"] * 4, FEW)
    assert _z(b, a) > 5, (a.mean(), b.mean())
