"""Games stopped at the turn limit are warned of wherever their win shares are read.

A Seigneurial variant whose games mostly stopped at the 200-turn bound (57% of them: the
Censitaires "share the win" of a stopped game) printed "The Seigneur wins 28.9%" in ``simulate``'s
closing table, in ``balance report``'s lead and in a before/after without a word of it (only a
tune's verdict warned). From :data:`simcore.turn_limit.TURN_LIMIT_WARN` of a run's games, each now
leads with the warning. The counts are checked against the games' own end reasons
(games.parquet, read here), in Seigneurial and Médiévallons, the two games with a turn limit.
The pages' words are read, not their figures' pixels: every report here is written with its
figures built but not drawn (``undrawn``, tests/undrawn_figures.py; the sweep's error bars, which
crashed its page, are built with the figure).
"""

from __future__ import annotations

import io

import polars as pl
import pytest
from rich.console import Console

from simcore import runner
from simcore.turn_limit import TURN_LIMIT_WARN, TurnLimit, from_counts, from_stats, warning

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def _stopped(run) -> tuple[int, int, float]:
    """(games at the turn limit, games, mean turns), from the run's own rows."""
    import json

    names = {int(k): v for k, v in json.loads((run / "run.json").read_text())["end_reason_names"].items()}
    code = next(k for k, v in names.items() if v == "truncated")
    g = pl.read_parquet(run / "games.parquet")
    return int((g["end_reason"] == code).sum()), g.height, float(g["turns"].mean())


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Seigneurial under an 8-turn bound (most games stop there) and at its shipped bound (none
    does), and Médiévallons under a 40-turn bound."""
    base = tmp_path_factory.mktemp("turn_limit")
    out = {}
    for name, game, settings, games in (("short", "seigneurial", ["end.max_turns=8"], 800),
                                        ("shipped", "seigneurial", [], 800),
                                        ("mv", "medievallons", ["end.max_turns=40"], 200)):
        out[name] = runner.simulate(game, games=games, seed=3, out=base / name, settings=settings,
                                    raw=True, result=True, quiet=True)
    return out


def test_the_counts_are_the_games_own(runs):
    """from_stats (simulate's closing table, no polars) counts what the games' rows say."""
    for name in ("short", "mv", "shipped"):
        res = runs[name]
        lim = from_stats(res.stats, res.meta["end_reason_names"])
        stopped, total, mean = _stopped(res.path)
        assert (lim.games, lim.total) == (stopped, total), name
        assert lim.mean_turns == pytest.approx(mean, rel=1e-12), name
    assert runs["short"].path and from_stats(runs["short"].stats, runs["short"].meta["end_reason_names"]).flagged
    assert _stopped(runs["shipped"].path)[0] == 0


def test_the_threshold_is_where_it_says():
    at = from_counts({"truncated": 5, "seigneur_goal": 95})
    below = from_counts({"truncated": 4, "seigneur_goal": 96})
    assert at.share == pytest.approx(TURN_LIMIT_WARN) and at.flagged and warning(at)
    assert not below.flagged and warning(below) == ""
    assert from_counts({"third_guild": 10, "empty_pile": 3}) is None      # no turn limit in the game
    said = warning(TurnLimit(57, 100, mean_turns=177.25))
    assert said.startswith("Warning: 57.0% of the games (57 of 100) ended at the turn limit")
    assert "177.2 turns on average" in said or "177.3 turns on average" in said


def test_simulate_closing_table_warns(runs):
    from cli.progress import print_summary

    for name, warned in (("short", True), ("mv", True), ("shipped", False)):
        out = io.StringIO()
        print_summary(Console(file=out, width=400), runs[name])
        text = " ".join(out.getvalue().split())
        stopped, total, _ = _stopped(runs[name].path)
        said = f"Warning: {100 * stopped / total:.1f}% of the games ({stopped:,} of {total:,}) ended at the turn limit"
        assert (said in text) is warned, (name, text)
        assert ("turn limit" in text) is warned


def test_report_leads_with_the_warning(runs, tmp_path, undrawn):
    from in_process import balance

    short, shipped = runs["short"].path, runs["shipped"].path
    stopped, total, _ = _stopped(short)
    said = f"Warning: {100 * stopped / total:.1f}% of the games ({stopped:,} of {total:,}) ended at the turn limit"
    done = balance("report", short, "--out", tmp_path / "one", "--target", "role=seigneur:25%:5")
    lines = [x.strip() for x in done.stdout.splitlines()]
    first = lines.index(f"{short.name}:") + 1
    assert lines[first].startswith(said), lines[first:first + 2]
    assert lines[first + 1].startswith("The Seigneur wins"), lines[first + 1]    # the findings follow
    targets = lines.index("design targets:") + 1
    assert lines[targets].startswith("Warning: the targets below are judged on games many of which "
                                     f"stopped at the turn limit (in {short.name}: {100 * stopped / total:.1f}%")
    html = (tmp_path / "one" / "report.html").read_text()
    assert said.replace("'", "&#x27;") in html or said in html
    # the page's lead: the warning before the first finding
    assert html.find("ended at the turn limit") < html.find("The Seigneur wins")

    # a run whose games end by the rules: no warning anywhere
    done = balance("report", shipped, "--out", tmp_path / "fine")
    assert "turn limit" not in done.stdout
    assert "Warning:" not in (tmp_path / "fine" / "report.html").read_text()

    # a before/after: the side with the stopped games named, the other's share beside it
    done = balance("report", shipped, short, "--out", tmp_path / "cmp")
    text = " ".join(done.stdout.split())
    head = f"{short.name} against {shipped.name}:"
    after = text[text.index(head) + len(head):].strip()
    assert after.startswith(f"Warning: {100 * stopped / total:.1f}% of {short.name}'s games ({stopped:,} of "
                            f"{total:,}) ended at the turn limit"), after[:200]
    assert f"(In {shipped.name}, 0.0% of the games ended at the turn limit: 0 of 800.)" in after


def test_a_sweep_page_names_the_variants_that_stopped(tmp_path, undrawn):
    """A sweep over the bound itself: the variant at 8 turns (a fifth of its games stopped there,
    and the Censitaires won every game: a share of 100%, whose curve's error bar crashed the page
    with "'yerr' must not contain negative values") is named first on the page and in the
    terminal; the shipped bound's variant is not."""
    import json

    from in_process import balance

    sweep = tmp_path / "sweep"
    balance("sweep", "--game", "seigneurial", "--vary", "end.max_turns=[8, 200]", "--games", "600",
            "--seed", "3", "--out", sweep)
    variants = json.loads((sweep / "sweep.json").read_text())["variants"]
    counts = {v["label"]: _stopped(sweep / "variants" / v["id"]) for v in variants}
    short = counts["end.max_turns=8"]
    assert short[0] / short[1] >= TURN_LIMIT_WARN and counts["end.max_turns=200"][0] == 0
    done = balance("report", sweep, "--out", tmp_path / "page")
    text = " ".join(done.stdout.split())
    said = (f"Warning: in 1 of the 2 variants, 5% or more of the games ended at the turn limit (the "
            f"rules' safety bound end.max_turns, not an end of the game's own): end.max_turns=8: "
            f"{100 * short[0] / short[1]:.1f}% of {short[1]:,} (at 8 turns).")
    assert said in text, text
    assert "end.max_turns=200:" not in text
    html = (tmp_path / "page" / "report.html").read_text()
    assert html.find("ended at the turn limit") < html.find("What moves what")


@pytest.fixture(scope="module")
def panels(tmp_path_factory):
    """Seigneurial's default panel, 800 games a cell, at its shipped bound (``base``) and under a
    9-turn bound (``short``: some cells stop there, not every one), played once for the module's
    two panel tests."""
    from cli import _run, _simulate_app

    root = tmp_path_factory.mktemp("turn_limit_panels")
    for name, sets in (("base", []), ("short", ["--set", "end.max_turns=9"])):
        assert _run(["--game", "seigneurial", "--panel", "default", "--games", "800", "--seed", "3", *sets,
                     "--out", str(root / name), "-q"], prog="simulate", target=_simulate_app()) == 0
    return root


def test_a_panel_lead_names_the_cells_that_stopped(panels, tmp_path, undrawn):
    """A panel under a 9-turn bound: the lead (the page's and the terminal's) starts with the cells
    where 5% or more of the games stopped there, each with its share from its own games."""
    from analysis.panel import panel_table
    from in_process import balance

    panel = panels / "short"
    t = panel_table([panel])
    cells = sorted(p for p in panel.iterdir() if p.is_dir())
    shares = {}
    for d in cells:
        stopped, total, _ = _stopped(d)
        shares[d] = (stopped, total)
    flagged = [d for d, (k, n) in shares.items() if k / n >= TURN_LIMIT_WARN]
    assert flagged and len(flagged) < len(cells), shares       # some cells, not every one
    lead = t.lead[0]
    assert lead.startswith(f"Warning: in {len(flagged)} of the {len(cells)} cells, 5% or more of the games "
                           "ended at the turn limit"), lead
    for d, label in zip(cells, t.labels):
        k, n = shares[d]
        assert (f"{label}: {100 * k / n:.1f}% of {n:,}" in lead) is (d in flagged), (label, lead)
    done = balance("report", panel, "--out", tmp_path / "page")
    assert lead in " ".join(done.stdout.split()), done.stdout
    # the cell table marks them too: a column of each cell's share and count (second review)
    html = (tmp_path / "page" / "report.html").read_text()
    assert "games at the turn limit" in html
    for d in flagged:
        k, n = shares[d]
        assert f"{100 * k / n:.1f}% ({k:,})" in html


def test_the_bound_is_named_and_panels_compared_or_targeted_warn(panels, tmp_path, undrawn):
    """The warning names the bound the stopped games reached; a before/after of two panels warns
    for the panel whose cells stopped, and a panel's targets are said to be judged on them
    (the second review: both were silent)."""
    from in_process import balance

    done = balance("report", panels / "base", panels / "short", "--out", tmp_path / "cmp")
    first = done.stdout.strip().splitlines()[0]
    assert first.startswith("Warning: in the panel short, in "), first
    assert "(at 9 turns)" in first and "in the panel base" not in done.stdout
    done = balance("report", panels / "short", "--out", tmp_path / "t", "--target", "role=seigneur:25%:5")
    text = " ".join(done.stdout.split())
    assert ("Warning: the targets below are judged on games many of which stopped at the turn limit "
            "(in 4p ") in text and "every verdict there, met or missed, describes unfinished games" in text


def test_a_runs_warning_names_the_bound(runs, tmp_path, undrawn):
    from in_process import balance

    done = balance("report", runs["short"].path, "--out", tmp_path / "r")
    assert "ended at the turn limit of 8 turns ('Turn limit reached'" in done.stdout, done.stdout[:400]
