"""The one atomic writer, the one output-path check and the proof of ownership: run directories,
reports, sweeps, tunes, exports, baselines, JUnit and Markdown summaries, questions directories and
golden files.

Nothing already on disk is lost:

* **Checked before any work.** :func:`check_output_path` (and its two short forms
  :func:`check_output_file`, :func:`check_output_dir`) refuses, in one line naming the option and
  the path, everything that would fail or do harm later: an empty name, a name too long for the
  file system (counting the hidden names written beside it), a symlink loop, a symbolic link as
  the final name, a mount point as the final name (the final rename cannot replace it), a path
  under a virtual file system (``/proc``, ``/sys``, ``/dev`` or any mount of
  that kind), the working directory or one of its ancestors, a directory where a file is expected
  and the reverse (also a file used as a parent directory), an output that is, contains or is
  inside one of the command's own inputs (``balance report RUN --out RUN --force``), an existing
  output without ``force``, and a place the user cannot write.
* **Ownership proven, not guessed.** Every directory this toolkit writes carries a marker,
  :data:`MARKER` (``.balance-output.json``: the toolkit's name, the kind of output — run, report,
  sweep, tune, questions … —, a format, a random id and the entries it wrote). ``force`` replaces
  an existing directory only if its marker has the same kind and it holds nothing the marker does
  not list (inside its listed folders too: the marker's ``tree``, recorded once the directory is
  complete), and removes only the listed entries (:func:`ownership_problem`,
  :func:`publish_dir`). A file named ``run.json`` or ``report.html`` proves nothing. An existing
  file is replaced only with ``force``, or when it holds the writer's own sign (``own_sign``: the
  JUnit report that every CI run rewrites); and ``force`` replaces only a file of the kind the
  command writes (``replaces``, :class:`FileKind`: a baseline over a baseline, a CSV table over a
  CSV of the very same columns, :class:`CsvTable`, a Parquet table over this toolkit's Parquet
  table that names the same table in its metadata and has the same columns, :class:`ParquetTable`,
  :func:`parquet_sign`; never over a rules file, a user's notes, a user's own table or another
  table).
* **Claimed.** The same check takes a lock beside the target (``.<name>.lock``, a
  :class:`filelock.FileLock`, an exclusive ``flock`` taken without waiting): of two commands
  writing the same output at once, the second stops at once with one line, also when they name
  one file by two names (a symbolic or hard link: :func:`_same_file_lock_paths`). The record of the
  command's hidden entries is a file beside it, ``.<name>.claim``, written only while the lock is
  held. Both are removed when the output is published, when the command ends
  (:func:`release_claims`) or at exit; after a SIGKILL the kernel frees the lock and the next
  command finishes the job the record describes. Taking the lock and registering the claim, and
  closing the lock and forgetting the claim, run with SIGINT and SIGTERM held back, so a Ctrl-C
  cannot leave a lock the command's own final release does not know. A ``.<name>.lock`` or
  ``.<name>.claim`` holding
  anything else (a user's file) is never overwritten.
* **Written under a temporary name.** Every output is written under a hidden name beside its
  target (``.<name>.tmp-<id>``, 16 random hex digits), recorded in the lock before it is made,
  and renamed into place only when complete. With ``force`` a directory is replaced in two renames:
  the old one is moved aside to ``.<name>.old-<id>`` (recorded first), then the new one takes the
  final name, then what the old one's marker lists is removed. An existing empty directory holds
  nothing to keep: the new one replaces it in one rename, and nothing is left beside it.
* **Recovered, and only what is proven ours.** What a killed command left (its temporary entries,
  an old directory moved aside) is cleaned up by the next command that writes to the same folder
  (:func:`recover_leftovers`), said in one ``note:`` line on stderr — only the entries a lock's
  record lists, with the shape of a name this module makes, once no live command holds that lock.
  A user's own ``.demo.tmp-deadbeef`` or ``.notes.old-abcdef01`` is never listed, so never touched.
  A final name missing because the kill fell between the two renames of a ``--force``
  replacement is restored from the old directory (the command never finished, so the previous
  result stands); reading a run that is missing for that reason restores it too
  (:func:`restore_interrupted`).

May import the standard library, filelock and :mod:`simcore.errors`.
"""

from __future__ import annotations

import atexit
import errno
import json
import os
import re
import secrets
import shutil
import stat
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from filelock import FileLock, Timeout

from simcore.errors import UsageError, unwritable_why

#: Roots of the virtual file systems every Linux machine has: nothing of ours belongs there.
VIRTUAL_ROOTS = ("/proc", "/sys", "/dev")
#: File system types (``/proc/self/mountinfo``) that hold no user files.
VIRTUAL_FS_TYPES = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs",
    "pstore", "bpf", "configfs", "fusectl", "mqueue", "efivarfs", "binfmt_misc", "autofs", "nsfs",
    "rpc_pipefs", "hugetlbfs"})
#: Longest suffix added to an output's name for its temporary, old and lock entries.
_SUFFIX = 64     # ".<name>.questions-<id>" and its own ".tmp-<id>" and ".lock" beside it
_LOCK = re.compile(r"^\.(?P<name>.+)\.(?:lock|claim)$")

#: Environment variable that makes :func:`publish_dir` stop between its two renames (tests kill the
#: process there to check that nothing is lost); never set in normal use.
PAUSE_BETWEEN_RENAMES = "BALANCE_TEST_PAUSE_BETWEEN_RENAMES"


def show(path: str | Path, limit: int = 80) -> str:
    """A path as one printable line (control characters escaped, long names shortened)."""
    text = str(path).encode("unicode_escape", "backslashreplace").decode("ascii", "replace") \
        if any(not ch.isprintable() for ch in str(path)) else str(path)
    return text if len(text) <= limit else text[: limit - 21] + "…" + text[-20:]


# ---------------------------------------------------------------------------------------------
# Path checks
# ---------------------------------------------------------------------------------------------

def _name_max(existing: Path) -> int:
    try:
        return int(os.pathconf(existing, "PC_NAME_MAX"))
    except (OSError, ValueError):
        return 255


def _nearest_existing(path: Path) -> Path:
    probe = path
    while not os.path.lexists(probe) and probe != probe.parent:
        probe = probe.parent
    return probe


def _resolve(path: Path, option: str) -> Path:
    """The absolute path with every symlink resolved; UsageError for a loop or a name too long."""
    try:
        resolved = Path(os.path.abspath(path)).resolve(strict=False)
    except RuntimeError:           # Python 3.11: "Symlink loop from ..."
        raise UsageError(f"{option} {show(path)}: symbolic link loop") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UsageError(f"{option} {show(path)}: symbolic link loop") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise UsageError(f"{option} {show(path)}: name too long for the file system") from None
        raise UsageError(f"{option} {show(path)}: {exc.strerror}") from None
    # A loop in a component that does not need to exist is only seen by stat.
    probe = resolved
    try:
        os.stat(probe)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UsageError(f"{option} {show(path)}: symbolic link loop") from None
        if exc.errno == errno.ENAMETOOLONG:
            raise UsageError(f"{option} {show(path)}: name too long for the file system") from None
    return resolved


def _mounts() -> list[tuple[str, str]]:
    """(mount point, file system type) of every mount, longest mount point first."""
    out = []
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                left, _, right = line.partition(" - ")
                fields = left.split()
                if len(fields) >= 5 and right:
                    point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
                    out.append((point, right.split()[0]))
    except OSError:
        return []
    return sorted(out, key=lambda m: len(m[0]), reverse=True)


def _virtual_fs(resolved: Path) -> str | None:
    """The name of the virtual file system ``resolved`` lies on, or None."""
    text = str(resolved)
    for root in VIRTUAL_ROOTS:
        if text == root or text.startswith(root + "/"):
            return root
    for point, fstype in _mounts():
        if text == point or text.startswith(point.rstrip("/") + "/"):
            return f"{point} ({fstype})" if fstype in VIRTUAL_FS_TYPES else None
    return None


def _relation(resolved: Path, source: Path) -> str | None:
    if resolved == source:
        return "is"
    if source in resolved.parents:
        return "is inside"
    if resolved in source.parents:
        return "contains"
    return None


def input_paths(*items) -> list[Path]:
    """The paths among ``items`` (paths, strings, lists of them, None) that exist on disk."""
    out: list[Path] = []
    for item in items:
        if item is None:
            continue
        if isinstance(item, (list, tuple, set)):
            out += input_paths(*item)
            continue
        text = str(item)
        for part in ([text] if os.path.lexists(text) else text.split(",")):
            if part and os.path.lexists(part):
                out.append(Path(part))
    return out


def empty_path_line(option: str, kind: str) -> str:
    """The one line refusing an empty output name (``--out ''``: a script's variable left unset),
    for an output of ``kind`` (``"file"`` or ``"dir"``): said by :func:`check_output_path`, and by
    the command line for an option it reads as a path, which an empty name would reach only as
    ``.`` (the working directory)."""
    return f"{option} is empty: give a {'directory' if kind == 'dir' else 'file'} name"


