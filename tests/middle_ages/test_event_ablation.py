"""The Middle-Ages event ablation (analysis.questions.middle_ages, `balance questions`): a card made
neutral keeps the deck and every draw (common random numbers), changes only games where it is
drawn, and cards acting through tiles get non-zero total effects with intervals."""

from __future__ import annotations


import numpy as np
import polars as pl
import pytest

from analysis.questions import middle_ages as M
from simcore.games.middle_ages import rules as R
from simcore.errors import UsageError

from in_process import balance
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def test_a_neutral_card_keeps_its_place_and_loses_every_effect():
    rules = R.load()
    n = M.neutralised(rules, 3)                       # Invasion barbare: lose champs, moulin
    k = int(np.flatnonzero(rules.event_ids == 3)[0])
    assert rules.event_lose[k].any() and not n.event_lose[k].any()
    assert (n.event_ids == rules.event_ids).all()
    others = np.arange(len(rules.event_ids)) != k
    for f in M._EFFECT_FIELDS:
        assert (getattr(n, f)[others] == getattr(rules, f)[others]).all()
    with pytest.raises(UsageError):
        M.neutralised(rules, 99)


def test_games_without_the_card_are_the_same_games():
    rules = R.load()
    w, s, ev = M._play(rules, 4, 600, 5, None, 1)
    w2, s2, ev2 = M._play(M.neutralised(rules, 14), 4, 600, 5, None, 1)   # Tremblement de terre
    assert (ev == ev2).all()
    drawn = (ev == 14).any(axis=1)
    assert 0 < drawn.sum() < 600
    assert (s[~drawn] == s2[~drawn]).all() and (w[~drawn] == w2[~drawn]).all()
    assert (s[drawn] != s2[drawn]).any()


def test_balance_questions_writes_the_event_ablation_with_tile_cards_non_zero(tmp_path, monkeypatch):
    # the questions replay their own 3,000 deals from the run's seed, players and bots: the run's
    # games themselves are not read, so a small run serves (was 2,000 games)
    # The simultaneous critical value over the 60 effects drawn with 20,000 normal vectors instead
    # of 200,000 (within ~0.015 of it: 0.003 coins of the ~0.55-coin half-widths; 0.75 s of CPU
    # less): each of the three cards' clearest upper end (-2.1, -1.0, -1.6 coins) is far below 0.
    from functools import partial

    from analysis import stats

    monkeypatch.setattr(stats, "max_abs_normal_quantile", partial(stats.max_abs_normal_quantile, draws=20_000))
    run = tmp_path / "run"
    balance("simulate", "--games", "200", "--out", run, "-q")
    out = tmp_path / "q"
    balance("questions", run, "--out", out, "--games", "3000", "-q")
    d = pl.read_csv(out / "event_ablation.csv")
    assert d.height == 15 * 4
    for c in ("event", "name", "seat", "win_share_effect", "score_effect", "win_share_effect_low",
              "win_share_effect_high", "score_effect_low", "score_effect_high"):
        assert c in d.columns
    assert d["seat_label"].to_list() == [f"Seat {s + 1}" for s in d["seat"]]     # as the page says
    for name in ("Invasion barbare", "Peste noire", "Tremblement de terre"):
        rows = d.filter(pl.col("name") == name)
        assert (rows["score_effect"] != 0).all(), name
        assert (rows["score_effect"] < 0).all(), name            # they cost coins
        assert (rows["score_effect_high"] < 0).any(), name       # clearly, even on 3,000 games
        assert (rows["win_share_effect_low"] <= rows["win_share_effect"]).all()
    # a second write without --force is refused, and a game without played questions too
    again = balance("questions", run, "--out", out, check=False)
    assert again.returncode == 2 and again.stderr.count("\n") == 1


def test_the_report_plays_the_event_ablation_when_asked(tmp_path, capsys, middle_ages_report, monkeypatch):
    """`balance report RUN --play-questions` plays the Middle-Ages questions itself (reports only
    read: the command plays them into a scratch directory first) and shows the ablation section;
    without it a Middle-Ages report plays nothing (the shared `balance report RUN` of
    tests/conftest.py); --questions and --play-questions together, or --play-questions of a game
    without questions, are one line, exit code 2.

    The page's words and the kept table's columns are read, not the intervals' ends: the
    simultaneous critical values are drawn with 20,000 normal vectors instead of 200,000 (within
    ~0.015 of them; ~1 s of CPU less)."""
    from functools import partial

    from analysis import stats
    from cli import _run
    from simcore import runner

    monkeypatch.setattr(stats, "max_abs_normal_quantile", partial(stats.max_abs_normal_quantile, draws=20_000))

    run = runner.simulate("middle-ages", games=300, seed=2, out=tmp_path / "run", quiet=True, players=4)
    out = tmp_path / "rep"
    # the page's words and the kept table are read, not the figures' pixels: the questions section
    # has no figure, the report's others are drawn for real by tests/reports/test_report.py
    with figures_undrawn():
        assert _run(["report", str(run), "--out", str(out), "--play-questions",
                     "--questions-games", "150"]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Invasion barbare" in page and "event_ablation" in " ".join(p.name for p in (out / "questions").iterdir())
    # the ablation's answer (its first sentence) is among the headline findings, right after the
    # seats' findings, which lead (the designer's first question)
    import re

    def items(section_id):
        body = re.search(rf"<section id='{section_id}'>(.*?)</section>", page, re.S).group(1)
        return re.findall(r"<li>(.*?)</li>", body, re.S)

    heads = items("headlines")
    at = heads.index(items("event_ablation")[0])
    assert at >= 1 and re.match(r"Seat \d wins", heads[0]), heads[:at + 1]
    # right after the run's own seat findings (their number: the page's seat sentences, here from
    # the run's tables)
    from analysis import analyse, open_runs
    from reports.text import seat_headlines

    assert at == len(seat_headlines(analyse(open_runs([run.path] if hasattr(run, "path") else [run]))))
    kept = pl.read_csv(out / "questions" / "event_ablation.csv")
    assert {"win_share_effect_low", "score_effect_high"} <= set(kept.columns)
    assert not any(p.name.startswith(".") and "questions" in p.name for p in tmp_path.iterdir())
    _, plain = middle_ages_report
    assert (plain / "report.html").is_file() and not (plain / "questions").exists()
    capsys.readouterr()
    assert _run(["report", str(run), "--out", str(tmp_path / "x"), "--play-questions", "--questions",
                 str(out / "questions")]) == 2
    assert "give one" in capsys.readouterr().err
    fief = runner.simulate("fief-combat", games=50, out=tmp_path / "fief", quiet=True)
    assert _run(["report", str(fief), "--out", str(tmp_path / "y"), "--play-questions"]) == 2
    err = capsys.readouterr().err.strip()
    assert "no played balance questions" in err and len(err.splitlines()) == 1
