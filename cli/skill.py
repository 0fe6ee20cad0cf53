"""``balance skill``: balance by search budget (:mod:`analysis.skill`) -- a line-up (``--strategies``;
default the game's bots) or a panel (``--panel NAME|FILE``, ``--lineup`` repeatable, several
``--players``), the search bot at each budget, one searching seat rotated over the seats and every
seat searching; a table (``skill.csv``, ``skill.parquet``), the trend in words (``skill.txt``) and
a page with its figure (``report.html``, ``figures/budget.png``, :mod:`reports.skill`).

The output directory is resumable: ``skill.json`` records what was asked; a second call with the
same question plays only the cells not yet in ``cells/``; a different question there is refused
unless ``--force``, which replaces only a directory whose ownership marker says ``skill`` and that
holds nothing balance skill did not write (:func:`claim_skill_out`); the new answer is built
beside it and takes its place only once complete, so an interrupted ``--force`` leaves the earlier
answer as it was (and starts again from the first part). ``skill.json``'s budgets
are those of the table on disk (``skill.parquet``) until the new budgets are played: an interrupted resume leaves the earlier answer whole, and the
new answer replaces it with the directory reading as unfinished (no ``skill.parquet``) in between.

The budgets are not part of the question (``skill.json``'s question, recorded in every part, holds
game, panel, games, seed and rules; each budget's parts are files of their own), so a directory
gathers budgets: a call answers every budget it names and every budget already answered there or
whose parts are all in ``cells/`` (:func:`analysis.skill.budgets_on_disk`), and says so in one line
when that is more than it named (:func:`budgets_line`). A later ``--budgets 0,4`` in a directory of
0,4,16 keeps 16 in skill.txt, skill.csv and the page (it was dropped, though its parts were on disk
and the line said the answer was of 0,4,16); ``--budgets 16`` alone adds 16 to what is there.

The answer is shown only once it is written and published (:func:`write_answer`, then
:func:`publish_skill_out` with SIGINT and SIGTERM held, so a replacement is never half renamed): the
budget tables, the trend sentence and what one searching seat gained over its table (not whether it
is the stronger player: no bot plays alone among searching seats; session 63)
(:func:`reports.skill.gain_sentence`, as on the page; also the second line of ``skill.txt``). An
interruption at any moment is said in one line naming the directory and what the same command
again does (:func:`interrupted_line`: plays the rest, writes the page from the parts kept, or shows
the answer already written). A question refused in a directory of another says what differs
(:func:`question_difference`).

Every percentage it prints is rounded as the page and the reports round them, halves away from zero
(:func:`simcore.numbers.rounded`, through :func:`reports.text.pct` and :func:`reports.text.pct_ci`):
a win share of 0.3625 reads 36.3% on the terminal and on the page (it read 36.2% here).

Under rules of one's own (``--rules``, ``--set``: a fix), ``--against DIR`` compares every seat's
win share with a skill directory of other rules (the shipped ones, say), budget by budget
(:mod:`analysis.skill_against`): ``against.csv``/``.parquet``/``.txt``, a table on the terminal and
the section the page leads with; what cannot be compared (another game or panel, no budget in
common, the same rules as read) is refused in one line before ``--out`` is touched. Rules that start
the seats played with different coins, compared at budget 0 where the line-up's heuristic bots play,
get the caution of :func:`analysis.start_coins.skill_caution` after the comparison (``skill.json``
records each rules' ``start_coins`` by player count and the line-ups' ``strategy_kinds`` for it).

Its closing line is followed by what to run next: a run of its rules and first line-up and that
run's report with the skill section (:func:`cli.simulate.skill_hint`); a kernel a part compiles is
said on the part's progress line (:meth:`cli.progress.Steps.compiling`).

May import typer, rich, :mod:`simcore`, :mod:`strategies`, :mod:`analysis`, :mod:`reports`,
:mod:`cli.progress` and :func:`cli.simulate.skill_hint`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import List, Optional

import typer

from cli.sweep import LINEUP_HELP, PANEL_HELP

RULES_HELP = ("A rules TOML (default: the shipped rules), e.g. a tune's best_rules.toml: does its "
              "fix hold as play gets stronger?")
SET_HELP = ("Change one rule setting for every game: PATH=VALUE (income.palais.base=4, "
            "payment.order=simultaneous); repeatable.")
TARGET_HELP = ("A tune's target, judged at every budget with every seat searching: met, missed or "
               "unclear (target.csv, and a section of the page): seat-balance[:TOL] or "
               "role=NAME:SHARE[:TOL], as balance tune takes them; repeatable.")
AGAINST_HELP = ("A balance skill directory of the same game and panel under other rules (e.g. the "
                "shipped rules): compare every seat's win share with it, budget by budget "
                "(against.csv, and a section of the page): does the change hold as play gets stronger?")
from simcore.games import DEFAULT_GAME


def register(app: typer.Typer) -> None:
    app.command("skill", help="Balance by search budget: seat (role) win shares as the search bot "
                              "gets more playouts, one searching seat and every seat searching.")(skill)


def skill(
    game: str = typer.Option(DEFAULT_GAME, "--game", "-g", help="Which game (one with bots)."),
    budgets: str = typer.Option("0,4,16,64", "--budgets",
                                help="Playouts per option, comma list; 0 = the playout policy itself. "
                                "An --out that answers other budgets keeps them: the answer covers both."),
    games: str = typer.Option("2000", "--games", "-n", help="Games per budget and part."),
    players: str = typer.Option("4", "--players", "-p", help="Players per game (with --panel or "
                                "--lineup: the player counts, 3,4,5)."),
    strategies: Optional[str] = typer.Option(None, "--strategies", "-s", help="The line-up: one bot "
                                             "name for every seat, or one per seat (default: the "
                                             "game's bots)."),
    panel: Optional[str] = typer.Option(None, "--panel", help="Play every cell of a panel. " + PANEL_HELP),
    lineup: Optional[list[str]] = typer.Option(None, "--lineup", help=LINEUP_HELP),
    rules: Optional[Path] = typer.Option(None, "--rules", help=RULES_HELP),
    settings: Optional[List[str]] = typer.Option(None, "--set", help=SET_HELP),
    seed: int = typer.Option(0, "--seed", help="Run seed: same seed and line-up → same table."),
    threads: int = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    out: Path = typer.Option(Path("skill"), "--out", "-o", help="Output directory (resumable)."),
    force: bool = typer.Option(False, "--force", help="Start again in an --out that holds another question."),
    against: Optional[Path] = typer.Option(None, "--against", help=AGAINST_HELP),
    target: Optional[List[str]] = typer.Option(None, "--target", help=TARGET_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress and no tables: the "
                               "sentences and the closing line only."),
) -> None:
    from rich.console import Console

    from analysis import skill as K
    from simcore import games as registry
    from simcore.atomic import input_paths
    from simcore.errors import UsageError
    from simcore.options import check_seed, parse_games, set_threads

    from strategies.panels import from_options

    spec = registry.get(game)
    if spec.strategies is None or spec.default_strategy is None:
        raise UsageError(f"--game {game}: this game has no bots to search with")
    the_panel = from_options(spec.name, panel=panel, players=players, lineups=lineup or (),
                             strategies=strategies)
    check_seed(seed)
    n = parse_games(games)
    # the one-searching-seat part plays games / P per seat: at least 2 each, as the ladder asks two
    # deals (review s49 skill #4-#5: --games 3 played one game at some seats, none at another)
    most = max(c.players for c in the_panel.cells)
    if n < 2 * most:
        raise UsageError(f"--games {games}: too few; the searching seat is rotated over the "
                         f"{most} seats, so give at least {2 * most} games (2 a seat), e.g. --games 200")
    targets = check_targets(spec.name, target or ())
    try:
        bs = sorted({int(b) for b in budgets.split(",") if b.strip()})
    except ValueError:
        raise UsageError(f"--budgets {budgets!r}: give whole numbers of playouts, e.g. 0,4,16,64") from None
    if not bs:
        raise UsageError(f"--budgets {budgets!r}: give at least one budget, e.g. 0,4,16,64")
    if bs[0] < 0 or bs[-1] > 100_000:
        raise UsageError(f"--budgets {budgets!r}: give budgets from 0 to 100000")
    # a seat bot that cannot play its search bot's playouts is refused before --out is touched
    K.check_search_bots(spec.name, the_panel)
    set_threads(threads)
    cells = the_panel.cells
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a directory (give a directory for the "
                         "skill tables)")
    # the rules with the settings validate at every player count of the panel, before --out is
    # touched or any game played; their sha256 is part of the question (a resume under other
    # rules is another question), their name and settings go to skill.json and the page
    from simcore import runner
    from simcore.config import parse_settings

    sets = parse_settings(settings or ())
    from analysis.start_coins import START_COINS_GAMES, coins_of

    start_coins = {}        # by player count, as read (skill.json; the --against caution reads it)
    for p in sorted({c.players for c in cells}):
        prep = runner.prepare(spec.name, players=p, rules=rules, settings=sets, quiet=True)
        start_coins[str(p)] = coins_of(spec.name, prep.rules_text)
    rules_file = runner.rules_source(spec.name, rules, ()).name      # the file, without the --set
    rules_data = rules_data_sha256(spec.name, rules, sets, sorted({c.players for c in cells}))
    before = None if against is None else check_against(against, out, spec.name, the_panel, bs,
                                                        prep.rules_sha256, rules_data)
    question = {"kind": "balance-skill", "game": spec.name, "players": cells[0].players,
                "games": n, "seed": seed, "policy": spec.default_strategy,
                "panel": the_panel.to_json(), "rules_sha256": prep.rules_sha256}
    about_rules = {"rules": rules_file, "settings": [x.text for x in sets],
                   "rules_name": prep.rules_name, "rules_given": rules is not None or bool(sets),
                   "rules_data_sha256": rules_data, "rules_change": tuned_change(rules),
                   "target": [t.text for t in targets], "strategy_kinds": lineup_kinds(spec, the_panel)}
    if spec.name in START_COINS_GAMES:
        about_rules["start_coins"] = start_coins
    # --out checked and claimed as every command's (simcore.atomic.check_output_path: the working
    # directory, a symbolic link, a virtual file system, inside or around an input ... one line),
    # its ownership marker proving a skill directory before --force replaces it. --force over
    # another question: ``out`` becomes a hidden directory beside ``final``, published whole once
    # complete (:func:`publish_skill_out`), so an interruption leaves the earlier answer as it was
    final = out
    out = claim_skill_out(final, question, force, inputs=input_paths(against, rules, panel),
                          rules_name=prep.rules_name)
    staged = out != final
    meta = out / "skill.json"
    # skill.json names the budgets of the answer on disk (skill.parquet): while the new budgets are
    # played (resumed with more of them, say), an interruption leaves the earlier complete answer
    # as it was, never the new budget list beside the old table
    answered = answered_budgets(out)
    # the budgets are not part of the question: this call's answer covers those it names and
    # every budget already answered here or whose parts are all on disk (none is dropped)
    asked = bs
    bs = sorted(set(asked) | set(answered or ()) | set(K.budgets_on_disk(out, the_panel, n, question)))
    _write_json(meta, {**question, **about_rules, "budgets": bs if answered is None else answered})
    if not staged:
        from simcore.atomic import PUBLISHED

        # written under the final name (a new directory, or one resumed): an interruption's line
        # says so, not "nothing was written under the final name" (review s37 rel #3)
        PUBLISHED.append(meta)
    said = budgets_line(final, answered, asked, bs)
    if said is not None:
        import sys

        print(said, file=sys.stderr)
    from cli.progress import Steps

    from simcore.errors import Interrupted

    if rules is not None or sets:         # the answer holds for these rules only: say which
        typer.echo(f"skill: rules {prep.rules_name}")
    def plan(kept: int, total: int) -> None:
        """One line when parts of an earlier call are kept: what is resumed, and what is left."""
        import sys

        if kept:
            print(resume_line(final, kept, total), file=sys.stderr)

    # Ctrl-C (or SIGTERM) at any moment of the call is said in one line naming the directory and
    # what the same command again does (review s42 B #1: only the games were covered; one landing
    # while the page was written said "nothing was written under the final name", or that
    # skill.json was written, while the page and skill.txt of a complete directory were gone).
    # The answer is shown only once it is written and published: a --force replacement
    # interrupted before it is published showed a whole answer its directory did not hold.
    stage = "games"
    try:
        from simcore.runner import compile_shown

        # a kernel a part compiles is said on the part's line (review 270 #3: 44 s unsaid)
        with Steps("skill", Console(stderr=True, quiet=quiet)) as steps, \
                compile_shown(None if quiet else steps.compiling):
            table = K.balance_by_budget(spec.name, None, bs, n, out, panel=the_panel, seed=seed,
                                        threads=threads, progress=PartClock(steps), rules=rules,
                                        settings=sets, question=question, plan=plan)
        stage = "writing"
        shown = _Later()
        console = shown.on(Console())
        tables = shown.on(Console(quiet=quiet))     # the tables; the sentences whatever --quiet
        written = write_answer(out, table, bs, spec, question, about_rules, prep, rules is not None
                               or bool(sets), n, targets, before, against, console, tables)
        from simcore.atomic import _signals_held

        # published whole: a signal landing meanwhile is acted on once it is (a --force
        # replacement half renamed would put the earlier answer back and lose this one)
        with _signals_held():
            final = publish_skill_out(out, final)   # complete: published (a --force replacement), the claim released
            stage = "published"
        shown.show()
        typer.echo(f"skill: {final}  (report.html, figures/budget.png"
                   + (", against.csv" if "against.csv" in written else "")
                   + (", target.csv" if "target.csv" in written else "") + ")")
        if not quiet:       # a run of the same rules and line-up, and its report with this section
            from cli.simulate import skill_hint

            typer.echo(f"next: {skill_hint(final, spec.name, cells[0], rules, sets)}")
    except (Interrupted, KeyboardInterrupt):
        import sys

        kept = len(list((out / "cells").glob("*.parquet"))) if out.is_dir() else 0
        total = len(cells) * len(bs) * 2
        print(interrupted_line(final, kept, total, staged, stage), file=sys.stderr)
        import cli

        cli.INTERRUPT_SAID.append(True)     # (the command line's generic line is not added)
        raise
    except OSError as exc:
        # a disk that filled while the games' parts or the page were written (review s62 rv267
        # #6: a bare "No space left on device"): the option, the path, and what is kept, as after
        # an interruption at the same stage
        import errno

        from simcore.atomic import no_space, show

        if not no_space(exc):
            raise
        kept = len(list((out / "cells").glob("*.parquet"))) if out.is_dir() else 0
        total = len(cells) * len(bs) * 2
        after = interrupted_line(final, kept, total, staged, stage).removeprefix("skill: ")
        raise OSError(errno.ENOSPC, f"--out {show(final)}: the disk ran out of space (free some "
                                    f"space or write somewhere else); {after}") from None


class _Later:
    """What the terminal shows of an answer, kept until the answer is written and published
    (:func:`skill`): a console's ``print`` calls recorded in order (:meth:`on`), played by
    :meth:`show`. Its width is the console's (the table's layout is chosen by it)."""

    def __init__(self) -> None:
        self.calls: list = []

    def on(self, console) -> "_Recorder":
        return _Recorder(console, self.calls)

    def show(self) -> None:
        for console, args, kwargs in self.calls:
            console.print(*args, **kwargs)


class _Recorder:
    """A console whose ``print`` calls :class:`_Later` keeps (its width the console's)."""

    def __init__(self, console, calls: list) -> None:
        self.console, self.calls = console, calls

    @property
    def width(self) -> int:
        return self.console.width

    def print(self, *args, **kwargs) -> None:
        self.calls.append((self.console, args, kwargs))


def write_answer(out: Path, table, bs, spec, question: dict, about_rules: dict, prep, rules_given: bool,
                 n: int, targets, before, against, console, tables) -> list[str]:
    """Write the answer of the played ``table`` into ``out`` (skill.json, skill.csv/.parquet,
    skill.txt, the ``--against`` and ``--target`` files, the page) and record on ``console`` and
    ``tables`` what the terminal shows of it (the budget tables, the sentences), to be shown once it
    is published; returns the names ``out`` then holds."""
    from rich.table import Table

    from analysis import skill as K
    from analysis.load import smallest_difference

    table = table.filter(pl_in(table, bs))
    # the new answer: first the directory reads as unfinished (no skill.parquet; the page and
    # words of the earlier answer go with it), then skill.json names the new budgets, and the
    # table comes last, so no moment shows the new budgets' list beside another table
    for name in ("skill.parquet", "report.html", "skill.txt"):
        (out / name).unlink(missing_ok=True)
    meta = out / "skill.json"
    _write_json(meta, {**question, **about_rules, "budgets": bs})
    _write_table(out, "skill", table)
    adv = K.advantage(table, spec.roles_alike)
    cells = list(dict.fromkeys(table["cell"].to_list()))
    from reports.skill import gap_level_words

    small = smallest_difference(spec.name, "share")
    for label in cells:
        ct = table.filter(table["cell"] == label)
        players = int(ct["players"][0])
        roles = spec.seat_roles(players)
        t = Table(title=f"{spec.title}, {label}: balance by search budget ({n:,} games per budget "
                        "and part" + (f"; rules {prep.rules_name}" if rules_given else "")
                        + ")", title_justify="left", caption=_budget0_note(ct), caption_justify="left")
        t.add_column("budget", justify="right")
        # seats of one role are averaged; a game with roles (Seigneurial) gets a mean per role, and
        # no gap between two seats nor any seat-balance index (a Seigneur's and a Censitaire's share
        # differ by design: the sentence below reads the role's win share instead) but the role
        # shares and the gap between the seats of the role several seats play
        several = None if spec.roles_alike else K.several_seats_role(roles)
        has_gap = several is not None and "role_gap" in ct.columns
        who = "" if several is None else _role_plural(spec, several[0])
        each = ct.filter(ct["part"] == "one")["games"]
        over = (f" over its own {int(each.max()):,} games" if each.len() and each.min() == each.max()
                else "")      # (review X #6: a quarter of the budget's games, said nowhere)
        t.add_column(f"one searching seat: win share by seat{over} (mean" + ("" if spec.roles_alike else
                                                                          " of a seat, by role")
                     + ")", justify="right", overflow="fold")
        for s in range(players):
            t.add_column(f"all searching: seat {s + 1}" + ("" if spec.roles_alike else
                                                             f" ({roles[s].capitalize()})"),
                         justify="right", overflow="fold")
        if spec.roles_alike:
            # the interval the sentence below reads (one number, one interval)
            t.add_column(f"all searching: largest gap between two seats, pp "
                         f"({gap_level_words(ct)[1]})", justify="right", overflow="fold")
        elif has_gap:
            # (the role shares are the seat columns: a role of one seat is its seat, and the other
            # side wins the rest; the page has each role's share with its interval)
            t.add_column(f"all searching: largest gap between two {who}, pp (95%)",
                         justify="right", overflow="fold")
        for b in bs:
            one = ct.filter((ct["budget"] == b) & (ct["part"] == "one"))
            allp = ct.filter((ct["budget"] == b) & (ct["part"] == "all")).sort("seat")
            by_seat = ", ".join(_pct(w) for w in one.sort("seat")["win_share"])
            t.add_row(str(b), f"{by_seat}% ({_mean_by_role(one, roles, spec.roles_alike)})",
                      # the interval on a line of its own: at 80 columns a cell is never cut mid-number
                      *[_share_cell(r).replace(" (", "\n(", 1) for r in allp.iter_rows(named=True)],
                      *([_gap_cell(allp)] if spec.roles_alike else []),
                      *([_role_gap_cell(allp)] if has_gap else []))
        if tables.width >= WIDE_TABLE_COLUMNS:
            tables.print(t)
        else:       # a narrow terminal: one row per budget and seat (review K #9: 7 columns folded mid-number)
            tables.print(_long_table(t.title, ct, bs, roles, spec, several, who, has_gap))
    gains = gain_lines(table, small)
    from analysis.skill_target import lead_band, role_labels

    # judged against the designer's --target where one measures the first role's share (review
    # s37 seig #10), as the page's lead is; then, as on the page, what the searching seat gained
    # (review s42 B #2: only the page said so, and "persists as play
    # gets stronger" read alone on the terminal and in skill.txt)
    sentence = K.verdict(adv, band=lead_band(table, targets, role_labels(spec)))
    words = "\n".join([sentence] + gains)
    console.print(sentence)
    for gain in gains:
        console.print(gain)
    (out / "skill.txt").write_text(words + "\n")
    write_against(out, table, before, against, spec, {**question, **about_rules, "budgets": bs}, console,
                  tables)
    write_target(out, table, targets, spec, console)
    from reports.skill import build_skill_page

    build_skill_page(out)
    return sorted(p.name for p in out.iterdir())


def gain_lines(table, small: float) -> list[str]:
    """The gain sentences of the terminal and ``skill.txt``, one per cell ("In 4p 4×greedy: …"
    for a panel), as the page gives them (:func:`reports.skill.gain_sentence`): every cell's
    seats one family, ``table`` the whole table (session 55 review: each cell was a family of its
    own)."""
    from reports import skill as page

    cells = list(dict.fromkeys(table["cell"].to_list()))
    out = []
    for label in cells:
        gain = page.gain_sentence(table.filter(table["cell"] == label), small, family=table).strip()
        if gain:
            out.append(gain if len(cells) == 1 or not label else f"In {label}: {gain}")
    return out


def _budget0_note(ct) -> str | None:
    """The caption of the terminal's budget table with budget 0: nobody searches there, so the
    one-searching-seat shares are the bots themselves, in the first games of the every-seat part
    (review s42 B #8: headed "one searching" with nobody searching), as the page's table title
    says."""
    one = ct.filter((ct["budget"] == 0) & (ct["part"] == "one"))["games"]
    every = ct.filter((ct["budget"] == 0) & (ct["part"] == "all"))["games"]
    if not one.len() or not every.len():
        return None
    same = one.min() == one.max()
    games = (f" over the first {int(one.max()):,} of the {int(every.min()):,} games of \"all searching\""
             if same else " in the first games of \"all searching\"")
    return (f"At budget 0 nobody searches: \"one searching\" is the bots themselves, each seat's "
            f"share{games}.")


def _budget_list(budgets) -> str:
    return ",".join(map(str, budgets))


def budgets_line(out: Path, answered: list[int] | None, asked: list[int], budgets: list[int]) -> str | None:
    """The line of a call whose answer covers other budgets than it names (``asked``): those
    ``out`` already answers (``answered``, its skill.parquet) and those whose parts are all in its
    ``cells/`` are kept, so ``budgets``, what the answer covers, is their union with ``asked``;
    None when it covers exactly what was asked and what was there."""
    if budgets == asked and answered in (None, asked):
        return None
    there = answered if answered is not None else [b for b in budgets if b not in asked]
    head = (f"skill: {out} answers budgets {_budget_list(answered)}" if answered is not None else
            f"skill: {out / 'cells'} holds every part of budget{'s' if len(there) > 1 else ''} "
            f"{_budget_list(there)}")
    alone = (f"; for budgets {_budget_list(asked)} alone, give another --out" if len(asked) > 1 else
             f"; for budget {asked[0]} alone, give another --out") if budgets != asked else ""
    return (f"{head}; with --budgets {_budget_list(asked)} the answer covers budgets "
            f"{_budget_list(budgets)} (parts already in {out / 'cells'} are read back{alone})")


def interrupted_line(out: Path, kept: int, total: int, staged: bool, stage: str = "games") -> str:
    """What an interrupted ``balance skill`` left, in one line naming ``out`` and what the same
    command again does, at each ``stage`` of the call (review s42 B #1: one landing after the games
    said nothing of the page):

    * ``"games"``: in place (a new directory, or one resumed), how many parts are kept and that the
      same command plays only the rest; a ``--force`` replacement built beside ``out``
      (:func:`claim_skill_out`), that ``out`` keeps its earlier answer as it was and the new
      question's parts are discarded (review s37 rel #3);
    * ``"writing"`` (every part played, the answer being written): in place, that the parts are all
      kept and the same command writes the page and skill.txt from them, playing nothing; a
      ``--force`` replacement, as during the games (nothing of it was published);
    * ``"published"`` (written whole, being shown): that ``out`` holds the whole answer and the same
      command shows it again, playing nothing."""
    if stage == "published":
        return (f"skill: {out} holds the whole answer (skill.txt, report.html; it was written before "
                "it was shown); the same command again shows it, playing nothing")
    if staged:
        played = (f"{total} parts, all played, were built beside it and are discarded: interrupted while "
                  "its page was written" if stage == "writing" and kept >= total else
                  f"{kept} of {total} parts played so far were built beside it and are discarded")
        return (f"skill: {out} keeps its earlier answer as it was (the new question's {played}); the "
                "same command again, with --force, plays the new question from the start")
    if stage == "writing":
        return (f"skill: all {total} parts are kept in {out / 'cells'}, but the page and skill.txt "
                "were not written; the same command again writes them from those parts, playing "
                "nothing")
    return (f"skill: {kept} of {total} parts are kept in {out / 'cells'}; the same command again "
            "plays only the rest")


def publish_skill_out(work: Path, out: Path) -> Path:
    """Publish a complete skill directory: written in place (``work`` is ``out``), its claim is
    released; built beside ``out`` (a ``--force`` replacement), it takes ``out``'s place in two
    renames (:func:`simcore.atomic.publish_dir`), and of the earlier directory only the files
    balance skill wrote there are removed (its marker's tree is first narrowed to them: a file of
    one's own put into ``cells/`` or ``figures/`` meanwhile is kept, with a note)."""
    from simcore.atomic import publish_dir, release_claim

    if work == out:
        _published_only(out)
        release_claim(out, True)
        return out
    _own_only(out)
    return publish_dir(work, out, kind=SKILL_KIND)    # (beside, when something appeared meanwhile)


def _published_only(out: Path) -> None:
    """Narrow the marker of a skill directory written in place, now complete, to the entries it
    holds: the temporary names of :data:`SKILL_NAMES` (``skill.json.tmp`` …, each renamed to its
    published name) and the files this answer did not write (``against.*`` without ``--against``)
    are listed only while it is written, for what a kill would leave there. A temporary file still
    there (a kill of an earlier call, under a name this one did not write again) stays listed: it
    is this toolkit's, and ``--force`` replaces the directory with it."""
    import os

    from simcore.atomic import read_marker, write_marker

    marker = read_marker(out)
    if marker is None or marker["kind"] != SKILL_KIND:
        return
    held = [e for e in marker["entries"] if os.path.lexists(out / e)]
    write_marker(out, SKILL_KIND, held, marker.get("id"))


def _own_only(out: Path) -> None:
    """Record in ``out``'s marker, as its tree, only the files balance skill wrote in ``cells/`` and
    ``figures/`` (:func:`_skill_files`), so that removing the replaced directory
    (:func:`simcore.atomic.publish_dir`) removes those and nothing else there."""
    from simcore.atomic import read_marker, write_marker

    marker = read_marker(out)
    if marker is None:
        return
    ours, _ = _skill_files(out)
    tree = [p.relative_to(out).as_posix() for p in ours if p.parent != out]
    write_marker(out, SKILL_KIND, marker["entries"], marker.get("id"), tree=tree)


def resume_line(out: Path, kept: int, total: int) -> str:
    """The line of a call that finds parts of an earlier one (as other commands': "resuming D:
    …"): "resuming skill_sg: 3 of 8 parts kept (in skill_sg/cells); playing the other 5", or
    with nothing left to play, that the answer is written again from them."""
    if kept >= total:
        return (f"resuming {out}: all {total} parts kept (in {out / 'cells'}); nothing to play, the "
                "answer is written again from them")
    return (f"resuming {out}: {kept} of {total} parts kept (in {out / 'cells'}); playing the other "
            f"{total - kept}")


def _seconds(left: float) -> str:
    if left < 90:
        return f"about {max(1, round(left))} s left"
    return f"about {left / 60:.0f} min left"


class PartClock:
    """The progress of :func:`analysis.skill.balance_by_budget` on a :class:`cli.progress.Steps`
    line: which part of how many this call plays, the time spent, and the time left only when it
    can be estimated honestly (:func:`analysis.skill.part_seconds_left`: from the parts timed in
    this call, by kind and budget; none before a part of the kind has been timed, and none while
    the current part runs past its estimate). Parts read back from an earlier call are not steps
    here: counted as steps that took 0 s, a resumed run said "about 1 s left" for 8 s. The line is
    re-rendered as the spinner turns, so the time spent keeps counting during a long part."""

    def __init__(self, steps, clock=None) -> None:
        import time

        self.steps = steps
        self.clock = clock or time.perf_counter
        self.start = getattr(steps, "start", None)
        self.timed: dict = {}
        self.parts: list = []
        self.done, self.text = 0, ""
        self.started = None
        # off a terminal the plain lines say this line too, with the time left (review 214 #6: the
        # step's own line, without it, was written there)
        if hasattr(steps, "source"):
            steps.source = self.line

    def __call__(self, text: str, done: int, total: int, parts) -> None:
        now = self.clock()
        if self.start is None:
            self.start = now
        if self.started is not None and self.parts:         # the part before this one ended now
            b, part, games = self.parts[self.done]
            self.timed[(part, b)] = (now - self.started) / max(1, games)
        self.parts, self.done, self.text, self.started = list(parts), done, text, now
        self.steps(self.label())
        live = getattr(self.steps, "live", None)
        if live is not None:
            live.update(self)

    def left(self) -> float | None:
        """The seconds left by the estimate, or None when it cannot be made honestly."""
        from analysis.skill import part_seconds_left

        here = part_seconds_left(self.timed, self.parts[self.done:self.done + 1])
        rest = part_seconds_left(self.timed, self.parts[self.done + 1:])
        if here is None or rest is None:
            return None
        here -= self.clock() - self.started
        if here <= 0:
            return None                                       # the part runs past its estimate
        return here + rest

    def label(self) -> str:
        return f"part {self.done + 1} of {len(self.parts)} to play: {self.text}"

    def line(self) -> str:
        elapsed = self.clock() - self.start
        left = self.left()
        return (f"skill: {self.label()}… ({elapsed:.0f} s" + (f", {_seconds(left)})" if left is not None
                                                            else ")"))

    def __rich__(self) -> str:
        return self.line()


#: The ownership kind of a balance skill directory (:data:`simcore.atomic.MARKER`).
SKILL_KIND = "skill"
_TABLE_STEMS = ("skill", "against", "target")
#: Every entry balance skill writes at the top of its directory (the marker lists them all while
#: an answer is written, and once it is published those the directory holds, :func:`_published_only`:
#: --force replaces a directory holding only these, and removes only these), with the names they
#: are written under before their rename (left by a kill).
SKILL_NAMES = (("skill.json", "skill.txt", "against.txt", "target.txt", "report.html", "figures",
                "cells", "search_bots.toml")
               + tuple(f"{s}.{x}" for s in _TABLE_STEMS for x in ("csv", "parquet"))
               + ("skill.json.tmp", "report.html.tmp", "search_bots.tmp")
               + tuple(f"{s}.{x}.tmp" for s in _TABLE_STEMS for x in ("csv", "parquet")))
#: What balance skill writes inside its two folders (a part, a figure; each also under its
#: temporary name): anything else there is not this toolkit's, and --force will not delete it.
_INSIDE = {"cells": r"(cell[0-9]+_)?budget[0-9]+_(one|all)\.(parquet|tmp)",
           "figures": r"(budget|against)(-[0-9]+)?\.(png|svg)(\.tmp)?"}


def claim_skill_out(out: Path, question: dict, force: bool, inputs=(), rules_name: str | None = None) -> Path:
    """Check and claim ``--out`` for ``question`` as every command's output is checked and claimed
    (:func:`simcore.atomic.check_output_path`: its checks and its one line), before any game, and
    return the directory the answer is written in; it carries the ownership marker of a ``skill``
    directory (:data:`SKILL_KIND`) listing :data:`SKILL_NAMES`.

    * new or empty: made and marked, and written in place (a killed call resumes there);
    * a skill directory of this question: resumed in place (files added there are kept);
    * a skill directory of another question, with ``force``: the new answer is built in a hidden
      directory beside it (returned), which :func:`publish_skill_out` renames to ``out`` once
      complete, removing of the earlier directory only the files balance skill wrote there (the
      entries its marker lists, the parts in ``cells/``, the figures in ``figures/``), as sweeps,
      tunes and panels replace theirs: an interruption leaves the earlier answer whole (review s37
      rel #3: it was emptied first, and lost). Refused in one line when it holds anything else
      (beside its tables, or in ``cells/`` or ``figures/``), which nothing deletes;
    * anything else (no marker of a skill directory): refused in one line, ``force`` or not.

    A directory written before skill directories carried a marker is recognised by its
    ``skill.json`` (a balance-skill question: no other writer makes one) and given the marker,
    listing only the entries of :data:`SKILL_NAMES` it holds (so a file of one's own beside them
    still stops ``--force``)."""
    import os

    from simcore.atomic import (check_output_path, claim_output, mark_dir, ownership_problem,
                                read_marker, show, temporary_dir, write_marker)
    from simcore.errors import UsageError

    if not (out.is_dir() and not out.is_symlink() and any(out.iterdir())):
        check_output_path(out, kind="dir", force=force, what=SKILL_KIND, inputs=inputs)
        out.mkdir(parents=True, exist_ok=True)
        mark_dir(out, SKILL_KIND, SKILL_NAMES)
        return out
    # every check of the path, but whether the directory may be replaced (decided below: a resume
    # replaces nothing, and a directory written before the marker is recognised by its skill.json)
    owned = ownership_problem(out, SKILL_KIND)
    try:
        check_output_path(out, kind="dir", force=True, what=SKILL_KIND, inputs=inputs, claim=False)
    except UsageError as exc:
        if owned is None or str(exc) != f"--out {show(os.fspath(out))}: {owned}":
            raise
    old = _question_in(out)
    marker = read_marker(out)
    earlier = marker is None and old is not None and old.get("kind") == "balance-skill"
    if (marker is None and not earlier) or (marker is not None and marker["kind"] != SKILL_KIND):
        raise UsageError(f"--out {out}: holds {_what_is_there(out)}; "
                         + ("--force replaces only a balance skill directory this toolkit wrote, "
                            if force else "") + "choose another --out")
    claim_output(out, kind=SKILL_KIND)             # one writer per directory
    if earlier:
        write_marker(out, SKILL_KIND, [e for e in os.listdir(out) if e in SKILL_NAMES])
    if old is not None and {k: old.get(k) for k in question} == question:
        mark_dir(out, SKILL_KIND, SKILL_NAMES)
        return out
    if not force:
        # what differs, said (review s42 B #4: a resume with another --games, --seed or --game
        # read only "another balance-skill question", and pushed towards --force)
        differs = "" if old is None else question_difference(old, question, rules_name)
        raise UsageError(f"--out {out}: holds " + (f"another balance-skill question{differs}" if old is not None
                                                   else "a balance skill directory without a readable "
                                                   "skill.json")
                         + "; choose another --out or add --force (it replaces only a balance-skill "
                         "directory)")
    _, foreign = _skill_files(out)
    problem = ownership_problem(out, SKILL_KIND) or (None if not foreign else (
        "holds " + ", ".join(show(f, 40) for f in foreign[:3])
        + (f" and {len(foreign) - 3} more" if len(foreign) > 3 else "")
        + ", which this toolkit did not write there; --force will not delete them: move them, or "
        "choose another directory"))
    if problem is not None:
        raise UsageError(f"--out {out}: {problem}")
    # the new question is answered beside the earlier one, which stays whole (and is read as
    # it was) until the new answer is complete: then the new directory takes its place
    work = temporary_dir(out)
    mark_dir(work, SKILL_KIND, SKILL_NAMES)
    return work


def question_difference(old: dict, question: dict, rules_name: str | None = None) -> str:
    """What a skill directory's question (``old``, its skill.json) answers that ``question`` does
    not, in the options' words: " (it answers 400 games per budget and part; this call asks 300)",
    several joined by "; ", the game by its title, the rules by their name; "" when nothing named
    differs (a directory of an older toolkit). ``rules_name``: the rules this call reads, as
    skill.json names them (the same name with another text: the file has changed since)."""
    from simcore import games as registry

    def game(name) -> str:
        try:
            return registry.get(str(name)).title
        except Exception:             # a game this toolkit no longer knows: its name as written
            return str(name)

    def panel(q: dict) -> str:
        cells = (q.get("panel") or {}).get("cells") or []
        return "; ".join(f"{c.get('players')} players, " + ",".join(map(str, c.get("lineup") or ()))
                         for c in cells) or f"{q.get('players')} players"

    said = []
    if old.get("game") != question.get("game"):
        said.append(f"the game {game(old.get('game'))}; this call asks {game(question.get('game'))}")
    if old.get("games") != question.get("games"):
        n, m = old.get("games"), question.get("games")
        said.append(f"{n:,} games per budget and part; this call asks {m:,} (--games)"
                    if isinstance(n, int) and isinstance(m, int) else "another number of games (--games)")
    if old.get("seed") != question.get("seed"):
        said.append(f"seed {old.get('seed')}; this call asks seed {question.get('seed')} (--seed)")
    if old.get("game") == question.get("game") and (old.get("panel") != question.get("panel")
                                                    or old.get("players") != question.get("players")):
        said.append(f"the line-up {panel(old)}; this call asks {panel(question)} (--strategies, "
                    "--panel, --lineup, --players)")
    if old.get("game") == question.get("game") and old.get("rules_sha256") != question.get("rules_sha256"):
        was = old.get("rules_name")
        said.append(f"the rules of {was} as they read when it was played (the file has changed since)"
                    if was and was == rules_name else
                    f"other rules ({was or 'not named'}"
                    + (f"; this call reads {rules_name}" if rules_name else "") + "; --rules, --set)")
    if not said and old.get("policy") != question.get("policy"):
        said.append(f"another playout bot ({old.get('policy')}; this call: {question.get('policy')})")
    return f" (it answers {'; '.join(said)})" if said else ""


def _skill_files(out: Path) -> tuple[list[Path], list[str]]:
    """The files balance skill wrote in the skill directory ``out`` (the marker's entries that are
    files, and in ``cells/`` and ``figures/`` the files of the names it gives them), and the names
    of everything else in those two folders (a file of one's own, a folder, a symbolic link),
    which ``--force`` must not delete. ``out``'s other entries are the marker's to judge
    (:func:`simcore.atomic.ownership_problem`)."""
    import os
    import re

    from simcore.atomic import read_marker

    listed = set((read_marker(out) or {}).get("entries", ()))
    ours = [out / e for e in sorted(listed) if e not in _INSIDE and (out / e).is_file()
            and not (out / e).is_symlink()]
    foreign: list[str] = []
    for folder, pattern in _INSIDE.items():
        d = out / folder
        if d.is_symlink() or (d.exists() and not d.is_dir()):
            foreign.append(folder)
            continue
        for e in sorted(os.scandir(d), key=lambda e: e.name) if d.is_dir() else ():
            if e.is_symlink() or not e.is_file() or not re.fullmatch(pattern, e.name):
                foreign.append(f"{folder}/{e.name}")
            else:
                ours.append(d / e.name)
    return ours, foreign


def _question_in(out: Path) -> dict | None:
    """The question in ``out/skill.json`` (a dict), or None when there is none to read."""
    try:
        old = json.loads((out / "skill.json").read_text()) if (out / "skill.json").is_file() else None
    except (OSError, ValueError):
        old = None          # an unreadable skill.json: not a question this command can resume
    return old if isinstance(old, dict) else None


def _what_is_there(out: Path) -> str:
    """What an ``--out`` that is not a skill directory holds, in a few words: what its ownership
    marker says, else "a run (run.json)", "a sweep (sweep.json)", "a report (report.html)", else
    the first few names."""
    from simcore.atomic import MARKER, read_marker

    marker = read_marker(out)
    if marker is not None and marker["kind"] != SKILL_KIND:
        return f"a {marker['kind']} (its {MARKER} says so), not a balance skill directory"
    for name, what in (("run.json", "a run"), ("sweep.json", "a sweep"), ("tune.json", "a tune"),
                       ("panel_sweep.json", "a panel sweep"), ("report.html", "a report")):
        if (out / name).exists():
            return f"{what} ({name}), not a balance skill directory"
    names = sorted(p.name for p in out.iterdir())[:3]
    return f"files of something else ({', '.join(names)}{', …' if len(names) == 3 else ''})"


def check_targets(game: str, texts, command: str = "balance skill") -> tuple:
    """The ``--target`` options parsed as ``balance tune`` parses them (one line, exit code 2, for
    a malformed one), before ``--out`` is touched; a target a table of win shares cannot measure
    (a game's length, a strategy's share) is refused too, naming ``command``."""
    if not texts:
        return ()
    from analysis.skill_target import JUDGED_KINDS
    from analysis.tune.targets import parse_targets
    from simcore.errors import UsageError

    targets = parse_targets(texts, game)
    for t in targets:
        if t.kind not in JUDGED_KINDS:
            raise UsageError(f"--target {t.text}: {command} judges win shares only; give "
                             "seat-balance[:TOL] or role=NAME:SHARE[:TOL]")
    return targets


TARGET_FILES = ("target.csv", "target.parquet", "target.txt")


def write_target(out: Path, table, targets, spec, console) -> None:
    """``target.csv``, ``target.parquet`` and ``target.txt`` in ``out`` (the targets judged at every
    budget, :mod:`analysis.skill_target`) and the sentences on the terminal; without ``--target``
    those of an earlier call are removed (they would be read as this answer's)."""
    from analysis.skill_target import judge, role_labels, sentences

    _remove(out, TARGET_FILES)
    if not targets:
        return
    judged = judge(table, targets)
    words = sentences(judged, targets, role_labels(spec))
    _write_table(out, "target", judged)
    (out / "target.txt").write_text("\n".join(words) + "\n")
    for line in words:
        console.print(line)


def tuned_change(rules: Path | None) -> str | None:
    """What a tune's ``best_rules.toml`` changes, from its first line ("# balance tune: the best
    rules found (setup.start_coins[3]=2)" → "setup.start_coins[3]=2"), so that the page names the
    fix rather than only the file; None for any other rules file (or none)."""
    from analysis.tune.search import BEST_RULES_HEAD

    if rules is None:
        return None
    try:
        with open(rules, encoding="utf-8") as f:
            first = f.readline().strip()
    except (OSError, UnicodeDecodeError):
        return None
    head = f"# {BEST_RULES_HEAD} ("
    return first[len(head):-1] if first.startswith(head) and first.endswith(")") else None


def rules_data_sha256(game: str, rules, sets, player_counts: list[int]) -> str:
    """The sha256 of the rules as read (the parsed TOML with the settings applied, keys sorted), at
    every player count played: two rules files that differ only in comments or layout, or a
    ``--set`` of the value the file already has, give the same digest (the same games), where the
    rules text's sha256 (the question's ``rules_sha256``) differs."""
    import hashlib
    import json as _json

    from simcore import runner

    data = [runner.rules_source(game, rules, sets, seats=p).data for p in player_counts]
    return hashlib.sha256(_json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


def check_against(against: Path, out: Path, game: str, panel, budgets: list[int],
                  rules_sha256: str, rules_data: str | None = None) -> dict:
    """The question of the ``--against`` directory, or one :class:`UsageError` line (before
    ``--out`` is touched): not a finished balance skill of this game (:func:`reports.skill.
    check_skill_dir`), ``--out`` itself, another panel (its cells' player counts and line-ups), no
    budget in common, or the same rules (nothing to compare: the same rules text, or the same rules
    once read, ``rules_data``: :func:`rules_data_sha256`, e.g. a --set of the shipped value)."""
    from reports.skill import check_skill_dir
    from simcore.errors import UsageError

    if against.resolve() == out.resolve():
        raise UsageError(f"--against {against}: is --out itself; give the directory of the other rules")
    q = check_skill_dir(against, game, option="--against")
    cells = [(c.players, list(c.lineup)) for c in panel.cells]
    theirs = [(int(c["players"]), list(c["lineup"])) for c in (q.get("panel") or {}).get("cells", [])]
    if theirs and theirs != cells:
        label = lambda cs: "; ".join(f"{p}p " + ",".join(lu) for p, lu in cs)  # noqa: E731
        raise UsageError(f"--against {against}: played another panel ({label(theirs)}) than this "
                         f"one ({label(cells)}); compare the same line-ups and player counts")
    played = answered_budgets(against) or []
    if not set(played) & set(budgets):
        raise UsageError(f"--against {against}: played budgets {','.join(map(str, played))}, none of "
                         f"{','.join(map(str, budgets))}; give a budget both play")
    theirs = q.get("rules_data_sha256")
    if theirs is None and q.get("rules"):
        # a directory written before the rules were recorded as read: read them again from the
        # file and settings it names (when the file is still there)
        from simcore.config import parse_settings

        try:
            theirs = rules_data_sha256(game, Path(q["rules"]), parse_settings(q.get("settings") or ()),
                                       sorted({int(c["players"]) for c in (q.get("panel") or {}).get(
                                           "cells", [])} or {int(q.get("players") or 0)}))
        except Exception:          # the file moved or no longer reads: the text's sha256 decides
            theirs = None
    same = q.get("rules_sha256") == rules_sha256 or (rules_data is not None and theirs == rules_data)
    if same:
        raise UsageError(f"--against {against}: played under the same rules as this command"
                         + (" (the same settings, written otherwise)" if q.get("rules_sha256") != rules_sha256
                            else "")
                         + "; compare rules that differ: give this command --rules or --set (or "
                         "--against the directory of the rules before the change)")
    return q


def write_against(out: Path, table, before: dict | None, against: Path | None, spec, question: dict,
                  console, tables=None) -> None:
    """``against.csv``, ``against.parquet`` and ``against.txt`` in ``out`` (the comparison with the
    ``--against`` directory, :mod:`analysis.skill_against`), its record in ``skill.json``, and on
    the terminal a table of every seat's change by budget and the sentence; without ``--against``,
    those of an earlier call are removed (they would be read as this answer's), with a line
    saying so."""
    import sys

    import polars as pl

    from analysis.load import smallest_difference
    from analysis.skill_against import against as compare
    from reports.skill import against_sentence, rules_label

    had = (out / "against.parquet").exists()
    try:
        was = json.loads((out / "skill.json").read_text()).get("against", {}).get("dir") if had else None
    except (OSError, ValueError, AttributeError):
        was = None
    # its figures too (the page writes them again from against.parquet): a panel's earlier
    # comparison of more cells would leave figures of cells no longer compared
    _remove(out, AGAINST_FILES, ("against*.*",))
    if before is None or against is None:
        _write_json(out / "skill.json", question)
        if had:
            print(f"skill: the comparison with other rules in {out} was removed (this call has no "
                  f"--against; add --against {was or 'DIR'} to compare again)", file=sys.stderr)
        return
    theirs = pl.read_parquet(against / "skill.parquet")
    cmp = compare(theirs, table, smallest_difference(spec.name, "share"))
    q = {**question, "against": {
        "dir": str(against), "rules_name": before.get("rules_name"),
        "rules_given": before.get("rules_given"), "rules_sha256": before.get("rules_sha256"),
        "rules_change": before.get("rules_change")}}
    if "start_coins" in question:       # the other rules' start coins, for the caution
        theirs_coins = recorded_start_coins(spec.name, before, sorted({int(k) for k in question["start_coins"]}))
        if theirs_coins is not None:
            q["against"]["start_coins"] = theirs_coins
    words = against_sentence(cmp, q, spec)
    # some seats' start coins compared at budget 0, where the line-up's heuristic bots play
    # (analysis.start_coins): said after the comparison, as the page says it
    from analysis.start_coins import skill_caution

    caution = skill_caution(q, cmp["budget"].unique().to_list())
    from analysis.skill_against import written

    _write_table(out, "against", written(cmp))        # its verdicts in the page's words
    (out / "against.txt").write_text(words + "\n" + (caution + "\n" if caution else ""))
    _write_json(out / "skill.json", q)
    (tables or console).print(_against_table(cmp, rules_label(before), spec))
    console.print(words)
    if caution:
        console.print(caution)


def lineup_kinds(spec, panel) -> dict:
    """Each bot of the panel's line-ups by its kind as the game's loader reads it (``heuristic``,
    ``random``, ``search``...; skill.json ``strategy_kinds``, as run.json records it)."""
    from simcore import games as registry

    loader = registry.import_hook(spec.strategies)
    names = dict.fromkeys(n for c in panel.cells for n in loader.resolve(list(c.lineup), c.players)[0])
    return {str(n): getattr(loader.lookup(n), "kind", None) for n in names}


def recorded_start_coins(game: str, q: dict, counts: list[int]) -> dict | None:
    """The start coins of a skill directory's rules by player count (``counts``): as its skill.json
    records them, or, for one written before it did, read again from the rules file and settings it
    names; None when they cannot be read (the file moved or no longer reads)."""
    if isinstance(q.get("start_coins"), dict):
        return q["start_coins"]
    if not q.get("rules"):
        return None
    from analysis.start_coins import coins_of
    from simcore import runner
    from simcore.config import parse_settings
    from simcore.errors import UsageError

    try:
        return {str(p): coins_of(game, runner.rules_source(game, Path(q["rules"]), parse_settings(
            q.get("settings") or ()), seats=p).text) for p in counts}
    except (OSError, ValueError, UsageError):
        return None


def _against_table(cmp, other: str, spec):
    """The terminal's table of the comparison: a row per cell and budget, a column per seat, each
    cell the change in pp with its interval (no clear change in dim)."""
    from rich.table import Table

    from analysis.stats import NOT_SHOWN

    level = float(cmp["level"][0])
    t = Table(title=f"Against {other}: change in win share by seat, every seat searching (pp, "
                    f"{100 * level:.4g}% intervals, all holding together at 95%)", title_justify="left")
    cells = list(dict.fromkeys(cmp["cell"].to_list()))
    if len(cells) > 1:
        t.add_column("cell")
    t.add_column("budget", justify="right")
    seats = sorted(set(cmp["seat"].to_list()))
    roles = {r["seat"]: str(r["role"]).capitalize() for r in cmp.iter_rows(named=True)}
    for s in seats:
        t.add_column(f"seat {s + 1}" + ("" if spec.roles_alike else f" ({roles[s]})"), justify="right",
                     overflow="fold")
    for c in cells:
        ct = cmp.filter(cmp["cell"] == c)
        for b in sorted(set(ct["budget"].to_list())):
            rows = {r["seat"]: r for r in ct.filter(ct["budget"] == b).iter_rows(named=True)}
            out = []
            for s in seats:
                r = rows.get(s)
                if r is None:
                    out.append("")
                    continue
                text = against_terminal_cell(r)
                out.append(f"[dim]{text}[/dim]" if r["verdict"] == NOT_SHOWN else f"[bold]{text}[/bold]")
            t.add_row(*([c] if len(cells) > 1 else []), str(b), *out)
    return t


def against_terminal_cell(r: dict) -> str:
    """A cell of the terminal's comparison table: the change in pp as the page's table and the
    sentence print it (:func:`analysis.skill_against.change_number`: the difference of the shares
    as printed, a change that prints as 0 but is not at the decimals where it is not, one of 0
    without a sign; it printed the unrounded change, "+0.0" for a change of +0.02 pp and "-0.0"
    for one of -0.01, session 55), its interval on a line of its own."""
    from analysis.skill_against import change_number, row_digits

    d = row_digits(r)           # as the sentence and the page's table (review s58 #5)
    return f"{change_number(r, d)}\n({_pct(r['change_low'], d)} to {_pct(r['change_high'], d)})".replace("-", "−")


AGAINST_FILES = ("against.csv", "against.parquet", "against.txt")


def _remove(out: Path, names, figure_patterns=()) -> None:
    """Remove these files of ``out`` and its figures matching ``figure_patterns`` (those that
    exist)."""
    for name in names:
        (out / name).unlink(missing_ok=True)
    for pattern in figure_patterns:
        for fig in (out / "figures").glob(pattern) if (out / "figures").is_dir() else ():
            fig.unlink(missing_ok=True)


def _write_table(out: Path, stem: str, table) -> None:
    """``<stem>.csv`` and ``<stem>.parquet`` in ``out``, each whole or not at all."""
    for suffix in (".csv", ".parquet"):
        tmp = out / f"{stem}{suffix}.tmp"
        table.write_csv(tmp) if suffix == ".csv" else table.write_parquet(tmp)
        tmp.replace(out / f"{stem}{suffix}")


def answered_budgets(out: Path) -> list[int] | None:
    """The budgets of the answer in ``out`` (its skill.parquet), sorted; None without a readable one."""
    import polars as pl

    try:
        column = pl.read_parquet(out / "skill.parquet", columns=["budget"])["budget"]
    except Exception:          # missing, unreadable or of another layout: no answer on disk
        return None
    return sorted({int(b) for b in column.to_list()})


def _write_json(path: Path, data: dict) -> None:
    """Write skill.json whole or not at all (an interrupted write left half a file, which the
    next balance skill could not read)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1))
    tmp.replace(path)


#: The terminal width from which the budget table is printed one row per budget (every seat's
#: share in its own column): below it, one row per budget and seat (:func:`_long_table`).
WIDE_TABLE_COLUMNS = 120


def _long_table(title: str, ct, bs, roles, spec, several, who: str, has_gap: bool):
    """The budget table for a narrow terminal: one row per budget and seat, the searching seat's
    win share there (one searching seat, the others their own bots) and the seat's win share with
    every seat searching, with its 95% interval; the largest gap (between two seats, or two seats of
    the role several play) on the budget's first row, with the interval the sentence reads."""
    from rich.table import Table

    from reports.skill import gap_level_words

    gap_name = "largest gap, pp" if spec.roles_alike or has_gap else None
    each = ct.filter(ct["part"] == "one")["games"]
    games = f" over its own {int(each.max()):,} games" if each.len() and each.min() == each.max() else ""
    caption = (f"one searching: the searching seat's win share there{games} (the seats search in turn), "
               "the other seats their own bots; all searching: every seat searching; each with its "
               "95% interval"
               + (f"; largest gap: between two seats' win shares, with its interval "
                  f"({gap_level_words(ct)[1]})" if spec.roles_alike else
                  f"; largest gap: between two {who}, with its 95% interval" if has_gap else "")
               + (f". {note}" if (note := _budget0_note(ct)) else ""))
    t = Table(title=title, title_justify="left", caption=caption, caption_justify="left")
    t.add_column("budget", justify="right")
    t.add_column("seat")
    t.add_column("one searching", justify="right")
    t.add_column("all searching", justify="right", no_wrap=True)
    if gap_name:
        t.add_column(gap_name, justify="right", no_wrap=True)
    for b in bs:
        one = ct.filter((ct["budget"] == b) & (ct["part"] == "one")).sort("seat")
        allp = ct.filter((ct["budget"] == b) & (ct["part"] == "all")).sort("seat")
        # with its interval (review X #6: "70.0%" from 10 games read as a 40-game result)
        share = {int(r["seat"]): _share_cell(r) for r in one.iter_rows(named=True)}
        for i, r in enumerate(allp.iter_rows(named=True)):
            s = int(r["seat"])
            seat = f"{s + 1}" + ("" if spec.roles_alike else f" {roles[s].capitalize()}")
            gap = ""
            if i == 0 and gap_name:
                gap = (_gap_cell(allp) if spec.roles_alike else _role_gap_cell(allp)).replace("\n", " ")
            t.add_row(str(b) if i == 0 else "", seat,
                      share.get(s, ""),
                      _share_cell(r),
                      *([gap] if gap_name else []), end_section=i == allp.height - 1)
    return t


def _mean_by_role(one, roles, roles_alike: bool) -> str:
    """The one-searching-seat win shares averaged over the seats (weighted by games), or, in a game
    with roles, over each role's seats: "Seigneur 0.5%; Censitaire 31.2% a seat" (a role of several
    seats says "a seat": its mean read as the side's share beside the page's side totals, designer
    review 44 #10)."""
    def mean(rows) -> float:
        return float((rows["win_share"] * rows["games"]).sum() / rows["games"].sum())

    if roles_alike:
        return f"{_pct(mean(one))}%"
    import polars as pl

    return "; ".join(
        f"{r.capitalize()} "
        f"{_pct(mean(one.filter(pl.col('seat').is_in([s for s, x in enumerate(roles) if x == r]))))}%"
        + (" a seat" if roles.count(r) > 1 else "")
        for r in dict.fromkeys(roles))


def _gap_cell(allp) -> str:
    """The largest gap between two seats' win shares, as the difference of the two shares the table
    prints beside it (:func:`analysis.skill_words.shown_gap`: 26.6% and 23.8% make 2.8, never 2.9;
    review s42 B #5), and the interval the sentence reads (at the table's ``adjusted_level``,
    from the unrounded shares: one number, one interval). ``allp``: a budget's every-seat rows."""
    from analysis.skill_words import shown_gap

    if isinstance(allp, dict):          # one row alone: its gap, the seats' shares unknown
        r, gap, d = allp, 1 - allp["win_share_balance"], 1
    else:
        r = allp.row(0, named=True)
        gap, d = shown_gap(list(allp.iter_rows(named=True)))
    return (f"{_pct(gap, d)}\n"
            f"({_pct(1 - r['win_share_balance_high_adjusted'], d)}–"
            f"{_pct(1 - r['win_share_balance_low_adjusted'], d)})")


def _role_plural(spec, role: str) -> str:
    """A role of several seats as the sentences name it: "Censitaires"."""
    from analysis.skill_target import role_labels

    return role_labels(spec).get(role, role.capitalize())


def _role_gap_cell(allp) -> str:
    """The largest gap between two seats of the role of several seats, as the difference of their
    shares the table prints (:func:`analysis.skill_words.shown_gap`), and its 95% interval.
    ``allp``: a budget's every-seat rows."""
    from analysis.skill import several_seats_role
    from analysis.skill_words import shown_gap

    r = allp if isinstance(allp, dict) else allp.row(0, named=True)
    if r.get("role_gap") is None:
        return ""
    if isinstance(allp, dict):          # one row alone: its gap, the seats' shares unknown
        return f"{_pct(r['role_gap'])}\n({_pct(r['role_gap_low'])}–{_pct(r['role_gap_high'])})"
    rows = list(allp.iter_rows(named=True))
    several = several_seats_role([x["role"] for x in rows])
    gap, d = (shown_gap([rows[s] for s in several[1]]) if several is not None
              else (r["role_gap"], 1))
    return f"{_pct(gap, d)}\n({_pct(r['role_gap_low'], d)}–{_pct(r['role_gap_high'], d)})"


def _pct(x: float, digits: int = 1) -> str:
    """A fraction in percent at ``digits`` decimals, halves away from zero as the page rounds it
    (:func:`reports.text.pct`, :func:`simcore.numbers.rounded`): 0.3625 → "36.3"."""
    from reports.text import pct

    return pct(x, digits)


def _share_cell(r: dict) -> str:
    """A seat's win share with its 95% interval as the page writes it (:func:`reports.text.pct_ci`,
    more decimals only where an end would print as the share or the other end): "36.3% (31.5–41.2)"."""
    from reports.text import pct_ci

    return pct_ci(r["win_share"], r["ci_low"], r["ci_high"])


def pl_in(table, budgets):
    return table["budget"].is_in(budgets)
