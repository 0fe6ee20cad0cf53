"""Designer review of ``balance questions``, ``balance replay`` and the questions sections:
inputs that are not what they claim to be are one line and exit code 2, and the sentences beside
the played questions say what their numbers hold (no overclaimed "swing", no interval of zero width
around a rate, no unadjusted maximum over the card types)."""

from __future__ import annotations

import json

import polars as pl

from cli import _run


def _one_line_error(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err, err
    return err


def _questions_dir(path, game="medievallons", players=(2, 3, 4, 5)):
    """A questions directory as `balance questions` writes it (run.json with command and files)."""
    path.mkdir()
    (path / "run.json").write_text(json.dumps({
        "game": game, "command": "questions", "for_run": "runs/x", "games": 200,
        "players": list(players) if isinstance(players, tuple) else players, "seed": 0,
        "rules_text": "", "files": []}), encoding="utf-8")
    return path


def test_replay_of_a_questions_directory_is_one_line(tmp_path, capsys):
    """`balance replay QDIR --game 1` on a questions directory: before, a TypeError traceback
    (Médiévallons) or a replay "checked" against nothing that exits 1 (Middle-Ages)."""
    q = _questions_dir(tmp_path / "q")
    assert _run(["replay", str(q), "--game", "1"]) == 2
    err = _one_line_error(capsys)
    assert "balance questions" in err and "not a run" in err


def test_questions_of_a_questions_directory_is_one_line(tmp_path, capsys):
    q = _questions_dir(tmp_path / "q")
    assert _run(["questions", str(q), "--out", str(tmp_path / "out")]) == 2
    err = _one_line_error(capsys)
    assert "balance questions" in err and "not a run" in err
    assert not (tmp_path / "out").exists()


def _ablation_dir(path, run_meta: dict, **over):
    """A Middle-Ages questions directory (event_ablation.csv by hand) for ``run_meta``'s run, with
    ``over`` changing what it was played for."""
    path.mkdir()
    players = int(over.get("players", run_meta["players"]))
    rows = [{"event": e, "name": f"card {e}", "seat": s, "fires": 0.27,
             "win_share_effect": eff, "win_share_effect_low": eff - 0.004,
             "win_share_effect_high": eff + 0.004, "score_effect": 1.0, "score_effect_low": 0.5,
             "score_effect_high": 1.5, "swing": 0.003, "verdict": "not shown",
             "score_verdict": "clear but small"}
            for e, eff in ((0, 0.003), (1, -0.002)) for s in range(players)]
    pl.DataFrame(rows).write_csv(path / "event_ablation.csv")
    meta = {"game": "middle-ages", "command": "questions", "for_run": "x", "games": 500,
            "players": run_meta["players"], "strategies": run_meta.get("strategies"),
            "seed": run_meta.get("seed", 0), "rules_sha256": run_meta.get("rules_sha256"),
            "smallest_difference": {"share": 0.01, "score": 2.0}, "files": ["event_ablation.csv"]}
    meta.update(over)
    (path / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    return path


def test_event_ablation_of_another_run_is_refused(tmp_path, capsys):
    """A 3-player (or other seed, other bots) ablation with the same rules was shown in a 4-player
    report as "the run's deals played again", with no Seat 4 column."""
    import analysis_runs as runs

    run = runs.synthetic_run(tmp_path / "run", 40, 4)
    meta = json.loads((run / "run.json").read_text())
    for name, over, word in (("p3", {"players": 3}, "player count 3 vs 4"),
                             ("seed", {"seed": int(meta.get("seed", 0)) + 1}, "seed"),
                             ("bots", {"strategies": ["random"] * 4}, "bots")):
        q = _ablation_dir(tmp_path / name, meta, **over)
        out = tmp_path / f"rep-{name}"
        assert _run(["report", str(run), "--out", str(out), "--questions", str(q)]) == 2, name
        err = _one_line_error(capsys)
        assert "played for another run" in err and word in err, err
        assert not out.exists()


def _ablation_questions(effects: dict[str, list[tuple[float, float, float]]]):
    """A Questions object holding an event ablation: card name → per seat (effect, low, high)."""
    from pathlib import Path

    from reports.questions import Questions

    rows = []
    for k, (name, seats) in enumerate(effects.items()):
        swing = max(abs(e) for e, _, _ in seats)
        for s, (e, lo, hi) in enumerate(seats):
            rows.append({"event": k, "name": name, "seat": s, "fires": 0.27, "win_share_effect": e,
                         "win_share_effect_low": lo, "win_share_effect_high": hi, "score_effect": 0.0,
                         "score_effect_low": -1.0, "score_effect_high": 1.0, "swing": swing,
                         "verdict": "", "score_verdict": ""})
    return Questions(Path("q"), {"games": 5000, "smallest_difference": {"share": 0.01, "score": 2.0}},
                     {"event_ablation": pl.DataFrame(rows)})


def test_no_card_is_said_to_move_who_wins_when_every_effect_is_within_noise():
    """Every interval holds 0: the page said "Invasion barbare moves who wins the most: +0.5 pp …
    (within noise)", a swing the numbers beside it do not show."""
    from reports.games import middle_ages as M

    q = _ablation_questions({"Invasion barbare": [(0.005, -0.004, 0.014), (-0.005, -0.014, 0.004)],
                             "Peste noire": [(0.003, -0.006, 0.012), (-0.003, -0.012, 0.006)]})
    text = " ".join(M._ablation_section(q).sentences)
    assert "moves who wins the most" not in text
    assert "No event card clearly moves who wins" in text and "within noise" in text


def test_the_largest_clear_effect_is_not_called_the_largest_effect():
    """A clear +0.7 pp next to a within-noise +0.9 pp: the clear one is the largest *clear* effect,
    not the card that "moves who wins the most" (the simultaneous intervals cannot rank them)."""
    from reports.games import middle_ages as M

    q = _ablation_questions({"Alliance": [(0.007, 0.001, 0.013), (-0.007, -0.013, -0.001)],
                             "Peste noire": [(0.009, -0.001, 0.019), (-0.009, -0.019, 0.001)]})
    first = M._ablation_section(q).sentences[0]
    assert "moves who wins the most" not in first
    assert first.startswith("The largest clear effect on who wins is Alliance's: +0.7 pp for Seat 1")
    # +0.1 to +1.3 pp reaches past the 1 pp that matters: real, but it may matter (the estimate
    # alone used to call it "clear but small")
    assert "(+0.1 to +1.3 pp, clear, may matter)" in first


def test_a_rate_of_every_match_won_keeps_an_interval():
    """balanced vs random wins all 4,000 best-of-3 matches: the page printed 100.0% (100.0–100.0), a
    certainty from ±1.96 × a standard error of 0. With no failure in n = 4,000 the 95% interval
    reaches down to about 1 − z²/(n + z²) = 99.90%."""
    from reports.games import medievallons as M

    b3 = pl.DataFrame([{"bot": "balanced", "opponent": "random", "matches": 4000,
                        "single_round_win_rate": 0.9995, "single_std_error": 0.00025,
                        "single_rounds": 8000, "as_first_player": 1.0, "as_second_player": 0.999,
                        "match_win_rate": 1.0, "match_std_error": 0.0, "mean_rounds": 2.0}])
    text = M.best_of_three_sentences(b3)[0]
    assert "(100.0–100.0)" not in text and "100.0% (99.9–100.0) of best-of-3 matches" in text
    table = M._best_of_three_rows(b3)
    assert table["Best of 3"][0] == "100.0% (99.9–100.0)"


def test_the_largest_change_of_game_length_is_adjusted_over_the_card_types():
    """Thirteen removals, one of them +2.5 turns (±2.2, unadjusted p ≈ 0.03): the page said "Game
    length moves most when a Marchand is removed: +2.5 turns (+0.3 to +4.7)", the maximum of 13
    unadjusted intervals. Holm over the 13 types (p ≈ 0.03 × 13) does not show it."""
    from reports.games import medievallons as M
    from simcore.games.medievallons.rules import CARD_TYPES

    rows = []
    for i, card in enumerate(CARD_TYPES):
        dt = 2.5 if card == "marchand" else 0.1 * (i % 3)
        rows.append({"card": card, "players": 4, "games": 4000, "founded_share": 0.3,
                     "founders_win_share": 0.3, "founders_std_error": 0.01, "others_win_share": 0.25,
                     "founders": 4800, "copies_after": 7, "founded_share_after": 0.28,
                     "founders_win_share_after": 0.3, "delta_founders_win_share": 0.0,
                     "delta_std_error": 0.01, "z": 0.0, "delta_mean_turns": dt,
                     "delta_turns_std_error": 1.1})
    text = " ".join(M.ablation_sentences(pl.DataFrame(rows)))
    assert "Game length moves most when" not in text
    assert "No removal of one card clearly changes game length" in text
    assert f"Holm over the {len(CARD_TYPES)} types" in text and "2 player turns matter" in text


def test_a_smallest_difference_the_questions_do_not_use_is_refused(tmp_path, capsys):
    """`balance questions MA_RUN --smallest-difference length=3` played 16 decks and ignored the
    length (the event ablation words win shares and coins only)."""
    import analysis_runs as runs

    run = runs.synthetic_run(tmp_path / "run", 50, 4)
    out = tmp_path / "q"
    assert _run(["questions", str(run), "--out", str(out), "--smallest-difference", "length=3"]) == 2
    err = _one_line_error(capsys)
    assert "length" in err and "win_share, score" in err
    assert not out.exists()


def test_the_seigneur_share_of_his_own_role_has_no_interval():
    """The Seigneur is his role's only seat, so he takes 100% of its wins by definition; the table
    showed "100.0% (95.5–100.0)", an uncertainty about a quantity that has none."""
    from reports.sections import role_seat_rows

    s = pl.DataFrame({
        "role": ["seigneur", "censitaire", "censitaire"], "role_label": ["Seigneur", "Censitaire", "Censitaire"],
        "seat_label": ["Seat 1", "Seat 2", "Seat 3"], "games": [1000] * 3,
        "win_share": [0.1, 0.44, 0.46], "ci_low": [0.08, 0.41, 0.43], "ci_high": [0.12, 0.47, 0.49],
        "share_of_role": [1.0, 0.49, 0.51], "share_low": [0.96, 0.46, 0.48],
        "share_high": [1.0, 0.52, 0.54], "equal_share": [1.0, 0.5, 0.5],
        "seat_p_value": [float("nan"), 0.5, 0.5], "p_value": [float("nan"), 0.5, 0.5]})
    col = role_seat_rows({"role_seats": s})["Share of the role's wins (95% interval, unadjusted)"]
    assert col[0] == "100% (its role's only seat)"
    assert col[1] == "49.0% (46.0–52.0)"


def test_the_terminal_words_verdicts_as_the_pages_do(capsys):
    """balance questions' terminal list of event cards said 'not shown' where the pages say
    'within noise' for the same card."""
    from cli.questions import _print_event_cards

    rows = [{"event": e, "name": f"card {e}", "seat": 0, "fires": 0.3, "win_share_effect": eff,
             "win_share_effect_low": eff - 0.004, "win_share_effect_high": eff + 0.004,
             "verdict": v}
            for e, eff, v in ((0, 0.003, "not shown"), (1, 0.02, "clear, may matter"))]
    _print_event_cards(pl.DataFrame(rows), {"smallest_difference": {"share": 0.01}})
    out = capsys.readouterr().out
    assert "card 0" in out and "within noise" in out and "not shown" not in out
    assert "clear, may matter" in out
