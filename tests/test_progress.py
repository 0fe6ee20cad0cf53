"""Progress from the first second (issue #19): the runner's chunks ramp up from a small first one,
and the compile notice shows only while Numba really compiles."""

from __future__ import annotations

import pytest
import io
import itertools

import numpy as np
from numba import njit
from rich.console import Console

from simcore import runner
from simcore.runner import FIRST_CHUNK, chunk_spans, compile_notice


def test_chunks_ramp_up_and_cover_every_game_once():
    """Each chunk of the ramp has as many games as all before it, the ramp adds up to the chunk
    size exactly (so that a default run's chunks are its files' row groups:
    runner.row_group_games), then chunks of the size."""
    for games, size, first in ((1, 131_072, 0), (1_000_000, 131_072, 0), (5_000, 97, 40),
                               (300, 1000, 9), (10_000, 1000, 0), (3_000, 1 << 20, 0)):
        spans = chunk_spans(games, size, first)
        assert spans[0] == (first, min(FIRST_CHUNK, size, games))
        assert sum(n for _, n in spans) == games
        assert all(a + n == b for (a, n), (b, _) in zip(spans, spans[1:]))      # contiguous, in order
        sizes = [n for _, n in spans]
        assert max(sizes) <= size
        done = sizes[0]
        for n in sizes[1:-1]:                        # (the last one: what is left)
            if done < size:
                step = min(done, size - done)        # as many as all before, or the ramp's rest
                assert n == (size - done if size - done - step < step else step)
            else:
                assert n == size
            done += n
        if games >= size:                            # the ramp ends on the size, exactly
            assert size in list(itertools.accumulate(sizes))
    assert [n for _, n in chunk_spans(1_000_000, 131_072)][:11] == [
        256, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131_072]
    assert [n for _, n in chunk_spans(5000, 1000)] == [256, 256, 488, 1000, 1000, 1000, 1000]
    assert [n for _, n in chunk_spans(2000, 700)] == [256, 444, 700, 600]        # not 256, 256, 188
    assert chunk_spans(1000, 300, ramp=False) == [(0, 300), (300, 300), (600, 300), (900, 100)]


def test_a_ramp_of_whole_deals_adds_up_to_the_chunk_size_in_whole_deals():
    spans = chunk_spans(3000, 1024, unit=3)          # 1,023 games a chunk, the row group's size
    assert [n for _, n in spans] == [255, 255, 513, 1023, 954]               # not 510, 3
    assert all(n % 3 == 0 for _, n in spans)


def test_the_first_progress_report_comes_after_the_first_small_chunk(tmp_path):
    prep = runner.prepare("middle-ages", players=4)
    seen: list[int] = []
    runner.run(prep, games=5000, seed=1, out=tmp_path / "r", quiet=True, on_chunk=seen.append)
    assert seen[0] == FIRST_CHUNK and seen[-1] == 5000 and seen == sorted(seen)


def test_ramped_and_plain_chunks_give_the_same_games():
    prep = runner.prepare("middle-ages", players=3)
    a = runner.collect(prep, games=1500, seed=4)
    b = runner.collect(prep, games=1500, seed=4, chunk_size=1500)     # one chunk, no ramp to speak of
    assert a.players.equals(b.players) and a.games.equals(b.games)


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_compile_notice_shows_only_while_numba_compiles():
    """The runner calls show(message) on Numba's first compile event and the function it returns
    when the block ends; the command line's spinner draws it (cli.progress.spinner)."""
    from cli.progress import spinner

    @njit
    def fresh(x):
        return x * 2 + 1

    out = io.StringIO()
    console = Console(file=out, force_terminal=True)
    with compile_notice("Compiling the test kernel", spinner(console)) as first:
        assert fresh(np.int64(3)) == 7
    assert first.compiled and "Compiling the test kernel" in out.getvalue()
    shown: list[str] = []
    with compile_notice("Compiling the test kernel", lambda m: shown.append(m)) as second:
        assert fresh(np.int64(4)) == 9                  # already compiled: no event, no notice
    assert not second.compiled and shown == []
    ended: list[bool] = []
    with compile_notice("nobody shows it") as q:
        @njit
        def other(x):
            return x - 1
        other(np.int64(1))
    assert q.compiled and ended == []                   # no show given: nothing drawn


def test_the_command_line_draws_the_bar_and_the_closing_table_from_the_runners_result(tmp_path):
    from cli.progress import SimulationBar, print_summary

    err, out = io.StringIO(), io.StringIO()
    with SimulationBar(Console(file=err, force_terminal=True)) as bar:
        res = runner.simulate("middle-ages", games=3000, seed=2, out=tmp_path / "r", players=3,
                              strategies="balanced,random,greedy", progress=bar, result=True)
    print_summary(Console(file=out, width=200), res)
    text = out.getvalue()
    w = res.stats.fixed["cell_win"].sum(axis=1) / res.stats.layout["win_units"] / 3000
    for s in range(3):
        assert f"{100 * w[s]:.2f}%" in text
    assert "per strategy" in text and str(res.path) in text


