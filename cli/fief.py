"""``balance fief-odds`` and ``balance fief-calamity``: Fief combat odds grids, break-even tables,
heat maps (FF-7), plague and revolt tables (FF-5, FF-6).

A thin shell over :func:`simcore.games.fief.odds.fief_odds` and
:func:`simcore.games.fief.calamity.fief_calamity`; bad input raises
:class:`simcore.errors.UsageError` (one line, exit code 2).

May import typer and, lazily inside the commands, :mod:`simcore.games.fief`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


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
        out: Optional[Path] = typer.Option(None, "--out", help="Output directory (default runs/fief-odds-<time>)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Numba threads (results do not depend on it)."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
    ) -> None:
        """Combat odds over a grid of attacker x defender points: odds.csv/.parquet, heat maps of
        P(attacker wins) per terrain, and a break-even table (FF-7)."""
        from simcore.games.fief.odds import fief_odds
        from simcore.rundir import default_run_dir

        fief_odds(attackers=attackers, defenders=defenders, terrain=terrain, darc=darc,
                  method=method, games=games, seed=seed, rules_path=rules,
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
        out: Optional[Path] = typer.Option(None, "--out", help="Output directory (default runs/fief-calamity-<time>)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Numba threads."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing."),
    ) -> None:
        """Plague survivor distributions (FF-5) and the bishop's odds against écus spent (FF-6)."""
        from simcore.games.fief.calamity import fief_calamity
        from simcore.rundir import default_run_dir

        fief_calamity(soldiers=soldiers, lords=lords, max_ecus=max_ecus, method=method,
                      games=games, seed=seed, rules_path=rules,
                      out=out or default_run_dir("fief-calamity"), force=force, threads=threads,
                      quiet=quiet)
