"""Balance by search budget (``balance skill``): the Balance figures of a budget equal an
independent computation, the trend sentence is true for the numbers beside it and claims no seat
advantage for fair games, cells already played are read back (resumable; a cell written without the
Balance figures is played again), bad input is one line with exit code 2."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from scipy import stats as sps

from analysis import skill as K

# seats alike: no gap within a role (K.ROLE_GAP_COLUMNS, a game with roles only)
NO_ROLE_GAP = (None,) * len(K.ROLE_GAP_COLUMNS)
from analysis.skill_words import advantage, verdict
from cli import _run

from undrawn_figures import skill_pages_undrawn_in_this_module  # noqa: F401 (autouse: pages undrawn)


def _table(seat_shares: dict[int, list[tuple[float, float, float]]], cell: str = "2p balanced",
           gaps: dict[int, tuple[float, float]] | None = None) -> pl.DataFrame:
    """A skill table of ``all`` rows: per budget, (win share, low, high) per seat, and the largest
    gap's interval, the sentence's (default: the seats' extreme shares' ends crossed, a stand-in)."""
    rows = []
    for b, shares in seat_shares.items():
        w = [x[0] for x in shares]
        if gaps and b in gaps:
            glo, ghi = gaps[b]
        else:
            best, worst = shares[w.index(max(w))], shares[w.index(min(w))]
            glo, ghi = max(best[1] - worst[2], 0.0), best[2] - worst[1]
        gap = max(w) - min(w)
        for s, (x, lo, hi) in enumerate(shares):
            rows.append((cell, len(shares), b, "all", s, "player", f"search{b}", 1000, x, lo, hi,
                         0.9, 0.8, 1.0, 1 - gap, 0.0, 1.0, 1 - ghi, 1 - glo, K.FAMILY_LEVEL, *NO_ROLE_GAP))
    return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")


def test_the_advantage_is_the_largest_gap_with_its_interval_and_the_seats_ahead_and_behind():
    t = _table({0: [(0.20, 0.18, 0.22), (0.30, 0.28, 0.32)]}, gaps={0: (0.05, 0.15)})
    a = advantage(t, True).row(0, named=True)
    assert a["value"] == pytest.approx(0.10)
    assert (a["low"], a["high"]) == (pytest.approx(0.05), pytest.approx(0.15))
    assert (a["best"], a["worst"]) == (1, 0)


def _gap(shares: list[tuple[float, float, float]]) -> tuple[float, float, float]:
    """The largest gap and the stand-in interval :func:`_table` writes, computed here."""
    w = [x[0] for x in shares]
    best, worst = shares[w.index(max(w))], shares[w.index(min(w))]
    return max(w) - min(w), max(best[1] - worst[2], 0.0), best[2] - worst[1]


def _at(g: tuple[float, float, float], budget: int) -> str:
    return f"{100 * g[0]:.1f} pp ({100 * g[1]:.1f} to {100 * g[2]:.1f}) at budget {budget}"


def _sentences(text: str) -> int:
    import re
    return len(re.findall(r"[.)](?:\s|$)(?=[A-Z]|$)", text))


FIRST = [(0.30, 0.28, 0.32), (0.20, 0.18, 0.22)]        # 10 pp (6 to 14), seat 1 ahead of seat 2


# (last budget's seats, smallest, the words at budget 0, at budget 64 and the change's), by hand
@pytest.mark.parametrize("last, smallest, at0, at64, change", [
    # 30 pp (26-34): the change runs 12 to 28 pp, all above 1 pp
    ([(0.40, 0.38, 0.42), (0.10, 0.08, 0.12)], 0.01, "matters", "matters", "grows"),
    # 0.5 pp (0 to 4.5): cannot tell; the change runs -14 to -1.5
    ([(0.255, 0.235, 0.275), (0.25, 0.23, 0.27)], 0.01, "matters", "cannot tell", "shrinks"),
    # 12 pp (4-20): the change runs -10 to +14
    ([(0.31, 0.27, 0.35), (0.19, 0.15, 0.23)], 0.01, "matters", "matters", "cannot tell"),
    # the same gap with seat 2 ahead instead
    ([(0.19, 0.15, 0.23), (0.31, 0.27, 0.35)], 0.01, "matters", "matters instead", "cannot tell"),
    # 4 pp (0 to 12)
    ([(0.24, 0.20, 0.28), (0.20, 0.16, 0.24)], 0.01, "matters", "cannot tell", "cannot tell"),
    # a 15 pp smallest difference: 6-14 is clear but below it, 26-34 above, the change (12-28) unknown
    ([(0.40, 0.38, 0.42), (0.10, 0.08, 0.12)], 0.15, "clear but small", "matters", "cannot tell"),
])
def test_the_trend_sentence_words_each_gap_and_the_change_by_size(last, smallest, at0, at64, change):
    t = _table({0: FIRST, 64: last})
    text = verdict(advantage(t, True), smallest)
    that = f"the {100 * smallest:g} pp that matters"
    g0, g64 = _gap(FIRST), _gap(last)
    # the chance level of the largest gap of 2 seats over the table's games, exactly (scipy): the gap
    # is |2X − n| / n with X ~ Binomial(n, ½) (review 45 #3)
    n = int(t.filter(pl.col("budget") == 64)["games"][0])
    x = np.arange(n + 1)
    chance = 100 * float((sps.binom.pmf(x, n, 0.5) * np.abs(2 * x - n)).sum() / n)
    words = {
        "matters": f", a seat advantage of at least {that}",
        "cannot tell": (f", where these games cannot tell a seat advantage of at least {that} from none (with "
                        f"every seat equal, {n:,} games give a largest gap of about {chance:.1f} pp by chance "
                        "alone)"),
        "clear but small": f", a clear seat advantage but smaller than {that}",
    }
    want0 = _at(g0, 0) + " with seat 1 ahead of seat 2" + words[at0]
    want64 = _at(g64, 64)
    if g64[1] > 0:                # a clear gap names the seats: the higher share ahead
        ahead = 2 if last[1][0] > last[0][0] else 1
        want64 += f" with seat {ahead} ahead of seat {3 - ahead}"
    want64 += (" instead" if at64.endswith("instead") else "") + words[at64.replace(" instead", "")]
    # led by the part it reads: every seat searching (the page also has one searching seat)
    assert text.startswith("In 2p balanced, with every seat searching at the budget (at budget 0 every "
                           "seat plays its own bot), the largest gap between two seats' win shares (97.5% "
                           f"intervals, two budgets compared; at 2 players, twice each seat's gap from the "
                           f"fair 50%) is {want0}, and {want64}. "), text
    d, lo, hi = g64[0] - g0[0], g64[1] - g0[2], g64[2] - g0[1]      # the change, between far ends
    between = "from budget 0 to budget 64"
    want = {
        "grows": f"The gap grows by {100 * d:.1f} pp ({100 * lo:.1f} to {100 * hi:.1f}) {between}, at least {that}.",
        "shrinks": (f"The gap shrinks by {-100 * d:.1f} pp ({-100 * hi:.1f} to {-100 * lo:.1f}) {between}, at "
                    f"least {that}."),
        "cannot tell": (f"These games cannot tell whether the gap changes by as much as {that} {between}, "
                        f"a change of {100 * d:+.1f} pp that could lie anywhere from {100 * lo:+.1f} to "
                        f"{100 * hi:+.1f}").replace("-", "−"),
    }[change]
    assert want in text, (want, text)
    assert ":" not in text and _sentences(text) == 2, text
    assert "persists" not in text and "overlap" not in text


def test_gaps_below_the_smallest_difference_are_none_that_matters():
    """0.4 pp (0.1 to 0.7) clear but small at budget 0; 0.0 pp (0.0 to 0.6) at budget 64: no
    advantage that matters; the change (-0.7 to +0.5) within 1 pp either way."""
    t = _table({0: [(0.502, 0.50, 0.504), (0.498, 0.496, 0.5)], 64: [(0.5, 0.49, 0.51), (0.5, 0.49, 0.51)]},
               gaps={0: (0.001, 0.007), 64: (0.0, 0.006)})
    text = verdict(advantage(t, True))
    assert ("0.4 pp (0.1 to 0.7) at budget 0 with seat 1 ahead of seat 2, a clear seat advantage but "
            "smaller than the 1 pp that matters, and 0.0 pp (0.0 to 0.6) at budget 64, no seat advantage "
            "as large as the 1 pp that matters.") in text
    assert ("The gap changes by less than the 1 pp that matters from budget 0 to budget 64 (−0.4 pp, "
            "−0.7 to +0.5).") in text


def test_gaps_reaching_0_and_past_the_smallest_difference_are_ones_these_games_cannot_tell():
    """Intervals 0 to 17 and 0 to 19 pp (the stand-in's, computed here): neither "no seat
    advantage" nor an advantage, and no seat named."""
    a, b = [(0.27, 0.20, 0.34), (0.23, 0.17, 0.30)], [(0.22, 0.16, 0.29), (0.28, 0.21, 0.35)]
    t = _table({0: a, 64: b})
    text = verdict(advantage(t, True))
    for g, budget in ((_gap(a), 0), (_gap(b), 64)):
        assert g[1] == 0 and g[2] >= 0.01
        assert (f"{_at(g, budget)}, where these games cannot tell a seat advantage of at least the 1 pp "
                "that matters from none") in text
    assert "ahead of" not in text and "grows" not in text and "shrinks" not in text
    assert "These games cannot tell whether the gap changes" in text


def _fair_games(rng, games: int, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-game win shares and ranks of a fair game: a uniform winner, the others ranked at random."""
    order = np.argsort(rng.random((games, players)), axis=1)
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(1, players + 1)[None, :].repeat(games, 0), axis=1)
    return (rank == 1).astype(np.float64), rank.astype(np.float64)


def _two_seat_balance(wins: float, games: int, level: float) -> tuple[float, float]:
    """The win-share balance interval of two seats, seat 1 winning ``wins`` of ``games``, computed
    independently: the gap is |2 p - 1| for seat 1's share p, whose interval is Agresti and Coull's
    (statsmodels), so the balance runs from 1 minus the farthest end of 2 x that interval - 1 from 0
    to 1 minus the nearest (1 when it holds 0)."""
    from statsmodels.stats.proportion import proportion_confint

    lo, hi = (2 * e - 1 for e in proportion_confint(wins, games, 1 - level, method="agresti_coull"))
    near = 0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi))
    return 1 - max(abs(lo), abs(hi)), 1 - near


def test_the_balance_figures_equal_an_independent_computation():
    """Two seats: one pair, so the win-share gap's interval is that of |2 p - 1|, p seat 1's share
    with Agresti and Coull's interval (statsmodels; the pseudo-games of analysis.skill.gap_interval
    are theirs), at 95% and at the sentence's level; Ludii's credit is then the win share itself.
    The estimate is the games' own: 1 - |p1 - p2|."""
    rng = np.random.default_rng(4)
    w = (rng.random(500) < 0.6).astype(np.float64)
    shares = np.column_stack([w, 1 - w])
    rank = 2 - shares
    b, blo, bhi, wb, wlo, whi, wlo2, whi2 = K.balance_figures(shares, rank)
    d = shares[:, 0] - shares[:, 1]
    assert wb == pytest.approx(1 - abs(d.mean()))
    assert (wlo, whi) == pytest.approx(_two_seat_balance(w.sum(), 500, 0.95), abs=1e-12)
    assert (b, blo, bhi) == (pytest.approx(wb), pytest.approx(wlo), pytest.approx(whi))
    assert (wlo2, whi2) == pytest.approx(_two_seat_balance(w.sum(), 500, K.FAMILY_LEVEL), abs=1e-12)
    # at 500 games the pseudo-games barely move it from the normal interval on the games alone
    from scipy.stats import norm
    half = norm.ppf(0.975) * d.std(ddof=1) / np.sqrt(len(d))
    assert (wlo, whi) == pytest.approx((1 - abs(d.mean()) - half, 1 - abs(d.mean()) + half), abs=0.003)


@pytest.mark.slow
def test_fair_games_are_rarely_said_to_have_a_seat_advantage():
    """400 skill tables of two budgets of a fair 4-seat game (100 games each): the sentence names an
    advantage (a seat named ahead at either budget, or a gap that grows or shrinks) in at most 8% of them: it reads the
    two budgets at 97.5% each, 5% for the pair (measured: 3.4% of 1,000 such tables, 11 of these
    400; with the gap intervals on the games alone, before the pseudo-games, 5.9%, and 10.7%
    reading each budget at 95%). "Best minus worst, intervals overlapping" called every one of them persisting. Slow:
    each table's intervals draw their max-|z| quantiles anew (~170 s CPU, measured on the shared
    2-core machine)."""
    rng = np.random.default_rng(11)
    claims = 0
    for _ in range(400):
        rows = []
        for b in (0, 64):
            w, rank = _fair_games(rng, 100, 4)
            figures = K.balance_figures(w, rank)
            for s in range(4):
                rows.append(("4p", 4, b, "all", s, "player", "x", 100, float(w[:, s].mean()), 0.0, 1.0,
                             *figures, K.FAMILY_LEVEL, *NO_ROLE_GAP))
        text = verdict(advantage(pl.DataFrame(rows, schema=K.SCHEMA, orient="row"), True))
        claims += "ahead of" in text or "grows" in text or "shrinks" in text
    assert claims <= 32, claims


@pytest.mark.parametrize("last, smallest, word", [
    ([(0.10, 0.08, 0.12), (0.3, 0.28, 0.32)], 0.01, "rises"),     # +9.6 pp (6.9 to 12.2)
    ([(0.10, 0.08, 0.12), (0.3, 0.28, 0.32)], 0.08, "cannot tell"),   # 6.9 to 12.2 reaches 8 pp
    # +0.2 pp (-1.0 to +1.3 from the printed ends) at 97.5% each: less than 1.5 pp (at 95% each it was less than 1 pp)
    ([(0.006, 0.003, 0.009), (0.3, 0.28, 0.32)], 0.015, "less than"),
])
def test_roles_read_the_first_roles_win_share_by_size(last, smallest, word):
    """The Seigneur's share at each budget with its Wilson interval (statsmodels', the independent
    check) at 97.5%: two budgets read, Bonferroni (review R; the table's own ``ci_low``/``ci_high``
    are each seat's 95% interval, not the sentence's), then its change worded by size."""
    from statsmodels.stats.proportion import proportion_confint

    first = [(0.004, 0.002, 0.008), (0.332, 0.3, 0.36)]
    t = _table({0: first, 16: last}).with_columns(pl.lit("seigneur").alias("role"))
    text = verdict(advantage(t, False), smallest)
    x0, x1 = first[0][0], last[0][0]
    (lo0, hi0), (lo1, hi1) = (proportion_confint(round(x * 1000), 1000, 0.05 / 2, method="wilson")
                              for x in (x0, x1))
    assert text.startswith("In 2p balanced, with every seat searching at the budget (at budget 0 every "
                           f"seat plays its own bot), the Seigneur's win share is {100 * x0:.1f}% ({100 * lo0:.1f} to "
                           f"{100 * hi0:.1f}) at budget 0 and {100 * x1:.1f}% ({100 * lo1:.1f} to "
                           f"{100 * hi1:.1f}) at budget 16 (97.5% intervals, Bonferroni over the 2 budgets "
                           "read: together at 95%). ")
    # the change's range from the interval ends as printed (s42 review K #10)
    shown = lambda v: round(100 * v, 1) / 100      # noqa: E731  (no end here sits on a half)
    d, lo, hi = x1 - x0, shown(lo1) - shown(hi0), shown(hi1) - shown(lo0)
    that = f"the {100 * smallest:g} pp that matters"
    want = {"rises": f"The Seigneur's win share rises by {100 * d:.1f} pp ({100 * lo:.1f} to {100 * hi:.1f}) "
                     f"from budget 0 to budget 16, at least {that}.",
            "cannot tell": f"These games cannot tell whether the Seigneur's win share changes by as much as {that}",
            "less than": (f"The Seigneur's win share changes by less than {that} from budget 0 to budget 16 "
                          f"({100 * d:+.1f} pp, {100 * lo:+.1f} to {100 * hi:+.1f}).").replace("-", "−")}[word]
    assert want in text, text
    # the change is worded by its size, never as an advantage (whether a side's advantage is there
    # at each budget is the sentence before it: tests/analysis/test_skill_review_k1.py)
    change = text[text.index(want[:20]):]
    assert "advantage" not in change and ":" not in change


def test_a_second_call_reads_the_cells_back(tmp_path, monkeypatch):
    kw = dict(policy="balanced", roles=("player",) * 2, seed=3)
    first = K.balance_by_budget("middle-ages", 2, [0], 8, tmp_path, **kw)
    assert sorted(first["part"].unique().to_list()) == ["all", "one"]
    # cells written before the Balance figures were recorded: the every-seat part is played again,
    # the one-seat part (which has none) read back
    for part in ("all", "one"):
        old = tmp_path / "cells" / f"budget0_{part}.parquet"
        pl.read_parquet(old).drop(list(K.BALANCE_COLUMNS)).write_parquet(old)
    played = []
    real = K.play_cell
    monkeypatch.setattr(K, "play_cell", lambda *a, **k: played.append(a[3]) or real(*a, **k))
    assert K.balance_by_budget("middle-ages", 2, [0], 8, tmp_path, **kw).equals(first)
    assert played == ["all"]
    monkeypatch.setattr(K, "play_cell", lambda *a, **k: (_ for _ in ()).throw(AssertionError("replayed")))
    again = K.balance_by_budget("middle-ages", 2, [0], 8, tmp_path, **kw)
    assert again.equals(first)


@pytest.mark.parametrize("args, problem", [
    (["--budgets", "a,b"], "--budgets"),
    (["--budgets", "-4"], "--budgets"),
    (["--game", "fief-combat"], "no bots"),
])
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, capsys, args, problem):
    assert _run(["skill", *args, "--out", str(tmp_path / "s")]) == 2
    err = capsys.readouterr().err.strip()
    assert problem in err and len(err.splitlines()) == 1
    assert not (tmp_path / "s").exists()


