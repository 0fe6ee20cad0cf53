"""Memory layout of the Middle-Ages kernel: every size, slot, offset, stride and code it shares.

The jitted modules (:mod:`.bots`, :mod:`.kernel`, :mod:`.driver`) address one flat int64 workspace
``ws`` per game, a flat int64 rules vector ``rk`` and float64 strategy rows; this module says where
everything lives in them, so that the map below is the only place to read or change it. It also
holds the codes the kernel reports (decision kinds, error codes and their text) and the Numba
signature strings the jitted modules compile with. The strategy loader
(:mod:`strategies.middle_ages`) imports the strategy-row columns from here, so listing or
validating bots never compiles a kernel: this module may import only numpy and the constants of
:mod:`simcore.games.middle_ages.rules`, never numba nor another kernel module
(``tests/middle_ages/test_layout.py`` checks both this and the map).

Why one flat array: Numba increments and decrements (atomically) the reference count of every
array passed to a jitted call, so helpers taking twenty arrays cost more than the game logic they
run (measured: ~120 ns per call). The whole state of a game therefore lives in ``ws`` at the fixed
offsets below, sized for the maxima (5 players, 128 tiles, 32 event cards). The rules vector and
the strategy rows are copied into it too (W_RK, W_STRAT), so a jitted call passes one array;
:func:`simcore.games.middle_ages.bots.views` gives them back as ``st, rk, strat`` (measured: 5% per
game against passing four arrays).

MAP of the workspace ``ws``: int64 words at the offsets the constants below compute for the
maxima above; "f8" marks words read as float64 (``ws.view(np.float64)``); P = MAXP, S = STACK.
Everything before W_RESET_END is per-game state, restored from the copy at W_INIT before each
game; the rest is scratch, or written once per block of games::

    name          off  size          holds                                       rule
    -----------  ----  ------------  ------------------------------------------  -------------
    G_* (16)        0  16            pile position and length, orange left,      MA-3, MA-7
                                     discard length, reshuffles, Extra-coin      MA-5
                                     supply, minted coins (ledger), error,       MA-10
                                     trace length, turn, index in the turn       MA-4
                                     order, phase, seat rotation, options at a   MA-11
                                     rollout stop, order length, RNG (uint64)
    W_PL           16  P x PLS(16)   player records, fields X_*: coins, Lord     MA-3, 4, 5,
                                     and Scout cells, peasants, chests,          MA-9, 10
                                     Graveyard size, tiles taken, penalty,
                                     empty Domains, Plot tokens placed
    W_FN           96  P x 8         tiles in each Domain of each Fief           MA-5, 6, 9
    W_EXTRA       136  P x 8         1 if an Extra-coin token is on the Domain   MA-5 Église
    W_PLOT        176  P x 8         Plot token type under the Domain, -1 none   MA-5 Palais
    W_PLOTSUP     216  8             Plot tokens of each type in the supply      MA-5 Palais
    W_BOARD       224  N_ROWS x COLS tile id on each cell, -1 empty              MA-3, MA-4
    W_LORD        256  N_ROWS x COLS player whose Lord stands there, -1 none     MA-3.4, MA-4
    W_SCOUT       288  N_ROWS x COLS player whose Scout stands there, -1 none    MA-5 Rempart
    W_CNT         320  P x 8         tiles each Domain's Income counts (cache)   MA-6
    W_FEED        360  P x 8 (f8)    `combo` of one more tile of each type       MA-11
    W_PER         400  P x 8         coins per counted tile: base + Extra-coin   MA-6
    W_SELF        440  P x 8         1 if Domain x's Income counts its own       MA-6
    W_CB          480  P x N_EVENTS  coins before event k                        MA-8, MA-12
    W_EG          500  P x N_EVENTS  coins gained or lost at event k             MA-8, MA-12
    W_CT          520  N_TURNS x P   coins at the end of turn t (after its       MA-4, MA-12
                                     Event; before the MA-9 penalty)
    W_RESET_END   600  -             (end of the per-game state)
    W_ORDER       600  8             seats in turn order on the row              MA-4.2
    W_OPTS        608  MAX_OPTIONS   the options of the current decision         MA-11
    W_EVORD       672  MAXE          shuffled event deck (indices into rk's)     MA-3, MA-8
    W_PILE        704  MAXT          draw pile                                   MA-3, MA-7
    W_ORANGE      832  MAXT          orange stack (4-5 players)                  MA-3.1, MA-7
    W_DISCARD     960  MAXT          discard pile                                MA-4.1, MA-7
    W_GRAVE      1088  P x S         each Graveyard, oldest first                MA-5, MA-8
    W_FIEF       1168  P x 8 x S     Domain stacks, bottom first                 MA-5, MA-6
    W_TRACE      1808  2 x MAX_TRACE (n_options, choice) per decision (replay)   MA-11
    W_COUNT      2832  MAXT          debug invariants: copies of each tile       MA-12 debug
      W_BEST     2832  MAX_OPTIONS   decisions, over W_COUNT: tied options       MA-11
      W_DEAL     2832  2 x COLS      dealing a row (no decision): tiles, keys    MA-3, MA-4.4
      W_TVAL     2896  8             ... type_values of one player               MA-11
      W_TSCORE   2904  8 (f8)        ... tile-independent score of each type     MA-11
      W_TOPP     2912  8             ... best opponent's value of each type      MA-11 denial
      W_SC       2920  MAX_OPTIONS   ... (f8) each option's score                MA-11
    W_RK         2992  R_SIZE        copy of the rules vector rk (per block)     MA-2 … MA-10
    W_STRAT      4952  P x N_STRAT_COLS  (f8) strategy rows (per block)         MA-11
    W_INIT       5112  W_RESET_END   the state every game starts from            MA-3
    WS_SIZE      5712  -             (end)

The rules vector ``rk`` (int64[R_SIZE], written by
:func:`simcore.games.middle_ages.driver.pack_rules`) holds at R_* the tile table (type, back
number, stack, peasants, chests per tile), the Income table (MA-6), the Plot token supply and
tie-break order (MA-5, MA-9), the event deck (MA-8) and a few tables derived from them (R_FEED0,
R_TOWN, R_COUNTED, R_ELOSES; and the blue and orange stacks in id order, R_BLUE and R_ORANGE, which
each game copies and shuffles (MA-3), written by the kernel from R_TSTACK once per block into the
workspace's copy of the rules, as is R_PLOTDOMS from R_ICOUNT): see the comments at each slot. A strategy row (float64[N_STRAT_COLS],
one per seat) holds the kind at S_KIND, the MA-11 feature weights, a per-type bias and the
rollout's playouts.
"""

