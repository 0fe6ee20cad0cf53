"""``simulate``'s closing table prints the interval ``balance report`` and ``balance export`` print
for the same share, in every game (designer review 225 #2: a Seigneur who won 2 of 800 games read
0.25% (0.07–0.91%) in the terminal, (0.03–0.91%) on the page and in the export: the terminal used
the plain score interval, the report Wilson's with the exact Poisson end for 1-3 wins that the
glossary promises)."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from simcore import runner


def _line(text: str, seat: int) -> str:
    return next(ln for ln in text.splitlines() if ln.lstrip("│┃ ").startswith(f"{seat} │"))


@pytest.mark.parametrize("game, games, seed, strategies", [
    ("seigneurial", 800, 3, None),                          # the Seigneur: 2 wins of 800
    ("middle-ages", 400, 1, "balanced,random,random,random"),
    ("medievallons", 300, 2, None),
    ("fief-combat", 600, 4, None),
])
def test_the_closing_table_prints_the_reports_interval_for_every_seat(tmp_path, game, games, seed, strategies):
    from analysis import open_runs
    from analysis.matchups import strategy_table
    from analysis.seats import seat_table
    from cli.progress import print_summary
    from simcore.numbers import rounded

    res = runner.simulate(game, games=games, seed=seed, out=tmp_path / "r", quiet=True, result=True,
                          **({"strategies": strategies} if strategies else {}))
    out = io.StringIO()
    print_summary(Console(file=out, width=220), res)
    text = out.getvalue()
    two = lambda v: f"{rounded(100 * v, 2):.2f}"         # noqa: E731
    rs = open_runs([res.path])
    for r in seat_table(rs).iter_rows(named=True):
        line = _line(text, r["seat"] + 1)
        assert f"{two(r['win_share'])}%" in line, (line, r)
        assert f"{two(r['ci_low'])}–{two(r['ci_high'])}%" in line, (line, r)
    if strategies:
        for r in strategy_table(rs).iter_rows(named=True):
            line = next(ln for ln in text.splitlines() if f" {r['strategy']} " in ln and "│" in ln
                        and not ln.lstrip("│ ")[:1].isdigit())
            assert f"{two(r['ci_low'])}–{two(r['ci_high'])}%" in line, (line, r)


def test_the_seigneur_with_two_wins_of_800_reads_the_reports_interval(tmp_path):
    from cli.progress import print_summary

    res = runner.simulate("seigneurial", players=4, games=800, seed=3, out=tmp_path / "s", quiet=True,
                          result=True)
    out = io.StringIO()
    print_summary(Console(file=out, width=220), res)
    line = _line(out.getvalue(), 1)
    assert "0.25%" in line and "0.03–0.91%" in line and "0.07–0.91%" not in line, line


def test_a_fief_combats_outcome_rows_print_the_reports_intervals(tmp_path):
    """The Fief combat's outcomes under the seat table (P(attacker wins), P(defender holds), P(both
    wiped out), the attacker's win share) read the intervals of ``balance export --what ends`` and
    ``--what roles`` (300 combats, seed 4: 1 defender hold and 2 mutual wipe-outs, where the plain
    score interval's low end is 0.0006 against the exact Poisson end's 0.0001)."""
    from analysis.export import analysis_table
    from cli.progress import print_summary

    res = runner.simulate("fief-combat", games=300, seed=4, out=tmp_path / "f", quiet=True, result=True)
    out = io.StringIO()
    print_summary(Console(file=out, width=220), res)
    text = out.getvalue()
    ends = {r["end_reason_name"]: r for r in analysis_table(res.path, "ends").iter_rows(named=True)}
    side = {r["role"]: r for r in analysis_table(res.path, "roles").filter(level="side").iter_rows(named=True)}
    assert ends["defender"]["games"] == 1 and ends["both_wiped"]["games"] == 2
    for label, r in (("P(attacker wins)", ends["attacker"]), ("P(defender holds)", ends["defender"]),
                     ("P(both wiped out)", ends["both_wiped"]),
                     ("attacker win share = wins + ½ both wiped out", side["attacker"])):
        line = next(ln for ln in text.splitlines() if f"│ {label} " in ln)
        assert f"{r['ci_low']:.4f} – {r['ci_high']:.4f}" in line, (line, r["ci_low"], r["ci_high"])


def test_the_core_interval_is_the_analysis_interval():
    """simcore.stats.wilson_counts (what a game's own closing rows use below the analysis layer) and
    analysis.stats.wilson are one interval: the same to 1e-12 at 0-5 successes or failures and
    between, whole and fractional, at n from 5 to 100,000."""
    import numpy as np

    from analysis.stats import wilson
    from simcore.stats import wilson_counts

    for n in (5, 20, 50, 51, 300, 4000, 100_000):
        for k in sorted({0, 0.5, 1, 2, 2.5, 3, 4, 5, n / 3, n - 4, n - 3, n - 2.5, n - 2, n - 1, n - 0.5, n}):
            lo, hi = wilson(np.array([k]), np.array([n]))
            assert wilson_counts(k, n) == pytest.approx((lo[0], hi[0]), abs=1e-12), (k, n)
