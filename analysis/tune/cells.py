"""A tune's targets judged over a panel: one :class:`~analysis.tune.targets.Judgement` per cell,
aggregated into the objective the search minimises, and the verdict in words.

* ``worst`` (the default): the objective is the largest cell objective; its interval runs from the
  largest cell low to the largest cell high of the cells' intervals at level 1 − 0.05/cells
  (:func:`analysis.tune.targets.panel_level`, Judgement ``panel_low``/``panel_high``): if every
  cell's interval covers its objective, the worst cell's objective lies in it, and by Bonferroni
  every cell's does with probability at least 95%, so the interval is a 95% one. (It was built from
  the cells' own 95% intervals until review s59 fx229 #3 measured it: it covered the worst cell's
  objective 0.950, 0.898 and 0.732 of the time over 1, 4 and 12 cells at the same distance from
  the target.) The racing rule reads this interval: a candidate whose *best possible worst cell*
  (the largest low) is above the incumbent's worst high is beaten; the wider low end drops fewer
  candidates, each drop still at 95%.
* ``mean``: the weighted mean of the cell objectives (the panel's weights); interval the weighted
  mean of the cells' lows and highs (conservative: the cells' errors need not cancel).

Ties of the worst cell are common (a cell where one side never wins sits at the same distance
whatever the rules), and a search that sees only the worst cell is then blind: the value the search
minimises (:attr:`PanelJudgement.score`) is the worst cell plus :data:`TIE_BREAK` times the weighted
mean of the cells, so among candidates with the same worst cell the one better elsewhere wins. The
reported objective and its interval are the worst cell's alone.

*Met* over a panel means met in every cell. Requiring every cell's 95% interval to lie inside the
tolerance is an intersection-union test: claiming "met in every cell" is wrong with probability at
most 2.5% whatever the number of cells, so no adjustment for the number of cells is needed for it.
A cell is "not met" only when some interval lies wholly outside the tolerance (each such statement
at the 95% level, not adjusted over the panel) and "unclear" when an interval straddles the
tolerance's edge (the games cannot tell: neither met nor shown missed). The
*binding* cells are the ones that miss the target (or, when all meet it, the worst one).

May import the standard library and :mod:`analysis.tune.targets`.
"""

from __future__ import annotations

from dataclasses import dataclass

from analysis.tune.targets import UNCLEAR, Judgement, Target, cell_outcome, sentence, target_bits

AGGREGATES = ("worst", "mean")
TIE_BREAK = 0.01            # weight of the cells' mean in the search's value (worst aggregate)


@dataclass
class PanelJudgement:
    objective: float
    low: float
    high: float
    met: bool
    cells: list[Judgement]
    labels: list[str]
    weights: list[float]
    aggregate: str

    @property
    def mean(self) -> float:
        tot = sum(self.weights)
        return sum(w * j.objective for w, j in zip(self.weights, self.cells)) / tot

    @property
    def score(self) -> float:
        """What the search minimises: the objective, worst-cell ties broken by the mean."""
        tie = self.aggregate == "worst" and len(self.cells) > 1
        return self.objective + (TIE_BREAK * self.mean if tie else 0.0)

    @property
    def n_met(self) -> int:
        return sum(j.met for j in self.cells)

    @property
    def binding(self) -> list[int]:
        """Cells that miss the target; when every cell meets it, the worst one."""
        miss = [k for k, j in enumerate(self.cells) if not j.met]
        if miss:
            return sorted(miss, key=lambda k: -self.cells[k].objective)
        return [max(range(len(self.cells)), key=lambda k: self.cells[k].objective)]


def aggregate(cells: list[Judgement], labels: list[str], weights, how: str = "worst") -> PanelJudgement:
    """The panel's objective and interval from its cells' judgements (see the module docstring)."""
    if how not in AGGREGATES:
        raise ValueError(how)
    met = all(j.met for j in cells)
    if how == "worst":
        obj = max(j.objective for j in cells)
        low = max(_panel_low(j, len(cells)) for j in cells)
        high = max(_panel_high(j, len(cells)) for j in cells)
    else:
        w = [float(x) for x in weights]
        tot = sum(w)
        obj = sum(x * j.objective for x, j in zip(w, cells)) / tot
        low = sum(x * j.low for x, j in zip(w, cells)) / tot
        high = sum(x * j.high for x, j in zip(w, cells)) / tot
    return PanelJudgement(obj, low, high, met, list(cells), list(labels), [float(x) for x in weights], how)


