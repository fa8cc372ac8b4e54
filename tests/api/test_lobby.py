"""The lobby: games listed by status, ruleset and player, newest first, a page at a time;
leaving and cancelling a waiting game; a rematch of a finished one."""

from __future__ import annotations

import json
import random
import threading

from cli import main as cli_main
from events import audit
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import sse_frames


def _create(client, creator, ruleset="goblin-market", players=3, **body):
    res = client.post(
        "/v1/games",
        json={"ruleset": ruleset, "players": players, **body},
        headers=bearer(creator),
    )
    assert res.status_code == 201
    return res.get_json()["id"]


def _ids(api, query=None, token=None):
    """Walk every page of GET /v1/games?<query> and return the ids in order."""
    ids, cursor = [], None
    while True:
        args = {**(query or {}), "limit": 2, **({"cursor": cursor} if cursor else {})}
        page = api.get("/v1/games", "", token, query_string=args).get_json()
        assert len(page["games"]) <= 2
        ids += [g["id"] for g in page["games"]]
        if not (cursor := page["next"]):
            return ids


def test_games_are_listed_newest_first_by_status_ruleset_and_player(api, client):
    ana, bo, cy = new_players(client, 3)
    waiting = [_create(client, ana) for _ in range(3)]
    gob = _create(client, bo, ruleset="gobcon", players=2)
    client.post(f"/v1/games/{gob}/join", headers=bearer(bo))
    active = new_game(client, [ana, bo, cy])
    everything = _ids(api)
    assert everything == [active, gob, *reversed(waiting)]
    assert _ids(api, {"status": "waiting"}) == [gob, *reversed(waiting)]
    assert _ids(api, {"status": "active"}) == [active]
    assert _ids(api, {"status": "waiting", "ruleset": "gobcon"}) == [gob]
    assert _ids(api, {"player": bo["id"]}) == [active, gob]
    page = api.get("/v1/games", query_string={"status": "active"}).get_json()
    shown = page["games"][0]
    assert (shown["seats_taken"], shown["players"], shown["status"]) == (3, 3, "active")
    mine = api.get("/v1/players/me/games", "", bo["token"]).get_json()["games"]
    assert [(g["id"], g["you"]) for g in mine][1] == (gob, 0)
    seats = by_seat(client, active, [ana, bo, cy])
    first = client.get(f"/v1/games/{active}").get_json()["owed"][0]["seat"]
    owes = {
        g["id"]: g["owes"]
        for g in api.get("/v1/players/me/games", "", seats[first]["token"]).get_json()["games"]
    }
    assert owes[active] is True


def test_bad_list_queries_name_the_field(api):
    bad = [
        ({"limit": 101}, "limit"),
        ({"limit": 0}, "limit"),
        ({"status": "over"}, "status"),
        ({"cursor": "!"}, "cursor"),
        ({"cursor": "bm9wZQ"}, "cursor"),
    ]
    for query, field in bad:
        body = api.get("/v1/games", query_string=query).get_json()
        assert body["code"] == "invalid_query" and list(body["errors"]) == [field], query


def test_a_seat_left_is_taken_again_and_the_game_still_verifies(api, client, app, tmp_path):
    ana, bo, cy, dee = new_players(client, 4)
    gid = _create(client, ana)
    for p in (ana, bo):
        client.post(f"/v1/games/{gid}/join", headers=bearer(p))
    assert api.post("/v1/games/{id}/leave", gid, dee["token"]).get_json()["code"] == "not_seated"
    left = api.post("/v1/games/{id}/leave", gid, ana["token"]).get_json()
    assert left["status"] == "waiting"
    game = client.get(f"/v1/games/{gid}").get_json()
    assert [(s["seat"], s["name"]) for s in game["seats"]] == [(0, "p1")]
    for p in (cy, dee):
        client.post(f"/v1/games/{gid}/join", headers=bearer(p))
    refused = api.post("/v1/games/{id}/leave", gid, bo["token"]).get_json()
    assert refused["code"] == "game_not_waiting"
    players = [bo, cy, dee]
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(2))
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert "game.PlayerLeft" in [e["type"] for e in bundle["events"]]
    assert audit.verify(bundle).ok, audit.verify(bundle).to_text()
    (tmp_path / "game.json").write_text(json.dumps(bundle))
    (tmp_path / "keys.json").write_bytes(client.get("/v1/keys").data)
    keys = ["--keys", str(tmp_path / "keys.json")]
    assert cli_main.main(["verify", *keys, str(tmp_path / "game.json")]) == 0  # marketfold verify


