"""The baseline file of the regression check (``balance baseline`` writes it, ``balance check`` reads it).

A baseline (a commented TOML file, see :func:`render_baseline`) records what a run measured (the
:class:`~analysis.check.measure.Measurement` of every checked metric), how to reproduce the run
(game, players, strategies, seed, games, rules file and its sha256, :func:`simulate_command`,
:func:`rules_entry`; the strategy files the seats name, relative to the baseline file, with their
sha256, :func:`strategy_files_entry`), the smallest difference that matters (``[smallest_difference]``: how a check
words a change) and the accepted tolerance of every metric with the check's settings (alpha,
beta, the maximum number of games and the games per look of the sequential test, seed offset;
:func:`check_settings`). Each tolerance defaults to the smallest difference that matters
(:func:`default_tolerances`), and :func:`tolerance_summary` says so in ``balance baseline``'s output,
with :func:`power_caveat` when the baseline's own error limits a check's power; the comment beside
``[check] games`` says what that maximum is made of (:func:`games_comment`). Files of format 1 (before the sequential check) still load: their
``games`` is read as the maximum, ``beta`` and ``batch`` take their defaults and
``on_inconclusive`` is accepted and ignored (an undecided check exits 3). :func:`make_baseline` measures a run
and writes the file, :func:`load_baseline` reads and validates it into a :class:`Baseline`. May
import the standard library, :mod:`analysis.check.measure`, :mod:`analysis.check.decision` (its
defaults), :mod:`analysis.export` (atomic writes), :mod:`analysis.rules_diff` (the settings two
rules texts differ in), :mod:`simcore.config`, :mod:`simcore.errors` and :mod:`simcore.games` (the game names and their shipped rules files);
never :mod:`analysis.check.presentation`.
"""

from __future__ import annotations

import json
import re
import math
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Sequence

from analysis.check.decision import DEFAULT_ALPHA, DEFAULT_BETA, MAX_GAMES_FACTOR as MAX_FACTOR
from analysis.check.decision import ON_INCONCLUSIVE, check_games_enough, game_title, metric_names, plan_games
from analysis.check.measure import KINDS, Z95, Measurement, measure_run, unit_of
from simcore.atomic import BASELINE_FILE, BASELINE_SIGN
from simcore.config import Table, read_toml
from simcore.errors import ConfigError, UsageError

FORMAT = 2
READS = (1, 2)          # format 1: written before the sequential check (see the module docstring)
DEFAULT_SEED_OFFSET = 1


@dataclass
class Baseline:
    """A baseline file as loaded (see :func:`render_baseline` for every key)."""

    path: Path
    game: str
    players: int
    strategies: list[str]
    rotate_seats: bool
    engine: str
    seed: int
    games: int
    rules: str                    # "default" or a path relative to the baseline file
    rules_sha256: str
    version: str
    created_utc: str
    alpha: float
    check_games: int | None       # the maximum a check plays (None: from the power calculation)
    seed_offset: int
    on_inconclusive: str          # format 1 only; not used
    tolerance: dict[str, float]
    metrics: list[Measurement]
    beta: float = DEFAULT_BETA
    batch: int | None = None      # games per look (None: analysis.check.decision.default_batch)
    format: int = FORMAT
    # the smallest differences that matter, by kind ("share" as a fraction, "score", "length"):
    # the file's [smallest_difference] over the game's own (analysis.load.smallest_difference)
    smallest: dict = field(default_factory=dict)
    # the rules text measured ([measured_rules] text: the rules file after any --set), when the
    # file records it and it matches rules_sha256; files written before it: None
    measured_rules: str | None = None
    # the strategy files the seats name (``[run] strategy_files``): each as the seats name it
    # ("name", a strategy metric's key holds it), where it is relative to this file ("path") and
    # its sha256 when measured; None for a file written before they were recorded (its seats'
    # files are then read relative to the working directory, review s61 #2)
    strategy_files: list[dict] | None = None

    def strategy_locations(self) -> dict[str, Path]:
        """Where each strategy file the seats name is (by the name the seats give it): relative
        to the baseline file's directory, as its rules are; {} for a file that records none."""
        out = {}
        for f in self.strategy_files or []:
            p = Path(f["path"])
            out[f["name"]] = p if p.is_absolute() else self.path.parent / p
        return out

    def strategy_file_changes(self, read: dict | None) -> list[str]:
        """The strategy files whose sha256 now (``read``: run.json ``strategy_files``, or a played
        check's, by the seats' names) is not the one the baseline recorded: one phrase each,
        "strategies/mybot.toml (sha256 1a2b… then, 3c4d… now)" (review s61 #2: an edited bot file
        went unsaid, where an edited rules file is a change)."""
        out = []
        for f in self.strategy_files or []:
            now = (read or {}).get(f["name"])
            sha = str(now.get("sha256", "")) if isinstance(now, dict) else ""
            if sha and sha != f["sha256"]:
                out.append(f"{f['name']} (sha256 {f['sha256'][:12]}… then, {sha[:12]}… now)")
        return out

    def seat_files(self) -> list[str]:
        """The strategy files the seats name (:func:`strategies.common.spec_file`), in seat order,
        each once."""
        return _seat_files(self.strategies)

    def smallest_of(self, metric: str) -> float:
        """The smallest difference of ``metric`` that matters, in the check's difference unit
        (percentage points for win shares, the score unit for mean scores)."""
        from analysis.load import smallest_difference

        if KINDS[metric].unit == "%":
            return 100.0 * smallest_difference(self.game, "share", self.smallest)
        return smallest_difference(self.game, "score", self.smallest)

    def rules_path(self) -> Path | None:
        """The rules file the baseline names (None = the game's shipped default rules)."""
        if self.rules == "default":
            return None
        p = Path(self.rules)
        return p if p.is_absolute() else (self.path.parent / p)

    def rules_file(self) -> Path | None:
        """The rules file the baseline measured: the one it names, or for "default" the game's
        shipped rules file (None when the game ships none)."""
        path = self.rules_path()
        if path is not None:
            return path
        from simcore import games as registry

        shipped = dict(registry.shipped_rules()).get(self.game)
        return Path(shipped()) if shipped is not None else None

    @property
    def title(self) -> str:
        """The game's title, as a designer names it ("Seigneurial", "Médiévallons")."""
        return game_title(self.game)

    def tolerance_of(self, m: Measurement) -> float:
        return m.tolerance if m.tolerance is not None else self.tolerance[m.metric]

    @property
    def check_seed(self) -> int:
        return self.seed + self.seed_offset

    def tolerances(self) -> list[float]:
        return [self.tolerance_of(m) for m in self.metrics]

    def max_games(self, paired: bool = False) -> int:
        """``[check] games``, else the power calculation of
        :func:`analysis.check.decision.plan_games`."""
        if self.check_games is not None:
            return self.check_games
        return plan_games(self.metrics, self.tolerances(), self.alpha, self.beta, paired,
                          game=self.game, games=self.games).max_games


