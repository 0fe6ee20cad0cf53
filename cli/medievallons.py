"""``balance medievallons-questions``: the Médiévallons balance questions as CSV tables.

A thin shell over :func:`analysis.questions.medievallons.all_questions` (every configuration played
by the runner): first-player advantage per player count, game length and end reasons, per card type
the founders' win share and the card ablation (one copy removed), and the 2-player best-of-3 match
next to the single round. Writes one CSV per table plus run.json into ``--out`` (atomically through
:func:`analysis.questions.write_dir`; an existing non-empty directory needs ``--force``, checked
before any game is played) and prints the tables; ``balance report --questions DIR`` reads that
directory. Bad input raises :class:`simcore.errors.UsageError`.

May import typer, rich and, lazily inside the command, :mod:`analysis.questions`,
:mod:`simcore.runner`, :mod:`simcore.rundir`, the Médiévallons rules module and
:mod:`strategies.medievallons` (to check the options before playing).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer

from simcore.errors import UsageError


def _int_list(text: str, option: str) -> tuple[int, ...]:
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise UsageError(f"{option} {text}: expected a comma list of numbers (e.g. 2,3,4,5)") from None
    if not values:
        raise UsageError(f"{option}: empty list")
    return values


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    pairs = []
    for item in text.split(","):
        a, sep, b = item.strip().partition(":")
        if not sep or not a or not b:
            raise UsageError(f"--pairs {text}: expected bot:opponent items, e.g. balanced:random")
        pairs.append((a, b))
    return tuple(pairs)


def register(app: typer.Typer) -> None:
    @app.command("medievallons-questions")
    def medievallons_questions(
        games: str = typer.Option("20000", "--games", "-n", help="Games per configuration (matches for best-of-3)."),
        out: Optional[Path] = typer.Option(None, "--out", "-o", help="Output directory (default runs/medievallons-questions-<time>)."),
        players: str = typer.Option("2,3,4,5", "--players", help="Player counts for the seat and length questions."),
        card_players: int = typer.Option(4, "--card-players", help="Player count of the card-type question."),
        strategy: str = typer.Option("balanced", "--strategy", "-s", help="Bot at every seat (a preset or a TOML file)."),
        pairs: str = typer.Option("balanced:collector,saboteur:balanced,balanced:random", "--pairs",
                                  help="Best-of-3 duels, bot:opponent items."),
        ablation: bool = typer.Option(True, "--ablation/--no-ablation", help="Also play the 13 one-copy-removed variants."),
        seed: int = typer.Option(0, "--seed", help="Seed: same seed and rules, same tables."),
        rules: Optional[Path] = typer.Option(None, "--rules", help="A rules TOML (default: the shipped rules)."),
        settings: Optional[List[str]] = typer.Option(None, "--set", help="Change one rule setting: "
                                                     "PATH=VALUE; repeatable."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Worker threads (default: all cores)."),
        force: bool = typer.Option(False, "--force", help="Replace a non-empty --out directory."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Print nothing but the output path."),
    ) -> None:
        """Médiévallons balance questions: first-player advantage, game length and end reasons,
        card types with ablation, best-of-3 vs single round. CSV tables + printed summary."""
        from rich.console import Console
        from rich.table import Table

        from analysis.questions import medievallons as Q
        from analysis.questions import write_dir
        from simcore import rundir, runner
        from simcore.atomic import input_paths
        from simcore.options import check_common
        from simcore.games.medievallons import rules as R
        from strategies import medievallons as S

        n = runner.parse_games(games)
        counts = _int_list(players, "--players")
        rule_set = R.load(runner.rules_source("medievallons", rules, settings, seats=max(counts))
                          if settings else rules)
        for p in counts:
            R.check_players(rule_set, p)
        try:
            R.check_players(rule_set, card_players)
        except UsageError as exc:
            raise UsageError(str(exc).replace("--players", "--card-players", 1)) from None
        check_common(seed=seed, threads=threads)
        duels = _pairs(pairs)
        for name in (strategy, *(x for pair in duels for x in pair)):
            S.lookup(name)
        target = rundir.check_output_dir(out or rundir.default_run_dir("medievallons-questions"), force, kind="questions",
                                         inputs=input_paths(rules, strategy, *(x for p in duels for x in p)))
        n_threads = runner.set_threads(threads)
        console = Console(quiet=quiet)
        t0 = time.perf_counter()
        with console.status("playing the Médiévallons questions…"):
            tables = Q.all_questions(n, players=counts, strategy=strategy, seed=seed, rules=rule_set,
                                     card_players=card_players, ablation=ablation, pairs=duels,
                                     threads=n_threads)
        path = write_dir(target, tables, {
            "game": "medievallons", "command": "medievallons-questions", "games": n,
            "players": list(counts), "card_players": card_players, "strategy": strategy,
            "pairs": [list(p) for p in duels], "ablation": ablation, "seed": seed,
            "threads": n_threads, "rules_name": rule_set.source.name,
            "rules_sha256": rule_set.source.sha256, "rules_text": rule_set.source.text,
            "wall_time_s": round(time.perf_counter() - t0, 3)}, force)
        for stem, df in tables.items():
            cols = [c for c in PRINTED.get(stem, df.columns) if c in df.columns]
            if not cols:
                continue
            t = Table(title=f"{stem}: {TITLES.get(stem, '')} ({stem}.csv)", title_justify="left")
            for c in cols:
                t.add_column(c.replace("_", " "), justify="left" if df[c].dtype == pl_string() else "right")
            for row in df.select(cols).iter_rows():
                t.add_row(*(_fmt(v) for v in row))
            console.print(t)
        if quiet:
            typer.echo(str(path))
        else:
            console.print(f"tables written to {path}")


PRINTED = {
    "first_player": ("players", "seat", "win_share", "std_error", "advantage", "z"),
    "game_length": ("players", "mean_turns", "std_error", "p05", "median", "p95",
                    "share_third_guild", "share_empty_pile", "share_truncated", "mean_reshuffles"),
    "length_distribution": (),
    "card_types": ("card", "founded_share", "founders_win_share", "founders_std_error",
                   "founders_win_share_after", "delta_founders_win_share", "delta_std_error", "z",
                   "delta_mean_turns"),
    "best_of_three": ("bot", "opponent", "single_round_win_rate", "single_std_error",
                      "match_win_rate", "match_std_error", "mean_rounds"),
}
TITLES = {
    "first_player": "win share per seat (column seat is 0-based: 0 is seat 1, which plays first; fair = 1/P)",
    "game_length": "turns per game and how games end",
    "length_distribution": "share of games per 10-turn bin (see the CSV)",
    "card_types": "players who founded a guild of the type, and with one copy removed",
    "best_of_three": "2 players: one round vs best of 3 rounds",
}


def pl_string():
    import polars as pl

    return pl.String


def _fmt(v) -> str:
    if isinstance(v, float):
        if v != v:
            return "—"
        return f"{v:.4f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)
