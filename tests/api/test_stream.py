"""The SSE feed delivers every event to each seat, in order, redacted, across reconnects."""

import json
import random
import threading

import requests

from events.fold import fold_all
from events.record import ACTIVE, Record
from events.recorder import RedisRecorder
from events.redact import redact
from events.repository import GameRepository
from tests.api.helpers import bearer, random_action


class Reader:
    """Reads a game's SSE stream for one caller, reconnecting once with Last-Event-ID."""

    def __init__(self, base: str, gid: str, headers: dict, drop_after: int):
        self.url, self.headers, self.drop_after = (
            f"{base}/v1/games/{gid}/events/stream",
            headers,
            drop_after,
        )
        self.events: list[dict] = []
        self.reconnects = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self) -> None:
        last = None
        while True:
            headers = {**self.headers, **({"Last-Event-ID": str(last)} if last else {})}
            with requests.get(self.url, headers=headers, stream=True, timeout=30) as res:
                assert res.headers["Content-Type"].startswith("text/event-stream")
                frame: dict = {}
                for line in res.iter_lines(decode_unicode=True):
                    if line.startswith("id: "):
                        frame["id"] = int(line[4:])
                    elif line.startswith("data: "):
                        frame["data"] = json.loads(line[6:])
                    elif line.startswith("event: "):
                        frame["event"] = line[7:]
                    elif line == "" and frame.get("event") in ("owes", "chat"):
                        frame = {}  # no event of the log: where the game stands, chat
                    elif line == "" and "data" in frame:
                        owes = frame["data"].pop("owes", None)  # beside the envelope
                        assert owes is None or "Authorization" in self.headers
                        self.events.append(frame["data"])
                        last = frame["id"]
                        frame = {}
                        if frame_is_end(self.events[-1]):
                            return
                        if len(self.events) == self.drop_after and not self.reconnects:
                            self.reconnects += 1
                            break  # a dropped connection: resume from the last id


def frame_is_end(event: dict) -> bool:
    return event["type"] == "game.Ended"


def test_each_seat_gets_every_event_in_order_redacted_across_a_reconnect(live_server, redis_url):
    import redis

    base, s, rnd = live_server, requests.Session(), random.Random(8)
    players = [s.post(f"{base}/v1/players", json={"name": f"p{i}"}).json() for i in range(3)]
    gid = s.post(
        f"{base}/v1/games",
        json={"ruleset": "goblin-market", "players": 3},
        headers=bearer(players[0]),
    ).json()["id"]
    readers = [Reader(base, gid, bearer(p), drop_after=12) for p in players]
    readers.append(Reader(base, gid, {}, drop_after=20))  # a spectator
    for r in readers:
        r.thread.start()
    for p in players:
        s.post(f"{base}/v1/games/{gid}/join", headers=bearer(p))
    seats = {s.get(f"{base}/v1/games/{gid}", headers=bearer(p)).json()["you"]: p for p in players}
    while (game := s.get(f"{base}/v1/games/{gid}").json())["status"] == "active":
        seat = game["owed"][0]["seat"]
        legal = s.get(f"{base}/v1/games/{gid}/legal", headers=bearer(seats[seat])).json()
        s.post(
            f"{base}/v1/games/{gid}/actions",
            json=random_action(rnd, legal["actions"]),
            headers=bearer(seats[seat]),
        )
    for r in readers:
        r.thread.join(30)
        assert not r.thread.is_alive()
    log = GameRepository(RedisRecorder(redis.Redis.from_url(redis_url))).read(gid)
    during = fold_all(Record(gid), log[:-1])
    assert during.status == ACTIVE
    you = {p["id"]: seat for seat, p in seats.items()}
    for reader, player in zip(readers, [*players, None]):
        assert reader.reconnects == 1
        assert [e["seq"] for e in reader.events] == list(range(1, len(log) + 1))
        seat = you[player["id"]] if player else None
        expected = [redact(env, during, seat) for env in log[:-1]] + [log[-1]]
        assert reader.events == expected
        hidden = [e for e in reader.events if e.get("redacted")]
        assert hidden and all("salt" not in e for e in hidden)
