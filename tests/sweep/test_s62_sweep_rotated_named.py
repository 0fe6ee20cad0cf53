"""Review s62 (/tmp/rv268/out/marot, marot-rep) #2: a sweep played with ``--rotate-seats``
(sweep.json ``rotate_seats: true``) never said so, on its page (title, header, first section) or
in the lead ``balance report`` prints: the line-up is named rotated wherever it is named, as the run
page does. (A sweep written by hand, tests/handmade_sweep.py: the words are checked, not the games.)"""

from __future__ import annotations

import html
import json
import re

import numpy as np

from handmade_sweep import write_sweep
from undrawn_figures import figures_undrawn
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _report(tmp_path, rotate: bool):
    from reports.sweep import build_sweep_report

    values = [2, 3]
    u = np.random.default_rng(1).random(400)
    winners = {v: (u * 4).astype(int) for v in values}
    root = write_sweep(tmp_path / "sw", "income.palais.base", values, winners, 400)
    sw = json.loads((root / "sweep.json").read_text())
    sw.update({"strategies": "balanced,greedy,eventwise,random", "rotate_seats": rotate, "players": 4})
    (root / "sweep.json").write_text(json.dumps(sw))
    answers: list[str] = []
    with figures_undrawn():
        build_sweep_report(root, tmp_path / "rep", answers=answers)
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(
        (tmp_path / "rep" / "report.html").read_text(encoding="utf-8"))))
    return page, "\n".join(answers)


def test_s62_rotated_sweep_says_rotated_on_page_and_lead(tmp_path):
    page, lead = _report(tmp_path, True)
    assert lead.startswith("Middle-Ages, 4 players, seats rotated: what each setting changes:"), lead
    assert "Middle-Ages, 4 players, seats rotated: what each setting changes" in page
    assert "balanced,greedy,eventwise,random (rotated over the seats: each deal played once in " \
           "every rotation)" in page
    assert "The paired change of each setting at 4 players (seats rotated)" in page


def test_s62_fixed_seat_sweep_says_no_rotation(tmp_path):
    page, lead = _report(tmp_path, False)
    assert lead.startswith("Middle-Ages, 4 players: what each setting changes:"), lead
    assert "rotated" not in page
