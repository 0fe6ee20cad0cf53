"""Test helper (not a test module): reading numbers as a page or a check prints them, and the rule
that a printed change is the printed after minus the printed before (session 56: the check, the
game pages and the skill and tune pages). Imported as ``from printed_numbers import …`` (tests/ is
on the path, as for page_tables)."""

from __future__ import annotations

NUM = r"[+−-]?\d+(?:\.\d+)?"      # a printed number: sign (typographic minus too), decimals


def as_float(text: str) -> float:
    """A printed number's value ("−0.46" → -0.46)."""
    return float(text.replace("−", "-").replace("+", ""))


def decimals(text: str) -> int:
    """How many decimals a printed number has."""
    return len(text.split(".")[1]) if "." in text else 0


def adds_up(before: str, after: str, change: str) -> None:
    """The printed change is the printed after minus the printed before, at the change's decimals,
    and the three are printed at one precision."""
    d = decimals(change)
    assert decimals(before) == decimals(after) == d, (before, after, change)
    assert round(as_float(after) - as_float(before), d) == as_float(change), (before, after, change)
