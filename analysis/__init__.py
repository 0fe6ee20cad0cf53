"""analysis: balance metrics over run directories (polars lazy scans → metric tables with intervals).

:func:`analyse` computes every metric that the columns of a :class:`~analysis.load.RunSet` allow, in
one chunked pass over the games plus a few streaming polars queries, and returns them as a dict of
polars DataFrames with stable names and columns (documented in docs/analysis.md), so the report,
an export command or a check command can share them. Modules: :mod:`analysis.load` (opening runs,
chunked passes), :mod:`analysis.stats` (intervals and tests), :mod:`analysis.seats`,
:mod:`analysis.events`, :mod:`analysis.tiles`, :mod:`analysis.matchups`, :mod:`analysis.length`
(game length, end reasons), :mod:`analysis.guilds` (guild types), :mod:`analysis.roles` (role
advantage in asymmetric games), :mod:`analysis.compare`, and the packages :mod:`analysis.games`
(each game's own tables, through its spec), :mod:`analysis.check` (the win-rate regression gate of
``balance check``),
:mod:`analysis.questions` (balance questions a run cannot answer, played in memory through the
runner and written as a questions directory), :mod:`analysis.sweep` (rule sweeps on common random
numbers and their sensitivity tables) and :mod:`analysis.tune` (Optuna tuning with racing).

May import polars, numpy, the standard library and :mod:`simcore.rundir` / :mod:`simcore.errors`;
the packages ``check``, ``questions``, ``sweep`` and ``tune`` also the runner, the game folders
and :mod:`strategies` (see their docstrings; ``tune`` also optuna, lazily); never imports :mod:`reports`, :mod:`cli`, matplotlib, rich or typer.
"""

from __future__ import annotations

from analysis.games import tables_for
from analysis.load import RunSet, group_runs, open_runs

# The tables every game may get; a game's own tables come from its spec's analysis hook
# (:func:`table_names` lists both).
TABLES = ("seats", "seat_tests", "outcomes", "spread_counts", "lead_changes", "flow", "scores_by_seat",
          "scores_by_strategy", "events", "event_seats", "tiles", "tile_summary", "domain_pairs",
          "strategies", "matchups", "seat_bots", "length", "length_distribution", "end_reasons", "end_wins", "guild_types",
          "roles", "role_seats", "score_pairs")


def table_names() -> tuple[str, ...]:
    """Every table :func:`analyse` may return: :data:`TABLES`, then the games' own."""
    from analysis.games import table_names as games_tables

    return TABLES + tuple(t for t in games_tables() if t not in TABLES)


def analyse(rs: RunSet, rows_per_chunk: int | None = None) -> dict:
    """Every applicable metric table of ``rs`` (keys from :func:`table_names`; absent when not
    applicable). Tables are chosen by the roles of the game's spec columns, never by names:

    ``flow`` needs ``checkpoint_by_turn`` columns (or, in older runs, ``checkpoint_by_event``);
    ``events``/``event_seats`` need ``gain_by_event`` with the games' ``event_by_slot``;
    ``tiles``/``tile_summary``/``domain_pairs`` need ``drafted_by_type``; ``matchups`` needs at
    least two strategies; ``length``/``length_distribution`` need the games' ``length`` in turns,
    ``end_reasons`` also their ``end_reason`` (``end_wins`` where one of them is the turn limit);
    ``guild_types`` needs ``founded_by_type``;
    ``score_pairs`` needs the player rows (players.parquet; :func:`analysis.seats.score_pairs`);
    ``roles``/``role_seats`` need a ``seat_role`` column with more than one role (an asymmetric
    game). The game's own tables come from its spec's analysis hook (:mod:`analysis.games`).
    """
    from analysis import events, guilds, length, load, matchups, roles, seats, tiles
    from simcore import games as registry

    if rs.from_stats:          # every accumulator comes filled from the statistics: no row read
        seat_acc = seats.seat_accumulator_from_stats(rs)
        out_acc = seats.outcome_accumulator_from_stats(rs)
        ev_acc = events.accumulator_from_stats(rs) if events.has_events(rs) else None
        mu_acc = matchups.accumulator_from_stats(rs) if matchups.has_matchups(rs) else None
    else:
        seat_acc = seats.SeatAccumulator(rs.n_players)
        out_acc = seats.outcome_accumulator(rs)
        accs: list = [seat_acc, out_acc]
        ev_acc = events.EventAccumulator(rs) if events.has_events(rs) else None
        mu_acc = matchups.MatchupAccumulator(rs) if matchups.has_matchups(rs) else None
        accs += [a for a in (ev_acc, mu_acc) if a is not None]
        load.run_pass(rs, accs, rows_per_chunk or load.ROWS_PER_CHUNK)

    t: dict = {
        "seats": seats.seat_table(rs),
        "seat_tests": seats.seat_tests(rs, seat_acc),
        "outcomes": seats.outcome_table(rs, out_acc),
        "spread_counts": seats.spread_counts(rs, out_acc),
        "scores_by_seat": seats.score_distribution(rs, "seat"),
        "scores_by_strategy": seats.score_distribution(rs, "strategy"),
    }
    pairs = seats.score_pairs(rs)        # (the player rows only: None without them)
    if pairs is not None:
        t["score_pairs"] = pairs
    if out_acc.checkpoints:
        t["lead_changes"] = seats.lead_change_counts(rs, out_acc)
        t["flow"] = seats.flow_table(rs)
    if ev_acc is not None:
        t["events"] = events.event_impact(rs, ev_acc)
        t["event_seats"] = events.event_seat_table(rs, ev_acc)
    if tiles.has_tiles(rs):
        t["tiles"] = tiles.tile_impact(rs)
        t["tile_summary"] = tiles.tile_summary(rs)
        t["domain_pairs"] = tiles.domain_pairs(rs)
    if mu_acc is not None:
        t["strategies"] = matchups.strategy_table(rs, mu_acc)
        t["matchups"] = matchups.matchup_table(rs, mu_acc)
        bots = matchups.seat_bot_table(rs, mu_acc)
        spec = registry.specs().get(rs.game)
        if bots is not None and spec is not None and spec.strategies is not None:
            t["seat_bots"] = bots       # (Fief's "attacker"/"defender" are sides, not bots)
    if length.has_length(rs):
        t["length"] = length.length_summary(rs)
        t["length_distribution"] = length.length_distribution(rs)
    if length.has_end_reasons(rs):
        t["end_reasons"] = length.end_reason_table(rs)
        wins = length.end_wins_table(rs)
        if wins is not None:          # a game with a turn limit: who won the stopped games
            t["end_wins"] = wins
    if guilds.has_guilds(rs):
        t["guild_types"] = guilds.guild_table(rs)
    if roles.has_roles(rs):
        t["roles"] = roles.role_table(rs)
        t["role_seats"] = roles.role_seat_table(rs, seat_acc)
        if mu_acc is not None:      # no fair 1/n with roles: each bot against its role's seats
            t["strategies"] = roles.strategy_table_within_roles(rs, mu_acc, seat_acc)
            t["matchups"] = roles.same_role_matchups(t["matchups"], t["strategies"])
    t.update(tables_for(rs))
    return t


__all__ = ["RunSet", "TABLES", "analyse", "group_runs", "open_runs", "table_names"]
