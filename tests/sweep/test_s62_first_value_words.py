"""Review s62 (/tmp/rv268/out/ma3-rep) #5: `--vary 'income.palais.base=[5,1,4]' --vary
'scoring.empty_domain_penalty=[20,0,5]' --one-at-a-time`: the page held the other parameter at
"= 20 (its first value)", the first as typed, while it defined the reference as "its first value,
of numbers the lowest" (0 here). The held value is now "its first value as listed" where that is
not the lowest, and the page's definition says which value is the reference."""

from __future__ import annotations

from analysis.sweep.metrics import anchors, condition_text
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _sweep(values_a, values_b):
    return {"mode": "one-at-a-time", "held": "base", "game": "middle-ages",
            "rules_text": "[income.palais]\nbase = 3\n[scoring]\nempty_domain_penalty = 10\n",
            "settings": [],
            "varies": [{"name": "income.palais.base", "values": values_a},
                       {"name": "scoring.empty_domain_penalty", "values": values_b}]}


def test_s62_held_first_value_said_as_listed_when_not_the_lowest():
    sw = _sweep([5, 1, 4], [20, 0, 5])
    assert anchors(sw)["scoring.empty_domain_penalty"] == (20, "its first value as listed")
    assert condition_text(sw, "income.palais.base") == \
        "scoring.empty_domain_penalty = 20 (its first value as listed)"
    # listed lowest first: the words as before
    assert anchors(_sweep([1, 4, 5], [0, 5, 20]))["scoring.empty_domain_penalty"] == (0, "its first value")


def test_s62_reference_definition_not_called_first_value(tmp_path):
    """A sweep written by hand (tests/handmade_sweep.py) of start coins [3, 1, 2], the base 0 not
    tried: the page defines the reference as the lowest value tried (1), not "its first value"."""
    import html
    import re

    import numpy as np

    from handmade_sweep import write_sweep
    from reports.sweep import build_sweep_report
    from undrawn_figures import figures_undrawn

    u = np.random.default_rng(2).random(400)
    root = write_sweep(tmp_path / "sw", "setup.start_coins", [3, 1, 2],
                       {v: (u * 4).astype(int) for v in (3, 1, 2)}, 400)
    with figures_undrawn():
        build_sweep_report(root, tmp_path / "rep")
    page = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(
        (tmp_path / "rep" / "report.html").read_text(encoding="utf-8"))))
    assert "its first value, of numbers the lowest" not in page
    assert "(when the base is not tried: of numbers the lowest value tried, else the first as " \
           "listed)" in page
