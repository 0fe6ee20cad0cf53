"""Steps of a long command on stderr, with an estimate of the time left.

:class:`Steps` is the progress display of ``balance report``, ``balance ladder`` and ``balance
skill`` (``balance check`` writes its own lines, a line per look, as it plays): a transient line on stderr saying which step runs ("step 3 of 8: Writing figure
scores"), the command's time spent and, once a step has finished, an estimate of the time left
from the average time per step (:func:`time_left`) of the steps of the same kind: those of the
current run of counted steps, timed from its first (a report's figures, not the played questions
and the analysis before them, which are long and uncounted: review 270 #1). It is called as ``steps(text)`` (a new phase
without a count, e.g. a played question) or ``steps(text, done, total)``. Nothing is shown when
stderr is not a terminal, unless forced (``BALANCE_PROGRESS=1``), so scripts and CI logs stay clean;
there a long command instead writes a plain line at most every minute (:class:`LogLines`: games or
steps done, time spent and left; :class:`Steps` also while one step runs long, its line as the caller
renders it where it has one, ``source``: ``balance skill``'s with the time left of its parts), so a
CI log shows it is alive (some CI services stop a job that
prints nothing for ten minutes) and a short one prints nothing extra. :class:`StepLines` does the
same for the commands that say each step in a line of their own on a terminal (``balance
questions``, ``balance baseline --panel``, ``simulate --panel``): off one, :class:`Steps`' lines.
:func:`counted` writes a count with its noun ("1 game", "2 games") for every command's lines.
The closing line of ``simulate`` names each of its times for what it measures (:func:`times_said`:
the games played, the kernel's part of them, the command's time from the process's start,
:func:`command_seconds`, and, when it was long, the kernels' compile or load, told apart by what
the compile spinner showed, :func:`compiled_here`), and with ``--debug`` that the game's invariants
were checked and held (:func:`checks_said`).

May import rich, the standard library and :mod:`simcore` (the runner's results and statistics;
:func:`simcore.numbers.rounded`, the report's rounding, so that a number prints the same in both),
and for a rotated-seat run's closing table, or one where a strategy holds several seats of a
game, :mod:`analysis` (the seat and strategy tables ``balance report`` prints, read over the run's
deals or games from its statistics).
"""

from __future__ import annotations

import os
import sys
import time


def print_table(console, table) -> None:
    """``table`` printed whole: off a terminal (a pipe, a file) at its natural width, not cut to
    the 80 columns rich assumes there (review W #8: a ladder's "(79.4–93.…" intervals); on a
    terminal at the terminal's width, as rich does."""
    if console.is_terminal:
        console.print(table)
        return
    from rich.measure import Measurement

    need = Measurement.get(console, console.options.update_width(10_000), table).maximum
    kept = console.width
    console.width = max(kept, need)          # print's own width= is capped at the console's
    try:
        console.print(table)
    finally:
        console.width = kept


def counted(n: int, noun: str) -> str:
    """``1 game``, ``2,000 games``: a count and its noun, singular for one (review P #9: "1 games",
    "1 variants")."""
    return f"{n:,} {noun}{'' if n == 1 else 's'}"


def time_left(elapsed: float, done: int, total: int) -> str:
    """``about 12 s left`` from the average time per finished step; '' before the first one ends."""
    if done <= 0 or total <= done or elapsed <= 0:
        return ""
    left = elapsed / done * (total - done)
    if left < 1:
        return "about 1 s left"
    if left < 90:
        return f"about {left:.0f} s left"
    return f"about {left / 60:.0f} min left"


#: Seconds between two progress lines when stderr is not a terminal (``BALANCE_LOG_EVERY`` sets it).
LOG_EVERY_S = 60.0


def log_every() -> float | None:
    """Seconds between two progress lines off a terminal (``BALANCE_LOG_EVERY``: a number of
    seconds, 0 for every update; ``off``, ``no``, ``never`` or ``0ff`` for none); None: no lines.
    A value that is none of these is one line on stderr and the default (review Q #7: a word was
    read as 60 without a word)."""
    raw = os.environ.get("BALANCE_LOG_EVERY")
    if raw is None or not raw.strip():
        return LOG_EVERY_S
    if raw.strip().lower() in ("off", "no", "never", "none", "false"):
        return None
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not value >= 0:                 # (nan, a negative number)
        global _WARNED
        if not _WARNED:
            _WARNED = True
            import sys

            print(f"BALANCE_LOG_EVERY={raw!r}: not a number of seconds (0 or more) or 'off'; "
                  f"progress lines every {LOG_EVERY_S:g} s", file=sys.stderr)
        return LOG_EVERY_S
    return value


