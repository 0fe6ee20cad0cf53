"""Review G #4: ``fief-odds`` and ``fief-calamity`` mark their output directories with a kind of
their own, so ``--force`` of one never replaces the other's tables (both were ``fief-tables``).

An old directory marked ``fief-tables`` is decided by its run.json ``game`` (the command that
wrote it): that command replaces it, the other is refused, and one whose run.json does not say
is refused by both.
"""

from __future__ import annotations

import json

import pytest

import undrawn_figures as undrawn
from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ODDS = ["fief-odds", "--attackers", "1-2", "--defenders", "1", "--terrain", "open", "-q"]
CALAMITY = ["fief-calamity", "--soldiers", "0-2", "--lords", "1", "--max-ecus", "100", "-q"]
MARKER = ".balance-output.json"


@pytest.fixture(autouse=True)
def _undrawn():
    with undrawn.heat_maps_undrawn():
        yield


def one_line(done) -> str:
    lines = [ln for ln in done.stderr.splitlines() if ln.strip()]
    assert done.returncode == 2 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    return lines[0]


def _tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _kind(folder) -> str:
    return json.loads((folder / MARKER).read_text())["kind"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_force_of_one_table_command_refuses_the_others_directory(tmp_path):
    odds, cal = tmp_path / "odds", tmp_path / "cal"
    balance(*ODDS, "--out", odds)
    balance(*CALAMITY, "--out", cal)
    assert (_kind(odds), _kind(cal)) == ("fief-odds", "fief-calamity")
    before = _tree(odds), _tree(cal)
    line = one_line(balance(*CALAMITY, "--out", odds, "--force", check=False))
    assert "holds a fief-odds, not a fief-calamity" in line, line
    line = one_line(balance(*ODDS, "--out", cal, "--force", check=False))
    assert "holds a fief-calamity, not a fief-odds" in line, line
    assert (_tree(odds), _tree(cal)) == before
    # each still replaces its own
    balance(*ODDS, "--out", odds, "--force")
    balance(*CALAMITY, "--out", cal, "--force")


def test_an_old_fief_tables_directory_is_decided_by_its_run_json(tmp_path):
    odds = tmp_path / "odds"
    balance(*ODDS, "--out", odds)
    marker = json.loads((odds / MARKER).read_text())
    (odds / MARKER).write_text(json.dumps({**marker, "kind": "fief-tables"}))   # an earlier version's
    before = _tree(odds)
    line = one_line(balance(*CALAMITY, "--out", odds, "--force", check=False))
    assert line == (f"error: --out {odds}: holds fief-odds tables, not fief-calamity tables; --force "
                    "replaces only fief-calamity tables, choose another directory"), line
    assert _tree(odds) == before
    balance(*ODDS, "--out", odds, "--force")          # the command that wrote it replaces it
    assert _kind(odds) == "fief-odds"
    # an old directory whose run.json does not say: neither command replaces it
    (odds / MARKER).write_text(json.dumps({**json.loads((odds / MARKER).read_text()),
                                           "kind": "fief-tables"}))
    (odds / "run.json").write_text("{}")
    for cmd in (ODDS, CALAMITY):
        line = one_line(balance(*cmd, "--out", odds, "--force", check=False))
        assert "does not say which command wrote them" in line, line