def check_output_path(out: str | Path, *, kind: str, force: bool, option: str = "--out",
                      inputs: Iterable[str | Path] = (), append: bool = False,
                      claim: bool = True, what: str = "run", own_sign: str | None = None,
                      replaces: "FileKind | None" = None) -> Path:
    """Check that ``out`` can be written as a ``kind`` (``"file"`` or ``"dir"``) and claim it.

    ``inputs`` are the files and directories the command reads (run directories, rules,
    baselines, strategy files): the output may not be, contain or lie inside one of them.
    ``append`` (files only): the file is appended to, so an existing one is fine without ``force``.
    ``what`` (directories): the kind of output (``run``, ``report``, ``sweep``, ``tune``,
    ``questions`` …); with ``force`` an existing directory is replaced only if its ownership marker
    has this kind and it holds nothing the marker does not list. ``own_sign`` (files): an existing
    file holding this text near its start is the toolkit's and is replaced without ``force``.
    ``replaces`` (files): the kind of file written (:class:`FileKind`); with ``force`` an existing
    file is replaced only if it is of that kind (a CSV export over a CSV, not over a rules file).
    Returns ``out`` as a :class:`Path`; raises :class:`UsageError` (one line) otherwise. Called
    before any work so that a bad path fails in a second, not after an hour of simulation.
    """
    if kind not in ("file", "dir"):
        raise ValueError(f"kind must be 'file' or 'dir', not {kind!r}")
    text = os.fspath(out) if isinstance(out, (str, Path)) else str(out)
    if not text:
        raise UsageError(empty_path_line(option, kind))
    if not text.strip():
        noun = "directory" if kind == "dir" else "file"
        raise UsageError(f"{option} {text!r}: only spaces (give a {noun} name)")
    if "\x00" in text:
        raise UsageError(f"{option} {show(text)}: a path cannot contain a NUL character")
    given = Path(text)
    if kind == "file" and (text.endswith("/") or given.name in ("", ".", "..")):
        raise UsageError(f"{option} {show(text)}: names a directory (give a file name)")
    absolute = Path(os.path.abspath(given))
    prior = _CLAIMS.get(absolute)
    if prior is not None and claim and _standing(absolute) != prior.seen:
        # checked and claimed by this command before its work; what stands there now appeared
        # meanwhile: it is left in place and the output is published beside it when done
        # (:func:`_published_beside`), not refused after the work (review s51 safety #2: a
        # questions directory, a check's --save-run, exit 2 after every game was played)
        return given
    if len(os.fsencode(str(absolute))) + _SUFFIX >= 4096:
        raise UsageError(f"{option} {show(text)}: path too long for the file system")
    limit = _name_max(_nearest_existing(absolute))
    for part in absolute.parts[1:]:
        if len(os.fsencode(part)) > limit:
            raise UsageError(f"{option} {show(text)}: name too long for the file system "
                             f"({len(os.fsencode(part))} bytes in one name, at most {limit})")
    if len(os.fsencode(absolute.name)) + _SUFFIX > limit:
        raise UsageError(f"{option} {show(text)}: name too long for the file system (at most "
                         f"{limit - _SUFFIX} bytes, to leave room for the temporary name beside it)")
    resolved = _resolve(given, option)
    where = _virtual_fs(resolved)
    if where is not None:
        raise UsageError(f"{option} {show(text)}: is under {where}, a virtual file system "
                         "(write to a real directory)")
    cwd = Path.cwd().resolve()
    if resolved == cwd or resolved in cwd.parents:
        what = "the working directory" if resolved == cwd else "an ancestor of the working directory"
        raise UsageError(f"{option} {show(text)}: is {what} (give a new {'directory' if kind == 'dir' else 'file'} name)")
    for source in inputs:
        src = _resolve(Path(source), option)
        rel = _relation(resolved, src)
        if rel is not None:
            raise UsageError(f"{option} {show(text)}: {rel} {show(source)}, which this command reads "
                             "(write somewhere else)")
    if os.path.islink(absolute):
        raise UsageError(f"{option} {show(text)}: is a symbolic link (to {show(os.readlink(absolute))}); "
                         "give the real path")
    if os.path.lexists(absolute) and os.path.ismount(absolute):
        # Every output takes its final name by a rename, which a mount point refuses (EBUSY): an
        # empty volume mounted as --out (Docker's -v host:/out) failed after all the games were
        # played (revC #2).
        inside = "a directory" if kind == "dir" else "a file name"
        raise UsageError(f"{option} {show(text)}: is a mount point; give {inside} inside it")
    parent = _nearest_existing(absolute.parent)
    if not os.path.isdir(parent):
        raise UsageError(f"{option} {show(text)}: cannot write in {show(parent)}: a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {show(text)}: cannot write in {show(parent)} ({unwritable_why(parent)})")
    if kind == "file":
        if absolute.is_dir():
            raise UsageError(f"{option} {show(text)}: is a directory (give a file name)")
        if absolute.exists() and not absolute.is_file():
            raise UsageError(f"{option} {show(text)}: exists and is not a regular file")
        if absolute.exists() and not force and not append and not _holds_sign(absolute, own_sign):
            raise UsageError(f"{option} {show(text)}: file exists (use --force to replace it)")
        if (absolute.exists() and (force or append) and replaces is not None
                and not _holds_sign(absolute, own_sign)):
            problem = replaces.problem(absolute)
            if problem is not None and append:
                raise UsageError(f"{option} {show(text)}: {problem}, not {replaces.name} (only "
                                 f"{replaces.name} is added to; give another name)")
            if problem is not None:
                raise UsageError(f"{option} {show(text)}: {problem}, not {replaces.name} (--force "
                                 f"replaces only {replaces.name}; give another name, or move it "
                                 "away first)")
        if append and absolute.exists() and not os.access(absolute, os.W_OK):
            raise UsageError(f"{option} {show(text)}: cannot write to it ({unwritable_why(absolute)})")
    else:
        if absolute.exists() and not absolute.is_dir():
            raise UsageError(f"{option} {show(text)}: exists and is not a directory")
        if absolute.is_dir():
            try:
                entries = [e.name for e in os.scandir(absolute)]
            except OSError as exc:
                raise UsageError(f"{option} {show(text)}: cannot read it ({exc.strerror})") from None
            if entries and force:
                # a command writing it (or inside it: a panel's cell) is named as such, and what
                # killed commands left inside it is cleaned up, before its entries are judged: their
                # locks, records and temporary folders are this toolkit's, not the user's
                held = _held_by_another(absolute) or next(
                    (h for h in map(lambda n: _held_by_another(absolute / n), _lock_targets(absolute))
                     if h), None)
                if held is not None:
                    raise UsageError(f"{option} {show(text)}: another command is writing it right "
                                     f"now ({held} is held); wait for it or choose another {option}")
                if _lock_targets(absolute):
                    recover_leftovers(absolute)
                    entries = [e.name for e in os.scandir(absolute)]
            if entries:
                problem = ownership_problem(absolute, what)
                if not force:
                    raise UsageError(f"{option} {show(text)}: directory exists and is not empty "
                                     + (f"and {problem}" if problem else "(use --force to replace it)"))
                if problem is not None:
                    raise UsageError(f"{option} {show(text)}: {problem}")
    if claim:
        claim_output(given, option, kind=what if kind == "dir" else "file")
    return given


def check_output_file(out: str | Path, force: bool, option: str = "--out",
                      inputs: Iterable[str | Path] = (), append: bool = False,
                      own_sign: str | None = None, replaces: "FileKind | None" = None) -> Path:
    """:func:`check_output_path` for a file (an export, a baseline, a JUnit or Markdown summary;
    ``replaces`` with ``append``: the kind of file it may be added to)."""
    return check_output_path(out, kind="file", force=force, option=option, inputs=inputs,
                             append=append, own_sign=own_sign, replaces=replaces)


# ---------------------------------------------------------------------------------------------
# What a file is, for --force on a file
# ---------------------------------------------------------------------------------------------

def _head(path: Path, size: int = 4096) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(size)
    except OSError:
        return b""


def _text_head(path: Path) -> str | None:
    """The first 4 KB of ``path`` as text (a BOM dropped), or None when it is not UTF-8 text."""
    import codecs

    raw = _head(path)
    if b"\x00" in raw:
        return None
    try:            # (final=False: a character cut at the 4 KB boundary is not an error)
        text = codecs.getincrementaldecoder("utf-8")().decode(raw, final=len(raw) < 4096)
    except UnicodeDecodeError:
        return None
    return text.removeprefix("\ufeff")


#: What :func:`what_file` calls markup that no HTML element or doctype opens, nor a JUnit report.
MARKUP = "an XML or HTML file"
#: The start of an HTML file: a doctype, a comment, or an element of HTML (a step summary's
#: <details>, <p>, <table>, …).
_HTML_HEAD = re.compile(
    r"<(!doctype\s+html|!--|/?(html|head|body|details|summary|div|span|p|a|b|i|em|strong|code|pre|"
    r"table|thead|tbody|tr|td|th|ul|ol|li|dl|dt|dd|h[1-6]|br|hr|img|blockquote|section|article|"
    r"header|footer|nav|main|meta|link|script|style|title|sub|sup|kbd|picture|source|svg)\b)",
    re.IGNORECASE)


def what_file(path: Path) -> str:
    """In a few words, what an existing file holds (for the refusal of --force over it): a
    baseline, a TOML file (rules, settings, strategies, panels), JSON, XML, HTML, a Parquet
    file, text, or binary data."""
    import json
    import tomllib

    raw = _head(path)
    if raw.startswith(b"PAR1"):
        return ("a Parquet table of this toolkit" if _is_our_parquet(path) else
                "a Parquet file of another program (or of a version before the toolkit marked its own)")
    text = _text_head(path)
    if text is None:
        return "binary data"
    if text.startswith(BASELINE_SIGN):
        return "a baseline of balance check"
    head = text.lstrip()
    if head.startswith("<?xml"):
        return "an XML file"
    if head[:1] == "<":
        # a JUnit report (or any namespaced XML) without its declaration is XML, not HTML (review
        # AB #9); other markup is HTML (a step summary may begin with <details>)
        xml = re.match(r"<\s*(testsuites|testsuite)\b", head) or re.match(r"<[^>]*\bxmlns\b", head)
        if xml:
            return "an XML file"
        # HTML only where an HTML element or doctype opens it; other markup (<x/>) may be either,
        # and is said so (review s61 #7: "<x/>" was called HTML)
        return "HTML" if _HTML_HEAD.match(head) else MARKUP
    try:
        whole = Path(path).read_text(encoding="utf-8-sig") if path.stat().st_size < 1 << 20 else ""
    except (OSError, UnicodeDecodeError):
        whole = ""
    for kind, parse in (("a TOML file (rules, settings, strategies or panels)", tomllib.loads),
                        ("a JSON file", json.loads)):
        try:
            if whole.strip() and parse(whole) not in (None, {}):
                return kind
        except (ValueError, RecursionError):      # (nested too deeply: review s62 #5)
            pass
    return "a CSV table" if _is_csv(path) else "a text file"


