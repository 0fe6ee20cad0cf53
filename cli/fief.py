"""``balance fief-odds`` and ``balance fief-calamity``: Fief combat odds grids, break-even tables,
heat maps (FF-7), plague and revolt tables (FF-5, FF-6).

The game folder computes (:func:`simcore.games.fief.odds.odds_request` /
:func:`simcore.games.fief.calamity.calamity_request` validate the options, their ``compute`` gives
the tables); this module is where the layers meet: :func:`fief_odds` and :func:`fief_calamity` write
the output directory atomically (:class:`simcore.rundir.RunWriter`: tables as CSV and parquet, the
heat maps of :func:`reports.figures.fief.heatmap`, run.json) and print the tables with rich. Bad
input raises :class:`simcore.errors.UsageError` (one line, exit code 2) before anything is written.

May import typer, rich, polars, the standard library, :mod:`simcore` (rundir, options, the Fief game
folder) and, lazily, :mod:`reports.figures.fief`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer



def _with_settings(rules, settings):
    """``--rules`` with ``--set`` applied (a TomlSource the Fief rules loader reads), or the path."""
    if not settings:
        return rules
    from simcore.runner import rules_source

    return rules_source("fief-combat", rules, settings)

def register(app: typer.Typer) -> None:
    @app.command("fief-odds")
    def fief_odds_cmd(
        attackers: str = typer.Option("1-30", "--attackers", help="Attacker points: 1-30, 7, or 1-5,8 (FF-1)."),
        defenders: str = typer.Option("1-20", "--defenders", help="Defender points, same forms."),
        terrain: str = typer.Option("all", "--terrain", help="Defender's terrain: open, castle, city or all (FF-2/FF-3)."),
        darc: str = typer.Option("none", "--darc", help="Side with Jeanne d'Arc: attacker, defender or none (FF-4)."),
        method: str = typer.Option("exact", "--method", help="exact (dynamic programming), mc (Monte Carlo) or both."),
        games: str = typer.Option("20000", "--games", help="Monte Carlo combats per cell (mc, both)."),
        seed: int = typer.Option(0, "--seed", help="Monte Carlo seed."),
        lords_attacker: Optional[int] = typer.Option(None, "--lords-attacker", help="Lords among the attacker's points (default from rules.toml; capped at the points)."),
        lords_defender: Optional[int] = typer.Option(None, "--lords-defender", help="Lords among the defender's points."),
        mercy: Optional[str] = typer.Option(None, "--mercy", help="never, attacker:K, defender:K or attacker:K,defender:J (FF-3)."),
        levels: str = typer.Option("0.5,0.75,0.9", "--levels", help="Break-even probabilities."),
        rules: Optional[Path] = typer.Option(None, "--rules", help="Rules file (default configs/fief/rules.toml)."),
        settings: Optional[List[str]] = typer.Option(None, "--set", help="Change one rule setting: "
                                                     "PATH=VALUE; repeatable."),
        out: Optional[Path] = typer.Option(None, "--out", help="Output directory (default runs/fief-odds-<time>)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Numba threads (results do not depend on it)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
    ) -> None:
        """Combat odds over a grid of attacker x defender points: odds.csv/.parquet, heat maps of
        P(attacker wins) per terrain, and a break-even table (FF-7)."""
        from simcore.rundir import default_run_dir

        fief_odds(attackers=attackers, defenders=defenders, terrain=terrain, darc=darc,
                  method=method, games=games, seed=seed, rules_path=_with_settings(rules, settings),
                  out=out or default_run_dir("fief-odds"), force=force,
                  lords_attacker=lords_attacker, lords_defender=lords_defender, mercy=mercy,
                  levels=levels, threads=threads, quiet=quiet)

    @app.command("fief-calamity")
    def fief_calamity_cmd(
        soldiers: str = typer.Option("0-30", "--soldiers", help="Soldiers in the village: 0-30, 5, or 0-5,10."),
        lords: str = typer.Option("1-4", "--lords", help="Lords in the village."),
        max_ecus: str = typer.Option("2000", "--max-ecus", help="Largest sum spent on conviction points (FF-6)."),
        method: str = typer.Option("exact", "--method", help="exact, mc (Monte Carlo check) or both."),
        games: str = typer.Option("100000", "--games", help="Monte Carlo trials per cell (mc, both)."),
        seed: int = typer.Option(0, "--seed", help="Monte Carlo seed."),
        rules: Optional[Path] = typer.Option(None, "--rules", help="Rules file (default configs/fief/rules.toml)."),
        settings: Optional[List[str]] = typer.Option(None, "--set", help="Change one rule setting: "
                                                     "PATH=VALUE; repeatable."),
        out: Optional[Path] = typer.Option(None, "--out", help="Output directory (default runs/fief-calamity-<time>)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Numba threads."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
    ) -> None:
        """Plague survivor distributions (FF-5) and the bishop's odds against écus spent (FF-6)."""
        from simcore.rundir import default_run_dir

        fief_calamity(soldiers=soldiers, lords=lords, max_ecus=max_ecus, method=method,
                      games=games, seed=seed, rules_path=_with_settings(rules, settings),
                      out=out or default_run_dir("fief-calamity"), force=force, threads=threads,
                      quiet=quiet)


