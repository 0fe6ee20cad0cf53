"""Issue 18, points 5 and 6: one validation for the shared options of every command, and
commands that run on an install whose package folder (and home) cannot be written.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reliability_helpers import ROOT, WIDE, cli_in_process, env, one_error_line

SEED_COMMANDS = [
    ["simulate", "--games", "10", "--out", "o"],
    ["ladder", "--games", "10"],
    ["fief-odds", "--attackers", "1-2", "--defenders", "1", "--out", "o"],
    ["fief-calamity", "--out", "o"],
    ["check", "--baseline", "base.toml"],
]


@pytest.fixture
def workdir(tiny_run, tmp_path, monkeypatch):
    from analysis.check.baseline import make_baseline

    make_baseline(tiny_run, tmp_path / "base.toml", tolerance=WIDE)  # a tiny run needs wide tolerances
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("argv", SEED_COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("option,value,words", [
    ("--seed", "-1", "--seed -1: must be a whole number from 0 to 2**63 - 1"),
    ("--seed", str(2**64), f"--seed {2**64}: must be a whole number from 0 to 2**63 - 1"),
    ("--seed", str(2**63), f"--seed {2**63}: must be a whole number from 0 to 2**63 - 1"),
    ("--threads", "0", "--threads 0: must be at least 1"),
    ("--threads", "-4", "--threads -4: must be at least 1"),
    ("--threads", "100000", "--threads 100000: this machine allows at most"),
])
def test_shared_options_get_the_same_line_in_every_command(argv, option, value, words, workdir,
                                                           capsys, no_playing):
    code, err = cli_in_process([*argv, option, value], capsys)
    assert code == 2 and one_error_line(err).startswith(f"error: {words}"), err
    assert not (workdir / "o").exists()


@pytest.mark.parametrize("extra,words", [
    (["--alpha", "0.7"], "--alpha 0.7: must be between 0 and 0.5"),
    (["--alpha", "nan"], "--alpha nan: must be between 0 and 0.5"),
    (["--games", "0"], "--games 0: must be at least 1"),
    (["--beta", "0.9"], "--beta 0.9: must be between 0 and 0.5"),
    (["--rules", "missing.toml"], "--rules: rules file not found: missing.toml"),
    (["--junit", "/proc/j.xml"], "--junit /proc/j.xml: is under /proc"),
    (["--summary", "."], "--summary .: names a directory"),
    (["--save-run", "base.toml"], "--save-run base.toml: is base.toml, which this command reads"),
])
def test_check_validates_everything_before_playing(extra, words, workdir, capsys, no_playing):
    code, err = cli_in_process(["check", "--baseline", "base.toml", *extra], capsys)
    assert code == 2 and words in one_error_line(err), err


def test_baseline_refuses_a_seed_offset_that_gives_no_valid_seed(workdir, capsys):
    code, err = cli_in_process(["baseline", "run", "--out", "b.toml", "--seed-offset", "-5"], capsys)
    assert code == 2 and "--seed-offset" in one_error_line(err)      # the run's seed is 3
    assert not (workdir / "b.toml").exists()


# --- 6. unprivileged installs -------------------------------------------------------------------

UNSHARE = shutil.which("unshare")
RO_SCRIPT = """
set -e
mount --bind "$CHECKOUT" "$CHECKOUT" && mount -o remount,bind,ro "$CHECKOUT"
mount --bind "$HOME" "$HOME" && mount -o remount,bind,ro "$HOME"
# /tmp and /var/tmp made read-only in place (not hidden: the checkout, its venv and HOME may live there)
if [ "$NO_TMP" = 1 ]; then for d in /tmp /var/tmp; do mount --bind "$d" "$d" && mount -o remount,bind,ro "$d"; done; fi
mount -t tmpfs tmpfs /mnt
cd /mnt
"$PY" -c 'import sys; from cli import main; main(sys.argv[1:])' simulate --game fief-combat \
    --games 500 --out /mnt/run --quiet