def default_tolerances(game: str | None, smallest: dict | None = None) -> dict[str, float]:
    """Each kind's default tolerance: the smallest difference that matters (revA #15), in the
    check's difference unit: the share's (``smallest["share"]``, else 1 pp) for win shares, the
    score's (``smallest["score"]``, else the game's ``GameSpec.smallest_difference``: 2 coins in
    Middle-Ages, 0.5 guild cards in Médiévallons, 2 % of own goal in Seigneurial, 1 point in Fief)
    for mean scores. With it a change of at least twice what matters fails (at power 1 − β) and a
    change below what matters passes (a false FAIL at most α); between them either answer may come."""
    from analysis.load import smallest_difference

    share = 100.0 * smallest_difference(game, "share", smallest)
    score = smallest_difference(game, "score", smallest)
    return {k: (score if KINDS[k].unit == "score" else share) for k in KINDS}


def tolerance_summary(game: str | None, tolerance: dict[str, float], smallest: dict | None = None,
                      kinds: Sequence[str] | None = None, beta: float = DEFAULT_BETA,
                      caveat: str = "") -> str:
    """One line for ``balance baseline``: each kind's tolerance (``kinds``: those the file checks),
    set against the smallest difference that matters, and what a check does with a change
    (``caveat``: :func:`power_caveat`, when the baseline's own error limits that)."""
    small = default_tolerances(game, smallest)
    names = {"seat_win_share": "seat win shares", "seat_mean_score": "seat mean scores",
             "strategy_win_share": "strategy win shares", "role_win_share": "role win shares"}
    parts = []
    for k in (kinds or list(KINDS)):
        t = float(tolerance[k])
        unit = "pp" if KINDS[k].unit == "%" else unit_of(k, game)
        rel = ("the smallest difference that matters" if math.isclose(t, small[k])
               else f"{'above' if t > small[k] else 'below'} the {small[k]:g} {unit} that "
                    f"{'matter' if unit.endswith('s') and small[k] != 1 else 'matters'}")
        parts.append(f"{names[k]} ±{t:g} {unit} ({rel})")
    # review P #1: "fails a change shown beyond its tolerance" was read as its converse; a change
    # between the tolerance and twice it may pass, even with its 95% interval beyond the tolerance
    return (f"tolerances: {'; '.join(parts)}. A check fails a change only when it is shown nearer "
            f"twice its tolerance than its tolerance, so one between the tolerance and twice it may "
            f"pass; a change of twice it passes with at most a {100 * beta:g}% chance{caveat} "
            "(--tolerance, --score-tolerance to change them)")


def games_comment(plan, games: int) -> str:
    """Where the default maximum of :func:`plan_games` comes from, as the baseline file's comment
    says it: ``MAX_FACTOR`` × the largest metric's games, rounded up to a thousand, and what those
    games are — a fixed-size test's, or, when the baseline's own error limits that metric
    (``plan.basis_limited``), the games by which an unchanged configuration passes it; the metrics
    so limited and the baseline size that would not limit them (``games``: this baseline's)."""
    head = f"{MAX_FACTOR:g} x {plan.basis_games:,} games, rounded up to a thousand"
    if not plan.limited:
        return f"{head}: the games of a fixed-size test with these error rates"
    names = metric_names(plan.limited)
    limit = (f"this baseline's own error ({games:,} games) keeps {'them' if plan.basis_limited else names} "
             "from the fixed-size test's power at twice the tolerance (a baseline of "
             f"{plan.baseline_games:,} games or more would lift that limit)")
    if plan.basis_limited:
        other = (f"; the other metrics need {plan.fixed_games:,} games for a fixed-size test with "
                 "these error rates" if plan.fixed_games else "")
        return (f"{head}: the games by which an unchanged configuration passes {names} with "
                f"probability 1 - beta; {limit}{other}")
    return f"{head}: the games of a fixed-size test with these error rates; {limit}"


def power_caveat(baselines: Sequence[tuple[str, "Baseline"]]) -> str:
    """What ``balance baseline`` adds to "a change of twice it passes with at most a 5% chance"
    when a baseline's own error limits a metric (:func:`plan_games`'s ``limited``): such a change
    still passes with at most that chance, but a check may not fail it either (it can end
    UNDECIDED): the metrics, and the baseline games that would lift it. ``baselines``: (the name
    a reader knows the file by, "" for one file, a loaded baseline); "" when none is limited."""
    by_metrics: dict[str, list[str]] = {}        # the metrics limited → the files they are in
    need = 0
    for name, b in baselines:
        # a panel's cells are checked at alpha / cells (review AB #3: planned at alpha, the advice
        # said 81,000 games where the panel check itself then asked for 94,000)
        plan = plan_games(b.metrics, b.tolerances(), b.alpha / len(baselines), b.beta, game=b.game,
                          games=b.games)
        if plan.limited:
            by_metrics.setdefault(metric_names(plan.limited), []).append(name)
            need = max(need, plan.baseline_games or 0)
    if not by_metrics:
        return ""
    said = [what + (f" ({', '.join(names)})" if any(names) else "")
            for what, names in by_metrics.items()]
    whose = ("this baseline's own error" if len(baselines) == 1 else "the cell baselines' own error")
    games = sorted({b.games for _, b in baselines})
    count = (f"{games[0]:,} games" + ("" if len(baselines) == 1 else " each")) if len(games) == 1 \
        else "games"
    return (f"; but for {'; '.join(said)} {whose} ({count}) keeps a check from failing such a "
            "change with that confidence: it may end UNDECIDED instead (record a baseline of at "
            f"least {need:,} games)")


def _shipped_configs() -> Path:
    from simcore.config import shipped_configs      # (not the working directory's configs/)

    return shipped_configs()


def rules_entry(meta: dict, baseline_path: str | Path) -> str:
    """How a baseline names the run's rules: "default" for a rules file shipped with the toolkit,
    else the path relative to the baseline file's directory."""
    name = str(meta.get("rules_name") or "")
    if not name or name.startswith("<"):
        return "default"
    p = Path(name).resolve()
    try:
        p.relative_to(_shipped_configs())
        return "default"
    except ValueError:
        pass
    return Path(os.path.relpath(p, Path(baseline_path).resolve().parent)).as_posix()


def _seat_files(strategies) -> list[str]:
    """The strategy files seats name (``file.toml`` or ``file.toml:name``; not a preset), each once."""
    out = []
    for spec in strategies or []:
        spec = str(spec).strip()
        path = spec.partition(":")[0] if spec.count(":") == 1 and not Path(spec).exists() else spec
        if path.endswith(".toml") and path not in out:
            out.append(path)
    return out


