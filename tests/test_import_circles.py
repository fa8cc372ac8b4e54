"""No import circles among the server's modules, not even one dodged by importing inside a
function: a module that needs one above it belongs elsewhere (docs/architecture.md).
Imports under `if TYPE_CHECKING:` are annotations only and do not count. import-linter's
layers contract (test_architecture.py) orders the packages; this orders the modules
within them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("cli", "api", "workers", "service", "leagues", "events", "computer", "games")


def modules(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """Map each dotted module name under `packages` to its file."""
    found = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _runtime_imports(tree: ast.AST):
    """Yield every import statement that runs, at module level or in a function; skip
    the bodies of `if TYPE_CHECKING:`."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in _runtime_imports_of(child))
            continue
        yield from _runtime_imports_of(node)


def _runtime_imports_of(node: ast.AST):
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    elif isinstance(node, (ast.stmt, ast.excepthandler, ast.match_case)):
        yield from _runtime_imports(node)  # an expression holds no import statement


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known) -> set[str]:
    """The known modules an import statement in module `name` loads."""
    if isinstance(node, ast.Import):
        wanted = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        # `from package import module` loads the module; `from module import name`, the module
        wanted = [f"{base}.{alias.name}" for alias in node.names]
        wanted = [target for target in wanted if target in known] or [base]
    found = set()
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        # a module's own packages are loaded before it: an edge to them is no circle
        if target and not f"{name}.".startswith(f"{target}."):
            found.add(target)
    return found


def graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Map each module to the modules it imports (at run time) among `packages`."""
    known = modules(root, packages)
    edges = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges[name] = set().union(
            *(_targets(name, path, node, known) for node in _runtime_imports(tree))
        )
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while not group or group[-1] != node:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_round_a_circle():
    found = circles(graph(ROOT, PACKAGES))
    assert not found, "import circles (each group imports itself round): " + "; ".join(
        " <-> ".join(group) for group in found
    )


def test_a_circle_dodged_inside_a_function_is_found(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from pkg import high\n    return high\n")
    (package / "high.py").write_text("from pkg import low\n")
    (package / "typed.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import high\n"
    )
    (package / "uses_typed.py").write_text("from . import typed\n")
    assert circles(graph(tmp_path, ("pkg",))) == [["pkg.high", "pkg.low"]]