def fief_odds(*, attackers: str = "1-30", defenders: str = "1-20", terrain: str = "all",
              darc: str = "none", method: str = "exact", games: int | str = 20000, seed: int = 0,
              rules_path: str | Path | None = None, out: Path, force: bool = False,
              lords_attacker: int | None = None, lords_defender: int | None = None,
              mercy: str | None = None, levels: str = "0.5,0.75,0.9", threads: int | None = None,
              quiet: bool = False) -> Path:
    """``balance fief-odds``: odds.csv/.parquet, break_even.csv, heatmap_<terrain>.png, run.json."""
    from reports.figures.fief import heatmap
    from simcore.games.fief.odds import odds_request
    from simcore.options import numba_threads
    from simcore.atomic import input_paths
    from simcore.rundir import RunWriter

    t0 = time.perf_counter()
    req = odds_request(attackers=attackers, defenders=defenders, terrain=terrain, darc=darc,
                       method=method, games=games, seed=seed, rules_path=rules_path,
                       lords_attacker=lords_attacker, lords_defender=lords_defender, mercy=mercy,
                       levels=levels)
    with numba_threads(threads), RunWriter(out, force, players_schema=None, games_schema=None,
                                           inputs=input_paths(rules_path), kind="fief-tables") as w:
        odds, be, agreement = req.compute()
        odds.write_csv(w.tmp / "odds.csv")
        odds.write_parquet(w.tmp / "odds.parquet")
        be.write_csv(w.tmp / "break_even.csv")
        for t in req.terrains:
            heatmap(odds, t, w.tmp / f"heatmap_{t}.png", req.levels)
        files = ["odds.csv", "odds.parquet", "break_even.csv"] + [f"heatmap_{t}.png" for t in req.terrains]
        path = w.finish(req.meta(files, agreement, round(time.perf_counter() - t0, 4)))
    if not quiet:
        print_odds_summary(be, path, agreement)
    return path


def fief_calamity(*, soldiers: str = "0-30", lords: str = "1-4", max_ecus: int | str = 2000,
                  method: str = "exact", games: int | str = 100000, seed: int = 0,
                  rules_path: str | Path | None = None, out: Path, force: bool = False,
                  threads: int | None = None, quiet: bool = False) -> Path:
    """``balance fief-calamity``: plague survivor tables (FF-5) and revolt odds (FF-6)."""
    from simcore.games.fief.calamity import calamity_request
    from simcore.options import numba_threads
    from simcore.atomic import input_paths
    from simcore.rundir import RunWriter

    t0 = time.perf_counter()
    req = calamity_request(soldiers=soldiers, lords=lords, max_ecus=max_ecus, method=method,
                           games=games, seed=seed, rules_path=rules_path)
    with numba_threads(threads), RunWriter(out, force, players_schema=None, games_schema=None,
                                           inputs=input_paths(rules_path), kind="fief-tables") as w:
        tables = req.compute()
        for name, df in tables.items():
            df.write_csv(w.tmp / f"{name}.csv")
            df.write_parquet(w.tmp / f"{name}.parquet")
        files = [f"{n}.{e}" for n in tables for e in ("csv", "parquet")]
        path = w.finish(req.meta(files, round(time.perf_counter() - t0, 4)))
    if not quiet:
        print_calamity(req.rules, tables["plague_summary"], tables["plague"], tables["revolt"], path)
    return path


