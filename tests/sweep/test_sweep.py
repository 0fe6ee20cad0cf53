"""balance sweep: variants equal separate `simulate --set` runs with the same seed; a sweep killed
mid-way resumes and skips the variants already published; the sensitivity page is written.

The commands run in this process (``cli._run``, what the console script runs), but the sweep that
is killed: a process of its own, as a designer's would be (a ``balance`` process costs about a
second of CPU in imports alone; docs/testing.md)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from analysis.sweep.metrics import paired_effect, load_variant, sensitivity
from in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

CLI = [sys.executable, "-c", "import cli; cli.main()"]

ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}


def test_sweep_variants_equal_simulate_with_set(tmp_path):
    sw = tmp_path / "sw"
    balance("sweep", "--out", sw, "--vary", "setup.start_coins[1]=[0,5]", "--vary", "players=[3,4]",
            "--games", 600, "--seed", 17, "--quiet")
    meta = json.loads((sw / "sweep.json").read_text())
    assert [v["values"] for v in meta["variants"]] == [
        {"setup.start_coins[1]": 0, "players": 3}, {"setup.start_coins[1]": 0, "players": 4},
        {"setup.start_coins[1]": 5, "players": 3}, {"setup.start_coins[1]": 5, "players": 4}]
    for v in meta["variants"]:
        one = tmp_path / f"sim-{v['id']}"
        balance("simulate", "-n", 600, "--seed", 17, "--players", v["values"]["players"],
                "--set", f"setup.start_coins[1]={v['values']['setup.start_coins[1]']}",
                "--out", one, "-q")
        a = pq.read_table(sw / "variants" / v["id"] / "players.parquet")
        b = pq.read_table(one / "players.parquet")
        assert a.equals(b), v
        ma = json.loads((sw / "variants" / v["id"] / "run.json").read_text())
        mb = json.loads((one / "run.json").read_text())
        assert ma["rules_sha256"] == mb["rules_sha256"] and ma["seed"] == mb["seed"] == 17
    # the variants differ where they should: seat 2's five coins
    s0 = pq.read_table(sw / "variants/v001/players.parquet", columns=["seat", "coins_before_event_1"])
    s1 = pq.read_table(sw / "variants/v003/players.parquet", columns=["seat", "coins_before_event_1"])
    assert not s0.equals(s1)


def test_bad_vary_fails_before_any_game(tmp_path):
    # (a range whose first values are valid and its last not: every variant is checked before any
    # game is played; 2..500 checked 499 variants' rules, 1.4 s of CPU, for the same line)
    out = tmp_path / "sw"
    r = balance("sweep", "--out", out, "--vary", "income.palais.base=98..101", "--games", 100,
                check=False)
    assert r.returncode == 2 and "income.palais.base" in r.stderr and "must be <= 100" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not out.exists()
    r = balance("sweep", "--out", out, "--vary", "players=1..3", "--games", 100, check=False)
    assert r.returncode == 2 and "--players 1" in r.stderr and not out.exists()


def test_killed_sweep_resumes_and_skips_finished_variants(tmp_path):
    """15,000 games a variant (one thread): about 0.3 s of CPU each, so once the first variant is
    published the killed process still had 5 variants, about 1.5 s of its CPU, to go: thirty
    times the 50 ms between two looks for that first run.json (40,000 games a variant cost 2.5 s
    of CPU more, in the resumed variants and the uninterrupted run played to compare)."""
    sw = tmp_path / "sw"
    args = ["sweep", "--out", str(sw), "--vary", "income.palais.base=1..6", "--games", "15000",
            "--seed", "3", "--quiet", "--threads", "1"]
    p = subprocess.Popen([*CLI, *args], env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 240
    first = sw / "variants" / "v000" / "run.json"
    while time.time() < deadline and not first.is_file():
        time.sleep(0.05)
    assert first.is_file(), "the first variant never finished"
    p.send_signal(signal.SIGKILL)
    p.wait()
    finished = sorted(d.name for d in (sw / "variants").iterdir()
                      if (d / "run.json").is_file())
    assert 1 <= len(finished) < 6, finished
    stamps = {n: (sw / "variants" / n / "run.json").stat().st_mtime_ns for n in finished}
    plan = (sw / "sweep.json").read_text()
    r = balance(*args)
    assert r.returncode == 0
    assert (sw / "sweep.json").read_text() == plan
    for n, t in stamps.items():                     # not played again
        assert (sw / "variants" / n / "run.json").stat().st_mtime_ns == t
    done = sorted(d.name for d in (sw / "variants").iterdir() if (d / "run.json").is_file())
    assert done == [f"v00{i}" for i in range(6)]
    assert not list((sw / "variants").glob(".*"))   # no temporary leftovers
    # a resumed variant is the variant an uninterrupted run plays
    one = tmp_path / "one"
    balance("simulate", "-n", 15000, "--seed", 3, "--set", "income.palais.base=6", "--out", one, "-q")
    assert pq.read_table(sw / "variants/v005/players.parquet").equals(pq.read_table(one / "players.parquet"))
    # another sweep into the same directory is refused
    r = balance("sweep", "--out", sw, "--vary", "income.palais.base=1..2", "--games", 100, check=False)
    assert r.returncode == 2 and "holds another sweep" in r.stderr


def test_sensitivity_report_and_paired_intervals(tmp_path):
    sw = tmp_path / "sw"
    balance("sweep", "--out", sw, "--vary", "setup.start_coins[0]=[0,30]", "--vary",
            "income.palais.base=[3,4]", "--one-at-a-time", "--games", 3000, "--seed", 1, "--quiet")
    s = sensitivity(sw)
    assert set(s.effects["parameter"].to_list()) == {"setup.start_coins[0]", "income.palais.base"}
    e = s.effects.filter((s.effects["parameter"] == "setup.start_coins[0]")
                         & (s.effects["metric"] == "seat_win_share_1")).row(0, named=True)
    assert e["low"] > 0.05                 # thirty coins are a large head start for seat 1
    a, b = load_variant(sw / "variants/v000"), load_variant(sw / "variants/v001")
    d, lo, hi = paired_effect(a, b, "seat_win_share_1")
    # the paired interval is narrower than two independent intervals would make it
    import numpy as np
    se_ind = np.sqrt(a.samples["seat_win_share_1"].var() / a.n_games
                     + b.samples["seat_win_share_1"].var() / b.n_games)
    assert (hi - lo) / 2 < 1.96 * se_ind
    rep = tmp_path / "rep"
    # the page's words and files are read: its figures (tornado_shares, tornado_other, curve_N)
    # are drawn for real, and checked, by tests/reports/test_sweep_tune_pages.py's sweep page
    with figures_undrawn():
        r = balance("report", sw, "--out", rep)
    assert (rep / "report.html").is_file() and (rep / "figures" / "tornado_shares.png").is_file()
    html = (rep / "report.html").read_text()
    # (one at a time, the other is held at the base rules' value, which its list has: 3)
    # (a per-seat setting named with its seat: review D #8, session 42)
    assert ("Raising setup.start_coins[0] (seat 1's) from 0 to 30 with income.palais.base = 3 (the base rules' value) "
            "moves seat 1").replace("'", "&#x27;") in html and " pp (" in html


@pytest.mark.parametrize("bad", ["x=5..2", "players=2.5..3:0.5", "income.palais.base=[1,1]"])
def test_vary_grammar_errors(bad):
    from analysis.sweep.grammar import parse_vary
    from simcore.errors import UsageError

    with pytest.raises(UsageError) as e:
        parse_vary(bad)
    assert "\n" not in str(e.value) and bad in str(e.value)


def test_a_bad_vary_value_is_named_as_the_vary_the_designer_typed():
    """`balance sweep --vary income.palais.bse=1..3` said 'rules.toml with --set income.palais.bse=1:
    … unknown key': a --set the designer never typed. The line names the --vary and the variant."""
    from analysis.sweep.play import plan_sweep
    from simcore.errors import UsageError

    for vary, bad in (("income.palais.bse=1..3", "unknown key"),
                      ("income.palais.base=[1.5, 2]", "must be an integer"),
                      ("income.palais.base.x=[1, 2]", "not a table")):
        with pytest.raises(UsageError) as e:
            plan_sweep("middle-ages", varies=[vary], games=100)
        msg = str(e.value)
        assert msg.startswith(f"--vary {vary}: variant ") and bad in msg and "\n" not in msg, msg
        assert "--set" not in msg, msg
    with pytest.raises(UsageError) as e:            # a --set of the designer's is still called one
        plan_sweep("middle-ages", varies=["income.palais.base=1..2"], games=100,
                   settings=["income.palais.counts=1"])
    assert "--set income.palais.counts=1" in str(e.value)


