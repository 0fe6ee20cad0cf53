"""Issue 18, point 1: every output path is checked before any work, the same way in every command.

Each refused case must give exit code 2 and one line naming the option, before a game is prepared
or played (``no_playing`` turns that into a failure), and must leave the folder as it was.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reliability_helpers import ROOT, WIDE, balance, cli_in_process, one_error_line

# (command line with OUT for the path under test, option name, file or dir, the input it reads)
PLAYERS = [
    (["simulate", "--games", "1e9", "--rules", "ma.toml", "--out", "OUT"], "--out", "dir", "ma.toml"),
    (["simulate", "--game", "fief-combat", "--games", "1e9", "--rules", "fief.toml", "--out", "OUT"],
     "--out", "dir", "fief.toml"),
    (["fief-odds", "--rules", "fief.toml", "--out", "OUT"], "--out", "dir", "fief.toml"),
    (["fief-calamity", "--rules", "fief.toml", "--out", "OUT"], "--out", "dir", "fief.toml"),
    (["check", "--baseline", "base.toml", "--save-run", "OUT"], "--save-run", "dir", "base.toml"),
    (["check", "--baseline", "base.toml", "--junit", "OUT"], "--junit", "file", "base.toml"),
    (["check", "--baseline", "base.toml", "--summary", "OUT"], "--summary", "file", "base.toml"),
]
READERS = [
    (["report", "run", "--questions-games", "0", "--out", "OUT"], "--out", "dir", "run"),
    (["export", "run", "--what", "seats", "--out", "OUT"], "--out", "file", "run"),
    (["baseline", "run", "--out", "OUT"], "--out", "file", "run"),
    (["questions", "run", "--games", "1e9", "--out", "OUT"], "--out", "dir", "run"),
    (["replay", "run", "--game", "0", "--out", "OUT"], "--out", "file", "run"),
]
COMMANDS = PLAYERS + READERS
IDS = [" ".join(a for a in c[0] if a != "OUT")[:40] + " " + c[1] for c in COMMANDS]
LONG = "n" * 300


def _bad_paths(tmp: Path, kind: str, source: str) -> list[tuple[str, str]]:
    """(path, words the error line must hold) for one kind of output reading ``source``."""
    (tmp / "a_file").write_text("mine")
    (tmp / "a_dir").mkdir(exist_ok=True)
    (tmp / "a_dir" / "keep.txt").write_text("mine")
    for a, b in (("loop_a", "loop_b"), ("loop_b", "loop_a")):
        if not os.path.lexists(tmp / a):
            os.symlink(b, tmp / a)
    cwd_words = "names a directory" if kind == "file" else "working directory"
    cases = [
        # an empty name (a script's variable left unset) is named as such, not read as "." (the
        # working directory: "--out .: is the working directory")
        ("", "is empty: give a " + ("file" if kind == "file" else "directory") + " name"),
        (".", cwd_words),
        ("..", "names a directory" if kind == "file" else "ancestor of the working directory"),
        (LONG, "name too long"),
        (f"{LONG}/x", "name too long"),
        ("n" * 230, "name too long"),
        ("loop_a", "symbolic link loop"),
        ("loop_a/inner", "symbolic link loop"),
        ("/proc/self/out", "virtual file system"),
        ("/sys/kernel/out", "virtual file system"),
        ("/dev/shm/out", "virtual file system"),
        ("/dev/null", "virtual file system"),
        ("a_file/inner", "a file, not a directory"),
        (source, "which this command reads"),
        (f"{source}/inner", "which this command reads"),
    ]
    if kind == "dir":
        cases += [("a_file", "is not a directory"), ("a_dir", "not empty")]
    else:
        # a name ending in a slash names a directory, existing or not (typer's Path dropped the
        # slash before the check saw it: `--out new_dir/` wrote a file named new_dir)
        cases += [("a_dir", "is a directory"), ("new_dir/", "names a directory"),
                  ("a_dir/", "names a directory")]
    return cases


@pytest.fixture
def workdir(tiny_run, tmp_path, monkeypatch):
    """cwd with a run (``run``), a baseline of it (``base.toml``) and copies of the shipped rules."""
    from analysis.check.baseline import make_baseline

    make_baseline(tiny_run, tmp_path / "base.toml", tolerance=WIDE)  # a tiny run needs wide tolerances
    for name, game in (("ma.toml", "middle_ages"), ("fief.toml", "fief"), ("mv.toml", "medievallons")):
        (tmp_path / name).write_bytes((ROOT / "configs" / game / "rules.toml").read_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _snapshot(folder: Path) -> dict:
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            p = Path(root) / name
            st = os.lstat(p)
            out[str(p.relative_to(folder))] = (st.st_size, st.st_mtime_ns)
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("argv,option,kind,source", COMMANDS, ids=IDS)
def test_every_bad_output_path_is_one_line_before_any_work(argv, option, kind, source, workdir,
                                                           capsys, no_playing):
    for path, words in _bad_paths(workdir, kind, source):
        before = _snapshot(workdir)
        args = [path if a == "OUT" else a for a in argv]
        code, err = cli_in_process(args, capsys)
        line = one_error_line(err)
        assert code == 2, (args, err)
        assert line.startswith(f"error: {option} ") and words in line, (args, line)
        assert _snapshot(workdir) == before, (args, "the folder changed")


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("argv,option,kind,source", COMMANDS, ids=IDS)
def test_force_does_not_make_a_bad_output_acceptable(argv, option, kind, source, workdir, capsys,
                                                     no_playing):
    """--force replaces an old output; it never replaces the working directory, an input or a
    folder this toolkit did not write, and never turns a file into a directory (or back)."""
    _bad_paths(workdir, kind, source)
    cases = [(".", "names a directory" if kind == "file" else "working directory"),
             (source, "which this command reads"),
             ("a_dir", "not a directory this toolkit wrote" if kind == "dir" else "is a directory"),
             ("a_file", "is not a directory" if kind == "dir" else None)]
    for path, words in cases:
        if words is None:
            continue
        args = [path if a == "OUT" else a for a in argv] + ["--force"]
        before = _snapshot(workdir)
        code, err = cli_in_process(args, capsys)
        assert code == 2 and words in one_error_line(err), (args, err)
        assert _snapshot(workdir) == before


def test_an_output_that_contains_an_input_is_refused(workdir, capsys, no_playing):
    (workdir / "box").mkdir()
    os.rename(workdir / "run", workdir / "box" / "run")
    code, err = cli_in_process(["report", "box/run", "--out", "box", "--force"], capsys)
    assert code == 2 and "--out box: contains box/run, which this command reads" in one_error_line(err)
    assert (workdir / "box" / "run" / "players.parquet").is_file()


def test_report_over_its_own_run_is_refused_and_the_run_is_kept(workdir, capsys):
    """Once, `balance report RUN --out RUN --force` replaced the run with its report."""
    files = sorted(p.name for p in (workdir / "run").iterdir())
    code, err = cli_in_process(["report", "run", "--out", "run", "--force"], capsys)
    assert code == 2 and "--out run: is run, which this command reads" in one_error_line(err)
    assert sorted(p.name for p in (workdir / "run").iterdir()) == files
    # through a symbolic link to the run, too
    os.symlink("run", workdir / "latest")
    code, err = cli_in_process(["report", "latest", "--out", "run", "--force"], capsys)
    assert code == 2 and "which this command reads" in one_error_line(err)


def test_a_name_that_only_the_temporary_entry_makes_too_long_is_refused(workdir, capsys, no_playing):
    limit = os.pathconf(workdir, "PC_NAME_MAX")
    fits = "r" * (limit - 64)      # simcore.atomic._SUFFIX: room for ".<name>.questions-<id>.tmp-<id>"
    code, err = cli_in_process(["simulate", "--games", "1e9", "--out", "r" * (limit - 5)], capsys)
    assert code == 2 and "leave room for the temporary name" in one_error_line(err)
    with pytest.raises(AssertionError, match="before the bad input"):   # a fitting name passes
        cli_in_process(["simulate", "--games", "10", "--out", fits], capsys)


def test_a_path_with_a_newline_still_gives_one_line(workdir, capsys, no_playing):
    code, err = cli_in_process(["simulate", "--games", "10", "--out", "two\nlines/" + "x" * 300], capsys)
    assert code == 2 and "\\n" in one_error_line(err)


def test_a_symbolic_link_as_the_final_name_is_refused(workdir, capsys, no_playing):
    os.symlink("run", workdir / "latest")
    code, err = cli_in_process(["simulate", "--games", "10", "--out", "latest", "--force"], capsys)
    assert code == 2 and "is a symbolic link (to run)" in one_error_line(err)


def test_force_replaces_an_output_of_the_toolkit(workdir, capsys):
    """The other side of the rule: an older run (it has run.json) is replaced with --force."""
    code, err = cli_in_process(["simulate", "--game", "fief-combat", "--games", "100", "--quiet",
                                "--out", "old"], capsys)
    assert code == 0, err
    code, err = cli_in_process(["simulate", "--game", "fief-combat", "--games", "50", "--seed", "9",
                                "--quiet", "--out", "old", "--force"], capsys)
    assert code == 0, err
    assert '"seed": 9' in (workdir / "old" / "run.json").read_text()
    assert [p.name for p in workdir.glob(".old*")] == []      # no temporary, old or lock entry


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_simulate_out_dot_force_in_a_real_process_plays_nothing(tmp_path):
    """Once, `simulate --out . --force` played every game and then crashed renaming '.'."""
    (tmp_path / "notes.txt").write_text("mine")
    r = balance("simulate", "--games", "1e11", "--out", ".", "--force", cwd=tmp_path, timeout=60)
    assert r.returncode == 2
    assert one_error_line(r.stderr) == "error: --out .: is the working directory (give a new directory name)"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("argv, line", [
    (["simulate", "--games", "1e11", "--out", ""], "error: --out is empty: give a directory name"),
    (["report", "run", "--out", ""], "error: --out is empty: give a directory name"),
    (["export", "run", "--what", "seats", "--out", ""], "error: --out is empty: give a file name"),
    (["ladder", "--bots", "balanced,random", "--games", "40", "--out", ""],
     "error: --out is empty: give a file name"),
    (["simulate", "--games", "1e11", "--rules", "", "--out", "new"], "error: --rules is empty: give a path"),
    (["report", "", "--out", "new"], "error: RUNS is empty: give a path"),
], ids=["simulate-out", "report-out", "export-out", "ladder-out", "rules", "report-runs"])
def test_an_empty_path_is_named_as_empty_in_a_real_process(argv, line, tiny_run, tmp_path):
    """`--out ''` was read as the working directory ("--out .: is the working directory") and
    `--rules ''` or an empty RUN as a directory: an empty path is said to be empty, exit 2."""
    assert tiny_run == tmp_path / "run"
    (tmp_path / "notes.txt").write_text("mine")
    before = _snapshot(tmp_path)
    r = balance(*argv, cwd=tmp_path, timeout=60)
    assert r.returncode == 2, r.stderr
    assert one_error_line(r.stderr) == line
    assert _snapshot(tmp_path) == before


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_check_junit_under_proc_in_a_real_process_plays_nothing(tiny_run, tmp_path):
    """Once, `balance check --junit /proc/j.xml` crashed after playing every game."""
    from analysis.check.baseline import make_baseline

    make_baseline(tiny_run, tmp_path / "base.toml", tolerance=WIDE)  # a tiny run needs wide tolerances
    r = balance("check", "--baseline", "base.toml", "--games", "1e11", "--junit", "/proc/j.xml",
                cwd=tmp_path, timeout=60)
    assert r.returncode == 2
    assert "--junit /proc/j.xml: is under /proc, a virtual file system" in one_error_line(r.stderr)


def test_a_ladder_out_ending_in_a_slash_is_refused_before_playing(workdir, capsys, no_playing):
    """`ladder --out m.csv/` named a directory but was written as a file `m.csv` after the whole
    ladder had played (typer's Path dropped the slash); the same check as every file output now
    refuses it first."""
    before = _snapshot(workdir)
    for path in ("m.csv/", "new/m.parquet/"):
        code, err = cli_in_process(["ladder", "--bots", "random,greedy", "--games", "40",
                                    "--out", path], capsys)
        assert code == 2 and one_error_line(err).startswith(f"error: --out {path}: names a directory"), err
    assert _snapshot(workdir) == before
