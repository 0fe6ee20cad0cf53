"""``balance strategies``: list the strategy presets of a game with descriptions and weights.

May import typer, rich and :mod:`strategies`.
"""

from __future__ import annotations

import typer

from simcore.games import DEFAULT_GAME

from simcore.errors import UsageError


def register(app: typer.Typer) -> None:
    app.command("strategies", help="List the strategy presets with their descriptions and weights.")(
        list_strategies)


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
    t = Table(title=f"{game} strategies" + (f" in {file}" if file else " (presets)"),
              title_justify="left")
    for c in ("name", "kind", "description", "weights", "bias"):
        t.add_column(c, overflow="fold")
    for s in found.values():
        weights = getattr(s, "settings_text", None) or ", ".join(
            f"{k}={v:g}" for k, v in s.weights.items())
        if s.kind == "rollout":
            weights = f"playouts={s.playouts}; " + weights
        t.add_row(s.name, s.kind, s.description, weights or "—",
                  ", ".join(f"{k}={v:g}" for k, v in s.bias.items()) or "—")
    Console().print(t)
