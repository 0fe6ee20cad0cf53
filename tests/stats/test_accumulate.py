"""The mergeable statistics (simcore.accumulate): exact integers, identical whatever the chunking
and the merge order, stored and read back unchanged, and their sums equal to numpy's on the rows."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import accumulate, runner

GAMES = 600        # (was 1,200: the statistics' equalities hold or fail whatever the games)
CONFIGS = {
    "middle-ages": dict(players=4, strategies="balanced,greedy,random,balanced"),
    "medievallons": dict(players=3, rotate_seats=True, strategies="balanced,random,balanced"),
    "seigneurial": dict(players=4),
    "fief-combat": {},
}


@pytest.fixture(scope="module", params=list(CONFIGS))
def played(request):
    prep = runner.prepare(request.param, quiet=True, **CONFIGS[request.param])
    return prep, prep.play(0, GAMES, 11)


def _stats_in_chunks(prep, chunk, sizes_or_spans):
    """Statistics of the chunk's games cut into spans, each span's statistics merged in order."""
    lay = accumulate.layout_of_run(prep)
    total = accumulate.RunStats(lay)
    parts = []
    for first, n in sizes_or_spans:
        part = accumulate.RunStats(lay)
        part.add(_slice(chunk, prep.n_players, first, n))
        parts.append(part)
    return total, parts


def _slice(chunk, P, first, n):
    from simcore.contract import ChunkResult

    return ChunkResult(players={k: v[first * P:(first + n) * P] for k, v in chunk.players.items()},
                       games={k: v[first:first + n] for k, v in chunk.games.items()})


def test_statistics_are_identical_for_any_chunking_and_merge_order(played):
    """Four chunkings merged in shuffled orders, and a tree of merges. The smallest chunks are 17
    deals (36 chunks of 600 games, the last one short; a tree of 47 chunks of 13 deals): every
    chunk's values cover a range of their own, so merges widen the histograms both ways (chunks
    of 7 and 5 deals of 1,200 games, 172 and 240 chunks, cost 3 s more for the same checks: a
    merge that misplaces a histogram widened downwards fails either way)."""
    prep, chunk = played
    d = prep.games_per_deal
    results = []
    for size in (GAMES, 300, 99 * d, 17 * d):
        spans = runner.chunk_spans(GAMES, size, ramp=False)
        total, parts = _stats_in_chunks(prep, chunk, spans)
        order = list(range(len(parts)))
        np.random.default_rng(size).shuffle(order)        # merged in any order
        for i in order:
            total.merge(parts[i])
        results.append(total.to_json())
    assert all(r == results[0] for r in results)
    # a tree of merges (as a cluster's client might) gives the same too
    spans = runner.chunk_spans(GAMES, 13 * d, ramp=False)
    _, parts = _stats_in_chunks(prep, chunk, spans)
    while len(parts) > 1:
        parts = [accumulate.merged(parts[i:i + 2]) for i in range(0, len(parts), 2)]
    assert parts[0].to_json() == results[0]


def test_dropping_one_chunk_changes_the_statistics(played):
    """The mistake the test above guards against: a chunk lost in the merge."""
    prep, chunk = played
    spans = runner.chunk_spans(GAMES, 300, ramp=False)
    whole, parts = _stats_in_chunks(prep, chunk, spans)
    for p in parts:
        whole.merge(p)
    lossy, parts = _stats_in_chunks(prep, chunk, spans)
    for p in parts[:-1]:
        lossy.merge(p)
    assert lossy.to_json() != whole.to_json()
    assert lossy.games == whole.games - spans[-1][1]


def test_statistics_survive_the_file(played, tmp_path):
    prep, chunk = played
    st = accumulate.for_run(prep)
    st.add(chunk)
    st.write(tmp_path / accumulate.STATS_FILE)
    back = accumulate.RunStats.read(tmp_path / accumulate.STATS_FILE)
    assert back.to_json() == st.to_json()
    assert back.games == GAMES


def test_sums_equal_numpy_on_the_rows(played):
    prep, chunk = played
    st = accumulate.for_run(prep)
    st.add(chunk)
    P, lay = prep.n_players, st.layout
    L = lay["win_units"]
    w = np.asarray(chunk.players["win_share"], np.float64).reshape(-1, P)
    score = np.asarray(chunk.players["score"], np.int64).reshape(-1, P)
    np.testing.assert_allclose(st.fixed["cell_win"].sum(axis=1) / L, w.sum(axis=0), rtol=1e-12)
    np.testing.assert_allclose(st.fixed["win_cross"] / L ** 2, w.T @ w, rtol=1e-12)
    assert st.fixed["cell_score"].sum(axis=1).tolist() == score.sum(axis=0).tolist()
    assert st.fixed["cell_score_sq"].sum(axis=1).tolist() == (score ** 2).sum(axis=0).tolist()
    h = st.valued["score"]
    for s in range(P):
        counts = h.a[s].sum(axis=0)
        want = np.bincount(score[:, s] - h.lo, minlength=len(counts))
        assert counts.tolist() == want.tolist()
    assert st.games == GAMES and st.fixed["cell_n"].sum() == GAMES * P


def test_a_win_share_that_is_not_a_share_of_the_players_is_refused(played):
    prep, chunk = played
    bad = _slice(chunk, prep.n_players, 0, 10 * prep.games_per_deal)
    w = np.array(bad.players["win_share"], np.float32)
    w[0] = 0.3001
    bad.players["win_share"] = w
    with pytest.raises(ValueError, match="not a multiple"):
        accumulate.for_run(prep).add(bad)


def test_a_run_directory_has_the_same_statistics_for_any_chunk_size_and_thread_count(tmp_path):
    """stats.json is byte-identical whatever --chunk-size and --threads (seat rotation: chunks
    hold whole deals), and its sums are those of the run's rows."""
    import polars as pl

    texts = []
    for i, (chunk, threads) in enumerate(((None, None), (333, 1), (2000, 2))):
        out = runner.simulate("middle-ages", games=2001, seed=3, out=tmp_path / f"r{i}", quiet=True,
                              chunk_size=chunk, threads=threads, players=3, rotate_seats=True,
                              strategies="balanced,random,greedy")
        texts.append((out / accumulate.STATS_FILE).read_text())
    assert texts[1] == texts[0] and texts[2] == texts[0]
    st = accumulate.RunStats.read(out / accumulate.STATS_FILE)
    rows = pl.read_parquet(out / "players.parquet")
    by_seat = rows.group_by("seat").agg(pl.col("score").sum()).sort("seat")["score"].to_list()
    assert st.fixed["cell_score"].sum(axis=1).tolist() == by_seat
    assert st.games == 2001


