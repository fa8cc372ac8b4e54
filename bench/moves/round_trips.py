"""Redis round trips per request, counted in this process with the API's own app.

    python -m bench.moves.round_trips [--redis URL]

Plays a few Goblin Market turns (with deadlines, so the deadline index is written too)
through the Flask test client, counting every command or pipeline redis-py sends
(a pipeline is one round trip; in a cluster, one per node it touches). Prints the count
for `POST /v1/games/{id}/actions` (right after the caller's `GET /legal`, and on a game
this process does not hold, as when the GET went to another API process) and for
`GET /v1/games/{id}/legal`, with what each trip was. Without --redis it starts an
embedded one.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections import Counter

import redis.connection

from cli.embedded import EmbeddedRedis, free_port
from games.schemas import random_action

FAST = {"RATE_LIMIT_TOKEN": "1000000/minute", "RATE_LIMIT_ANON": "1000000/minute"}


def _name(packed: bytes) -> str:
    """The commands of a packed request, e.g. "GET+EVAL" for a two-command pipeline."""
    names, i = [], 0
    while i < len(packed) and packed[i : i + 1] == b"*":
        end = packed.index(b"\r\n", i)
        argc, i = int(packed[i + 1 : end]), end + 2
        for a in range(argc):
            end = packed.index(b"\r\n", i)
            size = int(packed[i + 1 : end])
            if a == 0:
                names.append(packed[end + 2 : end + 2 + size].decode())
            i = end + 2 + size + 2
    return "+".join(names)


def count(redis_url: str, queue_url: str | None = None, turns: int = 8) -> dict[str, Counter]:
    """Return, per request kind, a Counter of the round trips seen per request."""
    from cli.compose import create_app

    app = create_app({**FAST, "REDIS_URL": redis_url, "RQ_REDIS_URL": queue_url or redis_url})
    client, rnd = app.test_client(), random.Random(7)
    people = [client.post("/v1/players", json={"name": f"rt{i}"}).get_json() for i in range(3)]
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    body = {"ruleset": "goblin-market", "players": 3, "decision_timeout_s": 3600}
    gid = client.post("/v1/games", json=body, headers=auth[0]).get_json()["id"]
    for h in auth:
        client.post(f"/v1/games/{gid}/join", headers=h)
    seats = {client.get(f"/v1/games/{gid}", headers=h).get_json()["you"]: h for h in auth}
    sent: list[str] = []
    original = redis.connection.Connection.send_packed_command

    def spy(self, command, check_health=True):
        packed = b"".join(command) if isinstance(command, list) else command
        sent.append(_name(packed if isinstance(packed, bytes) else packed.encode()))
        return original(self, command, check_health)

    held, elsewhere = "POST actions", "POST actions on a game this process does not hold"
    out: dict[str, Counter] = {held: Counter(), elsewhere: Counter(), "GET legal": Counter()}
    redis.connection.Connection.send_packed_command = spy
    try:
        for turn in range(2 * turns):
            owed = client.get(f"/v1/games/{gid}").get_json()["owed"]
            seat = owed[0]["seat"]
            sent.clear()
            legal = client.get(f"/v1/games/{gid}/legal", headers=seats[seat]).get_json()
            out["GET legal"][" | ".join(sent)] += 1
            if turn % 2:  # as if the GET had gone to another API process (service.admission)
                app.extensions["marketfold"].store.forget()
            sent.clear()
            client.post(
                f"/v1/games/{gid}/actions",
                json=random_action(legal["actions"], rnd),
                headers=seats[seat],
            )
            out[elsewhere if turn % 2 else held][" | ".join(sent)] += 1
    finally:
        redis.connection.Connection.send_packed_command = original
    return out


def summary(counts: dict[str, Counter]) -> list[str]:
    """One line per request kind: its most common round trips."""
    lines = []
    for kind, seen in counts.items():
        trips, _ = seen.most_common(1)[0]
        lines.append(f"- {kind}: {len(trips.split(' | '))} Redis round trips ({trips})")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--redis", help="a Redis URL (default: start an embedded one)")
    args = ap.parse_args()
    server = None
    if not args.redis:
        server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-rt-"), port=free_port()).start()
    try:
        print("\n".join(summary(count(args.redis or server.url))))
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    main()
