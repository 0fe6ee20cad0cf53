"""Designer review (session 41) #3 and #4: a rare share's change said as a factor gives its games and
an honest 95% interval for the factor.

"The Seigneur side wins 0.41% → 0.01% of games (41 times less often)": a factor from 82 games to 2 is
very uncertain. The sentence now says "(82 → 2 games: 41 times less often; 95% interval 10 to 350
times)": the exact conditional interval (given x1 + x2, x2 is Binomial(x1 + x2, π), π = R·n2 / (n1 +
R·n2); Clopper-Pearson for π gives R's, :func:`analysis.compare.factor_interval`), checked here
against scipy's exact binomial interval and by its coverage over simulated pairs of runs; a side that
never wins on one side gets the interval's one end ("at least 23 times less often"). The before/after
figure's caption, which said "Seigneur side −0.40 pp (clear but small)" under the page's "Not by
enough to matter …, though by a large factor for a share this small", says the factor too.
"""

from __future__ import annotations

import math
import re

import numpy as np
import polars as pl
import pytest

from analysis import stats
from analysis.compare import COMPARE_SCHEMA
from cli import _run
from reports.build import build_report
from reports.sections import _comparison_caption
from reports.text import seat_question

scipy_stats = pytest.importorskip("scipy.stats")


def factor_interval(x1, n1, x2, n2):
    from analysis.compare import factor_interval as interval      # (new here: imported where used)

    return interval(x1, n1, x2, n2)


def _scipy_factor(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float]:
    """The same interval from scipy's exact (Clopper-Pearson) binomial interval of x2 in x1 + x2."""
    ci = scipy_stats.binomtest(x2, x1 + x2).proportion_ci(confidence_level=0.95, method="exact")
    low = ci.low * n1 / ((1 - ci.low) * n2)
    high = math.inf if ci.high >= 1 else ci.high * n1 / ((1 - ci.high) * n2)
    return low, high


@pytest.mark.parametrize("x1, n1, x2, n2", [(82, 20000, 2, 20000), (88, 20000, 7, 20000), (88, 20000, 0, 20000),
                                            (0, 20000, 5, 20000), (3, 1000, 3, 4000), (40, 100000, 400, 100000),
                                            (1, 500, 1, 500), (1200, 1_000_000, 35, 250_000)])
def test_the_factor_interval_is_scipys_exact_one(x1, n1, x2, n2):
    low, high = factor_interval(x1, n1, x2, n2)
    want_low, want_high = _scipy_factor(x1, n1, x2, n2)
    assert low == pytest.approx(want_low, rel=1e-8, abs=1e-300)
    if math.isinf(want_high):
        assert math.isinf(high)
    else:
        assert high == pytest.approx(want_high, rel=1e-8)
    if x1 and x2:       # the estimate inside
        assert low < (x2 / n2) / (x1 / n1) < high


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("p1, n1, p2, n2", [(0.004, 20000, 0.0001, 20000),     # a factor of 40 down
                                            (0.002, 10000, 0.002, 30000),      # no change, unequal runs
                                            (0.0005, 20000, 0.003, 20000)])    # 6 times as often
def test_the_factor_interval_covers_the_true_factor_at_least_95_percent_of_the_time(p1, n1, p2, n2):
    # two independent runs' counts of a rare win, 2,000 times; the true factor is p2 / p1
    rng = np.random.default_rng(41)
    draws = 2000
    x1 = rng.binomial(n1, p1, draws)
    x2 = rng.binomial(n2, p2, draws)
    truth = p2 / p1
    seen: dict[tuple[int, int], bool] = {}
    covered = 0
    for a, b in zip(x1.tolist(), x2.tolist()):
        if (a, b) not in seen:
            low, high = factor_interval(a, n1, b, n2)
            seen[(a, b)] = low <= truth <= high
        covered += seen[(a, b)]
    # at least 95%, less three Monte Carlo standard errors
    assert covered / draws >= 0.95 - 3 * math.sqrt(0.95 * 0.05 / draws), covered / draws


def _role_row(base: float, variant: float, n: int, verdict: str = stats.SMALL, paired: bool = True) -> dict:
    diff = variant - base
    half = 1.96 * math.sqrt((base * (1 - base) + variant * (1 - variant)) / n)
    return {"metric": "role_win_share", "key": "seigneur", "label": "Seigneur side win share",
            "kind": "proportion", "base": base, "base_low": max(base - half, 0), "base_high": base + half,
            "variant": variant, "variant_low": max(variant - half, 0), "variant_high": variant + half,
            "diff": diff, "diff_low": diff - half, "diff_high": diff + half, "z": diff / half * 1.96,
            "p_value": 1e-9, "p_adjusted": 1e-8, "significant": True, "family": "roles", "family_size": 1,
            "smallest": 0.01, "size_low": diff - 1.2 * half, "size_high": diff + 1.2 * half,
            "verdict": verdict, "paired": paired, "base_n": n, "variant_n": n}


def _cmp(*rows) -> pl.DataFrame:
    return pl.DataFrame(list(rows), schema=COMPARE_SCHEMA)


_FACTOR = re.compile(r"\((\d[\d,]*) → (\d[\d,]*) games?: (\d[\d,]*) times less often; 95% interval "
                     r"([\d.,]+) to ([\d.,]+) times(, the runs' games taken as independent)?\)")


