"""The sensitivity page of a sweep directory and the search page of a tune directory.

:func:`build_sweep_report` reads a sweep (:func:`analysis.sweep.metrics.sensitivity`) and writes
one self-contained HTML page: plain sentences of what each parameter moves (paired effects with
95% intervals: shares in percentage points, scores in the game's score unit), a tornado chart of
which parameters move which metric most, per parameter the curve of every headline metric against
its value, and the table of every variant. :func:`build_tune_report` reads a tune directory
(tune.json, trials.csv, importance.csv, result.json, the confirmation run) and writes the page of
the search: the verdict sentence, the best settings, the objective trial by trial and the
parameter importance. Both only read files and publish the page atomically (report.html and
figures/*.png|svg).

May import polars, the standard library, :mod:`analysis.sweep` (metrics, store),
:mod:`analysis.tune.targets`, :mod:`reports.figures`, :mod:`reports.html` (style) and
:mod:`simcore` (atomic, errors, registry).
"""

from __future__ import annotations

import base64
import html
import json
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

from analysis.sweep.metrics import sensitivity
from analysis.sweep.store import read_json
from reports.figures import sweep as FS
from reports.figures.common import render
from reports.html import _CSS, _html_table
from simcore import games as registry
from simcore.atomic import atomic_dir


def _share_text(x: float, lo: float, hi: float) -> str:
    return f"{100 * x:+.1f} pp ({100 * lo:+.1f} to {100 * hi:+.1f})"


def _unit_text(x: float, lo: float, hi: float, unit: str) -> str:
    return f"{x:+.2f} {unit} ({lo:+.2f} to {hi:+.2f})"


def effect_sentence(r: dict) -> str:
    """One paired effect in words: "raising income.palais.base from 3 to 5 moves seat 3's win
    share by +0.4 pp (+0.1 to +0.7): clear but small"."""
    verb = "raising" if r["rising"] else ("lowering" if r["numeric"] else "changing")
    amount = (_share_text(r["delta"], r["low"], r["high"]) if r["share"]
              else _unit_text(r["delta"], r["low"], r["high"], r["unit"]))
    verdict = f": {r['verdict']}" if r.get("verdict") else ""
    return f"{verb} {r['parameter']} from {r['from']} to {r['to']} moves {r['label']} by {amount}{verdict}"


def sweep_sentences(effects: pl.DataFrame, per_parameter: int = 4) -> list[str]:
    """The clear effects, worded by size ("clear and large enough to matter" first, then "clear but
    small"; by size within each, never by p-value), per parameter; a parameter with none says so.
    Clear = outside 0 by the page's simultaneous intervals (one family over every metric and
    parameter: :func:`analysis.sweep.metrics.sensitivity`)."""
    out = []
    if effects.height == 0:
        return out
    for p in dict.fromkeys(effects["parameter"].to_list()):
        d = effects.filter(pl.col("parameter") == p)
        clear = d.filter((pl.col("low") > 0) | (pl.col("high") < 0))
        if clear.height == 0:
            r = d.row(0, named=True)
            out.append(f"changing {p} from {r['from']} to {r['to']} moves no headline metric "
                       "beyond its noise (every interval includes 0, adjusted over the page)")
            continue
        if "smallest" in clear.columns:
            clear = clear.with_columns((pl.col("delta").abs() / pl.col("smallest")).alias("size"),
                                       (pl.col("verdict") != "clear and large enough to matter").alias("_v"))
        else:
            clear = clear.with_columns(
                (pl.col("delta").abs() * pl.when(pl.col("share")).then(100.0).otherwise(1.0)).alias("size"),
                pl.lit(False).alias("_v"))
        shares = clear.filter(pl.col("share")).sort(["_v", "size"], descending=[False, True])
        others = clear.filter(~pl.col("share")).sort(["_v", "size"], descending=[False, True])
        rows = list(shares.head(per_parameter).iter_rows(named=True)) + \
            list(others.head(2).iter_rows(named=True))
        out += [effect_sentence(r) for r in rows]
    return [s[0].upper() + s[1:] + "." for s in out]


def _img(png: bytes, name: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f"<figure><img alt='{html.escape(name)}' src='data:image/png;base64,{data}'></figure>"


def _page(title: str, parts: list[str]) -> str:
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><p class='note'>Generated "
            f"{datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC. All intervals are 95%.</p>"
            + "\n".join(parts) + "</body></html>")


