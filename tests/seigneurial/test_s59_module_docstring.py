"""Review s59 rv235 #3: analysis/games/seigneurial.py's docstring did not name the functions moved
into it this session (card_p_values, adjusted_objectives, seigneur_certain) and still described
objective_table as "with a Wilson interval, against the average Censitaire" though its
``significant`` column is the Holm decision of :func:`adjusted_objectives`; nor did it name the
module it imports a card's words from."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import analysis.games.seigneurial as sg


def test_the_docstring_names_what_the_module_holds_and_imports():
    doc = " ".join(sg.__doc__.split())
    for name in ("card_p_values", "adjusted_objectives", "seigneur_certain", "objective_table",
                 "distinct_cards", "not_told_apart", "improvement_table", "square_table"):
        assert f":func:`{name}`" in doc, name
    # objective_table's significant column: the Holm decision, not the Wilson interval's
    assert "with a Wilson interval, against the average Censitaire" not in doc
    assert re.search(r"``significant``: whether the card is clear of that average as the page decides "
                     r"it \(:func:`adjusted_objectives`", doc)
    # every module it imports is among those it says it may import
    tree = ast.parse(Path(sg.__file__).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    for mod in imported - {"__future__"}:
        top = mod if mod.startswith(("analysis", "simcore")) else mod.split(".")[0]
        assert f":mod:`{top}`" in doc or top in ("analysis",), mod
