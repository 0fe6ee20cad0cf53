"""Session 62 #3: ``analysis.stats.holm_size_interval`` read a difference's s.e. back from its z
(|estimate / z|), so an estimate of exactly 0 (z = 0) got a nan interval
(``holm_size_interval([0.0, 0.02], [0.0, 2.5])`` gave nan for the first), and
``reports.text.room_for_a_swing`` silently dropped rows without a finite interval from its "cannot
rule out … for N of the M" count. Every caller now passes the real s.e. (for two shares
√(p₁q₁/n₁ + p₂q₂/n₂)), and a row without an interval counts among those that cannot rule out a
change. Constructed data; no games are played."""

from __future__ import annotations

import numpy as np
import polars as pl
from statistics import NormalDist

from analysis import stats


def test_s62_a_zero_change_gets_a_finite_family_interval():
    lo, hi = stats.holm_size_interval([0.0, 0.02], [0.0, 2.5], se=[0.004, 0.008])
    q = NormalDist().inv_cdf(1 - 0.05 / 4)                       # Bonferroni over the 2 tested
    assert np.allclose(lo, [-q * 0.004, 0.02 - q * 0.008]) and np.allclose(hi, [q * 0.004, 0.02 + q * 0.008])
    # the s.e. of a difference of two shares, 30 of 1,000 against 30 of 1,000: a change of 0
    se = stats.two_shares_se(30, 1000, 30, 1000)
    assert abs(float(se) - np.sqrt(2 * 0.03 * 0.97 / 1000)) < 1e-15
    assert stats.practical_holm([0.0, 0.02], [0.0, 2.5], 0.01, se=[0.004, 0.008])[0] == stats.NOT_SHOWN


def test_s62_guild_family_range_of_a_zero_difference_is_finite():
    from analysis.guilds import family_verdicts

    g = pl.DataFrame({"card": ["artisan", "noble"], "founders": [400, 500], "founded_share": [0.1, 0.125],
                      "founders_win_share": [0.25, 0.27], "diff": [0.0, 0.02], "diff_se": [0.02, 0.021],
                      "z": [0.0, 0.02 / 0.021]})
    _, low, high, m = family_verdicts(g, 0.01)
    assert m == 2 and np.all(np.isfinite(low)) and np.all(np.isfinite(high))
    q = NormalDist().inv_cdf(1 - 0.05 / 4)
    assert abs(low[0] + q * 0.02) < 1e-12 and abs(high[0] - q * 0.02) < 1e-12


def test_s62_event_rows_with_no_change_have_a_finite_family_interval():
    from analysis.events import event_seat_table
    from types import SimpleNamespace

    # one event card in 400 of 1,000 games; Seat 1 wins 100 of them and 150 of the other 600: 25% both
    acc = SimpleNamespace(slots=[0], games_with=np.zeros(256), seat_with=np.zeros((256, 2)),
                          games_total=1000.0, seat_total=np.array([250.0, 750.0]), n=2)
    acc.games_with[129] = 400
    acc.seat_with[129] = [100, 300]
    rs = SimpleNamespace(games_per_unit=1, event_name=lambda e: f"card {e}", smallest_of=lambda k: 0.01)
    t = event_seat_table(rs, acc)
    assert t["diff"].to_list() == [0.0, 0.0]
    assert all(np.isfinite(t["family_low"].to_numpy())) and all(np.isfinite(t["family_high"].to_numpy()))
    se = np.sqrt(0.25 * 0.75 / 400 + 0.25 * 0.75 / 600)
    q = NormalDist().inv_cdf(1 - 0.05 / 4)
    assert abs(t["family_high"][0] - q * se) < 1e-12


def test_s62_room_for_a_swing_counts_a_row_without_an_interval():
    from reports.text import room_for_a_swing

    said = room_for_a_swing([("Artisan", float("nan"), float("nan")), ("Noble", -0.005, 0.02)], 0.01,
                            ("type", "types"))
    # before: "for the one type" (Artisan dropped), as if one row had been tested
    assert "for both types" in said, said
    said = room_for_a_swing([("Artisan", float("nan"), float("nan")), ("Noble", -0.005, 0.005)], 0.01,
                            ("type", "types"))
    assert "for 1 of the 2 types" in said and "Artisan, no interval computed" in said, said
