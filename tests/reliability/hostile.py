"""Hostile cases against the command line, run as real processes and classified (issue 28).

Each case is a command run in a fresh copy of a workspace holding a real run, a sweep, a tune, a
report and the user's own files (a site, a thesis, look-alike hidden names). The command is run
with a time limit and its result put in one class:

* ``refused``   exit code 2 with one ``error:`` line (a clean refusal);
* ``ok``        exit code 0 and the expected output there (a correct result);
* ``lost``      a file that was in the workspace before and is not the command's own output was
                changed or removed (data lost);
* ``traceback`` a Python traceback on stderr;
* ``hang``      the time limit passed (the process was killed);
* ``accepted``  the case expected a refusal and the command succeeded (bad input silently accepted);
* ``other``     any other exit (said with its code and last line).

Run it: ``python tests/reliability/hostile.py [--jobs 2] [--only WORD] [--list]``; it prints one
line per case and the count of each class, and exits 1 if any case's class is not the expected
one. The replayable list with each expected class is in docs/reliability.md (``--list`` prints it
as Markdown). tests/reliability/test_hostile.py runs every case (marked slow).

May import the standard library only (it runs the command line as separate processes).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BALANCE = "import sys; from cli import main; main(sys.argv[1:])"
SIMULATE = "import sys; from cli import simulate_main; simulate_main(sys.argv[1:])"
BAD = ("lost", "traceback", "hang", "accepted")


@dataclass
class Case:
    name: str
    argv: list[str]                   # first word: balance or simulate
    expect: str = "refused"           # refused | ok
    words: str = ""                   # words of the refusal line, or of stdout for "ok"
    changes: tuple[str, ...] = ()     # workspace paths the command may write or replace
    prep: str = ""                    # shell run in the workspace first
    creates: str = ""                 # "ok" cases: this path must exist after
    timeout: float = 120.0
    signal_after: float | None = None  # send SIGINT after this many seconds (an interrupted case)
    expect_code: int | None = None     # with signal_after: the exit code expected (130)


def _cases() -> list[Case]:
    c: list[Case] = []
    add = c.append
    sim = ["simulate", "--games", "200", "--players", "4"]
    # -- 1. ownership before --force --------------------------------------------------------------
    add(Case("force over a site of the user's own files", [*sim, "--out", "site", "--force"],
             words="not a directory this toolkit wrote"))
    add(Case("force over run.json {} beside a thesis", [*sim, "--out", "notes", "--force"],
             words="not a directory this toolkit wrote"))
    add(Case("force over a folder holding only report.html", [*sim, "--out", "fake_report", "--force"],
             words="not a directory this toolkit wrote"))
    add(Case("sweep --force over a run", ["balance", "sweep", "--game", "middle-ages", "--vary",
                                          "setup.extra_coin_tokens=[6,8]", "--games", "200", "--out",
                                          "runs/demo", "--force"], words="holds a run, not a sweep"))
    add(Case("tune --force over a sweep", ["balance", "tune", "--game", "middle-ages", "--vary",
                                           "setup.start_coins[0]=0..4", "--target", "seat-balance:5",
                                           "--out", "sw", "--force"], words="holds a sweep, not a tune"))
    add(Case("sweep --force over a tune", ["balance", "sweep", "--game", "middle-ages", "--vary",
                                           "setup.extra_coin_tokens=[6,8]", "--games", "200", "--out",
                                           "tu", "--force"], words="holds a tune, not a sweep"))
    add(Case("simulate --force over a report", [*sim, "--out", "rep", "--force"],
             words="holds a report, not a run"))
    add(Case("report --force over a run", ["balance", "report", "runs/demo", "--questions-games", "0",
                                           "--out", "runs/other", "--force"],
             words="holds a run, not a report"))
    add(Case("force over a run holding a user's photo", [*sim, "--out", "runs/demo", "--force"],
             prep="cp site/photo.jpg runs/demo/", words="photo.jpg, which this toolkit did not write"))
    add(Case("force over a run of ours: replaced", [*sim, "--out", "runs/other", "--force", "-q"],
             expect="ok", changes=("runs/other",), creates="runs/other/run.json"))
    add(Case("a user's .demo.tmp-deadbeef survives a simulate", [*sim, "--out", "runs/new", "-q"],
             expect="ok", changes=("runs/new",), creates="runs/new/run.json"))
    add(Case("a user's .notes.old-abcdef01 survives a simulate beside notes",
             [*sim, "--out", "notes2", "-q"], expect="ok", changes=("notes2",), creates="notes2/run.json"))
    add(Case("a user's .x.lock with text is not overwritten", [*sim, "--out", "x", "-q"],
             prep="echo 'my notes' > .x.lock", words=".x.lock is in the way"))
    add(Case("export over a file of the user's", ["balance", "export", "runs/demo", "--what", "seats",
                                                  "--out", "thesis.csv"], words="file exists"))
    add(Case("baseline over a file of the user's", ["balance", "baseline", "runs/demo", "--out",
                                                    "notes/thesis.tex"],
             words="is inside the run directory notes"))      # (notes holds a run.json)
    # (runs/other: a check refuses a run played with its baseline's own seed, as runs/demo was)
    add(Case("check --junit over a file of the user's", ["balance", "check", "runs/other", "--baseline",
                                                         "base.toml", "--junit", "thesis.xml"],
             words="it is never replaced"))
    add(Case("check --junit over its own JUnit file", ["balance", "check", "runs/other", "--baseline",
                                                       "base.toml", "--junit", "junit.xml", "-q"],
             expect="ok", changes=("junit.xml",), creates="junit.xml"))
    add(Case("ladder --out over a file of the user's", ["balance", "ladder", "--game", "middle-ages",
                                                        "--games", "200", "--out", "thesis.csv"],
             words="file exists"))
    add(Case("report --out over the user's site", ["balance", "report", "runs/demo",
                                                   "--questions-games", "0", "--out", "site", "--force"],
             words="not a directory this toolkit wrote"))
    # -- 2. sweeps and tunes replaced whole; one writer --------------------------------------------
    add(Case("sweep resumed by a second command on the same plan", ["balance", "sweep", "--game",
             "middle-ages", "--vary", "setup.extra_coin_tokens=[6,8]", "--games", "200", "--players",
             "4", "--out", "sw", "-q"], expect="ok", changes=("sw",), creates="sw/sweep.json"))
    add(Case("sweep of another plan without --force", ["balance", "sweep", "--game", "middle-ages",
             "--vary", "setup.extra_coin_tokens=[5,7]", "--games", "200", "--out", "sw"],
             words="holds another sweep"))
    # -- 3. damaged runs ---------------------------------------------------------------------------
    readers = [("report", ["balance", "report", "runs/demo", "--questions-games", "0", "--out", "r2"]),
               ("export", ["balance", "export", "runs/demo", "--what", "seats", "--out", "s.csv"]),
               ("baseline", ["balance", "baseline", "runs/demo", "--out", "b.toml"])]
    damages = [
        ("bytes overwritten inside players.parquet",
         "python3 -c \"p='runs/demo/players.parquet';b=bytearray(open(p,'rb').read());m=len(b)//2;"
         "b[m:m+6]=bytes(x^90 for x in b[m:m+6]);open(p,'wb').write(b)\""),
        ("games.parquet of a 3-player run", "cp runs/three/games.parquet runs/demo/"),
        ("players.parquet of a 3-player run", "cp runs/three/players.parquet runs/demo/"),
        ("NaN scores", "{py} -c \"import pyarrow.parquet as pq,pyarrow as pa;p='runs/demo/players.parquet';"
         "t=pq.read_table(p);i=t.schema.get_field_index('score');"
         "pq.write_table(t.set_column(i,'score',pa.array([float('nan')]*len(t),pa.float64())),p)\""),
        ("string scores", "{py} -c \"import pyarrow.parquet as pq,pyarrow as pa;p='runs/demo/players.parquet';"
         "t=pq.read_table(p);i=t.schema.get_field_index('score');"
         "pq.write_table(t.set_column(i,'score',pa.array([str(x) for x in t['score'].to_pylist()])),p)\""),
        ("win_share tripled", "{py} -c \"import pyarrow.parquet as pq,pyarrow as pa,pyarrow.compute as pc;"
         "p='runs/demo/players.parquet';t=pq.read_table(p);i=t.schema.get_field_index('win_share');"
         "pq.write_table(t.set_column(i,'win_share',pc.multiply(t['win_share'],3)),p)\""),
        ("duplicated rows", "{py} -c \"import pyarrow.parquet as pq,pyarrow as pa;p='runs/demo/players.parquet';"
         "t=pq.read_table(p);pq.write_table(pa.concat_tables([t,t.slice(0,8)]),p)\""),
        ("run.json games edited", "{py} -c \"import json;p='runs/demo/run.json';m=json.load(open(p));"
         "m['games']=100;json.dump(m,open(p,'w'))\""),
    ]
    for dname, prep in damages:
        for rname, argv in readers:
            add(Case(f"{rname} of a run with {dname}", argv, prep=prep, words="",
                     changes=("runs/demo",)))
    rehash = ("{py} -c \"import json;from simcore.rundir import integrity_record;p='runs/demo';"
              "m=json.load(open(p+'/run.json'));m['integrity']=integrity_record(p,m);"
              "json.dump(m,open(p+'/run.json','w'))\"")
    for dname, prep, words in (
            ("win_share tripled", damages[5][1], "add up to 3"),
            ("stats.json win shares doubled",
             "{py} -c \"import json;p='runs/demo/stats.json';d=json.load(open(p));c=d['fixed']['cell_win'];"
             "c['data']=[2*x for x in c['data']];json.dump(d,open(p,'w'))\"", "add up to 400")):
        for rname, argv in readers:
            add(Case(f"{rname} of a run with {dname}, its hashes written again", argv,
                     prep=f"{prep} && {rehash}", words=words, changes=("runs/demo",)))
    add(Case("report of the same run twice", ["balance", "report", "runs/demo", "runs/demo",
                                              "--questions-games", "0", "--out", "r2"], words="given twice"))
    add(Case("report of a run and its copy", ["balance", "report", "runs/demo", "runs/copy",
                                              "--questions-games", "0", "--out", "r2"],
             prep="cp -r runs/demo runs/copy", words="given twice", changes=("runs/copy",)))
    add(Case("report of a run and a longer rerun of its seed", ["balance", "report", "runs/demo",
             "runs/longer", "--questions-games", "0", "--out", "r2"], words="games 0…199 of both"))
    add(Case("report of an undamaged run", ["balance", "report", "runs/demo", "--questions-games", "0",
                                            "--out", "r2"], expect="ok", changes=("r2",),
             creates="r2/report.html"))
    # -- 4. bounded inputs -------------------------------------------------------------------------
    add(Case("--set with a 20-digit list index", [*sim, "--out", "o", "--set",
                                                  "setup.start_coins[99999999999999999999]=1"],
             words="too large", timeout=60))
    add(Case("--set index 1000", [*sim, "--out", "o", "--set", "setup.start_coins[1000]=1"],
             words="too large"))
    add(Case("--set the same key twice", [*sim, "--out", "o", "--set", "setup.extra_coin_tokens=4",
                                          "--set", "setup.extra_coin_tokens=5"], words="given twice"))
    add(Case("--set a key and a part of it", [*sim, "--out", "o", "--set", "setup.start_coins=[1,1,1,1]",
                                              "--set", "setup.start_coins[0]=3"], words="a part of it"))
    add(Case("--vary with a step of 1e-300", ["balance", "sweep", "--game", "middle-ages", "--vary",
                                              "effects.moulin_payment=0..1:1e-300", "--games", "200",
                                              "--out", "o"], words="more than", timeout=60))
    add(Case("--vary an infinite range", ["balance", "sweep", "--game", "middle-ages", "--vary",
                                          "effects.moulin_payment=0..1e999:1", "--games", "200",
                                          "--out", "o"], words="finite", timeout=60))
    add(Case("--vary an integer range of 1e12 values", ["balance", "sweep", "--game", "middle-ages",
             "--vary", "effects.moulin_payment=0..1000000000000", "--games", "200", "--out", "o"],
             words="more than", timeout=60))
    add(Case("tune --vary with a step of 1e-300", ["balance", "tune", "--game", "middle-ages", "--vary",
                                                   "effects.moulin_payment=0..1:1e-300", "--target",
                                                   "seat-balance:5", "--out", "o"], words="more than",
             timeout=60))
    for path, words in (("/dev/zero", "a device"), ("/dev/null", "a device"), ("runs", "is a directory"),
                        ("fifo", "a named pipe"), ("big.toml", "more than a rules file can be")):
        add(Case(f"--rules {path}", [*sim, "--out", "o", "--rules", path], words=words, timeout=60,
                 prep="mkfifo fifo; truncate -s 50M big.toml"))
    add(Case("--strategies /dev/zero", [*sim, "--out", "o", "--strategies", "/dev/zero"],
             words="unknown strategy", timeout=60))
    add(Case("--strategies zero.toml linked to /dev/zero", [*sim, "--out", "o", "--strategies", "zero.toml"],
             prep="ln -s /dev/zero zero.toml", words="a device", timeout=60))
    add(Case("--workers 1000", [*sim, "--out", "o", "--workers", "1000"], words="core", timeout=60))
    add(Case("--workers 1000 --allow-oversubscribe", [*sim, "--out", "o", "--workers", "1000",
                                                      "--allow-oversubscribe"], words="at most",
             timeout=60))
    add(Case("--workers 0", [*sim, "--out", "o", "--workers", "0"], words="at least 1"))
    for games, words in (("1__0", "not a number"), ("_5", "not a number"), ("1e6.5", "not a number"),
                         ("１２", "not a number"), ("0x10", "not a number"), ("1e-3", "whole number"),
                         ("1e999", "more than"), ("nan", "not a number"), ("inf", "not a number"),
                         ("-5", "at least 1"), ("0", "at least 1"), ("1,000", "not a number"),
                         ("1" * 70, "not a number"), ("12345678901234567e0", "more than")):
        add(Case(f"--games {games[:20]}", ["simulate", "--games", games, "--out", "o"], words=words))
    add(Case("--games 2.5e2 is read exactly", ["simulate", "--games", "2.5e2", "--players", "4",
                                               "--out", "o", "-q"], expect="ok", changes=("o",),
             creates="o/run.json"))
    for key, value, words in (("income.champs.base", "-3", "must be >= 0"),
                              ("effects.champs_coins_per_peasant", "-1", "must be >= 0"),
                              ("scoring.empty_domain_penalty", "-10", "must be >= 0"),
                              ("effects.extra_coin_bonus", "-1", "must be >= 0")):
        add(Case(f"--set {key}={value}", [*sim, "--out", "o", "--set", f"{key}={value}"], words=words))
    add(Case("--set setup.start_coins[0]=-5", [*sim, "--out", "o", "--set", "setup.start_coins[0]=-5"],
             words="must be >= 0 (allowed: 0 to 1000)"))
    add(Case("tune over negative start coins", ["balance", "tune", "--game", "middle-ages", "--vary",
             "setup.start_coins[0]=-40..40:20", "--target", "seat-balance:5", "--out", "o"],
             words="must be >= 0"))
    add(Case("medievallons hand_size [6, 0]", ["simulate", "--game", "medievallons", "--games", "200",
                                               "--players", "2", "--out", "o", "--set",
                                               "setup.hand_size=[6,0]"], words="must be >= 1"))
    add(Case("medievallons hand_size 0", ["simulate", "--game", "medievallons", "--games", "200",
                                          "--out", "o", "--set", "setup.hand_size=0"], words="must be >= 1"))
    for storage, words in (("notes/thesis.tex", "not a SQLite database"), ("notes", "is a directory"),
                           ("/dev/zero", "not a regular file"), ("postgresql://x/y", "only SQLite"),
                           ("sqlite://", "only SQLite"), ("sqlite:///:memory:", "in-memory"),
                           ("nowhere/s.db", "does not exist")):
        add(Case(f"tune --storage {storage}", ["balance", "tune", "--game", "middle-ages", "--vary",
                                               "setup.start_coins[0]=0..4", "--target", "seat-balance:5",
                                               "--out", "o", "--storage", storage], words=words))
    # -- 5. the cluster ----------------------------------------------------------------------------
    add(Case("an unreachable --scheduler", [*sim, "--out", "o", "--scheduler", "tcp://127.0.0.1:9"],
             words="no Dask scheduler answered", timeout=180))
    # -- interrupted commands ----------------------------------------------------------------------
    add(Case("Ctrl-C in a tune", ["balance", "tune", "--game", "middle-ages", "--players", "2",
                                  "--strategies", "random", "--vary", "setup.start_coins[0]=0..40:1",
                                  "--target", "seat-balance:5", "--trials", "400", "--min-games", "200000",
                                  "--max-games", "2000000", "--keep-going", "--out", "tu2"],
             # (~80 s on 2 quiet cores: at 0..40:10 and 20,000 games the tune met its target and ended
             # in 9 s, before the signal)
             expect="interrupted", signal_after=25, expect_code=130, changes=("tu2",), timeout=180))
    add(Case("Ctrl-C in a sweep --force over another sweep: the old one stays",
             ["balance", "sweep", "--game", "middle-ages", "--players", "4", "--vary",
              "setup.extra_coin_tokens=[2,3,4,5,6,7,8,9,10]", "--games", "1000000", "--out", "sw", "--force"],
             expect="interrupted", signal_after=20, expect_code=130, timeout=180))
    return c


CASES = _cases()


# ---------------------------------------------------------------------------------------------
# The workspace
# ---------------------------------------------------------------------------------------------

def _run(args, cwd, timeout=600, check=True):
    word, *rest = args
    code = SIMULATE if word == "simulate" else BALANCE
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    env.pop("BALANCE_DEBUG", None)
    p = subprocess.run([sys.executable, "-c", code, *rest], cwd=cwd, env=env, capture_output=True,
                       text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise SystemExit(f"workspace: {' '.join(args)} failed:\n{p.stderr}")
    return p


def make_workspace(root: Path) -> Path:
    """A workspace with a real run, a 3-player run, a sweep, a tune, a report, a baseline and the
    user's own files (built once, copied for every case)."""
    ws = root / "ws"
    ws.mkdir()
    _run(["simulate", "--games", "200", "--players", "4", "--seed", "3", "--out", "runs/demo", "-q"], ws)
    _run(["simulate", "--games", "200", "--players", "4", "--seed", "4", "--out", "runs/other", "-q"], ws)
    _run(["simulate", "--games", "200", "--players", "3", "--seed", "3", "--out", "runs/three", "-q"], ws)
    _run(["simulate", "--games", "300", "--players", "4", "--seed", "3", "--out", "runs/longer", "-q"], ws)
    _run(["balance", "sweep", "--game", "middle-ages", "--players", "4", "--vary",
          "setup.extra_coin_tokens=[6,8]", "--games", "200", "--out", "sw", "-q"], ws)
    _run(["balance", "tune", "--game", "middle-ages", "--players", "2", "--strategies", "random",
          "--vary", "setup.start_coins[0]=0..4:2", "--target", "seat-balance:40", "--trials", "2",
          "--min-games", "200", "--max-games", "400", "--confirm-games", "400", "--out", "tu", "-q"], ws)
    _run(["balance", "report", "runs/demo", "--questions-games", "0", "--out", "rep"], ws)
    _run(["balance", "baseline", "runs/demo", "--out", "base.toml", "--tolerance", "40",
          "--score-tolerance", "40"], ws)
    _run(["balance", "check", "runs/other", "--baseline", "base.toml", "--junit", "junit.xml", "-q"], ws,
         check=False)
    for d, files in {"site": {"report.html": "<p>mine</p>", "index.html": "<p>home</p>",
                              "photo.jpg": "JPEGDATA"},
                     "notes": {"run.json": "{}", "thesis.tex": "\\section{mine}"},
                     "fake_report": {"report.html": "<p>my own report</p>"},
                     "runs/.demo.tmp-deadbeef": {"keep.txt": "mine"},
                     ".notes.old-abcdef01": {"keep.txt": "mine"},
                     ".notes2.tmp-0123456789abcdef": {"keep.txt": "mine, with a long id"}}.items():
        (ws / d).mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (ws / d / name).write_text(text, encoding="utf-8")
    for name, text in {"thesis.csv": "a,b\n1,2\n", "thesis.xml": "<mine/>\n"}.items():
        (ws / name).write_text(text, encoding="utf-8")
    return ws


