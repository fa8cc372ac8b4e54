"""Answers over HTTP match openapi.yaml: flows, errors, limits, a whole game."""

from __future__ import annotations

from jsonschema import Draft202012Validator

import games
from tests.api.openapi_check import (
    expect,
    spec,
)
from tests.api.spec_helpers import (
    ACTIONS,
    EVENTS,
    EXPORT,
    GAME,
    GAMES,
    JOIN,
    LEGAL,
    PLAYERS,
    RATE_HEADERS,
    REPLAY,
    RULESETS,
    STATE,
    STREAM,
    VERIFY,
    new_game,
    owing,
    register,
    seated_game,
)

# --- the app's answers ---------------------------------------------------------------------


def test_registering_listing_and_creating_match_the_spec(api):
    ana, bo, cy = register(api, 3)
    rulesets = expect(api.get(RULESETS), 200)["rulesets"]
    gm = next(r for r in rulesets if r["id"] == "goblin-market")
    assert gm["min_players"] <= 3 <= gm["max_players"]
    es = expect(api.get(RULESETS, headers={"Accept-Language": "es-ES,es;q=0.9"}), 200)
    assert next(r for r in es["rulesets"] if r["id"] == "goblin-market")["name"] != gm["name"]

    resp = api.post(
        GAMES,
        token=ana["token"],
        json={
            "ruleset": "goblin-market",
            "players": 3,
            "options": {"edition": "es", "courts": False},
            "decision_timeout_s": 300,
        },
    )
    game = expect(resp, 201)
    assert resp.headers["ETag"] == f'"{game["version"]}"'
    assert (game["status"], game["you"], game["view"], game["result"]) == (
        "waiting",
        None,
        None,
        None,
    )
    assert game["options"] == {"edition": "es", "courts": False}

    joins = [expect(api.post(JOIN, game["id"], p["token"]), 200) for p in (ana, bo, cy)]
    assert [j["status"] for j in joins] == ["waiting", "waiting", "active"]
    started = expect(api.get(GAME, game["id"], ana["token"]), 200)
    assert started["you"] == joins[0]["seat"] and isinstance(started["view"], dict)
    assert started["owed"] and all(o["deadline"] for o in started["owed"])

    assert {r["id"] for r in rulesets} == set(games.REGISTRY)
    for ruleset in rulesets:
        Draft202012Validator.check_schema(ruleset["options"])
    media = spec()["paths"][GAMES]["post"]["requestBody"]["content"]["application/json"]
    assert set(media["examples"]) == set(games.REGISTRY)
    for name, example in media["examples"].items():
        created = expect(api.post(GAMES, token=ana["token"], json=example["value"]), 201)
        assert (created["ruleset"], created["players"]) == (name, example["value"]["players"])
        assert created["options"].items() >= example["value"]["options"].items()


def test_reading_a_started_game_matches_the_spec_and_hides_what_it_should(api):
    gid, seats = seated_game(api)
    resp = api.get(GAME, gid)
    game = expect(resp, 200)
    assert resp.headers["ETag"] == f'"{game["version"]}"' and game["you"] is None
    assert RATE_HEADERS <= set(resp.headers.keys())
    etag = resp.headers["ETag"]
    for tag in (etag, f"W/{etag}", "*"):
        unchanged = api.get(GAME, gid, headers={"If-None-Match": tag})
        assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
    assert api.get(GAME, gid, headers={"If-None-Match": '"1"'}).status_code == 200
    assert game["status"] == "active" and sorted(game["order"]) == [0, 1, 2]
    for seat, token in seats.items():
        assert expect(api.get(GAME, gid, token), 200)["you"] == seat
        legal = expect(api.get(LEGAL, gid, token), 200)
        assert legal["version"] == game["version"]
        assert bool(legal["actions"]) == (seat == game["owed"][0]["seat"])

    for token in (None, seats[0]):
        events = expect(api.get(EVENTS, gid, token), 200)
        assert events["version"] == game["version"] == events["events"][-1]["seq"]
        hidden = [e for e in events["events"] if e["visible_to"] != "all"]
        assert hidden and all(e["redacted"] and "salt" not in e for e in hidden)
    tail = expect(api.get(EVENTS, gid, query_string={"after": game["version"] - 1}), 200)
    assert [e["seq"] for e in tail["events"]] == [game["version"]]


def test_an_action_with_if_match_and_idempotency_key_matches_the_spec(api):
    gid, seats = seated_game(api)
    seat = owing(api, gid)
    etag = api.get(GAME, gid).headers["ETag"]
    headers = {"If-Match": etag, "Idempotency-Key": "bid-1"}
    first = expect(
        api.post(ACTIONS, gid, seats[seat], json={"type": "bid", "amount": 1}, headers=headers), 201
    )
    assert first["events"][0]["actor"] == seat
    assert first["events"][0]["seq"] == int(etag.strip('"')) + 1

    again = expect(
        api.post(ACTIONS, gid, seats[seat], json={"amount": 1, "type": "bid"}, headers=headers), 201
    )
    assert again["events"] == first["events"]
    expect(
        api.post(ACTIONS, gid, seats[seat], json={"type": "pass"}, headers=headers),
        422,
        "idempotency_key_reused",
    )
    nxt = owing(api, gid)
    expect(
        api.post(
            ACTIONS,
            gid,
            seats[nxt],
            json={"type": "pass"},
            headers={"If-Match": etag, "Idempotency-Key": "late"},
        ),
        412,
        "version_mismatch",
    )
    assert expect(api.get(GAME, gid), 200)["version"] == first["version"]


