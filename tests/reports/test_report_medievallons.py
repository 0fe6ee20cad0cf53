"""The report of a Médiévallons run answers the balance questions of issue #7: game length and end
reasons (MV-6, MV-7), guild types (MV-4), and the questions played for the report (first player per
player count (MV-2), card ablation (MV-1 deck), best of 3 (MV-7)) with their CSV tables (tests/reports/test_report.py checks that none of it appears
for a Middle-Ages run). Expected numbers
are recomputed here from the parquet files with numpy, not taken from the tables under test."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import polars as pl
import pytest
import analysis_runs as runs

from analysis.questions import medievallons as MV
from reports.build import build_report
from reports.text import num, pct
from cli import _run
from cli import report as report_cli
from undrawn_figures import figures_undrawn

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

QGAMES = 300
NEW_SECTIONS = ("length", "guilds", "questions")
QUESTION_FIGURES = {"questions_first_player", "questions_ablation", "questions_best_of_three"}
NEW_FIGURES = {"game_length", "guild_types", *QUESTION_FIGURES}


def text(page: str) -> str:
    """The page with entities decoded and the hover-title tags (<abbr>) around terms dropped."""
    return html.unescape(re.sub(r"</?abbr[^>]*>", "", page))


@pytest.fixture(scope="module")
def mv(tmp_path_factory):
    root = tmp_path_factory.mktemp("mvreport")
    base = runs.medievallons_run(root / "base", 3000, 4, seed=5)
    variant = runs.medievallons_run(root / "chevalier7", 3000, 4, seed=6, copies={"chevalier": 7})
    out = root / "out"
    said: list[str] = []
    questions = MV.questions_for_run(base, QGAMES, root / "questions", progress=said.append)
    # The played questions' figures are drawn for real here (the only report that draws them); the
    # run's own (seat_advantage, game_length, guild_types, scores) are drawn, and their PDF pages
    # read, in test_report_words_pdf.py's Médiévallons report: here they are white stand-ins of
    # their own pixel size (undrawn_figures.py), so that the PDF is laid out page for page as drawn.
    with figures_undrawn(drawn=tuple(sorted(QUESTION_FIGURES)), sized=True):
        page = build_report([base], out, pdf=True, questions=questions, progress=said.append)
    return {"root": root, "base": base, "variant": variant, "out": out, "said": said,
            "html": text(page.read_text(encoding="utf-8")),
            "players": pl.read_parquet(base / "players.parquet"),
            "games": pl.read_parquet(base / "games.parquet")}


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_sections_figures_and_csv_tables_are_written(mv):
    page = mv["html"]
    for sid in ("headlines", "seats", *NEW_SECTIONS, "scores"):
        assert f"<section id='{sid}'>" in page, sid
    assert "Game length and end reasons" in page and "Guild types" in page
    # given as a directory (as --questions DIR), not played by the report (review D #4, session 42)
    assert f"Balance questions (read from {mv['root'] / 'questions'})" in page
    assert "Balance questions (played for this report)" not in page
    figs = {p.stem for p in (mv["out"] / "figures").glob("*.png")}
    assert NEW_FIGURES <= figs
    assert not list((mv["out"] / "figures").glob("*.svg"))      # SVGs only when asked (--svg)
    q = mv["out"] / "questions"
    assert {p.name for p in q.iterdir()} == {"first_player.csv", "card_types.csv", "best_of_three.csv",
                                             "settings.json"}
    for name in ("first_player.csv", "card_types.csv", "best_of_three.csv"):
        assert f"questions/{name}" in page
    settings = json.loads((q / "settings.json").read_text())
    assert settings["games"] == QGAMES and settings["strategy"] == "balanced" and settings["seed"] == 5
    assert settings["player_counts"] == [2, 3, 4, 5] and settings["card_players"] == 4


def test_played_tables_cover_the_questions(mv):
    q = mv["out"] / "questions"
    fp = pl.read_csv(q / "first_player.csv")
    assert sorted(set(fp["players"])) == [2, 3, 4, 5]
    assert fp.height == 2 + 3 + 4 + 5 and (fp["games"] == QGAMES).all()
    ct = pl.read_csv(q / "card_types.csv")
    assert ct.height == 13 and (ct["players"] == 4).all()
    assert (ct["copies_after"] == 7).all()                       # one copy removed from each type
    b3 = pl.read_csv(q / "best_of_three.csv")
    assert b3.height == 3 and (b3["matches"] == QGAMES).all()
    assert ((b3["match_win_rate"] >= 0) & (b3["match_win_rate"] <= 1)).all()


def test_first_player_at_the_runs_count_replays_the_run(mv):
    """Same rules, seed and bots: the played 4-player table is the run's first games again."""
    fp = pl.read_csv(mv["out"] / "questions" / "first_player.csv").filter(pl.col("players") == 4)
    p = mv["players"].filter(pl.col("game") < QGAMES)
    for s in range(4):
        w = p.filter(pl.col("seat") == s)["win_share"].to_numpy().astype(float)
        assert fp.filter(pl.col("seat") == s)["win_share"][0] == pytest.approx(w.mean(), abs=1e-6)
    assert f"replay the run's first {QGAMES:,} games" in mv["html"]


