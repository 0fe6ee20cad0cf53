"""A rare share reads the same in the report's lead and in its skill section (session 55 review: the
Seigneur's share with the bots read "0.50% (0.03–2.29)" in the report's lead, the line
``reports.skill.trend_headline`` writes, and "0.5% (0.0 to 2.3)" in the section's trend sentence,
``analysis.skill_words.verdict``, for the same number and interval). Reproduced with
``balance skill --game seigneurial --budgets 0,1 --games 400 --seed 3`` and ``balance report RUN
--skill DIR``: "0.50% (0.04–2.11)" in the lead, "0.5% (0.0 to 2.1)" in the section. The section
took its decimals from the table's own 95% interval (0.06–1.80, one decimal enough) while it
prints the 97.5% one, whose low end 0.04 then printed as 0.0, an interval reaching 0% that does
not. One rule now gives both their decimals (``analysis.skill_words.role_share_digits``: a share
that is not 0% or 100% never prints as it, ``simcore.numbers.share_digits``, the rule of ``balance
check``'s rare shares; nor does an end print as the share or as the other end)."""

from __future__ import annotations

import json
import re

import polars as pl

from analysis import skill as K
from analysis.skill_words import advantage, verdict
from simcore import games as registry
from simcore.numbers import share_digits

from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401  (every page undrawn)

NO_BALANCE = (None,) * (len(K.BALANCE_COLUMNS) + 1)


def _seigneurial_dir(path, seigneur=(2, 3), games=400):
    """A Seigneurial skill directory of one cell, budgets 0 and 4: the Seigneur winning
    ``seigneur`` of ``games`` games at each (the review's rare share), the Censitaires the rest."""
    rows = []
    for b, wins in zip((0, 4), seigneur):
        w = wins / games
        rest = (1 - w) / 3
        for part, n in (("all", games), ("one", games // 4)):
            for s in range(4):
                share = w if s == 0 else rest
                lo, hi = K.seat_interval(share, n)
                gap = (0.02, 0.0, 0.09) if part == "all" else (None, None, None)
                rows.append(("4p 4×standard", 4, b, part, s, "seigneur" if s == 0 else "censitaire",
                             "x", n, share, lo, hi, *NO_BALANCE, *gap))
    path.mkdir(parents=True)
    pl.DataFrame(rows, schema=K.SCHEMA, orient="row").write_parquet(path / "skill.parquet")
    (path / "skill.json").write_text(json.dumps({"kind": "balance-skill", "game": "seigneurial",
                                                 "players": 4, "games": games, "seed": 3,
                                                 "policy": "standard", "budgets": [0, 4]}))
    return path


SHARE = r"(\d+\.\d+)% \((\d+\.\d+)(?:–| to )(\d+\.\d+)\)"


def test_the_leads_rare_share_and_the_sections_print_alike(tmp_path):
    from reports.skill import trend_headline

    d = _seigneurial_dir(tmp_path / "sk")
    spec = registry.get("seigneurial")
    q = json.loads((d / "skill.json").read_text())
    lead = trend_headline(d, q, spec)
    section = verdict(advantage(pl.read_parquet(d / "skill.parquet"), spec.roles_alike))
    at_bots = re.search(r"with the bots \(budget 0\) " + SHARE, lead).groups()
    at_top = re.search(r"at budget 4 the Seigneur's win share is " + SHARE, lead).groups()
    said = re.search(r"the Seigneur's win share is " + SHARE + " at budget 0 and " + SHARE
                     + " at budget 4", section).groups()
    assert (said[:3], said[3:]) == (at_bots, at_top), (lead, section)
    # and no end that is not 0% prints as 0.0: 2 of 400 games, 97.5% interval from 0.04%
    for text in (at_bots, at_top):
        assert all(float(x) > 0 for x in text), text
        assert len(text[0].split(".")[1]) >= share_digits(*(float(x) for x in text))


def test_a_share_whose_interval_needs_one_decimal_keeps_it(tmp_path):
    """30 of 400 games (7.5%): no end near 0%, one decimal in both, as before."""
    from reports.skill import trend_headline

    d = _seigneurial_dir(tmp_path / "sk", seigneur=(30, 40))
    spec = registry.get("seigneurial")
    lead = trend_headline(d, json.loads((d / "skill.json").read_text()), spec)
    section = verdict(advantage(pl.read_parquet(d / "skill.parquet"), spec.roles_alike))
    assert re.search(r"with the bots \(budget 0\) 7\.5% \(\d\.\d–\d+\.\d\)", lead), lead
    assert re.search(r"the Seigneur's win share is 7\.5% \(\d\.\d to \d+\.\d\) at budget 0", section), section
