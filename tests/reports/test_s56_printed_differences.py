"""Session 56 designer review: a change or difference printed beside two measured values is the
difference of the values as printed beside it (a gap from a reference share, the fair share or an
average, is the difference rounded since review s61 fix 258 #2: the first-player and objective
tests below), in every table and sentence that prints all three (the rule of
the before/after page, :func:`reports.text.with_page_digits`, :func:`simcore.numbers.fair_gap`).
Each test parses the printed text and checks printed change == printed after − printed before, on
numbers whose separate rounding broke it ("17.0% … 47.6%" beside a range of 30.5; "27.37% …
24.15%" beside +3.21 pp; "34.1% vs 33.3%, +0.7 pp"; "0.48% → 1.75%, −1.28 pp"). Synthetic tables:
no game is played."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl

from reports.games import medievallons as MV
from reports.games import middle_ages as MA
from reports.games import seigneurial as SG

from printed_numbers import NUM
from printed_numbers import adds_up as _adds_up
from printed_numbers import as_float as _f
from printed_numbers import decimals as _decimals
from printed_numbers import is_the_gap as _is_the_gap


# --- Middle-Ages: tile ranges (headline and table) --------------------------------------------------

def _tiles():
    # Rempart 17.049% at 0 tiles to 47.551% at 6: printed 17.0 and 47.6, a range of 30.502 printed
    # "30.5"; Marché 27.651% at 0 to 13.949% at 5: 27.7 and 13.9, a range of 13.702 printed "13.7"
    return pl.DataFrame({
        "tile": ["rempart", "marche"], "tile_name": ["Rempart", "Marché"], "slope": [0.05, -0.026],
        "slope_ci_low": [0.04, -0.027], "slope_ci_high": [0.06, -0.025], "slope_se_by": ["game"] * 2,
        "spread": [0.47551 - 0.17049, 0.27651 - 0.13949], "linear_fit": [0.6, 0.98],
        "low_tiles": [0, 5], "low_share": [0.17049, 0.13949], "low_ci_low": [0.165, 0.134],
        "low_ci_high": [0.176, 0.145], "high_tiles": [6, 0], "high_share": [0.47551, 0.27651],
        "high_ci_low": [0.466, 0.270], "high_ci_high": [0.485, 0.283],
        "mean_tiles": [2.1, 1.4], "winner_mean_tiles": [2.9, 1.1]})


def test_a_tile_types_range_in_the_headline_is_its_printed_highest_minus_its_printed_lowest():
    lines = MA.tile_headlines({"tile_summary": _tiles()})
    ranked = lines[1]
    found = re.findall(rf"(\w+) ({NUM}) pp \(({NUM})% at \d+ tiles? to ({NUM})% at \d+ tiles?\)", ranked)
    assert [x[0] for x in found] == ["Rempart", "Marché"], ranked
    for _, spread, first, last in found:
        lo, hi = sorted((first, last), key=_f)
        _adds_up(lo, hi, spread)


def test_a_tile_types_range_in_the_table_is_its_printed_highest_minus_its_printed_lowest():
    rows = MA._tile_rows({"tile_summary": _tiles()})
    for lo, hi, spread in zip(rows["Lowest win share (at tiles)"], rows["Highest win share (at tiles)"],
                              rows["Range (pp)"]):
        _adds_up(lo.split("%")[0], hi.split("%")[0], spread)


# --- Middle-Ages: the event cards' table and sentences ---------------------------------------------

def _event_seats(peste: bool = True):
    # Alliance, Seat 4: 27.366% where it fires against 24.154% where it does not (a change of
    # 3.212 pp) agrees at one decimal; Invasion at two, so the table prints at two: 27.37 and 24.15
    # beside "+3.21 pp". Peste: 27.3555% against 24.1444% (3.2111 pp) agrees at none of 1-3 decimals.
    def row(name, seat, w, wo, p=1e-6):
        return {"event_name": name, "seat_label": f"Seat {seat}", "seat": seat - 1, "event": len(name),
                "win_share_with": w, "with_ci_low": w - 0.0052, "with_ci_high": w + 0.0054,
                "win_share_without": wo, "without_ci_low": wo - 0.0031, "without_ci_high": wo + 0.0032,
                "diff": w - wo, "diff_low": w - wo - 0.0062, "diff_high": w - wo + 0.0062,
                "p_adjusted": p, "significant": True, "verdict": "clear and large enough to matter"}
    return pl.DataFrame([row("Alliance", 4, 0.27366, 0.24154), row("Invasion", 1, 0.18054, 0.20512)]
                        + ([row("Peste", 2, 0.273555, 0.241444)] if peste else []))


def test_the_event_seat_tables_change_is_the_printed_shares_difference():
    for peste in (False, True):        # the table at two decimals ("27.37% … 24.15%"), and at three
        _table_adds_up(MA._event_seat_rows({"event_seats": _event_seats(peste)}, 0.01))


def _table_adds_up(rows: pl.DataFrame) -> None:
    for w, wo, change in zip(rows["Win share when it fires"], rows["Win share when it does not"],
                             rows["Change (pp, 95% interval, unadjusted)"]):
        _adds_up(wo.split("%")[0], w.split("%")[0], change.split("\u00a0pp")[0])


def test_a_card_swing_sentence_says_a_change_its_two_printed_shares_add_up_to():
    for r in _event_seats().iter_rows(named=True):
        said = MA._swing_words(r)
        m = re.search(rf"wins ({NUM})% \(.*?\) of the games where \w+ fires against ({NUM})% \(.*?\) "
                      rf"where it does not, ({NUM}) pp", said)
        assert m, said
        _adds_up(m.group(2), m.group(1), m.group(3))


# --- Médiévallons: the first player against the fair share; founders against the others ------------

def _first_player():
    # 3 players: Seat 2 wins 32.65% (printed 32.7%) against a fair 33.33% (33.3%): −0.683 pp was
    # printed "−0.7 pp" beside them; Seat 3 34.146% (34.1%): +0.81 pp printed "+0.8"
    rows = []
    games = 20_000
    for players, shares in ((3, (0.33205, 0.3265, 0.34146)), (2, (0.57449, 0.42551))):
        for seat, p in enumerate(shares):
            se = (p * (1 - p) / games) ** 0.5
            rows.append(dict(players=players, seat=seat, games=games, win_share=p, std_error=se,
                             fair=1 / players, advantage=p - 1 / players, z=(p - 1 / players) / se))
    return pl.DataFrame(rows)


def test_the_first_player_tables_gap_is_the_gap_rounded():
    # (review s61 fix 258 #2 made a gap from a reference share the difference rounded: 32.65%
    # against 33.33% is "−0.7 pp", not 32.7 − 33.3 = −0.6)
    from reports.questions import Questions

    fp = _first_player()
    q = Questions(Path("q"), {"games": 20_000, "smallest_difference": {"share": 0.01}}, {"first_player": fp})
    title, table, lines = MV.printed_summary(q)[0]
    assert title.startswith("First player")
    exact = [(100 * r["win_share"], 100 * r["fair"]) for r in fp.iter_rows(named=True)]
    for (w, f), share, gap in zip(exact, table["Win share (95% interval)"], table["vs fair"]):
        assert _decimals(share.split("%")[0]) == _decimals(gap.removesuffix(" pp"))
        _is_the_gap(w, f, gap.removesuffix(" pp"))
    first = {r["players"]: (100 * r["win_share"], 100 * r["fair"]) for r in fp.iter_rows(named=True) if r["seat"] == 0}
    for line in lines:
        m = re.search(rf"^(\d) players: .*? wins ({NUM})% \(.*?\) \(95%, unadjusted\) against a fair ({NUM})%: ({NUM}) pp", line)
        assert m, line
        _is_the_gap(*first[int(m.group(1))], m.group(4))


def test_the_report_first_player_table_prints_its_gap_rounded_at_its_shares_decimals():
    fp = MV.with_run_first_player(_first_player(), {}, None)
    rows = MV._first_player_rows(fp)
    for r, share, gap in zip(fp.iter_rows(named=True), rows["Win share"], rows["vs fair share (pp)"]):
        shown = share.split("%")[0]
        assert _decimals(shown) == _decimals(gap.removesuffix(" pp"))
        _is_the_gap(100 * r["win_share"], 100 * r["fair"], gap.removesuffix(" pp"))


def _guilds():
    # Chevalier founders 26.443% (printed 26.4) against the others' 24.254% (24.3): +2.189 pp was
    # printed "+2.2 pp" beside them
    # (z: the difference over its unpooled s.e. at 34,500 founders of 100,000: 7.53 and 48.65)
    def row(card, name, f, o, z):
        return {"card": card, "card_name": name, "founded_share": 0.345, "founded_ci_low": 0.344,
                "founded_ci_high": 0.347, "mean_guilds": 0.67, "founders": 34_500, "players": 100_000,
                "founders_win_share": f, "founders_ci_low": f - 0.002, "founders_ci_high": f + 0.002,
                "others_win_share": o, "others_ci_low": o - 0.0015, "others_ci_high": o + 0.0015,
                "diff": f - o, "diff_low": f - o - 0.003, "diff_high": f - o + 0.003, "z": z, "p_value": 1e-9,
                "p_adjusted": 1e-8, "significant": True, "verdict": "clear and large enough to matter",
                "fair_share": 0.25, "mean_powers": 1.9}
    return pl.DataFrame([row("chevalier", "Chevalier", 0.26443, 0.24254, 7.53),
                         row("pretre", "Prêtre", 0.35349, 0.20651, 48.65)])


def test_the_guild_tables_founders_minus_others_is_the_difference_of_their_printed_shares():
    rows = MV._guild_rows({"guild_types": _guilds()}, 0.01)
    col = next(c for c in rows.columns if c.startswith("Founders − others"))
    for f, o, d in zip(rows["Founders' win share"], rows["Others' win share"], rows[col]):
        _adds_up(o.split("%")[0], f.split("%")[0], d.split(" pp")[0])


def test_a_guild_headlines_gap_is_the_difference_of_the_shares_it_prints():
    for line in MV.guild_headlines({"guild_types": _guilds()}):
        m = re.search(rf"types: ({NUM})% \(.*?\), (?:yet )?({NUM}) pp (more|fewer) than the other players "
                      rf"\(({NUM})%\)", line)
        assert m, line
        gap = m.group(2) if m.group(3) == "more" else "-" + m.group(2)
        _adds_up(m.group(4), m.group(1), gap)


# --- Seigneurial: the card ablation, and an Objective card against the average ----------------------

def _ablation():
    # Récolte: the Seigneur wins 0.475% with it (printed 0.48%), 1.752% with it neutral (1.75%):
    # an effect of −1.277 pp was printed "−1.28 pp" beside "0.48% → 1.75%", its arrow read
    # with → neutral; Troc: 0.475% → 0.5% (0.48%, 0.50%) beside −0.03 pp
    def row(card, seat, w, n, verdict):
        e = w - n
        return {"card": card, "name": card.title(), "deck": "Censitaire", "neutral": f"{card}_x = 0",
                "seat": seat, "seat_label": f"Seat {seat + 1}", "role": "Seigneur" if seat == 0 else "Censitaire",
                "games_changed": 0.4, "win_share_with": w, "win_share_neutral": n,
                "win_share_effect": e, "win_share_effect_low": e - 0.006, "win_share_effect_high": e + 0.006,
                "score_effect": 0.0, "score_effect_low": -1.0, "score_effect_high": 1.0, "swing": abs(e),
                "verdict": verdict, "score_verdict": "within noise"}
    return pl.DataFrame([row("recolte", 0, 0.00475, 0.01752, "clear, may matter"),
                         row("recolte", 1, 0.3, 0.29, "within noise"),
                         row("troc", 0, 0.00475, 0.005, "within noise"),
                         row("troc", 1, 0.3, 0.3, "within noise")])


def test_the_card_ablations_effect_is_with_it_minus_neutral_as_printed_and_its_arrow_reads_so():
    rows = SG.ablation_rows(_ablation())
    col = next(c for c in rows.columns if c.startswith("Seigneur's win share:"))
    # the arrow runs from the neutral card to the card as it is: the effect (with − neutral) reads
    # as after − before
    assert col == "Seigneur's win share: neutral → with it", col
    for shares, effect in zip(rows[col], rows["Effect of the card (95%, simultaneous)"]):
        before, after = (x.strip().rstrip("%") for x in shares.split("→"))
        _adds_up(before, after, effect.split(" pp")[0])


def test_the_card_ablation_sentence_moves_his_share_by_the_difference_it_prints():
    said = SG.ablation_sentences(_ablation(), 0.01, 2.0, 4000)[0]
    m = re.search(rf"Recolte \(Censitaire card\) (lowers|raises) his win share by ({NUM}) pp \(from ({NUM})% "
                  rf"with it neutral to ({NUM})% with it;", said)
    assert m, said
    change = m.group(2) if m.group(1) == "raises" else "-" + m.group(2)
    _adds_up(m.group(3), m.group(4), change)


def test_an_objective_cards_gap_from_the_average_is_the_gap_rounded():

    # (the wins column every objective table has: the cards' test reads it, review 225 #1)
    o = pl.DataFrame({"objective": [0, 1], "label": ["grain ≥ 10", "wood ≥ 4"], "dealt": [5000, 5000],
                      "wins": [0.27349 * 5000, 0.2115 * 5000], "win_share": [0.27349, 0.2115], "ci_low": [0.261, 0.2], "ci_high": [0.286, 0.223],
                      "censitaire_share": [0.24154, 0.24154], "diff": [0.27349 - 0.24154, 0.2115 - 0.24154],
                      "mean_progress": [80.0, 70.0], "progress_ci_low": [79.0, 69.0],
                      "progress_ci_high": [81.0, 71.0]})
    rows = SG._objective_rows({"objectives": o})
    # (27.349% against 24.154%: +3.195 is "+3.2", not 27.3 − 24.2 = +3.1: review s61 fix 258 #2)
    for r, share, gap in zip(o.iter_rows(named=True), rows["Win share"], rows["vs average (pp)"]):
        assert _decimals(share.split("%")[0]) == _decimals(gap)
        _is_the_gap(100 * r["win_share"], 100 * r["censitaire_share"], gap)


# --- balance skill: Ludii's Balance from the first to the last budget --------------------------------

def test_the_skill_pages_balance_change_is_the_difference_of_the_two_balances_it_prints():
    from reports.skill import balance_note
    from simcore import games as registry

    # 0.9404 → 0.8436 print 0.940 → 0.844; the change of −0.0968 was printed "−0.097"
    table = pl.DataFrame([{"cell": "", "part": "all", "budget": b, "seat": s, "balance": v, "balance_low": lo,
                           "balance_high": hi}
                          for b, v, lo, hi in ((0, 0.9404, 0.879, 1.0), (16, 0.8436, 0.785, 0.908))
                          for s in (0, 1)])
    said = balance_note(table, registry.get("middle-ages"))
    m = re.search(rf"it goes ({NUM}) → ({NUM}), a change of ({NUM}) \(", said)
    assert m, said
    _adds_up(m.group(1), m.group(2), m.group(3))
