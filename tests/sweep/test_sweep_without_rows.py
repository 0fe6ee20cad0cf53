"""A sweep without player rows (issue #27 item 1): its variants are played together, chunk by chunk,
and its paired effects come from exact sums (analysis.sweep.joint, paired_stats.json).

Checked against what does not depend on the new code: the same sweep played the old way (each
variant alone, with its rows) gives every table of the sensitivity page — variants, curves, the
anchored effects and the other slices' — within 1e-9 relative from the sums; a variant played in
the lockstep is the same run directory as the variant played alone; the sums are the same for any
chunk size and equal Python-integer sums of the rows; a sweep cut short resumes; a paired_stats.json
that is not the sweep's is named in one line.

Small sweeps (a few thousand games a variant): about 20 s of CPU in all.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest

from tests.in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

CASES = {
    # a grid of two parameters, one of them the player count (the balance across counts); two
    # values of the Palais income (three before: the tables are compared exactly, sums against
    # rows, whatever the grid's size; a wrong sum still shows, 1.3 s of CPU less)
    "middle-ages": dict(varies=["income.palais.base=2..3", "players=3..4"], games=2400, seed=3),
    # roles: a one-seat role is its seat's number, two roles are each other's mirror
    "seigneurial": dict(varies=["players=3..4"], games=2000, seed=5),
    # a rotated mixed line-up: strategy win shares per seat held (units of 1/L²)
    "medievallons": dict(varies=["setup.hand_size=5..6"], games=1200, seed=5, players=4,
                         strategies="balanced,random,random,random", rotate_seats=True),
}


def _plan(game, raw, **kw):
    from analysis.sweep.play import plan_sweep

    return plan_sweep(game, raw=raw, **kw)


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """Every case played twice: with rows (each variant alone) and without (together)."""
    from analysis.sweep.play import run_sweep

    base = tmp_path_factory.mktemp("sweeps")
    out = {}
    for game, kw in CASES.items():
        rows, sums = base / f"{game}-rows", base / f"{game}-sums"
        run_sweep(_plan(game, True, **kw), rows)
        run_sweep(_plan(game, False, **kw), sums)
        out[game] = (rows, sums)
    return out


def _same_tables(x: pl.DataFrame, y: pl.DataFrame, what: str) -> None:
    assert x.shape == y.shape and x.columns == y.columns, what
    assert len(x) > 0, f"{what}: empty (nothing compared)"
    for c in x.columns:
        a, b = x[c], y[c]
        if a.dtype in (pl.Float64, pl.Float32):
            u, v = a.to_numpy(), b.to_numpy()
            assert np.array_equal(np.isnan(u), np.isnan(v)), f"{what}.{c}: NaN in other places"
            ok = ~np.isnan(u)
            np.testing.assert_allclose(v[ok], u[ok], rtol=1e-9, atol=1e-12, err_msg=f"{what}.{c}")
        else:
            assert a.to_list() == b.to_list(), f"{what}.{c}"


@pytest.mark.parametrize("game", list(CASES))
def test_the_page_from_sums_is_the_page_from_rows(played, game):
    from analysis.sweep.metrics import sensitivity

    rows_dir, sums_dir = played[game]
    assert not (rows_dir / "paired_stats.json").exists()
    assert (sums_dir / "paired_stats.json").is_file()
    assert not list(sums_dir.glob("variants/*/players.parquet"))       # no rows were written
    a, b = sensitivity(rows_dir), sensitivity(sums_dir)
    for what in ("variants", "curves", "effects"):
        _same_tables(getattr(a, what), getattr(b, what), f"{game} {what}")
    if CASES[game]["varies"][1:]:
        _same_tables(a.slice_effects, b.slice_effects, f"{game} slice_effects")
    if game == "seigneurial":          # the mirror was found from the sums too
        assert b.effects.filter(pl.col("mirror"))["metric"].to_list() == ["role_win_share_censitaire"]


@pytest.mark.parametrize("game", list(CASES))
def test_a_variant_played_together_is_the_variant_played_alone(played, game):
    rows_dir, sums_dir = played[game]
    for d in sorted((rows_dir / "variants").iterdir()):
        e = sums_dir / "variants" / d.name
        assert json.loads((d / "stats.json").read_text()) == json.loads((e / "stats.json").read_text())
        assert pq.read_table(d / "games.parquet").equals(pq.read_table(e / "games.parquet"))
        ra, rb = (json.loads((x / "run.json").read_text()) for x in (d, e))
        assert ra["raw_players"] and not rb["raw_players"]
        assert ra["rules_sha256"] == rb["rules_sha256"] and ra["seed"] == rb["seed"]


def test_the_sums_are_exact_and_do_not_depend_on_the_chunks(played, tmp_path):
    """The sums in paired_stats.json equal Python-integer sums over the rows of the sweep played
    the old way, and a lockstep in chunks of 200 games writes the same file."""
    from analysis.sweep.joint import JointSums
    from analysis.sweep.play import chunk_metrics
    from analysis.sweep.play import play_together, run_sweep  # noqa: F401
    from analysis.sweep.store import read_sweep

    game = "middle-ages"
    rows_dir, sums_dir = played[game]
    joint = JointSums.read(sums_dir / "paired_stats.json")
    sweep = read_sweep(rows_dir)
    ints = {}
    for v in sweep["variants"]:
        d = rows_dir / "variants" / v["id"]
        P = json.loads((d / "run.json").read_text())["players"]
        keys, scales, x = chunk_metrics(game, P, pq.read_table(d / "players.parquet"),
                                        pq.read_table(d / "games.parquet"))
        assert keys == joint.keys[v["id"]] and scales == joint.scales[v["id"]]
        ints[v["id"]] = [[int(round(val * s)) for val, s in zip(row, scales)] for row in x.tolist()]
    for vid, w in ints.items():
        assert joint.sums[vid].tolist() == [sum(r[i] for r in w) for i in range(len(w[0]))]
        d = len(w[0])
        assert joint.own[vid].tolist() == [[sum(r[i] * r[j] for r in w) for j in range(d)]
                                           for i in range(d)]
    assert joint.pairs, "the sweep compares some variants"
    for a, b in joint.pairs:
        wa, wb = ints[a], ints[b]
        want = [[sum(x[i] * y[j] for x, y in zip(wa, wb)) for j in range(len(wb[0]))]
                for i in range(len(wa[0]))]
        assert joint.cross[(a, b)].tolist() == want

    small = tmp_path / "chunks"
    run_sweep(_plan(game, False, **CASES[game]), small, chunk_size=200)
    assert (small / "paired_stats.json").read_bytes() == (sums_dir / "paired_stats.json").read_bytes()


def test_a_sweep_cut_short_resumes(played, tmp_path, monkeypatch):
    """Cut before paired_stats.json: nothing is published and the same command plays it again.
    Cut after it (a variant missing): that variant is played alone, the same directory."""
    from analysis.sweep import joint as joint_mod
    from analysis.sweep.play import run_sweep

    game = "seigneurial"
    out = tmp_path / "sweep"

    def fail(self, path):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(joint_mod.JointSums, "write", fail)
        with pytest.raises(KeyboardInterrupt):
            run_sweep(_plan(game, False, **CASES[game]), out)
    assert not (out / "paired_stats.json").exists()
    assert not list(out.glob("variants/*/run.json"))
    run_sweep(_plan(game, False, **CASES[game]), out)
    _, sums_dir = played[game]
    assert (out / "paired_stats.json").read_bytes() == (sums_dir / "paired_stats.json").read_bytes()
    gone = sorted((out / "variants").iterdir())[-1]
    before = json.loads((gone / "stats.json").read_text())
    shutil.rmtree(gone)
    run_sweep(_plan(game, False, **CASES[game]), out)
    assert json.loads((gone / "stats.json").read_text()) == before


def test_the_command_line_sweeps_without_rows_and_reports(tmp_path):
    out = tmp_path / "sw"
    balance("sweep", "--out", out, "--vary", "income.palais.base=2..3", "-n", "2000", "--no-raw",
            "-q", "--players", "4")
    assert json.loads((out / "sweep.json").read_text())["player_rows"] is False
    assert (out / "paired_stats.json").is_file()
    with figures_undrawn():     # the page's words are read, not its figures' pixels
        done = balance("report", out, "--out", tmp_path / "page")
    page = (tmp_path / "page" / "report.html").read_text(encoding="utf-8")
    assert "from exact sums kept as the variants played together" in page, done.stderr
    # a paired_stats.json that is not this sweep's: one line, exit 2
    p = out / "paired_stats.json"
    data = json.loads(p.read_text())
    data["games"] = 1000
    p.write_text(json.dumps(data))
    bad = balance("report", out, "--out", tmp_path / "page2", check=False)
    assert bad.returncode == 2
    assert "paired_stats.json" in bad.stderr and "1,000 games" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_every_share_a_game_can_give_is_a_whole_number_of_its_unit():
    """A strategy's share per seat it holds is (win units of its seats) / (its seats): at P = 5,
    a win shared by 3 (20 of L = 60 units) over 4 seats is 1/12 of a win; a seat's share is a
    whole number of 1/L. A value not whole at its scale is refused, not rounded."""
    from analysis.sweep.joint import JointSums, metric_scales

    for P in range(2, 6):
        keys = ["seat_win_share_1", "role_win_share_x", "strategy_win_share_a", "winner_margin"]
        sc = metric_scales(keys, P)
        L = sc[0]
        for winners in range(1, P + 1):
            for seats in range(1, P + 1):
                for held in range(0, min(winners, seats) + 1):
                    x = held * (L // winners) / L / seats
                    assert abs(x * sc[2] - round(x * sc[2])) < 1e-9, (P, winners, seats, held)
    j = JointSums(["v0"], [])
    with pytest.raises(ValueError, match="not a whole number"):
        j.add_chunk({"v0": (["seat_win_share_1"], [4], np.array([[1 / 3]]))})


def test_an_older_sweep_with_rows_resumes_as_it_was_played(tmp_path, monkeypatch):
    """A sweep directory written before sweeps could go without rows (no player_rows in sweep.json)
    of more games than the row limit resumes with rows, not as "another sweep"; --no-raw given
    asks for the other sweep and is refused without --force."""
    import simcore.runner as runner
    from analysis.sweep.play import run_sweep
    from simcore.errors import UsageError

    monkeypatch.setattr(runner, "RAW_LIMIT", 1000)
    kw = dict(varies=["income.palais.base=2..3"], games=1200, seed=4, players=4)
    out = tmp_path / "old"
    run_sweep(_plan("middle-ages", True, **kw), out)            # as the old version played it
    assert "player_rows" not in json.loads((out / "sweep.json").read_text())
    gone = sorted((out / "variants").iterdir())[-1]
    shutil.rmtree(gone)
    run_sweep(_plan("middle-ages", None, **kw), out)            # resumed by default: with rows
    assert (gone / "players.parquet").is_file() and not (out / "paired_stats.json").exists()
    with pytest.raises(UsageError, match="was played with player rows; give --raw"):
        run_sweep(_plan("middle-ages", False, **kw), out)


def test_a_three_way_tie_at_five_players_is_taken_exactly():
    """Review H #1: players.parquet keeps a third as float32; a strategy's share per seat it holds
    at 5 players is in units of 1/3600, where that error (1e-8 × 3600) was refused as "not a whole
    number" and the sweep stopped. The shares are taken in whole units of 1/L first."""
    import pyarrow as pa

    from analysis.sweep.joint import JointSums
    from analysis.sweep.play import chunk_metrics

    third = np.float32(1 / 3)
    players = pa.table({
        "seat": pa.array(np.tile(np.arange(5), 2).astype(np.int8)),
        "strategy": pa.array(["balanced", "random", "random", "random", "random"] * 2),
        "win_share": pa.array(np.array([third, third, third, 0, 0, 0, 0, 0, 1, 0], np.float32)),
        "score": pa.array(np.array([5, 5, 5, 3, 1, 2, 2, 2, 9, 1], np.int32)),
    })
    games = pa.table({"turns": pa.array(np.array([20, 30], np.int16))})
    keys, scales, x = chunk_metrics("medievallons", 5, players, games)
    j = JointSums(["v0"], [])
    j.add_chunk({"v0": (keys, scales, x)})
    k = keys.index("strategy_win_share_random")
    # game 1: random holds 4 seats and 2/3 of a win: 1/6 per seat; game 2: 1/4 per seat
    assert scales[k] == 3600 and j.sums["v0"][k] == 600 + 900
    assert j.sums["v0"][keys.index("seat_win_share_1")] == 60 // 3