def test_played_sentences_equal_the_csv_tables(mv, multipletests):
    page = html.unescape(re.sub(r"<[^>]+>", "", mv["html"]))      # the words (method clauses fold)
    from scipy.stats import norm

    fp = pl.read_csv(mv["out"] / "questions" / "first_player.csv")
    # at the run's 4 players the page reads the run itself (its 3,000 games, not the 300 played
    # again: revA #1); its seat 1 recomputed here from players.parquet
    w = mv["players"].filter(pl.col("seat") == 0)["win_share"].to_numpy().astype(float)
    own = dict(players=4, seat=0, games=w.size, win_share=w.mean(),
               z=(w.mean() - 0.25) / (w.std(ddof=1) / np.sqrt(w.size)))
    fp = pl.concat([fp.filter(pl.col("players") != 4).select(list(own)),
                    pl.DataFrame([own]).cast(fp.select(list(own)).schema)])
    # seat 1's advantage worded by size, Holm over the player counts (recomputed with statsmodels)
    first = fp.filter(pl.col("seat") == 0).sort("players")
    holm = multipletests(2 * norm.sf(first["z"].abs().to_numpy()), method="holm")[0]
    for P, clear in zip(first["players"], holm):
        r = fp.filter((pl.col("players") == P) & (pl.col("seat") == 0)).row(0, named=True)
        # Wilson over the games (statsmodels): a rate's interval keeps a width at 0% or 100%
        from statsmodels.stats.proportion import proportion_confint
        lo, hi = proportion_confint(r["win_share"] * r["games"], r["games"], method="wilson")
        word = ("within noise" if not clear else "clear and large enough to matter"
                if abs(r["win_share"] - 1 / P) >= 0.01 else "clear but small")
        if P == 4:
            line = f"4 players: Seat 1 (plays first) wins {100 * r['win_share']:.1f}% ("
            assert line in page and "(95%, unadjusted) in the run itself (3,000 games" in \
                page[page.index(line):page.index(line) + 200]
            assert f", {word} (Holm over the 4 player counts" in page[page.index(line):page.index(line) + 400]
            continue
        head = (f"{P} players: Seat 1 (plays first) wins {100 * r['win_share']:.1f}% "
                f"({100 * lo:.1f}–{100 * hi:.1f}) (95%, unadjusted) against a fair ")
        # the fair share 1/P, printed at the decimals the page prints that count's fair share with
        # (one value per player count since session 63: 33.3% or 33.33%, as its seats need)
        fair = re.search(re.escape(head) + r"(\d+(?:\.(\d+))?)%", page)
        assert fair, head
        assert abs(float(fair[1]) - 100 / P) <= 0.5 * 10.0 ** -len(fair[2] or ""), fair[0]
        line = fair[0]
        assert f"{line}: " in page and f", {word} (Holm over the 4 player counts; 1 pp matters)" in \
            page[page.index(line):page.index(line) + 400], (P, word)
    b3 = pl.read_csv(mv["out"] / "questions" / "best_of_three.csv")
    for r in b3.iter_rows(named=True):
        assert (f"2 players, {r['bot']} vs {r['opponent']}: {100 * r['single_round_win_rate']:.1f}%"
                in page)
        assert f"→ {100 * r['match_win_rate']:.1f}%" in page
    # the largest change in reading order (issue 29): clear by Holm over the types, large enough
    # (1 pp) before clear but small, then by size — never the largest |z|; recomputed here with
    # statsmodels' Holm from the CSV's z
    from scipy.stats import norm

    ct = pl.read_csv(mv["out"] / "questions" / "card_types.csv")
    d = ct.filter((pl.col("founded_share") >= 0.005) & pl.col("z").is_not_nan()
                  & pl.col("delta_founders_win_share").is_not_nan())
    clear = multipletests(2 * norm.sf(d["z"].abs().to_numpy()), method="holm")[0]
    clear &= (d["founded_share"] >= 0.01).to_numpy() & (d["founded_share_after"] >= 0.01).to_numpy()
    size = d["delta_founders_win_share"].abs().to_numpy()
    rank = [0 if c and a >= 0.01 else (1 if c else 2) for c, a in zip(clear, size)]
    top = d.row(min(range(d.height), key=lambda i: (rank[i], -size[i])), named=True)
    assert (f"founders win {100 * top['founders_win_share_after']:.1f}% instead of "
            f"{100 * top['founders_win_share']:.1f}%") in page
    assert "by at least 1 pp (clear and large enough to matter) for" in page


