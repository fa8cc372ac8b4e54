"""The in-app inbox and the notification settings, over HTTP (checked against openapi.yaml)."""

from __future__ import annotations

import json

from events import keys
from service.notify import inbox, types
from tests.api.helpers import bearer, new_game, new_players
from tests.api.openapi_check import check

INBOX = "/v1/players/me/notifications"
SETTINGS = "/v1/players/me/notification-settings"


def _read(api, player, note_id: str):
    template = INBOX + "/{note_id}/read"
    resp = api.client.post(f"{INBOX}/{note_id}/read", headers=bearer(player))
    return check(resp, "POST", template)


def _patch(api, player, body):
    return api.call("PATCH", SETTINGS, json=body, headers=bearer(player))


def _inbox(api, player, **query) -> dict:
    res = api.get(INBOX, query_string=query, headers=bearer(player))
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def test_a_started_game_puts_game_started_and_your_turn_in_the_inbox_unread_with_the_feeds_ids(
    api, client, r
):
    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=600)
    seen = {}
    for p in players:
        page = _inbox(api, p)
        kinds = [n["type"] for n in page["notifications"]]
        assert "game_started" in kinds
        assert page["unread"] == len(page["notifications"])
        assert all(n["url"] == f"/#/g/{gid}" and not n["read"] for n in page["notifications"])
        seen[p["id"]] = page
    owing = [
        p for p in players if "your_turn" in [n["type"] for n in seen[p["id"]]["notifications"]]
    ]
    assert owing, "somebody owes the first decision"
    turn = next(n for n in seen[owing[0]["id"]]["notifications"] if n["type"] == "your_turn")
    assert turn["title"] == "Your turn in Goblin Market"
    assert turn["note"]["deadline"] and turn["note"]["game"] == gid
    # the live feed carries the same note, with the same id
    feed = [json.loads(f[b"n"]) for _, f in r.xrange(keys.player_feed(owing[0]["id"]))]
    assert turn["id"] in {n["id"] for n in feed}
    assert turn["feed_id"] in {
        eid.decode() for eid, _ in r.xrange(keys.player_feed(owing[0]["id"]))
    }


def test_marking_one_and_then_all_read_lowers_the_unread_count_and_pages_go_back_in_time(
    api, client
):
    players = new_players(client, 3)
    for _ in range(3):
        new_game(client, players, decision_timeout_s=600)
    me = players[1]
    page = _inbox(api, me)
    total = page["unread"]
    assert total >= 3
    first = page["notifications"][0]
    assert _read(api, me, first["id"]).status_code == 204
    after = _inbox(api, me)
    assert after["unread"] == total - 1
    assert next(n for n in after["notifications"] if n["id"] == first["id"])["read"]
    assert first["id"] not in [n["id"] for n in _inbox(api, me, unread="true")["notifications"]]
    # pages: two at a time, newest first, every notification once
    listed, before = [], None
    while True:
        query = {"limit": 2, **({"before": before} if before else {})}
        got = _inbox(api, me, **query)
        listed += [n["id"] for n in got["notifications"]]
        if got["next"] is None:
            break
        before = got["next"]
    assert listed == [n["id"] for n in _inbox(api, me, limit=100)["notifications"]]
    assert _inbox(api, me, before="0-0")["notifications"] == []  # nothing older than the start
    assert len(set(listed)) == len(listed) == total
    assert api.post(INBOX + "/read", headers=bearer(me)).status_code == 204
    assert _inbox(api, me)["unread"] == 0
    new_game(client, players, decision_timeout_s=600)  # later ones arrive unread
    assert _inbox(api, me)["unread"] >= 1


def test_someone_elses_or_a_made_up_notification_is_not_found(api, client):
    a, b, c = new_players(client, 3)
    new_game(client, [a, b, c])
    theirs = _inbox(api, a)["notifications"][0]["id"]
    res = _read(api, b, theirs)
    assert res.status_code == 404 and res.get_json()["code"] == "notification_not_found"
    res = _read(api, b, "n_zz")
    assert res.status_code == 404
    assert api.get(INBOX).status_code == 401


def test_a_bad_page_query_is_refused_naming_it(api, client):
    (a,) = new_players(client, 1)
    for query, field in (
        ({"before": "x"}, "before"),
        ({"limit": 0}, "limit"),
        ({"limit": 500}, "limit"),
        ({"unread": "yes"}, "unread"),
        ({"before": "64637837201345697536-1"}, "before"),  # past 2^64: Redis would refuse it
    ):
        res = api.get(INBOX, query_string=query, headers=bearer(a))
        assert res.status_code == 422 and field in res.get_json()["errors"], query