from __future__ import annotations

from simcore.games.middle_ages.rules import N_EVENTS, N_ROWS, N_TURNS

# ---- sizes ---------------------------------------------------------------------------------------
MAXP = 5            # players (MA-1)
MAXT = 128          # tiles in a table (rules.py allows 127)
MAXE = 32           # event cards in a deck
COLS = 8            # row stride on the board (players + 1 <= 6 columns used)
# The cells a row can use (players + 1 at most). Past a row's width (players + 1) every cell stays
# empty (-1 on the board, no Lord, no Scout), so the kernel's loops over a row's cells run to this
# constant, which LLVM unrolls, rather than to the width (a loop of unknown length)
ROW_CELLS = MAXP + 1
MAX_OPTIONS = 64    # Palais pairs <= 8 x 8; every other decision lists fewer
MAX_TRACE = 512     # decisions recorded per game for replay (a game makes at most ~400)
# A player's tiles only move between their own Fief and Graveyard, and a player takes N_TURNS tiles
# in a game: a Domain stack or a Graveyard never holds more than STACK tiles, whatever the rules.
# (A small stride keeps these arrays in a few kilobytes: strides of 1 KB, as with MAXT, made them
# collide in the same cache sets.)
STACK = N_TURNS

# ---- strategy rows (MA-11): float64[P, N_STRAT_COLS], one per seat -------------------------------
STRAT_RANDOM, STRAT_HEURISTIC, STRAT_ROLLOUT = 0, 1, 2
STRAT_SEARCH = 3                             # the game-independent search bot (simcore.search)
S_KIND = 0                                   # column 0: the kind
S_VALUE, S_ORDER, S_FILL, S_COMBO, S_EVENTS, S_DEFENSE, S_DENIAL = range(1, 8)
FEATURES = ("value", "order", "fill", "combo", "events", "defense", "denial")  # columns 1-7
S_BIAS = 8               # columns 8-15: per-type bias, board order
S_PLAYOUTS = 16          # rollout: playouts per legal Lord move
S_ORDER_STEP = 17        # derived, written by the driver for each block: order / players
S_SEARCH = 24            # search bot: playouts, budget, select * 4 + policy kind (simcore.search)
N_STRAT_COLS = 32

