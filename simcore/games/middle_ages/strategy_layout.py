"""Layout of a Middle-Ages strategy row: what the kernel reads at each column (MA-11).

Kept apart from the kernel so that listing or validating strategies never compiles Numba code.
May import nothing from the project.
"""

STRAT_RANDOM, STRAT_HEURISTIC, STRAT_ROLLOUT = 0, 1, 2
S_KIND = 0                                   # column 0: the kind
S_VALUE, S_ORDER, S_FILL, S_COMBO, S_EVENTS, S_DEFENSE, S_DENIAL = range(1, 8)
FEATURES = ("value", "order", "fill", "combo", "events", "defense", "denial")  # columns 1-7
S_BIAS = 8               # columns 8-15: per-type bias, board order
S_PLAYOUTS = 16          # rollout: playouts per legal Lord move
S_ORDER_STEP = 17        # derived, written by the kernel for each block: order / players
N_STRAT_COLS = 32
