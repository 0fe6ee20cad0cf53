"""What a tune says beyond its verdict: how the search reached the candidate it confirmed, which
seats a per-seat setting gives to, how each seat's win share moves from the start rules to the
tuned ones, and which other trials were as good as the best.

* :func:`trial_outcome` — a trial's target on the search's games in one word, met / missed /
  unclear (:func:`analysis.tune.targets.outcome`), from ``trials.csv`` (its ``outcome`` column, or,
  for a log written before it, the objective's interval when the tune has one target: the
  objective is then the largest column distance over the tolerance, so its interval lies below 1
  exactly when every column's interval lies inside the tolerance, and above 1 exactly when one
  lies wholly outside it).
* :func:`search_path` — the sentence that says whether the confirmed candidate met the target on
  the search's games or was confirmed although none had (the search stops at a candidate met
  within a margin; when none is, it still confirms the best full-budget one: docs/sweep.md).
* :func:`seat_of` — the seat a per-seat setting's index names (``setup.start_coins[0]`` is seat
  1's: MA-1, MV-2; Seigneurial's ``resources.start_cards[0]`` is seat 2's, as its spec's
  ``seat_lists`` says), or None.
* :func:`is_start_rules` — whether the best candidate is the rules the tune started from, by value
  (its settings against :func:`start_settings`: the base rules with the tune's own ``--set``):
  the tune then plays no start rules and its page shows no change from them.
* :func:`seat_response` — every seat's win share under the start rules and the tuned rules on the
  *same* fresh games (the confirmation's), and the paired change with intervals simultaneous over
  the seats (max-|t| from the joint covariance of the per-game differences,
  :func:`analysis.stats.simultaneous`), worded by size (:func:`analysis.stats.practical`).
* :func:`cell_response` — over a panel, every cell's target metrics under the start rules and the
  tuned rules on that cell's confirmation games, paired, one family over every cell and metric
  (Holm for which changes are clear, Bonferroni intervals for their sizes); where the panel
  before/after of the same runs can be read alike, :func:`analysis.tune.search.before_after_family`
  then judges them in that page's family instead (review s59 rv235 #1).
* :func:`reworded_seats`, :func:`reworded_cells` — the same changes worded against another
  smallest difference that matters (a report's ``--smallest-difference``), on the stored intervals.
* :func:`as_good_as_best` — the full-budget trials whose own objective estimate meets the target
  and whose difference from the best is not shown worse (paired game by game on the search's games
  where the tune recorded it, result.json ``as_good``; else from the two trials' own intervals,
  unpaired, and said so), so the settings that may work as well.

* :func:`adopt_advice` — what to do with the answer (the terminal's follow-up and the page's
  sentence after the verdict): check a met or undecided fix as play gets stronger; for a fix that
  missed, say there is none to adopt and how far the closest candidate was (:func:`how_far`);
  then the cautions result.json carries (:func:`analysis.start_coins.start_coins_caution`, the
  one decision every page about start coins shares: Middle-Ages start coins tuned with heuristic
  bots measure the bots' openings as much as the coins).

Reads files' contents and per-game samples only; plays nothing (reports use it). May import numpy,
polars, the standard library, :mod:`analysis.stats`, :mod:`analysis.rules_diff` (flatten, value
text), :mod:`analysis.tune.targets`, :mod:`analysis.sweep.grammar` (per-seat lists),
:mod:`analysis.start_coins` (the start-coins caution) and :mod:`simcore.config` / :mod:`simcore.errors`
(``--set``; a recorded rules text read by ``toml_loads``).
"""

from __future__ import annotations

import copy
import re
import tomllib
from functools import lru_cache
from pathlib import Path

import numpy as np
import polars as pl

from analysis import stats
from analysis.rules_diff import flatten, value_text
from analysis.start_coins import IN_TUNE_DIR, START_COINS_GAMES, start_coins_caution  # noqa: F401  (API)
from analysis.sweep.grammar import SEAT_LISTS, seat_index
from analysis.tune.targets import cell_outcome, pp_digits, signed
from simcore.config import parse_setting, set_in, toml_loads
from simcore.errors import UsageError


WORDS = {"met": "met", "missed": "not met", "unclear": "unclear"}

#: a seat's change whose interval holds 0, in result.json as on the page
WITHIN_NOISE = "within noise"


def objective_text(x) -> str:
    """An objective as every page and terminal line prints it (review M #12: the same trial read
    "objective 4.77" in the verdict and "4.78" in the tables): the value as trials.csv keeps it (6
    significant digits, so 4.774999999999999 in result.json and 4.775 in trials.csv are one
    number), then 2 decimals."""
    return f"{float(f'{float(x):.6g}'):.2f}"


def trial_outcome(row: dict, n_targets: int) -> str:
    """A trial's target on the search's games: "met", "missed", "unclear", or "" (a trial not played
    to the last rung has none). See the module docstring."""
    if str(row.get("state", "")) != "complete":
        return ""
    said = row.get("outcome")
    if said not in (None, ""):
        return str(said)
    met = str(row.get("met", "")).lower() == "true"
    if met:
        return "met"
    try:
        low = float(row.get("low"))
    except (TypeError, ValueError):
        return "missed"
    if n_targets != 1:
        return "missed"     # an old log of several targets: the sum's interval cannot tell them apart
    return "missed" if low > 1.0 else "unclear"


