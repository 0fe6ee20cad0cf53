"""Médiévallons as the toolkit sees it: the game's :class:`~simcore.contract.GameSpec`.

Player and game columns follow MV-9; every seat is alike (seat 0 plays first). The score is the
number of cards in the player's guilds at the end. End reasons are int8 codes named in run.json's
``end_reason_names``: 0 third_guild (MV-7), 1 empty_pile (MV-6), 2 truncated (the max_turns bound).

May import :mod:`simcore.contract` and this game's ``rules`` constants (no kernel, no numba).
"""

from simcore.contract import Column, GameSpec, labelled
from simcore.games.medievallons.rules import (
    CARD_NAMES, CARD_TYPES, MAX_PLAYERS, MIN_PLAYERS, POWER_TYPES,
)

FOUNDED_COLS = tuple(f"founded_{t}" for t in CARD_TYPES)
END_REASONS = ("third_guild", "empty_pile", "truncated")   # MV-7, MV-6, the max_turns bound
# (the words do not say "third": the guilds that win are guilds.to_win, a setting; under to_win = 2
# "Third guild founded" was false, the designer review found)
END_WORDS = {"third_guild": "Guild goal reached", "empty_pile": "Draw pile ran out",
             "truncated": "Turn limit reached"}
POWER_COLS = tuple(f"powers_{CARD_TYPES[t]}" for t in POWER_TYPES)

SPEC = GameSpec(
    name="medievallons",
    title="Médiévallons",
    description="Médiévallons: card game, 2-5 players, three guilds win",
    rules_doc="shared/rules/medievallons.md",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    default_players=4,
    player_columns=(
        Column("score", "int32", "cards in the player's guilds at the end (MV-9)", "guild cards",
               "guild cards", role="score", low=0),
        Column("win_share", "float32", "1 outright win, 1/k for a win shared by k, else 0 (MV-7)",
               "win share", role="win_share", low=0, high=1),
        Column("rank", "int8", "1 = best; ties share a rank (MV-7)", "rank", role="rank", low=1, high=MAX_PLAYERS),
        Column("guilds", "int8", "guilds on the table at the end (MV-3)", "guilds", "guilds", low=0),
        Column("hand", "int16", "cards in hand at the end", "hand", "cards", low=0),
        *(Column(c, "int8", f"guilds of {CARD_NAMES[i]} founded during the game (MV-3)",
                 f"{CARD_NAMES[i]} guilds founded", "guilds", role="founded_by_type", group="founded",
                 key=CARD_TYPES[i], low=0) for i, c in enumerate(FOUNDED_COLS)),
        *(Column(c, "int16", f"{CARD_NAMES[t]} powers resolved (MV-5)",
                 f"{CARD_NAMES[t]} powers", "powers", role="count_by_type", group="powers",
                 key=CARD_TYPES[t], low=0) for t, c in zip(POWER_TYPES, POWER_COLS)),
    ),
    game_columns=(
        Column("n_players", "int8", "players in the game", role="player_count", low=MIN_PLAYERS,
               high=MAX_PLAYERS),
        Column("turns", "int16", "turns played", "turns", "turns", role="length", low=0),
        Column("end_reason", "int8", "0 third_guild (MV-7), 1 empty_pile (MV-6), 2 truncated",
               "end reason", role="end_reason", low=0, high=len(END_REASONS) - 1,
               labels=labelled(END_REASONS, END_WORDS)),
        # at most once (MV-6: the red End card turns yellow once), so its mean is a share
        Column("reshuffles", "int8", "times the discard pile was reshuffled into the draw pile",
               role="count_per_game", low=0, high=1),
    ),
    score_unit="guild cards",
    # skill runs of 200 games per budget, 4 players, on the same 2 cores: Middle-Ages 35 s,
    # Médiévallons 51 s, Seigneurial 53 s, less ~4 s of start each (revF #11)
    search_cost=1.5,
    smallest_difference={"score": 0.5, "length": 2.0},
    adapter="simcore.games.medievallons.game",
    search="simcore.games.medievallons.search",
    default_strategy="balanced",   # symmetric bots: the standard setting for seat advantage
    strategies="strategies.medievallons",
    golden="simcore.games.medievallons.golden",
    reference=True,
    analysis_hooks="analysis.questions.medievallons",
    report_hooks="reports.games.medievallons",
    type_names=dict(zip(CARD_TYPES, CARD_NAMES)),
    # a turn is one player's (MV-3): the reports say "player turns" and the rounds they make
    # the kernel's compiled variants (docs/middle_ages_engine.md, "Compiled variants")
    compiled_per="kind of line-up and player count",
    extra={"card_names": dict(zip(CARD_TYPES, CARD_NAMES)), "player_turns": True},
)
