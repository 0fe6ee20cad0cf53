"""Balance by search budget (``balance skill``): does a seat's (or role's) advantage persist, grow or
vanish as play gets stronger?

It plays a panel (:mod:`strategies.panels`: one or more cells, each a player count and a line-up;
one line-up is a panel of one cell). For each cell and each budget b (playouts per option of the
search bot, :mod:`strategies.search`; b = 0 is the line-up itself) it plays two parts on the same
deals:

* ``one``: one searching seat against the cell's bots, the searching seat rotated over every seat
  (``games`` split evenly over the seats): the searching seat's win share, per seat and overall,
  against what the cell's own bot wins in that seat when nobody searches (b = 0);
* ``all``: every seat searching with budget b: each seat's win share with its 95% Wilson
  interval, and the Balance figures of the budget with their 95% intervals (:func:`balance_figures`:
  Ludii's Balance on rank credits and the win-share balance, 1 minus the largest gap between two
  seats' win shares, both from simultaneous intervals on every pair of seats,
  :func:`analysis.seats.balance_interval`, on the games and z²/2 pseudo-games won by each seat:
  :func:`gap_interval`), on every seat's row of the part. In a game with roles (Seigneurial) the
  seats are not meant to win alike: no seat-balance index, but the largest gap between two seats
  of the role several seats play (the Censitaires), with its 95% interval (:func:`role_gap`).
  The table published (:func:`balance_by_budget`) says the level of each interval beside it:
  ``adjusted_level`` where the ``_adjusted`` interval is filled, ``role_gap_level`` where the
  role gap's is (:func:`with_interval_levels`).

Every interval holds at the few games a quick look plays (``--games 10``): a seat's win share gets
Wilson's interval with Brown, Cai & DasGupta's ends (:func:`seat_interval`, never (0, 0) for no
win), the gaps the pseudo-games (Agresti and Coull's for two seats; without them 10 games won 10 to
0 gave a gap interval of zero width, and 8 to 2 a seat advantage that an exact test does not show).
Coverage at 10 to 40 games is measured in tests/analysis/test_skill_small_counts.py.

A seat's search bot plays its own bot in the playouts (its ``policy``): ``search<b>`` for the
game's default bot, else ``search<b>-<bot>``, written to ``<out>/search_bots.toml`` (a preset can be
a policy; a bot from a file of one's own cannot, nor a bot that searches already).

(Ludii's "skill trace" is a different recipe -- UCT at doubling budgets, a line fitted through the
strong agent's results -- so this figure does not carry that name.) Games are played by the
in-memory runner (:func:`simcore.runner.collect`). Every (cell, budget, part) is written to
``<out>/cells/`` as soon as it is played and read back on a second call (resumable): only missing
ones are played, and each part read back is checked first (:func:`read_part`: one that is damaged,
of another budget, part or cell, or of another question is played again). The budgets whose
parts are all there (:func:`budgets_on_disk`) stay in the directory's answer when a later call of
the same question names fewer of them. A part written before
the pseudo-games is not mixed with today's: an every-seat
part is played again, a one-seat part keeps its shares and gets its seats' intervals made again.
:mod:`analysis.skill_words` reads the trend from the table (reports use it without importing the
runner).

May import numpy, polars, pyarrow, :mod:`simcore`, :mod:`strategies` and :mod:`analysis.seats`,
:mod:`analysis.stats`, :mod:`analysis.skill_words` and :mod:`analysis.load`'s seat labels in this
package.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from simcore import runner
from simcore.atomic import PUBLISHED
from analysis.load import with_seat_label
from analysis.seats import balance_interval, ludii_credit
from analysis.stats import wilson, z_quantile
from analysis.skill_words import (  # noqa: F401  (re-exported)
    BALANCE_COLUMNS, FAMILY_LEVEL, LEVEL_COLUMN, ROLE_GAP_COLUMNS, advantage, family_level,
    has_balance, several_seats_role, verdict,
)

COLUMNS = ("cell", "players", "budget", "part", "seat", "role", "bot", "games", "win_share",
           "ci_low", "ci_high") + BALANCE_COLUMNS + (LEVEL_COLUMN,) + ROLE_GAP_COLUMNS
BOTS_FILE = "search_bots.toml"


def bot_at(budget: int, policy: str, default: str | None = None, bots_file: Path | None = None) -> str:
    """The bot of a seat played by ``policy`` at a budget: the policy itself at 0; the search bot
    by name (``search<b>``) for the game's default bot; else ``search<b>-<policy>`` of the
    line-up's search-bot file."""
    if budget == 0:
        return policy
    if default is None or policy == default or bots_file is None:
        return f"search{budget}"
    return f"{bots_file}:search{budget}-{policy}"


