"""``balance questions RUN --out DIR``: the balance questions a run cannot answer by itself, played
for that run (its rules, player count, seed and bots) into a directory of CSV tables.

One command for every game that has such questions: the game's spec names a module
(``analysis_hooks``) whose ``questions_command(run, games, out, force=, threads=, progress=, smallest=)``
plays them — Middle-Ages: the event-card ablation (``event_ablation.csv``,
:mod:`analysis.questions.middle_ages`); Médiévallons: first player at every player count its rules
allow, card types with the card ablation, best of 3 (:mod:`analysis.questions.medievallons`; this
command replaced ``balance medievallons-questions``); Seigneurial: the card ablation
(``card_ablation.csv``, :mod:`analysis.questions.seigneurial`). A summary is printed in the report's words
when the game's report hook words one (``printed_summary``: Médiévallons; seats from 1, percentages
with intervals, verdicts as the page gives them, at most 100 columns), else the columns the
questions module's ``PRINTED`` names, under its ``TITLES``; ``balance report RUN --questions DIR``
reads the directory, and the command ends with that command for the run ("next: …"). A kernel the
questions compile is said with its seconds, as ``simulate`` says it (:func:`cli.progress.spinner`
through :class:`simcore.runner.compile_shown`). A game without played questions, a missing run, an output path that is one of
the inputs or a non-empty ``--out`` without ``--force`` is one line and exit code 2 before any
game is played.

May import typer and, lazily inside the command, :mod:`simcore` (registry, rundir, runner),
:mod:`analysis.events` (the event ablation's order and per-drawn columns), the game's questions module,
:mod:`reports.games` and :mod:`reports.questions` (the printed summary's words), :mod:`reports.text`
(a seat named with its bot), :mod:`cli.progress` (the compile spinner; the progress lines, one per
played question on a terminal, a few off one: :class:`cli.progress.StepLines`),
:func:`cli.simulate.report_hint` (the next command) and rich.
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
        smallest_difference: Optional[str] = typer.Option(
            None, "--smallest-difference", show_default=False,
            help="The smallest difference that matters: win_share=2pp (default 1pp), score=N (Middle-Ages: "
                 "coins, default 2; Seigneurial: points of % of own goal, default 2), length=N (Médiévallons: turns, default 2). Any other is refused. Words every ablation effect by its interval: \"clear and large enough to matter\", "
                 "\"clear, may matter\" (the interval straddles it), \"clear but small\" or \"within noise\"; recorded in DIR/run.json (balance report --questions DIR "
                 "uses it unless given its own)."),
    ) -> None:
        """Balance questions played for RUN: Middle-Ages' event-card ablation (each card's total
        effect on every seat's win share and score, by the same deals with the card made
        neutral), Médiévallons' first player, card ablation and best of 3, Seigneurial's card
        ablation (each Censitaire and Seigneur card made neutral: its effect on the role balance
        and on every seat)."""

        from analysis.load import parse_smallest_difference, refuse_unsized
        import inspect

        from analysis.questions import run_meta
        from cli.replay import check_run_directory
        from simcore import games as registry
        from simcore import rundir, runner
        from simcore.options import check_common

        small = parse_smallest_difference(smallest_difference)

        meta = run_meta(run)
        spec = registry.specs().get(meta.get("game"))
        hook = registry.import_hook(spec.analysis_hooks) if spec and spec.analysis_hooks else None
        play = getattr(hook, "questions_command", None)
        if play is None:
            raise UsageError(f"{run}: {meta.get('game')} has no played balance questions "
                             "(Middle-Ages, Médiévallons and Seigneurial have)")
        # a setting that words nothing here is an error, not silently ignored
        refuse_unsized(small, getattr(hook, "SMALLEST_KINDS", ("share",)),
                       f"{meta.get('game')}'s played questions")
        n = runner.parse_games(games)
        check_common(seed=0, threads=threads)
        rundir.check_output_dir(out, force, kind="questions", inputs=[run])
        if force and not quiet and (replaced := replacing_words(out, run, meta)):
            typer.echo(replaced, err=True)
        check_run_directory(run)      # the run's files, before any game (review s50 questions #4)
        said = {"option": "--games"} if "option" in inspect.signature(play).parameters else {}
        from rich.console import Console

        from cli.progress import StepLines, spinner

        # a line per played question on a terminal; off one (a CI log) a line at most a minute,
        # none in the first (cli.progress.StepLines: session 63, a line per card and slice of
        # games there, and after Ctrl-C the "interrupted" line came after them). A kernel the
        # questions compile is said, with its seconds, as simulate says it (review 270 #3): on a
        # terminal its spinner, off one on that line; nothing with --quiet
        with StepLines("questions", quiet=quiet) as say, runner.compile_shown(
                None if quiet else (say.compiling or spinner(Console(stderr=True)))):
            path = play(run, n, out, force=force, threads=runner.set_threads(threads), progress=say,
                        **said, smallest=small or None)
        if quiet:
            typer.echo(str(path))
            return
        from reports.games import hook_for
        from reports.questions import read_questions

        written = read_questions(path)      # (missing floats as NaN, whatever the CSV holds)
        if (said := other_bots_line(written.meta)) is not None:
            typer.echo(said)
        summary = getattr(hook_for(meta.get("game")), "printed_summary", None)
        if summary is not None:         # in the report's words (Médiévallons)
            _print_summary(summary(written))
        else:
            _print_tables(written.tables, hook)
        if "event_ablation" in written.tables:
            _print_event_cards(written.tables["event_ablation"], written.meta)
        typer.echo(f"tables written to {path}")
        from cli.simulate import report_hint

        # the report with these answers (review 270 #4: nothing said what to run next)
        typer.echo(f"next: {report_hint(run, questions=path)}")


def other_bots_line(meta: dict) -> str | None:
    """The line said first when the questions play other bots than the run's (a mixed line-up, a
    playout bot: their ``strategy_note``), else None: it was only in the questions' run.json
    (designer review 44, questions #3)."""
    note = meta.get("strategy_note")
    if not isinstance(note, str) or note.endswith("as in the run"):
        return None
    return f"Played with {note}."


def replacing_words(out: Path, run: Path, meta: dict) -> str:
    """With ``--force`` over another run's questions (or another game's), the line naming what is
    replaced: "replacing q: the Médiévallons questions of runs/mv (2,000 games)" (a designer's
    Médiévallons questions were replaced by Middle-Ages ones without a word); '' when ``out`` holds
    questions of this run and game, or none."""
    import json

    from simcore import games as registry

    try:
        old = json.loads((Path(out) / "run.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if not isinstance(old, dict) or old.get("command") != "questions":
        return ""
    if old.get("for_run") == str(run) and old.get("game") == meta.get("game"):
        return ""
    spec = registry.specs().get(str(old.get("game")))
    title = spec.title if spec is not None else str(old.get("game"))
    games = old.get("games")
    return (f"replacing {out}: the {title} questions of {old.get('for_run')}"
            + (f" ({int(games):,} games)" if isinstance(games, int) else ""))


def _print_event_cards(df, meta: dict) -> None:
    """Middle-Ages' cards by how much they move who wins, worded by size, in the page's order
    (:func:`analysis.events.ablation_card_order`: each card's leading seat in reading order — large
    enough to matter first, then may matter, then clear but small, then within noise; by size
    within each, never by p-value; ties by event id), with that seat's verdict (against the smallest
    difference recorded in run.json), averaged over all games and per game where the card is drawn
    (÷ the draw rate, :func:`analysis.events.ablation_when_drawn`)."""
    from analysis import events
    from reports.text import ablation_seat_bots

    small = float((meta.get("smallest_difference") or {}).get("share", 0.01))
    # the bot at each of the ablation's fixed seats where they differ (review s61 #1: on a rotated
    # run "seat 1" is one bot in every replayed game, not the run's own seat 1)
    bots = ablation_seat_bots(meta.get("strategies"), df["seat"].n_unique())
    score = float((meta.get("smallest_difference") or {}).get("score", 2.0))
    if "win_share_when_drawn" not in df.columns:       # a table written before the per-drawn columns
        df = events.ablation_when_drawn(df, small, score)
    top = events.ablation_card_order(events.ablation_words(df), small)
    deals = meta.get("deals") or f"the run's first {meta.get('games', 0):,} deals"
    typer.echo(f"Event cards by how much they move who wins (each card's leading seat, the card vs the "
               f"same card made neutral on {deals}; averaged over all games, the games without the card "
               f"counting 0, then per game where it is drawn; {100 * small:g} pp matters; simultaneous "
               f"95% intervals over every card and seat):")
    for r in top.iter_rows(named=True):
        typer.echo(f"  {r['name']:<28} {100 * r['win_share_effect']:+6.2f} pp {_seat(r['seat'], bots)} "
                   f"({100 * r['win_share_effect_low']:+.2f} to {100 * r['win_share_effect_high']:+.2f}): "
                   f"{r['verdict']}; per game where drawn ({100 * r['fires']:.0f}% of games) "
                   f"{100 * r['win_share_when_drawn']:+.2f} pp ({100 * r['win_share_when_drawn_low']:+.2f} to "
                   f"{100 * r['win_share_when_drawn_high']:+.2f}): {r['verdict_when_drawn']}")
    said = score_effects_line(df, score, note=events.score_coverage_words(meta.get("games")), bots=bots)
    if said:
        typer.echo(said)


#: How many cards the score line names, the largest first.
SCORE_CARDS = 3


def _seat(seat: int, bots: list[str] | None) -> str:
    """"seat 1", or "seat 1 (eventwise)" when the ablation's seats hold different bots."""
    return f"seat {seat + 1}" + (f" ({bots[seat]})" if bots else "")


def score_effects_line(df, score: float, unit: str = "coins", note: str = "",
                       bots: list[str] | None = None) -> str:
    """The cards' effect on the seats' scores, which the win-share list above leaves out (a card
    may cost every seat 7-10 coins when drawn and move nobody's win share, since it costs them all):
    how many cards move some seat's score, per game where the card is drawn, clearly and by at
    least ``score`` (the smallest difference that matters), and the :data:`SCORE_CARDS` largest
    such effects, each at its seat of largest effect with its simultaneous interval. '' when the
    table has no score columns. ``note``: said after it, where the score intervals hold together
    less often than 95% (:func:`analysis.questions.middle_ages.score_coverage_words`, helper 234 #1).
    ``bots``: the bot at each seat, named beside it where the seats hold different bots."""
    import polars as pl

    need = ("score_when_drawn", "score_when_drawn_low", "score_when_drawn_high", "score_verdict_when_drawn")
    if any(c not in df.columns for c in need) or df.height == 0:
        return ""
    large = df.filter(pl.col("score_verdict_when_drawn") == "clear and large enough to matter")
    cards = df["name"].n_unique()
    if large.height == 0:
        return (f"Scores ({unit}, per game where the card is drawn; {score:g} {unit} matter): no card "
                "moves a seat's score clearly and by that much." + (f" {note}" if note else ""))
    top = (large.with_columns(pl.col("score_when_drawn").abs().alias("_size"))
           .sort(["name", "_size"], descending=[False, True]).unique("name", keep="first", maintain_order=True)
           .sort("_size", descending=True))
    named = "; ".join(f"{r['name']} {r['score_when_drawn']:+.2f} {unit} {_seat(r['seat'], bots)} "
                      f"({r['score_when_drawn_low']:+.2f} to {r['score_when_drawn_high']:+.2f})"
                      for r in top.head(SCORE_CARDS).iter_rows(named=True))
    return (f"Scores ({unit}, per game where the card is drawn; {score:g} {unit} matter; simultaneous 95% "
            f"intervals over every card and seat): {top.height} of the {cards} cards move some seat's "
            f"score clearly and by at least that (event_ablation.csv, columns score_*); the largest: "
            f"{named}." + (f" {note}" if note else ""))


SUMMARY_WIDTH = 100      # the printed summary fits 80 to 100 columns


def _print_summary(parts, width: int | None = None) -> None:
    """A game's printed summary (its report hook's ``printed_summary``: title, table of texts,
    sentences) as tables that wrap their cells rather than cut them ("foun…"), at most
    :data:`SUMMARY_WIDTH` columns wide (``width``: the console's, for tests)."""
    from rich import box
    from rich.console import Console
    from rich.padding import Padding
    from rich.table import Table

    console = Console(width=width) if width else Console()
    if console.width > SUMMARY_WIDTH:
        console = Console(width=SUMMARY_WIDTH)
    for title, df, sentences in parts:
        if df.width:
            t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                      collapse_padding=True)
            for c in df.columns:      # cells wrap at spaces, never cut
                t.add_column(c, overflow="fold", justify="left")
            for row in df.iter_rows():
                t.add_row(*(str(v) for v in row))
            console.print(t)
        else:
            console.print(title)
        for line in sentences:
            console.print(Padding(line, (0, 0, 0, 2)))
        console.print()


def _print_tables(tables: dict, hook) -> None:
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
        df = tables.get(stem)
        if df is None or not cols:
            continue
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
