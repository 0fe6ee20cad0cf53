"""Checks every command shares, run on its options before the command starts
(:func:`cli._guard_callback`): one line, exit code 2, before any work.

* An output (``--out``, ``--save-run``, ``--junit``, ``--summary``) inside an existing run
  directory is refused: a run holds only what ``simulate`` wrote there, and every reader checks
  that (``simcore.rundir.verify_integrity``), so a table, run or report written inside it would
  make the run unreadable ("damaged ... rerun the simulation").
* An output inside any other directory the toolkit wrote (a sweep, a tune, a panel, a report, a
  skill: its ownership marker) is refused too: ``simulate --out SWEEP/variants/v000 --force``
  replaced a sweep's variant with an unrelated run, and a report written inside another report's
  folder was removed by that report's next ``--force``.
* A comma list with an empty item (``--budgets 4,,16``, ``--bots random,,greedy``,
  ``--players 3,``, ``--levels 0.5,,0.9``) is refused instead of being read without the item, and
  so is an item given twice (``--budgets 0,4,4``: silently read as 0,4): a repeat means nothing
  in these lists.

May import the standard library and :mod:`simcore.errors`.
"""

from __future__ import annotations

import os
from pathlib import Path

from simcore.errors import UsageError

#: Parameter name → option of the outputs that must not lie inside a run directory.
OUTPUTS = {"out": "--out", "save_run": "--save-run", "junit": "--junit", "summary": "--summary"}
#: Parameter name → option of the comma lists (strings) whose items may not be empty.
COMMA_LISTS = {"budgets": "--budgets", "bots": "--bots", "players": "--players",
               "levels": "--levels"}
#: Option → a list it takes, for the refusal's example.
EXAMPLES = {"--budgets": "0,4,16", "--bots": "balanced,random", "--players": "3,4",
            "--levels": "0.5,0.9"}
RUN_JSON = "run.json"


def run_holding(path: str | Path) -> Path | None:
    """The run directory (a directory holding run.json) that ``path`` lies inside, or None."""
    try:
        real = Path(os.path.realpath(os.path.abspath(os.fspath(path))))
    except (OSError, ValueError):
        return None     # a path the output check refuses with its own words (a loop, too long)
    for parent in real.parents:
        try:
            if (parent / RUN_JSON).is_file():
                return parent
        except (OSError, ValueError):
            continue
    return None


#: simcore.atomic.MARKER, the ownership marker of every directory the toolkit writes (read here
#: with the standard library: this module is imported by every command's start).
MARKER = ".balance-output.json"


def marked_holding(path: str | Path) -> tuple[Path, str] | None:
    """The nearest directory above ``path`` carrying this toolkit's ownership marker (a sweep, a
    tune, a panel, a report, a skill …) and its kind, or None."""
    import json

    try:
        real = Path(os.path.realpath(os.path.abspath(os.fspath(path))))
    except (OSError, ValueError):
        return None
    for parent in real.parents:
        try:
            marker = parent / MARKER
            if not marker.is_file() or marker.stat().st_size > 1_000_000:
                continue
            data = json.loads(marker.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):
            continue
        if isinstance(data, dict) and data.get("toolkit") == "balance-toolkit" \
                and isinstance(data.get("kind"), str):
            return parent, data["kind"]
    return None


def _shown(path: Path) -> str:
    rel = os.path.relpath(path)
    return path.as_posix() if rel.startswith("..") else rel


def _inputs(params: dict) -> set[str]:
    """The real paths of the directories the command reads (RUN, RUNS, --against, --skill,
    --questions)."""
    out = set()
    for name in ("run", "runs", "against", "skill", "questions"):
        value = params.get(name)
        for item in (value if isinstance(value, (list, tuple)) else [value]):
            if item is not None and str(item).strip() and "\x00" not in str(item):
                out.add(os.path.realpath(os.fspath(item)))
    return out


