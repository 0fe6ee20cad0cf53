"""Review s59 rv235 #5: a panel tune begun before session 59 has no ``panel_intervals`` in its
tune.json (its worst-cell intervals are the largest of the cells' own 95% ends, narrower than the
new ones at 1 − 0.05/cells). ``panel_intervals`` was no plan key, so the same command resumed it and
mixed the old intervals with the new (the page headed every trial "interval (under 95% over the
cells)"; racing compared with the old best's narrower end). Such a resume is now refused in one
line, exit 2, before any game, naming the earlier version and --force or a new --out; the finished
tune's page still renders as before."""

from __future__ import annotations

import json

from cli import _run
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

ARGV = ["tune", "--game", "seigneurial", "--players", "4",
        "--lineup", "even-lord,fair-share,fair-share,fair-share",
        "--lineup", "harsh-lord,fair-share,fair-share,fair-share",
        "--vary", "track.start_square=[3]", "--target", "role=seigneur:0.30:10", "--seed", "5",
        "--trials", "1", "--min-games", "200", "--max-games", "200", "--confirm-games", "200"]


def _files(d):
    return {p.relative_to(d): p.stat().st_mtime_ns for p in d.rglob("*") if p.is_file()}


def test_an_old_panel_tune_is_refused_on_resume_and_its_page_still_renders(tmp_path, capsys):
    out = tmp_path / "t"
    assert _run(ARGV + ["--out", str(out)]) == 0
    tune = json.loads((out / "tune.json").read_text())
    assert tune["panel_intervals"] == "bonferroni"
    # as a tune begun before session 59 wrote it
    tune.pop("panel_intervals")
    (out / "tune.json").write_text(json.dumps(tune))
    before = _files(out)
    capsys.readouterr()
    assert _run(ARGV + ["--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1, err
    assert "started by an earlier version" in err and "intervals" in err, err
    assert "--force" in err and "new --out" in err, err
    assert _files(out) == before            # nothing played, nothing written
    # the finished old tune's page renders, saying its intervals hold less than 95%
    rep = tmp_path / "rep"
    assert _run(["report", str(out), "--out", str(rep)]) == 0
    assert "under 95% over the cells" in (rep / "report.html").read_text(encoding="utf-8")