def best_possible(cells_so_far: list[Judgement], cells: int | None = None) -> float:
    """The lowest worst-cell objective a candidate can still reach after these cells: the
    largest low among them at the panel's level (the cells not yet played can only make the worst
    cell worse); ``cells`` the panel's number of cells (by default, those given)."""
    k = len(cells_so_far) if cells is None else cells
    return max((_panel_low(j, k) for j in cells_so_far), default=0.0)


def _panel_low(j: Judgement, cells: int) -> float:
    """A cell's objective low end at the panel's level (:func:`analysis.tune.targets.evaluate`
    with ``cells``); a lone cell's own. A cell of several judged without it is refused: its 95% low
    would make the worst cell's interval narrower than it says."""
    if cells <= 1:
        return j.low
    if j.panel_low is None:
        raise ValueError("a panel cell judged without its panel-level interval (evaluate(..., cells=k))")
    return j.panel_low


def _panel_high(j: Judgement, cells: int) -> float:
    if cells <= 1:
        return j.high
    if j.panel_high is None:
        raise ValueError("a panel cell judged without its panel-level interval (evaluate(..., cells=k))")
    return j.panel_high


def cell_rows(pj: PanelJudgement, cells, dirs=None, seeds=None) -> list[dict]:
    """``result.json``'s ``confirm.cells``: each cell's players, line-up, every target metric with
    its interval, and met."""
    out = []
    for k, (c, j) in enumerate(zip(cells, pj.cells)):
        row = {"cell": k, "label": c.label, "players": c.players, "lineup": list(c.lineup),
               "weight": c.weight, "objective": j.objective, "low": j.low, "high": j.high,
               "met": j.met, "outcome": cell_outcome(j.parts), "games": j.games,
               "targets": j.parts}
        if dirs is not None:
            row["dir"] = dirs[k]
        if seeds is not None:
            row["seed"] = seeds[k]
        out.append(row)
    return out


def panel_sentence(pj: PanelJudgement, targets: tuple[Target, ...], fairs: list, settings: str,
                   games: int, seed: int, where: str = "",
                   scope: str = "this line-up and player count", read_in: str = "",
                   unread: str = "") -> str:
    """The verdict over the panel, naming the cells where the target is met and, with their
    figures, those where it is not (some interval wholly outside the tolerance) or where the games
    cannot tell (unclear): "Target met in every cell (all 3: …)", else "met in k of n cells (…)".
    One cell: the single-line-up sentence, naming its player count and line-up (``where``).
    ``read_in`` and ``unread`` (session 63): a panel some of whose cells do not read the settings
    tuned judges only the others, so the cells counted are those "where track.goal.4 is read"
    (``read_in``) and ``unread`` ("not read at 3 players (2 cells, not played: …)") names the others
    after the verdict, never among the cells where it is met."""
    n = len(pj.cells)
    tail = f"; {unread}" if unread else ""
    if n == 1:
        one = sentence(pj.cells[0], targets, fairs[0], settings, games, seed,
                       where=where or (pj.labels[0] if pj.labels else ""), scope=scope)
        return (one[:-1] if one.endswith(".") else one) + tail + "." if tail else one
    said = [cell_outcome(j.parts) for j in pj.cells]
    among = f" {read_in}" if read_in else ""

    def detail(k: int) -> str:
        return f"{pj.labels[k]}: " + "; ".join(target_bits(pj.cells[k], targets, fairs[k]))

    met = [pj.labels[k] for k in range(n) if said[k] == "met"]
    missed = [detail(k) for k in pj.binding if said[k] == "missed"]
    unclear = [detail(k) for k in pj.binding if said[k] == "unclear"]
    # the long fresh seed is in result.json (confirm.seed), not in the sentence
    if pj.met:
        closest = detail(pj.binding[0])
        return (f"Target met in every cell{among} (all {n}: {', '.join(met)}) with {settings}, confirmed "
                f"on {games:,} fresh games per cell; the closest cell to the tolerance is {closest}"
                f"{tail}.")
    head = "Target NOT met" if missed else "Target not confirmed (unclear)"
    held = f" ({', '.join(met)})" if met else ""
    out = (f"{head}: met in {len(met)} of {n} cells{among}{held} with {settings}, confirmed on {games:,} "
           f"fresh games per cell")
    if missed:
        out += "; not met in " + "; ".join(missed)
    if unclear:
        out += "; unclear in " + "; ".join(unclear) + f" ({UNCLEAR})"
    return out + tail + "."


__all__ = ["AGGREGATES", "PanelJudgement", "aggregate", "best_possible", "cell_rows", "panel_sentence"]
