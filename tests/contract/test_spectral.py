"""Spectral (the pinned npm package) lints openapi.yaml with its OpenAPI rules: nothing to
report. Rules turned off are in .spectral.yaml, each with its reason."""

import json
import shutil
import subprocess

import pytest
import yaml

from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # installs the npm tools once (npm ci into a cache)


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="node and npm are needed to run Spectral",
)
def test_spectral_finds_nothing_to_report_in_the_spec():
    tools = subprocess.run(
        [str(ROOT / ".ci" / "npm-tools")], capture_output=True, text=True, check=True, timeout=600
    ).stdout.strip()
    done = subprocess.run(
        [
            f"{tools}/node_modules/.bin/spectral",
            "lint",
            "openapi.yaml",
            "-f",
            "json",
            "-q",
            "--ruleset",
            ".spectral.yaml",
            "--fail-severity",
            "hint",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    problems = json.loads(done.stdout or "[]")
    assert problems == [], "\n".join(
        f"{p['code']} at {'/'.join(map(str, p['path']))}: {p['message']}" for p in problems
    )


def test_every_spectral_rule_turned_off_says_why():
    config = (ROOT / ".spectral.yaml").read_text("utf-8")
    lines = config.splitlines()
    for name, setting in (yaml.safe_load(config).get("rules") or {}).items():
        if setting in ("off", False):
            at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{name}:"))
            assert lines[at - 1].strip().startswith("#"), f"{name} is turned off without a reason"