def strategy_files_entry(meta: dict, baseline_path: str | Path) -> list[dict]:
    """The ``[run] strategy_files`` of a baseline: every strategy file the run's seats name (as
    they name it), where it is relative to the baseline file's directory (as :func:`rules_entry`
    writes the rules; a path the seats gave relative to the working directory is read from there,
    where ``balance baseline`` runs, as the rules path is) and its sha256 as the run read it
    (run.json ``strategy_files``). Review s61 #2: the seats' paths alone, relative to the working
    directory, made ``balance check`` from another directory fail, "strategies file not found"."""
    read = meta.get("strategy_files") if isinstance(meta.get("strategy_files"), dict) else {}
    out = []
    for name in _seat_files(meta.get("strategies")):
        sha = read.get(name, {}).get("sha256") if isinstance(read.get(name), dict) else None
        if not isinstance(sha, str):
            continue            # a file the run did not record (a run of an earlier version)
        p = Path(name).resolve()
        out.append({"name": name, "sha256": sha,
                    "path": Path(os.path.relpath(p, Path(baseline_path).resolve().parent)).as_posix()})
    return out


def _q(s: str) -> str:
    """A TOML basic string (JSON string syntax is valid TOML)."""
    return json.dumps(str(s), ensure_ascii=False)


def _strategy_file_text(f: dict) -> str:
    """One ``[run] strategy_files`` entry, a TOML inline table."""
    return f"{{ name = {_q(f['name'])}, path = {_q(f['path'])}, sha256 = {_q(f['sha256'])} }}"


def _num(x: float, digits: int = 6) -> str:
    if x is None or not math.isfinite(float(x)):
        return "nan"
    v = round(float(x), digits)
    return repr(v if v != 0 else 0.0)


def _aligned(lines: list[tuple[str, str]], width: int = 32) -> list[str]:
    """``key = value`` lines with their ``# comment`` aligned."""
    out = []
    for assignment, comment in lines:
        pad = max(width, len(assignment) + 2)
        out.append(f"{assignment:<{pad}}# {comment}" if comment else assignment)
    return out


def simulate_command(meta: dict, rules: str, out: str = "runs/baseline") -> str:
    """The ``balance simulate`` command line that reproduces a run (rules given as in the baseline)."""
    strategies = meta.get("strategies") or []
    uniq = list(dict.fromkeys(strategies))
    strat = uniq[0] if len(uniq) == 1 else ",".join(strategies)
    parts = ["balance simulate", f"--game {meta.get('game')}", f"--players {meta.get('players')}",
             f"--strategies {strat}", f"--seed {meta.get('seed')}", f"--games {meta.get('games')}"]
    if rules != "default":
        parts.append(f"--rules {rules}")
    if meta.get("rotate_seats"):
        parts.append("--rotate-seats")
    if meta.get("engine", "kernel") != "kernel":
        parts.append(f"--engine {meta.get('engine')}")
    parts.append(f"--out {out} --quiet")
    return " ".join(parts)


def _baseline_options(tolerance: dict | None, alpha: float, beta: float, seed_offset: int,
                      smallest: dict | None, check_games: int | None) -> str:
    """The ``balance baseline`` options that write a file's settings again: those not at their
    defaults (the command that reproduces the file gives them, or it would write other tolerances,
    or refuse a run too small for the default ones)."""
    t = tolerance or {}
    parts = []
    if "seat_win_share" in t:
        parts.append(f"--tolerance {t['seat_win_share']:.12g}pp")
    if "seat_mean_score" in t:
        parts.append(f"--score-tolerance {t['seat_mean_score']:.12g}")
    if alpha != DEFAULT_ALPHA:
        parts.append(f"--alpha {alpha:.12g}")
    if beta != DEFAULT_BETA:
        parts.append(f"--beta {beta:.12g}")
    if check_games:
        parts.append(f"--check-games {int(check_games)}")
    if seed_offset != DEFAULT_SEED_OFFSET:
        parts.append(f"--seed-offset {int(seed_offset)}")
    if smallest:
        spelt = {"share": lambda v: f"win_share={100 * v:.12g}pp", "score": lambda v: f"score={v:.12g}",
                 "length": lambda v: f"length={v:.12g}"}
        parts.append("--smallest-difference " + ",".join(spelt[k](v) for k, v in smallest.items()))
    return "".join(f" {x}" for x in parts)


def _reproduce_lines(meta: dict, rules: str, out_name: str, src: str, panel: bool,
                     options: str = "") -> list[str]:
    """The baseline file's commands: reproduce the measured run and the file (``options``: its
    settings not at their defaults, :func:`_baseline_options`), and check against it.
    The rules path as the commands give --out: from where the baseline was written. A panel's cell
    (``panel``) says which panel it belongs to and reproduces its run and a baseline of it beside
    the panel's directory, whose files only the command that wrote the panel adds to or replaces
    (review s49: the cell's own commands, --out inside the panel, were refused)."""
    rules_arg = rules if rules == "default" else (Path(out_name).parent / rules).as_posix()
    check = ["# Check the current rules and engine against it (exit 0 pass, 1 regression, 2 usage error,",
             "# 3 undecided at the maximum number of games, 4 a problem of the machine such as a full disk):",
             f"#   balance check --baseline {out_name}"]
    if not panel:
        return ["# Reproduce the measured run and this file:",
                f"#   {simulate_command(meta, rules_arg, src)}",
                f"#   balance baseline {src} --out {out_name}{options} --force", *check]
    home = Path(out_name).parent.as_posix()
    cell = Path(out_name).stem
    return [f"# This file is one cell of the panel baseline {home} ({home}/{PANEL_JSON_NAME} lists its",
            "# cells). The panel's files are recorded, and replaced with --force, all together by the",
            f"# balance baseline command that wrote {home}; nothing else writes inside it. The run this",
            f"# cell measured is kept in {src}. Reproduce it, and a baseline of this cell alone, outside:",
            f"#   {simulate_command(meta, rules_arg, f'runs/{cell}')}",
            f"#   balance baseline runs/{cell} --out {cell}.toml{options} --force",
            *check[:2], f"#   balance check --baseline {out_name}      (this cell alone)",
            f"#   balance check --baseline {home}      (every cell of the panel)"]


PANEL_JSON_NAME = "panel.json"     # (analysis.check.panel.PANEL_JSON: a panel's list of its cells)


