"""The search bot through each game's search hooks (issue #25): the reference engine replays its
recorded decisions exactly, its choices depend only on what its seat can see (determinisation),
``kind = "search"`` tables are validated, and its playouts' streams make a run identical for any
chunk size. Cheap settings (2 playouts per option) keep these fast; strength is measured in
docs/search.md, not asserted here."""

from __future__ import annotations

import numpy as np
import pytest

from simcore.errors import ConfigError
from simcore.search import MAX_OPTIONS

SEARCH2 = """
[s2]
kind = "search"
playouts = 2
policy = "balanced"

[u6]
kind = "search"
budget = 6
policy = "random"
select = "ucb"
"""


@pytest.fixture(scope="module")
def search_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("search") / "bots.toml"
    p.write_text(SEARCH2)
    return str(p)


# ---------------------------------------------------------------------------------------------
# Middle-Ages
# ---------------------------------------------------------------------------------------------
def test_middle_ages_reference_replays_the_search_bot_exactly(search_file):
    from simcore.games.middle_ages import driver as D, reference as REF, rules as R
    from strategies import middle_ages as S
    rules = R.load()
    _, rows = S.resolve([f"{search_file}:s2", "balanced", f"{search_file}:u6"], 3)
    n = 6
    out = D.run_chunk(rules, 3, 0, n, 21, rows, debug=True, trace_decisions=True, rotate=True)
    assert not out["error"].any()
    for g in range(n):
        replay = REF.ReplayStrategy(out["trace"][g], consume_draw=True)
        rec = REF.play_game(rules, 3, 21, g // 3, strategies=[replay] * 3, debug=True)
        rows_g = slice(g * 3, (g + 1) * 3)
        np.testing.assert_array_equal(out["score"][rows_g], rec.score)
        np.testing.assert_array_equal(out["coins_by_turn"][rows_g], rec.coins_by_turn)
        assert replay.pos == len(out["trace"][g])


def test_middle_ages_search_run_is_the_same_for_any_chunk_size(search_file):
    from simcore.games.middle_ages import driver as D, rules as R
    from strategies import middle_ages as S
    rules = R.load()
    _, rows = S.resolve([f"{search_file}:s2", "balanced", "greedy", "balanced"], 4)
    whole = D.run_chunk(rules, 4, 0, 8, 5, rows)
    parts = [D.run_chunk(rules, 4, f, 4, 5, rows) for f in (0, 4)]
    np.testing.assert_array_equal(whole["score"], np.concatenate([p["score"] for p in parts]))


def _ma_stop(search_file, seed):
    """A Middle-Ages position where the searching seat 0 must choose a Lord move."""
    from numpy import uint64
    from simcore.games.middle_ages import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.middle_ages.search import policy_rows
    from strategies import middle_ages as S
    _, rows = S.resolve([f"{search_file}:s2", "balanced", "balanced", "balanced"], 4)
    ws = np.zeros(L.WS_SIZE, np.int64)
    sc = np.zeros(L.WS_SIZE, np.int64)
    D.load_block(ws, sc, D.pack_rules(R.load()), rows, 4)
    policy_rows(sc, 4)
    D.start_game(ws, seed, uint64(3), 1)
    # ``full = None``, as play_games passes it for balanced bots: the specialisation the warm-up has
    # cached. Left out (an omitted argument is a type of its own) or True (a Python bool is not the
    # literal the kernel passes), a clean clone compiled the rules of play again here: 14 s of CPU
    K.setup_game(ws, 4, None)
    while K.advance(ws, 4, True, -1, None) == 1:
        if ws[L.G_TURN] >= 3 and ws[L.W_ORDER + ws[L.G_INDEX]] == 0:
            return ws, sc
        ws_forced = 0
        K.advance(ws, 4, True, ws_forced, None)   # (never returns 1 here: one move, then seat 0 again)
    pytest.skip("no stop")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_middle_ages_search_does_not_see_the_order_of_the_draw_pile(search_file, seed):
    """Only the order of the face-down pile differs: the playouts' statistics, and so the chosen
    move, are identical (the hook re-deals the pile from a canonical order)."""
    from simcore.games.middle_ages import layout as L
    from simcore.games.middle_ages.search import search_choice
    ws, sc = _ma_stop(search_file, seed)
    other = ws.copy()
    pos, end = ws[L.G_PILE_POS], ws[L.G_PILE_LEN]
    assert end - pos > 2
    other[L.W_PILE + pos:L.W_PILE + end] = ws[L.W_PILE + pos:L.W_PILE + end][::-1]
    results = []
    for w in (ws, other):
        stats = np.zeros(2 * MAX_OPTIONS)
        j = search_choice(w.copy(), sc.copy(), np.zeros(1), stats, np.zeros(1, np.uint64), 4)
        results.append((j, stats.copy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


# ---------------------------------------------------------------------------------------------
# Médiévallons
# ---------------------------------------------------------------------------------------------
def test_medievallons_reference_replays_the_search_bot_exactly(search_file):
    from simcore.games.medievallons import driver as D, reference as REF, rules as R
    from strategies import medievallons as S
    rules = R.load()
    _, rows = S.resolve([f"{search_file}:s2", "balanced", "collector"], 3)
    n = 3
    out = D.run_chunk(rules, 3, 0, n, 21, rows, debug=True, trace_decisions=True)
    assert not out["error"].any()
    for g in range(n):
        replay = REF.ReplayStrategy(out["trace"][g], consume_draw=True)
        rec = REF.play_game(rules, 3, 21, g, strategies=[replay] * 3, debug=True)
        rows_g = slice(g * 3, (g + 1) * 3)
        for f in ("score", "win_share", "guilds", "hand"):
            np.testing.assert_array_equal(out[f][rows_g], getattr(rec, f), err_msg=f"{g} {f}")
        assert replay.pos == len(out["trace"][g])


@pytest.mark.parametrize("seed", [3, 4])
def test_medievallons_search_does_not_see_hidden_cards(search_file, seed):
    """Only what seat 0 cannot see differs (the order of the draw pile, and an unseen card swapped
    between an opponent's hand and the pile): the search's statistics and choice are identical."""
    from simcore.games.medievallons import kernel as K, layout as L, rules as R, driver as D
    from simcore.games.medievallons.search import search_choice
    from simcore.rng import stream_state
    from strategies import medievallons as S
    _, rows = S.resolve([f"{search_file}:s2", "balanced", "balanced"], 3)
    ws, fs = D.new_workspace(R.load(), rows)
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    K.setup_game(st, ws, 3)
    ws[L.G_STOP], ws[L.G_FORCED], ws[L.G_LIMIT] = 1, -1, 1 << 40
    for _ in range(3):          # seat 0's third turn
        assert K.play_turns(st, ws, fs, 3, False) == 1
        if _ < 2:
            ws[L.G_FORCED] = 0
    other = ws.copy()
    n = ws[L.G_PILE_N]
    other[L.W_PILE:L.W_PILE + n] = ws[L.W_PILE:L.W_PILE + n][::-1]
    q = 1                        # swap one card seat 0 has not seen in q's hand with a pile card
    hand = other[L.W_HAND + q * L.TS:L.W_HAND + q * L.TS + L.TS]
    known = other[L.W_KNOWN + (0 * L.MAXP + q) * L.TS:L.W_KNOWN + (0 * L.MAXP + q) * L.TS + L.TS]
    unseen = [t for t in range(L.TS) if hand[t] > known[t]]
    swap = [i for i in range(n) if unseen and other[L.W_PILE + i] != unseen[0]]
    if unseen and swap:
        t, i = unseen[0], swap[0]
        hand[t] -= 1
        hand[other[L.W_PILE + i]] += 1
        other[L.W_PILE + i] = t
    results = []
    for w in (ws, other):
        stats = np.zeros(2 * MAX_OPTIONS)
        sc = np.zeros_like(w)
        j = search_choice(np.array([st[0]], np.uint64), w.copy(), sc, fs.copy(), np.zeros(1, np.uint64),
                          stats, 3)
        results.append((j, stats.copy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, problem", [
    ('kind = "search"\nplayouts = 4\nbudget = 8', "not both"),
    ('kind = "search"\npolicy = "nobody"', "unknown bot"),
    ('kind = "search"\npolicy = "rollout"', "playout policy"),
    ('kind = "search"\nselect = "best"', "must be one of"),
    ('kind = "search"\nplayouts = 0', ">= 1"),
])
def test_a_bad_search_table_is_one_clear_error(tmp_path, body, problem):
    from strategies import middle_ages as S
    p = tmp_path / "bad.toml"
    p.write_text("[bad]\n" + body + "\n")
    with pytest.raises(ConfigError, match=problem):
        S.load_file(p)


def test_a_search_row_is_its_policys_row_with_the_search_settings():
    from simcore.games.middle_ages import layout as L
    from strategies import middle_ages as S
    found = S.presets()
    s16, bal = found["search16"], found["balanced"]
    assert s16.row[L.S_KIND] == L.STRAT_SEARCH
    np.testing.assert_array_equal(s16.row[1:L.S_SEARCH], bal.row[1:L.S_SEARCH])
    assert list(s16.row[L.S_SEARCH:L.S_SEARCH + 3]) == [16, 0, 0 * 4 + L.STRAT_HEURISTIC]


# ---------------------------------------------------------------------------------------------
# Seigneurial
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bots", [["s2", "fair-share", "objective"], ["even-lord", "s2", "u6"]])
def test_seigneurial_reference_replays_the_search_bot_exactly(search_file, bots):
    """Either role: the searching Seigneur's rent and Censitaires' placements, replayed."""
    from simcore.games.seigneurial import driver as D, reference as REF, rules as R
    from strategies import seigneurial as S
    file = search_file.replace("bots.toml", "sg.toml")
    with open(file, "w") as f:
        f.write(SEARCH2.replace('"balanced"', '"standard"'))
    rules = R.load()
    _, rows = S.resolve([f"{file}:{b}" if b in ("s2", "u6") else b for b in bots], 3)
    n = 6
    out = D.run_chunk(rules, 3, 0, n, 21, rows, debug=True, trace_decisions=True)
    assert not out["error"].any()
    for g in range(n):
        replay = REF.ReplayStrategy(out["trace"][g], consume_draw=True)
        rec = REF.play_game(rules, 3, 21, g, strategies=[replay] * 3, debug=True)
        np.testing.assert_array_equal(out["win_share"][g * 3:(g + 1) * 3], rec.win_share)
        np.testing.assert_array_equal(out["score"][g * 3:(g + 1) * 3], rec.score)
        assert out["turns"][g] == rec.turns
        assert replay.pos == len(out["trace"][g])


def test_seigneurial_search_plays_the_same_games_as_the_kernel_without_a_search_seat():
    """The kernel's chunk and the search chunk (which stops the turn at a searching seat's
    decisions) play a line-up without a searching seat identically."""
    from simcore.games.seigneurial import driver as D, rules as R
    from strategies import seigneurial as S
    rules = R.load()
    _, rows = S.resolve(["even-lord", "fair-share", "objective", "random"], 4)
    args = (np.int64(0), np.int64(40), np.uint64(9), np.int64(4), D.pack_rules(rules), rows, False)
    outs = []
    for play in (D.play_chunk, D.play_chunk_search):
        o = (np.zeros((160, len(D.PLAYER_COLS)), np.int16), np.zeros(160, np.float32),
             np.zeros((40, len(D.GAME_COLS)), np.int16), np.full((40, 2 * D.MAX_TRACE), -1, np.int16))
        play(*args, *o)
        outs.append(o)
    for a, b in zip(*outs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", [1, 2])
def test_seigneurial_search_seigneur_does_not_see_card_values(search_file, seed):
    """The Seigneur sees how many cards of each type a Censitaire holds, not their values, nor the
    Censitaires' Objective cards: values swapped between two Censitaires' hands (counts kept; seed
    2), and besides that their Objective cards changed (seed 1), leave the search's statistics
    unchanged."""
    from simcore.games.seigneurial import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.seigneurial.search import search_choice
    from simcore.rng import stream_state
    from strategies import seigneurial as S
    file = search_file.replace("bots.toml", "sg.toml")
    with open(file, "w") as f:
        f.write(SEARCH2.replace('"balanced"', '"standard"'))
    _, rows = S.resolve([f"{file}:s2", "fair-share", "fair-share"], 3)
    ws, fs = D.new_workspace(R.load(), rows, 3)
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    K.setup_game(st, ws, 3)
    ws[L.G_STOP] = 1
    assert K.play_turns(st, ws, fs, 3, False) == 1 and ws[L.G_PHASE] == L.PH_RENT
    other = ws.copy()
    swapped = False
    for t in range(3):           # move one card of type t from hand 1 to hand 2 and back another
        h1 = other[L.W_HAND + L.HS + t * 8:L.W_HAND + L.HS + t * 8 + 8]
        h2 = other[L.W_HAND + 2 * L.HS + t * 8:L.W_HAND + 2 * L.HS + t * 8 + 8]
        a = [v for v in range(8) if h1[v] > 0]
        b = [v for v in range(8) if h2[v] > 0 and (not a or v != a[0])]
        if a and b:
            h1[a[0]] -= 1; h1[b[0]] += 1; h2[b[0]] -= 1; h2[a[0]] += 1
            other[L.W_PL + L.PLS + L.X_RES + t] += b[0] - a[0]
            other[L.W_PL + 2 * L.PLS + L.X_RES + t] += a[0] - b[0]
            swapped = True
            break
    if not swapped:
        pytest.skip("no two hands of one type to swap")
    # nor the Censitaires' Objective cards (face down before each, the book's set-up step 7): the
    # two Censitaires' cards exchanged, and one replaced by a card nobody holds
    objectives = other.copy()
    o1, o2 = (int(objectives[L.W_PL + q * L.PLS + L.X_OBJ]) for q in (1, 2))
    objectives[L.W_PL + L.PLS + L.X_OBJ] = o2
    objectives[L.W_PL + 2 * L.PLS + L.X_OBJ] = next(o for o in range(int(ws[L.W_RULES + L.R_NOBJ]))
                                                   if o not in (o1, o2))
    results = []
    # (the objectives in one of the two positions only: each search costs ~1 s of the suite)
    for w in (ws, other if seed == 2 else objectives):
        stats = np.zeros(2 * MAX_OPTIONS)
        j = search_choice(np.array([st[0]], np.uint64), w.copy(), np.zeros_like(w), fs.copy(),
                          np.zeros(1, np.uint64), stats, 3)
        results.append((j, stats.copy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


def _sg_searched_game(rows, P, seed, g):
    """One game with ws[G_STOP] = 1 driven here: the (seat, decision kind) of every stop, the
    decision trace and the final workspace."""
    from simcore.games.seigneurial import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.seigneurial.search import search_choice
    from simcore.rng import stream_state
    ws, fs = D.new_workspace(R.load(), rows, P)
    st = np.array([stream_state(np.uint64(seed), np.uint64(g))], np.uint64)
    sc, st2, stats = np.zeros_like(ws), np.zeros(1, np.uint64), np.zeros(2 * MAX_OPTIONS)
    K.setup_game(st, ws, P)
    ws[L.G_STOP] = 1
    stops = []
    while K.play_turns(st, ws, fs, P, True) == 1:
        assert ws[L.G_NOPT] >= 2
        stops.append((int(ws[L.G_DECIDER]), L.DECISION_NAMES[ws[L.G_KIND]]))
        ws[L.G_FORCED] = search_choice(st, ws, sc, fs, st2, stats, P)
    assert ws[L.G_ERROR] == 0
    trace = [(int(ws[L.W_TRACE + 2 * k]), int(ws[L.W_TRACE + 2 * k + 1]))
             for k in range(ws[L.G_TRACE_N])]
    return stops, trace, ws


@pytest.mark.parametrize("bots", [["s2", "fair-share", "objective", "dutiful"],
                                  ["harsh-lord", "s2", "hoarder", "s2"]])
def test_seigneurial_every_decision_of_a_searching_seat_with_two_options_is_searched(search_file, bots):
    """Issue #25 item 1: the searching seat's every decision with two or more options -- not only
    the rent and the placement, also payments, cards, winter, favour, forced draws... -- stops for
    the search: the stops are, in order, exactly the decisions the reference engine asks of that
    seat when it replays the game."""
    from simcore.games.seigneurial import reference as REF, rules as R
    from strategies import seigneurial as S
    file = search_file.replace("bots.toml", "sg.toml")
    with open(file, "w") as f:
        f.write(SEARCH2.replace('"balanced"', '"standard"'))
    P = len(bots)
    _, rows = S.resolve([f"{file}:{b}" if b in ("s2", "u6") else b for b in bots], P)
    searching = {i for i, b in enumerate(bots) if b == "s2"}

    class Counting:
        def __init__(self, inner):
            self.inner, self.asked = inner, []

        def choose(self, kind, options, state, seat, rng):
            if seat in searching:
                self.asked.append((seat, kind))
            return self.inner.choose(kind, options, state, seat, rng)

    kinds = set()
    for g in range(4):
        stops, trace, _ = _sg_searched_game(rows, P, 13, g)
        counting = Counting(REF.ReplayStrategy(trace, consume_draw=True))
        REF.play_game(R.load(), P, 13, g, strategies=[counting] * P, debug=True)
        assert stops == counting.asked, g
        kinds |= {k for _, k in stops}
    assert len(kinds - {"rent", "place"}) >= 3, kinds


@pytest.mark.parametrize("seed", [3, 6])
def test_seigneurial_search_censitaire_does_not_see_the_others_objectives_or_values(search_file, seed):
    """A searching Censitaire stopped inside a turn (a payment or card decision, not the
    placement): the other Censitaires' Objective cards changed and card values swapped between
    their hands (counts per type kept) leave the search's statistics unchanged."""
    from simcore.games.seigneurial import driver as D, kernel as K, layout as L, rules as R
    from simcore.games.seigneurial.search import search_choice
    from simcore.rng import stream_state
    from strategies import seigneurial as S
    file = search_file.replace("bots.toml", "sg.toml")
    with open(file, "w") as f:
        f.write(SEARCH2.replace('"balanced"', '"standard"'))
    _, rows = S.resolve(["even-lord", f"{file}:s2", "fair-share", "fair-share"], 4)
    ws, fs = D.new_workspace(R.load(), rows, 4)
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    sc, st2, stats = np.zeros_like(ws), np.zeros(1, np.uint64), np.zeros(2 * MAX_OPTIONS)
    K.setup_game(st, ws, 4)
    ws[L.G_STOP] = 1
    while K.play_turns(st, ws, fs, 4, False) == 1:
        if ws[L.G_PHASE] in (L.PH_CARDS, L.PH_PAY) and ws[L.G_TURN] >= 2:
            break
        ws[L.G_FORCED] = search_choice(st, ws, sc, fs, st2, stats, 4)
    else:
        pytest.skip("no payment or card decision")
    other = ws.copy()
    for q in (2, 3):                     # another Objective card, not seat 1's
        b = L.W_PL + q * L.PLS
        other[b + L.X_OBJ] = next(o for o in range(12) if o not in
                                  (ws[L.W_PL + L.PLS + L.X_OBJ], ws[L.W_PL + 2 * L.PLS + L.X_OBJ],
                                   ws[L.W_PL + 3 * L.PLS + L.X_OBJ], other[L.W_PL + 2 * L.PLS + L.X_OBJ]))
    for t in range(3):                   # one card value of type t swapped between hands 2 and 3
        h2 = other[L.W_HAND + 2 * L.HS + t * 8:L.W_HAND + 2 * L.HS + t * 8 + 8]
        h3 = other[L.W_HAND + 3 * L.HS + t * 8:L.W_HAND + 3 * L.HS + t * 8 + 8]
        a = [v for v in range(8) if h2[v] > 0]
        b = [v for v in range(8) if h3[v] > 0 and (not a or v != a[0])]
        if a and b:
            h2[a[0]] -= 1; h2[b[0]] += 1; h3[b[0]] -= 1; h3[a[0]] += 1
            other[L.W_PL + 2 * L.PLS + L.X_RES + t] += b[0] - a[0]
            other[L.W_PL + 3 * L.PLS + L.X_RES + t] += a[0] - b[0]
    assert (other != ws).any()
    results = []
    for w in (ws, other):
        stats = np.zeros(2 * MAX_OPTIONS)
        j = search_choice(np.array([st[0]], np.uint64), w.copy(), np.zeros_like(w), fs.copy(),
                          np.zeros(1, np.uint64), stats, 4)
        results.append((j, stats.copy()))
    assert results[0][0] == results[1][0]
    np.testing.assert_array_equal(results[0][1], results[1][1])


# ---------------------------------------------------------------------------------------------
# Every game that declares search hooks
# ---------------------------------------------------------------------------------------------
def _search_games():
    from simcore import games as registry
    return [s for s in registry.specs().values() if s.search]


def test_every_game_with_bots_declares_its_search_hooks():
    """A game with bots offers the search bot: the spec names a hooks module holding the playout
    hook and the decision loop, and its presets include search16 (kind search, default policy)."""
    import importlib
    from simcore import games as registry
    # the shipped games (the worked example Pig, registered only by the tests, offers no search)
    specs = [s for s in registry.specs().values()
             if s.default_strategy is not None and s.adapter.startswith("simcore.games.")]
    lacking = sorted({s.name for s in specs} - {s.name for s in _search_games()})
    assert not lacking, (f"{', '.join(lacking)}: a game with bots offers the search bot: name its hooks "
                         "module in the spec (search = \"simcore.games.<folder>.search\", with playout "
                         "and search_choice) and ship the presets search16 and search4 "
                         "(docs/adding-a-game.md, 'Search hooks')")
    for spec in specs:
        hooks = importlib.import_module(spec.search)
        assert callable(getattr(hooks, "playout", None)) and callable(getattr(hooks, "search_choice", None)), \
            f"{spec.name}: {spec.search} must define playout and search_choice"
        S = importlib.import_module(spec.strategies)
        bot = S.lookup("search16")
        assert bot.kind == "search" and bot.search.policy == spec.default_strategy, \
            f"{spec.name}: search16 must be kind search with the default bot as its policy"
        assert S.lookup("search4").search.playouts == 4, f"{spec.name}: search4 plays 4 playouts"


# ---------------------------------------------------------------------------------------------
# Settings, the policy switch, the horizon
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("playouts, budget, select, kind, depth", [
    (16, 0, "flat", 1, 0), (0, 64, "ucb", 3, 0), (4, 0, "ucb", 2, 1), (2, 0, "flat", 0, 37)])
def test_the_search_columns_read_back_what_was_written(playouts, budget, select, kind, depth):
    from simcore.search import SELECT_NAMES, horizon, settings
    from strategies.search import pack_settings
    row = np.zeros(8)
    pack_settings(row, 3, playouts, budget, select, kind, depth)
    assert settings(row, 3) == (playouts, budget, SELECT_NAMES.index(select), kind)
    assert horizon(row, 3) == depth


def test_searching_rows_play_their_policy_and_search_again_exactly():
    """The switch the games with one strategy table for the game and its playouts use: searching
    rows get their policy's kind, other rows are untouched, and the restore gives the table back
    bit for bit (whatever the horizon and select packed beside the policy)."""
    from simcore.search import rows_play_policy, rows_search_again
    from strategies.search import pack_settings
    SEARCH, s_kind, s_search, cols = 7, 0, 4, 8
    rows = np.zeros(3 * cols)
    rows[cols:2 * cols] = np.arange(cols) + 0.5          # row 1: another bot
    for r, (sel, kind, depth) in ((0, ("ucb", 2, 5)), (2, ("flat", 1, 0))):
        rows[r * cols + s_kind] = SEARCH
        pack_settings(rows[r * cols:(r + 1) * cols], s_search, 16, 0, sel, kind, depth)
    before = rows.copy()
    rows_play_policy(rows, 0, 3, cols, s_kind, s_search, SEARCH, True)
    assert [rows[r * cols + s_kind] for r in range(3)] == [2, before[cols], 1]
    rows_search_again(rows, 0, 3, cols, s_kind, s_search, SEARCH)
    np.testing.assert_array_equal(rows, before)
    rows_play_policy(rows, 0, 3, cols, s_kind, s_search, SEARCH, False)   # for good: no mark
    rows_search_again(rows, 0, 3, cols, s_kind, s_search, SEARCH)
    assert [rows[r * cols + s_kind] for r in range(3)] == [2, before[cols], 1]


def test_middle_ages_refuses_a_horizon_in_one_line(tmp_path):
    from strategies import middle_ages as S
    p = tmp_path / "bad.toml"
    p.write_text('[bad]\nkind = "search"\nhorizon = 2\n')
    with pytest.raises(ConfigError, match="always play to the end"):
        S.load_file(p)


def test_the_default_horizons_are_the_documented_ones():
    from simcore import games as registry
    import importlib
    want = {"middle-ages": 0, "medievallons": 4, "seigneurial": 1}
    for game, depth in want.items():
        S = importlib.import_module(registry.get(game).strategies)
        assert S.lookup("search16").search.horizon == depth, game
        assert S.lookup("search3").search.horizon == depth, game


def _sg_stop(search_file, seed, bots=("s2", "fair-share", "fair-share", "fair-share"), tables=None):
    """A Seigneurial position stopped at seat 0's first decision; ``bots`` named as tables of
    ``tables`` (default: SEARCH2's, the policy Seigneurial's) are read from that file."""
    from simcore.games.seigneurial import driver as D, kernel as K, layout as L, rules as R
    from simcore.rng import stream_state
    from strategies import seigneurial as S
    text = SEARCH2.replace('"balanced"', '"standard"') if tables is None else tables
    file = search_file.replace("bots.toml", "sg.toml" if tables is None else "sg_tables.toml")
    with open(file, "w") as f:
        f.write(text)
    _, rows = S.resolve([f"{file}:{b}" if f"[{b}]" in text else b for b in bots], len(bots))
    ws, fs = D.new_workspace(R.load(), rows, len(bots))
    st = np.array([stream_state(np.uint64(seed), np.uint64(0))], np.uint64)
    K.setup_game(st, ws, len(bots))
    ws[L.G_STOP] = 1
    assert K.play_turns(st, ws, fs, len(bots), False) == 1
    return ws, fs, st


# one playout per option, ``depth`` turns deep
HORIZON = """
[h{depth}]
kind = "search"
playouts = 1
policy = "standard"
horizon = {depth}
"""


@pytest.mark.parametrize("depth", [1, 2])
def test_seigneurial_a_playout_with_a_horizon_stops_after_that_many_turns(search_file, depth):
    """Searches of a bot with that horizon and one playout per option: every playout's value
    (its option's statistics) is between 0 and 1, and the last playout's position, which the
    search leaves in ``sc``, is at the start of turn ``turn + depth - 1`` (or the game ended
    before). Through ``search_choice``, whose code the tests above compiled: calling the
    ``playout`` hook from Python compiled the rules of play once more for it (~3.5 s of CPU in a
    clean clone). Six searches, each from a stream of its own, as there were six playouts."""
    from simcore.games.seigneurial import layout as L
    from simcore.games.seigneurial.search import search_choice
    from simcore.rng import stream_state
    ws, fs, _ = _sg_stop(search_file, 4, (f"h{depth}", "fair-share", "fair-share", "fair-share"),
                         HORIZON.format(depth=depth))
    turn = ws[L.G_TURN]
    n = min(ws[L.G_NOPT], MAX_OPTIONS)
    assert n >= 2
    for r in range(6):
        sc, stats = np.zeros_like(ws), np.zeros(2 * MAX_OPTIONS)
        search_choice(np.array([stream_state(np.uint64(r), np.uint64(9))], np.uint64), ws.copy(), sc,
                      fs.copy(), np.zeros(1, np.uint64), stats, 4)
        for j in range(n):          # one playout each: its value
            assert stats[MAX_OPTIONS + j] == 1 and 0.0 <= stats[j] <= 1.0 + 1e-4, (r, j, stats[j])
        if sc[L.G_OVER] == 0:
            assert sc[L.G_TURN] == turn + depth - 1 and sc[L.G_PHASE] == L.PH_START
        else:
            assert sc[L.G_TURN] <= turn + depth - 1


def test_seigneurial_the_race_estimate_follows_the_turns_left(search_file):
    """The Seigneur's estimate rises with his square and falls as a Censitaire nears its
    objective; the Censitaire's moves the other way."""
    from simcore.games.seigneurial import layout as L
    from simcore.games.seigneurial.search import race_estimate, turns_left
    ws, _, _ = _sg_stop(search_file, 5)
    base_s, base_c = race_estimate(ws, 4, 0), race_estimate(ws, 4, 1)
    up = ws.copy()
    up[L.G_SQUARE] += 2
    assert turns_left(up, 4, 0) == turns_left(ws, 4, 0) - 2
    assert race_estimate(up, 4, 0) > base_s and race_estimate(up, 4, 1) <= base_c
    near = ws.copy()
    b = L.W_PL + 1 * L.PLS
    o = L.W_RULES + L.R_OBJ + 3 * near[b + L.X_OBJ]
    for t in range(3):
        near[b + L.X_RES + t] = near[o + t]          # Censitaire 1 holds its objective
    assert turns_left(near, 4, 1) == 0
    assert race_estimate(near, 4, 1) > base_c and race_estimate(near, 4, 0) <= base_s


def test_seigneurial_search_run_is_the_same_for_any_chunk_size(search_file):
    from simcore.games.seigneurial import driver as D, rules as R
    from strategies import seigneurial as S
    file = search_file.replace("bots.toml", "sg.toml")
    with open(file, "w") as f:
        f.write(SEARCH2.replace('"balanced"', '"standard"'))
    rules = R.load()
    _, rows = S.resolve([f"{file}:s2", f"{file}:s2", "fair-share", "objective"], 4)
    whole = D.run_chunk(rules, 4, 0, 8, 5, rows)
    parts = [D.run_chunk(rules, 4, f, 4, 5, rows) for f in (0, 4)]
    for k in ("win_share", "score", "turns"):
        np.testing.assert_array_equal(whole[k], np.concatenate([p[k] for p in parts]))
