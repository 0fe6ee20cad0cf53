"""Every command line the README and docs/*.md show in their code blocks parses against the
command line as it is: each option it names exists on its command and takes what it is given, and
its arguments are as many as the command takes (parsed by click, as ``balance`` parses them; nothing
runs). The README's examples also run (tests/test_readme.py); the docs' are many and long (1e6
games, tunes), so here they are parsed only: a renamed or removed option fails this test instead of
a designer's copy and paste. Not parsed: a synopsis line (``[--format csv|parquet]``, ``RUN …``,
``...``), which shows a command's shape, not a line to run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer

try:                                  # the click typer builds its commands with (it may vendor one)
    from typer import _click as click
except ImportError:                   # pragma: no cover
    import click

import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SYNOPSIS = re.compile(r"\[|\||…|\.\.\.")


def commands(path: Path) -> list[str]:
    """The ``balance`` and ``simulate`` command lines of ``path``'s code blocks (continued lines
    joined, a ``$ `` prompt and a ``.venv/bin/`` prefix dropped, each part of an ``&&`` chain)."""
    text = path.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            while line.rstrip().endswith("\\") and i + 1 < len(lines):
                i += 1
                line = line.rstrip()[:-1] + " " + lines[i].strip()
            i += 1
            s = re.sub(r"^(\$ )?(\./)?(\.venv/bin/)?", "", line.strip())
            for part in s.split("&&"):
                part = part.strip()
                if re.match(r"(balance|simulate)\s", part) and not SYNOPSIS.search(part.split("#")[0]):
                    out.append(part)
    return out


def parse(line: str) -> None:
    """Parse ``line`` as its command does (options, their types, the arguments), without running it."""
    args = shlex.split(line, comments=True)
    prog, argv = args[0], args[1:]
    if prog == "balance" and argv[:1] == ["simulate"]:
        prog, argv = "simulate", argv[1:]
    if prog == "simulate":
        typer.main.get_command(cli._simulate_app()).make_context("simulate", list(argv))
        return
    group = typer.main.get_command(cli._app_for(argv))
    ctx = group.make_context("balance", list(argv))
    rest = list(getattr(ctx, "_protected_args", None) or getattr(ctx, "protected_args", [])) + ctx.args
    name, command, rest = group.resolve_command(ctx, rest)
    command.make_context(name, rest, parent=ctx)


CASES = [(p.name, c) for p in DOCS for c in commands(p)]
#: what --help and --version raise once parsed
EXIT = (typer.Exit, getattr(click.exceptions, "Exit", typer.Exit))


def test_the_docs_show_command_lines():
    assert len(CASES) > 80, len(CASES)
    assert {name for name, _ in CASES} >= {"README.md", "sweep.md", "ci.md", "search.md", "fief.md"}


@pytest.mark.parametrize("doc, line", CASES, ids=[f"{d}:{i}" for i, (d, _) in enumerate(CASES)])
def test_every_documented_command_line_parses(doc, line):
    try:
        parse(line)
    except EXIT:
        pass                          # --help, --version: parsed, then they end the command
    except click.ClickException as exc:
        pytest.fail(f"{doc}: {line}\n  {exc.format_message()}")