def test_a_list_of_words_compares_each_value_with_the_first(tmp_path):
    """--vary 'payment.order=[seat,simultaneous,rotating]' stated only seat -> rotating (first to
    last), never the value between. A list of words compares each value with the first; the page's
    family (Bonferroni) counts both comparisons, so each is read at 97.5%, not 95%."""
    from analysis.sweep.metrics import parameter_effects

    sw = tmp_path / "sw"
    balance("sweep", "--game", "seigneurial", "--players", "3", "--out", sw, "--vary",
            "payment.order=[seat,simultaneous,rotating]", "--games", 150, "--quiet")
    s = sensitivity(sw)
    pairs = set(zip(s.effects["from"].to_list(), s.effects["to"].to_list()))
    assert pairs == {('"seat"', '"simultaneous"'), ('"seat"', '"rotating"')}, pairs
    a, b = load_variant(sw / "variants/v000"), load_variant(sw / "variants/v001")
    alone = {r["metric"]: r for r in parameter_effects(a, b)}          # one comparison, at 95%
    page = s.effects.filter(s.effects["to"].str.contains("simultaneous"))
    for r in page.iter_rows(named=True):
        one = alone[r["metric"]]
        if one["high"] > one["low"]:
            assert r["high"] - r["low"] > one["high"] - one["low"], r["metric"]
    rep = tmp_path / "rep"
    with figures_undrawn():
        balance("report", sw, "--out", rep)
    assert "Bonferroni over the 2 comparisons of the 1 parameter" in (rep / "report.html").read_text()