def test_a_lockstep_sweep_cut_short_in_its_publications_is_reported(played, tmp_path):
    """Review H #3: sums written, a variant's publication cut short: the page is made from the
    variants published (an effect between two of them, never a pair the sums lack), and says
    which is missing."""
    from analysis.sweep.metrics import sensitivity

    _, sums_dir = played["middle-ages"]
    cut = tmp_path / "cut"
    shutil.copytree(sums_dir, cut)
    last = sorted((cut / "variants").iterdir())[-1]
    shutil.rmtree(last)
    s = sensitivity(cut)
    assert s.missing == [last.name] and s.effects.height > 0
    assert last.name not in set(s.variants["variant"].to_list())
    with figures_undrawn():     # the page's words are read, not its figures' pixels
        done = balance("report", cut, "--out", tmp_path / "page")
    assert "Not finished yet" in (tmp_path / "page" / "report.html").read_text(encoding="utf-8"), done


def test_a_metric_and_its_mirror_move_by_exactly_opposite_amounts(played):
    """Review H #6: from the sums, the Seigneur's share and the Censitaires' (each other's mirror)
    changed by amounts that differed in the last bit, and the panel page ordered them otherwise
    than from rows."""
    from analysis.sweep.metrics import sensitivity

    e = sensitivity(played["seigneurial"][1]).effects
    d = dict(zip(e["metric"].to_list(), e["delta"].to_list()))
    assert d["role_win_share_censitaire"] == -d["role_win_share_seigneur"] != 0