def search_path(result: dict, search_games: int | None = None, aggregate: str | None = None) -> str:
    """How the confirmed candidate was chosen, in one sentence: met on the search's games, or, when
    no trial was shown to meet the target there, the best of them confirmed anyway. "" when the
    result does not say (an old result.json without the search's figures)."""
    s = result.get("search") or {}
    if not s or s.get("met") is None:
        return ""
    trial, games = result.get("best_trial"), s.get("games") or search_games
    fresh = (result.get("confirm") or {}).get("games")
    on = f"the search's {games:,} games" if games else "the search's games"
    if s.get("met"):
        return (f"Trial {trial} met the target on {on} and was confirmed on the {fresh:,} fresh "
                "games the verdict reads.")
    word = s.get("outcome") or ("missed" if (s.get("low") or 0) > 1.0 else "unclear")
    # over a panel with --aggregate mean the objective is the cells' weighted mean, while the
    # target is met only where every cell is: a mean under 1 beside "not met" (review s52 tune #1)
    mean = ("; with --aggregate mean that is the cells' weighted mean, and the target is met only "
            "when every cell is within its tolerance" if aggregate == "mean" else "")
    return (f"No candidate was shown to meet the target on {on}; the best, trial {trial} "
            f"({WORDS.get(word, word)} there: objective {objective_text(s['objective'])}, "
            f"{objective_text(s['low'])} to {objective_text(s['high'])}, in units of the "
            f"tolerance: 1 at its edge{mean}), was confirmed on the "
            f"{fresh:,} fresh games the "
            "verdict reads.")


def confirmed_outcome(result: dict) -> str:
    """The confirmation's verdict in one word: "met", "missed" (some cell or metric shown outside
    the tolerance) or "unclear" (none shown outside it, but not every one shown inside)."""
    if result.get("met"):
        return "met"
    confirm = result.get("confirm") or {}
    cells = confirm.get("cells") or []
    said = [c.get("outcome") or cell_outcome(c.get("targets") or []) for c in cells] if cells else \
        [confirm.get("outcome") or cell_outcome(confirm.get("targets") or [])]
    return "missed" if "missed" in said else "unclear"


def _furthest(result: dict) -> tuple[str, dict | None]:
    """The confirmation's cell furthest from the target (its label, "" for one line-up) and that
    cell's judgement (``objective``, ``targets``)."""
    confirm = result.get("confirm") or {}
    cells = confirm.get("cells") or []
    if len(cells) > 1:
        c = max(cells, key=lambda c: float(c.get("objective") or 0.0))
        return str(c.get("label") or ""), c
    return "", confirm if confirm.get("targets") is not None else None


def _metric_name(metric: str) -> str:
    for head, name in (("seat_win_share_", "seat {} win share"), ("role_win_share_", "the {} side's win share"),
                       ("strategy_win_share_", "{}'s win share")):
        if metric.startswith(head):
            x = metric.removeprefix(head)
            return name.format(x.title() if head == "role_win_share_" else x)
    return "mean game length" if metric == "game_length" else metric.replace("_", " ")


def _band_words(m: dict, target: dict | None, players: int | None) -> str:
    """A share's or a length's estimate against the target's band, and how far outside it lies:
    "0.3% (0.2 to 0.4) against the band 20.0 to 40.0%: 19.7 pp below it"; "" when the band is not
    known (``target``: tune.json's target, :meth:`analysis.tune.targets.Target.to_json`)."""
    if not target:
        return ""
    kind, tol = target.get("kind"), float(target.get("tol") or 0.0)
    est, lo, hi = float(m["estimate"]), float(m["low"]), float(m["high"])
    if kind == "length":
        a, b, scale, unit, gap = float(target["lo"]), float(target["hi"]), 1.0, " turns", "turns"
    elif kind == "role":
        a, b, scale, unit, gap = (float(target["aim"]) - tol, float(target["aim"]) + tol, 100.0, "%", "pp")
    elif kind == "seat-balance" and players:
        a, b, scale, unit, gap = 1.0 / players - tol, 1.0 / players + tol, 100.0, "%", "pp"
    else:
        return ""
    # the band at the decimals its tolerance and aim were typed with (review s46 #7: ± 1.25 pp
    # printed "23.8 to 26.2", not the band judged)
    d = 1 if kind == "length" else pp_digits(tol, *([float(target["aim"])] if kind == "role" else []))
    # the estimate and its interval with more decimals (up to 3 more) while the interval's ends
    # print alike without being so (review s52 tune #4: "0.0% (0.0 to 0.0)" for 0.00 to 0.04%)
    e = d
    while e < d + 3 and hi > lo and signed(scale * lo, e) == signed(scale * hi, e):
        e += 1
    text = (f"{signed(scale * est, e)}{unit} ({signed(scale * lo, e)} to {signed(scale * hi, e)}) "
            f"against the band {signed(scale * a, d)} to {signed(scale * b, d)}{unit}")

    def shown(x: float, k: int) -> float:       # a number as the text above prints it
        return float(signed(scale * x, k).replace("\u2212", "-"))

    # the distance between the estimate and the band's edge as printed, at the estimate's decimals
    # (session 56: "0.2% … against the band 20.0 to 40.0%: 19.7 pp below it" for 0.25%)
    if est < a:
        text += f": {round(shown(a, d) - shown(est, e), e):.{e}f} {gap} below it"
    elif est > b:
        text += f": {round(shown(est, e) - shown(b, d), e):.{e}f} {gap} above it"
    return text


