"""``balance baseline`` and ``balance check``: record a run's win rates, then gate changes on them in CI.

``balance baseline RUN --out FILE`` writes a commented TOML baseline
(:func:`analysis.check.baseline.make_baseline`). ``balance check --baseline FILE`` plays the
configuration the baseline describes in batches and stops as soon as every metric is decided (the
sequential test of :mod:`analysis.check.decision`, played by :func:`analysis.check.play.play_check`);
``--against-rules OLD.toml`` plays the old rules on the same deals and tests the paired differences;
``balance check --baseline FILE RUN`` judges an existing run directory in one look
(:func:`analysis.check.run.check`). It prints the result (:mod:`analysis.check.presentation`) and
exits 0 (pass), 1 (a metric moved beyond its tolerance), 3 (undecided at the maximum number of games),
2 (usage or config error) or 4 (a problem of the machine, :data:`EXIT_MACHINE`); 0, 1 and 3 also
when the reader of stdout left before the report's end (``| head``: :func:`cli.verdict`), the
``--junit``/``--summary`` files written all the same (:func:`cli.show_then_go_on`). Everything is
callable from Python: :func:`run_check`.

``balance baseline --panel NAME --out DIR`` (with ``--rules``/``--set``) records every cell of a
panel (a directory of one baseline per cell, :mod:`analysis.check.panel`), and ``balance check
--baseline DIR`` checks every cell (or ``--panel NAME|FILE``/``--players``/``--lineup``: those
cells) with the chance of a false FAIL split over the cells checked; ``--junit``/``--summary``
write one file for the panel (a test suite, a section, per cell). Every line naming a cell by its
position names its file too ("cell 1 of 3 (cell-0.toml)": the files are numbered from 0). A panel
baseline says its cells on stderr a line each at a terminal, and off one (a CI log) at most a line a
minute, none in the first (:class:`cli.progress.StepLines`); a check's lines (a cell's, and one per
look of its sequential test) are written as it plays, wherever stderr goes.

At a terminal the output is laid out for its width (:func:`print_report`, :func:`print_wrapped`):
the table fitted to it as simulate's and ladder's are (a rich table: a cell wraps inside its
column) and every sentence wrapped at word boundaries under its own indent; piped or in a CI log it
is printed as :func:`analysis.check.presentation.text_report` makes it, one line per sentence.

May import typer, the standard library, :mod:`simcore`, :mod:`cli.sweep` (help texts),
:func:`cli.verdict` (the exit code a closed stdout keeps), :func:`cli.show_then_go_on` (the report
files a closed stdout does not stop), :class:`cli.progress.StepLines` (a panel baseline's
progress) and, lazily inside the commands, rich (the terminal layout), :mod:`analysis` and :mod:`strategies.panels`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer

from simcore.errors import UsageError
from simcore.games import DEFAULT_GAME

from cli import show_then_go_on, verdict
from cli.sweep import LINEUP_HELP, PANEL_HELP, SMALLEST_HELP

#: The kinds of ``--smallest-difference`` a baseline and a check take: a check measures win shares
#: and mean scores only (:meth:`analysis.check.baseline.Baseline.smallest_of`), so ``length`` and
#: ``count`` (a before/after's counts per game) are refused in one line rather than recorded and
#: ignored.
CHECK_SIZES = ("share", "score")
CHECK_SIZED = "balance baseline and balance check"


#: ``balance check``'s exit code for a problem of the machine (a full disk, a file that cannot be
#: read or written, no memory left): not a verdict. Every other command says it with exit 1, which
#: for a check is a regression (review s46 #4: a PASS whose JUnit file met a full disk exited 1, and
#: a CI step reported a regression); 2 stays a usage or config error, 3 undecided.
EXIT_MACHINE = 4


def machine_errors(command):
    """``command`` (a Typer command's function, its signature kept for Typer) with a problem of the
    machine said in one line, ``error: …``, as the command line says it for every command, but
    exiting :data:`EXIT_MACHINE`. A broken pipe is left to the command line (a closed stdout ends
    quietly); ``BALANCE_DEBUG=1`` shows the traceback."""
    import functools
    import os

    @functools.wraps(command)
    def wrapped(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except (OSError, MemoryError) as exc:
            if isinstance(exc, BrokenPipeError) or os.environ.get("BALANCE_DEBUG"):
                raise
            if isinstance(exc, MemoryError):
                line = "out of memory (try fewer games per look: --batch)"
            else:
                from cli import machine_line    # (the standard output named: review s59 #2)

                line = machine_line(exc)
            print("error: " + str(line).replace("\r", "\\r").replace("\n", "\\n"), file=sys.stderr)
            raise SystemExit(EXIT_MACHINE) from None

    return wrapped


def run_check(baseline_path: str | Path, run: str | Path | None = None, *, games: int | None = None,
              rules: str | Path | None = None, against_rules: str | Path | None = None,
              seed: int | None = None, batch: int | None = None, threads: int | None = None,
              alpha: float | None = None, beta: float | None = None, save_run: str | Path | None = None,
              force: bool = False, log=None, settings=(), executor=None, smallest: dict | None = None):
    """Check ``run``, or play the baseline's configuration (:func:`analysis.check.play.play_check`),
    against a baseline file. Returns an :class:`analysis.check.decision.CheckResult` (``.exit_code``,
    ``.verdict``, reports). ``save_run`` keeps the games the check played as a run directory;
    ``settings`` (``--set``) change the rules being checked; ``executor`` (a
    :class:`simcore.cluster.Cluster`) plays the games on Dask."""
    from analysis.check.baseline import check_settings, load_baseline
    from analysis.check.run import check
    from analysis.load import check_run
    from simcore.options import check_alpha, check_common

    base = load_baseline(baseline_path)
    if smallest:                  # --smallest-difference: over the baseline's [smallest_difference]
        base.smallest = {**base.smallest, **smallest}
    # Everything is checked before a game is played: settings, seeds, threads, the run, the rules.
    check_alpha(alpha)
    check_settings(base.alpha if alpha is None else alpha, base.seed_offset, {},
                   base.beta if beta is None else beta)
    if run is not None:
        given = [o for o, v in (("--games", games), ("--rules", rules), ("--against-rules", against_rules),
                                ("--seed", seed), ("--batch", batch), ("--save-run", save_run),
                                ("--set", settings or None), ("--workers/--scheduler", executor))
                 if v is not None]
        if given:
            raise UsageError(f"{', '.join(given)}: only for the run the check plays itself "
                             "(leave out RUN, or leave out these options)")
        check_run(run)
        return check(base, run, alpha=alpha, beta=beta)
    from analysis.check.play import play_check

    check_common(seed=seed, threads=threads)
    announce = announce_line(base, rules, against_rules, settings)
    return play_check(base, games=games, rules=rules, against_rules=against_rules, seed=seed, batch=batch,
                      threads=threads, alpha=alpha, beta=beta, save_run=save_run, force=force, log=log,
                      settings=settings, announce=announce, executor=executor)


def announce_line(base, rules=None, against_rules=None, settings=()) -> str:
    """The first line a played check prints: what it plays. It names the rules as checked, with
    every ``--set`` (revF #4: "with rules default" was printed for ``--set
    effects.caserne_payment=4``, the rules the baseline measured, not those played)."""
    # the game's title and "the rules shipped with the toolkit", not the game's and the rules' ids
    # (review C #8)
    shipped = rules is None and str(base.rules) == "default"
    where = ("the rules shipped with the toolkit" if shipped else
             f"rules {rules if rules is not None else base.rules}")
    if settings:
        where += " with --set " + ", ".join(getattr(s, "text", str(s)) for s in settings)
    vs = f" against {against_rules} on the same deals" if against_rules is not None else ""
    bots = list(base.strategies)
    # the line-up seat by seat (review T #4: "greedy,balanced" for greedy,balanced,balanced,balanced
    # lost the seats), or "4×balanced" when every seat holds the same bot
    lineup = f"{len(bots)}×{bots[0]}" if bots and len(set(bots)) == 1 else ",".join(bots)
    return (f"playing {base.title} ({base.players} players, {lineup}) "
            f"with {where}{vs}, in batches until every metric is decided …")


def _parse_tolerance(text: str, option: str) -> float:
    """``--score-tolerance``: a number > 0 in the game's score unit."""
    from simcore.options import parse_tolerance

    return parse_tolerance(text, option)


def _parse_share_tolerance(text: str) -> float:
    """``--tolerance``, in percentage points, spelt as ``--smallest-difference win_share=`` takes
    it (``2pp``, ``2%`` or ``2``; review P #9: ``2pp`` was "not a number"), by the same reader
    (:func:`analysis.load.share_points`), its errors said of ``--tolerance``."""
    from analysis.load import share_points

    given = str(text).strip()
    if not given or "," in given or "=" in given:
        raise UsageError(f"--tolerance {text}: expected one win-share change in percentage points, "
                         "e.g. 2pp, 2% or 2")
    return share_points(given, f"--tolerance {given}", limit="a number > 0, below 100 pp")


def _baseline_too_small(exc, tolerance: str | None, tol: float | None):
    """The baseline-too-small line (:class:`analysis.check.decision.BaselineTooSmall`, which names
    the unit) with, for a win share whose ``--tolerance`` was given below 1 pp, how a designer who
    meant a fraction writes it (review P #9: ``--tolerance 0.02`` meant 2%)."""
    from analysis.check.measure import KINDS

    if tolerance is None or tol is None or KINDS[exc.metric].unit != "%" or tol >= 1:
        return exc
    # the fraction's reading only where it is a plausible tolerance (review C #3: "for ±50 pp
    # give --tolerance 50pp" after --tolerance 0.5)
    hint = f" (for ±{100 * tol:g} pp give --tolerance {100 * tol:g}pp)" if 100 * tol <= 10 else ""
    return UsageError(f"{exc}; --tolerance counts percentage points: --tolerance {tolerance} is "
                      f"±{tol:g} pp{hint}")


def _score_smallest() -> str:
    """Every game's smallest score difference that matters, from the specs (the default
    ``--score-tolerance``); from the specs alone (the help text is built at every start: the
    analysis modules, which import polars, are not)."""
    from simcore import games as registry

    return "; ".join(f"{s.name} {s.smallest('score'):g}{'' if s.score_unit.startswith('%') else ' '}{s.score_unit}"
                     for s in registry.specs().values())


def _tolerances(tol: float | None, tol_s: float | None) -> dict[str, float]:
    """The tolerances given on the command line, by kind (left out: the default, the smallest
    difference that matters, :func:`analysis.check.baseline.default_tolerances`)."""
    out = {}
    if tol is not None:
        out.update(seat_win_share=tol, strategy_win_share=tol, role_win_share=tol)
    if tol_s is not None:
        out["seat_mean_score"] = tol_s
    return out


def _panel_baseline_command(panel_dir: Path) -> str:
    """The `balance baseline --panel …` command that plays a baseline of the panel run in
    ``panel_dir`` (its panel.json: the panel's name or file, game, seed, rules and --set), for the
    line refusing a panel given as RUN; a generic one when panel.json cannot be read."""
    import json
    import shlex

    from strategies.panels import Panel, panel_options

    try:
        meta = json.loads((panel_dir / "panel.json").read_text(encoding="utf-8"))
        panel, game = Panel.from_json(meta["panel"]), meta["game"]
        # (--players/--lineup for a panel made of them: "--panel command-line" named a panel no
        # command knows, review s61 #2; not the panel's --games: a baseline plans its own, and a
        # panel played for a report is often too small for a gate's tolerance)
        chosen = panel_options(panel)
        if chosen is None:
            raise ValueError("no options make this panel")
        words = ["balance", "baseline", *chosen, "--game", game, "--seed", f"{int(meta['seed'])}"]
        rules = Path(str(meta.get("rules_name") or ""))
        if rules.name and not (rules.parent.parent.name == "configs" and rules.name == "rules.toml"):
            words += ["--rules", str(rules)]          # a rules file of the designer's
        for setting in meta.get("settings") or []:
            words += ["--set", str(setting)]
        return " ".join(shlex.quote(w) for w in words) + " --out DIR"
    except (OSError, ValueError, KeyError, TypeError, UsageError):
        return "balance baseline --panel NAME (or --lineup …) --out DIR"


def _panel_kind(panel_dir: Path) -> str | None:
    """The ``kind`` panel.json in ``panel_dir`` records ("panel": simulate --panel; "panel-baseline":
    balance baseline --panel), None when unreadable."""
    import json

    try:
        meta = json.loads((panel_dir / "panel.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return meta.get("kind") if isinstance(meta, dict) else None


def _print_tolerances(path, cells: list[str] | None = None) -> None:
    """On stderr (stdout stays the path written): the tolerances a baseline file holds, against
    the smallest difference that matters (revA #15), as a check will read them, with the caveat
    when the baseline's own error limits a check's power (revH #2). ``cells``: the files of a
    panel baseline in directory ``path`` (the same settings in each; the caveat names the cells)."""
    from analysis.check.baseline import load_baseline, power_caveat, tolerance_summary

    if cells:
        named = [(name, load_baseline(Path(path) / name)) for name in cells]
    else:
        named = [("", load_baseline(path))]
    written = named[0][1]
    kinds = list(dict.fromkeys(m.metric for m in written.metrics))
    print(tolerance_summary(written.game, written.tolerance, written.smallest, kinds, written.beta,
                            caveat=power_caveat(named)), file=sys.stderr)


def _terminal():
    """A rich console on stdout when stdout is a terminal (its width known), else None."""
    from rich.console import Console

    console = Console(highlight=False)
    return console if console.is_terminal else None


def wrapped(line: str, width: int, hang: int = 0) -> list[str]:
    """``line`` wrapped at word boundaries to ``width`` (review P #2: the sentences broke
    mid-word at 80 columns): its continuation lines start under the line's text, after its indent
    and its mark (``- ``, ``? ``, ``! ``, ``note: ``), or ``hang`` spaces in for a line without an
    indent. A word longer than the width is kept whole."""
    import re
    import textwrap

    lead = re.match(r"( *)((?:[-?!] |note: )?)", line).group(0)
    rest = " " * (len(lead) if lead else hang)
    return textwrap.wrap(line, width=max(width, len(rest) + 20), subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False) or [""]


def print_wrapped(console, lines: list[str], hang: int = 0) -> None:
    """Print ``lines`` on ``console``, each :func:`wrapped` to the console's width."""
    from rich.text import Text

    out = [w for line in lines for w in wrapped(line, console.width, hang)]
    console.print(Text("\n".join(out)), soft_wrap=True)


def fit_widths(natural: list[int], least: list[int], room: int) -> list[int]:
    """Column widths that fit ``room`` characters: each column's ``natural`` width when they fit,
    else the widest column narrowed first, one character at a time, none below its ``least``
    (rich's own fitting narrows the widest columns below their longest word, which it then folds
    or overflows: "pass (beyon"); when even those do not fit (a narrow terminal), the widest go
    below them and their cells fold, nothing cut off."""
    widths = list(natural)
    for floor in (least, [1] * len(widths)):
        while sum(widths) > room:
            shrink = [i for i, w in enumerate(widths) if w > floor[i]]
            if not shrink:
                break
            widths[max(shrink, key=lambda i: widths[i])] -= 1
    return widths


def print_report(console, res) -> None:
    """A check's output laid out for ``console`` (:func:`analysis.check.presentation.report_parts`):
    the lines above and under the table :func:`wrapped`, the table a rich table that fits the
    console's width (a cell wraps at its spaces; one too long for its column is folded, never cut
    short), indented as the plain table is."""
    from rich.padding import Padding
    from rich.table import Table
    from rich.text import Text

    from analysis.check.presentation import LEFT_COLUMNS, report_parts

    above, head, rows, below = report_parts(res)
    print_wrapped(console, [*above, ""])
    columns = [[name, *(row[i] for row in rows)] for i, name in enumerate(head)]
    natural = [max(map(len, cells)) for cells in columns]
    # a column is not made narrower than its longest word (an interval, "undecided"), so that
    # "(113.45–114.55)" is not folded mid-number; a change ("+3.94 coins") and a tolerance stay
    # whole on their line
    least = [natural[i] if head[i] in ("diff", "tolerance") else
             max(len(w) for cell in cells for w in cell.split() or [""])
             for i, cells in enumerate(columns)]
    gap, indent = 2, 2
    widths = fit_widths(natural, least, console.width - indent - gap * (len(head) - 1))
    table = Table(box=None, pad_edge=False, padding=(0, gap // 2), show_edge=False)
    for i, (name, width) in enumerate(zip(head, widths)):
        table.add_column(name, justify="left" if i in LEFT_COLUMNS else "right", overflow="fold",
                         width=width)
    for row in rows:
        table.add_row(*(Text(c, style="bold" if c == "FAIL" else "") for c in row))
    console.print(Padding(table, (0, 0, 0, 2)))
    if below:
        print_wrapped(console, below)


def _is_file(path) -> bool:
    """An existing regular file (a name the system refuses, too long or such, is none: the output
    check names what is wrong with it)."""
    try:
        return Path(path).is_file()
    except OSError:
        return False


def _same_file(a, b) -> bool:
    """Whether two paths name one file (through links, or a file not written yet)."""
    import os

    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except OSError:
        pass
    return os.path.realpath(a) == os.path.realpath(b)


def _overlap(a, b) -> str | None:
    """How path ``a`` meets path ``b``: "the same path as", "inside", "around" (``b`` lies inside
    ``a``), or None. Through links and names not written yet (:func:`os.path.realpath`)."""
    import os

    ra, rb = os.path.realpath(a), os.path.realpath(b)
    if ra == rb or _same_file(a, b):
        return "the same path as"
    if ra.startswith(rb.rstrip(os.sep) + os.sep):
        return "inside"
    if rb.startswith(ra.rstrip(os.sep) + os.sep):
        return "around"
    return None


def _check_save_run_apart(junit, summary, save_run) -> None:
    """``--junit``/``--summary`` and ``--save-run`` compared before anything is claimed or played
    (review s46 #2: the same path printed PASS after every game, then "is a directory", exit 2; a
    report file inside the save-run directory made its lock files there first, and the save-run
    check then refused "directory exists and is not empty" about a directory that did not
    exist)."""
    if save_run is None:
        return
    for option, path in (("--junit", junit), ("--summary", summary)):
        if path is None or path == "-":
            continue
        how = _overlap(path, save_run)
        if how is None:
            continue
        said = {"the same path as": f"is the same path as --save-run {save_run}",
                "inside": f"is inside --save-run {save_run}, the run directory the check replays its games into",
                "around": f"is a folder above --save-run {save_run}, and a file is written there"}[how]
        raise UsageError(f"{option} {path}: {said}; give the {option[2:]} file a path of its own, "
                         "outside that directory")


#: Why ``-`` (standard output, as ``export --out -``, ``replay --out -`` and ``check --summary -``
#: take it) is refused where an output cannot go there (review s62 #4: each wrote a file named "-").
NO_STDOUT = {
    "--junit": "standard output carries the check's verdict and table, which would make the XML "
               "unreadable; give a file name (e.g. --junit check.xml; --summary - writes the "
               "Markdown summary to standard output)",
    "baseline --out": "a baseline is a file a check reads back (its commands name it, and the rules "
                      "of a run played with --set are written beside it); give a file name, e.g. "
                      "configs/baselines/NAME.toml (with --panel, a directory)",
}


def _refuse_stdout(option: str, path, why: str) -> None:
    """One line refusing ``-`` (standard output) for ``option``, saying why (:data:`NO_STDOUT`)."""
    if path is not None and str(path) == "-":
        raise UsageError(f"{option} -: {NO_STDOUT[why]}")


def _check_report_files(junit, summary, force: bool, read: list, save_run=None) -> None:
    """Where ``--junit`` and ``--summary`` write, checked before the check plays (for one baseline
    file or a panel: ``read`` are the inputs they must not overwrite; ``save_run``: the directory
    the check's games are saved in, which neither may be nor lie in). ``--summary -`` is standard
    output; ``--junit -`` is refused (:data:`NO_STDOUT`)."""
    from simcore.atomic import check_output_file

    _refuse_stdout("--junit", junit, "--junit")
    _check_save_run_apart(junit, summary, save_run)
    if junit is not None and summary is not None and _same_file(junit, summary):
        # (review AB #1: the Markdown summary appended to the JUnit XML, which no longer parsed)
        raise UsageError(f"--summary {summary}: the same file as --junit {junit}; give each its own "
                         "file (the JUnit report is XML, the summary Markdown)")
    if junit is not None:
        from analysis.check.presentation import JUNIT_FILE, JUNIT_SIGN

        if (not force and _is_file(junit) and not any(_same_file(junit, r) for r in read if r is not None)
                and JUNIT_FILE.problem(Path(junit)) is not None):
            # say at once that --force will not help (review AB #9: "file exists (use --force …)",
            # then with --force a second refusal)
            from simcore.atomic import what_file

            raise UsageError(f"--junit {junit}: {what_file(Path(junit))} that balance check did not "
                             "write; it is never replaced, even with --force: give another name")
        check_output_file(junit, force, "--junit", inputs=read, own_sign=JUNIT_SIGN,
                          replaces=JUNIT_FILE)
    if summary is not None and summary != "-":           # ("-": standard output)
        from simcore.atomic import MARKDOWN_FILE, check_output_path, reserve_output

        # checked now, locked only around the append (simcore.atomic.append_text: review s46 #9,
        # a second check appending to the same $GITHUB_STEP_SUMMARY stopped at once while the
        # first played); counted as not yet written, so a closed stdout still says so
        check_output_path(summary, kind="file", force=False, option="--summary", inputs=read,
                          append=True, replaces=MARKDOWN_FILE, claim=False)
        reserve_output(summary)


def register(app: typer.Typer) -> None:
    @app.command("baseline")
    def baseline(
        run: Optional[Path] = typer.Argument(None, help="Run directory to measure (or --panel).",
                                             show_default=False),
        # a str, not a Path: Path("b/") drops the slash that says a directory was named, which the
        # output check refuses for a file only if it sees it (as balance export)
        out: str = typer.Option(..., "--out", "-o", help="Baseline file to write, e.g. "
                                "configs/baselines/NAME.toml.", show_default=False, metavar="<path>"),
        force: bool = typer.Option(False, "--force", help="Replace an existing --out baseline (never a file of another kind)."),
        tolerance: Optional[str] = typer.Option(
            None, "--tolerance", help="Tolerance of win shares (seat, strategy and role), ± percentage "
            "points: 2pp, 2% or 2 (default: the smallest win-share difference that matters, 1 pp).",
            show_default=False),
        score_tolerance: Optional[str] = typer.Option(
            None, "--score-tolerance", help="Tolerance of mean scores per seat, ± in the game's "
            "score unit (default: the game's smallest score difference that matters: "
            + _score_smallest() + ").", show_default=False),
        alpha: str = typer.Option("0.05", "--alpha", help="Chance of a false FAIL (see docs/ci.md).",
                                  metavar="FLOAT"),
        beta: str = typer.Option("0.05", "--beta", metavar="FLOAT",
                                 help="Chance that a change of twice the tolerance PASSES."),
        check_games: Optional[str] = typer.Option(
            None, "--check-games", help="Most games a check plays (default: from a power calculation)."),
        smallest_difference: Optional[str] = typer.Option(
            None, "--smallest-difference", help=SMALLEST_HELP + " Recorded in the baseline; check uses it."),
        seed_offset: Optional[int] = typer.Option(
            None, "--seed-offset", show_default=False,
            help="A check plays seed = the run's seed + this (not 0; default 1, or -1 for a run "
                 "played with the largest seed, 2**63 - 1)."),
        panel: Optional[str] = typer.Option(None, "--panel", help="Record every cell of this panel "
                                            "(played here): --out is then a directory. " + PANEL_HELP),
        lineup: Optional[list[str]] = typer.Option(None, "--lineup", help=LINEUP_HELP),
        players: Optional[str] = typer.Option(None, "--players", "-p", help="With --panel or --lineup: "
                                              "the player counts (3,4,5)."),
        game: Optional[str] = typer.Option(None, "--game", "-g", help="With --panel: which game "
                                           f"(default {DEFAULT_GAME}).", show_default=False),
        games: Optional[str] = typer.Option(None, "--games", "-n", help="With --panel: games per "
                                            "cell (default 2e5).", show_default=False),
        seed: Optional[int] = typer.Option(None, "--seed", help="With --panel: the seed of every "
                                           "cell's run (default 2024).", show_default=False),
        rules: Optional[Path] = typer.Option(None, "--rules", help="With --panel: rules TOML (default: "
                                             "the shipped rules)."),
        settings: Optional[list[str]] = typer.Option(
            None, "--set", help="With --panel: change one rule setting of the rules every cell plays: "
                                "PATH=VALUE (income.palais.base=4); repeatable."),
    ) -> None:
        """Record what RUN measured, how to reproduce it and the accepted tolerances (a TOML file);
        with --panel, every cell of a panel (a directory of one baseline per cell)."""
        from analysis.check.baseline import make_baseline
        from simcore.options import check_alpha
        from simcore.runner import parse_games

        _refuse_stdout("--out", out, "baseline --out")
        # read as text, so that an error repeats what was typed (--alpha 2, not 2.0: revC #10)
        alpha, beta = check_alpha(alpha), check_alpha(beta, "--beta")
        tol = _parse_share_tolerance(tolerance) if tolerance is not None else None
        tol_s = (_parse_tolerance(score_tolerance, "--score-tolerance")
                 if score_tolerance is not None else None)
        given_tol = _tolerances(tol, tol_s)
        from analysis.load import parse_smallest_difference, refuse_unsized

        small = parse_smallest_difference(smallest_difference)
        refuse_unsized(small, CHECK_SIZES, CHECK_SIZED)
        n = parse_games(check_games, "--check-games") if check_games is not None else None
        if panel is not None or lineup:
            if run is not None:
                raise UsageError("--panel: the panel's cells are played here; leave out RUN")
            game = DEFAULT_GAME if game is None else game
            games = "2e5" if games is None else games
            seed = 2024 if seed is None else seed
            from analysis.check.panel import record_panel_baseline
            from simcore.config import parse_settings
            from simcore.options import check_seed
            from strategies.panels import from_options

            check_seed(seed)
            from cli.progress import StepLines

            the_panel = from_options(game, panel=panel, players=players, lineups=lineup)
            # a line per cell on a terminal; off one (a CI log) a line at most a minute, none in
            # the first (cli.progress.StepLines: session 63, the "interrupted" line came after
            # the cells' lines)
            with StepLines("baseline") as log:
                path = record_panel_baseline(
                    the_panel, out, games=parse_games(games), seed=seed, rules=rules,
                    settings=parse_settings(settings), force=force,
                    tolerance=given_tol, alpha=alpha, beta=beta, check_games=n,
                    log=log, seed_offset=seed_offset, smallest=small)
            typer.echo(str(path))
            _print_tolerances(path, [f"cell-{k}.toml" for k in range(len(the_panel))])
            return
        if run is None:
            raise UsageError("give a run directory to measure, or --panel NAME")
        if settings or rules is not None:
            raise UsageError(f"{'--set' if settings else '--rules'}: only with --panel (a run's rules "
                             "are the ones it was played with)")
        given = [o for o, v in (("--game", game), ("--games", games), ("--seed", seed),
                                ("--players", players)) if v is not None]
        if given:
            raise UsageError(f"{', '.join(given)}: only with --panel or --lineup (a baseline of RUN "
                             "records the game, games, seed and players it was played with)")
        from analysis.check.decision import BaselineTooSmall
        from analysis.panel import is_panel_dir

        if is_panel_dir(run):
            # a panel's cells are runs; the panel itself gets its baseline played by --panel (its
            # games planned for a check of every cell): the shared "give a cell … or balance report"
            # named no way to a panel baseline
            from simcore.atomic import show

            if _panel_kind(run) == "panel-baseline":
                # a panel baseline already: its cells' runs are DIR/runs/cell-K (review s61 #2: "give
                # one cell, e.g. DIR/cell-0", a path that does not exist)
                cell = next((c for c in sorted((run / "runs").glob("cell-*")) if (c / "run.json").is_file()),
                            run / "runs" / "cell-0")
                raise UsageError(f"{show(run)}: a panel baseline (balance baseline --panel wrote it), not a "
                                 f"run: balance check --baseline {show(run)} checks against it; or give "
                                 f"one cell's run, e.g. {show(cell)}")
            cell = next((c for c in sorted(run.glob("cell-*")) if (c / "run.json").is_file()), run / "cell-0")
            raise UsageError(f"{show(run)}: a panel, not a run: a panel baseline is played by "
                             f"{_panel_baseline_command(run)} (one baseline per cell, its games planned "
                             f"for a check of every cell: docs/ci.md §6); or give one cell, e.g. {show(cell)}")
        try:
            path = make_baseline(run, out, force=force, tolerance=given_tol,
                                 alpha=alpha, check_games=n, seed_offset=seed_offset, beta=beta,
                                 smallest=small)
        except BaselineTooSmall as exc:
            raise _baseline_too_small(exc, tolerance, tol) from None
        typer.echo(str(path))
        from analysis.check.baseline import load_baseline
        from simcore.rundir import read_meta

        played = read_meta(run).get("settings") or []
        named = load_baseline(path).rules_path() if played else None     # the file the baseline names
        if named is not None and named.is_file():
            # (the baseline names them: a check plays these rules, and gates an edit of that file)
            typer.echo(f"rules measured (with --set {' '.join(played)}): {named} "
                       "(a check plays them; edit that file, or point the baseline's rules at yours, "
                       "for a check to gate a change)")
        _print_tolerances(path)

    @app.command("check")
    @machine_errors
    def check(
        run: Optional[Path] = typer.Argument(
            None, help="Run directory to check (default: play the baseline's configuration now).",
            show_default=False),
        baseline: Path = typer.Option(
            ..., "--baseline", "-b", show_default=False,
            help="Baseline TOML file, or a panel baseline directory (balance baseline --panel or "
                 "--lineup)."),
        games: Optional[str] = typer.Option(
            None, "--games", "-n", help="Most games to play; the check stops as soon as every metric is "
            "decided (default: the baseline's \\[check] games, else a power calculation)."),
        rules: Optional[Path] = typer.Option(
            None, "--rules", help="Rules TOML to play (default: the rules file the baseline names)."),
        against_rules: Optional[Path] = typer.Option(
            None, "--against-rules", help="Paired mode: play these old rules on the same deals and test "
            "new − old (far fewer games)."),
        batch: Optional[int] = typer.Option(None, "--batch", help="Games per look (default: the "
                                            "baseline's \\[check] batch, else about games / 50)."),
        seed: Optional[int] = typer.Option(
            None, "--seed", help="Seed to play (default: the baseline's seed + \\[check] seed_offset)."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all)."),
        alpha: Optional[str] = typer.Option(None, "--alpha", metavar="FLOAT",
                                            help="Chance of a false FAIL (default: the baseline's)."),
        beta: Optional[str] = typer.Option(
            None, "--beta", metavar="FLOAT",
            help="Chance that twice the tolerance PASSES (default: the baseline's)."),
        junit: Optional[str] = typer.Option(None, "--junit", help="Write JUnit XML (one testcase per metric; "
                                            "for a panel, one test suite per cell).",
                                            metavar="<path>"),
        summary: Optional[str] = typer.Option(
            None, "--summary", help="Append a Markdown summary (e.g. \"$GITHUB_STEP_SUMMARY\"; - prints it).",
            metavar="<path>"),
        settings: Optional[list[str]] = typer.Option(
            None, "--set", help="Change one rule setting of the rules the check plays: PATH=VALUE "
                                "(income.palais.base=4); repeatable."),
        save_run: Optional[Path] = typer.Option(None, "--save-run", help="Keep the games the check "
                                                "played as a run directory (replayed there)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --save-run directory this toolkit wrote. A --junit file balance check wrote is replaced without it; one it did not write never is."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print only the verdict line."),
        smallest_difference: Optional[str] = typer.Option(
            None, "--smallest-difference",
            help=SMALLEST_HELP.replace("Default: the game's own",
                                       "Default: the baseline's \\[smallest_difference], else the game's own")),
        workers: Optional[int] = typer.Option(None, "--workers", help="Play the check's run on a local Dask cluster of N workers."),
        scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Play the check's run on a running Dask scheduler (docs/cluster.md)."),
        allow_oversubscribe: bool = typer.Option(False, "--allow-oversubscribe", help="With --workers: allow more workers than cores (up to 8 per core; each worker is a process with its own memory)."),
        panel: Optional[str] = typer.Option(
            None, "--panel", help="With --baseline DIR (a panel baseline): check these cells of it "
            "(default: every recorded cell); the chance of a false FAIL is split over the cells "
            "checked. " + PANEL_HELP),
        lineup: Optional[list[str]] = typer.Option(None, "--lineup", help=LINEUP_HELP),
        players: Optional[str] = typer.Option(None, "--players", "-p", help="With --baseline DIR: the "
                                              "player counts to check (3,4,5)."),
        # options of balance baseline, given to check by mistake: said so (review P #9: click
        # offered "--force" for --tolerance); hidden from the help
        tolerance: Optional[str] = typer.Option(
            None, "--tolerance", hidden=True, help="Refused: an option of balance baseline."),
        score_tolerance: Optional[str] = typer.Option(
            None, "--score-tolerance", hidden=True, help="Refused: an option of balance baseline."),
    ) -> None:
        """Compare win shares and scores with a baseline, playing until every metric is decided: exit 0
        pass, 1 regression, 3 undecided at the maximum number of games, 2 usage error, 4 a problem of
        the machine (a full disk)."""
        for option, given in (("--tolerance", tolerance), ("--score-tolerance", score_tolerance)):
            if given is not None:
                raise UsageError(f"{option} is an option of balance baseline: a check reads the "
                                 f"tolerances of the baseline file it is given ([tolerance], or a "
                                 f"metric's own tolerance = line); edit them there, or record the "
                                 f"baseline again with balance baseline {option} {given}")
        from analysis.check.panel import check_panel, is_panel_baseline
        from analysis.check.presentation import status_line, text_report, write_reports
        from simcore.options import check_alpha
        from simcore.runner import parse_games

        # read as text, so that an error repeats what was typed (--alpha 2, not 2.0: revC #10)
        alpha, beta = check_alpha(alpha), check_alpha(beta, "--beta")

        if batch is not None:         # the same words whether the baseline is a file or a panel
            from analysis.check.play import check_batch

            check_batch(batch, 1, paired=against_rules is not None)
        if baseline.is_dir() and not is_panel_baseline(baseline) \
                and any(baseline.glob("cell-*.toml")):
            raise UsageError(f"--baseline {baseline}: an unfinished panel baseline (cell baselines "
                             "but no panel.json: balance baseline --panel stopped before the end); "
                             "remove it and record the panel again")
        if panel is not None or lineup or players is not None:
            if not is_panel_baseline(baseline):
                # name the option typed (the designer review: --players 3 was blamed on --panel)
                typed = "--panel" if panel is not None else "--lineup" if lineup else "--players"
                raise UsageError(f"{typed}: picks cells of a panel baseline, and --baseline {baseline} is "
                                 "one run's (a check plays its own configuration; a panel baseline is "
                                 "recorded with balance baseline --panel NAME --out DIR)")
        if is_panel_baseline(baseline):
            given = [o for o, v in (("RUN", run), ("--against-rules", against_rules),
                                    ("--save-run", save_run)) if v is not None]
            if given:
                raise UsageError(f"--baseline {baseline} (a panel): {', '.join(given)} "
                                 f"{'is' if len(given) == 1 else 'are'} for one baseline file; give "
                                 f"--baseline {baseline / 'cell-K.toml'} (one cell's, as the check "
                                 "lines name it) to check that cell alone, at its own alpha instead of "
                                 "the panel's split")
            log = None if quiet else (lambda msg: print(msg, file=sys.stderr))
            from analysis.check.panel import read_panel_baseline
            from simcore.config import parse_settings
            from simcore.options import check_common
            from strategies.panels import from_options, parse_players

            from analysis.load import parse_smallest_difference, refuse_unsized
            from simcore.cluster import executor_for

            check_common(seed=seed, threads=threads)
            small = parse_smallest_difference(smallest_difference)
            refuse_unsized(small, CHECK_SIZES, CHECK_SIZED)
            wanted = None
            if panel is not None or lineup or players is not None:
                recorded, _ = read_panel_baseline(baseline)
                wanted = (from_options(recorded.game, panel=panel, players=players, lineups=lineup)
                          if panel is not None or lineup else
                          recorded.only_players(parse_players(players)))
            n = parse_games(games) if games is not None else None
            sets = parse_settings(settings)
            _check_report_files(junit, summary, force, [baseline, *(p for p in (rules,) if p)])
            with executor_for(workers, scheduler, threads=threads, quiet=quiet,
                              allow_oversubscribe=allow_oversubscribe) as executor:
                pc = check_panel(baseline, panel=wanted, games=n, rules=rules, settings=sets,
                                 alpha=alpha, beta=beta, threads=threads, log=log,
                                 executor=executor, seed=seed, batch=batch, smallest=small)
            # --junit: one test suite per cell, a test case per cell and metric; --summary: a
            # section per cell (analysis.check.panel.write_panel_reports)
            from analysis.check.panel import panel_lines, write_panel_reports

            # the panel's verdict and what the rules change first; --quiet: that line alone. Shown
            # before the report files are written, so that an interruption while they are still
            # says the verdict (review C #5)
            lines = panel_lines(pc, quiet=quiet)
            verdict(pc.exit_code)     # a reader leaving the lines (`| head`) keeps it (session 60 #1)
            console = _terminal()

            def show_panel() -> None:
                if console is None:
                    typer.echo("\n".join(lines))
                else:           # a cell's line wraps 2 spaces in: where the next cell starts shows
                    print_wrapped(console, lines, hang=2)

            show_then_go_on(show_panel)     # a reader gone (`| true`) still gets the report files
            write_panel_reports(pc, junit, summary, force=force)
            if pc.exit_code:
                raise SystemExit(pc.exit_code)
            return

        from simcore.config import parse_settings

        from analysis.load import parse_smallest_difference, refuse_unsized

        small = parse_smallest_difference(smallest_difference)
        refuse_unsized(small, CHECK_SIZES, CHECK_SIZED)
        n = parse_games(games) if games is not None else None
        sets = parse_settings(settings)
        read = [baseline, *(p for p in (run, rules) if p is not None)]
        _check_report_files(junit, summary, force, read, save_run)
        log = None if quiet else (lambda msg: print(msg, file=sys.stderr))
        from simcore.cluster import executor_for

        with executor_for(workers, scheduler, threads=threads, quiet=quiet,
                      allow_oversubscribe=allow_oversubscribe) as executor:
            res = run_check(baseline, run, games=n, rules=rules, against_rules=against_rules,
                            seed=seed, batch=batch, threads=threads, alpha=alpha, beta=beta,
                            save_run=save_run, force=force, log=log, settings=sets,
                            executor=executor, smallest=small)
        # the verdict first, then the report files: an interruption while they are written
        # still leaves the verdict said (review C #5), and its line names what was written
        verdict(res.exit_code)      # a reader leaving the report (`| head`) keeps it (session 60 #1)
        console = _terminal()

        def show() -> None:
            if console is None:     # piped, a CI log: one line per sentence
                typer.echo(status_line(res) if quiet else text_report(res).rstrip())
            elif quiet:
                print_wrapped(console, [status_line(res)])
            else:
                print_report(console, res)

        # a reader gone before the first line (`| true`) still gets the report files, and the
        # verdict's exit code (session 60 review: 141 and no --junit file)
        show_then_go_on(show)
        write_reports(res, junit, summary, force=force)
        if res.exit_code:
            # SystemExit, not typer.Exit: click returns (not raises) typer.Exit's code when
            # standalone_mode is off, and cli._run would then report 0.
            raise SystemExit(res.exit_code)
