"""Review s62 (/tmp/rv268/out/tu-rot, sk-rot) #1: a tune played with ``--rotate-seats`` printed
``balance skill`` commands as its follow-up check. ``balance skill`` has no seat rotation: it plays
the line-up in fixed seats (the reviewer's check read seats 27/25/47/0.5% for a tune whose
confirmation had every seat at 24-26%, rotated), so the check it advised would read "not met" for
any rules. A rotated tune prints no such command, and says in one line why."""

from __future__ import annotations

import json


def _result():
    cells = [{"players": 4, "lineup": ["balanced", "greedy", "eventwise", "random"],
              "label": "4p balanced + greedy + eventwise + random (seats rotated)",
              "outcome": "met", "objective": 0.1, "targets": []}]
    return {"met": True, "best_trial": 0, "settings": ["income.palais.base=2"],
            "confirm": {"games": 8000, "met": True, "players": 4, "cells": cells,
                        "label": "4p balanced + greedy + eventwise + random (seats rotated)"}}


def _tune_dir(tmp_path, rotate):
    out = tmp_path / "t"
    out.mkdir()
    (out / "best_rules.toml").write_text("# rules\n", encoding="utf-8")
    (out / "tune.json").write_text(json.dumps({"rotate_seats": rotate, "varies": []}), encoding="utf-8")
    return out


def test_s62_rotated_tune_prints_no_fixed_seat_skill_command(tmp_path):
    from cli.tune import follow_up_lines

    out = _tune_dir(tmp_path, True)
    lines = follow_up_lines(_result(), "middle-ages", out, ["income.palais.base=1..4"],
                            ["seat-balance:2"], players="4",
                            strategies="balanced,greedy,eventwise,random")
    text = "\n".join(lines)
    assert "balance skill --game" not in text and "as play gets stronger, against" not in text, text
    why = [ln for ln in lines if "rotat" in ln]
    assert len(why) == 1, lines
    assert "fixed seats" in why[0] and "balance skill" in why[0], why


def test_s62_fixed_seat_tune_keeps_its_skill_commands(tmp_path):
    from cli.tune import follow_up_lines

    out = _tune_dir(tmp_path, False)
    lines = follow_up_lines(_result(), "middle-ages", out, ["income.palais.base=1..4"],
                            ["seat-balance:2"], players="4",
                            strategies="balanced,greedy,eventwise,random")
    assert any(ln.startswith("as play gets stronger, against the rules it started from: balance skill")
               for ln in lines), lines
