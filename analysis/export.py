"""Export a run's raw rows or its analysis tables to CSV or Parquet (``balance export``).

:func:`export` writes one table of one run directory: the raw rows (``players``, ``games``: exactly
the run's own columns, streamed batch by batch with pyarrow (:func:`stream_raw`) so a 1e7-row
file is never held in memory) or an analysis table (``seats`` = :func:`analysis.seats.seat_table`, ``events`` =
:func:`analysis.events.event_impact`, ``tiles`` = :func:`analysis.tiles.tile_impact`, ``length`` =
:func:`analysis.length.length_summary`, ``matchups`` = :func:`analysis.matchups.matchup_table`,
``summary`` = :func:`analysis.compare.metric_vector` of :func:`analysis.analyse`; in a game with roles
the seats table adds each seat's ``role_label`` and the summary's seat labels name the role,
:func:`seat_role_labels`, the keys unchanged). Column names are
those documented in docs/export.md (the analysis ones in docs/analysis.md) and are stable; a
``verdict`` is in the report's words (:func:`report_verdicts`: "within noise", not "not shown"). CSV has a
header row, plain numbers (no thousands separators, no scientific notation in analysis tables but
for p-values below 1e-4, :func:`p_values_as_text`, and "< 1e-300" for one below that, an underflow
to 0.0 among them; empty cells for missing values) and is UTF-8 (optionally with a byte-order mark for Excel); in Parquet a
missing value is a null, never NaN, as in CSV.

``out`` ``-`` (or ``/dev/stdout``) writes the CSV to standard output (:func:`to_stdout`). A table a
run's game cannot have is refused in a designer's words (:func:`lacking`: what the run is, which
games have the table, what the run exports).

Nothing is lost: an existing file is refused unless ``force``, and ``force`` replaces only an
earlier export of the same table (:func:`_replaces`: a CSV of its columns, a Parquet file whose
metadata names the table); output goes to a hidden temporary file
beside the target and is renamed into place only when complete (:mod:`simcore.atomic`, the one
atomic writer of run directories, reports, exports, baselines and golden files).

May import polars, pyarrow, the standard library, :mod:`analysis` and its modules, :mod:`simcore.errors`,
:mod:`simcore.rundir` and the registry of games (:mod:`simcore.games`, to name the games that have a
table).
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simcore.atomic import PARQUET_SIGN, CsvTable, FileKind, atomic_output, check_output_file, published_as, table_file  # noqa: F401
from simcore.atomic import ParquetTable, parquet_sign
from simcore.atomic import write_text_atomic  # noqa: F401
from simcore.errors import UsageError
from analysis.load import check_run, rows_left_out
from simcore.rundir import GAMES, PLAYERS

#: The tables every game may have; a game's own (Seigneurial's objectives …) come from its analysis
#: hook (:func:`what_choices`)
WHAT = ("players", "games", "seats", "roles", "events", "tiles", "guilds", "length", "ends", "strategies",
        "matchups", "summary")
FORMATS = ("csv", "parquet")
RAW = {"players": PLAYERS, "games": GAMES}
BATCH_ROWS = 1 << 18          # rows per batch of a raw export


# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

def analysis_table(run: str | Path, what: str) -> pl.DataFrame:
    """The analysis table ``what`` (seats, roles, events, matchups, summary) of one run directory.

    ``roles`` (games with roles): one ``side`` row per role (the share of games its side wins, Wilson)
    then one ``seat`` row per seat with its share of its role's wins against the equal split, its
    test against its role's average seat (exact binomial where the games are independent and no win is shared, else Wald; ``seat_p_value``; ``seat_p_adjusted``, Holm over the
    seats of roles of several seats; ``significant``; ``verdict``) and the role's chi-square p-value
    (``p_value``; ``chi2_p_adjusted``, Holm over the roles) (:mod:`analysis.roles`). A role's only
    seat (the Seigneur) is not tested: its ``significant`` and ``verdict`` are empty, as the
    report's cell, and its ``share_of_role`` is 1 (empty when the role won no game: a share of no
    wins). The intervals are each row's own 95 % intervals, unadjusted."""
    from analysis import analyse, open_runs
    from analysis.compare import metric_vector
    from analysis.events import event_impact, has_events
    from analysis.matchups import has_matchups, matchup_table
    from analysis.seats import seat_table

    rs = open_runs([run])
    if what in game_tables():
        from analysis.games import table_for

        table = table_for(rs, what)
        if table is None:
            raise UsageError(lacking(run, rs, what))
        return table
    if what == "ends":
        return _ends_table(run, rs)
    if what == "strategies":
        return _strategy_table(run, rs)
    if what == "seats":
        return _with_seat_roles(_without_fair_share(seat_table(rs), rs), rs)
    if what == "events":
        if not has_events(rs):
            raise UsageError(lacking(run, rs, "events"))
        return event_impact(rs)
    if what == "tiles":
        from analysis.tiles import has_tiles, tile_impact

        if not has_tiles(rs):
            raise UsageError(lacking(run, rs, "tiles"))
        return tile_impact(rs)
    if what == "guilds":
        from analysis.guilds import guild_table, has_guilds

        if not has_guilds(rs):
            raise UsageError(lacking(run, rs, "guilds"))
        return _guilds_as_reported(guild_table(rs))
    if what == "length":
        from analysis.length import has_length, length_summary

        if not has_length(rs):
            raise UsageError(lacking(run, rs, "length"))
        return length_summary(rs)
    if what == "matchups":
        if not has_matchups(rs):
            raise UsageError(_one_strategy(run, rs, "strategy matchups", "matchups need"))
        from analysis.roles import (bots_share_a_role, has_roles, same_role_matchups,
                                    strategy_table_within_roles)

        if has_roles(rs) and not bots_share_a_role(rs):
            raise UsageError(f"{run}: no strategy matchups to export: this run is "
                             f"{describe_run(rs)}, and every role has one bot; matchups compare "
                             "bots of one role (a bot of another role plays for another goal). "
                             + ("The sides' win shares are --what roles. " if "roles" in
                                available(run, rs) else "") + tables_sentence(run, rs))

        acc = _matchup_acc(rs)          # one pass, for the table and the roles' filter
        table = matchup_table(rs, acc)
        if has_roles(rs):       # as on the page: only bots of one role are matched
            within = strategy_table_within_roles(rs, acc)
            table = _role_fair_share(same_role_matchups(table, within), within)
        return table
    if what == "roles":
        from analysis.roles import has_roles, role_seat_table, role_table

        if not has_roles(rs):
            raise UsageError(lacking(run, rs, "roles"))
        by_seat = role_seat_table(rs)
        # seat_label ("Seat 1", as the report and the seats table name it) beside the 0-based seat
        # (review Y #8: the report's Seat 2 is this table's seat 1)
        sides = role_table(rs).select("role", "role_label", pl.lit(None, pl.Int8).alias("seat"),
                                      pl.lit(None, pl.String).alias("seat_label"),
                                      pl.lit("side").alias("level"), "games", "wins", "win_share",
                                      "ci_low", "ci_high")
        seats = by_seat.select("role", "role_label", "seat", "seat_label", pl.lit("seat").alias("level"),
                               "games", "wins", "win_share", "ci_low", "ci_high")
        # a seat not tested (its role's only seat: the Seigneur) has no verdict and no call, as
        # on the report's page (an empty cell), not "within noise" (report_verdicts)
        untested = pl.col("seat_p_value").is_null() | pl.col("seat_p_value").is_nan()
        extra = by_seat.select("share_of_role", "share_low", "share_high", "equal_share",
                               "seat_p_value", "seat_p_adjusted",
                               pl.when(untested).then(None).otherwise(pl.col("significant")).alias("significant"),
                               pl.when(untested).then(None).otherwise(pl.col("verdict")).alias("verdict"),
                               "p_value", "chi2_p_adjusted")
        nulls = pl.DataFrame({c: [None] * sides.height for c in extra.columns},
                             schema=extra.schema)
        return pl.concat([pl.concat([sides, nulls], how="horizontal"),
                          pl.concat([seats, extra], how="horizontal")])
    if what == "summary":
        # a row measured on no count of its own (a tile's slope, fitted on every player row) has a
        # null n: 0 read as "measured on nothing" (review s46 export #10)
        vec = metric_vector(analyse(rs))
        vec = vec.with_columns(pl.when(pl.col("kind") == "slope").then(None).otherwise(pl.col("n")).alias("n"))
        return _seat_labels_with_roles(vec, rs)
    raise UsageError(unknown_what(what))


