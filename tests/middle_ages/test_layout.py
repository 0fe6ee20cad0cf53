"""The kernel's memory layout (layout.py) and the one-way imports of the kernel modules.

Nothing here compiles Numba code: the modules are read as source.
"""

from __future__ import annotations

import pytest
import ast
import re
import subprocess
import sys
from pathlib import Path

from simcore.games.middle_ages import layout

FOLDER = Path(layout.__file__).resolve().parent
PACKAGE = "simcore.games.middle_ages"


def imports_of(module: str) -> set[str]:
    """Modules that ``module`` (a file of the folder) imports, by absolute name."""
    tree = ast.parse((FOLDER / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = f"{PACKAGE}.{base}".rstrip(".")
            found |= {f"{base}.{a.name}" if base == PACKAGE else base for a in node.names}
    return found


def test_layout_imports_only_numpy_and_the_rules():
    """The strategy loader imports layout.py: it must never pull in Numba."""
    assert imports_of("layout") <= {"__future__", "numpy", f"{PACKAGE}.rules"}


def test_kernel_modules_import_one_way():
    """layout ← bots ← kernel ← driver: no module imports one further down the chain."""
    chain = ["layout", "bots", "kernel", "driver"]
    for i, module in enumerate(chain):
        later = {f"{PACKAGE}.{m}" for m in chain[i:]}
        assert not imports_of(module) & later, module


@pytest.mark.slow   # costly: make test-slow and CI run it (docs/testing.md)
def test_listing_strategies_compiles_no_kernel():
    code = ("import sys, strategies.middle_ages as S; S.resolve('balanced', 4); "
            "import simcore.games.middle_ages.layout; print('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_workspace_map_matches_the_offsets():
    """Every row of the MAP in layout's docstring gives the offset the constants compute."""
    rows = re.findall(r"^ {4} *([A-Z][A-Z_]+) +(\d+) ", layout.__doc__, re.M)
    named = {name: int(off) for name, off in rows if hasattr(layout, name)}
    assert len(named) >= 30
    for name, off in named.items():
        assert getattr(layout, name) == off, name
    # and the rows are in increasing order, W_INIT last before the end
    assert list(named.values()) == sorted(named.values())
    assert named["WS_SIZE"] == layout.WS_SIZE


def test_decision_scratch_stays_clear_of_the_rules_copy():
    assert layout.W_SC + layout.MAX_OPTIONS <= layout.W_RK
    assert layout.W_COUNT + layout.MAXT <= layout.W_RK
    assert layout.W_RK + layout.R_SIZE == layout.W_STRAT
    assert layout.W_INIT + layout.W_RESET_END == layout.WS_SIZE
