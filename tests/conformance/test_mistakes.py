"""The six mistakes of issue #26, each made in a copy of Pig (tests/conformance/pig) built in a
temporary folder and registered under its own name: the conformance checks must fail with a
message naming the problem. (Pig itself passes every check: tests/conformance/test_*.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from cli import _run
from simcore import games as registry
from simcore import runner
from simcore.contract import ContractError, check_chunk
from test_every_preset_replayed import check_native_bots, check_replayed_lineup

PIG = Path(__file__).with_name("pig")


@pytest.fixture
def copies(request, tmp_path) -> Path:
    """Where the broken copies go: a folder kept between runs (pytest's cache), so that Numba's
    on-disk cache of an unchanged copy is reused (a cold compile of each copy would cost most of
    this module's time); files are rewritten only when their content changes."""
    try:
        return Path(request.config.cache.mkdir("pig_copies"))
    except Exception:                        # no cache (-p no:cacheprovider): a fresh folder
        return tmp_path


def _sync(src: Path, dst: Path) -> None:
    """``dst`` holds exactly ``src``'s files, unchanged files untouched (their mtime is part of
    Numba's cache key)."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in src.iterdir():
        if f.is_file() and (not (dst / f.name).exists()
                            or (dst / f.name).read_bytes() != f.read_bytes()):
            shutil.copy2(f, dst / f.name)


# A copy whose mistake is outside the jitted files (kernel.py, bots.py) plays Pig's own compiled
# kernel: its driver imports ``pig.kernel`` (cached by tests/warm_kernels.py) instead of its own
# copy, which Numba would compile cold (~2 s of CPU a copy: its path is new). The mistake under test
# (a dtype, a column, a mapping in driver.py, spec.py or game.py) is the same either way.
PIGS_KERNEL = ("from .kernel import play_chunk", "from pig.kernel import play_chunk")


def broken_pig(root: Path, name: str, edits: dict[str, list[tuple[str, str]]],
               register: bool = True):
    """A copy of Pig as package ``name`` under ``root``, with ``edits`` (file → (old, new)
    replacements, each of which must apply), registered; returns its spec. A copy that edits
    neither kernel.py nor bots.py plays Pig's compiled kernel (PIGS_KERNEL)."""
    staged = root / ".staging" / name
    if staged.exists():
        shutil.rmtree(staged)
    shutil.copytree(PIG, staged, ignore=shutil.ignore_patterns("__pycache__"))
    if edits and not {"kernel.py", "bots.py"} & set(edits):
        edits = {**edits, "driver.py": [*edits.get("driver.py", []), PIGS_KERNEL]}
    for file, pairs in edits.items():
        text = (staged / file).read_text(encoding="utf-8")
        for old, new in pairs:
            assert old in text, f"{file}: {old!r} not found (Pig changed?)"
            text = text.replace(old, new)
        (staged / file).write_text(text, encoding="utf-8")
    _sync(staged, root / name)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if register:
        registry.register(f"{name}.spec")
        return registry.get(name.replace("_", "-"))
    return None


def _chunk_check(spec, n=300, **kw):
    prep = runner.prepare(spec.name, **kw)
    check_chunk(prep, prep.play(0, n, 5), n)


def test_1_kernel_dtypes_other_than_the_spec_are_named(copies, tmp_path):
    spec = broken_pig(copies, "pig_dtype", {"driver.py": [
        ('o = {"score": out[0],', 'o = {"score": out[0].astype(np.int32),'),
        ('"best_turn": out[3],', '"best_turn": out[3].astype(np.float64),')]})
    with pytest.raises(ContractError, match="players column 'score' is int32 but the spec "
                                            "declares int16; players column 'best_turn' is "
                                            "float64 but the spec declares int16"):
        _chunk_check(spec)


def test_2_a_spec_column_too_narrow_for_a_rule_setting_is_one_line(copies, tmp_path, capsys):
    """int8 rolls fit the default rules (at most ~80 rolls a game) but wrap around with
    ``--set target=2000``: one line naming the column, exit code 2, no traceback."""
    spec = broken_pig(copies, "pig_narrow", {
        "spec.py": [('Column("rolls", "int16"', 'Column("rolls", "int8"')],
        "driver.py": [('"rolls": out[1],', '"rolls": out[1].astype(np.int8),')]})
    _chunk_check(spec)                                   # the default rules pass
    code = _run(["simulate", "--game", spec.name, "--games", "300", "--quiet", "--set",
                 "target=2000", "--out", str(tmp_path / "run")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "column 'rolls' holds" in err and "declared range 0..127 (int8)" in err
    assert not (tmp_path / "run").exists()


def _threads_agree(spec, n_games: int, tries: int = 3) -> None:
    """Two-thread runs of ``n_games`` equal the one-thread run (a cheap race detector: Pig's
    games are short, so a shared workspace is overwritten within a few thousand games)."""
    import numba

    prep = runner.prepare(spec.name, strategies="hold-20,random,hold-12")
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = np.asarray(prep.play(0, n_games, 1).players["score"])
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        for k in range(tries):
            two = np.asarray(prep.play(0, n_games, 1).players["score"])
            bad = np.flatnonzero(one != two)
            assert not bad.size, (f"{spec.name}: 2 threads change game {bad[0] // 3} of the same "
                                  f"seed (try {k + 1}): a workspace shared between threads (a "
                                  "data race)")
    finally:
        numba.set_num_threads(old)


@pytest.mark.skipif(__import__("numba").config.NUMBA_NUM_THREADS < 2, reason="needs 2 threads")
def test_3_one_workspace_shared_by_threads_is_a_data_race(copies, tmp_path):
    _threads_agree(registry.get("pig"), 20000)           # the real game passes
    spec = broken_pig(copies, "pig_race", {"kernel.py": [
        ("    for g in prange(n):\n        st = np.zeros(1, np.uint64)\n",
         "    ws = np.zeros((4, P), np.int64)\n    for g in prange(n):\n"
         "        st = np.zeros(1, np.uint64)\n"),
        ("        ws = np.zeros((4, P), np.int64)\n        t, r, k", "        t, r, k")]})
    with pytest.raises(AssertionError, match="a workspace shared between threads"):
        _threads_agree(spec, 20000)


def test_4a_a_score_unit_other_than_the_score_columns_is_refused(copies, tmp_path):
    with pytest.raises(ValueError, match="score column's unit 'points' differs from the spec's "
                                         "score_unit 'coins'"):
        broken_pig(copies, "pig_unit", {"spec.py": [('score_unit="points"',
                                                       'score_unit="coins"')]})


def test_4b_a_score_filled_from_another_column_differs_from_the_reference(copies, tmp_path):
    spec = broken_pig(copies, "pig_score", {"driver.py": [
        ('o = {"score": out[0],', 'o = {"score": out[3],')]})
    with pytest.raises(AssertionError, match="kernel score != reference score"):
        check_replayed_lineup(spec, ["hold-20", "random", "hold-12"], n_games=4)


def test_4c_a_score_column_mapped_from_another_array_is_named(copies, tmp_path):
    """The adapter hands `best_turn` as the score (the kernel's own score is right)."""
    spec = broken_pig(copies, "pig_map", {"game.py": [
        ("        return driver.run_chunk(rules, players, first, n, seed, rows)",
         "        o = driver.run_chunk(rules, players, first, n, seed, rows)\n"
         "        return {**o, 'score': o['best_turn']}")]})
    with pytest.raises(AssertionError, match=r"the run's 'score' column \(role score, in points\)"):
        check_replayed_lineup(spec, ["hold-20", "random", "hold-12"], n_games=4)


def test_5_a_bot_that_differs_between_kernel_and_reference_is_named(copies, tmp_path):
    spec = broken_pig(copies, "pig_bot", {"bots.py": [
        ("turn_total >= row[1]", "turn_total > row[1]")]})
    with pytest.raises(AssertionError, match="bot 'hold-20' plays game .* differently in the "
                                             "kernel and the reference"):
        check_native_bots(spec, ["hold-20"])


STALE = """
import sys
sys.path.insert(0, {tmp!r}); sys.path.insert(0, {here!r})
from simcore import cache_folders, games
if {disable}:
    cache_folders.register = lambda folder: None      # the old world: no stamp for the folder
games.register("pig_stale.spec")
from test_every_preset_replayed import check_native_bots
check_native_bots(games.get("pig-stale"), ["hold-20"], n_games=30)
print("ok")
"""


def _stale_run(tmp_path: Path, disable: bool) -> subprocess.CompletedProcess:
    code = textwrap.dedent(STALE.format(tmp=str(tmp_path), here=str(Path(__file__).parent),
                                        disable=disable))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)


@pytest.mark.slow      # four cold compiles in subprocesses
@pytest.mark.parametrize("stamped", [True, False], ids=["registry-stamp", "no-stamp"])
def test_6_an_edit_to_bots_py_is_not_ignored_by_the_numba_cache(tmp_path, stamped):
    """Compile and cache the copy, then edit its bot in bots.py and in the reference alike: the
    registry's folder stamp recompiles (the check passes); without it Numba runs the cached, old
    bot, and the kernel-vs-reference check fails naming the bot."""
    broken_pig(tmp_path, "pig_stale", {}, register=False)
    first = _stale_run(tmp_path, not stamped)
    assert first.returncode == 0, first.stderr[-2000:]
    folder = tmp_path / "pig_stale"
    for file, old, new in (("bots.py", "turn_total >= row[1]", "turn_total > row[1]"),
                           ("reference.py", "total >= self.threshold", "total > self.threshold")):
        path = folder / file
        path.write_text(path.read_text().replace(old, new))
    again = _stale_run(tmp_path, not stamped)
    if stamped:
        assert again.returncode == 0, again.stderr[-2000:]
    else:
        assert again.returncode != 0 and "bot 'hold-20' plays game" in again.stderr, again.stderr


def test_7_win_shares_that_do_not_add_up_to_one_are_named(copies, tmp_path):
    """Second place credited half a win as well (review s48, a game added by following the guide:
    simulate and report took such runs without a word): every chunk's games are checked."""
    spec = broken_pig(copies, "pig_shares", {"driver.py": [
        ('o["rank"], o["win_share"] = ranks_and_win_shares(out[0].reshape(n_games, P))',
         'o["rank"], o["win_share"] = ranks_and_win_shares(out[0].reshape(n_games, P))\n'
         '    o["win_share"] = np.where(o["rank"] == 2, np.float32(0.5), o["win_share"]).astype(np.float32)')]})
    with pytest.raises(ContractError, match=r"the win shares of game 0 add up to 1\.5, not 1 \(\d+ of the "
                                            r"chunk's \d+ games\)"):
        _chunk_check(spec, players=3)
    with pytest.raises(ContractError, match="add up to 1.5, not 1"):   # a game's bug, as a wrong dtype
        _run(["simulate", "--game", spec.name, "--players", "3", "--games", "300",
              "--out", str(tmp_path / "run"), "-q"])
    assert not (tmp_path / "run").exists()