def _guilds_as_reported(g: pl.DataFrame) -> pl.DataFrame:
    """The guild table with a type founded too rarely to rank (:func:`analysis.guilds.ranked`:
    under 0.5% of player-games or 30 founders) untested, as on the report's page ("too few players
    (0.03% found one)", no p): its ``p_value``, ``p_adjusted`` and ``significant`` empty, its
    ``verdict`` "too few players to say". (33 Bouffon founders who all won read "clear and large
    enough to matter", p < 1e-300, beside the page's "too few players": review s47 #1.)"""
    from analysis.guilds import ranked

    keep = pl.col("card").is_in(ranked(g)["card"].implode())
    return g.with_columns(*[pl.when(keep).then(pl.col(c)).otherwise(None).alias(c)
                            for c in ("p_value", "p_adjusted", "significant")],
                          pl.when(keep).then(pl.col("verdict")).otherwise(pl.lit(TOO_FEW)).alias("verdict"))


def game_tables() -> tuple[str, ...]:
    """The tables the registered games' analysis hooks give (Seigneurial's ``objectives``,
    ``improvements``, ``seigneur_squares``): the shared code names none of them."""
    from analysis.games import table_names

    return tuple(t for t in table_names() if t not in WHAT)


def what_choices() -> tuple[str, ...]:
    """Every ``--what``: :data:`WHAT`, then the games' own tables (:func:`game_tables`)."""
    return WHAT + game_tables()


