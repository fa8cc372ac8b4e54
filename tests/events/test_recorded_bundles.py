"""Every rules version verifies forever: one recorded game per ruleset and rules version
(tests/data/bundles/, written by tools/record_bundles.py with that version's rules) still
verifies with today's code, by `events.audit.verify` and by tools/rederive.js."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

import games
from events import audit
from tests.conftest import ROOT
from tools.record_bundles import OUT, versions

NODE = shutil.which("node")
RECORDED = sorted(OUT.glob("*.json"))


def _key(path) -> tuple[str, int]:
    ruleset, _, version = path.stem.rpartition("-v")
    return ruleset, int(version)


def test_every_rules_version_live_or_archived_has_a_recorded_bundle():
    assert sorted(map(_key, RECORDED)) == versions()
    assert ("goblin-market", 1) in versions() and ("black-market", 1) in versions()


@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_a_recorded_bundle_of_every_rules_version_still_verifies(path):
    bundle = json.loads(path.read_text("utf-8"))
    ruleset, version = _key(path)
    assert (bundle["game"]["ruleset"], bundle["game"]["rules_version"]) == (ruleset, version)
    assert games.get(ruleset, version).rules_version == version
    report = audit.verify(bundle)
    assert report.ok, report.to_text()
    assert all(check.ok for check in report.checks)


@pytest.mark.process  # runs node
@pytest.mark.skipif(NODE is None, reason="node is not installed: tools/rederive.js runs on Node")
@pytest.mark.parametrize("path", RECORDED, ids=lambda p: p.stem)
def test_tools_rederive_js_rederives_a_recorded_bundle_of_every_rules_version(path):
    done = subprocess.run(
        [NODE, str(ROOT / "tools" / "rederive.js"), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"re-derived: {_key(path)[0]}," in done.stdout and "all as logged" in done.stdout


def test_the_recorded_wild_black_market_games_hold_private_offers_inline_then_in_their_log():
    """Rules version 3 keeps private offers in a private log, version 2 inline: both shapes
    of log are among the recorded games."""
    v2, v3 = (json.loads((OUT / f"black-market-v{n}.json").read_text("utf-8")) for n in (2, 3))
    assert v2["game"]["options"]["trade"] == v3["game"]["options"]["trade"] == "wild"
    assert not v2.get("private")
    assert any(e["type"] == "black-market.OfferMade" for e in v2["events"])
    assert v3["private"]
