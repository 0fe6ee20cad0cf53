"""Seigneurial memory layout, shared by the Numba modules and the strategy loader: the size limits,
the slots of the rules vector ``rk``, the offsets of the int64 workspace ``ws`` (see the MAP below)
and of the float64 bot table ``fs``, the decision kinds and option codes, the columns of a strategy
row (``strategies/seigneurial.py`` builds rows with them), the end reasons, and the error codes
with their texts -- plain Python numbers, which Numba freezes into the compiled code. May import
the constants of :mod:`simcore.games.seigneurial.rules`, nothing else (no numba, no other engine
module): listing or validating bots must never import nor compile the kernel.
"""

from __future__ import annotations

from simcore.games.seigneurial.rules import (
    MAX_DECK, MAX_OBJECTIVES, N_PARAMS, N_RES, N_VALUES,
)

# As in the Médiévallons kernel: the whole state of a game lives in one int64 workspace ``ws`` at
# the fixed offsets below (each array argument of a jitted call costs ~7 machine words), and every
# helper takes ``(st, ws, fs)``. Each block of games copies the rules vector into ``ws[W_RULES:]``
# and the strategy rows into ``fs[F_STRAT:]`` once.
#
# MAP of the workspace ws: int64[W_TRACE + 2 x trace capacity]. p = seat (0 = the Seigneur),
# t = resource type (grain, wood, fish), v = card value 0 … 7, k = card kind.
#
# offset        size  index                     holds                                         rule
# ------------- ----  ------------------------  --------------------------------------------- -------
# G_TURN           1                            turns played (the current turn once started)   SG-4
# G_SQUARE         1                            the Seigneur's square                          SG-5.6
# G_IMPROVED       1                            1 once the land improvements came              SG-5.6
# G_IMPROVE_TURN   1                            turn they came, else -1                        SG-8
# G_OVER           1                            0 in play, else end reason + 1                 SG-6
# G_WINNER         1                            winning seat, -1 (Censitaires share)           SG-6
# G_ERROR          1                            error code E_* (0 = fine)                      --
# G_TRACE_N        1                            decisions recorded in W_TRACE                  --
# G_TRACE_CAP      1                            decisions W_TRACE can hold (0 = no trace)      --
# G_KIND           1                            kind D_* of the decision being asked           SG-7
# G_EXTRA          1                            Réquisitions played this turn                  SG-3
# G_NRECV          1                            resource cards the Seigneur received this turn SG-5.5
# G_CTX            1                            decision context (Troc: the type given)        SG-3
# G_PAY_STAMP      1                            paying bot: turn * 8 + seat its targets are for SG-5.4
# G_CC_PILE_N      1                            Censitaire cards in the draw pile              SG-3
# G_SC_PILE_N      1                            Seigneur cards in the draw pile                SG-3
# G_RES_PILE_N     3  t                         resource cards in the draw pile of type t      SG-1
# G_RENT           3  t                         rent asked of type t this turn                 SG-5.3
# G_RECV           3  t                         resources of type t received this turn         SG-5.5
# G_SC_HAND        2  k                         Seigneur cards held per kind                   SG-3
# G_PAY_TARGET     3  t                         paying bot: resources of t it means to give    SG-5.4
# G_PAY_START      3  t                         paying bot: G_RECV when it started paying      SG-5.4
# G_PHASE          1                            the turn's phase PH_* (kernel.play_turns)      SG-4, 5
# G_CUR            1                            the phase's seat cursor (next seat to act)     --
# G_STEP           1                            the seat's step (square, card played, Réquis.) --
# G_SUB            1                            the step's sub-step (a card's second decision) --
# G_REG, G_REG2    2                            context: Church cards drawn, Troc card given,  --
#                                               rent met of their own accord, favour left,
#                                               Censitaires drawn from (a bit mask)
# G_STOP           1                            1: stop at a searching seat's decision         --
# G_FORCED         1                            the option to play at the stopped decision, -1 --
# G_NOPT           1                            options of the stopped decision (in W_OPTS)    --
# G_DECIDER        1                            the seat of the stopped decision               --
# G_LIMIT          1                            a playout's last turn (0: none)                --
# G_PAY_HELD       3  t                         payment.order "simultaneous": resources of t   SG-5.4
#                                               the Censitaires before the paying one gave,
#                                               kept out of G_RECV until all have paid
# W_PL           160  p * PLS + X_*             per-player record (below)                      --
# W_HAND         120  p * HS + t * 8 + v        cards of type t, value v in p's hand           SG-1
# W_RES_DISC      24  t * 8 + v                 discard pile of type t, per value              SG-1
# W_RECV_CARDS    24  t * 8 + v                 cards the Seigneur received this turn          SG-5.5
# W_PAY_HELD_CARDS 24 t * 8 + v                 payment.order "simultaneous": the cards the    SG-5.4
#                                               Censitaires before the paying one gave, kept
#                                               out of W_RECV_CARDS until all have paid
# W_CC_DISC        4  k                         Censitaire discard per kind                    SG-3
# W_SC_DISC        4  k                         Seigneur discard per kind                      SG-3
# -- W_RESET_END: all above is cleared before each game (reset); all below persists
# W_RULES        164  R_*                       the rules vector rk, copied once per block     SG-1 … 6
# W_OPTS         256  j                         options of the decision being asked            SG-7
# W_BEST         256  j                         scratch: tied best options; setup deck         --
# W_RES_PILE     192  t * MAX_DECK + i          resource draw piles (top = last)               SG-1
# W_CC_PILE       64  i                         Censitaire draw pile (top = last)              SG-3
# W_SC_PILE       64  i                         Seigneur draw pile (top = last)                SG-3
# W_TRACE      2 x n  2k, 2k + 1                decision k: (options offered, choice)          --
#
# Player record (PLS = 32 words): X_HANDN cards in hand, X_OBJ objective card, X_IMPROVED the
# improved terrain (-1), X_SICK turns a pawn stays sick, X_TURNS_SICK, X_FAV_HELD, X_FAV_EARNED,
# X_PAID, X_SEIZED (whole game), X_GIVEN (this turn), X_PROT (Cachette this turn), X_POINTS
# (favour assigned this turn), X_PLACED (squares placed this turn, a bit mask), X_CC + k
# (Censitaire cards held), X_LAID + t (0 cards laid face up), X_RES + t (resources held),
# X_NT + t (cards of type t held), X_GIVEN_NT + t (cards of type t given this turn, SG-5.4: with
# W_PAY_HELD_CARDS, what the search undoes in its worlds under "simultaneous").
#
# The float table fs: float64[FS_SIZE]: F_STRAT [MAXP x N_STRAT_COLS] the strategy rows, then
# F_SCORE [MAX_OPTIONS] the option scores of the decision being made.

