"""Fief's own tables as the command line shows them: the odds grid's heat maps and break-even
table (FF-7), the plague and revolt tables (FF-5, FF-6). The hooks ``figures`` / ``show`` of the
Fief spec's table commands (:class:`simcore.contract.TableCommand`), called by ``cli/tables.py``;
and a fief-combat run's page's first sentence (:func:`lead_headlines`: the matchup and its odds).

May import rich, polars, :mod:`analysis.stats` (the normal law of the agreement's yardstick),
:mod:`reports.figures.fief` and the Fief rules constants.
"""

from __future__ import annotations

from pathlib import Path


def odds_figures(job, tables: dict, folder: Path) -> list[str]:
    """One heat map of P(attacker wins) per terrain of the grid."""
    from reports.figures.fief import heatmap

    for t in job.terrains:
        heatmap(tables["odds"], t, folder / f"heatmap_{t}.png", job.levels)
    return [f"heatmap_{t}.png" for t in job.terrains]


def show_odds(job, tables: dict, path: Path) -> None:
    mercy = tables["odds"]["mercy"][0] if tables["odds"].height else "never"
    print_odds_summary(tables["break_even"], path, job.agreement(tables), mercy)


def show_calamity(job, tables: dict, path: Path) -> None:
    print_calamity(job.rules, tables["plague_summary"], tables["plague"], tables["revolt"], path)


def print_odds_summary(be, path: Path, agreement, mercy: str = "never") -> None:
    """Print the break-even table of each terrain; its title names the conditions the numbers
    hold under (FF-4 d'Arc's side, FF-3 mercy policy) when they are not the plain combat."""
    import polars as pl
    from rich.console import Console
    from rich.table import Table

    console = Console()
    for terrain in be["terrain"].unique(maintain_order=True).to_list():
        sub = be.filter(pl.col("terrain") == terrain)
        where = {"open": "in open ground", "castle": "in a castle", "city": "in a city"}[terrain]
        darc = sub["darc"][0]
        given = ((f", d'Arc with the {darc}" if darc != "none" else "")
                 + (f", mercy {mercy}" if mercy != "never" else ""))
        t = Table(title=f"Break-even: smallest attacker (points) beating a defender {where}{given} "
                        f"({sub['method'][0]}; '-' = not within the grid)")
        t.add_column("defender", justify="right")
        cols = [c for c in sub.columns if c.startswith("min_attacker_p")]
        for c in cols:
            t.add_column(f"P >= {c.removeprefix('min_attacker_p')}%", justify="right")
        for row in sub.select("defender", *cols).iter_rows():
            t.add_row(str(row[0]), *("-" if v is None else str(v) for v in row[1:]))
        console.print(t)
    if agreement:
        console.print(agreement_words(agreement))
    console.print(f"wrote {path}")


def chance_max_abs_z(cells: int, p: float) -> float:
    """The ``p`` quantile of the largest |z| of ``cells`` independent standard normal z (what
    chance alone gives when Monte Carlo and exact agree): P(max |Z| ≤ q) = (1 − 2·P(Z > q))^cells."""
    from analysis import stats

    return stats.z_quantile(p ** (1.0 / max(int(cells), 1)))


def chance_p_max_abs_z(z: float, cells: int) -> float:
    """Šidák p of a largest |z| of ``z`` over ``cells`` independent cells: the chance that one of
    them reaches it when every cell agrees, 1 − (1 − 2·P(Z > z))^cells."""
    import math

    from analysis import stats

    tail = 2.0 * stats.normal_sf(abs(z))
    return -math.expm1(max(int(cells), 1) * math.log1p(-min(tail, 1.0))) if tail < 1 else 1.0


