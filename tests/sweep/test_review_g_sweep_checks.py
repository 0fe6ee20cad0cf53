"""A sweep's page reads only variants that are what sweep.json says (review G): a variant's run
directory is checked (sizes and hashes, as every run a report reads) and matched against its
variant (the sweep's games and seed, the variant's own settings) before its numbers are shown
under that variant's label. Each damage is refused in one line naming the directory."""

from __future__ import annotations

import json
import shutil

import pytest

from analysis.sweep.metrics import sensitivity
from analysis.sweep.play import plan_sweep, run_sweep
from simcore.errors import UsageError

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sw") / "sweep"
    run_sweep(plan_sweep("middle-ages", varies=["income.palais.base=3..4"], games=200, seed=1), out)
    return out


def _copy(sweep, tmp_path):
    d = tmp_path / "copy"
    shutil.copytree(sweep, d)
    return d


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_an_intact_sweep_is_read(sweep):
    assert sensitivity(sweep).effects.height > 0


def test_a_variant_copied_from_another_is_refused(sweep, tmp_path):
    d = _copy(sweep, tmp_path)
    shutil.rmtree(d / "variants" / "v001")
    shutil.copytree(d / "variants" / "v000", d / "variants" / "v001")
    with pytest.raises(UsageError, match=r"v001: does not match sweep.json's variant v001 .*"
                                         r"not played with income.palais.base=4"):
        sensitivity(d)


def test_a_truncated_variant_file_is_refused(sweep, tmp_path):
    d = _copy(sweep, tmp_path)
    f = d / "variants" / "v001" / "games.parquet"
    f.write_bytes(f.read_bytes()[:500])
    with pytest.raises(UsageError, match=r"v001/games.parquet: 500 bytes where run.json recorded"):
        sensitivity(d)


def test_a_sweep_json_edited_after_the_sweep_is_refused(sweep, tmp_path):
    d = _copy(sweep, tmp_path)
    meta = json.loads((d / "sweep.json").read_text())
    meta["games"] = -5
    (d / "sweep.json").write_text(json.dumps(meta))
    with pytest.raises(UsageError, match=r"200 games, not the sweep's -5"):
        sensitivity(d)


def test_a_setting_whose_value_holds_a_comma_is_matched_whole(tmp_path):
    """A text value with a comma (Fief's mercy.policy="attacker:2,defender:2") was split in two
    when the variant was matched, and the sweep's own page was refused."""
    out = tmp_path / "sw"
    run_sweep(plan_sweep("fief-combat", varies=['mercy.policy=["never","attacker:2,defender:2"]'],
                         games=300, seed=1), out)
    assert sensitivity(out).variants.height > 0