# ---- rules vector rk -----------------------------------------------------------------------------
R_NTILES = 0
R_NEVENTS = 1
R_NTYPES = 2                      # N_TYPES, read at run time (see the decisions' loops over types)
R_NBLUE = 3                       # tiles of the blue stack (MA-3; written by kernel.prepare_reset)
R_NORANGE = 4                     # tiles of the orange stack (MA-3.1; likewise)
R_PARAMS = 8                      # params[P_*] at R_PARAMS + P_*
R_TTYPE = R_PARAMS + 24
R_TNUM = R_TTYPE + MAXT
R_TSTACK = R_TNUM + MAXT
R_TPEAS = R_TSTACK + MAXT
R_TCHEST = R_TPEAS + MAXT
R_IBASE = R_TCHEST + MAXT         # [8]
R_ICOUNT = R_IBASE + 8            # [8 x 8] Domain d counts type t at d * 8 + t
R_PLOTSUP = R_ICOUNT + 64         # [8]
R_TIE = R_PLOTSUP + 8             # [8]
R_EID = R_TIE + 8                 # [MAXE]
R_EPT = R_EID + MAXE              # [MAXE x 8]
R_EPP = R_EPT + MAXE * 8
R_EPC = R_EPP + MAXE
R_EPG = R_EPC + MAXE
R_EPD = R_EPG + MAXE
R_ELOSE = R_EPD + MAXE            # [MAXE x 8]
R_EREST = R_ELOSE + MAXE * 8
R_FEED0 = R_EREST + MAXE          # `combo` per type before any token is placed [8]
R_TOWN = R_FEED0 + 8             # a tile's own Effect coins: its peasants (Champs) or chests (Marché) [MAXT]
R_COUNTED = R_TOWN + MAXT         # 1 if Domain d's Income counts type t, at t * 8 + d [8 x 8]
R_ELOSES = R_COUNTED + 64         # 1 if event card e makes players lose tiles [MAXE]
R_BLUE = R_ELOSES + MAXE          # the blue stack's tile ids in increasing order (prepare_reset) [MAXT]
R_ORANGE = R_BLUE + MAXT          # the orange stack's, likewise [MAXT]
R_PLOTDOMS = R_ORANGE + MAXT      # per Plot token type t: bit d set if Domain d's Income table does
#                                   not count t (MA-5 Palais; written by kernel.prepare_reset) [8]
R_SIZE = R_PLOTDOMS + 8

# ---- workspace ws (see the MAP in the module docstring) ------------------------------------------
G_PILE_POS, G_PILE_LEN, G_ORANGE_LEFT, G_DISCARD_LEN, G_RESHUFFLES, G_EXTRA_SUPPLY, G_LEDGER, \
    G_ERROR, G_TRACE_N, G_TURN, G_INDEX, G_PHASE, G_ROT, G_NOPT, G_NORDER, G_RNG = range(16)
PLS = 16                          # player record stride
X_COINS, X_LORD_ROW, X_LORD_COL, X_SCOUT_ROW, X_SCOUT_COL, X_PEAS, X_CHESTS, X_GRAVE_N, \
    X_TAKEN, X_PENALTY, X_EMPTY, X_NPLOT = range(12)
