"""Review s59 fx229 #2: a panel over several player counts played under one ``--set`` of a per-seat
setting (``setup.start_coins[0]=1`` on the single number of the shipped rules) was refused by
``balance report DIR`` as "played under 2 different rule sets": the 3-player cells' rules list
``start_coins = [1, 0, 0]`` and the 4-player cells' ``[1, 0, 0, 0]``, two rules texts, yet the
rules one file gives every cell. Such cells are now one rule set (:func:`analysis.panel.one_rule_set`);
cells that truly played two rule sets are still refused in one line, and the two rule sets read
differently in it even where their rules_name is the same (the file edited between the runs)."""

from __future__ import annotations

from pathlib import Path

from in_process import balance
from undrawn_figures import figures_undrawn
import pytest

pytestmark = pytest.mark.slow   # (session 64: a review regression costing >= 0.3 s of CPU in all, moved whole to the slow tier for make test's budget; docs/testing.md)


def _simulate(*args) -> None:
    from cli import _run, _simulate_app

    assert _run([str(a) for a in (*args, "--quiet")], prog="simulate", target=_simulate_app()) == 0


def test_a_per_seat_set_over_three_and_four_players_is_one_rule_set(tmp_path):
    _simulate("--players", "3,4", "--lineup", "balanced", "--set", "setup.start_coins[0]=1",
              "--games", "300", "--seed", "1", "--out", tmp_path / "simp")
    with figures_undrawn():
        done = balance("report", tmp_path / "simp", "--out", tmp_path / "page", check=False)
    assert done.returncode == 0, done.stderr
    assert "different rule sets" not in done.stderr
    assert (tmp_path / "page").is_dir()


def test_one_rule_set_reads_the_seats_each_count_plays():
    from analysis.panel import one_rule_set

    def meta(players: int, coins: str, extra: str = "") -> dict:
        text = f"[setup]\nstart_coins = {coins}\nextra_coin_tokens = 8\n{extra}"
        return {"game": "middle-ages", "players": players, "rules_text": text,
                "rules_sha256": str(hash(text))}

    # the tuned fix of the review: [1, 0, 3] at 3 players, [1, 0, 3, 0] at 4
    assert one_rule_set(meta(3, "[1, 0, 3]"), meta(4, "[1, 0, 3, 0]"))
    # a single number and the list of it at a count
    assert one_rule_set(meta(4, "2"), meta(3, "[2, 2, 2]"))
    # a seat both counts seat starts with other coins: two rule sets
    assert not one_rule_set(meta(3, "[1, 0, 3]"), meta(4, "[2, 0, 3, 0]"))
    assert not one_rule_set(meta(4, "[1, 0, 3, 0]"), meta(4, "[1, 0, 3, 1]"))
    assert not one_rule_set(meta(3, "0"), meta(4, "[1, 0, 0, 0]"))
    # any other setting that differs: two rule sets, at one count or at two
    assert not one_rule_set(meta(3, "[1, 0, 3]"), meta(4, "[1, 0, 3, 0]", "[effects]\nmoulin_payment = 3\n"))
    assert not one_rule_set(meta(4, "0", "[effects]\nmoulin_payment = 3\n"), meta(4, "0"))


def test_two_rule_sets_are_still_refused_and_named_apart(tmp_path):
    rules = tmp_path / "rules.toml"
    shipped = Path(__file__).resolve().parents[2] / "configs" / "middle_ages" / "rules.toml"
    text = shipped.read_text(encoding="utf-8")
    rules.write_text(text, encoding="utf-8")
    _simulate("--players", "3", "--lineup", "balanced", "--rules", rules, "--set",
              "setup.start_coins[0]=1", "--games", "200", "--out", tmp_path / "a")
    # the same file edited: the same rules_name ("rules.toml with --set …"), other rules
    assert "moulin_payment = 2" in text
    rules.write_text(text.replace("moulin_payment = 2", "moulin_payment = 3", 1), encoding="utf-8")
    _simulate("--players", "4", "--lineup", "balanced", "--rules", rules, "--set",
              "setup.start_coins[0]=1", "--games", "200", "--out", tmp_path / "b")
    done = balance("report", "--cells", tmp_path / "a" / "cell-0", tmp_path / "b" / "cell-0",
                   "--out", tmp_path / "page", check=False)
    assert done.returncode == 2
    line = done.stderr.strip()
    assert line.startswith("error: the cells were played under 2 different rule sets") and "\n" not in line, line
    named = line.split(" rule sets (", 1)[1].split("): a panel's page", 1)[0]
    first, second = named.split("; ")
    assert first.split(": ", 1)[1] != second.split(": ", 1)[1], named
    assert "effects.moulin_payment = 2" in first and "effects.moulin_payment = 3" in second, named
    assert not (tmp_path / "page").exists()
