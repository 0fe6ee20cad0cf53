"""``build_report``: the designer report of one or several run directories, written atomically.

:func:`build_report` analyses the runs (:func:`analysis.analyse`; runs of the same configuration
are pooled, each further configuration is compared with the first, the baseline), builds the
sections (:mod:`reports.sections`, with the game's report hook) and writes into ``out``:
``report.html`` (:mod:`reports.html`, figures embedded as base64 PNG, readable offline),
``figures/<name>.png`` (and ``.svg`` with ``svg=True``; drawn on two cores when it may:
:mod:`reports.figures.draw`), with ``pdf=True`` ``report.pdf`` (:mod:`reports.pdf`: the same
sections, figures, captions and tables on A4 pages), and the files the game's hook keeps (for
Médiévallons, the played questions as ``questions/*.csv``). Played questions are read from a
questions directory (``questions=``, :mod:`reports.questions`) that must belong to the baseline
run; the report itself never plays a game. A before/after may also be given, per further
configuration, a questions directory played with its own rules against the baseline's: the page
then answers the questions for both and says what changed (:func:`questions_before_after`). Output goes to a temporary directory renamed into place
when complete; a non-empty ``out`` is refused unless ``force``.
:func:`plan_groups` refuses, in one line and before any work, runs of different games, and runs of
different player counts unless they are asked for side by side (``side_by_side=True``): a
before/after between a 4-player and a 3-player run would compare different fair shares.

May import polars, the standard library, :mod:`analysis`, :mod:`simcore.atomic`,
:mod:`simcore.errors`, the game registry (:mod:`simcore.games`) and the other :mod:`reports`
modules (none of which imports this one).
"""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path
from typing import Callable, Iterable

import polars as pl

from analysis import analyse, group_runs, open_runs
from analysis.compare import compare_runs
from analysis.panel_compare import balance_file, role_split_vectors, run_pair_balance
from analysis.start_coins import runs_caution
from analysis.load import check_distinct_runs
from reports.figures.draw import draw_all
from reports.games import hook_for
from reports.glossary import generated_note
from reports.html import NOTES, meta_table, page
from reports.pdf import write_pdf
from reports.questions import check_matches, compared, read_questions
from reports.sections import build_sections
from reports.text import game_title, score_unit, with_page_digits, with_start_scores
from simcore.errors import UsageError
from simcore.atomic import check_output_dir, publish_dir, temporary_dir


PAGE_WORDS = {"run": "a report of one {game} run", "side by side": "a side-by-side report of {game} runs",
              "before/after": "a before/after of {game} runs", "panel": "a {game} panel's page",
              "panel before/after": "a before/after of two {game} panels",
              "sweep": "a {game} sweep's page", "panel sweep": "a {game} panel sweep's page",
              "tune": "a {game} tune's page"}
"""How :func:`refuse_unsized_page` names each page kind of ``balance report``."""


