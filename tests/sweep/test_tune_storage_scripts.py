"""A tune's study storage reads Optuna's schema migration scripts once per process
(analysis.tune.search._alembic_scripts_read_once): a second tune in the same process opens its
study without reading them again, and every study is still stamped at the schema's head revision
(read here from the migration scripts themselves), so Optuna opens it with its compatibility check."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from analysis.tune.search import plan_tune, run_tune

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def _plan(seed: int):
    return plan_tune("middle-ages", varies=["setup.start_coins[0]=0..1"], targets=["seat-balance:3"],
                     seed=seed, trials=1, min_games=100, max_games=100, eta=2, confirm_games=1100,
                     players=2, strategies="random", stop_when_met=False)


def _head_revision() -> str:
    """The migration scripts' head: the one revision no other names as its down revision."""
    import optuna

    versions = Path(optuna.__file__).parent / "storages" / "_rdb" / "alembic" / "versions"
    revs, downs = set(), set()
    for f in versions.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        revs.add(re.search(r"^revision\s*=\s*['\"]([^'\"]+)", text, re.M).group(1))
        down = re.search(r"^down_revision\s*=\s*['\"]([^'\"]+)", text, re.M)
        if down:
            downs.add(down.group(1))
    (head,) = revs - downs
    return head


def test_a_second_tune_reads_no_migration_script_and_its_study_is_at_the_head(tmp_path):
    import optuna
    from alembic.script import ScriptDirectory

    run_tune(_plan(1), tmp_path / "first")
    reads = []
    real = ScriptDirectory.from_config.__func__

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ScriptDirectory, "from_config",
                   classmethod(lambda cls, *a, **k: reads.append(1) or real(cls, *a, **k)))
        run_tune(_plan(2), tmp_path / "second")
    assert reads == []
    head = _head_revision()
    for name in ("first", "second"):
        db = tmp_path / name / "study.db"
        with sqlite3.connect(db) as con:
            assert con.execute("select version_num from alembic_version").fetchall() == [(head,)]
        storage = optuna.storages.RDBStorage(f"sqlite:///{db}")      # (with its compatibility check)
        assert [s.study_name for s in storage.get_all_studies()]
        storage.engine.dispose()
