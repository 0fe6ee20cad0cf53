"""A CI gate over a panel: a baseline per cell, and a check that decides every cell's metrics with
the error rate controlled over the whole family.

:func:`record_panel_baseline` plays every cell of a :class:`strategies.panels.Panel` (``games``
games, the same seed; the runs kept under ``DIR/runs/cell-K/``) and writes one ordinary baseline
file per cell (``DIR/cell-K.toml``, :func:`analysis.check.baseline.make_baseline`) and
``DIR/panel.json`` (the panel and its files), built under a hidden name beside ``DIR`` and
published whole with the toolkit's ownership marker (kind :data:`PANEL_KIND`), so a baseline that
stops leaves nothing and ``--force`` replaces one written before; ``--games`` too few for any cell
is refused before a game (:func:`check_panel_games`), and a cell whose baseline proves too small
once played is one line naming it (nothing written). :func:`check_panel` plays each cell's check
(:func:`analysis.check.play.play_check`, the sequential test per metric) with the chance of a false
FAIL split over the cells (Bonferroni: ``alpha / n_cells`` per cell, whose own test already controls
it over the cell's metrics), so the chance of any false FAIL over cells × metrics stays at most
``alpha``; ``beta`` (the chance that a shift of twice the tolerance passes) is per cell and metric.
The panel fails if a cell fails, is undecided if none fails and one is undecided, passes otherwise.

The cells' files are numbered from 0 (``cell-0.toml`` …, as ``sweep --panel`` and tune
confirmations number theirs; a panel of runs, ``simulate --panel``, numbers its directories from 1):
every line that names a cell by its position also names its file ("cell 1 of 3 (cell-0.toml): 4p
4×balanced"), so a designer loosening a cell's tolerance edits the file the line names, and
directories written before keep working. :func:`panel_lines` words the check's output (each cell's
line names its file and, when the cell stopped at its first regression, how many metrics were left
undecided); :func:`write_panel_reports` writes ``--junit`` (one test suite per cell, one test case
per cell and metric) and ``--summary`` (one section per cell).

May import the standard library, :mod:`simcore` (runner lazily, as :mod:`analysis.check.play`),
:mod:`strategies.panels` and :mod:`analysis.check`.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from simcore.errors import UsageError
from strategies.panels import Panel

PANEL_JSON = "panel.json"         # (analysis.check.baseline.PANEL_JSON_NAME: the cells' files name it)
#: The ownership marker's kind of a panel baseline directory (:mod:`simcore.atomic`): ``--force``
#: replaces only a directory of this kind.
PANEL_KIND = "panel-baseline"


def is_panel_baseline(path) -> bool:
    return Path(path).is_dir() and (Path(path) / PANEL_JSON).is_file()


def check_panel_games(panel: Panel, games: int, tolerance: dict | None, beta: float,
                      smallest: dict | None = None) -> None:
    """Refuse, before any game, ``games`` per cell too few for a baseline a check could pass: the
    seat win shares' own error would exceed what the seat win-share tolerance leaves
    (:func:`analysis.check.decision.planned_baseline_games`, the rule :func:`plan_games` applies
    once the cell is measured). One :class:`UsageError` line naming --games."""
    from analysis.check.decision import planned_baseline_games
    from analysis.load import smallest_difference

    # the tolerance a baseline records by default: the game's smallest share difference that
    # matters (make_baseline's default), in pp
    tol = float((tolerance or {}).get("seat_win_share",
                                      100.0 * smallest_difference(panel.game, "share", smallest)))
    for c in panel.cells:
        least, ask = planned_baseline_games(c.players, tol, beta)
        if games < least:
            se = 100.0 * ((1.0 / c.players) * (1 - 1.0 / c.players) / games) ** 0.5
            raise UsageError(f"--games {games:,}: too few for a baseline of {c.label}: a seat's win share "
                             f"would have a standard error of about {se:.2g} pp, too large for a "
                             f"tolerance of ±{tol:g} pp (even an unchanged configuration could not pass "
                             f"a check); use --games {int(-(-ask // 1000)) * 1000:,} or more, or raise "
                             "--tolerance")


def record_panel_baseline(panel: Panel, out: str | Path, *, games: int, seed: int = 0,
                          rules=None, settings=(), force: bool = False, tolerance=None,
                          alpha: float | None = None, beta: float | None = None,
                          check_games: int | None = None, threads: int | None = None,
                          log=None, executor=None, seed_offset: int | None = None,
                          smallest: dict | None = None) -> Path:
    """Play every cell and write its baseline; returns ``out`` (a directory). ``seed_offset`` and
    ``smallest`` (``--seed-offset``, ``--smallest-difference``) go into every cell's file, as a
    baseline of one run records them (review s50 today #2: they were dropped, the cells' files
    holding the defaults while the command exited 0).

    ``settings`` (``--set``) change the rules: each cell's complete rules (an index into a single
    value makes a per-seat list of that cell's player count) are written as ``cell-K.rules.toml``
    beside its baseline, which names that file, so a check plays the very rules measured.

    The directory is built under a hidden name beside ``out`` and published whole, with the
    toolkit's ownership marker (kind :data:`PANEL_KIND`), once every cell is recorded
    (:func:`simcore.atomic.publish_dir`, as a report is): a baseline that fails — a cell whose
    baseline turns out too small once played (:func:`_too_small`), a bad rule, Ctrl-C — leaves
    nothing behind and ``out`` as it was (revH #1: it left ``out/runs/cell-0/`` without a marker,
    which the same command, even with ``--force``, then refused to replace), and ``--force``
    replaces a panel baseline written before."""
    from simcore import runner
    from simcore.atomic import check_output_dir, publish_dir, release_claim, temporary_dir, \
        write_text_atomic

    from analysis.check.baseline import DEFAULT_ALPHA, DEFAULT_BETA, check_settings, make_baseline
    from analysis.check.decision import BaselineTooSmall

    out = Path(out)
    check_settings(DEFAULT_ALPHA if alpha is None else alpha, 1, tolerance or {},
                   DEFAULT_BETA if beta is None else beta)
    check_panel_games(panel, games, tolerance, DEFAULT_BETA if beta is None else beta, smallest)
    if check_games is not None:     # before any cell is played (review s58 #2)
        from analysis.check.decision import check_games_enough

        check_games_enough(int(check_games), 1, "--check-games")
    check_output_dir(out, force, inputs=[p for p in (rules,) if p is not None], kind=PANEL_KIND)
    preps = [runner.prepare(panel.game, players=c.players, strategies=c.strategies, rules=rules,
                            settings=settings, quiet=True) for c in panel.cells]   # validate first
    work = temporary_dir(out)
    published = False
    try:
        if settings:
            cell_rules = []
            for k, (c, prep) in enumerate(zip(panel.cells, preps)):
                path = work / f"cell-{k}.rules.toml"
                write_text_atomic(path, prep.rules_text, force=True)
                cell_rules.append(path)
            preps = [runner.prepare(panel.game, players=c.players, strategies=c.strategies, rules=r,
                                    quiet=True) for c, r in zip(panel.cells, cell_rules)]
            for k, prep in enumerate(preps):      # the rules file as it is named once published
                prep.rules_name = str(out / f"cell-{k}.rules.toml")
        files = []
        for k, (c, prep) in enumerate(zip(panel.cells, preps)):
            name = f"cell-{k}.toml"
            where = f"cell {k + 1} of {len(panel)} ({name})"
            if log:     # the file the cell's baseline is, not only its position (numbered from 1)
                log(f"{where}: {c.label} ({games:,} games)")
            run = runner.run(prep, games=games, seed=seed, out=work / "runs" / f"cell-{k}", force=True,
                             threads=threads, quiet=True, executor=executor)
            try:
                family = DEFAULT_ALPHA if alpha is None else alpha
                make_baseline(run, work / name, force=True, tolerance=tolerance, alpha=family,
                              beta=DEFAULT_BETA if beta is None else beta, check_games=check_games,
                              published_as=(out / name, out / "runs" / f"cell-{k}"),
                              # its most games planned at the alpha the panel check gives a cell
                              plan_alpha=family / len(panel.cells), panel=True,
                              seed_offset=seed_offset, smallest=smallest)
            except BaselineTooSmall as exc:
                raise _too_small(exc, games, f"{where} {c.label}", out, panel.game) from None
            files.append(name)
        meta = {"format": 1, "kind": "panel-baseline", "panel": panel.to_json(), "baselines": files,
                "games": games, "seed": seed,
                "settings": [getattr(x, "text", str(x)) for x in settings],
                "family": "a check splits alpha over the cells (alpha / n per cell)"}
        write_text_atomic(work / PANEL_JSON, json.dumps(meta, indent=2, ensure_ascii=False) + "\n",
                          force=True)
        written = publish_dir(work, out, PANEL_KIND)
        published = True
    finally:
        if not published:
            shutil.rmtree(work, ignore_errors=True)
            release_claim(out, published=False)
    if Path(written) != out:
        # published beside something that appeared at --out meanwhile (review s51: it printed out,
        # then read out/cell-0.toml and exited 2 after every game); the cells' files were written
        # for out and say so
        print(f"note: the cells' files name {out} in their commands and rules (where they were to "
              f"be written); move {written} to {out} to use them as written", file=sys.stderr)
    return Path(written)


def _too_small(exc, games: int, cell: str, out: Path, game: str) -> UsageError:
    """The one line for a cell whose baseline, once played, is too small for its tolerance
    (:class:`analysis.check.decision.BaselineTooSmall`): which cell and metric, that this could
    not be known before the cell was played (how much a seat's results vary is measured by its
    games; :func:`check_panel_games` refuses before any game what is too few whatever they show),
    that nothing was written, and the --games that would do."""
    from analysis.check.measure import diff_unit_of

    ask = int(-(-exc.games_hint // 1000)) * 1000
    unit = diff_unit_of(exc.metric, game)
    option = "--tolerance" if unit == "pp" else "--score-tolerance"
    return UsageError(f"--games {games:,}: too few for a baseline of {cell}: {exc.label} has a "
                      f"standard error of {exc.se:.3g} {unit} ({exc.counted}), too large for "
                      f"a tolerance of ±{exc.tolerance:g} {unit} (even an unchanged configuration "
                      "could not pass a check); this shows only once the cell is played (how much "
                      f"its results vary), and nothing was written to --out {out}; use --games "
                      f"{ask:,} or more, or raise {option}")


@dataclass
class PanelCheck:
    labels: list[str]
    results: list                # one CheckResult per cell
    alpha: float                 # over the whole family
    alpha_cell: float
    files: list[str] = field(default_factory=list)     # each cell's baseline file (cell-K.toml)

    @property
    def exit_code(self) -> int:
        codes = [r.exit_code for r in self.results]
        return 1 if 1 in codes else (3 if 3 in codes else 0)

    @property
    def verdict(self) -> str:
        return {0: "PASS", 1: "FAIL", 3: "UNDECIDED"}[self.exit_code]

    def text(self, lead: str = "") -> str:
        """The panel's verdict line; ``lead``: what the checked rules change, said right after the
        verdict (:func:`analysis.check.presentation.panel_report` words it)."""
        from collections import Counter

        v = Counter(r.verdict for r in self.results)
        said = f" ({lead})" if lead else ""
        head = (f"panel check: {self.verdict}{said} — {len(self.results)} cell{'s' if len(self.results) != 1 else ''} ("
                + ", ".join(f"{n} {k}" for k, n in sorted(v.items())) + f"); a false FAIL anywhere "
                f"in the panel at most {self.alpha:g} ({self.alpha_cell:.4g} per cell)")
        return head

    def left_out(self) -> list[str]:
        """What the cells left out of their check, one line each with the cells it holds for
        ("note (every cell): mean scores not checked (4 metrics): the goal changed …"; review X #1:
        a goal change drops the mean scores from every cell, which only --summary or one cell's own
        check said, while the verdict line counted the metrics left)."""
        out = []
        for n in dict.fromkeys(n for r in self.results for n in getattr(r, "notes", []) or []):
            if "not checked" not in n:
                continue
            cells = sum(n in (getattr(r, "notes", []) or []) for r in self.results)
            where = "every cell" if cells == len(self.results) else f"{cells} of {len(self.results)} cells"
            out.append(f"note ({where}): {n}")
        return out


def read_panel_baseline(path: str | Path) -> tuple[Panel, list]:
    """The panel a baseline directory recorded and its baselines, one per cell (one line, exit 2,
    for a directory that is not one)."""
    from analysis.check.baseline import load_baseline

    path = Path(path)
    record = "record one with balance baseline --panel NAME --out DIR"
    try:
        meta = json.loads((path / PANEL_JSON).read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"{path}: not a panel baseline directory (cannot read {PANEL_JSON}: "
                         f"{exc.strerror})") from None
    except ValueError:
        raise UsageError(f"{path}: not a panel baseline directory ({PANEL_JSON} is not readable "
                         f"JSON: damaged or written by something else); {record}") from None
    kind = meta.get("kind") if isinstance(meta, dict) else None
    if kind == "panel":               # a panel of runs (simulate --panel), finished or not
        from simcore.rundir import unfinished_panel

        why = unfinished_panel(path)
        said = f" ({why.split(';')[0]})" if why else ""
        raise UsageError(f"{path}: a panel of runs played by simulate --panel{said}, not a panel "
                         f"baseline directory; {record}")
    if not isinstance(meta, dict) or not isinstance(meta.get("baselines"), list) \
            or "panel" not in meta:
        raise UsageError(f"{path}: not a panel baseline directory ({PANEL_JSON} lists no cell "
                         f"baselines: an unfinished or damaged one, or another panel.json); {record}")
    try:
        panel = Panel.from_json(meta["panel"])
        files = [str(f) for f in meta["baselines"]]
    except (ValueError, KeyError, TypeError, UsageError) as exc:
        raise UsageError(f"{path}: {PANEL_JSON} does not describe a panel ({exc}); it is damaged: "
                         f"{record}"[:300]) from None
    if len(files) != len(panel.cells):
        raise UsageError(f"{path / PANEL_JSON}: {len(panel.cells)} cells but {len(files)} baselines")
    return panel, [load_baseline(path / f) for f in files]


def select_cells(recorded: Panel, bases: list, wanted: Panel | None, where: str) -> tuple[list, list]:
    """The cells of ``wanted`` (``--panel``, ``--players``/``--lineup``) among the recorded ones, with
    their baselines, in ``wanted``'s order; every recorded cell when ``wanted`` is None. A cell
    the baseline did not record is one line: it has nothing to be checked against."""
    if wanted is None:
        return list(recorded.cells), bases
    if wanted.game != recorded.game:
        raise UsageError(f"{wanted.option}: a panel of {wanted.game}, the baseline {where} "
                         f"records {recorded.game}")
    index = {(c.players, c.lineup): k for k, c in enumerate(recorded.cells)}
    cells, chosen = [], []
    for c in wanted.cells:
        k = index.get((c.players, c.lineup))
        if k is None:
            known = ", ".join(x.label for x in recorded.cells[:6]) + (" …" if len(recorded) > 6 else "")
            # a runnable command that records it (s42 review A #9: "--panel command-line", and
            # "record it with balance baseline --panel" for a cell the designer typed)
            cmd = (f"balance baseline --game {wanted.game} --players {c.players} --lineup "
                   f"{c.strategies} --out DIR" if wanted.made_here else
                   f"balance baseline --game {wanted.game} --panel {wanted.typed} --out DIR")
            raise UsageError(f"{wanted.option}: cell {c.label} is not recorded in the baseline "
                             f"{where} (it records {known}); record a baseline of it with {cmd}")
        cells.append(recorded.cells[k])
        chosen.append(bases[k])
    return cells, chosen


def _same_cells(cells: list, bases: list, game: str) -> None:
    """Refuse a cell whose baseline file plays another configuration than the cell panel.json
    files it under (review s49 panels #1: a cell file edited to greedy bots, or another player
    count's file copied over it, was checked under the recorded cell's label): its game, player
    count and bots (a bot file's recorded name is its table's, ``mine.toml:fast`` → ``fast``)."""
    def same_bot(wanted: str, recorded: str) -> bool:
        return wanted == recorded or wanted.endswith(":" + recorded) \
            or Path(wanted.split(":")[0]).stem == recorded
    for cell, b in zip(cells, bases):
        name = _file_of(b)
        if b.game != game:
            raise UsageError(f"{b.path}: a baseline of {b.game}, but panel.json files it as cell "
                             f"{cell.label} of {game}: restore the file ({name}) or record the panel again")
        if int(b.players) != cell.players:
            raise UsageError(f"{b.path}: players = {b.players}, but panel.json files it as cell "
                             f"{cell.label}: restore the file ({name}) or record the panel again")
        bots = [str(x) for x in b.strategies]
        if len(bots) != len(cell.lineup) or not all(map(same_bot, cell.lineup, bots)):
            raise UsageError(f"{b.path}: strategies = {bots}, but panel.json files it as cell "
                             f"{cell.label} ({', '.join(cell.lineup)}): restore the file ({name}) or "
                             "record the panel again")
        if b.rotate_seats:
            raise UsageError(f"{b.path}: rotate_seats = true, but a panel's cells are played with "
                             f"fixed seats ({cell.label}): restore the file ({name})")


def check_panel(path: str | Path, *, panel: Panel | None = None, games: int | None = None,
                rules=None, settings=(), alpha: float | None = None, beta: float | None = None,
                threads: int | None = None, log=None, executor=None, seed: int | None = None,
                batch: int | None = None, smallest: dict | None = None) -> PanelCheck:
    """Check the cells of a panel baseline directory (every recorded cell, or those of ``panel``),
    with the chance of a false FAIL split over the cells checked (see the module docstring).
    ``seed``, ``batch`` and ``smallest`` (--seed, --batch, --smallest-difference) apply to every
    cell as to a single baseline's check; each is checked for every cell before any game."""
    from analysis.check.baseline import check_settings
    from analysis.check.play import _prepare, _rules_path, check_batch, check_games_enough, \
        check_play_seed, play_check

    path = Path(path)
    recorded, bases = read_panel_baseline(path)
    cells, bases = select_cells(recorded, bases, panel, str(path))
    labels = [c.label for c in cells]
    if batch is not None:
        check_batch(batch, 1)         # a multiple of a deal's games: per cell, when it is prepared
    for b in bases:                   # every cell's settings before any game
        check_settings(b.alpha if alpha is None else alpha, b.seed_offset, {},
                       b.beta if beta is None else beta)
        check_play_seed(b, seed)
        # a look of too few games, from the command line or a cell's file (a deal's games: per
        # cell, when it is prepared)
        if batch is None and b.batch:
            check_batch(b.batch, 1, f"{b.path}: check.batch")
        if games is not None:
            check_games_enough(games, 1)
        elif b.check_games:
            check_games_enough(b.check_games, 1, f"{b.path}: check.games")
        if smallest:                  # --smallest-difference: over the baseline's own
            b.smallest = {**b.smallest, **smallest}
    _same_cells(cells, bases, recorded.game)
    if alpha is None:
        # one family: its false-FAIL budget is the same in every cell's file, else said (review
        # s49 panels #3: the first cell's alpha was taken for all, another cell's edit ignored)
        alphas = {float(b.alpha) for b in bases}
        if len(alphas) > 1:
            said = ", ".join(f"{_file_of(b)} {b.alpha:g}" for b in bases)
            raise UsageError(f"{path}: the cells' files give different alpha ({said}); a panel "
                             "check splits one alpha over its cells: make them equal, or give --alpha")
    family = bases[0].alpha if alpha is None else alpha
    per_cell = family / len(bases)
    # every cell's rules (its file's, --rules, --set) read and checked before any game (review s49
    # panels #2: a --set that fits no 5-player game, or a later cell's missing rules file, stopped
    # the check after the earlier cells had played, their verdicts lost)
    for b in bases:
        _prepare(b, _rules_path(b, rules, "--rules"), settings)
    results = []
    files = [_file_of(b) for b in bases]
    for k, (label, base, name) in enumerate(zip(labels, bases, files)):
        if log:     # the cell's file beside its position: "cell 1 of 3" is cell-0.toml
            log(f"cell {k + 1} of {len(bases)} ({name}): {label}")
        results.append(play_check(base, games=games, rules=rules, settings=settings,
                                  alpha=per_cell, beta=beta, threads=threads, log=log,
                                  executor=executor, seed=seed, batch=batch))
    return PanelCheck(labels, results, family, per_cell, files)


