"""A missed tune whose closest candidate sits at the edge of its range says so, with a range to try.

The designer review's tune missed its target with track.goal.4 = 6, the lowest value of 6..10,
and was told only "widen the --vary ranges". The advice now names the setting at the edge and a
range beyond it (not below 0: a count or a square has none).
"""

from __future__ import annotations


def _result(values):
    return {"best_trial": 7, "values": values, "settings": [f"{k}={v}" for k, v in values.items()],
            "confirm": {"games": 6000, "judgement": {"met": False}}, "met": False}


VARIES = [{"name": "track.start_square", "kind": "int", "lo": 0, "hi": 3, "step": None},
          {"name": "track.goal.4", "kind": "int", "lo": 6, "hi": 10, "step": None},
          {"name": "favour.rate", "kind": "float", "lo": 0.5, "hi": 1.5, "step": 0.25}]


def test_the_edges_are_named_with_a_range_beyond():
    from analysis.tune.advice import edge_words

    said = edge_words(_result({"track.start_square": 0, "track.goal.4": 6, "favour.rate": 1.5}), VARIES)
    assert "track.start_square" not in said                      # 0: nothing below it
    assert "track.goal.4 = 6 is the lowest value searched: try --vary track.goal.4=4..6" in said
    assert "favour.rate = 1.5 is the highest value searched: try --vary favour.rate=1.5..2" in said
    assert edge_words(_result({"track.start_square": 2, "track.goal.4": 8, "favour.rate": 1.0}), VARIES) == ""


def test_the_missed_advice_carries_them(monkeypatch):
    from analysis.tune import advice

    monkeypatch.setattr(advice, "confirmed_outcome", lambda result: "missed")
    monkeypatch.setattr(advice, "how_far", lambda result, targets: "")
    line = advice.adopt_advice(_result({"track.start_square": 1, "track.goal.4": 10, "favour.rate": 1.0}),
                               varies=VARIES)[0]
    assert "It sits at the edge of the search: track.goal.4 = 10 is the highest value searched: try " \
           "--vary track.goal.4=10..12" in line, line
    line = advice.adopt_advice(_result({"track.start_square": 1, "track.goal.4": 8, "favour.rate": 1.0}),
                               varies=VARIES)[0]
    assert "Widen the --vary ranges" in line and "edge" not in line
