"""The layers of docs/architecture.md hold: `lint-imports` checks the contracts in
pyproject.toml ([tool.importlinter]) over every module."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def lint_imports() -> str:
    """Return the path of the `lint-imports` command of this interpreter's environment."""
    beside = Path(sys.executable).parent / "lint-imports"
    return str(beside) if beside.exists() else shutil.which("lint-imports") or "lint-imports"


@pytest.mark.process
def test_imports_point_one_way():
    done = subprocess.run(
        [lint_imports(), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stdout + done.stderr