def page_sizes(page: str, game: str | None, questions: tuple[str, ...] = (),
               tune: dict | None = None) -> tuple[str, ...]:
    """The kinds of smallest difference (``share``, ``score``, ``length``, ``count``:
    :func:`analysis.load.parse_smallest_difference`'s) a ``balance report`` page of kind ``page``
    (a key of :data:`PAGE_WORDS`) sizes anything by, for ``game``; ``questions``: the kinds the
    played balance questions shown on a run's page size (the game's ``SMALLEST_KINDS``); ``tune``:
    a tune's plan (its tune.json), whose targets decide what its page sizes.

    A run's page (and the side-by-side report, its first run's page beside the others) sizes win
    shares where it words a seat's distance from the fair share (seats alike), the split of a role's
    wins among its seats (a role of several seats: Seigneurial's Censitaires) or bots' shares (a
    game with bots); a score where the game keeps a running total by turn (the winners' lead over
    the runners-up, :func:`reports.text.flow_sentences`: Middle-Ages); and its played questions'
    kinds. A Fief combat's two one-seat sides, without bots, have none of these: its run's page
    sizes nothing. A two-run before/after sizes win shares, the mean scores, the game length where
    the game has a length column (Middle-Ages has none) and a count per game where
    :func:`analysis.compare.counts_sized` says one is left to compare (lead changes; not
    Médiévallons' reshuffles, at most one a game). A panel's page sizes seat or side shares only;
    a panel before/after its seats' or sides' shares, end reasons and game length; a sweep's
    effects (a panel sweep's too) shares, scores and lengths. A tune's page sizes its start → tuned
    changes (win shares on one line-up; over a panel of several cells, the metrics its targets
    read) and the fit of a role's share or of the game length: a length only with a length target
    (``length=A..B``), a win share unless every target is a length and the tune is over a panel of
    several cells; without its plan, what the game's tunes may size (a length where the game takes
    a length target: :func:`analysis.tune.targets.takes_length_target`, not Fief's rounds). A kind
    declared here is one the page words something by; whether a given page shows a change of that
    kind clear of noise (or a tune a fit) is the data's."""
    from analysis.compare import counts_sized
    from analysis.load import keeps_length
    from analysis.tune.targets import takes_length_target
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    cols = (*spec.all_player_columns, *spec.all_game_columns) if spec is not None else ()
    length = keeps_length(game)
    by_turn = any(c.role == "checkpoint_by_turn" for c in cols)
    # a run's win shares are worded against something: the fair share, an equal split of a role's
    # wins, or the other bots (an unknown game: taken to have them, as keeps_length takes a length)
    shares = spec is None or spec.roles_alike or spec.strategies is not None or \
        any(r.max_count > 1 for r in spec.roles)
    kinds = {"share"}
    if page in ("run", "side by side"):
        kinds = ({"share"} if shares else set()) | set(questions) | ({"score"} if by_turn else set())
    elif page == "before/after":
        kinds |= set(questions) | {"score"} | ({"length"} if length else set()) | \
            ({"count"} if counts_sized(game) else set())
    elif page in ("sweep", "panel sweep"):
        kinds |= {"score"} | ({"length"} if length else set())
    elif page == "panel before/after" and length:
        kinds.add("length")
    elif page == "tune":
        aims = [str(t.get("kind")) for t in (tune or {}).get("targets") or [] if isinstance(t, dict)]
        if not aims:
            kinds |= {"length"} if game is None or takes_length_target(game) else set()
        else:
            cells = ((tune or {}).get("panel") or {}).get("cells") or []
            if "length" in aims:
                kinds.add("length")
            if len(cells) > 1 and all(a == "length" for a in aims):
                kinds.discard("share")
    return tuple(k for k in ("share", "score", "length", "count") if k in kinds)


def refuse_unsized_page(smallest: dict | None, page: str, game: str | None,
                        questions: tuple[str, ...] = (), tune: dict | None = None) -> None:
    """One :class:`UsageError` line (:func:`analysis.load.refuse_unsized`'s) when ``smallest``
    (``--smallest-difference``) gives a kind the page sizes nothing of (:func:`page_sizes`; ``tune``:
    a tune's plan): "--smallest-difference count: no count difference is sized by a report of one
    Middle-Ages run (sized there: win_share, score)", rather than taking it without a word."""
    if not smallest:
        return
    from analysis.load import refuse_unsized
    from simcore import games as registry

    spec = registry.specs().get(game) if game else None
    title = spec.title if spec is not None else str(game or "")
    refuse_unsized(smallest, page_sizes(page, game, questions, tune),
                   PAGE_WORDS[page].format(game=title).replace("  ", " "))


def plan_groups(runs: Iterable[str | Path], pool: bool = True, side_by_side: bool = False) -> list:
    """The configurations of ``runs`` (pooled unless ``pool=False``), baseline first; a one-line
    :class:`UsageError` for runs of different games, or of different player counts without
    ``side_by_side``. Reads run.json files only."""
    runs = [Path(r) for r in runs]
    if not runs:
        raise UsageError("give at least one run directory")
    groups = group_runs(runs) if pool else [open_runs([r]) for r in runs]
    # each configuration refuses its own repeats; across configurations (--no-pool: every run its
    # own) the same run given twice would be compared with itself, its games as independent games
    check_distinct_runs([p for g in groups for p in g.paths], [m for g in groups for m in g.metas])
    base = groups[0]
    for g in groups[1:]:
        if g.game != base.game:
            raise UsageError(f"cannot compare {base.game} with {g.game}: runs of different games")
        if g.n_players != base.n_players and not side_by_side:
            # a game of roles has no fair share (review R #10): what differs is the game itself
            from simcore import games as registry

            spec = registry.specs().get(base.game)
            why = ("another player count is another game (its roles' sizes and its rules by player count "
                   "differ)" if spec is not None and spec.roles else "the fair share differs")
            raise UsageError(f"cannot compare {base.label} ({base.n_players} players) with {g.label} "
                             f"({g.n_players} players) as a before/after: {why}; give "
                             f"--side-by-side to show the player counts next to each other")
    return groups