def how_far(result: dict, targets=None) -> str:
    """How far the confirmed candidate was from the target, in words: the furthest cell (over a
    panel), its objective (the distance from the target in units of its tolerance: 0 on target, 1
    at the tolerance's edge) and, for a target of one share or the game length, that metric's
    estimate and interval against the band, e.g. "furthest in 4p harsh-lord + 3×fair-share:
    objective 2.97 (…); the Seigneur side's win share 0.3% (0.2 to 0.4) against the band 20.0 to
    40.0%: 19.7 pp below it". ``targets``: tune.json's targets (for the band)."""
    where, j = _furthest(result)
    if j is None or j.get("objective") is None:
        return ""
    # the confirmation's objective, on its fresh games (review M #12: the search's objective of
    # the same trial is another number, on other games)
    fresh = (result.get("confirm") or {}).get("games")
    on = f"the {int(fresh):,} fresh games" if fresh else "the fresh games"
    obj = (f"objective {objective_text(j['objective'])} on {on}: the distance from the target in "
           "units of its tolerance, 0 on target, 1 at the tolerance's edge")
    band = ""
    parts = list(j.get("targets") or [])
    if parts:
        k = max(range(len(parts)), key=lambda i: float(parts[i].get("objective") or 0.0))
        metrics = parts[k].get("metrics") or []
        target = next((t for t in targets or [] if t.get("text") == parts[k].get("target")), None)
        players = j.get("players") or (result.get("confirm") or {}).get("players")
        if len(metrics) == 1:
            band = _band_words(metrics[0], target, players)
            band = f"{_metric_name(str(metrics[0].get('metric', '')))} was {band}" if band else ""
    at = f"furthest in {where}" if where else ""
    if band:
        return f"{at + ', where ' if at else ''}{band} ({obj})"
    return f"{at}: {obj}" if at else obj


def edge_suggestions(result: dict, varies) -> list[dict]:
    """The closest candidate's settings at an end of the range searched, each with the range beyond
    it to try: ``{"name", "side"`` ("low" or "high"), ``"at"`` (the value), ``"end"`` (the far end
    of the range suggested), ``"kind"``, ``"step"}``. ``varies``: tune.json's (numeric ranges:
    kind, lo, hi, step). Nothing below 0 is suggested (a count or a square has none)."""
    values = result.get("values") or {}
    out = []
    for v in varies or []:
        name, lo, hi = v.get("name"), v.get("lo"), v.get("hi")
        if name not in values or v.get("kind") not in ("int", "float") or lo is None or hi is None or lo == hi:
            continue
        x = values[name]
        width = hi - lo
        step = v.get("step") or (1 if v.get("kind") == "int" else width / 2)
        beyond = max(step, width / 2)
        if v.get("kind") == "int":
            beyond = int(round(beyond))
        if x == lo and lo != 0:           # (nothing below 0 for a count or a square)
            below = max(lo - beyond, 0) if lo > 0 else lo - beyond
            out.append({"name": name, "side": "low", "at": lo, "end": below, "kind": v.get("kind"),
                        "step": v.get("step")})
        elif x == hi:
            out.append({"name": name, "side": "high", "at": hi, "end": hi + beyond,
                        "kind": v.get("kind"), "step": v.get("step")})
    return out


def _num(a) -> str:
    """A value as a --vary range types it (an ASCII minus: the range is a command to copy)."""
    return f"{a:g}" if isinstance(a, float) else str(a)


def edge_words(result: dict, varies, tune: dict | None = None) -> str:
    """Which of the closest candidate's settings sit at an end of the range searched, with a range
    beyond it to try ("track.goal.4 = 6 is the lowest value searched: try --vary track.goal.4=3..6"),
    or '' (the designer review: a fix that missed, at the edge of its range, got only "widen the
    ranges"). ``varies``: tune.json's (numeric ranges: kind, lo, hi, step). When the tune put the
    suggested values through the game's loader (result.json ``edges``, :func:`edge_suggestions`
    checked by :func:`analysis.tune.search.edge_checks`: ``allowed``, the furthest value it takes
    towards the end, and ``refused``, the loader's line for the next one), the range stops where
    the rules do and the line says what stops it; a setting already at the rules' bound gets no
    range (review D #7: "try --vary track.start_square=3..5", and 5 was refused). ``tune``
    (tune.json) names a per-seat setting's seat: "setup.start_coins[0] (seat 1's) = 8 is …"."""
    checked = {(e.get("name"), e.get("side")): e for e in result.get("edges") or []}
    said = []
    for e in edge_suggestions(result, varies):
        name, side, at, end = e["name"], e["side"], e["at"], e["end"]
        who = name + _seat_words(name, tune)        # (the --vary range keeps the bare path)
        word = "lowest" if side == "low" else "highest"
        c = checked.get((name, side))
        if c is not None and c.get("refused"):
            allowed, why = c.get("allowed"), c["refused"]
            if allowed is None or allowed == at:
                said.append(f"{who} = {_num(at)} is the {word} value searched and the {word} the "
                            f"rules allow here ({why})")
                continue
            end = allowed
            rng = f"{_num(end)}..{_num(at)}" if side == "low" else f"{_num(at)}..{_num(end)}"
            said.append(f"{who} = {_num(at)} is the {word} value searched: try --vary {name}={rng} "
                        f"(as far as the rules allow: {why})")
            continue
        rng = f"{_num(end)}..{_num(at)}" if side == "low" else f"{_num(at)}..{_num(end)}"
        said.append(f"{who} = {_num(at)} is the {word} value searched: try --vary {name}={rng}")
    return "; ".join(said)