def _meta_table(rows: list[tuple[str, str]]) -> str:
    return ("<table class='meta'><tbody>" + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows)
        + "</tbody></table>")


def _publish(out: Path, force: bool, page: str, figures: dict) -> Path:
    with atomic_dir(out, force) as tmp:
        (tmp / "figures").mkdir()
        for name, fig in figures.items():
            for fmt in ("png", "svg"):
                (tmp / "figures" / f"{name}.{fmt}").write_bytes(render(fig, fmt))
        (tmp / "report.html").write_text(page, encoding="utf-8")
    return Path(out) / "report.html"


def _title(game: str) -> str:
    spec = registry.specs().get(game)
    return spec.title if spec is not None else game


def build_sweep_report(sweep_dir: str | Path, out: str | Path, force: bool = False) -> Path:
    """The sensitivity page of a sweep directory; returns the path of report.html."""
    s = sensitivity(sweep_dir)
    sw = s.sweep
    spec = registry.specs().get(sw["game"])
    title = f"{_title(sw['game'])}: what each setting changes"
    figures: dict = {}
    pngs: dict[str, bytes] = {}

    def add(name, fig):
        if fig is not None:
            figures[name] = fig
            pngs[name] = render(fig, "png")
            return _img(pngs[name], name)
        return ""

    parts = [_meta_table([
        ("game", _title(sw["game"])), ("varied", "; ".join(v["text"] for v in sw["varies"])),
        ("design", sw["mode"]), ("variants", f"{len(sw['variants']) - len(s.missing)} of "
                                             f"{len(sw['variants'])} finished"),
        ("games per variant", f"{sw['games']:,} (the same games in every variant: seed {sw['seed']})"),
        ("strategies", sw.get("strategies") or f"the default ({spec.default_strategy if spec else '?'})"),
        ("base rules", sw["rules_name"]), ("also set", ", ".join(sw.get("settings") or []) or "nothing"),
    ])]
    if s.missing:
        parts.append(f"<p class='note'>Not finished yet: {', '.join(s.missing)} (run the same "
                     "balance sweep command again to resume).</p>")
    parts.append("<h2 id='findings'>What moves what</h2><p>Each sentence compares the parameter's "
                 "first and last value with the other parameters at their first value; because "
                 "every variant plays the same games, the difference is measured game by game.</p>")
    parts.append("<ul class='headlines'>" + "".join(
        f"<li>{html.escape(x)}</li>" for x in sweep_sentences(s.effects)) + "</ul>")
    if s.effects.height:
        parts.append("<h2 id='tornado'>Which parameters move which metric most</h2>")
        parts.append(add("tornado_shares", FS.tornado(s.effects, True, s.score_unit)))
        parts.append(add("tornado_other", FS.tornado(s.effects, False, s.score_unit)))
    fair = None
    if spec is not None and spec.roles_alike and s.variants.height:
        first = s.variants.filter(pl.col("metric").str.starts_with("seat_win_share_"))
        n_seats = first.filter(pl.col("variant") == first["variant"][0]).height
        fair = 1.0 / n_seats if n_seats else None
    for i, v in enumerate(sw["varies"]):
        parts.append(f"<h2 id='p{i}'>{html.escape(v['name'])}</h2>")
        parts.append(add(f"curve_{i}", FS.curves(s.curves, v["name"], fair, s.score_unit)))
    table = s.variants.with_columns(
        pl.when(pl.col("share")).then(pl.col("estimate") * 100).otherwise(pl.col("estimate")).alias("estimate"),
        pl.when(pl.col("share")).then(pl.col("low") * 100).otherwise(pl.col("low")).alias("low"),
        pl.when(pl.col("share")).then(pl.col("high") * 100).otherwise(pl.col("high")).alias("high"),
        pl.when(pl.col("share")).then(pl.lit("%")).otherwise(pl.col("unit")).alias("unit"),
    ).select("variant", "label_variant", "label", "estimate", "low", "high", "unit").rename(
        {"label_variant": "settings", "label": "metric"})
    parts.append("<h2 id='variants'>Every variant</h2>" + _html_table(table))
    parts.append("<p class='note'>Intervals: normal intervals of means over games; differences "
                 "are means of per-game differences (common random numbers); the seat balance's "
                 "interval comes from normal draws of the seat means with their covariance. "
                 "See docs/sweep.md.</p>")
    return _publish(Path(out), force, _page(title, parts), figures)


