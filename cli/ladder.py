"""``balance ladder``: the skill matrix of bots, each against copies of each other, seats rotated.

Shows the cells as they are played (step k of n with an estimate of the time left,
:class:`cli.progress.Steps`), prints the matrix, and with ``--out FILE`` writes it as a table
(``.csv`` or ``.parquet``, one row per cell: :func:`analysis.ladder.ladder_table`), atomically
(:mod:`simcore.atomic`); an existing file is refused unless ``--force``, before any game is played.

May import typer, rich, :mod:`simcore`, :mod:`strategies`, :mod:`analysis` and :mod:`cli.progress`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from simcore.games import DEFAULT_GAME

LADDER_FORMATS = (".csv", ".parquet")


_DEFAULT_BOTS = "random,greedy,balanced,rollout"


def register(app: typer.Typer) -> None:
    app.command("ladder", help="Skill matrix: one bot (row) against copies of another (column), "
                               "seats rotated; win share with 95% interval.")(ladder)


def ladder(
    bots: str = typer.Option("random,greedy,balanced,rollout", "--bots",
                             help="Comma list of strategies (a game with roles: default every preset)."),
    games: str = typer.Option("4000", "--games", "-n", help="Games per cell (rounded up to whole rotations)."),
    players: int = typer.Option(4, "--players", "-p", help="Players per game (2-5)."),
    seed: int = typer.Option(0, "--seed"),
    threads: int = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
    game: str = typer.Option(DEFAULT_GAME, "--game", "-g", help="Which game (one with bots)."),
    out: Path = typer.Option(None, "--out", "-o", help="Also write the matrix to this file (.csv or .parquet)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --out file."),
) -> None:
    import importlib

    from rich.console import Console
    from rich.table import Table

    from analysis import ladder as L
    from simcore import games as registry
    from simcore.errors import UsageError
    from simcore.options import check_seed, parse_games, set_threads

    spec = registry.get(game)
    if spec.strategies is None:
        raise UsageError(f"--game {game}: this game has no bots to rank")
    n = parse_games(games)
    spec.check_players(players)
    check_seed(seed)
    set_threads(threads)
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        raise UsageError(f"--bots {bots!r}: name at least one strategy")
    S = importlib.import_module(spec.strategies)
    if not spec.roles_alike and bots == _DEFAULT_BOTS:
        names = list(S.presets())      # a game with roles: every preset, grouped by role below
    for b in names:
        S.lookup(b, option="--bots")  # validate every name before the long part
    if out is not None:
        from simcore.atomic import check_output_file

        if out.suffix.lower() not in LADDER_FORMATS:
            raise UsageError(f"--out {out}: write the matrix as .csv or .parquet")
        check_output_file(out, force)
    from cli.progress import Steps

    console = Console()
    if not spec.roles_alike:
        _role_ladder(console, L, S, spec, names, n, players, seed, game, out, force)
        return
    cells = {}
    todo = L.pairs(names)
    with Steps("ladder") as steps:
        for k, (a, b) in enumerate(todo):
            steps(f"{a} against {players - 1} × {b} ({n:,} games)", k, len(todo))
            c = L.duel(a, b, n, players=players, seed=seed, game=game)
            cells[(c.bot, c.opponent)] = c
    if out is not None:
        from simcore.atomic import atomic_output

        table = L.ladder_table(list(cells.values()), game=spec.name, players=players, seed=seed)
        with atomic_output(out, force) as tmp:
            if out.suffix.lower() == ".csv":
                table.write_csv(tmp)
            else:
                table.write_parquet(tmp)
    t = Table(title=f"win share of the row bot against {players - 1} copies of the column bot "
                    f"(fair {100 / players:.0f}%, {n:,} games per cell, seats rotated)",
              title_justify="left")
    t.add_column("bot \\ opponents")
    for b in names:
        t.add_column(b, justify="right")
    for a in names:
        row = []
        for b in names:
            c = cells.get((a, b))
            row.append("—" if c is None else
                       f"{100 * c.win_share:.1f}% ({100 * c.ci_low:.1f}–{100 * c.ci_high:.1f})")
        t.add_row(a, *row)
    console.print(t)
    if out is not None:
        typer.echo(f"ladder: {out}")


def _role_ladder(console, L, S, spec, names, n, players, seed, game, out=None, force=False) -> None:
    """A game whose seats have roles (Seigneurial): one table per role (analysis.ladder.role_ladder)."""
    from rich.table import Table

    seigneur = spec.default_strategy if "seigneur" in S.roles_of(spec.default_strategy) else None
    with console.status("playing the ladder by role…"):
        cells = L.role_ladder(names, n, players=players, seed=seed, game=game,
                              roles_of=S.roles_of, seigneur=seigneur)
    titles = {
        "seigneur": f"win share of the Seigneur bot (row) against the Censitaire bot (column) at "
                    f"every Censitaire seat ({n:,} games per cell)",
        "censitaire": f"win share of one Censitaire bot (row) against copies of another (column) at "
                      f"the other Censitaire seats, Seigneur {seigneur or 'the first Seigneur bot'}; "
                      f"in brackets the share of a column bot in games of column bots only "
                      f"({n:,} games per cell, the row bot at every Censitaire seat in turn)",
    }
    for role in ("seigneur", "censitaire"):
        found = {(c.bot, c.opponent): c for c in cells[role]}
        if not found:
            continue
        rows = list(dict.fromkeys(c.bot for c in cells[role]))
        cols = list(dict.fromkeys(c.opponent for c in cells[role]))
        t = Table(title=titles[role], title_justify="left")
        t.add_column(f"{role} bot \\ opponents")
        for b in cols:
            t.add_column(b, justify="right")
        for a in rows:
            row = []
            for b in cols:
                c = found.get((a, b))
                if c is None:
                    row.append("—")
                    continue
                text = f"{100 * c.win_share:.1f}% ({100 * c.ci_low:.1f}–{100 * c.ci_high:.1f})"
                if role == "censitaire":
                    text += f" [{100 * c.fair:.1f}%]"
                row.append(text)
            t.add_row(a, *row)
        console.print(t)
    if out is not None:
        import polars as pl

        from simcore.atomic import atomic_output

        table = pl.concat([L.ladder_table(cells[r], game=spec.name, players=players, seed=seed)
                           .with_columns(pl.lit(r).alias("role")) for r in ("seigneur", "censitaire")])
        with atomic_output(out, force) as tmp:
            if out.suffix.lower() == ".csv":
                table.write_csv(tmp)
            else:
                table.write_parquet(tmp)
        typer.echo(f"ladder: {out}")
