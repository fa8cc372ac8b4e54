"""What the web client reads about a player's leagues: their own list (as a member or as
the organizer), a member added by handle, and a league table's place in its league."""

from __future__ import annotations

from tests.api.helpers import bearer, new_players
from tests.leagues.helpers import new_league, operator, started_league


def test_my_leagues_lists_those_i_play_in_and_those_i_organize(client, app):
    op = operator(client, app)
    ana, bo = new_players(client, 2, "me")
    lid = new_league(client, op, [ana], name="Spring league")
    assert client.get("/v1/players/me/leagues").status_code == 401
    mine = client.get("/v1/players/me/leagues", headers=bearer(op)).get_json()["leagues"]
    assert [(m["id"], m["name"], m["organizer"], m["member"]) for m in mine] == [
        (lid, "Spring league", True, False)
    ]
    mine = client.get("/v1/players/me/leagues", headers=bearer(ana)).get_json()["leagues"]
    assert [(m["id"], m["organizer"], m["member"], m["withdrawn_from_round"]) for m in mine] == [
        (lid, False, True, None)
    ]
    assert client.get("/v1/players/me/leagues", headers=bearer(bo)).get_json()["leagues"] == []
    client.post(f"/v1/leagues/{lid}/leave", headers=bearer(ana))
    mine = client.get("/v1/players/me/leagues", headers=bearer(ana)).get_json()["leagues"]
    assert mine[0]["withdrawn_from_round"] == 1  # still listed: the points earned stay


def test_an_organizer_adds_a_member_by_handle(client, app):
    op = operator(client, app)
    lid = new_league(client, op)
    ana = client.post("/v1/players", json={"name": "Ana", "handle": "ana.g"}).get_json()
    added = client.post(f"/v1/leagues/{lid}/members", json={"player": "ANA.G"}, headers=bearer(op))
    assert added.status_code == 201, added.get_json()
    assert (added.get_json()["player"], added.get_json()["name"]) == (ana["id"], "Ana")
    unknown = client.post(
        f"/v1/leagues/{lid}/members", json={"player": "nobody"}, headers=bearer(op)
    )
    assert unknown.status_code == 404
    assert unknown.get_json()["code"] == "player_not_found"
    members = client.get(f"/v1/leagues/{lid}").get_json()["members"]
    assert [m["player"] for m in members] == [ana["id"]]


def test_a_league_table_says_its_league_round_and_table(client, app):
    lid, players = started_league(client, app, n=3, table_size=3)
    gid = client.get(f"/v1/leagues/{lid}/rounds/1").get_json()["tables"][0]["game"]
    game = client.get(f"/v1/games/{gid}", headers=bearer(players[0])).get_json()
    assert game["league"] == {"id": lid, "round": 1, "table": 1}
    other = client.post(
        "/v1/games", json={"ruleset": "gobcon", "players": 2}, headers=bearer(players[0])
    )
    assert client.get(f"/v1/games/{other.get_json()['id']}").get_json()["league"] is None


def test_an_invited_player_joins_or_declines(client, app):
    op = operator(client, app)
    lid = new_league(client, op, name="Autumn")
    ana = client.post("/v1/players", json={"name": "Ana", "handle": "ana"}).get_json()
    bo = client.post("/v1/players", json={"name": "Bo", "handle": "bo"}).get_json()
    for handle in ("ana", "Bo"):
        sent = client.post(
            f"/v1/leagues/{lid}/invitations", json={"player": handle}, headers=bearer(op)
        )
        assert sent.status_code == 201, sent.get_json()
    again = client.post(
        f"/v1/leagues/{lid}/invitations", json={"player": "ana"}, headers=bearer(op)
    )
    assert (again.status_code, again.get_json()["code"]) == (409, "already_invited")
    by_ana = client.post(
        f"/v1/leagues/{lid}/invitations", json={"player": "bo"}, headers=bearer(ana)
    )
    assert (by_ana.status_code, by_ana.get_json()["code"]) == (403, "not_league_organizer")
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert [i["name"] for i in league["invited"]] == ["Ana", "Bo"]
    mine = client.get("/v1/players/me/leagues", headers=bearer(ana)).get_json()["leagues"]
    assert [(m["name"], m["invited"], m["member"]) for m in mine] == [("Autumn", True, False)]

    assert client.post(f"/v1/leagues/{lid}/join", headers=bearer(ana)).status_code == 200
    declined = client.post(f"/v1/leagues/{lid}/decline", headers=bearer(bo))
    assert declined.status_code == 200, declined.get_json()
    league = client.get(f"/v1/leagues/{lid}").get_json()
    assert (league["invited"], [m["name"] for m in league["members"]]) == ([], ["Ana"])
    assert client.get("/v1/players/me/leagues", headers=bearer(bo)).get_json()["leagues"] == []
    twice = client.post(f"/v1/leagues/{lid}/decline", headers=bearer(bo))
    assert (twice.status_code, twice.get_json()["code"]) == (409, "not_invited")
    events = client.get(f"/v1/leagues/{lid}/events").get_json()["events"]
    assert [e["type"] for e in events][1:] == [
        "league.Invited",
        "league.Invited",
        "league.MemberJoined",
        "league.InvitationDeclined",
    ]
