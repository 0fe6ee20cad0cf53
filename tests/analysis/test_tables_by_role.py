"""The analysis chooses its tables from the roles of the spec's columns, never from their names.

A copy of Middle-Ages whose columns all have other names (``purse_after_t`` for ``coins_turn_t``,
``stock_<domain>`` for ``tiles_<domain>``, ``swing_k`` / ``purse_before_k`` / ``card_k`` for the
event columns), registered under another name, plays the same games: every table of the original
(the flow, lead changes, tiles, events) must come out of the copy, equal.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import textwrap

import pytest

from analysis import analyse, open_runs, table_names
from simcore import games as registry
from simcore import runner
from simcore.games.middle_ages.spec import SPEC

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

RENAMES = {"coins_turn_": "purse_after_", "tiles_": "stock_", "event_gain_": "swing_",
           "coins_before_event_": "purse_before_", "event_": "card_"}


def renamed(name: str) -> str:
    for old, new in RENAMES.items():
        if name.startswith(old) and name[len(old):].replace("_", "").isalnum():
            return new + name[len(old):]
    return name


GAME_PY = '''
"""Middle-Ages under other column names (a test's copy): its adapter renames the columns."""
import dataclasses

from simcore.games.middle_ages import game as original

from .spec import SPEC, renamed


def prepare(**options):
    prep = original.prepare(**options)
    play = prep.play

    def play_renamed(first, n, seed):
        chunk = play(first, n, seed)
        return dataclasses.replace(chunk, players={renamed(k): v for k, v in chunk.players.items()},
                                   games={renamed(k): v for k, v in chunk.games.items()})

    rotate = options.get("rotate_seats", False)
    return dataclasses.replace(
        prep, game=SPEC.name, play=play_renamed, players_schema=SPEC.players_schema(rotate),
        games_schema=SPEC.games_schema(), extra_summaries={},
        summary_columns=tuple(renamed(c) for c in prep.summary_columns))
'''

SPEC_PY = '''
"""Middle-Ages with every per-turn, per-tile and per-event column renamed (a test's copy)."""
import dataclasses

from simcore.games.middle_ages.spec import SPEC as ORIGINAL

RENAMES = {renames!r}


def renamed(name):
    for old, new in RENAMES.items():
        if name.startswith(old) and name[len(old):].replace("_", "").isalnum():
            return new + name[len(old):]
    return name


SPEC = dataclasses.replace(
    ORIGINAL, name="middle-ages-renamed", adapter=__package__ + ".game", golden=None, search=None,
    report_hooks=None, analysis_hooks=None, reference=False,
    player_columns=tuple(dataclasses.replace(c, name=renamed(c.name)) for c in ORIGINAL.player_columns),
    game_columns=tuple(dataclasses.replace(c, name=renamed(c.name)) for c in ORIGINAL.game_columns))
'''


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("renamed")
    pkg = root / "ma_renamed"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "spec.py").write_text(textwrap.dedent(SPEC_PY.replace("{renames!r}", repr(RENAMES))))
    (pkg / "game.py").write_text(textwrap.dedent(GAME_PY))
    sys.path.insert(0, str(root))
    registry.register("ma_renamed.spec")
    spec = registry.get("middle-ages-renamed")
    assert "coins_turn_3" not in {c.name for c in spec.player_columns}   # the copy renames
    assert "purse_after_3" in {c.name for c in spec.player_columns}
    kw = dict(games=1500, seed=9, players=4, strategies=["balanced", "greedy", "random", "balanced"],
              quiet=True)
    return (runner.simulate("middle-ages", out=root / "original", **kw),
            runner.simulate("middle-ages-renamed", out=root / "copy", **kw))


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == pytest.approx(b, rel=1e-12, abs=1e-12)
    return a == b


@pytest.mark.parametrize("source", ["stats", "rows"])
def test_a_renamed_copy_gets_every_table_by_role(runs, source):
    original, copy = (analyse(open_runs([r], source=source)) for r in runs)
    by_role = {"flow", "lead_changes", "tiles", "tile_summary", "domain_pairs", "events",
               "event_seats"}
    assert by_role <= set(original)
    assert set(copy) == set(original)
    for name in sorted(set(original) - {"domain_pairs"}):     # pairs tie in an unstable order
        a, b = original[name].to_dicts(), copy[name].to_dicts()
        assert len(a) == len(b), name
        for ra, rb in zip(a, b):
            assert ra.keys() == rb.keys(), name
            assert all(_same(ra[k], rb[k]) for k in ra), (name, ra, rb)
    pairs = lambda t: sorted((r["pair"], r["players"]) for r in t.to_dicts())  # noqa: E731
    assert pairs(copy["domain_pairs"]) == pairs(original["domain_pairs"])


def test_the_games_own_tables_are_named_by_their_hooks():
    names = table_names()
    assert {"objectives", "improvements", "seigneur_squares"} <= set(names)
    import analysis

    assert "objectives" not in analysis.TABLES       # no game's own table in the shared list
