"""The API over HTTP as openapi.yaml describes it: a whole game, the store down, rate limits."""

from __future__ import annotations

import hashlib
import json
import random
import re
from typing import Any

import yaml

from cli.compose import create_app
from cli.embedded import free_port
from tests.api.helpers import random_action
from tests.api.openapi_check import (
    CheckedClient,
    assert_matches,
    expect,
    spec,
    sse_frames,
)
from tests.api.spec_helpers import (
    ACTIONS,
    EVENTS,
    EXPORT,
    FAST,
    GAME,
    LEGAL,
    PLAYERS,
    REPLAY,
    RULESETS,
    STATE,
    STREAM,
    VERIFY,
    seated_game,
)

# --- the app's answers ---------------------------------------------------------------------


def test_an_unreachable_store_is_a_503_with_retry_after():
    url = f"redis://127.0.0.1:{free_port()}/0"
    api = CheckedClient(create_app({"REDIS_URL": url, "RQ_REDIS_URL": url}).test_client())
    resp = api.get("/healthz")
    expect(resp, 503, "store_unavailable")
    assert int(resp.headers["Retry-After"]) >= 0
    expect(api.post(PLAYERS, json={"name": "ana"}), 503, "store_unavailable")
    expect(api.get(RULESETS), 200)


def test_the_service_routes_match_the_spec(api):
    resp = api.get("/openapi.yaml")
    assert resp.status_code == 200 and yaml.safe_load(resp.get_data(as_text=True)) == spec()
    assert expect(api.get("/healthz"), 200) == {"status": "ok"}


def chain_hash(envelope: dict[str, Any]) -> str:
    """Hash an envelope the way the Event schema's description says."""
    body = {k: v for k, v in envelope.items() if k != "hash"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((envelope["prev"] + text).encode("utf-8")).hexdigest()


def test_a_game_played_to_the_end_matches_the_spec_and_opens_every_event(api, redis_url):
    gid, seats = seated_game(api)
    rnd = random.Random(7)
    for _ in range(2000):
        game = expect(api.get(GAME, gid), 200)
        if game["status"] != "active":
            break
        token = seats[game["owed"][0]["seat"]]
        actions = expect(api.get(LEGAL, gid, token), 200)["actions"]
        for choice in (c for a in actions for c in a["choices"] or []):
            assert_matches("GoblinMarketAction", choice)
        action = random_action(rnd, actions)
        assert_matches("GoblinMarketAction", action)
        expect(api.post(ACTIONS, gid, token, json=action), 201)
    assert game["status"] == "finished"
    assert_matches("Result", game["result"])
    assert set(game["result"]["winners"]) <= set(seats)

    events = expect(api.get(EVENTS, gid), 200)["events"]
    assert not any(e.get("redacted") for e in events)
    assert all("salt" in e for e in events if e["visible_to"] != "all")
    prev = "0" * 64
    for e in events:
        assert e["prev"] == prev and e["hash"] == chain_hash(e)
        prev = e["hash"]
    created, ended = events[0], events[-1]
    assert (created["type"], ended["type"]) == ("game.Created", "game.Ended")
    seed = bytes.fromhex(ended["data"]["seed"])
    assert hashlib.sha256(gid.encode() + seed).hexdigest() == created["data"]["seed_commitment"]

    token = next(iter(seats.values()))
    assert expect(api.get(LEGAL, gid, token), 200)["actions"] == []
    expect(api.post(ACTIONS, gid, token, json={"type": "pass"}), 409, "game_over")

    # the live stream replays the whole game and ends after game.Ended (SSE_MAX_S: no hang)
    config = {"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "SSE_MAX_S": 5, **FAST}
    watcher = CheckedClient(create_app(config).test_client())
    for who in (None, token):
        resp = watcher.get(STREAM, gid, who)
        assert resp.mimetype == "text/event-stream" and resp.headers["Cache-Control"] == "no-cache"
        frames = sse_frames(resp.get_data(as_text=True))
        assert frames[0] == {"retry": "1000"}
        stands = json.loads(frames[1]["data"])  # every connect: where the game stands
        assert frames[1]["event"] == "owes" and "id" not in frames[1]
        assert (stands["status"], stands["version"], stands["owes"]) == (
            "finished",
            len(events),
            [],
        )
        sent = [f for f in frames if "data" in f and "id" in f]
        assert [(f["id"], f["event"]) for f in sent] == [(str(e["seq"]), e["type"]) for e in events]
        shown = [json.loads(f["data"]) for f in sent]
        # the last frame of each append says what the seat owes next; spectators get none
        assert ("owes" in shown[-1]) == (who is not None)
        assert who is not None or not any("owes" in f for f in shown)
        assert [{k: v for k, v in f.items() if k != "owes"} for f in shown] == events
    for resume in (
        {"headers": {"Last-Event-ID": str(ended["seq"] - 1)}},
        {"query_string": {"after": ended["seq"] - 2}},
    ):
        frames = sse_frames(watcher.get(STREAM, gid, **resume).get_data(as_text=True))
        assert [int(f["id"]) for f in frames if "id" in f][-1] == ended["seq"]
        assert frames[-2]["event"] == "game.Ended"  # then the game's receipt, and the end
        assert frames[-1]["event"] == "receipt" and "id" not in frames[-1]
        assert_matches("KeptReceipt", json.loads(frames[-1]["data"]))
        assert_matches("GameStreamEvent", frames[-1])
    for frame in sent:
        assert_matches("Event", json.loads(frame["data"]))

    # the audit routes: export to anyone, verify it, fold any point, replay it in a browser
    bundle = expect(api.get(EXPORT, gid), 200)
    assert bundle["events"] == events and bundle["seed"] == ended["data"]["seed"]
    report = expect(api.post(VERIFY, json=bundle), 200)
    assert report["ok"] and report["events"] == len(events)
    middle = expect(api.get(STATE, gid, token, query_string={"at": ended["seq"] // 2}), 200)
    assert middle["version"] == ended["seq"] // 2 and len(middle["views"]) == len(seats)
    for view in middle["views"]:
        assert_matches("GoblinMarketView", view)
    page = api.get(REPLAY, gid)
    assert page.status_code == 200 and "<html" in page.get_data(as_text=True).lower()


def test_a_caller_over_its_rate_limit_gets_the_429_the_spec_describes(redis_url):
    config = {"REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url, "RATE_LIMIT_ANON": "3/minute"}
    api = CheckedClient(create_app(config).test_client())
    first = api.get(RULESETS)
    expect(first, 200)
    assert first.headers["RateLimit-Policy"] == '"default";q=3;w=60'
    assert re.fullmatch(r'"default";r=2;t=\d+', first.headers["RateLimit"])
    expect(api.get(GAME, "g_nope"), 404, "game_not_found")  # errors count too
    expect(api.get(EVENTS, "g_nope"), 404, "game_not_found")
    for path in (RULESETS, GAME, STREAM, REPLAY):  # one budget across routes, the page too
        refused = api.get(path, "g_nope")
        expect(refused, 429, "rate_limited")
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert re.fullmatch(r'"default";r=0;t=\d+', refused.headers["RateLimit"])
    expect(api.get("/healthz"), 200)  # not counted
    assert "RateLimit" not in api.get("/openapi.yaml").headers
