"""Designer review O: the run pages' headline findings lead with what the page measured elsewhere.

- #1 Médiévallons: the headlines said the seats were balanced at the run's 4 players, while the
  played questions measured Seat 1 at 57.0% (56.0–58.0) at 2 players, +7.0 pp, clear and large
  enough to matter. In a before/after the questions are the baseline's, with its rules only.
- #5 Middle-Ages: the headlines gave coins and leader changes only; the cards that swing a seat's
  win share (clear and large enough to matter) were in a table further down.
- #10 Médiévallons: the card ablation figure drew 12 types while its game-length sentence tests 13.

The expected words are worked out here from the tables (scipy and statsmodels for Holm, Wilson and
Bonferroni), not taken from the sentence builders.
"""

from __future__ import annotations

import pytest
import json

import numpy as np
import polars as pl
import analysis_runs as runs
from scipy.stats import norm
from statsmodels.stats.proportion import proportion_confint

from analysis import analyse, open_runs, stats
from analysis.compare import compare_runs
from reports import glossary
from reports.questions import Questions
from reports.sections import build_sections
from reports.text import headlines, seat_headlines, verdict_words
from tests.reports.test_mv_words import _first_player

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

VERDICT_RANK = (stats.LARGE, stats.MAY_MATTER, stats.SMALL)      # the page's reading order


def _signed(x: float) -> str:
    """+7.0 / −2.4, as the pages print a signed number (typographic minus)."""
    return f"{x:+.1f}".replace("-", "−")


# --- #1: Médiévallons -----------------------------------------------------------------------------

def _mv_page(tmp_path, variant: bool = False):
    """A 300-game Médiévallons run (balanced bots), its first-player question played at 2, 3 and 4
    players (a stand-in table: 2 players 57.0%, 3 players near fair), and the sections of its run
    page, or of a before/after against a run with one Chevalier fewer."""
    base = runs.medievallons_run(tmp_path / "mv-a", 300, 4, seed=5)
    rs = open_runs([base])
    t = analyse(rs)
    meta = json.loads((base / "run.json").read_text(encoding="utf-8"))
    fp = _first_player(10_000, ((2, (0.57, 0.43)), (3, (0.338, 0.333, 0.329)),
                                (4, (0.25, 0.25, 0.25, 0.25))))
    q = Questions(tmp_path / "q", {"games": 10_000, "strategy": "balanced", "seed": meta["seed"],
                                   "players": [2, 3, 4], "rules_sha256": meta["rules_sha256"],
                                   "rules_name": meta["rules_name"]}, {"first_player": fp}, played_here=True)
    cmps, extra = [], {}
    if variant:
        other = runs.medievallons_run(tmp_path / "mv-b", 300, 4, seed=6, copies={"chevalier": 7})
        vrs = open_runs([other])
        vt = analyse(vrs)
        c = compare_runs(rs, vrs, t, vt)
        cmps, extra = [(vrs.label, c.table, vt)], {"variants": [vrs], "comparisons": [c]}
    secs, _ = build_sections(t, rs, cmps, q, **extra)
    return rs, meta, fp, secs


