"""The import contract: core below graphs below eval below the CLI, and no import loop.

Read from the source (AST), so it sees every import: module level, inside functions and under
``TYPE_CHECKING`` alike.

- ``webtester`` (the core: every sub-package but ``cli``, ``graphs`` and ``eval``) imports none of
  ``webtester.graphs``, ``webtester.eval``, ``webtester.cli``;
- ``webtester.graphs`` imports the core only;
- ``webtester.eval`` imports the core, and ``webtester.graphs`` only in the modules that run testers;
- only ``webtester.cli`` sits above all (the package root is core: its public API names core modules only).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: repository folder -> the package it installs as
FOLDERS = {"webtester": "webtester", "graphs": "webtester.graphs", "eval": "webtester.eval"}
#: eval modules that run testers, and so may import the workflow
EVAL_RUNS_TESTERS = {"webtester.eval.bench"}
LAYERS = ("webtester.cli", "webtester.eval", "webtester.graphs")


@dataclass(frozen=True)
class Import:
    source: str  # importing module
    target: str  # imported module (or package)
    line: int
    runs: bool  # executed when the module or one of its functions runs (False: under TYPE_CHECKING only)


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = [*FOLDERS[rel.parts[0]].split("."), *rel.parts[1:]]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def first_party_modules() -> dict[str, Path]:
    found = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[module_name(path)] = path
    return found


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The first-party module ``name`` refers to (the longest known prefix), or None."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def _type_only_imports(tree: ast.Module) -> set[int]:
    """Ids of the import nodes under ``if TYPE_CHECKING:`` (they never run)."""
    return {
        id(sub)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for stmt in node.body
        for sub in ast.walk(stmt)
        if isinstance(sub, (ast.Import, ast.ImportFrom))
    }


def imports_of(module: str, path: Path, known: dict[str, Path]) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    type_only = _type_only_imports(tree)
    found: dict[tuple[str, int], Import] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            if any(_resolve(name, known) != name for name in names):  # a name defined in the package itself
                names.append(base)
        for name in names:
            target = _resolve(name, known)
            if target and target != module:
                found.setdefault((target, node.lineno), Import(module, target, node.lineno, id(node) not in type_only))
    return list(found.values())


def all_imports() -> list[Import]:
    known = first_party_modules()
    return [imp for module, path in known.items() for imp in imports_of(module, path, known)]


def layer_of(module: str) -> str:
    for layer in LAYERS:
        if module == layer or module.startswith(layer + "."):
            return layer
    return "core"


ALLOWED = {
    "core": {"core"},
    "webtester.graphs": {"core", "webtester.graphs"},
    "webtester.eval": {"core", "webtester.eval"},
    "webtester.cli": {"core", "webtester.graphs", "webtester.eval", "webtester.cli"},
}


def violations(imports: list[Import]) -> list[str]:
    bad = []
    for imp in imports:
        src, dst = layer_of(imp.source), layer_of(imp.target)
        allowed = ALLOWED[src] | ({"webtester.graphs"} if imp.source in EVAL_RUNS_TESTERS else set())
        if dst not in allowed:
            bad.append(f"{imp.source}:{imp.line} imports {imp.target} ({src} may not import {dst})")
    return bad


def cycles(imports: list[Import]) -> list[list[str]]:
    """Strongly connected components (size > 1) of the import graph (Tarjan): every import that runs, at
    module level or inside a function, so a loop closed by a lazy import counts too."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if imp.runs:
            graph.setdefault(imp.source, set()).add(imp.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package_parents(imports: list[Import]) -> list[Import]:
    """Importing ``a.b.c`` runs ``a/__init__`` and ``a.b/__init__`` too (the root package, whose names load on
    first use, is left out, and so is a module's own package: a submodule always sits inside its package's
    import)."""
    known = set(first_party_modules())
    extra = []
    for imp in imports:
        parts = imp.target.split(".")
        for n in range(2, len(parts)):
            parent = ".".join(parts[:n])
            if parent in known and not imp.source.startswith(parent + ".") and parent != imp.source:
                extra.append(Import(imp.source, parent, imp.line, imp.runs))
    return extra


def test_layers_are_respected():
    bad = violations(all_imports())
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_no_import_loop():
    imports = all_imports()
    loops = cycles(imports + _package_parents(imports))
    assert not loops, "import loops:\n" + "\n".join(" <-> ".join(c) for c in loops)


@pytest.mark.parametrize(
    ("source", "target", "expected"),
    [
        ("webtester.runner", "webtester.graphs.workflow", False),
        ("webtester.report.data", "webtester.eval.metrics", False),
        ("webtester.graphs.nodes", "webtester.eval.scoring", False),
        ("webtester.eval.scoring", "webtester.graphs.workflow", False),
        ("webtester.eval.bench", "webtester.graphs.run", True),
        ("webtester.graphs.nodes", "webtester.models", True),
        ("webtester.cli.bench", "webtester.eval.bench", True),
    ],
)
def test_the_contract_itself(source, target, expected):
    """The checker flags each kind of upward import (so a clean result means something)."""
    assert (not violations([Import(source, target, 1, True)])) is expected


def test_the_loop_finder_finds_a_loop():
    loop = [Import("webtester.a", "webtester.b", 1, True), Import("webtester.b", "webtester.a", 1, True)]
    assert cycles(loop) == [["webtester.a", "webtester.b"]]
    assert cycles([Import("webtester.a", "webtester.b", 1, False), Import("webtester.b", "webtester.a", 1, True)]) == []
