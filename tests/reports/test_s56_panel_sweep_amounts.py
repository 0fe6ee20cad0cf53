"""A panel sweep's page names the smallest differences its verdicts were sized against (session 56
designer review, leftover #1): with ``balance report PANEL_SWEEP --smallest-difference
win_share=2pp`` the table's ``smallest`` column said 2 pp, while the prose named no amount for shares
and the glossary said "1 pp for shares unless the page says otherwise". The effects here are a
Seigneurial panel sweep's kinds of metric (shares in pp, the winner's margin in % of own goal, the
game length in turns) at non-default amounts."""

from __future__ import annotations

import polars as pl

from reports import panel


def _effects(share: float, margin: float, length: float) -> pl.DataFrame:
    rows = [("seat_win_share_1", "seat 1 (Seigneur)'s win share", "pp", True, share),
            ("role_win_share_seigneur", "the Seigneur's win share", "pp", True, share),
            ("winner_margin", "the winner's margin", "% of own goal", False, margin),
            ("game_length", "the game length", "turns", False, length)]
    return pl.DataFrame([{"metric": m, "label": lab, "unit": u, "share": s, "smallest": x, "verdict": "within noise"}
                         for m, lab, u, s, x in rows])


def test_the_panel_sweep_method_names_the_amounts_it_used():
    said = panel.sweep_method_words(_effects(0.02, 3.0, 1.0), "seigneurial")
    assert "(here 2 pp for shares, 3 pp of own goal for scores, 1 turn for game lengths;" in said, said
    assert "1 pp for shares" not in said
    default = panel.sweep_method_words(_effects(0.01, 1.0, 2.0), "seigneurial")
    assert "(here 1 pp for shares, 1 pp of own goal for scores, 2 turns for game lengths;" in default, default
