"""``balance report RUN [RUN …] --out DIR``: the designer report of one or several run directories.

``balance report SWEEP_DIR`` (a directory of ``balance sweep``) writes the sensitivity page and
``balance report TUNE_DIR`` the page of a tune's search instead (:mod:`reports.sweep`).
``balance report --cells RUN …`` (the runs of a panel), a directory of ``cell-*/`` runs (a panel
tune's ``confirmations/trial-N``) or a panel sweep directory writes the page of a panel
(:mod:`reports.panel`).

Thin shell over :func:`reports.build.build_report`: runs of one configuration are pooled, each
further configuration is compared with the first (the baseline). Reports only read, so the
balance questions a run cannot answer are played here first: by default when the baseline's game
plays them for every report (its spec's ``analysis_hooks`` module has ``questions_for_run``:
Médiévallons), and for any game that has them with ``--play-questions`` (its ``questions_command``,
what ``balance questions RUN`` plays: Middle-Ages' event-card ablation too): ``--questions-games
N`` games per question and rules variant (default 10,000, 0 skips them) into a temporary questions
directory beside ``--out``, which the report then reads (and keeps as ``questions/*.csv``) and which
is removed afterwards. A before/after (not ``--side-by-side``) plays them for every further
configuration too, with its own rules and against the baseline's, when the game's player can
compare them (it takes ``against``), each ``--questions-games`` games per question
and rules variant, the progress naming whose questions are played ("Balance questions of b
(after): …"); the page then answers every question for both runs and says what changed, and keeps
the variant's as ``questions/<variant>/*.csv``. With ``--questions DIR`` (played before, for the
baseline) nothing is played, for either run. ``--questions DIR`` reads a directory written before by
``balance questions RUN --out DIR`` instead (it must match the baseline's game and rules). Progress
shows as steps with an estimate of the time left on stderr (:class:`cli.progress.Steps`). Runs of
different player counts are refused as a before/after unless ``--side-by-side`` asks to show them
next to each other. Bad run directories, runs of different games or player counts, a bad
``--questions-games``, a questions directory of other rules and a non-empty ``--out`` without
``--force`` are one-line errors (exit code 2), raised before any game is played.

May import typer, rich, the standard library, :mod:`simcore` (errors, rundir, the registry) and,
lazily inside the command, :mod:`reports` and the game's analysis hook.
"""

from __future__ import annotations

import inspect
import re
import shutil
from pathlib import Path
from typing import Callable, List, Optional

import typer

from simcore.errors import UsageError

from cli.sweep import SMALLEST_HELP

QUESTIONS_GAMES = "10000"     # the questions module's default number of games (not imported here: slow)


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


def questions_player(run: Path, play: bool = False):
    """The function that plays the questions a report shows for ``run``'s game, or None: by
    default the game's ``questions_for_run`` (Médiévallons: played for every report); with
    ``play`` (``--play-questions``) the whole set of ``balance questions`` (``questions_command``:
    Middle-Ages' event ablation too), refused in one line for a game that has none."""
    from simcore import games as registry
    from simcore.rundir import read_meta

    game = read_meta(run).get("game")
    spec = registry.specs().get(game)
    hook = registry.import_hook(spec.analysis_hooks) if spec is not None else None
    if not play:
        return getattr(hook, "questions_for_run", None)
    found = getattr(hook, "questions_command", None)
    if found is None:
        raise UsageError(f"--play-questions: {game} has no played balance questions "
                         f"(Middle-Ages, Médiévallons and Seigneurial have)")
    return found


