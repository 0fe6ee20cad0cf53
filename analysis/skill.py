"""Balance by search budget (``balance skill``): does a seat's (or role's) advantage persist, grow or
vanish as play gets stronger?

For each budget b (playouts per option of the search bot ``search<b>``, :mod:`strategies.search`;
b = 0 is its playout policy itself, the game's default bot) it plays two parts on the same deals:

* ``one``: one searching seat against the default bots, the searching seat rotated over every seat
  (``games`` split evenly over the seats): the searching seat's win share, per seat and overall,
  and the gain over what the default bot wins in that seat when nobody searches (b = 0);
* ``all``: every seat searching with budget b: each seat's win share with its 95% Wilson
  interval, and the spread (best seat minus worst seat; with roles, the first role's win share).

(Ludii's "skill trace" is a different recipe -- UCT at doubling budgets, a line fitted through the
strong agent's results -- so this figure does not carry that name.) Games are played by the
in-memory runner (:func:`simcore.runner.collect`). Every (budget, part) cell is written to
``<out>/cells/`` as soon as it is played and read back on a second call (resumable): only missing
cells are played. :mod:`analysis.skill_words` reads the trend from the table (reports use it
without importing the runner).

May import numpy, polars, :mod:`simcore` and :mod:`analysis.stats`' neighbours in this package.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from simcore import runner
from simcore.stats import wilson_interval
from analysis.skill_words import advantage, verdict  # noqa: F401  (re-exported)

COLUMNS = ("budget", "part", "seat", "role", "bot", "games", "win_share", "ci_low", "ci_high")


def bot_at(budget: int, policy: str) -> str:
    """The bot of a budget: the policy itself at 0, else the search bot by name."""
    return policy if budget == 0 else f"search{budget}"


def _shares(game: str, players: int, lineup: list[str], games: int, seed: int,
            threads: int | None) -> np.ndarray:
    prep = runner.prepare(game, players=players, strategies=lineup)
    return runner.collect(prep, games=games, seed=seed, threads=threads,
                          columns=("game", "seat", "win_share")).win_shares(players)


def play_cell(game: str, players: int, budget: int, part: str, games: int, *, policy: str,
              roles: tuple[str, ...], seed: int = 0, threads: int | None = None) -> pl.DataFrame:
    """One (budget, part) cell as rows of :data:`COLUMNS` (one per seat)."""
    bot = bot_at(budget, policy)
    rows = []
    if part == "all":
        w = _shares(game, players, [bot] * players, games, seed, threads)
        for s in range(players):
            m = float(w[:, s].mean())
            lo, hi = wilson_interval(m, len(w))
            rows.append((budget, part, s, roles[s], bot, len(w), m, lo, hi))
    else:
        per_seat = max(1, -(-games // players))
        for s in range(players):
            lineup = [policy] * players
            lineup[s] = bot
            w = _shares(game, players, lineup, per_seat, seed, threads)[:, s]
            m = float(w.mean())
            lo, hi = wilson_interval(m, len(w))
            rows.append((budget, part, s, roles[s], bot, len(w), m, lo, hi))
    return pl.DataFrame(rows, schema=list(COLUMNS), orient="row")


def balance_by_budget(game: str, players: int, budgets: list[int], games: int, out: Path, *,
                      policy: str, roles: tuple[str, ...], seed: int = 0,
                      threads: int | None = None, progress=None) -> pl.DataFrame:
    """Every (budget, part) cell, played or read back from ``out/cells``; the whole table."""
    cells = out / "cells"
    cells.mkdir(parents=True, exist_ok=True)
    todo = [(b, part) for b in budgets for part in ("one", "all")]
    frames = []
    for k, (b, part) in enumerate(todo):
        f = cells / f"budget{b}_{part}.parquet"
        if f.exists():
            frames.append(pl.read_parquet(f))
            continue
        if progress is not None:
            progress(f"budget {b}: {'one searching seat' if part == 'one' else 'every seat searching'}",
                     k, len(todo))
        df = play_cell(game, players, b, part, games, policy=policy, roles=roles, seed=seed,
                       threads=threads)
        tmp = f.with_suffix(".tmp")
        df.write_parquet(tmp)
        tmp.replace(f)
        frames.append(df)
    return pl.concat(frames).sort(["budget", "part", "seat"])
