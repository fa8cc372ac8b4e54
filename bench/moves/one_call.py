"""The one-call client of the benchmarks: each seat follows its game's event stream and
moves with one `POST /actions` per move (docs/clients.md, "A move in one call").

A seat learns that it owes a decision, and its legal actions, from its stream's `owes`
frame, or from the answer to its own last action when it owes again at once (the
answer's `actions`); it never asks `GET /legal`. The streams are read with plain
sockets (one per seat, as separate clients would hold them), and only `owes` frames are
decoded: the event frames are read and skipped.
"""

from __future__ import annotations

import json
import random
import selectors
import socket
import time
from urllib.parse import urlsplit

import requests

from games.schemas import random_action

WAIT_S = 10.0  # a frame that takes longer than this is a failure


class SeatStream:
    """One seat's open event stream of one game: its newest `owes` frame."""

    def __init__(self, base: str, game_id: str, token: str):
        url = urlsplit(base)
        self.sock = socket.create_connection((url.hostname, url.port or 80))
        request = (
            f"GET /v1/games/{game_id}/events/stream HTTP/1.1\r\nHost: bench\r\n"
            f"Authorization: Bearer {token}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer, self.head = b"", True
        self.owes: dict | None = None  # the newest owes frame's data

    def fileno(self) -> int:
        return self.sock.fileno()

    def read(self) -> bool:
        """Read what has arrived (the socket is ready); False once the server closed it."""
        data = self.sock.recv(65536)
        if not data:
            return False
        self.buffer += data
        if self.head:  # the HTTP head, once
            if b"\r\n\r\n" not in self.buffer:
                return True
            head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"stream refused: {head[:80]!r}")
            self.head = False
        *blocks, self.buffer = self.buffer.split(b"\n\n")
        for block in blocks:  # chunk-size lines sit between blocks: read line by line
            if b"event: owes" not in block:
                continue
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    self.owes = json.loads(line[6:])
        return True

    def close(self) -> None:
        self.sock.close()


class Table:
    """A seated game's streams, one per seat, read on one selector."""

    def __init__(self, base: str, game_id: str, seats: dict[int, dict[str, str]]):
        self.streams = {
            seat: SeatStream(base, game_id, h["Authorization"].split()[1])
            for seat, h in seats.items()
        }
        self.selector = selectors.DefaultSelector()
        for stream in self.streams.values():
            self.selector.register(stream, selectors.EVENT_READ)

    def pump(self, timeout: float) -> None:
        """Read every stream that has something, waiting up to `timeout` for one."""
        for key, _ in self.selector.select(timeout):
            if not key.fileobj.read():
                self.selector.unregister(key.fileobj)

    def actions(self, seat: int, since: int) -> tuple[int, list[dict]]:
        """Wait for the seat's `owes` frame at version `since` or later that gives it
        actions; return (version, actions)."""
        stream, ends = self.streams[seat], time.monotonic() + WAIT_S
        self.pump(0)
        while True:
            said = stream.owes
            if said is not None and said["version"] >= since and said["actions"]:
                return said["version"], said["actions"]
            if time.monotonic() > ends:
                raise TimeoutError(f"seat {seat} got no owes frame at version {since}")
            self.pump(0.5)

    def close(self) -> None:
        self.selector.close()
        for stream in self.streams.values():
            stream.close()


def play_one_call(
    base: str, s: requests.Session, gid: str, seats: dict, seed: int, latencies: list[float]
) -> int:
    """Play a seated game to the end with random legal moves, one timed POST per move:
    each seat acts from its stream's `owes` frame, or from its last answer's `actions`
    while it owes again at once. Return the actions made."""
    rnd, made = random.Random(seed), 0
    table = Table(base, gid, seats)
    try:
        owed = s.get(f"{base}/v1/games/{gid}").json()["owed"]
        version, last_seat, last_actions = 0, None, []
        while owed:
            seat = owed[0]["seat"]
            if seat == last_seat and last_actions:
                actions = last_actions
            else:
                _, actions = table.actions(seat, version)  # the frame of the last append
            action = random_action(actions, rnd)
            t0 = time.perf_counter()
            r = s.post(f"{base}/v1/games/{gid}/actions", json=action, headers=seats[seat])
            latencies.append(time.perf_counter() - t0)
            r.raise_for_status()
            answer = r.json()
            version, owed, made = answer["version"], answer["owed"], made + 1
            last_seat, last_actions = seat, answer["actions"]
    finally:
        table.close()
    return made
