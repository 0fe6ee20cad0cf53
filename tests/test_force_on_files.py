"""``--force`` on a file replaces only a file of the kind the command writes (review P #9: it
replaced any file: ``balance baseline RUN --out rules.toml --force`` overwrote a rules file, while
directories already had an ownership check). A baseline replaces a baseline, a replay a replay, an
export or ladder table a table of its format, a JUnit report one balance check wrote; anything else
is refused in one line with exit 2 and left byte for byte (the export's cases:
tests/export/test_export_tables.py; JUnit's: tests/check/test_check_procedure.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import _run
from simcore import runner

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)

RULES = Path(__file__).resolve().parents[1] / "configs" / "middle_ages" / "rules.toml"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return runner.simulate("middle-ages", games=1000, seed=5, out=tmp_path_factory.mktemp("f") / "run",
                           quiet=True, players=4, strategies="balanced")


def _refused(capsys, code: int, path: Path, before: bytes, words: str) -> None:
    err = capsys.readouterr().err
    assert code == 2, err
    assert words in err and len(err.strip().splitlines()) == 1, err
    assert path.read_bytes() == before


def test_baseline_force_refuses_a_rules_file_and_replaces_a_baseline(run, tmp_path, capsys):
    victim = tmp_path / "my_rules.toml"
    victim.write_bytes(RULES.read_bytes())
    loose = ["--tolerance", "5", "--score-tolerance", "5"]
    code = _run(["baseline", str(run), "--out", str(victim), "--force", *loose])
    _refused(capsys, code, victim, RULES.read_bytes(),
             "is a TOML file (rules, settings, strategies or panels), not a baseline of balance check")
    base = tmp_path / "base.toml"
    assert _run(["baseline", str(run), "--out", str(base), *loose]) == 0
    first = base.read_text(encoding="utf-8")
    assert _run(["baseline", str(run), "--out", str(base), "--force", "--tolerance", "6",
                 "--score-tolerance", "6"]) == 0
    second = base.read_text(encoding="utf-8")
    assert second != first and second.startswith("# Baseline for `balance check`")


def test_replay_force_refuses_notes_and_replaces_a_replay(run, tmp_path, capsys):
    notes = tmp_path / "notes.md"
    notes.write_text("# What I saw in game 3\n\nSeat 2 never built.\n", encoding="utf-8")
    code = _run(["replay", str(run), "--game", "3", "--out", str(notes), "--force"])
    _refused(capsys, code, notes, notes.read_bytes(), "is a text file, not a replay")
    out = tmp_path / "game.txt"
    assert _run(["replay", str(run), "--game", "3", "--out", str(out)]) == 0
    assert _run(["replay", str(run), "--find", "seat=1 wins max score", "--out", str(out),
                 "--force"]) == 0
    again = out.read_text(encoding="utf-8")
    assert again.startswith("# ") and ": game " in again.splitlines()[1]
    # a replay that --find wrote (its "# why" line first) is a replay too
    assert _run(["replay", str(run), "--game", "2", "--out", str(out), "--force"]) == 0


def test_ladder_force_refuses_a_parquet_name_holding_text(tmp_path, capsys):
    out = tmp_path / "matrix.parquet"
    out.write_text("not a table\n", encoding="utf-8")
    code = _run(["ladder", "--bots", "random,greedy", "--games", "20", "--out", str(out), "--force"])
    _refused(capsys, code, out, b"not a table\n", "is a text file, not a Parquet table of a ladder")


@pytest.mark.parametrize("game, bots", [("middle-ages", "random,greedy"), ("seigneurial", None)])
def test_ladder_force_replaces_its_own_csv_and_refuses_a_users(tmp_path, capsys, monkeypatch, game, bots):
    """Review W #5: a user's own CSV of lower-case names passed for a ladder's, and --force replaced
    it. Now only a CSV with the ladder's very columns is replaced (a game of roles adds ``role``),
    and a user's is refused before any game is played."""
    from cli import ladder as cli_ladder

    out = tmp_path / "matrix.csv"
    mine = b"bot,opponent,notes\ngreedy,random,my own table\n"
    out.write_bytes(mine)
    args = ["ladder", "--game", game, "--games", "8", "--players", "3", "--out", str(out)]
    args += ["--bots", bots] if bots else []
    played = []
    real = cli_ladder._write
    monkeypatch.setattr(cli_ladder, "_write", lambda *a, **k: (played.append(1), real(*a, **k)))
    _refused(capsys, _run(args + ["--force"]), out, mine,
             "holds a CSV table with other columns (bot, opponent, notes)")
    assert not played
    out.unlink()
    assert _run(args) == 0 and played
    first = out.read_bytes()
    assert _run(args + ["--force"]) == 0, capsys.readouterr().err      # the ladder's own: replaced
    assert out.read_bytes().splitlines()[0] == first.splitlines()[0]


