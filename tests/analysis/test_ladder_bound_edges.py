"""The ladder's adjusted bounds at their edges (``balance ladder --game seigneurial --out``):

* a Censitaire cell whose paired difference has no spread (the row bot wins nothing on any deal,
  the column bot a third of every deal) had a t interval of zero width (−2.3e-17 to 2.3e-17,
  margin_in_se −4.9e16) and a call from it; such a cell, or one with fewer than 10 games' worth of
  wins or losses, now reads Newcombe's interval from the two shares' own Wilson intervals
  (statsmodels' Wilson, Newcombe's formula by hand), never narrower than the cell's own;
* bounds of a share above 1 (1.0032, 1.0252) or below 0: clipped to [0, 1], calls unchanged;
* the Seigneur rows carried no bounds although the sentence under the table reads them: they are
  statsmodels' Wilson intervals at 1 − 0.05/m over the m cells against bots that do not play at
  random;
* the sentence named one of five bots tied at 0.0% as the runner-up; bots that play a role with
  the same settings (read here from the presets' TOML) are said to be so once.
"""

from __future__ import annotations

import math
import re
import tomllib
from pathlib import Path

import polars as pl
import pytest
from scipy.stats import gamma, norm
from scipy.stats import t as student
from statsmodels.stats.proportion import proportion_confint

from analysis import ladder as L
from in_process import balance

ROOT = Path(__file__).resolve().parents[2]
K = 42                                   # the family of the reviewed ladder's Censitaire table


def _wilson(x, n, alpha):
    """statsmodels' Wilson interval with Brown, Cai & DasGupta's exact Poisson ends (x* = 2 up
    to n = 50, else 3; a fractional count as the whole count nearest it), as the toolkit
    documents its Wilson interval."""
    lo, hi = proportion_confint(x, n, alpha=alpha, method="wilson")
    ends = 2 if n <= 50 else 3
    if 0 < x < ends + 0.5:
        lo = gamma.ppf(alpha / 2, x) / n
    if 0 < n - x < ends + 0.5:
        hi = 1 - gamma.ppf(alpha / 2, n - x) / n
    return lo, hi


def _own(m, se, deals, alpha, games=None):
    """A share's own interval over its deals at level 1 − alpha: Wilson's at the effective number
    of games m(1 − m)/se² with the t(deals − 1) critical value; with no spread, over its ``games``
    with that critical value (the row bot's share, session 63: review 283 #2), else (the column
    bot's own share, one game's seats a deal) over the deals."""
    tail = norm.sf(student.ppf(1 - alpha / 2, deals - 1))
    if se == 0 or m in (0.0, 1.0):
        if games is not None:
            return _wilson(m * games, games, 2 * tail)
        return _wilson(m * deals, deals, alpha)
    n = m * (1 - m) / se ** 2
    return _wilson(m * n, n, 2 * tail)


def _newcombe(p1, se1, p2, se2, deals, alpha, seats=3):
    (l1, u1), (l2, u2) = _own(p1, se1, deals, alpha, deals * seats), _own(p2, se2, deals, alpha)
    lo = p1 - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = p1 + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(lo, 0.0), min(hi, 1.0)


def _cens(share, se, fair, fair_se, dse, deals=67, seats=3):
    return L.Cell("a", "b", deals * seats, share, se, 0.0, 1.0, fair, dse, deals, fair_se)


def test_a_paired_difference_without_spread_reads_newcombes_interval():
    # the reviewed cell: random wins nothing on 67 deals, the column bot a third of each (the
    # ~1e-17 left by rounding is no spread)
    c = _cens(0.0, 0.0, 1 / 3, 6.8e-18, 6.8e-18)
    (b,) = L.paired_fair_bounds([c], family=K)
    want = _newcombe(0.0, 0.0, 1 / 3, 0.0, 67, 0.05 / K)
    assert b == pytest.approx(want, abs=1e-12)
    # (20.4% before session 63: the row bot's 0 wins read over its 67 deals, now its 201 games)
    assert b[0] == 0.0 and b[1] == pytest.approx(0.16172, abs=1e-5)
    own_high = proportion_confint(0, 67, alpha=0.05, method="wilson")[1]      # 5.4%, the ci
    assert b[1] > own_high > b[0] == 0.0                       # never narrower than the cell's own
    assert L.paired_fair_calls([c] * K)[0] == "below"          # 16.2% < 33.3%: still clear
    # its margin: the two shares' own errors (no spread: Wilson over the deals), by hand
    assert c.margin_in_se == pytest.approx(-(1 / 3) / math.sqrt((1 / 3) * (2 / 3) / 67), rel=1e-12)
    # the same share as the column bot on every deal: an interval of width, no call, margin 0
    same = _cens(1 / 3, 0.0, 1 / 3, 0.0, 0.0)
    (b,) = L.paired_fair_bounds([same], family=K)
    assert b == pytest.approx(_newcombe(1 / 3, 0.0, 1 / 3, 0.0, 67, 0.05 / K), abs=1e-12)
    assert b[1] - b[0] > 0.4 and L.paired_fair_calls([same] * K)[0] is None
    assert same.margin_in_se == 0.0


