"""Designer review G of the Médiévallons questions: the card table's CSV and the printed summary in
the page's words, the card ablation's intervals labelled as each card's own, its before, after and
change that agree as printed, zoomed founders' axes that say so, card names with their article, a
type of one founder or none, a questions directory of another run refused in one line, and the
ablation's full-deck figures said to come from its own games. Synthetic tables (each test well
under a second) but for the one-line refusal, which plays a tiny run."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import polars as pl
import pytest

from analysis import stats
from reports.games import medievallons as M
from reports.questions import Questions
from simcore.errors import UsageError
from simcore.games.medievallons.rules import CARD_TYPES

Z = 1.959963984540054


def _card_table(games=2000, over: dict | None = None) -> pl.DataFrame:
    """13 card types at 4 players, every change small and within noise but ``over``'s (card →
    columns), the Bouffon founded by nobody with the full deck and by 4 players with one fewer."""
    rows = []
    for i, card in enumerate(CARD_TYPES):
        wf, d, se = 0.27 + 0.005 * (i % 4), 0.002 * ((i % 3) - 1), 0.0107
        row = dict(card=card, players=4, games=games, founded_share=0.33, founders_win_share=wf,
                   founders_std_error=0.0076, others_win_share=0.24, founders=2640, copies_after=7,
                   founded_share_after=0.29, founders_after=2320, founders_win_share_after=wf + d,
                   delta_founders_win_share=d, delta_std_error=se, z=d / se, delta_mean_turns=0.3,
                   delta_turns_std_error=0.55)
        if card == "bouffon":
            row.update(founded_share=0.0, founders_win_share=float("nan"), founders_std_error=float("nan"),
                       founders=0, founded_share_after=0.0005, founders_after=4,
                       founders_win_share_after=1.0, delta_founders_win_share=float("nan"),
                       delta_std_error=float("nan"), z=float("nan"))
        row.update((over or {}).get(card, {}))
        rows.append(row)
    return pl.DataFrame(rows)


CHEVALIER = {"chevalier": dict(founders_win_share=0.26764, founders_win_share_after=0.25234,
                               delta_founders_win_share=-0.0153, delta_std_error=0.00536,
                               z=-0.0153 / 0.00536)}


def _first_player(games=2000):
    from tests.reports.test_mv_words import _first_player as first_player_table

    return first_player_table(games, ((2, (0.565, 0.435)), (4, (0.262, 0.248, 0.254, 0.236))))


def _best_of_three():
    return pl.DataFrame([{"bot": "balanced", "opponent": "collector", "matches": 2000,
                          "single_round_win_rate": 0.639, "single_std_error": 0.0061, "single_rounds": 4000,
                          "as_first_player": 0.707, "as_second_player": 0.57, "match_win_rate": 0.705,
                          "match_std_error": 0.0102, "mean_rounds": 2.46}])


def _questions(ct=None) -> Questions:
    return Questions(Path("q"), {"games": 2000, "smallest_difference": {"share": 0.01}},
                     {"first_player": _first_player(), "card_types": _card_table() if ct is None else ct,
                      "best_of_three": _best_of_three()})


# --- 1: the CSV and the printed summary in the page's words ---------------------------------------

def test_the_card_tables_csv_verdicts_are_the_pages_words():
    """card_types.csv said "not shown" on every row, where the page says "within noise"."""
    from analysis.questions import medievallons as Q

    ct = Q.card_ablation_verdicts(_card_table(over=CHEVALIER))
    assert stats.NOT_SHOWN not in ct["verdict"].to_list()
    assert ct["verdict"].to_list() == M._card_verdicts(ct, 0.01)
    assert ct.filter(pl.col("card") == "bouffon")["verdict"][0] == "too few players to say"
    assert ct.filter(pl.col("card") == "chevalier")["verdict"][0] == "within noise"


@pytest.mark.parametrize("width", [80, 100])
def test_the_printed_summary_reads_in_designer_words_and_fits_the_terminal(width, capsys):
    """balance questions printed fractions (0.3472), standard errors and z, 0-based seats, the
    internal "not shown", and columns cut to "foun…" at 80 columns."""
    from cli.questions import _print_summary

    parts = M.printed_summary(_questions(_card_table(over=CHEVALIER)))
    _print_summary(parts, width=width)
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert max(len(x) for x in lines) <= width
    assert "…" not in out and "not shown" not in out and "std error" not in out
    assert "Seat 1" in out and "Seat 4" in out and "Seat 0" not in out
    assert "56.5% (54.3–58.7)" in out                      # a percentage with its interval
    assert "within noise" in out and "this card's alone" in out
    flat = re.sub(r"\s+", " ", out)
    for _, df, _ in parts:                                  # every cell printed whole (wrapped, not cut)
        for row in df.iter_rows():
            for cell in row:
                assert all(w in flat for w in str(cell).split()), (cell, width)


# --- 2 and 3: the ablation's interval is the card's own; its change agrees with before and after ---

def test_an_unadjusted_interval_clear_of_zero_beside_within_noise_says_it_is_the_cards_alone():
    """"with one Chevalier fewer … −1.5 pp (−2.6 to −0.5 pp): within noise": the interval excludes
    0 while Holm over 12 types does not call it clear."""
    ct = _card_table(over=CHEVALIER)
    line = next(x for x in M.ablation_sentences(ct, 0.01, 2.0) if x.startswith("The largest change"))
    assert "with one Chevalier fewer" in line
    assert "unadjusted" in line and "within noise (Holm over the 12 types; the interval shown is this card's alone)" in line
    header = [c for c in M._card_rows(ct).columns if c.startswith("Change (pp")]
    assert header == ["Change (pp; 95% interval, each card's alone: unadjusted)"]


def _numbers(text: str) -> list[float]:
    return [float(x.replace("−", "-")) for x in re.findall(r"[+−-]?\d+\.\d+", text)]


@pytest.mark.parametrize("before, after", [(0.26764, 0.25234), (0.23264, 0.25634)])
def test_the_ablation_change_is_after_minus_before_as_printed(before, after):
    """"Chevalier founders win 25.2% instead of 26.8%, −1.5 pp" (and Magicien 23.3% → 25.6%,
    +2.2 pp): the change printed was not the difference of the shares printed."""
    card = "chevalier" if before > after else "magicien"
    d = after - before
    ct = _card_table(over={card: dict(founders_win_share=before, founders_win_share_after=after,
                                      delta_founders_win_share=d, delta_std_error=0.0054, z=d / 0.0054)})
    line = next(x for x in M.ablation_sentences(ct, 0.01, 2.0) if x.startswith("The largest change"))
    m = re.search(r"win ([\d.]+)% instead of ([\d.]+)% .*?\), ([+−][\d.]+) pp", line)
    shown_after, shown_before, change = (float(x.replace("−", "-")) for x in m.groups())
    assert round(shown_after - shown_before, 6) == change, line
    row = M._card_rows(ct).filter(pl.col("Card type") == M.card_name(card)).row(0, named=True)
    b = _numbers(row["Founders' win share, full deck (its own 2,000 games)"])[0]
    a = _numbers(row["Founders' win share, one copy fewer"])[0]
    c = _numbers(row["Change (pp; 95% interval, each card's alone: unadjusted)"])[0]
    assert round(a - b, 6) == c, row


def test_the_ablation_figure_says_which_interval_its_whiskers_draw():
    """The figure coloured a bar "within noise" whose whisker did not reach 0, without saying the
    whisker is the card's own unadjusted interval."""
    from reports.figures import medievallons as F

    ct = _card_table(over=CHEVALIER)
    fig = F.played_ablation(ct, M._ablation_verdict_map(ct, 0.01), length_verdicts=M.length_verdict_map(ct, 2.0))
    assert "own 95% interval, unadjusted" in fig.axes[0].get_xlabel()
    keys = [t.get_text() for leg in fig.legends for t in leg.get_texts()]
    assert any(k.startswith("within noise") and "whisker may miss 0" in k for k in keys), keys
    note = " ".join(M._ablation_figure_note(ct))
    assert "own 95% interval (unadjusted)" in note and "Holm's correction over the 12 types" in note