def _one_strategy(run, rs, thing: str, need: str) -> str:
    """The line refusing a table that compares strategies on a run with one strategy in every seat."""
    return (f"{run}: no {thing} to export: this run is {describe_run(rs)}, with one strategy in "
            f"every seat; {need} at least two strategies (simulate with --strategies a,b,…"
            + (", ideally with --rotate-seats" if rs.spec is None or rs.spec.roles_alike else "")
            + f"). {tables_sentence(run, rs)}")


def _strategy_table(run, rs) -> pl.DataFrame:
    """The report's Strategies table (:func:`analysis.analyse`'s ``strategies``): each strategy's
    win share against the fair share, or, in a game with roles, against its role's average seat
    (``role``, ``role_label``; a role's only bot is not tested: its ``diff``, ``significant`` and
    ``verdict`` empty, as the report's "not tested" cell)."""
    from analysis import analyse
    from analysis.matchups import has_matchups

    if rs.spec is not None and rs.spec.strategies is None:
        # a Fief combat: "attacker" and "defender" are sides thrown with dice, not bots (the
        # report shows no Strategies table for it either)
        sides = " and ".join(r.display.lower() for r in rs.spec.roles)
        raise UsageError(f"{run}: no strategy table to export: this run is {describe_run(rs)}, whose "
                         f"{sides} are sides, not bots: --what roles or seats gives them. "
                         f"{tables_sentence(run, rs)}")
    if not has_matchups(rs):
        raise UsageError(_one_strategy(run, rs, "strategy table", "it needs"))
    table = analyse(rs)["strategies"]
    if "role" not in table.columns:
        return table
    untested = pl.col("p_value").is_null() | pl.col("p_value").is_nan()
    return table.with_columns(pl.when(untested).then(None).otherwise(pl.col(c)).alias(c)
                              for c in ("diff", "significant", "verdict", "p_adjusted"))


def _ends_table(run, rs) -> pl.DataFrame:
    """The report's End reasons table (:func:`analysis.length.end_reason_table`), one row per way a
    game ends, with ``side``: the role that ending gives the win to, where the game's spec says
    (Seigneurial, SG-6), else empty."""
    from analysis.length import end_reason_table, has_end_reasons

    if not has_end_reasons(rs):
        raise UsageError(lacking(run, rs, "ends"))
    table = end_reason_table(rs)
    sides = dict(rs.spec.extra.get("end_sides") or {}) if rs.spec is not None else {}
    side = pl.Series("side", [sides.get(n) for n in table["end_reason_name"]], dtype=pl.String)
    return table.insert_column(table.columns.index("label") + 1, side)


def seat_role_labels(rs) -> dict[int, str] | None:
    """0-based seat → the role it plays as the reports print it ("Seigneur", "Censitaire"), from
    the game's spec (Seigneurial, SG-1: one Seigneur, at Seat 1, and Censitaires; a Fief combat's
    attacker and defender); None in a game whose seats are alike (every seat a player) or a run
    of a game not registered."""
    return role_labels_of(rs.spec, rs.n_players)


def role_labels_of(spec, n_players: int) -> dict[int, str] | None:
    """:func:`seat_role_labels` from a game's spec and player count (a before/after's rows name their
    seats so: :func:`reports.text.sides_named`)."""
    if spec is None or spec.roles_alike:
        return None
    return {s: spec.role_display(r) for s, r in enumerate(spec.seat_roles(n_players))}


def _with_seat_roles(table: pl.DataFrame, rs) -> pl.DataFrame:
    """The seats table of a game with roles with ``role_label`` (the seat's role, as the reports
    print it) as its last column, after the columns every game's seats table has; ``seat_label``
    itself stays "Seat 1", the name baselines and before/after comparisons key on. A game whose
    seats are alike: the table as it is."""
    roles = seat_role_labels(rs)
    if roles is None:
        return table
    return table.with_columns(pl.Series("role_label", [roles.get(int(s)) for s in table["seat"]],
                                        dtype=pl.String))


#: The summary's metrics keyed by seat ("Seat 1"), whose labels say the seat's role in a game with roles
SEAT_METRICS = ("seat_win_share", "seat_mean_score")


