"""``balance replay RUN --game N`` (or ``--find QUERY``): one game of a run, turn by turn.

A thin layer over :mod:`simcore.replay`: the game is played again from its seed by the kernel (for
the bots' decisions) and by the game's reference engine (for the readable log), under the rules,
bots and seat rotation the run recorded in run.json; every decision is logged with its options,
named in the game's words, and the final figures are checked against the run's row in
players.parquet (a closing line in the reports' words says whether they match). In a game whose
ending rule has tie-breaks, a line after the final table says which one decided the game, or that
the win was shared, in the rule's words (:func:`simcore.replay.ending_lines`). A game without bots
(dice only) is replayed by its reference engine alone from run.json's options and rules, checked
against players.parquet and games.parquet. ``--find`` picks the game by a small grammar ("the game
seat 1 lost with its highest score": ``--find 'seat=1 loses max score'``; ``wins`` is a win alone). A run written without
players.parquet (above 1e5 games by default) is replayed all the same: its rows are played again
by the kernel (game N alone for ``--game N``; every game for ``--find``, with a notice and progress
on stderr: a million short games take seconds), the same rows since every game draws from its own
stream, and the replayed game is also checked against games.parquet. Like every reader, it first
checks the run directory (:func:`analysis.load.check_run`: run.json's integrity record, the
tables' columns and the figures that tie them), so a damaged run, or one with another run's table
copied in or a table deleted, is the one line ``balance export`` and ``balance report`` give, exit
code 2, before anything is played (review s46 #4: it was replayed and said to differ, or --find
chose from the other run's rows). The log goes to stdout (also ``--out -``), or
to ``--out FILE`` (written atomically, never over an existing file without ``--force``). Exit
code 1 when the replay differs from the run's row, also when the reader of stdout left before the
log's end (``| head``: :func:`cli.verdict`, session 60 #1). Bad input (not a run: a panel, sweep or tune
directory is named as such, with the run to give, as ``balance export`` does; a game out of range, a
game without a reference engine, a query the grammar does not take, ``role=`` on a game without
roles) is one line, exit code 2.

May import typer, rich (progress), the standard library, :mod:`cli.progress`, :func:`cli.verdict`,
:mod:`simcore` and :mod:`analysis.load` (the readers' check of a run directory).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer) -> None:
    app.command("replay", help="Replay one game of a run turn by turn (decisions, draws, scores by "
                               "turn) through the reference engine and check it against the run.")(replay)


def replay(
    run: Path = typer.Argument(..., help="A run directory (simulate --out).", show_default=False),
    game: Optional[int] = typer.Option(None, "--game", help="Game number (0-based, as in games.parquet)."),
    find: Optional[str] = typer.Option(
        None, "--find", help="Pick the game: \\[seat=N|role=NAME|strategy=NAME] \\[wins|loses] "
                             "(max|min|median) COLUMN, e.g. 'seat=1 loses max score' (role= in a game "
                             "of several roles; a value meaning never or none, such as Seigneurial's "
                             "improvement_turn -1, is left out)."),
    strategies: Optional[str] = typer.Option(
        None, "--strategies", help="The run's bots, when run.json names a strategy file not found here."),
    # a str, not a Path: Path("log/") drops the slash the output check refuses a file name for
    out: Optional[str] = typer.Option(None, "--out", "-o", metavar="<path>",
                                      help="Write the log to this file (- : standard output, the default)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out replay (never a file of another kind)."),
) -> None:
    from simcore import replay as R
    from simcore.errors import UsageError

    if (game is None) == (find is None):
        raise UsageError("give --game N or --find QUERY (one of them)")
    meta = R.read_meta(run)
    check_run_directory(run)             # every reader's check, before anything else (review s46 #4)
    R.check_replayable(meta, game)
    if strategies is not None:           # before any game is played again (review G #5)
        check_strategies(meta, strategies)
    if out in ("-", "/dev/stdout"):      # standard output, as balance export --out - (review s52
        out = None                       # export #5: a file named "-" was written)
    if out is not None:                  # before the replay: a bad --out is one line at once
        from simcore.atomic import REPLAY_FILE, check_output_file

        check_output_file(out, force, "--out", inputs=[run], replaces=REPLAY_FILE)
    why = ""
    if find is not None:
        game, why = _find(run, find, strategies)
    result = R.replay(run, game, strategies)
    text = (f"# {why}\n" if why else "") + result.text
    differs = result.row is not None and not result.matches
    if differs:          # before the log: a reader that leaves it (`| head`) keeps the exit code
        from cli import verdict

        verdict(1, DIFFERS_LINE)
    if out is None:
        sys.stdout.write(text)
    else:
        from simcore.atomic import REPLAY_FILE, write_text_atomic

        written = write_text_atomic(out, text, force=force, option="--out", replaces=REPLAY_FILE)
        typer.echo(f"replay of game {game}: {written}")
    if differs:
        typer.echo(DIFFERS_LINE, err=True)
        raise typer.Exit(1)


#: What ``balance replay`` says on stderr, exit 1, when the replayed game differs from the run's row.
DIFFERS_LINE = "the replay differs from the run's records (see the CHECK FAILED lines)"


def check_run_directory(run: Path) -> None:
    """The check every reader of a run makes (:func:`analysis.load.check_run`: run.json's fields,
    its integrity record of every file's size and sha256, the tables' columns, the figures that tie
    them), with its one-line messages (exit code 2). players.parquet's own checks are made when the
    run kept it; a run written without it (``--no-raw``, above 1e5 games) is replayed all the same,
    its rows played again, but a players.parquet run.json lists and the directory lacks is damage."""
    from analysis.load import check_run

    check_run(run, players=(Path(run) / "players.parquet").is_file())


def _file_spec(item: str) -> bool:
    return ".toml" in item


def _file_of(item: str) -> str:
    """The strategy file a seat's bot names (``bots.toml:sly`` → ``bots.toml``), as run.json keys it."""
    from strategies.common import file_key

    path = item.rsplit(":", 1)[0] if ":" in item and not item.endswith(".toml") else item
    return file_key(path)