def _policy_bots(game: str, panel) -> list[str]:
    """The panel's seat bots other than the game's default: each needs a search bot of its own."""
    from simcore import games as registry

    return sorted({b for c in panel.cells for b in c.lineup} - {registry.get(game).default_strategy})


def _search_bots_text(bots: list[str], budgets: list[int]) -> str:
    """The text of ``search_bots.toml``: a search bot per (budget > 0, bot), its policy that bot."""
    return "".join(f'[search{n}-{b}]\nkind = "search"\nplayouts = {n}\npolicy = "{b}"\n'
                   f'description = "Search, {n} playouts per option, playouts by {b}."\n\n'
                   for b in bots for n in budgets if n > 0)


def check_search_bots(game: str, panel) -> None:
    """One :class:`UsageError` line when a seat bot of the panel cannot be the playout policy of
    its search bot (a bot from a file of one's own, one that searches already, Middle-Ages'
    ``rollout``). Writes nothing where the user looks (the search bots are validated in a
    temporary directory), so ``balance skill`` calls it before it claims ``--out``: a refused line-up
    leaves no question behind that the corrected command would then be refused by."""
    import importlib
    import tempfile

    from simcore import games as registry
    from simcore.errors import ConfigError, UsageError

    from strategies.search import BY_BUDGET

    bots = _policy_bots(game, panel)
    for b in bots:
        # a search bot by name (searchN) in the line-up: said as such (review s42 B #3: "unknown
        # bot 'search4'; did you mean search16?", and search16 was then refused for another reason)
        if BY_BUDGET.fullmatch(b.strip()):
            default = registry.get(game).default_strategy
            raise UsageError(f"balance skill: seat bot {b!r} is a search bot already; give the bots "
                             f"it searches with (e.g. --strategies {default}): --budgets sets how "
                             "hard it searches")
        if ":" in b or "/" in b or b.endswith(".toml"):
            raise UsageError(f"balance skill: seat bot {b!r} comes from a file; the search bot's playout "
                             "policy must be one of the game's presets")
    if not bots:
        return
    loader = importlib.import_module(registry.get(game).strategies)
    with tempfile.TemporaryDirectory() as tmp:
        for b in bots:
            path = Path(tmp) / BOTS_FILE
            path.write_text(_search_bots_text([b], [1]))
            try:
                loader.load_file(path)
            except ConfigError as e:
                raise UsageError(f"balance skill: seat bot {b!r} cannot play the search bot's playouts "
                                 f"({e.problem})") from None


def write_search_bots(game: str, panel, budgets: list[int], out: Path) -> Path:
    """``<out>/search_bots.toml``: a search bot per (budget, bot of the panel other than the
    game's default), its policy that bot; checked first (:func:`check_search_bots`: a bot that
    cannot be a playout policy, or one from a file of one's own, is one :class:`UsageError`)."""
    check_search_bots(game, panel)
    text = _search_bots_text(_policy_bots(game, panel), budgets)
    path = out / BOTS_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text or "# every seat plays the game's default bot\n")
    tmp.replace(path)
    return path


def _shares(game: str, players: int, lineup: list[str], games: int, seed: int,
            threads: int | None, rules=None, settings=()) -> tuple[np.ndarray, np.ndarray]:
    """(win shares, ranks), each games x seats, of ``games`` games of the line-up, under ``rules``
    (a rules file; ``None``: the shipped rules) with the rule ``settings`` (``--set``)."""
    prep = runner.prepare(game, players=players, strategies=lineup, rules=rules, settings=settings)
    played = runner.collect(prep, games=games, seed=seed, threads=threads,
                            columns=("game", "seat", "win_share", "rank"), statistics=False)
    rank = np.asarray(played.players["rank"], np.float64).reshape(-1, players)
    return played.win_shares(players), rank


