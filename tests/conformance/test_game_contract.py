"""One conformance suite for every registered game (issue: the game contract).

Parametrised over the registry, so a game gets every check by being registered: its spec is
complete and its tables match the spec's columns; same seed → identical run directories whatever
the thread count and chunk size; the kernel plays exactly the reference engine's games where the
game has one; its golden playthrough is current; options it does not take, and player counts it
is not played at, are refused with one line and exit code 2 before anything is written; listing
games or bots never imports a kernel.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numba
import pyarrow.parquet as pq
import pytest

from cli import _run
from simcore import games as registry
from simcore.contract import COMMON_OPTIONS

SPECS = list(registry.specs().values())
IDS = [s.name for s in SPECS]
ROOT = Path(__file__).resolve().parents[2]


def _mixed_lineup(spec) -> str | None:
    """The game's presets spread over the seats (a mixed line-up), or None without bots."""
    if spec.strategies is None:
        return None
    presets = list(registry.import_hook(spec.strategies).presets())
    cheap = [p for p in presets if p not in ("rollout", "playout")] or presets
    return ",".join(cheap[i % len(cheap)] for i in range(spec.default_players))


def _simulate(spec, out: Path, *extra: str) -> int:
    return _run(["simulate", "--game", spec.name, "--out", str(out), "--quiet", *extra])


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_spec_is_complete(spec):
    lo, hi = spec.players
    assert 1 <= lo <= spec.default_players <= hi
    assert spec.score_unit and spec.title and spec.description
    names = [c.name for c in spec.all_player_columns]
    assert names[:3] == ["game", "seat", "strategy"]
    assert {"score", "win_share", "rank"} <= set(names), "the common result columns"
    assert len(set(names)) == len(names)
    assert all(c.meaning for c in (*spec.all_player_columns, *spec.game_columns))
    if spec.roles:
        assert len(spec.seat_roles(lo)) == lo and len(spec.seat_roles(hi)) == hi
    if spec.default_strategy is not None:
        assert spec.default_strategy in registry.import_hook(spec.strategies).presets()
    assert spec.rules_doc.startswith("shared/rules/") and spec.rules_doc.endswith(".md")
    if spec.adapter.startswith("simcore.games."):   # not the test game, Pig
        # the spec's copy in docs/rules/ (every clone has it; review s48: the check ran only where
        # ../shared/rules/ sat beside the checkout), and the shared original where it is there
        doc = Path(spec.rules_doc).name
        assert (ROOT / "docs" / "rules" / doc).is_file(), \
            f"{spec.name}: its rules spec docs/rules/{doc} is missing (a copy of {spec.rules_doc})"
        shared = ROOT.parent / "shared" / "rules"      # beside the checkout on a developer's machine
        if shared.is_dir():
            assert (shared / doc).exists()


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_run_directory_matches_the_spec(spec, tmp_path):
    assert _simulate(spec, tmp_path / "run", "--games", "300", "--seed", "4") == 0
    players = pq.read_table(tmp_path / "run" / "players.parquet")
    games = pq.read_table(tmp_path / "run" / "games.parquet")
    assert players.schema == spec.players_schema()
    assert games.schema == spec.games_schema()
    assert games.num_rows == 300 and players.num_rows == 300 * spec.default_players
    meta = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert meta["game"] == spec.name and meta["players"] == spec.default_players
    share = players.column("win_share").to_numpy().reshape(-1, spec.default_players).sum(axis=1)
    assert abs(share - 1).max() < 1e-6, "every game's win shares add up to 1"


@pytest.fixture(scope="module")
def one_thread_one_chunk(tmp_path_factory):
    """Each game's run on one thread in one chunk, the run every thread/chunk parametrisation
    below is compared with: made once per game (it was made three times, once per
    parametrisation) and only read afterwards."""
    made = {}

    def run(spec, bots):
        if spec.name not in made:
            a = tmp_path_factory.mktemp(f"one-chunk-{spec.name}") / "a"
            assert _simulate(spec, a, "--games", "1000", "--seed", "11", "--threads", "1",
                             "--chunk-size", "1000", *bots) == 0
            made[spec.name] = a
        return made[spec.name]

    return run


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@pytest.mark.parametrize("threads,chunk", [(1, 97), (2, 1000), (2, 33)])
def test_same_seed_gives_identical_parquet_whatever_threads_and_chunks(spec, tmp_path, threads, chunk,
                                                                      one_thread_one_chunk):
    if threads > numba.config.NUMBA_NUM_THREADS:
        pytest.skip("needs 2 threads")
    lineup = _mixed_lineup(spec)
    bots = ("--strategies", lineup) if lineup else ()
    a, b = one_thread_one_chunk(spec, bots), tmp_path / "b"
    assert _simulate(spec, b, "--games", "1000", "--seed", "11", "--threads", str(threads),
                     "--chunk-size", str(chunk), *bots) == 0
    for name in ("players.parquet", "games.parquet", "summary.parquet"):
        assert pq.read_table(a / name).equals(pq.read_table(b / name)), name


