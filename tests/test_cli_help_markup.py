"""Every command's help says what its source says: typer renders help through rich markup, which
silently drops a ``[word…]`` it takes for a style tag (``PATH=[a,b,c]``, ``[cluster]``,
``[seat=N|…]``); such brackets are written ``\\[`` in cli/. And no option goes without help."""

from __future__ import annotations

import typer
from rich.text import Text

import cli


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
