"""Médiévallons memory layout, shared by the Numba modules and the strategy loader: the size
limits, the slots of the rules vector ``rk``, the offsets of the int64 workspace ``ws`` (see the
MAP below) and of the float64 bot scratch ``fs``, the decision kinds and action codes of the option
lists, the columns of a strategy row (``strategies/medievallons.py`` builds rows with them), the end
reasons, and the error codes with their texts -- plain Python numbers, which Numba freezes into
the compiled code. May import numpy and the constants of :mod:`simcore.games.medievallons.rules`,
nothing else (no numba, no other engine module): listing or validating bots must never import
nor compile the kernel.
"""

from __future__ import annotations

from simcore.games.medievallons.rules import N_PARAMS, N_TYPES

# Why one workspace (as in the Middle-Ages kernel; measured there: Numba increfs every array
# argument of every jitted call): the whole state of a game lives in one int64 workspace ``ws``
# at the fixed offsets below, the deciding bot's values in one float64 vector ``fs``. Each block
# of games copies the rules vector ``rk`` into ``ws[W_RULES:]`` and the strategy table into
# ``fs[F_STRAT:]`` once, so every helper takes ``(st, ws, fs)`` only: each array argument is passed
# as ~7 machine words, and cutting five arrays to three measurably cheapened every call.
#
# MAP of the workspace ws: int64[WS_SIZE = 4552], one per block of games (the playout bot has a
# second one, ``sc``, to play forward in). p, q = seat (0 … P-1), o = observer seat, t = card type
# (rules.CARD_TYPES order), g = guild slot of a player (founding order), i / j / k = index.
#
# offset       size  index                       holds                                      rule
# ------------ ----  --------------------------  ------------------------------------------ --------
# G_PILE_N        1  0                           cards in the draw pile                     MV-2, 6
# G_DISC_N        1  1                           cards in the discard pile                  MV-2, 6
# G_END_RED       1  2                           1 while the End card is red                MV-6
# G_OVER          1  3                           0 in play, else end reason + 1             MV-6, 7
# G_WINNER        1  4                           founder of the winning guild, else -1      MV-7
# G_TURNS         1  5                           turns played                               MV-3, 7
# G_CUR           1  6                           seat whose turn it is                      MV-3
# G_RESHUF        1  7                           reshuffles of the discard pile             MV-6, 9
# G_ERROR         1  8                           error code E_* (0 = fine)                  --
# G_TRACE_N       1  9                           decisions recorded in W_TRACE              MV-9
# G_ROT           1  10                          rotation k: seat s plays row (s + k) % P   --
# G_NOPT          1  11                          options offered to a stopped playout seat  MV-8
# G_PLAYED        1  12                          card being played (in no zone), else -1    MV-3, 5
# G_LOOK_N        1  13                          cards in W_LOOK                            MV-5
# G_SELF_ROW      1  14                          playouts: the row all seats play, else -1  MV-8
# G_CTX_T         1  15                          decision context: type being laid          MV-4
# G_CTX_Q         1  16                          decision context: the other player         MV-5
# G_CTX_G         1  17                          decision context: guild reinforced         MV-4
# G_CTX_PLAYED    1  18                          1 when the power comes from a played card  MV-5
# G_KIND          1  19                          kind D_* of the decision being asked       MV-8
# G_PV_PLAYED     1  20                          power_value context: 1 = played card       MV-8
# G_STOP          1  21                          1: play_turns stops at a playout seat      MV-8
# G_FORCED        1  22                          action index to play without asking, or -1 MV-8
# G_LIMIT         1  23                          play_turns stops when G_TURNS reaches it   MV-8
# G_PREP_STAMP    1  24                          stamp of the bot values last prepared      MV-8
# G_PREP_LEAD     1  25                          1 if those values include F_LEAD           MV-8
# G_NGT_MASK      1  26                          bit t set while W_NGT[t] > 0               MV-4, 5
# (unused)        5  27 … 31
# W_PL           20  p * PLS + X_HANDN | X_NG    hand size | guilds held |                  MV-3, 4
#                    | X_GC                      cards in its guilds (kept up to date)      MV-7
# W_HAND         80  p * TS + t                  cards of type t in p's hand                MV-2, 3
# W_GUILD       160  gslot(p, g) + 0 | 1 | 2     guild g of p: type (-1 = Bouffons only) |  MV-4
#                    = (p * MAXG + g) * GF       cards of its type | Bouffons
# W_FOUNDED      80  p * TS + t                  guilds of type t p has founded             MV-9
# W_POWERS       80  p * TS + t                  powers of type t p has resolved            MV-9
# W_KNOWN       400  (o * MAXP + q) * TS + t     cards of type t o has seen in q's hand     MV-8
# W_DCNT         16  t                           discard pile per type                      MV-6
# W_LOOK          4  i                           the Magicien's drawn cards                 MV-5
# W_TCNT         16  t                           cards of type t in guilds on the table     MV-4
#                                                (a guild's typed cards, and its Bouffons)
# W_NGT          16  t                           guilds of type t on the table              MV-4, 5
# -- W_RESET_END: all above is cleared before each game (reset); all below persists
# W_RULES        64  R_COPIES + t, R_PARAMS +    the rules vector rk (R_SIZE = 33 used),    MV-1 … 7
#                    P_*, R_NCARDS               copied once per block
# W_OPTS        512  j                           options of the decision being asked        MV-3 … 5
# W_BEST        512  j                           scratch: tied best options, playout        MV-8
#                                                candidates, determinization counts
# W_PILE        256  i (top = last)              draw pile                                  MV-2, 6
# W_DISC        256  i (top = last)              discard pile                               MV-6
# W_TRACE      2048  2k, 2k + 1                  decision k: (options offered, choice)      MV-9
#   W_WORLD    1128  over W_TRACE, in ``sc`` only  the search bot's dealt world: the per-game   MV-8
#                    (its playouts record nothing)   part, then the draw pile it dealt
#
# The float scratch fs: float64[FS_SIZE = 2176], one per block, the deciding bot's values (MV-8):
# F_GAIN, F_LOSS [TS]; F_PV, F_PVOK [2 x TS]; F_LEAD [MAXP]; F_UNSEEN, F_HIDDEN [TS] (F_SERIAL
# inside F_HIDDEN); F_PROB [MAXP x TS]; F_SETV, F_SETD [64]; F_STRAT [MAXP x N_STRAT_COLS];
# F_SCORE, F_MEAN [MAX_OPTIONS]; F_FIXED [4 x MAXP x N_STRAT_COLS] -- each commented where it is defined.

