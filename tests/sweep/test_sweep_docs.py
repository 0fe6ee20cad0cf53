"""docs/sweep.md and the ladder's docs say what the commands do: the quoted sensitivity sentence
belongs to the example above it, and the ladder table's interval is the one analysis.ladder
computes. Text only (nothing is played)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_quoted_sweep_sentence_is_one_the_example_can_print():
    """docs/sweep.md's sweep example varies setup.start_coins[0] over [0,2,4,6], so its page compares
    0 with 6 (first and last value); the quoted sentence said 'from 0 to 4' with figures no run of
    the example gave (the example at 1e5 games printed -1.6 pp (-2.0 to -1.2) for seat 2)."""
    text = (ROOT / "docs/sweep.md").read_text(encoding="utf-8")
    section = text[text.index("## `balance sweep`"):text.index("## `balance tune`")]
    command = next(line for line in section.splitlines() if line.startswith("balance sweep "))
    args = shlex.split(command)
    values = {}
    for i, a in enumerate(args):
        if a == "--vary":
            path, body = args[i + 1].split("=", 1)
            if ".." in body:
                lo, hi = body.split("..")
                values[path] = [int(lo), int(hi)]
            else:
                values[path] = [int(x) for x in body.strip("[]").split(",")]
    # (a per-seat setting names its seat, "(seat 1's)", and a sweep of several parameters where
    # the others were held, "with income.palais.base = 3 (…)", as the page prints them)
    quotes = re.findall(r"^> (Raising|Lowering|Changing) (\S+)(?: \(seat \d+'s\))? from (\S+) to (\S+)"
                        r"(?: with .*?)? moves", section, re.M)
    assert quotes, "no quoted sentence"
    for _verb, path, a, b in quotes:
        assert path in values, path
        assert [int(a), int(b)] == [values[path][0], values[path][-1]], (path, a, b, values[path])


def test_the_ladder_table_docs_name_the_interval_analysis_ladder_computes():
    """docs/analysis.md said the ladder table's ci_low/ci_high are Wilson intervals; analysis.ladder
    computes a Student t interval over the deals' means (paired by deal: a Wilson interval over every
    game treated a deal's rotations as independent games); only a role ladder's lead role, one game
    per deal, keeps a Wilson interval."""
    import analysis.ladder as L

    assert "Student t" in L.deal_interval.__doc__ or "Student t" in L.__doc__
    text = (ROOT / "docs/analysis.md").read_text(encoding="utf-8")
    para = text[text.index("## The skill ladder's matrix"):]
    para = para[:para.index("\n\n", para.index("ci_low"))]
    assert not re.search(r"ci_high \(Wilson\)", para), para      # what it said
    assert "lead" in para                       # the one place a Wilson interval is used, named
    assert "Student t" in para and "deal" in para