_WARNED = False


def live_bar(console, *columns, **kwargs):
    """A rich ``Progress(*columns, console=console, **kwargs)`` on a terminal (or with
    ``BALANCE_PROGRESS=1``), as :class:`Steps` shows its line; off one, a bar that draws nothing
    (:class:`NoBar`): rich's live display ends with a newline on a console that is not a terminal,
    so a sweep's or tune's stderr began with an empty line, before its error or interrupt line too
    (review s59 #3). :class:`LogLines` says the progress there."""
    if console.is_terminal or os.environ.get("BALANCE_PROGRESS"):
        from rich.progress import Progress

        return Progress(*columns, console=console, **kwargs)
    return NoBar()


class NoBar:
    """A progress bar that draws nothing, for :func:`live_bar` off a terminal (the calls of rich's
    ``Progress`` that the commands make)."""

    def __enter__(self) -> "NoBar":
        return self

    def __exit__(self, *exc) -> None:
        return None

    def start(self) -> None:
        return None

    def stop(self) -> None:
        return None

    def add_task(self, *args, **kwargs) -> int:
        return 0

    def update(self, *args, **kwargs) -> None:
        return None


class LogLines:
    """Progress as plain lines, for a console that is not a terminal (a CI log, a file): called as
    ``log(done, total, text)``, it prints "simulating: 250,000 of 1,000,000 games (25%), 61 s,
    about 3 min left" at most every :data:`LOG_EVERY_S` seconds (the first after that long: a short
    command prints nothing), never at the end (the command's own lines say that). Silent on a
    terminal (the live bar shows it), on a quiet console and with ``BALANCE_LOG_EVERY=off``. Its
    clock starts at its first report (``done`` then is where it started: a resumed tune's trials
    already played, the first chunk's games), so the time left is read on the work timed here, not
    on the start-up or an earlier phase (review Q #7: a tune's confirmation said "about 35 min
    left" for 2 s of work)."""

    def __init__(self, console, what: str, unit: str = "game") -> None:
        self.what, self.unit, self.console = what, unit, console
        self.every = log_every()
        self.enabled = not console.quiet and not console.is_terminal and self.every is not None
        self.start = self.last = None
        self.first = 0

    def __call__(self, done: int, total: int, text: str = "") -> None:
        if not self.enabled or not total or done >= total:
            return
        now = time.perf_counter()
        if self.start is None:
            self.start = self.last = now
            self.first = done
            return
        if now - self.last < self.every:
            return
        self.last = now
        elapsed = now - self.start
        left = time_left(elapsed, done - self.first, total - self.first)
        line = (f"{self.what}: {done:,} of {counted(total, self.unit)} ({100 * done / total:.0f}%), "
                f"{elapsed:.0f} s" + (f", {left}" if left else "") + (f"; {text}" if text else ""))
        self.console.print(line, highlight=False, soft_wrap=True, markup=False)


