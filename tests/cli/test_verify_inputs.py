"""`marketfold verify` reads what docs/audit.md says it reads (#45 §5): UTF-8, with or
without a byte order mark; a file saved as UTF-16 (with or without its mark) or bytes
that are not UTF-8 are refused with a clear message and exit status 2. `--game ID`: a
bundle of another game (an old genuine bundle handed over as "the rematch") fails by name."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import ROOT

# each test runs `python -m cli verify` (a process of its own), as a reader would
pytestmark = pytest.mark.process

GENUINE = (ROOT / "tests" / "data" / "bundles" / "goblin-market-v3.json").read_bytes()
GAME = json.loads(GENUINE)["events"][0]["data"]["game_id"]


def verify(tmp_path, raw: bytes, *extra: str) -> subprocess.CompletedProcess:
    path = tmp_path / "game.json"
    path.write_bytes(raw)
    return subprocess.run(
        [sys.executable, "-m", "cli", "verify", *extra, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )


@pytest.mark.parametrize("bom", [b"\xff\xfe", b""], ids=["with its mark", "without"])
def test_a_file_saved_as_utf16_is_refused_by_name(tmp_path, bom):
    done = verify(tmp_path, bom + GENUINE.decode().encode("utf-16-le"))
    assert done.returncode == 2 and not done.stdout
    assert "is UTF-16 or UTF-32 text, not UTF-8" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_bytes_that_are_not_utf8_are_refused_and_a_utf8_mark_is_read(tmp_path):
    latin1 = GENUINE.decode().replace('"goblin-market"', '"gobl\u00efn"').encode("latin-1")
    done = verify(tmp_path, latin1)
    assert done.returncode == 2 and "is not UTF-8 text (byte " in done.stderr, done.stderr
    done = verify(tmp_path, b"\xef\xbb\xbf" + GENUINE, "--json")
    assert done.returncode == 1  # read: unsigned by a trusted key, so not verified
    assert json.loads(done.stdout)["game"] == GAME


def test_game_names_a_bundle_of_another_game(tmp_path):
    done = verify(tmp_path, GENUINE, "--json", "--game", "g_theRematch00")
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert done.returncode == 1
    assert checks["the game asked for"] == {
        **checks["the game asked for"],
        "ok": False,
        "detail": f"the bundle is game {GAME}, not game g_theRematch00 (--game): another game",
    }
    done = verify(tmp_path, GENUINE, "--json", "--game", GAME)
    checks = {c["name"]: c for c in json.loads(done.stdout)["checks"]}
    assert checks["the game asked for"]["ok"]


def test_post_verify_refuses_utf16_as_the_docs_say(client):
    res = client.post(
        "/v1/verify",
        data=b"\xff\xfe" + GENUINE.decode().encode("utf-16-le"),
        headers={"Content-Type": "application/octet-stream"},
    )
    assert res.status_code == 422 and res.get_json()["code"] == "invalid_body"
    assert "UTF-16" in res.get_json()["errors"]["_body"][0], res.get_json()