def seat_interval(win_share: float, games: int, level: float = 0.95) -> tuple[float, float]:
    """A seat's win share over ``games`` games with its interval at ``level``: Wilson's, with
    Brown, Cai & DasGupta's ends (:func:`analysis.stats.wilson`; shared wins count as fractions
    of a win). The plain score interval that was here covers a true share near 0.1 / games in only
    ~84% of samples; this one in at least 92% there, and at 10 to 40 games and shares of 0.1 to
    0.5 in 95.3% on average, at least 91.4% (the jumps of a few games' counts, which no
    approximate interval escapes; tests/analysis/test_skill_small_counts.py)."""
    low, high = wilson(win_share * games, games, level)
    return float(low), float(high)


def pseudo_games(level: float) -> float:
    """How many pseudo-games each seat wins in :func:`gap_interval` at ``level``: z²/2, z the
    level's normal quantile (1.92 at 95%, 2.51 at 97.5%), Agresti and Coull's count: with two seats
    the gap's interval is then exactly twice their interval for seat 1's share, minus 1."""
    return z_quantile(level) ** 2 / 2


def gap_interval(x: np.ndarray, pseudo: np.ndarray, level: float) -> tuple[float, float]:
    """The ``level`` interval of 1 minus the largest gap between two seats' means of ``x`` (games x
    seats: win shares, or Ludii's rank credits), from simultaneous intervals on every pair of seats
    (:func:`analysis.seats.balance_interval`) on the games and :func:`pseudo_games` more games of
    each row of ``pseudo`` (seats x seats: the row of the pseudo-game seat s wins), the covariance
    that of their weighted mean (Agresti and Coull's plug-in, p(1 - p) / n with n the games and
    pseudo-games together).

    Every seat searches in the same games, so each pair's gap is a difference of paired shares;
    the normal interval on the games alone (Wald's) has zero width when a seat wins every game or
    two seats none, and covers a 10-game gap of 80 pp in 65% of samples (tests). With the
    pseudo-games two seats' gap is Agresti and Coull's interval (scaled: gap = 2 x share - 1), and
    a pair of several seats' is near Bonett and Price's paired interval (2012: one pseudo-game won
    by each seat of the pair; here z²/2 each, and z²/2 for each other seat that neither wins).
    One set of pseudo-games for all seats keeps the covariance of every pair's gap a covariance,
    so the simultaneous critical value stays valid. Their mean shrinks toward equal shares, so the
    estimate stays the games' own (:func:`balance_figures`) and only the interval uses them."""
    a = pseudo_games(level)
    w = np.concatenate([np.ones(x.shape[0]), np.full(pseudo.shape[0], a)])
    rows = np.vstack([x, pseudo])
    n = w.sum()
    p = (w @ rows) / n
    centred = rows - p
    cov = (centred.T * w) @ centred / n / n
    return balance_interval(p, cov, level)


def balance_figures(win_share: np.ndarray, rank: np.ndarray,
                    family: float = FAMILY_LEVEL) -> tuple[float, ...]:
    """The Balance figures of games x seats win shares and ranks, as :data:`BALANCE_COLUMNS`:
    Ludii's Balance (1 minus the largest gap between two seats' mean rank credits,
    :func:`analysis.seats.ludii_credit`) and the win-share balance (1 minus the largest gap between
    two seats' win shares), each with its 95% interval (:func:`gap_interval`: simultaneous
    intervals on every pair of seats, on the games and pseudo-games won by each seat, the others
    tied behind; coverage measured in tests/analysis/test_balance_coverage.py and, at 10 to 40
    games, tests/analysis/test_skill_small_counts.py), then the win-share balance's interval at
    ``family`` (the sentence's: :data:`analysis.skill_words.FAMILY_LEVEL` for one cell,
    :func:`analysis.skill_words.family_level` for a panel). NaN for fewer than two games."""
    x_share = np.asarray(win_share, np.float64)
    seats = x_share.shape[1]
    won = np.eye(seats)                                  # pseudo-game s: seat s wins, ...
    behind = np.where(won > 0, 1.0, 2.0)                 # ... the others share the places behind
    out: list[float] = []
    for x, pseudo, levels in ((ludii_credit(rank), ludii_credit(behind), (0.95,)),
                              (x_share, won, (0.95, family))):
        n = x.shape[0]
        p = x.mean(axis=0)
        out.append(float(1.0 - (p.max() - p.min())) if n else float("nan"))
        for level in levels:
            out += (float("nan"), float("nan")) if n < 2 else gap_interval(x, pseudo, level)
    return tuple(out)