def test_force_replaces_a_sweep_without_rows_and_a_resume_keeps_its_choice(tmp_path):
    """Review H #4: --force over a sweep written without rows was refused ("holds
    paired_stats.json, which this toolkit did not write there"). And a sweep played with
    --no-raw, resumed without the flag, resumes as it was played (not "another sweep")."""
    from analysis.sweep.play import run_sweep

    kw = dict(varies=["income.palais.base=2..3"], games=600, seed=2, players=4)
    out = tmp_path / "s"
    run_sweep(_plan("middle-ages", False, **kw), out)
    gone = sorted((out / "variants").iterdir())[-1]
    shutil.rmtree(gone)
    run_sweep(_plan("middle-ages", None, **kw), out)             # ≤ 1e5 games: rows by default
    assert (gone / "run.json").is_file() and not (gone / "players.parquet").exists()
    other = dict(kw, varies=["income.palais.base=3..4"])
    run_sweep(_plan("middle-ages", True, **other), out, force=True)
    assert not (out / "paired_stats.json").exists()
    assert json.loads((out / "sweep.json").read_text())["varies"][0]["text"].endswith("3..4")


def test_a_sweep_without_its_sums_says_so(played, tmp_path):
    from analysis.sweep.metrics import sensitivity
    from simcore.errors import UsageError

    _, sums_dir = played["middle-ages"]
    d = tmp_path / "nosums"
    shutil.copytree(sums_dir, d)
    (d / "paired_stats.json").unlink()
    with pytest.raises(UsageError, match="no paired_stats.json, the exact sums of this sweep"):
        sensitivity(d)
    (d / "paired_stats.json").write_text("{not json")
    with pytest.raises(UsageError, match="not readable exact sums"):
        sensitivity(d)


