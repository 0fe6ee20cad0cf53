"""Review s46 #1: small looks (``--batch 1`` … ``5``, or a tiny RUN) broke both error guarantees.

``llr`` read an error of nan (one game) or 0 (a paired batch the change never touched) as exact
and returned ±inf: identical rules FAILED at looks of one game (50/50 in the review), and a paired
change of every seat's mean score by ten times its tolerance PASSED at looks of 1 to 5 games. The
test now floors the errors it reads (``decision.run_error``: the baseline's per-game error over the
run's games; ``decision.paired_error``: a difference few units carry) and the command line refuses
a look of fewer than ``MIN_UNITS`` (30) games, one line, exit 2, before any game.

The simulations below run the gate's own ``UnitMeasure``/``PairedMeasure`` and ``SequentialTest``
(the code a played check runs, look by look) on simulated games whose truth is known: a
winner-takes-all 4-seat game (each seat wins with probability 1/4) and normal scores."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from analysis.check.decision import MIN_PAIRED_UNITS, MIN_UNITS, SequentialTest
from analysis.check.measure import Measurement, PairedMeasure, UnitMeasure
from cli import _run

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "configs" / "baselines" / "middle_ages_default.toml"
RULES = ROOT / "configs" / "middle_ages" / "rules.toml"

SEATS = 4
WANTED = ([("seat_win_share", f"Seat {s + 1}") for s in range(SEATS)]
          + [("seat_mean_score", f"Seat {s + 1}") for s in range(SEATS)])
LABELS = [f"{k} {'win share' if m == 'seat_win_share' else 'mean score'}" for m, k in WANTED]
TOL = [1.0] * SEATS + [2.0] * SEATS               # ±1 pp, ±2 coins: the review's baseline
SCORE_MEAN, SCORE_SD = 110.0, 30.0


def _games(rng, n: int) -> np.ndarray:
    """n simulated games: one column per metric (win shares in %, scores in coins)."""
    winner = rng.integers(0, SEATS, n)
    shares = 100.0 * (winner[:, None] == np.arange(SEATS)[None, :])
    scores = rng.normal(SCORE_MEAN, SCORE_SD, (n, SEATS))
    return np.column_stack([shares, scores])


def _baseline(rng, n: int = 20_000) -> list[Measurement]:
    """A baseline measured on n simulated games of the same game (its own error inside)."""
    x = _games(rng, n)
    out = []
    for j, ((metric, key), label) in enumerate(zip(WANTED, LABELS)):
        v, se = float(x[:, j].mean()), float(x[:, j].std(ddof=1) / math.sqrt(n))
        out.append(Measurement(metric, key, label, v, v - 1.96 * se, v + 1.96 * se, se, n))
    return out


@pytest.mark.slow   # an error rate by simulation (docs/testing.md: the slow tier's statistical checks)
@pytest.mark.parametrize("batch", [1, 2, 3])
def test_identical_rules_do_not_fail_at_looks_of_a_few_games(batch):
    """30 checks of an unchanged game, looks every ``batch`` games for the first 150 games (where
    the old test failed: at once at 1 game, 29% of checks at 2, 3% at 3 in the review's
    measurement): none FAILS. The gate's own error bound is α = 5% over the whole check; 0 of 30
    fails with probability 0.21 at that rate, and the old code failed every check at looks of 1."""
    rng = np.random.default_rng(4600 + batch)
    base_n = 20_000
    fails = 0
    for _ in range(30):
        base = _baseline(rng, base_n)
        run = UnitMeasure(WANTED, LABELS)
        test = SequentialTest(len(WANTED), 0.05, 0.05)
        played = 0
        while played < 150 and test.verdict == "undecided":
            run.add(_games(rng, batch), batch)
            played += batch
            test.look(base, run.measurements(), TOL, played, base_units=base_n)
        fails += test.verdict == "fail"
    assert fails == 0, f"{fails} of 30 unchanged checks FAILED at looks of {batch} games"


def _paired_checks(rng, batch: int, reps: int, touched: float, effect: float, max_games: int):
    """Outcomes of ``reps`` paired checks: the change adds ``effect`` coins to every seat's score in
    a share ``touched`` of the games (the others are the very same game under both rules)."""
    out = []
    for _ in range(reps):
        measure = PairedMeasure(WANTED, LABELS)
        test = SequentialTest(len(WANTED), 0.05, 0.05)
        played = 0
        while played < max_games and test.verdict == "undecided":
            old = _games(rng, batch)
            new = old.copy()
            hit = rng.random(batch) < touched
            new[hit, SEATS:] += effect
            measure.add(new, old, batch)
            played += batch
            test.look(measure.old.measurements(), measure.new.measurements(), TOL, played,
                      diff=measure.differences())
        out.append((test.verdict, played))
    return out


@pytest.mark.slow   # an error rate by simulation (docs/testing.md: the slow tier's statistical checks)
def test_a_large_paired_change_missed_by_small_first_batches_does_not_pass():
    """The review's case: a change that moves every seat's mean score by +20 coins (ten times the
    ±2 tolerance) by touching a quarter of the games (+80 coins each). Paired, in looks of 1 game:
    the first game is untouched three times in four, its differences are exactly 0 and their error
    0, and the old test PASSED there (β, the chance of passing a change of twice the tolerance, is
    5%). Now none of 20 checks passes it: every one FAILS."""
    rng = np.random.default_rng(46)
    outcomes = _paired_checks(rng, batch=1, reps=20, touched=0.25, effect=80.0, max_games=2000)
    verdicts = [v for v, _ in outcomes]
    assert verdicts.count("pass") == 0, verdicts
    assert verdicts.count("fail") == 20


@pytest.mark.slow   # an error rate by simulation (docs/testing.md: the slow tier's statistical checks)
def test_a_change_carried_by_few_games_passes_at_most_beta_at_the_least_paired_look():
    """Twice the tolerance on every seat's mean score (+4 coins), carried by 1% of the games (+400
    coins each): a paired difference that is almost all exact zeros. At looks of
    MIN_PAIRED_UNITS games, 400 checks: at most 5% may pass (β); the test as it was (no floor: the
    difference's own error, small exactly when a look saw few of the games it touched) passed about
    one in ten here. 24 of 400 (6%) has probability about 0.005 at the 3.5% measured with the
    floors."""
    rng = np.random.default_rng(4601)
    outcomes = _paired_checks(rng, batch=MIN_PAIRED_UNITS, reps=400, touched=0.01, effect=400.0,
                              max_games=20_000)
    passed = sum(v == "pass" for v, _ in outcomes)
    assert passed < 24, f"{passed} of 400 checks passed a change of twice the tolerance"


def test_identical_rules_paired_still_pass_at_the_first_look():
    """docs/ci.md: identical rules on both sides give differences of exactly 0 and pass at the
    first look (of 1,000 games): the floor of an untouched difference shrinks as 1/n."""
    rng = np.random.default_rng(47)
    outcomes = _paired_checks(rng, batch=1000, reps=5, touched=0.0, effect=0.0, max_games=20_000)
    assert outcomes == [("pass", 1000)] * 5


def test_one_game_measured_is_no_certainty_against_a_baseline():
    """A check of one game (a nan error): no metric is decided, whatever that game was."""
    rng = np.random.default_rng(48)
    base = _baseline(rng)
    run = UnitMeasure(WANTED, LABELS)
    run.add(_games(rng, 1), 1)
    test = SequentialTest(len(WANTED), 0.05, 0.05)
    results = test.look(base, run.measurements(), TOL, 1, base_units=20_000)
    assert [r.verdict for r in results] == ["undecided"] * len(WANTED)


# --- the command line: a look of fewer than MIN_UNITS games is refused before any game ---------

@pytest.fixture
def no_games(monkeypatch):
    """Playing a game fails the test (the configuration may be prepared: its rules are read)."""
    from analysis.check import play
    from simcore import runner

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the bad input was refused")

    monkeypatch.setattr(play, "_batch_values", played)
    monkeypatch.setattr(runner, "run", played)


def _error_line(capsys) -> str:
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("error: "), err
    return err[0]


@pytest.mark.parametrize("batch", ["1", "5", str(MIN_UNITS), str(MIN_PAIRED_UNITS - 1)])
def test_a_paired_check_in_looks_of_a_few_games_is_refused(tmp_path, capsys, no_games, batch):
    """The review's false PASS: `--rules ev40.toml --against-rules old.toml --batch 1` passed a
    change of ten times the tolerance (exit 0). Now one line, exit 2, before any game: a paired
    look reads at least MIN_PAIRED_UNITS games."""
    ev40 = tmp_path / "ev40.toml"
    text = RULES.read_text(encoding="utf-8")
    assert "\nper_graveyard_tile = 3\n" in text
    ev40.write_text(text.replace("\nper_graveyard_tile = 3\n", "\nper_graveyard_tile = 40\n"),
                    encoding="utf-8")
    code = _run(["check", "--baseline", str(BASELINE), "--rules", str(ev40), "--against-rules",
                 str(RULES), "--batch", batch, "--seed", "1", "-q"])
    line = _error_line(capsys)
    assert code == 2
    assert line.startswith(f"error: --batch {batch}: must be at least {MIN_PAIRED_UNITS} in paired mode"), line


def test_a_baseline_file_with_a_batch_of_one_is_refused_naming_its_key(tmp_path, capsys):
    """`batch = 1` under [check] FAILED identical rules (exit 1); now refused, naming the file's key."""
    text = BASELINE.read_text(encoding="utf-8")
    assert "\nbatch = 0 " in text
    b1 = tmp_path / "b1.toml"
    b1.write_text(text.replace("\nbatch = 0 ", "\nbatch = 1 "), encoding="utf-8")
    # the rules path is relative to the file: the shipped rules ("default") need no copy
    code = _run(["check", "--baseline", str(b1), "-q"])
    line = _error_line(capsys)
    assert code == 2 and f"{b1}: check.batch 1: must be at least {MIN_UNITS}" in line, line


def test_a_check_of_a_one_game_run_is_refused(tmp_path, capsys):
    """`balance check --baseline B RUN` of a 1-game run FAILED (exit 1); now refused in one line."""
    run = tmp_path / "tiny1"
    assert _run(["simulate", "--games", "1", "--seed", "77", "--out", str(run), "-q"]) == 0
    capsys.readouterr()
    code = _run(["check", "--baseline", str(BASELINE), str(run)])
    line = _error_line(capsys)
    assert code == 2 and "1 game: too few for a check" in line and f"at least {MIN_UNITS} games" in line


def test_a_maximum_below_one_look_is_refused(capsys, no_games):
    code = _run(["check", "--baseline", str(BASELINE), "--games", "20", "-q"])
    line = _error_line(capsys)
    assert code == 2 and line.startswith(f"error: --games 20: must be at least {MIN_UNITS} games"), line
