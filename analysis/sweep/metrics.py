"""Headline metrics of sweep variants, with intervals, and the paired effects of each parameter.

A variant's run directory is read into per-game samples (:func:`load_variant`): each seat's win
share, each strategy's and each role's win share where there are several, the winner's margin
(winner's score minus the runner-up's, in the game's score unit), the game length (turns, where the
game records it) and the event swing (the spread between the players' total event gains, where the
game records them). Every metric is a mean over games with a 95% interval (normal: a sweep variant
has thousands of games); the seat balance — the largest distance of a seat's win share from the
fair share 1/P — gets its interval from normal draws of the seat means with their covariance.

Because every variant of a sweep plays the same games (common random numbers), an effect of a
parameter is measured game by game (:func:`paired_effect`): the interval of a difference between two
variants is that of the mean of per-game differences, narrower than two independent intervals.
:func:`sensitivity` builds, per parameter, the curve of every metric against the parameter's value
(the other parameters at their first value) and the effect of moving it from its first to its last
value — what ``balance report SWEEP_DIR`` shows.

May import numpy, polars, pyarrow, the standard library, :mod:`simcore` (registry, rundir, errors)
and :mod:`analysis.sweep.store`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from simcore import games as registry
from simcore.errors import UsageError
from simcore.rundir import GAMES, PLAYERS, read_meta

from analysis.load import score_unit
from analysis.sweep.store import finished_variants, read_sweep, variant_dir

Z = 1.959963984540054
DRAWS = 4000


@dataclass(frozen=True)
class MetricInfo:
    key: str                      # seat_win_share_1, balance, winner_margin, game_length, …
    label: str                    # "seat 1's win share"
    unit: str                     # "pp" (shares, shown in percentage points) or the game's unit
    share: bool                   # a share (shown in %, differences in pp)


@dataclass
class VariantData:
    """Per-game samples of one variant (``samples[key]``: float64[games])."""

    path: Path
    meta: dict
    n_players: int
    samples: dict[str, np.ndarray]
    info: dict[str, MetricInfo]
    seat_wins: np.ndarray                       # float64[games, players]
    fair: float | None
    extra: dict = field(default_factory=dict)

    @property
    def n_games(self) -> int:
        return int(self.seat_wins.shape[0])


def load_variant(path: str | Path) -> VariantData:
    """Read a variant's run directory (needs players.parquet: a sweep keeps it)."""
    path = Path(path)
    meta = read_meta(path)
    if not (path / PLAYERS).is_file():
        raise UsageError(f"{path}: no {PLAYERS} (a sweep variant needs its player rows)")
    names = set(pq.read_schema(path / PLAYERS).names)
    cols = ["seat", "strategy", "win_share", "score",
            *sorted(c for c in names if c.startswith("event_gain_"))]
    players = pq.read_table(path / PLAYERS, columns=[c for c in cols if c in names])
    games = None
    if (path / GAMES).is_file() and "turns" in pq.read_schema(path / GAMES).names:
        games = pq.read_table(path / GAMES, columns=["turns"])
    return from_tables(meta["game"], int(meta["players"]), players, games, path=path, meta=meta)