def adopt_advice(result: dict, has_search_bot: bool = True, cost: str = "",
                 commands_printed: bool = False, targets=None, varies=None,
                 tune_dir=None, tune: dict | None = None) -> list[str]:
    """What to do with the tune's answer, after its verdict, for the terminal and the page (review
    L #7): only a confirmed fix (target met) or an undecided one is worth checking as play gets
    stronger (the ``balance skill`` commands, ``cost`` their price in words); a fix that missed the
    target is no fix to adopt, and the sentence names the closest candidate and how far it was.
    ``has_search_bot``: the game has bots that search (else no skill check is advised).
    ``commands_printed``: the commands follow on the next line (the terminal) rather than having
    been printed by ``balance tune`` (the page). ``targets``: tune.json's (for :func:`how_far`).
    Every outcome is followed by result.json's cautions (:func:`cautions`: start coins tuned with
    heuristic bots, review s46 #10; ``tune_dir``: the tune's directory, to name its rules file).
    ``tune`` (tune.json) names each per-seat setting of the fix with its seat
    (:func:`settings_named`)."""
    return (_advice(result, has_search_bot, cost, commands_printed, targets, varies, tune)
            + cautions(result, tune_dir))


def _players_found(result: dict) -> str:
    """``players=N`` when the tune's best trial chose a player count (``--vary players``), else ''."""
    values = result.get("best_values") or result.get("values") or {}
    n = values.get("players") if isinstance(values, dict) else None
    return f"players={n}" if n is not None else ""


def _advice(result: dict, has_search_bot: bool, cost: str, commands_printed: bool, targets,
            varies, tune: dict | None = None) -> list[str]:
    """:func:`adopt_advice` without the cautions."""
    confirm = result.get("confirm") or {}
    cells = confirm.get("cells") or []
    who = (f"the {len(cells)} cells of its panel" if len(cells) > 1 else
           confirm.get("label") or "its line-up")
    said = confirmed_outcome(result)
    trial = result.get("best_trial")
    # a tune of the player count alone has no rules settings: its fix is the count (review s52
    # tune #5: "trial 2 (the settings found)")
    settings = (", ".join(settings_named(result.get("settings"), tune)) or _players_found(result)
                or "the settings found")
    if said == "missed":
        n_met, n = confirm.get("met_cells"), len(cells)
        # a panel's cells that read none of the settings were left out (session 63): the count is
        # of the cells where they are read, and says so, as the verdict does
        where = " where the settings are read" if result.get("not_read") else ""
        held = (f" (met in {n_met} of {n} cells{where}; a fix must meet it in every cell{where})"
                if len(cells) > 1 and n_met else "")
        far = how_far(result, targets)
        edge = edge_words(result, varies, tune)
        return [f"No fix to adopt: the target was not met{held}. The closest candidate on the "
                f"search's games, trial {trial} ({settings}), missed it on the fresh games"
                + (f"; {far}" if far else "") + ". "
                + (f"It sits at the edge of the search: {edge}"
                   + ("" if result.get("edges") is not None else
                      " (a setting may not be valid there: the tune refuses such values in one line)")
                   + ". Or v" if edge else "W")
                + ("ary other settings or loosen the target and tune again" if edge else
                   "iden the --vary ranges, vary other settings or loosen the target and tune again")
                + "; there is no fix to check as play gets stronger."]
    if result.get("unchanged"):
        # (review s48 tune #2: the rules it started from, checked against themselves)
        return ["The best candidate is the rules the tune started from: there is no fix to adopt, "
                "and no change to check as play gets stronger."]
    if not has_search_bot:
        return []
    run = ("run the two balance skill commands below" if commands_printed else
           "run the two balance skill commands balance tune printed")
    what = (" (the search bot at growing budgets, the fix against the rules it started from, with "
            "this target)")
    price = f": {cost}" if cost else ""
    if said == "unclear":
        return [f"Undecided: the confirmation cannot tell whether trial {trial}'s fix ({settings}) "
                f"meets the target (an interval straddles the band's edge; more --confirm-games "
                f"would tell). Tuned with {who} only, bots that do not search: if you take it "
                f"further, {run}{what} to see whether it holds as play gets stronger{price}."]
    return [f"Tuned and confirmed with {who} only, bots that do not search: before adopting the "
            f"fix, {run}{what}; stronger play can undo a fix (docs/sweep.md){price}."]


def cautions(result: dict, tune_dir=None) -> list[str]:
    """The cautions result.json carries (:func:`start_coins_caution`), one line each; with
    ``tune_dir``, the tune's rules file named by its path (a command to paste as it is)."""
    out = [str(x) for x in result.get("cautions") or [] if x]
    if tune_dir is None:
        return out
    path = str(Path(tune_dir) / "best_rules.toml")
    return [x.replace(IN_TUNE_DIR, "").replace("--rules best_rules.toml", f"--rules {path}")
            for x in out]


def panel_outcome(judged) -> str:
    """The outcome over a trial's cells (judgements with ``parts``): met when met in every cell,
    missed when missed in some cell, else unclear (:func:`analysis.tune.targets.cell_outcome`)."""
    words = [cell_outcome(j.parts) for j in judged]
    if all(w == "met" for w in words):
        return "met"
    return "missed" if "missed" in words else "unclear"


