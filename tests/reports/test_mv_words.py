"""The Médiévallons single-run report's words say what their numbers hold (revA findings 1-7, 12):
one answer per question on a page, the types a ranking leaves out named, no "weakest" seat among
seats within noise, no within-noise change worded as a finding, intervals that do not print as
touching their estimate. Synthetic tables, so each test runs in well under a second."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import polars as pl

from analysis import stats
from reports import glossary
from reports.games import medievallons as M
from reports.sections import replay_line
from reports.text import pct_ci, seat_headlines

NOISE = stats.NOT_SHOWN


def _seats(verdicts=(NOISE,) * 4, shares=(0.251, 0.251, 0.247, 0.250), games=100_000):
    n = len(shares)
    return pl.DataFrame({
        "seat": np.arange(n, dtype=np.int8), "seat_label": [f"Seat {i + 1}" for i in range(n)],
        "games": [games] * n, "win_share": list(shares),
        "ci_low": [s - 0.0027 for s in shares], "ci_high": [s + 0.0027 for s in shares],
        "fair_share": [1 / n] * n, "diff": [s - 1 / n for s in shares],
        "win_share_sd": [0.43] * n, "verdict": list(verdicts), "smallest": [0.01] * n,
        "significant": [v != NOISE for v in verdicts]})


def _seat_tests():
    return pl.DataFrame({"chi2": [3.5], "dof": [3], "p_value": [0.319], "balance": [0.994],
                         "balance_low": [0.989], "balance_high": [0.999], "advantage_p1": [0.503],
                         "advantage_p1_low": [0.501], "advantage_p1_high": [0.505]})


def _run(tmp_path, strategies=("balanced",) * 4, n_games=100_000):
    (tmp_path / "players.parquet").write_bytes(b"")
    return SimpleNamespace(game="medievallons", paths=(tmp_path,), n_players=4, n_games=n_games,
                           metas=({"strategies": list(strategies), "seed": 3},), smallest=None)


def _first_player(games=10_000, by_count=((2, (0.57, 0.43)), (4, (0.2424, 0.2528, 0.2514, 0.2534)))):
    """A first-player table: per player count, each seat's win share over ``games`` games."""
    rows = []
    for players, shares in by_count:
        for seat, p in enumerate(shares):
            se = (p * (1 - p) / games) ** 0.5
            rows.append(dict(players=players, seat=seat, games=games, win_share=p, std_error=se,
                             fair=1 / players, advantage=p - 1 / players, z=(p - 1 / players) / se))
    return pl.DataFrame(rows)


# --- 1: the run's own numbers at its player count -------------------------------------------

def test_first_player_at_the_runs_player_count_is_the_runs_own_answer(tmp_path):
    """revA #1: the page gave Seat 1 24.2% (the run's first 10,000 games replayed) beside the seat
    table's 25.1% over 100,000. At the run's 4 players the sentence and table now read the run."""
    rs = _run(tmp_path)
    q = SimpleNamespace(meta={"strategy": "balanced"})
    assert M.run_measures_first_player(q, rs)
    fp = M.with_run_first_player(_first_player(), {"seats": _seats()}, rs)
    four = fp.filter(pl.col("players") == 4).sort("seat")
    assert four["from_run"].all() and (four["games"] == 100_000).all()
    assert four["win_share"][0] == 0.251
    lines = M.first_player_sentences(fp)
    line4 = next(x for x in lines if x.startswith("4 players"))
    assert "25.1% (24.8–25.4)" in line4 and "in the run itself (100,000 games" in line4
    assert "24.2" not in line4
    assert "in the run itself" not in next(x for x in lines if x.startswith("2 players"))
    rows = M._first_player_rows(fp)
    assert rows.filter(pl.col("Players") == 4)["From"].to_list() == ["the run itself"] * 4


def test_other_bots_than_the_runs_keep_the_played_rows(tmp_path):
    rs = _run(tmp_path, strategies=("balanced", "collector", "balanced", "balanced"))
    assert not M.run_measures_first_player(SimpleNamespace(meta={"strategy": "balanced"}), rs)
    fp = M.with_run_first_player(_first_player(), {}, rs)
    assert not fp["from_run"].any()
    assert "24.2%" in next(x for x in M.first_player_sentences(fp) if x.startswith("4 players"))


# --- 2 and 6: the types a ranking leaves out ------------------------------------------------

