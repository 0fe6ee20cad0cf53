"""Médiévallons balance questions played for the report (the game-specific hook of ``build_report``).

The run directory answers what its own games can answer (seat advantage at its player count, game
length, end reasons, guild types: see :mod:`analysis.length`, :mod:`analysis.guilds`). The other
questions of issue #7 need games the run did not play: first-player advantage (MV-2: seat 0 plays
first) at every player count the rules allow (MV-1), the card ablation (MV-1 deck: the same games with
one copy of a type removed, a rules variant built by :func:`simcore.games.medievallons.rules.with_copies`),
and the 2-player best-of-3 match (MV-7) next to the single round. :func:`played_questions` plays them through
:mod:`simcore.games.medievallons.questions` with the baseline run's rules (rebuilt from run.json
``rules_text``), its seed and its strategy (the run's own when every seat uses the same non-playout
bot, else ``balanced``), and returns a :class:`Played`: one report section, its figures and the
tables to write as CSV under ``questions/`` in the report directory. Rates of those tables carry
standard errors; the report shows 95% intervals as ±1.96 SE.

May import polars, the standard library, :mod:`reports`, :mod:`analysis` and, lazily inside
:func:`played_questions`, :mod:`simcore.games.medievallons` and :mod:`strategies`.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import polars as pl

from analysis import stats
from analysis.guilds import card_name
from analysis.load import RunSet
from reports import figures as F
from reports.html import Section, num, pct, signed
from simcore.errors import UsageError

QUESTIONS_GAMES = 10_000          # per question and per rules variant: ~15 s for a 4-player run
SECTION_ID = "questions"
TITLE = "Balance questions (played for this report)"
FALLBACK_STRATEGY = "balanced"
_Z = stats.z_quantile()


@dataclass
class Played:
    """What the hook adds to a report: sections, figures by name, files by path under the report."""

    sections: list[Section]
    figures: dict = field(default_factory=dict)
    files: dict[str, pl.DataFrame | str] = field(default_factory=dict)


def applies(rs: RunSet) -> bool:
    return rs.game == "medievallons"


def _note(text: str) -> Played:
    return Played([Section(SECTION_ID, TITLE, text)])


def choose_strategy(meta: dict) -> tuple[str, str]:
    """(strategy to play, why, as a phrase for the section's intro)."""
    from strategies import medievallons as S

    names = [s for s in meta.get("strategies") or [] if isinstance(s, str)]
    if not names:
        return FALLBACK_STRATEGY, f"{FALLBACK_STRATEGY} bots at every seat (run.json names no strategies)"
    if len(set(names)) > 1:
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run mixes "
                                   f"{', '.join(dict.fromkeys(names))}; these questions need identical bots)")
    name = names[0]
    try:
        kind = S.lookup(name).kind
    except UsageError as exc:
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run's strategy {name} "
                                   f"cannot be loaded here: {exc})")
    if kind == "playout":
        return FALLBACK_STRATEGY, (f"{FALLBACK_STRATEGY} bots at every seat (the run's {name} is a playout "
                                   "bot, far too slow for this many games)")
    return name, f"{name} bots at every seat, as in the run"


def _ci(p: float, se: float) -> str:
    return f"{pct(p)}% ({pct(p - _Z * se)}–{pct(p + _Z * se)})"


def _pts(d: float, se: float) -> str:
    return f"{signed(100 * d)} points ({signed(100 * (d - _Z * se))} to {signed(100 * (d + _Z * se))})"


def first_player_sentences(fp: pl.DataFrame) -> list[str]:
    out = []
    for r in fp.filter(pl.col("seat") == 0).sort("players").iter_rows(named=True):
        verdict = "significant" if abs(r["z"]) > _Z else "within noise"
        out.append(f"{r['players']} players: Seat 1 (plays first) wins {_ci(r['win_share'], r['std_error'])} "
                   f"against a fair {pct(r['fair'])}%: {signed(100 * r['advantage'])} points, "
                   f"z = {num(r['z'], 1)}, {verdict}.")
    return out


def _ablation_rows(ct: pl.DataFrame) -> pl.DataFrame:
    if "delta_founders_win_share" not in ct.columns:
        return ct.clear()
    return ct.filter(pl.col("delta_founders_win_share").is_not_nan() & pl.col("z").is_not_nan()
                     & (pl.col("founded_share") >= 0.005))


