"""Seigneurial as the toolkit sees it: the game's :class:`~simcore.contract.GameSpec`.

Seat 0 is the Seigneur, seats 1 … P-1 the Censitaires (SG-1). Player and game columns follow
SG-8. The score is ONE quantity for every seat: **progress toward the seat's own goal, in percent**
-- the Seigneur's square over the goal square; a Censitaire's resources counted toward its
objective (per type, at most what the objective asks) over the resources the objective asks. A
winner has 100 (a Censitaire who reached its objective on the turn the Seigneur won has 100 too).
End reasons are int8 codes named in run.json's ``end_reason_names``: 0 censitaire_objective,
1 seigneur_goal (the Seigneur on the goal square, no Censitaire holding its objective),
2 truncated (the 200-turn bound; a Seigneur loss, the Censitaires share the win),
3 seigneur_goal_over_objective (the Seigneur on the goal square while a Censitaire holds its
objective: SG-6's tie-break gives him the win). Runs written before code 3 existed counted those
games as 1; their run.json names only 0-2.

May import :mod:`simcore.contract` and this game's ``rules`` constants (no kernel, no numba).
"""

from simcore.contract import Column, GameSpec, Role, labelled
from simcore.games.seigneurial.rules import MAX_PLAYERS, MIN_PLAYERS, RESOURCE_NAMES, RESOURCE_TYPES

END_REASONS = ("censitaire_objective", "seigneur_goal", "truncated", "seigneur_goal_over_objective")
# SG-6's tie-break in the rule's words (shared/rules/seigneurial.md): the replay's account of a game
# and the reports' tie-break sentences quote it
SG6_SAME_TURN = "Seigneur and Censitaire on the same turn: the Seigneur wins"
# the words a report shows for an end reason (the others: the name, capitalised)
END_WORDS = {"truncated": "Turn limit reached",
             # (short: a figure's key holds it; the End reasons table's title says the rest)
             "seigneur_goal_over_objective": "Seigneur goal, winning a tie (SG-6)"}
ROLES = (Role("seigneur", "Seigneur", 1, 1), Role("censitaire", "Censitaire", 2, 4))
# the side (a role's name) each end reason gives the win to (SG-6; the turn bound: the Censitaires
# share it): the End reasons table groups its rows by side and totals a side that wins in several
# ways (the spec's extra["end_sides"], read by reports.sections.end_rows)
END_SIDES = {"seigneur_goal": "seigneur", "seigneur_goal_over_objective": "seigneur",
             "censitaire_objective": "censitaire", "truncated": "censitaire"}