MAXP = 5
MAX_OPTIONS = 256
MAX_TRACE = 1 << 14          # decisions recorded per game for replay (the 200-turn bound needs less)

# ---- rules vector rk ----------------------------------------------------------------------------
R_RESC = 0                   # [3 x 8] resource cards per type and value
R_CCC = 24                   # [3] Censitaire cards per kind
R_SCC = 28                   # [2] Seigneur cards per kind
R_PAY_ORDER = 30             # SG-5.4 payment.order (rules.PAY_SEAT, PAY_SIMULTANEOUS, PAY_ROTATING)
R_NOBJ = 32                  # Objective cards in the deck
R_PARAMS = 33                # params[P_*] at R_PARAMS + P_*
R_EFFECTS = 64               # [6] SG-3 what each card does (rules.CARD_EFFECTS order)
R_OBJ = 70                   # [MAX_OBJECTIVES x 3] requirements per Objective card
R_SIZE = R_OBJ + 3 * MAX_OBJECTIVES

# ---- workspace ws -------------------------------------------------------------------------------
(G_TURN, G_SQUARE, G_IMPROVED, G_IMPROVE_TURN, G_OVER, G_WINNER, G_ERROR, G_TRACE_N, G_TRACE_CAP,
 G_KIND, G_EXTRA, G_NRECV, G_CTX, G_PAY_STAMP, G_CC_PILE_N, G_SC_PILE_N) = range(16)