def agreement_words(agreement: dict) -> str:
    """The MC-vs-exact line of ``balance fief-odds --method both`` (FF-7) with its yardstick (revA
    #19: "max |z| 3.57 over 240 cells" alone said nothing): what the largest |z| of that many
    cells is by chance alone (median and 95th percentile), and each maximum's Šidák p over the
    cells; p < 0.05 says Monte Carlo and the exact computation disagree."""
    cells = int(agreement["cells"])
    zp = float(agreement["max_abs_z_p_attacker_wins"])
    zr = float(agreement["max_abs_z_expected_rounds"])
    pp, pr = chance_p_max_abs_z(zp, cells), chance_p_max_abs_z(zr, cells)
    worst = min(pp, pr)
    verdict = ("within what chance alone gives" if worst >= 0.05 else
               "more than chance alone gives: Monte Carlo and the exact odds disagree somewhere")
    return (f"MC vs exact over {cells:,} cells: max |z| P(attacker wins) {zp:.2f} (p = {pp:.2g}), "
            f"rounds {zr:.2f} (p = {pr:.2g}); by chance alone the largest |z| of {cells:,} cells is "
            f"about {chance_max_abs_z(cells, 0.5):.2f} and above {chance_max_abs_z(cells, 0.95):.2f} "
            f"one time in 20 (p: Šidák over the cells): {verdict}")


def revolt_cells(row: dict) -> list[str]:
    """One row of the revolt table (FF-6): an exact row's interval reads "exact" (its bounds are the
    value itself, "0.5000 – 0.5000" said nothing; revA #19); a Monte Carlo row's is its Wilson 95 %."""
    interval = ("exact" if row["method"] == "exact"
                else f"{row['p_success_lo']:.4f} – {row['p_success_hi']:.4f}")
    return [row["method"], f"{row['ecus']:,}", str(row["conviction_points"]), f"{row['p_success']:.4f}",
            interval, f"{row['p_bishop_stoned']:.4f}"]


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
        rt.add_row(*revolt_cells(row))
    console.print(rt)
    console.print(f"wrote {path}")


def lead_headlines(t: dict, rs) -> list[str]:
    """A fief-combat run's page opens with the combat it measured (run.json ``matchup``, FF-1 to
    FF-4) and its three outcomes (run.json ``results``, summed over pooled runs, Wilson 95%
    intervals): the generic seat sentences below count half of each mutual wipe-out as each side's
    "win share", which is not the attacker's odds of taking the fief. [] for a run without them."""
    from analysis.stats import wilson

    metas = [m for m in rs.metas if m.get("matchup") and m.get("results")]
    if not metas or len(metas) != len(rs.metas):
        return []
    m = metas[0]["matchup"]
    games = sum(int(x["results"]["games"]) for x in metas)

    def share(key: str) -> str:
        k = sum(int(x["results"][key]["count"]) for x in metas)
        lo, hi = wilson(k, games)
        return f"{100 * k / games:.1f}% ({100 * float(lo):.1f}–{100 * float(hi):.1f})"

    lords = lambda n: f"{n} Lord{'s' if n != 1 else ''}"  # noqa: E731
    darc = "" if m.get("darc") in (None, "none") else f", Jeanne d'Arc with the {m['darc']}"
    mercy = "" if m.get("mercy") in (None, "never") else f", mercy: {m['mercy']}"
    rounds = sum(float(x["results"]["expected_rounds"]["mean"]) * int(x["results"]["games"])
                 for x in metas) / games
    return [f"The combat: {m['attacker']} points with {lords(m['lords_attacker'])} attack "
            f"{m['defender']} points with {lords(m['lords_defender'])} in {m['terrain']} terrain"
            f"{darc}{mercy} ({games:,} combats). The attacker takes the fief in "
            f"{share('p_attacker_wins')} of combats, the defender holds in {share('p_defender_holds')}, "
            f"both armies are wiped out in {share('p_both_wiped')}; a combat lasts {rounds:.2f} rounds "
            "on average. (The seat figures below count half of each mutual wipe-out as each side's "
            "win share: read the odds here; `balance fief-odds` gives them exactly.)"]

