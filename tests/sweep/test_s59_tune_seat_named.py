"""Review s59 fx229 #4: docs/sweep.md says a per-seat setting "is named with its seat everywhere a
designer reads it", yet best_rules.toml's first line read "(setup.start_coins[0]=1,
setup.start_coins[2]=3)" beside the headline's "setup.start_coins[0]=1 (seat 1's)". The first line
now names each seat after the path (which stays as --set takes it), and `balance skill`, which reads
the fix back from that line, still finds it. (The verdict's tied trials: tests/reports/test_tune_revF.py.)"""

from __future__ import annotations

from analysis.tune.cells import aggregate
from analysis.tune.search import BEST_RULES_HEAD, best_rules_header, plan_tune
from analysis.tune.targets import Judgement


def test_best_rules_first_line_names_each_seat(tmp_path):
    from cli.skill import tuned_change

    plan = plan_tune("middle-ages", varies=["setup.start_coins[0]=0..8", "setup.start_coins[2]=0..8"],
                     targets=["seat-balance:5"], trials=1, min_games=200, max_games=200, eta=2,
                     confirm_games=4000, players=4)
    judged = Judgement(0.5, 0.2, 0.9, True, 4000, [{"met": True, "missed": False}])
    head = best_rules_header(plan, {"setup.start_coins[0]": 1, "setup.start_coins[2]": 3},
                             aggregate([judged], ["4p 4×balanced"], [1.0]), "4p 4×balanced", "")
    first = head.splitlines()[0]
    assert first == (f"# {BEST_RULES_HEAD} (setup.start_coins[0]=1 (seat 1's), "
                     "setup.start_coins[2]=3 (seat 3's))"), first
    rules = tmp_path / "best_rules.toml"
    rules.write_text(head, encoding="utf-8")
    assert tuned_change(rules) == "setup.start_coins[0]=1 (seat 1's), setup.start_coins[2]=3 (seat 3's)"