def from_tables(game: str, n_players: int, players, games=None, *, path: Path | None = None,
                meta: dict | None = None) -> VariantData:
    """Per-game samples from a players table (and a games table): a run directory's or the
    in-memory tables of :func:`simcore.runner.collect`."""
    P = n_players
    spec = registry.specs().get(game)
    unit = score_unit(game)
    names = set(players.column_names)
    gain_cols = sorted(c for c in names if c.startswith("event_gain_"))
    t = players
    n = t.num_rows // P
    win = np.asarray(t["win_share"], np.float64).reshape(n, P)
    samples: dict[str, np.ndarray] = {}
    info: dict[str, MetricInfo] = {}

    def _role_display(spec, r):
        return next((x.display for x in spec.roles if x.name == r), r.title())

    def add(key, label, u, share, x):
        samples[key] = np.asarray(x, np.float64)
        info[key] = MetricInfo(key, label, u, share)

    roles = spec.seat_roles(P) if spec is not None and not spec.roles_alike else None
    for s in range(P):
        who = f"seat {s + 1}" + (f" ({_role_display(spec, roles[s])})" if roles else "")
        add(f"seat_win_share_{s + 1}", f"{who}'s win share", "pp", True, win[:, s])
    if roles:
        for r in dict.fromkeys(roles):
            mask = np.array([x == r for x in roles])
            display = next((x.display for x in spec.roles if x.name == r), r.title())
            side = f"the {display}'s" if mask.sum() == 1 else f"the {display}s'"
            add(f"role_win_share_{r}", f"{side} win share", "pp", True, win[:, mask].sum(axis=1))
    fair = 1.0 / P if spec is None or spec.roles_alike else None
    if "score" in names:
        score = np.asarray(t["score"], np.float64).reshape(n, P)
        top2 = -np.sort(-score, axis=1)[:, :2]
        add("winner_margin", "the winner's margin", unit, False, top2[:, 0] - top2[:, 1])
    if gain_cols:
        gains = sum(np.asarray(t[c], np.float64) for c in gain_cols).reshape(n, P)
        add("event_swing", "the event swing", unit, False, gains.max(axis=1) - gains.min(axis=1))
    if games is not None and "turns" in games.column_names:
        add("game_length", "the game length", "turns", False,
            np.asarray(games["turns"], np.float64))
    if "strategy" in names:
        strat = np.asarray(t["strategy"].to_numpy(zero_copy_only=False)).reshape(n, P)
        kinds = list(dict.fromkeys(strat.ravel().tolist()))
        if len(kinds) > 1:
            for k in kinds:
                mask = strat == k
                seats = mask.sum(axis=1)
                share = np.where(seats > 0, (win * mask).sum(axis=1) / np.maximum(seats, 1), np.nan)
                add(f"strategy_win_share_{k}", f"{k}'s win share (per seat it holds)", "pp", True,
                    share)
    return VariantData(path or Path("."), meta or {"game": game, "players": P}, P, samples, info,
                       win, fair)


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    x = x[~np.isnan(x)]
    n = x.size
    if n == 0:
        return (float("nan"),) * 3
    m = float(x.mean())
    half = Z * float(x.std(ddof=1)) / np.sqrt(n) if n > 1 else float("nan")
    return m, m - half, m + half


def _balance_draws(wins: list[np.ndarray], fairs: list[float], seed: int = 12345) -> np.ndarray:
    """Normal draws of the seat balance of each variant in ``wins`` (jointly, paired by game):
    float64[DRAWS, len(wins)]."""
    joint = np.concatenate(wins, axis=1)
    n = joint.shape[0]
    mean = joint.mean(axis=0)
    cov = np.cov(joint, rowvar=False) / n
    rng = np.random.default_rng(seed)
    d = rng.multivariate_normal(mean, np.atleast_2d(cov), size=DRAWS, method="eigh")
    out, k = [], 0
    for w, f in zip(wins, fairs):
        p = w.shape[1]
        out.append(np.abs(d[:, k:k + p] - f).max(axis=1))
        k += p
    return np.stack(out, axis=1)


def balance(v: VariantData) -> tuple[float, float, float] | None:
    """Seat balance: max over seats of |win share − 1/P|, with a 95% interval (None when the
    seats are not alike: asymmetric roles have no single fair share)."""
    if v.fair is None:
        return None
    est = float(np.abs(v.seat_wins.mean(axis=0) - v.fair).max())
    d = _balance_draws([v.seat_wins], [v.fair])[:, 0]
    return est, float(np.quantile(d, 0.025)), float(np.quantile(d, 0.975))


def seat_balance_met(v: VariantData, tolerance: float) -> bool:
    """Every seat's 95% interval lies within fair share ± ``tolerance``."""
    if v.fair is None:
        return False
    for s in range(v.n_players):
        _, lo, hi = mean_ci(v.seat_wins[:, s])
        if lo < v.fair - tolerance or hi > v.fair + tolerance:
            return False
    return True


BALANCE = MetricInfo("balance", "the seat balance (largest distance of a seat from the fair share)",
                     "pp", True)


def metric_table(v: VariantData) -> list[dict]:
    """Every headline metric of a variant: key, label, unit, estimate, low, high."""
    rows = []
    b = balance(v)
    if b is not None:
        rows.append({"metric": "balance", "label": BALANCE.label, "unit": "pp", "share": True,
                     "estimate": b[0], "low": b[1], "high": b[2]})
    for key, x in v.samples.items():
        m, lo, hi = mean_ci(x)
        i = v.info[key]
        rows.append({"metric": key, "label": i.label, "unit": i.unit, "share": i.share,
                     "estimate": m, "low": lo, "high": hi})
    return rows