def check_output_outside_runs(path, option: str, inputs: set[str] = frozenset()) -> None:
    if path is None or not str(path).strip() or "\x00" in str(path):
        return          # refused with its own words by the output check
    run = run_holding(path)
    if run is not None and str(run) in inputs:      # the words of the output check for an input
        raise UsageError(f"{option} {path}: is inside {_shown(run)}, which this command reads "
                         "(write somewhere else)")
    if run is not None:
        # a game's table command's output (a combat-odds grid) carries a run.json too: named by
        # the command its marker says wrote it, not as a run simulate wrote
        held = marked_holding(path)
        kind = held[1] if held is not None and held[0] == run else "run"
        if kind not in ("run", "sweep_variant"):
            raise UsageError(f"{option} {path}: is inside {_shown(run)}, which holds only what "
                             f"balance {kind} wrote; write somewhere else")
        raise UsageError(f"{option} {path}: is inside the run directory {_shown(run)}, which holds "
                         "only what simulate wrote (anything added makes it unreadable as a run); "
                         "write somewhere else")
    held = marked_holding(path)
    if held is not None and str(held[0]) in inputs:
        raise UsageError(f"{option} {path}: is inside {_shown(held[0])}, which this command reads "
                         "(write somewhere else)")
    if held is not None:           # a sweep's variant replaced by an unrelated run, a report's folder
        where, kind = held
        what = "questions directory" if kind == "questions" else kind.replace("_", " ")
        raise UsageError(f"{option} {path}: is inside {_shown(where)}, a {what} this toolkit wrote, "
                         f"which only the command that wrote it adds to or replaces; write somewhere "
                         "else")


def check_not_an_option(value, option: str) -> None:
    """An output path that is an option's name: the path was forgotten and the next option taken
    for it (review s48 safety: ``--out --force`` made a folder named ``--force``)."""
    text = str(value) if isinstance(value, (str, Path)) else None
    if text is not None and text.startswith("--") and len(text) > 2:
        raise UsageError(f"{option} {text}: looks like an option, not a path (give the path after "
                         f"{option}; a name that starts with -- is taken with a folder before it, "
                         f"e.g. runs/{text})")


def check_strategies_given(value) -> None:
    """``--strategies ""`` (or only spaces) named no bot, and the run played the default bot
    without a word (review s48 safety): refused."""
    if isinstance(value, str) and not value.strip():
        raise UsageError("--strategies '': no strategy given (a name, one per seat, or a TOML file; "
                         "leave --strategies out for the game's default bot)")


def check_comma_list(text, option: str) -> None:
    if not isinstance(text, str) or "," not in text:
        return
    items = text.split(",")
    if any(not item.strip() for item in items):
        raise UsageError(f"{option} {text!r}: an empty item in the list (write the items "
                         f"separated by single commas, e.g. {EXAMPLES.get(option, '0,4,16')})")
    seen: dict = {}
    for item in items:
        key = _item_key(item)
        if key in seen:
            same = "" if seen[key] == item.strip() else f" (the same as {seen[key]})"
            raise UsageError(f"{option} {text!r}: {item.strip()} is given twice{same}; give each "
                             "item once")
        seen[key] = item.strip()


def _item_key(item: str):
    """What an item of a comma list means: a number by its value (4 = 4.0 = 04), a name (a bot,
    a file) as written."""
    text = item.strip()
    try:
        value = float(text)
    except ValueError:
        return text
    return value if value == value else text


def check_options(params: dict) -> None:
    """Check the options a command was given (its parameters by name)."""
    for name, option in COMMA_LISTS.items():
        check_comma_list(params.get(name), option)
    for name, option in OUTPUTS.items():
        check_not_an_option(params.get(name), option)
    check_strategies_given(params.get("strategies"))
    inputs = _inputs(params)
    for name, option in OUTPUTS.items():
        check_output_outside_runs(params.get(name), option, inputs)
