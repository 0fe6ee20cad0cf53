"""The before/after's words against the numbers beside them (pure functions on small tables)."""

from __future__ import annotations

import polars as pl

from analysis import stats
from analysis.compare import COMPARE_SCHEMA
from reports.sections import _comparison_caption


def row(metric: str, key: str, label: str, base: float, variant: float, half: float, p_adj: float,
        kind: str = "proportion", smallest: float = 0.01) -> dict:
    diff = variant - base
    sig = p_adj < 0.05
    verdict = stats.NOT_SHOWN if not sig else (stats.LARGE if abs(diff) >= smallest else stats.SMALL)
    return {"metric": metric, "key": key, "label": label, "kind": kind, "base": base, "base_low": base - half,
            "base_high": base + half, "variant": variant, "variant_low": variant - half,
            "variant_high": variant + half, "diff": diff, "diff_low": diff - half, "diff_high": diff + half,
            "z": diff / half * 1.96, "p_value": p_adj, "p_adjusted": p_adj, "significant": sig,
            "smallest": smallest, "verdict": verdict}


def table(rows: list[dict]) -> pl.DataFrame:
    return pl.DataFrame(rows, schema=COMPARE_SCHEMA)


def seigneurial_like() -> pl.DataFrame:
    """Seigneurial, payment.order=simultaneous: the roles barely move, a Censitaire seat by 1.7 pp."""
    return table([
        row("seat_win_share", "Seat 4", "Seat 4 win share", 0.349, 0.332, 0.004, 1e-6),
        row("role_win_share", "seigneur", "Seigneur side win share", 0.004, 0.009, 0.001, 1e-6),
        row("role_win_share", "censitaire", "Censitaire side win share", 0.996, 0.991, 0.001, 1e-6),
        row("seat_win_share", "Seat 3", "Seat 3 win share", 0.3265, 0.3290, 0.004, 1.0),
    ])


def test_caption_of_a_game_of_roles_names_a_seat_share_that_moved():
    """The caption said "No other share moved beyond noise." under a table whose first row is a
    Censitaire seat moved by −1.7 pp, clear and large enough to matter."""
    text = _comparison_caption(seigneurial_like(), "% of own goal")
    assert "No other share moved" not in text
    assert "Seat 4 win share: 34.9% → 33.2%" in text


def test_caption_without_a_large_other_share_does_not_deny_small_clear_ones():
    """Only clear changes of at least the smallest difference are named; a clear but small one is
    still a move beyond noise, so the caption may not say none moved beyond noise."""
    cmp = table([row("seat_win_share", "Seat 1", "Seat 1 win share", 0.20, 0.25, 0.003, 1e-6),
                 row("end_reason_share", "x", "Games ending: x", 0.500, 0.505, 0.002, 1e-4)])
    text = _comparison_caption(cmp, "coins")
    assert "beyond noise" not in text.split("Seat 1 +5.0 pp (clear and large enough to matter).")[1]
    assert "by enough to matter" in text


def with_balance(cmp: pl.DataFrame) -> pl.DataFrame:
    """``cmp`` with the two untested Balance rows compare_tables shows (no interval, no p-value)."""
    nan = float("nan")
    rows = []
    for metric, base, variant in (("balance", 0.4114, 0.4328), ("win_share_balance", 0.655, 0.677)):
        r = row(metric, "all", metric, base, variant, 0.01, 1.0, kind="index")
        r.update(diff_low=nan, diff_high=nan, z=nan, p_value=nan, p_adjusted=nan, significant=False,
                 verdict=stats.NOT_SHOWN)
        rows.append(r)
    return pl.concat([cmp, table(rows)])


def test_untested_balance_rows_are_not_called_within_noise():
    """The Balance rows have no test, yet their Verdict read "within noise" (Seigneurial: win-share
    balance 0.655 → 0.677 while the seat shares it is made of moved clearly)."""
    from reports.sections import comparison_rows

    rows = comparison_rows(with_balance(seigneurial_like()), "% of own goal")
    verdicts = dict(zip(rows["Metric"].to_list(), rows["Verdict"].to_list()))
    assert "within noise" not in verdicts["win_share_balance"]
    assert verdicts["win_share_balance"].startswith("not tested")
    assert verdicts["Seat 3 win share"] == "within noise"


def test_holm_family_named_is_the_tested_metrics():
    """The sentence said "Holm's correction over all 6" when only 4 of the 6 rows had p-values."""
    from reports.text import comparison_headlines

    lines = comparison_headlines(with_balance(seigneurial_like()), "base", "var", "% of own goal")
    family = next(x for x in lines if "tested metrics moved" in x)
    assert "over all 6" not in family
    # the counts are over the tested metrics, the family named with them (revD #9: "42 of 77
    # compared metrics" beside "Holm over the 75 tested")
    assert " of the 4 tested metrics moved" in family and "Holm over the 4;" in family
    assert "the table's other 2 rows, the Balance indices, are shown but not tested" in family


def test_no_pool_refuses_a_run_compared_with_itself(tmp_path):
    """`balance report RUN RUN --no-pool` (or RUN and a copy of it) wrote a before/after of a run
    against its own games, saying "any difference comes from the bots, the seed or the number of
    games"; two seeds of one configuration are still compared."""
    import shutil

    import pytest
    from analysis_runs import HAND, write_run
    from reports.build import plan_groups
    from simcore.errors import UsageError

    a = write_run(tmp_path / "a", HAND, seed=1)
    shutil.copytree(a, tmp_path / "copy")
    b = write_run(tmp_path / "b", HAND, seed=2)
    for runs in ([a, a], [a, tmp_path / "copy"]):
        with pytest.raises(UsageError, match="given twice"):
            plan_groups(runs, pool=False)
    assert len(plan_groups([a, b], pool=False)) == 2


def test_what_changed_says_whether_the_games_were_the_same_deals():
    """The before/after named the rules that changed but never whether the two runs played the
    same deals (same seed: common random numbers) or independent ones, nor that the bots differed."""
    from types import SimpleNamespace

    from reports.sections import what_changed

    rules = "[setup]\nstart_coins = 0\n"

    def rs(label, seed, games=200_000, bots=("balanced",) * 4, text=rules):
        return SimpleNamespace(label=label, metas=[{"rules_text": text, "seed": seed, "games": games,
                                                    "strategies": list(bots), "rules_name": "rules.toml"}])

    base = rs("base", 1)
    after = "[setup]\nstart_coins = [0, 1, 1, 1]\n"
    same = what_changed(base, rs("coins", 1, text=after), "coins")[0]
    assert "setup.start_coins: 0 → [0, 1, 1, 1]" in same
    assert "same 200,000 deals (seed 1" in same and "common random numbers" in same
    other = what_changed(base, rs("coins2", 2, text=after), "coins2")[0]
    assert "different deals (seed 1 before, 2 after)" in other and "same" not in other.split("deals")[0]
    bots = what_changed(base, rs("greedy", 1, bots=("greedy",) * 4), "greedy")[0]
    # the same rules: the bots differ, not "too", and no "not all of a change comes from the
    # rules" (review s46 #6)
    assert "The bots differ (" in bots and "greedy, greedy" in bots
    assert "not all of a change" not in bots
    both = what_changed(base, rs("greedy2", 1, bots=("greedy",) * 4, text=after), "greedy2")[0]
    assert "The bots differ too" in both and "not all of a change comes from the rules" in both
    more = what_changed(base, rs("more", 1, games=100_000, text=after), "more")[0]
    assert "only some deals are the same" in more and "200,000 games before and 100,000 after" in more