def test_settings_default_list_every_type_and_channel_and_change_only_what_is_sent(api, client):
    (a,) = new_players(client, 1)
    got = api.get(SETTINGS, headers=bearer(a)).get_json()
    assert set(got["types"]) == set(types.NAMES)
    assert got["types"]["your_turn"] == {"email": True, "push": True, "webhook": True}
    assert got["types"]["game_started"]["email"] is False
    assert got["time_zone"] == "UTC" and got["reminder"] == 0.25 and got["email"] is None
    body = {
        "lang": "es",
        "time_zone": "Europe/Madrid",
        "quiet_hours": {"start": "22:30", "end": "08:00"},
        "digest_hour": 9,
        "types": {"your_turn": {"email": False}, "game_started": {"push": True}},
    }
    res = _patch(api, a, body)
    assert res.status_code == 200, res.get_json()
    got = res.get_json()
    assert got["types"]["your_turn"] == {"email": False, "push": True, "webhook": True}
    assert got["types"]["game_started"]["push"] is True
    assert got["quiet_hours"] == {"start": "22:30", "end": "08:00"} and got["lang"] == "es"
    res = _patch(api, a, {"reminder": None})
    assert res.get_json()["reminder"] is None and res.get_json()["time_zone"] == "Europe/Madrid"


def test_bad_settings_are_refused_naming_the_field_and_change_nothing(api, client):
    (a,) = new_players(client, 1)
    before = api.get(SETTINGS, headers=bearer(a)).get_json()
    cases = [
        ({"email": "not an address"}, "email"),
        ({"time_zone": "Mars/Olympus"}, "time_zone"),
        ({"types": {"your_trun": {"email": True}}}, "types.your_trun"),
        ({"types": {"your_turn": {"pigeon": True}}}, "types.your_turn.pigeon"),
        ({"quiet_hours": {"start": "25:00", "end": "08:00"}}, "quiet_hours.start"),
        ({"reminder": 1.5}, "reminder"),
        ({"lang": "fr"}, "lang"),
        ({"digest_hour": 24}, "digest_hour"),
        ({"colour": "red"}, "colour"),
    ]
    for body, field in cases:
        res = _patch(api, a, {**body, "lang": "es"} if field != "lang" else body)
        assert res.status_code == 422, (body, res.get_json())
        problem = res.get_json()
        assert res.headers["Content-Type"].startswith("application/problem+json")
        assert problem["code"] == "invalid_body" and field in problem["errors"], (body, problem)
    assert api.get(SETTINGS, headers=bearer(a)).get_json() == before


def test_the_notification_is_written_in_the_same_writes_as_the_event_that_causes_it(api, client, r):
    """The note and its planning member are follow-up writes of the append
    (events.recorder.Writes): on one Redis they run inside its script. Nothing else is
    written for it: no key of its own that a Redis Cluster could put on another master."""
    from events.recording import Writes
    from service.inbox import after_append

    players = new_players(client, 3)
    gid = new_game(client, players, decision_timeout_s=600)
    deps = api.client.application.extensions["marketfold"]
    rec = deps.store.load(gid).record
    from events.record import Record

    then = Writes()
    after_append(Record(gid), rec, then, [])
    names = [c[0] for c in then.commands]
    feed_adds = [c for c in then.commands if c[0] == "XADD"]
    notes = [json.loads(c[-1])["id"] for c in feed_adds]
    sets = {c[1] for c in then.commands if c[0] == "SET"}
    due_sets = (keys.notify_due(turns=True), keys.notify_due())
    planned = {c[3] for c in then.commands if c[0] == "ZADD" and c[1] in due_sets}
    assert names.count("XADD") == len(notes) >= 2
    assert sets == set()
    assert {m.rsplit("|", 1)[1] for m in planned} == set(notes)
    # and what the real append wrote is there: every note of the feed has its planning
    for p in players:
        for _, fields in r.xrange(keys.player_feed(p["id"])):
            nid = json.loads(fields[b"n"])["id"]
            assert inbox.find(deps, p["id"], nid)["id"] == nid  # the channels find it
            member = f"notify|{p['id']}|{nid}"
            assert any(r.zscore(k, member) is not None for k in due_sets)