def _expected_first_player(rs, fp, players, multipletests) -> dict[int, str]:
    """count → what the page must say of Seat 1 there: "<count> players: Seat 1 (plays first) wins
    p% (Wilson) … +x pp, <verdict>", for each count clear after Holm over the counts (the run's own
    4 players read from its players.parquet), sized on the Bonferroni interval over them."""
    w = players.filter(pl.col("seat") == 0)["win_share"].to_numpy().astype(float)
    z4 = (w.mean() - 0.25) / (w.std(ddof=1) / np.sqrt(w.size))
    first = fp.filter(pl.col("seat") == 0).sort("players")
    z = np.array([z4 if p == rs.n_players else x for p, x in zip(first["players"], first["z"])])
    clear = multipletests(2 * norm.sf(np.abs(z)), method="holm")[0]
    q = norm.ppf(1 - 0.05 / (2 * first.height))
    out = {}
    for r, c in zip(first.iter_rows(named=True), clear):
        if not c or r["players"] == rs.n_players:
            continue
        lo, hi = proportion_confint(r["win_share"] * r["games"], r["games"], method="wilson")
        a = r["advantage"]
        # the size read on the Bonferroni interval, on the side of 0 the advantage is
        near, far = max(abs(a) - q * r["std_error"], 0.0), abs(a) + q * r["std_error"]
        size = ("clear and large enough to matter" if near >= 0.01 else
                "clear but small" if far < 0.01 else "clear, may matter")
        out[r["players"]] = (f"{r['players']} players: Seat 1 (plays first) wins {100 * r['win_share']:.1f}% "
                             f"({100 * lo:.1f}–{100 * hi:.1f}) (95%, unadjusted) against a fair "
                             f"{100 / r['players']:.1f}%: {_signed(100 * a)} pp, {size}")
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_mv_headlines_lead_with_the_played_first_player_advantage(tmp_path, multipletests):
    """#1: the first headline is the played question's clear answer at 2 players, with its win
    share, Wilson interval, advantage and verdict, the player counts it was measured at, and the
    rules it was played with (the baseline's, named by its SHA-256); a count within noise is not
    led with, and the section says each count once."""
    rs, meta, fp, secs = _mv_page(tmp_path)
    expected = _expected_first_player(rs, fp, pl.read_parquet(rs.paths[0] / "players.parquet"), multipletests)
    assert list(expected) == [2], expected                   # the table's one clear count
    # the run's own seat findings lead (a designer's first question), the played answer follows
    # them, still among the headline findings
    own_seats = set(seat_headlines(analyse(rs)))
    heads = secs[0].sentences
    k = max(i for i, x in enumerate(heads) if x in own_seats) + 1
    assert all(x in own_seats for x in heads[:k]) and k >= 1, heads[:k + 1]
    lead = heads[k]
    assert expected[2] in lead, (expected[2], lead)
    assert "clear and large enough to matter" in expected[2]
    assert "3 players: Seat 1" not in lead
    # the run's own count, and that the rulebook names another (review U #13), said once
    assert ("at 2 and 3 players (this run plays 4, answered by its seat findings; the rulebook names "
            "2-player play only, MV-1: 3 and 4 players are assumed counts)") in lead \
        and lead.count("2-player play only") == 1, lead
    assert f"the rules of the baseline run {rs.label} only (rules SHA-256 {meta['rules_sha256'][:12]}" in lead
    assert "Balance" not in glossary.used_terms([lead])      # (not Ludii's index: its hover read so)
    # the run's own seats come first: the lead is not instead of them
    assert secs[0].sentences[0] == headlines(analyse(rs), rs)[0]
    section = next(s for s in secs if s.id == "questions")
    assert section.sentences[0] == lead
    assert sum(x.count("2 players: Seat 1") for x in section.sentences) == 1
    assert sum(x.startswith("3 players: Seat 1") for x in section.sentences) == 1


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_mv_before_after_says_the_questions_are_the_baselines_rules_only(tmp_path):
    """#1, before/after: the questions section said "the run's rules (rules.toml)", a path the
    variant shares; it names the baseline run and its rules' SHA-256, not the variant's."""
    rs, meta, _, secs = _mv_page(tmp_path, variant=True)
    variant_sha = json.loads((tmp_path / "mv-b" / "run.json").read_text(encoding="utf-8"))["rules_sha256"]
    assert variant_sha != meta["rules_sha256"]
    baseline = next(s for s in secs if s.id == "headlines")
    assert baseline.title.startswith(f"Baseline ({rs.label})")
    section = next(s for s in secs if s.id == "questions")
    played = next(x for x in baseline.sentences if "The balance questions played" in x)
    for text in (played, section.intro):
        named = text[text.index(f"the rules of the baseline run {rs.label} only ("):]
        assert f"rules SHA-256 {meta['rules_sha256'][:12]}, as in the table of runs" in named[:200], text
        assert variant_sha[:12] not in text
    assert "no other run's rules were played" in section.intro


# --- #5: Middle-Ages ------------------------------------------------------------------------------

def _swings(weakest: int, other: int) -> pl.DataFrame:
    """A stand-in ``event_seats`` table (clear rows as the analysis words them): the largest swing
    clear and large enough to matter at ``other``, a larger one that only may matter, a larger one
    not clear at all, and the weakest seat's own swings."""
    rows = [  # card, seat, with, without, diff low, diff high, significant, verdict
        ("Alliance", other, 0.269, 0.243, 0.0204, 0.0327, True, stats.LARGE),
        ("Cérémonies dispendieuses", other, 0.231, 0.257, -0.0318, -0.0198, True, stats.LARGE),
        ("Peste noire", other, 0.210, 0.241, -0.0420, -0.0200, True, stats.MAY_MATTER),
        ("Retour triomphant", weakest, 0.080, 0.130, -0.1200, 0.0200, False, stats.NOT_SHOWN),
        ("Alliance", weakest, 0.104, 0.126, -0.0272, -0.0162, True, stats.LARGE),
        ("Invasion barbare", weakest, 0.102, 0.126, -0.0291, -0.0181, True, stats.LARGE),
    ]
    names = sorted({r[0] for r in rows})
    return pl.DataFrame([{
        "event": names.index(c), "event_name": c, "seat": s, "seat_label": f"Seat {s + 1}",
        "win_share_with": w, "with_ci_low": w - 0.005, "with_ci_high": w + 0.005,
        "win_share_without": wo, "without_ci_low": wo - 0.003, "without_ci_high": wo + 0.003,
        "diff": w - wo, "diff_low": lo, "diff_high": hi, "p_adjusted": 1e-6 if sig else 0.4,
        "significant": sig, "verdict": v} for c, s, w, wo, lo, hi, sig, v in rows],
        schema_overrides={"seat": pl.Int8})


