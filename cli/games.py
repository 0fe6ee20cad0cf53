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

    t = Table(title="games (simulate --game NAME)", title_justify="left")
    for c in ("game", "players", "roles", "score", "default bot", "options"):
        t.add_column(c, overflow="fold")
    for s in registry.specs().values():
        lo, hi = s.players
        roles = ("every seat alike" if s.roles_alike and not s.roles else
                 ", ".join(f"{r.display} ×{r.min_count}" + (f"-{r.max_count}" if r.max_count != r.min_count else "")
                           for r in s.roles))
        t.add_row(s.name, f"{lo}-{hi}" if lo != hi else str(lo), roles, s.score_unit,
                  s.default_strategy or "—", " ".join(s.option_flags()) or "—")
    Console().print(t)
