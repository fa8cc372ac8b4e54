"""Black Market wild trade: a private offer, its decline, withdrawal and acceptance reach
the offer's two parties through the channels a client follows (their event streams, the
receiver's feed), and nothing of them reaches a third seat, a spectator or an anonymous
caller while the game runs; a resumed stream sends each step exactly once."""

from __future__ import annotations

import json
import threading
import time

import requests

from tests.api.helpers import bearer
from tests.api.openapi_check import assert_matches
from tests.api.wild_trade import act, legal_offer, wild_trade

PRIVATE = ("black-market.OfferMade", "black-market.OfferDeclined", "black-market.OfferWithdrawn")


def read(base: str, path: str, headers: dict, last: str | None = None) -> list[tuple]:
    """The frames (id, event, data) a stream sends until it is idle (its first heartbeat)."""
    extra = {"Last-Event-ID": last} if last is not None else {}
    frames, frame = [], {}
    with requests.get(
        f"{base}{path}", headers={**headers, **extra}, stream=True, timeout=30
    ) as res:
        assert res.status_code == 200, res.text
        for line in res.iter_lines(decode_unicode=True):
            if line.startswith(": heartbeat"):
                break
            if line.startswith(("id: ", "event: ", "data: ")):
                name, _, value = line.partition(": ")
                frame[name] = value
            elif line == "" and "data" in frame:
                frames.append((frame.get("id"), frame["event"], json.loads(frame["data"])))
                frame = {}
    return frames


def meetable_offer(app, gid: str, frm: int, to: int) -> dict:
    """An offer of one good for one that both sides hold now."""
    from games.black_market.goods import names, one
    from games.black_market.state import tradeable

    state = app.extensions["marketfold"].store.load(gid).record.state

    def a_good(seat: int) -> list[str]:
        held = tradeable(state, seat)
        return names(one(next(i for i, n in enumerate(held) if n)))

    return {"type": "offer", "to": to, "give": a_good(frm), "take": a_good(to)}


def stream(base, gid, headers, last=None):
    """A game stream's frames that move Last-Event-ID (not `owes`, not chat)."""
    return [f for f in read(base, f"/v1/games/{gid}/events/stream", headers, last) if f[0]]


def notes(base, headers):
    return [
        data for _, kind, data in read(base, "/v1/players/me/feed", headers, "0") if kind != "turns"
    ]


def test_an_offer_reaches_its_parties_streams_and_the_receivers_feed_and_nobody_else(
    shared_server, client, app
):
    base = shared_server
    gid, seats, rnd = wild_trade(client, app)
    a, b, c = seats[0], seats[1], seats[2]
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    outsiders = {"third seat": bearer(c), "spectator": {}}
    before = {who: stream(base, gid, h) for who, h in outsiders.items()}
    feed_c = notes(base, bearer(c))
    assert stream(base, gid, bearer(b), str(version)) == []  # nothing after the last event

    made = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]["data"]
    offer = made["id"]

    # the receiver's stream: one frame, id "<version>.<its first private step>"
    got = stream(base, gid, bearer(b), str(version))
    assert [(i, e) for i, e, _ in got] == [(f"{version}.1", "black-market.OfferMade")]
    shown = got[0][2]
    assert shown["data"] == made and shown["seq"] == version
    assert shown["cause"] == "hidden" and "command" not in shown  # the sender's own
    assert not {"private", "prev", "hash", "salt"} & set(shown)  # nothing of others' steps
    assert_matches("PrivateStepFrame", shown)
    wire = {"id": got[0][0], "event": got[0][1], "data": json.dumps(shown)}
    assert_matches("GameStreamEvent", wire)
    # the sender's stream has it too; the receiver's feed has a note of it
    assert [(i, e) for i, e, _ in stream(base, gid, bearer(a), str(version))] == [
        (f"{version}.1", "black-market.OfferMade")
    ]
    note = [n for n in notes(base, bearer(b)) if n["type"] == "trade_offer"]
    assert [(n["game"], n["ruleset"], n["offer"], n["from"]) for n in note] == [
        (gid, "black-market", offer, 0)
    ]
    assert_matches("FeedNote", note[0])
    assert not [n for n in notes(base, bearer(a)) if n["type"] == "trade_offer"]

    # the receiver declines: the sender's stream, resumed after the offer, gets that only
    act(client, gid, b, {"type": "decline", "offer": offer})
    got = stream(base, gid, bearer(a), f"{version}.1")
    assert [(i, e) for i, e, _ in got] == [(f"{version}.2", "black-market.OfferDeclined")]
    assert got[0][2]["data"]["id"] == offer
    # a new offer and its withdrawal reach the receiver
    again = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]["data"]["id"]
    act(client, gid, a, {"type": "withdraw", "offer": again})
    got = stream(base, gid, bearer(b), f"{version}.2")
    assert [(i, e, d["data"]["id"]) for i, e, d in got] == [
        (f"{version}.3", "black-market.OfferMade", again),
        (f"{version}.4", "black-market.OfferWithdrawn", again),
    ]
    # resumed from the last id before the offer: each step exactly once, in order
    got = stream(base, gid, bearer(b), str(version))
    assert [i for i, _, _ in got] == [f"{version}.{k}" for k in (1, 2, 3, 4)]
    assert [e for _, e, _ in got] == [PRIVATE[0], PRIVATE[1], PRIVATE[0], PRIVATE[2]]

    # nobody else learns anything: not a frame, not a note, not the offer's id
    for who, headers in outsiders.items():
        assert stream(base, gid, headers) == before[who], who
        assert stream(base, gid, headers, str(version)) == [], who
    assert notes(base, bearer(c)) == feed_c
    assert requests.get(f"{base}/v1/players/me/feed", timeout=10).status_code == 401
    seen_by_c = json.dumps(stream(base, gid, bearer(c))) + json.dumps(notes(base, bearer(c)))
    assert offer not in seen_by_c and again not in seen_by_c

    # an accepted offer is a public deal: the sender's stream gets it after its own steps
    third = act(client, gid, a, meetable_offer(app, gid, 0, 1))["events"][0]["data"]["id"]
    deal = act(client, gid, b, {"type": "accept", "offer": third})["events"]
    assert [e["type"] for e in deal] == ["black-market.DealMade"]
    got = stream(base, gid, bearer(a), f"{version}.4")
    assert [(i, e) for i, e, _ in got] == [
        (f"{version}.5", "black-market.OfferMade"),
        (str(version + 1), "black-market.DealMade"),
    ]
    assert [(i, e) for i, e, _ in stream(base, gid, bearer(c), str(version))] == [
        (str(version + 1), "black-market.DealMade")
    ]


