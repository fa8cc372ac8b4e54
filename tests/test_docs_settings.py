"""The settings and constants the documentation names exist: every `UPPER_CASE` name in
backticks in docs/, the READMEs and openapi.yaml is a setting of service/config.py, a
constant the code defines, or an environment variable a script reads. A renamed or
removed setting fails here instead of leaving an operator setting a name nothing reads."""

from __future__ import annotations

import re
from pathlib import Path

from service.config import DEFAULTS, PREFIX

ROOT = Path(__file__).resolve().parent.parent
DOCS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md", ROOT / "games/README.md"]
CODE = ("api", "bench", "cli", "computer", "events", "examples", "games", "leagues", "service")
CODE += ("stores", "tests", "tools", "workers")
SUFFIXES = {".py", ".sh", ".mts", ".js"}
NAME = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
NAMED = re.compile(rf"`(?:{PREFIX})?({NAME})(?:=[^`]*)?`")  # `NAME`, `MARKETFOLD_NAME=1`
DEFINED = [
    re.compile(rf"^\s*((?:{NAME}\s*,\s*)*{NAME})\s*(?::[^=\n]*)?=(?!=)", re.M),  # NAME = ...
    re.compile(rf"environ(?:\.get\(|\[)\s*[\"']({NAME})[\"']"),  # os.environ reads
    re.compile(rf"process\.env\.({NAME})|\$\{{({NAME}):-"),  # Node, sh
]


def named_in_docs() -> dict[str, str]:
    """Return each backticked UPPER_CASE name of the docs with where it first appears."""
    found: dict[str, str] = {}
    for path in [*DOCS, ROOT / "openapi.yaml"]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for name in NAMED.findall(line):
                found.setdefault(name, f"{path.relative_to(ROOT)}:{number}")
    return found


def defined_in_code() -> set[str]:
    """Return the UPPER_CASE names the code assigns or reads from the environment."""
    names: set[str] = set()
    for top in CODE:
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in SUFFIXES or "node_modules" in path.parts:
                continue
            for pattern in DEFINED:
                for match in pattern.findall(path.read_text(errors="replace")):
                    for group in match if isinstance(match, tuple) else (match,):
                        names.update(n.strip() for n in group.split(",") if n.strip())
    return names


def test_every_setting_or_constant_the_docs_name_exists():
    known = set(DEFAULTS) | defined_in_code()
    unknown = {name: where for name, where in named_in_docs().items() if name not in known}
    assert not unknown, f"the docs name settings or constants nothing defines: {unknown}"


def test_the_readme_lists_every_setting_by_a_name_the_service_reads():
    readme = (ROOT / "README.md").read_text()
    start = readme.index("Configuration is by environment variable")
    paragraph = readme[start : readme.index("\n## ", start)]
    named = set(re.findall(rf"`({NAME})`", paragraph))
    assert named and named <= set(DEFAULTS), sorted(named - set(DEFAULTS))