def _file_of(base) -> str:
    """The name of a cell's baseline file (``cell-0.toml``), as the directory holds it."""
    path = getattr(base, "path", None)
    return Path(path).name if path else ""


def _undecided_clause(res) -> str:
    """What a FAIL line of a cell leaves unsaid: the check stops at a cell's first regression, so
    the metrics still open then were not decided (the single-file output lists them with "not
    decided when the check stopped at the first regression")."""
    if res.verdict != "fail" or not res.undecided:
        return ""
    others = len(res.results) - len(res.failed)
    if others == 1:     # not "1 of the other 1 metrics" (s42 review A #3)
        return "; the other metric was not decided: the check stops at a cell's first regression"
    return (f"; {len(res.undecided)} of the other {others} metrics not decided: the check stops at "
            "a cell's first regression")


def panel_lines(pc: PanelCheck, quiet: bool = False) -> list[str]:
    """The output of ``balance check --baseline DIR``: the panel's verdict line, then one line per
    cell (:func:`analysis.check.presentation.panel_report`), each led by the cell's label and its
    baseline file ("4p 4×balanced (cell-0.toml): FAIL: …"), a FAIL saying how many metrics were
    left undecided when the cell's check stopped; under the verdict, what the cells left out of their
    check (:meth:`PanelCheck.left_out`). ``quiet``: the verdict line only."""
    from analysis.check.presentation import panel_report

    lines = panel_report(pc, quiet=quiet)
    if quiet:
        return lines
    files = pc.files or [""] * len(pc.labels)
    out = [lines[0]] + pc.left_out()
    for line, label, name, res in zip(lines[1:], pc.labels, files, pc.results):
        rest = line[len(label) + 2:] if line.startswith(label + ": ") else line
        named = f"{label} ({name})" if name else label
        out.append(f"{named}: {rest}{_undecided_clause(res)}")
    return out


