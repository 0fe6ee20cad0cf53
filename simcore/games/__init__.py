"""The games the toolkit simulates, one sub-package each, and the name → adapter registry.

An adapter module (e.g. ``simcore.games.middle_ages.game``) exposes ``DEFAULT_STRATEGY`` and
``prepare(players=, strategies=, rules_path=, engine=, debug=, rotate_seats=) -> PreparedRun``;
``simulate --game NAME`` imports it only when the game is chosen. ``fief-combat`` is the exception:
its combats are not player games and go through :func:`simcore.games.fief.run.simulate_combats`.

May import nothing heavy at module level.
"""

GAMES = {
    "middle-ages": "Middle-Ages (shared/rules/middle_ages.md): 2-5 players, 16 turns, tile drafting",
    "medievallons": "Médiévallons (shared/rules/medievallons.md): card game, 2-5 players",
    "fief-combat": "Fief 2 combats (shared/rules/fief.md): attacker vs defender, many combats",
}

ADAPTERS = {
    "middle-ages": "simcore.games.middle_ages.game",
    "medievallons": "simcore.games.medievallons.game",
}


def adapter(name: str):
    """The adapter module of a player game (raises UsageError for an unknown or missing game)."""
    import importlib

    from simcore.errors import UsageError

    if name not in ADAPTERS:
        raise UsageError(f"--game {name}: unknown game (known: {', '.join(GAMES)})")
    try:
        return importlib.import_module(ADAPTERS[name])
    except ModuleNotFoundError as exc:
        if exc.name and ADAPTERS[name].startswith(exc.name):
            raise UsageError(f"--game {name}: not available in this build") from None
        raise