MAXP = 5             # players (MV-1)
TS = 16              # stride of a per-type vector (13 types used)
MAXG = 8             # guild slots per player (to_win <= 6)
GF = 4               # fields per guild slot: type (-1 = Bouffons only), n_type, n_bouffon
MAXC = 256           # cards (13 types x at most 16 copies)
MAX_OPTIONS = 512    # found_size <= 16 x 17 is the longest list
MAX_TRACE = 1024     # decisions recorded per game for replay

# ---- rules vector rk ----------------------------------------------------------------------------
R_COPIES = 0                      # [TS]
R_PARAMS = TS                     # params[P_*] at R_PARAMS + P_*
R_NCARDS = R_PARAMS + 16
R_SIZE = R_NCARDS + 1

# ---- workspace ws -------------------------------------------------------------------------------
(G_PILE_N, G_DISC_N, G_END_RED, G_OVER, G_WINNER, G_TURNS, G_CUR, G_RESHUF, G_ERROR, G_TRACE_N,
 G_ROT, G_NOPT, G_PLAYED, G_LOOK_N, G_SELF_ROW, G_CTX_T, G_CTX_Q, G_CTX_G, G_CTX_PLAYED, G_KIND,
 G_PV_PLAYED, G_STOP, G_FORCED, G_LIMIT, G_PREP_STAMP, G_PREP_LEAD, G_NGT_MASK) = range(27)
