"""A tune's verdict in words says what the confirmation's numbers show: "met" when every interval
lies inside the tolerance, "not met" only when one lies wholly outside it, and "unclear" when an
interval straddles the tolerance's edge (the games cannot tell); and it names the player count and
line-up it holds for (one line-up), or the cells where it is met, not met and unclear (a panel).
Pure: per-game win vectors built here, with shares and intervals known by construction."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from analysis.sweep.metrics import MetricInfo, VariantData
from analysis.tune.cells import aggregate, panel_sentence
from analysis.tune.targets import evaluate, parse_targets, sentence

N = 4000


def two_seats(first_wins: int) -> VariantData:
    """N games of 2 players; seat 1 wins the first ``first_wins`` (share first_wins / N)."""
    w = np.zeros((N, 2))
    w[:first_wins, 0] = 1.0
    w[first_wins:, 1] = 1.0
    samples = {f"seat_win_share_{s + 1}": w[:, s] for s in range(2)}
    info = {k: MetricInfo(k, k, "pp", True) for k in samples}
    return VariantData(Path("."), {"game": "middle-ages", "players": 2}, 2, samples, info, w, 0.5)


TARGETS = parse_targets(["seat-balance:3"], "middle-ages")          # 47% .. 53%
# seat 1 at 50% (interval ~±1.9 pp: inside), at 53% (on the edge: straddles), at 60% (wholly above)
MET, UNCLEAR, MISSED = two_seats(2000), two_seats(2120), two_seats(2400)


def test_a_target_is_not_met_only_when_an_interval_lies_wholly_outside_the_tolerance():
    met, unclear, missed = (evaluate(v, TARGETS) for v in (MET, UNCLEAR, MISSED))
    assert met.met and not met.parts[0]["missed"]
    assert not unclear.met and not unclear.parts[0]["missed"]
    assert not missed.met and missed.parts[0]["missed"]
    s = sentence(unclear, TARGETS, 0.5, "x=1", N, 1)
    assert s.startswith("Target not confirmed") and "not met" not in s and "unclear" in s
    assert sentence(missed, TARGETS, 0.5, "x=1", N, 1).startswith("Target NOT met")
    assert sentence(met, TARGETS, 0.5, "x=1", N, 1).startswith("Target met")


def test_one_lineup_verdict_names_its_player_count_and_lineup_and_that_no_other_was_played():
    j = evaluate(MET, TARGETS)
    s = panel_sentence(aggregate([j], ["2p 2×greedy"], [1.0]), TARGETS, [0.5], "x=1", N, 1)
    assert s.startswith("Target met for 2p 2×greedy (confirmed for this line-up and player count only)"), s


def test_panel_verdict_names_the_cells_met_not_met_and_unclear():
    # (each cell judged as a cell of its panel: its objective's interval at 1 − 0.05/cells too)
    cells = [evaluate(v, TARGETS, cells=3) for v in (MET, UNCLEAR, MISSED)]
    two = [evaluate(v, TARGETS, cells=2) for v in (MET, UNCLEAR)]
    labels = ["2p 2×balanced", "2p 2×greedy", "2p 2×eventwise"]
    s = panel_sentence(aggregate(cells, labels, [1.0] * 3), TARGETS, [0.5] * 3, "x=1", N, 12345678901)
    assert s.startswith("Target NOT met: met in 1 of 3 cells (2p 2×balanced)")
    not_met = s.split("; not met in ", 1)[1]
    assert not_met.startswith("2p 2×eventwise") and "2p 2×greedy" not in not_met.split("; unclear in ")[0]
    assert "unclear in 2p 2×greedy" in s
    assert "12345678901" not in s                     # the long seed is in result.json only
    every = panel_sentence(aggregate(two[:1] * 2, labels[:2], [1.0] * 2), TARGETS, [0.5] * 2,
                           "x=1", N, 1)
    assert every.startswith("Target met in every cell (all 2: 2p 2×balanced, 2p 2×greedy)")
    only_unclear = panel_sentence(aggregate(two, labels[:2], [1.0] * 2), TARGETS, [0.5] * 2,
                                  "x=1", N, 1)
    assert only_unclear.startswith("Target not confirmed (unclear): met in 1 of 2 cells (2p 2×balanced)")
