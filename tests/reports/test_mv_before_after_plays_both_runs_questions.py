"""A Médiévallons before/after answers the balance questions for both runs, each with its own rules.

`balance report BEFORE AFTER` played the questions (first player per player count, card types and
their ablation, best of 3) for the BEFORE run only, so the page answered them for the old rules
only. Here a before/after of two small runs (the variant: ``--set guilds.to_win=2``) is written
through the command's own function with few questions' games (``--questions-games``): the played
questions of both runs are kept, the progress says whose are played, and the page's section
"Balance questions: AFTER vs BEFORE" gives both answers and a change line per answer whose numbers,
interval and verdict are recomputed here from the two runs' question tables (independent samples,
Holm over each question's answers with statsmodels, sizes on the Bonferroni interval with scipy),
and "cannot tell" where a side has too few founders.
"""

from __future__ import annotations

import html
import math
import re

import numpy as np
import polars as pl
import pytest

from cli.report import make_report
from undrawn_figures import figures_undrawn

QGAMES = 120           # games per question and per rules variant, for both runs
SMALLEST = 0.01        # 1 pp of win share matters (the game's default)
FEW = 30               # founders a side needs before a change is told


def _run(path, settings=()):
    from simcore import runner

    prep = runner.prepare("medievallons", players=4, strategies="balanced", settings=list(settings))
    return runner.run(prep, games=300, seed=4, out=path, quiet=True)


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    root = tmp_path_factory.mktemp("mvba")
    before = _run(root / "mv-a")
    after = _run(root / "mv-b", ["guilds.to_win=2"])
    said: list[str] = []
    answers: list[str] = []
    with figures_undrawn():
        out = make_report([before, after], root / "rep", questions_games=QGAMES, progress=said.append,
                          answers=answers)
    raw = out.read_text(encoding="utf-8")
    m = re.search(r"<section id='comparison_questions'>(.*?)</section>", raw, re.S)
    return {"dir": out.parent, "said": said, "answers": answers, "section": _text(m.group(1)) if m else "",
            "page": _text(raw)}


def _text(raw: str) -> str:
    """A page's words: block tags as spaces, inline ones (hover titles, folded details) dropped."""
    inline = re.sub(r"</?(abbr|label|span|b|em|code|strong)\b[^>]*>", "", raw)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", inline)))


def _expected(before: pl.DataFrame, after: pl.DataFrame, key: str, value: str, se: str,
              n: str, multipletests) -> dict:
    """Each item's (before, after, change, Bonferroni interval, verdict), from the two tables."""
    from scipy.stats import norm

    b = {r[key]: r for r in before.iter_rows(named=True)}
    a = {r[key]: r for r in after.iter_rows(named=True)}
    items = [k for k in b if k in a and min(b[k][n], a[k][n]) >= FEW]
    def spread(r):       # every game alike on a side: the plus-four standard error of the rate there
        if r[se] > 0:
            return r[se]
        t = (r[value] * r[n] + 2) / (r[n] + 4)
        return math.sqrt(t * (1 - t) / (r[n] + 4))

    d = np.array([a[k][value] - b[k][value] for k in items])
    s = np.array([math.hypot(spread(b[k]), spread(a[k])) for k in items])
    with np.errstate(invalid="ignore", divide="ignore"):      # (no spread on either side: the same
        p = np.where(s > 0, 2 * norm.sf(np.abs(d / s)), np.where(d == 0, 1.0, 0.0))   # result every game)
    clear = multipletests(p, alpha=0.05, method="holm")[0]
    q = norm.ppf(1 - 0.05 / (2 * len(items)))
    out = {}
    for k, dk, sk, ck in zip(items, d, s, clear):
        lo, hi = dk - q * sk, dk + q * sk
        near, far = (max(lo, 0), max(hi, 0)) if dk > 0 else (max(-hi, 0), max(-lo, 0))
        verdict = ("within noise" if not ck else "clear and large enough to matter" if near >= SMALLEST
                   else "clear but small" if far < SMALLEST else "clear, may matter")
        out[k] = (b[k][value], a[k][value], dk, lo, hi, verdict)
    return out


def _check_line(line: str, want: tuple, family: int, what: str) -> None:
    """The page's change line for one answer against the expected numbers (as printed: the
    change is the after − before printed, within its last digit of the exact change)."""
    num = r"([+−-]?\d+\.\d+)"
    m = re.match(rf"[^%]*?{num}% → {num}% \({num} pp; 95% interval {num} to {num} pp over the {family} {what} "
                 rf"at once\), ([a-z, ]+?)(?=[.;]| \()", line)
    assert m, line
    b, a, c, lo, hi = (float(x.replace("−", "-")) for x in m.groups()[:5])
    digits = len(m.group(1).split(".")[1])
    unit = 10 ** -digits
    assert abs(b - 100 * want[0]) <= unit / 2 + 1e-9 and abs(a - 100 * want[1]) <= unit / 2 + 1e-9, (line, want)
    assert abs(c - (a - b)) < 1e-9 and abs(c - 100 * want[2]) <= unit + 1e-9, (line, want)
    assert abs(lo - 100 * want[3]) <= unit / 2 + 1e-9 and abs(hi - 100 * want[4]) <= unit / 2 + 1e-9, (line, want)
    assert m.group(6) == want[5], (line, want)


