"""The one atomic writer and the one output-path check: run directories, reports, exports,
baselines, JUnit and Markdown summaries, questions directories and golden files.

Nothing already on disk is lost:

* **Checked before any work.** :func:`check_output_path` (and its two short forms
  :func:`check_output_file`, :func:`check_output_dir`) refuses, in one line naming the option and
  the path, everything that would fail or do harm later: an empty name, a name too long for the
  file system (counting the temporary name written beside it), a symlink loop, a symbolic link as
  the final name, a path under a virtual file system (``/proc``, ``/sys``, ``/dev`` or any mount of
  that kind), the working directory or one of its ancestors, a directory where a file is expected
  and the reverse (also a file used as a parent directory), an output that is, contains or is
  inside one of the command's own inputs (``balance report RUN --out RUN --force``), an existing
  output without ``force``, a directory that this toolkit did not write (no ``run.json`` or
  ``report.html``) even with ``force``, and a place the user cannot write.
* **Claimed.** The same check takes a lock beside the target (``.<name>.lock``, a
  :class:`filelock.FileLock`, non-blocking): of two commands writing the same output at once, the
  second stops at once with one line. The lock is released and its file removed when the output is
  published, when the command ends (:func:`release_claims`) or at exit; after a SIGKILL the kernel
  frees the lock and the next command reuses and removes the file.
* **Written under a temporary name.** Every output is written under a hidden name beside its
  target (``.<name>.tmp-<id>``) and renamed into place only when complete. With ``force`` a
  directory is replaced in two renames: the old one is moved aside to ``.<name>.old-<id>`` first,
  then the new one takes the final name, then the old one is removed.
* **Recovered.** What a killed command left in a folder (temporary entries, an old directory moved
  aside, a lock file) is cleaned up by the next command that writes to the same folder
  (:func:`recover_leftovers`), and said in one ``note:`` line on stderr; a final name missing
  because the kill fell between the two renames of a ``--force`` replacement is restored from the
  old directory (the command never finished, so the previous result stands). Reading a run that is
  missing for that reason restores it too (:func:`restore_interrupted`). Entries whose target is
  locked by a live command are left alone.

May import the standard library, filelock and :mod:`simcore.errors`.
"""

from __future__ import annotations

import atexit
import errno
import os
import re
import shutil
import sys
import time
import uuid
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from simcore.errors import UsageError

#: Roots of the virtual file systems every Linux machine has: nothing of ours belongs there.
VIRTUAL_ROOTS = ("/proc", "/sys", "/dev")
#: File system types (``/proc/self/mountinfo``) that hold no user files.
VIRTUAL_FS_TYPES = frozenset({
    "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs",
    "pstore", "bpf", "configfs", "fusectl", "mqueue", "efivarfs", "binfmt_misc", "autofs", "nsfs",
    "rpc_pipefs", "hugetlbfs"})
#: A non-empty directory is replaced with ``force`` only if it holds one of these (it is one of
#: ours: a run, questions or Fief tables directory has run.json, a report has report.html).
OUTPUT_SIGNS = ("run.json", "report.html", "sweep.json", "tune.json")   # sweep and tune directories too
#: Longest suffix added to an output's name for its temporary, old and lock entries.
_SUFFIX = 40     # ".<name>.questions-<id>" and its own ".tmp-<id>" beside it
_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<kind>tmp|old|questions)-(?P<id>[0-9a-f]{8})$")
_LOCK = re.compile(r"^\.(?P<name>.+)\.lock$")

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