class Steps:
    """A context manager; call it with each step (see the module docstring)."""

    def __init__(self, what: str, console=None) -> None:
        from rich.console import Console

        self.what = what
        self.console = console or Console(stderr=True)
        self.start = time.perf_counter()
        self.live = None
        self.done, self.total, self.text = 0, 0, what
        # (clock, steps done) at the first step of the current run of counted steps (render)
        self.since: tuple[float, int] | None = None
        self.lines: list[str] = []          # every step shown, for tests and --verbose logs
        self.log = LogLines(self.console, what, "step")
        # what a line says when it is written: the step's own (render), or a caller's that knows
        # more (balance skill's PartClock: the time left from its timed parts)
        self.source = None
        self.compile: tuple[str, float] | None = None      # (message, clock) while Numba compiles
        self._stop = None
        self._ticker = None
        import threading

        self._lock = threading.Lock()

    def __enter__(self) -> "Steps":
        if self.console.is_terminal or os.environ.get("BALANCE_PROGRESS"):
            self.live = self.console.status(self.what + "…")
            self.live.__enter__()
        elif self.log.enabled and self.log.every > 0:
            # off a terminal a line every period while a step runs, not only when the next one
            # starts (review 214 #6: a skill run's 4.5-minute part wrote nothing, in a log a CI
            # service may take for a hung job)
            import threading

            self._stop = threading.Event()
            self._ticker = threading.Thread(target=self._tick, name="balance-progress", daemon=True)
            self._ticker.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._ticker is not None:
            self._stop.set()
            self._ticker.join()
            self._ticker = None
        if self.live is not None:
            self.live.__exit__(*exc)

    def _tick(self) -> None:
        """Off a terminal: the current line again whenever a period has passed since the last
        one written (by a step or by this), until the command's steps end."""
        every = self.log.every
        while True:
            with self._lock:
                last = self.log.last if self.log.last is not None else self.start
            if self._stop.wait(max(0.01, last + every - time.perf_counter())):
                return
            with self._lock:
                last = self.log.last if self.log.last is not None else self.start
                if time.perf_counter() - last >= every and self.lines:
                    self.log.last = time.perf_counter()
                    self.console.print(self.line(), highlight=False, soft_wrap=True, markup=False)

    def line(self) -> str:
        """The line as it reads now (the caller's ``source`` where it has one)."""
        if self.source is not None:
            try:
                return self.source() + self.compiling_said()
            except Exception:       # (a caller's line read between its updates: the step's own)
                pass
        return self.render()

    def compiling(self, message: str):
        """A ``show(message)`` for the runner's compile notice (:class:`simcore.runner.compile_shown`
        around the command's steps): the step's line says "compiling …" with its seconds
        (:func:`compiling_line`) until the returned function is called, as ``simulate``'s spinner
        does (review 270 #3: a report's played questions and a skill part compiled kernels for
        75 s and 44 s with nothing said). Called from the thread that compiles."""
        import threading

        with self._lock:
            self.compile = (message, time.perf_counter())
        self._show(self.render())
        done = threading.Event()
        ticker = None
        if self.live is not None:           # the seconds counted on a terminal
            def tick() -> None:
                while not done.wait(SPIN_TICK_S):
                    self._show(self.render())

            ticker = threading.Thread(target=tick, name="balance-compile-step", daemon=True)
            ticker.start()

        def stop() -> None:
            done.set()
            if ticker is not None:
                ticker.join()
            with self._lock:
                self.compile = None
            self._show(self.render())
        return stop

    def compiling_said(self) -> str:
        """"; compiling the Médiévallons kernel (…)… (34 s)" while a kernel compiles, else ''."""
        held = self.compile
        if held is None:
            return ""
        message, start = held
        return "; " + compiling_line(message[:1].lower() + message[1:], time.perf_counter() - start)

    def _show(self, line: str) -> None:
        """``line`` as the step's line now (kept in :attr:`lines`; on a terminal, shown)."""
        self.lines.append(line)
        if self.live is not None:
            self.live.update(line)

    def __call__(self, text: str, done: int | None = None, total: int | None = None) -> None:
        if done is not None and total:
            if self.since is None or total != self.total or done < self.done:
                # the first step of a counted run: the estimate's clock starts here (review 270
                # #1: the played questions and the analysis before a report's figures, uncounted
                # and long, were spread over its quick figure steps: "about 5 min left", done 8 s
                # later)
                self.since = (time.perf_counter(), done)
            self.done, self.total = done, total
        else:
            self.since = None           # an uncounted phase: the next counted step starts again
        self.text = text
        line = self.render()
        self.lines.append(line)
        if self.live is not None:
            self.live.update(line)
        elif self.log.enabled:
            with self._lock:
                now = time.perf_counter()
                if self.log.last is None:
                    self.log.last = self.start
                if now - self.log.last >= self.log.every:
                    self.log.last = now
                    self.console.print(self.line(), highlight=False, soft_wrap=True, markup=False)

    def render(self) -> str:
        elapsed = time.perf_counter() - self.start
        parts = [f"{self.what}: "]
        if self.total:
            parts.append(f"step {min(self.done + 1, self.total)} of {self.total}: ")
        parts.append(f"{self.text}… ({elapsed:.0f} s")
        left = ""
        if self.total and self.since is not None:
            # from the steps of this run only (since its first): none before one of them ended
            start, first = self.since
            left = time_left(time.perf_counter() - start, self.done - first, self.total - first)
        parts.append(f", {left})" if left else ")")
        return "".join(parts) + self.compiling_said()


