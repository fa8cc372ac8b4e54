"""The export is a file: served as a download, its bytes verify as they were downloaded, by
`POST /v1/verify` (whatever type the client labels them) and by `marketfold verify`."""

import json
import random
import subprocess
import sys

from tests.api.helpers import by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import check
from tests.conftest import ROOT

EXPORT, VERIFY = "/v1/games/{id}/export", "/v1/verify"


def finished_game(client, app) -> str:
    people = new_players(client, 3)
    gid = new_game(client, people)
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(7))
    return gid


def test_the_export_is_a_download_and_its_bytes_verify_as_downloaded(client, app, tmp_path):
    gid = finished_game(client, app)
    url = EXPORT.replace("{id}", gid)
    as_json = check(client.get(url), "GET", EXPORT)
    assert as_json.mimetype == "application/json"
    disposition = as_json.headers["Content-Disposition"]
    assert disposition == f'attachment; filename="marketfold-{gid}.json"'
    as_bytes = check(client.get(url, headers={"Accept": "application/octet-stream"}), "GET", EXPORT)
    assert as_bytes.mimetype == "application/octet-stream"
    assert as_bytes.data == as_json.data  # one file, two labels
    raw = as_bytes.data
    for label, body in [
        ("application/octet-stream", raw),
        ("application/json", raw),
        ("application/octet-stream", b"\xef\xbb\xbf" + raw),  # saved by an editor with a BOM
    ]:
        report = check(client.post(VERIFY, data=body, content_type=label), "POST", VERIFY)
        assert report.get_json()["ok"] is True, (label, report.get_json())
    saved = tmp_path / "game.json"
    saved.write_bytes(b"\xef\xbb\xbf" + raw)
    keys = tmp_path / "keys.json"
    keys.write_bytes(client.get("/v1/keys").data)
    done = subprocess.run(
        [sys.executable, "-m", "cli", "verify", "--keys", str(keys), str(saved)],
        capture_output=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_bundle_without_its_seed_verifies_from_the_seed_game_ended_revealed(client, app):
    gid = finished_game(client, app)
    bundle = json.loads(client.get(EXPORT.replace("{id}", gid)).data)
    del bundle["seed"]
    report = check(client.post(VERIFY, json=bundle), "POST", VERIFY).get_json()
    assert report["ok"] is True, report


def test_a_reserialised_timestamp_breaks_the_chain_so_clients_must_keep_the_bytes(client, app):
    gid = finished_game(client, app)
    bundle = json.loads(client.get(EXPORT.replace("{id}", gid)).data)
    at = bundle["events"][3]["at"]  # what a date-time type would write back
    bundle["events"][3]["at"] = at.replace("Z", "000+00:00")
    report = check(client.post(VERIFY, json=bundle), "POST", VERIFY).get_json()
    assert report["ok"] is False
    assert report["checks"][0]["name"] == "hash chain" and report["checks"][0]["seq"] == 4
