"""Verdict sentences on the pages other than a run's seats and a before/after, after the size of a
difference came to be read on its interval: the Middle-Ages event ablation, the Médiévallons card
ablation and its figure, the sweep and panel pages. Seen on real pages (a 20,000-game Middle-Ages
run with `balance questions` at 20,000 games per deck, a 4,000-game Médiévallons report with its
played questions, a sweep of income.palais.base, a panel of three line-ups) and pinned here on
small synthetic tables: every printed number on the side its verdict says, the verdicts in one
order (large, may matter, small, not shown), counts agreeing in number.
"""

from __future__ import annotations

import pytest
from pathlib import Path

import polars as pl

from analysis import stats
from reports.games import middle_ages as M

LARGE, MAY, SMALL = stats.LARGE, stats.MAY_MATTER, stats.SMALL


def _in_reading_order(text: str, quote: str = "") -> bool:
    """The three verdicts of a clear difference appear in ``text`` in reading order."""
    at = [text.find(f"{quote}{v}{quote}") for v in (LARGE, MAY, SMALL)]
    return all(a >= 0 for a in at) and at == sorted(at)


def _questions(effects: dict[str, list[tuple[float, float, float]]]):
    """An event ablation as `balance questions` writes it: card → per seat (effect, low, high)."""
    from reports.questions import Questions

    rows = [{"event": k, "name": name, "seat": s, "fires": 0.27, "win_share_effect": e,
             "win_share_effect_low": lo, "win_share_effect_high": hi, "score_effect": 0.0,
             "score_effect_low": -1.0, "score_effect_high": 1.0,
             "swing": max(abs(x) for x, _, _ in seats), "verdict": "", "score_verdict": ""}
            for k, (name, seats) in enumerate(effects.items()) for s, (e, lo, hi) in enumerate(seats)]
    return Questions(Path("q"), {"games": 20000, "smallest_difference": {"share": 0.01, "score": 2.0}},
                     {"event_ablation": pl.DataFrame(rows)})


def test_the_ablation_count_agrees_in_number_and_names_the_verdict_that_may_matter():
    """"0 of 15 event cards clearly move …; 1 more clearly move it and may do so by that much": a
    verb for many after a count of one, "more" after none, and the verdict unnamed."""
    s = M._ablation_section(_questions({"Alliance": [(0.0076, 0.0048, 0.0104)],
                                        "Peste noire": [(0.002, -0.004, 0.008)]}))
    assert s.sentences[1] == ("0 of 2 event cards clearly move some seat's win share by 1 pp or more averaged "
                              "over all games (clear "
                              "and large enough to matter: the whole interval); 1 clearly moves it and may do "
                              "so by that much (clear, may matter: these games cannot tell).")
    s = M._ablation_section(_questions({"Alliance": [(0.03, 0.02, 0.04)],
                                        "Peste noire": [(0.0076, 0.0048, 0.0104)]}))
    assert s.sentences[1].startswith("1 of 2 event cards clearly moves some seat's win share by 1 pp or more")
    assert "; 1 more clearly moves it" in s.sentences[1]
    assert _in_reading_order(s.intro, '"')


def test_an_ablation_effect_prints_its_interval_on_the_side_of_0_its_verdict_was_read_from():
    """"−0.1 (−0.3 to 0.0 pp), within noise" beside "−0.2 (−0.3 to 0.0 pp), clear but small" (a
    20,000-game Middle-Ages ablation): the same printed interval, two verdicts. An end that would
    print as 0.0 or as the 1 pp that matters gets a second decimal."""
    q = _questions({"Marchandises précieuses": [(-0.0012, -0.00263, 0.00011), (-0.0018, -0.00338, -0.00028)],
                    "Alliance": [(0.0076, 0.0048, 0.0104), (0.001, -0.004, 0.006)]})
    s = M._ablation_section(q)
    rows = {r["Event card"]: r for r in s.tables[0][1].iter_rows(named=True)}
    assert rows["Marchandises précieuses"]["Seat 1: win share (pp)"] == "−0.12 (−0.26 to +0.01 pp), within noise"
    assert rows["Marchandises précieuses"]["Seat 2: win share (pp)"] == "−0.18 (−0.34 to −0.03 pp), clear but small"
    assert rows["Alliance"]["Seat 1: win share (pp)"] == "+0.76 (+0.48 to +1.04 pp), clear, may matter"
    assert rows["Alliance"]["Seat 2: win share (pp)"] == "+0.1 (−0.4 to +0.6 pp), within noise"
    assert "+0.76 pp for Seat 1 (+0.48 to +1.04 pp, clear, may matter)" in s.sentences[0]