def build_report(runs: Iterable[str | Path], out: str | Path, force: bool = False, pdf: bool = False,
                 pool: bool = True, questions: str | Path | None = None,
                 progress: Callable[..., None] | None = None, side_by_side: bool = False,
                 smallest: dict | None = None, questions_played: bool = False,
                 skill: str | Path | None = None, svg: bool = False,
                 answers: list[str] | None = None, targets: tuple = (),
                 variant_questions: list | None = None) -> Path:
    """Analyse ``runs`` and write the report into ``out``; returns the path of report.html.

    Runs of one configuration are pooled (``pool=False`` keeps every directory separate); the first
    configuration is the baseline and every other one gets a before/after section, or, with
    ``side_by_side=True``, all of them are shown next to each other (runs of different player
    counts; see :func:`plan_groups`). ``questions`` is a questions directory played for the
    baseline (``balance questions RUN --out DIR``, or the one ``balance report`` plays first): it
    must be of the baseline's game and rules (one-line :class:`UsageError` otherwise), and the
    game's hook shows it. ``progress(text, done, total)`` is called whenever a step starts, with the
    steps done so far and the steps in all (the CLI shows them with an estimate of the time left).
    ``smallest``: the smallest differences that matter, by kind ("share", "score", "length";
    :func:`analysis.load.parse_smallest_difference`), over the game's own, for every verdict of
    the page (seats, strategies, matchups, roles, the before/after). ``questions_played``: the
    questions directory was played for this report by the command (a page says so), not read.
    ``skill`` is a ``balance skill`` directory of the same game: the report gets its section
    (:func:`reports.skill.skill_section`). ``svg``: write every figure as SVG too (the page and
    the PDF use the PNGs; drawing the SVGs costs about as much again as the PNGs). ``targets``
    (``--target``, :mod:`analysis.tune.targets`: seat-balance and role targets) are judged on every
    configuration's win shares (:func:`design_targets`): the page leads with the verdicts, the
    terminal prints them (``answers``) and ``targets.csv`` keeps the judged shares.
    A before/after also writes ``comparison.csv`` (every compared metric of every variant, as the
    page's table: :func:`comparison_csv`), in a game whose seats are alike ``balance.csv`` (the
    largest gap of a seat from the fair share before and after, per variant:
    :func:`seat_balance`) and appends to ``answers``, when given, its first
    sentences per variant (did the seat or role win rates move, toward or away from a fair seat
    share, which line-up that holds for, how many metrics moved), for the command line to print.
    ``variant_questions``: per further configuration, a questions directory played for its first
    run with its own rules and against the baseline's (``balance report`` plays them), or None:
    each one checked as the baseline's is, then shown in a section of both runs' answers and what
    changed (:func:`questions_before_after`) after that before/after, kept as
    ``questions/<variant>/*.csv``, and its count of changed answers said in the before/after's
    answer.
    """
    say = _steps(progress)
    target = check_output_dir(out, force, kind="report")
    groups = plan_groups(runs, pool, side_by_side)
    for g in groups:
        g.smallest = dict(smallest) if smallest else None
    base_rs = groups[0]
    if skill is not None:
        from reports.skill import check_skill_dir, check_skill_lineups
        # a skill directory of the rules of any of the report's runs: in a before/after report,
        # the after run's (its --against comparison, with the before run's rules, is the page's)
        # (a before/after takes the after run's rules only: the before run's were accepted and its
        # trend printed as the change's, review s47 MV #1; side by side, any configuration's)
        about = groups[1:] if len(groups) > 1 and not side_by_side else groups
        q = check_skill_dir(skill, base_rs.game, [g.metas[0].get("rules_sha256") for g in about],
                            ", ".join(dict.fromkeys(str(g.metas[0].get("rules_name", "")) for g in about)),
                            runs_word="the after run" if about is not groups else None)
        check_skill_lineups(q, [(int(g.metas[0].get("players", 0)), list(g.metas[0].get("strategies") or []))
                                for g in groups], skill)
    hook = hook_for(base_rs.game)
    played = None
    if questions is not None:
        if hook is None or not hasattr(hook, "QUESTIONS"):
            raise UsageError(f"--questions {questions}: {game_title(base_rs)} reports read no played "
                             f"questions")
        played = read_questions(questions)
        played.played_here = questions_played
        check_matches(played, base_rs, same=getattr(hook, "QUESTIONS_MATCH", ()))
        if (check := getattr(hook, "check_questions", None)) is not None:
            check(played, base_rs)      # the game's own: played for this run (player count, run)
    others = _variant_questions(variant_questions, groups, hook, questions_played)
    # Steps: one per configuration analysed, drawing, one per figure written, the page, the PDF;
    # counted once the figures are known (a guess of 12 figures made the count change partway,
    # "step 1 of 16" then "step 4 of 12": review Q #7), the configurations by their own count
    tables = []
    for i, g in enumerate(groups):
        say(f"Analysing {g.label}" + (f" ({i + 1} of {len(groups)} configurations)" if len(groups) > 1 else ""))
        tables.append(analyse(g))
    base = tables[0]
    labels = _unique_labels([g.label for g in groups], [list(g.paths) for g in groups])
    for g, lab in zip(groups, labels):
        g.label = lab
    if side_by_side:
        cmps, comparisons = [], None
        side = [(labels[i], groups[i], tables[i]) for i in range(len(groups))]
        # by player count, so a trend over the counts reads in order (review s46 #13: 4p, 3p, 5p as
        # typed); configurations of one count keep the order given (sorted() is stable)
        side = sorted(side, key=lambda x: x[1].n_players)
    else:
        # paired game by game when both sides played the same deals and kept their rows
        # (a role of several seats: the split of its wins among them, compared in the same family)
        comparisons = [compare_runs(base_rs, groups[i], base, tables[i], smallest=smallest,
                                    split=role_split_vectors(base_rs, groups[i]))
                       for i in range(1, len(groups))]
        for i, c in enumerate(comparisons):      # toward or away from a fair seat share
            c.balance = run_pair_balance(c.table, base, tables[i + 1], base_rs.n_players)
            # each seat's start, where the changed rules moved it (its final score then moves
            # partly by construction: reports.text.start_words says so beside the change)
            c.table = with_start_scores(c.table, base_rs, groups[i + 1])
            # the decimals the page prints each row with, decided once for the table, the list, the
            # first answer and the figure (reports.text.with_page_digits; review s55 #3)
            c.table = with_page_digits(c.table, score_unit(base_rs))
        cmps = [(labels[i], comparisons[i - 1].table, tables[i]) for i in range(1, len(groups))]
        side = None
        if answers is not None:
            from reports.text import comparison_headlines, comparison_turn_limit_lines

            from reports.sections import holds_for, sweep_next_step

            from reports.text import seat_balance_sentence, with_balance

            for i, (lab, cmp, _) in enumerate(cmps):
                heads = [str(h) for h in comparison_headlines(cmp, labels[0], lab, score_unit(base_rs),
                                                              game=base_rs.game)]
                # the first answers, as the page leads (a game's own first question, e.g. a combat's
                # outcomes; the seats' or roles'; the split of a role's wins), then how many moved
                count = next((k for k, h in enumerate(heads) if h.startswith(f"{lab} against {labels[0]}:")),
                             len(heads) - 1)
                first = heads[:count + 1]
                seats_at = next((k for k, h in enumerate(first) if h.startswith(("Did the seat win rates",
                                                                                 "Did the role win rates"))), 0)
                holds = holds_for(base_rs, groups[i + 1])
                # whether the seats moved toward or away from fair, with the seats' answer
                toward = seat_balance_sentence(comparisons[i].balance, cmp)
                if toward:      # (before the answer's last sentence, the largest other changes)
                    first[seats_at] = with_balance(first[seats_at], toward)
                # a change of some seats' start coins judged with heuristic bots: the answer above
                # measures the bots' openings as much as the coins (analysis.start_coins)
                caution = runs_caution([*base_rs.metas, *groups[i + 1].metas], "before/after")
                first = (first[:seats_at + 1] + ([caution] if caution else []) + ([holds] if holds else [])
                         + first[seats_at + 1:])
                # (the page's pointer to its lists stays on the page)
                first = [x.split(" Listed below by kind")[0].removeprefix(f"{lab} against {labels[0]}: ")
                         for x in first]
                # many games of either side stopped at the turn limit: said first (simcore.turn_limit)
                first = comparison_turn_limit_lines(base, tables[i + 1], labels[0], lab) + first
                # what to play next, as the page's comparison section ends its answers
                first += [x for x in [sweep_next_step(base_rs, groups[i + 1], comparisons[i], cmp)] if x]
                answers += [f"{lab} against {labels[0]}:"] + [f"  {x}" for x in first]
    if answers is not None and len(groups) == 1:
        # a single run's first findings in the terminal too (review Y #12: it printed the page's
        # path only), as the page leads: the seats' (roles') answer first
        from reports.text import headlines

        lead = [str(h) for h in headlines(base, base_rs)]
        # three findings, after the turn-limit warning when the page leads with one, and every seat
        # line after them while they go on (4 seats printed 1, 3 and 4, not 2)
        cut = min(3 + (len(lead) > 0 and lead[0].startswith("Warning: ")), len(lead))
        while 0 < cut < len(lead) and lead[cut].startswith("Seat ") and lead[cut - 1].startswith("Seat "):
            cut += 1
        lead = lead[:cut]
        # then the game's own lead, as the page has it right after the sides, when its hook asks
        # (reports.games: LEAD_IN_TERMINAL; Seigneurial's SG-6 tie-break line, which the designer
        # review found on the page only)
        if getattr(hook, "LEAD_IN_TERMINAL", False):
            lead += [x for x in map(str, hook.lead_headlines(base, base_rs)) if x not in lead]
        # and whom they hold for, as the page's findings end (review s53 docs: the printout's seat
        # lines named no line-up; a before/after's printout already says it)
        from reports.text import scope_line

        lead += [x for x in map(str, scope_line(base_rs)) if x not in lead]
        answers += [f"{labels[0]}:"] + [f"  {x}" for x in lead]
    judged, target_words = design_targets(groups, tables, targets)
    if answers is not None and target_words:
        answers += ["design targets:"] + [f"  {x}" for x in target_words]
    if played is not None and not side_by_side:
        # the baseline's questions section names the sections that compare a variant's own answers
        # with its answers (the hook words it: Médiévallons' compared_words), else says none was
        played.compared_in = [(labels[i + 1], before_after_title(labels[i + 1], labels[0]))
                              for i, vq in enumerate(others) if compared(vq) is not None]
    say("Drawing the figures")
    secs, figs = build_sections(base, base_rs, cmps, played, side,
                                variants=None if side_by_side else groups[1:], comparisons=comparisons)
    if not side_by_side:
        questions_before_after(secs, played, others, labels, hook, answers,
                               [c.table for c in comparisons or []])
    # runs of one configuration are read as one run: said first, on the page and the terminal (the
    # designer review: two seeds of the same rules, meant as a before/after with a --set
    # forgotten, became one 40,000-game report without a word)
    pooled = [pooled_words(g) for g in groups if len(g.paths) > 1]
    if pooled and secs:
        secs[0].sentences[0:0] = pooled
    if pooled and answers is not None:
        answers[0:0] = pooled
    if skill is not None:                 # before the glossary, the last section
        from reports.skill import skill_section
        # the skill directory's cell of the run's line-up (a panel's cells may share a player count)
        lineup = list(base_rs.metas[0].get("strategies") or []) or None
        secs.insert(len(secs) - 1, skill_section(skill, figs, base_rs.n_players, smallest, lineup))
        from reports.skill import skill_headline
        # the report leads with what changed: a skill directory's comparison with other rules
        # gets a line in the leading section
        # the run itself, where it is the study's budget 0 played longer (reports.skill.run_bots_words)
        run = ({"rules_sha256": base_rs.metas[0].get("rules_sha256"), "players": base_rs.n_players,
                "lineup": list(base_rs.metas[0].get("strategies") or []), "games": base_rs.n_games,
                "row": base["seat_tests"].row(0, named=True)}
               if "seat_tests" in base and len(base_rs.paths) == 1
               and not base_rs.metas[0].get("rotate_seats") else None)
        if (line := skill_headline(skill, smallest, base_rs.n_players, run, lineup)) and secs:
            # after what changed and the seats' answer, before the longer lists
            at = _after_warning(secs[0].sentences, 2)
            secs[0].sentences.insert(at, line)
    if not side_by_side:              # after what changed and the seats' answer, as it leads
        # each variant's caution in its own before/after section (review: with two variants, the
        # second's caution landed in the first's section, where it named the other's coins)
        for i, g in enumerate(groups[1:]):
            name = "comparison" if len(groups) == 2 else f"comparison_{i + 1}"
            sec = next((s for s in secs if s.id == name), None)
            if sec is not None and (caution := runs_caution([*base_rs.metas, *g.metas], "before/after")):
                at = _after_warning(sec.sentences, 2)
                sec.sentences.insert(at, caution)
    if target_words and secs:         # after what changed and the seats' answer, as it leads
        at = _after_warning(secs[0].sentences, 2)
        secs[0].sentences[at:at] = target_words
    files: dict = hook.question_files(played, base_rs) if played is not None else {}
    for lab, vq in zip(labels[1:], others):
        if vq is not None and not side_by_side:
            files.update(variant_question_files(vq, groups[labels.index(lab)], lab, hook))
    if judged is not None:
        from analysis.export import csv_ready
        # (one row per run and share judged: a report's runs have no search budget)
        files["targets.csv"] = csv_ready(judged.drop("budget").rename({"cell": "run",
                                                                       "budget_outcome": "outcome"}))
    if cmps:
        files["comparison.csv"] = comparison_csv(labels[0], cmps, base_rs.game)
        balance = [c.balance.drop("cell").select(pl.lit(labels[0]).alias("before_run"),
                                                 pl.lit(lab).alias("after_run"), pl.all())
                   for (lab, _, _), c in zip(cmps, comparisons or []) if c.balance.height]
        if balance:
            from analysis.export import table_csv

            # the largest gap of a seat from the fair share before and after (the lead's "toward or
            # away from a fair seat share"), as the panel before/after's balance.csv
            files["balance.csv"] = table_csv(balance_file(pl.concat(balance, how="vertical_relaxed")))
    total = len(groups) + 1 + len(figs) + 1 + int(pdf)
    done = len(groups) + 1
    title = report_title(game_title(base_rs), base_rs.n_players, labels, side_by_side)

    tmp = temporary_dir(target)
    (tmp / "figures").mkdir()
    try:
        shown: list[str] = []

        def started(name: str) -> None:      # figures drawn here; a second process draws others
            say(f"Writing figure {name}", done + len(shown), total)
            shown.append(name)

        drawn = draw_all(figs, svg=svg, started=started)
        png = {name: formats["png"] for name, formats in drawn.items()}
        for name, formats in drawn.items():
            for fmt, content in formats.items():
                (tmp / "figures" / f"{name}.{fmt}").write_bytes(content)
        done += len(figs)
        for rel, content in files.items():
            path = tmp / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, pl.DataFrame):      # (NaN and ±inf as empty cells, as exported)
                from analysis.export import csv_ready
                csv_ready(content).write_csv(path)
            else:
                path.write_text(content, encoding="utf-8")
        say("Writing the report", done, total)
        generated = generated_note()        # one minute for both files
        (tmp / "report.html").write_text(page(title, groups, secs, png, figs.captions, generated,
                                              methods=figs.methods), encoding="utf-8")
        done += 1
        if pdf:
            say("Writing the PDF", done, total)
            # (the PDF's text has no code face: reports.pdf drops Markdown's code marks as it wraps)
            write_pdf(tmp / "report.pdf", title, secs, figs, png, figs.captions, meta_table(groups),
                      (f"{generated} {NOTES[0]}", figs.methods))
            done += 1
        say("Publishing the report", done, total)
        target = publish_dir(tmp, target)     # (beside, when something appeared there meanwhile)
    except Exception as exc:
        # a disk that filled while the page was written (review s62 rv267 #6: a bare "No space
        # left on device", no option, no path): the one line naming them; the page's temporary
        # directory is removed below, the target is as it was
        from simcore.atomic import no_space, out_of_space

        if no_space(exc):
            raise out_of_space(target, "--out") from None
        raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target / "report.html"


