"""The ladder's terminal table says what its intervals are and calls each cell against the fair
share (revD #13): the caption names the t interval over the deals, unadjusted over the cells, and
▲/▼ mark the cells :func:`analysis.ladder.fair_calls` calls clearly above or below 1/P with the
cells adjusted together (Bonferroni over the k cells). Checked against scipy's t quantile, and by
simulation: over 12 cells at their true share, the chance that any cell is called is at most 5%."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from scipy.stats import t as student

from analysis import ladder as L


def _cells(rng, truths, deals=200, players=4, fair=0.25):
    """Cells whose per-deal outcome shares a deal effect (the rotations of a deal are not
    independent): a deal's win probability is the truth ± 0.1, each rotation a Bernoulli draw."""
    out = []
    for k, p in enumerate(truths):
        q = np.clip(p + rng.choice([-0.1, 0.1], size=(deals, 1)), 0, 1)
        w = (rng.random((deals, players)) < q).astype(float)
        mean, se, lo, hi = L.deal_interval(w)
        out.append(L.Cell(f"a{k}", f"b{k}", w.size, mean, se, lo, hi, fair))
    return out


def test_the_calls_are_bonferroni_t_intervals_against_the_fair_share():
    rng = np.random.default_rng(1)
    cells = _cells(rng, [0.25] * 10 + [0.32, 0.19])
    calls = L.fair_calls(cells, players=4)
    for c, call in zip(cells, calls):
        deals = c.games // 4
        half = student.ppf(1 - 0.05 / 12 / 2, deals - 1) * c.std_error
        want = "above" if c.win_share - half > c.fair else "below" if c.win_share + half < c.fair else None
        assert call == want
    assert calls[-2:] == ["above", "below"]


def test_the_calls_are_wrong_together_at_most_5_percent_of_the_time():
    rng = np.random.default_rng(7)
    reps, wrong = 400, 0
    for _ in range(reps):
        wrong += any(c is not None for c in L.fair_calls(_cells(rng, [0.25] * 12, deals=100), players=4))
    # Bonferroni: at most 5%; 400 reps, binomial sd ~1.1 pp at 5%
    assert wrong / reps <= 0.075, wrong / reps


def test_the_terminal_table_says_what_its_interval_is():
    from rich.console import Console

    from cli.ladder import _ladder

    rng = np.random.default_rng(3)

    def duel(a, b, n, **kw):
        p = {"strong": 0.45, "weak": 0.05}[a]
        c = _cells(rng, [p], deals=n // 4)[0]
        return L.Cell(a, b, c.games, c.win_share, c.std_error, c.ci_low, c.ci_high, c.fair)

    fake = SimpleNamespace(pairs=L.pairs, duel=duel, fair_calls=L.fair_calls,
                           ladder_table=lambda cells, **kw: None)
    console = Console(record=True, width=200)
    _ladder(console, fake, SimpleNamespace(name="middle-ages"), ["strong", "weak"], 400, 4, 0,
            "middle-ages", None, ())
    out = console.export_text()
    assert "95% intervals: Student t over the 100 deals of a matchup" in out, out
    assert "unadjusted over the 2 matchups" in out and "Bonferroni" in out and "fair 25%" in out
    assert "▲" in out and "▼" in out