def _swing_words(r: dict) -> str:
    return (f"{r['seat_label']} wins {100 * r['win_share_with']:.1f}% ({100 * r['with_ci_low']:.1f}–"
            f"{100 * r['with_ci_high']:.1f}) of the games where {r['event_name']} fires against "
            f"{100 * r['win_share_without']:.1f}% ({100 * r['without_ci_low']:.1f}–"
            f"{100 * r['without_ci_high']:.1f}) where it does not, {_signed(100 * r['diff'])} pp "
            f"({_signed(100 * r['diff_low'])} to {_signed(100 * r['diff_high'])} pp")


def _first_in_reading_order(es: pl.DataFrame) -> dict:
    clear = [r for r in es.iter_rows(named=True) if r["significant"]]
    return min(clear, key=lambda r: (VERDICT_RANK.index(r["verdict"]), -abs(r["diff"])))


def test_ma_headlines_lead_with_the_card_that_swings_a_seat_most(tmp_path):
    """#5: the page leads with the card whose swing of a seat's win share is the largest of those
    clear and large enough to matter (not a larger one that only may matter, nor one within
    noise), with its seat, win shares, change and interval as the card table prints them, the
    number of such swings, and the weakest seat's own largest swing."""
    from reports.games import middle_ages as M

    rs = open_runs([runs.synthetic_run(tmp_path / "ma", 200, 4, seed=1, seat_edge=3.0)])
    t = analyse(rs)
    seats = t["seats"].sort("win_share")
    weakest = seats.row(0, named=True)
    assert weakest["verdict"] != stats.NOT_SHOWN and weakest["diff"] < 0     # a clear weakest seat
    t["event_seats"] = es = _swings(weakest["seat"], int(seats["seat"][-1]))
    lines = headlines(t, rs)
    # the seat findings lead (the designer's first question); the card that swings a seat most
    # follows them, still among the headline findings
    k = next(i for i, x in enumerate(lines) if x.startswith("The event card that goes with"))
    from reports.text import lineup_note
    assert lines[:k] == lineup_note(t, rs) + seat_headlines(t), lines[:k]
    lines = lines[k:]
    top = _first_in_reading_order(es)
    assert (top["event_name"], top["verdict"]) == ("Alliance", stats.LARGE)
    assert lines[0].startswith(f"The event card that goes with the largest swing of a seat's win share, "
                               f"among the swings clear and large enough to matter, is {top['event_name']}: "
                               f"{_swing_words(top)}"), lines[0]
    large = int((es.filter("significant")["verdict"] == stats.LARGE).sum())
    assert f" {large} card-and-seat swings are clear and large enough to matter" in lines[0]
    own = _first_in_reading_order(es.filter(pl.col("seat") == weakest["seat"]))
    assert own["event_name"] == "Invasion barbare"
    assert lines[1].startswith(f"For {weakest['seat_label']}, the seat that wins least "
                               f"({100 * weakest['win_share']:.1f}% against a fair 25.0%)"), lines[1]
    assert f"goes with {own['event_name']}: {_swing_words(own)})." in lines[1]
    # its verdict in brackets, the sentence read as one ("the largest of its swings clear, may matter
    # goes with" did not parse)
    assert f"the largest of its clear swings ({verdict_words(own['verdict'])}) goes with" in lines[1], lines[1]
    # the card table prints the same change
    table = M._event_seat_rows(t, 0.01)
    cell = table.filter((pl.col("Event") == top["event_name"]) & (pl.col("Seat") == top["seat_label"]))
    shown = cell["Change (pp, 95% interval, unadjusted)"][0].replace("\u00a0", " ").removesuffix(")")
    assert shown in lines[0]


# --- #10: the ablation figure ---------------------------------------------------------------------

def test_the_ablation_figure_draws_every_type_its_length_sentence_tests():
    """#10: the length panel drew 12 types (a type founded by almost nobody left out with its win
    share) while its sentence said "Holm over the 13 types"."""
    from reports.figures import medievallons as F
    from reports.games import medievallons as M
    from tests.reports.test_mv_review_g import _card_table

    ct = _card_table()
    tested = ct.filter(pl.col("delta_mean_turns").is_finite() & (pl.col("delta_turns_std_error") > 0))
    fig = F.played_ablation(ct, M._ablation_verdict_map(ct, 0.01), length_verdicts=M.length_verdict_map(ct, 2.0))
    rows = [x.get_text() for x in fig.axes[0].get_yticklabels()]      # the panels share their rows
    assert sorted(rows) == sorted(F.card_name(c) for c in tested["card"])
    bars = [b for b in fig.axes[1].patches if np.isfinite(b.get_width())]
    assert len(bars) == tested.height
    assert f"(Holm over the {tested.height} types; 2 player turns matter)" in " ".join(M.length_sentences(ct, 2.0))
    note = " ".join(M._ablation_figure_note(ct))
    assert f"and the {tested.height} for game length (Bouffon: game length only" in note
