"""The answers of disputes, rulings, a game's review and its evidence, good and refused,
match openapi.yaml."""

from __future__ import annotations

from tests.api.helpers import bearer, new_players
from tests.leagues.helpers import played_league


def test_dispute_answers_match_the_spec(client, app):
    from tests.api.openapi_check import check

    deps, op, players, lid, gid = played_league(client, app)
    base = "/v1/leagues/{league_id}"
    disputes, rulings = f"/v1/leagues/{lid}/disputes", f"/v1/leagues/{lid}/rulings"
    review = f"/v1/leagues/{lid}/games/{gid}/review"
    seated, (stranger,) = bearer(players[0]), new_players(client, 1, "x")
    client.post(f"/v1/games/{gid}/actions", json={"type": "pass"}, headers=seated)
    for resp, method, path in [
        (
            client.post(disputes, json={"game": gid, "reason": "r"}, headers=seated),
            "POST",
            f"{base}/disputes",
        ),
        (
            client.post(disputes, json={"game": gid, "reason": "r"}, headers=seated),
            "POST",
            f"{base}/disputes",
        ),
        (
            client.post(disputes, json={"game": gid, "reason": "r"}, headers=bearer(stranger)),
            "POST",
            f"{base}/disputes",
        ),
        (client.post(disputes, json={"game": gid}, headers=seated), "POST", f"{base}/disputes"),
        (
            client.post(
                "/v1/leagues/l_nope/disputes", json={"game": gid, "reason": "r"}, headers=seated
            ),
            "POST",
            f"{base}/disputes",
        ),
        (client.get(disputes), "GET", f"{base}/disputes"),
        (client.get("/v1/leagues/l_nope/disputes"), "GET", f"{base}/disputes"),
        (
            client.post(
                rulings, json={"game": gid, "kind": "stands", "reason": "r"}, headers=seated
            ),
            "POST",
            f"{base}/rulings",
        ),
        (
            client.post(
                rulings, json={"game": gid, "kind": "x", "reason": "r"}, headers=bearer(op)
            ),
            "POST",
            f"{base}/rulings",
        ),
        (
            client.post(
                rulings,
                json={"game": gid, "kind": "stands", "reason": "r", "dispute": 7},
                headers=bearer(op),
            ),
            "POST",
            f"{base}/rulings",
        ),
        (
            client.post(
                rulings,
                json={
                    "game": gid,
                    "kind": "adjusted",
                    "reason": "r",
                    "dispute": 1,
                    "points": {players[1]["id"]: 2.5},
                },
                headers=bearer(op),
            ),
            "POST",
            f"{base}/rulings",
        ),
        (client.get(disputes), "GET", f"{base}/disputes"),
        (client.get(f"/v1/leagues/{lid}"), "GET", base),
        (client.get(f"/v1/leagues/{lid}/rounds/1"), "GET", f"{base}/rounds/{{n}}"),
        (client.get(f"/v1/leagues/{lid}/export"), "GET", f"{base}/export"),
        (client.get(review, headers=bearer(op)), "GET", f"{base}/games/{{id}}/review"),
        (client.get(review, headers=bearer(stranger)), "GET", f"{base}/games/{{id}}/review"),
        (client.get(f"/v1/games/{gid}/evidence", headers=seated), "GET", "/v1/games/{id}/evidence"),
        (
            client.get(f"/v1/games/{gid}/evidence", headers=bearer(stranger)),
            "GET",
            "/v1/games/{id}/evidence",
        ),
    ]:
        check(resp, method, path)
    assert client.get(disputes).get_json()["disputes"][0]["status"] == "ruled"
