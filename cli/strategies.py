"""``balance strategies``: list the strategy presets of a game with descriptions and weights.

May import typer, rich and :mod:`strategies` (:mod:`strategies.search` for how ``searchN`` bots are
named).
"""

from __future__ import annotations

import typer

from simcore.games import DEFAULT_GAME

from simcore.errors import UsageError


def register(app: typer.Typer) -> None:
    app.command("strategies", help="List the strategy presets with their descriptions and weights.")(
        list_strategies)


def _widths(rows, heads, room: int) -> list[int]:
    """Column widths that wrap text at spaces, never inside a word, within ``room`` characters (the
    console's width less the table's borders and padding): each column at least as wide as its
    longest word, the rest of the room shared in proportion to how much more each column's longest
    line needs. (rich's own "fold" broke "Game-independen|t" at 80 columns; its minimum widths made
    it overrun the console by one.) Narrower than the longest words allow: rich folds, as before."""
    cols = [[h] + [r[i] for r in rows] for i, h in enumerate(heads)]
    least = [max(len(w) for x in col for w in x.split() or [""]) for col in cols]
    most = [max(len(x) for x in col) for col in cols]
    if sum(most) <= room:
        return most
    spare = room - sum(least)
    if spare <= 0:
        return least
    want = [b - a for a, b in zip(least, most)]
    total = sum(want)
    add = [spare * w // total for w in want]
    for i in sorted(range(len(want)), key=lambda i: -want[i])[: spare - sum(add)]:
        add[i] += 1                     # the rounding's leftover, to the columns that want most
    return [a + x for a, x in zip(least, add)]


def list_strategies(
    game: str = typer.Option(DEFAULT_GAME, "--game", "-g", help="Which game."),
    file: str = typer.Option("", "--file", help="List the strategies of this TOML file instead."),
) -> None:
    from rich.console import Console
    from rich.table import Table

    from simcore import games as registry

    spec = registry.get(game)
    if spec.strategies is None:
        with_bots = [s.name for s in registry.specs().values() if s.strategies]
        raise UsageError(f"--game {game}: bots exist for {', '.join(with_bots)}")
    S = registry.import_hook(spec.strategies)

    found = S.load_file(file) if file else S.presets()
    rows = []
    for s in found.values():
        weights = getattr(s, "settings_text", None) or ", ".join(
            f"{k}={v:g}" for k, v in s.weights.items())
        if s.kind == "rollout":
            weights = f"playouts={s.playouts}; " + weights
        rows.append((s.name, s.kind, s.description, weights or "—",
                     ", ".join(f"{k}={v:g}" for k, v in s.bias.items()) or "—"))
    t = Table(title=f"{game} strategies" + (f" in {file}" if file else " (presets)"),
              title_justify="left")
    heads = ("name", "kind", "description", "weights", "bias")
    console = Console()
    for c, width in zip(heads, _widths(rows, heads, console.width - (3 * len(heads) + 1))):
        t.add_column(c, overflow="fold", width=width)
    for r in rows:
        t.add_row(*r)
    console.print(t)
    if getattr(S, "parse_search", None) is not None:      # (a loader of the contract may have none)
        from strategies.search import MAX_PLAYOUTS

        console.print(f"searchN (any N from 1 to {MAX_PLAYOUTS:,}, e.g. search64): the search bot by name, "
                      "N playouts per legal option, flat, on the game's default policy (a preset of that "
                      "name, such as search16, is used as written above).", soft_wrap=False)
