"""analysis.games.seigneurial: objective cards, land improvements and the Seigneur's square, checked
against sums computed directly from the synthetic rows and against scipy's Wilson interval."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from analysis import open_runs
from analysis.games import seigneurial as sg
from tests.analysis.analysis_runs import write_run

RULES_TEXT = """
[objectives]
cards = [ { grain = 6, wood = 4 }, { grain = 10 }, { grain = 4, wood = 4, fish = 4 }, { fish = 10 } ]
"""
EASY, HARD = 0, 1     # card 0 wins often, card 1 rarely


def seigneurial_run(path, games=2000, players=4, seed=11):
    rng = np.random.default_rng(seed)
    P = {k: [] for k in ("game", "seat", "strategy", "score", "win_share", "rank", "role", "objective")}
    G = {k: [] for k in ("game", "n_players", "turns", "improvement_turn", "seigneur_square")}
    strength = {0: 3.0, 1: 0.3, 2: 1.0, 3: 1.0}
    for g in range(games):
        cards = rng.choice(4, size=players - 1, replace=False)
        improved = rng.random() < 0.6
        seigneur_p = 0.55 if improved else 0.2
        if rng.random() < seigneur_p:
            winner = 0
        else:
            w = np.array([strength[c] for c in cards])
            winner = 1 + rng.choice(players - 1, p=w / w.sum())
        turns = int(rng.integers(20, 60)) if improved else int(rng.integers(5, 15))
        G["game"].append(g)
        G["n_players"].append(players)
        G["turns"].append(turns)
        G["improvement_turn"].append(int(rng.integers(4, turns)) if improved else -1)
        G["seigneur_square"].append(10 if winner == 0 else int(rng.integers(0, 10)))
        for seat in range(players):
            win = 1.0 if seat == winner else 0.0
            P["game"].append(g)
            P["seat"].append(seat)
            P["strategy"].append("standard")
            P["score"].append(100 if win else int(rng.integers(0, 100)))
            P["win_share"].append(win)
            P["rank"].append(1 if win else 2)
            P["role"].append("seigneur" if seat == 0 else "censitaire")
            P["objective"].append(-1 if seat == 0 else int(cards[seat - 1]))
    return write_run(path, P, G, game="seigneurial", rules_text=RULES_TEXT), P, G


def test_objective_table_against_the_rows(tmp_path):
    path, P, _ = seigneurial_run(tmp_path / "r")
    t = sg.objective_table(open_runs([path]))
    obj = np.array(P["objective"])
    win = np.array(P["win_share"])
    cens = obj >= 0
    assert t["objective"][0] == EASY and t["objective"][-1] == HARD       # easiest first
    for r in t.iter_rows(named=True):
        mine = obj == r["objective"]
        assert r["dealt"] == mine.sum()
        assert r["wins"] == pytest.approx(win[mine].sum())
        ci = sps.binomtest(int(win[mine].sum()), int(mine.sum())).proportion_ci(0.95, method="wilson")
        assert (r["ci_low"], r["ci_high"]) == pytest.approx((ci.low, ci.high), abs=1e-9)
        assert r["censitaire_share"] == pytest.approx(win[cens].mean())
    assert t.filter(objective=HARD)["label"][0] == "grain ≥ 10"
    assert t.filter(objective=2)["label"][0] == "grain ≥ 4, wood ≥ 4, fish ≥ 4"
    assert t.filter(objective=EASY)["significant"][0] and t.filter(objective=HARD)["significant"][0]


def test_improvement_table_against_the_rows(tmp_path):
    path, P, G = seigneurial_run(tmp_path / "r")
    t = sg.improvement_table(open_runs([path]))
    imp = np.array(G["improvement_turn"])
    seat = np.array(P["seat"])
    seig_win = np.array(P["win_share"])[seat == 0]
    before, after = t.row(0, named=True), t.row(1, named=True)
    assert (before["period"], after["period"]) == ("before", "after")
    assert before["games"] == (imp < 0).sum() and after["games"] == (imp >= 0).sum()
    assert after["seigneur_share"] == pytest.approx(seig_win[imp >= 0].mean())
    assert before["seigneur_share"] == pytest.approx(seig_win[imp < 0].mean())
    assert after["mean_improvement_turn"] == pytest.approx(imp[imp >= 0].mean())
    assert before["mean_improvement_turn"] is None
    # planted: the Seigneur wins 55% after, 20% before; the intervals separate them
    assert before["seigneur_ci_high"] < after["seigneur_ci_low"]


def test_square_table_and_tables(tmp_path):
    path, _, G = seigneurial_run(tmp_path / "r", games=300)
    rs = open_runs([path])
    sq = sg.square_table(rs)
    assert sq["games"].sum() == 300
    assert sq.filter(square=10)["games"][0] == sum(1 for s in G["seigneur_square"] if s == 10)
    assert set(sg.tables(rs)) == {"objectives", "improvements", "seigneur_squares"}


def test_objective_labels_fall_back_without_rules_text(tmp_path):
    path, _, _ = seigneurial_run(tmp_path / "r", games=50)
    import json

    meta = json.loads((path / "run.json").read_text())
    del meta["rules_text"]
    (path / "run.json").write_text(json.dumps(meta))
    t = sg.objective_table(open_runs([path]))
    assert set(t["label"]) <= {f"Objective {i}" for i in range(4)}