#: The first line of every baseline file ``balance baseline`` writes.
BASELINE_SIGN = "# Baseline for `balance check`"


class FileKind:
    """A kind of file a command writes (``name``, in words: "a CSV table") and how to tell an
    existing file of that kind: ``test(path) -> bool``. ``--force`` replaces an existing file only
    when the test holds (:func:`check_output_path`): a file of another kind is refused, named by
    :func:`what_file`."""

    def __init__(self, name: str, test):
        self.name, self.test = name, test

    def problem(self, path: Path) -> str | None:
        return None if self.test(path) else f"is {what_file(path)}"


#: A column name of a table this toolkit writes as CSV: a lower-case identifier (snake_case).
_COLUMN = re.compile(r"[a-z_][a-z0-9_]*\Z")


def _is_csv(path: Path) -> bool:
    """A table this toolkit could have written as CSV: UTF-8 text whose first line is a header of
    two or more names, each a lower-case identifier (``seat,win_share,ci_low``: the toolkit's
    columns), and whose next lines have as many fields. A user's notes, a script, YAML, JSON or
    a table of spreadsheet names ("Name, Age") are not (review Q #2: any first line with a comma
    passed). A user's own table with snake_case names and the same shape cannot be told apart by
    this test alone: :class:`CsvTable` also asks for the columns of the table written."""
    import csv
    import io

    text = _text_head(path)
    if text is None:
        return False
    if not text.strip():
        return True                      # an empty file holds nothing to lose
    lines = text.splitlines()
    complete = lines if len(text) < 4000 else lines[:-1]          # (the last line may be cut)
    rows = list(csv.reader(io.StringIO("\n".join(complete[:20]))))
    if not rows or len(rows[0]) < 2 or not all(_COLUMN.match(c) for c in rows[0]):
        return False
    return all(len(r) == len(rows[0]) for r in rows[1:] if r)


def _csv_header(path: Path) -> list[str] | None:
    """The column names of the CSV table at ``path`` (a byte-order mark dropped), or None."""
    import csv
    import io

    text = _text_head(path)
    if not text or not text.strip():
        return None
    first = next(csv.reader(io.StringIO(text.lstrip("\ufeff").splitlines()[0])), None)
    return list(first) if first else None


class CsvTable(FileKind):
    """A CSV table with exactly ``columns``, in order: what ``--force`` may replace when a command
    writes that table (review W #5: any CSV of lower-case names passed, so ``--force`` replaced a
    user's own ``game,seat,notes`` table). An earlier export of the same table, or an empty file,
    is replaced; a CSV with other columns (the user's, or another table's) is refused, named with
    its first columns."""

    def __init__(self, columns: Iterable[str], what: str = "this table"):
        self.columns = list(columns)
        super().__init__(f"a CSV of {what}", self._same)

    def _same(self, path: Path) -> bool:
        return _is_csv(path) and (not _head(path) or _csv_header(path) == self.columns)

    def problem(self, path: Path) -> str | None:
        if self._same(path):
            return None
        header = _csv_header(path) if _is_csv(path) else None
        return f"holds a CSV table with other columns ({_listed(header)})" if header else f"is {what_file(path)}"


def _listed(columns: list[str], shown: int = 4) -> str:
    """The first ``shown`` of ``columns``, comma-separated, "…" after them when there are more."""
    return ", ".join(columns[:shown]) + (", …" if len(columns) > shown else "")


#: The key-value metadata every Parquet table this toolkit writes carries (export, ladder), so that
#: --force replaces a Parquet file only when it is one of them.
PARQUET_SIGN = {"written_by": "balance-toolkit"}
#: The key of that metadata naming which table the file holds (``balance export``'s ``--what``:
#: "seats", "players" …; :func:`parquet_sign`), so that ``--force`` replaces only an earlier copy of
#: the same table (review C #1: a mistyped --what replaced a seats export with the length table).
PARQUET_TABLE_KEY = "table"


def parquet_sign(table: str | None = None) -> dict[str, str]:
    """The key-value metadata of a Parquet table this toolkit writes: :data:`PARQUET_SIGN` and,
    when given, the table it holds under :data:`PARQUET_TABLE_KEY`."""
    return {**PARQUET_SIGN, PARQUET_TABLE_KEY: table} if table else dict(PARQUET_SIGN)


def _parquet_meta(path: Path) -> dict[bytes, bytes] | None:
    """The key-value metadata of the Parquet file at ``path``, or None (not Parquet, damaged)."""
    try:
        import pyarrow.parquet as pq

        return pq.read_metadata(path).metadata or {}
    except Exception:            # (not Parquet, damaged: not ours)
        return None


def _is_our_parquet(path: Path) -> bool:
    meta = _parquet_meta(path)
    return meta is not None and all(meta.get(k.encode()) == v.encode() for k, v in PARQUET_SIGN.items())


def _is_parquet(path: Path) -> bool:
    raw = _head(path)
    return not raw or (raw.startswith(b"PAR1") and _is_our_parquet(path))


def _starts_with(pattern: str):
    """A test: the file is empty, or UTF-8 text whose start matches the regular expression."""
    rx = re.compile(pattern)

    def test(path: Path) -> bool:
        text = _text_head(path)
        return text is not None and (not text.strip() or rx.match(text) is not None)
    return test


class ParquetTable(FileKind):
    """A Parquet table of this toolkit holding table ``table`` with exactly ``columns``: what
    ``--force`` may replace when ``balance export`` writes that table, as :class:`CsvTable` for a
    CSV (review C #1: any Parquet file of this toolkit was replaced, so a mistyped ``--what``
    destroyed another table). The file must name the same table in its metadata
    (:data:`PARQUET_TABLE_KEY`) and have the same columns; one written before the toolkit named its
    tables (signed, no table named) is judged by its columns alone, as a CSV is. An empty file is
    replaced; ``columns`` None (before the table is computed) checks the table's name alone."""

    def __init__(self, table: str, columns: Iterable[str] | None = None, what: str | None = None):
        self.table = table
        self.columns = None if columns is None else list(columns)
        super().__init__(f"a Parquet table of {what or f'the {table} export'}",
                         lambda path: self.problem(path) is None)

    def _columns(self, path: Path) -> list[str] | None:
        try:
            import pyarrow.parquet as pq

            return list(pq.read_schema(path).names)
        except Exception:
            return None

    def problem(self, path: Path) -> str | None:
        if not _head(path):
            return None                          # an empty file holds nothing to lose
        meta = _parquet_meta(path) if _head(path).startswith(b"PAR1") else None
        if meta is None or not _is_our_parquet(path):
            return f"is {what_file(path)}"
        named = meta.get(PARQUET_TABLE_KEY.encode())
        named = named.decode("utf-8", "replace") if named is not None else None
        columns = self._columns(path) or []
        if named is not None and named != self.table:
            return f"holds a Parquet table of the {named} export ({_listed(columns)})"
        if self.columns is None or columns == self.columns:
            return None
        return (f"holds a Parquet table of the {named} export with other columns ({_listed(columns)})"
                if named is not None else f"holds a Parquet table with other columns ({_listed(columns)})")


CSV_FILE = FileKind("a CSV table", _is_csv)
PARQUET_FILE = FileKind("a Parquet table of this toolkit", _is_parquet)
BASELINE_FILE = FileKind("a baseline of balance check", _starts_with(re.escape(BASELINE_SIGN)))
#: a replay's text: its first line (or its second, after the "# why" line of --find) names the
#: game, its run, its player count and the run's seed, as simcore.replay heads every replay
REPLAY_FILE = FileKind("a replay", _starts_with(
    r"(?:# [^\n]*\n)?[^\n]*: game \d+ of run [^\n]*\(\d+ (?:players|sides), run seed \d+"))


def _is_markdown(path: Path) -> bool:
    """Text a summary may be appended to: empty, Markdown or text, or HTML (a $GITHUB_STEP_SUMMARY
    file, which earlier steps may have begun with HTML); not a table, TOML, JSON, XML (a JUnit
    report), a baseline or binary data."""
    return not _head(path) or what_file(path) in ("a text file", "HTML", MARKUP)


MARKDOWN_FILE = FileKind("a Markdown or text file", _is_markdown)


def signed_file(name: str, sign: str) -> FileKind:
    """The kind of a file that carries ``sign`` in its first 4 KB (an empty file too)."""
    return FileKind(name, lambda path: not _head(path) or _holds_sign(path, sign))


def table_file(fmt: str) -> FileKind:
    """The kind of a table written as ``fmt`` (csv or parquet)."""
    return PARQUET_FILE if fmt == "parquet" else CSV_FILE


def check_output_dir(path: str | Path, force: bool, option: str = "--out",
                     inputs: Iterable[str | Path] = (), kind: str = "run") -> Path:
    """:func:`check_output_path` for a directory of ``kind`` (a run, a report, a questions
    directory, a sweep, a tune)."""
    return check_output_path(path, kind="dir", force=force, option=option, inputs=inputs, what=kind)


def _holds_sign(path: Path, sign: str | None) -> bool:
    """``path`` holds ``sign`` in its first 4 KB (a file this toolkit wrote)."""
    if sign is None:
        return False
    try:
        with open(path, "rb") as fh:
            return sign.encode("utf-8") in fh.read(4096)
    except OSError:
        return False


# ---------------------------------------------------------------------------------------------
# Ownership markers: what this toolkit wrote, of which kind
# ---------------------------------------------------------------------------------------------

