"""``balance export RUN --what … --format csv|parquet --out PATH``: raw rows or analysis tables.

Thin shell over :func:`analysis.export.export` (column names in docs/export.md). An existing
``--out`` is refused unless ``--force``, and so is one naming a directory (``tables/``: passed on as
typed, so the slash reaches the output check); the file appears under its final name only when
complete. ``--out -`` (or ``/dev/stdout``) writes the CSV to standard output and prints nothing else
there; Parquet to standard output, or ``--out /dev/stderr``, is refused in one line.

May import typer, the standard library and, lazily inside the command, :mod:`analysis`.
"""

from __future__ import annotations

import errno
import sys
from pathlib import Path
from typing import Optional

import typer

_WHAT_HELP = ("players (one row per player per game), games (one row per game), seats (win share and "
              "score per seat), roles (role advantage, games with roles), events (event-card impact), "
              "tiles (win share by tiles held), guilds (founders' win share by guild type), length (game length), "
              "ends (how games end, with each way's share), strategies (each strategy's win share, as the "
              "report's Strategies table), matchups (strategy pairs), summary (every scalar metric with its "
              "interval); Seigneurial also objectives (Objective cards), improvements (land improvements), "
              "seigneur_squares (the Seigneur's final square)")


def register(app: typer.Typer) -> None:
    @app.command("export")
    def export(
        run: Path = typer.Argument(..., help="Run directory.", show_default=False),
        what: str = typer.Option(..., "--what", "-w", help=_WHAT_HELP, show_default=False),
        fmt: Optional[str] = typer.Option(
            None, "--format", "-f",
            help="csv or parquet (default: from the --out suffix, .parquet/.pq → parquet, else csv)."),
        # a str, not a Path: Path("tables/") drops the slash that says the user named a directory,
        # which the output check (simcore.atomic) refuses only if it sees it
        out: str = typer.Option(..., "--out", "-o",
                                help="File to write; - writes the CSV to standard output.",
                                show_default=False,
                                metavar="<path>"),
        force: bool = typer.Option(False, "--force", help="Replace an existing --out holding an earlier copy of this table (a CSV of the same columns, or a Parquet table of this toolkit); never a file of another kind."),
        bom: bool = typer.Option(False, "--bom",
                                 help="CSV: start with a UTF-8 byte-order mark (Excel on Windows)."),
    ) -> None:
        """Write raw rows or an analysis table of RUN as CSV or Parquet (columns: docs/export.md)."""
        from analysis.export import export as do_export, to_stdout

        if not to_stdout(out):
            typer.echo(str(do_export(run, what, out, fmt, force=force, bom=bom)))
            return
        try:             # the table itself on standard output: nothing else is printed there
            do_export(run, what, out, fmt, force=force, bom=bom)
            sys.stdout.flush()
        except OSError as exc:
            # polars reports a reader that left (`| head`) as a plain OSError ("Broken pipe (os
            # error 32)"): made the BrokenPipeError the command line ends quietly on
            if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE or "os error 32" in str(exc):
                raise BrokenPipeError(errno.EPIPE, "Broken pipe") from exc
            raise
