"""Private steps leave no trace a third party can measure (#49.1).

Black Market's wild trade is the one mechanism whose steps (offers, declines,
withdrawals) are private to their two parties: they go to a private log, nothing public
moves (every other hidden fact, such as a sealed bid, is a public event whose content
alone is hidden). For every route and stream a third party can reach (the third seat,
a stranger's token, an anonymous caller), this measures what private steps between two
other seats change: every GET answer's status, body, ETag and size, and each stream's
bytes and heartbeat times. Before the fix a private step restarted the heartbeat timer of
every signed-in caller's stream, so heartbeats timed the steps."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from tests.api.helpers import bearer
from tests.api.test_private_offer_stream import meetable_offer
from tests.api.wild_trade import act, wild_trade
from tests.conftest import api_server

BEAT = 2.0  # the server's heartbeat here: steps fall between beats
ALL_GET = {  # every GET route of the API a caller may reach without being a party
    "/v1/rulesets",
    "/v1/rulesets/<ruleset>/cards",
    "/v1/games",
    "/v1/games/<game_id>",
    "/v1/games/<game_id>/legal",
    "/v1/games/<game_id>/events",
    "/v1/games/<game_id>/export",
    "/v1/games/<game_id>/state",
    "/v1/keys",
    "/v1/transparency/head",
    "/v1/transparency/checkpoint",
    "/v1/transparency/consistency",
    "/v1/transparency/leaves",
    "/v1/games/<game_id>/transparency",
    "/v1/leagues",
    "/v1/leagues/<league_id>",
    "/v1/leagues/<league_id>/standings",
    "/v1/leagues/<league_id>/standings.csv",
    "/v1/leagues/<league_id>/events",
    "/v1/leagues/<league_id>/export",
    "/v1/leagues/<league_id>/rounds/<int:n>",
    "/v1/leagues/<league_id>/seat-commitment",  # a member's own: refused alike
    "/v1/players/me/turns",
    "/v1/players/me/tokens",
    "/v1/players/me",
    "/v1/players/me/invitations",
    "/v1/players/me/games",
    "/v1/players/<player_id>",
    "/v1/games/<game_id>/chat",
    "/games/<game_id>/replay",
    "/v1/reports",  # operators' (moderation): refused alike
    "/v1/players/<player_id>/moderation",
    "/v1/games/<game_id>/evidence",  # the table's and organizers' only: refused alike
    "/v1/leagues/<league_id>/disputes",
    "/v1/leagues/<league_id>/games/<game_id>/review",
    "/v1/notifications/unsubscribe",  # a signed token's, refused without one
    "/v1/notifications/verify",
    "/v1/players/me/leagues",  # the caller's own
    "/v1/players/me/notification-settings",
    "/v1/players/me/notifications",
    "/v1/players/me/push-subscriptions",
    "/v1/players/me/webhooks",
    "/v1/players/me/webhooks/<webhook_id>",
    "/v1/players/me/webhooks/<webhook_id>/deliveries",
    "/v1/push/key",
    "/v1/roles",
}
STREAMS = {"/v1/games/<game_id>/events/stream", "/v1/players/me/feed"}  # measured live
SHOWN = ("ETag", "Content-Type", "Content-Length", "Vary", "Cache-Control")


def probes(gid: str, version: int, parties: list[dict]) -> list[str]:
    """Every GET a third party can make about this game and its parties."""
    out = [
        "/v1/rulesets",
        "/v1/rulesets/black-market/cards",
        f"/v1/games/{gid}",
        f"/v1/games/{gid}/legal",
        f"/v1/games/{gid}/events",
        f"/v1/games/{gid}/events?after=1",
        f"/v1/games/{gid}/export",
        *[f"/v1/games/{gid}/state?at={n}" for n in range(1, version + 1)],
        "/v1/keys",
        "/v1/transparency/head",
        "/v1/transparency/checkpoint",
        "/v1/transparency/consistency?first=1&second=2",
        "/v1/transparency/leaves",
        f"/v1/games/{gid}/transparency",
        "/v1/leagues",
        "/v1/leagues/l_none",
        "/v1/leagues/l_none/standings",
        "/v1/leagues/l_none/standings.csv",
        "/v1/leagues/l_none/events",
        "/v1/leagues/l_none/export",
        "/v1/leagues/l_none/rounds/1",
        "/v1/leagues/l_none/seat-commitment",
        "/v1/players/me/turns",
        "/v1/players/me/tokens",
        "/v1/players/me",
        "/v1/players/me/invitations",
        "/v1/players/me/games",
        f"/v1/games/{gid}/chat",
        f"/games/{gid}/replay",
        f"/v1/games/{gid}/evidence",
        "/v1/leagues/l_none/disputes",
        f"/v1/leagues/l_none/games/{gid}/review",
        "/v1/notifications/unsubscribe?token=x",
        "/v1/notifications/verify?token=x",
        "/v1/players/me/leagues",
        "/v1/players/me/notification-settings",
        "/v1/players/me/notifications",
        "/v1/players/me/push-subscriptions",
        "/v1/players/me/webhooks",
        "/v1/players/me/webhooks/wh_none",
        "/v1/players/me/webhooks/wh_none/deliveries",
        "/v1/push/key",
        "/v1/roles",
        "/v1/games",
        "/v1/games?status=active",
        "/v1/games?ruleset=black-market",
        "/v1/reports",
    ]
    for p in parties:
        out += [f"/v1/players/{p['id']}", f"/v1/games?player={p['id']}"]
        out += [f"/v1/players/{p['id']}/moderation"]
    return out


def snapshot(client, paths: list[str], headers: dict) -> dict:
    """Each answer as a third party sees it: status, the headers that describe the body,
    and the body itself."""
    seen = {}
    for path in paths:
        res = client.get(path, headers=headers)
        shown = {h: res.headers.get(h) for h in SHOWN}
        seen[path] = (res.status_code, shown, res.get_data())
    return seen


def private_steps(client, app, gid: str, a: dict, b: dict) -> None:
    """An offer, its decline, another offer and its withdrawal, between seats 0 and 1."""
    made = act(client, gid, a, meetable_offer(app, gid, 0, 1))["events"][0]["data"]
    act(client, gid, b, {"type": "decline", "offer": made["id"]})
    again = act(client, gid, a, meetable_offer(app, gid, 0, 1))["events"][0]["data"]
    act(client, gid, a, {"type": "withdraw", "offer": again["id"]})


def test_every_get_route_answers_a_third_party_alike_before_and_after_private_steps(client, app):
    routes = {r.rule for r in app.url_map.iter_rules() if "GET" in r.methods}
    api_routes = {r for r in routes if r.startswith(("/v1/", "/games/"))}
    assert api_routes - STREAMS == ALL_GET, "a GET route this test does not measure"
    for timed in ({}, {"decision_timeout_s": 3600}):
        gid, seats, _ = wild_trade(client, app, **timed)
        a, b, c = seats[0], seats[1], seats[2]
        stranger = client.post("/v1/players", json={"name": "stranger"}).get_json()
        version = client.get(f"/v1/games/{gid}").get_json()["version"]
        paths = probes(gid, version, [a, b, c])
        watchers = {"third seat": bearer(c), "stranger": bearer(stranger), "anonymous": {}}
        before = {who: snapshot(client, paths, h) for who, h in watchers.items()}
        private_steps(client, app, gid, a, b)
        for who, headers in watchers.items():
            after = snapshot(client, paths, headers)
            changed = [p for p in paths if after[p] != before[who][p]]
            assert changed == [], f"{who} ({timed or 'untimed'}) sees a change at {changed}"
        # the parties do see their steps (the probe is not blind)
        etag = client.get(f"/v1/games/{gid}", headers=bearer(a)).headers["ETag"]
        assert "." in etag


class Recorder(threading.Thread):
    """Reads one stream and notes when each chunk arrives (seconds from the first)."""

    def __init__(self, url: str, headers: dict):
        super().__init__(daemon=True)
        self.url, self.headers = url, headers
        self.chunks: list[tuple[float, bytes]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        with requests.get(self.url, headers=self.headers, stream=True, timeout=30) as res:
            assert res.status_code == 200, res.text
            start = None
            for chunk in res.iter_content(chunk_size=None):
                now = time.monotonic()
                start = start if start is not None else now
                self.chunks.append((now - start, chunk))
                if self.stop.is_set():
                    return

    def heartbeats(self) -> list[float]:
        return [t for t, chunk in self.chunks[1:] if chunk == b": heartbeat\n\n"]

    def others(self) -> list[bytes]:
        return [chunk for _, chunk in self.chunks[1:] if chunk != b": heartbeat\n\n"]


@pytest.mark.slow
def test_third_parties_streams_beat_on_a_fixed_schedule_whatever_private_steps_happen(
    redis_url, client, app
):
    with api_server(redis_url, MARKETFOLD_SSE_HEARTBEAT_S=str(BEAT)) as (base, _):
        gid, seats, _ = wild_trade(client, app)
        a, b, c = seats[0], seats[1], seats[2]
        stranger = client.post("/v1/players", json={"name": "stranger"}).get_json()
        game = f"{base}/v1/games/{gid}/events/stream"
        feed = f"{base}/v1/players/me/feed"
        now = {"Last-Event-ID": str(client.get(f"/v1/games/{gid}").get_json()["version"])}
        streams = {
            "third seat's game stream": Recorder(game, {**bearer(c), **now}),
            "stranger's game stream": Recorder(game, {**bearer(stranger), **now}),
            "anonymous game stream": Recorder(game, now),
            "third seat's feed": Recorder(feed, bearer(c)),
            "stranger's feed": Recorder(feed, bearer(stranger)),
        }
        for recorder in streams.values():
            recorder.start()
        while not all(r.chunks for r in streams.values()):
            time.sleep(0.01)
        opened = time.monotonic()
        for step in range(4):  # mid-way between two beats, each restarted the old timer
            time.sleep(max(0.0, opened + BEAT / 2 + step * BEAT - time.monotonic()))
            made = act(client, gid, a, meetable_offer(app, gid, 0, 1))["events"][0]["data"]
            act(client, gid, b, {"type": "decline", "offer": made["id"]})
        time.sleep(max(0.0, opened + 4 * BEAT + 0.5 - time.monotonic()))
        for recorder in streams.values():
            recorder.stop.set()
        for who, recorder in streams.items():
            assert recorder.others() == [], f"{who} got more than heartbeats"
            beats = recorder.heartbeats()
            assert len(beats) >= 4, (who, beats)
            for k, at in enumerate(beats[:4], start=1):
                assert abs(at - k * BEAT) < BEAT / 4, f"{who}: heartbeats at {beats}"
