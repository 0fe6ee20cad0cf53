"""The command line is built from the specs: a game's own options come from ``GameSpec.options``,
the default game is defined once (``simcore.games.DEFAULT_GAME``), and score units in help come
from the specs."""

from __future__ import annotations

import re
from pathlib import Path

from cli import _run
from cli.simulate import game_option_parameters
from simcore import games as registry

ROOT = Path(__file__).resolve().parents[2]


def test_every_game_option_of_every_spec_is_a_simulate_option(capsys):
    flags = {o.flag for s in registry.specs().values() for o in s.options}
    assert flags, "fief-combat declares options"
    assert {p.default.param_decls[0] for p in game_option_parameters()} == flags
    assert _run(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    for flag in flags:
        assert flag in out


def test_simulate_names_no_game_and_no_game_option():
    text = (ROOT / "cli" / "simulate.py").read_text(encoding="utf-8")
    code = re.sub(r'""".*?"""', "", text, flags=re.S)      # docstrings may give examples
    for spec in registry.specs().values():
        assert f'"{spec.name}"' not in code, spec.name
        for o in spec.options:
            assert f'"{o.flag}"' not in code, o.flag


def test_the_default_game_is_defined_in_one_place():
    default = registry.DEFAULT_GAME
    assert default in registry.names()
    found = [str(p.relative_to(ROOT)) for folder in ("cli", "analysis", "reports")
             for p in (ROOT / folder).rglob("*.py")
             if re.search(rf'(game: str = |typer.Option\()"{re.escape(default)}"',
                          p.read_text(encoding="utf-8"))]
    assert found == [], f"a default game written again in {found}"


def test_score_tolerance_help_gives_every_games_unit(capsys):
    assert _run(["baseline", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for spec in registry.specs().values():
        assert spec.score_unit.split()[0] in out


def test_no_module_of_the_command_line_names_a_game():
    """Game commands come from the specs (``GameSpec.options``, ``GameSpec.commands``): no file
    under cli/ spells a game's name, its package or one of its commands (docstrings aside)."""
    words = set()
    for spec in registry.specs().values():
        words |= {spec.name, spec.module_folder, *(c.name for c in spec.commands)}
    for path in sorted((ROOT / "cli").glob("*.py")):
        code = re.sub(r'""".*?"""', "", path.read_text(encoding="utf-8"), flags=re.S)
        for word in words:
            assert word not in code, f"cli/{path.name} names {word!r}"


def test_every_table_command_of_every_spec_is_a_balance_command(capsys):
    commands = [(s, c) for s in registry.specs().values() for c in s.commands]
    assert commands, "fief-combat declares fief-odds and fief-calamity"
    for spec, cmd in commands:
        assert _run([cmd.name, "--help"]) == 0
        out = capsys.readouterr().out
        for flag in [o.flag for o in cmd.options] + ["--rules", "--set", "--out", "--force"]:
            assert flag in out, (cmd.name, flag)
        module, _, name = cmd.job.partition(":")
        assert module.startswith(spec.module_folder + "."), "a job lives in the game's folder"
        assert callable(getattr(registry.import_hook(module), name))