# --- 4: zoomed founders' axes ------------------------------------------------------------------------

def _guilds(shift=0.0):
    cards = ["pretre", "etoile", "rodeur", "artisan"]
    wins = [0.352 + shift, 0.34, 0.247, 0.258]
    return pl.DataFrame({
        "card": cards, "card_name": [M.card_name(c) for c in cards], "founders": [12000] * 4,
        "founded_share": [0.30, 0.26, 0.24, 0.41], "founded_ci_low": [0.29, 0.25, 0.23, 0.40],
        "founded_ci_high": [0.31, 0.27, 0.25, 0.42], "mean_guilds": [0.45, 0.35, 0.7, 0.72],
        "founders_win_share": wins, "founders_ci_low": [w - 0.01 for w in wins],
        "founders_ci_high": [w + 0.01 for w in wins], "fair_share": [0.25] * 4,
        "others_win_share": [0.21, 0.22, 0.25, 0.244], "others_ci_low": [0.2] * 4, "others_ci_high": [0.26] * 4,
        "diff": [0.14, 0.12, 0.0, 0.014], "diff_low": [0.13, 0.11, -0.01, 0.002], "diff_high": [0.15, 0.13, 0.01, 0.026],
        "p_adjusted": [1e-9, 1e-9, 1.0, 0.1], "significant": [True, True, False, False],
        "mean_powers": [0.5, 0.33, 3.0, 1.1]})


