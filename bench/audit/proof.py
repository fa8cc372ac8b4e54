"""What proof without trust costs (issue #32): the public log of games and the signatures.

    python -m bench.audit.proof [--leaves 100000] [--redis URL]

Against a real Valkey (an embedded one unless --redis): appends --leaves leaves to the
public log of games (events/tlog.py, one script call each, as the service does after a
game's writes), then times a signed tree head at that size with a cold and a warm
per-process tree, a game's receipt (three inclusion proofs), a consistency proof, and an
export's Ed25519 signature; prints the bytes each leaf keeps in Redis and the cost per
action, with a game's three leaves spread over the events of a finished game.
"""

from __future__ import annotations

import argparse
import tempfile
import time

import redis
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events import codec, signature, tlog_keys, transparency
from events.tlog import PublicLog

EVENTS_PER_GAME = 120  # a finished 3-player Goblin Market game logs about 120 events


def _leaf(i: int) -> str:
    gid = f"g_bench{i // 3:09d}"
    kind = transparency.KINDS[i % 3]
    if kind == "ended":
        return transparency.text(
            transparency.ended(gid, EVENTS_PER_GAME, "ab" * 32, {"winners": [0]})
        )
    if kind == "started":
        seats = [{"seat": s, "player": f"p_{s:012d}", "name": f"player {s}"} for s in range(3)]
        return transparency.text(transparency.started(gid, seats))
    env = {
        "at": codec.now_iso(),
        "data": {
            "game_id": gid,
            "ruleset": "goblin-market",
            "rules_version": 3,
            "players": 3,
            "options": {"edition": "en", "courts": True},
            "decision_timeout_s": 300,
            "seed_commitment": "cd" * 32,
        },
    }
    return transparency.text(transparency.created(env))


def _best(fn, times: int = 3) -> float:
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def rows(url: str, leaves: int) -> list[str]:
    client = redis.Redis.from_url(url)
    for key in (
        tlog_keys.tlog_hashes(),
        tlog_keys.tlog_texts(),
        tlog_keys.tlog_ids(),
        tlog_keys.tlog_head(),
    ):
        client.delete(key)
    log = PublicLog(client)
    key = Ed25519PrivateKey.generate()
    started = time.perf_counter()
    for i in range(leaves):
        log.append(f"bench:{i}", _leaf(i))
    append_us = (time.perf_counter() - started) / leaves * 1e6
    size = log.size()
    cold = _best(lambda: PublicLog(client).tree.root(size), 1)
    log.tree.root(size)
    warm = _best(lambda: transparency.sign_head(size, log.tree.root(size), codec.now_iso(), key))
    receipt = _best(lambda: [log.tree.inclusion(i, size) for i in (size - 3, size - 2, size - 1)])
    consistency = _best(lambda: log.tree.consistency(size // 2, size))
    bundle = {"format": "marketfold-bundle/1", "game": {"id": "g"}, "events": [{"hash": "ab" * 32}]}
    sign = _best(lambda: signature.sign(bundle, key), 20)
    kept = sum(
        client.memory_usage(k, samples=0) or 0
        for k in (tlog_keys.tlog_hashes(), tlog_keys.tlog_texts(), tlog_keys.tlog_ids())
    )
    per_action = 3 * append_us / EVENTS_PER_GAME
    return [
        "| measure | figure |",
        "| --- | --- |",
        f"| leaves in the log | {size:,} |",
        f"| append one leaf (one script call, client included) | {append_us:.0f} µs |",
        f"| per action: 3 leaves a game, ~{EVENTS_PER_GAME} events | {per_action:.1f} µs |",
        f"| Redis bytes kept per leaf (hash, text, id) | {kept / size:.0f} |",
        f"| signed tree head, a new process (reads every leaf hash once) | {cold * 1e3:.0f} ms |",
        f"| signed tree head, warm (complete subtrees kept) | {warm * 1e3:.2f} ms |",
        f"| a game's receipt: 3 inclusion proofs | {receipt * 1e3:.2f} ms |",
        f"| a consistency proof, half the log to all of it | {consistency * 1e3:.2f} ms |",
        f"| an export's Ed25519 signature | {sign * 1e6:.0f} µs |",
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--leaves", type=int, default=100_000)
    ap.add_argument("--redis", help="a Redis URL (default: an embedded Valkey)")
    args = ap.parse_args()
    server = None
    if not args.redis:
        from cli.embedded import EmbeddedRedis, free_port

        server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-proof-"), port=free_port()).start()
    try:
        print("\n".join(rows(args.redis or server.url, args.leaves)))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