def test_progress_is_reported_while_playing(mv):
    said = " | ".join(mv["said"])
    for needle in ("first player at 2 players", "first player at 5 players", "card ablation at 4 players",
                   "best of 3"):
        assert needle in said, needle


def test_length_headlines_equal_numpy(mv):
    page = mv["html"]
    turns = mv["games"]["turns"].to_numpy().astype(float)
    # a turn is one player's (MV-3): said in player turns with the rounds they make (review Z #7),
    # the quantiles too (review B, s41: "within 52 turns" after "54.6 player turns")
    m = re.search(r"A game lasts ([\d.]+) player turns on average \(([\d.]+)–([\d.]+), about ([\d.]+) "
                  r"rounds of (\d) players\); half of the games end "
                  r"within ([\d.]+) player turns, 90% last ([\d.]+) to ([\d.]+) player turns \(longest (\d+)\)\.", page)
    assert m, "length headline"
    P = int(m.group(5))
    assert P == mv["games"]["n_players"][0] and float(m.group(4)) == round(turns.mean() / P, 1)
    m = re.search(r"A game lasts ([\d.]+) player turns on average \(([\d.]+)–([\d.]+), about [\d.]+ "
                  r"rounds of \d players\); half of the games end "
                  r"within ([\d.]+) player turns, 90% last ([\d.]+) to ([\d.]+) player turns \(longest (\d+)\)\.", page)
    half = 1.9607 * turns.std(ddof=1) / np.sqrt(len(turns))    # t(2999) quantile ≈ 1.96075
    assert float(m.group(1)) == round(turns.mean(), 1)
    assert float(m.group(2)) == pytest.approx(round(turns.mean() - half, 1), abs=0.051)
    assert float(m.group(3)) == pytest.approx(round(turns.mean() + half, 1), abs=0.051)
    assert float(m.group(4)) == pytest.approx(np.quantile(turns, 0.5), abs=0.051)
    assert float(m.group(5)) == pytest.approx(np.quantile(turns, 0.05), abs=0.051)
    assert float(m.group(6)) == pytest.approx(np.quantile(turns, 0.95), abs=0.051)
    assert int(m.group(7)) == turns.max()
    reason = mv["games"]["end_reason"].to_numpy()
    names = json.loads((mv["base"] / "run.json").read_text())["end_reason_names"]
    top = int(np.bincount(reason).argmax())
    share = (reason == top).mean()
    label = {"third_guild": "Guild goal reached", "empty_pile": "Draw pile ran out"}[names[str(top)]]
    assert f"The most common end is “{label}”: {pct(share)}% (" in page