def test_the_sums_of_another_sweep_are_named_not_a_good_variant(played, tmp_path):
    """Review I #1: paired_stats.json copied from another sweep (other values, the same variant
    ids, games and seed) was blamed on variant v000, and moving v000 away as told only played it
    again against the same wrong file. The file is named, by the page and before a resume."""
    from analysis.sweep.metrics import sensitivity
    from analysis.sweep.play import run_sweep
    from simcore.errors import UsageError

    kw = dict(varies=["income.palais.base=2..3"], games=600, seed=2, players=4)
    mine, other = tmp_path / "mine", tmp_path / "other"
    run_sweep(_plan("middle-ages", False, **kw), mine)
    run_sweep(_plan("middle-ages", False, **dict(kw, varies=["income.palais.base=3..4"])), other)
    shutil.copy(other / "paired_stats.json", mine / "paired_stats.json")
    with pytest.raises(UsageError, match=r"paired_stats.json: not made from .*v000.*restore this sweep's own file"):
        sensitivity(mine)
    shutil.rmtree(sorted((mine / "variants").iterdir())[0])
    with pytest.raises(UsageError, match=r"paired_stats.json: not this sweep's exact sums \(v000: other rules"):
        run_sweep(_plan("middle-ages", False, **kw), mine)


def _stopped_at_chunk(chunk: int, args, out, monkeypatch):
    """``balance sweep *args --out out`` of two variants played together, stopped as a Ctrl-C
    stops it (the handler's Interrupted) at both variants' ``chunk``; the sweep then plays on."""
    import signal

    import analysis.sweep.play as play
    from simcore.errors import Interrupted

    real = play.chunk_metrics
    seen = []

    def cut(*a, **k):
        seen.append(1)
        if len(seen) == 2 * chunk:
            raise Interrupted(signal.SIGINT)
        return real(*a, **k)

    with monkeypatch.context() as m:
        m.setattr(play, "chunk_metrics", cut)
        return balance(*args, "--out", out, check=False)