G_RES_PILE_N = 16
G_RENT = 19
G_RECV = 22
G_SC_HAND = 25
G_PAY_TARGET = 27
G_PAY_START = 30
# the resumable turn (kernel.play_turns): where the turn stands, and the stop at a search decision
(G_PHASE, G_CUR, G_STEP, G_SUB, G_REG, G_REG2, G_STOP, G_FORCED, G_NOPT, G_DECIDER,
 G_LIMIT) = range(33, 44)
G_PAY_HELD = 44
PLS = 32
(X_HANDN, X_OBJ, X_IMPROVED, X_SICK, X_TURNS_SICK, X_FAV_HELD, X_FAV_EARNED, X_PAID, X_SEIZED,
 X_GIVEN, X_PROT, X_POINTS, X_PLACED) = range(13)
X_CC = 13
X_LAID = 16
X_RES = 19
X_NT = 22
X_GIVEN_NT = 25
W_PL = 48
HS = N_RES * N_VALUES                         # 24: a hand's stride
W_HAND = W_PL + MAXP * PLS
W_RES_DISC = W_HAND + MAXP * HS
W_RECV_CARDS = W_RES_DISC + HS
W_PAY_HELD_CARDS = W_RECV_CARDS + HS
W_CC_DISC = W_PAY_HELD_CARDS + HS
W_SC_DISC = W_CC_DISC + 4
W_RESET_END = W_SC_DISC + 4
W_RULES = W_RESET_END
W_OPTS = W_RULES + R_SIZE
W_BEST = W_OPTS + MAX_OPTIONS
W_RES_PILE = W_BEST + MAX_OPTIONS
W_CC_PILE = W_RES_PILE + N_RES * MAX_DECK
W_SC_PILE = W_CC_PILE + MAX_DECK
W_TRACE = W_SC_PILE + MAX_DECK

# ---- float table fs -----------------------------------------------------------------------------
F_STRAT = 0
N_STRAT_COLS = 16
F_SCORE = F_STRAT + MAXP * N_STRAT_COLS
FS_SIZE = F_SCORE + MAX_OPTIONS

# End reasons (SG-8): games.parquet end_reason; ws[G_OVER] = reason + 1 once the game is over.
# SG-6: the Seigneur on the goal square with no Censitaire holding its objective is SEIGNEUR_GOAL;
# with at least one holding it (the tie-break "the Seigneur wins") SEIGNEUR_GOAL_OVER_OBJECTIVE.
# Both are Seigneur wins; codes 0-2 keep their meaning from before code 3 was added.
CENSITAIRE_OBJECTIVE, SEIGNEUR_GOAL, TRUNCATED, SEIGNEUR_GOAL_OVER_OBJECTIVE = 0, 1, 2, 3
END_REASONS = ("censitaire_objective", "seigneur_goal", "truncated", "seigneur_goal_over_objective")

# Decision kinds (SG-7); names as in the reference engine.
(D_WINTER, D_PLACE, D_CHURCH_KEEP, D_DISCARD_CARD, D_RENT, D_PLAY_CARD, D_RECOLTE_TYPE, D_TROC_GIVE,
 D_TROC_TYPE, D_PAY, D_SEIGNEUR_CARD, D_CORVEE_TARGET, D_DRAW_ORDER, D_REQUISITION_TARGET, D_FAVOUR,
 D_IMPROVE, D_TIE_WINNER) = range(17)
DECISION_NAMES = ("winter", "place", "church_keep", "discard_card", "rent", "play_card",
                  "recolte_type", "troc_give", "troc_type", "pay", "seigneur_card", "corvee_target",
                  "draw_order", "requisition_target", "favour", "improve", "tie_winner")
# Phases of a turn (SG-4, SG-5, SG-6), in order: ws[G_PHASE] (kernel.play_turns)
(PH_START, PH_WINTER, PH_PLACE, PH_HARVEST, PH_RENT, PH_CARDS, PH_PAY, PH_SEIGNEUR_CARDS,
 PH_FORCED, PH_FAVOUR, PH_PROGRESS, PH_END) = range(12)