test -f /mnt/run/run.json
"""


def _can_unshare() -> str | None:
    if UNSHARE is None:
        return "unshare is not installed"
    if os.geteuid() != 0:
        return "unshare -m needs root here"
    r = subprocess.run([UNSHARE, "-m", "true"], capture_output=True)
    return None if r.returncode == 0 else f"unshare -m is not allowed: {r.stderr.decode().strip()}"


def _cache_folder(py_file: Path) -> Path:
    """The folder this process's Numba caches the jitted functions of ``py_file`` in (the locator
    Numba would choose: ``NUMBA_CACHE_DIR``, else beside the sources)."""
    from simcore import numba_cache as nc

    def probe():
        pass

    for locator_class in nc._IMPL._locator_classes:
        locator = locator_class.from_function(probe, str(py_file))
        if locator is not None:
            return Path(locator.get_cache_path())
    raise AssertionError(f"no Numba cache folder for {py_file}")


# The folders whose compiled code RO_SCRIPT's command loads: Fief's kernel, the statistics' helpers
RO_SCRIPT_JITTED = (ROOT / "simcore" / "games" / "fief" / "kernel.py", ROOT / "simcore" / "accumulate.py")


def _seeded_temporary_cache(tmp: Path) -> Path:
    """``tmp/balance-toolkit-numba-<uid>``, the per-user folder Numba's cache falls back to with
    ``TMPDIR=tmp``, holding a copy of the compiled code RO_SCRIPT's command loads, under the names
    the fallback locator gives it (:class:`simcore.numba_cache.FallbackCacheLocator`)."""
    from simcore.numba_cache import FallbackCacheLocator

    root = tmp / f"balance-toolkit-numba-{os.getuid()}"
    root.mkdir(mode=0o700, parents=True)
    for py_file in RO_SCRIPT_JITTED:
        folder = root / FallbackCacheLocator.get_suitable_cache_subpath(str(py_file))
        folder.mkdir()
        for entry in _cache_folder(py_file).glob("*.nb[ic]"):
            shutil.copy2(entry, folder / entry.name)
    return root


@pytest.mark.skipif(_can_unshare() is not None, reason=str(_can_unshare()))
@pytest.mark.parametrize("no_tmp", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["per-user temporary cache", "no cache at all"])
def test_a_read_only_checkout_with_an_unwritable_home_runs(no_tmp, tmp_path):
    """As root inside ``unshare -m``: the checkout bind-mounted read-only, HOME read-only (and,
    second case, /tmp and /var/tmp too). Numba cannot cache beside the sources nor in ~/.cache:
    once every command died with "cannot cache function: no locator available".

    The first case's per-user temporary folder (in a TMPDIR of its own) already holds the
    compiled code the command loads, copied from this process's cache: in a folder of its own
    (as in a clean clone's /tmp) the command compiled Fief's kernel and the statistics' helpers
    into it, 10.5 s of CPU in a clean-clone ``make test``; the check is that the command finds that
    folder and runs, with no warning (without the fallback: "no locator available", or the
    warning that it compiles without a cache).

    The second case compiles the game's kernels in the process (its subject: no cache anywhere),
    8.8 s of CPU: it runs under ``make test-slow``, as does the same fallback reached
    without unshare (``test_the_cache_fallbacks_without_unshare[none]``: one line of warning, no
    folder written, the function still runs)."""
    home = tmp_path / "home"
    home.mkdir()
    tmp = "/tmp"
    if not no_tmp:
        tmp = tmp_path / "tmp"
        _seeded_temporary_cache(tmp)
    e = env(CHECKOUT=ROOT, HOME=home, NO_TMP=int(no_tmp), PY=sys.executable, XDG_CACHE_HOME=home / ".cache",
            TMPDIR=tmp)
    e.pop("NUMBA_CACHE_DIR", None)
    r = subprocess.run([UNSHARE, "-m", "sh", "-c", RO_SCRIPT], env=e, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    assert "no locator available" not in r.stderr and "Traceback" not in r.stderr
    warnings = [ln for ln in r.stderr.splitlines() if ln.startswith("warning:")]
    if no_tmp:
        assert len(warnings) == 1 and "compiling without a cache" in warnings[0], r.stderr
    else:
        assert warnings == [], r.stderr


CACHED = """
import os
from numba import njit
@njit(cache=True)
def twice(x):
    return 2 * x
"""
PROBE = textwrap.dedent("""
    import sys
    from numba.core import caching
    import simcore.numba_cache as nc
    impl = nc._IMPL
    # No locator of Numba's own can write (a read-only package and home): only ours are left.
    impl._locator_classes[:] = [c for c in impl._locator_classes
                                if c in (nc.GroupStampLocator, nc.FallbackCacheLocator)]
    if sys.argv[1] == "none":
        nc._temp_dirs = lambda: [sys.argv[2]]        # a file, not a folder: nothing is writable
    from pk.mod import twice
    assert twice(21) == 42
    print(twice.stats.cache_hits.get(twice.signatures[0], 0) > 0)
""")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("where", ["fallback", "none"])
def test_the_cache_fallbacks_without_unshare(where, tmp_path):
    """The same two fallbacks, reached by removing Numba's own locators in the process (works
    where unshare does not)."""
    pk = tmp_path / "pk"
    pk.mkdir()
    (pk / "__init__.py").write_text("")
    (pk / "mod.py").write_text(CACHED)
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    e = env(TMPDIR=tmp_path)
    e["PYTHONPATH"] = os.pathsep.join([str(tmp_path), e["PYTHONPATH"]])
    e.pop("NUMBA_CACHE_DIR", None)

    def run():
        return subprocess.run([sys.executable, "-c", PROBE, where, str(blocker)], env=e, cwd=tmp_path,
                              capture_output=True, text=True, timeout=120)

    first, second = run(), run()
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    folder = tmp_path / f"balance-toolkit-numba-{os.getuid()}"
    if where == "fallback":
        assert (first.stdout.strip(), second.stdout.strip()) == ("False", "True")   # cached, then loaded
        assert any(folder.rglob("*.nbi")) and first.stderr == ""
        assert oct(folder.stat().st_mode & 0o777) == "0o700"
    else:
        assert (first.stdout.strip(), second.stdout.strip()) == ("False", "False")
        assert not folder.exists()
        lines = first.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("warning: no writable folder for Numba's cache")


def test_a_cache_folder_another_user_may_write_is_not_used(tmp_path, monkeypatch):
    """Cached code is loaded with pickle: a shared folder someone else could fill is refused."""
    from simcore import numba_cache as nc

    folder = tmp_path / f"balance-toolkit-numba-{os.getuid()}"
    folder.mkdir(mode=0o777)
    os.chmod(folder, 0o777)
    monkeypatch.setattr(nc, "_temp_dirs", lambda: [str(tmp_path)])
    nc.fallback_cache_root.cache_clear()
    try:
        assert nc.fallback_cache_root() is None
        os.chmod(folder, 0o700)
        nc.fallback_cache_root.cache_clear()
        assert nc.fallback_cache_root() == str(folder)
    finally:
        nc.fallback_cache_root.cache_clear()
