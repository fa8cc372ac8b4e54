"""Every answer of the roles, settings and remedies routes (and their refusals) fits
openapi.yaml: a generated client can run a league as the web client does."""

from __future__ import annotations

from tests.api.helpers import new_players
from tests.api.openapi_check import check, expect
from tests.leagues.helpers import in_seconds, running_league


def test_roles_settings_and_remedies_answer_as_the_spec_says(client, app):
    lid, op, players = running_league(client, app, 3, rounds=2, table_size=3)
    ana, bea = new_players(client, 2, "x")

    def call(method, template, token=None, **params):
        json = params.pop("json", None)
        url = template
        for key, value in params.items():
            url = url.replace("{" + key + "}", str(value))
        headers = {"Authorization": f"Bearer {token['token']}"} if token else {}
        return check(client.open(url, method=method, headers=headers, json=json), method, template)

    expect(call("GET", "/v1/roles", ana), 403, "not_operator")
    expect(call("GET", "/v1/roles", op), 200)
    expect(call("GET", "/v1/players/me", op), 200)
    role = "/v1/players/{player_id}/roles/{role}"
    expect(call("PUT", role, op, player_id=ana["id"], role="organizer"), 200)
    expect(call("PUT", role, op, player_id=ana["id"], role="king"), 422, "invalid_role")
    expect(call("PUT", role, op, player_id="p_none", role="organizer"), 404, "player_not_found")
    expect(call("PUT", role, bea, player_id=ana["id"], role="operator"), 403, "not_operator")
    expect(call("DELETE", role, op, player_id=ana["id"], role="organizer"), 200)
    expect(call("DELETE", role, op, player_id=op["id"], role="operator"), 409, "role_from_config")

    one = "/v1/leagues/{league_id}"
    expect(call("PATCH", one, op, league_id=lid, json={"name": "Renamed"}), 200)
    expect(
        call("PATCH", one, op, league_id=lid, json={"start_at": in_seconds(60)}),
        409,
        "setting_in_effect",
    )
    expect(call("PATCH", one, op, league_id=lid, json={}), 422, "invalid_body")
    expect(call("PATCH", one, ana, league_id=lid, json={"name": "x"}), 403, "not_league_organizer")

    orgs = one + "/organizers"
    expect(call("POST", orgs, op, league_id=lid, json={"player": ana["id"]}), 201)
    expect(
        call("POST", orgs, op, league_id=lid, json={"player": ana["id"]}), 409, "already_organizer"
    )
    expect(call("DELETE", orgs + "/{player_id}", ana, league_id=lid, player_id=ana["id"]), 200)
    expect(
        call("DELETE", orgs + "/{player_id}", op, league_id=lid, player_id=bea["id"]),
        404,
        "organizer_not_found",
    )

    table = one + "/rounds/{n}/tables/{table}"
    expect(call("POST", table + "/pause", op, league_id=lid, n=1, table=1), 200)
    expect(call("POST", table + "/pause", op, league_id=lid, n=1, table=1), 409, "table_paused")
    expect(call("POST", table + "/resume", op, league_id=lid, n=1, table=1), 200)
    expect(call("POST", table + "/resume", op, league_id=lid, n=1, table=2), 404, "table_not_found")

    vacations = one + "/vacations"
    span = {"from": in_seconds(60), "until": in_seconds(86400)}
    expect(call("POST", vacations, players[1], league_id=lid, json=span), 201)
    expect(call("POST", vacations, players[1], league_id=lid, json=span), 409, "vacation_overlaps")
    expect(call("POST", vacations, ana, league_id=lid, json=span), 404, "member_not_found")

    subs = one + "/substitutions"
    body = {"player": players[0]["id"], "substitute": bea["id"]}
    expect(call("POST", subs, op, league_id=lid, json={"player": "x"}), 422, "invalid_body")
    expect(call("POST", subs, op, league_id=lid, json=body), 200)
    expect(call("POST", subs, op, league_id=lid, json=body), 409, "already_member")
    member = one + "/members/{player_id}"
    expect(call("POST", member + "/reinstate", op, league_id=lid, player_id=players[0]["id"]), 200)
    expect(
        call("POST", member + "/reinstate", op, league_id=lid, player_id=players[0]["id"]),
        409,
        "not_withdrawn",
    )
    expect(call("DELETE", member, op, league_id=lid, player_id=players[2]["id"]), 200)
    expect(call("GET", one, league_id=lid), 200)
    expect(call("GET", one + "/rounds/{n}", league_id=lid, n=1), 200)