def check_output_path(out: str | Path, *, kind: str, force: bool, option: str = "--out",
                      inputs: Iterable[str | Path] = (), append: bool = False,
                      claim: bool = True) -> Path:
    """Check that ``out`` can be written as a ``kind`` (``"file"`` or ``"dir"``) and claim it.

    ``inputs`` are the files and directories the command reads (run directories, rules,
    baselines, strategy files): the output may not be, contain or lie inside one of them.
    ``append`` (files only): the file is appended to, so an existing one is fine without ``force``.
    Returns ``out`` as a :class:`Path`; raises :class:`UsageError` (one line) otherwise. Called
    before any work so that a bad path fails in a second, not after an hour of simulation.
    """
    if kind not in ("file", "dir"):
        raise ValueError(f"kind must be 'file' or 'dir', not {kind!r}")
    text = os.fspath(out) if isinstance(out, (str, Path)) else str(out)
    if not text.strip():
        raise UsageError(f"{option}: empty path")
    if "\x00" in text:
        raise UsageError(f"{option} {show(text)}: a path cannot contain a NUL character")
    given = Path(text)
    if kind == "file" and (text.endswith("/") or given.name in ("", ".", "..")):
        raise UsageError(f"{option} {show(text)}: names a directory (give a file name)")
    absolute = Path(os.path.abspath(given))
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
    parent = _nearest_existing(absolute.parent)
    if not os.path.isdir(parent):
        raise UsageError(f"{option} {show(text)}: cannot write in {show(parent)}: a file, not a directory")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {show(text)}: cannot write in {show(parent)} (permission denied)")
    if kind == "file":
        if absolute.is_dir():
            raise UsageError(f"{option} {show(text)}: is a directory (give a file name)")
        if absolute.exists() and not absolute.is_file():
            raise UsageError(f"{option} {show(text)}: exists and is not a regular file")
        if absolute.exists() and not force and not append:
            raise UsageError(f"{option} {show(text)}: file exists (use --force to replace it)")
        if append and absolute.exists() and not os.access(absolute, os.W_OK):
            raise UsageError(f"{option} {show(text)}: cannot write to it (permission denied)")
    else:
        if absolute.exists() and not absolute.is_dir():
            raise UsageError(f"{option} {show(text)}: exists and is not a directory")
        if absolute.is_dir():
            try:
                entries = [e.name for e in os.scandir(absolute)]
            except OSError as exc:
                raise UsageError(f"{option} {show(text)}: cannot read it ({exc.strerror})") from None
            if entries and not force:
                raise UsageError(f"{option} {show(text)}: directory exists and is not empty "
                                 "(use --force to replace it)")
            if entries and not any(sign in entries for sign in OUTPUT_SIGNS):
                raise UsageError(f"{option} {show(text)}: not a directory this toolkit wrote (no "
                                 f"{' or '.join(OUTPUT_SIGNS)}); --force will not delete it, "
                                 "choose another directory")
    if claim:
        claim_output(given, option)
    return given


def check_output_file(out: str | Path, force: bool, option: str = "--out",
                      inputs: Iterable[str | Path] = (), append: bool = False) -> Path:
    """:func:`check_output_path` for a file (an export, a baseline, a JUnit or Markdown summary)."""
    return check_output_path(out, kind="file", force=force, option=option, inputs=inputs,
                             append=append)


def check_output_dir(path: str | Path, force: bool, option: str = "--out",
                     inputs: Iterable[str | Path] = ()) -> Path:
    """:func:`check_output_path` for a directory (a run, a report, a questions directory)."""
    return check_output_path(path, kind="dir", force=force, option=option, inputs=inputs)


# ---------------------------------------------------------------------------------------------
# Claims: one writer per output
# ---------------------------------------------------------------------------------------------

class _Claim:
    def __init__(self, lock, lock_path: Path, created: list[Path]) -> None:
        self.lock, self.lock_path, self.created = lock, lock_path, created


_CLAIMS: dict[Path, _Claim] = {}


def lock_path_for(target: Path) -> Path:
    return target.parent / f".{target.name}.lock"


