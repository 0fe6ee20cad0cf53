"""Run directories rewritten for a statistics test: a real run's statistics with planted win sums.

:func:`republish` writes a template run's run.json into a rewritten copy with its integrity
record updated (after the test replaced stats.json); :func:`seigneurial_run` plays the Seigneurial
run such copies start from. May import the standard library and :mod:`simcore`.
"""

from __future__ import annotations

import json
from pathlib import Path


def republish(template: Path, out: Path, **changes) -> Path:
    """``template``'s run.json with ``changes`` written into ``out`` (whose stats.json a test has
    replaced), its integrity record made anew, as the runner would have written it."""
    from simcore.rundir import integrity_record

    meta = json.loads((template / "run.json").read_text())
    meta.update(changes)
    meta.pop("integrity", None)
    meta["integrity"] = integrity_record(out, meta)
    (out / "run.json").write_text(json.dumps(meta))
    return out


def seigneurial_run(tmp_path_factory, games: int, players: int = 4) -> Path:
    """A Seigneurial run of ``games`` games (seed 5) with statistics only, to rewrite."""
    from simcore import runner

    out = tmp_path_factory.mktemp("sg") / "run"
    runner.simulate("seigneurial", players=players, games=games, seed=5, out=out, quiet=True, raw=False)
    return out