def test_only_the_creator_cancels_a_waiting_game(api, client):
    ana, bo = new_players(client, 2)
    gid = _create(client, ana)
    client.post(f"/v1/games/{gid}/join", headers=bearer(bo))
    assert api.delete("/v1/games/{id}", gid, bo["token"]).get_json()["code"] == "not_creator"
    assert api.delete("/v1/games/{id}", gid, ana["token"]).status_code == 204
    assert client.get(f"/v1/games/{gid}").get_json()["status"] == "cancelled"
    assert (
        api.post("/v1/games/{id}/join", gid, ana["token"]).get_json()["code"] == "game_not_waiting"
    )
    assert api.delete("/v1/games/{id}", gid, ana["token"]).get_json()["code"] == "game_not_waiting"
    assert gid not in _ids(api) and gid not in _ids(api, {"player": bo["id"]})
    log = client.get(f"/v1/games/{gid}/events", headers=bearer(bo)).get_json()["events"]
    assert log[-1]["type"] == "game.Cancelled"


def test_a_rematch_seats_the_caller_and_invites_every_former_seat(api, client, app):
    app.config["SSE_MAX_S"] = 0.5
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=600, options={"edition": "en"})
    assert (
        api.post("/v1/games/{id}/rematch", gid, players[0]["token"]).get_json()["code"]
        == "game_not_finished"
    )
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(4))
    first = api.post("/v1/games/{id}/rematch", gid, players[1]["token"])
    assert first.status_code == 201
    new = first.get_json()
    old = client.get(f"/v1/games/{gid}").get_json()
    same = ("ruleset", "players", "options", "decision_timeout_s")
    assert [new[k] for k in same] == [old[k] for k in same] and new["status"] == "waiting"
    assert new["decision_timeout_s"] == 600 and new["id"] != gid
    assert new["you"] == 0
    again = api.post("/v1/games/{id}/rematch", gid, players[2]["token"])
    assert again.status_code == 200 and again.get_json()["id"] == new["id"]
    assert again.get_json()["you"] == 1
    feed = client.get("/v1/players/me/feed", headers={**bearer(players[0]), "Last-Event-ID": "0"})
    notes = [
        json.loads(f["data"])
        for f in sse_frames(feed.get_data(as_text=True))
        if f.get("event") == "rematch"
    ]
    assert [(n["game"], n["rematch_of"]) for n in notes] == [(new["id"], gid)]
    stranger = new_players(client, 1, prefix="x")[0]
    assert (
        api.post("/v1/games/{id}/rematch", gid, stranger["token"]).get_json()["code"]
        == "not_seated"
    )


def test_the_index_ends_as_the_log_says_under_concurrent_joins_and_leaves(api, app, client):
    people = new_players(client, 8)
    gid = _create(client, people[0], players=6)
    for p in people[:3]:
        client.post(f"/v1/games/{gid}/join", headers=bearer(p))

    def go(path, p):
        app.test_client().post(f"/v1/games/{gid}/{path}", headers=bearer(p))

    moves = [("leave", p) for p in people[:2]] + [("join", p) for p in people[3:8]]
    threads = [threading.Thread(target=go, args=move) for move in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game = client.get(f"/v1/games/{gid}").get_json()
    listed = next(g for g in api.get("/v1/games").get_json()["games"] if g["id"] == gid)
    assert listed["seats"] == game["seats"] and listed["status"] == game["status"]
    assert listed["seats_taken"] == len(game["seats"]) and listed["version"] == game["version"]
    for p in people:
        mine = [
            g["id"] for g in api.get("/v1/players/me/games", "", p["token"]).get_json()["games"]
        ]
        assert (gid in mine) == any(s["player"] == p["id"] for s in game["seats"])


def test_games_stored_before_the_lobby_existed_are_indexed_once_when_a_worker_starts(
    api, client, app, r
):
    from service import backfill

    players = new_players(client, 3)
    finished = new_game(client, players)
    play_to_end(client, app, finished, by_seat(client, finished, players), random.Random(5))
    waiting = _create(client, players[0])
    profile = f"/v1/players/{players[1]['id']}"
    stale = [*r.keys("mf:{lobby}:*"), *r.keys("mf:player:*:history"), *r.keys("mf:player:*:played")]
    r.delete(*stale)  # the keys a server from before the lobby never wrote
    assert _ids(api) == [] and client.get(profile).get_json()["games_played"] == {}
    boot = app.extensions["marketfold"]
    assert backfill.run(boot) == 2 and backfill.run(boot) == 0
    assert _ids(api) == [waiting, finished]
    assert _ids(api, {"status": "finished", "player": players[1]["id"]}) == [finished]
    assert client.get(profile).get_json()["games_played"] == {"goblin-market": 1}  # once
