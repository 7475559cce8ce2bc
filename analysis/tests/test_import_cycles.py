"""No import cycles among analysis/reproduce/*.py and analysis/faultsweep_analysis/*.py.

A cycle makes a script that runs as __main__ load a second copy of itself through its sibling
(with its own exception classes, so `except UsageError` misses the sibling's errors), and makes
the import order matter. Every import counts, also those inside functions or try blocks.

    /usr/bin/python3 analysis/tests/test_import_cycles.py    # prints the graph's cycles
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

ANALYSIS = Path(__file__).resolve().parents[1]
PACKAGES = ("reproduce", "faultsweep_analysis")


def module_name(path: Path, root: Path = ANALYSIS) -> str:
    """Dotted name from the package root: reproduce.zhang, reproduce.report.rows."""
    pkg = ".".join(path.parent.relative_to(root).parts) if path.is_absolute() else path.parent.name
    return pkg if path.stem == "__init__" else f"{pkg}.{path.stem}"


def resolve(name: str, pkg: str, known: set[str]) -> str | None:
    """The known module `name` refers to: dotted from the package root, or a sibling of pkg
    (a script's fallback `import fars` after putting its own folder on sys.path)."""
    for candidate in (name, f"{pkg}.{name}"):
        if candidate in known:
            return candidate
    return None


def imports_of(path: Path, known: set[str], root: Path = ANALYSIS) -> set[str]:
    pkg = module_name(path.parent / "__init__.py", root)
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from . import x / from .x import y
                base = f"{pkg}.{base}" if base else pkg
            # `from pkg import mod` imports pkg.mod; `from pkg.mod import name` imports pkg.mod
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            m = resolve(t, pkg, known)
            if m is not None:
                out.add(m)
    out.discard(module_name(path, root))
    return out


def import_graph(root: Path = ANALYSIS) -> dict[str, set[str]]:
    files = [f for p in PACKAGES for f in sorted((root / p).rglob("*.py"))]
    known = {module_name(f, root) for f in files}
    return {module_name(f, root): imports_of(f, known, root) for f in files}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_the_cycle_finder_sees_a_cycle_through_a_function_level_import(tmp_path):
    pkg = tmp_path / "reproduce"
    pkg.mkdir()
    (pkg / "a.py").write_text("from reproduce import b\n")
    (pkg / "b.py").write_text("def f():\n    from reproduce.c import x\n")
    (pkg / "c.py").write_text("try:\n    from reproduce import a\nexcept ImportError:\n"
                              "    import a\n")
    (pkg / "d.py").write_text("from reproduce import a\n")
    (tmp_path / "faultsweep_analysis").mkdir()
    assert cycles(import_graph(tmp_path)) == [["reproduce.a", "reproduce.b", "reproduce.c"]]


def test_no_import_cycles_in_the_analysis_modules():
    graph = import_graph()
    assert "reproduce.zhang" in graph and "faultsweep_analysis.results" in graph
    # the report's subpackage counts too (its __main__ once imported cli.py, which starts it)
    assert "reproduce.report.__main__" in graph and "reproduce.report.rows" in graph
    assert cycles(graph) == []


if __name__ == "__main__":
    found = cycles(import_graph())
    for c in found:
        print("cycle: " + " <-> ".join(c))
    print(f"{len(found)} import cycle(s)")
    sys.exit(1 if found else 0)
