"""Fief 2 combats as the toolkit sees them: the ``fief-combat`` :class:`~simcore.contract.GameSpec`.

A "game" is one combat (FF-1 … FF-4) of a fixed matchup: seat 0 is the attacker, seat 1 the
defender, two roles that are not alike (there is no fair share). The score is the points a side
has left. The matchup is set by this game's own options (``--attacker``, ``--defender``,
``--terrain``, ``--darc``, ``--lords-attacker``, ``--lords-defender``, ``--mercy``); it takes none
of the player-game options (``--players``, ``--strategies`` …).

May import :mod:`simcore.contract` (no kernel, no numba).
"""

from simcore.contract import Column, GameOption, GameSpec, Role, TableCommand, labelled

SIDES = ("attacker", "defender")
WINNER_NAMES = ("attacker", "defender", "both_wiped")
# how a combat ends (FF-3), in a designer's words: what a page shows for each outcome code
WINNER_WORDS = {"attacker": "Attacker takes the fief", "defender": "Defender holds",
                "both_wiped": "Both armies wiped out"}

# FF-7 break-even marks (``odds.break_even``'s ``mark_p<level>`` columns; the printed tables and the
# heat maps read them here, without the kernel). Exact odds within LEVEL_TOL of a level are the level
# itself: the dynamic programme's rounding is about 1e-16 (a certain win computed as
# 0.9999999999999999, a quarter as 0.24999999999999997), which read "not reached" at 1 or 0.25.
LEVEL_TOL = 1e-12
# a break-even Monte Carlo cannot tell from another attacker of the grid; exact odds equal to the
# level (a word no one reads as a combat's outcome: a combat can end with both armies wiped out)
WITHIN_NOISE, AT_LEVEL = "≈", "exactly"
# the grid's smallest attacker (above 1 point, the smallest army) already reaches the level: the
# break-even is that attacker or fewer, below the grid (printed "≤20"; with Monte Carlo noise at
# that attacker too, WITHIN_NOISE + AT_MOST, printed "≈≤20")
AT_MOST = "≤"
# FF-7: the chance that Monte Carlo marks wrongly, over all the break-evens of one command's tables
NOISE_ALPHA = 0.05


def noise_confidence(break_evens: int) -> float:
    """FF-7: the confidence of each Wilson interval behind a Monte Carlo "≈" mark, Bonferroni over
    the ``break_evens`` of the tables (terrains x defences x levels): 1 - 0.05 / k, so that over
    a whole run an unmarked break-even other than the exact odds' one is rare (at most about 1
    run in 20; measured far less, docs/fief.md)."""
    return 1.0 - NOISE_ALPHA / max(int(break_evens), 1)


def _exact_or_mc(what: str, games: str) -> tuple[GameOption, ...]:
    """The three options every table command shares: exact computation, a Monte Carlo check of
    ``games`` ``what`` per cell, or both, and the Monte Carlo seed. ``--games`` and ``--seed``
    default to None (the job fills in ``games`` and seed 0), so the job can refuse them with the
    exact method, where they would do nothing."""
    # (fief-odds computes by dynamic programming, fief-calamity in closed form: review AA)
    return (GameOption("method", "--method", "exact (computed outright, no sampling), mc (Monte "
                       "Carlo check) or both.", "exact", str),
            GameOption("games", "--games", f"Monte Carlo {what} per cell (only with --method mc "
                       f"or both; default {games}).", None, str),
            GameOption("seed", "--seed", "Monte Carlo seed (only with --method mc or both; "
                       "default 0).", None, int))