def _variant_questions(paths: list | None, groups: list, hook, played_here: bool) -> list:
    """The questions directories of the further configurations (one per configuration, None where
    none was played), read and checked as the baseline's: each must be of its run's game, rules,
    player count and run (:func:`reports.questions.check_matches`, the hook's ``check_questions``)."""
    from reports.questions import read_questions

    out: list = [None] * (len(groups) - 1)
    for i, path in enumerate(list(paths or [])[:len(out)]):
        if path is None:
            continue
        if hook is None or not hasattr(hook, "QUESTIONS"):
            raise UsageError(f"{path}: {game_title(groups[0])} reports read no played questions")
        q = read_questions(path, option="played questions")
        q.played_here = played_here
        check_matches(q, groups[i + 1], option="played questions", same=getattr(hook, "QUESTIONS_MATCH", ()))
        if (check := getattr(hook, "check_questions", None)) is not None:
            check(q, groups[i + 1], option="played questions")
        out[i] = q
    return out


def questions_before_after(secs: list, played, others: list, labels: list[str], hook,
                           answers: list[str] | None, cmps: list | None = None) -> None:
    """A before/after's played questions, both runs' (``played`` the baseline's, ``others`` each
    further configuration's, played against it): for each configuration whose questions hold what
    changed (:func:`reports.questions.compared`), a section "Balance questions: VARIANT vs BASE"
    placed right after its before/after section (both runs' answers, the change worded by size or
    "cannot tell", :func:`reports.questions.before_after_sentences`), the section's first sentence
    (how many answers moved) added to that before/after's sentences and to ``answers``. (The
    baseline's own questions section names these sections itself: :func:`build_report` tells the
    hook through ``played.compared_in`` before the sections are built.) ``cmps``: each further
    configuration's comparison table (the runs' before/after), whose founded shares word the note
    that who founds a card type changed too, as that before/after words it."""
    from reports.questions import (before_after_intro, before_after_rows, before_after_sentences,
                                   compared)
    from reports.sections import Section

    if played is None:
        return
    base = labels[0]
    n_var = len(labels) - 1
    for i, vq in enumerate(others):
        if vq is None or compared(vq) is None:
            continue
        var = labels[i + 1]
        name = "comparison" if n_var == 1 else f"comparison_{i + 1}"
        at = next((k for k, s in enumerate(secs) if s.id == name), None)
        if at is None:
            continue
        cmp = (cmps or [])[i] if i < len(cmps or []) else None
        lines = before_after_sentences(played, vq, base, var, cmp)
        sec = Section(f"{name}_questions", before_after_title(var, base),
                      before_after_intro(played, vq, base, var), [],
                      [(f"Balance questions, {base} → {var}", before_after_rows(vq, base, var, cmp))],
                      lines, intro_in_pdf=True)
        secs.insert(at + 1, sec)
        if lines:
            pointer = f"{lines[0]} Each answer in the section “{sec.title}”."
            secs[at].sentences.append(pointer)
            if answers is not None:
                head = f"{var} against {base}:"
                if head in answers:
                    k = answers.index(head) + 1
                    while k < len(answers) and answers[k].startswith("  "):
                        k += 1
                    answers.insert(k, f"  {lines[0]}")