def base_value(base: dict, name: str):
    """The value at ``PATH[k]``'s PATH (or at PATH) in nested rules ``base`` (a parsed TOML), or
    None."""
    path = re.sub(r"\[\d+\]$", "", name)
    node = base
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def seat_of(name: str, base=None, game=None) -> int | None:
    """The 0-based seat a setting ``PATH[k]`` names when PATH is a per-seat list (declared in the
    game's spec ``seat_lists``, one of :data:`SEAT_LISTS`, or a single number in the base rules,
    which an index turns into one); None otherwise. ``game`` (a name, as tune.json and sweep.json
    record it, or a spec) says where the list starts: Seigneurial's ``resources.start_cards[2]`` is
    seat 4's (entry [0] is the first Censitaire's, seat 2: SG-1); without it, entry [0] is seat
    1's (:func:`analysis.sweep.grammar.seat_index`)."""
    return seat_index(name, base, game)


def seat_named(name: str, tune: dict) -> str:
    """A tuned setting as a designer reads it: a per-seat one with its seat (:func:`seat_of`:
    "setup.start_coins[0] (seat 1's)"), any other as it is; ``tune`` is tune.json (its game and
    the rules it started from)."""
    return name + _seat_words(name, tune)


def _seat_words(name: str, tune: dict | None) -> str:
    """" (seat 1's)" after a per-seat setting of the tune (:func:`seat_of`), else ''."""
    if not tune:
        return ""
    try:
        base = toml_loads(tune.get("rules_text") or "")        # (nested too deeply: session 63)
    except tomllib.TOMLDecodeError:
        base = {}
    k = seat_of(name, base_value(base, name), tune.get("game"))
    return f" (seat {k + 1}'s)" if k is not None else ""


def settings_named(settings, tune: dict | None) -> list[str]:
    """Settings as ``--set`` takes them ("setup.start_coins[0]=1", result.json ``settings``), each
    per-seat one with its seat after it, as the verdict's headline and best_rules.toml's first line
    name them (:meth:`analysis.tune.search.TunePlan.seat_label`): "setup.start_coins[0]=1 (seat
    1's)" (helper 234 #2: the advice after the verdict read "trial 6's fix
    (setup.start_coins[0]=1, setup.start_coins[2]=3)"). ``tune``: tune.json; None leaves them."""
    out = []
    for text in settings or []:
        name, eq, _ = str(text).partition("=")
        out.append(str(text) + (_seat_words(name.strip(), tune) if eq else ""))
    return out


def start_settings(tune: dict, players: int | None = None) -> dict:
    """The rules a tune started from, flattened (dotted path → value,
    :func:`analysis.rules_diff.flatten`): tune.json ``rules_text`` with the tune's own ``--set``
    (``settings``) applied as the runner applies them (:func:`simcore.config.set_in`: an index into
    a single number makes it a per-seat list of ``players`` values, else of tune.json's); {} when
    the text is not TOML. A ``--set`` that does not apply is kept as typed, under its own name.
    Read once per rules text, settings and seats (the tune and its page ask for every candidate
    and section); each caller gets its own copy."""
    seats = players if players is not None else tune.get("players")
    return copy.deepcopy(_start_settings(tune.get("rules_text") or "",
                                         tuple(str(x) for x in tune.get("settings") or ()),
                                         seats if isinstance(seats, int) else None))


@lru_cache(maxsize=16)
def _start_settings(rules_text: str, settings: tuple[str, ...], seats: int | None) -> dict:
    try:
        data = toml_loads(rules_text)                          # (nested too deeply: session 63)
    except tomllib.TOMLDecodeError:
        return {}
    typed = {}
    for text in settings:                           # --set given to the tune itself
        try:
            st = parse_setting(text)
            set_in(data, st.path, st.value, seats=seats)
        except UsageError:
            k, _, v = text.partition("=")
            typed[k.strip()] = v.strip()
    return {**flatten(data), **typed}


def start_value(start: dict, name: str):
    """The start rules' value (:func:`start_settings`) of a tuned setting ``name``
    (``setup.start_coins[0]`` indexes a per-seat list; a single number stands for every seat);
    None when they do not give it (``players``, a key left to the game's default)."""
    m = re.fullmatch(r"(.+)\[(\d+)\]", name)
    key, idx = (m.group(1), int(m.group(2))) if m else (name, None)
    v = start.get(key)
    if idx is not None and isinstance(v, list):
        return v[idx] if idx < len(v) else None
    return v


def same_value(before, after) -> bool:
    """Whether two values of a setting are the same setting: numbers by value (``8`` and ``8.0``,
    a tuned float range's ``8.0`` against the rules' ``8``), anything else as written in TOML."""
    try:
        return float(before) == float(after)
    except (TypeError, ValueError):
        return value_text(before) == value_text(after)


def is_start_rules(tune: dict, result: dict | None, players: int | None = None) -> bool:
    """Whether a tune's best candidate (result.json ``values``) is the rules it started from
    (review M #12), by value, not by text: every setting it tunes at its value in the base rules
    with the tune's own ``--set`` (:func:`start_settings`, :func:`start_value`, :func:`same_value`);
    a candidate rules text that writes them otherwise (``8.0`` for ``8``, a single number made a
    per-seat list of it, the ``--set`` comment lines) is still the start rules. A player count
    varied, or a value the base rules do not give: not known to be, False. The one test the tune
    (whether to play the start rules beside the confirmation: :mod:`analysis.tune.search`) and its
    page (whether there is a change from them to show) both use."""
    values = (result or {}).get("values") or {}
    if not values:
        return False
    if players is None:
        players = ((result or {}).get("confirm") or {}).get("players")
    start = start_settings(tune, players if isinstance(players, int) else None)
    for name, after in values.items():
        before = start_value(start, name)
        if before is None or not same_value(before, after):
            return False
    return True


