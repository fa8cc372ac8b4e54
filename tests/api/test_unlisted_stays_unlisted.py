"""An unlisted game stays unlisted (#49.3): no list's `next` cursor names it (or its time),
and the public log of games holds its leaves sealed (no players, names, times, options or
result), while its own players still check its inclusion with `POST /v1/verify`,
`marketfold verify` and tools/rederive.js."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys

from events import log_checks, transparency
from service import lobby
from tests.api.helpers import bearer, by_seat, new_players, play_to_end
from tests.conftest import ROOT

NODE = shutil.which("node")


def _create(client, player: dict, **body) -> dict:
    res = client.post(
        "/v1/games", json={"ruleset": "goblin-market", "players": 3, **body}, headers=bearer(player)
    )
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def _walk(client, path: str, query: dict, token: dict | None = None) -> tuple[list, list]:
    """Every page of a list: the ids in order and every `next` cursor given."""
    ids, cursors, cursor = [], [], None
    while True:
        args = {**query, **({"cursor": cursor} if cursor else {})}
        res = client.get(path, query_string=args, headers=token or {})
        assert res.status_code == 200, res.get_json()
        page = res.get_json()
        ids += [g["id"] for g in page["games"]]
        if not (cursor := page["next"]):
            return ids, cursors
        cursors.append(cursor)


def test_no_cursor_names_an_unlisted_game_the_page_passed_over(client, monkeypatch):
    """A page reads at most `SCAN_MOST` entries; it used to answer with a cursor naming
    the last one read, even an unlisted game it skipped, which then opened the game to a
    stranger. Made small here, as 1,000 games make it in the issue's report."""
    monkeypatch.setattr(lobby, "SCAN_MOST", 3)
    victim, stranger = new_players(client, 2, prefix="uv")
    secret = _create(client, victim, unlisted=True, join=True)  # the victim's oldest game
    listed = [_create(client, victim, join=True)["id"] for _ in range(7)]
    created_ms = str(
        lobby.created_ms(
            client.application.extensions["marketfold"].store.load(secret["id"]).record
        )
    )
    for limit in range(1, 10):
        for query in (
            {"player": victim["id"], "limit": limit},
            {"player": victim["id"], "ruleset": "gobcon", "limit": limit},  # skips them all
            {"limit": limit},
            {"status": "waiting", "limit": limit},
        ):
            ids, cursors = _walk(client, "/v1/games", query, bearer(stranger))
            assert secret["id"] not in ids
            for cursor in cursors:
                assert secret["id"] not in cursor and created_ms not in cursor, (query, cursor)
                assert len(cursor) == len(cursors[0])  # sizes say nothing either
            expected = [] if "ruleset" in query else list(reversed(listed))
            assert ids == expected, query
        # the victim's own list walks every game, the unlisted one included, once each
        mine, _ = _walk(client, "/v1/players/me/games", {"limit": limit}, bearer(victim))
        assert mine == [*reversed(listed), secret["id"]]
    bad = client.get("/v1/games", query_string={"cursor": "A" * 54})
    assert bad.status_code == 422 and list(bad.get_json()["errors"]) == ["cursor"]


def test_an_unlisted_games_leaves_are_sealed_and_its_players_still_check_inclusion(
    client, app, tmp_path
):
    people = new_players(client, 3, prefix="ul")
    game = _create(
        client, people[0], unlisted=True, join=True, invite=[p["id"] for p in people[1:]]
    )
    gid = game["id"]
    for p in people[1:]:
        assert client.post(f"/v1/games/{gid}/join", headers=bearer(p)).status_code == 200
    play_to_end(client, app, gid, by_seat(client, gid, people), random.Random(5))
    public = json.dumps(client.get("/v1/transparency/leaves").get_json())
    receipt = client.get(f"/v1/games/{gid}/transparency").get_json()
    leaves = [json.loads(item["leaf"]) for item in receipt["leaves"]]
    assert [leaf["kind"] for leaf in leaves] == list(transparency.KINDS)
    for leaf in leaves:  # a kind, the game's reference and a commitment: nothing else
        assert set(leaf) == {"log", "kind", "game", "sealed"}, leaf
        assert leaf["game"] == transparency.game_ref(gid)
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    result = json.dumps(bundle["events"][-1]["data"]["result"])
    for p in people:
        assert p["id"] not in public and p["name"] not in public
    assert bundle["events"][0]["at"] not in public and result not in public
    assert gid not in public
    # its players hold the export: the server's verify, the CLI and Node check inclusion
    report = client.post("/v1/verify", json=bundle).get_json()
    checks = {c["name"]: c for c in report["checks"]}
    assert report["ok"] and checks[log_checks.CHECK]["ok"], checks[log_checks.CHECK]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bundle))
    keys = tmp_path / "keys.json"
    keys.write_bytes(client.get("/v1/keys").data)
    cli = subprocess.run(
        [sys.executable, "-m", "cli", "verify", "--json", "--keys", str(keys), str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert cli.returncode == 0, cli.stdout
    if NODE:
        node = subprocess.run(
            [NODE, str(ROOT / "tools" / "rederive.js"), "--keys", str(keys), str(path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert node.returncode == 0, node.stdout + node.stderr
    # a leaf changed under its seal is caught
    forged = json.loads(json.dumps(bundle))
    forged["events"][-1]["data"]["result"]["winners"] = [9]
    checks = {c["name"]: c for c in client.post("/v1/verify", json=forged).get_json()["checks"]}
    assert not checks[log_checks.CHECK]["ok"]