def test_error_answers_match_the_spec(api):
    ana, bo, cy, dee = register(api, 4)
    waiting = new_game(api, ana)["id"]
    expect(api.post(JOIN, waiting, ana["token"]), 200)

    expect(api.post(GAMES, json={"ruleset": "goblin-market", "players": 3}), 401, "unauthorized")
    expect(api.get(GAME, waiting, "forged"), 401, "unauthorized")
    expect(api.get(LEGAL, waiting, headers={"Authorization": "Basic abc"}), 401, "unauthorized")

    for method, template in [("GET", GAME), ("GET", LEGAL), ("GET", EVENTS), ("POST", JOIN)]:
        expect(api.call(method, template, "g_nope", ana["token"]), 404, "game_not_found")
    expect(api.get(GAME, "x" * 65), 404, "game_not_found")
    for template in (STREAM, EXPORT, REPLAY):
        expect(api.get(template, "g_nope"), 404, "game_not_found")
    expect(api.get(REPLAY, "bad.id"), 404, "game_not_found")
    expect(api.get(STATE, "g_nope", query_string={"at": 1}), 404, "game_not_found")
    expect(api.get(EXPORT, waiting), 401, "unauthorized")
    expect(api.get(EXPORT, waiting, bo["token"]), 403, "not_seated")
    assert expect(api.get(EXPORT, waiting, ana["token"]), 200)["seed"] is None
    for at in ("0", "x", "99"):
        expect(api.get(STATE, waiting, query_string={"at": at}), 422, "invalid_query")
    expect(api.get(STATE, waiting), 422, "invalid_query")
    for headers, query in [({"Last-Event-ID": "x"}, {}), ({}, {"after": "-1"})]:
        body = expect(
            api.get(STREAM, waiting, headers=headers, query_string=query), 422, "invalid_header"
        )
        assert "Last-Event-ID" in body["errors"]
    expect(api.post(VERIFY, json=["not", "a", "bundle"]), 422, "invalid_body")
    body = expect(api.post(VERIFY, json={"format": "nonsense"}), 422, "invalid_body")
    assert body["errors"] == {"format": ['must be "marketfold-bundle/1"']}
    expect(api.post(ACTIONS, "g_nope", ana["token"], json={"type": "pass"}), 404, "game_not_found")

    for bad in (
        {"ruleset": "goblin-market", "players": "3"},
        {"ruleset": "goblin-market"},
        {"ruleset": "goblin-market", "players": 3, "colour": "red"},
        ["goblin-market"],
    ):
        body = expect(api.post(GAMES, token=ana["token"], json=bad), 422, "invalid_body")
        assert body["errors"]
    expect(api.post(PLAYERS, data="{name", content_type="application/json"), 422, "invalid_body")
    expect(api.post(PLAYERS, data='{"name": "x"}', content_type="text/plain"), 422, "invalid_body")
    expect(
        api.post(GAMES, token=ana["token"], json={"ruleset": "chess", "players": 3}),
        422,
        "unknown_ruleset",
    )
    expect(
        api.post(GAMES, token=ana["token"], json={"ruleset": "goblin-market", "players": 2}),
        422,
        "invalid_players",
    )
    body = expect(
        api.post(
            GAMES,
            token=ana["token"],
            json={"ruleset": "goblin-market", "players": 3, "options": {"colour": "red"}},
        ),
        422,
        "invalid_option",
    )
    assert "options.colour" in body["errors"]
    expect(
        api.post(PLAYERS, data="x" * (65 * 1024), content_type="application/json"),
        413,
        "body_too_large",
    )

    expect(api.post(JOIN, waiting, ana["token"]), 409, "already_seated")
    expect(api.post(ACTIONS, waiting, ana["token"], json={"type": "pass"}), 409, "game_not_started")
    expect(api.get(LEGAL, waiting, bo["token"]), 403, "not_seated")

    gid, seats = seated_game(api)
    expect(api.post(JOIN, gid, dee["token"]), 409, "game_not_waiting")
    expect(api.post(ACTIONS, gid, dee["token"], json={"type": "pass"}), 403, "not_seated")
    expect(api.get(EVENTS, gid, query_string={"after": "-1"}), 422, "invalid_query")
    seat = owing(api, gid)
    other = next(s for s in seats if s != seat)
    act = (ACTIONS, gid, seats[seat])
    expect(api.post(ACTIONS, gid, seats[other], json={"type": "pass"}), 409, "not_your_turn")
    expect(api.post(*act, json={"type": "take_all"}), 409, "action_not_allowed")
    expect(api.post(*act, json={"type": "bid", "amount": 0}), 409, "bid_too_low")
    expect(api.post(*act, json={"type": "bid", "amount": 1000}), 409, "insufficient_coins")
    expect(api.post(*act, json={"type": "bid", "amount": "3"}), 422, "invalid_action")
    expect(api.post(*act, json={"type": "dance"}), 422, "invalid_action")
    expect(api.post(*act, json={"amount": 3}), 422, "invalid_body")
    expect(
        api.post(*act, json={"type": "pass"}, headers={"If-Match": "soon"}), 422, "invalid_header"
    )
    expect(
        api.post(*act, json={"type": "pass"}, headers={"Idempotency-Key": "a b"}),
        422,
        "invalid_header",
    )