def _seat_labels_with_roles(table: pl.DataFrame, rs) -> pl.DataFrame:
    """The summary of a game with roles with each seat's role in its rows' ``label`` ("Seat 1
    (Seigneur) win share"); ``key`` stays "Seat 1" (baselines and before/after comparisons match
    on metric and key). A game whose seats are alike: the table as it is."""
    roles = seat_role_labels(rs)
    if roles is None:
        return table
    from analysis.load import seat_label

    by_key = {seat_label(s): r for s, r in roles.items()}

    def said(metric: str, key: str, label: str) -> str:
        role = by_key.get(key) if metric in SEAT_METRICS else None
        if role is None or not label.startswith(key):
            return label
        return f"{key} ({role}){label[len(key):]}"

    return table.with_columns(pl.Series("label", [said(m, k, t) for m, k, t in
                                                  table.select("metric", "key", "label").iter_rows()],
                                        dtype=pl.String))


def unknown_what(what: str) -> str:
    """The one line for a ``--what`` that is none of :data:`WHAT`, with the closest when one is
    close ("seat": did you mean seats?)."""
    from simcore.config import did_you_mean

    choices = what_choices()
    return f"--what {what}: must be one of {', '.join(choices)}{did_you_mean(what, choices)}"


# ---------------------------------------------------------------------------------------------
# Saying what a run lacks, in a designer's words
# ---------------------------------------------------------------------------------------------

def _games_with(what: str) -> list[str]:
    """The titles of the games whose records hold table ``what``'s data, read from the games'
    specs (a new game with event cards is named without touching this module)."""
    from simcore import games as registry

    def has(spec) -> bool:
        if what == "events":
            return bool(spec.columns_with_role("gain_by_event"))
        if what == "tiles":
            return bool(spec.columns_with_role("drafted_by_type"))
        if what == "length":
            return any(c.unit == "turns" for c in spec.columns_with_role("length", "games"))
        if what == "roles":
            return bool(spec.columns_with_role("seat_role")) and len(spec.roles) > 1
        if what == "guilds":
            return bool(spec.columns_with_role("founded_by_type"))
        if what == "ends":
            return bool(spec.columns_with_role("end_reason", "games"))
        return False

    return [spec.title for spec in registry.specs().values() if has(spec)]


_TERRAIN_WORDS = {"castle": "in a castle", "city": "in a city", "open": "in open ground"}


def describe_run(rs) -> str:
    """What a run is, as a designer names it: "a Fief 2 combat (10 attacker points against 6
    defender points in a castle; 100,000 combats)", "a Middle-Ages run (4 players, 20,000 games)"."""
    title = rs.spec.title if rs.spec is not None else rs.game
    matchup = next((m["matchup"] for m in rs.metas if m.get("matchup")), None)
    if matchup:
        terrain = _TERRAIN_WORDS.get(matchup.get("terrain"), f"in {matchup.get('terrain')}")
        return (f"a {title} ({matchup.get('attacker')} attacker points against "
                f"{matchup.get('defender')} defender points {terrain}; {rs.n_games:,} combats)")
    return f"a {title} run ({rs.n_players} players, {rs.n_games:,} games)"


# the seats table's columns that read a seat against the fair 1/P
FAIR_SHARE_COLUMNS = ("fair_share", "diff", "diff_low", "diff_high", "p_value", "p_adjusted",
                      "significant", "verdict")


def _without_fair_share(table, rs):
    """The seats table of a game whose seats play unlike roles (Seigneurial, a Fief combat) with
    the columns that judge a seat against a fair 1/P left empty: there is no fair share per seat
    (the report says so and shows no such verdict); ``--what roles`` reads each seat against its
    role's average seat. Games whose seats are alike: the table as it is."""
    import polars as pl

    if rs.spec is None or rs.spec.roles_alike:
        return table
    return table.with_columns([pl.lit(None, dtype=table.schema[c]).alias(c)
                               for c in FAIR_SHARE_COLUMNS if c in table.columns])


def _role_fair_share(matchups: pl.DataFrame, within: pl.DataFrame) -> pl.DataFrame:
    """The matchups of a game with roles (every row two bots of one role: :func:`same_role_matchups`)
    with ``fair_share`` the strategy's role's average seat's win share, what the report reads each
    bot against ("its role's average seat: 33.3%"; ``within``:
    :func:`analysis.roles.strategy_table_within_roles`), not 1/P (review C #6, session 42: a
    Censitaire bot's 0.254 beside a fair_share of 0.25 read as fair, where the report said 7.9 pp
    below its role's average seat)."""
    fair = dict(zip(within["strategy"].to_list(), within["fair_share"].to_list()))
    return matchups.with_columns(pl.Series("fair_share", [fair.get(a) for a in matchups["strategy"]],
                                           dtype=pl.Float64))


