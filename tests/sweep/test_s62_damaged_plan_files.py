"""A sweep's or a tune's plan file (sweep.json, tune.json) edited by hand into another shape is one
line, exit code 2, for the report and for the sweep resumed; ``--force`` plays the sweep anew (review
s62 rv267 #7: ``[]`` was an AttributeError, no ``variants`` a KeyError in
``analysis.sweep.store.finished_variants``, ``"varies": 3`` a TypeError in the tune page, each exit
1 with a traceback, as was resuming them)."""

from __future__ import annotations

import json
import shutil

import pytest

from in_process import balance

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

SWEEP = ["sweep", "--vary", "setup.extra_coin_tokens=[2,3]", "--games", "60", "--players", "4",
         "--seed", "1", "-q"]


@pytest.fixture(scope="module")
def sweep_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("s62_plan") / "sw"
    balance(*SWEEP, "--out", d)
    return d


def _damaged(sweep_dir, tmp_path, edit):
    d = tmp_path / "sw2"
    shutil.copytree(sweep_dir, d)
    plan = json.loads((d / "sweep.json").read_text(encoding="utf-8"))
    (d / "sweep.json").write_text(json.dumps(edit(plan)), encoding="utf-8")
    return d


def _no_variants(plan):
    plan.pop("variants")
    return plan


def _one_line(done, *words):
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    for w in words:
        assert w in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("edit, said", [
    (lambda plan: [], "must hold a JSON object"),
    (_no_variants, "no 'variants'"),
    (lambda plan: {**plan, "varies": 3}, "'varies' must be a list"),
    (lambda plan: {**plan, "variants": [{"id": "v000"}]}, "'variants'[0]"),
], ids=["list", "no-variants", "varies-3", "variant-without-values"])
def test_a_reshaped_sweep_json_is_one_line_for_the_report_and_the_resume(sweep_dir, tmp_path, edit, said):
    d = _damaged(sweep_dir, tmp_path, edit)
    _one_line(balance("report", d, "--out", tmp_path / "r", check=False), "sweep.json", said)
    assert not (tmp_path / "r").exists()
    before = (d / "sweep.json").read_bytes()
    # resumed: what is wrong with it when it would be resumed, else another sweep's (varies 3)
    line = _one_line(balance(*SWEEP, "--out", d, check=False), "--force")
    assert "--out" in line and (said in line or "holds another sweep" in line), line
    assert (d / "sweep.json").read_bytes() == before          # nothing changed by the refusal


def test_force_plays_a_reshaped_sweep_anew(sweep_dir, tmp_path):
    d = _damaged(sweep_dir, tmp_path, lambda plan: [])
    balance(*SWEEP, "--out", d, "--force")
    assert json.loads((d / "sweep.json").read_text(encoding="utf-8"))["variants"]
    balance("report", d, "--out", tmp_path / "r")


def test_a_reshaped_tune_json_is_one_line_for_its_page(tmp_path):
    """The tune page reads tune.json first: ``"varies": 3`` was a TypeError there."""
    from reports.sweep import build_tune_report
    from simcore.errors import UsageError

    d = tmp_path / "tu"
    d.mkdir()
    (d / "tune.json").write_text(json.dumps({"game": "middle-ages", "seed": 1, "varies": 3,
                                             "targets": []}), encoding="utf-8")
    with pytest.raises(UsageError, match=r"tune\.json.*'varies' must be a list"):
        build_tune_report(d, tmp_path / "r")