class StepLines:
    """``say(text)``, the progress of a command that says each step in a line of its own: ``balance
    questions``' played questions (a line per card and slice of games), ``balance baseline
    --panel``'s and ``simulate --panel``'s cells. On a terminal (or with ``BALANCE_PROGRESS=1``)
    each line is printed as it comes, as before. Off one (a CI log, a file, a pipe) they are the
    plain lines of :class:`Steps`: none in the first minute, then at most one a minute
    (``BALANCE_LOG_EVERY``) saying the step that runs and the time spent, also while one step runs
    long; so a CI log holds a few lines, not hundreds, and an error's or an interruption's line is
    the first line of stderr when it comes in the first minute (session 63: a Middle-Ages
    questions run wrote a line per card and slice, and after Ctrl-C the "interrupted" line came
    after them). Nothing with ``quiet``. A context manager; :meth:`compiling` is the runner's
    compile notice off a terminal (:meth:`Steps.compiling`), None on one (the caller's spinner)."""

    def __init__(self, what: str, console=None, quiet: bool = False) -> None:
        from rich.console import Console

        self.what, self.quiet = what, quiet
        self.console = console or Console(stderr=True)
        self.each = self.console.is_terminal or bool(os.environ.get("BALANCE_PROGRESS"))
        self.steps: Steps | None = None

    def __enter__(self) -> "StepLines":
        if not self.quiet and not self.each:
            self.steps = Steps(self.what, self.console).__enter__()
        return self

    def __exit__(self, *exc) -> None:
        if self.steps is not None:
            steps, self.steps = self.steps, None
            steps.__exit__(*exc)

    def __call__(self, text: str) -> None:
        if self.quiet:
            return
        if self.steps is not None:
            self.steps(text)
        else:
            print(text, file=sys.stderr, flush=True)

    @property
    def compiling(self):
        """:meth:`Steps.compiling` off a terminal (the compile said on the plain line), else None."""
        return self.steps.compiling if self.steps is not None else None


# ---------------------------------------------------------------------------------------------
# simulate: the compile spinner, the progress bar and the closing table (the runner draws nothing)
# ---------------------------------------------------------------------------------------------

#: Whether this process made a :func:`spinner` (``made``: one per ``simulate``) and the messages
#: the last one was asked to show, in order (``shown``): the runner's local executor shows its
#: compile notice only while Numba really compiles (:class:`simcore.runner.compile_notice`), so
#: the closing line can tell a compile from a load from the cache (:func:`compiled_here`).
NOTICES: dict = {"made": False, "shown": []}


#: Seconds between two updates of the compile spinner's time spent.
SPIN_TICK_S = 1.0


def compiling_line(message: str, seconds: float) -> str:
    """The compile notice with its time spent, as every long step shows it: "Compiling the
    Middle-Ages kernel …… (12 s)" (review 270 #2: 76-124 s of a bare spinner)."""
    return f"{message}… ({seconds:.0f} s)"


def spinner(console):
    """A ``show(message)`` for the runner's compile notice: a spinner on ``console``, counting its
    seconds (:func:`compiling_line`, updated every :data:`SPIN_TICK_S`), until the returned
    function is called; nothing on a quiet console. Each message is kept in :data:`NOTICES`
    (``status``: the line the spinner shows now)."""
    shown: list[str] = []
    NOTICES.update(made=True, shown=shown)

    def show(message: str):
        shown.append(message)
        if console.quiet:
            return None
        import threading

        start = time.perf_counter()
        NOTICES["status"] = compiling_line(message, 0)
        status = console.status(NOTICES["status"])
        status.start()
        done = threading.Event()

        def tick() -> None:
            while not done.wait(SPIN_TICK_S):
                NOTICES["status"] = compiling_line(message, time.perf_counter() - start)
                status.update(NOTICES["status"])

        ticker = threading.Thread(target=tick, name="balance-compile-spinner", daemon=True)
        ticker.start()

        def stop() -> None:
            done.set()
            ticker.join()
            status.stop()
        return stop
    return show


def _time_left_column():
    """Rich's time-left column, made when a bar is drawn (rich is imported only then)."""
    from rich.progress import TimeRemainingColumn
    from rich.text import Text

    class TimeLeft(TimeRemainingColumn):
        """Rich's time left, unknown ("-:--:--") while the task's ``idle`` field is set."""

        def render(self, task):
            if task.fields.get("idle"):
                return Text("-:--:--", style="progress.remaining")
            return super().render(task)

    return TimeLeft()