def test_too_few_wins_for_a_t_interval_reads_newcombes_interval():
    # 2 wins in 201 games (1.0%), with spread: the t interval was 0.99% ± 2.4 pp, narrower at the
    # top than the cell's own 95% interval (3.6%)
    c = _cens(2 / 201, 0.00698, 0.30, 0.03, 0.031)
    (b,) = L.paired_fair_bounds([c], family=K)
    assert b == pytest.approx(_newcombe(2 / 201, 0.00698, 0.30, 0.03, 67, 0.05 / K), abs=1e-9)
    lo95, hi95 = _own(2 / 201, 0.00698, 67, 0.05)
    assert b[0] <= lo95 and b[1] >= hi95
    # 10 games' worth of wins and of losses, both shares: the paired t interval
    ok = _cens(12 / 201, 0.016, 0.30, 0.03, 0.012)
    (b,) = L.paired_fair_bounds([ok], family=K)
    half = student.ppf(1 - 0.05 / K / 2, 66) * 0.012
    assert b == pytest.approx((12 / 201 - half, 12 / 201 + half), abs=1e-12)


def test_a_shares_bounds_are_clipped_to_0_and_1_and_the_calls_read_them():
    half = student.ppf(1 - 0.05 / K / 2, 66) * 0.02
    # 67 deals at 3 seats (the t interval needs no column bot's own error)
    hi = L.Cell("a", "b", 201, 0.95, 0.02, 0.0, 1.0, 0.40, 0.02, 67)    # 10.05 losses: the t interval
    lo = L.Cell("a", "b", 201, 0.06, 0.02, 0.0, 1.0, 0.40, 0.035, 67)   # 12.06 wins
    half_lo = student.ppf(1 - 0.05 / K / 2, 66) * 0.035
    assert 0.95 + half > 1 and 0.06 - half_lo < 0                       # unclipped, outside
    bounds = L.paired_fair_bounds([hi, lo], family=K)
    assert bounds[0] == pytest.approx((0.95 - half, 1.0), abs=1e-12)
    assert bounds[1] == pytest.approx((0.0, 0.06 + half_lo), abs=1e-12)
    assert L.paired_fair_calls([hi, lo] + [hi] * (K - 2)) == ["above", "below"] + ["above"] * (K - 2)
    # a cell whose bound sits at the fair share is not called; an interval of no width never is
    flat = L.Cell("a", "b", 8, 0.3, 0.0, 0.3, 0.3, 0.5)
    assert L._called([flat], [(0.3, 0.3)]) == [None]


