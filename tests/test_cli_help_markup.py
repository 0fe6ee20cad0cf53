"""Every command's help says what its source says: typer renders help through rich markup, which
silently drops a ``[word…]`` it takes for a style tag (``PATH=[a,b,c]``, ``[cluster]``,
``[seat=N|…]``); such brackets are written ``\\[`` in cli/. And no option goes without help."""

from __future__ import annotations

import pytest
import typer
from rich.text import Text

import cli

pytestmark = pytest.mark.slow   # a costly file: make test-slow and CI run it (docs/testing.md, the fast suite's budget)


def _helps(command, path):
    yield path, "help", command.help or ""
    for param in command.params:
        yield path, param.name, getattr(param, "help", None) or ""
    for sub in getattr(command, "commands", {}).values():
        yield from _helps(sub, f"{path} {sub.name}")


def test_no_help_text_loses_brackets_to_rich_markup():
    commands = [("balance", typer.main.get_command(cli._register_all())),
                ("simulate", typer.main.get_command(cli._simulate_app()))]
    lost = [(path, name, text) for root, command in commands for path, name, text in _helps(command, root)
            if Text.from_markup(text).plain != text.replace("\\[", "[")]
    assert lost == []


def test_every_option_has_help():
    commands = [("balance", typer.main.get_command(cli._register_all())),
                ("simulate", typer.main.get_command(cli._simulate_app()))]
    bare = [(path, name) for root, command in commands for path, name, text in _helps(command, root)
            if name != "help" and not text.strip()]
    assert bare == []


def _help_page(args, capsys, monkeypatch) -> str:
    from cli import _run

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERMINAL_WIDTH", "80")
    assert _run([*args, "--help"]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def pages_at_80() -> dict[str, str]:
    """``balance NAME --help`` at 80 columns for every command (and ``simulate --help``), made once
    for the two tests below that read them all (each made them all: ~0.7 s of CPU)."""
    import contextlib
    import io

    from cli import _run

    command = typer.main.get_command(cli._register_all())
    pages = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", "80")
        mp.setenv("TERMINAL_WIDTH", "80")
        for name in ["simulate", *command.commands]:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                assert _run([name, "--help"]) == 0
            pages[name] = out.getvalue()
    return pages


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_the_pages_at_80_columns_are_the_pages_a_command_prints(pages_at_80, capsys, monkeypatch):
    """The fixture's pages are what ``balance NAME --help`` prints at 80 columns."""
    for name in ("simulate", "report", "fief-odds"):
        assert pages_at_80[name] == _help_page([name], capsys, monkeypatch), name


def test_help_at_80_columns_cuts_no_word_and_shows_no_flag_type(pages_at_80):
    """Review P #4, #5: at 80 columns the options column (widened by ``<list[str]>`` and by a
    ``<bool>`` beside every flag, as if it took a value) left the help ~24 characters, and rich cut
    every longer word with "…" (``setup.start_coins=[2,1,…``, ``(seigneur=harsh-lord,ce…``). A
    page holds no "…" its source does not, no ``<bool>`` and no ``list[``."""
    command = typer.main.get_command(cli._register_all())
    pages = [["simulate"]] + [[name] for name in command.commands]
    assert set(pages_at_80) == {args[0] for args in pages}
    for args in pages:
        page = pages_at_80[args[0]]
        sub = command.commands.get(args[0])
        source = "".join(text for _, _, text in _helps(sub, args[0])) if sub is not None else ""
        assert page.count("…") <= source.count("…"), (args, [x for x in page.splitlines() if "…" in x])
        assert "<bool>" not in page and "list[" not in page, (args, [x for x in page.splitlines() if "bool" in x or "list[" in x])
        assert max(len(line.rstrip()) for line in page.splitlines()) <= 80, args


def test_a_command_summary_is_one_paragraph_not_broken_at_its_source_lines(capsys, monkeypatch):
    """Review P #4: typer's rich help keeps a docstring's line breaks, so ``balance --help`` broke
    check's summary after "exit 0" and questions' after "(each card's total" on every terminal.
    In the summaries given to typer, the first paragraph has no line break; and at 80 columns the
    page's line holding "exit 0" runs on with "pass," (the source broke between them)."""
    app = cli._register_all()
    for info in app.registered_commands:
        assert "\n" not in (info.help or "").split("\n\n")[0], info.callback.__name__
    page = _help_page([], capsys, monkeypatch)
    line = next(x for x in page.splitlines() if "exit 0" in x)
    assert "exit 0 pass," in line, line


def test_help_at_80_columns_breaks_no_word_of_an_options_help(pages_at_80):
    """Review Q #10: folding a word too long for the help column split the --lineup example inside
    its value ("censitaire=ob" / "jective"), so a copied command was wrong. Every word of every
    option's help is printed whole at 80 columns (the examples are written to wrap at spaces)."""
    import re

    command = typer.main.get_command(cli._register_all())
    broken = []
    assert set(pages_at_80) == {"simulate", *command.commands}
    for name in ["simulate", *command.commands]:
        page = pages_at_80[name]
        tokens = set(re.sub(r"[│╭╮╰╯─]", " ", page).split())
        sub = command.commands.get(name)
        for param in (sub.params if sub is not None else ()):
            if getattr(param, "hidden", False):
                continue
            for word in Text.from_markup(getattr(param, "help", None) or "").plain.split():
                if word not in tokens:
                    broken.append((name, param.name, word))
    assert broken == [], broken[:10]


def test_usage_lines_name_arguments_in_capitals(pages_at_80):
    """Review W #11: typer 0.29 wrote a required argument as ``{run}`` on the usage line
    (``Usage: balance export [OPTIONS] {run}``). Every argument reads as its name in capitals:
    ``RUN``, ``[RUN]`` when optional, ``RUNS...`` when repeated."""
    command = typer.main.get_command(cli._register_all())
    checked = 0
    for name, page in pages_at_80.items():
        usage = next(ln for ln in page.splitlines() if "Usage:" in ln)
        assert "{" not in usage and "}" not in usage, usage
        sub = command.commands.get(name)
        for param in getattr(sub, "params", []):
            if param.param_type_name == "argument":
                shown = param.name.upper()
                assert shown in usage, (usage, shown)
                checked += 1
    assert checked >= 5