def render_baseline(meta: dict, metrics: Sequence[Measurement], out: str | Path, *,
                    source: str = "", tolerance: dict[str, float] | None = None,
                    alpha: float = DEFAULT_ALPHA, check_games: int | None = None,
                    seed_offset: int = DEFAULT_SEED_OFFSET, beta: float = DEFAULT_BETA,
                    batch: int | None = None, smallest: dict | None = None,
                    plan_alpha: float | None = None, panel: bool = False) -> str:
    """The text of a baseline file for a run (``meta`` = its run.json, ``metrics`` from :func:`measure`).

    Every key is explained by a comment in the file itself. ``plan_alpha``: the alpha a check of
    this file will run at, when not ``alpha`` (a panel's cell: ``alpha / cells``, the family split
    over them), for the most games a check plays. ``panel``: ``out`` is a cell of a panel
    baseline (its directory): nothing but the command that wrote the panel writes inside it, so
    the commands that reproduce the run and the file write outside it (:func:`_reproduce_lines`).
    """
    tol = default_tolerances(meta.get("game"), smallest)
    tol.update(tolerance or {})
    rules = rules_entry(meta, out)
    games = int(meta.get("games") or 0)
    tols = [m.tolerance if m.tolerance is not None else tol[m.metric] for m in metrics]
    plan = plan_games(metrics, tols, alpha if plan_alpha is None else plan_alpha, beta, game=meta.get("game"),
                      games=games)
    options = _baseline_options(tolerance, alpha, beta, seed_offset, smallest,
                                # a cell's most games are planned at the panel's split alpha
                                check_games or (plan.max_games if plan_alpha is not None else None))
    check_games = int(check_games or plan.max_games)
    out_name = Path(out).as_posix()
    src = source or "runs/baseline"
    strategies = [str(s) for s in (meta.get("strategies") or [])]
    present = [k for k in KINDS if any(m.metric == k for m in metrics)]
    bot_files = strategy_files_entry(meta, out)
    rules_note = ("the rules shipped with the toolkit" if rules == "default"
                  else f"the file {rules}, relative to this file's directory")
    lines = [
        f"{BASELINE_SIGN}: what a run measured, how to reproduce it, and how much change",
        "# is accepted. Edit the [check] settings and the tolerances freely; regenerate the measurements",
        "# (the [[metric]] blocks) with the commands below instead of editing them by hand.",
        "#",
        *_reproduce_lines(meta, rules, out_name, src, panel, options),
        "# The procedure (a sequential probability ratio test per metric, in the manner of fishtest) and",
        "# its error rates are explained in docs/ci.md of the balance toolkit.",
        "",
    ]
    lines += _aligned([(f"format = {FORMAT}", "layout version of this file (balance check refuses others)")])
    lines += ["", "[run]                           # the measured run: balance check replays this configuration"]
    lines += _aligned([
        (f"game = {_q(meta.get('game', ''))}", "game, as in `balance simulate --game`"),
        (f"players = {int(meta.get('players') or 0)}", "players per game"),
        (f"strategies = [{', '.join(_q(s) for s in strategies)}]",
         "strategy of each seat, seat 1 first (preset names, or strategy TOML paths as the run named them)"),
        *([(f"strategy_files = [{', '.join(_strategy_file_text(f) for f in bot_files)}]",
            "each strategy file the seats name: where it is, relative to this file, and its sha256 when measured "
            "(a check that reads other text says so)")] if bot_files else []),
        (f"rotate_seats = {'true' if meta.get('rotate_seats') else 'false'}",
         "every deal played once per rotation of the strategies over the seats"),
        (f"engine = {_q(meta.get('engine', 'kernel'))}", "kernel (Numba) or reference (pure Python)"),
        (f"seed = {int(meta.get('seed') or 0)}", "seed of the measured run"),
        (f"games = {games}", "games in the measured run"),
        (f"rules = {_q(rules)}", f'"default" (shipped rules) or a rules TOML path relative to this file; here: {rules_note}'),
        (f"rules_sha256 = {_q(meta.get('rules_sha256', ''))}",
         "sha256 of the rules file when measured; a check whose rules differ says so"),
        (f"version = {_q(meta.get('version', ''))}", "toolkit version that made the run (information only)"),
        (f"created_utc = {_q(meta.get('created_utc', time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())))}",
         "when the run was made (information only)"),
    ])
    lines += ["", "[check]                         # how `balance check --baseline THIS_FILE` decides"]
    basis = games_comment(plan, games)
    lines += _aligned([
        (f"alpha = {_num(alpha)}", "at most this chance that the check FAILS while every metric is within its tolerance"),
        (f"beta = {_num(beta)}", "at most this chance that a metric moved by twice its tolerance PASSES"),
        (f"games = {check_games}", f"most games a check plays; it stops as soon as every metric is decided (default: power calculation, {basis}; override: --games)"),
        (f"batch = {batch or 0}", "games per look (0: about games / 50 in thousands; override: --batch)"),
        (f"seed_offset = {int(seed_offset)}", "the check plays seed = run.seed + seed_offset (override: --seed); not 0, so its games are new"),
    ])
    # review P #1: "accepted change … a change of twice it fails" read as "a change beyond it fails"
    lines += ["", "[tolerance]                     # ± in each metric's unit, for every [[metric]] of that kind (default: the smallest difference that matters, below)",
              "                                # A check fails a change only when it is shown nearer twice the tolerance than the tolerance:",
              "                                # a change of twice it passes with at most beta's chance; one between it and twice it may pass"]
    tol_docs = {
        "seat_win_share": "percentage points of win share, per seat",
        "seat_mean_score": f"{unit_of('seat_mean_score', meta.get('game'))} of mean final score, per seat",
        "strategy_win_share": "percentage points of win share, per strategy (runs with two strategies or more)",
        "role_win_share": "percentage points of the games a role's side wins (games with roles)",
    }
    lines += _aligned([(f"{k} = {_num(tol[k])}", tol_docs[k]) for k in KINDS if k in present])
    from analysis.load import smallest_difference

    game = meta.get("game")
    share = smallest_difference(game, "share", smallest)
    score = smallest_difference(game, "score", smallest)
    lines += ["", "[smallest_difference]           # the smallest change that matters: how a check words a change "
                  "(at least it, smaller, or not told apart)"]
    lines += _aligned([
        (f"win_share = {_num(100 * share)}", "percentage points of win share (seats, strategies, roles)"),
        (f"score = {_num(score)}", f"{unit_of('seat_mean_score', game)} of mean final score "
                                   "(override both: balance check --smallest-difference)"),
    ])
    lines += [
        "",
        "# The measured metrics, one [[metric]] block each:",
        "#   metric   kind: seat_win_share, seat_mean_score, strategy_win_share or role_win_share",
        "#   key      which seat (Seat 1…n), strategy or role",
        "#   label    how reports name it",
        f'#   unit     "%" (of games won, shared wins counting 1/k) or {_q(unit_of("seat_mean_score", meta.get("game")))} (scores)',
        "#   value    the measured value, in unit",
        "#   ci_low, ci_high   its 95 % interval (Wilson for win shares, Student t for mean scores)",
        "#   se       its standard error, in unit: what the check uses (with the run's own)",
        "#   n        games (or, per strategy, player rows or deals) behind the value",
        "# Add `tolerance = X` to a block to override [tolerance] for that metric alone; delete a block",
        "# to stop checking that metric.",
    ]
    for m in metrics:
        lines += ["", "[[metric]]", f"metric = {_q(m.metric)}", f"key = {_q(m.key)}", f"label = {_q(m.label)}",
                  f"unit = {_q(unit_of(m.metric, meta.get('game')))}", f"value = {_num(m.value)}", f"ci_low = {_num(m.ci_low)}",
                  f"ci_high = {_num(m.ci_high)}", f"se = {_num(m.se, 8)}", f"n = {int(m.n)}"]
        if m.tolerance is not None:
            lines.append(f"tolerance = {_num(m.tolerance)}")
    lines += _measured_rules_lines(meta)
    return "\n".join(lines) + "\n"


