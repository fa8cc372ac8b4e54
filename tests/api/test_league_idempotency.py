"""An organizer's or player's league POST sent twice with one Idempotency-Key (a retry
after a lost answer) is applied once: the second call gets the first call's answer and
writes nothing; the same key with another request is refused (422) and changes nothing.
As `POST /v1/games/{id}/actions` does (docs/clients.md, "Retries")."""

from __future__ import annotations

from tests.api.helpers import bearer, new_players
from tests.leagues.helpers import league_version, played_league, running_league


def _twice(client, url, body, who, key, status):
    """POST `body` twice with `key`: both answers, equal, and the league written once."""
    headers = {**bearer(who), "Idempotency-Key": key}
    first = client.post(url, json=body, headers=headers)
    assert first.status_code == status, first.get_json()
    again = client.post(url, json=body, headers=headers)
    assert (again.status_code, again.get_json()) == (status, first.get_json())
    return first.get_json()


def test_a_repeated_dispute_and_ruling_answer_the_first_and_write_nothing(client, app):
    deps, op, players, lid, gid = played_league(client, app)
    url = f"/v1/leagues/{lid}"
    body = {"game": gid, "reason": "my bid came late while the server was slow"}
    before = league_version(client, lid)
    opened = _twice(client, f"{url}/disputes", body, players[0], "d-1", 201)
    assert league_version(client, lid) == before + 1
    assert opened["status"] == "open"
    # without the key a second click is a conflict, as before: one dispute is open
    res = client.post(f"{url}/disputes", json=body, headers=bearer(players[0]))
    assert (res.status_code, res.get_json()["code"]) == (409, "already_disputed")
    # the key is the caller's: another player's same key opens their own dispute
    other = client.post(
        f"{url}/disputes", json=body, headers={**bearer(players[1]), "Idempotency-Key": "d-1"}
    )
    assert other.status_code == 201 and other.get_json()["dispute"] == opened["dispute"] + 1
    # the same key with another body: refused, nothing written
    now = league_version(client, lid)
    res = client.post(
        f"{url}/disputes",
        json={**body, "reason": "something else"},
        headers={**bearer(players[0]), "Idempotency-Key": "d-1"},
    )
    assert (res.status_code, res.get_json()["code"]) == (422, "idempotency_key_reused")

    ruling = {"game": gid, "kind": "annulled", "reason": "slow server", "dispute": 1}
    ruled = _twice(client, f"{url}/rulings", ruling, op, "r-1", 201)
    assert ruled["ruling"]["ruling"] == 1 and league_version(client, lid) == now + 1
    # a second ruling sent with the same key and another kind is refused, not recorded
    res = client.post(
        f"{url}/rulings",
        json={**ruling, "kind": "stands"},
        headers={**bearer(op), "Idempotency-Key": "r-1"},
    )
    assert (res.status_code, res.get_json()["code"]) == (422, "idempotency_key_reused")
    listed = client.get(f"{url}/disputes").get_json()
    assert [r["kind"] for r in listed["rulings"]] == ["annulled"]
    # a repeat sent after the league moved on still answers as the first call did
    again = client.post(
        f"{url}/rulings", json=ruling, headers={**bearer(op), "Idempotency-Key": "r-1"}
    )
    assert again.get_json() == ruled
    # a malformed key is refused before anything is written
    res = client.post(f"{url}/rulings", json=ruling, headers={**bearer(op), "Idempotency-Key": "é"})
    assert (res.status_code, res.get_json()["code"]) == (422, "invalid_header")
    assert league_version(client, lid) == now + 1


def test_repeated_remedies_are_applied_once(client, app):
    lid, op, players = running_league(client, app, 3, rounds=2, table_size=3)
    (sub,) = new_players(client, 1, "s")
    url = f"/v1/leagues/{lid}"
    gid = client.get(f"{url}/rounds/1").get_json()["tables"][0]["game"]
    before = league_version(client, lid)
    _twice(client, f"{url}/rounds/1/tables/1/pause", None, op, "p-1", 200)
    _twice(client, f"{url}/rounds/1/tables/1/resume", None, op, "p-2", 200)
    kinds = [e["type"] for e in client.get(f"/v1/games/{gid}/events").get_json()["events"]]
    assert (kinds.count("game.Paused"), kinds.count("game.Resumed")) == (1, 1)
    swap = {"player": players[0]["id"], "substitute": sub["id"]}
    _twice(client, f"{url}/substitutions", swap, op, "s-1", 200)
    seated = client.get(f"/v1/games/{gid}", headers=bearer(sub)).get_json()
    assert seated.get("you") is not None  # the seat was taken, once
    kinds = [e["type"] for e in client.get(f"/v1/games/{gid}/events").get_json()["events"]]
    assert kinds.count("game.SeatTaken") == 1
    gone = players[1]["id"]
    _twice(client, f"{url}/members/{gone}/reinstate", None, op, "x-0", 409)  # not withdrawn
    res = client.delete(f"{url}/members/{gone}", headers={**bearer(op), "Idempotency-Key": "m-1"})
    again = client.delete(f"{url}/members/{gone}", headers={**bearer(op), "Idempotency-Key": "m-1"})
    assert res.status_code == again.status_code == 200 and res.get_json() == again.get_json()
    _twice(client, f"{url}/members/{gone}/reinstate", None, op, "m-2", 200)
    _twice(client, f"{url}/pause", None, op, "l-1", 200)
    _twice(client, f"{url}/resume", None, op, "l-2", 200)
    # pause, resume, substitute, remove, reinstate, pause, resume: seven events, once each
    assert league_version(client, lid) == before + 7
    # one key on another route is another request: refused
    res = client.post(f"{url}/pause", headers={**bearer(op), "Idempotency-Key": "l-2"})
    assert (res.status_code, res.get_json()["code"]) == (422, "idempotency_key_reused")