#: The marker every output directory carries: written by this toolkit alone, it says the kind of
#: output (run, report, sweep, tune, questions, …), the marker's format, a random id and the list
#: of entries the toolkit wrote there. ``--force`` replaces only a directory whose marker has the
#: same kind, and removes only the entries it lists.
MARKER = ".balance-output.json"
MARKER_FORMAT = 1
_TOOLKIT = "balance-toolkit"
#: Characters of randomness in temporary, backup and scratch names (64 bits: never guessed, and a
#: name counts as ours only when the lock's record lists it).
_ID_HEX = 16


def new_id() -> str:
    """A random id for a marker or a hidden name (16 hex digits)."""
    return secrets.token_hex(_ID_HEX // 2)


def read_marker(directory: str | Path) -> dict | None:
    """The ownership marker of ``directory`` (a dict with kind, format, id, entries), or None when it
    has none or it is not one this toolkit wrote (not JSON, another shape)."""
    p = Path(directory) / MARKER
    try:
        if p.is_symlink() or not p.is_file() or p.stat().st_size > 1_000_000:
            return None
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("toolkit") != _TOOLKIT \
            or not isinstance(data.get("kind"), str) or not isinstance(data.get("entries"), list) \
            or not all(isinstance(e, str) and plain_name(e) for e in data["entries"]):
        return None
    tree = data.get("tree")
    if tree is not None and not (isinstance(tree, list) and all(
            isinstance(t, str) and t and all(plain_name(part) for part in t.split("/"))
            for t in tree)):
        return None
    return data


def plain_name(entry: str) -> bool:
    """``entry`` names something directly inside a directory: not empty, not ``.`` or ``..``, no
    ``/`` and no NUL. Every entry this toolkit writes in a marker is one (:func:`write_marker`); a
    marker listing ``../victim``, an absolute path or ``..`` is not ours, and ``--force`` then
    refuses the directory (review s62 #1: it deleted ``../victim`` with exit 0)."""
    return entry not in ("", ".", "..") and "/" not in entry and "\x00" not in entry


def _below(directory: Path, rel: str) -> bool:
    """``directory/rel`` lies inside ``directory`` without passing through a symbolic link: each
    part of ``rel`` is a plain name and every folder on the way is a real folder (a forged tree
    through a link must not reach outside: review s62 #1)."""
    parts = rel.split("/")
    if not all(plain_name(part) for part in parts):
        return False
    here = directory
    for part in parts[:-1]:
        here = here / part
        if os.path.islink(here) or not os.path.isdir(here):
            return False
    return True


#: Most paths a marker's ``tree`` records (about 50 bytes each, under :func:`read_marker`'s 1 MB);
#: a directory holding more is checked as a marker without a tree is.
TREE_MAX = 10_000


def listed_folders(d: Path, entries: Iterable[str]) -> list[str]:
    """The ``entries`` of a marker that are real folders of ``d`` (not the marker, not a path
    below a folder, not a symbolic link), in sorted order: what a tree is recorded inside."""
    return [e for e in sorted(set(entries))
            if e != MARKER and "/" not in e and not (d / e).is_symlink() and (d / e).is_dir()]


def directory_tree(directory: str | Path, entries: Iterable[str]) -> list[str] | None:
    """Every file and folder inside the listed ``entries`` of ``directory`` that are folders, as
    paths relative to ``directory`` ("figures/seats.png"), or None past :data:`TREE_MAX`.
    Symbolic links are recorded, never followed."""
    d = Path(directory)
    tree: list[str] = []
    for entry in listed_folders(d, entries):
        for root, dirs, files in os.walk(d / entry):
            rel = Path(root).relative_to(d).as_posix()
            tree += [f"{rel}/{name}" for name in (*dirs, *files)]
            if len(tree) > TREE_MAX:
                return None
    return sorted(tree)


def write_marker(directory: str | Path, kind: str, entries: Iterable[str],
                 marker_id: str | None = None, tree: list[str] | None = None) -> dict:
    """Write ``directory``'s marker (replacing it atomically) and return it. ``tree``: every path
    inside the listed folders (:func:`directory_tree`), recorded when the directory is complete,
    so that ``--force`` finds a user's file put inside one of them (``figures/NOTES.txt``)."""
    d = Path(directory)
    marker = {"toolkit": _TOOLKIT, "kind": kind, "format": MARKER_FORMAT,
              "id": marker_id or new_id(),
              "entries": sorted({e for e in entries if e != MARKER and "/" not in e})}
    if tree is not None:
        marker["tree"] = sorted(set(tree))
    tmp = d / f"{MARKER}.tmp-{new_id()}"
    tmp.write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, d / MARKER)
    return marker


def mark_dir(directory: str | Path, kind: str, entries: Iterable[str]) -> dict:
    """Add ``entries`` to the marker of a directory written in place (a sweep, a tune); a directory
    without a marker gets a new one of ``kind``. The marker then has no ``tree`` (the folders are
    still being written) until :func:`seal_dir`."""
    old = read_marker(directory)
    if old is not None and old["kind"] == kind:
        return write_marker(directory, kind, [*old["entries"], *entries], old.get("id"))
    return write_marker(directory, kind, entries)


def seal_dir(directory: str | Path, inside: dict[str, str] | None = None) -> dict | None:
    """Record in the marker of a directory written in place, once complete, the paths inside its
    listed folders that this toolkit wrote (:func:`written_tree`): the earlier tree's paths still
    there, and what the folders' own markers and ``inside`` name. Never whatever is on disk: a
    sweep or tune run again over itself (it resumes in place) took a user's ``NOTES.txt`` put in
    a variant into its tree, and the next ``--force`` deleted it (review s59 #1)."""
    old = read_marker(directory)
    if old is None:
        return None
    present = [e for e in old["entries"] if os.path.lexists(Path(directory) / e)]
    tree = written_tree(directory, present, inside or {})
    earlier = _tree_of(old)
    if tree is not None and earlier is not None:
        tree += [t for t in earlier if os.path.lexists(Path(directory) / t)]
        tree = sorted(set(tree)) if len(set(tree)) <= TREE_MAX else None
    return write_marker(directory, old["kind"], old["entries"], old.get("id"), tree=tree)


def written_tree(directory: str | Path, entries: Iterable[str],
                 inside: dict[str, str]) -> list[str] | None:
    """The paths inside the listed folders ``entries`` of ``directory`` that this toolkit wrote,
    as :func:`directory_tree` gives them, or None past :data:`TREE_MAX`. In a folder carrying a
    marker of its own (a sweep's variant, a tune's confirmation, a panel's cell: a run), the
    entries its marker lists and the marker; in another folder, the paths ``inside[entry]`` names
    (a regular expression matched against the path below the listed folder: ``v\\d{3,}`` for a
    sweep's ``variants``) and, when it names none, the folders that carry a marker. Anything else
    (a user's file, put there before or while the command ran) is left out, so ``--force`` later
    finds it and refuses."""
    d = Path(directory)
    tree: list[str] = []
    for entry in listed_folders(d, entries):
        pattern = re.compile(inside[entry]) if entry in inside else None
        tree += _written(d, entry, "", pattern)
        if len(tree) > TREE_MAX:
            return None
    return sorted(set(tree))


def _written(d: Path, rel: str, below: str, pattern: re.Pattern | None) -> list[str]:
    """:func:`written_tree` for the folder ``d/rel`` (``below``: its path under the listed folder)."""
    folder = d / rel
    marker = read_marker(folder)
    found: list[str] = []
    if marker is not None:
        tree = _tree_of(marker)
        for name in sorted({*marker["entries"], MARKER}):
            p = folder / name
            if "/" in name or not os.path.lexists(p):
                continue
            found.append(f"{rel}/{name}")
            if p.is_dir() and not p.is_symlink():
                found += ([f"{rel}/{t}" for t in sorted(tree) if t.startswith(f"{name}/")
                           and os.path.lexists(folder / t)] if tree is not None
                          else _written(d, f"{rel}/{name}", "", None))
            if len(found) > TREE_MAX:
                break
        return found
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        p = folder / name
        sub = f"{below}/{name}" if below else name
        is_dir = p.is_dir() and not p.is_symlink()
        if pattern is not None and pattern.fullmatch(sub) is None:
            continue
        if pattern is None and not (is_dir and read_marker(p) is not None):
            continue
        found.append(f"{rel}/{name}")
        if is_dir:
            found += _written(d, f"{rel}/{name}", sub, pattern)
        if len(found) > TREE_MAX:
            break
    return found


def _tree_of(marker: dict) -> set[str] | None:
    tree = marker.get("tree")
    if isinstance(tree, list) and all(isinstance(t, str) for t in tree):
        return set(tree)
    return None


def _inner_foreign(directory: Path, entry: str, tree: set[str] | None) -> list[str]:
    """What the listed folder ``entry`` holds that this toolkit did not write there: with a
    recorded tree, any path not in it (a folder not in it is named once, not its contents);
    without one (a directory written before trees were recorded, or in place and interrupted),
    the foreign entries of each folder inside it that carries a marker of its own (a sweep's
    variant, a panel's cell: a run)."""
    top = directory / entry
    if top.is_symlink() or not top.is_dir():
        return []
    found: list[str] = []
    for root, dirs, files in os.walk(top):
        rel = Path(root).relative_to(directory).as_posix()
        if tree is not None:
            for name in files:
                if f"{rel}/{name}" not in tree:
                    found.append(f"{rel}/{name}")
            unknown = [n for n in dirs if f"{rel}/{n}" not in tree]
            found += [f"{rel}/{n}" for n in unknown]
            dirs[:] = [n for n in dirs if n not in unknown]
            continue
        inner = read_marker(root)
        if inner is not None:
            found += [f"{rel}/{e}" for e in foreign_entries(root, inner)]
            dirs[:] = []                       # its own folders: checked by its own marker above
    return found