@pytest.mark.parametrize("name, content", [
    ("notes.txt", "Playtest notes, session 3\nSeat 1 felt weak\n"),
    ("script.py", "import os, sys\nprint(sys.argv)\n"),
    ("conf.yaml", "strategies: [greedy, balanced]\nseed: 3\n"),
    ("data.dat", ' {"a": 1, "b": 2}\n'),
    # a name that promises another format is refused by its name first (designer review 44 #12)
    ("data.json", ' {"a": 1, "b": 2}\n'),
    ("mail.eml", "Subject: meeting, notes\n\nSee you.\n"),
    ("people.csv", "Name, Age\nAnn, 31\n"),
])
def test_export_force_refuses_text_that_is_no_table_of_the_toolkit(run, tmp_path, capsys, name, content):
    """Review Q #2: any text whose first line held a comma passed for one of the toolkit's CSV
    tables and was replaced."""
    out = tmp_path / name
    out.write_text(content, encoding="utf-8")
    code = _run(["export", str(run), "--what", "seats", "--out", str(out), "--format", "csv", "--force"])
    _refused(capsys, code, out, content.encode(),
             "export writes CSV or Parquet, not JSON" if name.endswith(".json") else "not a CSV table")


def test_a_parquet_file_of_another_program_is_not_replaced(run, tmp_path, capsys):
    import polars as pl

    mine = tmp_path / "mine.parquet"
    pl.DataFrame({"seat": [1], "win_share": [0.3]}).write_parquet(mine)
    before = mine.read_bytes()
    code = _run(["export", str(run), "--what", "seats", "--out", str(mine), "--force"])
    _refused(capsys, code, mine, before, "is a Parquet file of another program")
    ours = tmp_path / "ours.parquet"
    assert _run(["export", str(run), "--what", "seats", "--out", str(ours)]) == 0
    assert _run(["export", str(run), "--what", "seats", "--out", str(ours), "--force"]) == 0


def test_replay_force_refuses_notes_that_name_a_game_of_a_run(run, tmp_path, capsys):
    notes = tmp_path / "n.md"
    notes.write_text("# Why seat 1 lost\nMiddle-Ages: game 957 of run small_ma looked odd\n", encoding="utf-8")
    code = _run(["replay", str(run), "--game", "4", "--out", str(notes), "--force"])
    _refused(capsys, code, notes, notes.read_bytes(), "not a replay")


def test_a_summary_is_added_to_markdown_only(run, tmp_path, capsys):
    """Review Q #1: --summary appended to any file (a rules TOML no longer parsed, a Parquet file no
    longer opened), without --force."""
    base = tmp_path / "base.toml"
    assert _run(["baseline", str(run), "--out", str(base), "--tolerance", "6", "--score-tolerance", "6"]) == 0
    capsys.readouterr()
    rules = tmp_path / "rules.toml"
    rules.write_bytes(RULES.read_bytes())
    code = _run(["check", "--baseline", str(base), "--games", "2000", "--summary", str(rules), "-q"])
    _refused(capsys, code, rules, RULES.read_bytes(), "is a TOML file")
    md = tmp_path / "summary.md"
    md.write_text("# CI summary\n\nearlier step\n", encoding="utf-8")
    assert _run(["check", "--baseline", str(base), "--games", "2000", "--summary", str(md), "-q"]) in (0, 1, 3)
    text = md.read_text(encoding="utf-8")
    assert text.startswith("# CI summary\n\nearlier step\n") and len(text) > 40


def test_a_summary_is_added_to_a_step_summary_that_begins_with_html_but_not_to_xml(run, tmp_path, capsys):
    """$GITHUB_STEP_SUMMARY may begin with an earlier step's HTML: it is added to; an XML file (a
    JUnit report of another tool) is not."""
    base = tmp_path / "base.toml"
    assert _run(["baseline", str(run), "--out", str(base), "--tolerance", "6", "--score-tolerance", "6"]) == 0
    summary = tmp_path / "step_summary"
    summary.write_text("<details><summary>lint</summary>ok</details>\n", encoding="utf-8")
    assert _run(["check", "--baseline", str(base), "--games", "2000", "--summary", str(summary), "-q"]) in (0, 1, 3)
    assert summary.read_text(encoding="utf-8").startswith("<details>") and "balance check" in summary.read_text()
    capsys.readouterr()
    xml = tmp_path / "pytest.xml"
    xml.write_text('<?xml version="1.0"?>\n<testsuites></testsuites>\n', encoding="utf-8")
    code = _run(["check", "--baseline", str(base), "--games", "2000", "--summary", str(xml), "-q"])
    _refused(capsys, code, xml, xml.read_bytes(), "is an XML file")


def test_ladder_force_replaces_its_own_parquet_and_not_an_exports(tmp_path, capsys):
    """Review C #1 for the ladder (s42): a seats export in Parquet was replaced by a ladder's
    --force as any of this toolkit's Parquet tables was; now only a ladder's own is."""
    import polars as pl

    from simcore import runner

    run = runner.simulate("middle-ages", games=40, seed=1, out=tmp_path / "R", quiet=True)
    seats = tmp_path / "seats.parquet"
    assert _run(["export", str(run), "--what", "seats", "--out", str(seats)]) == 0
    before = seats.read_bytes()
    code = _run(["ladder", "--bots", "random,greedy", "--games", "20", "--out", str(seats), "--force"])
    _refused(capsys, code, seats, before, "holds a Parquet table of the seats export")
    mine = tmp_path / "ladder.parquet"
    for _ in range(2):              # its own: written, then replaced
        assert _run(["ladder", "--bots", "random,greedy", "--games", "20", "--out", str(mine),
                     "--force"]) == 0
    assert pl.read_parquet(mine).height > 0