def test_guild_headlines_name_the_best_and_worst_type_for_founders(mv, multipletests):
    p = mv["players"]
    w = p["win_share"].to_numpy().astype(float)
    rates = {}
    for c in [c for c in p.columns if c.startswith("founded_")]:
        f = p[c].to_numpy() > 0
        if f.sum() >= 30 and f.mean() >= 0.005:
            rates[c.removeprefix("founded_")] = (w[f].mean(), w[~f].mean(), f.mean())
    names = {"pretre": "Prêtre", "etoile": "Étoile", "rodeur": "Rôdeur", "sorciere": "Sorcière"}
    best = max(rates, key=lambda k: rates[k][0])
    worst = min(rates, key=lambda k: rates[k][0])
    # clear or within noise, as an independent two-proportion z test (statsmodels, unpooled) with
    # Holm's correction over the types that rank (founded by >= 30 players and >= 0.5% of them;
    # review s49 #3: a type marked too few players is not tested) says (review J #6: the worst type
    # "win least often" at -0.4 pp, p = 1.000 in the table beside it)
    from statsmodels.stats.proportion import test_proportions_2indep

    tested, pvals = [], []
    for c in [c for c in p.columns if c.startswith("founded_")]:
        f = p[c].to_numpy() > 0
        if c.removeprefix("founded_") in rates and f.sum() < len(f):
            res = test_proportions_2indep(w[f].sum(), f.sum(), w[~f].sum(), (~f).sum(),
                                          method="wald", compare="diff")
            tested.append(c.removeprefix("founded_"))
            pvals.append(res.pvalue)
    clear = dict(zip(tested, multipletests(pvals, method="holm")[0]))
    for key, what in ((best, "most often"), (worst, "least often")):
        name = names.get(key, key.capitalize())
        m = re.search(rf"Players who found an? {name} guild win {what} of the ranked types: ([\d.]+)% "
                      rf"\(([\d.]+)–([\d.]+)\), (yet )?([\d.]+) pp (more|fewer) than the other players "
                      rf"\(([\d.]+)%\)(, within noise after Holm's correction over the {len(tested)} types|: clear[^(]*) "
                      rf"\(a fair share is 25\.0%; ([\d.]+)% of players found one; an association under bot play\)",
                      mv["html"])
        assert m, (name, what)
        assert float(m.group(1)) == round(100 * rates[key][0], 1)
        assert float(m.group(7)) == round(100 * rates[key][1], 1)
        assert float(m.group(5)) == pytest.approx(abs(round(100 * (rates[key][0] - rates[key][1]), 1)), abs=0.11)
        assert m.group(6) == ("more" if rates[key][0] > rates[key][1] else "fewer")
        # "yet" where the ranking and the gap point opposite ways (review Z #6)
        assert bool(m.group(4)) == ((m.group(6) == "more") == (what == "least often")), m.group(0)
        assert ("within noise" in m.group(8)) == (not clear[key]), (name, m.group(8), clear[key])
        assert float(m.group(9)) == round(100 * rates[key][2], 1)


def test_pdf_includes_the_new_sections(mv):
    pdf = (mv["out"] / "report.pdf").read_bytes()
    pages = len(re.findall(rb"/Type\s*/Page\b", pdf))
    figs = len(list((mv["out"] / "figures").glob("*.png")))
    # headline page + one page per figure + sentence pages of length, guilds and questions
    assert pages >= figs + 4


@pytest.fixture(scope="module")
def ablation(mv):
    """The before/after of the base rules and a rules file with one Chevalier fewer: (its folder,
    its page, its sections and figures). Its figures are built, not drawn (the words and figure
    names are read; undrawn_figures.py); test_figure_checklist.py's checks are made of them below
    (figure_checks.py)."""
    from figure_checks import sections_kept

    out = mv["root"] / "cmp"
    with figures_undrawn(), sections_kept({}) as built:
        page = text(build_report([mv["base"], mv["variant"]], out).read_text(encoding="utf-8"))
    return out, page, built["secs"], built["figs"]


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_every_figure_of_the_before_after_passes_the_checklist(ablation):
    """test_figure_checklist.py's checks of a real Médiévallons report (its own runs' case there
    runs under `make test-slow`): every figure of this before/after, each of the game's report
    figures and the comparison's, measured drawn against the figure checklist; every section with
    data shows a figure or a sentence."""
    from figure_checks import checklist_breaches, sections_showing_nothing

    _, _, secs, figs = ablation
    assert {"seat_advantage", "game_length", "guild_types", "scores", "comparison",
            "comparison_guilds"} <= set(figs)
    found = checklist_breaches(figs)
    assert not found, "\n".join(found)
    empty = sections_showing_nothing(secs)
    assert not empty, empty


