"""Redis memory per event and per finished game, per ruleset.

    python -m bench.storage.memory [--redis URL] [--games 2]

Plays random games to the end in this process through the service's own use cases
(`service.game_commands`: the functions the API views call, so Redis holds exactly what the
API writes: envelopes, snapshots, idempotency results, the seed), then asks Redis
`MEMORY USAGE <key> SAMPLES 0` for each of the game's keys (every key with its hash tag
`{g:<id>}`) plus its share of the global index of games (`mf:games`; a finished game has
left the deadline index and its players' game sets). Without --redis it starts an
embedded one. Target: at most 500 bytes per event in all, over the finished games of
every ruleset.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import uuid
from collections import defaultdict

import games
from cli import compose
from cli.embedded import EmbeddedRedis, free_port
from events import keys
from games.schemas import random_action
from service import config, deadline_commands, game_commands
from service.bootstrap import Bootstrap as Deps
from service.players import create_player


def deps_for(redis_url: str) -> Deps:
    """Build the service's connections for `redis_url`."""
    cfg = {**config.load(), "REDIS_URL": redis_url, "RQ_REDIS_URL": redis_url}
    return compose.connect(cfg)


def seated(deps: Deps, ruleset: str, players: int, timeout: int | None = None):
    """Create a game through the use cases and seat `players` new players; return
    (game id, {player id: seat})."""
    people = [create_player(deps, f"m{i}") for i in range(players)]
    created = game_commands.create_game(deps, people[0]["id"], ruleset, players, {}, timeout)
    gid = created.record.game_id
    for p in people:
        game_commands.join(deps, gid, {"id": p["id"], "name": p["name"]})
    rec = deps.store.load(gid).record
    return gid, {s.seat: s.player for s in rec.seats}


def play_out(deps: Deps, gid: str, players: dict[int, str], seed: int) -> int:
    """Play random legal actions (resolving ready phases) to the end; return the actions."""
    rnd, made = random.Random(seed), 0
    while True:
        rec = deps.store.load(gid).record
        if rec.status != "active":
            return made
        if (phase := rec.game.ready(rec.state)) is not None:
            deadline_commands.resolve(deps, gid, phase)
            continue
        owed = rnd.choice(rec.owed())
        specs = [vars(s) for s in rec.game.legal(rec.state, owed.seat)]
        action = random_action(specs, rnd)
        game_commands.act(deps, gid, players[owed.seat], action, uuid.uuid4().hex, None)
        made += 1


def game_bytes(deps: Deps, gid: str) -> dict[str, int]:
    """Return MEMORY USAGE of each of the game's keys, by key suffix."""
    out = {}
    for key in deps.redis.scan_iter(match=f"{keys.PREFIX}:{{g:{gid}}}:*", count=1000):
        out[key.decode().rsplit(":", 1)[1]] = deps.redis.memory_usage(key, samples=0) or 0
    return out


def index_share(deps: Deps) -> float:
    """Return the bytes of the index of games per game in it."""
    count = deps.redis.zcard(keys.games()) or 1
    return (deps.redis.memory_usage(keys.games(), samples=0) or 0) / count


def measure(deps: Deps, per_ruleset: int) -> dict[str, dict[str, float]]:
    """Play `per_ruleset` finished games of each ruleset; return averages per ruleset."""
    out = {}
    for ruleset, game in sorted(games.REGISTRY.items()):
        totals, events = defaultdict(int), 0
        for i in range(per_ruleset):
            players = (game.min_players, game.max_players)[i % 2]
            gid, seats = seated(deps, ruleset, players)
            play_out(deps, gid, seats, i)
            events += deps.redis.xlen(keys.game_events(gid))
            for suffix, size in game_bytes(deps, gid).items():
                totals[suffix] += size
        totals["index"] = index_share(deps) * per_ruleset
        out[ruleset] = {
            "events_per_game": events / per_ruleset,
            "per_event": totals["events"] / events,
            "per_game": sum(totals.values()) / per_ruleset,
            **{f"key:{k}": v / per_ruleset for k, v in totals.items()},
        }
    return out


def memory_table(figures: dict[str, dict[str, float]]) -> list[str]:
    """Return the Markdown table for `measure`'s figures."""
    rows = [
        "| ruleset | events/game | stream bytes/event | bytes/finished game | stream | "
        "snapshot | idempotency | seed | index | total bytes/event |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for ruleset, f in figures.items():
        rows.append(
            f"| {ruleset} | {f['events_per_game']:,.0f} | {f['per_event']:,.0f} | "
            f"{f['per_game']:,.0f} | {f.get('key:events', 0):,.0f} | "
            f"{f.get('key:snapshot', 0):,.0f} | {f.get('key:idem', 0):,.0f} | "
            f"{f.get('key:seed', 0):,.0f} | {f.get('key:index', 0):,.0f} | "
            f"{f['per_game'] / f['events_per_game']:,.0f} |"
        )
    total = sum(f["per_game"] for f in figures.values())
    events = sum(f["events_per_game"] for f in figures.values())
    rows.append("")
    rows.append(
        f"All rulesets: {total / events:,.0f} bytes per event in all (every key a finished "
        "game keeps; target <= 500)"
    )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--redis", help="a Redis URL (default: start an embedded one)")
    ap.add_argument("--games", type=int, default=2, help="finished games per ruleset")
    args = ap.parse_args()
    server = None
    if not args.redis:
        server = EmbeddedRedis(tempfile.mkdtemp(prefix="mf-bench-"), port=free_port()).start()
    try:
        deps = deps_for(args.redis or server.url)
        print("\n".join(memory_table(measure(deps, args.games))))
    finally:
        if server:
            server.stop()


if __name__ == "__main__":
    main()