def test_the_closing_table_says_win_share_and_how_a_shared_win_counts(tmp_path):
    """Fief combat's closing table gave the attacker a "win rate" of 88.66% beside P(attacker wins)
    = 0.8562 in its own outcomes table: the column is the win share, where both sides wiped out is
    half a win each. The column now says win share, and a caption says how a shared win counts and
    in how many games it happened (counted here from the rows)."""
    import polars as pl

    from cli.progress import print_summary

    res = runner.simulate("fief-combat", games=4000, seed=3, out=tmp_path / "r", raw=True, result=True,
                          quiet=True)
    out = io.StringIO()
    print_summary(Console(file=out, width=200), res)
    text = out.getvalue()
    p = pl.read_parquet(tmp_path / "r" / "players.parquet")
    top = p.group_by("game").agg(pl.col("win_share").max())
    shared = int((top["win_share"] < 1.0).sum())
    assert shared > 0                                  # both wiped out happens at these odds
    assert "win share" in text and "win rate" not in text
    # in the game's own words (review X #7: "a win shared by k players" for both armies wiped out)
    assert (f"win share: a combat where both sides are wiped out counts half a win to each ({shared:,} of "
            "4,000 games)") in text, text
    share = p.filter(pl.col("seat") == 0)["win_share"].mean()
    assert f"{100 * share:.2f}%" in text


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_a_gap_that_rounds_to_zero_has_no_sign(tmp_path):
    """Review K #12: `simulate --games 20000` printed "-0.00 pp" for seat 2 (25.00% against a fair
    25%): a minus reads as a loss. A gap that rounds to zero prints 0.00 pp; the others keep their
    sign. (Seed 0, 20,000 games: seat 2 wins 25.00%, a gap of -0.0025 pp before rounding.)"""
    from cli.progress import print_summary

    res = runner.simulate("middle-ages", games=20_000, seed=0, out=tmp_path / "r", result=True, quiet=True)
    out = io.StringIO()
    print_summary(Console(file=out, width=200), res)
    text = out.getvalue()
    w = res.stats.fixed["cell_win"].sum(axis=1) / res.stats.layout["win_units"] / 20_000
    gaps = [f"{100 * (x - 0.25):+.2f}" for x in w]
    assert "-0.00" in gaps                          # the case this test is about
    assert "-0.00 pp" not in text and "0.00 pp" in text
    # (review P #7: the gap printed is the printed share, rounded as the report rounds it, minus 25)
    from reports.text import rounded

    for g in (f"{rounded(100 * x, 2) - 25:+.2f}" for x in w):
        if float(g) != 0:
            assert f"{g} pp" in text


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_closing_table_rounds_as_the_report_does(tmp_path):
    """Review P #7: a win share of exactly 0.25375 printed as 25.37% in simulate's closing table
    (Python's rounding of the binary number just under it) and as 25.38% in `balance report A B`
    (halves away from zero, reports.text.rounded). The table now prints every share, bound, gap and
    mean as the report does. (Seed 0, 20,000 games, income.palais.base=4: seat 4 wins 5,075.)"""
    from cli.progress import print_summary
    from reports.text import metric_value, rounded

    res = runner.simulate("middle-ages", games=20_000, seed=0, out=tmp_path / "r", result=True,
                          quiet=True, settings=["income.palais.base=4"])
    out = io.StringIO()
    print_summary(Console(file=out, width=200), res)
    text = out.getvalue()
    w = res.stats.fixed["cell_win"].sum(axis=1) / res.stats.layout["win_units"] / 20_000
    reported = [metric_value(x, "seat_win_share", "proportion", 2) for x in w]
    assert any(f"{100 * x:.2f}%" != r for x, r in zip(w, reported))     # the case this test is about
    for x, r in zip(w, reported):
        gap = rounded(100 * x, 2) - 25                  # the printed share minus the fair 25%
        assert f" {r} " in text, r
        assert (f"{gap:+.2f} pp" if round(gap, 2) else "0.00 pp") in text


