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
  :func:`analysis.seats.balance_interval`), on every seat's row of the part.

A seat's search bot plays its own bot in the playouts (its ``policy``): ``search<b>`` for the
game's default bot, else ``search<b>-<bot>``, written to ``<out>/search_bots.toml`` (a preset can be
a policy; a bot from a file of one's own cannot, nor a bot that searches already).

(Ludii's "skill trace" is a different recipe -- UCT at doubling budgets, a line fitted through the
strong agent's results -- so this figure does not carry that name.) Games are played by the
in-memory runner (:func:`simcore.runner.collect`). Every (cell, budget, part) is written to
``<out>/cells/`` as soon as it is played and read back on a second call (resumable): only missing
ones are played. :mod:`analysis.skill_words` reads the trend from the table (reports use it
without importing the runner).

May import numpy, polars, :mod:`simcore`, :mod:`strategies` and :mod:`analysis.seats`,
:mod:`analysis.skill_words` in this package.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl

from simcore import runner
from simcore.atomic import PUBLISHED
from simcore.stats import wilson_interval
from analysis.skill_words import (  # noqa: F401  (re-exported)
    BALANCE_COLUMNS, FAMILY_LEVEL, LEVEL_COLUMN, advantage, family_level, has_balance, verdict,
)

COLUMNS = ("cell", "players", "budget", "part", "seat", "role", "bot", "games", "win_share",
           "ci_low", "ci_high") + BALANCE_COLUMNS + (LEVEL_COLUMN,)
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

    bots = _policy_bots(game, panel)
    for b in bots:
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


def balance_figures(win_share: np.ndarray, rank: np.ndarray,
                    family: float = FAMILY_LEVEL) -> tuple[float, ...]:
    """The Balance figures of games x seats win shares and ranks, as :data:`BALANCE_COLUMNS`:
    Ludii's Balance (1 minus the largest gap between two seats' mean rank credits,
    :func:`analysis.seats.ludii_credit`) and the win-share balance (1 minus the largest gap between
    two seats' win shares), each with the 95% interval of :func:`analysis.seats.balance_interval`
    (simultaneous intervals on every pair of seats; coverage measured in
    tests/analysis/test_balance_coverage.py), then the win-share balance's interval at ``family``
    (the sentence's: :data:`analysis.skill_words.FAMILY_LEVEL` for one cell,
    :func:`analysis.skill_words.family_level` for a panel). NaN for fewer than two games."""
    from analysis.seats import balance_interval, ludii_credit

    out: list[float] = []
    for x, levels in ((ludii_credit(rank), (0.95,)),
                      (np.asarray(win_share, np.float64), (0.95, family))):
        n = x.shape[0]
        p = x.mean(axis=0)
        out.append(float(1.0 - (p.max() - p.min())) if n else float("nan"))
        cov = np.cov(x, rowvar=False, ddof=1) / n if n >= 2 else None
        for level in levels:
            out += (float("nan"), float("nan")) if cov is None else balance_interval(p, cov, level)
    return tuple(out)


def play_cell(game: str, players: int, budget: int, part: str, games: int, *, lineup=None,
              policy: str | None = None, roles: tuple[str, ...], seed: int = 0,
              threads: int | None = None, default: str | None = None,
              bots_file: Path | None = None, label: str = "",
              family: float = FAMILY_LEVEL, rules=None, settings=()) -> pl.DataFrame:
    """One (cell, budget, part) as rows of :data:`COLUMNS` (one per seat). ``lineup``: the cell's
    bot per seat (or ``policy`` at every seat); ``family``: the level of the ``_adjusted``
    interval (:func:`balance_figures`); ``rules`` and ``settings``: the rules every game is
    played under (default: the shipped rules)."""
    base = list(lineup) if lineup is not None else [policy] * players
    searching = [bot_at(budget, b, default, bots_file) for b in base]
    label = label or f"{players}p " + ",".join(base)
    rows = []
    if part == "all":
        w, rank = _shares(game, players, searching, games, seed, threads, rules, settings)
        figures = balance_figures(w, rank, family)
        for s in range(players):
            m = float(w[:, s].mean())
            lo, hi = wilson_interval(m, len(w))
            rows.append((label, players, budget, part, s, roles[s], searching[s], len(w), m, lo, hi,
                         *figures, family))
    else:
        per_seat = max(1, -(-games // players))
        for s in range(players):
            lu = list(base)
            lu[s] = searching[s]
            w = _shares(game, players, lu, per_seat, seed, threads, rules, settings)[0][:, s]
            m = float(w.mean())
            lo, hi = wilson_interval(m, len(w))
            rows.append((label, players, budget, part, s, roles[s], searching[s], len(w), m, lo, hi,
                         *(None,) * (len(BALANCE_COLUMNS) + 1)))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row")


SCHEMA = {c: (pl.Utf8 if c in ("cell", "part", "role", "bot") else pl.Int64
              if c in ("players", "budget", "seat", "games") else pl.Float64) for c in COLUMNS}


def balance_by_budget(game: str, players: int | None, budgets: list[int], games: int, out: Path, *,
                      policy: str | None = None, roles=None, panel=None, seed: int = 0,
                      threads: int | None = None, progress=None, rules=None,
                      settings=()) -> pl.DataFrame:
    """Every (cell, budget, part), played or read back from ``out/cells``; the whole table.
    ``panel`` (:class:`strategies.panels.Panel`), or one line-up of ``policy`` at every seat of
    ``players`` seats. ``roles``: a tuple of seat roles, or a function of the player count.
    ``rules`` (a rules file) and ``settings`` (``--set``): the rules of every game (default: the
    shipped rules; a tune's ``best_rules.toml`` asks whether its fix holds as play gets
    stronger). The cells read back are the caller's to match to these rules (``balance skill``
    records the rules' sha256 in its question and refuses an ``out`` of other rules)."""
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
    frames = []
    for i, (k, c, b, part) in enumerate(todo):
        f = cells / (f"budget{b}_{part}.parquet" if len(panel.cells) == 1 else
                     f"cell{k}_budget{b}_{part}.parquet")
        if f.exists():
            old = pl.read_parquet(f)
            if part == "one":
                # written before the Balance figures or their level: a one-seat part has none, so
                # it is complete
                old = old.with_columns([pl.lit(None, pl.Float64).alias(k) for k in
                                        BALANCE_COLUMNS + (LEVEL_COLUMN,) if k not in old.columns])
            elif has_balance(old) and LEVEL_COLUMN not in old.columns and family == FAMILY_LEVEL:
                # written before the level was recorded: one cell's intervals were at FAMILY_LEVEL
                old = old.with_columns(pl.lit(FAMILY_LEVEL, pl.Float64).alias(LEVEL_COLUMN))
            if has_balance(old) and LEVEL_COLUMN in old.columns and (
                    part == "one" or old[LEVEL_COLUMN].eq(family).all()):
                frames.append(old.select(list(COLUMNS)))
                continue
            # else an every-seat part without the figures, or read at another level: played again
        if progress is not None:
            what = "one searching seat" if part == "one" else "every seat searching"
            progress(f"{c.label if len(panel.cells) > 1 else ''} budget {b}: {what}".strip(), i, len(todo))
        df = play_cell(game, c.players, b, part, games, lineup=c.lineup, roles=roles_of(c.players),
                       seed=seed, threads=threads, default=spec.default_strategy,
                       bots_file=bots_file, label=c.label, family=family, rules=rules,
                       settings=settings)
        tmp = f.with_suffix(".tmp")
        df.write_parquet(tmp)
        tmp.replace(f)
        PUBLISHED.append(f)          # an interruption's line says a part was kept, not "nothing"
        frames.append(df)
    order = {c.label: k for k, c in enumerate(panel.cells)}
    t = pl.concat(frames)
    return t.with_columns(pl.col("cell").replace_strict(order, return_dtype=pl.Int64).alias("_k")) \
        .sort(["_k", "budget", "part", "seat"]).drop("_k")
