"""``balance report RUN [RUN …] --out DIR``: the designer report of one or several run directories.

Thin shell over :func:`reports.html.build_report`: runs of one configuration are pooled, each
further configuration is compared with the first (the baseline). Bad run directories and a
non-empty ``--out`` without ``--force`` are one-line errors (exit code 2).

May import typer, the standard library and, lazily inside the command, :mod:`reports`.
"""

from __future__ import annotations

from pathlib import Path
from typing import List

import typer


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        runs: List[Path] = typer.Argument(
            ..., help="Run directories (baseline first; same configuration is pooled).", show_default=False),
        out: Path = typer.Option(..., "--out", "-o",
                                 help="Report directory to write (must be empty or new)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out directory."),
        pdf: bool = typer.Option(False, "--pdf", help="Also write report.pdf."),
        pool: bool = typer.Option(
            True, "--pool/--no-pool",
            help="Pool runs of the same configuration (default) or keep every directory separate."),
    ) -> None:
        """Write report.html (self-contained), figures/*.png|svg and optionally report.pdf."""
        from reports.html import build_report

        path = build_report(runs, out, force=force, pdf=pdf, pool=pool)
        typer.echo(f"report: {path}")