def test_value_seat_sums_equal_numpys_weighted_bincounts_to_the_last_bit():
    """The one-pass sums behind Middle-Ages' events_summary (simcore.accumulate.value_seat_sums)
    against the four weighted bincounts they replaced: the same float64 sums bit for bit, the win
    shares given in whole units (shares of thirds and sevenths, units of 1/21)."""
    import numpy as np

    from simcore.accumulate import share_units, value_seat_sums

    rng = np.random.default_rng(5)
    P, E, G = 4, 15, 20_000
    value = rng.integers(0, E, G).astype(np.int8)
    seat = np.tile(np.arange(P, dtype=np.int8), G)
    weight = rng.integers(-30, 40, G * P).astype(np.int16)
    share = (rng.integers(0, 2, G * P) / rng.choice([1, 3, 7], G * P)).astype(np.float32)
    units = share_units(share, 21)
    assert units.dtype == np.int32 and set(np.unique(units)) <= {0, 3, 7, 21}
    n, ws, wq, sh = value_seat_sums(value, seat, weight, units, P, E)
    key = np.repeat(value.astype(np.int64), P) * P + seat
    g, w = weight.astype(np.float64), units.astype(np.float64)
    for got, want in ((n, np.bincount(key, minlength=E * P)),
                      (ws, np.bincount(key, weights=g, minlength=E * P)),
                      (wq, np.bincount(key, weights=g * g, minlength=E * P)),
                      (sh, np.bincount(key, weights=w, minlength=E * P))):
        assert got.dtype == want.dtype and got.tobytes() == want.reshape(E, P).tobytes()
    bad = value.copy()
    bad[7] = E
    with pytest.raises(ValueError, match="outside"):
        value_seat_sums(bad, seat, weight, units, P, E)
    with pytest.raises(TypeError, match="int16 or narrower"):
        value_seat_sums(value, seat, weight.astype(np.int32), units, P, E)
    with pytest.raises(TypeError, match="int32 or narrower"):
        value_seat_sums(value, seat, weight, share, P, E)       # float shares: summed inexactly
    with pytest.raises(ValueError, match="not a multiple of 1/20"):
        share_units(share, 20)