def _recorded_texts(meta: dict) -> dict[str, str]:
    files = meta.get("strategy_files")
    if not isinstance(files, dict):
        return {}
    return {str(k): v["text"] for k, v in files.items() if isinstance(v, dict) and isinstance(v.get("text"), str)}


def _same_file_bot(given: str, recorded: str, text: str) -> bool:
    """Whether ``given`` names the recorded bot: a strategy file holding the recorded text, and the
    same table of it (``:name``, or none)."""
    if not _file_spec(given):
        return False
    table = lambda item: item.rsplit(":", 1)[1] if ":" in item and not item.endswith(".toml") else ""
    if table(given) != table(recorded):
        return False
    path = Path(given.rsplit(":", 1)[0] if table(given) else given)
    try:
        return path.read_text(encoding="utf-8") == text
    except OSError:
        return False


def check_strategies(meta: dict, strategies: str) -> None:
    """``--strategies`` against the bots run.json records, one line (exit 2) before any game is
    played again: a name the game does not know is the game's own refusal ("--strategies: unknown
    strategy 'nobot' …", not "the bots of this run"), and bots other than the run's are refused
    (they replayed the whole game, then said only that the replay differs). A seat whose recorded
    bot came from a strategy file whose text run.json records (``strategy_files``: a replay plays
    that text) takes only the same bot: that file or a copy holding the same text and table. A seat
    whose file run.json names without its text (a run of an earlier version) takes any bot given
    for it: --strategies is there to name that file where the path is not found."""
    from simcore import games as registry
    from simcore.errors import UsageError

    spec = registry.get(meta["game"])
    if spec.strategies is None or "players" not in spec.takes:
        raise UsageError(f"--strategies {strategies}: a {spec.title} run has no bots (leave it out)")
    players = int(meta["players"])
    names, _ = registry.import_hook(spec.strategies).resolve(strategies, players)
    recorded = meta.get("strategies")
    if not isinstance(recorded, list) or len(recorded) != players:
        return
    recorded = [str(x) for x in recorded]
    kept = _recorded_texts(meta)
    for seat, (g, r) in enumerate(zip(names, recorded)):
        # a seat whose file's text run.json holds is played from that text: another bot given for
        # it replayed the whole game and then blamed the run (review s52 export #1); the same file
        # moved or renamed (the same text and table) is still taken
        if g != r and _file_spec(r) and _file_of(r) in kept and not _same_file_bot(g, r, kept[_file_of(r)]):
            raise UsageError(f"--strategies {strategies}: seat {seat + 1} was played by {r}, whose text "
                             "run.json records (a replay plays it from there), not by "
                             f"{g}; leave out --strategies, or name the same bot")
    if any(g != r and not _file_spec(r) for g, r in zip(names, recorded)):
        raise UsageError(f"--strategies {strategies}: this run was played by {','.join(recorded)} "
                         f"(run.json), not {','.join(names)}; a replay plays the run's own bots (leave "
                         "out --strategies, or name the same bots)")


def _find(run: Path, query: str, strategies: Optional[str]) -> tuple[int, str]:
    """:func:`simcore.replay.find_game`; when the run kept no players.parquet its games are played
    again: a notice says so on stderr, and a progress bar (a terminal) or a line per ten per cent
    follows them there."""
    from simcore import replay as R

    state = {"bar": None, "shown": -1}

    def notice(text: str) -> None:
        typer.echo(text, err=True)
        if sys.stderr.isatty():
            from rich.console import Console

            from cli.progress import SimulationBar

            state["bar"] = SimulationBar(Console(stderr=True)).__enter__()

    def progress(done: int, total: int) -> None:
        if state["bar"] is not None:
            state["bar"].update(done, total)
            return
        tenth = done * 10 // max(total, 1)
        if tenth > state["shown"]:
            state["shown"] = tenth
            typer.echo(f"  {done:,} of {total:,} games played again", err=True)

    try:
        return R.find_game(run, query, strategies, progress=progress, notice=notice)
    finally:
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)