def test_the_game_length_sentence_names_the_removal_then_the_change():
    """"Game length moves most clearly with −3.7 turns (−4.7 to −2.7, 95%, unadjusted) when a
    Rôdeur is removed": the card came after its interval."""
    from reports.games import medievallons as M
    from simcore.games.medievallons.rules import CARD_TYPES

    rows = [{"card": card, "players": 4, "games": 2000, "founded_share": 0.3, "founders_win_share": 0.3,
             "founders_std_error": 0.01, "others_win_share": 0.25, "founders": 2400, "copies_after": 7,
             "founded_share_after": 0.28, "founders_win_share_after": 0.3, "delta_founders_win_share": 0.0,
             "delta_std_error": 0.01, "z": 0.0, "delta_mean_turns": -3.7 if card == "rodeur" else 0.1,
             "delta_turns_std_error": 0.5} for card in CARD_TYPES]
    line = M.length_sentences(pl.DataFrame(rows))[0]
    assert line.startswith("Game length moves most clearly when a Rôdeur is removed: −3.7 player turns (−4.7 to "
                           "−2.7, 95%, unadjusted), clear and large enough to matter (Holm over the"), line


def test_the_sweep_and_panel_introductions_list_the_verdicts_in_reading_order_and_by_name():
    """The panel introduction read large, small, then may matter; the sweep's called one "clear but
    may matter" (no such verdict) after the small ones."""
    from reports.panel import cells_intro
    from reports.sweep import effect_size_words

    effects = pl.DataFrame({"share": [True], "smallest": [0.01], "unit": ["pp"], "label": ["x"]})
    assert _in_reading_order(effect_size_words(effects), '"')
    assert "clear but may matter" not in effect_size_words(effects)
    assert _in_reading_order(cells_intro(0.01), "'")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_card_ablation_figure_keeps_its_colour_key_inside_the_figure():
    """The key "vermillion: clear and large enough to matter; reddish purple: clear, may matter;" in
    the axis label ran off the figure's left edge (the checklist's "cut off"); as swatches under
    the panels, in reading order, it fits."""
    from matplotlib.legend import Legend

    from reports.figures import medievallons as F
    from reports.figures.checklist import problems
    from simcore.games.medievallons.rules import CARD_TYPES

    ct = pl.DataFrame([{"card": card, "founded_share": 0.3, "founders_std_error": 0.01,
                        "delta_founders_win_share": 0.004 * (i - 6), "delta_std_error": 0.012,
                        "delta_mean_turns": 0.1 * (i - 6), "delta_turns_std_error": 0.5}
                       for i, card in enumerate(CARD_TYPES)])
    fig = F.played_ablation(ct, {CARD_TYPES[0]: LARGE, CARD_TYPES[1]: MAY, CARD_TYPES[2]: SMALL})
    assert problems(fig) == []
    key = [t.get_text() for lg in fig.findobj(Legend) for t in lg.get_texts()]
    assert key[:3] == [LARGE, MAY, SMALL] and key[3].startswith("within noise")


def test_sweep_numbers_print_the_typographic_minus_as_every_other_page():
    from reports.sweep import _share_text, _signed1, _unit_text

    assert _share_text(-0.012, -0.02, 0.004) == "−1.2 pp (−2.0 to +0.4)"
    assert _unit_text(-1.5, -2.25, -0.75, "coins") == "−1.50 coins (−2.25 to −0.75)"
    assert _signed1(-3.04) == "−3.0" and "-" not in _unit_text(-1, -2, -0.5, "turns")