def _tied_chunk(rng, G, P):
    """Player rows of G P-player games where most wins are shared two to five ways."""
    import numpy as np

    share = np.zeros((G, P), np.float32)
    k = rng.integers(1, P + 1, G)
    for g in range(G):
        share[g, rng.choice(P, k[g], replace=False)] = np.float32(1 / k[g])
    return {"win_share": share.ravel(), "seat": np.tile(np.arange(P, dtype=np.int8), G),
            "score": rng.integers(0, 50, G * P).astype(np.int32)}


@pytest.mark.parametrize("cells", [False, True])
def test_summary_sums_of_shared_wins_do_not_depend_on_the_chunking(cells):
    """summary.parquet's win-share sums (simcore.runner.GroupSummary, from the rows or from
    CellSums) of games with 3- and 5-way shared wins: the same bytes however the games are cut
    into chunks (a run must not depend on --chunk-size), and equal to the exact rational sums.
    Float shares summed chunk by chunk gave sums that differed in the last bits."""
    from fractions import Fraction

    import numpy as np

    from simcore.runner import CellSums, GroupSummary

    rng = np.random.default_rng(11)
    P, G = 5, 6000
    rows = _tied_chunk(rng, G, P)

    def summed(cuts):
        gs = GroupSummary("seat", [f"s{i}" for i in range(P)], ("score",), win_units=60)
        edges = [0, *cuts, G]
        for a, b in zip(edges, edges[1:]):
            part = {c: v[a * P:b * P] for c, v in rows.items()}
            one = GroupSummary("seat", gs.labels, ("score",), win_units=60)
            if cells:
                one.add_cells(CellSums(part, one.columns, P, win_units=60), np.arange(P))
            else:
                one.add(part, np.tile(np.arange(P), b - a))
            gs.merge(one)
        return gs.table()

    tables = [summed(c) for c in ([], [1], [97, 1000, 1001, 4999], list(range(7, G, 7)))]
    for t in tables[1:]:
        assert t.equals(tables[0])
    share = rows["win_share"].reshape(G, P)
    exact = [sum((Fraction(1, round(1 / x)) for x in share[:, s] if x > 0), Fraction(0))
             for s in range(P)]
    exact_sq = [sum((Fraction(1, round(1 / x)) ** 2 for x in share[:, s] if x > 0), Fraction(0))
                for s in range(P)]
    assert tables[0]["win_share_sum"].to_pylist() == [float(f) for f in exact]
    assert tables[0]["win_share_sq_sum"].to_pylist() == [float(f) for f in exact_sq]
    assert tables[0]["score_sum"].to_pylist() == rows["score"].reshape(G, P).sum(axis=0).tolist()


@pytest.mark.parametrize("k", [1, 3, 8, 9])
def test_domain_mix_pairs_against_a_row_by_row_count(k):
    """The Domain-mix pass (``pairs``: per player row, the type held most and the next one, ties
    to the later column, "none" when the rest are 0) against a plain Python count, on counts
    with many zeros and ties (a player with one type only never happens in a real game, so the
    runs above cannot tell "next: none" from "next: the last column"), over more rows than
    one of the pass's blocks."""
    rng = np.random.default_rng(k)
    n = 1500
    types = rng.choice([0, 0, 0, 1, 2, 5], size=(k, n)).astype(np.int16)
    types[:, :40] = 0
    types[rng.integers(k), :40] = 3        # one type only
    wins = rng.integers(0, 13, size=n).astype(np.int32)
    out = accumulate._jit("pairs", accumulate._pairs_py)(types, wins, 4)
    want = np.zeros((2, k, k + 1), np.int64)
    for i in range(n):
        col = [int(types[j, i]) for j in range(k)]
        first = max(range(k), key=lambda j: (col[j], j))
        rest = [j for j in range(k) if j != first and col[j] > 0]
        second = max(rest, key=lambda j: (col[j], j)) if rest else k
        want[0, first, second] += 1
        want[1, first, second] += int(wins[i])
    assert np.array_equal(out.reshape(2, k, k + 1), want)