def _says_zoomed_where_zoomed(ax) -> bool:
    lo, hi = sorted(ax.get_xlim())
    return not (lo > 0 and hi - lo < 0.5 * hi) or "zoomed" in (ax.get_xlabel() + ax.get_title()).lower()


def test_the_founders_win_share_axes_say_they_are_zoomed():
    """guild_types.png ran ~20% to 36% and comparison_guilds.png ~24% to 37% without "zoomed"
    (figure checklist rule 5)."""
    from reports.figures import medievallons as F

    fig = F.guild_types({"guild_types": _guilds()})
    lo, hi = sorted(fig.axes[0].get_xlim())
    assert lo > 0 and hi - lo < 0.5 * hi                    # the planted zoom
    assert "zoomed" in fig.axes[0].get_xlabel()
    cmp = F.guild_comparison({"guild_types": _guilds()}, {"guild_types": _guilds(0.01)}, "base", "variant")
    assert all(_says_zoomed_where_zoomed(ax) for ax in cmp.axes)
    assert "zoomed" in cmp.axes[0].get_xlabel()


# --- 5: articles, a type nobody founded, one founder --------------------------------------------

def test_card_names_take_the_article_their_first_letter_asks_for():
    """"a Étoile guild"."""
    assert [M.with_article(M.card_name(c)) for c in ("etoile", "artisan", "assassin", "pretre", "rodeur")] == [
        "an Étoile", "an Artisan", "an Assassin", "a Prêtre", "a Rôdeur"]
    g = _guilds().with_columns(pl.Series("founders_win_share", [0.33, 0.36, 0.247, 0.258]))
    assert M.guild_headlines({"guild_types": g})[0].startswith("Players who found an Étoile guild win most often")
    ct = _card_table(over={"etoile": dict(delta_mean_turns=3.5, delta_turns_std_error=0.3)})
    assert "when an Étoile is removed" in " ".join(M.length_sentences(ct, 2.0))