def seat_response(start: np.ndarray, tuned: np.ndarray, smallest: float = 0.01,
                  level: float = stats.LEVEL) -> list[dict]:
    """Per seat: win share under the start rules and the tuned rules on the same games (per-game
    win shares, games × seats, game k of both the same deal), the paired change with its interval
    simultaneous over the seats, and its words against ``smallest`` (a fraction)."""
    start, tuned = np.asarray(start, float), np.asarray(tuned, float)
    if start.shape != tuned.shape:
        raise ValueError(f"start {start.shape} and tuned {tuned.shape}: not the same games")
    mean, cov = stats.mean_cov(tuned - start)
    return seat_response_from_moments(start.mean(axis=0), tuned.mean(axis=0), mean, cov, smallest,
                                      level, units=start.shape[0])


def seat_response_from_moments(start_mean, tuned_mean, mean, cov, smallest: float = 0.01,
                               level: float = stats.LEVEL, units: int | None = None) -> list[dict]:
    """:func:`seat_response` from the seats' mean shares under both rules, the mean per-game
    change and the covariance of that mean (a tune's confirmation without rows: from exact sums).
    A seat whose win share no game (no deal) of the ``units`` changes (its change 0 with no
    variance) gets the games' bound on its change, ±:func:`analysis.stats.same_games_bound`, as a
    before/after and a sweep page bound it (session 62), not the point 0 to 0 that
    :func:`analysis.stats.simultaneous` gives it; ``same_games`` says so (None elsewhere)."""
    low, high, _ = stats.simultaneous(mean, cov, level)
    mean = np.atleast_1d(np.asarray(mean, dtype=float))
    unmoved = ((np.diag(np.atleast_2d(cov)) == 0) & (mean == 0)) if units else np.zeros(mean.size, bool)
    if unmoved.any():
        bound = stats.same_games_bound(int(units), level)
        low, high = np.where(unmoved, -bound, low), np.where(unmoved, bound, high)
    # the page's vocabulary (revD #14, revF #12): a change whose interval holds 0 is "within
    # noise" here too, not analysis.stats' "not shown" (which means "left out of the headlines")
    words = [WITHIN_NOISE if w == stats.NOT_SHOWN else w
             for w in stats.practical(mean, low, high, smallest)]
    return [{"seat": k + 1, "start": float(start_mean[k]), "tuned": float(tuned_mean[k]),
             "change": float(mean[k]), "low": float(low[k]), "high": float(high[k]),
             "verdict": str(words[k]), "same_games": int(units) if unmoved[k] else None}
            for k in range(len(mean))]


#: result.json ``start_cells.intervals``: what the family of a panel tune's start → tuned changes is
FAMILY_WORDS = ("paired game by game on each cell's confirmation games; one family over the {m} "
                "changes of every cell and target metric: Holm's step-down over their two-sided "
                "p-values says which are clear, their sizes read on Bonferroni intervals over the "
                "same {m} (each at 1 − {alpha:g}/{m})")


def cell_response(cells: list[dict], alpha: float = 0.05) -> list[dict]:
    """How each cell of a panel tune responds to the fix (review L #7): per cell (``cells``: dicts
    with ``metrics``, each metric's ``start``, ``tuned``, paired ``change`` = tuned − start and its
    standard error ``se`` from the per-game differences on the same games, and ``smallest``, the
    smallest difference that matters in its unit), every change judged in **one family over every
    cell and metric**, as :mod:`analysis.panel_compare` judges a panel's before/after: clear when
    Holm's step-down over the family's two-sided p-values rejects at ``alpha``
    (:func:`analysis.stats.holm`), worded by size on the Bonferroni interval over the same family
    (:func:`analysis.stats.practical_holm`, :func:`analysis.stats.bonferroni_interval`), so "moved in
    3 of 4 cells" holds for the whole table at once. Adds to each metric ``low``, ``high`` (its own
    95% interval, unadjusted), ``z``, ``p_value``, ``p_adjusted``, ``clear``, ``size_low``,
    ``size_high`` and ``verdict`` (the page's words: "within noise" for a change not clear); a
    metric with no variance (the same in every game under both rules) is left out of the family
    (no p-value) and within noise. Returns the cells (new dicts)."""
    flat = [(i, j) for i, c in enumerate(cells) for j in range(len(c["metrics"]))]
    get = lambda key: np.array([float(cells[i]["metrics"][j][key]) for i, j in flat])  # noqa: E731
    diff, se, small = get("change"), get("se"), get("smallest")
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(se > 0, diff / se, np.nan)
    live = np.isfinite(z)
    m = int(live.sum())
    p = np.where(live, stats.two_sided_p(np.nan_to_num(z, nan=0.0)), np.nan)
    padj = stats.holm(p)
    q = stats.z_quantile()
    size_low, size_high = stats.bonferroni_interval(diff, np.where(live, se, np.nan), alpha, m=m)
    words = stats.practical_holm(diff, z, small, alpha=alpha, se=se) if len(flat) else np.array([], str)
    out = [{**c, "metrics": [dict(x) for x in c["metrics"]]} for c in cells]
    for k, (i, j) in enumerate(flat):
        r = out[i]["metrics"][j]
        w = str(words[k])
        r.update({"low": float(diff[k] - q * se[k]), "high": float(diff[k] + q * se[k]),
                  "z": _finite(z[k]), "p_value": _finite(p[k]), "p_adjusted": _finite(padj[k]),
                  "clear": bool(np.nan_to_num(padj[k], nan=1.0) < alpha),
                  "size_low": _finite(size_low[k]), "size_high": _finite(size_high[k]),
                  "verdict": WITHIN_NOISE if w == stats.NOT_SHOWN else w})
    return out