def _snapshot(ws: Path) -> dict[str, str]:
    out = {}
    for root, dirs, files in os.walk(ws):
        for f in files:
            p = Path(root) / f
            rel = str(p.relative_to(ws))
            try:
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "special"
            except OSError:
                out[rel] = "unreadable"
    return out


def _allowed(rel: str, changes: tuple[str, ...]) -> bool:
    return any(rel == c or rel.startswith(c.rstrip("/") + "/") for c in changes)


# ---------------------------------------------------------------------------------------------
# Running a case
# ---------------------------------------------------------------------------------------------

def run_case(case: Case, template: Path, root: Path) -> tuple[str, str]:
    """(class, detail) of one case run in a fresh copy of the workspace."""
    ws = Path(tempfile.mkdtemp(dir=root, prefix="case-"))
    shutil.rmtree(ws)
    shutil.copytree(template, ws, symlinks=True)
    if case.prep:
        subprocess.run(case.prep.replace("{py}", sys.executable), shell=True, cwd=ws, check=False,
                       capture_output=True)
    before = _snapshot(ws)
    word, *rest = case.argv
    code = SIMULATE if word == "simulate" else BALANCE
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "200"}
    env.pop("BALANCE_DEBUG", None)
    proc = subprocess.Popen([sys.executable, "-c", code, *rest], cwd=ws, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        if case.signal_after is not None:
            try:
                out, err = proc.communicate(timeout=case.signal_after)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGINT)
                out, err = proc.communicate(timeout=case.timeout)
        else:
            out, err = proc.communicate(timeout=case.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "hang", f"no answer in {case.timeout:.0f} s"
    after = _snapshot(ws)
    lost = sorted(rel for rel, h in before.items()
                  if not _allowed(rel, case.changes) and after.get(rel) != h)
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("note: ")]
    last = lines[-1] if lines else ""
    if "Traceback" in err:
        return "traceback", last
    if lost:
        return "lost", ", ".join(lost[:4])
    if case.signal_after is not None and proc.returncode == case.expect_code:
        return ("interrupted", last) if len(lines) == 1 and "interrupted" in last else ("other", err[-300:])
    if proc.returncode == 2 and len(lines) == 1 and last.startswith("error: "):
        return "refused", last
    if proc.returncode == 0:
        if case.expect == "refused":
            return "accepted", (out.strip().splitlines() or [""])[-1]
        if case.creates and not (ws / case.creates).exists():
            return "other", f"exit 0 but {case.creates} is missing"
        return "ok", (out.strip().splitlines() or [""])[-1][:120]
    return "other", f"exit {proc.returncode}: {last[:200]}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="run the cases whose name holds this text")
    ap.add_argument("--list", action="store_true", help="print the cases as a Markdown table")
    ap.add_argument("--keep", action="store_true", help="keep the workspaces (printed)")
    args = ap.parse_args(argv)
    cases = [c for c in CASES if args.only is None or args.only in c.name]
    if args.list:
        print("| # | case | command | expected |\n|---|---|---|---|")
        for i, c in enumerate(cases, 1):
            cmd = " ".join(c.argv).replace("|", "\\|")
            print(f"| {i} | {c.name} | `{cmd}` | {c.expect}{': ' + c.words if c.words else ''} |")
        return 0
    root = Path(tempfile.mkdtemp(prefix="hostile-"))
    t0 = time.monotonic()
    print(f"building the workspace in {root} …", file=sys.stderr, flush=True)
    template = make_workspace(root)
    print(f"  {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    counts: dict[str, int] = {}
    wrong = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = {pool.submit(run_case, c, template, root): c for c in cases}
        for f in concurrent.futures.as_completed(futures):
            c = futures[f]
            cls, detail = f.result()
            counts[cls] = counts.get(cls, 0) + 1
            good = cls == c.expect and (not c.words or cls != "refused" or c.words in detail)
            if not good:
                wrong.append((c, cls, detail))
            print(f"{'  ' if good else '!!'} {cls:<11} {c.name}: {detail[:160]}", flush=True)
    print(f"\n{len(cases)} cases: " + ", ".join(f"{n} {k}" for k, n in sorted(counts.items())))
    if wrong:
        print(f"{len(wrong)} not as expected:")
        for c, cls, detail in wrong:
            print(f"  {c.name}: expected {c.expect}{' (' + c.words + ')' if c.words else ''}, "
                  f"got {cls}: {detail[:200]}")
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"workspaces kept in {root}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