# The level of the role gap's interval (:func:`role_gap`), written beside it in the published
# table (:func:`with_interval_levels`) as ``adjusted_level`` is beside the adjusted interval.
ROLE_GAP_LEVEL = 0.95
ROLE_GAP_LEVEL_COLUMN = "role_gap_level"


def role_gap(win_share: np.ndarray, roles) -> tuple[float | None, ...]:
    """In a game with roles, the largest gap between two seats of the role several seats play
    (:func:`analysis.skill_words.several_seats_role`: Seigneurial's Censitaires) in games x seats
    win shares, with its interval at :data:`ROLE_GAP_LEVEL` (95%) simultaneous over that role's
    pairs of seats (:func:`gap_interval` on those seats' columns, a pseudo-game won by each), as
    :data:`ROLE_GAP_COLUMNS`; None for each without such a role (seats alike: the seat gap is the
    win-share balance) and NaN for the interval of fewer than two games."""
    role = several_seats_role(roles)
    if role is None:
        return (None,) * len(ROLE_GAP_COLUMNS)
    x = np.asarray(win_share, np.float64)[:, role[1]]
    if x.shape[0] == 0:
        return (float("nan"),) * 3
    p = x.mean(axis=0)
    gap = float(p.max() - p.min())
    if x.shape[0] < 2:
        return gap, float("nan"), float("nan")
    low, high = gap_interval(x, np.eye(x.shape[1]), ROLE_GAP_LEVEL)      # of 1 minus the gap
    return gap, 1.0 - high, 1.0 - low


def with_interval_levels(table: pl.DataFrame) -> pl.DataFrame:
    """The table as ``skill.csv`` and ``skill.parquet`` publish it: beside each interval it holds,
    the level that interval is at, and no level where it holds none (review N #9: every row of a
    Seigneurial table said ``adjusted_level`` 0.975, with no ``_adjusted`` interval filled, beside
    a role gap at 95%). ``adjusted_level`` (:data:`LEVEL_COLUMN`) stays on the rows whose
    ``win_share_balance_low_adjusted`` is filled and is emptied on the others;
    ``role_gap_level`` (:data:`ROLE_GAP_LEVEL`) is added, filled where ``role_gap_low`` is. The
    parts in ``cells/`` keep the level they were played at (a resume compares it). ``seat_label``
    ("Seat 1") follows ``seat`` (0-based), as in the seats export, to match the pages."""
    adjusted = pl.col("win_share_balance_low_adjusted").is_not_null()
    table = with_seat_label(table)
    return table.with_columns(
        pl.when(adjusted).then(pl.col(LEVEL_COLUMN)).otherwise(None).cast(pl.Float64).alias(LEVEL_COLUMN),
        pl.when(pl.col("role_gap_low").is_not_null()).then(pl.lit(ROLE_GAP_LEVEL))
        .otherwise(None).cast(pl.Float64).alias(ROLE_GAP_LEVEL_COLUMN))