SPEC = GameSpec(
    name="seigneurial",
    title="Seigneurial",
    description="Seigneurial: asymmetric, 1 Seigneur against 2-4 Censitaires, 3-5 players",
    rules_doc="shared/rules/seigneurial.md",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    default_players=4,
    roles=ROLES,
    player_columns=(
        Column("role", "string", "seigneur (seat index 0, seat 1 in reports) or censitaire (the others) "
                                "(SG-1)", "role",
               role="seat_role"),
        Column("score", "int16", "progress toward the seat's own goal at the end, in percent: the "
                                 "Seigneur's square / goal square; a Censitaire's resources counted "
                                 "toward its objective (per type, capped at what it asks) / the "
                                 "resources it asks (SG-6); a whole percent, rounded down (8 of 12 resources: 66)", "goal progress", "% of own goal", role="score", low=0,
               high=100),
        Column("win_share", "float32", "1 for the winner; on a truncated game the Censitaires share "
                                       "the win (1/C each); else 0 (SG-6)", "win share",
               role="win_share", low=0, high=1),
        Column("rank", "int8", "1 = best by (win share, score); ties share a rank", "rank", role="rank", low=1,
               high=MAX_PLAYERS),
        *(Column(t, "int16", f"{RESOURCE_NAMES[i]} resources held at the end (card values summed; "
                             "the Seigneur holds none) (SG-8)", f"{t} held", "resources",
                 role="count_by_type", group="resources", key=t, low=0)
          for i, t in enumerate(RESOURCE_TYPES)),
        Column("favour", "int16", "favour points earned over the game (SG-5.4, SG-5.5; 0 for the "
                                  "Seigneur)", "favour earned", "favour points",
               low=0),
        Column("turns_sick", "int16", "turns one of the Censitaire's pawns spent sick on its Foyer "
                                      "(SG-4; 0 for the Seigneur)", "turns sick", "turns", low=0),
        Column("objective", "int8", "index of the Censitaire's Objective card in the rules' "
                                    "objectives.cards (SG-2); -1 for the Seigneur", "objective card",
               low=-1, never=-1, having="held an Objective card", value_is="index"),
        Column("paid", "int16", "resources the Censitaire gave as rent of its own accord "
                                "(SG-5.4; 0 for the Seigneur)", "rent paid", "resources", low=0),
        Column("seized", "int16", "resources the Seigneur took from the Censitaire's hand by forced "
                                  "draws (SG-5.5; 0 for the Seigneur)", "rent seized", "resources",
               low=0),
    ),
    game_columns=(
        Column("n_players", "int8", "players in the game (1 Seigneur + Censitaires)",
               role="player_count", low=MIN_PLAYERS, high=MAX_PLAYERS),
        Column("turns", "int16", "turns (seasons) played (SG-4)", "turns", "turns", role="length", low=0),
        Column("winner_role", "string", "seigneur, censitaire, or censitaires (a truncated game: the "
                                        "Censitaires share the win) (SG-6)", "winner role"),
        Column("winning_seat", "int8", "seat of the winner; -1 when the Censitaires share the win "
                                       "(truncated) (SG-6)", "winning seat", low=-1,
               high=MAX_PLAYERS - 1, never=-1, having="one seat won", value_is="seat"),
        Column("end_reason", "int8", "0 censitaire_objective, 1 seigneur_goal (the Seigneur on the "
                                     "goal square, no Censitaire holding its objective), 2 truncated, "
                                     "3 seigneur_goal_over_objective (the Seigneur on the goal "
                                     "square while a Censitaire held its objective: he wins the "
                                     "tie) (SG-6)",
               "end reason", role="end_reason", low=0, high=len(END_REASONS) - 1,
               labels=labelled(END_REASONS, END_WORDS)),
        Column("seigneur_square", "int8", "the Seigneur's square on the rent track at the end "
                                          "(SG-5.6)", "Seigneur's square", "squares",
               low=0),
        Column("improvement_turn", "int16", "turn at whose end the Seigneur reached the midpoint and "
                                            "the land improvements came (SG-5.6); -1 if never",
               "improvement turn", "turns", low=-1, never=-1, having="had land improvements",
               value_is="turn"),
    ),
    score_unit="% of own goal",
    # skill runs of 200 games per budget, 4 players, on the same 2 cores: Middle-Ages 35 s,
    # Médiévallons 51 s, Seigneurial 53 s, less ~4 s of start each (revF #11)
    search_cost=1.5,
    smallest_difference={"score": 2.0, "length": 1.0},
    adapter="simcore.games.seigneurial.game",
    search="simcore.games.seigneurial.search",
    default_strategy="standard",
    strategies="strategies.seigneurial",
    takes=frozenset({"players", "strategies", "engine", "debug"}),
    golden="simcore.games.seigneurial.golden",
    reference=True,
    check_metrics=("seat_win_share", "seat_mean_score", "strategy_win_share"),
    analysis_hooks="analysis.questions.seigneurial",    # `balance questions`: the card ablation; its tables
    report_hooks="reports.games.seigneurial",
    type_names=dict(zip(RESOURCE_TYPES, RESOURCE_NAMES)),
    # resources.start_cards is one entry per Censitaire: entry [0] is the first Censitaire's,
    # seat 2 (0-based seat 1; SG-1, rules.Rules.start_cards)
    seat_lists={"resources.start_cards": 1},
    # SG-8: the Seigneur's score is his square over the goal square at the player count played
    # (SG-1, track.goal.N); a Censitaire's, its resources toward its Objective card (SG-2), any card
    # of the deck (which one a seat holds is dealt)
    score_goals={"seigneur": ("track.goal.{players}",), "censitaire": ("objectives.cards",)},
    # the kernel's compiled variants (docs/middle_ages_engine.md, "Compiled variants")
    compiled_per="kind of line-up",
    extra={"end_reasons": dict(enumerate(END_REASONS)), "end_sides": END_SIDES,
           "resource_types": dict(zip(RESOURCE_TYPES, RESOURCE_NAMES))},
)
