"""Turn signals: every owed decision says whether it is simultaneous, and a simultaneous
submission is not refused with 412 because other seats' submissions moved the version."""

from __future__ import annotations

import json
import random
import threading
import time

from tests.api.helpers import bearer, by_seat, new_game, new_players, random_action
from tests.api.openapi_check import sse_frames


def _sealed_table(client):
    """A Black Market game: it opens with secret production, owed by every seat at once."""
    players = new_players(client, 3)
    gid = new_game(client, players, ruleset="black-market", options={"trade": "regulated"})
    return gid, by_seat(client, gid, players)


def test_every_seat_submits_with_the_version_it_read_and_none_gets_412(api, client):
    gid, seats = _sealed_table(client)
    reads = {s: client.get(f"/v1/games/{gid}", headers=bearer(p)) for s, p in seats.items()}
    rnd = random.Random(3)
    for seat, player in seats.items():
        game = reads[seat].get_json()
        mine = [o for o in game["owed"] if o["seat"] == seat]
        assert mine and all(o["simultaneous"] for o in mine)
        legal = api.get("/v1/games/{id}/legal", gid, player["token"]).get_json()
        assert legal["owed"] == mine
        res = client.post(
            f"/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers={**bearer(player), "If-Match": reads[seat].headers["ETag"]},
        )
        assert res.status_code == 202, res.get_json()
    turns = api.get("/v1/players/me/turns", "", seats[0]["token"]).get_json()
    assert turns["turns"] == []  # everyone submitted: nothing owed until the reveal


def test_a_submission_decided_before_the_phase_opened_is_still_412(client):
    gid, seats = _sealed_table(client)
    game = client.get(f"/v1/games/{gid}", headers=bearer(seats[0])).get_json()
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[0])).get_json()
    res = client.post(
        f"/v1/games/{gid}/actions",
        json=random_action(random.Random(1), legal["actions"]),
        headers={**bearer(seats[0]), "If-Match": f'"{game["version"] - 1}"'},
    )
    assert res.status_code == 412 and res.get_json()["code"] == "version_mismatch"


def test_a_sequential_decision_says_so_and_a_stale_if_match_is_412(api, client, app):
    players = new_players(client, 3)
    gid = new_game(client, players)  # goblin market opens with an open bid
    seats = by_seat(client, gid, players)
    game = client.get(f"/v1/games/{gid}").get_json()
    owed = game["owed"][0]
    assert owed["simultaneous"] is False
    turns = api.get("/v1/players/me/turns", "", seats[owed["seat"]]["token"]).get_json()["turns"]
    assert [t["simultaneous"] for t in turns] == [False]
    feed = client.get(f"/v1/games/{gid}/legal", headers=bearer(seats[owed["seat"]])).get_json()
    assert feed["owed"][0]["simultaneous"] is False
    app.config["SSE_MAX_S"] = 0.3
    feed = client.get(
        "/v1/players/me/feed", headers={**bearer(seats[owed["seat"]]), "Last-Event-ID": "0"}
    )
    notes = [json.loads(f["data"]) for f in sse_frames(feed.get_data(as_text=True)) if "data" in f]
    assert [n["simultaneous"] for n in notes if n["type"] == "your_turn"] == [False]
    stale = {**bearer(seats[owed["seat"]]), "If-Match": f'"{game["version"] - 1}"'}
    res = client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=stale)
    assert res.status_code == 412


def _frames(res) -> list[dict]:
    out = []
    for frame in sse_frames(res.get_data(as_text=True)):
        if "data" in frame:
            out.append(
                {"event": frame["event"], "id": frame.get("id"), **json.loads(frame["data"])}
            )
    res.close()
    return out


def test_each_frame_says_what_the_seat_owes_and_chat_arrives_on_the_stream(app, client):
    app.config["SSE_MAX_S"] = 4  # room for the thread's chat and action, even under load
    players = new_players(client, 3)
    gid = new_game(client, players)
    seats = by_seat(client, gid, players)
    game = client.get(f"/v1/games/{gid}").get_json()
    first = game["owed"][0]["seat"]

    def later():
        time.sleep(0.5)
        other = app.test_client()
        other.post(f"/v1/games/{gid}/chat", json={"text": "my turn?"}, headers=bearer(seats[first]))
        other.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(seats[first]))

    thread = threading.Thread(target=later)
    thread.start()
    headers = {**bearer(seats[first]), "Last-Event-ID": "0"}
    frames = _frames(client.get(f"/v1/games/{gid}/events/stream", headers=headers))
    thread.join()
    events = [f for f in frames if f["event"] not in ("chat", "owes")]
    assert events[0]["owes"] == [] and events[-1]["seq"] > game["version"]
    signals = [f for f in frames if f["event"] == "owes"]  # the first frame says where it stands
    assert frames[0] == signals[0] and signals[0]["version"] == game["version"]
    assert signals[0]["owes"] == [o for o in game["owed"] if o["seat"] == first]
    assert signals[0]["actions"] and signals[-1]["version"] > game["version"]
    started = next(f for f in events if f["seq"] == game["version"])
    assert started["owes"] == [o for o in game["owed"] if o["seat"] == first]
    now = client.get(f"/v1/games/{gid}").get_json()
    assert events[-1]["owes"] == [o for o in now["owed"] if o["seat"] == first]
    assert [f["text"] for f in frames if f["event"] == "chat"] == ["my turn?"]
    app.config["SSE_MAX_S"] = 0.5  # the whole history is there at once
    watcher = _frames(client.get(f"/v1/games/{gid}/events/stream", headers={"Last-Event-ID": "0"}))
    assert watcher[0]["event"] == "owes" and watcher[0]["owes"] == [] == watcher[0]["actions"]
    assert watcher[1:] and all("owes" not in f for f in watcher[1:])
