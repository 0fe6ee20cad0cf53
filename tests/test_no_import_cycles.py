"""No import cycles anywhere in the toolkit, type-only imports (``if TYPE_CHECKING:``) included:
a cycle makes the import order matter and the layering unreadable. Checked with grimp (which
import-linter installs) over every package of the toolkit, module by module."""

from __future__ import annotations

import sys

import grimp

PACKAGES = ("simcore", "strategies", "analysis", "reports", "cli", "configs")


def cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in graph.modules:
                    continue
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w)))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(sorted(comp))
    return out


def test_no_module_imports_itself_through_others():
    graph = grimp.build_graph(*PACKAGES, exclude_type_checking_imports=False)
    found = cycles(graph)
    assert not found, "import cycles (type-only imports count): " + "; ".join(
        " <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_a_cycle(tmp_path, monkeypatch):
    """The check can fail: two modules that import each other only for typing are a cycle."""
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from cyc.b import B\n")
    (pkg / "b.py").write_text("from cyc.a import *\nclass B: ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("cyc", None)
    graph = grimp.build_graph("cyc", exclude_type_checking_imports=False, cache_dir=None)
    assert cycles(graph) == [["cyc.a", "cyc.b"]]
