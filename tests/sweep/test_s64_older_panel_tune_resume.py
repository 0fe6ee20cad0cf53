"""A panel tune begun before session 63, resumed with the same command today (session 64).

Session 63 made ``balance tune --players 3,4 --lineup … --vary track.goal.4=…`` leave out the
3-player cells (they read the goal of 3 players: every candidate plays the same games there). A
tune begun before that recorded every cell of the panel in its tune.json and in its study, and no
``not_read``; the same command today plans the 4-player cells only, so its resume was read as
another tune: "error: --out t: holds another tune (different panel); use another --out, or --force
to replace it" (the designer had given the same panel, and --force would have replaced the old
tune's work), and with ``--storage`` "holds the study of another tune (different panel (--panel,
--lineup))". Its trials cannot go on in today's search (their objectives are the worst over all four
cells, at 1 − 0.05/4; an Optuna trial's value is not judged again), nor as the tune they began (in
the record below every candidate's worst cell was the same 3-player cell, objective 3.0, so the
search could not tell the candidates apart). The resume is now refused in one line saying so and
what to do, exit 2, before any game, nothing on disk touched.

``s64_pre63_panel_tune.json`` is the tune.json the code before session 63 (d6a836e5) wrote for the
command below (``--trials 12 --min-games 400 --max-games 1600 --confirm-games 4000 --threads 1``),
copied unchanged from a tune interrupted in its first confirmation after 8 trials; its study's
recorded plan was ``plan_identity`` of it (checked on that study.db), which is how the study here is
made.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli import _run

RECORD = Path(__file__).with_name("s64_pre63_panel_tune.json")
LINEUPS = ["seigneur=even-lord,censitaire=fair-share", "seigneur=harsh-lord,censitaire=objective"]
ARGV = ["tune", "--game", "seigneurial", "--players", "3,4", *sum((["--lineup", x] for x in LINEUPS), []),
        "--vary", "track.goal.4=8..12", "--target", "role=seigneur:0.30:10", "--trials", "12",
        "--min-games", "400", "--max-games", "1600", "--confirm-games", "4000", "--threads", "1"]


def _record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def _rules(tmp_path) -> str:
    """The rules the old tune recorded, as a file (so the command plans those very rules whatever
    the shipped rules become)."""
    path = tmp_path / "rules.toml"
    path.write_text(_record()["rules_text"], encoding="utf-8")
    return str(path)


def _files(d: Path) -> dict:
    return {p.relative_to(d): (p.read_bytes(), p.stat().st_mtime_ns) for p in d.rglob("*") if p.is_file()}


def _plan(tmp_path, lineups=LINEUPS, counts="3,4"):
    from analysis.tune.search import plan_tune

    from strategies.panels import from_options

    panel = from_options("seigneurial", panel=None, players=counts, lineups=lineups)
    return plan_tune("seigneurial", varies=["track.goal.4=8..12"], targets=["role=seigneur:0.30:10"],
                     trials=12, min_games=400, max_games=1600, confirm_games=4000, panel=panel,
                     rules=_rules(tmp_path))


def _one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_s64_an_older_panel_tune_resumed_is_refused_in_one_line_saying_why_and_touching_nothing(tmp_path, capsys):
    from simcore.atomic import mark_dir

    from analysis.tune.search import TUNE_ENTRIES

    out = tmp_path / "t"
    out.mkdir()
    (out / "tune.json").write_bytes(RECORD.read_bytes())
    mark_dir(out, "tune", TUNE_ENTRIES)             # as the old tune's begin_out marked it
    before = _files(out)
    capsys.readouterr()
    assert _run(ARGV + ["--rules", _rules(tmp_path), "--out", str(out)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line == (
        f"error: --out {out}: this tune was begun by an earlier version of the toolkit, which played "
        "every cell of the panel, also the 2 cells at 3 players, where Seigneurial does not read "
        "track.goal.4 (3p even-lord + 2×fair-share, 3p harsh-lord + 2×objective); its trials were "
        "judged with those cells, where every candidate plays the same games, and a tune now leaves "
        "them out, so its search cannot go on: to tune the 2 cells that read it, give a new --out "
        "(this one is left as it is; balance report reads it), or --force to play it anew here (the "
        "old tune is replaced only when the new one is complete)"), line
    assert _files(out) == before                    # nothing played, nothing written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules.toml", "t"]    # nothing beside it


@pytest.mark.slow          # (a new Optuna study costs ~2 s of CPU: its schema migrations)
def test_s64_an_older_panel_tunes_study_given_as_storage_is_refused_in_one_line(tmp_path, capsys):
    from analysis.tune.search import PLAN_ATTR, STARTUP_ATTR, STUDY, _load_optuna, plan_identity

    optuna = _load_optuna()
    db = tmp_path / "old.db"
    study = optuna.create_study(study_name=STUDY, storage=f"sqlite:///{db}", direction="minimize")
    study.set_user_attr(PLAN_ATTR, plan_identity(_record()))       # as run_tune recorded it then
    study.set_user_attr(STARTUP_ATTR, _record()["startup_trials"])
    del study
    before = db.read_bytes()
    capsys.readouterr()
    out = tmp_path / "t2"
    assert _run(ARGV + ["--rules", _rules(tmp_path), "--storage", str(db), "--out", str(out)]) == 2
    line = _one_line(capsys.readouterr().err)
    assert line.startswith(f"error: --storage {db}: the tune of this study was begun by an earlier "
                           "version of the toolkit, which played every cell of the panel, also the 2 "
                           "cells at 3 players, where Seigneurial does not read track.goal.4 ("), line
    assert line.endswith("so its search cannot go on: to tune the 2 cells that read it, give a new "
                         "--storage file (this one is left as it is)"), line
    assert db.read_bytes() == before and not out.exists()


def test_s64_the_older_record_is_this_commands_plan_with_every_cell_and_todays_record_is_not_it(tmp_path):
    from analysis.tune.search import check_older_panel_tune, is_older_panel_tune, older_panel_plan
    from analysis.sweep.play import PLAN_KEYS, plan_value

    plan = _plan(tmp_path)
    record = _record()
    # the plan the old code recorded, key by key (what a resume compares)
    older = older_panel_plan(plan)
    differ = [k for k in PLAN_KEYS if json.dumps(plan_value(older, k), sort_keys=True)
              != json.dumps(plan_value(record, k), sort_keys=True)]
    assert differ == [], differ
    assert is_older_panel_tune(record, plan)
    # today's own record (not_read, the 4-player cells) resumes as before: not refused
    today = plan.to_json()
    assert not is_older_panel_tune(today, plan)
    out = tmp_path / "today"
    out.mkdir()
    (out / "tune.json").write_text(json.dumps(today), encoding="utf-8")
    check_older_panel_tune(plan, out)
    # --force plays the old directory anew (replaced only when complete): not refused here
    (out / "tune.json").write_bytes(RECORD.read_bytes())
    check_older_panel_tune(plan, out, force=True)
    with pytest.raises(Exception, match="begun by an earlier version"):
        check_older_panel_tune(plan, out)
    # another tune (another target) is not called this one's older record: its refusal stays
    # prepare_out's "holds another tune"
    assert not is_older_panel_tune({**record, "targets": [{**record["targets"][0], "aim": 0.4}]}, plan)
    # a plan that leaves no cell out has no older record
    assert older_panel_plan(_plan(tmp_path, counts="4")) is None


def test_s64_one_cell_left_the_older_record_names_the_panel_as_asked(tmp_path):
    from analysis.tune.search import is_older_panel_tune

    # one line-up over 3 and 4 players: today a one-cell tune (players 4 and the line-up); the old
    # code recorded the panel of both cells, players and strategies as asked (None)
    plan = _plan(tmp_path, lineups=LINEUPS[:1])
    assert not plan.multi and plan.players == 4
    record = _record()
    record["panel"] = {**record["panel"], "cells": [c for c in record["panel"]["cells"]
                                                     if c["lineup"][0] == "even-lord"]}
    assert is_older_panel_tune(record, plan)