def available(run: str | Path, rs) -> list[str]:
    """The ``--what`` tables this run has, in :data:`WHAT`'s order."""
    from analysis.events import has_events
    from analysis.guilds import has_guilds
    from analysis.length import has_length
    from analysis.matchups import has_matchups
    from analysis.roles import bots_share_a_role, has_roles
    from analysis.games import available_for
    from analysis.length import has_end_reasons
    from analysis.tiles import has_tiles

    has = {"players": (Path(run) / PLAYERS).is_file(), "games": True, "seats": True,
           "roles": has_roles, "events": has_events, "tiles": has_tiles, "guilds": has_guilds,
           "length": has_length, "ends": has_end_reasons,
           "strategies": lambda r: has_matchups(r) and (r.spec is None or r.spec.strategies is not None),
           "matchups": lambda r: has_matchups(r) and (not has_roles(r) or bots_share_a_role(r)),
           "summary": True}
    return [w for w in WHAT if (has[w](rs) if callable(has[w]) else has[w])] + available_for(rs)


def tables_sentence(run: str | Path, rs) -> str:
    return f"This run exports: {', '.join(available(run, rs))}."


# what a game lacks, and who has it: (the table's data, "<game> …" without it, "… do/does")
_LACKS = {
    "events": ("event cards", "{game} has no event cards", "{games} {has} them"),
    "tiles": ("drafted tiles", "{game} has no drafted tiles", "{games} {has} them"),
    "guilds": ("guilds", "{game} has no guilds", "{games} {has} them"),
    "length": ("game length in turns", "{game} records no game length in turns",
               "{games} {does}"),
    "roles": ("roles", "in {game} the seats play no roles", "in {games}: one Seigneur against "
              "the Censitaires"),
    "ends": ("end reasons", "{game} records no end reasons", "{games} {does}"),
}


def lacking(run: str | Path, rs, what: str) -> str:
    """The one line refusing ``--what what`` on a run whose game lacks its data: what the run is,
    which games have it and what this run can export ("runs/siege: no event cards to export: this
    run is a Fief 2 combat (10 attacker points against 6 defender points in a castle; 100,000
    combats), and Fief 2 combat has no event cards (only Middle-Ages has them). This run exports:
    players, games, seats, matchups, summary.")."""
    title = rs.spec.title if rs.spec is not None else rs.game
    if what in _LACKS:
        thing, without, having = _LACKS[what]
        games = _games_with(what)
    else:               # a game's own table (analysis.games): its hook's words
        from analysis.games import games_with_table, table_words

        thing, without, having = (table_words(what), "{game} has no such table", "{games} {has} it")
        games = games_with_table(what)
    head = f"{run}: no {thing} to export: this run is {describe_run(rs)}"
    if title in games:                      # the game has them, this run's records do not
        return f"{head}, and its records hold none. {tables_sentence(run, rs)}"
    one = len(games) == 1
    names = games[0] if one else ", ".join(games[:-1]) + " and " + games[-1] if games else ""
    who = (having.format(games=names, has="has" if one else "have",
                         does="does" if one else "do") if games else "no registered game")
    if what == "roles" and rs.spec is not None and len(rs.spec.roles) > 1:
        # Fief: attacker and defender are one seat each, so its sides are the seats' rows
        sides = " and ".join(r.display.lower() for r in rs.spec.roles)
        return (f"{head}, whose {sides} are one seat each: --what seats or matchups gives them. "
                f"{tables_sentence(run, rs)}")
    return (f"{head}, and {without.format(game=title)} (only {who}). "
            f"{tables_sentence(run, rs)}")

WITHIN_NOISE = "within noise"          # the report's word for a tested row that is not clear
TOO_FEW = "too few players to say"     # ... and for a clear difference about almost nobody