def before_after_title(var: str, base: str) -> str:
    """The title of the section comparing a variant's played questions with the baseline's."""
    return f"Balance questions: {var} vs {base}"


def variant_question_files(q, rs, label: str, hook) -> dict:
    """What the report directory keeps of a further configuration's questions: the hook's files
    for them (``questions/*.csv``, settings.json) under ``questions/<label>/``, and what changed
    from the baseline's answers, ``questions/<label>/before_after.csv``."""
    from reports.questions import BEFORE_AFTER, compared, safe_label

    if q.not_played:
        return {}
    folder = f"questions/{safe_label(label)}/"
    kept = hook.question_files(q, rs) if hasattr(hook, "question_files") else {}
    files = {folder + k.removeprefix("questions/"): v for k, v in kept.items()}
    if (t := compared(q)) is not None:
        files[f"{folder}{BEFORE_AFTER}.csv"] = t
    return files


#: comparison.csv's columns, in order (docs/reports.md): which runs, the metric, both sides'
#: estimates with their 95% intervals, the change with its 95% interval, the tests (Holm within
#: each of a comparison's two families, ``family``: "seats" or "roles", the first question's win
#: shares, and "other metrics"; ``family_size``, how many tested rows it holds, the m of its Holm and
#: Bonferroni), the verdict in the page's words, whether it was paired game by game
#: and, where no game differs between the runs (untested), how many games and the bound they put
#: on a share's change
COMPARISON_COLUMNS = ("before", "after", "metric", "key", "label", "kind", "base", "base_low",
                      "base_high", "variant", "variant_low", "variant_high", "diff", "diff_low",
                      "diff_high", "p_value", "p_adjusted", "significant", "family", "family_size",
                      "smallest", "size_low",
                      "size_high", "verdict", "paired", "same_games", "change_at_most")