# Values that vary between calls are passed through these fields rather than as constant
# arguments: Numba compiles one specialization per *literal* argument value (measured: `decide`
# once per decision kind, the turn loop three times), which tripled compile time and code size.
PLS = 4                           # player record stride
X_HANDN, X_NG, X_GC = 0, 1, 2
# Why X_GC, W_TCNT and W_NGT: public standings (public_score, MV-7 keys), the hidden-hand estimate
# and the Sorcière's choices rescanned every guild of every player at every decision; the rules
# keep these counts as guilds change instead (check_invariants verifies them in debug mode).
# G_NGT_MASK, the types with a guild on the table as bits, kept beside W_NGT: the Sorcière's worth
# (the best power it can copy) visits only those types instead of testing all 13 (a mispredicted
# branch per type: the hottest loop of power_value's profile).
W_PL = 32
W_HAND = W_PL + MAXP * PLS        # [MAXP x TS] cards per type in hand
W_GUILD = W_HAND + MAXP * TS      # [MAXP x MAXG x GF] guilds in founding order
W_FOUNDED = W_GUILD + MAXP * MAXG * GF   # [MAXP x TS]
W_POWERS = W_FOUNDED + MAXP * TS         # [MAXP x TS]
W_KNOWN = W_POWERS + MAXP * TS           # [observer x holder x TS] cards seen in a hand
W_DCNT = W_KNOWN + MAXP * MAXP * TS      # [TS] discard pile per type
W_LOOK = W_DCNT + TS                     # [4] Magicien's drawn cards
W_TCNT = W_LOOK + 4                      # [TS] cards of each type in guilds on the table
W_NGT = W_TCNT + TS                      # [TS] guilds of each type on the table
W_RESET_END = W_NGT + TS                 # everything before here is cleared per game
W_RULES = W_RESET_END                    # [R_SIZE] the rules vector rk, copied once per block
W_OPTS = W_RULES + 64                    # [MAX_OPTIONS]
W_BEST = W_OPTS + MAX_OPTIONS            # [MAX_OPTIONS] scratch: tied best options
W_PILE = W_BEST + MAX_OPTIONS            # [MAXC] draw pile, top = last
W_DISC = W_PILE + MAXC                   # [MAXC] discard pile, top = last
W_TRACE = W_DISC + MAXC                  # (n_options, choice) pairs [2 x MAX_TRACE]
WS_SIZE = W_TRACE + 2 * MAX_TRACE
W_WORLD = W_TRACE                        # sc only: a dealt world (search.deal_world), over the trace

# ---- float scratch fs (bot values of the deciding player) ---------------------------------------
F_GAIN = 0                        # [TS] value of receiving a card of each type
F_LOSS = TS                       # [TS] value lost by giving away one card of each type
F_PV = 2 * TS                     # [2 x TS] value of resolving each power now: from a guild, then
                                  # from a played card (Artisan, Assassin, Rôdeur, Sorcière differ)
F_PVOK = 4 * TS                   # [2 x TS] the decision serial (F_SERIAL) F_PV was computed for
                                  # (lazy: measured cheaper than pricing every power up front)
F_ATTACK = 14                     # F_PV[F_ATTACK], F_PV[F_ATTACK + 1]: best_attack's bests (kept,
                                  # stolen) past the card types, stamped in F_PVOK[F_ATTACK]
F_LEAD = 6 * TS                   # [MAXP] 1.0 for the leading opponent(s)
F_UNSEEN = 7 * TS                 # [TS] cards of each type the decider has not seen; [TS-1] total
F_HIDDEN = 8 * TS                 # [MAXP] cards of each hand the decider has not seen; [TS-1] =
                                  # the decision serial F_PROB was computed for
F_SERIAL = F_HIDDEN + TS - 2      # decisions priced so far in this block (never reset: fs outlives
                                  # games and playouts, so stamps never collide)
F_PROB = 9 * TS                   # [MAXP x TS] the decider's estimate that q holds a type-t card
F_SETV = F_PROB + MAXP * TS       # [64] set_value(k) for k = 0 … 63 (min_cards is fixed per run)
F_SETD = F_SETV + 64              # [64] set_value(k + 1) - set_value(k)
F_STRAT = F_SETD + 64             # [MAXP x N_STRAT_COLS] the strategy table, copied once per block
F_SCORE = F_STRAT + 5 * 32        # [MAX_OPTIONS] option scores (playout bot pruning)
F_MEAN = F_SCORE + MAX_OPTIONS    # [MAX_OPTIONS] playout bot: summed playout values
F_FIXED = F_MEAN + MAX_OPTIONS    # [4 x MAXP x N_STRAT_COLS] fixed_power_value(row, P, t) for
                                  # P = 2 … 5, filled once per block (init_values): index
                                  # (P - 2) * MAXP * N_STRAT_COLS + (sb - F_STRAT) + t
FS_SIZE = F_FIXED + 4 * MAXP * 32