def foreign_entries(directory: str | Path, marker: dict) -> list[str]:
    """Entries of ``directory`` its marker does not list (the user's own files), and, inside its
    listed folders, what this toolkit did not write there (:func:`_inner_foreign`), as relative
    paths ("figures/NOTES.txt")."""
    listed = set(marker["entries"]) | {MARKER}
    d = Path(directory)
    tree = _tree_of(marker)
    try:
        top = sorted(e.name for e in os.scandir(d) if e.name not in listed)
    except OSError:
        return []
    inner = [p for e in sorted(marker["entries"]) for p in _inner_foreign(d, e, tree)]
    return top + inner


def _a_kind(kind: str) -> str:
    """A directory kind with its article: "a run", "a questions directory" (review W #11: "holds a
    run, not a questions")."""
    return f"a {kind} directory" if kind == "questions" else f"a {kind}"


def ownership_problem(directory: str | Path, kind: str) -> str | None:
    """Why ``--force`` may not replace the existing non-empty ``directory`` by a ``kind``, or None."""
    marker = read_marker(directory)
    if marker is None:
        # a marker file of another shape (hand-made, or naming paths outside: review s62 #1) is
        # said as such, not as missing
        why = (f"its {MARKER} is not one this toolkit wrote" if os.path.lexists(Path(directory) / MARKER)
               else f"no ownership marker {MARKER}")
        return (f"not a directory this toolkit wrote ({why}); --force will not delete it, choose "
                "another directory")
    if marker["kind"] != kind:
        have, want = _a_kind(marker["kind"]), _a_kind(kind)
        return (f"holds {have}, not {want}; --force replaces only {want}, choose another directory")
    foreign = foreign_entries(directory, marker)
    if foreign:
        names = ", ".join(show(f, 40) for f in foreign[:3]) + (f" and {len(foreign) - 3} more"
                                                               if len(foreign) > 3 else "")
        return (f"holds {names}, which this toolkit did not write there; --force will not delete "
                "them: move them, or choose another directory")
    return None


def _remove_owned(directory: Path) -> list[str]:
    """Remove what ``directory``'s marker lists, then the directory if nothing else is left.
    Returns the entries left (the user's own files added meanwhile: kept, never removed)."""
    marker = read_marker(directory)
    if marker is None:
        left = sorted(os.listdir(directory)) if directory.is_dir() else []
        if not left and directory.is_dir() and not directory.is_symlink():
            try:      # an empty directory without a marker holds nothing to lose (revC #1)
                directory.rmdir()
            except OSError:
                return sorted(os.listdir(directory))
        return left
    tree = _tree_of(marker)
    for entry in marker["entries"]:
        p = directory / entry
        if not plain_name(entry) or not os.path.lexists(p):     # (read_marker refuses those too)
            continue
        if tree is None or p.is_symlink() or not p.is_dir():
            _remove(p)
            continue
        # only what the tree records: a file put inside meanwhile keeps its folder (and the old
        # directory, reported by the caller)
        for rel in sorted((t for t in tree if t.startswith(f"{entry}/")), key=len, reverse=True):
            q = directory / rel
            if not _below(directory, rel):
                continue
            if q.is_symlink() or q.is_file():
                q.unlink(missing_ok=True)
            elif q.is_dir():
                try:
                    q.rmdir()
                except OSError:
                    pass
        try:
            p.rmdir()
        except OSError:
            pass
    for p in directory.glob(f"{MARKER}*"):
        _remove(p)
    try:
        directory.rmdir()
        return []
    except OSError:
        return sorted(os.listdir(directory))


# ---------------------------------------------------------------------------------------------
# Claims: one writer per output, and the record of its hidden entries
# ---------------------------------------------------------------------------------------------

def record_path_for(target: Path) -> Path:
    return target.parent / f".{target.name}.claim"


def _parse_record(raw: bytes) -> dict | None:
    """A claim record this toolkit wrote, else None."""
    try:
        data = json.loads(raw.decode("utf-8")) if raw.strip() else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("toolkit") != _TOOLKIT \
            or not isinstance(data.get("entries"), dict):
        return None
    return data


