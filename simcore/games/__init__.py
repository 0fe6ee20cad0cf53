"""The games the toolkit simulates, one sub-package each, and the name → adapter registry.

May import nothing heavy at module level: adapters are imported when a game is chosen.
"""

GAMES = {
    "middle-ages": "Middle-Ages (shared/rules/middle_ages.md): 2-5 players, 16 turns, tile drafting",
    "fief-combat": "Fief 2 combats (shared/rules/fief.md): attacker vs defender, many combats",
}
