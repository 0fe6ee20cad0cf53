"""``balance report RUN [RUN …] --out DIR``: the designer report of one or several run directories.

Thin shell over :func:`reports.html.build_report`: runs of one configuration are pooled, each
further configuration is compared with the first (the baseline). For a Médiévallons baseline the
balance questions the run cannot answer are played too (``--questions-games`` games per question
and rules variant, 0 skips them), with a spinner on stderr. Bad run directories, a bad
``--questions-games`` and a non-empty ``--out`` without ``--force`` are one-line errors (exit code 2).

May import typer, rich, the standard library, :mod:`simcore` and, lazily inside the command,
:mod:`reports`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List

import typer

from simcore.errors import UsageError

QUESTIONS_GAMES = "10000"     # = reports.medievallons.QUESTIONS_GAMES (not imported: matplotlib is slow)


def parse_questions_games(text: str) -> int:
    """``0`` skips the played questions; otherwise a game count as ``--games`` takes it."""
    from simcore.runner import parse_games

    s = str(text).strip()
    if re.fullmatch(r"\+?0[0_]*", s):
        return 0
    if s.startswith("-"):
        raise UsageError(f"--questions-games {text}: must be 0 (skip the played questions) or a positive "
                         "number of games")
    return parse_games(s, "--questions-games")


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
        questions_games: str = typer.Option(
            QUESTIONS_GAMES, "--questions-games",
            help="Médiévallons: games per played balance question and per card-ablation variant "
                 "(0 skips them)."),
    ) -> None:
        """Write report.html (self-contained), figures/*.png|svg and optionally report.pdf."""
        n_questions = parse_questions_games(questions_games)
        from rich.console import Console

        from reports.html import build_report

        with Console(stderr=True).status("Reading the runs") as status:
            path = build_report(runs, out, force=force, pdf=pdf, pool=pool, questions_games=n_questions,
                                progress=lambda text: status.update(text + "…"))
        typer.echo(f"report: {path}")
