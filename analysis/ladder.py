"""Skill ladder: each bot against copies of each other bot, with seat rotation, for any game.

A cell (A, B) is ``players``-player games of one A against ``players - 1`` copies of B, every deal
played once per rotation of the seats (so A sits in every seat equally often and seat effects cancel,
as in duplicate formats and fishtest's paired games). The figure is A's mean win share, with its
95% interval paired by deal (:func:`deal_interval`: the deals' means' standard error, the deal
being the independent unit, read as Wilson's interval at the effective number of games; a Wilson interval over all games treated the rotations of one deal
as independent games); the fair share is 1 / players. Each cell's interval is its own (unadjusted):
``margin_in_se`` ranks cells, it is not a test of the ladder's family of cells; :func:`fair_calls`
is (above or below the fair share, Bonferroni over the cells). Games are played by the in-memory runner
(:func:`simcore.runner.collect`), the same path as every run directory. :func:`pairs` lists the
cells in the order :func:`ladder` plays them (so a caller can play them one by one and show
progress); :func:`ladder_table` is the matrix as a table (``balance ladder --out`` writes it).
:func:`ranking_sentence` says it in words: each row bot's mean win share over its opponents, and
whether the first is clearly ahead of every other, on that mean and head to head (its games against
copies of each beside that bot's against copies of it, :func:`_head_to_head`), naming any bot it is
not clearly ahead of head to head.
A game of roles (seat 0 a role of its own, the other seats another) has :func:`role_ladder`, one
table per role, which reports each of its :func:`role_steps` to a progress callback;
:func:`role_sides` splits bots by the roles they play, and :func:`lead_headline` says the lead
role's table in words (the range of its estimates, a bound over its cells read together, the
row bot with the highest estimates) from the intervals :func:`lead_bounds` gives (the lead rows'
adjusted bounds in the table); whether that row is clearly ahead is read on the interval of the
difference of two rows' means, paired by deal (:func:`_lead_ahead`). A shared role's cells are called from :func:`paired_fair_bounds`:
the paired t interval, or Newcombe's from the two shares' own intervals where the paired
difference has no spread or a share too few wins or losses. Every adjusted bound of a share lies
in [0, 1], and no call is read from an interval of no width.

Every share in the sentences is written as the tables write it (review s61): a half rounded away
from zero (:func:`simcore.numbers.rounded`, through :func:`analysis.skill_words.percent`), a
cell's share at the decimals the table prints it with (:func:`analysis.skill_words.ci_digits`, the
rule of :func:`reports.text.pct_ci`), and no share that is not 0% or 100% printed as it
(:func:`simcore.numbers.share_digits`); before, ``f"{100 * x:.1f}"`` printed 59.25% as "59.2%".

May import numpy, polars, :mod:`simcore.runner`, :mod:`simcore.stats`, :mod:`simcore.numbers`,
:mod:`simcore.games`, :mod:`analysis.stats` and :mod:`analysis.skill_words`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import polars as pl

from simcore import runner
from simcore.games import DEFAULT_GAME
from simcore.games import get as get_spec
from analysis import stats
from analysis.skill_words import ci_digits, percent
from simcore.numbers import rounded, share_digits, verdict_digits


@dataclass(frozen=True)
class Cell:
    bot: str
    opponent: str
    games: int
    win_share: float
    std_error: float
    ci_low: float
    ci_high: float
    fair: float
    # a shared role's cell (:func:`role_ladder`): the standard error of the bot's share minus the
    # column bot's own (``fair``), paired by deal over the role's seats; nan elsewhere
    diff_std_error: float = float("nan")
    deals: int = 0
    # a shared role's cell: the standard error of the column bot's own share (``fair``) over the
    # same deals; nan elsewhere
    fair_std_error: float = float("nan")
    # a rotated cell (:func:`duel`): the bot's mean share of each deal, in deal order (deal d of
    # every cell of a ladder starts from the same random streams: one seed), so two rows' means
    # are compared deal by deal (:func:`ranking_sentence`); None where not kept
    per_deal: np.ndarray | None = field(default=None, compare=False, repr=False)

    @property
    def margin_in_se(self) -> float:
        """How many standard errors the bot's share lies above the fair share (a shared role's
        cell: of the paired difference from the column bot's own share, as its call reads it;
        where that difference has no spread, every deal alike, of the two shares' own errors read
        together, unpaired, a share without spread over the deals counting its games, the column
        bot's own its deals, as its interval does). Unbounded (±inf, an empty cell in the CSV) where the error is 0, nan
        where the share equals the fair share too."""
        if np.isfinite(self.diff_std_error):
            se = _spread(self.diff_std_error)
            if not se > 0 and self.deals > 0:
                se = math.hypot(_own_se(self.win_share, self.std_error, max(self.games, self.deals)),
                                _own_se(self.fair, self.fair_std_error, self.deals))
        else:
            se = self.std_error
        diff = self.win_share - self.fair
        if se > 0:
            return diff / se
        return float("nan") if diff == 0 or not np.isfinite(diff) else math.copysign(float("inf"), diff)


#: A standard error or deviation below this is rounding, not spread: the per-deal means of a bot
#: that wins the same share of every deal (a third of each, say) differ by ~1e-17 (any true spread of
#: shares of whole games is at least ~1/games).
NO_SPREAD = 1e-12


def _spread(sd: float) -> float:
    """``sd``, or 0 where it is rounding only (:data:`NO_SPREAD`)."""
    return 0.0 if np.isfinite(sd) and abs(sd) < NO_SPREAD else float(sd)


def _own_se(share: float, se: float, deals: int) -> float:
    """A share's standard error; where its deals have no spread, the one its interval reads over
    ``deals`` (the row bot's games, the column bot's own deals: √(m(1 − m)/N), review 283 #2)."""
    se = _spread(se)
    if not np.isfinite(se):
        return float("nan")
    return se if se > 0 else math.sqrt(max(share * (1.0 - share), 0.0) / deals)


def duel(bot: str, opponent: str, games: int, *, players: int = 4, seed: int = 0,
         game: str = DEFAULT_GAME, rules=None, threads: int | None = None,
         settings=()) -> Cell:
    """One ``bot`` against ``players - 1`` copies of ``opponent``; ``games`` rounded up to whole
    rotations. ``rules`` is a rules file (default: the game's shipped rules), ``settings`` rule
    settings on top of it (``--set PATH=VALUE``)."""
    deals = -(-games // players)
    n = deals * players
    prep = runner.prepare(game, players=players, strategies=[bot] + [opponent] * (players - 1),
                          rotate_seats=True, rules=rules, settings=settings)
    played = runner.collect(prep, games=n, seed=seed, threads=threads,
                            columns=("game", "seat", "win_share"))
    w = played.win_shares(players)
    rotation = np.arange(n) % players
    seat_of_bot = (-rotation) % players   # rotation k: seat s plays strategy row (s + k) % P
    mine = w[np.arange(n), seat_of_bot]
    mean, se, lo, hi = deal_interval(mine.reshape(deals, players))
    return Cell(bot, opponent, n, mean, se, lo, hi, 1.0 / players,
                per_deal=mine.reshape(deals, players).mean(axis=1))


def deal_interval(shares, level: float = stats.LEVEL) -> tuple[float, float, float, float]:
    """(mean, std_error, ci_low, ci_high) of a bot's win share from ``shares`` (deals × the games
    of each deal: its rotations, or its seats of a role): paired by deal, the mean over a deal's
    games is one independent observation, so the error is over the deals' means and the interval
    is Wilson's at the effective number of games m(1 − m)/se² with the Student t(D − 1) critical
    value (:func:`analysis.stats.share_mean_wilson`; nan below two deals): away from 0 and 1 the
    Student t interval over the deals' means to within a fraction of its width, and near them
    skewed away from the end, as the share's sampling distribution is. The games of one deal share
    its cards, so they are not independent: a Wilson interval over every game covered a true share
    of 0.35 in 71 % of runs when half of a deal's outcome is the deal
    (tests/analysis/test_interval_coverage.py). The t interval itself (symmetric, clipped to
    [0, 1]) fell short near 0 or 1 with skewed deals: 88.7 % at a true share of 0.9 % over 100
    deals (statistics audit s37 #3; tests/stats/test_s37_ladder_edges.py). Deals whose means differ
    by rounding only (below :data:`NO_SPREAD`: a third of every deal, or every deal lost) have no
    spread: Wilson over the games with the same t critical value, never an interval of no width.
    Before session 63 it was Wilson over the deals, so 0 wins of 1,002 games in 334 deals read
    0–1.14% and 1 win 0–0.57%: the upper end fell as a win was added (review 283 #2). The games are
    the effective number one win gives (N(1 − m), m → 0), so the upper end rises with the wins
    (0, 1, 2 wins: 0.39%, 0.57%, 0.73%); simulated, 334 deals of 3 independent games cover a true
    share of 0.3% and 0.5% in at least 95 % of runs (tests/analysis/test_s63_ladder_zero_win_interval.py).
    A true 0.1% they covered in only 92.0 % (exact): 3 wins in 3 deals read as 3.009 effective
    successes, past the count up to which :func:`analysis.stats.wilson` takes the exact Poisson
    lower end; it now takes it for a count nearest a whole one that would (98.1 %, session 64:
    tests/analysis/test_s64_rare_share_interval.py, benchmarks/ladder_rare_share_coverage.py)."""
    shares = np.asarray(shares, dtype=float)
    per_deal = shares.mean(axis=1)
    deals = per_deal.size
    mean = float(shares.mean())
    if deals < 2:
        return mean, float("nan"), float("nan"), float("nan")
    sd = _spread(float(per_deal.std(ddof=1)))    # (every deal alike: Wilson over the games)
    lo, hi = _share_mean_wilson(mean, sd, deals, level, games=shares.size)
    return mean, sd / float(np.sqrt(deals)), lo, hi


ALPHA = 0.05                # the family-wise error of the calls against the fair share


def fair_bounds(cells: list[Cell], players: int, alpha: float = ALPHA,
                family: int | None = None) -> list[tuple[float, float] | None]:
    """Per cell of a ladder of a game whose seats are alike (:func:`duel`: ``games`` = deals ×
    ``players`` rotations), the interval :func:`fair_calls` reads: Wilson's at the deals' effective
    number of games with the Student t(D − 1) critical value at level 1 − alpha/k, k the family
    of cells adjusted together (Bonferroni; ``family``, else ``len(cells)``), as the cell's own
    interval (:func:`deal_interval`) is at 95 %; None for a cell of fewer than two deals."""
    if family is not None and family < len(cells):
        raise ValueError(f"family {family}: fewer than the {len(cells)} cells called")
    k = max(family if family is not None else len(cells), 1)
    out: list[tuple[float, float] | None] = []
    for c in cells:
        deals = c.games // players
        if deals < 2 or not np.isfinite(c.std_error):
            out.append(None)
            continue
        # (as the cell's own interval: Wilson at the deals' effective games, Wilson over the deals
        # where every deal is alike)
        lo, hi = _share_mean_wilson(c.win_share, c.std_error * np.sqrt(deals), deals, 1.0 - alpha / k,
                                    games=c.games)
        out.append(_share_bounds(lo, hi))
    return out


def _share_mean_wilson(mean: float, sd: float, deals: int, level: float,
                       games: int | None = None) -> tuple[float, float]:
    """:func:`analysis.stats.share_mean_wilson` of one share, as floats ((0, 1) where the Student t
    critical value over so few deals is beyond any normal one: 2 deals); ``games``: the games the
    deals hold, read where every deal is alike (review 283 #2)."""
    lo, hi = stats.share_mean_wilson(mean, sd, deals, level, games=games)
    return float(lo), float(hi)


def _share_bounds(lo: float, hi: float) -> tuple[float, float]:
    """An interval of a share, clipped to [0, 1] (a share lies there; a call reads the clipped
    bounds: clipping never moves a bound across a fair share, which lies in [0, 1] too)."""
    return min(max(lo, 0.0), 1.0), min(max(hi, 0.0), 1.0)


def _called(cells: list[Cell], bounds) -> list[str | None]:
    """"above" where a cell's adjusted interval lies wholly above its fair share, "below" where
    wholly below, else None: read from the very bounds the table writes. An interval of no width
    calls nothing (it says nothing about how far the share may lie from its estimate)."""
    return [None if b is None or not b[1] > b[0] else
            "above" if b[0] > c.fair else "below" if b[1] < c.fair else None
            for c, b in zip(cells, bounds)]


def fair_calls(cells: list[Cell], players: int, alpha: float = ALPHA,
               family: int | None = None) -> list[str | None]:
    """Per cell of a ladder of a game whose seats are alike (:func:`duel`: ``games`` = deals ×
    ``players`` rotations), "above" or "below" when the cell's interval over its deals at
    level 1 − alpha/k (Bonferroni over the ladder's k cells; Wilson's at the deals' effective
    games with the Student t critical value: :func:`fair_bounds`) lies wholly above or below its
    fair share, else None: the chance that any of the calls is wrong is at most ``alpha`` (as far
    as the intervals cover: see :func:`deal_interval` near 0 % or 100 %). The cells' own intervals
    (``ci_low``/``ci_high``) stay unadjusted. ``family``: k when these cells are part of a larger
    family (a ladder at several player counts, called once per count over all its matchups); at
    least ``len(cells)``."""
    return _called(cells, fair_bounds(cells, players, alpha, family))


#: A shared role's cell is called from the paired t interval only where both shares (the row
#: bot's, the column bot's own) hold at least this many games' worth of wins and as many of losses
#: (share × games, and (1 − share) × games): the rule of thumb for reading a mean of shares as
#: normal (OpenIntro's success-failure condition); below it, Newcombe's interval.
FEW_WINS = 10


def _few_wins(c: Cell) -> bool:
    """Whether either share of a shared role's cell has fewer than :data:`FEW_WINS` games' worth
    of wins or of losses over the cell's games (the row bot's seat-games; the column bot's own
    share is over as many)."""
    return any(min(p * c.games, (1.0 - p) * c.games) < FEW_WINS for p in (c.win_share, c.fair))


def _newcombe_bounds(c: Cell, level: float) -> tuple[float, float] | None:
    """Newcombe's hybrid score interval of the row bot's share minus the column bot's own, from
    the two shares' own intervals over the deals at ``level`` (each Wilson's at its deals'
    effective number of games, as ``ci_low``/``ci_high`` are: :func:`analysis.stats.share_mean_wilson`;
    a share with no spread over the deals, Wilson's over the deals), on the scale of the share
    (the column bot's own share plus the difference's bounds). Unpaired, so never narrower than
    either share's own interval at that level: it holds the row bot's. None where a share's
    error is unknown."""
    D = c.deals
    if not (np.isfinite(c.std_error) and np.isfinite(c.fair_std_error)):
        return None
    ends = []
    # (the row bot's share over its games where its deals are alike; the column bot's own is one
    # game's seats per deal: its deals)
    for p, se, g in ((c.win_share, c.std_error, c.games), (c.fair, c.fair_std_error, None)):
        ends += list(_share_mean_wilson(p, _spread(se) * np.sqrt(D), D, level, games=g))
    if not all(np.isfinite(ends)):
        return None
    low, high = stats.newcombe(c.win_share, ends[0], ends[1], c.fair, ends[2], ends[3])
    return c.fair + float(low), c.fair + float(high)


def paired_fair_bounds(cells: list[Cell], alpha: float = ALPHA,
                       family: int | None = None) -> list[tuple[float, float] | None]:
    """Per cell of a shared role's ladder (:func:`role_ladder`), the interval
    :func:`paired_fair_calls` reads, on the scale of the share, at level 1 − alpha/k (Bonferroni
    over the k cells: ``family``, else ``len(cells)``), clipped to [0, 1]:

    * the bot's share ± the half-width of the Student t interval of its paired difference from
      the column bot's own share (the per-deal differences over the role's seats,
      ``diff_std_error``), where that difference has spread and both shares hold at least
      :data:`FEW_WINS` games' worth of wins and of losses;
    * else (every deal's difference alike, a zero-width t interval, or too few wins or losses for
      the t interval) Newcombe's interval of the difference, from the two shares' own intervals
      over the deals at that level (:func:`_newcombe_bounds`): never narrower than the cell's own.

    It lies wholly above the fair share (the column bot's own) exactly when the difference's
    interval lies above 0. None for a cell of fewer than two deals (or, falling back, whose
    shares' errors are unknown)."""
    if family is not None and family < len(cells):
        raise ValueError(f"family {family}: fewer than the {len(cells)} cells called")
    k = max(family if family is not None else len(cells), 1)
    level = 1.0 - alpha / k
    out: list[tuple[float, float] | None] = []
    for c in cells:
        if c.deals < 2:
            out.append(None)
            continue
        dse = _spread(c.diff_std_error)
        if np.isfinite(dse) and dse > 0 and not _few_wins(c):
            half = stats.t_quantile(c.deals - 1, level) * dse
            b = (float(c.win_share - half), float(c.win_share + half))
        else:
            b = _newcombe_bounds(c, level)
        out.append(None if b is None else _share_bounds(*b))
    return out


def paired_fair_calls(cells: list[Cell], alpha: float = ALPHA) -> list[str | None]:
    """Per cell of a shared role's ladder (:func:`role_ladder`), "above" or "below" when the
    Student t interval of the bot's share minus the column bot's own on the same deals (the
    per-deal differences over the role's seats; ``diff_std_error``), at level 1 − alpha/k
    (Bonferroni over the k cells), lies wholly above or below 0 (:func:`paired_fair_bounds`),
    else None: the chance that any call is wrong is at most ``alpha``. Where the difference has
    no spread (every deal alike) or a share too few wins or losses, the call reads Newcombe's
    interval of the difference from the two shares' own intervals instead (never a zero-width
    interval)."""
    return _called(cells, paired_fair_bounds(cells, alpha))


def pairs(bots: list[str]) -> list[tuple[str, str]]:
    """(bot, opponent) of every cell, in the order :func:`ladder` plays them."""
    return [(a, b) for a in bots for b in bots if a != b]


def seat_roles(game: str, players: int) -> tuple[str, str]:
    """(the role of seat 0, the role of every other seat) from the game's spec; a game whose
    seats are not one seat of a role and the others of a second has no role ladder."""
    roles = get_spec(game).seat_roles(players)
    if players < 2 or roles.count(roles[0]) != 1 or len(set(roles[1:])) != 1:
        raise ValueError(f"{game}: a role ladder needs seat 0 in a role of its own and the other "
                         f"seats in one shared role (seats here: {', '.join(roles)})")
    return roles[0], roles[1]


def ladder(bots: list[str], games: int, *, players: int = 4, seed: int = 0,
           game: str = DEFAULT_GAME, threads: int | None = None, rules=None,
           settings=()) -> list[Cell]:
    return [duel(a, b, games, players=players, seed=seed, game=game, threads=threads, rules=rules,
                 settings=settings)
            for a, b in pairs(bots)]


def role_sides(bots: list[str], *, players: int, game: str, roles_of) -> tuple[str, str, list[str], list[str]]:
    """(the lead role, the shared role, the bots of ``bots`` that play the lead role, those that
    play the shared role): a bot that plays both is in both lists (:func:`seat_roles`)."""
    lead, shared = seat_roles(game, players)
    return (lead, shared, [b for b in bots if lead in roles_of(b)],
            [b for b in bots if shared in roles_of(b)])


def role_steps(bots: list[str], *, players: int, game: str, roles_of,
               lead_bot: str | None = None) -> int:
    """How many steps :func:`role_ladder` reports to its ``progress``: one per lead-role matchup,
    and for the shared role (two bots of it or more, and a bot for the lead seat) one per column
    bot's own games (its bracket) and one per matchup."""
    _, _, lords, tenants = role_sides(bots, players=players, game=game, roles_of=roles_of)
    shared = len(tenants) * len(tenants) if len(tenants) > 1 and (lead_bot or lords) else 0
    return len(lords) * len(tenants) + shared


def role_ladder(bots: list[str], games: int, *, players: int, seed: int = 0, game: str,
                threads: int | None = None, roles_of=None, lead_bot: str | None = None,
                rules=None, settings=(), progress=None) -> dict[str, list[Cell]]:
    """The ladder of a game whose seat 0 has a role of its own (the spec's first role, one seat)
    and whose other seats share a second role (``spec.seat_roles``); ``roles_of(bot)`` names the
    roles a bot plays. The result holds one list of cells per role, keyed by the spec's role
    names (:func:`seat_roles`):

    * the lead role (seat 0): cell (A, B) = A at seat 0 against B at every other seat; the figure
      is A's win share (``fair`` is nan: no seat of the other role is alike).
    * the shared role: cell (A, B) = A at one of those seats, B at the others, ``lead_bot`` (a
      bot that plays the lead role; default the first such bot in ``bots``) at seat 0; A sits at
      every seat of the role in turn on the same deals (same seed), ``games`` split over them.
      ``fair`` is a B seat's mean win share when every such seat plays B on those deals: what A
      would get if it were as good as B. With fewer than two bots of the shared role it has no
      cells (and none of its games are played).

    ``progress(text, done, total)``, if given, is called before each step (``done`` steps of
    ``total`` finished, :func:`role_steps`; ``text`` says what is played, the roles in the spec's
    words), as :class:`cli.progress.Steps` takes it.
    """
    lead, shared, lords, tenants = role_sides(bots, players=players, game=game, roles_of=roles_of)
    out: dict[str, list[Cell]] = {lead: [], shared: []}
    if lead_bot is None and lords:
        lead_bot = lords[0]
    total = role_steps(bots, players=players, game=game, roles_of=roles_of, lead_bot=lead_bot)
    done = 0
    say = get_spec(game).role_display if progress is not None else str
    C = players - 1

    def step(text: str) -> None:
        nonlocal done
        if progress is not None:
            progress(text, done, total)
        done += 1

    for a in lords:
        for b in tenants:
            step(f"{say(lead)} {a} against {C} × {b} ({games:,} games)")
            prep = runner.prepare(game, players=players, strategies=[a] + [b] * C,
                                  rules=rules, settings=settings)
            w = runner.collect(prep, games=games, seed=seed, threads=threads,
                               columns=("game", "seat", "win_share")).win_shares(players)[:, 0]
            lo, hi = (float(v) for v in stats.wilson(float(w.sum()), len(w)))
            # (game g of every lead cell is dealt from the same streams, one seed: its share of
            # each game is kept so that :func:`lead_headline` compares two rows deal by deal)
            out[lead].append(Cell(a, b, len(w), float(w.mean()),
                                  float(w.std(ddof=1) / np.sqrt(len(w))), lo, hi, float("nan"),
                                  per_deal=np.asarray(w, dtype=float)))
    if lead_bot is None or len(tenants) < 2:
        return out
    per_seat = -(-games // C)
    for b in tenants:
        step(f"{say(shared)} {b} at every {say(shared)} seat, {say(lead)} {lead_bot}: the "
             f"bracket ({per_seat:,} games)")
        base = runner.collect(runner.prepare(game, players=players, strategies=[lead_bot] + [b] * C,
                                             rules=rules, settings=settings),
                              games=per_seat, seed=seed, threads=threads,
                              columns=("game", "seat", "win_share")).win_shares(players)
        fair = float(base[:, 1:].mean())
        for a in tenants:
            if a == b:
                continue
            step(f"{say(shared)} {a} against {C - 1} × {b}, {say(lead)} {lead_bot} "
                 f"({per_seat * C:,} games)")
            mine = []
            for k in range(1, players):
                lineup = [lead_bot] + [a if s == k else b for s in range(1, players)]
                w = runner.collect(runner.prepare(game, players=players, strategies=lineup,
                                                  rules=rules, settings=settings),
                                   games=per_seat, seed=seed, threads=threads,
                                   columns=("game", "seat", "win_share")).win_shares(players)
                mine.append(w[:, k])
            m = np.stack(mine, axis=1)            # deals x seats of A, paired by deal
            mean, se, lo, hi = deal_interval(m)
            # A at each seat against B at that seat on the same deal (review Y #11: the table gave
            # the reference in brackets, never whether a bot is clearly above or below it)
            own = base[:m.shape[0], 1:].mean(axis=1)      # the column bot's own share, deal by deal
            d = m.mean(axis=1) - own
            dse = _spread(float(d.std(ddof=1) / np.sqrt(d.size))) if d.size > 1 else float("nan")
            fse = _spread(float(own.std(ddof=1) / np.sqrt(own.size))) if own.size > 1 else float("nan")
            out[shared].append(Cell(a, b, m.size, mean, se, lo, hi, fair, dse, int(d.size), fse))
    return out


def _pct(x: float, digits: int = 1) -> str:
    """A share in percent as the tables print it: at least ``digits`` decimals, more while a share
    that is not 0% or 100% would print as it (:func:`simcore.numbers.share_digits`), a half
    rounded away from zero (:func:`analysis.skill_words.percent`): 0.5925 → "59.3%" (review s61:
    ``f"{100 * x:.1f}"`` gave "59.2%"), 0.0004 → "0.04%"."""
    return f"{percent(x, max(digits, share_digits(100 * x)))}%"


def _span(lo: float, hi: float, digits: int = 1) -> str:
    """``0.0–1.8%`` (one figure when both print the same), both ends at the same decimals: at least
    ``digits``, and :func:`_pct`'s rule over the two ("0.00–0.04%")."""
    d = share_digits(100 * lo, 100 * hi, digits=digits)
    return _pct(lo, d) if _pct(lo, d) == _pct(hi, d) else f"{percent(lo, d)}–{_pct(hi, d)}"


def _cell_digits(*cells: Cell) -> int:
    """The decimals the table prints these cells' shares with, the most of them
    (:func:`analysis.skill_words.ci_digits`: the rule of :func:`reports.text.pct_ci`, by which
    ``balance ladder`` prints a cell), so that a sentence naming a cell's share writes it as the
    table beside it ("0.50%" beside "0.50% (0.01–2.78)", not "0.5%")."""
    return max(ci_digits(c.win_share, c.ci_low, c.ci_high) for c in cells)


def _at_most(x: float) -> str:
    """``x`` as a percentage rounded up to the tenth (a bound said "at most" is never rounded
    below itself)."""
    return f"{math.ceil(round(1000 * x, 6)) / 10:.1f}%"


def lead_headline(cells: list[Cell], *, lead: str, shared: str, random_bots=(),
                  alpha: float = ALPHA) -> str:
    """The lead role's table (:func:`role_ladder`) in one or two sentences, in the spec's words
    (``lead``, ``shared``: the roles as printed). The column bots that play at random
    (``random_bots``) are set apart (any policy wins most games against them); over the other
    columns' m cells: the range of the cells' estimates, and the largest of their upper ends
    with the m cells read together (Wilson intervals at 1 − alpha/m, Bonferroni: every cell lies
    under it with a chance of at least 1 − alpha); then the row bot with the highest mean
    estimate over those columns, said to be clearly ahead of every other only when the interval
    of the difference of the two rows' means at 1 − alpha/(n − 1) lies above 0 for each of the
    n − 1 other rows (Bonferroni over the differences read, which bounds the chance of a false
    "ahead of every other" by alpha, the leader chosen from the data included; review 224 ladder:
    it read them at 1 − alpha/m and named the m matchups)
    (:func:`_lead_ahead`: paired by deal, as :func:`ranking_sentence` reads a game of alike
    seats; every lead cell of :func:`role_ladder` plays the same deals). Before session 59 it was
    said clearly ahead only when the mean of its adjusted lower ends lay above the mean of every
    other row's adjusted upper ends: two intervals that do not overlap, a rule conservative far
    beyond its stated level (helper 228 #1). '' without cells."""
    if not cells:
        return ""
    randoms = set(random_bots)
    cols = list(dict.fromkeys(c.opponent for c in cells))
    plain = [b for b in cols if b not in randoms]
    bounds, m = lead_bounds(cells, random_bots, alpha)
    group = [c for c, b in zip(cells, bounds) if b is not None]
    lo_cell = min(group, key=lambda c: c.win_share)
    hi_cell = max(group, key=lambda c: c.win_share)
    lo_est, hi_est = lo_cell.win_share, hi_cell.win_share
    ends = {(c.bot, c.opponent): b for c, b in zip(cells, bounds) if b is not None}
    top = max(hi for _, hi in ends.values())
    if plain and len(plain) < len(cols):
        against = (f"Against the {len(plain)} {shared} bots that do not play at random" if len(plain) > 1
                   else f"Against {shared} {plain[0]}")
    elif plain:
        against = (f"Against the {len(plain)} {shared} bots" if len(plain) > 1
                   else f"Against {shared} {plain[0]}")
    else:
        against = f"Against {shared} bots that play at random"
    rows = list(dict.fromkeys(c.bot for c in group))
    who = f"the {lead} bots win" if len(rows) > 1 else f"{lead} {rows[0]} wins"
    shares = _span(lo_est, hi_est, _cell_digits(lo_cell, hi_cell))     # as the table prints them
    if m > 1:
        which = "the range of" if "–" in shares else "each of"
        said = (f"{against}, {who} {shares} of the games ({which} the {m} matchups' "
                f"estimates; read together, Bonferroni over the {m}, every one is at most "
                f"{_at_most(top)})")
    else:
        said = f"{against}, {who} {shares} of the games (at most {_at_most(top)})"
    others = [c for c in cells if c.opponent not in plain] if plain else []
    if others:
        lo_c, hi_c = min(others, key=lambda c: c.win_share), max(others, key=lambda c: c.win_share)
        d = _cell_digits(lo_c, hi_c)
        said += (f"; against random ones {_pct(lo_c.win_share, d)}" if len(others) == 1 else
                 f"; against random ones {_span(lo_c.win_share, hi_c.win_share, d)} (the range of the {len(others)} "
                 "estimates)")
    said += "."
    if len(rows) < 2:
        return said
    mean = {r: float(np.mean([c.win_share for c in group if c.bot == r])) for r in rows}
    order = sorted(rows, key=lambda r: -mean[r])            # (stable: ties in --bots order)
    best, nxt = order[0], order[1]
    if len(plain) > 1:
        over = f"on average over those {len(plain)} bots"
    else:
        over = f"against {plain[0]}" if plain else "on average"
    tied = [r for r in order if _pct(mean[r]) == _pct(mean[best])]
    if len(tied) == len(rows):
        return said + f" Every {lead} bot there wins {_pct(mean[best])} {over}."
    if len(tied) > 1:
        return (said + f" {', '.join(tied[:-1])} and {tied[-1]} share the highest estimate, "
                f"{_pct(mean[best])} {over}, none clearly ahead of the others.")
    runners = [r for r in order[1:] if _pct(mean[r]) == _pct(mean[nxt])]   # tied for second
    if len(runners) == len(rows) - 1 and len(runners) > 1:
        behind = f"the other {len(runners)} all {_pct(mean[nxt])}"
    elif len(runners) > 1:
        behind = f"next {', '.join(runners[:-1])} and {runners[-1]}, {_pct(mean[nxt])} each"
    else:
        behind = f"next {nxt}, {_pct(mean[nxt])}"
    # "ahead of every other" reads the n − 1 differences of the leader's mean from the others',
    # Bonferroni over those (review 224 ladder: it read them at 1 − alpha/m, m the matchups)
    family = _differences_words(len(rows) - 1)
    if _lead_ahead({r: [c for c in group if c.bot == r] for r in rows}, best, alpha, len(rows) - 1):
        return (said + f" {best} does best: {_pct(mean[best])} {over} ({behind}), clearly ahead "
                f"of every other {lead} bot, {family}.")
    return (said + f" The highest is {best}'s, {_pct(mean[best])} {over} ({behind}), but not "
            f"clearly ahead ({family}): it may be no better than the others.")


def _row_share(cells: list[Cell], level: float) -> tuple[float, float, float, np.ndarray | None]:
    """(mean, low, high, per-deal means or None) of a lead row: its mean share over ``cells`` with
    its interval at ``level``; paired by deal where every cell kept its deals (Wilson's at the
    deals' effective number of games, :func:`analysis.stats.share_mean_wilson`, Wilson's over the
    deals where every deal is alike), else Wilson's over the row's games read as independent."""
    mean = float(np.mean([c.win_share for c in cells]))
    if all(c.per_deal is not None for c in cells) and len({len(c.per_deal) for c in cells}) == 1 \
            and len(cells[0].per_deal) > 1:
        per = np.mean([c.per_deal for c in cells], axis=0)
        lo, hi = _share_mean_wilson(mean, _spread(float(per.std(ddof=1))), per.size, level,
                                    games=per.size * len(cells))
        return mean, lo, hi, per
    games = sum(c.games for c in cells)
    lo, hi = (float(v) for v in stats.wilson(mean * games, games, level))
    return mean, lo, hi, None


def _lead_ahead(mine: dict[str, list[Cell]], best: str, alpha: float, m: int) -> bool:
    """Whether the lead row ``best``'s mean share over its cells (``mine[row]``) is clearly above
    every other row's, each difference's interval at 1 − alpha/m (Bonferroni over the m = n − 1
    differences read, review 224 ladder) lying above 0 (helper 228 #1).

    The lead role's cells of :func:`role_ladder` are played at one seed, so game g of every cell
    is dealt from the same random streams: the rows are paired by deal, and where every cell kept
    its games (:attr:`Cell.per_deal`) the interval is the Student t interval of the per-deal
    difference of the two rows' means, which holds whatever the rows' correlation (as
    :func:`_paired_lead` for a game of alike seats). Where that difference has no spread, or a row
    holds fewer than :data:`FEW_WINS` games' worth of wins or of losses (the Seigneur's rare wins:
    the t interval is not read on so few, as :func:`paired_fair_bounds` does not), or the cells
    kept no games, it is Newcombe's interval of the difference of the two rows' shares read as
    independent samples (:func:`_row_share`; measured, the Seigneur's rows of a 4-player ladder
    correlate −0.01 to 0.00 deal by deal, docs/search.md). Never the overlap of the two rows'
    intervals, which is conservative far beyond its stated level."""
    level = 1.0 - alpha / max(m, 1)
    row = {r: _row_share(cs, level) for r, cs in mine.items()}
    games = {r: sum(c.games for c in cs) for r, cs in mine.items()}

    def few(r: str) -> bool:
        p = row[r][0]
        return min(p, 1.0 - p) * games[r] < FEW_WINS

    for r in mine:
        if r == best:
            continue
        (p1, lo1, hi1, per1), (p2, lo2, hi2, per2) = row[best], row[r]
        if per1 is not None and per2 is not None and per1.size == per2.size and not (few(best) or few(r)):
            d = per1 - per2
            sd = _spread(float(d.std(ddof=1)))
            if sd > 0:
                if not float(d.mean()) - stats.t_quantile(d.size - 1, level) * sd / math.sqrt(d.size) > 0:
                    return False
                continue
        if not all(np.isfinite((lo1, hi1, lo2, hi2))):
            return False
        low, _ = stats.newcombe(p1, lo1, hi1, p2, lo2, hi2)
        if not float(low) > 0:
            return False
    return True


def ranking_sentence(cells: list[Cell], players: int, random_bots=(), alpha: float = ALPHA,
                     family: int | None = None) -> str:
    """A ladder of a game whose seats are alike in one sentence (review 45 #4: a 7-bot matrix of 42
    cells with no word on who is strongest; the ranking was said only in a game with roles,
    :func:`lead_headline`): each row bot's mean win share against the column bots that do not play
    at random (``random_bots``; every column where all do), its own column left out (a bot against
    copies of itself says nothing of its strength), best first; then whether the first is clearly
    ahead: the paired interval of its mean's difference from every other row's, deal by deal, at
    1 − alpha/(n − 1) (Bonferroni over the n − 1 differences read: "ahead of every other" needs all
    of them clear, so the chance of saying it of a bot that is not ahead of every other is at most
    alpha, the leader chosen from the data included: an intersection-union reading, review 224
    ladder; before, k was the whole ladder's family of matchups, 6 for 3 bots, 36 over 3 player
    counts, and the sentence named that family) lies above 0 (:func:`_paired_lead`); for cells
    that kept no deals, the mean of its cells' lower ends above the mean of every other row's upper
    ends, the cells' intervals (:func:`fair_bounds`) at 1 − alpha/c over the c cells the sentence
    reads (true means lie between those with that chance, whatever the cells' correlation).

    A mean over different opponents can rank a bot first that another beats head to head (review
    s60 #245: Médiévallons, balanced 26.2% on average, clearly the highest, from its games against
    saboteur; against copies of collector 22.5%, collector 22.9% against copies of it). So the
    leader is also read head to head against each other bot: its share against copies of that bot
    minus that bot's against copies of it (:func:`_head_to_head`), the n − 1 differences at
    1 − alpha/(n − 1), Bonferroni over those n − 1 as the means'. "The strongest: clearly ahead of
    every other bot" only where its mean and every head-to-head difference are clear and no other
    bot wins clearly above the fair share against copies of it (the table's ▲ on that bot's cell
    against the leader: review 283 #1, in 4-player Middle-Ages a lone bot gains whichever it is,
    balanced alone among search4s 36.0% ▲ beside search4 alone among balanced bots 42.2% ▲, which
    was called "search4 is the strongest"); where such a bot does, the sentence says the leader
    wins more against copies of it than it against copies of the leader, then that it too wins
    clearly above fair and that these shares do not show the leader the stronger
    (:func:`_also_above`); a clear head to head is never "clearly ahead" beside such a ▲. Where the
    mean is clear and some head to head is not, the sentence says the mean is the highest, then by
    name which bots beat it head to head, which it does not beat (lower or equal in these games)
    and which it is not clearly ahead of, each with both shares and the difference's interval
    worded by size against the smallest difference that matters (1 pp, :func:`_h2h_item`), and
    where the lead on the mean comes from (:func:`_common_words`). Where the mean is not clear,
    the head to head against the runner-up, and the table's ▲ on the leader's cell against it (over
    the ``family`` of matchups the calls read, else ``len(cells)``) beside the runner-up's share
    against copies of the leader (before session 60, that ▲ alone was called "head to head it is the
    stronger"). Each clause names the family it reads. '' without two rows to rank."""
    randoms = set(random_bots)
    bounds = dict(zip(((c.bot, c.opponent) for c in cells), fair_bounds(cells, players, alpha, family)))
    cols = list(dict.fromkeys(c.opponent for c in cells))
    plain = [b for b in cols if b not in randoms] or cols
    rows = [r for r in dict.fromkeys(c.bot for c in cells)
            if any(c.bot == r and c.opponent in plain and c.opponent != r for c in cells)]
    if len(rows) < 2:
        return ""
    mine = {r: [c for c in cells if c.bot == r and c.opponent in plain and c.opponent != r] for r in rows}
    mean = {r: float(np.mean([c.win_share for c in mine[r]])) for r in rows}
    known = {r: all(bounds[(c.bot, c.opponent)] is not None for c in mine[r]) for r in rows}
    low = {r: float(np.mean([bounds[(c.bot, c.opponent)][0] for c in mine[r]])) if known[r] else 0.0 for r in rows}
    high = {r: float(np.mean([bounds[(c.bot, c.opponent)][1] for c in mine[r]])) if known[r] else 1.0 for r in rows}
    order = sorted(rows, key=lambda r: -mean[r])            # (stable: ties in --bots order)
    against = (f"the {len(plain)} bots that do not play at random" if len(plain) < len(cols) else
               f"the other bots")
    listed = ", ".join(f"{r} {_pct(mean[r])}" for r in order)
    said = (f"Ranked by mean win share against {against}, a bot's games against copies of itself left "
            f"out (fair {100 / players:.3g}% at {players} players): {listed}.")
    best, nxt = order[0], order[1]
    k = family if family is not None else len(cells)        # the table's ▲/▼ (the calls' family)
    if _pct(mean[best]) == _pct(mean[nxt]):
        return said + f" {best} and {nxt} share the highest mean, neither clearly ahead."
    paired = _paired_lead(mine, best, rows, alpha, len(rows) - 1)
    if paired is not None:
        mean_family = _differences_words(len(rows) - 1)
        clear = paired
    else:
        # no deals kept: each row's mean between the means of its cells' ends, every cell the
        # sentence reads at 1 − alpha/c (c those cells), so all hold at once with that chance
        read = [c for r in rows for c in mine[r]]
        ends = dict(zip(((c.bot, c.opponent) for c in read), fair_bounds(read, players, alpha, len(read))))
        def _mean_end(r: str, i: int) -> float | None:
            got = [ends[(c.bot, c.opponent)] for c in mine[r]]
            return None if any(g is None for g in got) else float(np.mean([g[i] for g in got]))
        lows = {r: _mean_end(r, 0) for r in rows}
        highs = {r: _mean_end(r, 1) for r in rows}
        clear = lows[best] is not None and all(highs[r] is not None and lows[best] > highs[r]
                                               for r in rows if r != best)
        mean_family = f"its {len(read)} matchups' intervals read together"
    # head to head (review s60 #245): the leader's share against copies of each other bot beside that
    # bot's against copies of the leader, the n − 1 differences read together as the means' are
    m = len(rows) - 1
    duels = {r: _head_to_head(cells, best, r, players, alpha, m) for r in order[1:]}
    # each other bot's own cell against copies of the leader, where the table's ▲ says it too wins
    # clearly above the fair share (review 283 #1): the leader's higher lone share then says no
    # more than that a lone bot gains here whichever it is
    fair = 1.0 / players
    for r, h in duels.items():
        b = bounds.get((r, best))
        if h is not None and b is not None and b[1] > b[0] and b[0] > fair:
            duels[r] = replace(h, theirs_above=b)
    h2h_family = _h2h_family_words(m)
    if clear and all(h is not None and h.ahead for h in duels.values()) and \
            not all(h.stronger for h in duels.values()):
        up = [h for h in duels.values() if h.theirs_above is not None]
        if len(rows) == 2 and [c.opponent for c in mine[best]] == [nxt] and [c.opponent for c in mine[nxt]] == [best]:
            return said + (f" {best} wins more alone against copies of {nxt} than {nxt} alone against "
                           f"copies of it ({mean_family}; with two bots its mean is its head to head): "
                           f"{_h2h_item(duels[nxt])}." + _also_above(up, best, players, k))
        return said + (f" {best} has the highest mean win share, clearly above every other bot's "
                       f"({mean_family}), and wins more against copies of each than each wins against "
                       f"copies of it ({h2h_family}): {_h2h_list(list(duels.values()))}."
                       + _also_above(up, best, players, k))
    if clear and all(h is not None and h.ahead for h in duels.values()):
        if len(rows) == 2 and [c.opponent for c in mine[best]] == [nxt] and [c.opponent for c in mine[nxt]] == [best]:
            # two bots, each read against the other only: the means are the head to head
            return said + (f" {best} is the strongest: clearly ahead of every other bot, {mean_family}; "
                           f"with two bots its mean is its head to head: {_h2h_item(duels[nxt])}.")
        return said + (f" {best} is the strongest: clearly ahead of every other bot, on its mean "
                       f"({mean_family}) and head to head, where it wins more against copies of each "
                       f"than each wins against copies of it ({h2h_family}): "
                       f"{_h2h_list(list(duels.values()))}.")
    if clear:
        whom = "its opponents" if len(plain) == len(cols) else "its opponents that do not play at random"
        return said + (f" {best} has the highest mean win share over {whom}, clearly above every other "
                       f"bot's ({mean_family}), "
                       f"but {_h2h_short(duels, best, h2h_family, players, k)}"
                       f"{_common_words(mine, best, duels, plain)}")
    # the two head to head, read as every head-to-head claim of the sentence (review s49 skill #2:
    # "it may be no stronger" beside search4 52.7% ▲ against 2×balanced; the ▲ alone read one
    # cell, not the runner-up's games against copies of the leader)
    h = duels[nxt]
    if h is not None and h.ahead and not h.stronger:
        return said + (f" The highest is {best}'s. Its mean is not clearly above {nxt}'s ({mean_family}); "
                       f"head to head it wins more against copies of {nxt} than {nxt} against copies "
                       f"of it: {_h2h_item(h)} ({h2h_family})." + _also_above([h], best, players, k))
    if h is not None and h.ahead:
        return said + (f" The highest is {best}'s. Its mean is not clearly above {nxt}'s ({mean_family}), "
                       f"but head to head it is ahead of {nxt}: {_h2h_item(h)} ({h2h_family}).")
    shown = (f"{_h2h_item(h)}, {h2h_family}" if h is not None else f"no games of {nxt} against copies of it")
    said += (f" The highest is {best}'s, but not clearly ahead of {nxt}: neither its mean "
             f"({mean_family}) nor head to head ({shown}) shows it stronger; it may be no stronger.")
    direct = bounds.get((best, nxt))
    if h is not None and direct is not None and direct[0] > fair:
        said += (f" Against copies of {nxt} it wins {_pct(h.mine, h.mine_digits)}, clearly above the fair "
                 f"{100 * fair:.3g}% (▲, the {k} matchups read together), but {nxt} wins "
                 f"{_pct(h.theirs, h.theirs_digits)} against copies of it.")
    return said


@dataclass(frozen=True)
class HeadToHead:
    """The leader's share against copies of ``other`` (``mine``, cell (leader, other)) beside
    ``other``'s against copies of the leader (``theirs``, cell (other, leader)), and the interval
    of the difference ``mine − theirs`` (``low``, ``high``) at the level of its family
    (:func:`_head_to_head`); ``paired``: read deal by deal. ``mine_digits``, ``theirs_digits``:
    the decimals the table prints each of the two cells with (:func:`_cell_digits`)."""
    other: str
    mine: float
    theirs: float
    low: float
    high: float
    paired: bool
    mine_digits: int = 1
    theirs_digits: int = 1
    #: ``other``'s adjusted interval against copies of the leader (the table's ▲ bounds, cell
    #: (other, leader)) where it lies wholly above the fair share, else None: then ``other`` too
    #: gains alone against copies of the leader, and the leader's higher share is not "ahead"
    #: in strength (review 283 #1)
    theirs_above: tuple[float, float] | None = None

    @property
    def ahead(self) -> bool:
        return self.low > 0 and self.high > self.low

    @property
    def stronger(self) -> bool:
        """Clearly ahead, and ``other`` not clearly above the fair share against copies of the
        leader: only then do the two lone shares say the leader is the stronger (review 283 #1:
        in 4-player Middle-Ages a lone bot gains against copies of another whichever it is;
        balanced alone among search4s won 36.0% ▲ beside search4's 42.2% ▲ among balanced bots)."""
        return self.ahead and self.theirs_above is None

    @property
    def behind(self) -> bool:
        return self.high < 0 and self.high > self.low


def _head_to_head(cells: list[Cell], best: str, other: str, players: int, alpha: float,
                  m: int) -> HeadToHead | None:
    """``best`` against ``other`` head to head: ``best``'s win share against copies of ``other``
    minus ``other``'s against copies of ``best`` (review s60 #245: balanced's mean was clearly the
    highest of 3 Médiévallons bots, from its games against saboteur, while against copies of
    collector it won 22.5% and collector 22.9% against copies of it). The interval is at
    1 − alpha/m, Bonferroni over the m = n − 1 head-to-head differences of the leader the sentence
    reads, as the means' differences are (:func:`_paired_lead`):

    * the Student t interval of the per-deal difference of the two cells (deal d of every cell of a
      ladder starts from the same random streams: the deals are the independent units, so it holds
      whatever the two cells' correlation), where both cells kept their deals, the difference has
      spread and each share holds at least :data:`FEW_WINS` games' worth of wins and of losses;
    * else the two cells' own intervals (:func:`fair_bounds`), each at 1 − alpha/(2m): both hold
      together with a chance of at least 1 − alpha/m whatever their correlation, and the difference
      lies between (low of one − high of the other) and (high of one − low of the other).

    None where either cell is missing or its interval cannot be read (fewer than two deals)."""
    by = {(c.bot, c.opponent): c for c in cells}
    a, b = by.get((best, other)), by.get((other, best))
    if a is None or b is None:
        return None
    level = 1.0 - alpha / max(m, 1)
    if (a.per_deal is not None and b.per_deal is not None and len(a.per_deal) == len(b.per_deal) > 1
            and not any(min(c.win_share, 1.0 - c.win_share) * c.games < FEW_WINS for c in (a, b))):
        d = np.asarray(a.per_deal, dtype=float) - np.asarray(b.per_deal, dtype=float)
        sd = _spread(float(d.std(ddof=1)))
        if sd > 0:
            half = stats.t_quantile(d.size - 1, level) * sd / math.sqrt(d.size)
            est = float(d.mean())
            return HeadToHead(other, a.win_share, b.win_share, est - half, est + half, True,
                              _cell_digits(a), _cell_digits(b))
    ba, bb = fair_bounds([a, b], players, alpha, family=2 * max(m, 1))
    if ba is None or bb is None:
        return None
    return HeadToHead(other, a.win_share, b.win_share, ba[0] - bb[1], ba[1] - bb[0], False,
                      _cell_digits(a), _cell_digits(b))


def _pp(x: float, digits: int = 1) -> str:
    """A difference in percentage points, signed, the minus typographic: "+1.2", "−0.4"; a half
    rounded away from zero (:func:`simcore.numbers.rounded`), as the shares beside it."""
    return f"{rounded(100 * x, digits):+.{digits}f}".replace("-", "−")


def _h2h_item(h: HeadToHead, smallest: float = stats.DEFAULT_SMALLEST_SHARE) -> str:
    """"22.5% against collector's 22.9%, a difference of −1.6 to +0.8 pp: none as large as 1 pp
    either way": the two shares as the table prints them, the interval of their difference (not its
    estimate, which may print 0.1 pp off the printed shares' difference) and its size against the
    smallest difference that matters (1 pp), read on that interval (:func:`analysis.stats.practical`).
    The ends print at :func:`simcore.numbers.verdict_digits`: one decimal, more while an end would
    print as 0 or as ± 1 pp without being it (review s61 fix 266 #1: −0.96 pp printed "−1.0" beside
    "none as large as 1 pp")."""
    that = f"{100 * smallest:g} pp"
    d = verdict_digits(h.low, h.high, smallest)
    span = f"{_pp(h.low, d)} to {_pp(h.high, d)} pp"
    text = (f"{_pct(h.mine, h.mine_digits)} against {h.other}'s {_pct(h.theirs, h.theirs_digits)}, "
            f"a difference of {span}")
    verdict = stats.practical(h.mine - h.theirs, h.low, h.high, smallest,
                              clear=h.ahead or h.behind)
    if verdict == stats.LARGE:
        return text + f": at least {that}"
    if verdict == stats.SMALL:
        return text + f": clear but less than {that}"
    if verdict == stats.MAY_MATTER:
        return text + f": clear, but these games cannot tell whether it reaches {that}"
    if max(abs(h.low), abs(h.high)) < smallest:
        return text + f": none as large as {that} either way"
    return text + f": these games cannot tell a difference of at least {that} from none"


def _h2h_list(duels: list[HeadToHead]) -> str:
    return "; ".join(_h2h_item(h) for h in duels)


def _also_above(duels: list[HeadToHead], best: str, players: int, k: int) -> str:
    """The bots among ``duels`` that win clearly above the fair share against copies of the leader
    (:attr:`HeadToHead.theirs_above`, the table's ▲), said with their shares and the adjusted
    intervals the ▲ reads, and what it means: " But balanced also wins clearly above the fair 25%
    against copies of search4: balanced 36.0% (33.6–38.5% with the 2 matchups read together, ▲); a
    lone bot gains against copies of the other either way, so these shares do not show search4 the
    stronger player against it." ('' where none; review 283 #1)."""
    up = [h for h in duels if h.theirs_above is not None]
    if not up:
        return ""
    fair = f"{100 / players:.3g}%"
    items = "; ".join(f"{h.other} {_pct(h.theirs, h.theirs_digits)} ({_span(*h.theirs_above)} with the "
                      f"{k} matchups read together, ▲)" for h in up)
    who = _names([h.other for h in up], "and")
    verb = "also wins" if len(up) == 1 else "each also win"
    them = "it" if len(up) == 1 else "them"
    return (f" But {who} {verb} clearly above the fair {fair} against copies of {best}: {items}; a "
            f"lone bot gains against copies of the other either way, so these shares do not show "
            f"{best} the stronger player against {them}.")


def _h2h_family_words(m: int) -> str:
    """The family a head-to-head claim reads, in words: the leader's m head-to-head differences,
    Bonferroni over those m, as its mean's (:func:`_differences_words`)."""
    if m == 1:
        return "the head-to-head difference at 95%"
    return f"its {m} head-to-head differences read together, Bonferroni over {m}"


def _names(names: list[str], word: str = "or") -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" {word} {names[-1]}"


def _h2h_short(duels: dict, best: str, family: str, players: int = 4, k: int = 1) -> str:
    """The bots the leader is not clearly ahead of head to head, by name, with their numbers: those
    that beat it (the difference clearly below 0), those it does not beat (below or at 0 in these
    games, not clear), those it is not clearly ahead of (above 0, not clear); then the others it
    is clearly ahead of; then those it wins more against than they against it while they too win
    clearly above the fair share against copies of it (:func:`_also_above`: not "clearly ahead",
    review 283 #1; ``players``, ``k``: the fair share's player count and the ▲'s family). Ends with
    a full stop."""
    beat = [h for h in duels.values() if h is not None and h.behind]
    lower = [h for h in duels.values() if h is not None and not h.behind and not h.ahead
             and h.mine <= h.theirs]
    unsure = [h for h in duels.values() if h is not None and not h.behind and not h.ahead
              and h.mine > h.theirs]
    unread = [r for r, h in duels.items() if h is None]
    ahead = [h for h in duels.values() if h is not None and h.stronger]
    both = [h for h in duels.values() if h is not None and h.ahead and not h.stronger]
    parts = []
    if beat:
        who = _names([h.other for h in beat], "and")
        parts.append(f"{who} {'beats' if len(beat) == 1 else 'each beat'} it head to head: {_h2h_list(beat)}")
    if lower:
        parts.append(f"it does not beat {_names([h.other for h in lower])} head to head: {_h2h_list(lower)}")
    if unsure:
        parts.append(f"it is not clearly ahead of {_names([h.other for h in unsure])} head to head: "
                     f"{_h2h_list(unsure)}")
    if unread:
        parts.append(f"it has no head-to-head reading against {_names(unread)} (no games of "
                     f"{'it' if len(unread) == 1 else 'them'} against copies of {best})")
    named = [h.other for h in beat + lower + unsure]
    what = (f"its share against copies of {named[0]} beside {named[0]}'s against copies of it" if len(named) == 1
            else "its share against copies of each beside that bot's against copies of it")
    text = "; ".join(parts) + (f" ({what}; {family})." if named else f" ({family}).")
    if ahead:
        text += (f" Head to head it is clearly ahead of {_names([h.other for h in ahead], 'and')}: "
                 f"{_h2h_list(ahead)}.")
    if both:
        # (review 283 #1: "clearly ahead of greedy: 64.8% against greedy's 45.0%" beside greedy
        # alone among search4s at 45.0% ▲)
        text += (f" Head to head it wins more against copies of {_names([h.other for h in both], 'and')} "
                 f"than {'it wins' if len(both) == 1 else 'each wins'} against copies of it: "
                 f"{_h2h_list(both)}." + _also_above(both, best, players, k))
    return text


def _common_words(mine: dict, best: str, duels: dict, plain: list) -> str:
    """Where the leader wins no more than a bot head to head in these games yet has the higher
    mean, that lead is in its games against the opponents both play (its mean and the bot's are
    each over the other bots, so their difference is the head-to-head one and those opponents'
    together): " Its higher mean comes from the opponent both play: against copies of saboteur it
    wins 29.9%, collector 26.7%." ('' where no such bot, or no opponent both play)."""
    out = []
    for r, h in duels.items():
        if h is None or h.mine > h.theirs or best not in plain or r not in plain:
            continue
        both = [c.opponent for c in mine[best] if c.opponent != r]
        theirs = {c.opponent: c.win_share for c in mine[r]}
        both = [o for o in both if o in theirs]
        if not both:
            continue
        a = float(np.mean([c.win_share for c in mine[best] if c.opponent in both]))
        b = float(np.mean([theirs[o] for o in both]))
        if len(both) == 1:
            out.append(f" Its higher mean than {r}'s comes from the opponent both play: against "
                       f"copies of {both[0]} it wins {_pct(a)}, {r} {_pct(b)}.")
        else:
            out.append(f" Its higher mean than {r}'s comes from the {len(both)} opponents both play: "
                       f"against copies of them it wins {_pct(a)} on average, {r} {_pct(b)}.")
    return "".join(out)


def _differences_words(n: int) -> str:
    """The family a leader's "clearly ahead" reads, in words: its mean's paired differences from
    the n other rows', Bonferroni over those n (review 224 ladder)."""
    if n == 1:
        return "its mean's difference from the other's, at 95%"
    return f"its mean's differences from the {n} others' read together, Bonferroni over {n}"


def _paired_lead(mine: dict, best: str, rows: list, alpha: float, k: int) -> bool | None:
    """Whether ``best``'s mean win share over its cells (``mine[row]``) is clearly above every other
    row's: the Student t interval of the per-deal difference of the two rows' means (each deal's
    share averaged over the row's cells, :attr:`Cell.per_deal`), at level 1 − alpha/k (Bonferroni
    over the k = n − 1 differences read, review 224 ladder), lies wholly above 0. The cells of a ladder are played at one seed, so deal d of every cell starts from the
    same random streams: the deals are the independent units and the difference's interval holds
    whatever the cells' correlation. An interval of two intervals that do not overlap (the rule
    before) is far wider: balanced 36.8% against greedy 16.0% (400 games, 4 players) was "not
    clearly above" though the 20.8 pp difference's interval at 1 − 0.05/12 is about ±14 pp (review
    214 #8; the family read is now the n − 1 differences, not the ladder's matchups). None where a cell kept no deals or their counts differ (the caller then reads the
    adjusted intervals), or where a difference has no spread over the deals."""
    cells = [c for r in rows for c in mine[r]]
    if any(c.per_deal is None for c in cells) or len({len(c.per_deal) for c in cells}) != 1:
        return None
    deals = len(cells[0].per_deal)
    if deals < 2:
        return None
    means = {r: np.mean([c.per_deal for c in mine[r]], axis=0) for r in rows}
    q = stats.t_quantile(deals - 1, 1.0 - alpha / max(k, 1))
    for r in rows:
        if r == best:
            continue
        d = means[best] - means[r]
        sd = _spread(float(d.std(ddof=1)))
        if not sd > 0:
            return None
        if not float(d.mean()) - q * sd / math.sqrt(deals) > 0:
            return False
    return True


def lead_bounds(cells: list[Cell], random_bots=(),
                alpha: float = ALPHA) -> tuple[list[tuple[float, float] | None], int]:
    """(per cell of the lead role's table, its adjusted interval or None; m): the Wilson interval
    over the cell's games at level 1 − alpha/m, Bonferroni over the m cells whose column bot does
    not play at random (``random_bots``; every cell where all do), the intervals
    :func:`lead_headline` reads ("read together, every one is at most ..."); None for a cell
    against a bot that plays at random (set apart: no bound read over them)."""
    randoms = set(random_bots)
    plain = {c.opponent for c in cells if c.opponent not in randoms}
    inside = [(c.opponent in plain) if plain else True for c in cells]
    m = sum(inside)
    if not m:
        return [None] * len(cells), 0
    level = 1.0 - alpha / m
    out: list[tuple[float, float] | None] = []
    for c, use in zip(cells, inside):
        if not use:
            out.append(None)
            continue
        lo, hi = stats.wilson(c.win_share * c.games, c.games, level)
        out.append(_share_bounds(float(lo), float(hi)))
    return out, m


def ladder_table(cells: list[Cell], *, game: str, players: int, seed: int,
                 calls: list[str | None] | None = None, family: int | None = None,
                 paired: bool = False, lead: bool = False, random_bots=()) -> pl.DataFrame:
    """One row per cell: game, players, seed, bot, opponent, games, win_share, std_error and
    ci_low, ci_high (95 %, paired by deal for rotated cells and the shared role: :func:`deal_interval`;
    Wilson over independent games for the lead role; each cell's own, unadjusted), fair_share,
    margin_in_se, and (``calls`` given) adjusted_low, adjusted_high (the interval the call reads,
    at 1 − 0.05/k over the ``family`` of k matchups adjusted together, Bonferroni:
    :func:`fair_bounds` for a game whose seats are alike, :func:`paired_fair_bounds` for a shared
    role's cells, ``paired``), call ("above", "below" or empty: the table's ▲ / ▼, "above" exactly
    when adjusted_low lies above fair_share, "below" when adjusted_high lies below it) and
    calls_adjusted_over (k); without calls all four are null. A lead role's table (``lead``, no
    fair share, no calls): adjusted_low and adjusted_high are the intervals its headline reads
    (:func:`lead_bounds`: Wilson's at 1 − 0.05/m over the m cells against the column bots that
    do not play at random, ``random_bots``), calls_adjusted_over m on those rows; call null."""
    if calls is not None and len(calls) != len(cells):
        raise ValueError(f"{len(calls)} calls for {len(cells)} cells")
    if lead and calls is not None:
        raise ValueError("a lead role's cells have no fair share to call against")
    k = None if calls is None else family or len(cells)
    over = [k] * len(cells)
    if lead:
        bounds, m = lead_bounds(cells, random_bots)
        over = [None if b is None else m for b in bounds]
    elif calls is None:
        bounds = [None] * len(cells)
    else:
        bounds = (paired_fair_bounds(cells, family=k) if paired else
                  fair_bounds(cells, players, family=k))
        if [c or None for c in calls] != _called(cells, bounds):
            raise ValueError("calls not read from the adjusted intervals of these cells")
    return pl.DataFrame({
        "game": [game] * len(cells), "players": [players] * len(cells), "seed": [seed] * len(cells),
        "bot": [c.bot for c in cells], "opponent": [c.opponent for c in cells],
        "games": [c.games for c in cells], "win_share": [c.win_share for c in cells],
        "std_error": [c.std_error for c in cells], "ci_low": [c.ci_low for c in cells],
        "ci_high": [c.ci_high for c in cells], "fair_share": [c.fair for c in cells],
        "margin_in_se": [c.margin_in_se for c in cells],
        "adjusted_low": [None if b is None else b[0] for b in bounds],
        "adjusted_high": [None if b is None else b[1] for b in bounds],
        "call": [None] * len(cells) if calls is None else [c or "" for c in calls],
        "calls_adjusted_over": over},
        schema=TABLE_SCHEMA)


#: The columns of :func:`ladder_table`, in order (``balance ladder --out`` adds ``role`` in a game
#: of roles, then ``rules`` and ``settings``: :func:`written_columns`).
TABLE_SCHEMA = {"game": pl.String, "players": pl.Int64, "seed": pl.Int64, "bot": pl.String,
                "opponent": pl.String, "games": pl.Int64, "win_share": pl.Float64,
                "std_error": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
                "fair_share": pl.Float64, "margin_in_se": pl.Float64,
                "adjusted_low": pl.Float64, "adjusted_high": pl.Float64, "call": pl.String,
                "calls_adjusted_over": pl.Int64}

#: The columns the table had before adjusted_low and adjusted_high (``--force`` may replace such
#: a file: it is the same table, written earlier).
EARLIER_COLUMNS = [c for c in TABLE_SCHEMA if c not in ("adjusted_low", "adjusted_high")]


def written_columns(with_roles: bool, earlier: bool = False) -> list[str]:
    """The columns of the table ``balance ladder --out`` writes (``earlier``: wrote before the
    adjusted bounds were added)."""
    return ((EARLIER_COLUMNS if earlier else list(TABLE_SCHEMA)) + (["role"] if with_roles else [])
            + ["rules", "settings"])