def _guild_types():
    cards = ["pretre", "rodeur", "bouffon"]
    return pl.DataFrame({
        "card": cards, "card_name": ["Prêtre", "Rôdeur", "Bouffon"],
        "players": [400_000] * 3,
        "founders": [120_000, 92_000, 135], "founded_share": [0.30, 0.231, 0.0003375],
        "founded_ci_low": [0.299, 0.230, 0.00028], "founded_ci_high": [0.301, 0.232, 0.0004],
        "mean_guilds": [0.45, 0.69, 0.0003],
        "founders_win_share": [0.354, 0.252, 0.626], "founders_ci_low": [0.352, 0.249, 0.542],
        "founders_ci_high": [0.357, 0.255, 0.703], "fair_share": [0.25] * 3,
        "others_win_share": [0.205, 0.249, 0.25], "others_ci_low": [0.204, 0.248, 0.249],
        "others_ci_high": [0.207, 0.251, 0.251], "diff": [0.149, 0.003, 0.376],
        "diff_low": [0.146, -0.001, 0.292], "diff_high": [0.152, 0.006, 0.453],
        # z: diff over the unpooled s.e. of the founders' and the others' shares at these counts
        "z": [94.47, 1.84, 9.03], "p_adjusted": [1e-9, 0.122, 1e-9], "significant": [True, False, True],
        "mean_powers": [0.51, 3.04, None]})


def test_guild_headlines_name_the_type_left_out_with_its_share_of_players():
    """revA #2: Bouffon founders win 62.6% ("significant") in the table, but the headline named
    Prêtre's 35.4% as the best without saying Bouffon was left out."""
    lines = M.guild_headlines({"guild_types": _guild_types()})
    assert "Prêtre" in lines[0] and "Rôdeur" in lines[1]
    assert "Bouffon (0.03% of players found one)" in lines[-1] and "too few players" in lines[-1]


def test_guild_table_marks_a_rare_type_too_few_players_and_a_powerless_one():
    """revA #2 and #6: the row read "yes (after Holm's correction)" and its powers cell was blank."""
    rows = M._guild_rows({"guild_types": _guild_types()})
    bouffon = rows.filter(pl.col("Card type") == "Bouffon").row(0, named=True)
    # review R: was "Significant"; review s49 #3: the family is the 2 types that rank, not 3
    verdict = "Verdict (Holm over the 2 types; 1 pp matters)"
    assert bouffon[verdict] == "too few players (0.03% found one)"
    assert bouffon["p (Holm-adjusted)"] == ""          # no test's p beside it (review U #15)
    assert bouffon["Powers used per player"] == "none (no power)"
    assert rows.filter(pl.col("Card type") == "Prêtre")[verdict][0] == "clear and large enough to matter"


def test_ablation_sentence_names_the_type_left_out():
    """revA #2: "for 0 of 12 types … not clearly for the other 12" with 13 types in the table."""
    n = 3
    ct = pl.DataFrame({
        "card": ["chevalier", "noble", "bouffon"], "founded_share": [0.346, 0.352, 0.0003],
        "founded_share_after": [0.312, 0.301, 0.0002], "copies_after": [7] * n,
        "founders_win_share": [0.265, 0.261, 0.6], "founders_std_error": [0.004, 0.004, 0.15],
        "founders_win_share_after": [0.255, 0.257, 0.3],
        "delta_founders_win_share": [-0.011, -0.004, -0.3], "delta_std_error": [0.0054, 0.0055, 0.22],
        "z": [-1.99, -0.74, -1.34], "delta_mean_turns": [0.5, 0.6, 0.4],
        "delta_turns_std_error": [0.25, 0.25, 0.25]})
    lines = M.ablation_sentences(ct, 0.01, 2.0)
    assert "of 2 types" in lines[0] and ("left out (founded by under 0.5% of the players or by fewer than 30 with either deck: too few "
                                        "players to say): Bouffon (0.03% of players found one with the full deck; 0.02% of players "
                                        "found one with one copy fewer).") in lines[0]
    assert lines[1].startswith("The largest change among those 2 types: with one Chevalier fewer")


# --- 3 and 4: seats within noise ------------------------------------------------------------

def test_no_weakest_seat_when_every_seat_is_within_noise(tmp_path):
    """revA #3: "seat 3 (the weakest)" beside "all within noise; p = 0.319"."""
    line = replay_line(_run(tmp_path), {"seats": _seats()})
    assert "the weakest" not in line and "To see why" not in line
    assert "seat 3 (lowest, within noise)" in line and "--find 'seat=3 loses max score'" in line


def test_a_flagged_lowest_seat_is_still_the_weakest(tmp_path):
    seats = _seats(verdicts=(stats.LARGE, NOISE, stats.LARGE, NOISE), shares=(0.28, 0.25, 0.22, 0.25))
    line = replay_line(_run(tmp_path), {"seats": seats})
    assert "To see why, look at a game seat 3 (the weakest) lost" in line


def test_headlines_give_only_the_summary_when_no_seat_is_flagged():
    """revA #4: four "… within noise" seat lines padded out the headlines before the summary."""
    out = seat_headlines({"seats": _seats(), "seat_tests": _seat_tests()})
    assert not any(x.startswith("Seat ") for x in out)
    # (Seat 3's gap as its own line and Figure 1's caption print it: 24.70% (24.43–24.97), −0.30 pp,
    # at two decimals so that its interval's end does not print as the fair 25.0%: review s61 #2)
    assert out[0].startswith("The seats' win shares differ from the fair 25.0% by at most 0.30 pp (Seat 3)")
    flagged = _seats(verdicts=(stats.LARGE, NOISE, stats.LARGE, NOISE), shares=(0.28, 0.25, 0.22, 0.25))
    assert sum(x.startswith("Seat ") for x in seat_headlines({"seats": flagged, "seat_tests": _seat_tests()})) == 4


