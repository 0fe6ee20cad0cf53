"""``--force`` never replaces what the command itself reads: a tune run again with ``--rules`` set
to its own ``best_rules.toml`` and ``--out`` its own directory replaced that file (the first
tune's answer) by the new one, exit 0, and the same command then failed on "different rules
text". The sweep and tune commands now pass their rules, panel and strategy files to the output
check, as simulate does."""

from __future__ import annotations

import hashlib

from in_process import balance

from strategies.common import strategy_files
import pytest

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

TUNE = ["tune", "--players", 2, "--strategies", "random", "--target", "seat-balance:5",
        "--trials", 2, "--min-games", 200, "--max-games", 400, "--confirm-games", 400, "-q",
        "--keep-going"]  # (one confirmation, read at 95%: at 99%, session 62, 400 games is too few)


def test_a_tune_forced_onto_its_own_directory_keeps_the_rules_it_reads(tmp_path):
    out = tmp_path / "tune"
    balance(*TUNE, "--vary", "setup.start_coins[0]=0..4", "--out", out)
    best = out / "best_rules.toml"
    before = hashlib.md5(best.read_bytes()).hexdigest()
    done = balance(*TUNE, "--vary", "setup.extra_coin_tokens=2..10", "--rules", best, "--out", out,
                   "--force", check=False)
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    # (long paths are shortened in the message, hence the pieces)
    assert lines[0].startswith(f"error: --out {out}: contains ") and lines[0].endswith(
        "best_rules.toml, which this command reads (write somewhere else)"), lines[0]
    assert hashlib.md5(best.read_bytes()).hexdigest() == before


def test_strategy_files_are_the_file_parts_of_the_list():
    """Read as lookup_strategy reads a spec: FILE:NAME, or a bare FILE (one strategy in it);
    names that are no file are dropped by the output check (input_paths)."""
    assert strategy_files("balanced,bots.toml:mine,random") == ["balanced", "bots.toml", "random"]
    assert strategy_files("dir/a b.toml:x,c.toml:y,one.toml") == ["dir/a b.toml", "c.toml", "one.toml"]
    assert strategy_files(None) == [] and strategy_files("balanced") == ["balanced"]


def test_a_sweeps_page_is_not_written_inside_the_sweep(tmp_path):
    """balance report SWEEP --out SWEEP/rep wrote its page inside the directory it read (a run's
    report was refused so, a sweep's and a tune's page were not)."""
    sweep = tmp_path / "sw"
    balance("sweep", "--games", 100, "--players", 4, "--vary", "setup.extra_coin_tokens=[2,3]",
            "--out", sweep, "-q")
    done = balance("report", sweep, "--out", sweep / "rep", check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip().endswith("which this command reads (write somewhere else)"), done.stderr
    assert not (sweep / "rep").exists()