def test_a_sweep_without_rows_stopped_mid_way_goes_on_from_what_it_kept(tmp_path, monkeypatch):
    """Review I #2: Ctrl-C on a sweep without rows lost every game played (its variants kept
    their games only once all were played) while the line said "resume". The games played are
    now kept every 8 chunks (played_so_far/): stopped after 19 of 24 chunks, the same command
    goes on from game 1,600 and writes exactly the directories and sums of a sweep never
    stopped; the interruption line and the rerun say so."""
    args = ("sweep", "--vary", "income.palais.base=2..3", "-n", "2400", "--no-raw", "--players",
            "4", "--chunk-size", "100")
    whole = tmp_path / "whole"
    balance(*args, "--out", whole)

    out = tmp_path / "cut"
    first = _stopped_at_chunk(19, args, out, monkeypatch)
    assert first.returncode != 0
    assert "resume" in first.stderr and "goes on from game 1,600" in first.stderr, first.stderr
    assert (out / "played_so_far" / "state.json").is_file()
    assert not list((out / "variants").glob("*/run.json"))
    again = balance(*args, "--out", out)
    assert "go on together from game 1,600 of 2,400" in again.stderr, again.stderr
    assert not (out / "played_so_far").exists()
    assert (out / "paired_stats.json").read_bytes() == (whole / "paired_stats.json").read_bytes()
    for d in sorted((whole / "variants").iterdir()):
        for f in ("stats.json", "games.parquet", "summary.parquet", "events_summary.parquet"):
            assert (out / "variants" / d.name / f).read_bytes() == (d / f).read_bytes(), f


def test_a_sweep_stopped_before_its_first_checkpoint_does_not_promise_its_games(tmp_path, monkeypatch):
    """Review s52: stopped in its 3rd chunk (a sweep without rows keeps its games every 8 chunks),
    the line said "running it again goes on from there" though nothing played was kept; the rerun
    then plays from the first game, as the line now says."""
    args = ("sweep", "--vary", "income.palais.base=2..3", "-n", "2400", "--no-raw", "--players",
            "4", "--chunk-size", "100")
    out = tmp_path / "cut"
    first = _stopped_at_chunk(3, args, out, monkeypatch)
    assert first.returncode != 0
    assert not (out / "played_so_far" / "state.json").exists()
    assert "goes on from" not in first.stderr, first.stderr
    assert "none was kept yet: running it again plays them from the first game" in first.stderr, first.stderr
    again = balance(*args, "--out", out)
    assert "go on together from game" not in again.stderr, again.stderr
    assert "none of its games was kept (it stopped before its first checkpoint)" in again.stderr