def _peek(path: Path, limit: int = 1_000_000) -> bytes | None:
    """The first bytes of the regular file ``path`` (not following a symbolic link); None if it
    does not exist; b"" if it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError:
        return b""
    try:
        return os.read(fd, limit)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _in_the_way(path: Path) -> bool:
    """``path`` exists and is not a lock or claim file of ours: a directory, a link, a device,
    or a file holding something this toolkit did not write (a user's own ``.notes.lock``)."""
    if not os.path.lexists(path):
        return False
    if os.path.islink(path) or not os.path.isfile(path):
        return True
    raw = _peek(path)
    return bool(raw and raw.strip()) and _parse_record(raw) is None


class _Lock:
    """One writer per output: an exclusive lock on ``.<name>.lock`` (a :class:`filelock.FileLock`,
    taken without waiting) and, beside it, the record of the hidden entries this command made
    beside the target (``.<name>.claim``: temporary, backup and scratch names), written only while
    the lock is held. After a kill the next command to take the lock removes exactly those, and
    nothing else.

    The record is a file of its own because the lock file is filelock's: it may create, truncate
    or keep it as its version sees fit. ``legacy``: a record found in the lock file itself (outputs
    of the toolkit before filelock came back), read before the lock was taken."""

    def __init__(self, lock: FileLock, path: Path, record_path: Path, legacy: dict | None = None) -> None:
        self.lock, self.path, self.record_path, self.legacy = lock, path, record_path, legacy
        self.known_pid: int | None = None     # the pid in the record last read or written

    def read(self) -> dict | None:
        raw = _peek(self.record_path)
        record = _parse_record(raw) if raw else None
        if record is not None:
            self.known_pid = record.get("pid")
        return record if record is not None else self.legacy

    def write(self, record: dict) -> None:
        """Replace the record in place, never passing through an empty or unreadable file: the
        new text is written over the old one padded with spaces to the old length (still one JSON
        value), then the file is cut to the new length. A kill at any point leaves the old record
        or the new one, so the next command can still finish the job (an empty record would be
        taken for a user's file and left, with the lock, for ever)."""
        data = (json.dumps(record) + "\n").encode("utf-8")
        fd = os.open(self.record_path, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
        try:
            old_size = os.fstat(fd).st_size
            os.pwrite(fd, data + b" " * max(0, old_size - len(data)), 0)
            if old_size > len(data):
                os.ftruncate(fd, len(data))
            os.fsync(fd)
        finally:
            os.close(fd)
        self.known_pid = record.get("pid")

    def close(self, unlink: bool) -> None:
        if self.lock is None:
            return
        if unlink:
            # While holding the lock (filelock retries on a new file when it finds an unlinked
            # one). The lock file first: a kill between the two unlinks leaves the record alone,
            # which the next command finishes (a lone empty lock file would pass for a user's).
            # The record is removed only if it is still the one this lock wrote or read: a command
            # that took the new lock meanwhile may have written its own.
            try:
                os.unlink(self.path)
            except OSError:
                pass
            raw = _peek(self.record_path)
            record = _parse_record(raw) if raw else None
            if raw is not None and (not raw.strip() or self.known_pid is None
                                    or (record or {}).get("pid") == self.known_pid):
                try:
                    os.unlink(self.record_path)
                except OSError:
                    pass
        try:
            self.lock.release(force=True)
        except OSError:
            pass
        self.lock = None


class _Claim:
    def __init__(self, lock: _Lock, created: list[Path], kind: str | None,
                 option: str = "--out") -> None:
        self.lock, self.created, self.kind, self.option = lock, created, kind, option
        self.entries: dict[str, str] = {}
        # the locks on the same file under its other names (:func:`_identity_locks`)
        self.same_file: list[tuple[FileLock, Path]] = []
        # what stood at the target when it was claimed (:func:`_standing`): publishing replaces
        # only that, never something that appeared there while the command worked
        self.seen: tuple | None = None

    def save(self, target: Path) -> None:
        self.lock.write({"toolkit": _TOOLKIT, "format": MARKER_FORMAT, "target": target.name,
                         "pid": os.getpid(), "entries": self.entries})


_CLAIMS: dict[Path, _Claim] = {}
#: Outputs this process claimed and has not yet published (the command line clears it when a
#: command starts: a closed stdout then says whether the command's work was done).
UNFINISHED: set[Path] = set()


def lock_path_for(target: Path) -> Path:
    return target.parent / f".{target.name}.lock"


def _same_file_lock_paths(absolute: Path) -> list[tuple[Path, str]]:
    """The other lock files that name the file ``absolute`` names, each with the words for it: the
    lock beside the file its symbolic links lead to (``link.db`` → ``study.db``: the lock of
    ``study.db``), and, for an existing regular file, a lock named by its (device, inode) in a
    folder of this user's under the temporary directory (a hard link: two names, one file). Every
    command that claims a file takes these too, so two names of one file take the same lock
    (review s62 #2: a tune with ``--storage link.db`` ran beside one with ``--storage study.db``,
    removed its running trial, and the first stopped with a traceback). Not covered: a hard link
    made to a file after a command claimed it while it did not exist yet, and two users."""
    out: list[tuple[Path, str]] = []
    try:
        resolved = Path(os.path.realpath(absolute))
    except (OSError, ValueError):
        resolved = absolute
    if resolved != absolute and resolved.parent.is_dir():
        out.append((lock_path_for(resolved), f"as {show(resolved)}"))
    try:
        st = os.stat(absolute)
    except (OSError, ValueError):
        return out
    if not stat.S_ISREG(st.st_mode):
        return out
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"balance-toolkit-locks-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        own = os.lstat(folder)
    except OSError:
        return out
    if not stat.S_ISDIR(own.st_mode) or own.st_uid != os.getuid():
        return out                      # (another user's folder of that name: not trusted)
    out.append((folder / f"{st.st_dev}-{st.st_ino}.lock", "under another name (a hard link to it)"))
    return out


#: The same-file locks this process holds, each with the target it was taken for.
_SAME_FILE: dict[Path, Path] = {}


def _take_same_file_locks(absolute: Path, target: str | Path, option: str) -> list[tuple[FileLock, Path]]:
    """Take every lock of :func:`_same_file_lock_paths` without waiting; UsageError (one line)
    when another command, or this one for another of its outputs, holds one."""
    taken: list[tuple[FileLock, Path]] = []
    try:
        for path, words in _same_file_lock_paths(absolute):
            holder = _SAME_FILE.get(path)
            if holder is not None:
                if holder == absolute:
                    continue
                raise UsageError(f"{option} {show(target)}: names the same file as {show(holder)}, "
                                 "which this command also writes; give another name")
            if _in_the_way(path):
                continue                # a user's file of that name: the name's own lock stands
            lock = FileLock(str(path))
            try:
                lock.acquire(timeout=0)
            except Timeout:
                raise UsageError(f"{option} {show(target)}: another command is writing that file "
                                 f"right now {words} ({show(path.name)} is held); wait for it or "
                                 f"choose another {option}") from None
            except OSError:
                continue                # (cannot be made here: the name's own lock stands)
            taken.append((lock, path))
            _SAME_FILE[path] = absolute
    except BaseException:
        _release_same_file(taken)
        raise
    return taken


def _release_same_file(taken: list[tuple[FileLock, Path]]) -> None:
    """Remove and release the same-file locks of one claim (removed while held, as :class:`_Lock`
    does)."""
    for lock, path in taken:
        try:
            os.unlink(path)
        except OSError:
            pass
        try:
            lock.release(force=True)
        except OSError:
            pass
        _SAME_FILE.pop(path, None)
    taken.clear()


def _try_lock(target: Path, create: bool = True) -> _Lock | None:
    """The held lock beside ``target``, or None if another process holds it (or, ``create``
    false, if there is no lock file). OSError when it cannot be made. A lock file holding
    something this toolkit did not write is left alone (None; the caller says it is in the way)."""
    path = lock_path_for(target)
    if not create and not os.path.isfile(path):
        return None
    raw = _peek(path)
    legacy = _parse_record(raw) if raw else None
    if raw and raw.strip() and legacy is None:
        return None
    lock = FileLock(str(path))
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return None
    return _Lock(lock, path, record_path_for(target), legacy)


def _held_by_another(target: Path) -> str | None:
    """The name of ``target``'s lock file when another live command holds it, else None (no lock
    file, a user's file of that name, or this process's own claim)."""
    if Path(os.path.abspath(target)) in _CLAIMS:
        return None
    path = lock_path_for(target)
    raw = _peek(path) if os.path.isfile(path) else None
    if raw is None or (raw.strip() and _parse_record(raw) is None):
        return None
    try:
        lock = _try_lock(target, create=False)
    except OSError:
        return None
    if lock is None:
        return path.name
    lock.close(unlink=False)
    return None


def record_entry(target: str | Path, name: str, role: str) -> None:
    """Record the hidden entry ``name`` (beside ``target``) in the target's lock before creating
    it: ``role`` is ``tmp`` (removed after a kill), ``old`` (the previous output, put back if the
    target is missing) or ``scratch`` (removed)."""
    absolute = Path(os.path.abspath(target))
    if absolute not in _CLAIMS:
        claim_output(absolute)
    claim = _CLAIMS[absolute]
    claim.entries[name] = role
    try:
        claim.save(absolute)
    except OSError as exc:
        claim.entries.pop(name, None)      # not made: nothing to clean up under that name
        if no_space(exc):
            raise out_of_space(target) from None
        raise


def building_beside(target: str | Path) -> bool:
    """Whether this process is building a replacement for ``target`` in a hidden temporary
    directory beside it (``--force`` over another sweep or tune): an interruption discards it."""
    claim = _CLAIMS.get(Path(os.path.abspath(target)))
    return claim is not None and "tmp" in claim.entries.values()


def forget_entry(target: str | Path, name: str) -> None:
    claim = _CLAIMS.get(Path(os.path.abspath(target)))
    if claim is not None and claim.entries.pop(name, None) is not None:
        claim.save(Path(os.path.abspath(target)))


def claimed_option(target: str | Path, default: str = "--out") -> str:
    """The option ``target`` was claimed under (``--out``, ``--save-run`` …), for a message about
    it once the work has started; ``default`` when this process has not claimed it."""
    claim = _CLAIMS.get(Path(os.path.abspath(target)))
    return claim.option if claim is not None else default


def hidden_name(target: str | Path, role: str, tag: str | None = None) -> Path:
    """A new unguessable hidden name beside ``target`` (``.<name>.<tag>-<id>``), recorded in the
    target's lock with ``role`` before anything is made under it."""
    t = Path(os.path.abspath(target))
    path = t.parent / f".{t.name}.{tag or role}-{new_id()}"
    record_entry(t, path.name, role)
    return path


def claim_output(target: str | Path, option: str = "--out", kind: str | None = None) -> None:
    """Lock ``target`` for this process (re-entrant); UsageError if another command writes it.

    Creates the missing parent directories (the lock lives beside the target); those are removed
    again if nothing is published. Cleans up what killed commands left in the parent folder (only
    the entries their locks list)."""
    absolute = Path(os.path.abspath(target))
    if absolute in _CLAIMS:
        if kind is not None and _CLAIMS[absolute].kind is None:
            _CLAIMS[absolute].kind = kind
        return
    created: list[Path] = []
    probe = absolute.parent
    while not probe.exists():
        created.append(probe)
        probe = probe.parent
    if created:
        try:
            absolute.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"{option} {show(target)}: cannot create a directory in "
                             f"{show(probe)}: {exc.strerror}") from None
    lock_path = lock_path_for(absolute)
    for p in (lock_path, record_path_for(absolute)):
        if _in_the_way(p):
            _remove_created(created)
            raise UsageError(f"{option} {show(target)}: {show(p.name)} is in the way (a file this "
                             f"toolkit did not write); move it or choose another {option}")
    # The lock taken and the claim registered in one step no signal can split: a Ctrl-C landing
    # between them (the record written, the claim not yet known to release_claims) left
    # .<name>.lock and .<name>.claim behind a finished command.
    with _signals_held():
        try:
            lock = _try_lock(absolute)
        except OSError as exc:
            _remove_created(created)
            if no_space(exc):
                raise _no_room_to_claim(target, option) from None
            raise UsageError(f"{option} {show(target)}: cannot create a lock file in "
                             f"{show(absolute.parent)}: {exc.strerror}") from None
        if lock is None:
            _remove_created(created)
            raise UsageError(f"{option} {show(target)}: another command is writing it right now "
                             f"({lock_path.name} is held); wait for it or choose another {option}")
        try:
            same_file = _take_same_file_locks(absolute, target, option)
        except BaseException:
            lock.close(unlink=lock.read() is None)   # (a killed command's record: kept)
            _remove_created(created)
            raise
        claim = _Claim(lock, created, kind, option)
        claim.same_file = same_file
        previous = lock.read()
        if previous is not None:      # a killed command's entries: ours to finish from now on
            claim.entries = {str(k): v for k, v in (previous.get("entries") or {}).items()}
        _CLAIMS[absolute] = claim
        UNFINISHED.add(absolute)
        _PUBLISHED_AS.pop(absolute, None)     # a new output there: an earlier one's place is past
    done: list[str] = []
    if previous is not None:                  # left by a killed command: clean up what it lists
        try:
            done = _recover_target(absolute.parent, absolute.name, previous)
            claim.entries = {}
        except OSError:
            pass                              # kept in the record: the next command finishes it
    claim.seen = _standing(absolute)          # (after a killed command's backup is put back)
    try:
        claim.save(absolute)
    except OSError as exc:
        # (review s46 #4: a full disk said "error: No space left on device", no option, no path)
        release_claim(absolute, published=False)
        if no_space(exc):
            raise _no_room_to_claim(target, option) from None
        raise OSError(exc.errno, f"{option} {show(target)}: cannot write its claim record "
                                 f"{record_path_for(absolute).name} ({exc.strerror or exc})") from None
    recover_leftovers(absolute.parent, holding=absolute, already=done)


def _no_room_to_claim(target: str | Path, option: str) -> OSError:
    """The one line for a disk too full for even the lock beside ``target``: a problem of the
    machine (an :class:`OSError`), naming the option and the path; nothing was written."""
    return OSError(errno.ENOSPC, f"{option} {show(target)}: no space left on the device to start "
                                 "writing it (its lock files beside it could not be written); nothing "
                                 "was written (free some space or write somewhere else)")


@contextmanager
def _signals_held() -> Iterator[list[int]]:
    """Hold SIGINT and SIGTERM back around a few steps that must not be split (taking a lock and
    registering its claim, releasing it): a signal arriving meanwhile is acted on when the block
    ends. Yields the list of the signals noted so far (empty where nothing is held). In the main
    thread the Python-level handlers are swapped for one that notes the signal
    (a process-directed signal may be delivered to any thread, and CPython runs its handler in
    the main thread whichever thread received it, so masking this thread alone would not hold
    it); the handler that was installed then gets it. Elsewhere (another thread, no signals)
    the steps run as they are."""
    import signal
    import threading

    noted: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield noted
        return
    # (SIGHUP as the command line catches it: not when ignored, under nohup)
    wanted = tuple(s for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
                   if s != signal.SIGHUP or signal.getsignal(s) is not signal.SIG_IGN)
    try:
        old = {s: signal.signal(s, lambda signum, frame: noted.append(signum)) for s in wanted}
    except (ValueError, OSError):                # not the main interpreter: nothing to hold
        yield noted
        return
    try:
        yield noted
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
        if noted:                                # acted on now, by the handler that was there
            signum = noted[0]
            handler = old[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), signum)


