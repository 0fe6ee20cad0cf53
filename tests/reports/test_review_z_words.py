"""Review Z #6: a Médiévallons before/after listed "Noble: founders' win share −1.28 pp, clear, may
matter" beside "Noble: players founding +1.15 pp": more players found it, so its founders are
partly other players, and the change need not be the guild's. The founders' line now says so when
the founded share moved clearly too, and only then."""

from __future__ import annotations

import polars as pl

from analysis import stats
from reports.text import composition_note


def _cmp(founded_verdict):
    return pl.DataFrame({"metric": ["guild_founders_win_share", "guild_founded_share"],
                         "key": ["noble", "noble"], "diff": [-0.0128, 0.0115],
                         "verdict": [stats.MAY_MATTER, founded_verdict]})


def test_a_founders_share_says_who_founds_changed_when_the_founded_share_moved_clearly():
    cmp = _cmp(stats.LARGE)
    row = cmp.row(0, named=True)
    note = composition_note(row, cmp)
    # +1.15 pp written, rounded half away from zero as the tables round it (simcore.numbers.rounded)
    assert note.startswith(" Who founds it changed too (players founding it: +1.2 pp, clear and large "
                           "enough to matter)"), note
    assert composition_note(cmp.row(1, named=True), cmp) == ""      # (the founded share's own line)


def test_nothing_is_added_when_the_founded_share_is_within_noise():
    cmp = _cmp(stats.NOT_SHOWN)
    assert composition_note(cmp.row(0, named=True), cmp) == ""


def test_the_first_player_figure_says_how_many_games_each_count_played():
    """Review Z #10: the run's own 2-player bars (100,000 games) stood beside 2,000-game bars with
    nothing saying which is which; each count's games are now under its label."""
    from reports.figures.medievallons import played_first_player

    rows = []
    for P, n, own in ((2, 100_000, True), (3, 2_000, False)):
        for s in range(P):
            rows.append({"players": P, "seat": s, "win_share": 1 / P, "std_error": 0.01, "games": n,
                         "from_run": own})
    fig = played_first_player(pl.DataFrame(rows))
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["2 players\n100,000 games (the run)", "3 players\n2,000 games"], ticks


def test_two_seats_equally_far_from_fair_are_read_in_seat_order():
    """Review Z #10: a 2-player run printed Seat 2 (−7.5 pp) before Seat 1 (+7.5 pp): their sizes
    differ in the last bits only. Sizes equal to 9 decimals keep the seats' order."""
    from reports.text import _largest_first

    diff = [0.075 - 1e-15, -0.075]
    assert list(stats.practical_order([stats.LARGE] * 2, diff, 0.01)) == [0, 1]
    assert list(stats.practical_order([stats.LARGE] * 2, [0.07, -0.075], 0.01)) == [1, 0]   # a real gap
    seats = pl.DataFrame({"seat_label": ["Seat 1", "Seat 2"], "diff": diff, "verdict": [stats.LARGE] * 2})
    assert _largest_first(seats, stats.LARGE)["seat_label"].to_list() == ["Seat 1", "Seat 2"]
