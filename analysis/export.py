"""Export a run's raw rows or its analysis tables to CSV or Parquet (``balance export``).

:func:`export` writes one table of one run directory: the raw rows (``players``, ``games``: exactly
the run's own columns, streamed batch by batch with pyarrow (:func:`stream_raw`) so a 1e7-row
file is never held in memory) or an analysis table (``seats`` = :func:`analysis.seats.seat_table`, ``events`` =
:func:`analysis.events.event_impact`, ``tiles`` = :func:`analysis.tiles.tile_impact`, ``length`` =
:func:`analysis.length.length_summary`, ``matchups`` = :func:`analysis.matchups.matchup_table`,
``summary`` = :func:`analysis.compare.metric_vector` of :func:`analysis.analyse`). Column names are
those documented in docs/export.md (the analysis ones in docs/analysis.md) and are stable; a
``verdict`` is in the report's words (:func:`report_verdicts`: "within noise", not "not shown"). CSV has a
header row, plain numbers (no thousands separators, no scientific notation in analysis tables but
for p-values below 1e-4, :func:`p_values_as_text`; empty cells for missing values) and is UTF-8 (optionally with a byte-order mark for Excel); in Parquet a
missing value is a null, never NaN, as in CSV.

Nothing is lost: an existing file is refused unless ``force``; output goes to a hidden temporary file
beside the target and is renamed into place only when complete (:mod:`simcore.atomic`, the one
atomic writer of run directories, reports, exports, baselines and golden files).

May import polars, pyarrow, the standard library, :mod:`analysis` and its modules, :mod:`simcore.errors` and
:mod:`simcore.rundir`.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from simcore.atomic import atomic_output, check_output_file, write_text_atomic  # noqa: F401
from simcore.errors import UsageError
from analysis.load import check_run
from simcore.rundir import GAMES, PLAYERS

WHAT = ("players", "games", "seats", "roles", "events", "tiles", "length", "matchups", "summary")
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
    Wald test against its role's average seat (``seat_p_value``; ``seat_p_adjusted``, Holm over the
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
    if what == "seats":
        return seat_table(rs)
    if what == "events":
        if not has_events(rs):
            raise UsageError(f"{run}: --what events needs event cards (columns of roles "
                             f"gain_by_event in {PLAYERS} and event_by_slot in {GAMES}; this game "
                             "or run has none)")
        return event_impact(rs)
    if what == "tiles":
        from analysis.tiles import has_tiles, tile_impact

        if not has_tiles(rs):
            raise UsageError(f"{run}: --what tiles needs drafted tiles (columns of role "
                             "drafted_by_type; Middle-Ages)")
        return tile_impact(rs)
    if what == "length":
        from analysis.length import has_length, length_summary

        if not has_length(rs):
            raise UsageError(f"{run}: --what length needs a game length (turns; Médiévallons, "
                             "Seigneurial)")
        return length_summary(rs)
    if what == "matchups":
        if not has_matchups(rs):
            raise UsageError(f"{run}: --what matchups needs at least two strategies in the run "
                             "(simulate with --strategies a,b,… and ideally --rotate-seats)")
        return matchup_table(rs)
    if what == "roles":
        from analysis.roles import has_roles, role_seat_table, role_table

        if not has_roles(rs):
            raise UsageError(f"{run}: --what roles needs a game whose seats play roles "
                             "(e.g. Seigneurial: one Seigneur against the Censitaires)")
        by_seat = role_seat_table(rs)
        sides = role_table(rs).select("role", "role_label", pl.lit(None, pl.Int8).alias("seat"),
                                      pl.lit("side").alias("level"), "games", "wins", "win_share",
                                      "ci_low", "ci_high")
        seats = by_seat.select("role", "role_label", "seat", pl.lit("seat").alias("level"),
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
        return metric_vector(analyse(rs))
    raise UsageError(f"--what {what}: must be one of {', '.join(WHAT)}")


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


def is_p_value(column: str) -> bool:
    """A column of p-values (``p_value``, ``p_adjusted``, ``seat_p_value``, ``chi2_p_adjusted`` …)."""
    return column in ("p", "p_value", "p_adjusted") or column.endswith(("_p_value", "_p_adjusted"))


def p_values_as_text(df: pl.DataFrame) -> pl.DataFrame:
    """The p-value columns of an analysis table as CSV writes them: the shortest text that reads
    back as the same float (Python's ``repr``), so 0.0523 stays 0.0523 and a p-value below 1e-4 is
    written in scientific notation (1.2e-120), not as 120 fixed decimals; missing stays empty."""
    cols = [c for c, t in df.schema.items() if is_p_value(c) and t in (pl.Float32, pl.Float64)]
    return df.with_columns([pl.col(c).map_elements(lambda v: repr(float(v)), return_dtype=pl.Utf8,
                                                   skip_nulls=True) for c in cols]) if cols else df


def stream_raw(src: Path, dest: Path, fmt: str, *, bom: bool = False,
               batch_rows: int | None = None) -> int:
    """Copy a parquet file to CSV or Parquet batch by batch; return the number of rows.

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
    rows = 0
    if fmt == "parquet":
        with pq.ParquetWriter(dest, source.schema_arrow, compression="zstd") as writer:
            for batch in source.iter_batches(batch_size=batch_rows):
                writer.write_batch(batch)
                rows += batch.num_rows
        return rows
    with open(dest, "wb") as fh:
        for batch in source.iter_batches(batch_size=batch_rows):
            pl.from_arrow(batch).write_csv(fh, include_header=rows == 0, include_bom=bom and rows == 0,
                                           float_scientific=False)
            rows += batch.num_rows
        if rows == 0:  # an empty table still gets its header
            pl.from_arrow(source.schema_arrow.empty_table()).write_csv(fh, include_bom=bom)
    return rows


def format_from(out: str | Path, fmt: str | None) -> str:
    """``fmt`` if given, else from the suffix of ``out`` (.csv / .parquet / .pq), else csv."""
    if fmt is not None:
        fmt = fmt.lower()
        if fmt not in FORMATS:
            raise UsageError(f"--format {fmt}: must be csv or parquet")
        return fmt
    suffix = Path(out).suffix.lower()
    return "parquet" if suffix in (".parquet", ".pq") else "csv"


def export(run: str | Path, what: str, out: str | Path, fmt: str | None = None, *,
           force: bool = False, bom: bool = False) -> Path:
    """Write table ``what`` of run directory ``run`` to ``out`` as CSV or Parquet; return ``out``.

    Raw tables (players, games) stream from the run's parquet files in batches of
    :data:`BATCH_ROWS` rows; analysis tables are
    computed (they are small) and written at once. Both go through :func:`atomic_output`.
    """
    if what not in WHAT:
        raise UsageError(f"--what {what}: must be one of {', '.join(WHAT)}")
    fmt = format_from(out, fmt)
    run = Path(run)
    check_run(run, players=True if what == "players" else None)  # one clear line for a damaged run
    check_output_file(out, force, inputs=[run])
    if what in RAW:
        src = run / RAW[what]
        if not src.is_file():
            hint = " (the run was written without --raw)" if what == "players" else ""
            raise UsageError(f"{run}: no {RAW[what]}{hint}")
        with atomic_output(out, force) as tmp:
            stream_raw(src, tmp, fmt, bom=bom)
        return Path(out)
    df = report_verdicts(analysis_table(run, what))
    with atomic_output(out, force) as tmp:
        df = _missing_as_null(df)
        if fmt == "csv":
            df = p_values_as_text(df)
            df.write_csv(tmp, include_bom=bom, float_scientific=False)
        else:
            df.write_parquet(tmp, compression="zstd")
    return Path(out)


__all__ = ["BATCH_ROWS", "FORMATS", "WHAT", "analysis_table", "atomic_output", "check_output_file",
           "report_verdicts",
           "export", "format_from", "stream_raw", "write_text_atomic"]