def panel_junit_xml(pc: PanelCheck) -> str:
    """One JUnit file for a panel check: one ``<testsuite>`` per cell (named by its label and
    baseline file, each cell's own JUnit of :func:`analysis.check.presentation.junit_xml`: a test
    case per metric, failures for regressions, ``<skipped>`` for metrics left undecided), the test
    cases' class names led by the cell's file so that CI reporters keep the cells apart; the
    panel's verdict line in every suite's properties; totals summed on ``<testsuites>``."""
    import xml.etree.ElementTree as ET

    from analysis.check.presentation import JUNIT_SIGN, junit_xml

    head = panel_lines(pc, quiet=True)[0]       # the verdict line, with what the rules change
    root = ET.Element("testsuites", name="balance check (panel)")
    totals = {"tests": 0, "failures": 0, "skipped": 0}
    files = pc.files or [f"cell {k + 1}" for k in range(len(pc.labels))]
    for label, name, res in zip(pc.labels, files, pc.results):
        one = ET.fromstring(junit_xml(res).split("\n", 2)[2])      # past the declaration and sign
        for suite in list(one.iter("testsuite")):
            suite.set("name", f"balance check {name}: {label}")
            props = suite.find("properties")
            if props is not None:
                ET.SubElement(props, "property", name="cell", value=f"{label} ({name})")
                ET.SubElement(props, "property", name="panel_verdict", value=head)
            stem = Path(name).stem.replace(" ", "-")
            for case in suite.iter("testcase"):
                case.set("classname", case.get("classname", "").replace(
                    "balance.check.", f"balance.check.{stem}.", 1))
                case.set("name", f"{label}: {case.get('name')}")
            for k in totals:
                totals[k] += int(suite.get(k, "0"))
            root.append(suite)
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("errors", "0")
    ET.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + JUNIT_SIGN + "\n"
            + ET.tostring(root, encoding="unicode") + "\n")