def print_odds_summary(be, path: Path, agreement) -> None:
    import polars as pl
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for terrain in be["terrain"].unique(maintain_order=True).to_list():
        sub = be.filter(pl.col("terrain") == terrain)
        where = {"open": "in open ground", "castle": "in a castle", "city": "in a city"}[terrain]
        t = Table(title=f"Break-even: smallest attacker (points) beating a defender {where} "
                        f"({sub['method'][0]}; '-' = not within the grid)")
        t.add_column("defender", justify="right")
        cols = [c for c in sub.columns if c.startswith("min_attacker_p")]
        for c in cols:
            t.add_column(f"P >= {c.removeprefix('min_attacker_p')}%", justify="right")
        for row in sub.select("defender", *cols).iter_rows():
            t.add_row(str(row[0]), *("-" if v is None else str(v) for v in row[1:]))
        console.print(t)
    if agreement:
        console.print(f"MC vs exact over {agreement['cells']} cells: max |z| P(attacker wins) "
                      f"{agreement['max_abs_z_p_attacker_wins']:.2f}, rounds "
                      f"{agreement['max_abs_z_expected_rounds']:.2f}")
    console.print(f"wrote {path}")


def print_calamity(rules, summary, dist, revolt, path: Path) -> None:
    import polars as pl

    from simcore.games.fief.rules import (
        P_PLAGUE_LORD_SURVIVES, P_PLAGUE_ROUND_UP, P_REVOLT_SUCCESS,
    )
    from rich.console import Console
    from rich.table import Table

    console = Console()
    method = "exact" if "exact" in dist["method"].to_list() else "mc"
    d = dist.filter(pl.col("method") == method)
    lords = sorted(d["lords"].unique().to_list())
    max_l = max(lords) if lords else 0
    t = Table(title=f"Plague (FF-5): Lords surviving, each on a die >= "
                    f"{rules.param(P_PLAGUE_LORD_SURVIVES)} ({method})")
    t.add_column("Lords", justify="right")
    for k in range(max_l + 1):
        t.add_column(f"P({k} survive)", justify="right")
    t.add_column("mean survivors", justify="right")
    s0 = d["soldiers"].min()
    for n in lords:
        sub = d.filter((pl.col("lords") == n) & (pl.col("soldiers") == s0)).sort("lords_left")
        probs = dict(zip(sub["lords_left"].to_list(), sub["probability"].to_list()))
        exp = sum(k * p for k, p in probs.items())
        t.add_row(str(n), *(f"{probs[k]:.4f}" if k in probs else "" for k in range(max_l + 1)),
                  f"{exp:.3f}")
    console.print(t)
    soldiers = (summary.filter(pl.col("method") == method).group_by("soldiers", maintain_order=True)
                .agg(pl.col("soldiers_left").first()).sort("soldiers"))
    rounding = "down" if not rules.param(P_PLAGUE_ROUND_UP) else "up"
    st = Table(title=f"Plague (FF-5): soldiers left (half removed, rounded {rounding})")
    st.add_column("soldiers", justify="right")
    st.add_column("left", justify="right")
    pairs = list(soldiers.iter_rows())
    half = (len(pairs) + 1) // 2
    if len(pairs) > 12:
        st.add_column("soldiers", justify="right")
        st.add_column("left", justify="right")
        for i in range(half):
            right = pairs[i + half] if i + half < len(pairs) else ("", "")
            st.add_row(str(pairs[i][0]), str(pairs[i][1]), str(right[0]), str(right[1]))
    else:
        for s, left in pairs:
            st.add_row(str(s), str(left))
    console.print(st)
    rt = Table(title=f"Bishop's intervention (FF-6): die + conviction points >= "
                     f"{rules.param(P_REVOLT_SUCCESS)} ends the revolt")
    for c in ("method", "écus spent", "points", "P(success)", "95% interval", "P(stoned)"):
        rt.add_column(c, justify="right")
    for row in revolt.iter_rows(named=True):
        rt.add_row(row["method"], f"{row['ecus']:,}", str(row["conviction_points"]),
                   f"{row['p_success']:.4f}", f"{row['p_success_lo']:.4f} – {row['p_success_hi']:.4f}",
                   f"{row['p_bishop_stoned']:.4f}")
    console.print(rt)
    console.print(f"wrote {path}")
