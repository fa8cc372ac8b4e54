"""/healthz under cheap abuse: costly requests, and bodies that never arrive (#27.6).

    python -m bench.reliability.abuse [--seconds 15] [--slow 4300] [--tokens 5] [--compare]

Two attacks on the API served as `marketfold serve` serves it (gunicorn, two gevent
processes, embedded Valkey), each while one probe GETs /healthz every 20 ms:

1. costly requests: 4 anonymous clients, each in a loop: `POST /v1/verify` of a
   1,926-event GobCon bundle (random play, about 1.6 MB), then `GET
   /v1/games/{id}/state?at=N` at a random N of the same game's log, stored in Redis;
2. slow bodies: `--slow` connections from `--tokens` tokens, each sending a `POST
   /v1/games` header (Content-Length 10,000) and then one byte a second; every answered
   or closed connection is opened again at once, so that the attack keeps that many
   going. The attacker runs in a child process (epoll), the probe in this one.

Target for both: /healthz p99 under 100 ms. `--compare` runs both again on a second
server with the defences off (`OFFLOAD_PROCESSES=0`, no body deadline, no upload caps):
the figures before #27.6. Rate limits are lifted (bench.common), so what is measured is
the defence itself, not the limiter.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import selectors
import socket
import tempfile
import threading
import time
from collections import Counter

import redis
import requests

from bench.audit.verify import finished_bundle
from bench.common import gunicorn, percentile, stop
from cli.embedded import EmbeddedRedis, free_port
from cli.serve import raise_open_files_limit
from events.recorder import RedisRecorder
from events.repository import GameAppend, GameRepository
from tests.support.waiting import wait_up

DEFENCES_OFF = {
    "MARKETFOLD_OFFLOAD_PROCESSES": "0",
    "MARKETFOLD_BODY_TIMEOUT_S": "100000",
    "MARKETFOLD_UPLOADS_PER_TOKEN": "1000000",
    "MARKETFOLD_UPLOADS_PER_ADDRESS": "1000000",
}
PROBE_TIMEOUT_S = 5.0  # a probe that times out counts as this long


def long_game(redis_url: str) -> tuple[bytes, str, int]:
    """Return a long finished bundle's bytes, and its game's id and length once its log
    is in Redis (as the service would have written it)."""
    bundle = finished_bundle("gobcon", 6, 5)
    store = GameRepository(RedisRecorder(redis.Redis.from_url(redis_url)))
    gid = bundle["game"]["id"]
    if not store.exists(gid):
        store.append(GameAppend(game_id=gid, envelopes=bundle["events"], expected=0))
    return json.dumps(bundle).encode(), gid, len(bundle["events"])


def probe(base: str, stop_at: threading.Event) -> tuple[list[float], int]:
    """GET /healthz every 20 ms until `stop_at`; return latencies and failures."""
    s, out, failed = requests.Session(), [], 0
    while not stop_at.is_set():
        t0 = time.perf_counter()
        try:
            ok = s.get(base + "/healthz", timeout=PROBE_TIMEOUT_S).status_code == 200
        except requests.RequestException:
            ok = False
        out.append(time.perf_counter() - t0 if ok else PROBE_TIMEOUT_S)
        failed += not ok
        time.sleep(0.02)
    return out, failed


def costly(base: str, raw: bytes, gid: str, events: int, seconds: float, clients: int = 4):
    """Run the costly clients for `seconds`; return (verify s, state s, statuses)."""
    verify, state, statuses = [], [], Counter()
    ends = time.monotonic() + seconds

    def client(n: int) -> None:
        s, rnd = requests.Session(), random.Random(n)
        while time.monotonic() < ends:
            t0 = time.perf_counter()
            res = s.post(base + "/v1/verify", data=raw, timeout=120)
            verify.append(time.perf_counter() - t0)
            statuses[res.status_code] += 1
            for _ in range(3):
                t0 = time.perf_counter()
                at = rnd.randint(1, events)
                res = s.get(f"{base}/v1/games/{gid}/state?at={at}", timeout=120)
                state.append(time.perf_counter() - t0)
                statuses[res.status_code] += 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return verify, state, statuses


def attack(port: int, tokens: list[str], total: int, seconds: float, conn) -> None:
    """Keep `total` slow POSTs going for `seconds` (the child process); send back the
    counts of answers by status, connects that failed, and connections opened."""
    raise_open_files_limit()
    sel, counts, opened, failed = selectors.DefaultSelector(), Counter(), 0, 0
    heads = [
        (
            "POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: 10000\r\nAuthorization: Bearer {t}\r\n\r\n{{"
        ).encode()
        for t in tokens
    ]

    def open_one(n: int) -> None:
        nonlocal opened, failed
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=0.5)
            sock.sendall(heads[n % len(heads)])
            sock.setblocking(False)
            sel.register(sock, selectors.EVENT_READ, n)
            opened += 1
        except OSError:
            failed += 1

    ends, last_trickle = time.monotonic() + seconds, time.monotonic()
    for n in range(total):
        open_one(n)
    while time.monotonic() < ends:
        for key, _ in sel.select(timeout=0.05):
            sock = key.fileobj
            try:
                data = sock.recv(4096)
            except OSError:
                data = b""
            status = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed"
            counts[status] += 1
            sel.unregister(sock)
            sock.close()
            open_one(key.data)
        if time.monotonic() - last_trickle >= 1.0:
            last_trickle = time.monotonic()
            for key in list(sel.get_map().values()):
                try:
                    key.fileobj.send(b" ")
                except OSError:
                    pass
    for key in list(sel.get_map().values()):
        key.fileobj.close()
    conn.send((dict(counts), failed, opened))


def slow_bodies(base: str, port: int, total: int, n_tokens: int, seconds: float):
    """Run the slow-body attack for `seconds`; return (answers, failed connects, opened)."""
    s = requests.Session()
    tokens = [
        s.post(f"{base}/v1/players", json={"name": f"slow-{i}"}, timeout=10).json()["token"]
        for i in range(n_tokens)
    ]
    return in_child(attack, port, tokens, total, seconds)


def in_child(target, *args):
    """Run `target(*args, conn)` in a child process; return what it sends back."""
    ours, theirs = multiprocessing.Pipe()
    proc = multiprocessing.Process(target=target, args=(*args, theirs))
    proc.start()
    answers = ours.recv()
    proc.join(30)
    return answers


def hostile_bodies(raw: bytes) -> list[tuple[str, bytes]]:
    """Bundles sent to `POST /v1/verify` by the mixed load's hostile clients: 15 MB of
    brackets (refused 422), one over the 16 MiB limit (413), one nested past the depth
    limit, and a real 1.6 MB bundle (verified)."""
    brackets = b'{"game": ' + b"[" * 7_500_000 + b"]" * 7_500_000 + b"}"
    deep = b'{"events": [' + b'{"a": ' * 5000 + b"1" + b"}" * 5000 + b"]}"
    return [
        ("brackets", brackets),
        ("too large", b" " * (16 * 1024 * 1024 + 1)),
        ("deep", deep),
        ("real", raw),
    ]


def mixed_load(port: int, raw: bytes, seconds: float, clients: int, conn) -> None:
    """The mixed hostile load (issue #49.6), in a child process so that its threads
    never hold the probe's interpreter: half the clients send hostile bundles in a loop,
    the other half upload a real bundle slowly (64 KiB every 50 ms, chunked or with a
    length); send back the answers by kind and status."""
    bodies, counts, ends = hostile_bodies(raw), Counter(), time.monotonic() + seconds

    def send(body: bytes, chunked: bool, pause: float) -> str:
        sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        try:
            framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {len(body)}"
            head = f"POST /v1/verify HTTP/1.1\r\nHost: x\r\n{framing}\r\n"
            sock.sendall(f"{head}Content-Type: application/json\r\n\r\n".encode())
            step = 64 * 1024 if pause else 4 * 1024 if chunked else 1024 * 1024
            for i in range(0, len(body), step):
                piece = body[i : i + step]
                sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
                if pause:
                    time.sleep(pause)
            if chunked:
                sock.sendall(b"0\r\n\r\n")
            answer = sock.recv(64)
            return answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/") else "closed"
        except OSError:
            return "cut"
        finally:
            sock.close()

    def hostile(n: int) -> None:
        i = n
        while time.monotonic() < ends:
            kind, body = bodies[i % len(bodies)]
            counts[f"{kind} {send(body, chunked=i % 2 == 1, pause=0)}"] += 1
            i += 1

    def slow(n: int) -> None:
        while time.monotonic() < ends:
            counts[f"slow {send(raw, chunked=n % 2 == 1, pause=0.05)}"] += 1

    threads = [
        threading.Thread(target=hostile if n % 2 == 0 else slow, args=(n,)) for n in range(clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    conn.send(dict(counts))


def mixed(port: int, raw: bytes, seconds: float, clients: int = 8) -> dict[str, int]:
    return in_child(mixed_load, port, raw, seconds, clients)


def ms(values: list[float], p: float) -> str:
    return f"{percentile(values, p) * 1e3:.1f}" if values else "-"


def under(base: str, work) -> tuple[object, list[float], int]:
    """Run `work()` while probing /healthz; return its result, latencies and failures."""
    done, out = threading.Event(), {}
    t = threading.Thread(target=lambda: out.update(r=probe(base, done)))
    t.start()
    try:
        result = work()
    finally:
        done.set()
        t.join()
    return result, *out["r"]


def rows(base: str, port: int, redis_url: str, args, label: str = "on") -> list[str]:
    """Measure idle, costly and slow-body /healthz figures; return table rows."""
    raw, gid, events = long_game(redis_url)
    requests.post(base + "/v1/verify", data=b"{}", timeout=60)  # the helpers are up
    out = []
    _, idle, failed = under(base, lambda: time.sleep(3))
    out.append(f"| {label} | idle | {ms(idle, 50)} | {ms(idle, 99)} | {failed} | |")
    work = lambda: costly(base, raw, gid, events, args.seconds)  # noqa: E731
    (verify, state, statuses), lat, failed = under(base, work)
    note = (
        f"{len(verify)} verifies (p50 {ms(verify, 50)} ms), {len(state)} states "
        f"(p50 {ms(state, 50)} ms, p99 {ms(state, 99)} ms); answers {dict(statuses)}"
    )
    out.append(
        f"| {label} | 4 clients verifying + state?at | {ms(lat, 50)} | {ms(lat, 99)} | "
        f"{failed} | {note} |"
    )
    work = lambda: mixed(port, raw, args.seconds)  # noqa: E731
    answers, lat, failed = under(base, work)
    out.append(
        f"| {label} | 8 clients: hostile bundles + slow uploads | {ms(lat, 50)} | "
        f"{ms(lat, 99)} | {failed} | answers {answers} |"
    )
    if args.only_mixed:
        return out
    work = lambda: slow_bodies(base, port, args.slow, args.tokens, args.seconds)  # noqa: E731
    (answers, refused, opened), lat, failed = under(base, work)
    note = f"{opened} connections opened ({refused} connects failed); answers {answers}"
    out.append(
        f"| {label} | {args.slow} slow POSTs, {args.tokens} tokens | {ms(lat, 50)} | "
        f"{ms(lat, 99)} | {failed} | {note} |"
    )
    return out


HEAD = [
    "| defences | load | /healthz p50 ms | p99 ms | probes failed | what the load got |",
    "| --- | --- | --- | --- | --- | --- |",
]


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--slow", type=int, default=4300)
    ap.add_argument("--tokens", type=int, default=5)
    ap.add_argument("--compare", action="store_true", help="also with the defences off")
    ap.add_argument("--only-mixed", action="store_true", help="idle, costly and mixed only")
    return ap


def serve_and_measure(args, env: dict[str, str], label: str) -> list[str]:
    server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-bench-"), port=free_port()).start()
    port = free_port()
    procs = [gunicorn("cli.wsgi:app", port, server.url, **env)]
    base = f"http://127.0.0.1:{port}"
    try:
        wait_up(base + "/healthz")
        return rows(base, port, server.url, args, label)
    finally:
        stop(procs)
        server.stop()


def main() -> None:
    args = parser().parse_args()
    raise_open_files_limit()
    table = HEAD + serve_and_measure(args, {}, "on")
    print("\n".join(table), flush=True)
    if args.compare:
        table += serve_and_measure(args, DEFENCES_OFF, "off")
        print("\n".join(table[-3:]), flush=True)
    print("target: /healthz p99 under 100 ms with the defences on")


if __name__ == "__main__":
    main()