class SimulationBar:
    """The runner's progress callback as a rich bar (games done, games/s, time left) that appears
    only when the run is projected to last more than a second; ``note`` shows what an executor
    says (a cluster's live workers). A context manager: the bar goes when the run ends."""

    def __init__(self, console) -> None:
        self.console = console
        self.start = time.perf_counter()
        self.bar = None
        self.task = None
        self._note = ""
        self._idle = False
        self.log = LogLines(console, "simulating")
        self.first: tuple[int, float] | None = None     # (games, clock) at the first report

    def rate(self, done: int, now: float) -> str:
        """Games per second since the first report (the first chunk's end): not over the compile,
        the connection to a cluster or its workers' warm-up before it (session 48's list: a
        cluster run's rate counted its warm-up)."""
        if self.first is None:
            self.first = (done, now)
        games, since = done - self.first[0], now - self.first[1]
        return f"{games / since:,.0f} games/s" if games > 0 and since > 0 else ""

    def __enter__(self) -> "SimulationBar":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def note(self, text: str, idle: bool = False) -> None:
        """Show ``text`` (a cluster's workers) after the bar; ``idle``: nothing plays now (every
        worker is gone), so no rate and no time left are shown until a chunk comes again: they
        stood frozen at the last chunk's for the whole wait (review s61 #4)."""
        self._note, self._idle = text, idle
        if self.bar is not None:
            self.bar.update(self.task, note=text, idle=idle,
                            **({"rate": ""} if idle else {}))

    def update(self, done: int, total: int) -> None:
        now = time.perf_counter()
        elapsed = now - self.start
        rate = self.rate(done, now)
        if self.bar is None and done < total and elapsed > 0 and done > 0:
            if elapsed / done * total > 1.0 and not self.console.quiet:
                from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
                from rich.table import Column

                # "450000/1500000 games" is never cut: in 80 columns with a cluster's note it read
                # "450000/15000… games" (review s61 #5); the bar, the time and the note give way
                whole = Column(min_width=2 * len(str(total)) + 1, no_wrap=True)
                self.bar = live_bar(self.console, TextColumn("[bold]simulating"), BarColumn(),
                                    MofNCompleteColumn(table_column=whole),
                                    TextColumn("games", table_column=Column(min_width=5, no_wrap=True)),
                                    TextColumn("{task.fields[rate]}"),
                                    _time_left_column(), TextColumn("{task.fields[note]}"),
                                    transient=True)
                self.bar.start()
                self.task = self.bar.add_task("games", total=total, rate="", note=self._note,
                                              idle=self._idle)
        if self.bar is not None:
            self.bar.update(self.task, completed=done, rate=rate, idle=False)
        self._idle = False                      # a chunk came: something plays
        self.log(done, total, rate)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _deal_intervals(result) -> dict | None:
    """For a rotated-seat run, the 95% intervals ``balance report`` prints for the same run, read
    over its deals (the games of a deal share it, so they are not independent): ``{"seat": [(low,
    high) per seat], "strategy": {name: (low, high)}}`` from the run's statistics through
    :func:`analysis.seats.seat_table` (Wilson on the effective number of games) and
    :func:`analysis.matchups.strategy_table` (Wilson's at the per-deal means' effective number of
    games). None for a run
    whose games are its independent units."""
    if result.prep.games_per_deal <= 1:
        return None
    from analysis import matchups, open_runs, seats

    rs = open_runs([result.path], source="stats")
    t = seats.seat_table(rs).sort("seat")
    out = {"seat": list(zip(t["ci_low"].to_list(), t["ci_high"].to_list())), "strategy": {}}
    if len(result.stats.strategies) > 1:
        st = matchups.strategy_table(rs)
        out["strategy"] = {n: (lo, hi) for n, lo, hi in st.select("strategy", "ci_low", "ci_high").iter_rows()}
    return out


def _game_intervals(result) -> dict | None:
    """For a run whose games are its independent units and where a strategy holds several seats of
    a game (``balanced`` in Seats 2-4 of ``rollout,balanced,balanced,balanced``), the 95% intervals
    ``balance report`` prints for its strategies, ``{name: (low, high)}``, from the run's statistics
    through :func:`analysis.matchups.strategy_table`: Wilson's at the effective number of games of
    the strategy's per-game share (the mean of its seats'), Wilson's for a strategy on one seat (review s60: Wilson's over
    the player rows here and on the page, as if a game's seats were independent, was too wide).
    None for another run."""
    prep = result.prep
    lineup = list(prep.strategy_names)
    if (prep.games_per_deal > 1 or prep.seat_labels or len(result.stats.strategies) < 2
            or len(set(lineup)) == len(lineup)):
        return None
    from analysis import matchups, open_runs

    st = matchups.strategy_table(open_runs([result.path], source="stats"))
    return {n: (lo, hi) for n, lo, hi in st.select("strategy", "ci_low", "ci_high").iter_rows()}


def _spec_of(game):
    """The registered spec of run.json's ``game``, or None (a game this install does not list:
    names as recorded, the generic words)."""
    from simcore import games as registry

    try:
        return registry.get(str(game))
    except Exception:
        return None