def play_cell(game: str, players: int, budget: int, part: str, games: int, *, lineup=None,
              policy: str | None = None, roles: tuple[str, ...], seed: int = 0,
              threads: int | None = None, default: str | None = None,
              bots_file: Path | None = None, label: str = "",
              family: float = FAMILY_LEVEL, rules=None, settings=()) -> pl.DataFrame:
    """One (cell, budget, part) as rows of :data:`COLUMNS` (one per seat). ``lineup``: the cell's
    bot per seat (or ``policy`` at every seat); ``family``: the level of the ``_adjusted``
    interval (:func:`balance_figures`); ``rules`` and ``settings``: the rules every game is
    played under (default: the shipped rules). In a game with roles (``roles`` not all alike) the
    ``all`` part records no seat-balance index (:data:`BALANCE_COLUMNS` null: a Seigneur's and a
    Censitaire's shares differ by design) but the gap within the role of several seats
    (:func:`role_gap`)."""
    base = list(lineup) if lineup is not None else [policy] * players
    searching = [bot_at(budget, b, default, bots_file) for b in base]
    label = label or f"{players}p " + ",".join(base)
    rows = []
    if part == "all":
        w, rank = _shares(game, players, searching, games, seed, threads, rules, settings)
        with_roles = len(set(roles[:players])) > 1
        figures = (None,) * len(BALANCE_COLUMNS) if with_roles else balance_figures(w, rank, family)
        within = role_gap(w, roles[:players])
        for s in range(players):
            m = float(w[:, s].mean())
            lo, hi = seat_interval(m, len(w))
            rows.append((label, players, budget, part, s, roles[s], searching[s], len(w), m, lo, hi,
                         *figures, family, *within))
    else:
        per_seat = max(1, -(-games // players))
        for s in range(players):
            lu = list(base)
            lu[s] = searching[s]
            w = _shares(game, players, lu, per_seat, seed, threads, rules, settings)[0][:, s]
            m = float(w.mean())
            lo, hi = seat_interval(m, len(w))
            rows.append((label, players, budget, part, s, roles[s], searching[s], len(w), m, lo, hi,
                         *(None,) * (len(BALANCE_COLUMNS) + 1 + len(ROLE_GAP_COLUMNS))))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


# The record, in a part's parquet metadata, of how its gap intervals were made (gap_interval); a
# part without it was written with intervals on its games alone, and its every-seat part is played
# again on a resume rather than mixed with today's.
GAP_INTERVAL_KEY = b"balance_skill_gap_interval"
GAP_INTERVAL = b"simultaneous over the pairs of seats, z^2/2 pseudo-games won by each seat"


# The record, in a part's parquet metadata, of the question it answers (:func:`question_digest`
# of ``balance skill``'s question: game, panel, games, seed, rules ...): a part copied from another
# skill directory is told from this one's own.
QUESTION_KEY = b"balance_skill_question"


def question_digest(question: dict | None) -> bytes | None:
    """The sha256 (hex, as bytes) of a ``balance skill`` question, recorded in each of its parts."""
    import hashlib
    import json

    if question is None:
        return None
    text = json.dumps(question, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest().encode()


def _write_part(df: pl.DataFrame, path: Path, digest: bytes | None = None) -> None:
    """A (cell, budget, part) to ``path``, with the record of its gap intervals' method and of the
    question it answers (``digest``: :func:`question_digest`)."""
    import pyarrow.parquet as pq

    table = df.to_arrow()
    pq.write_table(table.replace_schema_metadata({**(table.schema.metadata or {}),
                                                  GAP_INTERVAL_KEY: GAP_INTERVAL,
                                                  **({QUESTION_KEY: digest} if digest else {})}), path)


#: The columns every part of every version of balance skill holds.
PART_COLUMNS = ("cell", "players", "budget", "part", "seat", "role", "bot", "games", "win_share",
                "ci_low", "ci_high")
_PART_WORDS = {"one": "one-searching-seat", "all": "every-seat"}


def read_part(path: Path, label: str, players: int, budget: int, part: str, games: int,
              digest: bytes | None = None) -> tuple[pl.DataFrame | None, str | None]:
    """The part at ``path`` if it is the (cell ``label`` of ``players`` seats, ``budget``,
    ``part``) of ``games`` games it stands for: (its rows, None); else (None, why not, in a few
    words): it cannot be read (cut short, not parquet), it lacks a column of every part, its rows
    hold another cell, budget, part, player count or number of games (another part copied over it),
    or it records another question than ``digest`` (a part of another skill directory). A part
    written before the question was recorded is judged by its rows alone."""
    import pyarrow.parquet as pq

    try:
        df = pl.read_parquet(path)
        meta = pq.read_schema(path).metadata or {}
    except Exception:           # truncated, not parquet, unreadable: a part this call cannot use
        return None, "cannot be read (damaged or cut short)"
    missing = [c for c in PART_COLUMNS if c not in df.columns]
    if df.height == 0:
        return None, "holds no rows"
    if missing:
        return None, f"is not a balance skill part (no {missing[0]} column)"
    try:
        found = {c: sorted(set(df[c].to_list())) for c in ("cell", "players", "budget", "part")}
        seats = sorted(int(x) for x in df["seat"].to_list())
        counts = set(int(x) for x in df["games"].to_list())
    except (TypeError, ValueError):
        return None, "is not a balance skill part (a column of another type)"
    want = {"cell": [label], "players": [players], "budget": [budget], "part": [part]}
    if found != want:
        b, p = found["budget"], found["part"]
        what = (f"budget {b[0]}'s {_PART_WORDS.get(p[0], str(p[0]))} part" if len(b) == 1 and len(p) == 1
                else "rows of other parts")
        if found["cell"] != want["cell"] and len(found["cell"]) == 1:
            what += f" of {found['cell'][0]}"
        return None, f"holds {what}, not budget {budget}'s {_PART_WORDS[part]} part" + (
            f" of {label}" if found["cell"] != want["cell"] else "")
    per_seat = games if part == "all" else max(1, -(-games // players))
    if seats != list(range(players)) or counts != {per_seat}:
        return None, (f"holds {len(seats)} seat rows of {', '.join(map(str, sorted(counts)))} games, "
                      f"not {players} of {per_seat}")
    theirs = meta.get(QUESTION_KEY)
    if digest is not None and theirs is not None and theirs != digest:
        return None, "answers another question (another skill directory's part)"
    return df, None


_PART_NAME = r"(?:cell([0-9]+)_)?budget([0-9]+)_(one|all)\.parquet"


def budgets_on_disk(out: Path, panel, games: int, question: dict | None = None) -> list[int]:
    """The budgets of which every part (both parts of every cell of ``panel``) is in
    ``out/cells`` and answers this question (:func:`read_part`: readable, its rows of that cell,
    budget, part, seats and ``games``, and the ``question`` it records), sorted. A call of the same
    question with other ``--budgets`` keeps them in its answer: a budget played earlier is part of
    the directory's answer until the directory is replaced, never dropped because a later call did
    not name it. A budget with a part missing or not of this question is not counted (its files
    are left as they are). Reads only; says nothing."""
    import re

    cells = out / "cells"
    if not cells.is_dir():
        return []
    many = len(panel.cells) > 1
    found: set[int] = set()
    for f in cells.iterdir():
        m = re.fullmatch(_PART_NAME, f.name)
        if m is not None and (m.group(1) is not None) == many:
            found.add(int(m.group(2)))
    digest = question_digest(question)
    kept = []
    for b in sorted(found):
        if all(read_part(_part_path(cells, k, b, part, len(panel.cells)), c.label, c.players, b, part,
                         games, digest)[0] is not None
               for k, c in enumerate(panel.cells) for part in ("one", "all")):
            kept.append(b)
    return kept


def _gap_intervals_of_now(path: Path) -> bool:
    """Whether the part at ``path`` records today's gap intervals (:data:`GAP_INTERVAL`)."""
    import pyarrow.parquet as pq

    return (pq.read_schema(path).metadata or {}).get(GAP_INTERVAL_KEY) == GAP_INTERVAL


def _seat_intervals(part: pl.DataFrame) -> pl.DataFrame:
    """The part with every seat's interval made again from its win share and games
    (:func:`seat_interval`)."""
    ends = [seat_interval(m, n) for m, n in zip(part["win_share"], part["games"])]
    return part.with_columns(pl.Series("ci_low", [e[0] for e in ends], pl.Float64),
                             pl.Series("ci_high", [e[1] for e in ends], pl.Float64))


SCHEMA = {c: (pl.Utf8 if c in ("cell", "part", "role", "bot") else pl.Int64
              if c in ("players", "budget", "seat", "games") else pl.Float64) for c in COLUMNS}


def _part_path(cells: Path, k: int, budget: int, part: str, n_cells: int) -> Path:
    return cells / (f"budget{budget}_{part}.parquet" if n_cells == 1 else
                    f"cell{k}_budget{budget}_{part}.parquet")


def _kept_part(f: Path, c, b: int, part: str, games: int, digest, family: float, roles_of, say
               ) -> pl.DataFrame | None:
    """The part at ``f`` as today's rows (:data:`COLUMNS`) if it can be kept, else None (missing,
    damaged or of another question: said, ``say``; or written before today's figures)."""
    old, why = (read_part(f, c.label, c.players, b, part, games, digest) if f.exists()
                else (None, None))
    if why is not None:
        say(f"skill: {f} {why}; playing it again")
    if old is None:
        return None
    with_roles = len(set(roles_of(c.players))) > 1
    if part == "one" or not with_roles:
        # written before the gap within a role: a one-seat part has none, nor one of seats
        # alike; an every-seat part of a game with roles is played again (below)
        old = old.with_columns([pl.lit(None, pl.Float64).alias(k) for k in ROLE_GAP_COLUMNS
                                if k not in old.columns])
    if part == "one":
        # written before the Balance figures or their level: a one-seat part has none, so
        # it is complete; its seats' intervals follow from their shares and games, so one
        # written with the plain score interval gets today's (seat_interval)
        old = old.with_columns([pl.lit(None, pl.Float64).alias(k) for k in
                                BALANCE_COLUMNS + (LEVEL_COLUMN,) if k not in old.columns])
        old = _seat_intervals(old)
    elif has_balance(old) and LEVEL_COLUMN not in old.columns and family == FAMILY_LEVEL:
        # written before the level was recorded: one cell's intervals were at FAMILY_LEVEL
        old = old.with_columns(pl.lit(FAMILY_LEVEL, pl.Float64).alias(LEVEL_COLUMN))
    if has_balance(old) and LEVEL_COLUMN in old.columns and (
            part == "one" or (old[LEVEL_COLUMN].eq(family).all() and _gap_intervals_of_now(f)
                              and all(k in old.columns for k in ROLE_GAP_COLUMNS))):
        return old.select(list(COLUMNS))
    # else an every-seat part without the figures, read at another level, with the gap
    # intervals on its games alone (before the pseudo-games), or of a game with roles
    # without the gap within its role: played again
    return None


def part_seconds_left(timed: dict, left: list[tuple[int, str, int]]) -> float | None:
    """An honest estimate of the seconds the parts ``left`` (budget, part, games) take, from the
    parts timed in this call (``timed``: (part, budget) -> seconds per game), or None when one of
    them cannot be estimated. A part's cost grows with its budget (the playouts per option) and
    differs between the two parts (one seat searching, or every seat): a part is estimated from a
    timed part of its own kind, at its own budget, or for a budget above 0 at the largest timed
    budget below it, scaled up in proportion to the budgets (a search's time is about a constant
    plus a part proportional to the playouts, so this errs long, not short); budget 0 (the bots
    themselves) only from budget 0. Parts read back from an earlier call, which took no time here,
    never enter it (their "0 s" made a resumed run claim about 1 s left before an 8 s part)."""
    total = 0.0
    for b, part, games in left:
        rate = timed.get((part, b))
        if rate is None and b > 0:
            below = [x for (p, x) in timed if p == part and 0 < x < b]
            if below:
                rate = timed[(part, max(below))] * b / max(below)
        if rate is None:
            return None
        total += rate * games
    return total


def balance_by_budget(game: str, players: int | None, budgets: list[int], games: int, out: Path, *,
                      policy: str | None = None, roles=None, panel=None, seed: int = 0,
                      threads: int | None = None, progress=None, rules=None,
                      settings=(), question: dict | None = None, say=None, plan=None) -> pl.DataFrame:
    """Every (cell, budget, part), played or read back from ``out/cells``; the whole table, with the
    level of each of its intervals beside it (:func:`with_interval_levels`).
    ``panel`` (:class:`strategies.panels.Panel`), or one line-up of ``policy`` at every seat of
    ``players`` seats. ``roles``: a tuple of seat roles, or a function of the player count.
    ``rules`` (a rules file) and ``settings`` (``--set``): the rules of every game (default: the
    shipped rules; a tune's ``best_rules.toml`` asks whether its fix holds as play gets
    stronger). The cells read back are the caller's to match to these rules (``balance skill``
    records the rules' sha256 in its question and refuses an ``out`` of other rules).

    Each part read back is checked first (:func:`read_part`): one that cannot be read, holds
    another cell, budget, part or number of games (a file copied over it), or records another
    ``question`` (``balance skill``'s, recorded in every part it writes) is played again, with one
    line saying so (``say``; default: stderr).

    Every part is checked before the first game is played: ``plan(kept, total)`` is then told how
    many parts are kept (read back) of how many, and ``progress(text, done, total, parts)`` before
    each part played, with ``done`` of the ``total`` parts this call plays and ``parts`` those parts
    in order as (budget, part, games) (:func:`part_seconds_left` estimates their time)."""
    import sys

    say = say or (lambda line: print(line, file=sys.stderr))
    digest = question_digest(question)
    from simcore import games as registry
    from strategies.panels import Cell, Panel

    spec = registry.get(game)
    if panel is None:
        panel = Panel(game, "single", (Cell(players, (policy,) * players),))
    roles_of = roles if callable(roles) else (lambda p: roles) if roles is not None else spec.seat_roles
    cells = out / "cells"
    cells.mkdir(parents=True, exist_ok=True)
    bots_file = write_search_bots(game, panel, budgets, out)
    # every cell's sentence reads two budgets: the gap intervals are read at the level that keeps
    # the claims of all the panel's cells at 95% together
    family = family_level(len(panel.cells))
    todo = [(k, c, b, part) for k, c in enumerate(panel.cells) for b in budgets
            for part in ("one", "all")]
    frames, play = {}, []
    # first every part on disk is read back and checked, so that what is kept and what is left to
    # play are known (and said, ``plan``) before the first game
    for i, (k, c, b, part) in enumerate(todo):
        f = _part_path(cells, k, b, part, len(panel.cells))
        kept = _kept_part(f, c, b, part, games, digest, family, roles_of, say)
        if kept is not None:
            frames[i] = kept
        else:
            play.append(i)
    if plan is not None:
        plan(len(todo) - len(play), len(todo))
    for j, i in enumerate(play):
        k, c, b, part = todo[i]
        f = _part_path(cells, k, b, part, len(panel.cells))
        if progress is not None:
            # at budget 0 nobody searches: the line-up's own bots (review s58 #10: "budget 0: every
            # seat searching")
            what = ({"one": "no seat searches, each seat's own bot in turn",
                     "all": "no seat searches, every seat plays its own bot"} if b == 0 else
                    {"one": "one searching seat", "all": "every seat searching"})[part]
            progress(f"{c.label if len(panel.cells) > 1 else ''} budget {b}: {what}".strip(), j,
                     len(play), [(todo[x][2], todo[x][3], games) for x in play])
        df = play_cell(game, c.players, b, part, games, lineup=c.lineup, roles=roles_of(c.players),
                       seed=seed, threads=threads, default=spec.default_strategy,
                       bots_file=bots_file, label=c.label, family=family, rules=rules,
                       settings=settings)
        tmp = f.with_suffix(".tmp")
        _write_part(df, tmp, digest)
        tmp.replace(f)
        PUBLISHED.append(f)          # an interruption's line says a part was kept, not "nothing"
        frames[i] = df
    frames = [frames[i] for i in sorted(frames)]
    order = {c.label: k for k, c in enumerate(panel.cells)}
    t = pl.concat(frames)
    return with_interval_levels(
        t.with_columns(pl.col("cell").replace_strict(order, return_dtype=pl.Int64).alias("_k"))
        .sort(["_k", "budget", "part", "seat"]).drop("_k"))
