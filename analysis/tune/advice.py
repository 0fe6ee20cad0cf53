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
  1's: MA-1, MV-2), or None.
* :func:`seat_response` — every seat's win share under the start rules and the tuned rules on the
  *same* fresh games (the confirmation's), and the paired change with intervals simultaneous over
  the seats (max-|t| from the joint covariance of the per-game differences,
  :func:`analysis.stats.simultaneous`), worded by size (:func:`analysis.stats.practical`).
* :func:`as_good_as_best` — the full-budget trials whose own objective estimate meets the target
  and whose difference from the best is not shown worse (paired game by game on the search's games
  where the tune recorded it, result.json ``as_good``; else from the two trials' own intervals,
  unpaired, and said so), so the settings that may work as well.

Reads files' contents and per-game samples only; plays nothing (reports use it). May import numpy,
polars, the standard library, :mod:`analysis.stats` and :mod:`analysis.tune.targets`.
"""

from __future__ import annotations

import re

import numpy as np
import polars as pl

from analysis import stats
from analysis.tune.targets import cell_outcome

#: the per-seat list settings (one value per seat, seat 1 first): Middle-Ages' start coins (MA-1)
#: and Médiévallons' hand size (MV-2). An index into a single number also makes a per-seat list
#: (:func:`simcore.runner.rules_source`).
SEAT_LISTS = ("setup.start_coins", "setup.hand_size")

WORDS = {"met": "met", "missed": "not met", "unclear": "unclear"}

#: a seat's change whose interval holds 0, in result.json as on the page
WITHIN_NOISE = "within noise"


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


def search_path(result: dict, search_games: int | None = None) -> str:
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
    return (f"No candidate was shown to meet the target on {on}; the best, trial {trial} "
            f"({WORDS.get(word, word)} there: objective {s['objective']:.2f}, "
            f"{s['low']:.2f} to {s['high']:.2f}), was confirmed on the {fresh:,} fresh games the "
            "verdict reads.")


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


def seat_of(name: str, base=None) -> int | None:
    """The 0-based seat a setting ``PATH[k]`` names when PATH is a per-seat list (:data:`SEAT_LISTS`,
    or a single number in the base rules, which an index turns into one); None otherwise."""
    m = re.fullmatch(r"(.+)\[(\d+)\]", name)
    if not m:
        return None
    path = m.group(1)
    if path in SEAT_LISTS or (base is not None and not isinstance(base, (list, dict, str))):
        return int(m.group(2))
    return None


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
                                      level)


def seat_response_from_moments(start_mean, tuned_mean, mean, cov, smallest: float = 0.01,
                               level: float = stats.LEVEL) -> list[dict]:
    """:func:`seat_response` from the seats' mean shares under both rules, the mean per-game
    change and the covariance of that mean (a tune's confirmation without rows: from exact sums)."""
    low, high, _ = stats.simultaneous(mean, cov, level)
    # the page's vocabulary (revD #14, revF #12): a change whose interval holds 0 is "within
    # noise" here too, not analysis.stats' "not shown" (which means "left out of the headlines")
    words = [WITHIN_NOISE if w == stats.NOT_SHOWN else w
             for w in stats.practical(mean, low, high, smallest)]
    return [{"seat": k + 1, "start": float(start_mean[k]), "tuned": float(tuned_mean[k]),
             "change": float(mean[k]), "low": float(low[k]), "high": float(high[k]),
             "verdict": str(words[k])} for k in range(len(mean))]


def as_good_as_best(trials: pl.DataFrame, best: int, paired: dict | None = None) -> pl.DataFrame:
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
    ``paired`` added."""
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
        if not obj <= 1.0:            # its own estimate misses the target
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


__all__ = ["SEAT_LISTS", "as_good_as_best", "base_value", "panel_outcome", "search_path", "seat_of", "seat_response",
           "seat_response_from_moments", "trial_outcome"]
