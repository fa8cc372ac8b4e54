"""An outage of the API alone (issue 16): the workers keep running, but no decision is
defaulted while players cannot reach the API; when it is back, the decisions that fell
due meanwhile get fresh deadlines (service.outages, docs/workers.md "Outages")."""

from __future__ import annotations

import time

from events import codec, deadlines, keys
from service import deadline_commands, outages
from stores.operations import RedisOperations
from tests.api.helpers import bearer, new_game, new_players

THRESHOLD = 15.0


def overdue_game(client, app, players: list[dict] | None = None) -> tuple[str, str, float]:
    """Start a game whose first decision has a 1 s timeout and wait until it is overdue;
    return the game id, the decision's key and its deadline (a Unix time)."""
    gid = new_game(client, players or new_players(client, 3), decision_timeout_s=1)
    rec = app.extensions["marketfold"].store.load(gid).record
    key = rec.owed()[0].key
    due = codec.parse_time(rec.deadline(key)).timestamp()
    time.sleep(max(0.0, due - time.time() + 0.05))
    return gid, key, due


def types(client, gid: str) -> list[str]:
    return [e["type"] for e in client.get(f"/v1/games/{gid}/events").get_json()["events"]]


def scheduled(r, gid: str, key: str) -> float:
    return r.zscore(keys.deadlines(), f"expire|{gid}|{key}")


def test_the_rule_waits_for_an_api_seen_since_the_deadline_and_up_now():
    due, now = 1000.0, 1010.0
    assert deadlines.wait_for_api(None, due, now, THRESHOLD) == 0  # no API ever beat: up
    assert deadlines.wait_for_api(1009.9, due, now, THRESHOLD) == 0  # beat since: up
    assert deadlines.wait_for_api(999.9, due, now, THRESHOLD) == deadlines.API_BEAT_S  # soon
    assert deadlines.wait_for_api(990.0, due, 1006.0, THRESHOLD) == deadlines.POSTPONE_S  # down
    assert deadlines.wait_for_api(1001.0, due, 1017.0, THRESHOLD) == deadlines.POSTPONE_S  # down


def test_an_expiry_waits_while_the_api_is_down_and_is_extended_once_it_is_back(client, app, r):
    deps = app.extensions["marketfold"]
    players = new_players(client, 3)
    gid, key, due = overdue_game(client, app, players)
    old = deps.store.load(gid).record.deadline(key)
    down_since = due - 60  # the API's last beat, before the deadline
    outages.beat(RedisOperations(r), down_since, THRESHOLD, api=True)
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    assert deadline_commands.expire(deps, gid, key) == "postponed"
    assert deadline_commands.expire(deps, gid, key) == "postponed"  # however often it runs
    assert client.get(f"/v1/games/{gid}").get_json()["version"] == version  # nothing written
    assert abs(scheduled(r, gid, key) - (time.time() + deadlines.POSTPONE_S)) < 0.5
    back = time.time()
    assert outages.beat(RedisOperations(r), back, THRESHOLD, api=True) == (down_since, back)
    assert RedisOperations(r).outages_since(0) == [(down_since, back)]
    assert deadline_commands.expire(deps, gid, key) == "extended"
    events = client.get(f"/v1/games/{gid}/events").get_json()["events"]
    assert "game.DecisionTimedOut" not in [e["type"] for e in events]
    data = next(e["data"] for e in events if e["type"] == "game.DeadlineExtended")
    assert data["key"] == key and data["old_deadline"] == old and data["reason"] == "outage"
    grace = min(float(deps.config["OUTAGE_GRACE_S"]), 1.0)
    assert codec.parse_time(data["new_deadline"]).timestamp() >= back + grace - 0.01
    assert client.get(f"/v1/games/{gid}").get_json()["owed"][0]["deadline"] == data["new_deadline"]
    for p in players[:2]:  # end the game, so that its bundle is public and whole
        assert client.post(f"/v1/games/{gid}/resign", headers=bearer(p)).status_code == 200
    bundle = client.get(f"/v1/games/{gid}/export").get_json()
    res = client.post("/v1/verify", json=bundle)
    assert res.get_json().get("ok"), (res.status_code, res.get_json())


def test_an_api_up_but_not_yet_seen_since_the_deadline_delays_the_default_one_beat(client, app, r):
    deps = app.extensions["marketfold"]
    gid, key, due = overdue_game(client, app)
    outages.beat(RedisOperations(r), due - 0.1, THRESHOLD, api=True)  # just before the deadline
    assert deadline_commands.expire(deps, gid, key) == "postponed"
    assert abs(scheduled(r, gid, key) - (time.time() + deadlines.API_BEAT_S)) < 0.2
    assert outages.beat(RedisOperations(r), time.time(), THRESHOLD, api=True) is None  # no outage
    assert deadline_commands.expire(deps, gid, key) == "applied"
    assert "game.DecisionTimedOut" in types(client, gid)
    assert "game.DeadlineExtended" not in types(client, gid)
    assert RedisOperations(r).outages_since(0) == []


def test_no_api_heartbeat_at_all_counts_as_an_api_that_is_up(client, app, r):
    deps = app.extensions["marketfold"]
    gid, key, _ = overdue_game(client, app)
    assert r.get(keys.api_heartbeat()) is None  # workers only (as in this test): no API beat
    assert deadline_commands.expire(deps, gid, key) == "applied"
    assert "game.DecisionTimedOut" in types(client, gid)