W_PL = 16                         # [MAXP x PLS]
W_FN = W_PL + MAXP * PLS          # fief_n [MAXP x 8]
W_EXTRA = W_FN + MAXP * 8         # Extra-coin token under Domain [MAXP x 8]
W_PLOT = W_EXTRA + MAXP * 8       # Plot token type under Domain, -1 none [MAXP x 8]
W_PLOTSUP = W_PLOT + MAXP * 8     # Plot tokens left in the supply [8]
W_BOARD = W_PLOTSUP + 8           # tile id or -1 [4 x COLS]
W_LORD = W_BOARD + N_ROWS * COLS  # player or -1 [4 x COLS]
W_SCOUT = W_LORD + N_ROWS * COLS  # player or -1 [4 x COLS]
W_CNT = W_SCOUT + N_ROWS * COLS   # tiles counted by each Domain's Income, kept current [MAXP x 8]
W_FEED = W_CNT + MAXP * 8         # `combo` value of one more tile of each type (float64) [MAXP x 8]
W_PER = W_FEED + MAXP * 8         # coins per counted tile of each Domain's Income (base + Extra-coin) [MAXP x 8]
W_SELF = W_PER + MAXP * 8         # 1 if Domain x's Income counts its own tiles (table or Plot token) [MAXP x 8]
W_CB = W_SELF + MAXP * 8          # coins before event k [MAXP x 4]
W_EG = W_CB + MAXP * N_EVENTS     # event gain [MAXP x 4]
W_CT = W_EG + MAXP * N_EVENTS     # coins at the end of turn t (after its Event) [N_TURNS x MAXP]
W_RESET_END = W_CT + MAXP * N_TURNS    # everything before here is cleared per game
W_ORDER = W_RESET_END             # [8]
W_OPTS = W_ORDER + 8              # [MAX_OPTIONS]
W_EVORD = W_OPTS + MAX_OPTIONS    # shuffled deck (indices into the rules' deck) [MAXE]
W_PILE = W_EVORD + MAXE           # [MAXT]
W_ORANGE = W_PILE + MAXT          # [MAXT]
W_DISCARD = W_ORANGE + MAXT       # [MAXT]
W_GRAVE = W_DISCARD + MAXT        # [MAXP x STACK]
W_FIEF = W_GRAVE + MAXP * STACK   # Domain stacks [MAXP x 8 x STACK]
W_TRACE = W_FIEF + MAXP * 8 * STACK  # (n_options, choice) pairs [2 x MAX_TRACE]
W_COUNT = W_TRACE + 2 * MAX_TRACE    # scratch for the debug invariants [MAXT]
W_RK = W_COUNT + 2 * MAX_OPTIONS + 32      # W_COUNT [MAXT] and the decision scratch after it
W_STRAT = W_RK + R_SIZE           # a copy of the rules vector rk, then of the strategy rows (float64)
W_INIT = W_STRAT + MAXP * N_STRAT_COLS     # the state every game starts from [W_RESET_END]
WS_SIZE = W_INIT + W_RESET_END
# The decisions' scratch (decisions never overlap the debug check, so it shares W_COUNT's words)
W_BEST = W_COUNT         # scratch for tied best options
W_TVAL = W_BEST + MAX_OPTIONS    # decide_heuristic scratch: type_values of one player [8]
W_TSCORE = W_TVAL + 8            # ... the tile-independent score of each type (float64) [8]
W_TOPP = W_TSCORE + 8            # ... the best opponent's value of each type (denial) [8]
W_SC = W_TOPP + 8                # ... each option's score (float64) [MAX_OPTIONS]
W_DEAL = W_BEST          # dealing a row (never during a decision): the tiles drawn [COLS], then
#                          their sort keys, back number * COLS + draw index [COLS] (kernel.deal_row)
assert W_SC + MAX_OPTIONS <= W_RK and W_COUNT + MAXT <= W_RK

# ---- decision kinds (MA-11) ----------------------------------------------------------------------
# The reference engine names them "place", "move", "scout", "restore", "extra", "plot".
D_PLACE, D_MOVE, D_SCOUT, D_RESTORE, D_EXTRA, D_PLOT = range(6)
DECISION_NAMES = ("place", "move", "scout", "restore", "extra", "plot")

# ---- error codes written to out_error (0 = fine); debug-mode invariants use 10+ ------------------
E_TILES_RAN_OUT = 1
E_NO_LEGAL_MOVE = 2
E_COIN_OVERFLOW = 3
E_TILES_NOT_CONSERVED = 10
E_TAKEN_NOT_16 = 11
E_LEDGER = 12
E_SCOUT_LEFT_ON_ROW = 13
E_INCOME_CACHE = 14
ERROR_TEXT = {
    E_TILES_RAN_OUT: "the tiles ran out (MA-7)",
    E_NO_LEGAL_MOVE: "a player had no legal Lord move (MA-4)",
    E_COIN_OVERFLOW: "coins outside the int16 range of the records",
    E_TILES_NOT_CONSERVED: "invariant broken: tiles not conserved",
    E_TAKEN_NOT_16: "invariant broken: a player did not take 16 tiles",
    E_LEDGER: "invariant broken: transfers between players were not zero-sum",
    E_SCOUT_LEFT_ON_ROW: "invariant broken: a Scout stayed on a row being refilled",
    E_INCOME_CACHE: "invariant broken: the Income count cache disagrees with the Fief",
}

# ---- Numba signatures ----------------------------------------------------------------------------
# Explicit signatures for the helpers that call sites reach with constants (a decision kind,
# ``False``, ``-1``): Numba would otherwise compile one specialization per literal value (measured:
# decide x10, choose_tile_option x5, advance x4, more than half of a cold compile).
_WS = "int64[::1]"
SIG_HEURISTIC = f"int64({_WS}, int64, int64, int64, int64, int64)"   # bots.decide_heuristic[_full]
SIG_ADVANCE = f"int64({_WS}, int64, boolean, int64)"                 # kernel.advance