def _try_lock(target: Path):
    """A held :class:`filelock.FileLock` beside ``target``, or None if another process holds it."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(lock_path_for(target)), timeout=0)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        return None
    return lock


def _drop_lock(lock, lock_path: Path) -> None:
    """Remove the lock file while holding it (a waiter that opened it retries on the new file)."""
    try:
        os.unlink(lock_path)
    except OSError:
        pass
    try:
        lock.release(force=True)
    except Exception:
        pass


def claim_output(target: str | Path, option: str = "--out") -> None:
    """Lock ``target`` for this process (re-entrant); UsageError if another command writes it.

    Creates the missing parent directories (the lock lives beside the target); those are removed
    again if nothing is published. Cleans up what killed commands left in the parent folder."""
    absolute = Path(os.path.abspath(target))
    if absolute in _CLAIMS:
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
    try:
        lock = _try_lock(absolute)
    except OSError as exc:
        _remove_created(created)
        raise UsageError(f"{option} {show(target)}: cannot create a lock file in "
                         f"{show(absolute.parent)}: {exc.strerror}") from None
    if lock is None:
        _remove_created(created)
        raise UsageError(f"{option} {show(target)}: another command is writing it right now "
                         f"({lock_path_for(absolute).name} is held); wait for it or choose another "
                         f"{option}")
    _CLAIMS[absolute] = _Claim(lock, lock_path_for(absolute), created)
    recover_leftovers(absolute.parent, holding=absolute)


def _remove_created(created: list[Path]) -> None:
    for d in created:            # deepest first
        try:
            d.rmdir()
        except OSError:
            break


def release_claim(target: str | Path, published: bool = True) -> None:
    """Release the claim on ``target`` (after it was published, or when giving up)."""
    claim = _CLAIMS.pop(Path(os.path.abspath(target)), None)
    if claim is None:
        return
    _drop_lock(claim.lock, claim.lock_path)
    if not published:
        _remove_created(claim.created)


def release_claims() -> None:
    """Release every claim of this process (end of a command; also run at exit)."""
    for target in list(_CLAIMS):
        release_claim(target, published=os.path.lexists(target))


atexit.register(release_claims)

#: Outputs published by this process (the CLI's "interrupted" line says whether one was).
PUBLISHED: list[Path] = []


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


def _recover_target(parent: Path, name: str, entries: list[tuple[str, str]]) -> list[str]:
    """Clean up the leftovers of one target (its lock is held by the caller)."""
    done: list[str] = []
    target = parent / name
    olds = sorted((e for e in entries if e[1] == "old"), key=lambda e: (parent / e[0]).stat().st_mtime,
                  reverse=True)
    for entry, _ in olds:
        if not os.path.lexists(target):
            (parent / entry).rename(target)
            done.append(f"restored {name} from {entry} (a --force replacement was killed between its "
                        "two renames)")
        else:
            _remove(parent / entry)
            done.append(f"removed {entry}")
    for entry, kind in entries:
        if kind in ("tmp", "questions"):
            _remove(parent / entry)
            done.append(f"removed {entry}")
    return done


def _scan(parent: Path, only: str | None = None) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    try:
        names = os.listdir(parent)
    except OSError:
        return found
    for entry in names:
        m = _LEFTOVER.match(entry)
        if m:
            found.setdefault(m["name"], []).append((entry, m["kind"]))
            continue
        m = _LOCK.match(entry)
        if m:
            found.setdefault(m["name"], [])
    if only is not None:
        found = {k: v for k, v in found.items() if k == only}
    return found


def recover_leftovers(parent: str | Path, holding: Path | None = None, only: str | None = None,
                      quiet: bool = False) -> list[str]:
    """Clean up what killed commands left in ``parent`` (see the module docstring); return what was
    done, also printed as one ``note:`` line on stderr. Targets locked by a live command are
    skipped; ``holding`` is the target this process has claimed (its lock is already held)."""
    parent = Path(parent)
    done: list[str] = []
    for name, entries in _scan(parent, only).items():
        target = parent / name
        if holding is not None and target == holding:
            lock = None
        else:
            try:
                lock = _try_lock(target)
            except OSError:
                continue
            if lock is None:
                continue                      # a live command is writing it: not ours to touch
        try:
            done += _recover_target(parent, name, entries)
        except OSError:
            pass
        finally:
            if lock is not None:
                _drop_lock(lock, lock_path_for(target))
    if done and not quiet:
        print(f"note: cleaned up after an interrupted command in {show(parent)}: {'; '.join(done)}",
              file=sys.stderr)
    return done


def restore_interrupted(path: str | Path) -> bool:
    """If ``path`` is missing because a ``--force`` replacement was killed between its renames,
    put the old directory back (reading commands call this); True if something was restored."""
    p = Path(os.path.abspath(path))
    if os.path.lexists(p) or not p.parent.is_dir():
        return False
    if not any(kind == "old" for _, kind in _scan(p.parent, p.name).get(p.name, [])):
        return False
    recover_leftovers(p.parent, only=p.name)
    return p.exists()


# ---------------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------------

@contextmanager
def atomic_output(out: str | Path, force: bool = False, option: str = "--out",
                  inputs: Iterable[str | Path] = ()) -> Iterator[Path]:
    """Yield a temporary path beside ``out``; on success rename it to ``out`` (atomic on one file system).

    On an exception the temporary file is removed and ``out`` is left exactly as it was.
    """
    out = check_output_file(out, force, option, inputs)
    tmp = out.parent / f".{out.name}.tmp-{uuid.uuid4().hex[:8]}"
    published = False
    try:
        yield tmp
        if not tmp.exists():
            raise RuntimeError(f"nothing was written for {out}")
        if out.exists() and not force:  # appeared while we were writing
            raise UsageError(f"{option} {show(out)}: file exists (use --force to replace it)")
        os.replace(tmp, out)
        published = True
        PUBLISHED.append(out)
    finally:
        if tmp.exists():
            tmp.unlink()
        release_claim(out, published)


def write_text_atomic(out: str | Path, text: str, force: bool = False, option: str = "--out",
                      inputs: Iterable[str | Path] = ()) -> Path:
    """Write UTF-8 text to ``out`` atomically (refusing an existing file unless ``force``)."""
    with atomic_output(out, force, option, inputs) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(out)


def append_text(out: str | Path, text: str, option: str) -> Path:
    """Append UTF-8 text to ``out`` (created if missing), as ``$GITHUB_STEP_SUMMARY`` expects."""
    out = check_output_file(out, False, option, append=True)
    try:
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(text)
        PUBLISHED.append(out)
        release_claim(out, True)
    except OSError as exc:
        release_claim(out, os.path.exists(out))
        raise UsageError(f"{option} {show(out)}: cannot write ({exc.strerror})") from None
    return out


def temporary_dir(target: Path, option: str = "--out") -> Path:
    """Create and return a hidden temporary directory beside ``target``."""
    tmp = target.parent / f".{target.name}.tmp-{uuid.uuid4().hex[:8]}"
    try:
        tmp.mkdir(parents=True)
    except OSError as exc:
        raise UsageError(f"{option} {show(target)}: cannot create a directory in {show(tmp.parent)}: "
                         f"{exc.strerror}") from None
    return tmp


def publish_dir(tmp: Path, target: Path) -> Path:
    """Rename the complete ``tmp`` to ``target``; an existing ``target`` (``--force``) is moved
    aside first and removed after, so a failure (or a kill) between the renames cannot lose both:
    the next command restores the old directory (:func:`recover_leftovers`)."""
    target = Path(target)
    if os.path.lexists(target):
        old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
        target.rename(old)
        if os.environ.get(PAUSE_BETWEEN_RENAMES):
            print(f"paused between renames: {old}", file=sys.stderr, flush=True)
            time.sleep(float(os.environ[PAUSE_BETWEEN_RENAMES]))
        try:
            tmp.rename(target)
        except OSError:
            old.rename(target)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        tmp.rename(target)
    PUBLISHED.append(target)
    release_claim(target, True)
    return target


@contextmanager
def atomic_dir(target: str | Path, force: bool = False, option: str = "--out",
               inputs: Iterable[str | Path] = ()) -> Iterator[Path]:
    """Yield a temporary directory beside ``target``; publish it as ``target`` on success.

    On an exception the temporary directory is removed and ``target`` is left exactly as it was."""
    out = check_output_dir(target, force, option, inputs)
    tmp = temporary_dir(out, option)
    try:
        yield tmp
        publish_dir(tmp, out)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)

