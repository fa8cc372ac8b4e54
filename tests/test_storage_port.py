"""The use cases reach storage through the ports (stores/, docs/architecture.md), not
through the Redis client: no module of service/ but the composition root
(service/bootstrap.py) reads `boot.redis`."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPOSITION = {"service/bootstrap.py"}


def reads_the_client(path: Path) -> list[int]:
    """Return the lines of `path` that read `<something>.boot.redis` or `boot.redis`."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr == "redis":
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name == "boot":
                lines.append(node.lineno)
    return lines


def test_use_cases_reach_storage_through_the_ports_only():
    readers = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name not in COMPOSITION and (lines := reads_the_client(path)):
            readers[name] = lines
    assert not readers, f"these use cases read boot.redis: use a port in stores/: {readers}"
