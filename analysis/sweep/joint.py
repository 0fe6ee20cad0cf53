"""Paired statistics of sweep variants played together: exact sums and cross-products of per-game metrics.

A sweep's effects are measured game by game (common random numbers: game i of every variant draws
from the stream (seed, i)): the interval of an effect is that of the mean of per-game differences,
which needs, for the two variants compared, the covariance of their metrics across the same games.
Read from player rows that is a subtraction; without rows (a sweep above the runner's row limit) the
variants are played together chunk by chunk (:func:`simcore.runner.execute_together`) and this
module keeps, over the games, for every variant the sum of each of its metrics and the sums of
products of every two of them, and for every *pair of variants the sweep compares* the sums of
products of a metric of one with a metric of the other. From these the mean and covariance of any
linear combination of the two variants' per-game metrics follow (:meth:`JointSums.pair`): exactly
what :func:`analysis.sweep.metrics.parameter_effects` computes from rows, at a cost that does not
grow with the games.

The per-game metrics are those of :func:`analysis.sweep.metrics.from_tables` (seat, role and
strategy win shares, the winner's margin, the event swing, the game length). Each is a whole number
of units (:func:`metric_scales`: a seat's or a role's share in units of 1/L with L = lcm(1 … P), a
strategy's share per seat it holds in units of 1/L², scores and turns in themselves), so the sums
are integers: exact, and the same for any chunk size, thread or worker count. A chunk's products
are formed by BLAS in float64 on integer values below 2^53, which is exact, then added in int64.
A metric missing from some game (a strategy that held no seat in it) is counted in ``missing`` and
not offered (:meth:`JointSums.usable`).

A variant played with rotated seats (``--rotate-seats``: a deal of g games, one per rotation) has
deals as its independent units, so the sums also keep the products of its per-unit sums (``deal``:
g per variant; ``by_unit[(a, b, u)]``: a variant's own over its deals, and for every compared pair
each block over units of u = lcm(g_a, g_b) games, whole deals of both), from which
:meth:`JointSums.deal_moments` gives the covariance over the units exactly, as :func:`analysis.sweep.metrics.by_deal` reads it from rows. Chunks are whole units of
every variant (the lockstep's chunks are multiples of the lcm of the deal sizes).

The file, ``paired_stats.json`` in the sweep directory, is written before any variant directory of
the lockstep is published (:func:`simcore.runner.execute_together`'s ``before_publish``).

May import numpy, the standard library and :mod:`simcore` (accumulate, atomic): the per-game
metrics of a chunk are made by :func:`analysis.sweep.play.chunk_metrics`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

JOINT_FILE = "paired_stats.json"
FORMAT = 1
EXACT = float(2 ** 53)


def metric_scales(keys: list[str], n_players: int) -> list[int]:
    """The unit of each per-game metric, as a divisor: a value times its scale is a whole number."""
    from simcore.accumulate import win_units

    L = win_units(n_players)
    out = []
    for k in keys:
        if k.startswith(("seat_win_share_", "role_win_share_")):
            out.append(L)
        elif k.startswith("strategy_win_share_"):
            out.append(L * L)          # (a whole number of 1/L) / (1 … P seats)
        else:
            out.append(1)
    return out


class JointSums:
    """The sums of a lockstep sweep: ``n`` games; per variant its metric ``keys`` and ``scales``,
    ``sums`` (int, per metric, in units of 1/scale), ``own`` (int, metric × metric products) and
    ``missing`` (games where a metric was undefined); per compared pair (a, b) ``cross`` (int,
    metric of a × metric of b)."""

    def __init__(self, variants: list[str], pairs: list[tuple[str, str]],
                 meta: dict | None = None, deal: dict[str, int] | None = None) -> None:
        self.meta = dict(meta or {})          # seed, rules_sha256 per run: what was played
        self.variants = list(variants)
        self.pairs = [tuple(p) for p in pairs]
        self.n = 0
        self.keys: dict[str, list[str]] = {}
        self.scales: dict[str, list[int]] = {}
        self.sums: dict[str, np.ndarray] = {}
        self.own: dict[str, np.ndarray] = {}
        self.missing: dict[str, np.ndarray] = {}
        self.cross: dict[tuple[str, str], np.ndarray] = {}
        # rotated-seat variants: the games of a deal (absent: 1), the products of per-deal sums
        self.deal: dict[str, int] = {v: int(g) for v, g in (deal or {}).items() if int(g) > 1}
        self.by_unit: dict[tuple[str, str, int], np.ndarray] = {}

    # --- accumulating ---------------------------------------------------------------------
    def add_chunk(self, per_variant: dict[str, tuple[list[str], list[int], np.ndarray]]) -> None:
        """Add one chunk: per variant id, (metric keys, scales, float64[games, metrics] of the
        per-game values); every variant's chunk holds the same games."""
        ints: dict[str, np.ndarray] = {}
        games = None
        for vid in self.variants:
            keys, scales, x = per_variant[vid]
            if vid not in self.keys:
                self.keys[vid], self.scales[vid] = list(keys), list(scales)
                d = len(keys)
                self.sums[vid] = np.zeros(d, np.int64)
                self.own[vid] = np.zeros((d, d), np.int64)
                self.missing[vid] = np.zeros(d, np.int64)
            elif list(keys) != self.keys[vid]:
                raise ValueError(f"variant {vid}: its metrics changed between chunks "
                                 f"({self.keys[vid]} then {list(keys)})")
            if games is None:
                games = x.shape[0]
            elif x.shape[0] != games:
                raise ValueError("the variants' chunks hold different numbers of games")
            nan = np.isnan(x)
            self.missing[vid] += nan.sum(axis=0)
            w = np.where(nan, 0.0, x) * np.asarray(scales, np.float64)
            r = np.rint(w)
            if np.abs(w - r).max(initial=0.0) > 1e-6:
                k = int(np.argmax(np.abs(w - r).max(axis=0)))
                raise ValueError(f"variant {vid}: {keys[k]} is not a whole number of 1/{scales[k]}")
            ints[vid] = r
        for vid, r in ints.items():
            self.sums[vid] += r.sum(axis=0).astype(np.int64)
            self.own[vid] += _products(r, r)
        for a, b in self.pairs:
            self.cross[(a, b)] = self.cross.get((a, b), 0) + _products(ints[a], ints[b])
        if self.deal:
            blocks = {(v, v, g) for v in ints if (g := self.deal.get(v, 1)) > 1}
            for a, b in self.pairs:
                if (u := math.lcm(self.deal.get(a, 1), self.deal.get(b, 1))) > 1:
                    blocks |= {(a, a, u), (a, b, u), (b, b, u)}
            unit_sums: dict[tuple[str, int], np.ndarray] = {}
            for a, b, u in sorted(blocks):
                da = unit_sums.setdefault((a, u), _unit_sums(ints[a], u))
                db = unit_sums.setdefault((b, u), _unit_sums(ints[b], u))
                self.by_unit[(a, b, u)] = self.by_unit.get((a, b, u), 0) + _products(da, db)
        self.n += int(games or 0)

    # --- reading ----------------------------------------------------------------------------
    def usable(self, vid: str) -> list[str]:
        """The metrics of ``vid`` defined in every game."""
        return [k for k, m in zip(self.keys[vid], self.missing[vid]) if int(m) == 0]

    def played(self, name: str, seed, rules_sha256: str | None) -> str | None:
        """Why run ``name`` of these sums is not the run played with ``seed`` and these rules, or
        None when it is (a record without them is not checked)."""
        if "seed" in self.meta and self.meta["seed"] != seed:
            return f"seed {self.meta['seed']}, not {seed}"
        want = (self.meta.get("rules_sha256") or {}).get(name)
        if want is not None and rules_sha256 is not None and want != rules_sha256:
            return f"other rules for {name} (sha256 {want[:12]}…, not {rules_sha256[:12]}…)"
        return None

    @classmethod
    def read_checked(cls, path: str | Path) -> "JointSums":
        """:meth:`read`, a damaged or foreign file as one :class:`simcore.errors.UsageError` line."""
        from simcore.errors import UsageError

        try:
            return cls.read(path)
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:
            raise UsageError(f"{path}: not readable exact sums ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); "
                             "move it away and run the same command again to play anew") from None

    def has_pair(self, a: str, b: str) -> bool:
        return (a, b) in self.cross or (b, a) in self.cross

    def _block(self, a: str, b: str) -> list[list[int]]:
        if a == b:
            return self.own[a].tolist()
        if (a, b) in self.cross:
            return self.cross[(a, b)].tolist()
        if (b, a) in self.cross:
            return self.cross[(b, a)].T.tolist()
        raise KeyError(f"no paired sums of variants {a} and {b} (not compared by this sweep)")

    def moments(self, columns: list[tuple[str, str]]) -> tuple[int, np.ndarray, np.ndarray]:
        """(games, mean, sample covariance (n − 1)) of the per-game metrics ``columns``, each a
        (variant id, metric key); the covariance formed in Python integers
        ((n·Σxy − Σx·Σy) / (n(n − 1)) in the metrics' units), so no digit is lost to
        cancellation whatever the games."""
        n = self.n
        idx = [(v, self.keys[v].index(k)) for v, k in columns]
        return n, *self._mean_cov(idx, n, 1, self._block)

    def _mean_cov(self, idx: list[tuple[str, int]], n: int, u: int, block) -> tuple[np.ndarray, np.ndarray]:
        """(mean per game, sample covariance across the ``n`` units of ``u`` games of the per-unit
        means) of the metrics ``idx`` (variant, metric index), from the sums and the products
        ``block(a, b)`` of per-unit sums, formed in Python integers ((n·Σxy − Σx·Σy) / (n(n − 1))
        in the metrics' units, divided by u²), so no digit is lost to cancellation."""
        sums = [int(self.sums[v][i]) for v, i in idx]
        scale = [self.scales[v][i] for v, i in idx]
        d = len(idx)
        mean = np.array([s / self.n / c for s, c in zip(sums, scale)]) if self.n else np.full(d, np.nan)
        cov = np.full((d, d), np.nan)
        if n >= 2:
            blocks: dict[tuple[str, str], list[list[int]]] = {}
            for p, (va, i) in enumerate(idx):
                for q, (vb, j) in enumerate(idx):
                    if q < p:
                        cov[p, q] = cov[q, p]
                        continue
                    blk = blocks.get((va, vb))
                    if blk is None:
                        blk = blocks[(va, vb)] = block(va, vb)
                    num = n * int(blk[i][j]) - sums[p] * sums[q]
                    cov[p, q] = num / (n * (n - 1)) / (scale[p] * scale[q]) / (u * u)
        return mean, cov

    def unit_of(self, columns: list[tuple[str, str]]) -> int:
        """The games of one independent unit of ``columns``' variants: 1, or the lcm of their deal
        sizes (rotated seats)."""
        return math.lcm(*(self.deal.get(v, 1) for v, _ in columns)) if columns else 1

    def deal_moments(self, columns: list[tuple[str, str]]) -> tuple[int, np.ndarray, np.ndarray]:
        """(independent units, mean, sample covariance across units of the per-unit means) of
        ``columns``: :meth:`moments` where the variants' games are independent; over units of
        :meth:`unit_of` games where they rotate seats (per-deal sums, exact in integers: the
        covariance of the overall mean is this covariance / units, as
        :func:`analysis.sweep.metrics.by_deal` then :func:`analysis.stats.mean_cov` give it from
        rows). Sums written before deals were kept read as games alone (KeyError: the caller bounds
        the design effect instead)."""
        u = self.unit_of(columns)
        if u == 1:
            return self.moments(columns)
        idx = [(v, self.keys[v].index(k)) for v, k in columns]
        n = self.n // u
        return n, *self._mean_cov(idx, n, u, lambda a, b: self._deal_block(a, b, u))

    def _deal_block(self, a: str, b: str, u: int) -> list[list[int]]:
        """The products of per-unit sums of ``a``'s and ``b``'s metrics over units of ``u`` games."""
        if (a, b, u) in self.by_unit:
            return np.asarray(self.by_unit[(a, b, u)]).tolist()
        if (b, a, u) in self.by_unit:
            return np.asarray(self.by_unit[(b, a, u)]).T.tolist()
        raise KeyError(f"no per-deal sums of {a} and {b} over {u} games")

    def sums_of(self, columns: list[tuple[str, str]]) -> tuple[list[int], list[int]]:
        """(Σx, scale) of ``columns`` in their integer units."""
        idx = [(v, self.keys[v].index(k)) for v, k in columns]
        return [int(self.sums[v][i]) for v, i in idx], [self.scales[v][i] for v, i in idx]

    def integer_sums(self, columns: list[tuple[str, str]]) -> tuple[list[int], list[list[int]],
                                                                       list[int]]:
        """(Σx, Σxy, scale) of ``columns`` in their integer units (for exact equality tests)."""
        idx = [(v, self.keys[v].index(k)) for v, k in columns]
        sums = [int(self.sums[v][i]) for v, i in idx]
        blocks = {(va, vb): self._block(va, vb) for va, _ in idx for vb, _ in idx}
        prods = [[int(blocks[(va, vb)][i][j]) for vb, j in idx] for va, i in idx]
        return sums, prods, [self.scales[v][i] for v, i in idx]

    # --- the file --------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {"format": FORMAT, "games": self.n, "variants": self.variants, "meta": self.meta,
                "pairs": [list(p) for p in self.pairs],
                "metrics": {v: {"keys": self.keys[v], "scales": self.scales[v],
                                "sums": self.sums[v].tolist(), "products": self.own[v].tolist(),
                                "missing": self.missing[v].tolist()} for v in self.keys},
                "cross": [{"a": a, "b": b, "products": np.asarray(m).tolist()}
                          for (a, b), m in self.cross.items()],
                **({"deal": self.deal,
                    "by_unit": [{"a": a, "b": b, "unit": u, "products": np.asarray(m).tolist()}
                                for (a, b, u), m in self.by_unit.items()]} if self.deal else {})}

    def load_dict(self, d: dict) -> None:
        """Become the sums of :meth:`to_dict`'s ``d`` (a checkpoint put back)."""
        self.__dict__.update(JointSums.from_dict(d).__dict__)

    @classmethod
    def from_dict(cls, d: dict) -> "JointSums":
        if d.get("format") != FORMAT:
            raise ValueError(f"paired statistics of format {d.get('format')!r}, not {FORMAT}")
        j = cls(d["variants"], [tuple(p) for p in d["pairs"]], d.get("meta"), d.get("deal"))
        j.n = int(d["games"])
        for v, m in d["metrics"].items():
            j.keys[v], j.scales[v] = list(m["keys"]), [int(x) for x in m["scales"]]
            j.sums[v] = np.asarray(m["sums"], np.int64)
            j.own[v] = np.asarray(m["products"], np.int64).reshape(len(m["keys"]), -1)
            j.missing[v] = np.asarray(m["missing"], np.int64)
        for c in d["cross"]:
            j.cross[(c["a"], c["b"])] = np.asarray(c["products"], np.int64).reshape(
                len(j.keys[c["a"]]), -1)
        for c in d.get("by_unit") or []:
            j.by_unit[(c["a"], c["b"], int(c["unit"]))] = np.asarray(c["products"], np.int64).reshape(
                len(j.keys[c["a"]]), -1)
        return j

    def write(self, path: str | Path) -> None:
        from simcore.atomic import write_text_atomic

        write_text_atomic(Path(path), json.dumps(self.to_dict(), separators=(",", ":")) + "\n",
                          force=True)

    @classmethod
    def read(cls, path: str | Path) -> "JointSums":
        return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def _unit_sums(r: np.ndarray, u: int) -> np.ndarray:
    """Per-game integer values (rows game-major) summed over consecutive units of ``u`` games."""
    if r.shape[0] % u:
        raise ValueError(f"a chunk of {r.shape[0]} games is not whole units of {u} games (rotated seats)")
    return r.reshape(r.shape[0] // u, u, r.shape[1]).sum(axis=1)


def _products(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """xᵀy of two integer-valued float64 matrices, exactly, as int64: BLAS sums of whole numbers
    are exact while every partial sum stays below 2^53, so the rows are taken in blocks small
    enough for that."""
    big = max(float(np.abs(x).max(initial=0.0)), 1.0) * max(float(np.abs(y).max(initial=0.0)), 1.0)
    step = max(int(EXACT // big) - 1, 1)
    out = np.zeros((x.shape[1], y.shape[1]), np.int64)
    for s in range(0, x.shape[0], step):
        out += (x[s:s + step].T @ y[s:s + step]).astype(np.int64)
    return out
