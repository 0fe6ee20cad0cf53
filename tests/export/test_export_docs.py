"""`balance export` against docs/export.md, game by game: the tables each game has (the rest is a
one-line error, exit 2, nothing written), every table's columns exactly as the page lists them
(read from the page itself, so page and code cannot drift apart), missing values the same in
both formats, and a few numbers recomputed from the raw rows with polars and statsmodels."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from analysis.export import what_choices
from cli import _run

DOC = Path(__file__).resolve().parents[2] / "docs" / "export.md"
GAMES = {"Middle-Ages": "middle-ages", "Médiévallons": "medievallons", "Seigneurial": "seigneurial",
         "Fief combat": "fief-combat"}
N_GAMES = 200


def _section(text: str, title: str) -> str:
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def documented_tables() -> dict[str, set[str]]:
    """game id → the `--what` values the page's "Which tables each game has" table lists."""
    tables = {}
    for line in _section(DOC.read_text(encoding="utf-8"), "Which tables each game has").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] in GAMES.values():
            tables[cells[0]] = {w.strip() for w in cells[1].split(",")}
    return tables


def _expand(span: str) -> list[str]:
    """"a, b_1 … b_3" → [a, b_1, b_2, b_3]."""
    names = []
    for item in (s.strip() for s in span.replace("\n", " ").split(",")):
        m = re.fullmatch(r"(\w+?)(\d+) … \1(\d+)", item)
        names += ([f"{m[1]}{k}" for k in range(int(m[2]), int(m[3]) + 1)] if m else [item])
    return names


def documented_columns(what: str, game: str) -> list[str] | None:
    """The columns the page's "Columns" section lists for table ``what`` of ``game``: the first code
    span of the paragraph "**what** (…)" whose parenthesis names the game (or names no game), plus
    any span written "Game name: `…`" for this game further on in that paragraph."""
    section = _section(DOC.read_text(encoding="utf-8"), "Columns")
    for para in re.split(r"\n(?=\*\*)", section):
        m = re.match(rf"\*\*{what}\*\*\s*(\(([^)]*)\))?", para)
        if not m:
            continue
        named = [g for name, g in GAMES.items() if m[2] and name in m[2]]
        if named and game not in named:
            continue
        columns = _expand(re.search(r"`([^`]+)`", para[m.end():], re.S)[1])
        for name, g in GAMES.items():
            if g == game:
                for extra in re.findall(rf"{name}: `([^`]+)`", para):
                    columns += _expand(extra)
        return columns
    return None


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """One small run of each game, its default line-up."""
    tmp = tmp_path_factory.mktemp("export_docs")
    out = {}
    for game in GAMES.values():
        out[game] = tmp / game
        assert _run(["simulate", "--game", game, "-n", str(N_GAMES), "--seed", "5",
                     "--out", str(out[game]), "--quiet"]) == 0
    return out


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
@pytest.mark.parametrize("what", what_choices())
@pytest.mark.parametrize("game", list(GAMES.values()))
def test_each_game_has_the_tables_the_page_lists_with_its_columns(runs, tmp_path, capsys, game, what):
    documented = documented_tables()
    assert set(documented) == set(GAMES.values())
    out = tmp_path / f"{what}.csv"
    code = _run(["export", str(runs[game]), "--what", what, "--out", str(out)])
    err = capsys.readouterr().err
    if what not in documented[game]:
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, (code, err)
        assert not out.exists() and not list(tmp_path.iterdir())
        return
    assert code == 0, err
    columns = documented_columns(what, game)
    assert columns is not None, f"docs/export.md lists no {what} columns for {game}"
    assert pl.read_csv(out, infer_schema_length=0).columns == columns