def test_a_type_nobody_founded_and_one_of_a_few_founders_say_so():
    """"Bouffon (0.0% of players found one)" for a type no player founded, and a founders' win
    share of "100.0%" with one copy fewer from a single founder."""
    ct = _card_table()
    line = M.ablation_sentences(ct, 0.01, 2.0)[0]
    assert "Bouffon (no founder with the full deck; 4 founders, 0.1% of players, with one copy fewer)" in line and "0.0% of players" not in line
    one = ct.with_columns(pl.when(pl.col("card") == "bouffon").then(1).otherwise(pl.col("founders_after"))
                          .alias("founders_after"))
    row = M._card_rows(one).filter(pl.col("Card type") == "Bouffon").row(0, named=True)
    assert row["Founders' win share, one copy fewer"] == "too few founders (1)"
    assert row["Founders' win share, full deck (its own 2,000 games)"] == "no founder"
    assert "100.0" not in " ".join(str(v) for v in row.values())


# --- 7: the ablation's full-deck figures come from its own games ---------------------------------

def test_the_ablation_says_its_full_deck_figures_are_its_own_games():
    """Prêtre founders 35.3% in the guild section (the run's games) and 35.2% in the ablation table
    (the questions' games), with nothing saying they are two samples."""
    ct = _card_table(over=CHEVALIER)
    assert "Founders' win share, full deck (its own 2,000 games)" in M._card_rows(ct).columns
    line = next(x for x in M.ablation_sentences(ct, 0.01, 2.0) if x.startswith("The largest change"))
    assert "with the full deck (each deck's own 2,000 games played here, not the run's)" in line


# --- 6: a questions directory of another run ------------------------------------------------------

def _run_set(players=4, sha="a" * 64, seed=0):
    meta = {"seed": seed, "created_utc": "2026-01-01T00:00:00Z",
            "integrity": {"files": {"games.parquet": {"sha256": sha}}}}
    return SimpleNamespace(game="medievallons", label="run4", paths=(Path("runs/run4"),), n_players=players,
                           n_games=5000, metas=(meta,))


def test_questions_of_another_player_count_or_run_are_refused_naming_both():
    q = Questions(Path("q3"), {"for_run": "runs/run3", "for_run_players": 3, "seed": 0,
                               "for_run_games_sha256": "a" * 64})
    with pytest.raises(UsageError) as e:
        M.check_questions(q, _run_set())
    assert "runs/run3 (3 players)" in str(e.value) and "run4 has 4 players" in str(e.value)
    other = Questions(Path("q"), {"for_run": "runs/other", "for_run_players": 4, "seed": 0,
                                  "for_run_games_sha256": "b" * 64})
    with pytest.raises(UsageError, match="played for another run .*runs/other.* than the baseline run run4"):
        M.check_questions(other, _run_set())
    old = Questions(Path("q"), {"for_run": "runs/x", "card_players": 4, "seed": 7})     # written before
    with pytest.raises(UsageError, match="seed 7"):
        M.check_questions(old, _run_set())
    M.check_questions(Questions(Path("q"), {"for_run": "runs/run4", "for_run_players": 4, "seed": 0,
                                            "for_run_games_sha256": "a" * 64}), _run_set())