def make_report(runs: list[Path], out: Path, *, force: bool = False, pdf: bool = False,
                pool: bool = True, questions: Path | None = None, questions_games: int | None = None,
                progress: Callable[..., None] | None = None, side_by_side: bool = False,
                cells: bool = False, smallest: dict | None = None,
                play_questions: bool = False, skill: Path | None = None, svg: bool = False,
                answers: list[str] | None = None, target: list[str] | tuple = ()) -> Path:
    """Play the baseline's questions if its game has them (unless ``questions`` is given or
    ``questions_games`` is 0), in a before/after each further configuration's too when the game's
    player compares them (``against``), then build the report; returns the path of report.html. ``skill``:
    a ``balance skill`` directory whose section the report gets. ``svg``: the figures as SVG too.
    ``target``: the ``--target`` texts, judged on the runs' win shares (seat-balance, role), parsed
    before any work."""
    from analysis.load import check_run
    from reports.build import build_report, plan_groups
    from simcore.atomic import hidden_name
    from simcore.rundir import check_output_dir

    if questions is not None and questions_games is not None:
        raise UsageError("--questions and --questions-games: give one (--questions reads questions "
                         "played before, --questions-games plays them now)")
    if play_questions and questions is not None:
        raise UsageError("--questions and --play-questions: give one (--questions reads questions "
                         "played before, --play-questions plays them now)")
    if play_questions and questions_games == 0:
        raise UsageError("--play-questions with --questions-games 0: nothing would be played")
    if not runs:
        raise UsageError("give at least one run directory")
    runs = [Path(r) for r in runs]
    if (questions_games and not play_questions and (runs[0] / "run.json").is_file()
            and questions_player(runs[0]) is None):
        # as --play-questions and --questions are refused for such a game (review s46 #12: this one
        # was accepted and did nothing)
        from simcore import games as registry
        from simcore.rundir import read_meta

        game = read_meta(runs[0]).get("game")
        spec = registry.specs().get(game)
        hook = registry.import_hook(spec.analysis_hooks) if spec is not None else None
        if getattr(hook, "questions_command", None) is not None:
            raise UsageError(f"--questions-games: a {game} report plays its balance questions only with "
                             f"--play-questions (add it, or leave --questions-games out)")
        raise UsageError(f"--questions-games: {game} has no played balance questions "
                         f"(Middle-Ages, Médiévallons and Seigneurial have)")
    from analysis.panel import is_panel_dir

    if skill is not None:
        from reports.skill import check_skill_dir
        check_skill_dir(skill)
    if skill is not None and (cells or (runs[0] / "panel_sweep.json").is_file() or is_panel_dir(runs[0])
                              or any((runs[0] / f"{k}.json").is_file() for k in ("sweep", "tune"))):
        raise UsageError(f"--skill {skill}: only a run's report takes a skill section (not a panel, "
                         "sweep or tune page)")
    one_panel = (cells or is_panel_dir(runs[0])) and not (runs[0] / "panel_sweep.json").is_file() and \
        not (len(runs) == 2 and not cells and all(is_panel_dir(r) for r in runs))
    if target and not one_panel and ((runs[0] / "panel_sweep.json").is_file() or is_panel_dir(runs[0])
                                     or any((runs[0] / f"{k}.json").is_file() for k in ("sweep", "tune"))):
        raise UsageError(f"--target {target[0]}: judged on a run's or a panel's report (a tune's page "
                         "judges its own targets; a sweep's page or a before/after of two panels takes none)")
    if not cells and len(runs) > 1 and is_panel_dir(runs[0]):
        # a panel beside a run, in this order (the other order is refused by the run check: "a panel,
        # not a run: give a cell"): the same answer either way (the designer review found this one
        # said "the cells were played under 2 different rule sets")
        alone = next((r for r in runs[1:] if not is_panel_dir(r) and (r / "run.json").is_file()), None)
        if alone is not None:
            raise UsageError(f"{runs[0]} is a panel and {alone} one run: compare a panel with a panel "
                             f"(balance report BASE_PANEL VARIANT_PANEL --out DIR) or a run with a run "
                             f"(one of the panel's cells, e.g. {runs[0] / 'cell-0'}, and {alone})")
    if cells or (runs[0] / "panel_sweep.json").is_file() or is_panel_dir(runs[0]):
        if questions is not None or play_questions or questions_games:
            # (review s52 card ablation #4: a panel's page shows no played questions, and both
            # options were ignored without a word)
            given = ("--questions" if questions is not None else "--play-questions" if play_questions
                     else "--questions-games")
            first = runs[0] / "cell-0"
            raise UsageError(f"{given}: a panel's page shows no played balance questions; play them for "
                             f"one of its cells (balance questions {first} --out DIR) and report that "
                             f"cell (balance report {first} --questions DIR --out REP)")
        from reports.build import refuse_unsized_page
        from reports.panel import build_panel_report, build_panel_sweep_report

        # a kind no page here sizes, before anything is read or written (not taken without a word)
        refuse_unsized_page(smallest, "panel sweep" if (runs[0] / "panel_sweep.json").is_file() else
                            "panel before/after" if len(runs) == 2 and not cells and all(map(is_panel_dir, runs))
                            else "panel", _game_of(runs[0]))
        check_output_dir(out, force, inputs=runs, kind="report")
        if cells:
            # the same run (or a copy of it) given twice would be two cells of one run's games, the
            # finding "held in both" (review s47 panels #1), as a before/after refuses it
            from analysis.load import check_distinct_runs, check_run

            check_distinct_runs(runs, [check_run(r, players=False) for r in runs])
        if progress:
            progress("Reading the panel")
        if len(runs) == 2 and not cells and all(is_panel_dir(r) for r in runs):
            # two panels, a baseline's and a variant's: the before/after of every line-up
            from reports.panel import build_panel_comparison_report

            return build_panel_comparison_report(runs[0], runs[1], out, force, smallest=smallest,
                                                 pdf=pdf, svg=svg, progress=progress, answers=answers)
        if (runs[0] / "panel_sweep.json").is_file():
            if len(runs) > 1:
                raise UsageError(f"{runs[0]} is a panel sweep directory: report it on its own")
            return build_panel_sweep_report(runs[0], out, force, smallest=smallest, pdf=pdf, svg=svg,
                                            answers=answers)
        targets = ()
        if target:                    # judged in every cell; a target the game cannot measure fails first
            from cli.skill import check_targets
            from simcore.rundir import read_meta

            first = runs[0] if cells else next((p for p in sorted(runs[0].iterdir()) if (p / "run.json").is_file()),
                                                runs[0])
            targets = check_targets(str(read_meta(first).get("game")), target, "balance report")
        return build_panel_report(runs, out, force, smallest=smallest, pdf=pdf, svg=svg, answers=answers,
                                  targets=targets)
    kind = next((k for k in ("sweep", "tune") if (runs[0] / f"{k}.json").is_file()), None)
    if kind is not None:                      # a sweep's sensitivity page, a tune's search page
        from reports.sweep import build_sweep_report, build_tune_report

        if len(runs) > 1:
            raise UsageError(f"{runs[0]} is a {kind} directory: report it on its own")
        from reports.build import refuse_unsized_page

        # (a tune's page sizes what its targets read: its plan says which)
        refuse_unsized_page(smallest, kind, _game_of(runs[0]),
                            tune=_plan_of(runs[0], "tune.json") if kind == "tune" else None)
        check_output_dir(out, force, inputs=runs, kind="report")   # not inside what it reads
        if progress:
            progress(f"Reading the {kind}")
        if kind == "tune":
            return build_tune_report(runs[0], out, force, pdf=pdf, smallest=smallest, svg=svg)
        return build_sweep_report(runs[0], out, force, pdf=pdf, smallest=smallest, svg=svg, answers=answers)
    if questions is not None:
        from simcore.atomic import read_marker

        marker = read_marker(questions) if Path(questions).is_dir() else None
        if marker is not None and marker["kind"] != "questions":
            raise UsageError(f"--questions {questions}: holds a {marker['kind']}, not balance "
                             "questions (write them with balance questions RUN --out DIR)")
    for r in runs:
        if (r / "skill.json").is_file() and not (r / "run.json").is_file():
            raise UsageError(f"{r} is a balance skill directory: its page is {r / 'report.html'}; "
                             f"to add it to a run's report: balance report RUN --out DIR --skill {r}")
        check_run(r)                                   # a bad run fails before anything is played
    groups = plan_groups(runs, pool, side_by_side)     # so do runs that cannot be compared
    targets = ()
    if target:                                         # and a target the game cannot measure
        from cli.skill import check_targets
        from simcore.rundir import read_meta

        targets = check_targets(str(read_meta(runs[0]).get("game")), target, "balance report")
    if smallest:                                       # and a kind none of its pages sizes
        from reports.build import refuse_unsized_page

        n = int(QUESTIONS_GAMES) if questions_games is None else questions_games
        refuse_unsized_page(smallest, "run" if len(groups) == 1 else "side by side" if side_by_side
                            else "before/after", groups[0].game,
                            _questions_kinds(runs[0], shown=questions is not None or (
                                n > 0 and (play_questions or questions_player(runs[0]) is not None))))
    target = check_output_dir(out, force, inputs=[*runs, *([questions] if questions else []),
                                                  *([skill] if skill else [])], kind="report")
    n = int(QUESTIONS_GAMES) if questions_games is None else questions_games
    play = questions_player(runs[0], play_questions) if questions is None and n > 0 else None
    if play is None:
        return build_report(runs, target, force=force, pdf=pdf, pool=pool, questions=questions,
                            progress=progress, side_by_side=side_by_side, smallest=smallest,
                            skill=skill, svg=svg, answers=answers, targets=targets)
    # a before/after plays the further configurations' questions too, each with its own rules and
    # against the baseline's, when the game's player can compare them (its `against`)
    variants = groups[1:] if not side_by_side and "against" in inspect.signature(play).parameters else []
    labels = [g.label for g in groups]
    tmps = [hidden_name(target, "scratch", "questions")] + \
        [hidden_name(target, "scratch", f"questions-{i + 1}") for i in range(len(variants))]
    try:
        if variants and progress:
            progress(f"Balance questions for {len(variants) + 1} runs, each with its own rules "
                     f"({', '.join(labels[:len(variants) + 1])}): {n:,} games per question and per "
                     f"rules variant each (--questions-games)")
        said = ({"option": "--questions-games"} if "option" in inspect.signature(play).parameters
                else {})      # (an error names the option typed here: review s50 questions #5)
        played = play(runs[0], n, tmps[0], progress=_tagged(progress, labels[0], "before" if variants else ""),
                      smallest=smallest or None, **said)
        others = [play(g.paths[0], n, tmp, progress=_tagged(progress, g.label, "after"),
                       smallest=smallest or None, against=played, **said)
                  for g, tmp in zip(variants, tmps[1:])]
        return build_report(runs, target, force=force, pdf=pdf, pool=pool, questions=played,
                            progress=progress, side_by_side=side_by_side, smallest=smallest,
                            questions_played=True, skill=skill, svg=svg, answers=answers,
                            targets=targets, variant_questions=others or None)
    finally:
        for tmp in tmps:
            shutil.rmtree(tmp, ignore_errors=True)


