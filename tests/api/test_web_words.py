"""Every word of the web client in English and Spanish: runs tests/web/words.test.mjs with
Node's built-in test runner (the same keys and placeholders in both languages, every key the
page asks for present), and every module of the site links (tests/web/modules_link.test.mjs)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT


def test_every_key_of_the_page_is_in_english_and_in_spanish():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    run = subprocess.run(
        [
            node,
            "--experimental-detect-module",
            "--experimental-vm-modules",  # modules_link.test.mjs links the site's modules
            "--no-warnings",
            "--test",
            str(ROOT / "tests" / "web"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
