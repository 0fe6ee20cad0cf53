"""Review s58 #6: one quantity, one figure on the page. In a Seigneurial run of greedy-lord,
fair-share, objective, fair-share (30,000 games) the Strategies table said objective "+16.0 pp"
from its role's average seat, the finding sentence on the same page "+15.9 pp" (the export's diff
0.1594). The sentence and the table print one figure; since review s61 fix 258 #2 it is the gap
rounded (:func:`simcore.numbers.fair_gap`), not the difference of the printed figures.

Expected here by hand: 49.27% − 33.33% = +15.94 pp prints +15.9 pp (beside 49.3% and 33.3%)."""

from __future__ import annotations

import polars as pl

from reports.sections import strategy_rows
from reports.text import role_strategy_headlines


def _strategies() -> pl.DataFrame:
    third = 1 / 3
    return pl.DataFrame({
        "strategy": ["greedy-lord", "fair-share", "objective"], "role": ["seigneur", "censitaire", "censitaire"],
        "role_label": ["Seigneur", "Censitaire", "Censitaire"], "units": [30000, 60000, 30000],
        "win_share": [0.0004, 0.25365, 0.4927], "ci_low": [0.0002, 0.2502, 0.4870],
        "ci_high": [0.0007, 0.2571, 0.4984], "fair_share": [0.0004, third, third],
        "diff": [0.0, 0.25365 - third, 0.4927 - third], "p_value": [float("nan"), 1e-30, 1e-30],
        "verdict": ["", "clear and large enough to matter", "clear and large enough to matter"],
        "paired": [False] * 3, "smallest": [0.01] * 3})


def test_the_sentence_gives_the_tables_difference():
    [line] = role_strategy_headlines(_strategies())
    assert "objective wins most: 49.3% (48.7–49.8) of games against 33.3% for the Censitaires' average seat, " \
           "+15.9 pp," in line, line
    table = strategy_rows({"strategies": _strategies()})
    row = table.row(2, named=True)
    assert (row["Strategy"], row["Difference (pp)"]) == ("objective", "+15.9 pp"), row


def test_without_roles_the_strongest_strategy_s_gap_is_the_tables_too():
    # 3 players: 35.97% prints 36.0%, the fair share 33.33% prints 33.3%: +2.6 pp printed (2.64 rounded)
    from reports.text import strategy_vs_fair

    t = pl.DataFrame({"strategy": ["greedy", "balanced"], "units": [3000, 6000],
                      "win_share": [0.3597, 0.3202], "ci_low": [0.3426, 0.3085], "ci_high": [0.3771, 0.3321],
                      "fair_share": [1 / 3, 1 / 3], "paired": [False, False], "confounded": [True, True],
                      "verdict": ["clear and large enough to matter", "within noise"], "smallest": [0.01, 0.01]})
    share, fair, gap = strategy_vs_fair(t.row(0, named=True))
    assert (share.split(" ")[0], fair, gap) == ("36.0%", "33.3", "+2.6 pp")
    assert strategy_rows({"strategies": t})["vs fair share (pp)"][0] == gap
