"""Table chat: two channels, checked text, a rate limit, kept beside the log (the game's
version and verification are untouched) and exported."""

from __future__ import annotations

import random

from events import audit
from tests.api.helpers import bearer, by_seat, new_game, new_players, play_to_end
from tests.api.openapi_check import check

CHAT = "/v1/games/{id}/chat"


def _say(client, gid, player, text):
    return check(
        client.post(f"/v1/games/{gid}/chat", json={"text": text}, headers=bearer(player)),
        "POST",
        CHAT,
    )


def _read(client, gid, player=None, after=None):
    query = {"after": after} if after else {}
    res = client.get(
        f"/v1/games/{gid}/chat", headers=bearer(player) if player else {}, query_string=query
    )
    return [m["text"] for m in check(res, "GET", CHAT).get_json()["messages"]]


def test_players_and_spectators_talk_apart_until_the_end(client, app):
    players = new_players(client, 3)
    (watcher,) = new_players(client, 1, prefix="w")
    gid = new_game(client, players)
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    said = _say(client, gid, players[0], "<b>gl</b> & hf").get_json()
    assert (said["channel"], said["seat"], said["text"]) == ("players", 0, "<b>gl</b> & hf")
    assert _say(client, gid, watcher, "p1 holds the Sailor").get_json()["channel"] == "spectators"
    assert _read(client, gid, players[1]) == ["<b>gl</b> & hf"]
    assert _read(client, gid, watcher) == ["<b>gl</b> & hf", "p1 holds the Sailor"]
    assert _read(client, gid) == ["<b>gl</b> & hf", "p1 holds the Sailor"]
    assert _read(client, gid, watcher, after=said["id"]) == ["p1 holds the Sailor"]
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version
    play_to_end(client, app, gid, by_seat(client, gid, players), random.Random(1))
    assert _read(client, gid, players[1]) == ["<b>gl</b> & hf", "p1 holds the Sailor"]
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    assert [m["text"] for m in bundle["chat"]] == ["<b>gl</b> & hf", "p1 holds the Sailor"]
    assert audit.verify(bundle).ok


def test_bad_text_is_refused_and_chatter_is_rate_limited(client):
    players = new_players(client, 3)
    gid = new_game(client, players)
    for text in ["", "x" * 501, "line\nbreak", "bell\x07", 42]:
        res = _say(client, gid, players[0], text)
        assert res.status_code == 422 and list(res.get_json()["errors"]) == ["text"], text
    assert _say(client, gid, players[0], "é" * 500).status_code == 201
    codes = [_say(client, gid, players[1], f"m{i}").status_code for i in range(6)]
    assert codes == [201] * 5 + [429]
    refused = _say(client, gid, players[1], "again")
    assert refused.get_json()["code"] == "chat_rate_limited" and refused.headers["Retry-After"]
    assert _say(client, gid, players[2], "others still talk").status_code == 201
    anonymous = client.post(f"/v1/games/{gid}/chat", json={"text": "hi"})
    assert anonymous.status_code == 401