def reworded_seats(start: dict, smallest: float) -> dict:
    """result.json ``start`` (:func:`seat_response_from_moments`) with every seat's change worded
    against ``smallest`` (a fraction: 0.04 = 4 pp) instead of the amount the tune wrote it with: a
    report's ``--smallest-difference`` (session 56 review #1). The intervals are the stored ones,
    simultaneous over the seats; only the words and ``smallest`` change. Returns a new dict."""
    seats = [dict(r) for r in start.get("seats") or []]
    if seats:
        words = stats.practical([r["change"] for r in seats], [r["low"] for r in seats],
                                [r["high"] for r in seats], smallest)
        for r, w in zip(seats, words):
            r["verdict"] = WITHIN_NOISE if w == stats.NOT_SHOWN else str(w)
    return {**start, "smallest": float(smallest), "seats": seats}


def reworded_cells(start_cells: dict, smallest: dict) -> dict:
    """result.json ``start_cells`` (:func:`cell_response`) with every change worded against the
    smallest differences ``smallest`` gives (by kind: ``share`` as a fraction, ``length`` in turns;
    a kind it does not give keeps the tune's): a report's ``--smallest-difference`` (session 56
    review #1). Which changes are clear (Holm over the family) and their Bonferroni intervals are
    the stored ones; a change stored without its interval keeps its words. Returns a new dict."""
    own = start_cells.get("smallest")
    own = dict(own) if isinstance(own, dict) else ({"share": float(own)} if own is not None else {})
    small = {**own, **{k: float(v) for k, v in (smallest or {}).items() if k in ("share", "length")}}
    cells = []
    for c in start_cells.get("cells") or []:
        metrics = []
        for m in c.get("metrics") or []:
            m = dict(m)
            kind = "share" if "share" in m["metric"] else "length"
            if kind in small:
                m["smallest"] = small[kind]
                if m.get("size_low") is not None and m.get("size_high") is not None:
                    w = stats.practical(m["change"], m["size_low"], m["size_high"], small[kind],
                                        clear=bool(m.get("clear")))
                    m["verdict"] = WITHIN_NOISE if w == stats.NOT_SHOWN else str(w)
            metrics.append(m)
        cells.append({**c, "metrics": metrics})
    return {**start_cells, "smallest": small, "cells": cells}


def _finite(x) -> float | None:
    """A number for result.json: None for NaN or ±inf (JSON has neither)."""
    x = float(x)
    return x if np.isfinite(x) else None


def as_good_as_best(trials: pl.DataFrame, best: int, paired: dict | None = None,
                    meeting_target: bool = True) -> pl.DataFrame:
    """The full-budget trials (complete, the most games) that may work as well as the best (revF
    #3): the trial's *own* objective estimate meets the target (≤ 1: every metric within the
    tolerance), and its difference from the best's objective is not shown positive — its 95%
    interval reaches 0 or below.

    The difference is paired game by game when ``paired`` (result.json ``as_good``: trial number
    → its difference, low, high, from :func:`analysis.tune.targets.race_bounds` on the search's
    games, which every full-budget trial plays, the same seed) has the trial; otherwise unpaired,
    from the two trials' own 95% intervals (low − best's high to high − best's low: at least 90%
    by Bonferroni, wider than paired), and the ``paired`` column says so. The best first (always,
    with difference 0), then by objective; columns ``difference``, ``diff_low``, ``diff_high``,
    ``paired`` added. ``meeting_target=False``: the trials not shown worse than the best whatever
    their own estimate (when none meets the target, what these games cannot tell apart from the
    best: review V #3)."""
    cols = {"difference": pl.Float64, "diff_low": pl.Float64, "diff_high": pl.Float64, "paired": pl.Boolean}
    if trials.height == 0 or "high" not in trials.columns:
        return trials.head(0).with_columns(*(pl.lit(None, t).alias(c) for c, t in cols.items()))
    games = pl.col("games").cast(pl.Int64, strict=False)
    full = trials.filter((pl.col("state") == "complete") & (games == games.max()))
    me = full.filter(pl.col("trial") == best)
    if me.height == 0:
        return full.head(0).with_columns(*(pl.lit(None, t).alias(c) for c, t in cols.items()))
    b_obj, b_lo, b_hi = (float(me[c].cast(pl.Float64)[0]) for c in ("objective", "low", "high"))
    paired = {int(k): v for k, v in (paired or {}).items()}
    rows = []
    for r in full.iter_rows(named=True):
        t = int(r["trial"])
        if t == best:
            rows.append((t, 0.0, 0.0, 0.0, True))
            continue
        try:
            obj, lo, hi = float(r["objective"]), float(r["low"]), float(r["high"])
        except (TypeError, ValueError):
            continue
        if meeting_target and not obj <= 1.0:            # its own estimate misses the target
            continue
        p = paired.get(t)
        if p is not None:
            rows.append((t, float(p["difference"]), float(p["low"]), float(p["high"]), True))
        else:
            rows.append((t, obj - b_obj, lo - b_hi, hi - b_lo, False))
    keep = [x for x in rows if x[2] <= 0.0]       # not shown worse than the best
    if not keep:
        return full.head(0).with_columns(*(pl.lit(None, t).alias(c) for c, t in cols.items()))
    extra = pl.DataFrame(keep, schema=[("trial", full["trial"].dtype), *cols.items()], orient="row")
    ok = full.join(extra, on="trial", how="inner")
    return ok.with_columns((pl.col("trial") != best).alias("_o"),
                           pl.col("objective").cast(pl.Float64, strict=False).alias("_v")
                           ).sort(["_o", "_v"]).drop("_o", "_v")