def test_ablation_comparison_of_two_runs(mv, ablation):
    """Card ablation as a comparison: base rules vs a rules file with one Chevalier fewer. (Words
    and figure names: the figures need not be drawn, ``ablation``.)"""
    out, page, _, _ = ablation
    assert "<section id='comparison'>" in page
    for label in ("Chevalier: players founding a guild", "Chevalier: founders&#x27;",
                  "Mean game length", "Games ending: Guild goal reached"):
        assert label.replace("&#x27;", "'") in page, label
    assert "comparison_guilds" in {p.stem for p in (out / "figures").glob("*.png")}
    base = (mv["players"]["founded_chevalier"].to_numpy() > 0).mean()
    var = (pl.read_parquet(mv["variant"] / "players.parquet")["founded_chevalier"].to_numpy() > 0).mean()
    shown = re.search(r"Chevalier: players founding a guild: (\d+\.(\d+))% → (\d+\.\d+)%", page)
    # 1 decimal, or more (up to 2 more) until the values shown give the change shown
    d = len(shown.group(2))
    assert d in (1, 2, 3) and shown.group(1) == pct(base, d) and shown.group(3) == pct(var, d)
    assert "<section id='questions'>" not in page and not (out / "questions").exists()


def test_cli_questions_games_zero_skips(mv, tmp_path, undrawn):
    # (sections and files: the figures need not be drawn, ``undrawn``)
    out = tmp_path / "rep"
    assert _run(["report", str(mv["base"]), "--out", str(out), "--questions-games", "0"]) == 0
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "<section id='guilds'>" in page and "<section id='questions'>" not in page
    assert not (out / "questions").exists()


@pytest.mark.parametrize("value", ["abc", "-5", "1.5", ""])
def test_cli_bad_questions_games_is_one_line_exit_2(mv, tmp_path, capsys, value):
    out = tmp_path / "rep"
    code = _run(["report", str(mv["base"]), "--out", str(out), f"--questions-games={value}"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert err.startswith("error: --questions-games") and "\n" not in err
    assert not out.exists()


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_cli_plays_the_questions_and_writes_csv(mv, tmp_path, undrawn):
    # (the CSV and the section: the figures need not be drawn, ``undrawn``)
    out = tmp_path / "rep"
    assert _run(["report", str(mv["base"]), "--out", str(out), "--questions-games", "50"]) == 0
    fp = pl.read_csv(out / "questions" / "first_player.csv")
    assert (fp["games"] == 50).all()
    assert "<section id='questions'>" in (out / "report.html").read_text(encoding="utf-8")


def test_cli_default_is_the_reports_default():
    assert int(report_cli.QUESTIONS_GAMES) == MV.QUESTIONS_GAMES
    assert report_cli.parse_questions_games("0") == 0
    assert report_cli.parse_questions_games("2e3") == 2000


def test_strategy_choice_for_the_played_questions(tmp_path):
    assert MV.choose_strategy({"strategies": ["collector"] * 4})[0] == "collector"
    strategy, why = MV.choose_strategy({"strategies": ["balanced", "collector", "balanced", "saboteur"]})
    assert strategy == "balanced" and "mixes" in why
    strategy, why = MV.choose_strategy({"strategies": ["planner"] * 4})
    assert strategy == "balanced" and "playout" in why
    strategy, why = MV.choose_strategy({"strategies": [str(tmp_path / "gone.toml")] * 4})
    assert strategy == "balanced" and "cannot be loaded" in why


def test_run_without_rules_text_gets_a_note_not_a_guess(tmp_path, undrawn):
    common = {k: runs.HAND[k] for k in ("game", "seat", "strategy", "score", "win_share", "rank")}
    run = runs.write_run(tmp_path / "generic", common, None, game="medievallons")
    out = tmp_path / "out"
    questions = MV.questions_for_run(run, 100, tmp_path / "questions")
    page = build_report([run], out, questions=questions).read_text(encoding="utf-8")
    assert "<section id='questions'>" in page and "no rules_text" in page
    assert not (out / "questions").exists()
