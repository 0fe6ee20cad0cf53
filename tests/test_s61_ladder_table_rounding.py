"""Review s61: `balance ladder`'s tables printed every share as ``f"{100 * x:.1f}"``: a half to
even in binary (search8 0.5925 against copies of balanced printed "59.2%", `balance skill` prints
59.25% as "59.3%", halves away from zero, :func:`simcore.numbers.rounded`), and a rare share's
interval end of 0.013% as "0.0" (`balance skill`: "0.50% (0.01–2.78)", no end that is not 0%
printed as it). The cells now print as `balance skill`'s (:func:`reports.text.pct_ci`); a
shared-role cell's bracket (the column bot's own share) and a cell of the same play round alike.
The tables are printed from cells built here (no game is played)."""

from __future__ import annotations

import importlib
import re

import numpy as np
from rich.console import Console

from analysis import ladder as L
from analysis.stats import wilson
from cli import ladder as C
from simcore.games import get as get_spec

P = 4


def _rotated(bot, opp, wins, n_deals, seed, fair=1 / P, **kw) -> L.Cell:
    w = np.zeros(n_deals * P)
    w[np.random.default_rng(seed).choice(w.size, wins, replace=False)] = 1.0
    w = w.reshape(n_deals, P)
    mean, se, lo, hi = L.deal_interval(w)
    return L.Cell(bot, opp, w.size, mean, se, lo, hi, fair, per_deal=w.mean(axis=1), **kw)


def _text(print_it) -> str:
    console = Console(record=True, width=400, color_system=None)
    print_it(console)
    return console.export_text()


def test_the_matrix_rounds_halves_away_from_zero_and_keeps_a_rare_end_off_zero():
    # 400 games a cell (100 deals × 4 rotations), as `--games 400` at 4 players
    cells = {("search8", "balanced"): _rotated("search8", "balanced", 237, 100, 1),
             ("balanced", "search8"): _rotated("balanced", "search8", 125, 100, 2)}
    rare = _rotated("search2", "balanced", 1, 100, 3)
    cells[("search2", "balanced")] = rare
    assert rare.ci_low > 0 and 100 * rare.ci_low < 0.05                # prints 0.0 at one decimal
    names = ["balanced", "search2", "search8"]
    calls = dict(zip(cells, L.fair_calls(list(cells.values()), P, family=3)))
    spec = get_spec("middle-ages")
    out = _text(lambda con: C._print_ladder(con, L, spec, cells, names, 400, P, 3, calls, 3, [P]))
    assert "59.3% (" in out and "31.3% (" in out, out
    assert "59.2%" not in out and "31.2%" not in out, out
    low = re.search(r"0\.25\d*% \(([\d.]+)–", out)
    assert low is not None and float(low.group(1)) > 0, out


def test_the_role_tables_round_alike_with_the_bracket_and_a_rare_share():
    spec = get_spec("seigneurial")
    S = importlib.import_module(spec.strategies)
    lead, shared = L.seat_roles("seigneurial", P)
    lo, hi = wilson(1, 200)
    lead_cells = [L.Cell("even-lord", "standard", 200, 0.005, float("nan"), float(lo), float(hi), 0.25),
                  L.Cell("standard", "standard", 200, 0.0, float("nan"), 0.0, float(wilson(0, 200)[1]), 0.25)]
    # a shared cell whose share and bracket are halves at one decimal: 30.25% beside 31.25%
    shared_cells = [_rotated("search4", "standard", 121, 100, 4, fair=0.3125, diff_std_error=0.03,
                             deals=100, fair_std_error=0.02),
                    _rotated("standard", "standard", 125, 100, 5, fair=0.3125)]
    cells = {lead: lead_cells, shared: shared_cells}
    out = _text(lambda con: C._print_role_ladder(con, L, S, spec, cells, ["even-lord", "standard", "search4"],
                                                200, P, 3, "seigneurial", None))
    assert "0.50% (0.01–2.78)" in out, out               # 1 win in 200: its low end 0.013%
    assert "win 0.00–0.50% of the games" in out, out      # the headline names them as the table
    assert "30.3% (" in out and "[31.3%]" in out, out
    assert "31.3% (the same play as standard)" in out, out
    assert "30.2%" not in out and "31.2%" not in out, out
