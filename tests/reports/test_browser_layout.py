"""Every report kind of every game, seen in a real browser (headless Chromium, 1280 px wide).

Slow (``make test-slow``): builds a report of one run of each game, a before/after of each game, a
Middle-Ages report of four strategies on rotated seats (the strategy and matchup tables), a sweep
page and a tune page, opens each in headless Chromium (the Debian ``chromium`` package;
skipped, with the reason, only when no Chromium is installed) and measures the laid-out page with a
script injected into a copy: no horizontal overflow of the page, no figure or table wider than the
page, no table text under 11 px, no cell whose text overflows it, no cell taller than 160 px (notes
squeezed into a narrow column). ``SCREENSHOTS_DIR=docs/screenshots`` also saves the first screen of
each kind there (how docs/screenshots/*.png are made).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from simcore import runner

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--hide-scrollbars", "--window-size=1280,900", "--virtual-time-budget=3000"]
PROBE = """<script>
window.addEventListener('load', () => {
  const W = document.documentElement.clientWidth;
  const cells = [...document.querySelectorAll('td,th')];
  const r = {width: W, scroll: document.documentElement.scrollWidth,
    wide_images: [...document.images].filter(i => i.getBoundingClientRect().right > W + 1).map(i => i.alt),
    wide_tables: [...document.querySelectorAll('table')].filter(t => t.getBoundingClientRect().right > W + 1).length,
    small_text: cells.filter(c => parseFloat(getComputedStyle(c).fontSize) < 11).length,
    overflowing: cells.filter(c => c.scrollWidth > c.clientWidth + 1).map(c => c.textContent.slice(0, 40)),
    tall_cells: cells.filter(c => c.getBoundingClientRect().height > 160).map(c => c.textContent.slice(0, 40))};
  const pre = document.createElement('pre'); pre.id = 'layout-probe'; pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
});
</script>"""


def layout(page: Path, tmp: Path) -> dict:
    copy = tmp / f"probe-{page.parent.name}.html"
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    out = subprocess.run([CHROMIUM, *FLAGS, "--dump-dom", copy.as_uri()], capture_output=True, text=True,
                         timeout=300)
    m = re.search(r'<pre id="layout-probe">(.*?)</pre>', out.stdout, re.S)
    assert m, f"Chromium gave no layout for {page}: {out.stderr[-400:]}"
    import html

    return json.loads(html.unescape(m.group(1)))


def screenshot(page: Path, png: Path) -> None:
    subprocess.run([CHROMIUM, *FLAGS, f"--screenshot={png}", page.as_uri()], capture_output=True,
                   timeout=300, check=True)


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium)")
    from analysis.tune.search import plan_tune, run_tune
    from reports.build import build_report
    from reports.sweep import build_sweep_report, build_tune_report

    root = tmp_path_factory.mktemp("browser")
    sim = dict(games=3000, quiet=True)
    out = {}
    variants = {"middle-ages": ["income.palais.base=4"], "medievallons": ["deck.copies.chevalier=7"],
                "seigneurial": ["track.start_square=2"]}
    for game, sets in variants.items():
        base = runner.simulate(game, out=root / f"{game}", seed=1, **sim)
        var = runner.simulate(game, out=root / f"{game}-var", seed=2, settings=sets, **sim)
        out[f"{game}-report"] = build_report([base], root / f"rep-{game}")
        out[f"{game}-before-after"] = build_report([base, var], root / f"cmp-{game}")
    fief = runner.simulate("fief-combat", out=root / "fief", seed=1, games=20_000, quiet=True)
    fief2 = runner.simulate("fief-combat", out=root / "fief-var", seed=2, games=20_000, quiet=True, attacker=12)
    out["fief-combat-before-after"] = build_report([fief, fief2], root / "cmp-fief")
    out["fief-combat-report"] = build_report([fief], root / "rep-fief")
    # four strategies on rotated seats: the strategy and matchup tables (Holm verdicts) at 1280 px
    mixed = runner.simulate("middle-ages", out=root / "ma-mixed", seed=3, games=2000, quiet=True,
                            strategies="balanced,greedy,eventwise,random", rotate_seats=True)
    out["middle-ages-matchups"] = build_report([mixed], root / "rep-ma-mixed")
    from cli import _run

    sw = root / "sweep"
    assert _run(["sweep", "--game", "seigneurial", "--out", str(sw), "--vary", "track.start_square=0..3",
                 "--vary", "censitaire_cards.recolte=6..12:3", "--games", "1000", "--quiet"]) == 0
    out["sweep"] = build_sweep_report(sw, root / "rep-sweep")
    plan = plan_tune("seigneurial", varies=["track.start_square=0..3", "censitaire_cards.recolte=5..12"],
                     targets=["role=seigneur:4:3"], seed=2, trials=6, min_games=500, max_games=1000,
                     eta=2, confirm_games=2000, stop_when_met=False)
    run_tune(plan, root / "tune")
    out["tune"] = build_tune_report(root / "tune", root / "rep-tune")
    return out


KINDS = [f"{g}-{k}" for g in ("middle-ages", "medievallons", "seigneurial") for k in ("report", "before-after")] \
    + ["fief-combat-report", "fief-combat-before-after", "middle-ages-matchups", "sweep", "tune"]


@pytest.mark.parametrize("kind", KINDS)
def test_page_lays_out_at_1280_px(pages, kind, tmp_path):
    r = layout(pages[kind], tmp_path)
    assert r["scroll"] <= r["width"], f"{kind}: the page scrolls sideways ({r['scroll']} > {r['width']} px)"
    assert not r["wide_images"], f"{kind}: figures wider than the page: {r['wide_images']}"
    assert r["wide_tables"] == 0, f"{kind}: {r['wide_tables']} tables wider than the page"
    assert r["small_text"] == 0, f"{kind}: table text under 11 px"
    assert not r["overflowing"], f"{kind}: cell text overflows its cell: {r['overflowing'][:5]}"
    assert not r["tall_cells"], f"{kind}: cells taller than 160 px (squeezed text): {r['tall_cells'][:5]}"
    target = os.environ.get("SCREENSHOTS_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        screenshot(pages[kind], Path(target) / f"{kind}.png")