def test_report_refuses_a_questions_directory_of_a_three_player_run_in_one_line(tmp_path, capsys):
    """`balance report RUN4 --questions Q3` (Q3 played for a 3-player run) was accepted and the
    page said "Card types at 3 players"."""
    import analysis_runs as runs
    from analysis.questions import medievallons as Q
    from cli import _run

    run4 = runs.medievallons_run(tmp_path / "run4", 40, 4, seed=0)
    run3 = tmp_path / "run3"            # a 3-player run of the same rules: only its run.json is read
    run3.mkdir()
    meta = json.loads((run4 / "run.json").read_text(encoding="utf-8"))
    meta.update(players=3, strategies=["balanced"] * 3, rules_text="")      # (nothing to play)
    (run3 / "run.json").write_text(json.dumps(meta), encoding="utf-8")
    q3 = Q.questions_for_run(run3, 10, tmp_path / "q3")
    out = tmp_path / "rep"
    assert _run(["report", str(run4), "--out", str(out), "--questions", str(q3)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "\n" not in err
    assert "(3 players)" in err and "has 4 players" in err and str(run3) in err
    assert not out.exists()



def test_balance_questions_prints_the_summary_in_the_pages_words(tmp_path, monkeypatch, capsys):
    """The command printed its tables raw (0-based seats, fractions, "not shown", "foun…"): it now
    prints the report hook's summary. (The played questions are stood in for by synthetic tables.)"""
    from analysis.questions import medievallons as Q
    from analysis.questions import write_dir
    from cli import _run

    run = tmp_path / "run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"game": "medievallons", "players": 4, "seed": 0}), encoding="utf-8")
    q = _questions(Q.card_ablation_verdicts(_card_table(over=CHEVALIER)))

    def play(run, games, out, **kw):
        return write_dir(out, q.tables, {"game": "medievallons", "command": "questions", "for_run": str(run),
                                         "games": 2000, "smallest_difference": {"share": 0.01}}, False)

    monkeypatch.setattr(Q, "questions_command", play)
    # (the stand-in run is run.json alone: the command's check of the run's files, made before any
    # game since review s50 questions #4, is not what this test is about)
    monkeypatch.setattr("cli.replay.check_run_directory", lambda run: None)
    monkeypatch.setenv("COLUMNS", "80")
    assert _run(["questions", str(run), "--out", str(tmp_path / "q")]) == 0
    out = capsys.readouterr().out
    out = out[:out.index("tables written to")]          # (that line names the path, however long)
    assert max(len(x) for x in out.splitlines()) <= 80 and "…" not in out and "not shown" not in out
    assert "Seat 1" in out and "Seat 0" not in out and "56.5% (54.3–58.7)" in out
    assert "within noise (Holm over the 12 types; the interval shown is this card's alone)" in re.sub(r"\s+", " ", out)


def test_the_figures_say_a_length_in_player_turns():
    """MV-3: a turn is one player's; the run page and the before/after say "player turns", and the
    guild comparison's title and the ablation's length axis said "turns" (session 41)."""
    from reports.figures import medievallons as F

    ct = _card_table(over=CHEVALIER)
    fig = F.played_ablation(ct, M._ablation_verdict_map(ct, 0.01), length_verdicts=M.length_verdict_map(ct, 2.0))
    lengths = [ax.get_xlabel() for ax in fig.axes if "length" in ax.get_xlabel()]
    assert lengths and all(x.endswith("(player turns)") for x in lengths), lengths
    length = pl.DataFrame({"mean_turns": [54.8]})
    cmp = F.guild_comparison({"guild_types": _guilds(), "length": length},
                             {"guild_types": _guilds(0.01), "length": length}, "base", "variant")
    assert cmp._suptitle.get_text().endswith("54.8 → 54.8 player turns"), cmp._suptitle.get_text()


def test_balance_questions_says_first_when_it_plays_other_bots_than_the_run():
    """A mixed run's questions are played by balanced bots at every seat: the terminal said
    nothing (the note was only in run.json; designer review 44, questions #3)."""
    from analysis.questions.medievallons import choose_strategy
    from cli.questions import other_bots_line
    _, why = choose_strategy({"strategies": ["collector", "balanced", "balanced", "balanced"]})
    assert other_bots_line({"strategy_note": why}) == (
        "Played with balanced bots at every seat (the run mixes collector, balanced; these questions "
        "need identical bots).")
    _, why = choose_strategy({"strategies": ["planner"] * 4})
    assert other_bots_line({"strategy_note": why}).startswith("Played with balanced bots at every seat (the run's planner")
    _, same = choose_strategy({"strategies": ["collector"] * 4})
    assert other_bots_line({"strategy_note": same}) is None and other_bots_line({}) is None