def print_summary(console, result) -> None:
    """The closing table of a run (:class:`simcore.runner.RunResult`): win share per seat (and per
    strategy when several play seats alike) with its 95% Wilson interval
    (:func:`simcore.stats.wilson_counts`, the report's and the export's, exact Poisson ends included; a rotated-seat run's read
    over its deals, the intervals of ``balance report``: :func:`_deal_intervals`; a strategy's
    where one holds several seats of a game, over the games: :func:`_game_intervals`), the distance to the fair
    share where every seat is alike (the printed share minus the printed fair share,
    :func:`simcore.numbers.fair_gap`, as the before/after prints its largest gap), the mean
    score in the game's unit (all from the run's statistics, :func:`simcore.accumulate.results_by`),
    every number rounded as ``balance report`` rounds it (:func:`simcore.numbers.rounded`), with a line
    saying how a shared win counts when the run had any; then the lines the game adds."""
    from rich.table import Table

    from simcore.numbers import fair_gap, rounded
    from simcore.accumulate import results_by
    from simcore.stats import wilson_counts

    def two(x: float) -> str:
        """Two decimals rounded as ``balance report`` rounds them (halves away from zero: a share
        of exactly 0.25375 is 25.38% in both, not 25.37% here; review P #7)."""
        return f"{rounded(x, 2):.2f}"

    meta, prep, stats = result.meta, result.prep, result.stats
    P = meta["players"]
    fair = prep.fair_share
    title = (f"{meta['game']}: {counted(meta['games'], 'game')}, {P} players, seed {meta['seed']}"
             f" — {meta['games_per_s']:,.0f} games/s")
    seat_labels = (["(rotating)"] * P if prep.games_per_deal > 1 else list(prep.strategy_names))
    deals = _deal_intervals(result)
    per_game = _game_intervals(result) if deals is None else None
    spec = _spec_of(meta.get("game"))
    shown = spec.role_display if spec is not None else (lambda name: name)
    groups = [("seat", seat_labels)]
    if len(stats.strategies) > 1 and not prep.seat_labels:
        groups.append(("strategy", stats.strategies))
    for head, labels in groups:
        r = results_by(stats, head)
        shared = int(stats.fixed["shared_games"].sum()) if "shared_games" in stats.fixed else 0
        # the column is the win share: a win shared by k players counts 1/k (Fief's attacker "won"
        # 88.66% beside P(attacker wins) 0.8562 under a column called win rate: both wiped out is
        # half a win each)
        t = Table(title=title if head == "seat" else "per strategy (all seats)", title_justify="left")
        if head == "seat":
            t.add_column("seat", justify="right")
        roles = bool(prep.seat_labels) and head == "seat"
        t.add_column("role" if roles else "strategy")
        if roles:          # each seat's bot beside its role (review W #6: mixed bots were not shown)
            t.add_column("strategy")
        columns = ["win share", "95% interval (over deals)" if deals is not None else
                   "95% interval (over games)" if per_game is not None and head == "strategy" else
                   "95% interval (Wilson)"]
        if fair is not None:
            columns.append("vs fair share")
        columns.append(f"mean score ({prep.score_unit})")
        for c in columns:
            t.add_column(c, justify="right")
        for i, label in enumerate(labels):
            n, w = int(r["games"][i]), float(r["win_share"][i])
            if per_game is not None and head == "strategy":
                lo, hi = per_game.get(label, (float("nan"), float("nan")))
            elif deals is None:
                # the interval balance report and balance export print for this share (Wilson's,
                # with the exact Poisson end at 1-3 wins or losses: review 225 #2, a Seigneur's 2 wins
                # of 800 read 0.07–0.91% here beside the page's 0.03–0.91%)
                lo, hi = wilson_counts(float(r["wins"][i]), n)
            elif head == "seat":
                lo, hi = deals["seat"][i]
            else:
                lo, hi = deals["strategy"].get(label, (float("nan"), float("nan")))
            cells = [label]
            if roles:       # the role as the reports print it ("Seigneur", not "seigneur": review Y #12)
                cells = [shown(prep.seat_labels[i]), label]
            cells += [f"{two(100 * w)}%", f"{two(100 * lo)}–{two(100 * hi)}%"]
            if fair is not None:
                # the printed share minus the printed fair share (30.11% beside +5.10 pp read as a
                # slip), never "-0.00" (a loss); one helper with the before/after's largest gap
                # (review s55 #1: −0.47 here, 0.48 there, for a share of 24.525%)
                gap = fair_gap(100 * w, 100 * fair, 2)
                cells.append(f"{'0.00' if gap == 0 else format(gap, '+.2f')} pp")
            cells.append(two(float(r['mean_score'][i])))
            t.add_row(*([str(i + 1)] if head == "seat" else []), *cells)
        console.print(t)
        if (head == "seat" and prep.seat_labels and len(set(prep.seat_labels)) > 1
                and len(set(prep.seat_labels)) < len(prep.seat_labels)):     # (a role of several seats)
            # each side's share of the games (review Y #12: the Censitaires' 99.6% was nowhere)
            sides = {}
            for i, role in enumerate(prep.seat_labels):
                sides.setdefault(role, []).append(float(r["win_share"][i]))
            said = {k: two(100 * sum(v)) for k, v in sides.items()}
            if len(sides) == 2 and abs(sum(map(sum, sides.values())) - 1.0) < 1e-9:
                # two sides that share every game: the second as 100% minus the first as printed,
                # so the line sums to 100% (review 214 #9: 0.375% and 99.625% read "0.38%" and
                # "99.63%", both halves rounded away from zero); within half a unit of its share
                first, second = sides
                said[second] = f"{rounded(100 - float(said[first]), 2):.2f}"
            words = [f"the {shown(k)} {said[k]}%" if len(v) == 1 else
                     f"the {len(v)} {shown(k)}s together {said[k]}%"
                     for k, v in sides.items()]
            console.print("sides: " + ", ".join(words) + " of the games", soft_wrap=True)
        if head == "seat":
            # many games stopped at the turn limit: the shares above describe unfinished games, and
            # the closing table says so first (a Seigneurial variant's 57% of truncated games read
            # as "the Seigneur wins 28.95%"; simcore.turn_limit)
            from simcore.turn_limit import from_stats, warning

            said = warning(from_stats(stats, meta.get("end_reason_names")),
                           about="The win shares above")
            if said:
                console.print(said, style="bold", soft_wrap=True)
        if shared and head == "seat":        # under the table, not a caption (wrapped to its width)
            # in the game's words where its spec has them (extra["shared_win"]: Fief's wipe-out)
            how = str(spec.extra.get("shared_win") or "") if spec is not None else ""
            if how:
                console.print(f"win share: {how} ({shared:,} of {counted(meta['games'], 'game')})",
                              soft_wrap=True)
            else:
                console.print(f"win share: a win shared by k players counts 1/k ({shared:,} of "
                              f"{counted(meta['games'], 'game')} had a shared win)", soft_wrap=True)
        if deals is not None and head == "seat":
            console.print(f"intervals over the {counted(meta['games'] // prep.games_per_deal, 'deal')}"
                          f" (each played in {prep.games_per_deal} seat rotations: its games are not "
                          "independent), as balance report reads them", soft_wrap=True)
    if result.closing:
        # what was measured, in the game's words where its report hook says it (a Fief combat's
        # matchup: the printout never named the combat, review s52 Fief #3)
        from reports.games import hook_for

        said = getattr(hook_for(str(meta.get("game"))), "run_line", None)
        line = said(meta) if said is not None else ""
        t = Table(title=f"{meta['game']}: outcomes" + (f" of {line}" if line else ""), title_justify="left")
        for c, j in (("outcome", "left"), ("estimate", "right"), ("95% interval", "right")):
            t.add_column(c, justify=j)
        for row in result.closing:
            if row.percent:
                t.add_row(row.label, f"{row.estimate:.4f}", f"{row.low:.4f} – {row.high:.4f}")
            else:
                t.add_row(row.label, f"{row.estimate:.3f}", f"{row.low:.3f} – {row.high:.3f}")
        console.print(t)
    said = times_said(meta, command_seconds(), compiled_here(meta))
    checked = checks_said(meta)
    console.print(f"run directory: {result.path}  ({said}{'; ' + checked if checked else ''})",
                  soft_wrap=True)


