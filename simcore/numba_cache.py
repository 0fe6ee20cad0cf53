"""Numba's on-disk cache for jitted code split over several files: one freshness stamp per group.

Numba keys the cache of a jitted function (``cache=True``) on its own source file only: a cached
function that calls or inlines jitted functions, or reads constants, of *another* file keeps their
old machine code after that file changes (a documented limitation, numba/numba#1833). A kernel
split into modules (layout, decisions, rules of play, driver) would then run stale code after an
edit to any module but the entry point's. :func:`share_cache_stamp` closes that gap for a group of
files: every cached function defined in one of the group's ``members`` gets a freshness stamp that
covers the content of all the group's files (and of the files it ``depends_on``), so an edit to any
of them recompiles the whole group on the next run, as an edit to a single-file kernel did. It
wraps the cache locator Numba would choose (same cache directory, same file names); only the stamp
differs. It must run before the members' ``@njit(cache=True)`` decorators do.

A game needs no call of its own: the registry (:mod:`simcore.games`) registers every game's folder
(:mod:`simcore.cache_folders`) when it is imported, which is before any module of the folder is,
and every cached function defined in a registered folder is stamped over all the folder's Python
files, :mod:`simcore.rng` and :mod:`simcore.search`: an edit anywhere in a game's folder recompiles its kernel.

Unprivileged installs: Numba caches beside the source (``__pycache__``), else in the user's cache
directory (``~/.cache/numba``), else — package directory read-only *and* home unwritable, as in a
system-wide install run by another user or a read-only container — every ``cache=True`` decorator
raised "cannot cache function: no locator available". Importing this module (which
:mod:`simcore.rng`, imported by every kernel before its first decorator, does) adds two fallbacks:
:class:`FallbackCacheLocator`, a private per-user folder ``balance-toolkit-numba-<uid>`` in
``$TMPDIR``, ``/tmp`` or ``/var/tmp`` (refused if another user owns it or may write it: cached code
is loaded with pickle), and, when not even that can be written, compiling without an on-disk cache
after one warning line on stderr. ``NUMBA_CACHE_DIR``, when set, still wins.

Start-up: loading the first cached function makes Numba load its registries of implementations,
among them ``numba.np.arraymath``, which asks whether BLAS is available by importing
``scipy.linalg`` (0.13 s of CPU here, 0.3-0.6 s under load; a tenth of a small run's process, for
kernels that use no linear algebra). :func:`skip_blas_probe` answers that question from whether
scipy is installed, without importing it; a jitted function that does use BLAS still imports
scipy when it compiles (Numba's own ``ensure_blas``, restored afterwards). Loading cached code
needs none of those registries at all (:func:`load_cache_without_registries`: 0.08-0.13 s less
of every run's start; only a compilation loads them, and the probe is skipped then). And
:func:`njit_on_demand` gives a jitted function its one explicit signature without compiling (or
loading from the cache) at import: ``@njit(sig)`` loads every such function's machine code when its
module is imported (0.03-0.05 s each here), although a caller loaded from the cache already holds
their code, and compiles them all on a cold start, although a line-up may never call some.
While Numba compiles, :class:`eased_collector` keeps Python's cyclic garbage collector from walking
the whole process again and again (~2 s of a cold first run's 26 s of CPU). And the
first call of a kernel no longer imports ``numpy.ma`` (:func:`typeof_without_numpy_ma`, 0.04-0.05 s
of CPU).

Cold start (an empty cache: the first run after install compiles the kernels): Numba's IR inliner
(``inline="always"``) repeated work at every call site that gives the same IR each time
(:func:`lighter_ir_inlining`, installed when the first compilation starts: same machine code, a
quarter less CPU for the default Middle-Ages run's compile), its SSA reconstruction rewrote every
statement of a function once per variable assigned more than once (:func:`lighter_ssa`: the
same IR, each variable's blocks only), and :func:`njit_unliteral` compiles a
helper called with different constants once rather than once per constant. Numba typed every call
of a builtin or ``@overload`` function afresh (:func:`memo_function_typing`: once per function and
argument types), and optimised and generated machine code for every callee of a kernel although
only the kernel's own code, into which each callee's IR is linked and optimised again, runs
(:func:`code_for_callers_only`: a callee's module is optimised and given machine code when Python
calls it, its cache entry holds its IR). Both are installed on import, for the Numba versions they
were checked on; :class:`numba_own_code` gives Numba's own behaviour back for comparisons. The
default Middle-Ages run's cold start: 20.5 s of CPU before these two and the inliner's skipped copy
(:class:`_SharedMemoCopy`), 14.6 s after (docs/cluster.md).
May import the standard library, numpy, numba and :mod:`simcore.cache_folders`.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from functools import lru_cache

import numpy as np
from numba.core import caching, dispatcher

from simcore import cache_folders

_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl   # (_CacheImpl in older Numba)
_GROUPS: dict[str, tuple[str, ...]] = {}   # member file → every file of its group's stamp
# Jitted modules outside a game's folder that every kernel calls or inlines (its RNG stream).
# jitted modules outside the game folders that every game's kernel calls: the streams, and the
# game-independent search (simcore.search, called by each game's search hooks)
_SHARED_JITTED = tuple(os.path.join(os.path.dirname(os.path.abspath(__file__)), f)
                       for f in ("rng.py", "search.py"))


@lru_cache(maxsize=None)
def _file_hash(path: str, mtime_ns: int, size: int) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


def group_stamp(files: tuple[str, ...]) -> str:
    """sha256 over the contents of ``files`` (re-read whenever one's mtime or size changes)."""
    h = hashlib.sha256()
    for path in files:
        st = os.stat(path)
        h.update(_file_hash(path, st.st_mtime_ns, st.st_size))
    return h.hexdigest()


class GroupStampLocator:
    """The locator Numba would choose for a member's function, with the group's stamp."""

    def __init__(self, inner, files: tuple[str, ...]) -> None:
        self._inner = inner
        self._files = files

    @classmethod
    def from_function(cls, py_func, py_file):
        files = _GROUPS.get(os.path.abspath(py_file))
        if files is None:
            in_folder = cache_folders.folder_files(py_file)
            files = in_folder + _SHARED_JITTED if in_folder is not None else None
        if files is None:
            return None
        for locator_class in _IMPL._locator_classes:
            if locator_class is cls:
                continue
            inner = locator_class.from_function(py_func, py_file)
            if inner is not None:
                return cls(inner, files)
        return None

    @property
    def _py_file(self):     # Numba names the file when it warns that a function cannot be cached
        return self._inner._py_file

    def get_source_stamp(self):
        return self._inner.get_source_stamp(), group_stamp(self._files)

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def ensure_cache_path(self):
        return self._inner.ensure_cache_path()

    def get_disambiguator(self):
        return self._inner.get_disambiguator()


def share_cache_stamp(members, depends_on=()) -> None:
    """Every cached function defined in one of ``members`` (paths of Python files) is fresh only
    while none of ``members`` and ``depends_on`` has changed since it was cached."""
    files = tuple(sorted({os.path.abspath(p) for p in (*members, *depends_on)}))
    for path in members:
        _GROUPS[os.path.abspath(path)] = files
    if GroupStampLocator not in _IMPL._locator_classes:
        _IMPL._locator_classes.insert(0, GroupStampLocator)


# ---------------------------------------------------------------------------------------------
# Unprivileged installs: a writable per-user cache folder, else no on-disk cache
# ---------------------------------------------------------------------------------------------

_SOURCE_MIXIN = getattr(caching, "_SourceFileBackedLocatorMixin")
_LOCATOR_BASE = getattr(caching, "_CacheLocator")
_warned = False


def _private_dir(path: str) -> bool:
    """``path`` exists, is a real directory of this user that nobody else may write, and we can."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
            and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and os.access(path, os.W_OK | os.X_OK))


def _temp_dirs() -> list[str]:
    """The temporary folders Python would use, without its last resort, the working directory
    (a cache folder must not appear among the user's files)."""
    found = [os.environ.get(k) for k in ("TMPDIR", "TEMP", "TMP")] + ["/tmp", "/var/tmp", "/usr/tmp"]
    return list(dict.fromkeys(d for d in found if d))


@lru_cache(maxsize=None)
def fallback_cache_root() -> str | None:
    """The per-user folder for Numba's cache when neither the package nor ``~/.cache`` is
    writable, or None when there is none (then functions compile without an on-disk cache)."""
    for tmp in _temp_dirs():
        root = os.path.join(tmp, f"balance-toolkit-numba-{os.getuid()}")
        try:
            try:
                os.mkdir(root, 0o700)
            except FileExistsError:
                pass
            if not _private_dir(root):
                continue
            tempfile.TemporaryFile(dir=root).close()
            return root
        except OSError:
            continue
    return None


class FallbackCacheLocator(_SOURCE_MIXIN, _LOCATOR_BASE):
    """Numba's last resort: the cache in :func:`fallback_cache_root`, one sub-folder per source
    folder (Numba's own naming)."""

    def __init__(self, py_func, py_file, root: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(root, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not os.path.exists(py_file):
            return None
        root = fallback_cache_root()
        if root is None:
            return None
        self = cls(py_func, py_file, root)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


_enable_caching = dispatcher.Dispatcher.enable_caching


def _enable_caching_or_not(self) -> None:
    """Numba's ``enable_caching``; without any writable cache folder, compile uncached (one
    warning per process) instead of failing at import."""
    global _warned
    try:
        _enable_caching(self)
    except RuntimeError as exc:
        if "no locator available" not in str(exc):
            raise
        if not _warned:
            _warned = True
            print("warning: no writable folder for Numba's cache (the package folder, ~/.cache and "
                  f"{', '.join(_temp_dirs())} are not writable); compiling without a cache, so "
                  "every run compiles the kernels again (set NUMBA_CACHE_DIR to a writable folder)",
                  file=sys.stderr)
        self._cache = caching.NullCache()


def has_cache() -> bool:
    """False once a jitted function of this process found no writable cache folder (compiled
    uncached, see :func:`_enable_caching_or_not`): what one process compiles, another cannot load."""
    return not _warned


def is_cached(disp, sig) -> bool:
    """Whether Numba's on-disk cache holds ``disp``'s machine code for ``sig`` (a tuple of Numba
    types, as :meth:`Dispatcher.compile` takes it), fresh for the source as it is now, without
    loading or compiling anything: the key Numba's ``Cache.load_overload`` would look up, read in
    the cache's index (a stale index, after an edit, holds nothing). ``True`` when the function
    has no cache (nothing to load either way) or Numba's internals are not as expected: a caller
    then only misses a notice, never a result."""
    try:
        cache = disp._cache
        if isinstance(cache, caching.NullCache):
            return True
        key = cache._index_key(sig, disp.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:               # another Numba: say "cached" (the call compiles if need be)
        return True


_numba_ensure_cache_path = caching._CacheLocator.ensure_cache_path
_WRITABLE_FOLDERS: set[str] = set()     # cache folders this process wrote a test file in


def _ensure_cache_path_once(self) -> None:
    """Numba's ``ensure_cache_path`` (make the folder, then create and delete a file in it to
    know it is writable), the file test once per folder and process: Numba runs it for every
    jitted function as it is decorated (77 for a Middle-Ages run, ~5 ms of a small run's start).
    The folder is still made each time (a folder removed since is made again before a save); one
    that stops being writable later fails at the save, as it would between two of Numba's tests."""
    path = self.get_cache_path()
    if path in _WRITABLE_FOLDERS:
        os.makedirs(path, exist_ok=True)
        return
    _numba_ensure_cache_path(self)
    _WRITABLE_FOLDERS.add(path)


def install_fallbacks() -> None:
    """Add :class:`FallbackCacheLocator` after Numba's locators and the uncached last resort, and
    test a cache folder's writability once per process (:func:`_ensure_cache_path_once`)
    (idempotent; runs on import)."""
    if FallbackCacheLocator not in _IMPL._locator_classes:
        _IMPL._locator_classes.append(FallbackCacheLocator)
    if dispatcher.Dispatcher.enable_caching is not _enable_caching_or_not:
        dispatcher.Dispatcher.enable_caching = _enable_caching_or_not
    if caching._CacheLocator.ensure_cache_path is not _ensure_cache_path_once:
        caching._CacheLocator.ensure_cache_path = _ensure_cache_path_once


install_fallbacks()
# Game folders registered by simcore.games (simcore.cache_folders): one stamp per folder.
if GroupStampLocator not in _IMPL._locator_classes:
    _IMPL._locator_classes.insert(0, GroupStampLocator)


def skip_blas_probe() -> None:
    """Import ``numba.np.arraymath`` with its BLAS probe answered by ``find_spec("scipy")`` rather
    than by importing ``scipy.linalg`` (idempotent; runs on import, before any cached function is
    loaded). ``_HAVE_BLAS`` only chooses the implementations registered for ``np.dot``-like calls;
    those still call the real ``ensure_blas`` when they compile."""
    if "numba.np.arraymath" in sys.modules:
        return
    import importlib.util

    import numba.np.linalg as linalg

    real = linalg.ensure_blas

    def probe() -> None:
        if importlib.util.find_spec("scipy") is None:
            raise ImportError("scipy is required for linear algebra")

    linalg.ensure_blas = probe
    try:
        import numba.np.arraymath  # noqa: F401  (its _HAVE_BLAS = _check_blas() runs here)
    finally:
        linalg.ensure_blas = real


# ---------------------------------------------------------------------------------------------
# Start-up: loading cached machine code without Numba's registries of implementations
# ---------------------------------------------------------------------------------------------

def _load_overload_light(self, sig, target_context):
    """Numba's ``Cache.load_overload`` without its ``target_context.refresh()``: only the
    reference-counting runtime (NRT) the loaded code calls is initialised. The refresh imports
    and installs every implementation registry (array maths, random, typed containers, the
    typing templates of every ``@overload``: 0.2-0.3 s of CPU with the BLAS probe, at the start
    of every run), which only a compilation reads; loading object code from the cache reads none
    of it, and every compilation refreshes the contexts itself (Numba's ``CompilerBase``), so a
    function compiled later in the same process sees them all. The runtime's own functions
    come from this cache's folder too (:func:`_compile_nrt_functions_cached`)."""
    from numba.core.runtime import rtsys

    if not rtsys._init:
        _NRT_CACHE_DIR[0] = getattr(self, "_cache_path", None)
    rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


# The folder of the cache whose first look-up initialises Numba's runtime (NRT), where its
# compiled functions are kept (:func:`_compile_nrt_functions_cached`); None: compile them there.
_NRT_CACHE_DIR: list = [None]
_real_nrt: dict = {}
_NRT_MAGIC = b"balance-toolkit NRT object code 1\n"


def _nrt_cache_file(folder: str, ctx) -> str:
    """The file holding Numba's runtime functions compiled for this Numba, llvmlite, Python and
    host (the target triple, CPU and features Numba keys its own cache on)."""
    import llvmlite
    import numba
    from numba.core.runtime import nrtdynmod

    h = hashlib.sha256(repr((numba.__version__, llvmlite.__version__, sys.version,
                             ctx.codegen().magic_tuple())).encode())
    with open(nrtdynmod.__file__, "rb") as f:
        h.update(f.read())
    return os.path.join(folder, f"numba-nrt-{h.hexdigest()[:16]}.nbo")


def _compile_nrt_functions_cached(ctx):
    """Numba's ``nrtdynmod.compile_nrt_functions`` (the runtime's reference-counting functions,
    compiled by LLVM when the runtime is initialised: 0.03 s of CPU at every start, the first
    cached kernel's load) read from an object-code file beside the cache when there is one
    (0.004 s), else compiled as Numba does and written there for the next process. The same
    IR, optimised and compiled by the same LLVM for the same host; a file that cannot be read
    or written changes nothing but the time. Without a cache folder (a compilation before any
    cache look-up, an uncached process), Numba's own function."""
    folder = _NRT_CACHE_DIR[0]
    if not folder:
        return _real_nrt["compile"](ctx)
    from numba.core.runtime import nrtdynmod

    try:
        path = _nrt_cache_file(folder, ctx)
    except Exception:                         # noqa: BLE001  (an odd install: Numba's own)
        return _real_nrt["compile"](ctx)
    state = _read_nrt_object(path)
    if state is not None:
        try:
            codegen = ctx.codegen()
            lib = _load_object_library(codegen, state)
            if lib is None:           # (not through the class's _unserialize: no function's entry)
                lib = _real["_unserialize"](codegen, state) if _real \
                    else codegen.unserialize_library(state)
            return lib
        except Exception:                     # noqa: BLE001  (then compiled below)
            pass
    ir_mod, library = nrtdynmod.create_nrt_module(ctx)
    library.enable_object_caching()           # (before finalising: keeps the object code)
    library.add_ir_module(ir_mod)
    library.finalize()
    try:
        name, kind, (obj, bitcode) = library.serialize_using_object_code()
        if kind == "object":
            _write_nrt_object(path, name, obj, bitcode)
    except Exception:                         # noqa: BLE001  (not kept: compiled next time)
        pass
    return library


def _read_nrt_object(path: str):
    """``(name, "object", (object code, bitcode))`` as Numba serialises a library, or None."""
    import struct

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    head = len(_NRT_MAGIC) + 24
    if not data.startswith(_NRT_MAGIC) or len(data) < head:
        return None
    n_name, n_obj, n_bitcode = struct.unpack("<QQQ", data[len(_NRT_MAGIC):head])
    if head + n_name + n_obj + n_bitcode != len(data):
        return None
    obj_at = head + n_name
    name, obj, bitcode = data[head:obj_at], data[obj_at:obj_at + n_obj], data[obj_at + n_obj:]
    return name.decode("utf-8"), "object", (obj, bitcode)


def _write_nrt_object(path: str, name: str, obj: bytes, bitcode: bytes) -> None:
    """Write the file whole under a temporary name, then rename it (a reader sees all or none);
    its mode is the umask's, as Numba's own cache files."""
    import struct

    raw = name.encode("utf-8")
    tmp = f"{path}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(_NRT_MAGIC + struct.pack("<QQQ", len(raw), len(obj), len(bitcode)) + raw + obj
                    + bitcode)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _load_registries_without_blas_probe(self):
    skip_blas_probe()
    out = _load_registries(self)
    _fill_deferred_env_globals()    # (the registries imported Numba's implementation modules)
    lighter_ir_inlining()     # (a compilation is starting: Numba's inliner is loaded)
    lighter_ssa()
    return out


_load_registries = None


def load_cache_without_registries() -> None:
    """Load cached functions without Numba's registries (:func:`_load_overload_light`), and move
    :func:`skip_blas_probe` to the first time they are loaded (a compilation): importing
    ``numba.np.arraymath`` for the probe is itself part of the registries' cost (idempotent; runs
    on import). Also :func:`_rebuild_env_light`, :func:`_load_defined_symbols_light`,
    :func:`_init_entry_points` and :func:`_compile_nrt_functions_cached`."""
    global _load_registries
    from numba.core import codegen, cpu, environment

    if caching.Cache.load_overload is not _load_overload_light:
        caching.Cache.load_overload = _load_overload_light
    if cpu.CPUContext.load_additional_registries is not _load_registries_without_blas_probe:
        _load_registries = cpu.CPUContext.load_additional_registries
        cpu.CPUContext.load_additional_registries = _load_registries_without_blas_probe
    if environment._rebuild_env is not _rebuild_env_light:
        _real_env["rebuild"] = environment._rebuild_env
        environment._rebuild_env = _rebuild_env_light
    from numba.core import entrypoints
    from numba.core.runtime import nrtdynmod

    if entrypoints.init_all is not _init_entry_points:
        _real_env["init_all"] = entrypoints.init_all
        entrypoints.init_all = _init_entry_points
    if nrtdynmod.compile_nrt_functions is not _compile_nrt_functions_cached:
        _real_nrt["compile"] = nrtdynmod.compile_nrt_functions
        nrtdynmod.compile_nrt_functions = _compile_nrt_functions_cached
    engine = getattr(codegen, "JitEngine", None)
    if (engine is not None and hasattr(engine, "_load_defined_symbols")
            and engine._load_defined_symbols is not _load_defined_symbols_light
            and _raw_llvm_calls() is not None):
        _real_env["load_defined_symbols"] = engine._load_defined_symbols
        engine._load_defined_symbols = _load_defined_symbols_light


def _init_entry_points() -> None:
    """Numba's ``entrypoints.init_all`` (run before the first call of any jitted function: it
    loads the ``numba_extensions`` entry points of every installed distribution), answered
    without ``importlib.metadata`` when no distribution declares one: Numba's scan builds every
    distribution's metadata and entry points (0.008-0.01 s of CPU at every start; the files
    are looked at here in 0.002 s). Only the plain layout is read this way (``*.dist-info`` and
    ``*.egg-info`` folders, and ``EGG-INFO`` of an ``.egg`` folder, in the folders of
    ``sys.path``, as ``importlib.metadata`` finds them); any other (a zip on the path, a finder
    of distributions besides Python's own) or any file naming ``numba_extensions`` leaves the
    work to Numba's function, as does a folder that cannot be listed."""
    from numba.core import entrypoints

    if not entrypoints._already_initialized and not _may_declare_numba_extensions():
        entrypoints._already_initialized = True        # what Numba concludes: nothing to load
        return
    _real_env["init_all"]()


def _may_declare_numba_extensions() -> bool:
    from importlib.machinery import PathFinder

    if any(hasattr(f, "find_distributions") and f is not PathFinder for f in sys.meta_path):
        return True
    for entry in sys.path:
        folder = entry or "."
        if not os.path.isdir(folder):
            if os.path.exists(folder):
                return True                            # a zip file (or an egg file) on the path
            continue
        try:
            children = os.listdir(folder)
        except OSError:
            return True
        egg = folder.lower().endswith(".egg")
        for child in children:
            low = child.lower()
            if not (low.endswith((".dist-info", ".egg-info")) or (egg and low == "egg-info")):
                continue
            try:
                with open(os.path.join(folder, child, "entry_points.txt"), "rb") as f:
                    if b"numba_extensions" in f.read():
                        return True
            except FileNotFoundError:
                continue
            except NotADirectoryError:                 # (an .egg-info file: no entry points)
                continue
            except OSError:
                return True
    return False


# Numba's environments whose module's globals are not read yet (:func:`_rebuild_env_light`):
# (the stand-in globals, the module's name), filled when a compilation loads the registries
_DEFERRED_ENVS: list[tuple[dict, str]] = []
_real_env: dict = {}


def _rebuild_env_light(modname, consts, env_name):
    """Numba's ``_rebuild_env`` (how a cached function's environment is unpickled) without
    importing a module of Numba's own implementations that is not imported yet.

    Numba gives an environment its module's globals (``Environment(mod.__dict__)``), importing
    the module; the Middle-Ages kernel inlines ``np.empty``/``np.zeros`` implementations of
    ``numba.np.arrayobj``, whose import (with ``numba.cpython.unicode``, ``charseq``, …) was
    0.05-0.08 s of CPU at every start. Those globals are read only by object-mode code
    (``PyLower.get_module_dict``), which Numba's implementations never are; nopython code reads
    the environment's constants, restored as before. So such an environment gets a dict holding
    ``__name__`` (what ``Environment.can_cache`` and its pickling read), and the module's globals
    are copied into it once a compilation has imported the module
    (:func:`_fill_deferred_env_globals`). Any other module (the project's own, a module already
    imported) is handled by Numba's function."""
    from numba.core import environment

    env = environment.lookup_environment(env_name)
    if env is not None:
        return env
    if modname in sys.modules or not str(modname).startswith("numba."):
        return _real_env["rebuild"](modname, consts, env_name)
    globals_ = {"__name__": modname}
    env = environment.Environment(globals_)
    env.consts[:] = consts
    env.env_name = env_name
    environment.Environment._memo[env_name] = env
    _DEFERRED_ENVS.append((globals_, modname))
    return env


def _fill_deferred_env_globals() -> None:
    """Give every environment of :func:`_rebuild_env_light` its module's globals (importing the
    module if the registries did not)."""
    import importlib

    while _DEFERRED_ENVS:
        globals_, modname = _DEFERRED_ENVS.pop()
        globals_.update(vars(importlib.import_module(modname)))


@lru_cache(maxsize=1)
def _raw_llvm_calls():
    """llvmlite's C functions that list a module's defined symbols, unwrapped (ctypes), with the
    lock they are called under; None if this llvmlite does not have them as expected."""
    try:
        from llvmlite.binding import ffi

        lib = ffi.lib
        names = ("LLVMPY_ModuleFunctionsIter", "LLVMPY_FunctionsIterNext",
                 "LLVMPY_DisposeFunctionsIter", "LLVMPY_ModuleGlobalsIter",
                 "LLVMPY_GlobalsIterNext", "LLVMPY_DisposeGlobalsIter", "LLVMPY_GetValueName",
                 "LLVMPY_IsDeclaration")
        raw = {n: getattr(lib, n)._cfn for n in names}
        lock = lib._lock
        if not (hasattr(lock, "__enter__") and hasattr(lock, "__exit__")):
            return None
    except Exception:                            # noqa: BLE001  (then Numba's own scan)
        return None
    return lock, raw


def _load_defined_symbols_light(self, mod):
    """Numba's ``JitEngine._load_defined_symbols`` (the names a module defines, recorded when a
    cached library is loaded: its ``is_symbol_defined``), with llvmlite's C functions called
    directly under one acquisition of its lock instead of through its Python wrappers: each
    wrapped call takes the lock and broadcasts a pair of Numba "llvm_lock" events, and the
    scan made ~3,000 of them for a run's kernel and statistics' helpers (0.035-0.045 s of CPU
    at every start; 0.005 s so). The same names (the functions and global variables that are
    not declarations)."""
    lock, raw = _raw_llvm_calls()
    names = []
    is_declaration, name_of = raw["LLVMPY_IsDeclaration"], raw["LLVMPY_GetValueName"]
    with lock:                   # (Numba's lock events once, for the whole scan)
        for kind, step in (("ModuleFunctionsIter", "Functions"), ("ModuleGlobalsIter", "Globals")):
            it = raw[f"LLVMPY_{kind}"](mod)
            try:
                next_value = raw[f"LLVMPY_{step}IterNext"]
                while True:
                    value = next_value(it)
                    if not value:
                        break
                    if not is_declaration(value):
                        names.append(name_of(value).decode("utf-8"))
            finally:
                raw[f"LLVMPY_Dispose{step}Iter"](it)
    self._defined_symbols.update(names)


load_cache_without_registries()


def _typeof_plain_ndarray(val, c):
    """Numba's type of an argument that is a numpy array (``numba.core.typing.typeof``'s
    ``_typeof_ndarray``), without importing ``numpy.ma`` for a plain ``numpy.ndarray``: Numba's
    version first asks ``isinstance(val, np.ma.MaskedArray)``, and numpy imports ``numpy.ma`` on
    that first access (0.04-0.05 s of CPU, at the first call of every run's kernel: the dispatcher
    asks this once per array kind). An object whose type is exactly ``ndarray`` is never a masked
    array; anything else (subclasses, masked arrays) goes to Numba's own function. The result is
    the same type (``tests/test_startup.py`` compares both on every dtype and layout)."""
    if type(val) is not np.ndarray:
        return _typeof_ndarray_numba(val, c)
    from numba.core import errors, types
    from numba.np import numpy_support

    try:
        dtype = numpy_support.from_dtype(val.dtype)
    except errors.NumbaNotImplementedError:
        raise errors.NumbaValueError(f"Unsupported array dtype: {val.dtype}")
    return types.Array(dtype, val.ndim, numpy_support.map_layout(val),
                       readonly=not val.flags.writeable)


_typeof_ndarray_numba = None


def typeof_without_numpy_ma() -> None:
    """Register :func:`_typeof_plain_ndarray` as Numba's typeof for numpy arrays (idempotent;
    runs on import)."""
    global _typeof_ndarray_numba
    from numba.core.typing.typeof import typeof_impl

    current = typeof_impl.dispatch(np.ndarray)
    if current is not _typeof_plain_ndarray:
        _typeof_ndarray_numba = current
        typeof_impl.register(np.ndarray)(_typeof_plain_ndarray)


typeof_without_numpy_ma()


def njit_on_demand(signature: str, *, literal: tuple[str, ...] = (), **options):
    """``@njit(signature, **options)``, compiled (or loaded from the cache) when first needed
    rather than at import: when a jitted caller is typed, or at the first call from Python.

    Like an explicit signature it keeps the function to one specialisation per use (call sites
    that pass constants reach it through the usual conversions instead of compiling one
    specialisation per literal value); unlike one, a function that no compiled caller reaches is
    never compiled, and a caller loaded from the cache does not load it at all. Arguments after
    those of ``signature`` are compile-time switches (a literal ``True``/``False`` or an omitted
    default): they keep their type as the caller passes it, one specialisation for each.

    ``literal`` names arguments of ``signature`` that keep an integer constant a jitted caller
    passes (one specialisation per value, in which LLVM folds it: the Middle-Ages kernel's player
    count, see :mod:`simcore.games.middle_ages.driver`); passed a variable, they take the
    signature's type, as the others do."""
    import inspect

    from numba import njit
    from numba.core import sigutils, types, typing

    fixed, _ = sigutils.normalize_signature(signature)

    def wrap(py_func):
        disp = njit(**options)(py_func)
        numba_compile_for_args = disp._compile_for_args
        name = py_func.__name__
        params = list(inspect.signature(py_func).parameters)
        unknown = [a for a in literal if a not in params[:len(fixed)]]
        if unknown:
            raise ValueError(f"{name}: literal={unknown} are not arguments of its signature")
        keep = {params.index(a) for a in literal}

        def ensure(argtypes):
            key = tuple(t if i in keep and isinstance(t, types.IntegerLiteral) else f
                        for i, (f, t) in enumerate(zip(fixed, argtypes))) \
                + tuple(argtypes[len(fixed):])
            if key not in disp.overloads:
                disp.compile(key)
            return disp.overloads[key].signature

        def get_call_template(args, kws):          # a jitted caller is being typed
            pysig, folded = disp.fold_argument_types(args, kws)
            template = typing.make_concrete_template(f"CallTemplate({name})", key=name,
                                                     signatures=[ensure(folded)])
            return template, pysig, folded, {}

        def compile_for_args(*args, **kws):        # a call from Python found no overload yet
            types_ = tuple(disp.typeof_pyval(a) for a in args)
            kw_types = {k: disp.typeof_pyval(v) for k, v in kws.items()}
            _, folded = disp.fold_argument_types(types_, kw_types)
            ensure(folded)
            return numba_compile_for_args(*args, **kws)

        disp.get_call_template = get_call_template
        disp._compile_for_args = compile_for_args
        return disp

    return wrap


# ---------------------------------------------------------------------------------------------
# Cold compiles: Numba's IR inliner copies each block with its own memo
# ---------------------------------------------------------------------------------------------

class _SharedMemoCopy:
    """Stands in for the ``copy`` module inside ``numba.core.inline_closurecall`` (whose only use
    of it is ``copy.deepcopy(block)`` in ``InlineWorker.inline_ir``'s ``copy_ir``): while an
    ``inline_ir`` runs, the blocks of one function are deep-copied with one memo, so the scope
    they share (every variable of the function) is copied once, as one object, instead of once
    per block. Numba's per-block memo copies it for every block, then compares the copies to
    find that they are one scope: cost quadratic in the callee's size (an ``inline="always"``
    function with its own inlined callees: a third of the default line-up's cold compile here).
    The copies are the same IR, structured as the original (one scope object shared by every
    block), and ``inline_ir`` replaces the callee's scope by the caller's right after. Its second
    copy, of its own first copy (the "unmutated" callee IR it returns, which both of its callers
    in Numba discard), is not made: the first copy's blocks are returned as they are."""

    def __init__(self, real) -> None:
        self._real = real
        self.memos: list[dict] | None = None    # one dict per inline_ir in progress

    def deepcopy(self, x, memo=None, _nil=[]):      # noqa: B006  (copy.deepcopy's signature)
        if memo is None and self.memos and hasattr(x, "scope") and hasattr(x, "body"):
            shared = self.memos[-1]
            made = shared.setdefault("copies", {})
            if made.get(id(x)) is x:        # inline_ir's second copy, of its own first copy:
                return x                    # the "unmutated" callee IR its callers discard
            key = id(x.scope)
            entry = shared.get(key)
            if entry is None or entry[0] is not x.scope:
                entry = shared[key] = (x.scope, {})     # (the scope kept: its id stays its own)
            out = self._real.deepcopy(x, entry[1])
            made[id(out)] = out
            return out
        return self._real.deepcopy(x, memo)

    def __getattr__(self, name):
        return getattr(self._real, name)


# The Numba versions whose ``InlineWorker.inline_function``/``inline_ir`` this replaces as they
# are (its source unchanged since 0.49; tests/test_numba_cache.py compares the LLVM IR with and
# without the change on the installed version). A later Numba compiles with its own inliner until
# it has been checked and this range widened.
_INLINER_TESTED = ((0, 60), (0, 69))


def _version(text: str) -> tuple[int, int]:
    try:
        major, minor = text.split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return (0, 0)


def lighter_ir_inlining() -> None:
    """Numba's IR inliner (``inline="always"``) with less repeated work, the same IR out
    (idempotent; called when a compilation starts, so that a run that loads cached code never
    imports the inliner):

    - :class:`_SharedMemoCopy`: a callee's blocks copied with one memo per function (its scope
      copied once, not once per block);
    - the callee's untyped IR (bytecode to Numba IR, with its own callees inlined: Numba's whole
      untyped pipeline) built once per function and compile settings, not again at every call
      site (``below`` is inlined at 16 sites of the default line-up's kernel, ``decide`` at 7).
      ``inline_ir`` copies it before it changes anything, so the kept IR is never modified.

    The variables inlined from one function at several sites then take versioned names (``x.1``)
    rather than per-site prefixes; the machine code is the same (the Middle-Ages ``play_games``
    compared byte for byte but for the functions' unique ids, which differ between any two
    processes). ``tests/test_numba_cache.py`` compiles a function both ways and compares the LLVM
    IR."""
    import copy

    import numba
    from numba.core import inline_closurecall as icc

    if not _INLINER_TESTED[0] <= _version(numba.__version__) < _INLINER_TESTED[1]:
        return                  # another Numba's inliner: left as it is (slower, never wrong)
    if isinstance(icc.copy, _SharedMemoCopy) or icc.copy is not copy:
        return
    shim = _SharedMemoCopy(copy)
    real_inline_ir = icc.InlineWorker.inline_ir
    real_inline_function = icc.InlineWorker.inline_function
    untyped: dict = {}

    def inline_ir(self, *args, **kwargs):
        stack = shim.memos if shim.memos is not None else []
        shim.memos = stack
        stack.append({})
        try:
            return real_inline_ir(self, *args, **kwargs)
        finally:
            stack.pop()

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        flags = {k: v for k, v in self.flags.values().items() if k != "enable_ssa"}
        key = (function, id(self.typingctx), id(self.targetctx), repr(sorted(flags.items())),
               repr(self.locals))
        callee_ir = untyped.get(key)
        if callee_ir is None:
            callee_ir = untyped[key] = self.run_untyped_passes(function)
        return self.inline_ir(caller_ir, block, i, callee_ir, function.__code__.co_freevars,
                              arg_typs=arg_typs)

    inline_ir.__wrapped__ = real_inline_ir
    inline_function.__wrapped__ = real_inline_function
    icc.InlineWorker.inline_ir = inline_ir
    icc.InlineWorker.inline_function = inline_function
    icc.copy = shim


# The Numba versions whose ``numba.core.ssa._run_ssa`` (and the helpers it calls) this replaces
# as it is (tests/test_numba_cache.py runs both on the same IR and compares the result, and
# compares the LLVM IR of a function compiled both ways). A later Numba keeps its own pass.
_SSA_TESTED = ((0, 68), (0, 69))


def _ssa_rewrite_touched(blocks, states, handler, touched):
    """``numba.core.ssa._run_block_rewrite`` over the blocks in ``touched`` only; the others are
    kept as they are (the handlers return every statement of a block that neither defines nor
    uses the variable unchanged, so Numba's rewrite of such a block is a copy of it)."""
    from numba.core import ir, ssa

    newblocks = {}
    for label, blk in blocks.items():
        if label not in touched:
            newblocks[label] = blk
            continue
        newblk = ir.Block(scope=blk.scope, loc=blk.loc)
        states["label"] = label
        states["block"] = blk
        newblk.body = list(ssa._run_ssa_block_pass(states, blk, handler))
        newblocks[label] = newblk
    return newblocks


@lru_cache(maxsize=None)
def _fix_ssa_vars_handler():
    """Numba's ``_FixSSAVars`` (the rewrite that points each use of a variable at its reaching
    definition), with the walk up the dominator tree from a block without a definition as a loop
    instead of a recursion of two methods per block. Numba's recursion went as deep as the
    dominator tree (hundreds of blocks in a large function with inlined callees), and every
    crossing of a 16 KB chunk of Python's frame stack, down and back, allocated and freed the
    chunk: a page fault each time (half of a cold Médiévallons compile's page faults, 3 s of
    system time). The same blocks are visited in the same order, so the same definitions and phi
    nodes are found; at a block where a phi node goes, Numba's own method runs."""
    from numba.core import ssa

    class FixSSAVarsLooped(ssa._FixSSAVars):
        def _find_def_from_top(self, states, label, loc):
            defmap = states["defmap"]
            phi_locations = states["phi_locations"]
            idoms = states["cfg"].immediate_dominators()
            while label not in phi_locations:
                idom = idoms[label]
                if idom == label:
                    ssa._warn_about_uninitialized_variable(states["varname"], loc)
                    return ssa.UndefinedVariable
                defs = defmap[idom]          # (_find_def_from_bottom's read, entry made as there)
                if defs:
                    return defs[-1]
                label = idom
            return super()._find_def_from_top(states, label, loc)

    return FixSSAVarsLooped


def _run_ssa_touched(blocks):
    """``numba.core.ssa._run_ssa`` (SSA reconstruction of a function's IR), each violating
    variable's two rewrites visiting only the blocks that define or use it.

    Numba rewrites every statement of the function twice for each variable assigned more than
    once, and checks each of them for that variable: a cost of (statements) x (such variables),
    which inlining makes quadratic in a function's size (the Médiévallons ``do_action``, with
    ``resolve_power`` and its ``ask`` sites inlined: 6,400 statements, 117 such variables, ~8 s
    of a 35 s cold compile). Same algorithm, same calls in the same order on the blocks that hold
    the variable, so the same fresh names, phi nodes and IR out."""
    from numba.core import errors, ir, ssa
    from numba.core.analysis import compute_cfg_from_blocks

    if not blocks:
        return {}
    cfg = compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    cache_list_vars = ssa._CacheListVars()
    fix_handler = _fix_ssa_vars_handler()
    where: dict[str, set] = {}               # variable name -> labels of the blocks that hold it
    for label, blk in blocks.items():
        for stmt in blk.body:
            for var in stmt.list_vars():     # (an assignment's target included)
                where.setdefault(var.name, set()).add(label)
    # own copies of the blocks: a block no rewrite visits is carried over, and phi nodes are
    # prepended to its body in place (never to the caller's blocks)
    blocks = {label: blk.copy() for label, blk in blocks.items()}
    for varname in violators:
        touched = where.get(varname, set())
        states = ssa._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap = ssa.defaultdict(list)
        blocks = _ssa_rewrite_touched(blocks, states, ssa._FreshVarHandler(), touched)
        states = ssa._make_states(blocks)
        states["varname"] = varname
        states["defmap"] = defmap
        states["phimap"] = phimap = ssa.defaultdict(list)
        states["cfg"] = cfg
        states["phi_locations"] = ssa._compute_phi_locations(df_plus, defmap)
        blocks = _ssa_rewrite_touched(blocks, states, fix_handler(cache_list_vars), touched)
        for label, philist in phimap.items():
            curblk = blocks[label]
            curblk.body = philist + curblk.body
    if compute_cfg_from_blocks(blocks) != cfg:
        raise errors.CompilerError("CFG mutated in SSA pass")
    return blocks


def lighter_ssa() -> None:
    """Numba's SSA reconstruction visiting, for each variable it renames, only the blocks that
    hold the variable (:func:`_run_ssa_touched`; idempotent, called when a compilation starts).
    The same IR out; ``tests/test_numba_cache.py`` compares both passes' IR and LLVM IR."""
    import numba
    from numba.core import ssa

    if not _SSA_TESTED[0] <= _version(numba.__version__) < _SSA_TESTED[1]:
        return                  # another Numba's pass: left as it is (slower, never wrong)
    if hasattr(_run_ssa_touched, "__wrapped__"):
        return                  # installed once (Numba's own pass kept as __wrapped__)
    _run_ssa_touched.__wrapped__ = ssa._run_ssa
    ssa._run_ssa = _run_ssa_touched


def njit_unliteral(**options):
    """``@njit(**options)`` compiled for the plain types of the arguments a jitted caller passes:
    one specialisation per type rather than one per constant (Numba types a constant argument,
    such as a workspace offset, as a literal and compiles the callee for each value). Calls from
    Python are typed that way already. For helpers called, not inlined, at several sites with
    different constants (:func:`simcore.rng.shuffle_range`); LLVM, which inlines them where that
    pays, still sees the constant."""
    from numba import njit
    from numba.core import types

    def wrap(py_func):
        disp = njit(**options)(py_func)
        get_call_template = disp.get_call_template

        def get_call_template_unliteral(args, kws):
            return get_call_template(tuple(types.unliteral(a) for a in args),
                                     {k: types.unliteral(v) for k, v in kws.items()})

        disp.get_call_template = get_call_template_unliteral
        return disp

    return wrap


# ---------------------------------------------------------------------------------------------
# Cold compiles: a builtin or @overload function typed once per argument types (memo_function_typing)
# ---------------------------------------------------------------------------------------------

# The Numba versions whose ``types.functions.BaseFunction.get_call_type`` this memoises as it is
# (tests/test_numba_cache.py compiles a function with and without the memo and compares the LLVM
# IR). Another Numba types every call site afresh.
_TYPING_MEMO_TESTED = ((0, 68), (0, 69))
_typing_memo: dict = {}


def _memo_get_call_type(self, context, args, kws):
    from numba.core.target_extension import get_local_target

    try:
        key = (self, context, get_local_target(context), tuple(args),
               tuple(sorted(kws.items())) if kws else ())
        hit = _typing_memo.get(key)
    except TypeError:                       # (an unhashable argument type: typed afresh)
        return _real_get_call_type(self, context, args, kws)
    if hit is not None:
        sig, impl_key = hit
        self._impl_keys[sig.args] = impl_key        # (the one side effect of a resolution)
        return sig
    sig = _real_get_call_type(self, context, args, kws)
    _typing_memo[key] = (sig, self._impl_keys[sig.args])
    return sig


_real_get_call_type = None


def memo_function_typing() -> None:
    """Numba types a call of a builtin or ``@overload`` function (``a + b``, ``min``,
    ``np.empty``, ...) by trying the function's typing templates in order, each failure recorded,
    at every call site and every pass of type inference over a loop: in the default Middle-Ages
    kernel 14,400 resolutions, 11,700 of them of a function already resolved for the same
    argument types (2 s of a cold run's CPU). A template's answer depends on the argument types
    (literal values included), the typing context and the target only; Numba itself caches an
    ``@overload``'s implementation on the same key. This (idempotent; runs on import) keeps each
    successful answer, and the implementation key the resolution records for lowering, and gives
    them back for the same function, context, target and argument types; a failure is not kept
    (the next call site tries again, and raises the same error).

    Same code: the Middle-Ages kernel's LLVM IR with and without the memo differs only in that
    Numba's lowering of ``array.view``, which types its helper ``_compatible_view`` again at each
    site, compiled the helper's implementation three times per dtype (identical copies), now once.
    """
    global _real_get_call_type
    import numba
    from numba.core.types import functions

    if not _TYPING_MEMO_TESTED[0] <= _version(numba.__version__) < _TYPING_MEMO_TESTED[1]:
        return
    if functions.BaseFunction.get_call_type is _memo_get_call_type:
        return
    _real_get_call_type = functions.BaseFunction.get_call_type
    functions.BaseFunction.get_call_type = _memo_get_call_type


memo_function_typing()


# ---------------------------------------------------------------------------------------------
# Cold compiles: a callee's machine code only when something runs it (code_for_callers_only)
# ---------------------------------------------------------------------------------------------

# The Numba versions whose code library (numba/core/codegen.py: CPUCodeLibrary's finalize,
# _finalize_final_module, _get_module_for_linking, serialize_using_object_code, _unserialize),
# CPUContext.get_executable and Dispatcher.compile/add_overload/_compile_for_args this builds on
# as they are (tests/test_numba_cache.py runs a callee lazily compiled, linked, called from
# Python afterwards and loaded from the cache). Another Numba keeps its own behaviour.
_LAZY_CODE_TESTED = ((0, 68), (0, 69))
_ENV_PREFIX = "_ZN08NumbaEnv"
_compiling = __import__("threading").local()     # .depth: Dispatcher.compile calls in progress


class _LazyEntry:
    """Stands in for the Python entry point (the CPython wrapper) of a function compiled only
    because a jitted caller was being typed: Numba keys the function's implementation on this
    object (``insert_user_function``), so callers link its library as usual, and the library's
    machine code is generated when something runs or caches the function itself
    (:meth:`materialize`: a call from Python, its address asked for)."""

    __slots__ = ("context", "library", "fndesc", "env", "cfunc", "key", "__weakref__")

    def __init__(self, context, library, fndesc, env) -> None:
        self.context, self.library, self.fndesc, self.env = context, library, fndesc, env
        self.cfunc = None
        self.key = None         # the signature its cache entry was saved under

    def materialize(self):
        if self.cfunc is None:
            from numba.core.compiler_lock import global_compiler_lock

            with global_compiler_lock:
                if self.cfunc is None:
                    self.cfunc = _real["get_executable"](self.context, self.library,
                                                         self.fndesc, self.env)
        return self.cfunc

    def __call__(self, *args, **kws):
        return self.materialize()(*args, **kws)


_real: dict = {}


def _keep_linking_module(lib) -> None:
    """The module callers link (Numba's ``_get_module_for_linking``: exported functions made
    ``linkonce_odr``), taken before machine code is generated: LLVM's code generator rewrites the
    IR of the module it compiles (loop strength reduction, CodeGenPrepare), and Numba took the
    copy for callers afterwards. Taken now, a caller links the same IR whether or not the
    callee's own machine code was ever generated. (A library finalised at once, such as the
    runtime's or a function Python called before any jitted caller, hands callers its
    module-optimised IR; a lazy one its IR before that optimisation, which callers do.)"""
    mod = lib._final_module
    if lib.__dict__.get("_shared_bitcode") is not None or lib._shared_module is not None \
            or not any(True for _ in mod.functions):
        return
    from llvmlite import binding as ll

    mod = mod.clone()
    for fn in mod.functions:
        if not fn.is_declaration and fn.linkage == ll.Linkage.external:
            fn.linkage = "linkonce_odr"
    lib._shared_module = mod


def _set_module_envs(lib) -> None:
    """Point every Numba environment global of ``lib``'s (just emitted) module at its
    environment. A caller's module holds its callees' environment globals (common symbols,
    one per process once emitted); Numba set them when each callee's own module was emitted,
    which a lazy callee's has not been."""
    from numba.core.environment import lookup_environment

    engine = lib._codegen._engine
    for gv in lib._final_module.global_variables:
        name = gv.name
        if name.startswith(_ENV_PREFIX) and engine.is_symbol_defined(name):
            env = lookup_environment(name)
            if env is not None:
                _real["set_env"](lib._codegen, name, env)


def _finalize_final_module(self):
    _keep_linking_module(self)
    if self.__dict__.get("_lazy_code"):
        prefix = self._codegen._rtlinker.PREFIX
        if not any(gv.name.startswith(prefix) for gv in self._final_module.global_variables):
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._finalized = True
            self._emit_pending = True     # (machine code: _emit, when first needed)
            return
        self._lazy_code = False          # recursion resolved at run time: emitted now, as Numba
    _emit_now(self)


def _optimize_final_module(self):
    if self.__dict__.get("_lazy_code"):      # callers optimise the IR they link, callees in it
        self._module_unoptimized = True
        return
    _real["_optimize_final_module"](self)


def _emit_now(lib) -> None:
    """Numba's last step of finalisation (machine code), after the module-level optimisation
    that a lazy library skipped."""
    if lib.__dict__.pop("_module_unoptimized", False):
        _real["_optimize_final_module"](lib)
        lib._final_module.verify()
    _real["_finalize_final_module"](lib)
    _set_module_envs(lib)


def _emit(lib) -> None:
    if lib.__dict__.get("_emit_pending"):
        lib._emit_pending = lib._lazy_code = False
        lib._dynamic_globals.clear()                # (Numba's step scans them again)
        _emit_now(lib)


def _get_pointer_to_function(self, name):
    _emit(self)
    return _real["get_pointer_to_function"](self, name)


def _get_compiled_object(self):
    _emit(self)
    return _real["_get_compiled_object"](self)


def _get_llvm_str(self):         # (inspect_llvm, inspect_asm: the code as it runs)
    _emit(self)
    return _real["get_llvm_str"](self)


def _get_asm_str(self):
    _emit(self)
    return _real["get_asm_str"](self)


def _serialize_using_object_code(self):
    if self.__dict__.get("_emit_pending"):     # no machine code: the cache holds the IR
        self._ensure_finalized()
        self._saved_as_bitcode = True
        return (self.name, "bitcode", self._final_module.as_bitcode())
    return _real["serialize_using_object_code"](self)


def _unserialize(cls, codegen, state):
    name, kind, data = state
    if kind == "object":
        lib = _load_object_library(codegen, state)
        return lib if lib is not None else _real["_unserialize"](codegen, state)
    if kind != "bitcode":
        return _real["_unserialize"](codegen, state)
    from llvmlite import binding as ll

    self = codegen.create_library(name)
    self.enable_object_caching()
    self._final_module = ll.parse_bitcode(data)
    self._saved_as_bitcode = True
    self._module_unoptimized = True         # (only _serialize_using_object_code writes "bitcode")
    self._lazy_code = getattr(_compiling, "depth", 0) >= 2     # loaded for a caller's compile
    self._finalize_final_module()
    return self


def _load_object_library(codegen, state):
    """A library cached as object code (Numba's ``_unserialize`` of kind "object"), without
    parsing its IR until something needs it, or None (then Numba's own load) when its object
    code is not an ELF64 little-endian file.

    Numba parses the IR kept beside the object code (the module a later compilation links) at
    once, and scans it for the names it defines (``JitEngine._load_defined_symbols``, what its
    ``is_symbol_defined`` answers). A run that loads its kernel and statistics' helpers from the
    cache never links them into anything and asks only for names they define (their entry points
    and environments): the parse was 0.03-0.05 s of CPU at every start (the kernel's 190 kB of
    bitcode and 14 helpers). Here the names come from the object code's symbol table (those it
    defines with global or weak binding: a subset of the module's), the IR is kept as bytes and
    parsed when first read (:func:`_get_shared_module`: a compilation linking the library, its
    cache entry written again), and a name not found among them makes the engine parse and scan
    every library loaded so (:func:`_is_symbol_defined`), so every answer is Numba's."""
    if not _PATCHED:
        return None
    name, kind, (object_code, shared_bitcode) = state
    names = _elf_defined_symbols(object_code)
    if names is None:
        return None
    self = codegen.create_library(name)
    self.enable_object_caching()
    self._set_compiled_object(object_code)
    self.__dict__["_shared_bitcode"] = shared_bitcode
    self._finalize_final_module()
    engine = self._codegen._engine
    engine._defined_symbols.update(names)
    engine.__dict__.setdefault("_unscanned", []).append(self)
    return self


def _elf_defined_symbols(obj: bytes) -> list[str] | None:
    """The names an ELF64 little-endian relocatable object defines with global or weak binding
    (in one of its sections, absolute or common), from its symbol tables; None for anything
    else (another format, an unexpected layout)."""
    import struct

    if len(obj) < 64 or obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    if shentsize != 64 or shnum == 0 or shoff + shnum * 64 > len(obj):
        return None
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * 64) for i in range(shnum)]
    names = []
    for _, kind, _, _, offset, size, link, _, _, entsize in sections:
        if kind != 2:                            # SHT_SYMTAB
            continue
        if entsize != 24 or link >= shnum or offset + size > len(obj):
            return None
        str_offset, str_size = sections[link][4], sections[link][5]
        strings = obj[str_offset:str_offset + str_size]
        for at, info, _, section, _, _ in struct.iter_unpack("<IBBHQQ",
                                                           obj[offset:offset + size - size % 24]):
            if section != 0 and info >> 4 in (1, 2) and at:      # defined; GLOBAL or WEAK
                end = strings.find(b"\0", at)
                if end < 0:
                    return None
                names.append(strings[at:end].decode("utf-8"))
    return names


def _get_shared_module(self):
    """``CPUCodeLibrary._shared_module`` (the module callers link), parsed from the bitcode
    :func:`_load_object_library` kept when first read."""
    d = self.__dict__
    bitcode = d.get("_shared_bitcode")
    if bitcode is not None:
        from llvmlite import binding as ll

        d["_shared_module_ref"] = ll.parse_bitcode(bitcode)
        d["_shared_bitcode"] = None
    return d.get("_shared_module_ref")


def _set_shared_module(self, module) -> None:
    self.__dict__["_shared_module_ref"] = module
    self.__dict__["_shared_bitcode"] = None


def _is_symbol_defined(self, name) -> bool:
    """``JitEngine.is_symbol_defined``: a name not among those recorded makes the engine scan
    the modules of the libraries :func:`_load_object_library` loaded first, as Numba scans them
    at load time (then every answer is Numba's)."""
    if name in self._defined_symbols:
        return True
    if not self.__dict__.get("_unscanned"):
        return False
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:
        unscanned = self.__dict__.get("_unscanned") or []
        while unscanned:
            self._load_defined_symbols(unscanned.pop()._shared_module)
    return name in self._defined_symbols


def _set_env(self, env_name, env):
    if self._engine.is_symbol_defined(env_name):   # else set when its module is emitted
        _real["set_env"](self, env_name, env)


def _get_executable(self, library, fndesc, env):
    if getattr(_compiling, "depth", 0) >= 2:           # compiled for a jitted caller
        if not library._finalized:
            library._lazy_code = True
            library.finalize()
        if library.__dict__.get("_emit_pending"):
            return _LazyEntry(self, library, fndesc, env)
    return _real["get_executable"](self, library, fndesc, env)


def _add_overload(self, cres):
    if isinstance(cres.entry_point, _LazyEntry):     # (the C dispatcher takes only real ones)
        self.overloads[tuple(cres.signature.args)] = cres
        return
    _real["add_overload"](self, cres)


def _materialize_overload(disp, args) -> object | None:
    """The overload ``args`` of ``disp`` made callable from Python: its machine code generated,
    its entry point registered with the C dispatcher and Numba's implementations, and its cache
    entry rewritten with object code (a later run loads it without compiling). Returns the entry
    point, or None when the overload is not a lazy one."""
    from numba.core.compiler_lock import global_compiler_lock

    with global_compiler_lock:                      # (one thread completes it, once)
        cres = disp.overloads.get(args)
        if cres is None:
            return None
        lazy = cres.entry_point
        if isinstance(lazy, _LazyEntry):
            cfunc = lazy.materialize()
            cres = cres._replace(entry_point=cfunc)
            disp.overloads[args] = cres
            disp.targetctx.insert_user_function(cfunc, cres.fndesc, [cres.library])
            _real["add_overload"](disp, cres)
            key = lazy.key
        else:
            key = cres.library.__dict__.get("_cache_key")
        if cres.library.__dict__.get("_saved_as_bitcode") and key is not None:
            cres.library._saved_as_bitcode = False
            disp._cache.save_overload(key, cres)
        return cres.entry_point


def _compile(self, sig):
    depth = getattr(_compiling, "depth", 0) + 1
    _compiling.depth = depth
    try:
        out = _real["compile"](self, sig)
    finally:
        _compiling.depth = depth - 1
    if isinstance(out, _LazyEntry) and out.key is None:
        out.key = sig
    if depth == 1:                                   # a call from Python will run it
        from numba.core import sigutils

        args = tuple(sigutils.normalize_signature(sig)[0])
        cres = self.overloads.get(args)
        if cres is not None and cres.library.__dict__.get("_saved_as_bitcode"):
            cres.library.__dict__.setdefault("_cache_key", sig)
        real = _materialize_overload(self, args)
        if real is not None:
            out = real
    return out


def _compile_for_args(self, *args, **kws):
    lazy = [a for a, c in self.overloads.items() if isinstance(c.entry_point, _LazyEntry)]
    if not lazy:
        return _real["_compile_for_args"](self, *args, **kws)
    for a in lazy:                                   # first call from Python: the overloads
        _materialize_overload(self, a)               # are all given their machine code, and
    return self                                      # the dispatcher chooses among them again


_PATCHED: dict = {}


def _install(table: dict) -> None:
    from numba.core import codegen, cpu

    lib, base, disp = codegen.JITCodeLibrary, codegen.CPUCodeLibrary, dispatcher._DispatcherBase
    base._finalize_final_module = table["_finalize_final_module"]
    base._optimize_final_module = table["_optimize_final_module"]
    lib.get_pointer_to_function = table["get_pointer_to_function"]
    base._get_compiled_object = table["_get_compiled_object"]
    base.get_llvm_str = table["get_llvm_str"]
    base.get_asm_str = table["get_asm_str"]
    base.serialize_using_object_code = table["serialize_using_object_code"]
    base._unserialize = table["_unserialize"]
    codegen.JITCPUCodegen.set_env = table["set_env"]
    cpu.CPUContext.get_executable = table["get_executable"]
    disp.add_overload = table["add_overload"]
    dispatcher.Dispatcher.compile = table["compile"]
    disp._compile_for_args = table["_compile_for_args"]


class numba_own_code:
    """Context manager: compile with Numba's own code library, dispatcher and function typing
    (what :func:`code_for_callers_only` and :func:`memo_function_typing` replace), for comparisons (tests, benchmarks). Functions
    compiled inside keep Numba's behaviour afterwards, except that a later call or cache write
    of one of them goes through the replacements (which leave an emitted library as it is)."""

    def __enter__(self):
        from numba.core.types import functions

        if _PATCHED:
            _install(_REAL_TABLE)
        if _real_get_call_type is not None:
            functions.BaseFunction.get_call_type = _real_get_call_type
        return self

    def __exit__(self, *exc):
        from numba.core.types import functions

        if _PATCHED:
            _install(_PATCHED)
        if _real_get_call_type is not None:
            functions.BaseFunction.get_call_type = _memo_get_call_type


_REAL_TABLE: dict = {}


def code_for_callers_only() -> None:
    """Numba generates machine code for every function it compiles, then links each callee's
    optimised IR into its caller's module, optimises that again and generates the machine code
    of the whole: a kernel's callees (its rules of play, set-up, records, bots, the
    ``@overload`` helpers) get machine code of their own that only runs if Python calls them.
    With this (idempotent; runs on import), a function compiled *because a jitted caller was
    being typed* gets its LLVM module optimised as before (callers link it) but no machine code
    until something needs it: its first call from Python (the dispatcher's overload is then
    completed and its cache entry rewritten with object code), its address, its object code.
    Its cache entry holds its optimised IR (Numba's "bitcode" kind) rather than object code; a
    caller compiled later loads and links that without generating machine code either.

    Callers link every callee's IR as it was before machine code generation (Numba linked the
    callee's IR after LLVM's code generator had rewritten it in place), whether the callee's own
    code was generated or not: the kernel's machine code is not byte-identical to Numba's own,
    its results are (same IR optimised from the same source; decisions compared). A module that
    resolves a recursive call at run time is emitted at once, as Numba does."""
    import numba
    from numba.core import codegen, cpu

    if not _LAZY_CODE_TESTED[0] <= _version(numba.__version__) < _LAZY_CODE_TESTED[1]:
        return
    if _PATCHED:
        return
    lib, base, disp = codegen.JITCodeLibrary, codegen.CPUCodeLibrary, dispatcher._DispatcherBase
    _REAL_TABLE.update(
        _finalize_final_module=base._finalize_final_module,
        _optimize_final_module=base._optimize_final_module,
        get_pointer_to_function=lib.get_pointer_to_function,
        _get_compiled_object=base._get_compiled_object,
        get_llvm_str=base.get_llvm_str,
        get_asm_str=base.get_asm_str,
        serialize_using_object_code=base.serialize_using_object_code,
        _unserialize=base.__dict__["_unserialize"],
        set_env=codegen.JITCPUCodegen.set_env,
        get_executable=cpu.CPUContext.get_executable,
        add_overload=disp.add_overload,
        compile=dispatcher.Dispatcher.compile,
        _compile_for_args=disp._compile_for_args,
    )
    _real.update(_REAL_TABLE)
    _real["_unserialize"] = base._unserialize          # (bound to the class: called as cls(...))
    # (left in place by numba_own_code: without a library loaded by _load_object_library they
    # answer as Numba's own attribute and method)
    base._shared_module = property(_get_shared_module, _set_shared_module)
    codegen.JitEngine.is_symbol_defined = _is_symbol_defined
    _PATCHED.update(
        _finalize_final_module=_finalize_final_module,
        _optimize_final_module=_optimize_final_module,
        get_pointer_to_function=_get_pointer_to_function,
        _get_compiled_object=_get_compiled_object,
        get_llvm_str=_get_llvm_str,
        get_asm_str=_get_asm_str,
        serialize_using_object_code=_serialize_using_object_code,
        _unserialize=classmethod(_unserialize),
        set_env=_set_env,
        get_executable=_get_executable,
        add_overload=_add_overload,
        compile=_compile,
        _compile_for_args=_compile_for_args,
    )
    _install(_PATCHED)


#: Python's cyclic-collector thresholds while Numba compiles (its default: 700, 10, 10).
COMPILE_GC_THRESHOLDS = (2000, 20, 50)


class eased_collector:
    """Python's cyclic garbage collector eased while Numba compiles: what the process holds when
    compilation starts (numpy, Numba, LLVM's bindings, the game's modules: objects that live as
    long as the process) is moved out of the collector's sight (``gc.freeze``, after one full
    collection, so no garbage is kept), and the collections come less often
    (:data:`COMPILE_GC_THRESHOLDS`) until the compile ends, when the process's thresholds come
    back. A compile makes many small objects and reference cycles, and every full collection
    walked everything again: in a cold ``simulate --games 1e3`` (an empty cache), the collector
    ran 1,435 young, 130 middle and 11 full collections, 3.75 s of the process's 26 s of CPU;
    eased, 575, 33 and 3, 2.09 s (timed with ``gc.callbacks``, one run each, quiet machine).
    Nothing compiled depends on when garbage is freed. :meth:`begin` may be called from any
    thread, and more than once (the first call eases, :meth:`end` restores)."""

    def __init__(self) -> None:
        self.saved = None

    def begin(self) -> None:
        import gc

        if self.saved is None and gc.isenabled():
            self.saved = gc.get_threshold()
            gc.collect()
            gc.freeze()
            gc.set_threshold(*COMPILE_GC_THRESHOLDS)

    def end(self) -> None:
        import gc

        if self.saved is not None:
            gc.set_threshold(*self.saved)
            self.saved = None


code_for_callers_only()