def target_turn_limit_words(where: str) -> str:
    """The warning the design targets' verdicts follow when they are judged on games many of which
    stopped at the turn limit (``where``: the runs or cells and their shares): every verdict there,
    met or missed, describes unfinished games (a stopped Seigneurial game is a Seigneur loss: a
    Seigneur "met" at 29% of all games won 63% of the finished ones, the review found)."""
    return (f"Warning: the targets below are judged on games many of which stopped at the turn limit "
            f"({where}): every verdict there, met or missed, describes unfinished games, not games "
            "that end by the rules.")


def pooled_words(g) -> str:
    """The sentence saying that runs were pooled: which directories, that they share the game,
    rules, bots and players, the games read as one run, and how to compare them instead."""
    names = [p.name for p in g.paths]
    shown = ", ".join(names[:-1]) + " and " + names[-1] if len(names) <= 4 else \
        f"{', '.join(names[:3])} and {len(names) - 3} more"
    seeds = list(dict.fromkeys(str(m.get("seed")) for m in g.metas))
    seeds = f" (seeds {', '.join(seeds[:-1])} and {seeds[-1]})" if len(seeds) > 1 else ""
    return (f"Pooled: {shown}{seeds} have the same game, rules, bots and players, so they are read as one run "
            f"of {g.n_games:,} games ({g.label}); to compare them as a before/after instead: balance "
            f"report --no-pool {' '.join(str(p) for p in g.paths[:2])} --out DIR.")