def test_a_narrow_interval_is_printed_with_ends_that_differ():
    """At 1e7 games a variant the page said "by −0.9 pp (−0.9 to −0.9)": an interval whose ends
    print the same gets one or two more decimals; a wide one keeps the page's usual precision."""
    from reports.sweep import _share_text, _unit_text

    assert _share_text(-0.009, -0.0093, -0.0087) == "−0.90 pp (−0.93 to −0.87)"
    assert _share_text(0.004, 0.001, 0.007) == "+0.4 pp (+0.1 to +0.7)"
    assert _unit_text(-0.11, -0.1131, -0.1129, "coins").endswith("(−0.113 to −0.113)") is False
    assert "(−0.1131 to −0.1129)" in _unit_text(-0.113, -0.1131, -0.1129, "coins")
    # the run page's plain numbers likewise: "the lead changes 3.00 times per game (3.00–3.00)"
    from reports.text import num_ci

    assert num_ci(2.9981, 3.0032) == "2.998–3.003" and num_ci(8.37, 8.40) == "8.37–8.40"
    assert num_ci(1.0, 1.0) == "1.00–1.00"            # a zero-width interval is printed as it is


@pytest.fixture(scope="module")
def two_chains(played, tmp_path_factory):
    """Sweeps with two variants of one player count in a chain: the Middle-Ages grid of ``played``,
    and a Seigneurial sweep of a rule (roles: the role rows), with rows and without."""
    from analysis.sweep.play import run_sweep

    base = tmp_path_factory.mktemp("chains")
    kw = dict(varies=["resources.start_cards=0..1"], games=1500, seed=7, players=4)
    rows, sums = base / "sg-rows", base / "sg-sums"
    run_sweep(_plan("seigneurial", True, **kw), rows)
    run_sweep(_plan("seigneurial", False, **kw), sums)
    return {"middle-ages": played["middle-ages"], "seigneurial": (rows, sums)}


@pytest.mark.parametrize("game", ["middle-ages", "seigneurial"])
def test_a_before_after_of_two_variants_is_paired_from_the_sweeps_sums(two_chains, game):
    """``balance report SWEEP/variants/vA SWEEP/variants/vB`` of a sweep without rows compared the
    two unpaired ("kept no per-game rows"). Two variants of one chain are paired from
    paired_stats.json: every paired row (seat and role win shares, the game length) equals the
    before/after of the same variants played with rows, paired from the rows game by game."""
    from analysis import analyse, open_runs
    from analysis.compare import compare_runs
    from analysis.sweep.joint import JointSums

    rows_dir, sums_dir = two_chains[game]
    joint = JointSums.read(sums_dir / "paired_stats.json")
    players = {v: json.loads((sums_dir / "variants" / v / "run.json").read_text())["players"]
               for v in joint.variants}
    assert joint.pairs, joint.variants
    a, b = next(((a, b) for a, b in joint.pairs if players[a] == players[b]), (None, None))
    assert a is not None, (joint.pairs, players)
    found = {}
    for where in (rows_dir, sums_dir):
        rs = [open_runs([where / "variants" / v]) for v in (a, b)]
        cmp = compare_runs(rs[0], rs[1], analyse(rs[0]), analyse(rs[1]))
        assert cmp.pairing.paired, cmp.pairing.why
        found[where] = cmp
    assert found[rows_dir].pairing.source == "rows" and found[sums_dir].pairing.source == "sums"
    from_rows, from_sums = (found[d].table.filter(pl.col("paired")).sort("metric", "key")
                            for d in (rows_dir, sums_dir))
    metrics = set(from_sums["metric"])
    want = {"seat_win_share"} | ({"role_win_share"} if game == "seigneurial" else set())
    assert want <= metrics <= set(from_rows["metric"]), metrics
    rows_part = from_rows.filter(pl.col("metric").is_in(list(metrics)))
    _same_tables(rows_part.select("metric", "key", "diff", "diff_low", "diff_high", "z", "p_value"),
                 from_sums.select("metric", "key", "diff", "diff_low", "diff_high", "z", "p_value"),
                 f"{game} {a}→{b}")
    # the same two variants from another sweep's directory are not paired by these sums
    other = sums_dir.parent / f"{game}-copy"
    shutil.copytree(sums_dir / "variants" / b, other / "variants" / b)
    rs = [open_runs([sums_dir / "variants" / a]), open_runs([other / "variants" / b])]
    assert not compare_runs(rs[0], rs[1], analyse(rs[0]), analyse(rs[1])).pairing.paired


