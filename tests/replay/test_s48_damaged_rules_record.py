"""A run.json whose recorded rules (rules_text) no longer read is named as the damaged record, not
as the rules file it was played from (review s48 safety #6: "error: …/configs/middle_ages/
rules.toml: invalid TOML", the shipped file, which is fine)."""

from __future__ import annotations

import json
import shutil

import pytest

from in_process import balance
from simcore import runner


@pytest.fixture(scope="module")
def damaged(tmp_path_factory):
    root = tmp_path_factory.mktemp("damaged_rules")
    good = runner.simulate("middle-ages", games=200, seed=1, out=root / "good", quiet=True)
    bad = root / "bad"
    shutil.copytree(good, bad)
    meta = json.loads((bad / "run.json").read_text())
    meta["rules_text"] = meta["rules_text"][:200] + "\n[[[broken"
    (bad / "run.json").write_text(json.dumps(meta))
    return root, meta["rules_name"]


@pytest.mark.parametrize("args", [("replay", "{run}", "--game", "2"),
                                  ("replay", "{run}", "--find", "seat=1 wins max score"),
                                  ("questions", "{run}", "--out", "{root}/q")],
                         ids=["replay", "find", "questions"])
def test_the_damaged_record_is_named(damaged, args):
    root, shipped = damaged
    done = balance(*[a.format(run=root / "bad", root=root) for a in args], check=False)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert len(line.splitlines()) == 1, line
    assert "run.json: the rules this run recorded (rules_text, played from " in line
    assert "invalid TOML" in line and "the run's record is damaged" in line
    assert not line.startswith(f"error: {shipped}")