def ablation_sentences(ct: pl.DataFrame) -> list[str]:
    d = _ablation_rows(ct)
    if d.height == 0:
        return []
    adj = stats.holm(stats.two_sided_p(d["z"].to_numpy()))
    k = int((np.nan_to_num(adj, nan=1.0) < 0.05).sum())
    out = [f"Removing one copy of a type changes its founders' win share significantly for {k} of "
           f"{d.height} types (Holm-adjusted, 5% family-wise)."]
    r = d.with_columns(pl.col("z").abs().alias("_a")).sort("_a", descending=True).row(0, named=True)
    name = card_name(r["card"])
    out.append(f"The largest change: with one {name} fewer ({r['copies_after']} copies), {name} founders "
               f"win {pct(r['founders_win_share_after'])}% instead of {pct(r['founders_win_share'])}%, "
               f"{_pts(r['delta_founders_win_share'], r['delta_std_error'])}, z = {num(r['z'])}.")
    r = d.with_columns(pl.col("delta_mean_turns").abs().alias("_a")).sort("_a", descending=True).row(
        0, named=True)
    lo = r["delta_mean_turns"] - _Z * r["delta_turns_std_error"]
    hi = r["delta_mean_turns"] + _Z * r["delta_turns_std_error"]
    out.append(f"Game length moves most when a {card_name(r['card'])} is removed: "
               f"{signed(r['delta_mean_turns'])} turns ({signed(lo)} to {signed(hi)}).")
    return out


def best_of_three_sentences(b3: pl.DataFrame) -> list[str]:
    return [f"2 players, {r['bot']} vs {r['opponent']}: "
            f"{_ci(r['single_round_win_rate'], r['single_std_error'])} of single rounds → "
            f"{_ci(r['match_win_rate'], r['match_std_error'])} of best-of-3 matches "
            f"({num(r['mean_rounds'])} rounds per match)."
            for r in b3.iter_rows(named=True)]


def _first_player_rows(fp: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "Players": fp["players"], "Seat": [f"Seat {s + 1}" for s in fp["seat"]], "Games": fp["games"],
        "Win share": [_ci(p, se) for p, se in zip(fp["win_share"], fp["std_error"])],
        "vs fair (points)": [signed(100 * a) for a in fp["advantage"]],
        "z": [num(z, 1) for z in fp["z"]]})


def _card_rows(ct: pl.DataFrame) -> pl.DataFrame:
    def ci(p, se):
        return "" if p is None or p != p or se is None or se != se else _ci(p, se)

    cols = {
        "Card type": [card_name(c) for c in ct["card"]],
        "Founded by": [f"{pct(s)}%" for s in ct["founded_share"]],
        "Founders' win share": [ci(p, se) for p, se in
                                zip(ct["founders_win_share"], ct["founders_std_error"])],
        "Others' win share": [f"{pct(p)}%" for p in ct["others_win_share"]]}
    if "delta_founders_win_share" in ct.columns:
        cols.update({
            "Copies after": ct["copies_after"],
            "Founded by, after": [f"{pct(s)}%" for s in ct["founded_share_after"]],
            "Founders' win share, after": ["" if p != p else f"{pct(p)}%"
                                           for p in ct["founders_win_share_after"]],
            "Change (points)": ["" if d != d or se != se else _pts(d, se)
                                for d, se in zip(ct["delta_founders_win_share"], ct["delta_std_error"])],
            "z": ["" if z != z else num(z) for z in ct["z"]],
            "Change of mean length (turns)": [f"{signed(d)} ± {num(_Z * se, 1)}" for d, se in
                                              zip(ct["delta_mean_turns"], ct["delta_turns_std_error"])]})
    return pl.DataFrame(cols)