# FF-5 … FF-7: tables computed outside any run, one command each (cli/tables.py builds them).
COMMANDS = (
    TableCommand(
        "fief-odds",
        "Combat odds over a grid of attacker x defender points: odds.csv/.parquet, heat maps of "
        "P(attacker wins) per terrain, and a break-even table (FF-7).",
        job="simcore.games.fief.odds:odds_request",
        options=(
            GameOption("attackers", "--attackers", "Attacker points: 1-30, 7, or 1-5,8 (FF-1).",
                       "1-30", str),
            GameOption("defenders", "--defenders", "Defender points, same forms.", "1-20", str),
            GameOption("terrain", "--terrain", "Defender's terrain: open, castle, city or all "
                       "(FF-2/FF-3).", "all", str),
            GameOption("darc", "--darc", "Side with Jeanne d'Arc: attacker, defender or none "
                       "(FF-4).", "none", str),
            *_exact_or_mc("combats", "20000"),
            GameOption("lords_attacker", "--lords-attacker", "Lords among the attacker's points "
                       "(default from rules.toml; capped at the points).", None, int),
            GameOption("lords_defender", "--lords-defender", "Lords among the defender's points.",
                       None, int),
            GameOption("mercy", "--mercy", "never, attacker:K, defender:K or attacker:K,defender:J "
                       "(FF-3).", None, str),
            GameOption("levels", "--levels", "Break-even probabilities.", "0.5,0.75,0.9", str),
        ),
        figures="reports.games.fief:odds_figures", show="reports.games.fief:show_odds",
        kind="fief-tables"),
    TableCommand(
        "fief-calamity",
        "Plague survivor distributions (FF-5) and the bishop's odds against écus spent (FF-6).",
        job="simcore.games.fief.calamity:calamity_request",
        options=(
            GameOption("soldiers", "--soldiers", "Soldiers in the village: 0-30, 5, or 0-5,10.",
                       "0-30", str),
            GameOption("lords", "--lords", "Lords in the village.", "1-4", str),
            GameOption("max_ecus", "--max-ecus", "Largest sum spent on conviction points (FF-6).",
                       "2000", str),
            *_exact_or_mc("trials", "100000"),
        ),
        show="reports.games.fief:show_calamity", kind="fief-tables"),
)

def played_as(meta: dict) -> str:
    """The combat a fief-combat run played, in a few words (its run.json ``matchup``, FF-1 to
    FF-4): "10 points with 1 Lord attacking 6 points with 1 Lord in open terrain, no Jeanne d'Arc,
    mercy never"; '' without one. The spec's ``extra["played_as"]``: what a run played beyond
    its line-up, named where a verdict says whom it holds for (a tune's) and on the pages."""
    m = meta.get("matchup")
    if not isinstance(m, dict):
        return ""
    try:
        lords = lambda n: f"{int(n)} Lord{'s' if int(n) != 1 else ''}"  # noqa: E731
        darc = ("no Jeanne d'Arc" if m.get("darc") in (None, "none")
                else f"Jeanne d'Arc with the {m['darc']}")
        return (f"{m['attacker']} points with {lords(m['lords_attacker'])} attacking {m['defender']} "
                f"points with {lords(m['lords_defender'])} in {m['terrain']} terrain, {darc}, "
                f"mercy {m.get('mercy', 'never')}")
    except (KeyError, TypeError, ValueError):
        return ""


