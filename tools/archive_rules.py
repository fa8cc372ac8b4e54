"""Freeze a game package as it was at a git revision, so that games played under those
rules keep replaying and verifying after the rules change (docs/architecture.md, "Rules
versions").

    python tools/archive_rules.py gobcon 1 [REV]
    python tools/archive_rules.py --vendor gobcon_v1 REV

The first copies `games/gobcon/*.py` at REV (default: HEAD) into `games/archive/gobcon_v1/`,
with its own imports pointed at the copy, and the data files it names (`games/data/*.json`)
into `games/archive/data/gobcon_v1/`. The shared modules of `games/` it uses (`kit`,
`catalog`, `decktet`, `card_texts`, ..., followed through their own imports) are copied too,
at the same REV, into `games/archive/gobcon_v1/shared/`, imports and data paths pointed at the
copies: a later change to the live shared code cannot change the archived rules. Only
`games.base` (the interface the live service and audit meet by identity: Event, Game,
RuleViolation, ...) and `games.rng` (the frozen draw algorithm) stay shared;
`tests/games/test_archive.py` fails if an archive imports anything else of live `games`.
`--vendor` does the shared part alone for an archive already written.

Then register the copy in `games.ARCHIVE` and raise `rules_version` in the live package.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT / "games" / "archive"
LIVE_INTERFACE = frozenset({"base", "rng"})  # shared by identity, never copied
_NAMED = r"\bgames\.([a-z_]+)\b"
_FROM = r"\bfrom games import ([a-z_, ]+)"


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def _shared_at(rev: str) -> set[str]:
    """The shared modules of `games/` at `rev` (games/<name>.py)."""
    files = _git("ls-tree", "--name-only", rev, "games/").split()
    return {Path(p).stem for p in files if p.endswith(".py") and Path(p).stem != "__init__"}


def _uses(text: str, shared: set[str]) -> set[str]:
    names = set(re.findall(_NAMED, text))
    for group in re.findall(_FROM, text):
        names |= {n.strip() for n in group.split(",")}
    return (names & shared) - LIVE_INTERFACE


def _point_at_copies(text: str, name: str, vendored: set[str]) -> str:
    here = f"games.archive.{name}.shared"

    def named(m: re.Match[str]) -> str:
        return f"{here}.{m[1]}" if m[1] in vendored else m[0]

    def from_games(m: re.Match[str]) -> str:
        names = {n.strip() for n in m[1].split(",")}
        return f"from {here} import {m[1]}" if names <= vendored else m[0]

    return re.sub(_FROM, from_games, re.sub(_NAMED, named, text))


def vendor(name: str, rev: str) -> list[str]:
    """Copy into `games/archive/<name>/shared/` the shared modules the archive uses, at `rev`,
    and point the archive's imports at them; return the modules copied."""
    dest = ARCHIVE / name
    shared = _shared_at(rev)
    texts = {p: p.read_text("utf-8") for p in sorted(dest.glob("*.py"))}
    todo = set().union(*(_uses(t, shared) for t in texts.values()))
    sources: dict[str, str] = {}
    while todo:
        module = todo.pop()
        sources[module] = _git("show", f"{rev}:games/{module}.py")
        todo |= _uses(sources[module], shared) - set(sources)
    vendored = set(sources)
    for path, text in texts.items():
        path.write_text(_point_at_copies(text, name, vendored), "utf-8")
    if not vendored:
        return []
    folder = dest / "shared"
    folder.mkdir(exist_ok=True)
    (folder / "__init__.py").write_text(
        f'"""The shared modules of games/ that {name} uses, as they were at its freeze '
        '(tools/archive_rules.py)."""\n',
        "utf-8",
    )
    data = ARCHIVE / "data" / name
    for module, text in sources.items():
        text = _point_at_copies(text, name, vendored)
        text = text.replace(
            'Path(__file__).parent / "data"',
            f'Path(__file__).resolve().parents[2] / "data" / "{name}"',
        )
        for file in set(re.findall(r'"([a-z0-9_]+\.json)"', text)):
            data.mkdir(parents=True, exist_ok=True)
            (data / file).write_text(_git("show", f"{rev}:games/data/{file}"), "utf-8")
        (folder / f"{module}.py").write_text(text, "utf-8")
    return sorted(vendored)


def archive(package: str, version: int, rev: str = "HEAD") -> Path:
    """Write the frozen copy of `games/<package>` at `rev`; return its folder."""
    name = f"{package}_v{version}"
    dest = ARCHIVE / name
    data = ARCHIVE / "data" / name
    dest.mkdir(parents=True, exist_ok=False)
    sources = [
        p
        for p in _git("ls-tree", "--name-only", rev, f"games/{package}/").split()
        if p.endswith(".py")
    ]
    named: set[str] = set()
    for path in sources:
        text = _git("show", f"{rev}:{path}")
        text = re.sub(rf"\bgames\.{package}\b", f"games.archive.{name}", text)
        text = text.replace('/ "data"', f'/ "data" / "{name}"')  # the data files' copies
        named |= set(re.findall(r'"([a-z0-9_]+\.json)"', text))
        (dest / Path(path).name).write_text(text, "utf-8")
    for file in sorted(named):
        data.mkdir(parents=True, exist_ok=True)
        (data / file).write_text(_git("show", f"{rev}:games/data/{file}"), "utf-8")
    _on_later_interface(dest / "__init__.py", name)
    vendor(name, rev)
    return dest


def _on_later_interface(init: Path, name: str) -> None:
    """A package frozen before games had a card catalogue assembles with a stand-in for it
    (`games.archive.LATER_INTERFACE`; `games.archive.on_live_interface` fills it in)."""
    text = init.read_text("utf-8")
    if "card_catalogue" in text:
        return
    text = text.replace("assemble(globals(),", "assemble({**LATER_INTERFACE, **globals()},")
    first = f"\nfrom games.archive.{name}."
    text = text.replace(first, "\nfrom games.archive import LATER_INTERFACE" + first, 1)
    init.write_text(text, "utf-8")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--vendor":
        print(vendor(sys.argv[2], sys.argv[3]))
    elif len(sys.argv) in (3, 4):
        print(archive(sys.argv[1], int(sys.argv[2]), *sys.argv[3:]))
    else:
        sys.exit(__doc__)