def test_a_step_reaches_an_open_stream_live_before_the_next_public_event(
    shared_server, client, app
):
    base = shared_server
    gid, seats, rnd = wild_trade(client, app)
    a, b, c = seats[0], seats[1], seats[2]
    version = client.get(f"/v1/games/{gid}").get_json()["version"]
    frames: list[tuple] = []

    def follow() -> None:  # the receiver's stream, open before anything happens
        url, headers = f"{base}/v1/games/{gid}/events/stream", bearer(b)
        with requests.get(
            url, headers={**headers, "Last-Event-ID": str(version)}, stream=True, timeout=30
        ) as res:
            frame: dict = {}
            for line in res.iter_lines(decode_unicode=True):
                if line.startswith(("id: ", "event: ")):
                    name, _, value = line.partition(": ")
                    frame[name] = value
                elif line == "" and "id" in frame:
                    frames.append((frame["id"], frame["event"]))
                    frame = {}
                elif line == "":
                    frame = {}
                if len(frames) == 2:
                    return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    time.sleep(1.5)  # the stream is open and idle
    offer = act(client, gid, a, legal_offer(client, gid, a, 1, rnd))["events"][0]["data"]["id"]
    deadline = time.monotonic() + 10
    while not frames and time.monotonic() < deadline:
        time.sleep(0.05)
    assert frames == [(f"{version}.1", "black-market.OfferMade")]  # live, not on a re-read
    act(client, gid, c, {"type": "done"})  # a public event after it
    reader.join(10)
    assert frames == [
        (f"{version}.1", "black-market.OfferMade"),
        (str(version + 1), "black-market.DoneDeclared"),
    ]
    assert offer


def test_each_seat_gets_exactly_its_own_steps_in_order_and_resumes_anywhere_without_repeats(
    shared_server, client, app
):
    import random

    from events.redact import redact

    base, rnd = shared_server, random.Random(11)
    gid, seats, _ = wild_trade(client, app)
    deps = app.extensions["marketfold"]
    open_offers: list[tuple[int, int, str]] = []  # (from, to, id)
    for step in range(14):
        if step == 7:  # a public deal between private steps
            act(client, gid, seats[2], meetable_offer(app, gid, 2, 0))
            offer = act(client, gid, seats[2], meetable_offer(app, gid, 2, 0))["events"][0]
            act(client, gid, seats[0], {"type": "accept", "offer": offer["data"]["id"]})
            open_offers = [o for o in open_offers if o[:2] != (2, 0)]
            continue
        if open_offers and rnd.random() < 0.4:
            frm, to, oid = open_offers.pop(rnd.randrange(len(open_offers)))
            if rnd.random() < 0.5:
                act(client, gid, seats[to], {"type": "decline", "offer": oid})
            else:
                act(client, gid, seats[frm], {"type": "withdraw", "offer": oid})
            continue
        frm, to = rnd.sample(range(3), 2)
        made = act(client, gid, seats[frm], meetable_offer(app, gid, frm, to))["events"][0]
        open_offers = [o for o in open_offers if o[:2] != (frm, to)]  # replaced
        open_offers.append((frm, to, made["data"]["id"]))

    rec = deps.store.load(gid).record
    steps = deps.store.read_private(gid)
    public = [redact(e, rec, None) for e in deps.store.read(gid)]
    spectator = stream(base, gid, {})
    assert [d for _, _, d in spectator] == public  # nothing of any private step
    assert all("." not in i for i, _, _ in spectator)
    for seat, player in seats.items():
        got = stream(base, gid, bearer(player))
        mine = [e for e in steps if seat in e["visible_to"]]
        assert mine, seat  # every seat took part in some private step
        assert [d["data"] for i, _, d in got if "." in i] == [e["data"] for e in mine]
        assert [i for i, _, _ in got if "." in i] == [
            f"{e['seq']}.{k}" for k, e in enumerate(mine, 1)
        ]
        # each step right after the public event it followed, before the next one
        order = [(d["seq"], "." in i) for i, _, d in got]
        assert order == sorted(order, key=lambda o: (o[0], o[1]))
        events = [{k: v for k, v in d.items() if k != "owes"} for i, _, d in got if "." not in i]
        assert events == [redact(e, rec, seat) for e in deps.store.read(gid)]
        for cut in rnd.sample(range(len(got)), 4):  # resume after any frame: the rest, once
            assert stream(base, gid, bearer(player), got[cut][0]) == got[cut + 1 :]
