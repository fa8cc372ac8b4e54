"""Record one finished game per ruleset and rules version, played by that version's rules,
as the bundle the service exports: tests/data/bundles/<ruleset>-v<N>.json.

    python tools/record_bundles.py [RULESET-vN ...]

Plays a random game of 3 players with the pure rules (no server), builds exactly the
envelopes the service writes (hash chain, draws, commands, private steps where the version
keeps a private log, game.Ended with the revealed seed), and keeps the seed, out of the
first few, whose game is shortest. The bundles are committed: tests/events/test_recorded_bundles.py
verifies every one with `events.audit.verify` (and tools/rederive.js) on every run, so a
change to shared code that breaks an old rules version's games fails the suite. Record the
new version's bundle whenever a rules version is added (live or archived); never re-record
an old one (it stands for the games already played).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games  # noqa: E402
from events import audit, codec, decide, ending, envelope, redact, seating  # noqa: E402
from events.fold import fold_all  # noqa: E402
from events.record import Record  # noqa: E402
from games.base import Event  # noqa: E402
from games.rng import Rng, commitment  # noqa: E402
from games.schemas import random_action  # noqa: E402

OUT = ROOT / "tests" / "data" / "bundles"
PLAYERS = 3
SEEDS = range(12)  # the shortest game of these is recorded
# options that reach more of the rules than the defaults (Black Market's wild trade: private
# offers, in the private log from rules version 3, inline before)
OPTIONS = {"black-market": {"trade": "wild"}}


def versions() -> list[tuple[str, int]]:
    """Every (ruleset, rules version) marketfold can replay."""
    live = [(g.id, g.rules_version) for g in games.REGISTRY.values()]
    return sorted({*live, *games.ARCHIVE})


def _append(rec: Record, log: dict, events: list[Event], actor, command: dict, draws) -> Record:
    private = (lambda ev: redact.is_private(rec.game, ev)) if rec.ruleset else None
    envs = envelope.build(
        events, rec.version, actor, command["type"], codec.now_iso(), rec.private, private
    )
    envs[0]["command"] = command
    if draws[1] > draws[0]:
        envs[0]["draws"] = list(draws)
    codec.seal_logs(envs, rec.last_hash, rec.private_hash)
    for env in envs:
        log["private" if "private" in env else "public"].append(env)
    return fold_all(rec, envs)


def finished_bundle(
    ruleset: str, version: int | None, players: int, seed: int, options: dict | None = None
) -> dict:
    """Play one random game with the rules of `ruleset` at `version` (None: the live one),
    with `options` (none: the defaults), and return its export bundle."""
    game = games.get(ruleset, version)
    pick, secret = random.Random(seed), hashlib.sha256(b"%d" % seed).digest()
    rec, log = (
        Record(f"record-{ruleset}-v{game.rules_version}-{seed}"),
        {"public": [], "private": []},
    )
    created = {
        "game_id": rec.game_id,
        "ruleset": ruleset,
        "rules_version": game.rules_version,
        "players": players,
        "options": game.normalize_options(dict(options or {}), players),
        "decision_timeout_s": None,
        "creator": "recorder",
        "seed_commitment": commitment(rec.game_id, secret),
    }
    rec = _append(rec, log, [Event("game.Created", created)], "system", {"type": "create"}, (0, 0))
    for n in range(players):
        rng = Rng(secret, rec.draws)
        events = seating.join(rec, f"p{n}", f"p{n}", rng)
        command = {"type": "join", "player": f"p{n}", "name": f"p{n}"}
        rec = _append(rec, log, events, "system", command, (rec.draws, rng.counter))
    while not game.is_over(rec.state):
        rng, start = Rng(secret, rec.draws), rec.draws
        if (phase := game.ready(rec.state)) is not None:
            events, actor = decide.resolve(rec, phase, rng), "system"
            command = {"type": "resolve", "key": phase}
        else:
            owed = pick.choice(game.owed(rec.state))
            action = random_action([vars(s) for s in game.legal(rec.state, owed.seat)], pick)
            player = rec.seats[owed.seat].player
            actor, events = decide.act(rec, player, action, rng)
            command = {"type": "act", "player": player, "action": action}
        rec = _append(rec, log, events, actor, command, (start, rng.counter))
    ended = {"result": ending.result(rec, ending.reason(rec) or ""), "seed": secret.hex()}
    at = log["public"][-1]["at"]  # game.Ended is part of the last command: the same time
    (env,) = envelope.build([Event("game.Ended", ended)], rec.version, "system", "end", at)
    log["public"] += codec.seal([env], rec.last_hash)
    return audit.bundle(fold_all(rec, [env]), log["public"], secret.hex(), log["private"])


def record(ruleset: str, version: int) -> Path:
    """Write the shortest of a few verified games of `ruleset` at `version`; return its path."""
    best = None
    for seed in SEEDS:
        bundle = finished_bundle(ruleset, version, PLAYERS, seed, OPTIONS.get(ruleset))
        report = audit.verify(bundle)
        assert report.ok, report.to_text()
        if best is None or len(bundle["events"]) < len(best["events"]):
            best = bundle
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / f"{ruleset}-v{version}.json"
    path.write_text(json.dumps(best, separators=(",", ":"), sort_keys=True) + "\n", "utf-8")
    return path


if __name__ == "__main__":
    wanted = set(sys.argv[1:])
    for ruleset, version in versions():
        if not wanted or f"{ruleset}-v{version}" in wanted:
            path = record(ruleset, version)
            print(f"{path.relative_to(ROOT)}: {path.stat().st_size} bytes")
