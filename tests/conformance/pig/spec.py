"""Pig as the toolkit sees it (PG-1 … PG-4): a dice game kept in tests/ as the worked example of
docs/adding-a-game.md. On a turn a player rolls a die until they hold (banking the turn total) or
roll a 1 (losing it); the first to bank ``target`` points wins. May import :mod:`simcore.contract`.
"""

from simcore.contract import Column, GameSpec, labelled

END_REASONS = ("target", "truncated")
HERE = __package__                       # the game works under any package name (tests copy it)

SPEC = GameSpec(
    name=HERE.rsplit(".", 1)[-1].replace("_", "-"),
    title="Pig", description="Pig: dice, 2-6 players, push your luck",
    rules_doc="shared/rules/pig.md", players=(2, 6), default_players=3,
    player_columns=(
        Column("score", "int16", "points banked at the end (PG-3)", "points", "points",
               role="score", low=0),
        Column("win_share", "float32", "1 for the winner, 1/k for k tied at the most points",
               "win share", role="win_share", low=0, high=1),
        Column("rank", "int8", "1 = most points; ties share a rank", "rank", role="rank", low=1,
               high=6),
        Column("rolls", "int16", "dice rolled over the game (PG-2)", "rolls", "rolls", low=0),
        Column("busts", "int16", "turns lost to a 1 (PG-2)", "busts", "turns", low=0),
        Column("best_turn", "int16", "most points banked in one turn", "best turn", "points",
               low=0),
    ),
    game_columns=(
        Column("n_players", "int8", "players in the game", role="player_count", low=2, high=6),
        Column("turns", "int16", "player turns played (PG-4)", "turns", "turns", role="length",
               low=1),
        Column("end_reason", "int8", "0 target reached, 1 truncated (PG-4)", "end reason",
               role="end_reason", low=0, high=1, labels=labelled(END_REASONS)),
    ),
    score_unit="points", adapter=f"{HERE}.game", default_strategy="hold-20",
    strategies=f"{HERE}.loader", takes=frozenset({"players", "strategies", "engine", "debug"}),
    reference=True,
)