# End reasons (MV-9): games.parquet end_reason; ws[G_OVER] = reason + 1 once the game is over.
THIRD_GUILD, EMPTY_PILE, TRUNCATED = 0, 1, 2
END_REASONS = ("third_guild", "empty_pile", "truncated")

# Decision kinds (MV-8); names as in the reference engine and the protocol.
(D_ACTION, D_FOUND_SIZE, D_REINFORCE_TYPE, D_REINFORCE_SIZE, D_ASSASSIN, D_RODEUR, D_CHEVALIER,
 D_MAGICIEN, D_MARCHAND, D_GIVE_TWO, D_MENDIANT, D_GIVE_ONE, D_PRETRE, D_PRETRE_TAKE,
 D_SORCIERE) = range(15)
DECISION_NAMES = ("action", "found_size", "reinforce_type", "reinforce_size", "assassin", "rodeur",
                  "chevalier", "magicien_keep", "marchand_partner", "give_two", "mendiant_target",
                  "give_one", "pretre_partner", "pretre_take", "sorciere")
A_PLAY, A_FOUND, A_REINFORCE, A_USE = 0, 1, 2, 3     # action option = kind * 16 + argument

# Error codes written to the records (0 = fine); debug-mode invariants use 10+.
E_NO_OPTION = 1
E_TOO_MANY_OPTIONS = 2
E_CARDS_NOT_CONSERVED = 10
E_GUILD_TOO_SMALL = 11
E_HAND_COUNT = 12
E_BAD_GUILD = 13
E_GUILD_COUNTS = 14
ERROR_TEXT = {
    E_NO_OPTION: "a decision was asked with no legal option",
    E_TOO_MANY_OPTIONS: "an option list overflowed the kernel's buffer",
    E_CARDS_NOT_CONSERVED: "invariant broken: cards not conserved",
    E_GUILD_TOO_SMALL: "invariant broken: a guild holds fewer than min_cards cards",
    E_HAND_COUNT: "invariant broken: a hand size disagrees with its cards",
    E_BAD_GUILD: "invariant broken: a guild's type disagrees with its cards",
    E_GUILD_COUNTS: "invariant broken: the kept guild counts disagree with the guilds",
}

# Strategy rows (float64[P, N_STRAT_COLS]), one per seat; see configs/medievallons/strategies.toml.
STRAT_RANDOM, STRAT_HEURISTIC, STRAT_PLAYOUT = 0, 1, 2
STRAT_SEARCH = 3         # the game-independent search bot (simcore.search)
S_KIND = 0
FEATURES = ("found", "progress", "sets", "draw", "save", "attack", "break", "leader", "defend",
            "hurt")
(S_FOUND, S_PROGRESS, S_SETS, S_DRAW, S_SAVE, S_ATTACK, S_BREAK, S_LEADER, S_DEFEND,
 S_HURT) = range(1, 11)
S_PRIOR = 11             # playout bot: weight of its heuristic score against the playouts
S_SEARCH = 12            # search bot: playouts, budget, select * 4 + policy kind (simcore.search)
S_BIAS = 16              # [13] per card type
S_PLAYOUTS = 29          # playout bot: determinized playouts per candidate action
S_HORIZON = 30           # playout bot: turns each playout looks ahead (0 = to the end)
S_CANDIDATES = 31        # playout bot: best heuristic actions examined by playouts
N_STRAT_COLS = 32

# The layout's own consistency (checked at import, costs nothing at run time).
assert N_PARAMS <= 16 and R_SIZE <= 64, "the rules vector overflows its slots"
assert N_TYPES < F_ATTACK and F_ATTACK + 1 < TS, "best_attack's slots overlap the card types"
assert N_TYPES <= TS and S_BIAS + N_TYPES <= S_PLAYOUTS, "per-type vectors overflow their stride"
assert F_STRAT + MAXP * N_STRAT_COLS <= F_SCORE, "the strategy table overflows F_STRAT"
assert N_STRAT_COLS == 32 and N_TYPES <= N_STRAT_COLS, "F_FIXED's rows follow the strategy rows"
assert W_WORLD + W_RESET_END + MAXC <= WS_SIZE, "a dealt world overflows the trace region"
assert len(FEATURES) == S_HURT and len(DECISION_NAMES) == D_SORCIERE + 1
