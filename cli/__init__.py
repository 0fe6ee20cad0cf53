"""The ``balance`` command line (Typer): a thin shell over functions callable from Python.

One module per command group registers its commands on :data:`app` through ``register(app)``.
:func:`main` turns known errors (:class:`simcore.errors.UsageError`) into one line on stderr and
exit code 2, an error of the machine (a full disk, an unreadable file) into one line and exit code
1; set ``BALANCE_DEBUG=1`` for the full traceback. Ctrl-C and SIGTERM print one "interrupted" line
and exit 130 / 143 after the writers' cleanup (:class:`simcore.errors.Interrupted`); a second
signal during that cleanup is ignored. Every output claimed by the command is released at its end
(:func:`simcore.atomic.release_claims`). A reader that closes stdout (``simulate … | head -1``)
ends the command quietly: exit 0 when its outputs were published, 141 (SIGPIPE's) when it stopped
before (:func:`_output_closed`), and the verdict's own code when the command had decided one
before writing (:func:`verdict`: ``balance golden --check``, ``replay``, ``check``): a closed
stdout never turns a failing verdict into 0, and files written after the console output are still
written (:func:`show_then_go_on`: ``check --junit``/``--summary``). ``simulate`` is also a console script
of its own (:func:`simulate_main`).

Start-up: importing this package registers no command. :func:`main` imports only the command
module of the command asked for (:data:`COMMAND_MODULE`; every module for ``--help``, a command
the table does not list, or a mistyped one), :func:`simulate_main` only :mod:`cli.simulate`, and
``cli.app`` (for tests and Python callers) is the application with every command. A command
module imports its heavy dependencies inside the command.

The top layer of the data path (see pyproject.toml's import-linter contract): the only package that
may import every other one, lazily inside commands where the import is heavy.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import threading
import weakref

# Ctrl-C or SIGTERM before a console command's own handler is in place (the imports below take a
# few tenths of a second) or after it was taken down (the process's end): one line, not the
# KeyboardInterrupt traceback of whatever was importing (review C #4). Installed only when this
# package is imported by the `balance` or `simulate` script, never for a Python caller.
_STARTUP = {"ran": False}


def _on_startup_signal(signum, frame):
    """Before the command: nothing can have been written, so one line and exit 130 / 143 at once;
    after it (a second Ctrl-C while the process ends, its exit code decided): ignored."""
    if _STARTUP["ran"]:
        return
    how = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    try:
        os.write(2, f"interrupted ({how}): nothing was written under the final name\n".encode())
    finally:
        os._exit(128 + signum)


def _console_script() -> bool:
    main_file = getattr(sys.modules.get("__main__"), "__file__", None) or ""
    return os.path.basename(main_file) in ("balance", "simulate")


if _console_script() and threading.current_thread() is threading.main_thread():
    for _s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(_s) in (signal.default_int_handler, signal.SIG_DFL):
            signal.signal(_s, _on_startup_signal)

# numpy's BLAS (OpenBLAS) on one thread unless the user says otherwise, set before anything
# imports numpy: its only products here are small (the Monte Carlo critical values of
# analysis.stats._max_abs_quantile, 200,000 x k normals times a k x k root), where a second BLAS
# thread spins more than it computes: 12 such values at k = 4, 8, 12 took 1.07-1.33 s of CPU
# (0.55-0.69 s wall) with the default threads and 0.47-0.50 s CPU (0.47-0.50 s wall) with one,
# on this project's 2-core machine, the same values to the last bit. The kernels (Numba's
# threads) and polars (its own pool) do not use BLAS. Dask workers started by a command inherit it.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import typer  # noqa: E402

from simcore.errors import Interrupted, UsageError


def _plain_help_types() -> None:
    """Typer (0.2x) prints a flag's type (``--pdf <bool>``, ``--help <bool>``: as if it took a value)
    and a repeatable option's or argument's as ``<list[str]>``: the options column widened until an
    80-column terminal cut the help's own examples with "…" (review P #4, #5). A flag shows no type
    and a repeatable parameter its element's (``--set <str>``, ``runs... <Path>``: the help says it
    repeats)."""
    import re

    from typer.core import TyperArgument, TyperOption

    for kind in (TyperOption, TyperArgument):
        shown = kind.display_type_rich
        if getattr(shown, "_balance_plain", False):
            continue

        def display_type_rich(self, ctx, shown=shown):
            _fold_help_words()          # (help is being drawn: rich_utils is imported by now)
            if self.metavar is None and getattr(self, "is_flag", False):
                return None
            text = shown(self, ctx)
            if isinstance(text, str):
                text = re.sub(r"^<list\[(.*)\]>$", r"<\1>", text)
            return text

        display_type_rich._balance_plain = True
        kind.display_type_rich = display_type_rich
    # typer 0.29 writes a required argument as {run} on the usage line (review W #11): RUN, as
    # click and every other command-line tool write it, [RUN] when optional, RUNS... repeated
    if hasattr(TyperArgument, "_usage_display_name"):
        def usage_name(self) -> str:
            name = str(self.display_name_raw).upper()
            name = name if self.required else f"[{name}]"
            return name + ("..." if self.nargs != 1 else "")

        TyperArgument._usage_display_name = usage_name


def _fold_help_words() -> None:
    """An option's help folds a word too long for its column onto the next line instead of cutting
    it with "…" (rich's table default; review P #4): a safety net, as the helps' examples are written
    to wrap at spaces (tests/test_cli_help_markup.py prints every word whole at 80 columns). Patched
    when help is first drawn, so that a command that draws none does not import typer's rich help
    module."""
    from rich.text import Text
    from typer import rich_utils

    build = rich_utils._get_parameter_help
    if getattr(build, "_balance_fold", False):
        return

    def folded(*args, **kwargs):
        columns = build(*args, **kwargs)
        for item in getattr(columns, "renderables", ()):
            if isinstance(item, Text):
                item.overflow = "fold"
        return columns

    folded._balance_fold = True
    rich_utils._get_parameter_help = folded


_plain_help_types()

_app = typer.Typer(
    name="balance",
    help="Monte Carlo balance analysis for tabletop games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

def _print_version(value: bool) -> None:
    if value:
        import simcore

        typer.echo(f"balance {simcore.__version__}")
        raise typer.Exit()


@_app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="Print the toolkit's version and exit.")) -> None:
    """Monte Carlo balance analysis for tabletop games."""


_COMMAND_MODULES = ("simulate", "report", "export", "check", "tables", "strategies", "golden", "games",
                    "ladder", "sweep", "tune", "questions", "replay", "skill")


# command name → the module registering it: `balance <command>` imports that module only (a test
# checks the table against what every module registers). The commands a game's spec adds
# (cli.tables) are not listed (no module of the command line names a game): they, like any
# name not listed here, register every module.
COMMAND_MODULE = {"simulate": "simulate", "report": "report", "export": "export",
                  "baseline": "check", "check": "check", "strategies": "strategies",
                  "golden": "golden", "games": "games", "ladder": "ladder", "sweep": "sweep",
                  "tune": "tune", "questions": "questions", "replay": "replay", "skill": "skill"}
_registered: set[str] = set()


def _one_line_summaries(app: typer.Typer) -> typer.Typer:
    """Each command's help with its first paragraph (the summary in ``balance --help``'s list and
    at the top of the command's page) as one line: typer's rich help keeps a docstring's line
    breaks, so a summary written over two source lines broke at a fixed place on every terminal
    ("…: exit 0 / pass, 1 regression", review P #4). Later paragraphs are left as written."""
    import inspect

    for info in app.registered_commands:
        doc = info.help if info.help is not None else getattr(info.callback, "__doc__", None)
        if doc:
            first, *rest = inspect.cleandoc(doc).split("\n\n")
            if not first.startswith("\b"):
                info.help = "\n\n".join([" ".join(first.split("\n")), *rest])
    return app


def _register(names) -> typer.Typer:
    import importlib

    for name in names:
        if name in _registered:
            continue
        try:
            mod = importlib.import_module(f"cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cli.{name}":
                _registered.add(name)
                continue  # that command group is not part of this build
            raise
        mod.register(_app)
        _registered.add(name)
    return _one_line_summaries(_app)


def _register_all() -> typer.Typer:
    return _register(_COMMAND_MODULES)


# command module → a root application with that module's commands only (:func:`_app_for`)
_one_module_apps: dict[str, typer.Typer] = {}


def _app_for(argv: list[str] | None) -> typer.Typer:
    """The application a new ``balance`` process builds for ``argv``: the root with only the
    command module ``argv`` names (:data:`COMMAND_MODULE`), every module when it names none
    (``--help``, ``--version``, a typo, a command a game's spec adds).

    Every call in one process answers the same: a Python caller running commands one after the
    other (the tests run hundreds in their own process) gets the one-module application whatever
    was registered before, as a new process would. (Before, once any call had registered every
    module, each later call converted the whole tree of commands to click's: ~30 ms of CPU a
    call instead of 2-8 ms.)"""
    args = list(argv or [])
    first = args[0] if args else None
    module = COMMAND_MODULE.get(first) if first is not None else None
    if module is None:
        return _register_all()
    app = _one_module_apps.get(module)
    if app is None:
        import copy
        import importlib

        app = copy.copy(_app)              # the root application and its --version callback
        app.registered_commands, app.registered_groups = [], []
        importlib.import_module(f"cli.{module}").register(app)
        _one_module_apps[module] = _one_line_summaries(app)
    return app


def __getattr__(name: str):
    if name == "app":                 # `from cli import app`: every command
        return _register_all()
    raise AttributeError(f"module 'cli' has no attribute {name!r}")


def _simulate_app() -> typer.Typer:
    from cli.simulate import register

    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(single)  # one command: typer makes it the root, so `simulate --games 1e6` works
    return _one_line_summaries(single)


def _one_line(text: str) -> str:
    return str(text).replace("\r", "\\r").replace("\n", "\\n")


# The signal being acted on (None: none yet) and whether it must be raised again (its first
# Interrupted was dropped by a library before it reached the command line).
_SIGNAL: dict = {"signum": None, "again": False}


def _on_signal(signum, frame):
    """SIGINT / SIGTERM during a command: unwind like KeyboardInterrupt (:class:`Interrupted`).

    Further signals are ignored while the writers clean up. The exception is watched (a weakref
    finalizer): a library that drops it unseen (a ``cdef`` function of pyarrow's importing pandas,
    a finalizer running when the signal came, where Python prints "Exception ignored") left the
    command going on as if no Ctrl-C had come (a tune ran to its end and exited 0); once it is
    freed without reaching :func:`_run`, the signal is raised again, from the handler still
    installed."""
    if _SIGNAL["signum"] is not None and not _SIGNAL["again"]:
        return                      # a second signal while the first unwinds: ignored
    _SIGNAL["signum"], _SIGNAL["again"] = signum, False
    raise _watched(signum)          # (no local holds it: a local would tie it to its traceback)


def _watched(signum: int) -> Interrupted:
    exc = Interrupted(signum)
    exc.seen = seen = [False]
    weakref.finalize(exc, _dropped, signum, seen)
    return exc


def _seen(exc: BaseException) -> None:
    """The command line has met ``exc``: it is not dropped (:func:`_on_signal`)."""
    flag = getattr(exc, "seen", None)
    if flag is not None:
        flag[0] = True


def _dropped(signum: int, seen: list) -> None:
    if seen[0] or _SIGNAL["signum"] is None:
        return
    import _thread

    _SIGNAL["again"] = True
    # from another thread a moment later, so that it lands once the code that dropped it has
    # returned (this may run inside it, or in whichever thread collected the exception)
    _thread.start_new_thread(_interrupt_main_soon, (signum,))


def _unraisable(args) -> None:
    """``sys.unraisablehook`` while a command runs: an :class:`Interrupted` raised inside a
    finalizer (a ``__del__`` or a weakref callback, e.g. SQLAlchemy's in Optuna's trial loop) is
    dropped there by Python, which printed "Exception ignored in …" and a traceback; it is now
    dropped silently and raised again (:func:`_dropped`, when it is freed). Any other unraisable
    exception goes to the previous hook."""
    if isinstance(args.exc_value, Interrupted):
        return
    _previous_unraisable(args)


def _interrupt_main_soon(signum: int) -> None:
    import _thread
    import time

    time.sleep(0.005)
    if _SIGNAL["again"] and _SIGNAL["signum"] == signum:     # (the command has not ended since)
        _thread.interrupt_main(signum)


_previous_unraisable = sys.unraisablehook
RESUMABLE = ("tune", "sweep")     # commands whose directory the same command resumes


def _resumes(argv) -> bool:
    """Whether the command of ``argv`` resumes its directory when run again: a sweep, a tune, or
    a panel played by ``simulate`` (``balance simulate …`` or the ``simulate`` script, whose first
    argument is an option): ``--panel``, ``--lineup`` or several ``--players`` make one
    (:func:`strategies.panels.options_panel`; session 63: a panel of ``--lineup`` interrupted said
    "after p/panel.json was written" without "run the same command again to resume")."""
    args = [str(a) for a in argv or ()]
    if not args:
        return False
    if args[0] in RESUMABLE:
        return True
    if not (args[0] == "simulate" or args[0].startswith("-")):
        return False
    panel = any(a in ("--panel", "--lineup") or a.startswith(("--panel=", "--lineup=")) for a in args)
    return panel or any(_several_counts(v) for v in _values_of(args, ("--players", "-p")))


def _values_of(args: list[str], names: tuple[str, ...]) -> list[str]:
    """Every value given to one of the options ``names`` in ``args`` (``--players 3,4``,
    ``--players=3,4``, ``-p 3,4``)."""
    out = []
    for i, a in enumerate(args):
        if a in names and i + 1 < len(args):
            out.append(args[i + 1])
        elif any(a.startswith(n + "=") for n in names if n.startswith("--")):
            out.append(a.split("=", 1)[1])
    return out


def _several_counts(text: str) -> bool:
    """Whether ``--players TEXT`` names more than one player count (``3,4``, ``3..5``)."""
    from strategies.panels import parse_players

    try:
        return len(parse_players(text)) > 1
    except Exception:       # (refused by the command itself; here only the line's words)
        return False


# what the running command adds to the line an interruption prints (a sweep without rows: from
# which game running it again goes on), a text or a function giving it when the interruption comes;
# set by the command, read by _interrupted_line
INTERRUPT_NOTE: list = []
# a command that said its own interrupted line (balance skill: which parts are kept and what the
# same command does next) appends to this: the generic line is not printed after it (its "nothing
# was written under the final name" contradicted the command's own after an interrupted --force)
INTERRUPT_SAID: list[bool] = []


def _say_interrupted(signum: int, argv=None) -> None:
    if not INTERRUPT_SAID:
        print(_interrupted_line(signum, argv), file=sys.stderr)


def _interrupted_line(signum: int, argv=None) -> str:
    from simcore import atomic

    how = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
    # what was published inside a hidden temporary directory (a sweep built beside the one it
    # replaces) is discarded with it: not worth a mention
    kept = [p for p in atomic.PUBLISHED if not any(atomic.is_hidden_name(part) for part in p.parts)]
    said = INTERRUPT_NOTE[-1]() if INTERRUPT_NOTE and callable(INTERRUPT_NOTE[-1]) else \
        (INTERRUPT_NOTE[-1] if INTERRUPT_NOTE else "")
    note = f" ({said})" if said else ""
    if kept:
        again = "; run the same command again to resume" if _resumes(argv) else ""
        # every output published, not the last only (review C #5: a check interrupted after its
        # decision named its JUnit file, not the --save-run directory it had replaced before it)
        shown = list(dict.fromkeys(atomic.show(p) for p in kept))
        what = (shown[0] + " was" if len(shown) == 1 else
                ", ".join(shown[:-1]) + " and " + shown[-1] + " were")
        return f"interrupted ({how}) after {what} written{again}{note}"
    out = _out_of(argv) if _resumes(argv) else None
    if out is not None and atomic.read_marker(out) is not None and atomic.building_beside(out):
        # a --force replacement built beside it is discarded: the same command starts it anew
        # (review s48 safety: "run the same command again to resume" after its work was removed)
        return (f"interrupted ({how}): {atomic.show(out)} is kept as it was; the replacement --force "
                "was building beside it is discarded, so the same command starts it anew")
    if out is not None and atomic.read_marker(out) is not None:
        # a resumed directory interrupted before it wrote anything new: what it held is kept
        # (review Q #8: "nothing was written" read as if its earlier trials were gone)
        return (f"interrupted ({how}): {atomic.show(out)} is kept as it was; run the same command "
                f"again to resume{note}")
    return f"interrupted ({how}): nothing was written under the final name{note}"


def _out_of(argv):
    """The ``--out``/``-o`` path of ``argv`` (a :class:`pathlib.Path`), or None."""
    from pathlib import Path

    args = [str(a) for a in argv or ()]
    for i, a in enumerate(args):
        if a in ("--out", "-o") and i + 1 < len(args):
            return Path(args[i + 1])
        if a.startswith("--out="):
            return Path(a.split("=", 1)[1])
    return None


def _interruption_behind(exc: BaseException) -> Interrupted | None:
    """The :class:`Interrupted` an exception was raised while handling, if any."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, Interrupted):
            return exc
        exc = exc.__context__ or exc.__cause__
    return None


def _run(argv: list[str] | None, prog: str | None = None, target: typer.Typer | None = None) -> int:
    from simcore import atomic

    _STARTUP["ran"] = True
    atomic.PUBLISHED.clear()
    atomic.UNFINISHED.clear()
    _VERDICT.clear()
    INTERRUPT_NOTE.clear()
    INTERRUPT_SAID.clear()
    global _previous_unraisable
    handlers = {}
    hook = None
    if threading.current_thread() is threading.main_thread():
        # SIGHUP too (a closed terminal, a dropped SSH session: it left the run's temporary
        # directory behind, review s53), unless it is ignored (nohup: the user asked to survive it)
        handlers = {s: signal.signal(s, _on_signal) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
                    if s != signal.SIGHUP or signal.getsignal(s) is not signal.SIG_IGN}
        hook, _previous_unraisable = sys.unraisablehook, sys.unraisablehook
        sys.unraisablehook = _unraisable
    try:
        return _dispatch(argv, prog, target)
    except Interrupted as exc:
        _seen(exc)
        _say_interrupted(exc.signum, argv)
        return exc.exit_code
    except Exception as exc:
        # A library that cleans up badly when interrupted (Optuna's trial loop raises
        # UnboundLocalError from its finally block when Ctrl-C lands in its bookkeeping): the
        # interruption is the cause, so it is said as one.
        cause = _interruption_behind(exc)
        if cause is None:
            raise
        _seen(cause)
        _say_interrupted(cause.signum, argv)
        return cause.exit_code
    except BaseException as exc:
        # polars (Rust, through pyo3) turns the Interrupted raised inside a callback it made into
        # Python into its PanicException, a BaseException whose message names it (review C #4: a
        # Ctrl-C while polars imported numpy ended an export with a 30-line panic and exit 1,
        # which for balance check means "regression")
        signum = _SIGNAL["signum"]
        if signum is None or type(exc).__name__ != "PanicException" or "Interrupted" not in str(exc):
            raise
        _say_interrupted(signum, argv)
        return Interrupted(signum).exit_code
    finally:
        atomic.release_claims()
        _adopt_orphaned_pool_workers()
        for s, h in handlers.items():
            signal.signal(s, h)
        if hook is not None:
            sys.unraisablehook = hook
        _SIGNAL["signum"], _SIGNAL["again"] = None, False


def not_utf8(argv) -> str | None:
    """The one line for a command-line argument that is not UTF-8 text (a path or value holding
    bytes the system could not decode, kept by Python as surrogates), or None. Every file the
    toolkit writes names its paths in UTF-8 (run.json, Parquet metadata): such a path failed deep
    in pyarrow or a reader with a traceback (review s62 rv267 #9)."""
    for i, arg in enumerate(argv or ()):
        try:
            str(arg).encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = str(arg)[exc.start:exc.end].encode("utf-8", "surrogateescape")
            option = argv[i - 1] if i and str(argv[i - 1]).startswith("-") else None
            shown = str(arg).encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            return (f"{option + ' ' if option else ''}{shown}: holds a byte that is not UTF-8 text "
                    f"(0x{bad[0]:02x}); give paths and values in UTF-8 (rename the file or folder)")
    return None


def _dispatch(argv, prog, target) -> int:
    if (line := not_utf8(argv)) is not None:
        print(f"error: {line}", file=sys.stderr)
        return 2
    try:
        command = typer.main.get_command(target or _app_for(argv))
        _plain_options(command)
        rv = command(args=argv, prog_name=prog, standalone_mode=False)
        if isinstance(rv, int):   # click returns typer.Exit's code in non-standalone mode
            return rv
    except UsageError as exc:
        if os.environ.get("BALANCE_DEBUG"):
            raise
        print(f"error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        _say_interrupted(signal.SIGINT, argv)
        return 130
    except SystemExit as exc:
        if isinstance(exc.__context__, BrokenPipeError):
            return _broken_pipe(exc)
        return int(exc.code or 0)
    except typer.Exit as exc:
        return int(getattr(exc, "exit_code", 0) or 0)
    except typer.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):   # click's form of Ctrl-C
            _say_interrupted(signal.SIGINT, argv)
            return 130
        print("aborted", file=sys.stderr)
        return 1
    except typer.TyperException as exc:  # option parsing: bad value, unknown option, missing argument
        if os.environ.get("BALANCE_DEBUG"):
            raise
        text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        param = getattr(exc, "param", None)
        name = getattr(param, "opts", None)
        prefix = f"{name[0]}: " if name and name[0] not in text else ""
        print(f"error: {_one_line(prefix + ' '.join(text.split()))}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2) or 2)
    except OSError as exc:      # the machine, not the input: a full disk, a file that vanished
        if isinstance(exc, BrokenPipeError) and _stdout_closed():
            return _output_closed()
        if os.environ.get("BALANCE_DEBUG"):
            raise
        print(f"error: {_one_line(machine_line(exc))}", file=sys.stderr)
        if _failed_on_stdout(exc):
            _silence_stdout()           # (the interpreter's last flush would fail again)
        return 1
    except MemoryError:
        print(f"error: {_out_of_memory_line(argv, prog)}", file=sys.stderr)
        return 1
    return 0


def _out_of_memory_line(argv, prog: str = "balance") -> str:
    """What to try when a command runs out of memory, in its own options (review s50 questions #2:
    every command was told "--chunk-size", which only simulate and a few others take)."""
    words = [str(a) for a in (argv or [])]
    if str(prog).endswith("simulate"):           # the simulate console script: argv has no command
        words = ["simulate", *words]
    if any(w == "--chunk-size" or w.startswith("--chunk-size=") for w in words) or (
            words and words[0] in ("simulate", "sweep")):
        return "out of memory (try fewer games per chunk: --chunk-size)"
    return "out of memory (try fewer games, or close other programs)"


#: Exit code of a command whose reader closed stdout before the command's outputs were published:
#: 128 + SIGPIPE, what a Unix tool killed by the signal exits with (``yes | head``).
EXIT_CLOSED_PIPE = 128 + 13


def machine_line(exc: OSError) -> str:
    """The one line of a problem of the machine (a full disk, a file that vanished): the file it
    happened on, else the standard output when that is what could not be written (review s59 #2:
    ``balance ladder > /dev/full`` said only "No space left on device"), and the system's words.
    Every command says it so (:func:`cli.check.machine_errors` too, with its own exit code)."""
    said = exc.strerror or str(exc)
    if getattr(exc, "filename", None):
        return f"{exc.filename}: {said}"
    if _failed_on_stdout(exc):
        return f"the standard output could not be written: {said}"
    return said


def _failed_on_stdout(exc: BaseException) -> bool:
    """``exc`` was raised writing to the standard output: the innermost frame of its traceback was
    writing to ``sys.stdout`` (click's ``echo`` holds it as ``file``, rich's ``Console`` as its
    ``file``), or to another stream on the same file descriptor."""
    import io

    tb = exc.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    streams = [s for s in (sys.stdout, sys.__stdout__) if s is not None]
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else None
    except (OSError, ValueError, AttributeError):
        fd = None
    for value in list(tb.tb_frame.f_locals.values()):
        if type(value).__name__ == "Console" and type(value).__module__.startswith("rich"):
            value = getattr(value, "file", None)
        if any(value is s for s in streams):
            return True
        if fd is not None and isinstance(value, io.IOBase):
            try:
                if value.fileno() == fd:
                    return True
            except (OSError, ValueError):
                continue
    return False


def _stdout_closed() -> bool:
    """Nobody reads stdout any more (a pipe whose reader exited: ``simulate … | head -1``): poll
    says so on Linux (POLLERR on the write end of a pipe without readers). False when it cannot
    tell: a BrokenPipeError of a socket or of a child process's pipe is an error like any other."""
    import select

    try:
        fd = sys.stdout.fileno()
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        return any(ev & select.POLLERR for _, ev in poll.poll(0))
    except (AttributeError, OSError, ValueError):
        return False


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that what is still buffered (and the interpreter's last
    flush) goes nowhere instead of failing again (the recipe of Python's signal documentation,
    "Note on SIGPIPE")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def _broken_pipe(exc: SystemExit) -> int:
    """A SystemExit(1) raised for a BrokenPipeError: by rich (``Console.on_broken_pipe``: its
    console's stream, stdout for the closing tables, was closed; it has pointed stdout at
    /dev/null already) or by Typer's main, which turns every EPIPE of the command into exit 1
    without a word. A closed stdout ends quietly (:func:`_output_closed`); any other broken pipe
    (a socket, a child process's pipe) is one error line, exit 1."""
    if _raised_by_rich(exc) or _stdout_closed():
        return _output_closed()
    cause = exc.__context__
    where = f"{cause.filename}: " if getattr(cause, "filename", None) else ""
    print(f"error: {_one_line(where + (cause.strerror or str(cause)))}", file=sys.stderr)
    return 1


def _output_closed() -> int:
    """A command whose reader closed stdout (``simulate … | head -1``): quietly, as Unix tools do.

    Exit 0 when the work was done — every output the command claimed was published, so the reader
    only left the summary unread (the run directory is complete; a script with ``set -o pipefail``
    must not fail for it) —, else 141, the code of a process killed by SIGPIPE: the command stopped
    before its end and its unfinished outputs were removed (revC #6). A command that had decided a
    verdict before writing (:func:`verdict`) ends with the verdict's code, and the line it says on
    stderr at its end, if any: ``balance golden --check | head -5`` exited 0 when a playthrough
    was out of date (session 60 #1), since the diff was written before the reader left."""
    from simcore import atomic

    _silence_stdout()
    if atomic.UNFINISHED:
        return EXIT_CLOSED_PIPE
    code, line = _VERDICT.get("code", 0), _VERDICT.get("line")
    if code and line:
        print(line, file=sys.stderr)
    return code


#: The verdict the running command decided before writing its output (:func:`verdict`).
_VERDICT: dict = {}


def verdict(code: int, line: str | None = None) -> None:
    """Record the exit code the running command ends with, decided before it writes the output
    that says why (a golden diff, a replay's CHECK FAILED log, a check's report), and the line it
    prints on stderr at its end (``line``, or none): should the reader close stdout meanwhile
    (``| head -5``), the command still ends with ``code`` (:func:`_output_closed`), the line said.
    The command still raises its own exit as before; this is only what a closed stdout keeps."""
    _VERDICT.update(code=int(code), line=line)


def show_then_go_on(show) -> bool:
    """Call ``show`` (a command's console output, said before the files it still writes: balance
    check's ``--junit``/``--summary``); should the reader of stdout have left meanwhile (``| true``,
    ``| head -1``), stop the output quietly (stdout now goes to /dev/null) and return False, so that
    the command still writes those files and ends with its verdict (:func:`verdict`). The output
    met the closed pipe, the files were still unfinished, and ``balance check --junit J | true``
    ended with 141 and no ``J`` (session 60 review). Any other broken pipe is raised as before."""
    try:
        show()
    except BrokenPipeError:
        if not _stdout_closed():
            raise
        _silence_stdout()
        return False
    except SystemExit as exc:       # rich (at a terminal): it has pointed stdout at /dev/null
        if not (isinstance(exc.__context__, BrokenPipeError) and _raised_by_rich(exc)):
            raise
        return False
    return True


def _raised_by_rich(exc: SystemExit) -> bool:
    """``exc`` is the SystemExit(1) of rich's ``Console.on_broken_pipe`` (its stream was closed)."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_name == "on_broken_pipe"


# ---------------------------------------------------------------------------------------------
# Options without pydantic: Typer 0.29 converts every option's value through a pydantic
# TypeAdapter (0.1 s of CPU at every start to import pydantic and build them); the plain values
# a designer types (a string, a whole number, a path, a flag, a repeated string) are converted
# here as Typer's adapters convert them, and anything else (a bad number, a choice, a range) still
# goes through Typer's own adapter, so its messages are unchanged.
# ---------------------------------------------------------------------------------------------

_WHOLE = None


def _plain_type(annotation):
    """``annotation`` without Optional[...], or None when it is not str, int, bool, Path or a list
    of str or of Path."""
    import typing
    from pathlib import Path

    origin = typing.get_origin(annotation)
    if origin is typing.Union or type(annotation).__name__ == "UnionType":
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) != 1:
            return None
        annotation = args[0]
        origin = typing.get_origin(annotation)
    if origin is list and typing.get_args(annotation) == (str,):
        return "list[str]"
    if origin is list and typing.get_args(annotation) == (Path,):
        return "list[Path]"
    return annotation if annotation in (str, int, bool, Path) else None


def _plain_options(command) -> None:
    """Give every option of ``command`` (and of its subcommands) whose type is plain a
    converter that needs no pydantic (:class:`_PlainValue`)."""
    commands = [command]
    while commands:
        cmd = commands.pop()
        commands.extend(getattr(cmd, "commands", {}).values())
        for param in getattr(cmd, "params", ()):
            _plain_option(param)
        _guard_callback(cmd)
        if hasattr(cmd, "get_help_option"):      # --help is made when the command line is parsed
            cmd.get_help_option = _with_plain_option(cmd.get_help_option)


def _guard_callback(cmd) -> None:
    """Run :func:`cli.guards.check_options` on a command's options before the command itself: the
    checks every command shares (an output inside a run directory, an empty item in a comma list)."""
    callback = getattr(cmd, "callback", None)
    if callback is None or getattr(callback, "_guarded", False):
        return

    def guarded(*args, **kwargs):
        from cli.guards import check_options

        check_options(kwargs)
        return callback(*args, **kwargs)

    guarded._guarded = True
    cmd.callback = guarded


def _with_plain_option(get_help_option):
    def wrapper(ctx):
        option = get_help_option(ctx)
        if option is not None:
            _plain_option(option)
        return option
    return wrapper


def _plain_option(param) -> None:
    desc = getattr(param, "type_descriptor", None)
    if desc is None or getattr(param, "_runtime_param", 1) is not None:
        return
    info = desc.parameter_info
    if desc.file_annotation is not None or getattr(info, "parser", None) is not None \
            or desc.is_ranged or desc.is_choice:
        return
    kind = _plain_type(desc.annotation)
    if kind is not None:
        param._runtime_param = _PlainValue.make(desc, kind)


class _PlainValue:
    """Typer's runtime conversion of a plain option (see above): the value as Typer's adapter
    would return it, or, for anything this does not recognise, Typer's adapter itself."""

    @staticmethod
    def make(desc, kind):
        from typer._coercion import RuntimeParam, build_runtime_param

        class Plain(RuntimeParam):
            def _coerce_value(self, value, param, ctx):
                done, out = _plain_value(kind, value, desc, param, ctx)
                if done:
                    return out
                return build_runtime_param(desc)._coerce_value(value, param=param, ctx=ctx)

        return Plain(parameter_info=desc.parameter_info, annotation=desc.annotation)


def _plain_value(kind, value, desc, param, ctx):
    """(True, converted value) when ``value`` is a plain value of ``kind``; (False, None) to
    leave it to Typer's adapter."""
    import re
    from pathlib import Path

    global _WHOLE
    if kind is str and isinstance(value, str):
        return True, value
    if kind is bool and isinstance(value, bool):
        return True, value
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return True, value
        if _WHOLE is None:
            _WHOLE = re.compile(r"-?(0|[1-9][0-9]{0,17})")
        if isinstance(value, str) and _WHOLE.fullmatch(value):
            return True, int(value)
    if kind == "list[str]" and isinstance(value, (list, tuple)) \
            and all(isinstance(v, str) for v in value):
        return True, list(value)
    if kind in (Path, "list[Path]") and (value == "" or (isinstance(value, (list, tuple))
                                                        and "" in value)):
        # Typer reads an empty path as Path(""), which is "." (the working directory): `--out ''`
        # (a script's variable left unset) was refused as the working directory, `--rules ''`
        # read as a directory
        raise UsageError(_empty_path_line(param))
    if kind is Path and isinstance(value, str) and value:
        from typer._param_types import coerce_cli_path

        info = desc.parameter_info
        if info.path_type not in (None, Path):
            return False, None
        return True, coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
    if kind == "list[Path]" and isinstance(value, (list, tuple)) \
            and all(isinstance(v, str) and v for v in value):
        from typer._param_types import coerce_cli_path

        info = desc.parameter_info
        if info.path_type not in (None, Path):
            return False, None
        return True, [coerce_cli_path(Path(v), info, path_type=Path, param=param, ctx=ctx)
                      for v in value]
    return False, None


def _empty_path_line(param) -> str:
    """The one line refusing an empty value of a path option or argument: an output's
    (:data:`cli.guards.OUTPUTS`; every one that is read as a path is a directory) in the words
    of the output check (:func:`simcore.atomic.empty_path_line`), any other's naming it."""
    from cli.guards import OUTPUTS

    longs = [o for o in getattr(param, "opts", ()) if o.startswith("--")]
    name = max(longs, key=len) if longs else str(getattr(param, "name", None) or "path").upper()
    if param.name in OUTPUTS:
        from simcore.atomic import empty_path_line

        return empty_path_line(name, "dir")
    return f"{name} is empty: give a path"


def main(argv: list[str] | None = None) -> None:
    """The ``balance`` console script; with ``argv`` (a caller in Python, a test) it raises
    SystemExit as usual, without it the process ends as :func:`_end_process` says."""
    if argv is not None:
        sys.exit(_run(argv))
    with _start_without_collector():
        _keep_freed_memory()
        rc = _run(sys.argv[1:])
    _end_process(rc)
    sys.exit(rc)


def simulate_main(argv: list[str] | None = None) -> None:
    """The ``simulate`` console script (see :func:`main`)."""
    if argv is not None:
        sys.exit(_run(argv, prog="simulate", target=_simulate_app()))
    with _start_without_collector():
        _keep_freed_memory()
        rc = _run(sys.argv[1:], prog="simulate", target=_simulate_app())
    _end_process(rc)
    sys.exit(rc)


KEEP_FREED_BYTES = 256 << 20
"""Blocks up to this size come from the C heap and, once freed, stay there for the next ones."""


def _keep_freed_memory() -> None:
    """A console command's C heap keeps what it frees, up to :data:`KEEP_FREED_BYTES` a block
    (glibc's ``mallopt``: ``M_MMAP_THRESHOLD`` and ``M_TRIM_THRESHOLD``), unless the user set
    glibc's own ``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_``; nothing where there is no
    ``mallopt`` (not glibc).

    Why: a chunk's output columns (~40 MB for 131,072 four-player games) are above glibc's largest
    automatic threshold (32 MB), so each chunk's were mapped afresh and handed back to the system
    when freed; the system then zeroed every page again for the next chunk. ``simulate --games 1e6
    -s random`` (``/usr/bin/time -v``, two runs each): 70,863 and 68,778 page faults, 0.96 and
    0.78 s of system time before; 33,029 and 32,576, 0.29 and 0.50 s after; peak memory 321-322 →
    329 MB (issue #27 item 5, outside the kernel). Blocks larger than the limit are still mapped
    and returned as before, so a command never holds more freed memory than that."""
    if "MALLOC_MMAP_THRESHOLD_" in os.environ or "MALLOC_TRIM_THRESHOLD_" in os.environ:
        return
    try:
        import ctypes

        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
    mallopt(M_MMAP_THRESHOLD, KEEP_FREED_BYTES)
    mallopt(M_TRIM_THRESHOLD, KEEP_FREED_BYTES)


START_WITHOUT_COLLECTOR_S = 1.0
"""How long a console command starts with Python's cyclic garbage collector paused."""


class _start_without_collector:
    """A console command's first :data:`START_WITHOUT_COLLECTOR_S` seconds with the cyclic garbage
    collector paused (``gc.disable``), then collected as usual (a timer thread calls
    ``gc.enable``); on the command's end, whichever comes first, it is enabled again.

    Why: a command's start imports numpy, numba, pyarrow and the game's modules, ~200,000 objects
    that live as long as the process; the collector scanned them again and again while they were
    made (~140 young collections, ~13 middle and one full one: 50-70 ms of a small run's ~0.6 s,
    timed with ``gc.callbacks``; issue #27 item 5). Paused, none of them runs: a run that ends
    within the pause never pays for them; a longer command pays its first collections once the
    timer enables the collector (the objects made meanwhile are young then, scanned as before).
    Garbage made during the pause is only reference cycles (everything else is freed when its last
    reference goes, collector or not), and what one second can make is collected once the
    collector is back. A process that had the collector off (``gc.disable`` before) is left so.
    Console scripts only (:func:`main`, :func:`simulate_main` without ``argv``): a caller in
    Python keeps its own collector settings."""

    def __enter__(self):
        self.timer = None
        if gc.isenabled():
            gc.disable()
            self.timer = threading.Timer(START_WITHOUT_COLLECTOR_S, gc.enable)
            self.timer.daemon = True
            self.timer.start()
        return self

    def __exit__(self, *exc) -> None:
        if self.timer is not None:
            self.timer.cancel()
            gc.enable()


def _end_process(rc: int) -> None:
    """End a console command's process with exit code ``rc`` without the interpreter's teardown.

    Everything a normal exit does for the command's output is done first, in the same order
    (CPython's ``Py_FinalizeEx``): the other threads are joined (``threading._shutdown``, which
    also stops idle thread pools), the ``atexit`` handlers run (claims released, log handlers
    flushed, weakref finalizers such as temporary directories), stdout and stderr are flushed;
    every file the command wrote was already closed and fsynced by its writer. What is skipped is
    the rest: freeing every module and object one by one and the destructors of Numba's and
    LLVM's native state, 0.1-0.3 s of CPU at the end of every run (docs/cluster.md, "Process
    start"). A closed stdout (``| head -1``) has what is still buffered dropped: the command has
    ended, its work done. An interactive session, or another flush that fails, exits the usual way.
    """
    if sys.flags.interactive or hasattr(sys, "ps1"):
        return
    import atexit

    try:
        shutdown = getattr(threading, "_shutdown", None)
        if shutdown is not None:
            shutdown()
        atexit._run_exitfuncs()
        try:
            sys.stdout.flush()
        except BrokenPipeError:         # the reader left (`| head -1`) after the work was done
            _silence_stdout()
        sys.stderr.flush()
    except BaseException:
        return                          # the usual exit then says what went wrong
    os._exit(rc)


ORPHAN_START_WAIT_S = 5.0       # how long a pool worker caught in its start is given to run


def _adopt_orphaned_pool_workers() -> None:
    """Hand the interpreter's exit a thread-pool worker whose start a signal cut short.

    ``ThreadPoolExecutor.submit`` starts a worker thread, waits for it to run, then records it
    (``concurrent.futures.thread._threads_queues``) so that the exit can wake it with a ``None``
    on its queue and join it. Ctrl-C or SIGTERM handled while ``submit`` waits (the first chunk of
    a run starts its kernel-block and writer threads: a signal sent as soon as the run's temporary
    directory appears lands there in one of 4 to 15 tries here) leaves a started worker that
    nobody records: the exit (``threading._shutdown``, the interpreter's or :func:`_end_process`'s)
    then joins it for ever, idle on its queue, after the "interrupted" line was printed. Recorded
    when the command ends, it is woken and joined like the others. Private names, read
    defensively: without them this does nothing.
    """
    cft = sys.modules.get("concurrent.futures.thread")
    queues = getattr(cft, "_threads_queues", None)
    worker = getattr(cft, "_worker", None)
    if queues is None or worker is None:
        return
    for thread in threading.enumerate():
        args = getattr(thread, "_args", ())
        if getattr(thread, "_target", None) is worker and thread not in queues and len(args) >= 2:
            # a thread the signal caught between its creation and its first step (threading's
            # limbo: listed, not yet started) is given a moment to start: joined before, the exit
            # printed "RuntimeError: cannot join thread before it is started" under the
            # "interrupted" line (1 clean-clone run in 4); one that never starts is not recorded
            started = getattr(thread, "_started", None)
            if started is not None and not started.wait(ORPHAN_START_WAIT_S):
                continue
            queues[thread] = args[1]
