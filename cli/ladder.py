"""``balance ladder``: the skill matrix of bots, each against copies of each other, seats rotated.

Shows the matchups (a bot against copies of another) as they are played (step k of n with an
estimate of the time left, :class:`cli.progress.Steps`), prints the matrix with the games each
matchup played (``--games`` rounded up to whole rotations of the seats), and with ``--out FILE``
writes it as a table (``.csv`` or ``.parquet``, one row per matchup with the adjusted interval
behind each ▲/▼: :func:`analysis.ladder.ladder_table`), atomically (:mod:`simcore.atomic`); an
existing file is refused unless ``--force``, before any game is played (an earlier ladder's CSV,
without the adjusted bounds, is replaced too). The file is written before anything is printed
(:class:`_Later`), so a closed or full stdout keeps it (review s59 #2).
``--rules`` and ``--set`` play the ladder under other rules (a tune's ``best_rules.toml``), printed
above the matrix and written in the table's ``rules`` and ``settings`` columns;
``--players 3,4,5`` plays one matrix per player count. ``--panel NAME|FILE`` (or ``--players`` with
``--lineup``, repeatable) plays the panel's player counts and line-ups: at each of its player counts,
the matrix of the bots its line-ups at that count hold (every seat's bot, in the panel's order).
The calls against the fair share (▲/▼) are adjusted over every matchup of every player count at
once (one family), and a last line says which calls hold at every player count.
A game whose seat 0 has a role of its own gets one table per role
(:func:`analysis.ladder.role_ladder`), its steps shown the same way, the lead role's table followed
by its headline in words (:func:`analysis.ladder.lead_headline`; the lead rows of the table carry
the adjusted bounds that headline reads), and a line naming bots that play a role with the same
settings (:func:`same_play`: identical rows and columns); bots of the lead role only
(nothing to play them against) are refused in one line before any game.

May import typer, rich, :mod:`simcore`, :mod:`strategies`, :mod:`analysis`, :mod:`reports.text` and
:mod:`cli.progress`.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from simcore.games import DEFAULT_GAME

from cli.sweep import LINEUP_HELP, PANEL_HELP, SET_HELP

LADDER_FORMATS = (".csv", ".parquet")


def default_bots(spec, strategies) -> str:
    """The bots a ladder ranks when --bots is not given, as a comma list: the game's strategies
    module's ``LADDER_BOTS`` (Middle-Ages: random, two heuristics and the rollout planner), else
    every preset, by role in a game with roles, and, in a game without, every preset but its search
    bot (slow; ranked by `balance skill`). The Middle-Ages list was the default for every game:
    Médiévallons has no greedy (designer review 44, ladder #1)."""
    presets = strategies.presets()
    named = getattr(strategies, "LADDER_BOTS", None)
    if named:
        return ",".join(named)
    if not spec.roles_alike:
        return ",".join(presets)
    return ",".join(n for n, p in presets.items() if getattr(p, "kind", None) != "search")


def register(app: typer.Typer) -> None:
    app.command("ladder", help="Skill matrix: one bot (row) against copies of another (column), "
                               "seats rotated; win share with 95% interval.")(ladder)


def ladder(
    bots: Optional[str] = typer.Option(None, "--bots",
                                       help="Comma list of strategies (default: the game's ladder bots, "
                                       "else every preset but its search bot; a game with roles: every "
                                       "preset; balance strategies lists them)."),
    games: str = typer.Option("4000", "--games", "-n", help="Games per matchup (rounded up to whole rotations of the seats)."),
    players: Optional[str] = typer.Option(None, "--players", "-p", help="Players per game, or several: "
                                          "3,4,5 (default 4; with --panel: its player counts)."),
    panel: Optional[str] = typer.Option(None, "--panel", help="Play the bots of this panel's line-ups "
                                        "at each of its player counts. " + PANEL_HELP),
    lineup: Optional[List[str]] = typer.Option(None, "--lineup", help=LINEUP_HELP + " The ladder "
                                               "ranks the bots the line-ups hold."),
    rules: Optional[Path] = typer.Option(None, "--rules", help="Rules TOML (default: the shipped rules)."),
    settings: Optional[List[str]] = typer.Option(None, "--set", help=SET_HELP),
    seed: int = typer.Option(0, "--seed", help="Run seed: same seed and bots → same matrix."),
    threads: int = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    game: str = typer.Option(DEFAULT_GAME, "--game", "-g", help="Which game (one with bots)."),
    # a str, not a Path: Path("m.csv/") drops the slash the output check refuses a file name for
    out: Optional[str] = typer.Option(None, "--out", "-o", metavar="<path>",
                                      help="Also write the matrix to this file (.csv or .parquet)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out table of this toolkit, of the format written (never a file of another kind)."),
) -> None:
    import importlib

    from rich.console import Console

    from analysis import ladder as L
    from simcore import games as registry
    from simcore.errors import UsageError
    from simcore.options import check_seed, parse_games, set_threads

    from simcore import runner
    from simcore.config import parse_settings
    from strategies.panels import from_options, parse_players

    spec = registry.get(game)
    if spec.strategies is None:
        raise UsageError(f"--game {game}: this game has no bots to rank")
    n = parse_games(games)
    check_seed(seed)
    if out is not None:        # where the matrix goes, before any game is prepared
        from simcore.atomic import check_output_file

        if not out:
            from simcore.atomic import empty_path_line

            raise UsageError(empty_path_line("--out", "file"))
        if Path(out).suffix.lower() not in LADDER_FORMATS:
            raise UsageError(f"--out {out}: write the matrix as .csv or .parquet")
        check_output_file(out, force, replaces=_replaces(out, L.written_columns(not spec.roles_alike),
                                                         L.written_columns(not spec.roles_alike, earlier=True)))
    set_threads(threads)
    counts = parse_players("4" if players is None else players)   # --players "" is refused
    by_count: dict[int, list[str]] = {}
    # the option the panel came from, as a refusal names it (review s61 #6: "--panel: …" for a
    # --lineup the user typed)
    given = "--panel" if panel is not None else "--lineup"
    if panel is not None or lineup:
        if bots is not None:
            raise UsageError("--bots: give --bots or a panel (--panel, --lineup), not both: the "
                             "ladder ranks the bots of the panel's line-ups")
        the_panel = from_options(game, panel=panel, lineups=lineup, players=players)
        for c in the_panel.cells:
            by_count.setdefault(c.players, [])
            for b in c.lineup:
                if b not in by_count[c.players]:
                    by_count[c.players].append(b)
        counts = sorted(by_count)
    for p in counts:
        spec.check_players(p)
        if spec.roles_alike and -(-n // p) < 2:
            # one deal (one rotation of the seats) leaves no spread between deals to read: every
            # cell printed "25.0% (nan–nan)" (designer review 44, ladder #5)
            raise UsageError(f"--games {games}: a matchup needs at least 2 deals for its interval "
                             f"({2 * p} games at {p} players: one rotation of the seats is a deal)")
    sets = parse_settings(settings or ())
    for p in counts:     # the rules with the settings validate at every player count, before any game
        played_under = runner.prepare(game, players=p, rules=rules, settings=sets, quiet=True).rules_name
    rules_name = runner.rules_source(game, rules, ()).name      # the file, without the --set
    S = importlib.import_module(spec.strategies)
    if bots is None:
        bots = default_bots(spec, S)    # a game with roles: every preset, grouped by role below
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise UsageError(f"--bots {bots!r}: name at least one strategy")
    for b in names:
        S.lookup(b, option="--bots")  # validate every name before the long part
    if not by_count and len(set(names)) < 2:
        # one bot against copies of itself is no ranking: a 1 x 1 matrix of its fair share
        raise UsageError(f"--bots {bots!r}: a ladder ranks bots against each other; name two or more")
    if by_count and spec.roles_alike and any(len(v) < 2 for v in by_count.values()):
        # a single bot has no one to be ranked against: the panel's line-ups must hold two
        one = next(p for p, v in by_count.items() if len(v) < 2)
        raise UsageError(f"{given}: at {one} players its line-ups hold one bot ({by_count[one][0]}); "
                         "a ladder ranks bots against each other (give line-ups of two bots or more)")
    if not spec.roles_alike:
        for p in counts:      # both roles' bots, at every player count, before any game
            _check_roles(L, S, spec, game, by_count.get(p, names), p,
                         given if by_count else "--bots", bool(by_count) and len(counts) > 1)
    # what is printed waits until --out is written: a closed or full stdout (`| head -1`,
    # `> /dev/full`) threw the finished matrix away (review s59 #2)
    console = _Later(Console())
    if rules is not None or sets:                 # the matrix holds for these rules only: say which
        console.print(f"rules: {played_under}")
    if not spec.roles_alike:
        tables = _role_ladders(console, L, S, spec, {p: by_count.get(p, names) for p in counts}, n,
                               seed, game, rules, sets)
    else:
        tables = _ladders(console, L, spec, {p: by_count.get(p, names) for p in counts}, n, seed, game,
                          rules, sets, random_bots(S, names))
    written = _write(out, force, tables, rules_name, sets)
    console.show()
    if out is not None:
        typer.echo(f"ladder: {written}")      # (beside, when a file appeared there meanwhile)


class _Later:
    """A console whose printing waits for :meth:`show`: the ladder's tables and sentences are
    printed once ``--out`` is written, so a reader that leaves (``| head -1``) or a full stdout
    costs only the printed copy (review s59 #2)."""

    def __init__(self, console):
        self.console = console
        self.calls: list = []

    def print(self, *args, **kwargs) -> None:
        self.calls.append(lambda: self.console.print(*args, **kwargs))

    def show(self) -> None:
        for call in self.calls:
            call()
        self.calls.clear()


def _print_table(console, table) -> None:
    """:func:`cli.progress.print_table`, at once or, on a :class:`_Later`, when it shows."""
    from cli.progress import print_table

    if isinstance(console, _Later):
        console.calls.append(lambda: print_table(console.console, table))
    else:
        print_table(console, table)


def _replaces(out, columns, earlier=None):
    """What ``--force`` may replace at ``out``: a ladder's CSV with these very ``columns`` (or the
    ``earlier`` columns the same table had before its adjusted bounds), never a user's own CSV
    (review W #5), or a Parquet table of this toolkit."""
    from simcore.atomic import CsvTable, ParquetTable, table_file

    fmt = Path(out).suffix.lower().lstrip(".")
    if fmt == "parquet":
        # a ladder's own Parquet only, as for its CSV (review C #1: any of this toolkit's Parquet
        # tables was replaced, an export's seats table among them)
        class LadderParquet(ParquetTable):
            def problem(self, path):
                said = super().problem(path)
                if said is not None and earlier is not None and \
                        ParquetTable("ladder", earlier, "a ladder").problem(path) is None:
                    return None
                return said

        return LadderParquet("ladder", columns, "a ladder")
    if fmt != "csv":
        return table_file(fmt)

    class LadderCsv(CsvTable):
        def _same(self, path) -> bool:
            return super()._same(path) or (earlier is not None and CsvTable(earlier)._same(path))

    return LadderCsv(columns, "a ladder")


def _write(out, force, tables, rules_name="", sets=()):
    """The matrix as one table, with the rules it was played under (``rules``: the rules file,
    the game's shipped one when none was given; ``settings``: the ``--set`` texts, "; "-separated).
    Returns the path written (beside ``out`` when a file appeared there meanwhile), or None
    without ``--out``."""
    if out is None:
        return None
    import polars as pl

    from simcore.atomic import atomic_output, parquet_sign

    table = pl.concat(tables).with_columns(
        pl.lit(str(rules_name)).alias("rules"),
        pl.lit("; ".join(s.text for s in sets)).alias("settings"))
    earlier = [c for c in table.columns if c not in ("adjusted_low", "adjusted_high")]
    with atomic_output(out, force, replaces=_replaces(out, table.columns, earlier)) as tmp:
        from analysis.export import csv_ready

        table = csv_ready(table)        # (an unbounded margin or a NaN: missing, in both formats)
        if Path(out).suffix.lower() == ".csv":
            table.write_csv(tmp)
        else:
            table.write_parquet(tmp, metadata=parquet_sign("ladder"))
    from simcore.atomic import published_as

    return published_as(out)


def _ladder(console, L, spec, names, n, players, seed, game, rules, sets):
    """The matrix of a game whose seats are alike, at one player count; returns its table."""
    return _ladders(console, L, spec, {players: names}, n, seed, game, rules, sets)[0]


def _ladders(console, L, spec, bots_by_count: dict, n, seed, game, rules, sets, random_bots=()) -> list:
    """The matrices of a game whose seats are alike, one per player count (``bots_by_count``:
    the bots ranked at each count), all played before any is printed: the calls against the fair
    share (▲/▼, :func:`analysis.ladder.fair_calls`) are adjusted over every matchup of every
    player count together (one family: a ladder over 3, 4 and 5 players of 3 bots is 18
    comparisons, whose calls are wrong together with a chance of at most 5%, not 5% per count).
    With several player counts, a last line says which calls hold at every count. Under each
    table, who is strongest (:func:`analysis.ladder.ranking_sentence`; ``random_bots``: the bots
    that play at random, set apart as opponents). Returns one table per count."""
    from cli.progress import Steps
    from simcore.runner import compile_shown

    counts = list(bots_by_count)
    todo = [(p, a, b) for p in counts for a, b in L.pairs(bots_by_count[p])]
    played: dict[int, dict] = {p: {} for p in counts}
    with Steps("ladder") as steps, compile_shown(steps.compiling):
        for k, (p, a, b) in enumerate(todo):
            steps(f"{p} players: {a} against {p - 1} × {b} ({n:,} games)", k, len(todo))
            c = L.duel(a, b, n, players=p, seed=seed, game=game, rules=rules, settings=sets)
            played[p][(c.bot, c.opponent)] = c
    family = sum(len(v) for v in played.values())
    calls = {p: dict(zip(played[p], L.fair_calls(list(played[p].values()), p, family=family)))
             for p in counts}
    randoms = set(random_bots)
    tables = []
    for p in counts:
        tables.append(_print_ladder(console, L, spec, played[p], bots_by_count[p], n, p, seed, calls[p],
                                    family, counts))
        # who is strongest, in words, under the table (as a game with roles says it: lead_headline)
        said = L.ranking_sentence(list(played[p].values()), p, randoms, family=family)
        if said:
            console.print(said, markup=False, highlight=False)
    if len(counts) > 1:
        console.print(held_everywhere(calls, counts, family), markup=False, highlight=False)
    return tables


def _counts_text(counts) -> str:
    c = [str(p) for p in counts]
    return (", ".join(c[:-1]) + " and " + c[-1] if len(c) > 1 else c[0]) + " players"


def held_everywhere(calls: dict, counts: list, family: int) -> str:
    """The calls (above or below the fair share) that hold at every player count of the ladder:
    the matchups played at every count and called the same way at each (the calls adjusted over
    the whole ladder's ``family`` of matchups)."""
    common = [m for m in calls[counts[0]] if all(m in calls[p] for p in counts)]
    where = _counts_text(counts)
    if not common:
        return f"No matchup is played at every player count ({where}): none can hold at all of them."
    held = {"above": [], "below": []}
    for a, b in common:
        seen = {calls[p][(a, b)] for p in counts}
        if len(seen) == 1 and None not in seen:
            held[seen.pop()].append((a, b))
    said = []
    for side in ("above", "below"):
        by_bot: dict[str, list[str]] = {}
        for a, b in held[side]:
            by_bot.setdefault(a, []).append(b)
        said += [f"{a} {side} its fair share against {', '.join(bs)}" for a, bs in by_bot.items()]
    if not said:
        return (f"No call holds at every player count ({where}): no matchup is clearly above or "
                f"below its fair share at all of them (calls adjusted over all {family} matchups).")
    return (f"Holds at every player count ({where}; calls adjusted over all {family} matchups): "
            + "; ".join(said) + ".")


def _print_ladder(console, L, spec, cells: dict, names, n, players, seed, calls: dict, family: int,
                  counts):
    """Print one player count's matrix with its calls; returns its table. A cell prints as
    ``balance skill``'s (:func:`reports.text.pct_ci`: halves away from zero, no end that is not 0%
    printed as it; review s61)."""
    from rich.table import Table

    from reports.text import pct_ci

    played = list(cells.values())
    k = len(played)
    games = played[0].games if played else n          # rounded up to whole rotations of the seats
    deals = games // players
    rounded = (f", --games {n:,} rounded up to whole rotations of the {players} seats"
               if games != n else "")
    fair = f"{100 / players:.3g}%"
    if family == k:
        adjusted = f"the {k} matchups adjusted together"
        wrong = "the chance that any of these calls is wrong is"
    else:
        adjusted = (f"all {family} matchups of the ladder ({_counts_text(counts)}) adjusted "
                    "together")
        wrong = "the chance that any call of this table or of the other player counts is wrong is"
    copies = "1 copy" if players == 2 else f"{players - 1} copies"
    t = Table(title=f"{players} players: win share of the row bot against {copies} of the column bot "
                    f"(fair {fair}, {games:,} games per matchup{rounded}, seats rotated)",
              title_justify="left",
              caption=(f"95% intervals over the {deals:,} deals of a matchup (each deal played in all "
                       f"{players} rotations of the seats: Wilson's at the deals' effective number of "
                       f"games, Student t critical value), each matchup's own, unadjusted over the {k} "
                       f"matchups. ▲ / ▼: clearly above / below the fair {fair} with {adjusted} "
                       f"(Bonferroni: intervals at 1 − 0.05/{family}); {wrong} at most 5%."),
              caption_justify="left")
    t.add_column("bot \\ opponents")
    for b in names:
        t.add_column(b, justify="right", overflow="fold")      # an interval is never cut ("93.…")
    mark = {"above": " ▲", "below": " ▼", None: "  "}
    for a in names:
        row = []
        for b in names:
            c = cells.get((a, b))
            row.append("—" if c is None else pct_ci(c.win_share, c.ci_low, c.ci_high) + mark[calls[(a, b)]])
        t.add_row(a, *row)
    _print_table(console, t)
    return L.ladder_table(played, game=spec.name, players=players, seed=seed,
                          calls=[calls[(c.bot, c.opponent)] for c in played], family=family)


def _check_roles(L, S, spec, game, names, players, option, several) -> None:
    """A ladder by role needs bots of the shared role: with only bots of the lead role (seat 0)
    there is nothing to play them against. Refused in one line naming the bots given and the
    presets of the missing role. (Bots of the shared role alone are played against the lead
    seat's default bot and get their own table, as before.)"""
    from simcore.errors import UsageError

    lead, shared, lords, tenants = L.role_sides(names, players=players, game=game, roles_of=S.roles_of)
    if tenants:
        # (bots of the shared role alone still get their table: they play against the game's
        # default bot in the lead seat, as every Censitaire matchup does)
        return
    given, missing = (lead, shared) if lords else (shared, lead)
    say = spec.role_display
    have = lords or tenants
    presets = list(S.presets())
    only = [b for b in presets if S.roles_of(b) == (missing,)]        # that role only, then both
    offer = only + [b for b in presets if missing in S.roles_of(b) and b not in only]
    where = f" at {players} players" if several else ""
    raise UsageError(f"{option}: a {spec.title} ladder needs at least one {say(lead)} bot and one "
                     f"{say(shared)} bot{where}; given only {say(given)} bots {', '.join(have)} "
                     f"({say(missing)} bots: {', '.join(offer)})")


def _role_ladders(console, L, S, spec, bots_by_count: dict, n, seed, game, rules, sets) -> list:
    """The ladders by role of a game whose seat 0 has a role of its own and the other seats
    another, one per player count (``bots_by_count``), all played under one
    progress display (:class:`cli.progress.Steps`: step k of n, the time left; plain lines off a
    terminal) before any is printed, as the ladder of a game whose seats are alike. Returns one
    table per count."""
    from cli.progress import Steps
    from simcore.runner import compile_shown

    counts = list(bots_by_count)
    lead = L.seat_roles(game, counts[0])[0]
    lead_bot = spec.default_strategy if lead in S.roles_of(spec.default_strategy) else None
    steps_of = {p: L.role_steps(bots_by_count[p], players=p, game=game, roles_of=S.roles_of,
                                lead_bot=lead_bot) for p in counts}
    total = sum(steps_of.values())
    played = {}
    with Steps("ladder") as steps, compile_shown(steps.compiling):
        before = 0
        for p in counts:
            def progress(text, done, _total, p=p, before=before):
                steps(f"{p} players: {text}", before + done, total)

            played[p] = L.role_ladder(bots_by_count[p], n, players=p, seed=seed, game=game,
                                      roles_of=S.roles_of, lead_bot=lead_bot, rules=rules,
                                      settings=sets, progress=progress)
            before += steps_of[p]
    tables = [_print_role_ladder(console, L, S, spec, played[p], bots_by_count[p], n, p, seed, game,
                                 lead_bot) for p in counts]
    # once, under the last table: bots that play a role alike (the same settings)
    shown = {r.name: r.display for r in spec.roles}
    roles = {p: L.seat_roles(game, p) for p in counts}
    names = list(dict.fromkeys(b for p in counts for b in bots_by_count[p]))
    alike = same_play(S, names, {r: shown[r] for r in roles[counts[0]]},
                      [t for p in counts for t in ((played[p][roles[p][0]], *roles[p]),
                                                   (played[p][roles[p][1]], roles[p][1], roles[p][1]))])
    if alike:
        console.print(alike, markup=False, highlight=False)
    return tables


def _print_role_ladder(console, L, S, spec, cells, names, n, players, seed, game, lead_bot):
    """Print one player count's tables by role (analysis.ladder.role_ladder's ``cells``), in the
    spec's words, the lead role's followed by its headline in words
    (:func:`analysis.ladder.lead_headline`); returns its table. Shares print as ``balance
    skill``'s (:func:`reports.text.pct_ci`; a share without its interval, the bracket or a cell of
    the same play, at least at the cell's decimals and never as 0% when it is not:
    :func:`simcore.numbers.share_digits`; review s61)."""
    from rich.table import Table

    from cli.progress import counted
    from reports.text import pct, pct_ci, pct_ci_digits
    from simcore.numbers import share_digits

    lead, shared = L.seat_roles(game, players)
    shown = {r.name: r.display for r in spec.roles}
    # the games each matchup played: the shared role's are split over its seats, rounded up
    played = {r: max((c.games for c in cells[r]), default=n) for r in (lead, shared)}
    titles = {
        lead: f"{players} players: win share of the {shown[lead]} bot (row) against the {shown[shared]} bot "
              f"(column) at every {shown[shared]} seat ({played[lead]:,} games per matchup)",
        shared: f"win share of one {shown[shared]} bot (row) against copies of another (column) at "
                f"the other {shown[shared]} seats, {shown[lead]} {lead_bot or 'the first ' + shown[lead] + ' bot'}; "
                f"in brackets the share of a column bot in games of column bots only "
                f"({played[shared]:,} games per matchup, the row bot at every {shown[shared]} seat in "
                f"turn{_rounded(played[shared], n, players - 1)})",
    }
    # the shared role's cells called against the column bot's own share, paired by deal (review Y
    # #11: the bracket was given, never whether a bot is clearly above or below it)
    called = dict(zip(((c.bot, c.opponent) for c in cells[shared]), L.paired_fair_calls(cells[shared])))
    randoms = random_bots(S, names)
    for role in (lead, shared):
        found = {(c.bot, c.opponent): c for c in cells[role]}
        if not found:
            continue
        # rows and columns in the order --bots names them (the cells come grouped by opponent)
        rows = [b for b in names if any(c.bot == b for c in cells[role])]
        cols = [b for b in names if any(c.opponent == b for c in cells[role])]
        how = ("Wilson intervals over the matchup's games" if role == lead else
               f"Wilson intervals at the deals' effective number of games, with the Student t critical "
               f"value (the row bot at each {shown[shared]} seat on the same deals)")
        marks = ("" if role == lead else
                 f" ▲ / ▼: the row bot wins clearly more / less than the column bot itself does at those "
                 f"seats (the bracket), paired by deal, with the {len(found)} matchups adjusted together "
                 f"(Bonferroni: t intervals of the difference at 1 − 0.05/{len(found)}; where the "
                 f"difference is the same on every deal, or either bot has fewer than {L.FEW_WINS} "
                 "games' worth of wins or of losses, Newcombe's interval from the two bots' own "
                 "Wilson intervals at that level); the chance that any of these calls is wrong is "
                 "at most 5%.")
        t = Table(title=titles[role], title_justify="left", caption_justify="left",
                  caption=f"95% {how}, each matchup's own, unadjusted over the "
                          f"{counted(len(found), 'matchup')}.{marks}")
        t.add_column(f"{shown[role]} bot \\ opponents")       # "Seigneur", not the role's key
        for b in cols:
            t.add_column(b, justify="right", overflow="fold")      # an interval is never cut ("93.…")
        for a in rows:
            row = []
            for b in cols:
                c = found.get((a, b))
                if c is None:
                    row.append("—")
                    continue
                text = pct_ci(c.win_share, c.ci_low, c.ci_high)
                d = pct_ci_digits(c.win_share, c.ci_low, c.ci_high)
                if role == shared and _plays_alike(S, a, b, role):
                    # the row bot is a copy of the column bot at that role: it wins what the column
                    # bot wins, an interval there is no contest's (review s46 #7: "33.3% (24.9–43.0)"
                    # on a cell whose every deal gave exactly a third)
                    row.append(f"{pct(c.win_share, share_digits(100 * c.win_share))}% (the same play as {b})")
                    continue
                if role == shared:
                    fair = pct(c.fair, share_digits(100 * c.fair, digits=d))
                    text += f" [{fair}%]" + {"above": " ▲", "below": " ▼"}.get(called.get((a, b)), "")
                row.append(text)
            t.add_row(a, *row)
        _print_table(console, t)
        if role == lead:        # the table's headline in words, under it
            said = L.lead_headline(cells[lead], lead=shown[lead], shared=shown[shared],
                                   random_bots=randoms)
            if said:
                console.print(said, markup=False, highlight=False)
    import polars as pl

    return pl.concat([
        L.ladder_table(cells[lead], game=spec.name, players=players, seed=seed, lead=True,
                       random_bots=randoms).with_columns(pl.lit(lead).alias("role")),
        L.ladder_table(cells[shared], game=spec.name, players=players, seed=seed,
                       calls=[called.get((c.bot, c.opponent)) for c in cells[shared]],
                       family=len(cells[shared]), paired=True).with_columns(pl.lit(shared).alias("role"))])


def _play_key(S, bot: str, role: str):
    """What makes a bot's play of ``role``: its kind, its settings for the role, its search."""
    st = S.lookup(bot, option="--bots")
    return st.kind, getattr(st, role, None), getattr(st, "search", None)


def _plays_alike(S, a: str, b: str, role: str) -> bool:
    """Whether bots ``a`` and ``b`` play ``role`` with the very same settings (:func:`same_play`)."""
    return _play_key(S, a, role) == _play_key(S, b, role)


def random_bots(S, names) -> list[str]:
    """The bots of ``names`` that play at random (set apart as opponents: any bot wins most games
    against them)."""
    return [b for b in names if S.lookup(b, option="--bots").kind == "random"]


def _rounded(games: int, asked: int, seats: int) -> str:
    """How ``--games`` became the games played, when it did not divide evenly over the seats."""
    return f", --games {asked:,} rounded up to a multiple of the {seats} seats" if games != asked else ""


def same_play(S, names, shown: dict, tables) -> str:
    """One sentence naming the bots of ``names`` that play a role with the very same settings
    (same kind, the same settings for that role, the same search), so that their rows or columns
    are alike: "standard plays as even-lord as Seigneur and as fair-share as Censitaire (the same
    settings): their rows and columns are identical." (``shown``: each role's printed name).
    ``tables``: (cells, the rows' role, the columns' role) of each table printed; the sentence
    says the figures are identical only where every pair of cells they name is, else that they
    differ by chance only. '' when no two bots play a role alike."""
    strategies = {b: S.lookup(b, option="--bots") for b in names}
    alike = []                                   # (role, [bots that play it alike], in names order)
    for role in shown:
        groups: list[list[str]] = []
        for b in names:
            if role not in S.roles_of(b):
                continue
            key = _play_key(S, b, role)
            for g in groups:
                if _play_key(S, g[0], role) == key:
                    g.append(b)
                    break
            else:
                groups.append([b])
        alike += [(role, g) for g in groups if len(g) > 1]
    if not alike:
        return ""
    # the bot named first: the one alike in most roles (a bot of both roles), else the first named
    by: dict[str, list[tuple[str, list[str]]]] = {}
    for role, g in alike:
        first = max(g, key=lambda b: (sum(b in h for _, h in alike), -names.index(b)))
        by.setdefault(first, []).append((role, [b for b in g if b != first]))
    said = []
    for first, parts in by.items():
        said.append(f"{first} plays as " + " and as ".join(
            f"{_and(others)} as {shown[role]}" for role, others in parts))
    same = True
    for cells, row_role, col_role in tables:
        share = {(c.bot, c.opponent): c.win_share for c in cells}
        for role, g in alike:
            for a in g[1:]:
                for (x, y), w in share.items():
                    twin = (g[0] if row_role == role and x == a else x,
                            g[0] if col_role == role and y == a else y)
                    if twin != (x, y) and twin in share and share[twin] != w:
                        same = False
    end = ("their rows and columns are identical" if same else
           "their figures differ by chance only")
    return "; ".join(said) + f" (the same settings): {end}."


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