def _after_warning(sentences: list, k: int) -> int:
    """Where the ``k``-th sentence of a page's lead is, not counting a turn-limit warning that leads
    it (:func:`reports.text.turn_limit_lines`): lines placed "after the seats' answer" stay after it."""
    skip = sum(1 for x in sentences[:2] if str(x).startswith(("Warning: ", "Pooled: ")))
    return min(k + skip, len(sentences))


def design_targets(groups: list, tables: list, targets: tuple) -> tuple[pl.DataFrame | None, list[str]]:
    """A designer's ``--target``s judged on each configuration's seat win shares, the runs' own
    bots (:func:`analysis.skill_target.judge`: Wilson intervals, Bonferroni over every share judged
    on the page; met, missed or unclear as a tune reads them): the judged table and its sentences
    (review Y #6: a game of roles got no verdict on which side is favoured, because which split
    is "even" is the designer's call; now the designer says it)."""
    if not targets:
        return None, []
    from analysis.skill_target import judge, role_labels, run_rows, run_sentences
    from simcore import games as registry

    spec = registry.get(groups[0].game)
    rows = [run_rows(g.label, t["seats"], spec.seat_roles(g.n_players)) for g, t in zip(groups, tables)]
    judged = judge(pl.concat(rows), targets)
    words = run_sentences(judged, targets, role_labels(spec))
    # judged on games many of which stopped at the turn limit: a target "met" there is met on
    # unfinished games, said before the verdicts (simcore.turn_limit)
    from analysis.length import turn_limit

    limits = [(g.label, lim) for g, t in zip(groups, tables) if (lim := turn_limit(t)) and lim.flagged]
    if limits and words:
        where = "; ".join(f"in {lab}: {100 * lim.share:.1f}%, {lim.games:,} of {lim.total:,} games"
                          for lab, lim in limits)
        words.insert(0, target_turn_limit_words(where))
    return judged, words


