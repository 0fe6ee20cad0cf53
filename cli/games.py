"""``balance games``: the registered games with their players, roles, score unit, bots and options.

Reads only the specs (plain data): listing games never imports a kernel or compiles anything.

May import typer, rich and :mod:`simcore.games`.
"""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    app.command("games", help="List the games: players, roles, score unit, default bot, options.")(
        list_games)


def list_games() -> None:
    from rich.console import Console
    from rich.table import Table

    from simcore import games as registry

    specs = list(registry.specs().values())
    # no name or option broken mid-word in an 80-column terminal ("medievallon / s", "--strategi /
    # es"): their columns are as wide as their longest word; the others wrap between words
    longest_flag = max((len(f) for s in specs for f in s.option_flags()), default=8)
    from rich import box

    t = Table(title="games (simulate --game NAME)", title_justify="left", box=box.SIMPLE_HEAD)
    t.add_column("game", no_wrap=True)
    t.add_column("players", no_wrap=True)
    # (a column rich may narrow is narrowed below its longest word: the roles' is fixed at it)
    role_words = [w for s in specs for r in s.roles for w in r.display.split()] or ["alike"]
    t.add_column("roles", width=max(10, *map(len, role_words)))
    for c in ("score", "default bot"):
        t.add_column(c, overflow="fold")
    t.add_column("options", min_width=longest_flag, no_wrap=True)     # one option a line
    for s in specs:
        lo, hi = s.players
        roles = ("every seat alike" if s.roles_alike and not s.roles else
                 ", ".join(f"{r.display} ×{r.min_count}" + (f"-{r.max_count}" if r.max_count != r.min_count else "")
                           for r in s.roles))
        t.add_row(s.name, f"{lo}-{hi}" if lo != hi else str(lo), roles, s.score_unit,
                  s.default_strategy or "—", "\n".join(s.option_flags()) or "—")
    Console().print(t)
