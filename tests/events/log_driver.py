"""A game's log written without Redis, the way the service writes it: each command decided
by `events.decide`, stamped into envelopes, sealed, folded, and closed by
`events.ending` (game.Ended). For scenario tests of the end rules and of the audit."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import games
from events import codec, ending, envelope, redecide
from events.audit import bundle
from events.fold import fold_all
from events.record import Record
from games import schemas
from games.base import Event
from games.rng import Rng, commitment

SEED = b"s" * 32
T0 = datetime(2030, 1, 1, tzinfo=UTC)


class Log:
    """One game's log in memory; its clock advances a second per command."""

    def __init__(self, ruleset: str, players: int, timeout: int | None = 60):
        game = games.get(ruleset)
        self.rec, self.envelopes, self.minutes = Record("g_test"), [], 0
        created = {
            "ruleset": ruleset,
            "rules_version": game.rules_version,
            "players": players,
            "options": game.normalize_options({}, players),
            "decision_timeout_s": timeout,
            "creator": "p_x",
            "game_id": "g_test",
            "seed_commitment": commitment("g_test", SEED),
        }
        self._append("system", [Event("game.Created", created)], {"type": "create"})
        for i in range(players):
            self.run({"type": "join", "player": f"p{i}", "name": f"n{i}"})

    def now(self) -> str:
        self.minutes += 1
        at = T0 + timedelta(seconds=self.minutes)
        return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def run(self, cmd: dict[str, Any]) -> list[dict[str, Any]]:
        """Decide `cmd` as the service would, append and fold it; return its envelopes."""
        actor, events = redecide.command(self.rec, cmd, Rng(SEED, self.rec.draws))
        return self._append(actor, events, cmd) if events else []

    def _append(self, actor, events: list[Event], cmd: dict[str, Any]) -> list[dict[str, Any]]:
        rng_before, at = self.rec.draws, self.now()
        rng = Rng(SEED, rng_before)
        if cmd["type"] != "create":  # decide again with a counting rng, as the loop does
            actor, events = redecide.command(self.rec, cmd, rng)
        envs = envelope.build(events, self.rec.version, actor, "test", at)
        if rng.counter > rng_before:
            envs[0]["draws"] = [rng_before, rng.counter]
        envs[0]["command"] = cmd
        new = fold_all(self.rec, codec.seal(envs, self.rec.last_hash))
        if ending.ends_now(new):
            result = ending.result(new, ending.reason(new) or "completed")
            more = envelope.build(
                [Event("game.Ended", {"result": result, "seed": SEED.hex()})],
                new.version,
                "system",
                "test",
                at,
            )
            envs += codec.seal(more, new.last_hash)
            new = fold_all(new, envs[-len(more) :])
        self.rec = new
        self.envelopes += envs
        return envs

    def expire_next(self) -> None:
        """Expire the first decision owed (its deadline has passed on this clock), or
        resolve a ready phase as a worker would."""
        if (phase := self.rec.game.ready(self.rec.state)) is not None:
            self.run({"type": "resolve", "key": phase})
            return
        key = self.rec.owed()[0].key
        self.minutes += 24 * 3600  # far past any deadline
        self.run({"type": "expire", "key": key})

    def act_randomly(self, pick: random.Random, seats: set[int] | None = None) -> None:
        """A random owed seat (among `seats`) plays a random legal action; a ready phase
        is resolved instead."""
        if (phase := self.rec.game.ready(self.rec.state)) is not None:
            self.run({"type": "resolve", "key": phase})
            return
        owed = [o for o in self.rec.owed() if seats is None or o.seat in seats]
        o = pick.choice(owed)
        specs = [vars(s) for s in self.rec.game.legal(self.rec.state, o.seat)]
        action = schemas.random_action(specs, pick)
        self.run({"type": "act", "player": f"p{o.seat}", "action": action})

    def bundle(self) -> dict[str, Any]:
        return bundle(self.rec, self.envelopes, SEED.hex())
