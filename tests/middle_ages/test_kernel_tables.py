"""Tables the kernel derives once per block from the rules it is given (speed: docs/middle_ages_engine.md).

``kernel.prepare_reset`` writes them into the game workspace's copy of the rules; the rollout and
search playouts run on a second workspace (``scratch``), which must read the same tables, or a
playout would play other rules than the game (MA-5 Palais: its legal pairs come from R_PLOTDOMS).
"""

from __future__ import annotations

import numpy as np

from simcore.games.middle_ages import driver as D, layout as L
from simcore.games.middle_ages import rules as R
from strategies.middle_ages import resolve

RULES = R.load()


def _block():
    _, rows = resolve(["balanced"] * 4, 4)
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    D.load_block(ws, sc, D.pack_rules(RULES), rows, 4)
    return ws, sc


def test_palais_pairs_table_lists_the_domains_whose_income_does_not_count_the_token():
    ws, _ = _block()
    for tok in range(R.N_TYPES):
        expected = sum(1 << d for d in range(R.N_TYPES) if RULES.income_counts[d, tok] == 0)
        assert ws[L.W_RK + L.R_PLOTDOMS + tok] == expected, f"token type {tok}"


def test_playouts_workspace_reads_the_same_rules_tables_as_the_game():
    ws, sc = _block()
    np.testing.assert_array_equal(sc[L.W_RK:L.W_RK + L.R_SIZE], ws[L.W_RK:L.W_RK + L.R_SIZE])
