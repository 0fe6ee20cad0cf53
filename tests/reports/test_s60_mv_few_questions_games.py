"""Review s60 #3: ``balance report RUN --questions-games 5`` led with "cannot rule out an advantage
of up to +87.8 pp at 3 players (−34.5 to +87.8 pp)" (a win share of 121%: a normal interval
around 3 of 5 games) and its first-player table printed "z = nan" for a seat that won none. A
share's interval now stays within 0–100% (Wilson's, at the Bonferroni level over the player
counts, minus the fair share: the interval the seat tables give a share), an empty z is left
blank, and a player count played with fewer than :data:`analysis.guilds.MIN_COUNT` games (the
number under which a before/after "cannot tell") is "too few games to say": not in the Holm
family, no verdict, no reach. Synthetic tables shaped as the questions write them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl

from analysis import stats
from analysis.guilds import MIN_COUNT
from reports.games import medievallons as M
from reports.questions import Questions

# the review's 5 games per count (balance report runs/mv --questions-games 5): Seat 1 won 2 of 5
# at 2 players, 3 of 5 at 3 players (Seat 3 none: z = nan), 2 of 5 at 5 players
FIVE = {2: (0.4, 0.6), 3: (0.6, 0.4, 0.0), 5: (0.4, 0.0, 0.2, 0.2, 0.2)}


def _first_player(games: int, shares: dict[int, tuple[float, ...]]) -> pl.DataFrame:
    """The table ``first_player_advantage`` writes: one 0/1 win per game (no shared win), its
    standard error the per-game win share's (``z`` nan where it is 0)."""
    rows = []
    for players, by_seat in shares.items():
        for seat, p in enumerate(by_seat):
            se = (p * (1 - p) / (games - 1)) ** 0.5
            rows.append(dict(players=players, seat=seat, games=games, win_share=p, std_error=se,
                             fair=1 / players, advantage=p - 1 / players,
                             z=(p - 1 / players) / se if se > 0 else float("nan")))
    return pl.DataFrame(rows)


def _run_set(players=4):
    return SimpleNamespace(game="medievallons", label="mv", paths=(Path("runs/mv"),), n_players=players,
                           n_games=20000, metas=({"seed": 0, "strategies": ["balanced"] * players},))


def _lead(fp: pl.DataFrame) -> str:
    q = Questions(Path("q"), {"games": int(fp["games"][0]), "strategy": "balanced", "seed": 0},
                  {"first_player": fp}, played_here=True)
    fp = M.with_run_first_player(fp, {}, _run_set())
    return M.question_lead(q, _run_set(), fp, None)[0]


def test_five_games_a_count_are_too_few_to_say_and_no_interval_leaves_0_to_100_percent():
    lead = _lead(_first_player(5, FIVE))
    assert "87.8" not in lead and "cannot rule out" not in lead, lead
    assert "within noise" not in lead, lead
    assert (f"At 2, 3 and 5 players, too few games to say (5 games at each; at least {MIN_COUNT} needed: "
            f"more with `balance questions --games`, or `balance report --questions-games`).") in lead, lead


def test_each_count_with_too_few_games_says_so_and_leaves_the_holm_family():
    fp = M.with_run_first_player(_first_player(5, FIVE), {}, None)
    lines = M.first_player_sentences(fp)
    assert lines[1] == ("3 players: Seat 1 (plays first) wins 60.0% (23.1–95.2) (95%, unadjusted) against a "
                        f"fair 33.3%: +26.7 pp, too few games to say (5 games; at least {MIN_COUNT} needed)."), lines
    rows, verdicts = M.first_player_verdicts(fp)
    assert list(verdicts) == [stats.NOT_SHOWN] * 3
    # beside them, the run's own count is a family of one: no "Holm over the 1 player counts"
    own = M.with_run_first_player(_first_player(5, {**FIVE, 4: (0.253, 0.246, 0.249, 0.252)}), {}, None)
    own = own.with_columns(pl.when(pl.col("players") == 4).then(20000).otherwise(pl.col("games")).alias("games"))
    line = M.first_player_sentences(own)[2]
    assert line.startswith("4 players:") and line.endswith(", within noise (1 pp matters)."), line


def test_an_empty_z_is_left_blank_in_the_first_player_table():
    fp = M.with_run_first_player(_first_player(5, FIVE), {}, None)
    z = M._first_player_rows(fp)["z"].to_list()
    assert "nan" not in " ".join(z), z
    assert z[4] == "" and z[2] == "1.1", z         # 3 players: Seat 3 won none; Seat 1's z


def test_the_reach_is_read_on_wilsons_interval_at_the_bonferroni_level():
    """40 games at 2 players, Seat 1 winning 26 (65%): within noise after Holm over 3 counts, and
    its interval over the counts is Wilson's at 1 − 0.05/3 minus the fair 50%."""
    fp = _first_player(40, {2: (0.65, 0.35), 3: (0.35, 0.33, 0.32), 5: (0.2, 0.2, 0.2, 0.2, 0.2)})
    rows, verdicts = M.first_player_verdicts(fp)
    assert list(verdicts) == [stats.NOT_SHOWN] * 3
    words = M._reach_words(rows, [0, 1, 2], 0.01)
    lo, hi = (float(x) - 0.5 for x in stats.wilson(26, 40, 1 - 0.05 / 3))
    assert f"an advantage of up to +{100 * hi:.1f} pp at 2 players" in words, words
    assert f"(its interval over the player counts, −{100 * -lo:.1f} to +{100 * hi:.1f} pp)" in words, words


def test_no_reach_ends_past_what_a_share_can_be():
    """Seat 1's interval over the player counts lies within what a share can be, −fair to 1 − fair,
    whatever the shares (here every game won, or none, at the fewest games that are told: a normal
    interval around 3 wins in 5 games reached +87.8 pp at 3 players, a share of 121%); counts of
    too few games have none, and no reach is said on them."""
    extreme = _first_player(MIN_COUNT, {2: (1.0, 0.0), 3: (0.0, 0.5, 0.5), 5: (0.9, 0.1, 0.0, 0.0, 0.0)})
    rows = extreme.filter(pl.col("seat") == 0).sort("players")
    low, high = M.first_player_reach(rows)
    fair = rows["fair"].to_numpy()
    assert np.isfinite(low).all() and np.isfinite(high).all()
    assert (low >= -fair - 1e-12).all() and (high <= 1 - fair + 1e-12).all(), (low, high)
    assert high[0] == 0.5 and low[1] == -1 / 3          # every game won (none): the interval ends there
    five = _first_player(5, FIVE).filter(pl.col("seat") == 0).sort("players")
    assert np.isnan(M.first_player_reach(five)[1]).all()
    assert M._reach_words(five, [0, 1, 2], 0.01) == ""
