"""Session 63: ``simulate --lineup A --lineup B`` (or ``--players 3,4``) plays a panel, which the
same command resumes as ``simulate --panel NAME`` does; interrupted after its panel.json, its line
said "interrupted (Ctrl-C) after p/panel.json was written" without "run the same command again to
resume", which :func:`cli._resumes` gave only for ``--panel``. These failed before (False for
every panel made without ``--panel``)."""

from __future__ import annotations

import pytest

from cli import _resumes


@pytest.mark.parametrize("args", [
    ("simulate", "--lineup", "random", "--lineup", "greedy", "--players", "2", "--out", "p"),
    ("simulate", "--lineup=random", "--out", "p"),
    ("simulate", "--players", "3,4", "--out", "p"),
    ("simulate", "-p", "3..5", "--out", "p"),
    ("simulate", "--players=3,4", "--out", "p"),
    ("--players", "3,4", "--out", "p"),                  # the simulate script: options first
])
def test_a_panel_made_without_panel_resumes(args):
    assert _resumes(list(args))


@pytest.mark.parametrize("args", [
    ("simulate", "--players", "4", "--out", "r"),
    ("simulate", "--players", "4,", "--out", "r"),
    ("simulate", "--players", "x", "--out", "r"),
    ("simulate", "--out", "r"),
    ("report", "r", "--players", "3,4", "--out", "rep"),
    ("baseline", "--lineup", "random", "--players", "2", "--out", "tb"),   # built beside, whole
])
def test_one_line_up_or_another_command_does_not(args):
    assert not _resumes(list(args))
