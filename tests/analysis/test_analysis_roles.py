"""analysis.roles: role advantage and seat advantage within a role, worked out by hand and checked
against scipy (binomtest's Wilson interval, chisquare) and the textbook Wilson formula."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from analysis import analyse, open_runs
from analysis.roles import has_roles, role_seat_table, role_table
from tests.analysis.analysis_runs import wilson_ref, write_run

def proportion_confint(k, n, alpha=0.05, method="wilson"):
    """The toolkit's Wilson interval, computed independently (analysis_runs.wilson_ref)."""
    assert method == "wilson"
    return wilson_ref(k, n, 1 - alpha)


# 5 games, 3 players: seat 0 the Seigneur, seats 1 and 2 Censitaires.
#   game 0: Seigneur wins            game 1: seat 1 wins         game 2: seat 2 wins
#   game 3: seat 1 wins              game 4: seats 1 and 2 share (½, ½)
WIN = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (0, 1, 0), (0, 0.5, 0.5)]


def _players(role_codes: bool = False) -> dict:
    cols: dict = {k: [] for k in ("game", "seat", "strategy", "score", "win_share", "rank", "role")}
    for g, shares in enumerate(WIN):
        for seat, w in enumerate(shares):
            cols["game"].append(g)
            cols["seat"].append(seat)
            cols["strategy"].append("random")
            cols["score"].append(int(10 * w))
            cols["win_share"].append(w)
            cols["rank"].append(1 if w > 0 else 2)
            role = "seigneur" if seat == 0 else "censitaire"
            cols["role"].append((0 if seat == 0 else 1) if role_codes else role)
    return cols


@pytest.fixture
def role_run(tmp_path):
    return open_runs([write_run(tmp_path / "r", _players(), game="seigneurial")])


def test_role_table_by_hand(role_run):
    t = role_table(role_run)
    assert t["role"].to_list() == ["seigneur", "censitaire"]
    seig = t.row(0, named=True)
    cens = t.row(1, named=True)
    assert (seig["games"], seig["seats"], seig["wins"]) == (5, 1, 1.0)
    assert (cens["games"], cens["seats"], cens["wins"]) == (5, 2, 4.0)
    assert seig["win_share"] == pytest.approx(0.2) and cens["win_share"] == pytest.approx(0.8)
    assert cens["per_seat"] == pytest.approx(0.4)
    lo, hi = proportion_confint(1, 5, alpha=0.05, method="wilson")
    assert (seig["ci_low"], seig["ci_high"]) == pytest.approx((lo, hi), abs=1e-9)
    assert cens["per_seat_high"] == pytest.approx(proportion_confint(4, 5, method="wilson")[1] / 2)


def test_role_seat_table_by_hand(role_run):
    t = role_seat_table(role_run).filter(role="censitaire")
    assert t["seat"].to_list() == [1, 2]
    # seat 1: 2.5 wins of the Censitaires' 4; seat 2: 1.5
    assert t["wins"].to_list() == pytest.approx([2.5, 1.5])
    assert t["share_of_role"].to_list() == pytest.approx([0.625, 0.375])
    assert t["equal_share"].to_list() == pytest.approx([0.5, 0.5])
    chi = sps.chisquare([2.5, 1.5])
    assert t["chi2"][0] == pytest.approx(chi.statistic) and t["p_value"][0] == pytest.approx(chi.pvalue)
    lo, hi = proportion_confint(2.5, 4, method="wilson")
    assert (t["share_low"][0], t["share_high"][0]) == pytest.approx((lo, hi), abs=1e-9)
    seig = role_seat_table(role_run).filter(role="seigneur")
    assert seig.height == 1 and np.isnan(seig["p_value"][0])


def test_integer_role_codes_read_through_the_spec_order(tmp_path):
    from simcore import games as registry

    if "seigneurial" not in registry.names():
        pytest.skip("integer role codes name the roles of a registered spec")  # pragma: no cover
    rs = open_runs([write_run(tmp_path / "r", _players(role_codes=True), game="seigneurial")])
    assert role_table(rs)["role"].to_list() == ["seigneur", "censitaire"]


def test_analyse_adds_role_tables_only_for_games_with_roles(role_run, tmp_path):
    t = analyse(role_run)
    assert t["roles"]["win_share"].sum() == pytest.approx(1.0)
    assert "role_seats" in t
    plain = _players()
    del plain["role"]
    t2 = analyse(open_runs([write_run(tmp_path / "plain", plain)]))
    assert "roles" not in t2 and not has_roles(open_runs([tmp_path / "plain"]))


def test_role_share_interval_covers_by_simulation():
    """The Wilson interval of a role's win share covers the true share about 95% of the time
    (games are independent: one winning side per game)."""
    from analysis import stats

    rng = np.random.default_rng(3)
    p, n, reps = 0.41, 400, 2000
    wins = rng.binomial(n, p, size=reps).astype(float)
    low, high = stats.wilson(wins, np.full(reps, float(n)))
    cover = np.mean((low <= p) & (p <= high))
    assert 0.93 <= cover <= 0.97
