"""SG-3 card ablation (``balance questions`` on a Seigneurial run, analysis.questions.seigneurial).

Checked against games played here another way: each card's rules made neutral through the rules
*text* (the settings a designer would type, read by the loader), played by the runner, and the mean
difference from the unchanged rules computed from those games' rows. The ablation builds its
neutral rules from the packed arrays instead, so a card mapped to the wrong setting, a seat off by
one or a sign flipped shows here."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest

from analysis.questions import seigneurial as Q
from simcore import runner
from simcore.games.seigneurial import rules as R

GAMES, SEED, P = 600, 11, 4
TEXT = R.default_rules_path().read_text(encoding="utf-8")
#: The settings a designer types to make each card do nothing (docs/seigneurial.md).
TYPED = {
    "recolte": [("recolte_draws = 1 ", "recolte_draws = 0 ")],
    "cachette": [("cachette_hides = true", "cachette_hides = false")],
    "troc": [("troc_discards = 1 ", "troc_discards = 0 "), ("troc_draws = 1 ", "troc_draws = 0 ")],
    "requisition": [("requisition_draws = 1 ", "requisition_draws = 0 ")],
    "corvee": [("corvee_discards = 1 ", "corvee_discards = 0 ")],
}


def _games(text: str):
    prep = runner.prepare("seigneurial", players=P, rules_arrays=R.loads(text), quiet=True)
    got = runner.collect(prep, games=GAMES, seed=SEED, threads=1, columns=("win_share", "score"),
                         statistics=False)
    return (np.asarray(got.players["win_share"], float).reshape(-1, P),
            np.asarray(got.players["score"], float).reshape(-1, P))


@pytest.fixture(scope="module")
def table():
    return Q.card_ablation(GAMES, players=P, seed=SEED, threads=1)


def test_each_cards_effect_is_the_games_with_it_minus_the_games_with_it_made_neutral_by_its_settings(table):
    w0, s0 = _games(TEXT)
    assert sorted(table["card"].unique()) == sorted(TYPED)
    for card, edits in TYPED.items():
        text = TEXT
        for old, new in edits:
            assert old in text
            text = text.replace(old, new, 1)
        w1, s1 = _games(text)
        rows = table.filter(pl.col("card") == card).sort("seat")
        assert rows["seat"].to_list() == list(range(P))
        assert np.allclose(rows["win_share_effect"].to_numpy(), (w0 - w1).mean(axis=0), atol=1e-12), card
        assert np.allclose(rows["score_effect"].to_numpy(), (s0 - s1).mean(axis=0), atol=1e-9), card
        assert np.allclose(rows["win_share_with"].to_numpy(), w0.mean(axis=0), atol=1e-12)
        assert np.allclose(rows["win_share_neutral"].to_numpy(), w1.mean(axis=0), atol=1e-12)
        changed = float((w0 != w1).any(axis=1).mean())
        assert rows["games_changed"].to_list() == [changed] * P, card
        # every interval holds its estimate; the Seigneur's row is the role balance: the
        # Censitaires together move by exactly the opposite (SG-6: a game's win shares sum to 1)
        assert (rows["win_share_effect_low"] <= rows["win_share_effect"]).all()
        assert (rows["win_share_effect"] <= rows["win_share_effect_high"]).all()
        assert abs(rows["win_share_effect"][0] + rows["win_share_effect"][1:].sum()) < 1e-12


def test_the_default_rules_measure_every_card_some_of_which_change_games(table):
    # (not a tautology of the code: a neutral card that changed nothing everywhere would be a
    # neutralisation that does not reach the kernel)
    moved = table.filter(pl.col("games_changed") > 0)["card"].unique().to_list()
    assert {"recolte", "corvee", "requisition"} <= set(moved), moved


def test_a_card_absent_or_already_neutral_is_left_out_with_why():
    rules = R.loads(TEXT.replace("requisition = 10", "requisition = 0").replace(
        "recolte_draws = 1 ", "recolte_draws = 0 "))
    why = Q.left_out(rules)
    assert set(why) == {"requisition", "recolte"}
    assert "not in the Seigneur deck" in why["requisition"] and "does nothing already" in why["recolte"]
    t = Q.card_ablation(120, players=3, seed=1, rules=rules, threads=1)
    assert set(t["card"]) == {"cachette", "troc", "corvee"} and t.height == 3 * 3


def test_the_command_writes_prints_and_the_report_shows_it(tmp_path):
    from in_process import balance

    run = tmp_path / "run"
    balance("simulate", "--game", "seigneurial", "--games", 300, "--seed", 2, "-q", "--out", run)
    done = balance("questions", run, "--out", tmp_path / "q", "--games", 300)
    assert "Card ablation (300 games per deck)" in done.stdout and "Récolte" in done.stdout
    said = " ".join(done.stdout.split())
    assert ("These effects hold for the line-up and player count played (4 players, standard at every "
            "seat; Seat 1 the Seigneur)") in said, said
    meta = json.loads((tmp_path / "q" / "run.json").read_text())
    assert meta["game"] == "seigneurial" and meta["games"] == 300 and meta["left_out"] == {}
    ab = pl.read_csv(tmp_path / "q" / "card_ablation.csv")
    assert ab.height == 5 * 4 and set(ab["seat"]) == {0, 1, 2, 3}
    from undrawn_figures import figures_undrawn

    # (figures 1x1 stand-ins: the page's words and files are read; the same Seigneurial figures are
    # drawn by test_the_reports_smallest_difference_words_the_ablation_and_its_kept_table)
    with figures_undrawn():
        rep = balance("report", run, "--questions", tmp_path / "q", "--out", tmp_path / "rep")
    html = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    assert "Cards: total effect on who wins (ablation)" in html
    assert "These effects hold for the line-up and player count played (4 players" in html
    assert (tmp_path / "rep" / "questions" / "card_ablation.csv").is_file(), rep.stdout


@pytest.mark.parametrize("args,words", [
    (("--games", 50), "--games 50: too few for the card ablation"),
])
def test_bad_input_is_one_line_and_exit_2_before_any_game(tmp_path, args, words):
    from in_process import balance

    run = tmp_path / "run"
    balance("simulate", "--game", "seigneurial", "--games", 100, "-q", "--out", run)
    done = balance("questions", run, "--out", tmp_path / "q", *args, check=False)
    assert done.returncode == 2 and words in done.stderr and not (tmp_path / "q").exists()


def test_rules_with_no_card_to_measure_are_refused(tmp_path):
    from in_process import balance

    rules = tmp_path / "r.toml"
    rules.write_text(TEXT.replace("recolte = 9\ncachette = 9\ntroc = 9", "recolte = 0\ncachette = 0\ntroc = 0")
                     .replace("requisition = 10\ncorvee = 10", "requisition = 0\ncorvee = 0"), encoding="utf-8")
    run = tmp_path / "run"
    balance("simulate", "--game", "seigneurial", "--rules", rules, "--games", 100, "-q", "--out", run)
    done = balance("questions", run, "--out", tmp_path / "q", "--games", 100, check=False)
    assert done.returncode == 2 and "no card to measure" in done.stderr, done.stderr


def _row(card, seat, effect, low, high, verdict, with_=0.005, changed=0.4, score=0.0):
    return {"card": card, "name": card.title(), "deck": "Censitaire", "neutral": f"{card}_x = 0",
            "seat": seat, "seat_label": f"Seat {seat + 1}", "role": "Seigneur" if seat == 0 else "Censitaire",
            "games_changed": changed, "win_share_with": with_, "win_share_neutral": with_ - effect,
            "win_share_effect": effect, "win_share_effect_low": low, "win_share_effect_high": high,
            "score_effect": score, "score_effect_low": score - 1, "score_effect_high": score + 1,
            "swing": abs(effect), "verdict": verdict, "score_verdict": "within noise"}


def test_the_sentences_say_the_direction_and_numbers_of_the_rows_beside_them():
    from reports.games.seigneurial import ablation_sentences

    ab = pl.DataFrame([
        _row("recolte", 0, -0.0128, -0.0189, -0.0066, "clear, may matter", changed=0.42),
        _row("recolte", 1, 0.0128, -0.01, 0.03, "within noise"),
        _row("corvee", 0, 0.0048, 0.0016, 0.0079, "clear but small"),
        _row("corvee", 1, -0.0048, -0.02, 0.01, "within noise"),
        _row("cachette", 0, 0.0, -0.0015, 0.0015, "within noise", changed=0.0),
        _row("cachette", 1, 0.0, -0.0015, 0.0015, "within noise", changed=0.0)])
    said = ablation_sentences(ab, 0.01, 2.0, 4000)
    assert said[0].startswith("With every card as it is, the Seigneur wins 0.50% of these games.")
    # from the neutral card to the card as it is, the change their printed difference (session 56)
    assert "Recolte (Censitaire card) lowers his win share by 1.28 pp (from 1.78% with it neutral to 0.50% with it" in said[0]
    assert "Corvee (Censitaire card) raises his win share by 0.48 pp" in said[0]
    assert "Cachette changed no game's result in these 4,000 games" in said[1]
    assert said[2].startswith("No card moves a Censitaire seat's win share clearly (intervals reach up to ±3.00 pp)")
    quiet = ab.with_columns(pl.lit("within noise").alias("verdict"))
    first = ablation_sentences(quiet, 0.01, 2.0, 4000)[0]
    assert "No card moves his win share clearly" in first
    assert "these games cannot rule out an effect of up to 1.89 pp" in first
    narrow = quiet.with_columns(pl.col("win_share_effect_low") / 4, pl.col("win_share_effect_high") / 4)
    assert "no card moves it by 1 pp or more (every interval within ±0.47 pp)" in ablation_sentences(
        narrow, 0.01, 2.0, 4000)[0]


def test_the_reports_smallest_difference_words_the_ablation_and_its_kept_table(tmp_path):
    from in_process import balance

    from analysis import stats

    run = tmp_path / "run"
    balance("simulate", "--game", "seigneurial", "--games", 2000, "--seed", 3, "-q", "--out", run)
    balance("questions", run, "--out", tmp_path / "q", "--games", 2000)
    balance("report", run, "--questions", tmp_path / "q", "--out", tmp_path / "rep",
            "--smallest-difference", "win_share=0.2pp")
    import re

    page = " ".join(re.sub(r"<[^>]+>", " ", (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")).split())
    assert "(0.2 pp of win share, 2 points of % of own goal)" in page
    kept = pl.read_csv(tmp_path / "rep" / "questions" / "card_ablation.csv")
    want = stats.practical(kept["win_share_effect"].to_numpy(), kept["win_share_effect_low"].to_numpy(),
                           kept["win_share_effect_high"].to_numpy(), 0.002)
    assert kept["verdict"].to_list() == ["within noise" if str(v) == stats.NOT_SHOWN else str(v) for v in want]
    played = pl.read_csv(tmp_path / "q" / "card_ablation.csv")      # (worded at 1 pp there)
    assert kept["verdict"].to_list() != played["verdict"].to_list()


def test_cards_not_measured_and_search_seats_are_said_where_the_summary_prints(tmp_path):
    from in_process import balance

    run = tmp_path / "run"
    # (100 games, the fewest the ablation takes: a search16 seat's games are what this costs, and
    # the words read do not depend on the count; 200 before)
    balance("simulate", "--game", "seigneurial", "--games", 100, "--seed", 4, "--strategies",
            "standard,search16,standard,standard", "--set", "censitaire_cards.cachette=0", "-q", "--out", run)
    done = balance("questions", run, "--out", tmp_path / "q", "--games", 100)
    text = " ".join(done.stdout.split())
    assert "Not measured: Cachette: not in the Censitaire deck (a count of 0)." in text
    assert "Seat 2 is a search bot: its playouts play the rules with the card made neutral" in text
    assert json.loads((tmp_path / "q" / "run.json").read_text())["search_seats"] == [1]


def test_a_panels_report_refuses_played_questions_in_one_line(tmp_path):
    from in_process import balance

    balance("simulate", "--game", "seigneurial", "--panel", "default", "--games", 200, "-q",
            "--out", tmp_path / "p")
    for extra in (["--play-questions"], ["--questions", tmp_path / "p"]):
        done = balance("report", tmp_path / "p", *extra, "--out", tmp_path / "r", check=False)
        assert done.returncode == 2 and "a panel's page shows no played balance questions" in done.stderr
        assert not (tmp_path / "r").exists()
