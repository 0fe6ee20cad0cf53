"""Middle-Ages as the toolkit sees it: the game's :class:`~simcore.contract.GameSpec`.

Player columns follow MA-12 (what a game records per player), with the coins at the end of every
turn (``coins_turn_1`` … ``coins_turn_16``, the game flow); every seat is alike, so seat
advantage is measured against a fair share of 1/P. The score is the player's final coins (MA-9).

May import :mod:`simcore.contract` and this game's ``rules`` constants (no kernel, no numba).
"""

from simcore.contract import Column, GameSpec
from simcore.games.middle_ages.rules import DOMAINS, MAX_PLAYERS, MIN_PLAYERS, N_EVENTS, N_TURNS

_DOMAIN_NAMES = {"champs": "Champs", "moulin": "Moulin", "village": "Village",
                 "rempart": "Rempart", "marche": "Marché", "caserne": "Caserne",
                 "eglise": "Église", "palais": "Palais"}
TILE_COLS = tuple(f"tiles_{d}" for d in DOMAINS)
GAIN_COLS = tuple(f"event_gain_{k}" for k in range(1, N_EVENTS + 1))
BEFORE_COLS = tuple(f"coins_before_event_{k}" for k in range(1, N_EVENTS + 1))
TURN_COLS = tuple(f"coins_turn_{t}" for t in range(1, N_TURNS + 1))
EVENT_TURNS = tuple(4 * k for k in range(1, N_EVENTS + 1))   # MA-4: event k fires after turn 4k

SPEC = GameSpec(
    name="middle-ages",
    title="Middle-Ages",
    description="Middle-Ages: 2-5 players, 16 turns, tile drafting (the main game)",
    rules_doc="shared/rules/middle_ages.md",
    players=(MIN_PLAYERS, MAX_PLAYERS),
    default_players=4,
    player_columns=(
        Column("score", "int32", "final coins (MA-9)", "coins", "coins", role="score"),
        Column("win_share", "float32", "1 outright win, 1/k for a win shared by k, else 0 (MA-9)",
               "win share", role="win_share", low=0, high=1),
        Column("rank", "int8", "1 = most coins; ties share a rank (MA-9)", "rank", role="rank", low=1,
               high=MAX_PLAYERS),
        *(Column(c, "int8", f"tiles in the {_DOMAIN_NAMES[d]} Domain at the end (MA-12)",
                 _DOMAIN_NAMES[d], "tiles", role="drafted_by_type", group="tiles", key=d, low=0)
          for d, c in zip(DOMAINS, TILE_COLS)),
        Column("graveyard", "int8", "tiles in the Graveyard at the end (MA-12)", "Graveyard",
               "tiles", low=0),
        Column("penalty", "int16", "coins paid as penalties (MA-12)", "penalty", "coins", low=0),
        *(Column(c, "int16", f"coins the event of slot {k + 1} gave or took (MA-8)",
                 f"event {k + 1} gain", "coins", role="gain_by_event", group="event_gain", key=k + 1)
          for k, c in enumerate(GAIN_COLS)),
        *(Column(c, "int16", f"coins just before the event of slot {k + 1} (MA-8)",
                 f"coins before event {k + 1}", "coins", role="checkpoint_by_event",
                 group="coins_before_event", key=k + 1, turn=EVENT_TURNS[k])
          for k, c in enumerate(BEFORE_COLS)),
        *(Column(c, "int16", f"coins at the end of turn {t + 1}, its Event included (turns 4, 8, "
                 f"12, 16), before the end-of-game penalty (MA-4, MA-12)",
                 f"coins after turn {t + 1}", "coins", role="checkpoint_by_turn", group="coins_turn",
                 key=t + 1) for t, c in enumerate(TURN_COLS)),
    ),
    game_columns=(
        Column("n_players", "int8", "players in the game", role="player_count", low=MIN_PLAYERS,
               high=MAX_PLAYERS),
        *(Column(f"event_{k}", "int8", f"MA-8 id of the event card fired in slot {k}",
                 f"event {k}", role="event_by_slot", group="event", key=k, low=0) for k in range(1, N_EVENTS + 1)),
        Column("reshuffles", "int8", "times the tile pile was reshuffled (MA-7)",
               role="count_per_game", low=0),
    ),
    score_unit="coins",
    smallest_difference={"score": 2.0},
    adapter="simcore.games.middle_ages.game",
    search="simcore.games.middle_ages.search",
    default_strategy="balanced",   # symmetric bots: the standard setting for seat advantage
    strategies="strategies.middle_ages",
    golden="simcore.games.middle_ages.golden",
    reference=True,
    report_hooks="reports.games.middle_ages",
    analysis_hooks="analysis.questions.middle_ages",   # `balance questions`: the event ablation
    type_names=_DOMAIN_NAMES,
    # the kernel's compiled variants (docs/middle_ages_engine.md, "Compiled variants")
    compiled_per="kind of line-up, player count and --debug",
    extra={"tile_names": _DOMAIN_NAMES},
)
