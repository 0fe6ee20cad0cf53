"""``balance <command>`` for every table command a game declares (``GameSpec.commands``, a
:class:`simcore.contract.TableCommand`: Fief's ``fief-odds`` and ``fief-calamity``), built from the
declaration: its own options, then ``--rules``, ``--set``, ``--out``, ``--force``, ``--threads``
and ``--quiet``. The game folder's ``job`` validates the options (bad input: one line, exit code 2,
before anything is written) and computes the tables; they are written as CSV and parquet with the
declared figures and run.json into the output directory, atomically
(:class:`simcore.rundir.RunWriter`), and the declared ``show`` prints a summary. No game is named
here.

May import typer, the standard library, :mod:`simcore` (registry, runner for ``--set``, rundir,
options, atomic) and, lazily, the modules the declarations name.
"""

from __future__ import annotations

import inspect
import time
from pathlib import Path
from typing import Any, List, Optional

import typer

from simcore import games as registry


def _hook(ref: str):
    module, _, name = ref.partition(":")
    return getattr(registry.import_hook(module), name)


def run_table_command(game: str, command: str, *, rules: Path | None = None,
                      settings: list[str] | None = None, out: Path | None = None,
                      force: bool = False, threads: int | None = None, quiet: bool = False,
                      **options: Any) -> Path:
    """Run table command ``command`` of ``game`` with its options; returns the output directory."""
    from simcore.atomic import input_paths
    from simcore.options import numba_threads
    from simcore import rundir
    from simcore.rundir import RunWriter

    spec = registry.get(game)
    cmd = next(c for c in spec.commands if c.name == command)
    rules_path: Any = rules
    if settings:
        from simcore.runner import rules_source

        rules_path = rules_source(game, rules, settings)
    t0 = time.perf_counter()
    job = _hook(cmd.job)(rules_path=rules_path, **options)
    out = out or rundir.default_run_dir(cmd.name)
    if force:
        adopt_shared_kind(Path(out), cmd)
    with numba_threads(threads), RunWriter(out, force, players_schema=None, games_schema=None,
                                           inputs=input_paths(rules_path), kind=cmd.name) as w:
        tables = job.compute()
        for name, df in tables.items():
            df.write_csv(w.tmp / f"{name}.csv")
            df.write_parquet(w.tmp / f"{name}.parquet")
        files = [f"{n}.{e}" for n in tables for e in ("csv", "parquet")]
        if cmd.figures:
            files += _hook(cmd.figures)(job, tables, w.tmp)
        path = w.finish(job.meta(tables, files, round(time.perf_counter() - t0, 4)))
    if not quiet:
        if cmd.show:
            _hook(cmd.show)(job, tables, path)
        else:
            print(f"wrote {path}")
    return path


def adopt_shared_kind(out: Path, cmd) -> None:
    """Each table command's output directory has its own ownership kind, the command's name
    (``fief-odds``, ``fief-calamity``), so ``--force`` of one never replaces the other's tables
    (review G #4: both were marked ``fief-tables``). A directory an earlier version marked with the
    declaration's shared kind (``cmd.kind``, ``fief-tables``) says by its run.json ``game`` which
    command wrote it: this command's is re-marked as its own (then replaced as usual), another's is
    refused in one line, and one whose run.json does not say is refused too (nothing proves whose
    it is)."""
    import json

    from simcore.atomic import read_marker, write_marker
    from simcore.errors import UsageError

    marker = read_marker(out) if out.is_dir() else None
    if marker is None or marker["kind"] != cmd.kind or cmd.kind == cmd.name:
        return
    try:
        wrote = json.loads((out / "run.json").read_text(encoding="utf-8")).get("game")
    except (OSError, ValueError, AttributeError):
        wrote = None
    if wrote == cmd.name:
        write_marker(out, cmd.name, marker["entries"], marker.get("id"), tree=marker.get("tree"))
        return
    whose = f"{wrote} tables" if isinstance(wrote, str) and wrote else \
        f"{cmd.kind} whose run.json does not say which command wrote them"
    raise UsageError(f"--out {out}: holds {whose}, not {cmd.name} tables; --force replaces only "
                     f"{cmd.name} tables, choose another directory")


def _command(game: str, cmd):
    def run(**kw: Any) -> None:
        run_table_command(game, cmd.name, **kw)

    params = [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY,
                                annotation=o.type if o.default is not None else Optional[o.type],
                                default=typer.Option(o.default, o.flag, help=o.help))
              for o in cmd.options]
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=ann,
                                 default=opt) for name, ann, opt in (
        ("rules", Optional[Path], typer.Option(None, "--rules", help="Rules file (default: the "
                                               "game's shipped rules).")),
        ("settings", Optional[List[str]], typer.Option(None, "--set", help="Change one rule "
                                                       "setting: PATH=VALUE; repeatable.")),
        ("out", Optional[Path], typer.Option(None, "--out", help=f"Output directory (default "
                                             f"runs/{cmd.name}-<time>).")),
        ("force", bool, typer.Option(False, "--force", help="Replace a non-empty --out.")),
        ("threads", Optional[int], typer.Option(None, "--threads", help="Numba threads (results "
                                                "do not depend on it).")),
        ("quiet", bool, typer.Option(False, "--quiet", "-q", help="Print nothing.")))]
    run.__signature__ = inspect.Signature(params)
    run.__annotations__ = {p.name: p.annotation for p in params}
    run.__doc__ = cmd.help
    run.__name__ = cmd.name.replace("-", "_")
    return run


def register(app: typer.Typer) -> None:
    for spec in registry.specs().values():
        for cmd in spec.commands:
            app.command(cmd.name)(_command(spec.name, cmd))
