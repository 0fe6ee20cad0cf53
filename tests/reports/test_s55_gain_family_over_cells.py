"""A panel's gain sentences (one searching seat against the seat's own bot,
:func:`reports.skill.gain_sentence`) are one family: Holm over every (cell, seat) comparison the
page states, not over one cell's seats (session 55 review: a panel page printed one gain sentence
per cell, each "Holm over the 4 seats compared", so that a page of k cells made 4k claims at 5%
each cell, while its trend sentence holds its cells' claims together at 95%). Checked against
statsmodels' ``multipletests(method="holm")`` over the pooled p-values (Newcombe's interval
inverted, as the sentence tests); the size ranges are Newcombe's intervals at the Bonferroni level
over the same m comparisons, and the sentence names the family."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.proportion import confint_proportions_2indep

from analysis import skill as K
from analysis import stats
from reports.skill import gain_sentence
from simcore.numbers import rounded

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)

REST = (None,) * (len(K.BALANCE_COLUMNS) + 1) + (None,) * len(K.ROLE_GAP_COLUMNS)
# the every-seat rows' Balance figures (any: the gain sentences do not read them; the page does)
ALL = (0.95, 0.9, 1.0, 0.95, 0.9, 1.0, 0.88, 1.0, 1 - 0.05 / 6) + (None,) * len(K.ROLE_GAP_COLUMNS)
BOT = 4000                          # every seat its own bot at budget 0, games per seat
# per cell: the searching seat's (wins, games) at budget 4 per seat, and the bots' wins of BOT
CELLS = {"4p 4×balanced": ([(140, 400), (130, 400), (121, 400), (100, 400)], [1000] * 4),
         "4p 4×greedy": ([(129, 400), (200, 400), (100, 400), (96, 400)], [1000] * 4),
         "3p 3×balanced": ([(160, 400), (150, 400), (100, 400)], [1333, 1333, 1334])}


def _table(cells=CELLS) -> pl.DataFrame:
    rows = []
    for cell, (top, bot) in cells.items():
        P = len(top)
        for s, x0 in enumerate(bot):
            rows.append((cell, P, 0, "all", s, "player", "balanced", BOT, x0 / BOT, 0.0, 1.0, *ALL))
            rows.append((cell, P, 0, "one", s, "player", "balanced", 100, 0.3, 0.0, 1.0, *REST))
        for s, (x1, n1) in enumerate(top):
            rows.append((cell, P, 4, "one", s, "player", "search4", n1, x1 / n1, 0.0, 1.0, *REST))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


def _expected(multipletests):
    """Per (cell, seat): Holm's decision over all 11 comparisons of the page, from the counts."""
    keys, p = [], []
    for cell, (top, bot) in CELLS.items():
        for s, ((x1, n1), x0) in enumerate(zip(top, bot)):
            keys.append((cell, s))
            p.append(float(stats.newcombe_p(np.array([x1], float), np.array([n1], float),
                                            np.array([x0], float), np.array([BOT], float))[0]))
    reject = multipletests(np.array(p), alpha=0.05, method="holm")[0]
    alone = {}
    for cell, (top, bot) in CELLS.items():          # each cell's own family, as before
        pc = [p[keys.index((cell, s))] for s in range(len(top))]
        alone.update({(cell, s): bool(r) for s, r in
                      enumerate(multipletests(np.array(pc), alpha=0.05, method="holm")[0])})
    return dict(zip(keys, map(bool, reject))), alone, len(keys)


def _clear_seats(words: str) -> set[int]:
    """The seats (from 0) a sentence calls clearly more or less."""
    body = words.split(" is ", 1)[1].split("; over all its", 1)[0]
    out = set()
    for seats in re.findall(r"clearly (?:more|less)[^()]*? in (seats? [\d, and]+) \(", body):
        out |= {int(s) - 1 for s in re.findall(r"\d", seats)}
    return out


def test_the_gain_sentences_of_a_panel_page_are_one_holm_family(multipletests):
    table = _table()
    joint, alone, m = _expected(multipletests)
    # the design: some comparison Holm calls clear in its own cell's family but not over the page's
    assert any(alone[k] and not joint[k] for k in joint), (alone, joint)
    for cell, (top, bot) in CELLS.items():
        words = gain_sentence(table.filter(pl.col("cell") == cell), family=table)
        assert (f"Holm over the {m} seats compared in the panel's {len(CELLS)} cells (every gain "
                "sentence of the page), 1 pp matters") in words, words
        assert _clear_seats(words) == {s for s in range(len(top)) if joint[(cell, s)]}, (cell, words)
        # each size range: Newcombe's interval at the Bonferroni level over the page's m comparisons
        for s, ((x1, n1), x0) in enumerate(zip(top, bot)):
            lo, hi = confint_proportions_2indep(x1, n1, x0, BOT, method="newcomb", compare="diff",
                                                alpha=0.05 / m)
            if joint[(cell, s)]:
                lo, hi = (max(lo, 0.0), hi) if x1 / n1 > x0 / BOT else (lo, min(hi, 0.0))
            item = re.search(rf"(?:seat {s + 1} )?{rounded(100 * x1 / n1, 1):.1f}% of {n1:,} games vs the bot's "
                             rf"[\d.]+% of {BOT:,}, [^;()]*?all {m} seats of the {len(CELLS)} cells at "
                             rf"once ([−+]?[\d.]+) to ([−+]?[\d.]+) pp", words)
            assert item, (cell, s, words)
            for text, end in zip(item.groups(), (lo, hi)):
                got = float(text.replace("−", "-"))
                assert abs(got - 100 * end) <= 0.5 * 10 ** -len(text.split(".")[1]) + 1e-9, (cell, s, text, end)


def test_one_cell_keeps_its_seats_family_and_words():
    """A page of one cell: the family is its seats, worded as before."""
    one = {"4p 4×balanced": CELLS["4p 4×balanced"]}
    table = _table(one)
    words = gain_sentence(table, family=table)
    assert words == gain_sentence(table)
    assert "Holm over the 4 seats compared, 1 pp matters" in words and "all 4 seats at once" in words


@pytest.mark.parametrize("where", ["page", "terminal"])
def test_the_skill_page_and_the_terminal_read_every_cell_in_one_family(tmp_path, where, monkeypatch):
    """The page (build_skill_page) and skill.txt / the terminal (cli.skill) pass the whole table."""
    import json

    from reports import skill as R

    seen = []
    real = R.gain_sentence

    def spy(ct, smallest=None, family=None):
        seen.append(family)
        return real(ct, smallest, family=family)

    monkeypatch.setattr(R, "gain_sentence", spy)
    table = _table()
    if where == "page":
        from undrawn_figures import skill_pages_undrawn

        d = tmp_path / "sk"
        d.mkdir()
        table.write_parquet(d / "skill.parquet")
        (d / "skill.json").write_text(json.dumps({"kind": "balance-skill", "game": "middle-ages",
                                                  "players": 4, "games": 400, "seed": 0,
                                                  "policy": "balanced", "budgets": [0, 4]}))
        with skill_pages_undrawn():
            R.build_skill_page(d)
    else:
        from cli.skill import gain_lines

        gain_lines(table, 0.01)
    assert len(seen) == 3 and all(f is not None and f.height == table.height for f in seen)