def _measured_rules_lines(meta: dict) -> list[str]:
    """``[measured_rules]``: the rules text the run played (run.json ``rules_text``, after any
    ``--set``), so that a check can name every setting its rules change from these (``effects.
    caserne_payment 2 → 4``) even once the rules file itself has been edited. A TOML literal
    string keeps the text as written; a text holding ``'''`` is written as a basic string."""
    text = meta.get("rules_text")
    if not isinstance(text, str) or not text:
        return []
    if "'''" in text or any(ord(c) < 32 and c not in "\t\n" for c in text.replace("\r\n", "\n")):
        value = _q(text)
    else:
        value = "'''\n" + text + "'''"
    return ["", "[measured_rules]                # the rules measured, as played (the rules file after any --set):",
            "                                # balance check names the settings its rules change from these;",
            "                                # not read for anything else (its sha256 must be rules_sha256)",
            f"text = {value}"]


def rules_text_matches(text: str, sha256: str) -> bool:
    """Whether ``text`` is the rules text whose bytes have ``sha256`` (a TOML parser reads CRLF line
    ends as LF, so a file written with CRLF matches too)."""
    import hashlib

    return any(hashlib.sha256(t.encode("utf-8")).hexdigest() == sha256
               for t in (text, text.replace("\n", "\r\n")))


def baseline_rules_text(baseline: Baseline) -> str | None:
    """The rules text the baseline measured: its ``[measured_rules]`` text, else the rules file it
    names (the game's shipped rules for "default") while that file still has the recorded sha256;
    None when neither is known (a file written before ``[measured_rules]`` whose rules file has
    since been edited)."""
    if baseline.measured_rules is not None:
        return baseline.measured_rules
    path = baseline.rules_path()
    if path is None:
        from simcore import games as registry

        shipped = dict(registry.shipped_rules()).get(baseline.game)
        if shipped is None:
            return None
        path = Path(shipped())
    try:
        from simcore.config import read_bounded

        text = read_bounded(path, "rules").decode("utf-8")
    except (UsageError, UnicodeDecodeError):
        return None
    return text if rules_text_matches(text, baseline.rules_sha256) else None


def rules_changes(baseline: Baseline, meta: dict):
    """The rule settings a run's rules (``meta``: its run.json, or a played check's, with
    ``rules_text``) change from the baseline's: ``[]`` for the same rules (the same sha256, or
    texts that differ only in comments or layout), a list of
    :class:`analysis.rules_diff.SettingChange`, or None when the rules differ but either text is
    not known (then only the sha256 can be said). Compared as the baseline's player count reads
    them (:func:`analysis.rules_diff.read_at`): a setting that count never reads (``track.goal.4``
    at 3 players, a 4th seat's start coins) is no change of its games (review s61 #1: a panel's
    3-player cells said "rules differ … track.goal.4 10 → 11")."""
    from analysis.rules_diff import read_at, settings_diff

    if meta.get("rules_sha256") == baseline.rules_sha256:
        return []
    before, after = baseline_rules_text(baseline), meta.get("rules_text")
    return read_at(settings_diff(before, after), before, after, baseline.game, baseline.players)


def unread_changes(baseline: Baseline, meta: dict) -> list:
    """The settings a run's rules change from the baseline's that the baseline's player count
    does not read (:func:`analysis.rules_diff.unread_at`), left out of :func:`rules_changes`: a
    check's note names them, so that "the rule settings are the same" is not said of rules whose
    texts differ."""
    from analysis.rules_diff import settings_diff, unread_at

    if meta.get("rules_sha256") == baseline.rules_sha256:
        return []
    before, after = baseline_rules_text(baseline), meta.get("rules_text")
    return unread_at(settings_diff(before, after), before, after, baseline.game, baseline.players)


def without_goal_scores(baseline: Baseline, rules_text: str | None,
                        old_rules_text: str | None = None) -> tuple[Baseline, list[str], list[str]]:
    """``baseline`` without the mean-score metrics of the seats whose goal the rules checked move
    (a score in % of a goal, :func:`analysis.rules_diff.goal_changes`: Seigneurial's Seigneur for
    ``track.goal.N`` at the baseline's N players, its Censitaires for ``objectives.cards``), the
    note saying so and the labels of the metrics left out; else ``baseline``, [] and []. The rules
    checked (``rules_text``) are compared with the baseline's, or in paired mode with the old rules
    (``old_rules_text``). Review R #1: goal 10 → 7 failed a check on "Seat 1 mean score +14.81 % of
    own goal" (the same squares over a smaller goal). Review s58 #1: every seat's score was dropped
    for any setting named "goal…" or "objectives…", so adding ``track.goal.5`` (unread at 4 players)
    to a change that moved the Seigneur's score by +10.4 % of own goal turned its FAIL into a PASS."""
    from analysis.load import score_unit
    from analysis.rules_diff import goal_changes, goal_words, settings_diff

    before = old_rules_text if old_rules_text is not None else baseline_rules_text(baseline)
    unit = score_unit(baseline.game)
    goal = goal_changes(settings_diff(before, rules_text), baseline.game, baseline.players)
    if goal is None:
        return baseline, [], []
    apart = goal.keys()
    gone = [m for m in baseline.metrics if (m.metric, m.key) in apart]
    if not gone:
        return baseline, [], []
    kept = [m for m in baseline.metrics if (m.metric, m.key) not in apart]
    scores_kept = any(m.metric == "seat_mean_score" for m in kept)
    k = len(gone)
    carry = "the win shares and the other seats' mean scores" if scores_kept else "the win shares"
    return replace(baseline, metrics=kept), [
        f"mean scores not checked ({k} metric{'s' if k > 1 else ''}: {', '.join(m.label for m in gone)}): "
        f"{goal_words(goal, unit)}; {carry} carry the check"], [m.label for m in gone]


