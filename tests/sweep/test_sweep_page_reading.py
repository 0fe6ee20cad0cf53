"""The sweep page as a designer reads it: every curve panel says its unit, the fair-share line sits
at 1/P for the player count of each point, the page's words say how its intervals are built, and
``--vary`` takes listed words as ``--set`` takes a word.

The curve tables here are written by hand (the numbers of a real Middle-Ages sweep over 2-5
players), so nothing is played (well under a second).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest


def _rows(parameter, points):
    """Curve rows: ``points`` = [(value, players, {metric: (estimate, low, high, unit, share)})]."""
    rows = []
    for order, (value, _players, metrics) in enumerate(points):
        for metric, (est, lo, hi, unit, share) in metrics.items():
            label = (f"seat {metric.rsplit('_', 1)[1]}'s win share" if metric.startswith("seat_win")
                     else metric.replace("_", " "))
            number = not isinstance(value, str)
            rows.append({"parameter": parameter, "value": str(value) if number else f'"{value}"',
                         "x": float(value) if number else None,
                         "order": order, "variant": f"v{order:03d}", "metric": metric,
                         "label": label, "unit": unit, "share": share, "estimate": est,
                         "low": lo, "high": hi})
    return pl.DataFrame(rows)


def _seats(shares):
    return {f"seat_win_share_{s + 1}": (x / 100, (x - 1.5) / 100, (x + 1.5) / 100, "pp", True)
            for s, x in enumerate(shares)}


@pytest.fixture(scope="module")
def agg():
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    return FigureCanvasAgg


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_every_panel_names_its_own_unit_and_the_fair_line_follows_the_player_count(agg):
    """A sweep over players=2..5 (Middle-Ages, 3,000 games a variant): the fair-share line was drawn
    at 50% (1/2, the first variant's) at every player count; the seat balance's axis read 'win share
    (%)' although it is a distance from the fair share in pp; and a game recording its length in
    rounds (Fief) had its length axis labelled 'turns'."""
    points = []
    for p, shares in ((2, [46.3, 53.7]), (3, [28.8, 34.1, 37.1]), (4, [20.9, 23.8, 29.6, 25.7]),
                      (5, [16.4, 19.7, 24.1, 22.3, 17.5])):
        m = _seats(shares)
        m["balance"] = (0.04, 0.02, 0.06, "pp", True)
        m["game_length"] = (2.33, 2.29, 2.37, "rounds", False)
        points.append((p, p, m))
    from reports.figures.sweep import curves

    fig = curves(_rows("players", points), "players", 0.5, "points")
    agg(fig).draw()
    axes = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    seat = next(ax for t, ax in axes.items() if t.startswith("win share"))
    dashed = [ln for ln in seat.get_lines() if ln.get_linestyle() == "--"]
    assert dashed, "no fair-share line"
    want = {2: 50.0, 3: 100 / 3, 4: 25.0, 5: 20.0}
    for ln in dashed:
        xs, ys = np.asarray(ln.get_xdata(), float), np.asarray(ln.get_ydata(), float)
        if ln.get_transform() != seat.transData:       # an axhline: one height for every x
            xs = np.array(sorted(want), float)
            ys = np.full(xs.size, ys[0])
        for x, y in zip(xs, ys):
            if x in want:
                assert y == pytest.approx(want[int(x)]), (x, y)
    balance = next(ax for t, ax in axes.items() if t.startswith("seat imbalance"))
    assert "win share" not in balance.get_ylabel() and "pp" in balance.get_ylabel()
    length = next(ax for t, ax in axes.items() if t.startswith("game length"))
    assert "rounds" in length.get_title() and "rounds" in length.get_ylabel()
    assert "turns" not in length.get_title() + length.get_ylabel()


def test_vary_takes_a_list_of_words_as_set_takes_a_word():
    """`--vary 'combat.lords_removed=[last, first]'` (the form docs/sweep.md and the error message
    give, `PATH=[a, b, c]`) was refused: "expected a range … or a list ([a, b, c])"."""
    from analysis.sweep.grammar import parse_vary
    from simcore.errors import UsageError

    v = parse_vary("combat.lords_removed=[last, first]")
    assert v.values == ("last", "first") and v.kind == "list"
    assert parse_vary("mercy.policy=[never, defender:3]").values == ("never", "defender:3")
    assert parse_vary("income.palais.base=[2, 4]").values == (2, 4)
    with pytest.raises(UsageError, match="listed twice"):
        parse_vary("combat.lords_removed=[last, last]")
    with pytest.raises(UsageError, match="empty"):
        parse_vary("combat.lords_removed=[ , ]")


def test_the_strategies_row_of_a_game_without_bots_says_so():
    """A Fief sweep (no bots: the game's spec has no strategies) headed its page 'strategies: the
    default (None)'."""
    from reports.sweep import strategies_text
    from simcore import games as registry

    fief = registry.get("fief-combat")
    assert fief.strategies is None and fief.default_strategy is None
    text = strategies_text({"game": "fief-combat", "strategies": None}, fief)
    assert "None" not in text and "no bots" in text
    ma = registry.get("middle-ages")
    assert strategies_text({"game": "middle-ages", "strategies": None}, ma) == \
        f"the default ({ma.default_strategy})"
    assert strategies_text({"game": "middle-ages", "strategies": "greedy"}, ma) == "greedy"


def test_every_variant_table_gives_the_seat_balance_in_pp_and_shares_in_percent():
    """The 'Every variant' table read 'the seat balance … 4.37 3.25 5.49 %': a distance from the fair
    share is in percentage points, not a share. Rows of v000 of docs/sweep.md's example (10,000
    games): balance 0.0437 (0.0325-0.0549), seat 1 0.2075 (0.1996-0.2154), margin 23.24 coins."""
    from reports.sweep import variant_table

    rows = [("balance", "the seat balance", "pp", True, 0.0437, 0.0325, 0.0549),
            ("seat_win_share_1", "seat 1's win share", "pp", True, 0.2075, 0.1996, 0.2154),
            ("winner_margin", "the winner's margin", "coins", False, 23.24, 22.86, 23.62)]
    v = pl.DataFrame([{"variant": "v000", "label_variant": "income.palais.base=1", "metric": m,
                       "label": lab, "unit": u, "share": sh, "estimate": e, "low": lo, "high": hi}
                      for m, lab, u, sh, e, lo, hi in rows])
    t = variant_table(v)
    got = {r["metric"]: (r["estimate"], r["low"], r["high"], r["unit"]) for r in t.iter_rows(named=True)}
    assert got["the seat balance"] == (4.37, 3.25, 5.49, "pp")
    assert got["seat 1's win share"] == (20.75, 19.96, 21.54, "%")
    assert got["the winner's margin"] == (23.24, 22.86, 23.62, "coins")


def test_the_tornado_says_when_it_shows_only_the_largest_effects():
    """A sweep of 4 parameters at 5 players has 4 x 6 = 24 share effects (5 seats and the seat
    balance); the tornado drew the 16 largest and dropped 8 without a word (the page has no other
    place showing every effect)."""
    from reports.figures.sweep import tornado

    rows = [{"parameter": f"p{k}", "from": "0", "to": "1", "label": f"seat {s}'s win share",
             "metric": f"seat_win_share_{s}", "unit": "pp", "share": True,
             "delta": 0.001 * (k * 6 + s), "low": 0.0, "high": 0.002 * (k * 6 + s)}
            for k in range(4) for s in range(1, 7)]
    fig = tornado(pl.DataFrame(rows), True, "coins")
    texts = " ".join(t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text")))
    assert "16 largest of 24" in texts, texts
    few = tornado(pl.DataFrame(rows[:10]), True, "coins")
    assert "largest of" not in " ".join(t.get_text() for t in few.findobj(lambda a: hasattr(a, "get_text")))


def _variant_of(winners: np.ndarray, P: int):
    """A Middle-Ages variant whose game g is won by seat winners[g] (one-hot win shares)."""
    from pathlib import Path

    from analysis.sweep.metrics import MetricInfo, VariantData

    w = np.zeros((winners.size, P))
    w[np.arange(winners.size), winners] = 1.0
    samples = {f"seat_win_share_{s + 1}": w[:, s] for s in range(P)}
    info = {k: MetricInfo(k, f"seat {k[-1]}'s win share", "pp", True) for k in samples}
    return VariantData(Path("."), {"game": "middle-ages", "players": P}, P, samples, info, w, 1.0 / P)


def test_between_player_counts_a_share_effect_is_its_change_against_the_fair_share():
    """A sweep over players said "moves seat 2's win share by -34 pp" from 2 to 5 players: the fair
    share's own move (1/2 → 1/5), not anything the seat gained or lost. Between two player counts
    each seat's effect is now the change of its distance from its fair share, and says so; at one
    player count nothing changes."""
    from analysis.sweep.metrics import paired_effect, parameter_effects

    rng = np.random.default_rng(5)
    n = 4000
    two = _variant_of(rng.choice(2, size=n, p=[0.46, 0.54]), 2)
    five = _variant_of(rng.choice(5, size=n, p=[0.16, 0.20, 0.24, 0.22, 0.18]), 5)
    rows = {r["metric"]: r for r in parameter_effects(two, five)}
    for s in (1, 2):
        k = f"seat_win_share_{s}"
        want = (five.samples[k].mean() - 0.2) - (two.samples[k].mean() - 0.5)
        assert rows[k]["delta"] == pytest.approx(want, abs=1e-12)
        assert rows[k]["low"] < want < rows[k]["high"]
        assert rows[k]["label"] == f"seat {s}'s advantage (win share − fair share)", rows[k]["label"]
        d, lo, hi = paired_effect(two, five, k)
        assert d == pytest.approx(want, abs=1e-12) and lo < d < hi
    # seat 2: 54% of 2 players (+4 pp above 1/2) → 20% of 5 (±0 pp): about −4 pp, not −34 pp
    assert -0.08 < rows["seat_win_share_2"]["delta"] < 0.0
    other = _variant_of(rng.choice(5, size=n), 5)
    same = {r["metric"]: r for r in parameter_effects(five, other)}
    k = "seat_win_share_2"
    assert same[k]["delta"] == pytest.approx(other.samples[k].mean() - five.samples[k].mean(), abs=1e-12)
    assert same[k]["label"] == "seat 2's win share"