# --- 5: rounding --------------------------------------------------------------------------------

def test_an_interval_never_prints_its_end_onto_the_estimate_or_onto_0_or_100():
    """revA #5: 385 shared wins in 100,000 games printed "0.4% (0.3–0.4)"; 10,000 of 10,000
    matches "100.0% (100.0–100.0)" (Wilson: 99.96–100)."""
    assert pct_ci(0.00385, 0.00349, 0.00425) == "0.39% (0.35–0.43)"
    lo, hi = stats.wilson(10_000, 10_000)
    assert pct_ci(1.0, float(lo), float(hi)) == "100.00% (99.96–100.00)"
    lo, hi = stats.wilson(9_993, 10_000)
    assert pct_ci(0.9993, float(lo), float(hi)) == "99.93% (99.86–99.97)"
    assert pct_ci(0.251, 0.249, 0.254) == "25.1% (24.9–25.4)"          # nothing to add
    assert pct_ci(0.0, 0.0, 0.00004) == "0.000% (0.000–0.004)"


# --- 12: the before/after guild caption -----------------------------------------------------------

def test_guild_comparison_caption_says_no_founded_share_moved_beyond_noise():
    """revA #12: "the founded share moves most for Sorcière: 41.9% → 41.8%" for a change within
    noise; now worded by the comparison table's verdict."""
    t = {"guild_types": _guild_types(), "length": pl.DataFrame({"mean_turns": [54.7]})}
    v = {"guild_types": _guild_types(), "length": pl.DataFrame({"mean_turns": [54.6]})}
    cmp = pl.DataFrame({
        "metric": ["guild_founded_share", "guild_founded_share", "mean_turns"],
        "key": ["sorciere", "noble", "all"], "base": [0.4194, 0.3510, 54.75],
        "variant": [0.4183, 0.3509, 54.61], "diff": [-0.00115, -0.00007, -0.135],
        "verdict": [NOISE, NOISE, NOISE]})
    text = M._guild_comparison_caption(t, v, "mvb", cmp)
    assert "moves most" not in text
    assert ("no card type's founded share moved beyond noise (largest change: Sorcière, 41.9% → "
            "41.8% of players (−0.1 pp), within noise)") in text
    assert "54.7 → 54.6 player turns, within noise" in text
    clear = cmp.with_columns(pl.Series("verdict", [stats.SMALL, NOISE, NOISE]))
    assert "moves clearly for 1 of 2 card types: Sorcière" in M._guild_comparison_caption(t, v, "mvb", clear)
    # review N: a length the same in every paired game is untested (no verdict): said so, not ", ."
    same = cmp.with_columns(pl.Series("variant", [0.4183, 0.3509, 54.75]),
                            pl.Series("diff", [-0.00115, -0.00007, 0.0]),
                            pl.Series("verdict", [NOISE, NOISE, None], dtype=pl.String),
                            pl.Series("same_games", [None, None, 2000], dtype=pl.Int64))
    v_same = {**v, "length": pl.DataFrame({"mean_turns": [54.7]})}
    text = M._guild_comparison_caption(t, v_same, "mvb", same)
    assert "54.7 → 54.7 player turns, the same in every game (no game of the 2,000 differs)." in text, text


# --- 6: glossary ------------------------------------------------------------------------------------

def test_glossary_explains_mean_rank_with_ties_and_speaks_of_guilds():
    assert "mean rank" in glossary.used_terms(["Mean rank"])
    assert "share the better place" in glossary.TERMS["mean rank"]
    assert "founding guilds" in glossary.TERMS["association"]


# --- 7: the ablation figure's length panel ------------------------------------------------------

def test_ablation_length_bars_are_coloured_by_their_own_verdict():
    """revA #7: every length bar was green, so the clear removals the sentence counts could not be
    picked out."""
    from matplotlib.colors import to_hex

    from reports.figures import medievallons as F

    ct = pl.DataFrame({
        "card": ["rodeur", "noble"], "founded_share": [0.23, 0.35], "founders_std_error": [0.005, 0.004],
        "delta_founders_win_share": [-0.006, -0.004], "delta_std_error": [0.007, 0.0055],
        "delta_mean_turns": [-3.5, 0.1], "delta_turns_std_error": [0.25, 0.25]})
    fig = F.played_ablation(ct, {}, length_verdicts=M.length_verdict_map(ct, 2.0))
    colours = {to_hex(p.get_facecolor()) for p in fig.axes[1].patches}
    assert len(colours) == 2, colours
