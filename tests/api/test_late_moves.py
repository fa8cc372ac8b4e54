"""A move that arrives after its decision was defaulted: refused `deadline_passed` with
the deadline and the arrival time, and kept, with the game's outages, for a dispute."""

from __future__ import annotations

import time

from events import codec, keys
from service import deadline_commands
from tests.api.helpers import bearer, new_game, new_players


def _default_first_decision(client, app, gid):
    deps = app.extensions["marketfold"]
    rec = deps.store.load(gid).record
    (owed,) = rec.owed()
    deadline = rec.deadline(owed.key)
    time.sleep(max(0.0, codec.parse_time(deadline).timestamp() - time.time()) + 0.05)
    assert deadline_commands.expire(deps, gid, owed.key) == "applied"
    return owed, deadline


def test_a_move_after_its_default_is_refused_for_its_deadline_and_kept(client, app):
    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=1)
    owed, deadline = _default_first_decision(client, app, gid)
    late = next(
        p
        for p in people
        if p["id"] == app.extensions["marketfold"].store.load(gid).record.seats[owed.seat].player
    )
    from tests.api.openapi_check import check

    sent = time.time()
    res = client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(late))
    check(res, "POST", "/v1/games/{id}/actions")
    problem = res.get_json()
    assert res.status_code == 409 and problem["code"] == "deadline_passed", problem
    assert problem["deadline"] == deadline and problem["decision"] == owed.key
    arrived = codec.parse_time(problem["arrived_at"]).timestamp()
    assert codec.parse_time(deadline).timestamp() < arrived and abs(arrived - sent) < 2
    assert deadline in problem["detail"] and problem["arrived_at"] in problem["detail"]

    # another seat moving out of turn is still told it is not its turn, and kept too
    rec = app.extensions["marketfold"].store.load(gid).record
    now = {o.seat for o in rec.owed()}
    idle = next(p for p in people if rec.seat_of(p["id"]) not in now | {owed.seat})
    res = client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=bearer(idle))
    assert res.status_code == 409 and res.get_json()["code"] == "not_your_turn"

    # a player who saw the default (If-Match at or past it) is not told of a deadline
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    res = client.post(
        f"/v1/games/{gid}/actions",
        json={"type": "pass"},
        headers={**bearer(late), "If-Match": str(version)},
    )
    assert res.get_json()["code"] != "deadline_passed"

    # a move sent with a version the game has moved past (412) is kept too
    res = client.post(
        f"/v1/games/{gid}/actions",
        json={"type": "pass"},
        headers={**bearer(late), "If-Match": "1"},
    )
    assert res.status_code == 412
    evidence = client.get(f"/v1/games/{gid}/evidence", headers=bearer(late)).get_json()
    assert evidence["refused"][-1]["code"] == "version_mismatch"
    first = evidence["refused"][0]
    assert first["code"] == "deadline_passed" and first["player"] == late["id"]
    assert first["deadline"] == deadline and first["arrived_at"] == problem["arrived_at"]
    assert first["seat"] == owed.seat and first["action"] == {"type": "pass"}
    assert [r["code"] for r in evidence["refused"]][1] == "not_your_turn"
    # while the game runs, another player's refused action is not shown to the table
    mine = client.get(f"/v1/games/{gid}/evidence", headers=bearer(idle)).get_json()
    assert "action" not in mine["refused"][0] and mine["refused"][1]["action"]

    # a stranger reads nothing
    (stranger,) = new_players(client, 1, "x")
    res = client.get(f"/v1/games/{gid}/evidence", headers=bearer(stranger))
    assert res.status_code == 403 and res.get_json()["code"] == "not_seated"
    assert client.get(f"/v1/games/{gid}/evidence").status_code == 401
    res = client.get("/v1/games/g_nope/evidence", headers=bearer(late))
    assert res.status_code == 404


def test_outages_during_the_game_are_listed_in_readable_times(client, app):
    people = new_players(client, 3)
    gid = new_game(client, people, decision_timeout_s=60)
    deps = app.extensions["marketfold"]
    created = codec.parse_time(deps.store.load(gid).record.created_at).timestamp()
    time.sleep(0.2)
    start, end = created + 0.05, created + 0.15  # while it ran (say, the workers stopped)
    deps.redis.zadd(keys.outages(), {f"{start}:{end}": end})
    deps.redis.zadd(keys.outages(), {f"{created - 9000}:{created - 8000}": created - 8000})
    got = client.get(f"/v1/games/{gid}/evidence", headers=bearer(people[0])).get_json()
    mine = [o for o in got["outages"] if o["start"] == codec.iso(start)]
    assert mine == [{"start": codec.iso(start), "end": codec.iso(end), "seconds": 0.1}]
    assert all(o["end"] >= codec.iso(created) for o in got["outages"])
