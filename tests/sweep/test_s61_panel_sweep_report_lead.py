"""Review s61 panels/tune #4: `balance report` of a panel-sweep directory printed only the report's
path, while every other page kind prints its lead, and docs/sweep.md says the start-coins caution
appears in what `balance report` prints of a panel sweep. It now prints the page's lead: the
headline sentences `balance sweep --panel` printed, and the caution of one seat's start coins
played with heuristic bots."""

from __future__ import annotations

import pytest

from in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 1 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


@pytest.fixture(scope="module")
def coins_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("s61ps") / "ps"
    done = balance("sweep", "--game", "middle-ages", "--players", "3,4", "--lineup", "balanced",
                   "--vary", "setup.start_coins[0]=0..4:4", "--games", 400, "--seed", 1, "--out", out)
    return out, [x for x in done.stdout.splitlines() if x.strip()]


def test_the_report_of_a_panel_sweep_prints_its_lead_and_the_coins_caution(coins_sweep, tmp_path):
    out, swept = coins_sweep
    lead = [x for x in swept if not x.startswith("panel sweep: ")]
    assert any("Caution: one seat's start coins" in x for x in lead), swept
    with figures_undrawn():
        done = balance("report", out, "--out", tmp_path / "r")
    printed = [x.strip() for x in done.stdout.splitlines() if x.strip()]
    assert printed[-1] == f"report: {tmp_path / 'r' / 'report.html'}", printed
    # every sentence balance sweep --panel printed, the caution among them, before the path
    assert len(printed) > 1, printed                  # (it printed the path alone)
    assert printed[0].endswith(":"), printed
    assert printed[1:-1] == [x.strip() for x in lead], printed