class _Planted:
    """A pickle that, once loaded, creates a file (a crafted checkpoint could run any command)."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return (open, (self.path, "w"))


def test_a_checkpoint_naming_anything_but_sums_is_not_loaded(tmp_path, monkeypatch):
    """A sweep's played_so_far/sums-N.pkl was unpickled as it was: a crafted file in a sweep
    directory one was given ran its command on the same sweep's resume (the reliability review
    ran a shell command so). Only the classes the sums are made of (and numpy's) are loaded; any
    other global leaves the checkpoint unused: the sweep plays from game 0, to the same result
    (and says so: test_a_resume_is_announced_only_once_the_checkpoint_is_read)."""
    import json
    import pickle

    args = ("sweep", "--vary", "income.palais.base=2..3", "-n", "1200", "--no-raw", "--players",
            "4", "--chunk-size", "100")
    whole = tmp_path / "whole"
    balance(*args, "--out", whole)
    out = tmp_path / "cut"
    assert _stopped_at_chunk(10, args, out, monkeypatch).returncode != 0
    state = json.loads((out / "played_so_far" / "state.json").read_text())
    planted = tmp_path / "planted.txt"
    (out / "played_so_far" / state["file"]).write_bytes(
        pickle.dumps({"builds": [_Planted(planted)], "observer": None}))
    again = balance(*args, "--out", out)
    assert not planted.exists(), "the checkpoint's global was called"
    assert (out / "paired_stats.json").read_bytes() == (whole / "paired_stats.json").read_bytes()
    assert not (out / "played_so_far").exists()


def test_a_resume_is_announced_only_once_the_checkpoint_is_read(tmp_path, monkeypatch):
    """"resuming … from game 800" was read from played_so_far/state.json before the sums were:
    a crafted sums-N.pkl (refused by the checkpoint's unpickler) or one kept for another sweep was
    announced as resumed from game 800, then played from game 0. The line is printed once the sums
    have been read: the game the variants go on from, or that what was kept could not be used and
    they play from game 0."""
    import json
    import pickle

    args = ("sweep", "--vary", "income.palais.base=2..3", "-n", "1200", "--no-raw", "--players",
            "4", "--chunk-size", "100")
    cut = tmp_path / "cut"
    assert _stopped_at_chunk(10, args, cut, monkeypatch).returncode != 0
    crafted, other = tmp_path / "crafted", tmp_path / "other"
    shutil.copytree(cut, crafted)
    shutil.copytree(cut, other)
    state = json.loads((cut / "played_so_far" / "state.json").read_text())
    assert state["games_done"] == 800
    (crafted / "played_so_far" / state["file"]).write_bytes(
        pickle.dumps({"builds": [_Planted(tmp_path / "planted.txt")], "observer": None}))
    (other / "played_so_far" / "state.json").write_text(
        json.dumps({**state, "key": {**state["key"], "seed": 99}}))

    def said(out) -> str:
        return " ".join(balance(*args, "--out", out).stderr.split())

    line = said(crafted)
    assert "from game 800" not in line, line
    assert (f"resuming {crafted}: the games kept in {crafted / 'played_so_far'} could not be used "
            "(io.open: not something a checkpoint holds); the variants play from game 0 of 1,200") \
        in line, line
    line = said(other)
    assert "from game 800" not in line, line
    assert ("could not be used (kept for other games, rules or seed, or by another version); the "
            "variants play from game 0 of 1,200") in line, line
    assert f"resuming {cut}: the variants go on together from game 800 of 1,200" in said(cut)
    for d in (crafted, other):
        assert (d / "paired_stats.json").read_bytes() == (cut / "paired_stats.json").read_bytes()
