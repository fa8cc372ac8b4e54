"""Events verified per second by the offline audit, over a batch of finished games.

    python bench/verify.py [--games 8]

Plays random finished games of every ruleset with the pure rules (no server), builds
exactly the envelopes the service writes (hash chain, draws, commands, the revealed seed),
then times `events.audit.verify` on one core. Target: at least 10,000 events/s.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games  # noqa: E402
from events import audit, codec, decide, envelope  # noqa: E402
from events.record import Record, fold_all  # noqa: E402
from games.base import Event  # noqa: E402
from games.rng import Rng, commitment  # noqa: E402
from games.schemas import random_action  # noqa: E402


def _append(rec: Record, log: list, events: list[Event], actor, command: dict, draws) -> Record:
    envs = envelope.build(events, rec.version, actor, command["type"], codec.now_iso())
    envs[0]["command"] = command
    if draws[1] > draws[0]:
        envs[0]["draws"] = list(draws)
    codec.seal(envs, rec.last_hash)
    log += envs
    return fold_all(rec, envs)


def finished_bundle(ruleset: str, players: int, seed: int) -> dict:
    """Play one random game with the pure rules and return its export bundle."""
    game, pick, secret = (
        games.get(ruleset),
        random.Random(seed),
        hashlib.sha256(b"%d" % seed).digest(),
    )
    rec, log = Record(f"bench-{ruleset}-{seed}"), []
    created = {
        "game_id": rec.game_id,
        "ruleset": ruleset,
        "rules_version": game.rules_version,
        "players": players,
        "options": game.normalize_options({}, players),
        "decision_timeout_s": None,
        "creator": "bench",
        "seed_commitment": commitment(rec.game_id, secret),
    }
    rec = _append(rec, log, [Event("game.Created", created)], "system", {"type": "create"}, (0, 0))
    for n in range(players):
        rng = Rng(secret, rec.draws)
        events = decide.join(rec, f"p{n}", f"p{n}", rng)
        rec = _append(
            rec,
            log,
            events,
            "system",
            {"type": "join", "player": f"p{n}", "name": f"p{n}"},
            (rec.draws, rng.counter),
        )
    while not game.is_over(rec.state):
        rng = Rng(secret, rec.draws)
        if (phase := game.ready(rec.state)) is not None:
            events, actor, cmd = (
                decide.resolve(rec, phase, rng),
                "system",
                {"type": "resolve", "key": phase},
            )
        else:
            owed = pick.choice(game.owed(rec.state))
            specs = [vars(s) for s in game.legal(rec.state, owed.seat)]
            action = random_action(specs, pick)
            player = rec.seats[owed.seat].player
            actor, events = decide.act(rec, player, action, rng)
            cmd = {"type": "act", "player": player, "action": action}
        start = rec.draws
        rec = _append(rec, log, events, actor, cmd, (start, rng.counter))
    ended = {"result": game.result(rec.state).to_json(), "seed": secret.hex()}
    at = log[-1]["at"]  # game.Ended is part of the last command: the same time
    (env,) = envelope.build([Event("game.Ended", ended)], rec.version, "system", "end", at)
    log += codec.seal([env], rec.last_hash)
    return audit.bundle(fold_all(rec, [env]), log, secret.hex())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8, help="games per ruleset")
    args = ap.parse_args()
    print("| ruleset | games | events | events/s | all verified |")
    print("| --- | --- | --- | --- | --- |")
    total_events, total_time = 0, 0.0
    for ruleset, game in sorted(games.REGISTRY.items()):
        bundles = [
            finished_bundle(ruleset, (game.min_players, game.max_players)[i % 2], i)
            for i in range(args.games)
        ]
        events = sum(len(b["events"]) for b in bundles)
        t0 = time.process_time()
        ok = all(audit.verify(b).ok for b in bundles)
        spent = time.process_time() - t0
        total_events, total_time = total_events + events, total_time + spent
        print(f"| {ruleset} | {len(bundles)} | {events} | {events / spent:,.0f} | {ok} |")
    print(f"all: {total_events / total_time:,.0f} events/s on one core (target >= 10,000)")


if __name__ == "__main__":
    main()
