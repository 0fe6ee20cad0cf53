"""Shared analysis code takes a game's words from its spec, never from its own list of names
(issue 26): the per-game counts beside the game length are the games columns declared
``count_per_game`` (Médiévallons' ``reshuffles``), and the role ladder's roles are the spec's
seat roles (Seigneurial's ``seigneur`` / ``censitaire``). A copy of a spec that declares other
names gets tables under those names; a column merely named ``reshuffles`` gets nothing.
"""

from __future__ import annotations

import dataclasses

import pytest
from analysis_runs import write_run

from analysis import analyse, open_runs
from simcore import games as registry

PLAYERS = {"game": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4], "seat": [0, 1] * 5, "strategy": ["A"] * 10,
           "score": [5, 3, 2, 6, 4, 4, 7, 1, 0, 9], "win_share": [1, 0, 0, 1, 0.5, 0.5, 1, 0, 0, 1],
           "rank": [1, 2, 2, 1, 1, 1, 1, 2, 2, 1]}
GAMES = {"game": [0, 1, 2, 3, 4], "n_players": [2] * 5, "turns": [1, 2, 3, 4, 10],
         "end_reason": [0, 0, 1, 0, 2]}
NAMES = {"0": "third_guild", "1": "empty_pile", "2": "truncated"}


def _mv_copy(monkeypatch, name: str, rename: dict[str, str], role: str = "count_per_game"):
    """Médiévallons' spec under ``name``, its games columns renamed (old → new) and given
    ``role``, visible to the analysis for this test only."""
    mv = registry.get("medievallons")
    cols = tuple(dataclasses.replace(c, name=rename[c.name], role=role) if c.name in rename else c
                 for c in mv.game_columns)
    copy = dataclasses.replace(mv, name=name, game_columns=cols)
    monkeypatch.setattr(registry, "_specs", {**registry.specs(), name: copy})
    return copy


def test_the_counts_beside_the_length_are_the_columns_the_spec_declares(tmp_path, monkeypatch):
    _mv_copy(monkeypatch, "mv-refills", {"reshuffles": "pile_refills"})
    run = write_run(tmp_path / "refills", PLAYERS, {**GAMES, "pile_refills": [0, 1, 0, 0, 1]},
                    game="mv-refills", end_reason_names=NAMES)
    r = analyse(open_runs([run]))["length"].row(0, named=True)
    assert r["mean_pile_refills"] == pytest.approx(0.4)
    assert r["pile_refills_ci_low"] < 0.4 < r["pile_refills_ci_high"]
    assert not any("reshuffles" in k for k in r)


def test_a_column_only_named_reshuffles_is_not_a_count(tmp_path, monkeypatch):
    _mv_copy(monkeypatch, "mv-plain", {"reshuffles": "reshuffles"}, role="")
    run = write_run(tmp_path / "plain", PLAYERS, {**GAMES, "reshuffles": [0, 1, 0, 0, 1]},
                    game="mv-plain", end_reason_names=NAMES)
    r = analyse(open_runs([run]))["length"].row(0, named=True)
    assert r["mean_turns"] == pytest.approx(4.0)
    assert not any("reshuffles" in k for k in r)


def test_the_role_ladder_names_the_roles_the_spec_declares(monkeypatch):
    """Seigneurial's spec with its roles renamed (lord, tenant): the ladder's tables are keyed by
    the new names, and the bots' roles are matched against them."""
    from analysis import ladder as L
    from strategies import seigneurial as S

    sg = registry.get("seigneurial")
    words = {"seigneur": "lord", "censitaire": "tenant"}
    copy = dataclasses.replace(sg, roles=tuple(dataclasses.replace(r, name=words[r.name])
                                               for r in sg.roles))
    monkeypatch.setattr(L, "get_spec", lambda game: copy)
    assert L.seat_roles("seigneurial", 4) == ("lord", "tenant")
    cells = L.role_ladder(["even-lord", "objective", "random"], 24, players=3, game="seigneurial",
                          roles_of=lambda b: tuple(words[r] for r in S.roles_of(b)))
    assert set(cells) == {"lord", "tenant"}
    assert {c.bot for c in cells["lord"]} == {"even-lord", "random"}
    assert {(c.bot, c.opponent) for c in cells["tenant"]} == {("objective", "random"),
                                                               ("random", "objective")}


def test_a_game_with_alike_seats_has_no_role_ladder():
    from analysis import ladder as L

    with pytest.raises(ValueError, match="role of its own"):
        L.seat_roles("medievallons", 4)
