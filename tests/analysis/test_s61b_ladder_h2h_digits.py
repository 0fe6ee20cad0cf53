"""A ladder's head-to-head difference is printed beside its size against the 1 pp that matters:
an end printed next to "none as large as 1 pp" must not print as 1 pp (review s61 fix 266 #1: an
interval from −0.96 pp printed "−1.0 to +0.9 pp: none as large as 1 pp either way", a sentence
false for the number beside it). The interval's ends take the decimals of
:func:`simcore.numbers.verdict_digits`: "−0.96 to +0.91 pp".

Made-up cells: two rotated cells of 4,000 deals × 4 games (16,000 games each), the leader winning
4,000 and the other bot 4,004 games; their paired per-deal difference's 95% interval is
−0.965 to +0.915 pp."""

from __future__ import annotations


from analysis import ladder as L
from ladder_cells import rotated_cell

P = 4
DEALS = 4000


def _rotated(bot: str, opp: str, wins: int, seed: int) -> L.Cell:
    """A rotated cell of ``wins`` in DEALS × P games (:func:`ladder_cells.rotated_cell`)."""
    return rotated_cell(bot, opp, wins, seed, DEALS, P)


def test_an_end_under_one_pp_never_prints_as_one_pp_beside_none_as_large():
    cells = [_rotated("balanced", "collector", 4000, 2), _rotated("collector", "balanced", 4004, 3)]
    h = L._head_to_head(cells, "balanced", "collector", P, 0.05, 1)
    assert h is not None and h.paired
    assert -0.00965 < h.low < -0.0096 and 0.009 < h.high < 0.0092, (h.low, h.high)
    said = L._h2h_item(h)
    assert said.endswith("none as large as 1 pp either way"), said
    assert "a difference of −0.96 to +0.91 pp" in said, said
    assert "1.0 " not in said, said


def test_an_end_beyond_one_pp_is_not_printed_as_one_pp_beside_at_least():
    # the other side of the threshold: a clear difference whose lower end is 1.04 pp reads "at least
    # 1 pp"; at one decimal "+1.0" would read as the threshold, not above it
    h = L.HeadToHead("collector", 0.27, 0.25, 0.0104, 0.0296, True)
    said = L._h2h_item(h)
    assert said.endswith(": at least 1 pp"), said
    assert "a difference of +1.04 to +2.96 pp" in said, said


def test_ends_far_from_the_marks_keep_one_decimal():
    h = L.HeadToHead("collector", 0.225, 0.229, -0.016, 0.008, True)
    said = L._h2h_item(h)
    assert "a difference of −1.6 to +0.8 pp" in said, said


def test_an_end_of_a_half_under_one_pp_is_read_as_it_prints():
    # −0.95 pp prints "−1.0" (halves away from zero, simcore.numbers.rounded, the rule every page
    # prints with), though Python's round() gives −0.9 (binary −0.95 lies just above it): the
    # decimals are read on the printed end, so it prints "−0.95"
    h = L.HeadToHead("collector", 0.25, 0.25, -0.0095, 0.009, True)
    said = L._h2h_item(h)
    assert said.endswith("none as large as 1 pp either way"), said
    assert "a difference of −0.95 to +0.90 pp" in said, said