def tied_trials(trials: pl.DataFrame, result: dict) -> pl.DataFrame:
    """The full-budget trials, other than the best, that the search's games cannot tell from it,
    whatever their own estimate (:func:`as_good_as_best` with ``meeting_target=False``)."""
    best = int(result["best_trial"])
    return as_good_as_best(trials, best, (result.get("as_good") or {}).get("trials"),
                           meeting_target=False).filter(pl.col("trial") != best)


def tied_with_best(tune: dict, result: dict, trials: pl.DataFrame, most: int = 3) -> str:
    """" Trial 2 (setup.hand_size[1] = 7) cannot be told from trial 3 on the search's games …":
    the verdict names the trials the search's games cannot tell from the best (their difference's
    interval reaches 0), whether or not they meet the target, so that a designer does not take the
    best's settings for the only ones (review Z #8: trial 3 at 1.01 (0.52–1.50) was the fix
    everywhere, trial 2 at 1.03 (0.54–1.52), with another setting changed, only in a section
    below). '' when every other full-budget trial is shown worse."""
    if trials.height == 0 or result.get("best_trial") is None:
        return ""
    best = int(result["best_trial"])
    tied = tied_trials(trials, result)
    if tied.height == 0:
        return ""
    names = [v["name"] for v in tune["varies"]]
    base = start_settings(tune)
    # a per-seat setting with its seat, as the headline and the page name it (review s59 fx229
    # #4: "setup.start_coins[0] = 0" here beside "setup.start_coins[0]=1 (seat 1's)" there)
    named = {n: seat_named(n, tune) for n in names}

    # the tune's own --set holds for every trial: named with each (s37 #2)
    sets = tune.get("settings") or []
    held = f", with --set {', '.join(sets)}" if sets else ""

    top = trials.filter(pl.col("trial") == best)
    top = top.row(0, named=True) if top.height else {}

    def changed(r) -> str:
        # the settings the trial moves from the start rules, and those it keeps at the start value
        # where the best moves them (review s48 tune #7: trial 33 kept seat 4's coins at 0 while
        # the best gave 1, and the list read as if it had the best's)
        if all(same_value(start_value(base, n), r[n]) for n in names):
            return "the start rules" + held
        moved = []
        for n in names:
            if not same_value(start_value(base, n), r[n]):
                moved.append(f"{named[n]} = {r[n]}")
            elif n in top and not same_value(start_value(base, n), top[n]):
                moved.append(f"{named[n]} = {r[n]} (the start value)")
        return ", ".join(moved) + held

    listed = "; ".join(f"trial {int(r['trial'])} ({changed(r)}: objective "
                       f"{objective_text(float(r['objective']))})" for r in tied.head(most).iter_rows(named=True))
    more = f"; and {tied.height - most} more" if tied.height > most else ""
    one = tied.height == 1
    # how the difference was read: paired on the search's games, or (a trial the tune could not
    # play again) from the two trials' own intervals, wider (review s50 tune #1: neither was said)
    unpaired = int((~tied["paired"].fill_null(False)).sum())
    how = ("" if not unpaired else
           "; unpaired, read from the two trials' own intervals" if unpaired == tied.height else
           f"; {unpaired} of them unpaired, read from the two trials' own intervals")
    # where the page lists them: the section lists, beside a best within the target, the trials
    # within it too, else the first five (review s50 tune #1: "the page lists them" of 9, the
    # section listing 1)
    best_row = trials.filter(pl.col("trial") == best)
    best_met = best_row.height and float(best_row["objective"].cast(pl.Float64)[0]) <= 1.0
    shown = (int((tied["objective"].cast(pl.Float64) <= 1.0).sum()) if best_met
             else min(tied.height, 5))
    # the page has that section for a seat-balance target only (review s50 today #1: a role
    # target's verdict pointed at a section its page does not have)
    if "seat-balance" not in [t.get("kind") for t in tune.get("targets") or []]:
        shown = 0
    where = ("" if shown == 0 else
             f" (the page lists {'it' if one else 'them'} under 'Settings as good as the best')"
             if shown == tied.height else
             f" (the page lists the {shown} {'within the target' if best_met else 'first'} under "
             "'Settings as good as the best')")
    return (f" The search's games cannot tell trial {best} from {listed}{more} (the interval of "
            f"{'its' if one else 'each one’s'} difference from the best's objective reaches 0"
            f"{how}): {'it' if one else 'each'} may do as well{where}.")


__all__ = ["SEAT_LISTS", "seat_named", "settings_named", "adopt_advice", "cautions", "start_coins_caution", "edge_suggestions", "edge_words", "objective_text", "as_good_as_best", "cell_response", "confirmed_outcome", "how_far", "base_value", "panel_outcome", "search_path", "seat_of", "seat_response",
           "seat_response_from_moments", "trial_outcome", "start_settings", "start_value", "same_value",
           "is_start_rules", "tied_trials", "tied_with_best"]