def _n(text: str) -> float:
    """A number as a sentence prints it ("3,600")."""
    return float(text.replace(",", ""))


def test_the_sentence_gives_the_games_and_the_factors_interval():
    n = 20000
    said = seat_question(_cmp(_role_row(82 / n, 2 / n, n)), "% of own goal", game="seigneurial")
    m = _FACTOR.search(said)
    assert m, said
    assert (m.group(1), m.group(2), m.group(3)) == ("82", "2", "41")
    # the printed interval holds scipy's (its ends rounded outward to 2 significant figures)
    low, high = _scipy_factor(82, n, 2, n)        # of after / before: the factor "less often" is 1 / R
    lo_said, hi_said = _n(m.group(4)), _n(m.group(5))
    assert lo_said <= 1 / high < lo_said * 1.1
    assert hi_said >= 1 / low > hi_said / 1.1
    # the runs played the same deals here: the interval says it takes them as independent
    assert m.group(6)
    unpaired = seat_question(_cmp(_role_row(82 / n, 2 / n, n, paired=False)), "% of own goal", game="seigneurial")
    assert _FACTOR.search(unpaired) and "taken as independent" not in unpaired


def test_a_side_that_never_wins_after_gets_the_intervals_one_end():
    n = 20000
    said = seat_question(_cmp(_role_row(88 / n, 0.0, n)), "% of own goal", game="seigneurial")
    m = re.search(r"\(88 → 0 games: it never wins after the change; 95% interval: at least ([\d.,]+) times "
                  r"less often", said)
    assert m, said
    _, high = _scipy_factor(88, n, 0, n)
    assert _n(m.group(1)) <= 1 / high < _n(m.group(1)) * 1.1
    said = seat_question(_cmp(_role_row(0.0, 9 / n, n)), "% of own goal", game="seigneurial")
    m = re.search(r"\(0 → 9 games: it never won before the change; 95% interval: at least ([\d.,]+) times "
                  r"as often", said)
    assert m, said
    low, _ = _scipy_factor(0, n, 9, n)
    assert _n(m.group(1)) <= low < _n(m.group(1)) * 1.1


def test_the_figure_caption_says_the_large_factor_the_answer_says():
    n = 20000
    cmp = _cmp(_role_row(88 / n, 7 / n, n))
    answer = seat_question(cmp, "% of own goal", game="seigneurial")
    assert "though by a large factor for a share this small" in answer, answer
    caption = _comparison_caption(cmp, "% of own goal")
    assert "though by a large factor for a share this small" in caption, caption
    # with the games and the interval, as the answer's sentence gives them
    assert _FACTOR.search(caption).groups() == _FACTOR.search(answer).groups(), (caption, answer)
    # and not where the share moved by enough to matter
    big = _cmp(_role_row(0.0044, 0.05, n, verdict=stats.LARGE))
    assert "large factor" not in _comparison_caption(big, "% of own goal")


@pytest.fixture(scope="module")
def seigneurial(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("s41_factor")
    a, b = tmp / "a", tmp / "b"
    # no Corvée cards: the Seigneur, who wins ~0.4% of games, wins ~10 times less often
    for out, more in ((a, []), (b, ["--set", "seigneur_cards.corvee=0"])):
        assert _run(["simulate", "--game", "seigneurial", "-n", "20000", "--seed", "1", *more,
                     "--out", str(out), "--quiet"]) == 0
    answers: list[str] = []
    from undrawn_figures import figures_undrawn

    with figures_undrawn():          # (the words are read: the figures built, not drawn)
        html = build_report([a, b], tmp / "rep", answers=answers)
    return a, b, html.read_text(encoding="utf-8"), answers


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_real_before_after_counts_the_games_the_runs_recorded(seigneurial):
    a, b, page, answers = seigneurial
    won = [int((pl.read_parquet(r / "games.parquet")["winner_role"] == "seigneur").sum()) for r in (a, b)]
    said = " ".join(answers)
    m = _FACTOR.search(said)
    assert m, said
    assert (int(m.group(1).replace(",", "")), int(m.group(2).replace(",", ""))) == tuple(won)
    low, high = _scipy_factor(won[0], 20000, won[1], 20000)
    assert _n(m.group(4)) <= 1 / high and _n(m.group(5)) >= 1 / low
    # the page's answer and its figure's caption say it too
    assert page.count(f"({m.group(1)} → {m.group(2)} games: ") >= 2


def test_a_wide_interval_prints_its_ends_as_numbers_that_hold_it():
    # 88 games to 1: the factor's upper end is in the thousands (no "3.6e+03", no "3524.3")
    n = 20000
    said = seat_question(_cmp(_role_row(88 / n, 1 / n, n)), "% of own goal", game="seigneurial")
    m = _FACTOR.search(said)
    assert m and (m.group(1), m.group(2), m.group(3)) == ("88", "1", "88"), said
    assert "(88 → 1 game: " in said
    low, high = _scipy_factor(88, n, 1, n)
    assert re.fullmatch(r"\d,\d00", m.group(5)), m.group(5)
    assert _n(m.group(4)) <= 1 / high < _n(m.group(4)) * 1.1
    assert _n(m.group(5)) >= 1 / low > _n(m.group(5)) / 1.1