def make_baseline(run: str | Path, out: str | Path, *, force: bool = False,
                  tolerance: dict[str, float] | None = None, alpha: float = DEFAULT_ALPHA,
                  check_games: int | None = None, seed_offset: int | None = None,
                  beta: float = DEFAULT_BETA, batch: int | None = None,
                  smallest: dict | None = None, published_as: tuple | None = None,
                  plan_alpha: float | None = None, panel: bool = False) -> Path:
    """Measure run directory ``run`` and write the baseline file ``out`` (atomic; no overwrite
    without ``force``). ``smallest``: the smallest differences that matter, by kind
    (:func:`analysis.load.parse_smallest_difference`), recorded in ``[smallest_difference]``
    (default: the game's own). ``published_as``: (the baseline file, the run) as they will be
    named once the directory being built is published (a panel baseline is built under a hidden
    name): the file's commands and its rules path are written for those; ``panel``: the file is a
    cell of a panel baseline (its commands write outside the panel). ``seed_offset`` None
    (not given): +1, or -1 for a run played with the largest seed, whose +1 is no seed."""
    from analysis.export import check_output_file, write_text_atomic

    from analysis.load import check_run
    from simcore.options import MAX_SEED, check_seed

    check_settings(alpha, DEFAULT_SEED_OFFSET if seed_offset is None else seed_offset,
                   tolerance or {}, beta)
    meta = check_run(run)
    if check_games is not None:
        # the least a check of this file may stop at (review s58 #2: --check-games 10 was written,
        # and every check of the file then refused "check.games 10: must be at least 30 games")
        check_games_enough(int(check_games), int(meta.get("players") or 1) if meta.get("rotate_seats") else 1,
                           "--check-games")
    if meta.get("matchup"):
        # (review AA #2: the file replayed no matchup, its command took --players, which a combat
        # does not, and a check of a city run against a castle baseline read as a regression)
        m = meta["matchup"]
        raise UsageError(f"{run}: a {meta.get('game')} run of one matchup ({m.get('attacker')} against "
                         f"{m.get('defender')} points, {m.get('terrain')}): balance check does not "
                         "replay a matchup, so it keeps no baseline of it; compare two runs of the same "
                         "matchup with balance report BASE VARIANT (paired when they share the seed)")
    run_seed = meta.get("seed", 0)
    if seed_offset is None:
        # not typed: a run of seed 2**63 - 1 takes -1 rather than a refusal naming an option the
        # user never gave (session 48's list: "--seed-offset 1: … out of range")
        seed_offset = -DEFAULT_SEED_OFFSET if run_seed + DEFAULT_SEED_OFFSET > MAX_SEED \
            else DEFAULT_SEED_OFFSET
    try:                                      # the seed a check will play
        check_seed(run_seed + seed_offset, "--seed-offset")
    except UsageError:
        # what was typed and what it makes (review s46 #8: "--seed-offset -976: must be a whole
        # number from 0 …" for --seed-offset -3000, the sum under the option's name)
        raise UsageError(f"--seed-offset {seed_offset}: seed {run_seed} (the run's) + seed_offset "
                         f"{seed_offset} = {run_seed + seed_offset} is out of range (a seed is a "
                         "whole number from 0 to 2**63 - 1)") from None
    check_output_file(out, force, inputs=[run], replaces=BASELINE_FILE)
    measured = measured_rules_path(out) if published_as is None and meta.get("settings") else None
    if measured is not None:
        check_measured_rules(measured, meta, out, force)
        # claimed as it stands now: a file that appears there while the run is measured is kept and
        # the rules go beside it (review s51: it was replaced, the write being forced)
        from simcore.atomic import claim_output

        claim_output(measured, "--out", kind="file")
    meta, metrics = measure_run(run)
    shown_out, shown_run = published_as or (out, run)
    if measured is not None:
        # a run played with --set: its rules are no file's; they are written beside the baseline
        # (as a panel baseline writes each cell's) and the baseline names that file, so that its
        # commands reproduce the run and a check plays the rules measured, not the file's without
        # the --set (which failed the very rules measured: "rules differ: setup.start_coins 5 → 0").
        # Written first, so the baseline names the file written (beside a file that appeared
        # meanwhile: c.rules-2.toml; review s51)
        measured = write_text_atomic(measured, str(meta.get("rules_text") or ""), True)
        meta = {**meta, "rules_name": str(Path(measured).resolve())}

    def text_for(where) -> str:
        return render_baseline(meta, metrics, where, source=Path(shown_run).as_posix(), tolerance=tolerance,
                               alpha=alpha, check_games=check_games, seed_offset=seed_offset, beta=beta,
                               batch=batch, smallest=smallest, plan_alpha=plan_alpha, panel=panel)

    written = write_text_atomic(out, text_for(shown_out), force, replaces=BASELINE_FILE)
    if published_as is None and Path(written) != Path(out):
        # published beside a file that appeared meanwhile: its commands name the file it is
        write_text_atomic(written, text_for(written), True, replaces=BASELINE_FILE)
    return written


def measured_rules_path(out: str | Path) -> Path:
    """Where the rules a baseline of a run played with ``--set`` measured are written: beside it,
    ``NAME.rules.toml`` for ``NAME.toml``."""
    out = Path(out)
    return out.with_name(f"{out.stem}.rules.toml")


def check_measured_rules(path: Path, meta: dict, out: str | Path, force: bool) -> None:
    """Refuse, in one line and before any work, to write the measured rules over a file that is not
    these rules nor, with ``force``, the rules of the baseline ``out`` replaces (a file of the
    designer's own is never lost)."""
    import hashlib

    if not path.exists():
        return
    if path.is_dir() or path.is_symlink():
        raise UsageError(f"{path}: the rules this baseline measured (--set …) are written there, and it "
                         "is a directory or a link: move it away or choose another --out")
    text = path.read_bytes()
    if text == str(meta.get("rules_text") or "").encode():
        return                                            # these very rules: rewritten as they are
    if force and Path(out).is_file():
        old = re.search(r'(?m)^rules_sha256 = "([0-9a-f]+)"', Path(out).read_text(encoding="utf-8", errors="replace"))
        if old and hashlib.sha256(text).hexdigest() == old.group(1):
            return                                        # the replaced baseline's own measured rules
    raise UsageError(f"{path}: the rules this baseline measured (a run played with --set) are written "
                     "beside it under that name, and it holds other text: move it away or choose another --out")


def check_settings(alpha: float, seed_offset: int, tolerance: dict, beta: float = DEFAULT_BETA) -> None:
    """Refuse settings a check cannot use (a :class:`UsageError` naming the option): alpha or beta
    outside (0, 0.5), seed offset 0, a tolerance that is not a number > 0."""
    if not 0 < alpha < 0.5:
        raise UsageError(f"--alpha {alpha}: must be between 0 and 0.5 (e.g. 0.05)")
    if not 0 < beta < 0.5:
        raise UsageError(f"--beta {beta}: must be between 0 and 0.5 (e.g. 0.05)")
    if seed_offset == 0:
        raise UsageError("--seed-offset 0: the check would replay the baseline's own games")
    for k, v in tolerance.items():
        if not (isinstance(v, (int, float)) and v > 0 and math.isfinite(v)):
            raise UsageError(f"tolerance of {k}: must be a number > 0, got {v!r}")


