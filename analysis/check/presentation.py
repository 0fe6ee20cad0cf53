"""Presenting a check's result: plain sentences, the terminal report, Markdown and JUnit XML.

:func:`explain` says in one sentence what happened to a metric (with, for an inconclusive one, about
how many games would decide it); :func:`status_line` and :func:`text_report` are the terminal output
of ``balance check``, :func:`markdown_summary` the CI job summary, :func:`junit_xml` the report for
CI test reporters; :func:`write_reports` writes the last two (``--junit``, ``--summary``). Last
module of :mod:`analysis.check`: nothing in the package imports it. May import the standard library,
:mod:`analysis.stats`, :mod:`analysis.check.decision` (the results it presents), :mod:`analysis.export`
(atomic writes) and :mod:`simcore.errors`.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from xml.etree import ElementTree as ET

from analysis import stats
from analysis.check.decision import DEFAULT_ALPHA, CheckResult, MetricResult
from simcore.errors import UsageError


def _fmt(x: float, unit: str) -> str:
    return f"{x:.1f}%" if unit == "%" else f"{x:.1f}"


def _p_text(p: float) -> str:
    if p != p:
        return "p = nan"
    return f"p = {p:.2g}" if p > 0 else "p < 1e-300"


def _fmt_tol(t: float) -> str:
    return f"±{t:.1f}" if abs(t * 10 - round(t * 10)) < 1e-9 else f"±{t:g}"


def _needed_games(r: MetricResult, alpha: float, m: int) -> int | None:
    """Games this run would need for the beyond-tolerance test (|d| > tolerance) or the equivalence
    test (|d| < tolerance) to decide if the observed difference were the truth; None when even
    infinitely many would not do (the baseline's own error is too large for that margin)."""
    margin = abs(abs(r.diff) - r.tolerance)
    if margin <= 0 or r.se <= 0 or r.n <= 0:
        return None
    z = stats.z_quantile(1 - 2 * alpha / max(m, 1))  # one-sided critical value at α/m (Holm's first step)
    target = (margin / z) ** 2 - r.base_se ** 2
    if target <= 0:
        return None
    return int(math.ceil(r.n * r.se ** 2 / target))


def explain(r: MetricResult, alpha: float = DEFAULT_ALPHA, m: int = 1) -> str:
    """One plain sentence on a metric, e.g. "Seat 1 wins 31.2% (30.4–32.0) vs 25.0% in the baseline:
    +6.2 points, beyond the ±1.0 accepted (p = 2e-09 after Holm)."."""
    k = r.kind
    if r.metric == "seat_mean_score":
        what = f"{r.key} scores {_fmt(r.value, k.unit)} coins on average"
    else:
        who = r.key if r.metric == "seat_win_share" else f"Strategy {r.key}"
        what = f"{who} wins {_fmt(r.value, k.unit)}"
    lo, hi = _fmt(r.low, "").strip(), _fmt(r.high, "").strip()
    head = (f"{what} ({lo}–{hi}) vs {_fmt(r.base, k.unit)} in the baseline: "
            f"{r.diff:+.2f} {k.diff_unit}")
    tol = _fmt_tol(r.tolerance)
    if r.verdict == "fail":
        return f"{head}, beyond the {tol} accepted ({_p_text(r.p_beyond_adjusted)} after Holm)."
    if r.verdict == "pass":
        return f"{head}, within the {tol} accepted ({_p_text(r.p_within_adjusted)} after Holm)."
    need = _needed_games(r, alpha, m)
    side = "within" if abs(r.diff) < r.tolerance else "beyond"
    hint = (f"about {need:,} games would show it {side} the tolerance if the difference stays this size"
            if need is not None else "a baseline with more games, or a different tolerance, is needed")
    return f"{head}; the games cannot tell whether this is within the {tol} accepted ({hint})."


def status_line(res: CheckResult) -> str:
    n = len(res.results)
    if res.verdict == "fail":
        return f"FAIL: {len(res.failed)} of {n} metrics moved beyond their tolerance"
    if res.verdict == "inconclusive":
        tail = " (counted as a failure: on_inconclusive = fail)" if res.exit_code else " (not a failure)"
        return (f"INCONCLUSIVE: {len(res.inconclusive)} of {n} metrics could be within tolerance or "
                f"not; none is shown beyond it{tail}")
    return f"PASS: all {n} metrics are within their tolerance"


def _run_line(res: CheckResult) -> str:
    m = res.run_meta
    sha = str(m.get("rules_sha256", ""))
    same = "same as the baseline" if not res.rules_changed else "DIFFERENT from the baseline"
    return (f"{int(m.get('games', 0)):,} games of {m.get('game')}, {m.get('players')} players, seed "
            f"{m.get('seed')}, rules {m.get('rules_name', '?')} (sha256 {sha[:12]}…, {same})")


def _procedure_line(res: CheckResult) -> str:
    return (f"procedure: per metric, beyond-tolerance test and TOST equivalence test on run − baseline, "
            f"Holm over {len(res.results)} metrics, alpha {res.alpha:g}")


def _row_cells(r: MetricResult) -> list[str]:
    u = r.kind.unit
    return [r.label, _fmt(r.base, u), f"{_fmt(r.value, u)} ({_fmt(r.low, '')}–{_fmt(r.high, '')})",
            f"{r.diff:+.2f} {'pts' if u == '%' else 'coins'}", _fmt_tol(r.tolerance), r.verdict.upper() if r.verdict == "fail" else r.verdict]


def text_report(res: CheckResult) -> str:
    """The terminal output of ``balance check``."""
    head = ["metric", "baseline", "this run (95%)", "diff", "tolerance", "verdict"]
    rows = [_row_cells(r) for r in res.results]
    width = [max(len(x) for x in col) for col in zip(head, *rows)]
    fmt = lambda cells: "  ".join(c.ljust(w) if i in (0, 5) else c.rjust(w)  # noqa: E731
                                  for i, (c, w) in enumerate(zip(cells, width))).rstrip()
    lines = [f"balance check against {res.baseline.path}",
             f"  run: {res.run_path}", f"       {_run_line(res)}", f"  {_procedure_line(res)}"]
    lines += [f"  note: {n}" for n in res.notes]
    lines += ["", "  " + fmt(head)] + ["  " + fmt(r) for r in rows] + ["", status_line(res)]
    m = len(res.results)
    for r in res.failed:
        lines.append(f"  - {explain(r, res.alpha, m)}")
    for r in res.inconclusive:
        lines.append(f"  ? {explain(r, res.alpha, m)}")
    return "\n".join(lines) + "\n"


def markdown_summary(res: CheckResult) -> str:
    """A Markdown summary for a CI job (GitHub's $GITHUB_STEP_SUMMARY)."""
    icon = {"pass": "✅", "fail": "❌", "inconclusive": "⚠️"}[res.verdict]
    lines = [f"## {icon} balance check: {res.verdict.upper()}", "",
             f"{status_line(res)}.", "",
             f"- **baseline**: `{res.baseline.path}` ({res.baseline.games:,} games, seed "
             f"{res.baseline.seed}, rules `{res.baseline.rules}`, sha256 `{res.baseline.rules_sha256[:12]}`)",
             f"- **this run**: {_run_line(res)}",
             f"- **{_procedure_line(res)}**"]
    for n in res.notes:
        lines.append(f"- ⚠️ **note**: {n}")
    lines += ["", "| metric | baseline | this run (95 %) | diff | tolerance | verdict |",
              "|---|---:|---:|---:|---:|---|"]
    for r in res.results:
        c = _row_cells(r)
        mark = {"pass": "✅ pass", "fail": "❌ **FAIL**", "inconclusive": "⚠️ inconclusive"}[r.verdict]
        lines.append(f"| {c[0]} | {c[1]} | {c[2]} | {c[3]} | {c[4]} | {mark} |")
    m = len(res.results)
    if res.failed or res.inconclusive:
        lines.append("")
    for r in res.failed:
        lines.append(f"- ❌ {explain(r, res.alpha, m)}")
    for r in res.inconclusive:
        lines.append(f"- ⚠️ {explain(r, res.alpha, m)}")
    return "\n".join(lines) + "\n"


def junit_xml(res: CheckResult) -> str:
    """JUnit XML: one testcase per metric; failures are metrics beyond tolerance (and inconclusive
    ones when they count as failures), skipped are inconclusive ones that do not."""
    m = len(res.results)
    inc_fail = res.on_inconclusive == "fail"
    failures = len(res.failed) + (len(res.inconclusive) if inc_fail else 0)
    skipped = 0 if inc_fail else len(res.inconclusive)
    suite = ET.Element("testsuite", name=f"balance check {res.baseline.path.name}", tests=str(m),
                       failures=str(failures), errors="0", skipped=str(skipped),
                       timestamp=time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()))
    props = ET.SubElement(suite, "properties")
    for name, value in (("baseline", str(res.baseline.path)), ("run", res.run_path),
                        ("games", str(res.run_meta.get("games"))), ("seed", str(res.run_meta.get("seed"))),
                        ("rules_sha256", str(res.run_meta.get("rules_sha256"))),
                        ("baseline_rules_sha256", res.baseline.rules_sha256),
                        ("rules_changed", str(res.rules_changed).lower()), ("alpha", f"{res.alpha:g}"),
                        ("verdict", res.verdict)):
        ET.SubElement(props, "property", name=name, value=value)
    for r in res.results:
        case = ET.SubElement(suite, "testcase", classname=f"balance.check.{r.metric}", name=r.label,
                             time="0")
        text = explain(r, res.alpha, m)
        if r.verdict == "fail":
            ET.SubElement(case, "failure", message=text, type="regression").text = text
        elif r.verdict == "inconclusive":
            if inc_fail:
                ET.SubElement(case, "failure", message=text, type="inconclusive").text = text
            else:
                ET.SubElement(case, "skipped", message=text)
        else:
            ET.SubElement(case, "system-out").text = text
    out = ET.SubElement(suite, "system-out")
    out.text = "\n".join([_run_line(res), _procedure_line(res), *res.notes])
    root = ET.Element("testsuites", name="balance check", tests=str(m), failures=str(failures),
                      errors="0", skipped=str(skipped))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_reports(res: CheckResult, junit: str | Path | None = None,
                  summary: str | Path | None = None) -> None:
    """``--junit``: replaced atomically; ``--summary``: appended (as $GITHUB_STEP_SUMMARY expects)."""
    from analysis.export import write_text_atomic

    if junit is not None:
        write_text_atomic(junit, junit_xml(res), force=True, option="--junit")
    if summary is not None:
        p = Path(summary)
        if p.is_dir():
            raise UsageError(f"--summary {p}: is a directory (give a file name)")
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            with p.open("a", encoding="utf-8") as fh:
                fh.write(markdown_summary(res))
        except OSError as exc:
            raise UsageError(f"--summary {p}: cannot write ({exc.strerror})") from None



__all__ = ["explain", "junit_xml", "markdown_summary", "status_line", "text_report", "write_reports"]