def test_a_panel_gets_its_sentences_per_cell_each_true_for_its_own_numbers():
    a = _table({0: FIRST, 64: [(0.40, 0.38, 0.42), (0.10, 0.08, 0.12)]}, "2p balanced")
    b = _table({0: FIRST, 64: [(0.255, 0.235, 0.275), (0.25, 0.23, 0.27)]}, "2p greedy")
    text = verdict(advantage(pl.concat([a, b]), True))
    first, second = text.split(" In 2p greedy, ")
    assert first.startswith("In 2p balanced, ") and "30.0 pp (26.0 to 34.0) at budget 64" in first
    assert "The gap grows" in first and "shrinks" not in first
    assert "0.5 pp (0.0 to 4.5) at budget 64, where these games cannot tell" in second
    assert "The gap shrinks" in second and "grows" not in second


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_panel_plays_every_cell_and_a_seat_searches_with_its_own_bot(tmp_path):
    """Two cells (2 and 3 players, one of them a line-up of non-default bots): every cell's rows,
    the search bot of a greedy seat plays greedy in its playouts (search_bots.toml)."""
    from strategies.panels import from_options
    panel = from_options("middle-ages", players="2,3", lineups=["balanced", "greedy"])
    t = K.balance_by_budget("middle-ages", None, [0, 1], 8, tmp_path, panel=panel, seed=3)
    assert t["cell"].unique(maintain_order=True).to_list() == [c.label for c in panel.cells]
    assert t.height == sum(c.players for c in panel.cells) * 2 * 2
    greedy = t.filter((pl.col("cell") == "2p 2×greedy") & (pl.col("budget") == 1))
    assert set(greedy["bot"]) == {f"{tmp_path / K.BOTS_FILE}:search1-greedy"}
    assert set(t.filter((pl.col("cell") == "3p 3×balanced") & (pl.col("budget") == 1))["bot"]) == {"search1"}
    from strategies import middle_ages as S
    bots = S.load_file(tmp_path / K.BOTS_FILE)
    assert bots["search1-greedy"].search.policy == "greedy"


