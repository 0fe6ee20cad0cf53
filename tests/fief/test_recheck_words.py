"""What ``fief-odds`` / ``fief-calamity --method both`` ask of a designer told that Monte Carlo and the
exact odds disagree, and where their output may not be written.

A correct kernel is told "disagree" up to 1 time in 20, and the same seed replays the same combats:
the seed-0 default of the review's grid said "disagree" at every run (open 7 v 5, p = 2e-05 there;
seeds 1 and 2 and 200,000 combats of that cell agree). The line must say to run again with another
seed. And an --out inside a fief-odds folder was refused as being inside "the run directory …,
which holds only what simulate wrote"."""

from __future__ import annotations

import pytest
from cli import _run
from reports.games.fief import agreement_words, calamity_agreement_words


def _where(p: float) -> dict:
    return {"p": p, "terrain": "open", "attacker": 7, "defender": 5}


def test_a_disagreement_says_to_try_another_seed():
    said = agreement_words({"cells": 720, "tests": 1440, "games": 2000, "p_attacker_wins": _where(2e-5),
                            "rounds": _where(0.0021), "p_bonferroni": 0.029, "disagree": True})
    assert "Monte Carlo and the exact odds disagree" in said
    assert "run again with another --seed" in said and "same --seed" in said
    fine = agreement_words({"cells": 720, "tests": 1440, "games": 2000, "p_attacker_wins": _where(0.001),
                            "rounds": _where(0.0013), "p_bonferroni": 1.0, "disagree": False})
    assert "another --seed" not in fine and "no disagreement detected" in fine
    calamity = calamity_agreement_words({"plague": None, "revolt": {"p": 1e-6, "ecus": 40}, "games": 2000,
                                         "plague_cells": 10, "tests": 20, "p_bonferroni": 2e-5,
                                         "disagree": True})
    assert "Monte Carlo and the exact tables disagree" in calamity and "another --seed" in calamity


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_an_out_inside_a_fief_odds_folder_names_that_command(tmp_path, capsys):
    out = tmp_path / "odds"
    assert _run(["fief-odds", "--attackers", "1-3", "--defenders", "1-2", "--terrain", "open",
                 "--out", str(out)]) == 0
    capsys.readouterr()
    assert _run(["fief-odds", "--attackers", "1-3", "--defenders", "1-2", "--terrain", "open",
                 "--out", str(out / "inner")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "which holds only what balance fief-odds wrote" in err, err
    assert "simulate" not in err
    assert not (out / "inner").exists()