def _best_of_three_rows(b3: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame({
        "Bot": b3["bot"], "Opponent": b3["opponent"], "Matches": b3["matches"],
        "One round": [_ci(p, se) for p, se in zip(b3["single_round_win_rate"], b3["single_std_error"])],
        "As first player": [f"{pct(p)}%" for p in b3["as_first_player"]],
        "As second player": [f"{pct(p)}%" for p in b3["as_second_player"]],
        "Best of 3": [_ci(p, se) for p, se in zip(b3["match_win_rate"], b3["match_std_error"])],
        "Rounds per match": [num(x) for x in b3["mean_rounds"]]})


def played_questions(rs: RunSet, games: int, progress: Callable[[str], None] | None = None) -> Played:
    """Play the questions for the baseline ``rs`` (``games`` per question and per rules variant)."""
    say = progress or (lambda _msg: None)
    meta = rs.metas[0]
    text = meta.get("rules_text")
    if not isinstance(text, str) or not text.strip():
        return _note(f"Not played: run.json of {rs.label} has no rules_text, so the rules of the run are "
                     "unknown. Runs written by `simulate --game medievallons` record them.")
    from analysis.questions import medievallons as Q
    from simcore.games.medievallons import rules as R

    rules_name = str(meta.get("rules_name") or "run.json rules_text")
    try:
        rules = R.loads(text, rules_name)
        R.check_players(rules, rs.n_players)
    except UsageError as exc:
        return _note(f"Not played: the run's rules do not load here ({exc}).")
    strategy, why = choose_strategy(meta)
    seed = int(meta.get("seed") or 0)
    P = rs.n_players
    counts = tuple(rules.allowed_players)
    t0 = time.perf_counter()
    parts = []
    for p in counts:
        say(f"Balance questions: first player at {p} players ({games:,} games)")
        parts.append(Q.first_player_advantage(games, players=(p,), strategy=strategy, seed=seed, rules=rules))
    tables: dict[str, pl.DataFrame] = {"first_player": pl.concat(parts)}
    variants = int((rules.copies > 0).sum())
    say(f"Balance questions: card ablation at {P} players ({variants + 1} decks × {games:,} games)")
    ablation_note = ""
    try:
        tables["card_types"] = Q.card_types(games, players=P, strategy=strategy, seed=seed, rules=rules)
    except UsageError as exc:
        ablation_note = (f" The card ablation was not played: a deck with one copy fewer does not load "
                         f"({exc}).")
        tables["card_types"] = Q.card_types(games, players=P, strategy=strategy, seed=seed, rules=rules,
                                            ablation=False)
    pairs = ()
    if 2 in counts:
        pairs = tuple(_default_pairs())
        say(f"Balance questions: best of 3 at 2 players ({len(pairs)} pairings × {games:,} matches)")
        tables["best_of_three"] = Q.best_of_three(games, seed=seed, rules=rules, pairs=pairs)
    elapsed = time.perf_counter() - t0

    files: dict[str, pl.DataFrame | str] = {f"questions/{k}.csv": v for k, v in tables.items()}
    files["questions/settings.json"] = json.dumps({
        "games": games, "strategy": strategy, "seed": seed, "player_counts": list(counts),
        "card_players": P, "pairs": [list(p) for p in pairs], "rules_name": rules_name,
        "rules_sha256": meta.get("rules_sha256"), "run": str(rs.paths[0]),
        "wall_time_s": round(elapsed, 2)}, indent=2) + "\n"
    csvs = ", ".join(f"questions/{k}.csv" for k in tables)
    names = list(meta.get("strategies") or [])
    same = bool(names) and set(names) == {strategy} and not meta.get("rotate_seats") and len(rs.paths) == 1
    replay = (f" (at {P} players, the same seed, rules and bots replay the run's first "
              f"{min(games, rs.n_games):,} games)" if same else "")
    intro = (
        f"Played now through the Médiévallons kernel, not read from the run: {games:,} games per question "
        f"and per rules variant ({elapsed:.1f} s), with {why}, the run's rules ({rules_name}) and its "
        f"seed {seed}{replay}. First-player advantage at every player count the rules allow "
        f"({', '.join(map(str, counts))}); the card ablation at the run's {P} players: for each card type "
        f"the same number of games with one copy of that type removed, and the change in its founders' "
        f"win share and in game length"
        + (f"; the 2-player best-of-3 match (first player alternating) next to the single round for "
           f"{', '.join(f'{a} vs {b}' for a, b in pairs)}" if pairs else
           "; no best-of-3 question: the rules do not allow 2 players")
        + f". Intervals are ±1.96 standard errors. Tables as CSV in this report's directory: {csvs} "
        f"(settings in questions/settings.json). To measure a deck change on full runs instead, "
        f"simulate a rules file with one copy fewer and give both runs to balance report: the "
        f"before/after section compares guild and length metrics. --questions-games 0 skips this "
        f"section." + ablation_note)
    sentences = first_player_sentences(tables["first_player"]) + ablation_sentences(tables["card_types"])
    if "best_of_three" in tables:
        sentences += best_of_three_sentences(tables["best_of_three"])
    figs: dict = {}
    for name, fig in (("questions_first_player", F.played_first_player(tables["first_player"])),
                      ("questions_ablation", F.played_ablation(tables["card_types"])),
                      ("questions_best_of_three", F.played_best_of_three(tables.get("best_of_three")))):
        if fig is not None:
            figs[name] = fig
    sec_tables = [("First-player advantage per player count", _first_player_rows(tables["first_player"])),
                  (f"Card types at {P} players, and with one copy removed", _card_rows(tables["card_types"]))]
    if "best_of_three" in tables:
        sec_tables.append(("2 players: one round vs best of 3", _best_of_three_rows(tables["best_of_three"])))
    return Played([Section(SECTION_ID, TITLE, intro, list(figs), sec_tables, sentences)], figs, files)


def _default_pairs():
    import inspect

    from analysis.questions import medievallons as Q

    return inspect.signature(Q.best_of_three).parameters["pairs"].default


def check_games(n) -> int:
    """``games`` for :func:`played_questions`: 0 skips, else a positive whole number (UsageError)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise UsageError(f"--questions-games {n}: must be 0 (skip the played questions) or a positive "
                         "whole number of games")
    return n
