"""Freeze a game package as it was at a git revision, so that games played under those
rules keep replaying and verifying after the rules change (docs/architecture.md, "Rules
versions").

    python tools/archive_rules.py gobcon 1 [REV]

copies `games/gobcon/*.py` at REV (default: HEAD) into `games/archive/gobcon_v1/`, with its
own imports pointed at the copy, and the data files it names (`games/data/*.json`) into
`games/archive/data/gobcon_v1/`. Then register the copy in `games.ARCHIVE` and raise
`rules_version` in the live package. The copy keeps using the shared modules of `games/`
(`kit`, `catalog`, `base`, ...); `tests/games/test_archive.py` plays every archived version.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout


def archive(package: str, version: int, rev: str = "HEAD") -> Path:
    """Write the frozen copy of `games/<package>` at `rev`; return its folder."""
    name = f"{package}_v{version}"
    dest = ROOT / "games" / "archive" / name
    data = ROOT / "games" / "archive" / "data" / name
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
    return dest


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    print(archive(sys.argv[1], int(sys.argv[2]), *sys.argv[3:]))