def test_off_a_terminal_a_long_command_writes_a_plain_line_at_most_every_interval(monkeypatch):
    """Review P #9: simulate and sweep wrote nothing to a CI log for the whole run. Off a terminal
    the progress is a plain line at most every BALANCE_LOG_EVERY seconds (none before the first
    interval, none at the end); on a terminal (the live bar) and on a quiet console, nothing."""
    import cli.progress as P

    clock = iter(range(0, 1000, 10))                     # each reading of the clock: 10 s later
    monkeypatch.setattr(P.time, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setenv("BALANCE_LOG_EVERY", "25")
    buf = io.StringIO()
    log = P.LogLines(Console(file=buf, width=200), "simulating")
    for done in (100, 200, 300, 400, 500, 600, 700, 800, 900, 1000):   # t = 0, 10, … 90
        log(done, 1000, "x games/s")
    lines = buf.getvalue().splitlines()
    # its clock starts at the first report (t = 0, 100 done: review Q #7, the time before it is
    # not the work's); printed at t = 30 (400 done: 30 s for 300, 600 left: 60 s) and t = 60
    # (700 done: 60 s for 600, 300 left: 30 s)
    assert lines == ["simulating: 400 of 1,000 games (40%), 30 s, about 60 s left; x games/s",
                     "simulating: 700 of 1,000 games (70%), 60 s, about 30 s left; x games/s"]
    for console in (Console(file=io.StringIO(), force_terminal=True),
                    Console(file=io.StringIO(), quiet=True)):
        quiet = P.LogLines(console, "simulating")
        for done in range(1, 50):
            quiet(done, 100)
        assert console.file.getvalue() == ""


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_simulate_and_sweep_off_a_terminal_say_how_far_they_are(tmp_path, monkeypatch):
    from in_process import balance

    monkeypatch.setenv("BALANCE_LOG_EVERY", "0")
    err = balance("simulate", "--games", "20000", "--chunk-size", "4000", "--out",
                  tmp_path / "r").stderr
    lines = [x for x in err.splitlines() if x.startswith("simulating: ")]
    assert lines and all(" of 20,000 games (" in x and "games/s" in x for x in lines), err
    err = balance("sweep", "--vary", "income.palais.base=3..4", "--games", "6000", "--chunk-size",
                  "2000", "--out", tmp_path / "s").stderr
    lines = [x for x in err.splitlines() if x.startswith("sweep: ")]
    assert lines and all(" of 12,000 games (" in x for x in lines), err


def test_balance_log_every_off_stops_the_lines_and_a_word_is_said(monkeypatch, capsys):
    import cli.progress as P

    buf = io.StringIO()
    monkeypatch.setenv("BALANCE_LOG_EVERY", "off")
    assert not P.LogLines(Console(file=buf), "simulating").enabled
    monkeypatch.setattr(P, "_WARNED", False)
    monkeypatch.setenv("BALANCE_LOG_EVERY", "soon")
    assert P.log_every() == P.LOG_EVERY_S
    assert "BALANCE_LOG_EVERY='soon': not a number of seconds" in capsys.readouterr().err
    monkeypatch.setenv("BALANCE_LOG_EVERY", "0")
    assert P.log_every() == 0.0


def test_a_game_of_roles_shows_each_seats_bot_beside_its_role(tmp_path):
    """Review W #6: Seigneurial's closing table showed each seat's role only (Seigneur,
    Censitaire × 3), so with mixed bots nothing said which Censitaire played which bot. Each seat's
    row now names its role and its bot, and its win share is the seat's (read here from the
    rows)."""
    import polars as pl

    from cli.progress import print_summary
    from simcore.numbers import rounded

    bots = ["even-lord", "fair-share", "standard", "dutiful"]
    res = runner.simulate("seigneurial", games=400, seed=4, out=tmp_path / "r", raw=True, result=True,
                          quiet=True, strategies=",".join(bots))
    out = io.StringIO()
    print_summary(Console(file=out, width=200), res)
    rows = [ln.lower() for ln in out.getvalue().splitlines()
            if "censitaire" in ln.lower() or "seigneur" in ln.lower()]
    p = pl.read_parquet(tmp_path / "r" / "players.parquet")
    for seat, bot in enumerate(bots):
        share = p.filter(pl.col("seat") == seat)["win_share"].mean()
        line = next(ln for ln in rows if ln.split()[1] == str(seat + 1) or ln.split()[0] == str(seat + 1))
        assert bot in line and f"{rounded(100 * share, 2):.2f}%" in line, (seat, line)
        assert ("seigneur" if seat == 0 else "censitaire") in line, line
    # the roles as the reports print them, and each side's share of the games (review Y #12)
    text = out.getvalue()
    assert "│ Seigneur " in text and "│ Censitaire " in text, text
    lord = p.filter(pl.col("seat") == 0)["win_share"].mean()
    assert (f"sides: the Seigneur {rounded(100 * lord, 2):.2f}%, the 3 Censitaires together "
            f"{rounded(100 * (1 - lord), 2):.2f}% of the games") in text, text
