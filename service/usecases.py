"""What the API and the workers can do, each a command on the loop in `service.commands`."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import games
from events import codec, keys
from events.record import ACTIVE, FINISHED, WAITING
from events.store import Loaded
from games.base import Event, RuleViolation
from games.rng import Rng
from service import commands
from service.commands import Outcome
from service.errors import Problem
from workers import schedule

if TYPE_CHECKING:
    from service.deps import Deps


def new_id(prefix: str) -> str:
    """Return a fresh id made of [A-Za-z0-9_-] only."""
    return prefix + secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """Return the stored form of a bearer token."""
    return hashlib.sha256(token.encode()).hexdigest()


def create_player(deps: Deps, name: str) -> dict[str, str]:
    """Register a player; the token is returned once and only its hash is kept."""
    player_id, token = new_id("p_"), secrets.token_urlsafe(32)
    record = json.dumps({"id": player_id, "name": name})
    pipe = deps.redis.pipeline()
    pipe.hset(keys.player(player_id), mapping={"name": name, "token": hash_token(token)})
    pipe.set(keys.token(hash_token(token)), record)
    pipe.execute()
    return {"id": player_id, "name": name, "token": token}


def authenticate(deps: Deps, token: str) -> dict[str, str] | None:
    """Return {id, name} of the token's player, or None."""
    record = deps.redis.get(keys.token(hash_token(token)))
    return json.loads(record) if record else None


def create_game(
    deps: Deps, creator: str, ruleset: str, players: int, options: dict, timeout: int | None
) -> Outcome:
    """Create a game waiting for its players; log the seed's commitment, keep the seed."""
    game = games.get(ruleset)
    if game is None:
        raise Problem(
            422,
            "unknown_ruleset",
            f"no ruleset {ruleset!r}",
            errors={"ruleset": [f"must be one of {sorted(games.REGISTRY)}"]},
        )
    if not game.min_players <= players <= game.max_players:
        raise Problem(
            422,
            "invalid_players",
            f"{game.id} takes {game.min_players} to {game.max_players} players",
            errors={"players": [f"must be from {game.min_players} to {game.max_players}"]},
        )
    options = game.normalize_options(options, players)
    game_id, seed = new_id("g_"), secrets.token_bytes(32)
    deps.redis.set(keys.game_seed(game_id), seed)
    data = {
        "ruleset": game.id,
        "rules_version": game.rules_version,
        "players": players,
        "options": options,
        "decision_timeout_s": timeout,
        "creator": creator,
        "seed_commitment": hashlib.sha256(seed).hexdigest(),
    }
    created = commands.run(
        deps,
        game_id,
        lambda loaded, rng: ("system", [Event("game.Created", data)]),
        cause=f"create:{creator}",
        allow_new=True,
    )
    deps.redis.zadd(keys.games(), {game_id: datetime.now(UTC).timestamp()})
    return created


def join(deps: Deps, game_id: str, player: dict[str, str]) -> Outcome:
    """Seat the player; the last seat to fill starts the game."""

    def decide(loaded: Loaded, rng: Rng):
        rec = loaded.record
        if rec.status != WAITING:
            raise RuleViolation("the game has already started", code="game_not_waiting")
        if rec.seat_of(player["id"]) is not None:
            raise RuleViolation("you already hold a seat in this game", code="already_seated")
        seat = len(rec.seats)
        events = [
            Event(
                "game.PlayerJoined", {"seat": seat, "player": player["id"], "name": player["name"]}
            )
        ]
        if seat + 1 == rec.players:
            order = rng.shuffle(range(rec.players))
            events.append(Event("game.Started", {"order": order}))
            events += rec.game.setup(rec.options, tuple(order), rng)
        return "system", events

    return commands.run(deps, game_id, decide, cause=f"join:{player['id']}")


def act(
    deps: Deps,
    game_id: str,
    player_id: str,
    action: dict[str, Any],
    idem: str,
    if_match: int | None,
) -> Outcome:
    """Apply one player's action."""

    def decide(loaded: Loaded, rng: Rng):
        rec = loaded.record
        seat = seated(rec, player_id)
        if rec.status != ACTIVE:
            code = "game_over" if rec.status == FINISHED else "game_not_started"
            raise RuleViolation(f"the game is {rec.status}", code=code)
        return seat, rec.game.decide(rec.state, seat, action, rng)

    return commands.run(
        deps,
        game_id,
        decide,
        cause=idem,
        idem=f"{player_id}:{idem}",
        body=action,
        if_match=if_match,
    )


def seated(rec, player_id: str) -> int:
    """Return the caller's seat, or raise 403."""
    seat = rec.seat_of(player_id)
    if seat is None:
        raise Problem(403, "not_seated", "you hold no seat in this game")
    return seat


def expire(deps: Deps, game_id: str, key: str) -> str:
    """Apply the default action of decision `key` if it is still owed and overdue."""
    job = schedule.job_id(game_id, key)
    outcome: dict[str, str] = {"status": "applied"}

    def decide(loaded: Loaded, rng: Rng):
        rec = loaded.record
        owed = next((o for o in rec.owed() if o.key == key), None)
        if owed is None:
            outcome["status"] = "noop"
            return "system", []
        deadline = rec.deadline(key)
        if deadline and codec.parse_time(deadline) > datetime.now(UTC):
            outcome["status"] = "early"
            schedule.expiry(deps, game_id, key, deadline)
            return "system", []
        timed_out = Event(
            "game.DecisionTimedOut",
            {"seat": owed.seat, "kind": owed.kind, "key": key, "default": owed.default},
        )
        return "system", [timed_out, *rec.game.decide(rec.state, owed.seat, owed.default, rng)]

    done = commands.run(deps, game_id, decide, cause=job, idem=f"system:{job}", body=key)
    return outcome["status"] if done.created or outcome["status"] != "applied" else "noop"