#: Seconds of run.json's ``compile_or_load_s`` above which the closing line says where they went
#: (a load from the cache takes well under a second on an idle machine; designer review, session
#: 41: a first run said "games played in 8.84 s …; the command took 66.1 s", 56 s unexplained).
SETUP_SAID_S = 2.0


def times_said(meta: dict, command_s: float | None, compiled: bool | None = None) -> str:
    """The times of the closing line, each named for what it measures: "games played in 0.37 s,
    of which the kernel 0.27 s; the command took 1.9 s" ("of which the reference engine" for a
    run of ``--engine reference``). run.json's ``wall_time_s`` is the playing
    loop only (chunks played and their rows written; not the start, the imports, the kernels'
    compile or load, nor the files written at the end), which "wall" beside it was read as the
    command's time (0.37 s said for a command of 1.9 s). The kernel's time is a part of it when
    the chunks ran one after another here; on a cluster it is summed over the workers and may be
    longer. ``command_s`` (:func:`command_seconds`) None: the command's time is left out.

    When getting the kernels ready (run.json's ``compile_or_load_s``) took more than
    :data:`SETUP_SAID_S`, that time too, as ``compiled`` says it was spent (:func:`compiled_here`):
    "compiling the kernels took 56 s, once per kind of line-up and player count: cached
    afterwards" (True; how often as the game's spec says, :meth:`simcore.contract.GameSpec.compiled_words`), "loading the
    kernels from the cache took 2.4 s" (False), "compiling or loading the kernels took 3.1 s"
    (None: not known); on a cluster, whose time also holds starting it and its workers' own
    compile or load, "starting the cluster and its kernels took 8.0 s"."""
    played, kernel = float(meta["wall_time_s"]), float(meta["kernel_time_s"])
    # --engine reference: the games' time is the pure-Python reference engine's, not a kernel's
    engine = "the reference engine" if meta.get("engine") == "reference" else "the kernel"
    said = f"games played in {played:.2f} s, "
    said += (f"of which {engine} {kernel:.2f} s" if kernel <= played else
             f"{engine} {kernel:.2f} s summed over the chunks played at once")
    if command_s is not None and command_s >= played:
        said += f"; the command took {command_s:.1f} s"
    setup = meta.get("compile_or_load_s")
    if isinstance(setup, (int, float)) and setup > SETUP_SAID_S:
        took = f"{setup:.0f} s" if setup >= 10 else f"{setup:.1f} s"
        if (meta.get("executor") or {}).get("kind", "local") != "local":
            said += f"; starting the cluster and its kernels took {took}"
        elif compiled is None:
            said += f"; compiling or loading the kernels took {took}"
        else:
            # how often, as the game's kernels really compile (review 270 #2: "first run only"
            # at every new line-up or player count that compiled)
            spec = _spec_of(meta.get("game"))
            often = spec.compiled_words() if spec is not None else "first run only"
            said += (f"; compiling the kernels took {took}, {often}: cached afterwards"
                     if compiled else f"; loading the kernels from the cache took {took}")
    return said