def _remove_created(created: list[Path]) -> None:
    for d in created:            # deepest first
        try:
            d.rmdir()
        except OSError:
            break


def release_claim(target: str | Path, published: bool = True) -> None:
    """Release the claim on ``target`` (after it was published, or when giving up): the hidden
    entries it recorded are removed (a backup is put back if the target is missing)."""
    absolute = Path(os.path.abspath(target))
    if published:
        UNFINISHED.discard(absolute)
    claim = _CLAIMS.get(absolute)
    if claim is None:
        return
    # The claim stays registered until its lock is closed: a signal landing before (it was
    # popped first) left the lock and its record for a command that had finished; release_claims
    # at the end of the command now finishes the release.
    if claim.entries:
        try:
            _recover_target(absolute.parent, absolute.name, {"entries": claim.entries})
        except OSError:
            with _signals_held():
                claim.lock.close(unlink=False)    # keep the record: the next command finishes it
                _release_same_file(claim.same_file)
                _CLAIMS.pop(absolute, None)
            return
    with _signals_held():
        claim.lock.close(unlink=True)
        _release_same_file(claim.same_file)
        _CLAIMS.pop(absolute, None)
    if not published:
        _remove_created(claim.created)


def release_claims() -> None:
    """Release every claim of this process (end of a command; also run at exit)."""
    for target in list(_CLAIMS):
        release_claim(target, published=os.path.lexists(target))


atexit.register(release_claims)

#: Outputs published by this process (the CLI's "interrupted" line says whether one was).
PUBLISHED: list[Path] = []
#: Where each output this process published went (its target → the path published: the target,
#: or ``<name>-2`` beside something that appeared there meanwhile), for :func:`published_as`.
_PUBLISHED_AS: dict[Path, Path] = {}


def _record_published(target: str | Path, path: Path) -> None:
    """``target``'s output was published as ``path`` (itself or the name beside it)."""
    PUBLISHED.append(path)
    _PUBLISHED_AS[Path(os.path.abspath(target))] = path


def published_as(target: str | Path) -> Path:
    """The path this process published ``target``'s output under: ``target`` itself, or the free
    name beside it (:func:`_published_beside`) where something appeared there while the command
    ran (review s51: a report published as ``REP-2`` printed ``report: REP/report.html``).
    ``target`` when nothing was published for it."""
    return _PUBLISHED_AS.get(Path(os.path.abspath(target)), Path(target))


# ---------------------------------------------------------------------------------------------
# Leftovers of killed commands
# ---------------------------------------------------------------------------------------------

def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        try:
            path.unlink()
        except FileNotFoundError:
            pass


def is_hidden_name(entry: str) -> bool:
    """``entry`` has the shape of a hidden temporary, backup or scratch name this module makes."""
    return re.fullmatch(rf"\..+\.[a-z]+-[0-9a-f]{{{_ID_HEX}}}", entry) is not None


def _ours(name: str, entry: str) -> bool:
    """A recorded entry counts only if it has the shape of a name this module makes beside
    ``name``: a hand-edited lock cannot point anywhere else."""
    return re.fullmatch(rf"\.{re.escape(name)}\.[a-z]+-[0-9a-f]{{{_ID_HEX}}}", entry) is not None


def _recover_target(parent: Path, name: str, record: dict) -> list[str]:
    """Clean up the hidden entries one target's lock record lists (the caller holds the lock)."""
    done: list[str] = []
    target = parent / name
    entries = record.get("entries") or {}
    for entry, role in sorted(entries.items(), key=lambda e: e[1] != "old"):
        p = parent / entry
        if not isinstance(entry, str) or not _ours(name, entry) or not os.path.lexists(p):
            continue
        if role == "old" and not os.path.lexists(target):
            p.rename(target)
            done.append(f"restored {name} from {entry} (a --force replacement was killed between its "
                        "two renames)")
        elif role == "old":
            left = _remove_owned(p)
            done.append(f"removed {entry}" if not left else
                        f"kept {entry} (it holds {', '.join(left[:3])}, not written by this toolkit)")
        else:
            _remove(p)
            done.append(f"removed {entry}")
    return done


def _lock_targets(parent: Path, only: str | None = None) -> list[str]:
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    out = dict.fromkeys(m["name"] for m in map(_LOCK.match, sorted(names)) if m)
    return [n for n in out if only is None or n == only]


def recover_leftovers(parent: str | Path, holding: Path | None = None, only: str | None = None,
                      quiet: bool = False, already: list[str] | None = None) -> list[str]:
    """Clean up what killed commands left in ``parent``: for each lock file no live command holds,
    the entries its record lists (see the module docstring), then the lock file. Nothing a lock
    does not list is touched. Returns what was done, also printed as one ``note:`` line on stderr.
    ``holding`` is the target this process has claimed (its lock is already held)."""
    parent = Path(parent)
    done: list[str] = list(already or [])
    for name in _lock_targets(parent, only):
        target = parent / name
        if (holding is not None and target == holding) or Path(os.path.abspath(target)) in _CLAIMS:
            continue
        try:
            # a record of ours without its lock file (killed between the two unlinks): lock anew
            lock = _try_lock(target, create=_parse_record(_peek(record_path_for(target)) or b"") is not None)
        except OSError:
            continue
        if lock is None:
            continue                      # a live command is writing it: not ours to touch
        record = lock.read()
        if record is None:                # not a lock this toolkit wrote: left as it is
            lock.close(unlink=False)
            continue
        try:
            done += _recover_target(parent, name, record)
            lock.close(unlink=True)
        except OSError:
            lock.close(unlink=False)
    if done and not quiet:
        print(f"note: cleaned up after an interrupted command in {show(parent)}: {'; '.join(done)}",
              file=sys.stderr)
    return done


def being_replaced(path: str | Path) -> bool:
    """``path`` is missing only for the moment between the two renames of a ``--force``
    replacement another command is making: its lock is held by another process and a
    ``.<name>.old-<id>`` entry waits beside it (revC #11). Readers say so ("retry in a moment")
    instead of "does not exist"."""
    p = Path(os.path.abspath(path))
    lock_file = lock_path_for(p)
    if os.path.lexists(p) or p in _CLAIMS or not os.path.isfile(lock_file):
        return False
    try:
        names = os.listdir(p.parent)
    except OSError:
        return False
    if not any(n.startswith(f".{p.name}.old-") and _ours(p.name, n) for n in names):
        return False
    raw = _peek(lock_file)
    if raw and raw.strip() and _parse_record(raw) is None:
        return False                      # a lock file this toolkit did not write
    try:
        lock = _try_lock(p, create=False)
    except OSError:
        return False
    if lock is None:
        return True                       # another command holds it
    lock.close(unlink=False)
    return False


def restore_interrupted(path: str | Path) -> bool:
    """If ``path`` is missing because a ``--force`` replacement was killed between its renames,
    put the old directory back (reading commands call this); True if something was restored."""
    p = Path(os.path.abspath(path))
    if os.path.lexists(p) or not p.parent.is_dir() or not (
            os.path.lexists(lock_path_for(p)) or os.path.lexists(record_path_for(p))):
        return False
    recover_leftovers(p.parent, only=p.name)
    return p.exists()


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

def no_space(exc: BaseException) -> bool:
    """``exc`` says the disk is full: ENOSPC or EDQUOT, also as pyarrow's text of it ("Error
    writing bytes to file. Detail: [errno 28] No space left on device") and polars' ("No space
    left on device (os error 28)")."""
    if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return True
    text = str(exc).lower()
    return "[errno 28]" in text or "os error 28" in text or "no space left on device" in text


def out_of_space(target: str | Path, option: str | None = None) -> OSError:
    """The one line for a disk that filled while ``target`` was written (the writer has removed
    its partial files: the target is as it was). An OSError: a problem of the machine, exit 1."""
    option = option or claimed_option(target)
    return OSError(errno.ENOSPC, f"{option} {show(target)}: the disk ran out of space while writing "
                                 f"it; the partial files were removed and {show(target)} is as it "
                                 "was (free some space or write somewhere else)")


@contextmanager
def atomic_output(out: str | Path, force: bool = False, option: str = "--out",
                  inputs: Iterable[str | Path] = (), own_sign: str | None = None,
                  replaces: FileKind | None = None) -> Iterator[Path]:
    """Yield a temporary path beside ``out``; on success rename it to ``out`` (atomic on one file system).

    On an exception the temporary file is removed and ``out`` is left exactly as it was.
    ``own_sign``: an existing file holding this text near its start was written by this toolkit
    and is replaced without ``force`` (a JUnit report rewritten by every CI run)."""
    out = check_output_file(out, force, option, inputs, own_sign=own_sign, replaces=replaces)
    force = force or (own_sign is not None and out.exists())
    tmp = hidden_name(out, "tmp")
    published = False
    try:
        yield tmp
        if not tmp.exists():
            raise RuntimeError(f"nothing was written for {out}")
        claim = _CLAIMS.get(Path(os.path.abspath(out)))
        if claim is not None and os.path.lexists(out) and _standing(Path(os.path.abspath(out))) != claim.seen:
            # a file (or folder) that appeared while the command wrote: left as it is, the output
            # beside it (review s51 safety #2: a passing check's --junit exited 2, a ladder's CSV
            # was lost, with --force a user's new file was replaced without a word)
            _published_beside(tmp, out, claim)
            published = True
            return
        if out.exists() and not force:  # appeared while we were writing (not claimed: no record)
            raise UsageError(f"{option} {show(out)}: file exists (use --force to replace it)")
        os.replace(tmp, out)
        published = True
        _record_published(out, Path(out))
    except Exception as exc:
        if no_space(exc):
            raise out_of_space(out, option) from None
        raise
    finally:
        if tmp.exists():
            tmp.unlink()
        forget_entry(out, tmp.name)
        release_claim(out, published)