def test_a_panel_seat_bot_that_cannot_be_a_playout_policy_is_one_line(tmp_path, capsys):
    """Refused before --out is touched: a refused line-up left skill.json there, and the corrected
    command in the same --out was then refused as "another balance-skill question"."""
    out = tmp_path / "s"
    assert _run(["skill", "--game", "middle-ages", "--strategies", "rollout", "--players", "2",
                 "--budgets", "0,4", "--games", "4", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "seat bot 'rollout'" in err and len(err.splitlines()) == 1
    assert "search_bots.toml" not in err          # the user's words, not a file they never wrote
    assert not out.exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_command_takes_a_line_up_and_writes_the_table_and_page(tmp_path):
    out = tmp_path / "s"
    assert _run(["skill", "--game", "middle-ages", "--strategies", "greedy,balanced", "--players", "2",
                 "--budgets", "0", "--games", "8", "--out", str(out), "--seed", "2"]) == 0
    t = pl.read_csv(out / "skill.csv")
    assert t["cell"].unique().to_list() == ["2p greedy + balanced"]
    assert t.filter(pl.col("part") == "all").sort("seat")["bot"].to_list() == ["greedy", "balanced"]
    assert (out / "report.html").is_file() and (out / "figures" / "budget.png").is_file()
    # the same question again resumes; another line-up in the same --out is refused
    assert _run(["skill", "--game", "middle-ages", "--strategies", "greedy,balanced", "--players", "2",
                 "--budgets", "0", "--games", "8", "--out", str(out), "--seed", "2"]) == 0
    assert _run(["skill", "--game", "middle-ages", "--strategies", "balanced", "--players", "2",
                 "--budgets", "0", "--games", "8", "--out", str(out), "--seed", "2"]) == 2


def test_an_interrupted_run_says_which_parts_it_kept_and_how_to_resume(tmp_path, capsys, monkeypatch):
    """Ctrl-C after a part was saved: the line said "nothing was written under the final name",
    though the part is on disk and the same command resumes from it."""
    import signal

    from simcore.errors import Interrupted

    calls = []

    def fake(game, players, budget, part, games, **kw):
        calls.append(part)
        if len(calls) > 1:
            raise Interrupted(signal.SIGINT)
        rows = [(kw["label"], players, budget, part, s, "player", "balanced", games, 0.5, 0.1, 0.9,
                 *(None,) * (len(K.BALANCE_COLUMNS) + 1), *NO_ROLE_GAP) for s in range(players)]
        return pl.DataFrame(rows, schema=K.SCHEMA, orient="row")

    monkeypatch.setattr(K, "play_cell", fake)
    out = tmp_path / "s"
    code = _run(["skill", "--game", "middle-ages", "--players", "2", "--budgets", "0,4", "--games", "4",
                 "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 130
    assert "nothing was written" not in err
    assert "1 of 4 parts are kept" in err and "the same command again plays only the rest" in err
    assert len(list((out / "cells").glob("*.parquet"))) == 1


def test_a_panels_gap_intervals_are_adjusted_over_its_cells(tmp_path, monkeypatch):
    """A panel's sentences read two budgets of every cell: each gap interval is read at
    1 - 0.05 / (2 x cells), so all the panel's claims hold together at 95% (at 97.5% each, 12 cells
    named a seat advantage in a fair game far more often than 5% of the time). Two cells of two
    seats: the gap's interval is that of |2 p - 1| from Agresti and Coull's interval for seat 1's
    share p (statsmodels) at 1 - 0.05 / 4; the sentence names that level."""
    from strategies.panels import from_options

    fake = {}

    def shares(game, players, lineup, games, seed, threads, rules=None, settings=()):
        rng = np.random.default_rng(len(fake))
        w = (rng.random(games) < 0.55).astype(np.float64)
        w = np.column_stack([w, 1 - w])
        fake[tuple(lineup), games] = w
        return w, 2 - w

    monkeypatch.setattr(K, "_shares", shares)
    panel = from_options("middle-ages", players="2", lineups=["balanced", "greedy"])
    t = K.balance_by_budget("middle-ages", None, [0, 4], 200, tmp_path, panel=panel, seed=1)
    level = 1 - 0.05 / 4
    for r in t.filter(pl.col("part") == "all").iter_rows(named=True):
        w = fake[(r["bot"],) * 2, 200]
        assert (r["win_share_balance_low_adjusted"], r["win_share_balance_high_adjusted"]) == \
            pytest.approx(_two_seat_balance(w[:, 0].sum(), 200, level), abs=1e-12)
    text = verdict(advantage(t, True))
    assert text.count("(98.75% intervals, two budgets of each of 2 cells compared; at 2 players, twice "
                      "each seat's gap from the fair 50%)") == 2, text
    # read back on a second call at the same level: nothing is played again
    monkeypatch.setattr(K, "_shares", lambda *a: (_ for _ in ()).throw(AssertionError("replayed")))
    assert K.balance_by_budget("middle-ages", None, [0, 4], 200, tmp_path, panel=panel, seed=1).equals(t)


def test_the_terminal_mean_of_one_searching_seat_is_per_role_in_a_game_with_roles():
    """balance skill's table averaged the one-searching-seat win shares over every seat, which in
    Seigneurial mixes a Seigneur's share with the Censitaires'; a game with roles gets one mean per
    role (weighted by games), a game without keeps one mean."""
    import polars as pl

    from cli.skill import _mean_by_role

    one = pl.DataFrame({"seat": [0, 1, 2, 3], "games": [100, 100, 100, 50],
                        "win_share": [0.01, 0.30, 0.40, 0.10]})
    roles = ["seigneur", "censitaire", "censitaire", "censitaire"]
    censitaire = (0.30 * 100 + 0.40 * 100 + 0.10 * 50) / 250
    assert _mean_by_role(one, roles, False) == f"Seigneur 1.0%; Censitaire {100 * censitaire:.1f}% a seat"
    every = (0.01 * 100 + 0.30 * 100 + 0.40 * 100 + 0.10 * 50) / 350
    assert _mean_by_role(one, ["a"] * 4, True) == f"{100 * every:.1f}%"