def _key_problem(metric: str, key: str, game: str, players: int) -> str | None:
    """Why a ``[[metric]]`` block's ``key`` names no seat or role of the baseline's own
    configuration (``Seat 9`` of a 4-player game), in the game's words; None when it does (review
    C #8, session 42: "the run has no seat_win_share for 'Seat 9'" when no run was given). A
    strategy's name is checked once the configuration is prepared (:mod:`analysis.check.play`)."""
    from simcore import games as registry

    spec = registry.get(game)
    if metric in ("seat_win_share", "seat_mean_score"):
        seat = re.fullmatch(r"Seat (\d+)", key)
        if seat is None or not 1 <= int(seat.group(1)) <= players:
            return (f"{key!r} is not a seat of a {players}-player {spec.title} game (Seat 1 to "
                    f"Seat {players}; edit the key, or regenerate the baseline with balance baseline)")
    elif metric == "role_win_share":
        roles = list(dict.fromkeys(spec.seat_roles(players)))
        if key not in roles:
            named = ", ".join(f"{r!r} ({spec.role_display(r)})" for r in roles)
            return (f"{key!r} is not a role of a {players}-player {spec.title} game (its roles: "
                    f"{named}; edit the key, or regenerate the baseline with balance baseline)")
    return None


#: How far a baseline's ``value`` may lie outside its own ``ci_low``–``ci_high`` (in the metric's
#: unit): the file writes them to 6 decimals, a hand may round them to 2.
INTERVAL_SLACK = 0.005
_REGENERATE = "regenerate the measurements with balance baseline rather than editing them"


def _check_measured(t: Table, m: Measurement, unit: str) -> None:
    """Refuse a ``[[metric]]`` block whose measurement no run can have produced (review C #2: a
    hand-edited ``value = 150`` read as a 115 pp regression, exit 1, and ``se = 0`` ran to exit 3):
    a win share outside 0–100 %, a value outside its own interval beyond rounding
    (:data:`INTERVAL_SLACK`), an error of 0 behind games played (a mean score every game scored
    alike, its interval one point, may have one). One line naming the file, the block and the key
    (:meth:`Table.error`), exit 2, before any game is played."""
    share = KINDS[m.metric].unit == "%"
    shown = f"{m.value:g}"
    if share and not 0.0 <= m.value <= 100.0:
        raise t.error("value", f"{m.label} of {shown} %; a win share lies between 0 and 100 ({_REGENERATE})")
    low, high = m.ci_low, m.ci_high
    if math.isfinite(low) and math.isfinite(high) and not (
            low - INTERVAL_SLACK <= m.value <= high + INTERVAL_SLACK):
        sign = " %" if share else f" {unit}"
        raise t.error("value", f"{m.label} of {shown}{sign} lies outside its own 95 % interval "
                               f"(ci_low = {_num(low)}, ci_high = {_num(high)}); a measured value lies "
                               f"inside its interval ({_REGENERATE})")
    if m.n > 0 and not m.se > 0:
        constant = not share and low == high == m.value
        if not constant:
            raise t.error("se", f"{m.label}: a standard error of {m.se:g} with n = {m.n:,}; a value "
                                f"measured over games has an error above 0 ({_REGENERATE})")


#: The metrics measured on every game of the run: their ``n`` is ``[run] games``.
_PER_GAME = ("seat_win_share", "seat_mean_score", "role_win_share")


def _check_games(source: str, games: int, players: int, metrics: list[Measurement]) -> None:
    """Refuse ``[run] games`` that no block's ``n`` agrees with (review s58 #5: ``games = 20``
    beside errors measured on 200,000 games loaded, and a check read the baseline's per-game
    variance as se² × 20, some 10,000 times too small, and passed): a seat's or a role's metric is
    measured on every game of the run (n = games); a strategy's share on its deals with rotated
    seats (games / players), its games, or, in files written before it was measured per game, its
    player rows (up to games × players). One line naming the file, exit 2."""
    for m in metrics:
        if m.metric in _PER_GAME:
            ok, want = m.n == games, "n = games for a seat's or a role's metric, measured on every game"
        else:
            ok = games / players <= m.n <= games * players
            want = (f"n between games / players ({games / players:,.6g}: deals with rotated seats) and "
                    f"games × players ({games * players:,}: player rows) for a strategy's share")
        if not ok:
            raise ConfigError(source, "run.games", f"{games:,} games, but {m.label} was measured on n = "
                                                   f"{m.n:,} ({want}); {_REGENERATE}")


#: The engines a baseline's ``[run] engine`` may name (balance simulate --engine).
ENGINES = ("kernel", "reference")


def _check_tolerance(t: Table, key: str, metric: str, value: float) -> None:
    """Refuse a tolerance the file gives (``[tolerance]``, or a ``[[metric]]`` block's) that
    ``balance baseline`` would refuse as an option: a number > 0, below 100 pp for a win share
    (``--tolerance``), at most :data:`simcore.options.MAX_AMOUNT` for a score
    (``--score-tolerance``). One line naming the file and the key, exit 2 (review s61 #3: a
    hand-edited ``seat_win_share = 500`` was accepted and switched the gate off)."""
    from simcore.options import MAX_AMOUNT

    share = KINDS[metric].unit == "%"
    if not (value > 0 and math.isfinite(value)):
        raise t.error(key, f"must be > 0 (the sequential check needs a margin), got {value!r}")
    if share and not value < 100.0:
        raise t.error(key, f"{value:g} pp: a win-share tolerance must be a number > 0, below 100 pp "
                           "(as balance baseline --tolerance takes it; 100 pp or more would pass "
                           "any change)")
    if not share and value > MAX_AMOUNT:
        raise t.error(key, f"{value:g}: a score tolerance must be a number > 0 and at most "
                           f"{MAX_AMOUNT:g} (as balance baseline --score-tolerance takes it)")