@pytest.mark.parametrize("spec", [s for s in SPECS if s.reference], ids=[s.name for s in SPECS if s.reference])
def test_reference_engine_writes_the_same_run_as_the_kernel(spec, tmp_path):
    """Random play: the kernel's games are exactly the pure-Python reference's games."""
    P = spec.players[1]
    common = ("--games", "40", "--seed", "3", "--players", str(P), "--strategies", "random")
    assert _simulate(spec, tmp_path / "k", *common) == 0
    assert _simulate(spec, tmp_path / "r", *common, "--engine", "reference") == 0
    for name in ("players.parquet", "games.parquet"):
        assert pq.read_table(tmp_path / "k" / name).equals(pq.read_table(tmp_path / "r" / name))


@pytest.mark.parametrize("spec", [s for s in SPECS if s.golden], ids=[s.name for s in SPECS if s.golden])
def test_golden_playthrough_is_current(spec):
    mod = registry.import_hook(spec.golden)
    assert mod.GOLDEN_PATH.exists()
    d = mod.diff()
    assert d == "", f"golden file differs; regenerate with `make golden` if intended:\n{d}"
    assert mod.main(["--check"]) == 0
    assert _run(["golden", "--check", "--game", spec.name]) == 0


def test_golden_without_an_option_lists_the_games_and_their_files(capsys, monkeypatch):
    """Review W #9: ``balance golden`` without an option printed every game's log at once (2,906
    lines, no header between games). It lists each game with a playthrough, its committed file and
    that file's length, and says how to print, check or regenerate them."""
    monkeypatch.chdir(Path(__file__).resolve().parents[2])
    assert _run(["golden"]) == 0
    lines = capsys.readouterr().out.splitlines()
    with_golden = [s for s in SPECS if s.golden]
    assert len(lines) == len(with_golden) + 1, lines
    for spec, line in zip(with_golden, lines):
        path = registry.import_hook(spec.golden).GOLDEN_PATH
        n = len(path.read_text(encoding="utf-8").splitlines())
        assert line == (f"{spec.name}: tests/golden/{path.name} ({n:,} lines); balance golden "
                        f"--game {spec.name} prints it"), line
    assert "--check" in lines[-1] and "--write" in lines[-1]


def _options_not_taken(spec) -> list[list[str]]:
    out = [[flag, "3"] if name == "players" else [flag, "random"] if name == "strategies"
           else [flag, "kernel"] if name == "engine" else [flag]
           for name, flag in COMMON_OPTIONS.items() if name not in spec.takes]
    own = {o.flag for o in spec.options}
    for other in SPECS:
        out += [[o.flag, str(o.default if o.default is not None else 1)]
                for o in other.options if o.flag not in own]
    return out


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_options_the_game_does_not_take_are_refused(spec, tmp_path, capsys):
    refused = _options_not_taken(spec)
    assert refused, "every game leaves out some option of another"
    for argv in refused:
        assert _simulate(spec, tmp_path / "x", "--games", "10", *argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and argv[0] in err and spec.name in err, err
        assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("spec", [s for s in SPECS if "players" in s.takes],
                         ids=[s.name for s in SPECS if "players" in s.takes])
def test_player_counts_outside_the_range_are_refused(spec, tmp_path, capsys):
    lo, hi = spec.players
    for bad in (lo - 1, hi + 1):
        assert _simulate(spec, tmp_path / "x", "--games", "10", "--players", str(bad)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"--players {bad}" in err
    assert not (tmp_path / "x").exists()


def test_unknown_game_is_refused_with_a_suggestion(tmp_path, capsys):
    assert _run(["simulate", "--game", "middle-age", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert "unknown game" in err and "did you mean middle-ages" in err


def test_listing_games_and_bots_compiles_no_kernel():
    """`balance games` and `balance strategies` read specs and bot files only."""
    code = ("import sys\n"
            f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
            "from simcore import games\n"
            "games.register('pig.spec')\n"
            "from cli import _run\n"
            "assert _run(['games']) == 0\n"
            f"for g in {[s.name for s in SPECS if s.strategies]!r}:\n"
            "    assert _run(['strategies', '--game', g]) == 0\n"
            "loaded = [m for m in sys.modules if m == 'numba' or m.startswith('numba.')\n"
            "          or m.endswith(('.kernel', '.driver', '.bots'))]\n"
            "print(loaded)\n"
            "sys.exit(1 if loaded else 0)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_game_modules_follow_the_declared_protocols(spec):
    """The adapter, strategy loader, rules module and reference engine are what the contract's
    Protocols say (a missing function fails here, not deep in a run)."""
    from simcore import contract

    assert isinstance(registry.import_hook(spec.adapter), contract.Adapter)
    assert isinstance(registry.import_hook(spec.rules_module), contract.RulesModule)
    if spec.strategies:
        loader = registry.import_hook(spec.strategies)
        assert isinstance(loader, contract.StrategyLoader)
        for bot in loader.presets().values():
            assert isinstance(bot, contract.Strategy), bot.name
    if spec.reference:
        assert isinstance(registry.import_hook(spec.reference_module), contract.ReferenceEngine)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_column_roles_are_declared(spec):
    """Every game declares its result columns by role, with ranges where a role implies one."""
    assert spec.score_column.unit == spec.score_unit
    win, rank = spec.role_column("win_share"), spec.role_column("rank")
    assert win is not None and (win.low, win.high) == (0, 1)
    assert rank is not None and rank.low == 1 and rank.high >= spec.players[1]
    for role in ("end_reason",):
        col = spec.role_column(role, "games")
        if col is not None:
            assert col.labels and (col.low, col.high) == (min(col.label_names), max(col.label_names))
