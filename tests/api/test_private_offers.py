"""Black Market wild trade: a private offer, its decline and its withdrawal reach the
other seats and spectators (event feed and SSE) as opaque placeholders naming neither
party (issue #15 point 13)."""

from __future__ import annotations

import json
import random

from games.base import ActionSpec
from service import game_commands
from tests.api.helpers import bearer, by_seat, new_game, new_players
from tests.games.playout import random_action

PRIVATE = ("black-market.OfferMade", "black-market.OfferDeclined", "black-market.OfferWithdrawn")


def _act(client, gid: str, player: dict, action: dict) -> dict:
    res = client.post(f"/v1/games/{gid}/actions", json=action, headers=bearer(player))
    assert res.status_code in (201, 202), res.get_json()
    return res.get_json()


def _offer(client, gid: str, player: dict, to: int, rnd: random.Random) -> dict:
    """A legal offer of `player` to seat `to`, built from its /legal schema."""
    legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
    spec = next(a for a in legal["actions"] if a["type"] == "offer")
    schema = {**spec["schema"], "properties": {**spec["schema"]["properties"], "to": {"const": to}}}
    return random_action([ActionSpec("offer", schema, None)], rnd)


def _wild_trade(client, app):
    """A three-seat wild game whose trade phase has just opened."""
    players = new_players(client, 3, prefix="w")
    gid = new_game(client, players, ruleset="black-market", options={"trade": "wild"})
    seats, rnd = by_seat(client, gid, players), random.Random(3)
    for seat, player in seats.items():
        legal = client.get(f"/v1/games/{gid}/legal", headers=bearer(player)).get_json()
        specs = [ActionSpec(a["type"], a["schema"], a["choices"]) for a in legal["actions"]]
        _act(client, gid, player, random_action(specs, rnd))
    deps = app.extensions["marketfold"]
    rec = deps.store.load(gid).record
    game_commands.resolve(deps, gid, rec.game.ready(rec.state))
    owed = client.get(f"/v1/games/{gid}").get_json()["owed"]
    assert {o["kind"] for o in owed} == {"trade"}
    return gid, seats, rnd


def _stream(client, gid: str, headers: dict, version: int) -> list[tuple[str, dict]]:
    """Read the SSE stream from the start up to `version`: (event name, data) frames."""
    res = client.get(f"/v1/games/{gid}/events/stream", headers=headers, buffered=False)
    frames, text = [], ""
    for chunk in res.response:
        text += chunk.decode() if isinstance(chunk, bytes) else chunk
        *done, text = text.split("\n\n")
        for frame in done:
            lines = dict(ln.split(": ", 1) for ln in frame.split("\n") if ": " in ln)
            if "data" in lines and "id" in lines:  # an event (not a chat line)
                data = json.loads(lines["data"])
                data.pop("owes", None)  # what a seated caller owes: not part of the event
                frames.append((lines["event"], data))
        if frames and frames[-1][1]["seq"] >= version:
            break
    res.close()
    return frames


def test_a_private_offer_its_decline_and_withdrawal_name_nobody_to_a_third_seat_or_spectator(
    client, app
):
    gid, seats, rnd = _wild_trade(client, app)
    a, b, c = seats[0], seats[1], seats[2]
    made = _act(client, gid, a, _offer(client, gid, a, 1, rnd))["events"][0]
    assert made["type"] == "black-market.OfferMade" and made["data"]["to"] == 1
    _act(client, gid, b, {"type": "decline", "offer": made["data"]["id"]})
    again = _act(client, gid, a, _offer(client, gid, a, 1, rnd))["events"][0]
    _act(client, gid, a, {"type": "withdraw", "offer": again["data"]["id"]})

    log = client.get(f"/v1/games/{gid}/events", headers=bearer(a)).get_json()["events"]
    private = {e["seq"]: e for e in log if e["type"] in PRIVATE}
    assert sorted(e["type"] for e in private.values()) == sorted([*PRIVATE, PRIVATE[0]])
    assert all(e["visible_to"] == [0, 1] for e in private.values())  # the parties see all
    version = log[-1]["seq"]
    for outsider in (bearer(c), {}):
        feed = client.get(f"/v1/games/{gid}/events", headers=outsider).get_json()["events"]
        assert [e["seq"] for e in feed] == list(range(1, version + 1))  # no gap in the feed
        stream = _stream(client, gid, outsider, version)
        assert [data for _, data in stream] == feed
        for name, shown in stream:
            if shown["seq"] not in private:
                continue
            assert name == "hidden"
            assert shown == {
                "seq": shown["seq"],
                "type": "hidden",
                "data": {},
                "actor": "hidden",
                "cause": "hidden",
                "visible_to": [],
                "at": private[shown["seq"]]["at"],
                "prev": private[shown["seq"]]["prev"],
                "hash": private[shown["seq"]]["hash"],
                "redacted": True,
            }
        # the game view does not tell of the offers either
        view = client.get(f"/v1/games/{gid}", headers=outsider).get_json()["view"]
        assert made["data"]["id"] not in json.dumps(view)