def load_baseline(path: str | Path) -> Baseline:
    """Read and validate a baseline file (one-line :class:`ConfigError` naming file and key)."""
    src = read_toml(path, what="baseline")
    top = Table(src.data, src.name)
    fmt = top.get("format", int)
    if fmt not in READS:
        raise top.error("format", f"version {fmt} is not supported (this toolkit reads "
                                  f"{', '.join(map(str, READS))})")
    run = top.table("run")
    game = run.get("game", str)
    from simcore import games as registry

    if game not in registry.names():        # before the units of the metrics, which depend on it
        raise run.error("game", f"unknown game {game!r} (known: {', '.join(registry.names())})")
    players = run.get("players", int, lo=1)
    strategies = run.get("strategies", list)
    if not strategies or not all(isinstance(s, str) for s in strategies):
        raise run.error("strategies", "must be a list of strategy names")
    if len(strategies) != players:
        raise run.error("strategies", f"{len(strategies)} names for {players} players")
    bot_files = _load_strategy_files(run, strategies) if run.has("strategy_files") else None
    rotate = run.get("rotate_seats", bool, False)
    # named as the file's key (review s61 #5: "--engine gpu: must be kernel or reference", an
    # option balance check does not have)
    engine = run.get("engine", str, "kernel", choices=list(ENGINES))
    seed = run.get("seed", int, lo=0)
    games = run.get("games", int, lo=1)
    rules = run.get("rules", str)
    sha = run.get("rules_sha256", str)
    if not re.fullmatch(r"[0-9a-fA-F]{64}", sha):
        # review s61 #4: "xyz" was taken, and the check then said the shipped rules had changed
        # and that "the baseline records no rules text", both untrue
        raise run.error("rules_sha256", f"{sha!r} is not a sha256 (64 hexadecimal digits); "
                                        f"{_REGENERATE}")
    sha = sha.lower()
    version = run.get("version", str, "")
    created = run.get("created_utc", str, "")
    run.done()
    chk = top.table("check", None)
    alpha = chk.get("alpha", float, DEFAULT_ALPHA)
    if not 0 < alpha < 0.5:
        raise chk.error("alpha", f"must be between 0 and 0.5, got {alpha!r}")
    beta = chk.get("beta", float, DEFAULT_BETA)
    if not 0 < beta < 0.5:
        raise chk.error("beta", f"must be between 0 and 0.5, got {beta!r}")
    check_games = chk.get("games", int, None, lo=1) if chk.has("games") else None
    batch = chk.get("batch", int, 0, lo=0) or None
    seed_offset = chk.get("seed_offset", int, DEFAULT_SEED_OFFSET)
    if seed_offset == 0:
        raise chk.error("seed_offset", "must not be 0 (the check would replay the baseline's own games)")
    on_inc = chk.get("on_inconclusive", str, "pass", choices=list(ON_INCONCLUSIVE))
    chk.done()
    smallest: dict = {}
    if top.has("smallest_difference"):         # files written before it: the game's defaults
        sd = top.table("smallest_difference", None)
        for key, kind, scale in (("win_share", "share", 0.01), ("score", "score", 1.0)):
            if sd.has(key):
                v = sd.get(key, float, lo=0.0)
                if not (v > 0 and math.isfinite(v)) or (kind == "share" and v >= 100):
                    raise sd.error(key, "must be a number > 0" + (" and below 100 (pp)" if kind == "share" else ""))
                smallest[kind] = v * scale
        sd.done()
    tol_t = top.table("tolerance", None)
    defaults = default_tolerances(game, smallest)    # a kind the file leaves out: what matters
    tolerance = {}
    for k in KINDS:
        tolerance[k] = tol_t.get(k, float, defaults[k])
        _check_tolerance(tol_t, k, k, tolerance[k])
    tol_t.done()
    measured_rules = None
    if top.has("measured_rules"):       # files written before it: the rules file, if unchanged
        mr = top.table("measured_rules", None)
        text = mr.get("text", str)
        mr.done()
        # an edited text no longer describes the measured rules: not used (a check then says the
        # settings cannot be listed, as for a file without it)
        measured_rules = text if rules_text_matches(text, sha) else None
    metrics = []
    seen = set()
    for t in top.tables("metric"):
        metric = t.get("metric", str, choices=list(KINDS))
        key = t.get("key", str)
        if (metric, key) in seen:
            raise t.error("key", f"{metric} {key!r} appears twice")
        seen.add((metric, key))
        lacking = _key_problem(metric, key, game, players)
        if lacking:
            raise t.error("key", lacking)
        expected = unit_of(metric, game)
        unit = t.get("unit", str, expected)
        if unit != expected:
            raise t.error("unit", f"{metric} is measured in {expected!r}, got {unit!r}")
        value = t.get("value", float)
        se = t.get("se", float, lo=0.0)
        m = Measurement(metric, key, t.get("label", str, f"{key} {metric.replace('_', ' ')}"), value,
                        t.get("ci_low", float, value - Z95 * se), t.get("ci_high", float, value + Z95 * se),
                        se, t.get("n", int, 0, lo=0),
                        t.get("tolerance", float, None) if t.has("tolerance") else None)
        if m.tolerance is not None:
            _check_tolerance(t, "tolerance", metric, m.tolerance)
        for name, v in (("value", m.value), ("se", m.se)):
            if not math.isfinite(v):
                raise t.error(name, "must be a finite number")
        if m.n < 1:
            raise t.error("n", f"{m.label}: n = {m.n}; a measured value comes from at least one game (n "
                               f"counts the games, or deals, it was measured on; {_REGENERATE})")
        _check_measured(t, m, unit)
        t.done()
        metrics.append(m)
    if not metrics:
        raise top.error("metric", "no [[metric]] block: nothing to check")
    _check_games(src.name, games, players, metrics)
    top.done()
    return Baseline(path=Path(path), game=game, players=players, strategies=list(strategies),
                    rotate_seats=rotate, engine=engine, seed=seed, games=games, rules=rules,
                    rules_sha256=sha, version=version, created_utc=created, alpha=alpha,
                    check_games=check_games, seed_offset=seed_offset, on_inconclusive=on_inc,
                    tolerance=tolerance, metrics=metrics, beta=beta, batch=batch, format=fmt,
                    smallest=smallest, measured_rules=measured_rules, strategy_files=bot_files)


def _load_strategy_files(run: Table, strategies: list[str]) -> list[dict]:
    """``[run] strategy_files``: a list of ``{ name, path, sha256 }``, a name one of the files the
    seats name, a sha256 of 64 hexadecimal digits; one line naming the file and the key else."""
    raw = run.get("strategy_files", list)
    named = _seat_files(strategies)
    out = []
    for f in raw:
        if not (isinstance(f, dict) and set(f) == {"name", "path", "sha256"}
                and all(isinstance(v, str) and v for v in f.values())):
            raise run.error("strategy_files", "each entry must be { name = \"…\", path = \"…\", "
                                              f"sha256 = \"…\" }}, got {f!r}; {_REGENERATE}")
        if f["name"] not in named:
            raise run.error("strategy_files", f"{f['name']!r} is no strategy file the seats name "
                                              f"(run.strategies: {', '.join(strategies)}); {_REGENERATE}")
        if not re.fullmatch(r"[0-9a-fA-F]{64}", f["sha256"]):
            raise run.error("strategy_files", f"{f['name']}: {f['sha256']!r} is not a sha256 (64 "
                                              f"hexadecimal digits); {_REGENERATE}")
        out.append({**f, "sha256": f["sha256"].lower()})
    return out



__all__ = ["Baseline", "DEFAULT_SEED_OFFSET", "FORMAT", "baseline_rules_text", "check_settings",
           "default_tolerances", "game_title", "games_comment", "load_baseline", "make_baseline", "power_caveat",
           "render_baseline", "rules_changes", "unread_changes",
           "rules_entry", "rules_text_matches", "simulate_command", "strategy_files_entry",
           "tolerance_summary"]