def test_a_missing_value_is_missing_in_both_formats(runs, tmp_path):
    """An event slot without a single biggest gainer has no top-gainer win share: an empty CSV cell
    and a null in Parquet (was NaN there), on exactly the rows the raw records say."""
    run = runs["middle-ages"]
    players, games = pl.read_parquet(run / "players.parquet"), pl.read_parquet(run / "games.parquet")
    with_top = set()                       # (event, slot) of games with one biggest gainer
    for k in range(1, 5):
        gains = players.group_by("game").agg(
            (pl.col(f"event_gain_{k}") == pl.col(f"event_gain_{k}").max()).sum().alias("top"))
        single = games.join(gains, on="game").filter(pl.col("top") == 1)
        with_top |= {(e, s) for e in single[f"event_{k}"].unique() for s in (0, k)}
    for fmt in ("csv", "parquet"):
        assert _run(["export", str(run), "--what", "events", "--out", str(tmp_path / f"e.{fmt}")]) == 0
    pq, csv = pl.read_parquet(tmp_path / "e.parquet"), pl.read_csv(tmp_path / "e.csv")
    for df in (pq, csv):
        missing = df.filter(pl.col("top_gainer_win_share").is_null())
        assert {(e, s) for e, s in missing.select("event", "slot").iter_rows()} == \
            {(e, s) for e, s in df.select("event", "slot").iter_rows()} - with_top
        assert missing.height > 0         # Invasion barbare & co. move no coins: nobody gains most
        for col in ("top_gainer_win_share", "top_gainer_ci_low", "top_gainer_ci_high"):
            assert not df[col].is_nan().any()
    assert pq.equals(csv.cast(pq.schema))


def test_seat_and_role_numbers_match_the_raw_rows(runs, tmp_path):
    """Win shares with their Wilson intervals (statsmodels), per seat and per role's seat."""
    from statsmodels.stats.proportion import proportion_confint

    for game in ("middle-ages", "seigneurial"):
        run = runs[game]
        players = pl.read_parquet(run / "players.parquet")
        assert _run(["export", str(run), "--what", "seats", "--out", str(tmp_path / f"{game}.csv")]) == 0
        seats = pl.read_csv(tmp_path / f"{game}.csv")
        for row in seats.iter_rows(named=True):
            w = players.filter(seat=row["seat"])["win_share"].to_numpy().astype(float)
            low, high = proportion_confint(w.sum(), N_GAMES, alpha=0.05, method="wilson")
            assert (row["games"], row["wins"]) == (N_GAMES, pytest.approx(w.sum()))
            assert row["win_share"] == pytest.approx(w.mean())
            if 3 < w.sum() < N_GAMES - 3:       # the exact Poisson ends start below (docs/analysis.md)
                assert (row["ci_low"], row["ci_high"]) == (pytest.approx(low), pytest.approx(high))
            assert row["mean_score"] == pytest.approx(players.filter(seat=row["seat"])["score"].mean())
    run = runs["seigneurial"]
    players = pl.read_parquet(run / "players.parquet").filter(role="censitaire")
    assert _run(["export", str(run), "--what", "roles", "--out", str(tmp_path / "roles.csv")]) == 0
    roles = pl.read_csv(tmp_path / "roles.csv").filter(level="seat", role="censitaire")
    total = players["win_share"].cast(pl.Float64).sum()
    for row in roles.iter_rows(named=True):
        wins = players.filter(seat=row["seat"])["win_share"].cast(pl.Float64).sum()
        assert row["share_of_role"] == pytest.approx(wins / total)
        low, high = proportion_confint(wins, total, method="wilson")
        assert (row["share_low"], row["share_high"]) == (pytest.approx(low), pytest.approx(high))


def test_the_commands_the_page_gives_run_as_written(runs, tmp_path, monkeypatch):
    """Every inline `balance export RUN …` of the page, RUN a Middle-Ages run, run from a fresh
    directory (the synopsis, with its alternatives, is not a command)."""
    commands = re.findall(r"`balance export (RUN [^`]+)`", DOC.read_text(encoding="utf-8"))
    assert commands
    monkeypatch.chdir(tmp_path)
    for command in commands:
        args = command.split()
        args[0] = str(runs["middle-ages"])
        assert _run(["export", *args]) == 0, command