def _game_of(path: Path) -> str | None:
    """The game of a run, panel, sweep or tune directory, from its run.json or plan (sweep.json,
    tune.json, panel_sweep.json, panel.json) or its first cell's run.json; None when none says."""
    import json

    from simcore.rundir import read_meta

    if (path / "run.json").is_file():
        return read_meta(path).get("game")
    for name in ("sweep.json", "tune.json", "panel_sweep.json", "panel.json"):
        try:
            game = json.loads((path / name).read_text(encoding="utf-8")).get("game")
        except (OSError, ValueError, AttributeError):
            continue
        if game:
            return str(game)
    cell = next((c for c in sorted(path.glob("cell-*")) if (c / "run.json").is_file()), None)
    return read_meta(cell).get("game") if cell is not None else None


def _plan_of(path: Path, name: str) -> dict | None:
    """The plan ``name`` (tune.json) of a directory as a dict, or None when it cannot be read (the
    page's own reading then says why, in one line)."""
    import json

    try:
        plan = json.loads((path / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return plan if isinstance(plan, dict) else None


def _questions_kinds(run: Path, shown: bool) -> tuple[str, ...]:
    """What the played balance questions a run's page shows size (the game's analysis hook's
    ``SMALLEST_KINDS``, as ``balance questions`` takes them); () when none are shown."""
    if not shown:
        return ()
    from simcore import games as registry
    from simcore.rundir import read_meta

    spec = registry.specs().get(read_meta(run).get("game"))
    hook = registry.import_hook(spec.analysis_hooks) if spec is not None and spec.analysis_hooks else None
    return tuple(getattr(hook, "SMALLEST_KINDS", ("share",))) if hook is not None else ()


def _tagged(progress: Callable[..., None] | None, label: str, side: str) -> Callable[[str], None] | None:
    """``progress`` with each played question's step naming the run it is played for ("Balance
    questions of b (after): first player at 2 players (10,000 games)") when a before/after plays
    both runs' ("side" empty: the text as it is)."""
    if progress is None or not side:
        return progress

    def say(text: str) -> None:
        head, sep, rest = str(text).partition(": ")
        progress(f"{head} of {label} ({side}): {rest}" if sep and head.startswith("Balance questions")
                 else f"{label} ({side}): {text}")
    return say


def register(app: typer.Typer) -> None:
    @app.command("report")
    def report(
        runs: List[Path] = typer.Argument(
            ..., help="Run directories (baseline first; same configuration is pooled).", show_default=False),
        out: Path = typer.Option(..., "--out", "-o",
                                 help="Report directory to write (must be empty or new)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out directory."),
        pdf: bool = typer.Option(False, "--pdf", help="Also write report.pdf."),
        svg: bool = typer.Option(
            False, "--svg",
            help="Also write every figure as figures/<name>.svg (vector, for slides and print; the "
                 "page and the PDF use the PNGs)."),
        pool: bool = typer.Option(
            True, "--pool/--no-pool",
            help="Pool runs of the same configuration (default) or keep every directory separate."),
        questions_games: Optional[str] = typer.Option(
            None, "--questions-games", show_default=False,
            help=f"Games per played balance question and per ablation variant (Médiévallons' "
                 f"questions, played for every report, for both runs of a before/after; any game's "
                 f"with --play-questions; default {QUESTIONS_GAMES}; 0 skips them)."),
        play_questions: bool = typer.Option(
            False, "--play-questions",
            help="Play the game's balance questions now, as balance questions RUN does (Middle-Ages: "
                 "the event-card ablation; Médiévallons: first player, card ablation, best of 3), "
                 "--questions-games games each, and show them."),
        questions: Optional[Path] = typer.Option(
            None, "--questions", show_default=False,
            help="Read the played balance questions from this directory (written by balance questions "
                 "RUN --out DIR for the baseline; Middle-Ages: the event ablation) instead of playing "
                 "them."),
        cells: bool = typer.Option(
            False, "--cells",
            help="The runs are the cells of a panel (line-ups and player counts of one game): one "
                 "page with a cell x metric table and whether the finding holds in every cell."),
        side_by_side: bool = typer.Option(
            False, "--side-by-side",
            help="Show the configurations next to each other instead of before/after (runs of "
                 "different player counts)."),
        smallest_difference: Optional[str] = typer.Option(
            None, "--smallest-difference", show_default=False,
            help=SMALLEST_HELP + " Also count=N, a before/after's counts per game (default 0.1 a game for "
                                 "lead changes, 0.01 for reshuffles; e.g. 'count=0.2'); a kind no "
                                 "page of the report sizes is refused." + " Every verdict of the page (seats, strategies, matchups, roles, the "
                                 "before/after, a sweep's effects) is worded by it."),
        skill: Optional[Path] = typer.Option(
            None, "--skill", show_default=False,
            help="A balance skill directory of the same game: add its section (does the seat or "
                 "role advantage persist, grow or vanish as play gets stronger)."),
        target: Optional[List[str]] = typer.Option(
            None, "--target", show_default=False,
            help="A design target judged on each run's (each panel cell's) win shares: met, missed or unclear (the page "
                 "leads with it; targets.csv): seat-balance[:TOL] (every seat within the fair share "
                 "± TOL pp) or role=NAME:SHARE[:TOL] (e.g. role=Seigneur:25%:5), as balance tune "
                 "takes them; repeatable."),
    ) -> None:
        """Write report.html (self-contained), figures/*.png, and optionally report.pdf and figures/*.svg."""
        from analysis.load import parse_smallest_difference

        small = parse_smallest_difference(smallest_difference)
        n_questions = None if questions_games is None else parse_questions_games(questions_games)
        from cli.progress import Steps

        answers: list[str] = []
        from simcore.runner import compile_shown

        # a kernel the played questions compile is said on the step's line (review 270 #3)
        with Steps("report") as steps, compile_shown(steps.compiling):
            path = make_report(runs, out, force=force, pdf=pdf, pool=pool, questions=questions,
                               questions_games=n_questions, progress=steps, side_by_side=side_by_side,
                               cells=cells, smallest=small, play_questions=play_questions,
                               skill=skill, svg=svg, answers=answers, target=target or ())
        from reports.text import without_code_marks

        for line in answers:        # a before/after's answer, not only its page (review L #4)
            typer.echo(without_code_marks(line))        # (`--smallest-difference …` printed literally)
        if answers and (path.parent / "comparison.csv").is_file():
            typer.echo(f"every compared metric: {path.parent / 'comparison.csv'}")
        typer.echo(f"report: {path}")
        if pdf and (path.parent / "report.pdf").is_file():   # never named before (review fx04 #2)
            typer.echo(f"pdf: {path.parent / 'report.pdf'}")
