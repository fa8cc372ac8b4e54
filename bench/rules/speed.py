"""The pure rules, without Redis or HTTP: whole games per second, and fold time per event.

    python -m bench.rules.speed [--seconds 2]

(1) Random games played to the end with only `games/` (setup, legal, decide, evolve,
resolve; event data through JSON as the service stores it), per ruleset and player count.
(2) `events.fold.fold_all` over finished logs (the envelopes the service writes, from
bench/audit/verify.py), per ruleset: microseconds per event, which bounds a cold load.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

import games
from events.fold import fold_all
from events.record import Record
from games.base import Event, Game
from games.rng import Rng
from games.schemas import random_action


def _apply(game: Game, state, events: list[Event]):
    for e in events:
        visible = e.visible_to if isinstance(e.visible_to, str) else tuple(e.visible_to)
        state = game.evolve(state, Event(e.type, json.loads(json.dumps(e.data)), visible))
    return state


def pure_game(game: Game, players: int, seed: int) -> tuple[int, int]:
    """Play one random game with the pure rules; return (decisions, events)."""
    pick, rng = random.Random(seed), Rng(hashlib.sha256(b"%d" % seed).digest())
    order = tuple(rng.shuffle(range(players)))
    events = game.setup(game.normalize_options({}, players), order, rng)
    state, decisions, count = _apply(game, None, events), 0, len(events)
    while not game.is_over(state):
        if game.ready(state) is not None:
            events = game.resolve(state, rng)
        else:
            owed = pick.choice(game.owed(state))
            specs = [vars(s) for s in game.legal(state, owed.seat)]
            events = game.decide(state, owed.seat, random_action(specs, pick), rng)
            decisions += 1
        state, count = _apply(game, state, events), count + len(events)
    return decisions, count


def games_per_second(ruleset: str, players: int, seconds: float) -> dict[str, float]:
    """Play random games for about `seconds` of CPU time; return the rates."""
    game, n, decisions, events = games.get(ruleset), 0, 0, 0
    started = time.process_time()
    while time.process_time() - started < seconds or n < 3:
        d, e = pure_game(game, players, n)
        n, decisions, events = n + 1, decisions + d, events + e
    spent = time.process_time() - started
    return {
        "games": n,
        "games_s": n / spent,
        "decisions_s": decisions / spent,
        "events_s": events / spent,
        "events_per_game": events / n,
    }


def fold_cost(ruleset: str, logs: int = 4, repeat: int = 3) -> dict[str, float]:
    """Time fold_all over finished logs of `ruleset`; return µs per event."""
    from bench.audit.verify import finished_bundle

    game = games.get(ruleset)
    bundles = [
        finished_bundle(ruleset, (game.min_players, game.max_players)[i % 2], i)
        for i in range(logs)
    ]
    events = sum(len(b["events"]) for b in bundles)
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for b in bundles:
            fold_all(Record(b["game"]["id"]), b["events"])
        best = min(best, time.process_time() - started)
    return {"events": events, "us_per_event": best / events * 1e6}


def rules_table(seconds: float) -> list[str]:
    """Return the Markdown table of pure-rules throughput."""
    rows = [
        "| ruleset | players | games/s | decisions/s | events/s | events/game |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for ruleset, game in sorted(games.REGISTRY.items()):
        for players in sorted({game.min_players, game.max_players}):
            f = games_per_second(ruleset, players, seconds)
            rows.append(
                f"| {ruleset} | {players} | {f['games_s']:,.1f} | "
                f"{f['decisions_s']:,.0f} | {f['events_s']:,.0f} | "
                f"{f['events_per_game']:,.0f} |"
            )
    return rows


def fold_table() -> list[str]:
    """Return the Markdown table of fold time per event."""
    rows = ["| ruleset | events folded | µs per event | events/s |", "| --- | --- | --- | --- |"]
    for ruleset in sorted(games.REGISTRY):
        f = fold_cost(ruleset)
        rows.append(
            f"| {ruleset} | {f['events']:,} | {f['us_per_event']:.1f} | "
            f"{1e6 / f['us_per_event']:,.0f} |"
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per row")
    args = ap.parse_args()
    print("\n".join(rules_table(args.seconds)))
    print()
    print("\n".join(fold_table()))


if __name__ == "__main__":
    main()
