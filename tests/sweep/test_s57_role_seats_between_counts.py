"""Between two player counts of a game with roles, a seat of a role of several seats is compared
against its role's equal split (designer review, session 57 A): a Seigneurial `--vary players=3..5`
said "moves seat 2 (Censitaire)'s win share by −27.6 pp (−30.9 to −24.2): clear and large enough
to matter", the Censitaires' wins split over 4 seats instead of 2, arithmetic and no effect, and
drew it as the tornado's largest bar. The seat's effect is now the change of its advantage within
its role, win share − the role's win share / its seats (the alike-seats case's win share − 1/P
with the role for the table)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _seigneurial(winners: np.ndarray, P: int):
    """A Seigneurial variant whose game g is won by seat winners[g] (seat 1 the Seigneur, the
    others Censitaires), as :func:`analysis.sweep.metrics.from_tables` reads one."""
    from analysis.sweep.metrics import MetricInfo, VariantData

    w = np.zeros((winners.size, P))
    w[np.arange(winners.size), winners] = 1.0
    samples, info = {}, {}
    for s in range(P):
        k = f"seat_win_share_{s + 1}"
        samples[k] = w[:, s]
        info[k] = MetricInfo(k, f"seat {s + 1} ({'Seigneur' if s == 0 else 'Censitaire'})'s win share",
                             "pp", True)
    samples["role_win_share_seigneur"] = w[:, 0]
    samples["role_win_share_censitaire"] = w[:, 1:].sum(axis=1)
    info["role_win_share_seigneur"] = MetricInfo("role_win_share_seigneur", "the Seigneur's win share",
                                                 "pp", True)
    info["role_win_share_censitaire"] = MetricInfo("role_win_share_censitaire",
                                                   "the Censitaires' win share", "pp", True)
    return VariantData(Path("."), {"game": "seigneurial", "players": P}, P, samples, info, w, None)


def test_a_censitaire_seat_between_player_counts_is_read_against_its_roles_equal_split():
    from analysis.sweep.metrics import paired_effect, parameter_effects

    rng = np.random.default_rng(57)
    n = 4000
    # 3 players: the Censitaires win 96%, seat 2 a little more of it; 5 players: 99%, split evenly
    three = _seigneurial(rng.choice(3, size=n, p=[0.04, 0.50, 0.46]), 3)
    five = _seigneurial(rng.choice(5, size=n, p=[0.01, 0.2475, 0.2475, 0.2475, 0.2475]), 5)
    rows = {r["metric"]: r for r in parameter_effects(three, five)}
    c3, c5 = three.samples["role_win_share_censitaire"], five.samples["role_win_share_censitaire"]
    for s in (2, 3):
        k = f"seat_win_share_{s}"
        want = (five.samples[k] - c5 / 4).mean() - (three.samples[k] - c3 / 2).mean()
        r = rows[k]
        assert r["delta"] == pytest.approx(want, abs=1e-12)
        assert r["low"] < want < r["high"]
        assert "advantage among the Censitaires" in r["label"], r["label"]
        d, lo, hi = paired_effect(three, five, k)
        assert d == pytest.approx(want, abs=1e-12) and lo < d < hi
    # seat 2: +2 pp above an equal split at 3 (50 − 96/2) → 0 at 5: about −2 pp, not −25 pp
    assert -0.05 < rows["seat_win_share_2"]["delta"] < 0.0
    # the sides and the Seigneur's seat (a role of one seat: its own share) as they are
    for k in ("role_win_share_seigneur", "role_win_share_censitaire", "seat_win_share_1"):
        assert rows[k]["delta"] == pytest.approx(five.samples[k].mean() - three.samples[k].mean(), abs=1e-12)
        assert "advantage" not in rows[k]["label"]
    # at one player count a seat's share is compared as it is
    other = _seigneurial(rng.choice(5, size=n), 5)
    same = {r["metric"]: r for r in parameter_effects(five, other)}
    k = "seat_win_share_2"
    assert same[k]["delta"] == pytest.approx(other.samples[k].mean() - five.samples[k].mean(), abs=1e-12)
    assert same[k]["label"] == "seat 2 (Censitaire)'s win share"


def test_a_seigneurial_players_sweep_page_calls_no_split_of_the_censitaires_wins_an_effect(tmp_path, capsys):
    """The review's command at 1,500 games: no sentence, bar or caption gives a Censitaire seat's
    raw win share between 3 and 5 players; the sentence gives its advantage within its role, whose
    change is the one recomputed from each variant's rows."""
    import polars as pl

    from analysis.sweep.metrics import sensitivity
    from cli import _run
    from reports.figures.sweep import tornado, tornado_bars
    from reports.sweep import share_bars_words

    out = tmp_path / "sw"
    assert _run(["sweep", "--game", "seigneurial", "--vary", "players=3..5", "--games", "1500",
                 "--out", str(out), "-q"]) == 0
    from undrawn_figures import figures_undrawn

    # (the page's figures 1x1 stand-ins: its words are read, and the figures below are built here;
    # a Seigneurial players sweep's page is drawn by test_s47_sweep_words.py)
    with figures_undrawn():
        assert _run(["report", str(out), "--out", str(tmp_path / "rep")]) == 0
    capsys.readouterr()
    page = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ",
                                                     (tmp_path / "rep" / "report.html").read_text())))
    raw = re.search(r"moves seat \d \(Censitaire\)'s win share by[^:]*", page)
    assert raw is None, raw[0]
    e = sensitivity(out).effects
    drawn = {m for _, m in tornado_bars(e, True)}
    censitaires = e.filter(pl.col("metric").is_in([m for m in drawn if m.startswith("seat_win_share_")])
                           & pl.col("label").str.contains("Censitaire"))
    assert censitaires.height >= 2
    assert all("advantage among the Censitaires" in x for x in censitaires["label"]), censitaires["label"]
    assert "advantages" in share_bars_words(e) and "within their role" in share_bars_words(e)
    # the bar names the seat, its role and what is compared, not "seat 2" alone
    bars = [t.get_text() for ax in tornado(e, True, "").axes for t in ax.get_yticklabels()]
    assert any(b.endswith(": seat 2 (Censitaire)'s advantage among the Censitaires") for b in bars), bars

    # the seats' curves carry the reference they are compared with: the Censitaires' win share /
    # their seats at each count (as 1/P in a game whose seats are alike)
    from reports.figures.sweep import curves

    s = sensitivity(out)
    split = [ln for ax in curves(s.curves, "players", None, "").axes for ln in ax.get_lines()
             if ln.get_label() == "equal split of the Censitaires' wins"]
    assert len(split) == 1
    side = s.curves.filter(pl.col("metric") == "role_win_share_censitaire").sort("x")
    assert list(split[0].get_ydata()) == pytest.approx(
        [100 * x / k for x, k in zip(side["estimate"], (2, 3, 4))], abs=1e-9)

    def seat2(players: int) -> float:
        runs = [p for p in out.rglob("players.parquet") if pl.read_parquet(p)["seat"].max() == players - 1]
        assert len(runs) == 1
        p = pl.read_parquet(runs[0]).with_columns(pl.col("win_share").cast(pl.Float64))
        per_game = p.group_by("game", maintain_order=True).agg(
            pl.col("win_share").filter(pl.col("seat") == 1).sum().alias("seat"),
            pl.col("win_share").filter(pl.col("role") == "censitaire").sum().alias("side"))
        return float((per_game["seat"] - per_game["side"] / (players - 1)).mean())

    change = 100 * (seat2(5) - seat2(3))
    said = re.search(r"Raising players from 3 to 5 moves seat 2 \(Censitaire\)'s advantage among the "
                     r"Censitaires \([^)]*\) by ([−+\-]?\d+\.\d+) pp", page)
    if said is not None:              # a sentence only when the change is clear
        assert float(said[1].replace("−", "-")) == pytest.approx(change, abs=0.051)
    row = e.filter(pl.col("metric") == "seat_win_share_2").row(0, named=True)
    assert 100 * row["delta"] == pytest.approx(change, abs=1e-6)