SPEC = GameSpec(
    name="fief-combat",
    title="Fief 2 combat",
    description="Fief 2 combats: attacker vs defender, many combats of one matchup",
    rules_doc="shared/rules/fief.md",
    players=(2, 2),
    default_players=2,
    roles=(Role("attacker", "Attacker", 1, 1), Role("defender", "Defender", 1, 1)),
    player_columns=(
        # the seat's side as a role column: the analysis reads the run by side (how often each
        # side wins), not by seats that should each win a fair 50% (review K #2)
        Column("side", "string", "attacker (seat index 0, seat 1 in reports) or defender (seat "
                                 "index 1) (FF-3)", "side", role="seat_role"),
        Column("score", "int32", "points left at the end of the combat (FF-1)", "points left",
               "points", role="score", low=0),
        Column("win_share", "float32", "1 winner, 0 loser, 0.5 each when both are wiped out (FF-3)",
               "win share", role="win_share", low=0, high=1),
        Column("rank", "int8", "1 winner, 2 loser, 1 each when both are wiped out", "rank", role="rank", low=1, high=2),
    ),
    game_columns=(
        # the combat's outcome as the games' end reason: codes named in run.json
        # ``end_reason_names`` (game.prepare), shown in WINNER_WORDS
        Column("winner", "int8", "0 attacker, 1 defender, 2 both wiped out (FF-3)", "winner", role="end_reason", low=0,
               high=2, labels=labelled(WINNER_NAMES, WINNER_WORDS)),
        # a per-game count of 0 or 1: a before/after compares how often combats end so (a change
        # of the mercy policy moves it), as it compares Médiévallons' reshuffles
        Column("by_mercy", "bool", "the loser asked for mercy and it was granted (FF-3)",
               "ended by the loser's surrender (mercy granted)", role="count_per_game"),
        Column("rounds", "int16", "combat rounds played (FF-2)", "rounds", "rounds", role="length", low=0),
        *(Column(f"{s}_points_left", "int16", f"the {s}'s points at the end", unit="points",
                 low=0)
          for s in SIDES),
        *(Column(f"{s}_soldiers_left", "int16", f"the {s}'s soldiers at the end", unit="soldiers",
                 low=0)
          for s in SIDES),
        *(Column(f"{s}_lords_left", "int16", f"the {s}'s Lords at the end (FF-1)", unit="Lords",
                 low=0)
          for s in SIDES),
        *(Column(f"{s}_lords_captured", "int16", f"the {s}'s Lords captured (FF-3)",
                 unit="Lords", low=0)
          for s in SIDES),
        *(Column(f"{s}_lords_killed", "int16", f"the {s}'s Lords killed (FF-3)",
                 unit="Lords", low=0)
          for s in SIDES),
    ),
    score_unit="points",
    # a combat lasts 3-5 rounds: a quarter round matters (review AA #3: at the default 1, a mean
    # length of 3.77 → 4.74 rounds, +26%, read "clear but small")
    smallest_difference={"score": 1.0, "length": 0.25},
    report_hooks="reports.games.fief",          # the page's first sentence: the matchup and its odds
    adapter="simcore.games.fief.game",
    takes=frozenset(),
    options=(
        GameOption("attacker", "--attacker", "attacking points (soldiers + 1 per Lord, FF-1)", 10),
        GameOption("defender", "--defender", "defending points", 6),
        GameOption("terrain", "--terrain", "the defender's terrain: open, castle or city (FF-2)",
                   "open", str),
        GameOption("darc", "--darc", "Jeanne d'Arc with attacker, defender or none (FF-4)",
                   "none", str),
        GameOption("lords_attacker", "--lords-attacker",
                   "Lords among the attacking points (default from the rules)", None),
        GameOption("lords_defender", "--lords-defender",
                   "Lords among the defending points (default from the rules)", None),
        GameOption("mercy", "--mercy", "never, attacker:K, defender:K or attacker:K,defender:J (FF-3)",
                   None, str),
    ),
    check_metrics=("seat_win_share", "seat_mean_score"),
    commands=COMMANDS,
    # how a shared win comes about, for the words beside a win share (review X #7: "a win shared
    # by k players" read oddly for both armies wiped out, FF-3)
    extra={"winner_names": dict(enumerate(WINNER_NAMES)),
           "shared_win": "a combat where both sides are wiped out counts half a win to each",
           # what the winner's lead counts (analysis.load.margin_words): a mutual wipe-out has no
           # winner and both armies at 0 points, a lead of 0 in the mean (review 247 #2)
           "margin": "the winning side's lead (a mutual wipe-out counting as 0)",
           # what a run played beyond its line-up: a tune's verdict names the combat it holds for
           "played_as": played_as, "played_as_scope": "this combat"},
)
