"""Events verified per second by the offline audit, over a batch of finished games.

    python -m bench.audit.verify [--games 8]

Plays random finished games of every ruleset with the pure rules (no server), builds
exactly the envelopes the service writes (hash chain, draws, commands, the revealed seed),
then times `events.audit.verify` on one core. Target: at least 10,000 events/s.
"""

from __future__ import annotations

import argparse
import time

import games
from events import audit
from tools import record_bundles


def finished_bundle(ruleset: str, players: int, seed: int) -> dict:
    """Play one random game with the pure (live) rules and return its export bundle."""
    return record_bundles.finished_bundle(ruleset, None, players, seed)


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