OPT_STOP = -1                # "stop" (card windows, payment) and "decline" (winter)
RENT_CODE = 32               # rent option = grain * 32 + wood (fish = total - grain - wood)
# winter option: n cards a <= b <= c (card code = t * 8 + v): n + 4 * (a + 32 * (b + 32 * c))

# Error codes written to the records (0 = fine); debug-mode invariants use 10+.
E_NO_OPTION = 1
E_TOO_MANY_OPTIONS = 2
E_RESOURCES_NOT_CONSERVED = 10
E_CARDS_NOT_CONSERVED = 11
E_HAND_COUNT = 12
E_FAVOUR_OUT_OF_BOUNDS = 13
E_TRACK_OUT_OF_BOUNDS = 14
ERROR_TEXT = {
    E_NO_OPTION: "a decision was asked with no legal option",
    E_TOO_MANY_OPTIONS: "an option list overflowed the kernel's buffer",
    E_RESOURCES_NOT_CONSERVED: "invariant broken: resource cards not conserved",
    E_CARDS_NOT_CONSERVED: "invariant broken: Censitaire or Seigneur cards not conserved",
    E_HAND_COUNT: "invariant broken: a hand's counts disagree",
    E_FAVOUR_OUT_OF_BOUNDS: "invariant broken: favour or Censitaire cards out of bounds",
    E_TRACK_OUT_OF_BOUNDS: "invariant broken: the Seigneur's square is off the track",
}

# Strategy rows (float64[P, N_STRAT_COLS]), one per seat; see configs/seigneurial/strategies.toml.
KIND_RANDOM, KIND_POLICY = 0, 1
KIND_SEARCH = 2              # the game-independent search bot (simcore.search)
S_KIND = 0
# the Seigneur's policy
S_RENT = 1                   # 0 even, 1 most_held, 2 least_held
S_FAVOUR = 2                 # 0 even, 1 most_paid, 2 fewest_cards
S_CORVEE = 3                 # 0 never, 1 at_once, 2 winter
S_REQUISITION = 4            # 0 never, 1 when_short
# a Censitaire's policy
S_PAY = 5                    # 0 none, 1 share, 2 all
S_SPARE = 6                  # 1: never gives away a type its objective still needs
S_WINTER = 7                 # 0 pay, 1 decline, 2 pay_if_spare
S_RESERVE = 8                # 1: keeps an exact winter payment when paying rent
S_CARDS = 9                  # 0 never plays Censitaire cards, 1 plays them for its objective
S_CHURCH = 10                # worth of a Church visit, in resources
S_OBJECTIVE = 11             # extra worth of a card of a type its objective still needs
S_ROLES = 12                 # bit 1: can play the Seigneur, bit 2: a Censitaire (loader only)
S_SEARCH = 13                # search bot: playouts, budget, select * 4 + policy kind (simcore.search)
RENT_POLICIES = ("even", "most_held", "least_held")
FAVOUR_POLICIES = ("even", "most_paid", "fewest_cards")
CORVEE_POLICIES = ("never", "at_once", "winter")
REQUISITION_POLICIES = ("never", "when_short")
PAY_POLICIES = ("none", "share", "all")
WINTER_POLICIES = ("pay", "decline", "pay_if_spare")

# The layout's own consistency (checked at import, costs nothing at run time).
assert R_PARAMS + N_PARAMS <= R_OBJ and MAX_OBJECTIVES * 3 + R_OBJ == R_SIZE
assert G_PAY_START + 3 <= G_PHASE and G_LIMIT < W_PL and S_ROLES < N_STRAT_COLS
assert X_NT + 3 <= X_GIVEN_NT and X_GIVEN_NT + 3 <= PLS
assert G_LIMIT < G_PAY_HELD and G_PAY_HELD + 3 <= W_PL
assert len(DECISION_NAMES) == D_TIE_WINNER + 1