def panel_markdown(pc: PanelCheck) -> str:
    """A Markdown summary of a panel check: the panel's verdict, then each cell's own summary
    (:func:`analysis.check.presentation.markdown_summary`) under a heading naming the cell and its
    baseline file."""
    from analysis.check.presentation import markdown_summary

    icon = {"PASS": "✅", "FAIL": "❌", "UNDECIDED": "⚠️"}[pc.verdict]
    parts = [f"## {icon} balance check (panel): {pc.verdict}", "", panel_lines(pc, quiet=True)[0] + ".",
             ""]
    files = pc.files or [""] * len(pc.labels)
    for label, name, res in zip(pc.labels, files, pc.results):
        body = markdown_summary(res)
        if body.startswith("## "):
            first, _, rest = body.partition("\n")
            named = f"{label} (`{name}`)" if name else label
            body = f"### {named}: {first[3:]}\n{rest}"
        parts.append(body)
    return "\n".join(parts)


def write_panel_reports(pc: PanelCheck, junit=None, summary=None, force: bool = False) -> None:
    """``--junit`` (replaced atomically, as a single baseline's) and ``--summary`` (appended)."""
    from simcore.atomic import append_text, write_text_atomic

    from analysis.check.presentation import JUNIT_FILE, JUNIT_SIGN

    if junit is not None:
        write_text_atomic(junit, panel_junit_xml(pc), force=force, option="--junit",
                          own_sign=JUNIT_SIGN, replaces=JUNIT_FILE)
    if summary is not None:
        append_text(summary, panel_markdown(pc), "--summary")


__all__ = ["check_panel_games", "record_panel_baseline", "check_panel", "is_panel_baseline", "read_panel_baseline",
           "select_cells", "PanelCheck", "panel_lines", "panel_junit_xml", "panel_markdown",
           "write_panel_reports"]