def build_tune_report(tune_dir: str | Path, out: str | Path, force: bool = False) -> Path:
    """The page of a tune's search; returns the path of report.html."""
    tune_dir = Path(tune_dir)
    tune = read_json(tune_dir, "tune.json", "tune")
    trials = pl.read_csv(tune_dir / "trials.csv", infer_schema_length=None) \
        if (tune_dir / "trials.csv").is_file() else pl.DataFrame()
    imp = pl.read_csv(tune_dir / "importance.csv", schema_overrides={"importance": pl.Float64}) \
        if (tune_dir / "importance.csv").is_file() else pl.DataFrame()
    result = json.loads((tune_dir / "result.json").read_text(encoding="utf-8")) \
        if (tune_dir / "result.json").is_file() else None
    title = f"{_title(tune['game'])}: tuning " + ", ".join(v["name"] for v in tune["varies"])
    figures: dict = {}
    parts = []
    if result is None:
        parts.append("<p><b>The tune has not finished</b>: no confirmation yet (run the same "
                     "balance tune command again to resume).</p>")
    else:
        parts.append(f"<p style='font-size:1.15em'><b>{html.escape(result['sentence'])}</b></p>")
        parts.append(_meta_table([
            ("best settings", ", ".join(result["settings"]) or "(players only)"),
            ("best rules file", str(tune_dir / "best_rules.toml")),
            ("search", f"trial {result['best_trial']}: objective {result['search']['objective']:.3f} on "
                       f"{result['search']['games']:,} search games"),
            ("confirmation", f"{result['confirm']['games']:,} games, seed {result['confirm']['seed']} "
                             f"(the search used seed {tune['seed']}): objective "
                             f"{result['confirm']['objective']:.3f} ({result['confirm']['low']:.3f} to "
                             f"{result['confirm']['high']:.3f})"),
            ("trials", f"{result['trials']} ({result['games_played_in_search']:,} games in the search)"),
        ]))
    parts.append(_meta_table([
        ("game", _title(tune["game"])), ("ranges", "; ".join(v["text"] for v in tune["varies"])),
        ("targets", "; ".join(t["text"] for t in tune["targets"])),
        ("games per candidate", " → ".join(f"{n:,}" for n in tune["games"]["rungs"])),
        ("racing rule", tune["racing"]), ("base rules", tune["rules_name"]),
    ]))
    pngs = {}
    if trials.height:
        fig = FS.search(trials)
        if fig is not None:
            figures["search"] = fig
            pngs["search"] = render(fig, "png")
            parts.append("<h2 id='search'>The search</h2>" + _img(pngs["search"], "search"))
    if imp.height:
        fig = FS.importance(imp)
        if fig is not None:
            figures["importance"] = fig
            pngs["importance"] = render(fig, "png")
            parts.append("<h2 id='importance'>Parameter importance</h2>" + _img(pngs["importance"], "importance"))
    if result is not None:
        rows = []
        for p in result["confirm"]["targets"]:
            for m in p["metrics"]:
                rows.append({"target": p["target"], "metric": m["metric"], "estimate": m["estimate"],
                             "low": m["low"], "high": m["high"], "met": p["met"]})
        parts.append("<h2 id='confirm'>Confirmation</h2>" + _html_table(pl.DataFrame(rows)))
        attempts = result.get("confirmations") or []
        if len(attempts) > 1:
            parts.append("<h3>Every confirmation attempt</h3><p>Each attempt played fresh games; a "
                         "candidate that missed was set aside and the search went on. The claim above "
                         f"is the last of {len(attempts)} attempts.</p>" + _html_table(pl.DataFrame([
                             {"attempt": i + 1, "trial": a["trial"], "seed": a["seed"],
                              "objective": a["objective"], "low": a["low"], "high": a["high"],
                              "met": a["met"]} for i, a in enumerate(attempts)])))
    if trials.height:
        parts.append("<h2 id='trials'>Every trial</h2>" + _html_table(trials))
    return _publish(Path(out), force, _page(title, parts), figures)