def write_text_atomic(out: str | Path, text: str, force: bool = False, option: str = "--out",
                      inputs: Iterable[str | Path] = (), own_sign: str | None = None,
                      replaces: FileKind | None = None) -> Path:
    """Write UTF-8 text to ``out`` atomically (refusing an existing file unless ``force``, or
    unless it holds ``own_sign``: see :func:`atomic_output`)."""
    with atomic_output(out, force, option, inputs, own_sign=own_sign, replaces=replaces) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return published_as(out)        # (beside, when a file appeared there meanwhile)


#: How long :func:`append_text` waits for another command appending to the same file (its lock
#: is held only around its append, a few milliseconds).
APPEND_WAIT = 30.0


def reserve_output(target: str | Path) -> None:
    """Count ``target`` among this command's outputs not yet written (:data:`UNFINISHED`) without
    claiming it: an output claimed only when it is written (:func:`append_text`), so that a
    command whose stdout closes before then still says it stopped short (exit 141)."""
    if str(target) != "-":
        UNFINISHED.add(Path(os.path.abspath(target)))


def _claim_to_append(out: str | Path, option: str) -> Path:
    """:func:`check_output_file` for an append, waiting up to :data:`APPEND_WAIT` seconds while
    another command holds the file's lock (it appends for milliseconds: review s46 #9, two checks
    appending to one ``$GITHUB_STEP_SUMMARY`` stopped the second with "another command is writing
    it right now")."""
    absolute = Path(os.path.abspath(out))
    deadline = time.monotonic() + APPEND_WAIT
    while True:
        try:
            return check_output_file(out, False, option, append=True, replaces=MARKDOWN_FILE)
        except UsageError as exc:
            # another command's lock, held now or released since the attempt: wait and try again;
            # anything else (a file in the way, a folder that cannot be written) is said at once
            busy = _held_by_another(absolute) is not None or "is held)" in str(exc)
            if absolute in _CLAIMS or not busy or time.monotonic() > deadline:
                raise
        time.sleep(0.02)


def append_text(out: str | Path, text: str, option: str) -> Path:
    """Append UTF-8 text to ``out`` (created if missing), as ``$GITHUB_STEP_SUMMARY`` expects, on a
    line of its own (a newline first when the file's last line is not ended); only
    to a Markdown or text file (review Q #1: a rules TOML or a Parquet file given as --summary was
    appended to and no longer read). ``-`` is standard output, as for most command lines (it
    was a file named "-").

    The file's lock is taken for the append alone (:func:`_claim_to_append`). All or nothing: the
    file's size is noted first and, when the write fails (a disk that fills, review s46 #3: a
    partial append cut a character in two, and the file was no longer UTF-8), the file is cut back
    to it, as it was, and the error is the machine's (an :class:`OSError` naming the option and
    the path: exit 1, or 4 for balance check), not a usage error."""
    if str(out) == "-":
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
        return Path("-")
    out = _claim_to_append(out, option)
    size = None
    fd = -1
    existed = os.path.lexists(out)
    try:
        fd = os.open(out, os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o666)
        size = os.fstat(fd).st_size
        unended = size > 0 and os.pread(fd, 1, size - 1) != b"\n"   # (review AB #8: a heading ran on)
        data = (("\n" if unended else "") + text).encode("utf-8")
        done = 0
        while done < len(data):                                      # (append: at the end)
            done += os.write(fd, data[done:])
        os.fsync(fd)
    except OSError as exc:
        cut = ""
        if fd >= 0 and size is not None:
            try:
                os.ftruncate(fd, size)        # nothing of the failed append is left
                cut = f"; nothing was added and {show(out)} is as it was"
            except OSError:
                cut = f"; {show(out)} may end with part of the text"
        if fd >= 0:
            os.close(fd)
            fd = -1
        if not existed and size == 0:         # made by this append: not left behind, empty
            try:
                os.unlink(out)
                cut = f"; nothing was written under {show(out)}"
            except OSError:
                pass
        release_claim(out, os.path.exists(out))
        if no_space(exc):
            raise OSError(errno.ENOSPC, f"{option} {show(out)}: the disk ran out of space while "
                                        f"appending to it{cut} (free some space or write somewhere "
                                        "else)") from None
        raise OSError(exc.errno, f"{option} {show(out)}: cannot append to it "
                                 f"({exc.strerror or exc}){cut}") from None
    finally:
        if fd >= 0:
            os.close(fd)
    PUBLISHED.append(out)
    release_claim(out, True)
    return out


def temporary_dir(target: Path, option: str = "--out") -> Path:
    """Create and return a hidden temporary directory beside ``target`` (its unguessable name
    recorded in the target's lock first, so only it is removed after a kill)."""
    tmp = hidden_name(target, "tmp")
    try:
        tmp.mkdir(parents=True)
    except OSError as exc:
        raise UsageError(f"{option} {show(target)}: cannot create a directory in {show(tmp.parent)}: "
                         f"{exc.strerror}") from None
    return tmp


def publish_dir(tmp: Path, target: Path, kind: str | None = None) -> Path:
    """Rename the complete ``tmp`` to ``target`` with its ownership marker (``kind``: the one the
    target was claimed for). An existing ``target`` (``--force``) is moved aside first and only the
    entries its marker lists are removed after, so a failure (or a kill) between the renames cannot
    lose both: the next command restores the old directory (:func:`recover_leftovers`)."""
    target = Path(target)
    absolute = Path(os.path.abspath(target))
    claim = _CLAIMS.get(absolute)
    kind = kind or (claim.kind if claim is not None else None) or "output"
    old_marker = read_marker(tmp)
    entries = os.listdir(tmp)
    write_marker(tmp, kind, entries,
                 old_marker.get("id") if old_marker and old_marker["kind"] == kind else None,
                 tree=directory_tree(tmp, entries))
    if _empty_dir(target):
        # An existing empty directory (`mkdir out && simulate -o out`) holds nothing to keep: the
        # complete directory takes its place in one rename (rename(2) replaces an empty
        # directory), not moved aside to a `.<name>.old-<id>` left behind for ever (revC #1). A
        # file written into it meanwhile makes the rename fail (ENOTEMPTY): then it is moved
        # aside like any other.
        try:
            tmp.rename(target)
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise
        else:
            return _published(tmp, target)
    if os.path.lexists(target) and claim is not None and _standing(absolute) != claim.seen:
        return _published_beside(tmp, target, claim)
    if os.path.lexists(target):
        old = hidden_name(target, "old")
        target.rename(old)
        if os.environ.get(PAUSE_BETWEEN_RENAMES):
            print(f"paused between renames: {old}", file=sys.stderr, flush=True)
            time.sleep(float(os.environ[PAUSE_BETWEEN_RENAMES]))
        try:
            tmp.rename(target)
        except OSError:
            old.rename(target)
            raise
        left = _remove_owned(old)
        if left:
            print(f"note: kept {show(old)}: it holds {', '.join(left[:3])}, which this toolkit did not "
                  "write", file=sys.stderr)
        forget_entry(target, old.name)
    else:
        tmp.rename(target)
    return _published(tmp, target)


def _standing(path: Path) -> tuple | None:
    """What stands at ``path``: None for nothing or an empty directory (nothing to keep), else
    (file or directory, inode, device): the same folder while a command writes into it (a skill
    directory's marker renewed in place), another one when something was put in its place."""
    if not os.path.lexists(path) or _empty_dir(path):
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    is_dir = os.path.isdir(path) and not os.path.islink(path)
    return ("dir" if is_dir else "file", st.st_ino, st.st_dev)


def _published_beside(tmp: Path, target: Path, claim: "_Claim") -> Path:
    """Something the command did not claim to replace appeared at ``target`` while it worked (a
    user's file or folder, made after the check): it is left exactly where it is, and the finished
    output takes the first free visible name beside it, ``<name>-2``, ``<name>-3``, … (a file keeps
    its suffix: ``<stem>-2<suffix>``), said in one
    line on stderr (review s48 safety #1: it was moved into a hidden ``.<name>.old-<id>`` without
    --force, and a file silently)."""
    n = 2
    is_file = os.path.isfile(tmp) and not os.path.islink(tmp)
    while True:
        # a file keeps its suffix (L-2.csv opens as a CSV; L.csv-2 did not)
        alt = target.with_name(f"{target.stem}-{n}{target.suffix}" if is_file else f"{target.name}-{n}")
        if not os.path.lexists(alt):
            try:
                tmp.rename(alt)
                break
            except OSError as exc:
                if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                    raise
        n += 1
    what = "a directory" if os.path.isdir(target) else "a file"
    print(f"warning: {claim.option} {show(target)}: {what} appeared there while this command ran; "
          f"it is left as it was, and the output is {show(alt)}", file=sys.stderr)
    forget_entry(target, tmp.name)
    _record_published(target, alt)
    release_claim(target, True)
    return alt


def _empty_dir(path: Path) -> bool:
    """``path`` is a real (not symbolic link) directory with nothing in it."""
    if os.path.islink(path) or not os.path.isdir(path):
        return False
    try:
        with os.scandir(path) as entries:
            return next(entries, None) is None
    except OSError:
        return False


def _published(tmp: Path, target: Path) -> Path:
    forget_entry(target, tmp.name)
    _record_published(target, target)
    release_claim(target, True)
    return target


@contextmanager
def atomic_dir(target: str | Path, force: bool = False, option: str = "--out",
               inputs: Iterable[str | Path] = (), kind: str = "report") -> Iterator[Path]:
    """Yield a temporary directory beside ``target``; publish it as ``target`` on success.

    On an exception the temporary directory is removed and ``target`` is left exactly as it was."""
    out = check_output_dir(target, force, option, inputs, kind=kind)
    tmp = temporary_dir(out, option)
    try:
        yield tmp
        publish_dir(tmp, out)
    except Exception as exc:
        if no_space(exc):
            raise out_of_space(out, option) from None
        raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
