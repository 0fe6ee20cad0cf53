"""Test helper (not a test module): reading numbers as a page or a check prints them, and the rule
that a printed change is the printed after minus the printed before (session 56: the check, the
game pages and the skill and tune pages), and that a gap from a reference share is the difference
rounded (review s61 fix 258 #2). Imported as ``from printed_numbers import …`` (tests/ is
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


def is_the_gap(value: float, reference: float, gap: str) -> None:
    """The printed gap of a share from a reference share (the fair share, a role's average seat;
    both in percent) is their difference rounded at the gap's decimals, not the difference of the
    two as printed (review s61 fix 258 #2: one gap, one printed value wherever it is printed)."""
    d = decimals(gap)
    assert abs(as_float(gap) - (value - reference)) <= 0.5 * 10.0 ** -d + 1e-9, (value, reference, gap)



def share_cells(text: str, share: float, low: float, high: float) -> list[int]:
    """Where ``text`` prints a share cell "X% (L–H)" of ``share`` with its interval ``low``–``high``
    (fractions): the end offset of each such cell, each number within half a unit of its own last
    printed digit, whatever decimals the page's rounding rule chose (session 61: ladder cells print
    rare shares at two decimals, "0.83% (0.02–4.87)")."""
    import re
    return [m.end() for m in re.finditer(rf"({NUM})% \(({NUM})–({NUM})\)", text)
            if all(abs(as_float(t) - 100 * v) <= 0.5 * 10.0 ** -decimals(t) + 1e-9
                   for t, v in zip(m.groups(), (share, low, high)))]


def shows_share(text: str, share: float, low: float, high: float) -> bool:
    """Whether ``text`` prints that share cell whole (nothing cut with "…"): :func:`share_cells`."""
    return bool(share_cells(text, share, low, high))