@pytest.fixture(scope="module")
def roles(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder") / "roles.csv"
    done = balance("ladder", "--game", "seigneurial", "--bots",
                   "random,standard,even-lord,fair-share,dutiful", "--games", "150", "--out", out)
    return pl.read_csv(out), " ".join(done.stdout.split())


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_every_written_bound_is_a_share_with_width_and_the_calls_read_it(roles):
    t, _ = roles
    got = t.filter(pl.col("adjusted_low").is_not_null())
    for r in got.iter_rows(named=True):
        lo, hi = r["adjusted_low"], r["adjusted_high"]
        assert 0.0 <= lo < hi <= 1.0 and lo <= r["win_share"] <= hi, r
        if r["role"] == "censitaire":
            want = "above" if lo > r["fair_share"] else "below" if hi < r["fair_share"] else ""
            assert (r["call"] or "") == want, r
            if any(min(p, 1 - p) * r["games"] < 10 for p in (r["win_share"], r["fair_share"])):
                assert lo <= r["ci_low"] and hi >= r["ci_high"], r       # Newcombe: never narrower
    # random wins nothing as a Censitaire: still clearly below, from an interval of width
    rand = t.filter((pl.col("role") == "censitaire") & (pl.col("bot") == "random"))
    assert rand.height == 3 and set(rand["call"]) == {"below"}
    assert rand["margin_in_se"].is_not_null().all() and (rand["margin_in_se"].abs() < 100).all()
    assert got.height == t.filter(pl.col("opponent") != "random").height + 3   # + Censitaire v random


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_seigneur_rows_carry_the_bounds_the_sentence_reads(roles):
    t, out = roles
    lead = t.filter(pl.col("role") == "seigneur")
    plain = lead.filter(pl.col("opponent") != "random")
    m = plain.height
    assert m == 9 and (plain["calls_adjusted_over"] == m).all() and lead["call"].is_null().all()
    for r in plain.iter_rows(named=True):
        lo, hi = _wilson(r["win_share"] * r["games"], r["games"], 0.05 / m)
        assert (r["adjusted_low"], r["adjusted_high"]) == pytest.approx((lo, hi), abs=1e-9), r
    vs_random = lead.filter(pl.col("opponent") == "random")
    assert vs_random["adjusted_low"].is_null().all() and vs_random["calls_adjusted_over"].is_null().all()
    bound = re.search(r"Bonferroni over the (\d+), every one is at most (\d+\.\d)%", out)
    assert bound and int(bound.group(1)) == m, out
    assert float(bound.group(2)) == math.ceil(round(1000 * plain["adjusted_high"].max(), 6)) / 10


def _cell(bot, opponent, wins, games=500):
    lo, hi = proportion_confint(wins, games, method="wilson")
    return L.Cell(bot, opponent, games, wins / games, 0.0, lo, hi, float("nan"))


def test_a_runner_up_tied_with_others_is_not_named_alone():
    words = dict(lead="Seigneur", shared="Censitaire")
    cells = [_cell("a", "x", 9), _cell("a", "y", 8)] + [_cell(b, o, 0) for b in "bcd" for o in "xy"]
    said = L.lead_headline(cells, **words)
    # a: (9 + 8)/1000 = 1.7%; b, c and d: 0.0% each (clearly ahead since session 59: Newcombe's
    # interval of 17 against 0 wins in 1,000 games at 1 − 0.05/8 is +0.6 to +3.2 pp)
    assert "a does best: 1.7% on average over those 2 bots (the other 3 all 0.0%)" in said, said
    cells = ([_cell("a", "x", 9), _cell("a", "y", 8), _cell("b", "x", 1), _cell("b", "y", 0),
              _cell("c", "x", 0), _cell("c", "y", 1), _cell("d", "x", 0), _cell("d", "y", 0)])
    said = L.lead_headline(cells, **words)
    # b and c: 1/1000 = 0.1%, d 0.0%
    assert "(next b and c, 0.1% each)" in said, said


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_bots_that_play_a_role_alike_are_said_to_once(roles):
    from cli.ladder import same_play
    import strategies.seigneurial as S

    presets = tomllib.loads((ROOT / "configs/seigneurial/strategies.toml").read_text(encoding="utf-8"))
    names = ["random", "standard", "even-lord", "fair-share", "dutiful"]
    twins = {role: [b for b in names[2:] if presets[b].get(role) == presets["standard"][role]]
             for role in ("seigneur", "censitaire")}
    assert twins == {"seigneur": ["even-lord"], "censitaire": ["fair-share"]}
    shown = {"seigneur": "Seigneur", "censitaire": "Censitaire"}
    said = (f"standard plays as {twins['seigneur'][0]} as Seigneur and as {twins['censitaire'][0]} "
            "as Censitaire (the same settings)")
    assert same_play(S, names, shown, []) == said + ": their rows and columns are identical."
    differ = [([_cell("standard", "x", 3), _cell("even-lord", "x", 4)], "seigneur", "censitaire")]
    assert same_play(S, names, shown, differ) == said + ": their figures differ by chance only."
    assert same_play(S, ["random", "even-lord", "dutiful"], shown, []) == ""
    _, out = roles
    assert out.count(said + ": their rows and columns are identical.") == 1, out