def test_both_runs_questions_are_played_and_kept(page):
    """The progress says whose questions are played (both), and the report keeps both runs' tables."""
    said = " | ".join(page["said"])
    assert f"Balance questions for 2 runs, each with its own rules (mv-a, mv-b): {QGAMES:,} games" in said, said
    assert "Balance questions of mv-a (before): first player at 2 players" in said, said
    assert "Balance questions of mv-b (after): card ablation at 4 players" in said, said
    for stem in ("first_player", "card_types", "best_of_three"):
        assert (page["dir"] / "questions" / f"{stem}.csv").is_file()
        assert (page["dir"] / "questions" / "mv-b" / f"{stem}.csv").is_file()
    assert (page["dir"] / "questions" / "mv-b" / "before_after.csv").is_file()


def test_first_player_change_lines_match_the_two_tables(page, multipletests):
    before = pl.read_csv(page["dir"] / "questions" / "first_player.csv").filter(pl.col("seat") == 0)
    after = pl.read_csv(page["dir"] / "questions" / "mv-b" / "first_player.csv").filter(pl.col("seat") == 0)
    want = _expected(before, after, "players", "win_share", "std_error", "games", multipletests)
    assert sorted(want) == [2, 3, 4, 5]
    text = page["section"]
    for players, w in want.items():
        line = text[text.index(f"{players} players: Seat 1 (plays first) wins "):]
        _check_line(line[:400], w, 4, "player counts")


def test_card_types_and_best_of_three_lines_and_cannot_tell(page, multipletests):
    from simcore.games.medievallons.rules import CARD_NAMES, CARD_TYPES

    names = dict(zip(CARD_TYPES, CARD_NAMES))
    before = pl.read_csv(page["dir"] / "questions" / "card_types.csv")
    after = pl.read_csv(page["dir"] / "questions" / "mv-b" / "card_types.csv")
    keep = set(before.filter(pl.col("founded_share") >= 0.005)["card"]) & \
        set(after.filter(pl.col("founded_share") >= 0.005)["card"])
    want = _expected(before.filter(pl.col("card").is_in(list(keep))), after.filter(pl.col("card").is_in(list(keep))),
                     "card", "founders_win_share", "founders_std_error", "founders", multipletests)
    text = page["section"]
    shown = [k for k, w in want.items() if w[5] != "within noise"]
    for k in shown:                           # each clear change is worded with its numbers
        line = text[text.index(f"{names[k]}, "):]
        _check_line(line[:400], want[k], len(want), "types")
    quiet = [names[k] for k, w in want.items() if w[5] == "within noise"]
    if shown and quiet:
        assert f"Within noise: {', '.join(sorted(quiet))}" in text or all(q in text for q in quiet)
    # a type too few players founded on a side: "cannot tell", no change invented
    b_n = dict(zip(before["card"], before["founders"]))
    a_n = dict(zip(after["card"], after["founders"]))
    few = [k for k in CARD_TYPES if min(b_n[k], a_n[k]) < FEW]
    assert "bouffon" in few
    for k in few:
        assert f"{names[k]}, too few founders to tell ({b_n[k]:,} with mv-a's rules, {a_n[k]:,} with mv-b's; " \
               f"{FEW} needed on each side)" in text or \
               f"{names[k]}, too few players to tell" in text, (k, text)
        assert not re.search(rf"{names[k]}, [\d.]+% → ", text)
    # every pairing's best-of-3 match rate, before → after
    b3b = pl.read_csv(page["dir"] / "questions" / "best_of_three.csv").with_columns(
        (pl.col("bot") + " vs " + pl.col("opponent")).alias("pair"))
    b3a = pl.read_csv(page["dir"] / "questions" / "mv-b" / "best_of_three.csv").with_columns(
        (pl.col("bot") + " vs " + pl.col("opponent")).alias("pair"))
    want3 = _expected(b3b, b3a, "pair", "match_win_rate", "match_std_error", "matches", multipletests)
    for pair, w in want3.items():
        line = text[text.index(f"2 players, {pair}: the best-of-3 match win rate goes "):]
        _check_line(line[:400], w, len(want3), "pairings")


def test_the_before_after_says_it_and_the_baseline_section_no_longer_denies_it(page):
    """The before/after's answer (page and terminal) counts the changed answers and points to the
    section; the baseline's questions section no longer says no other run's rules were played."""
    lead = next(x for x in page["answers"] if "What changed in the balance questions" in x)
    assert lead.strip().startswith("What changed in the balance questions, mv-b against mv-a")
    assert "no other run's rules were played" not in page["page"]
    assert "mv-b's own are compared with them in the section “Balance questions: mv-b vs mv-a”" in page["page"]
