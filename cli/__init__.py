"""The ``balance`` command line (Typer): a thin shell over functions callable from Python.

One module per command group registers its commands on :data:`app` through ``register(app)``.
:func:`main` turns known errors (:class:`simcore.errors.UsageError`) into one line on stderr and
exit code 2; set ``BALANCE_DEBUG=1`` for the full traceback. ``simulate`` is also a console script
of its own (:func:`simulate_main`).

The top layer of the data path (see pyproject.toml's import-linter contract): the only package that
may import every other one, lazily inside commands where the import is heavy.
"""

from __future__ import annotations

import os
import sys

import typer

from simcore.errors import UsageError

app = typer.Typer(
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


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                       help="Print the toolkit's version and exit.")) -> None:
    """Monte Carlo balance analysis for tabletop games."""


_COMMAND_MODULES = ("simulate", "report", "export", "check", "fief", "medievallons", "strategies", "golden", "games",
                    "ladder")


def _register_all() -> None:
    import importlib

    for name in _COMMAND_MODULES:
        try:
            mod = importlib.import_module(f"cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cli.{name}":
                continue  # that command group is not part of this build
            raise
        mod.register(app)


_register_all()


def _simulate_app() -> typer.Typer:
    from cli.simulate import register

    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(single)  # one command: typer makes it the root, so `simulate --games 1e6` works
    return single


def _run(argv: list[str] | None, prog: str | None = None, target: typer.Typer | None = None) -> int:
    try:
        rv = (target or app)(args=argv, prog_name=prog, standalone_mode=False)
        if isinstance(rv, int):   # click returns typer.Exit's code in non-standalone mode
            return rv
    except UsageError as exc:
        if os.environ.get("BALANCE_DEBUG"):
            raise
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: nothing was written under the final name", file=sys.stderr)
        return 130
    except SystemExit as exc:
        return int(exc.code or 0)
    except typer.Exit as exc:
        return int(getattr(exc, "exit_code", 0) or 0)
    except typer.Abort:
        print("aborted", file=sys.stderr)
        return 1
    except typer.TyperException as exc:  # option parsing: bad value, unknown option, missing argument
        if os.environ.get("BALANCE_DEBUG"):
            raise
        text = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        param = getattr(exc, "param", None)
        name = getattr(param, "opts", None)
        prefix = f"{name[0]}: " if name and name[0] not in text else ""
        print(f"error: {prefix}{' '.join(text.split())}", file=sys.stderr)
        return int(getattr(exc, "exit_code", 2) or 2)
    return 0


def main(argv: list[str] | None = None) -> None:
    sys.exit(_run(argv if argv is not None else sys.argv[1:]))


def simulate_main(argv: list[str] | None = None) -> None:
    args = argv if argv is not None else sys.argv[1:]
    sys.exit(_run(args, prog="simulate", target=_simulate_app()))
