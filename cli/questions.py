"""``balance questions RUN --out DIR``: the balance questions a run cannot answer by itself, played
for that run (its rules, player count, seed and bots) into a directory of CSV tables.

One command for every game that has such questions: the game's spec names a module
(``analysis_hooks``) whose ``questions_command(run, games, out, force=, threads=, progress=)``
plays them — Middle-Ages: the event-card ablation (``event_ablation.csv``,
:mod:`analysis.questions.middle_ages`); Médiévallons: first player at every player count its rules
allow, card types with the card ablation, best of 3 (:mod:`analysis.questions.medievallons`; this
command replaced ``balance medievallons-questions``). The tables are printed (the columns the
module's ``PRINTED`` names, under its ``TITLES``) and ``balance report RUN --questions DIR`` reads
the directory. A game without played questions, a missing run, an output path that is one of
the inputs or a non-empty ``--out`` without ``--force`` is one line and exit code 2 before any
game is played.

May import typer and, lazily inside the command, :mod:`simcore` (registry, rundir, runner) and the
game's questions module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from simcore.errors import UsageError


def register(app: typer.Typer) -> None:
    @app.command("questions")
    def questions(
        run: Path = typer.Argument(..., help="A run directory (simulate --out)."),
        out: Path = typer.Option(..., "--out", "-o", help="Directory for the tables (CSV) and run.json."),
        games: str = typer.Option("20000", "--games", "-n", help="Games per configuration (per deck for the event ablation)."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out directory."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but the output path."),
    ) -> None:
        """Balance questions played for RUN: Middle-Ages' event-card ablation (each card's total
        effect on every seat's win share and score, by the same deals with the card made
        neutral), Médiévallons' first player, card ablation and best of 3."""
        import polars as pl

        from simcore import games as registry
        from simcore import rundir, runner
        from simcore.options import check_common

        meta = rundir.read_meta(run)
        spec = registry.specs().get(meta.get("game"))
        hook = registry.import_hook(spec.analysis_hooks) if spec and spec.analysis_hooks else None
        play = getattr(hook, "questions_command", None)
        if play is None:
            raise UsageError(f"{run}: {meta.get('game')} has no played balance questions "
                             "(Middle-Ages and Médiévallons have)")
        n = runner.parse_games(games)
        check_common(seed=0, threads=threads)
        rundir.check_output_dir(out, force, kind="questions", inputs=[run])
        say = (lambda _m: None) if quiet else (lambda m: typer.echo(m, err=True))
        path = play(run, n, out, force=force, threads=runner.set_threads(threads), progress=say)
        if quiet:
            typer.echo(str(path))
            return
        _print_tables(path, hook)
        table = path / "event_ablation.csv"
        if table.is_file():
            df = pl.read_csv(table)
            cards = df.group_by("event", "name").agg(pl.col("swing").first(), pl.col("fires").first()
                                                     ).sort("swing", descending=True)
            typer.echo("Event cards by how much they move who wins (largest |win-share effect| "
                       "over the seats, with the card vs the same card made neutral):")
            for r in cards.iter_rows(named=True):
                typer.echo(f"  {r['name']:<28} {100 * r['swing']:5.2f} pp  (drawn in "
                           f"{100 * r['fires']:.0f}% of games)")
        typer.echo(f"tables written to {path}")


def _print_tables(path: Path, hook) -> None:
    """The tables the game's questions module asks to print (``PRINTED``: file stem → columns)."""
    printed = getattr(hook, "PRINTED", None)
    if not printed:
        return
    import polars as pl
    from rich.console import Console
    from rich.table import Table

    titles = getattr(hook, "TITLES", {})
    console = Console()
    for stem, cols in printed.items():
        f = path / f"{stem}.csv"
        if not f.is_file() or not cols:
            continue
        df = pl.read_csv(f)
        cols = [c for c in cols if c in df.columns]
        t = Table(title=f"{stem}: {titles.get(stem, '')} ({stem}.csv)", title_justify="left")
        for c in cols:
            t.add_column(c.replace("_", " "), justify="left" if df[c].dtype == pl.String else "right")
        for row in df.select(cols).iter_rows():
            t.add_row(*(_fmt(v) for v in row))
        console.print(t)


def _fmt(v) -> str:
    if isinstance(v, float):
        if v != v:
            return "—"
        return f"{v:.4f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)