def compiled_here(meta: dict) -> bool | None:
    """Whether this run's kernels (or the statistics' helpers) were compiled, not loaded from
    Numba's cache: the local executor shows a compile notice only while Numba compiles, and
    :func:`spinner` keeps what it showed (:data:`NOTICES`). None when that cannot be told: a
    cluster (its notices are shown whether the kernels are compiled or loaded, and its workers
    compile or load their own) or no spinner in this process."""
    if (meta.get("executor") or {}).get("kind") != "local" or not NOTICES["made"]:
        return None
    return bool(NOTICES["shown"])


def checks_said(meta: dict) -> str:
    """What ``--debug`` checked, for the closing line: "the game's invariants were checked in every
    game (--debug): all held". With ``debug`` the kernel checks the game's invariants in every game
    and a broken one stops the run with an error naming the game
    (:func:`simcore.contract.raise_game_error`), so a closing line means they held. Said for the
    kernel engine only (run.json's ``engine``): not every game's reference engine checks them.
    "" without ``--debug``."""
    if meta.get("debug") is not True or meta.get("engine", "kernel") != "kernel":
        return ""
    return "the game's invariants were checked in every game (--debug): all held"


def command_seconds() -> float | None:
    """Seconds since this process started, when it is a ``balance`` or ``simulate`` command (its
    main script the console script's: a test or a Python caller running a command in its own
    process has run other things before); None otherwise, or where it cannot be read.

    Read from the process's start time in /proc/self/stat (clock ticks since boot, 1/100 s) against
    the clock since boot, CLOCK_BOOTTIME (the clock that start time is kept in): it counts the
    interpreter's start and the imports before any of this package's code runs, which a timestamp
    taken in the entry point would miss, and costs one small file read. Not on Linux: None."""
    script, package = sys.modules.get("__main__"), sys.modules.get("cli")
    ours = [f for f in (getattr(package, "main", None), getattr(package, "simulate_main", None)) if f]
    # the console scripts import their entry point by its name: `balance` holds main, `simulate`
    # simulate_main (make run's command)
    if not any(getattr(script, name, None) in ours for name in ("main", "simulate_main")):
        return None
    return process_seconds()


def process_seconds() -> float | None:
    """Seconds since this process started (Linux: /proc/self/stat and CLOCK_BOOTTIME); None where
    they cannot be read or disagree (a start in the future)."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            stat = fh.read()
        # the fields after the command name (which may hold spaces and parentheses): the state is
        # field 3, the start time field 22
        start_ticks = int(stat[stat.rindex(b")") + 2:].split()[19])
        elapsed = time.clock_gettime(time.CLOCK_BOOTTIME) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return elapsed if elapsed >= 0 else None