def comparison_csv(base_label: str, cmps: list, game: str | None = None) -> str:
    """Every before/after of a report as one CSV text, a row per compared metric and variant, in the
    page's reading order, with the export's conventions (docs/export.md: missing values empty,
    p-values as the shortest text that reads back as the same number, the verdict as the page
    words it; empty for a row not tested, the Balance indices and the rows where no game differs
    between the runs, whose ``same_games`` and ``change_at_most`` say what the games show). Each
    row's label in ``game``'s words, as the page's table names it (:func:`reports.text.sides_named`:
    "Seat 1 (Seigneur) win share", "Mean game length (player turns)": the CSV has no unit column, so
    the label is the length's unit); its key as the analysis gives it."""
    from analysis.export import table_csv
    from reports.text import sides_named

    parts = []
    for lab, cmp, _ in cmps:
        t = sides_named(cmp, game, keys=False).with_columns(pl.lit(base_label).alias("before"), pl.lit(lab).alias("after"))
        parts.append(t.select([c for c in COMPARISON_COLUMNS if c in t.columns]))
    df = pl.concat(parts, how="diagonal_relaxed")
    # a row with no test (the Balance indices: shown, not tested) has no verdict, as on the page,
    # not "within noise" (review M #4)
    return table_csv(df.with_columns(
        pl.when(pl.col("p_value").is_nan() | pl.col("p_value").is_null()).then(None)
        .otherwise(pl.col("verdict")).alias("verdict")))


def report_title(game: str, n_players: int, labels: list[str], side_by_side: bool = False) -> str:
    """The report's title: the run, or, for a comparison, every run it compares (the variant
    first: the change is what the reader came for)."""
    if len(labels) == 1:
        return f"Balance report: {game}, {n_players} players, {labels[0]}"
    if side_by_side:
        return f"{game} side by side: " + ", ".join(labels)
    after = ", ".join(labels[1:])
    return f"Before / after: {after} vs {labels[0]} ({game}, {n_players} players)"


def _steps(progress: Callable[..., None] | None) -> Callable[..., None]:
    """``progress`` as a (text, done, total) callback; one taking the text only gets the text."""
    if progress is None:
        return lambda _text, _done=None, _total=None: None
    try:
        inspect.signature(progress).bind("", 0, 1)
        return progress
    except (TypeError, ValueError):
        return lambda text, _done=None, _total=None: progress(text)


def _unique_labels(labels: list[str], paths: list | None = None) -> list[str]:
    """The configurations' labels, told apart: runs of the same folder name (two panels' cell-0)
    by their parent folder too ("P0/cell-0", "P1/cell-0"; review V #9: "cell-0 #2 vs cell-0" hid
    which was the variant), else by their order ("run #2")."""
    labels = list(labels)
    if paths is not None:
        for lab in set(labels):
            same = [i for i, x in enumerate(labels) if x == lab]
            if len(same) > 1 and all(len(paths[i]) == 1 for i in same):
                longer = [f"{Path(paths[i][0]).parent.name}/{Path(paths[i][0]).name}" for i in same]
                if len(set(longer)) == len(same):
                    for i, x in zip(same, longer):
                        labels[i] = x
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if seen[lab] == 1 else f"{lab} #{seen[lab]}")
    return out