def paired_effect(a: VariantData, b: VariantData, key: str) -> tuple[float, float, float] | None:
    """Metric ``key`` of ``b`` minus that of ``a``, measured game by game (common random numbers),
    with a 95% interval; None when either variant lacks the metric."""
    if a.n_games != b.n_games:
        return None
    if key == "balance":
        if a.fair is None or b.fair is None:
            return None
        est = balance(a)[0], balance(b)[0]
        d = _balance_draws([a.seat_wins, b.seat_wins], [a.fair, b.fair])
        diff = d[:, 1] - d[:, 0]
        # the draws' spread around their median, centred on the estimate (a max of |.| is biased
        # upwards in the draws; the shift keeps the estimate inside its interval)
        delta = est[1] - est[0]
        mid = float(np.median(diff))
        return (delta, delta + float(np.quantile(diff, 0.025)) - mid,
                delta + float(np.quantile(diff, 0.975)) - mid)
    if key not in a.samples or key not in b.samples:
        return None
    return mean_ci(b.samples[key] - a.samples[key])


@dataclass
class Sensitivity:
    """What a sweep says: ``variants`` (every metric of every variant), ``curves`` (per parameter,
    metric against value) and ``effects`` (per parameter and metric, first value → last value)."""

    sweep: dict
    variants: pl.DataFrame
    curves: pl.DataFrame
    effects: pl.DataFrame
    score_unit: str
    missing: list[str]


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def slices(sweep: dict) -> dict[str, list[dict]]:
    """Per parameter, the variants where only it moves (the others at their first value), in the
    order of its values."""
    varies = sweep["varies"]
    first = {v["name"]: v["values"][0] for v in varies}
    out: dict[str, list[dict]] = {}
    for v in varies:
        name = v["name"]
        chosen = []
        for value in v["values"]:
            for var in sweep["variants"]:
                vals = var["values"]
                if json_eq(vals[name], value) and all(json_eq(vals[o], first[o]) for o in first
                                                      if o != name):
                    chosen.append(var)
                    break
        out[name] = chosen
    return out


def json_eq(a, b) -> bool:
    return a == b and type(a) is type(b) or (_is_number(a) and _is_number(b) and a == b)


def sensitivity(sweep_dir: str | Path) -> Sensitivity:
    """Read a (possibly unfinished) sweep directory into its sensitivity tables."""
    sweep_dir = Path(sweep_dir)
    sweep = read_sweep(sweep_dir)
    done = {v["id"] for v in finished_variants(sweep_dir, sweep)}
    if not done:
        raise UsageError(f"{sweep_dir}: no variant of this sweep has finished yet")
    unit = score_unit(sweep["game"])
    cache: dict[str, VariantData] = {}

    def get(vid: str) -> VariantData:
        if vid not in cache:
            cache[vid] = load_variant(variant_dir(sweep_dir, vid))
        return cache[vid]

    rows = []
    for var in sweep["variants"]:
        if var["id"] not in done:
            continue
        v = get(var["id"])
        for r in metric_table(v):
            rows.append({"variant": var["id"], "label_variant": var["label"], **r})
        if len(cache) > 4:
            cache.clear()
    variants = pl.DataFrame(rows)
    curve_rows, effect_rows = [], []
    for name, chain in slices(sweep).items():
        chain = [c for c in chain if c["id"] in done]
        for c in chain:
            sub = variants.filter(pl.col("variant") == c["id"])
            value = c["values"][name]
            for r in sub.iter_rows(named=True):
                curve_rows.append({"parameter": name, "value": _text(value),
                                   "x": float(value) if _is_number(value) else None,
                                   "order": chain.index(c), "variant": c["id"], **{
                                       k: r[k] for k in ("metric", "label", "unit", "share",
                                                         "estimate", "low", "high")}})
        if len(chain) < 2:
            continue
        a, b = get(chain[0]["id"]), get(chain[-1]["id"])
        keys = ["balance", *a.samples] if a.fair is not None else list(a.samples)
        for key in keys:
            e = paired_effect(a, b, key)
            if e is None:
                continue
            info = BALANCE if key == "balance" else a.info[key]
            effect_rows.append({
                "parameter": name, "from": _text(chain[0]["values"][name]),
                "to": _text(chain[-1]["values"][name]),
                "numeric": _is_number(chain[0]["values"][name]) and _is_number(chain[-1]["values"][name]),
                "rising": (_is_number(chain[0]["values"][name]) and _is_number(chain[-1]["values"][name])
                           and chain[-1]["values"][name] > chain[0]["values"][name]),
                "metric": key, "label": info.label, "unit": info.unit, "share": info.share,
                "delta": e[0], "low": e[1], "high": e[2], "games": a.n_games})
        cache.clear()
    missing = [v["id"] for v in sweep["variants"] if v["id"] not in done]
    return Sensitivity(sweep, variants, pl.DataFrame(curve_rows), pl.DataFrame(effect_rows),
                       unit, missing)


def _text(value) -> str:
    from simcore.config import format_value

    return format_value(value)