def report_verdicts(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with its ``verdict`` column in the report's words (as ``reports.text.verdict_words``
    prints them): :func:`analysis.stats.practical`'s "not shown" (left out of the headlines) is
    "within noise" on a row that is not clear after the family's correction (``significant`` false)
    and "too few players to say" on a clear one; the other words are the same on both. A row that
    was not tested (null verdict) stays null."""
    if "verdict" not in df.columns:
        return df
    from analysis.stats import NOT_SHOWN

    clear = pl.col("significant").fill_null(False) if "significant" in df.columns else pl.lit(False)
    return df.with_columns(
        pl.when(pl.col("verdict").is_null() | (pl.col("verdict") != NOT_SHOWN)).then(pl.col("verdict"))
        .when(clear).then(pl.lit(TOO_FEW)).otherwise(pl.lit(WITHIN_NOISE)).alias("verdict"))


def _missing_as_null(df: pl.DataFrame) -> pl.DataFrame:
    """NaN → null, in both formats: an empty CSV cell (spreadsheets read "NaN" as text, an empty
    cell as missing) and a Parquet null, as every other missing value of the tables (a Parquet NaN
    escaped ``is_null()`` and turned polars' ``mean()`` into NaN)."""
    floats = [c for c, t in df.schema.items() if t in (pl.Float32, pl.Float64)]
    return df.with_columns([pl.col(c).fill_nan(None) for c in floats]) if floats else df


def csv_ready(df: pl.DataFrame) -> pl.DataFrame:
    """A table as the toolkit's CSV files write it (review W #7: a questions directory's
    card_types.csv held "NaN", a ladder's CSV "inf", best_of_three.csv float32 noise such as
    0.6848248839378357): NaN and ±inf empty (null), a float32 column at the 7 significant digits
    it holds."""
    exprs = []
    for c, t in df.schema.items():
        if t in (pl.Float32, pl.Float64):
            col = pl.col(c).cast(pl.Float64)
            if t == pl.Float32:
                col = col.round_sig_figs(7)
            exprs.append(pl.when(col.is_finite()).then(col).otherwise(None).alias(c))
    return df.with_columns(exprs) if exprs else df


def decimal_text(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with every float column as the CSV text the toolkit writes: positional notation (no
    ``1e-07``) and always a decimal point, so that a whole number stays a float to a reader (review
    s52 export #2: ``write_csv(float_scientific=False)`` wrote ``1`` for 1.0, and a column of 2,493
    whole win shares before the first shared one, 0.5, made ``polars.read_csv`` type it as integers
    and fail); missing values stay missing (empty). The shortest digits that read back as the
    same number, as polars writes them."""
    exprs = []
    for c, t in df.schema.items():
        if not t.is_float():
            continue
        col = pl.col(c)
        odd = df.select((col.is_not_nan() & (((col.abs() < 1e-4) & (col != 0)) | (col.abs() >= 1e15)))
                        .any()).item()       # (polars orders NaN above every number)
        if odd:      # (rare: tiny or huge values, which polars would write in scientific notation)
            import numpy as np

            exprs.append(col.map_elements(lambda x: "NaN" if x != x else np.format_float_positional(x, trim="0"),
                                          return_dtype=pl.String, skip_nulls=True).alias(c))
        else:
            exprs.append(pl.when(col.is_nan()).then(pl.lit("NaN")).otherwise(col.cast(pl.String)).alias(c))
    return df.with_columns(exprs) if exprs else df


def table_csv(df: pl.DataFrame) -> str:
    """An analysis table as CSV text with :func:`export`'s conventions: verdicts in the report's
    words, missing values empty, p-values as :func:`p_value_text` writes them, no scientific
    notation otherwise (a report's ``comparison.csv``)."""
    return decimal_text(p_values_as_text(_missing_as_null(report_verdicts(df)))).write_csv()


def is_p_value(column: str) -> bool:
    """A column of p-values (``p_value``, ``p_adjusted``, ``seat_p_value``, ``chi2_p_adjusted`` …)."""
    return column in ("p", "p_value", "p_adjusted") or column.endswith(("_p_value", "_p_adjusted"))


#: A p-value below :data:`P_FLOOR` is written as this bound: the tests' tail probabilities underflow
#: to 0.0 (a Fief seat winning 89 % of 100,000 combats) or keep no correct digit down there, so
#: "0.0" would claim a certainty no test gives and "5e-324" digits it does not have.
P_FLOOR = 1e-300
P_BELOW_FLOOR = "< 1e-300"


def p_value_text(v: float) -> str:
    """One p-value as CSV writes it: the shortest text that reads back as the same float
    (``repr``: 0.0523, 2.2e-127), or :data:`P_BELOW_FLOOR` below :data:`P_FLOOR` (0.0 included)."""
    v = float(v)
    return P_BELOW_FLOOR if v < P_FLOOR else repr(v)


def p_values_as_text(df: pl.DataFrame) -> pl.DataFrame:
    """The p-value columns of an analysis table as CSV writes them (:func:`p_value_text`): the
    shortest text that reads back as the same float, so 0.0523 stays 0.0523 and a p-value below
    1e-4 is written in scientific notation (1.2e-120), not as 120 fixed decimals; one below 1e-300
    (an underflow to 0.0 among them) is the bound "< 1e-300"; missing stays empty."""
    cols = [c for c, t in df.schema.items() if is_p_value(c) and t in (pl.Float32, pl.Float64)]
    return df.with_columns([pl.col(c).map_elements(p_value_text, return_dtype=pl.Utf8,
                                                   skip_nulls=True) for c in cols]) if cols else df


def stream_raw(src: Path, dest: Path, fmt: str, *, bom: bool = False,
               batch_rows: int | None = None, table: str | None = None) -> int:
    """Copy a parquet file to CSV or Parquet batch by batch; return the number of rows. A Parquet
    copy carries the toolkit's signature naming ``table`` (:func:`simcore.atomic.parquet_sign`).

    Memory stays bounded by one batch (and one row group of the source) whatever the file size:
    measured flat at ~0.35-0.4 GB of peak RSS for 1e7 and 3e7 player rows, where polars'
    ``sink_csv`` grew with the file (docs/export.md).
    """
    import pyarrow.parquet as pq

    batch_rows = batch_rows or BATCH_ROWS
    try:
        source = pq.ParquetFile(src)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{src}: cannot read ({str(exc).splitlines()[0]})") from None
    if hasattr(dest, "write"):          # an open binary stream (standard output): CSV only
        return _csv_batches(source, dest, bom, batch_rows)
    rows = 0
    if fmt == "parquet":
        schema = source.schema_arrow.with_metadata({**(source.schema_arrow.metadata or {}),
                                                    **{k.encode(): v.encode() for k, v in parquet_sign(table).items()}})
        with pq.ParquetWriter(dest, schema, compression="zstd") as writer:
            for batch in source.iter_batches(batch_size=batch_rows):
                writer.write_batch(batch)
                rows += batch.num_rows
        return rows
    with open(dest, "wb") as fh:
        return _csv_batches(source, fh, bom, batch_rows)


def _csv_batches(source, fh, bom: bool, batch_rows: int) -> int:
    rows = 0
    for batch in source.iter_batches(batch_size=batch_rows):
        # float32 columns (win_share) at the 7 significant digits they hold, as every CSV of the
        # toolkit writes them (csv_ready): a 3-way tie read 0.3333333432674408 (review s46 export #11)
        decimal_text(csv_ready(pl.from_arrow(batch))).write_csv(fh, include_header=rows == 0,
                                                                include_bom=bom and rows == 0)
        rows += batch.num_rows
    if rows == 0:  # an empty table still gets its header
        pl.from_arrow(source.schema_arrow.empty_table()).write_csv(fh, include_bom=bom)
    return rows


#: ``--out -`` writes the CSV to standard output; these names of it are taken as ``-`` too.
STDOUT = "-"
STDOUT_NAMES = ("/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")
_OTHER_STREAMS = {"/dev/stderr": "standard error", "/dev/fd/2": "standard error",
                  "/proc/self/fd/2": "standard error", "/dev/stdin": "standard input",
                  "/dev/fd/0": "standard input", "/proc/self/fd/0": "standard input"}


def to_stdout(out: str | Path) -> bool:
    """True when ``out`` names standard output (``-``, ``/dev/stdout``); a UsageError for the
    other standard streams (a device, not a file)."""
    text = str(out)
    if text == STDOUT or text in STDOUT_NAMES:
        return True
    if text in _OTHER_STREAMS:
        raise UsageError(f"--out {text}: is the {_OTHER_STREAMS[text]}, a device, not a file; give a "
                         "file path, or --out - to write the CSV to standard output")
    return False


#: File name suffixes of formats export does not write, and what each names.
OTHER_FORMATS = {".xlsx": "an Excel workbook", ".xls": "an Excel workbook", ".xlsm": "an Excel workbook",
                 ".ods": "an OpenDocument spreadsheet", ".json": "JSON", ".feather": "Arrow IPC (Feather)",
                 ".arrow": "Arrow IPC", ".ipc": "Arrow IPC", ".tsv": "tab-separated values"}


def format_from(out: str | Path, fmt: str | None) -> str:
    """``fmt`` if given, else from the suffix of ``out`` (.csv / .parquet / .pq), else csv. A format
    the file's name contradicts (``--format parquet --out seats.csv``: Parquet bytes in a file every
    program then opens as CSV; review W #11) is a one-line :class:`UsageError`."""
    suffix = Path(out).suffix.lower()
    named = "parquet" if suffix in (".parquet", ".pq") else "csv" if suffix == ".csv" else None
    if suffix in OTHER_FORMATS:
        # CSV bytes under a name that promises another format (designer review 44 #12:
        # --out roles.xlsx wrote a CSV that a spreadsheet then refuses to open as a workbook)
        raise UsageError(f"--out {out}: export writes CSV or Parquet, not {OTHER_FORMATS[suffix]}; name "
                         f"it {Path(out).with_suffix('.csv').name} (spreadsheets open CSV) or "
                         f"{Path(out).with_suffix('.parquet').name}")
    if fmt is not None:
        fmt = fmt.lower()
        if fmt not in FORMATS:
            raise UsageError(f"--format {fmt}: must be csv or parquet")
        if named is not None and named != fmt:
            raise UsageError(f"--format {fmt} --out {out}: the file's name says {named}; name it "
                             f"{Path(out).with_suffix('.' + fmt).name} or leave out --format")
        return fmt
    return named or "csv"


def export(run: str | Path, what: str, out: str | Path, fmt: str | None = None, *,
           force: bool = False, bom: bool = False) -> Path:
    """Write table ``what`` of run directory ``run`` to ``out`` as CSV or Parquet; return ``out``.

    Raw tables (players, games) stream from the run's parquet files in batches of
    :data:`BATCH_ROWS` rows; analysis tables are
    computed (they are small) and written at once. Both go through :func:`atomic_output`.
    """
    if what not in what_choices():
        raise UsageError(unknown_what(what))
    stdout = to_stdout(out)
    fmt = format_from(out, fmt)
    if stdout and fmt != "csv":
        raise UsageError(f"--out {out}: standard output takes CSV only; give a file path "
                         "(tables.parquet) for --format parquet")
    if bom and fmt != "csv":           # (it was ignored: review s52 export opinion)
        raise UsageError(f"--bom: a byte-order mark is for CSV files; --out {out} is Parquet "
                         "(leave out --bom, or write a .csv)")
    run = Path(run)
    meta = check_run(run, players=True if what == "players" else None)  # one clear line for a damaged run
    if not stdout:
        # before any work: a Parquet file naming another table is refused in a second (its
        # columns are compared once the table is computed, as a CSV's are)
        check_output_file(out, force, inputs=[run],
                          replaces=ParquetTable(what) if fmt == "parquet" else table_file(fmt))
    if what in RAW:
        src = run / RAW[what]
        if not src.is_file():
            # (check_run says it first; the same words, should the file go meanwhile)
            hint = f" ({rows_left_out(meta)})" if what == "players" and meta.get("raw_players") is False else ""
            raise UsageError(f"{run}: no {RAW[what]}{hint}")
        if stdout:
            stream_raw(src, _stdout_bytes(), fmt, bom=bom)
            return Path(STDOUT)
        with atomic_output(out, force, replaces=_replaces(fmt, what, _raw_columns(src))) as tmp:
            stream_raw(src, tmp, fmt, bom=bom, table=what)
        return published_as(out)        # (beside, when a file appeared there meanwhile)
    df = report_verdicts(analysis_table(run, what))
    if stdout:
        decimal_text(p_values_as_text(_missing_as_null(df))).write_csv(_stdout_bytes(), include_bom=bom)
        return Path(STDOUT)
    with atomic_output(out, force, replaces=_replaces(fmt, what, df.columns)) as tmp:
        df = _missing_as_null(df)
        if fmt == "csv":
            df = p_values_as_text(df)
            decimal_text(df).write_csv(tmp, include_bom=bom)
        else:
            df.write_parquet(tmp, compression="zstd", metadata=parquet_sign(what))
    return published_as(out)            # (beside, when a file appeared there meanwhile)


def _replaces(fmt: str, what: str, columns) -> FileKind:
    """What ``--force`` may replace: an earlier export of this very table, in either format: a CSV
    with its columns (a user's own CSV of other columns is never replaced, review W #5), a Parquet
    table whose metadata names this table and which has its columns (one written before the
    toolkit named its tables: by its columns alone; review C #1: any Parquet table of the toolkit
    was replaced, so ``--what length --force`` destroyed a seats export)."""
    if fmt == "csv":
        return CsvTable(columns, f"the {what} export")
    return ParquetTable(what, columns)


def _raw_columns(src: Path) -> list[str]:
    """The columns of a raw table (players.parquet, games.parquet), read from its schema."""
    import pyarrow.parquet as pq

    try:
        return list(pq.read_schema(src).names)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{src}: cannot read ({str(exc).splitlines()[0]})") from None


def _stdout_bytes():
    """Standard output as a binary stream, after whatever text was printed to it."""
    import sys

    sys.stdout.flush()
    return sys.stdout.buffer


__all__ = ["BATCH_ROWS", "FORMATS", "WHAT", "analysis_table", "what_choices", "atomic_output", "check_output_file",
           "report_verdicts",
           "export", "format_from", "p_value_text", "stream_raw", "to_stdout", "write_text_atomic"]


def _matchup_acc(rs):
    """The matchup accumulator of ``rs`` (from its statistics, or one pass over its rows)."""
    from analysis.load import run_pass
    from analysis.matchups import MatchupAccumulator, accumulator_from_stats

    if rs.from_stats:
        return accumulator_from_stats(rs)
    acc = MatchupAccumulator(rs)
    run_pass(rs, [acc])
    return acc

