"""What the API and the workers can do, each a command on the loop in `service.commands`."""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import games
from events import codec, decide, keys
from events.store import Loaded
from games.base import Event
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
    game_id, seed = new_id("g_"), deps.new_seed()
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

    def decide_join(loaded: Loaded, rng: Rng):
        return "system", decide.join(loaded.record, player["id"], player["name"], rng)

    command = {"type": "join", "player": player["id"], "name": player["name"]}
    return commands.run(deps, game_id, decide_join, cause=f"join:{player['id']}", command=command)


def act(
    deps: Deps,
    game_id: str,
    player_id: str,
    action: dict[str, Any],
    idem: str,
    if_match: int | None,
) -> Outcome:
    """Apply one player's action."""
    return commands.run(
        deps,
        game_id,
        lambda loaded, rng: decide.act(loaded.record, player_id, action, rng),
        cause=idem,
        idem=f"{player_id}:{idem}",
        body=action,
        if_match=if_match,
        command={"type": "act", "player": player_id, "action": action},
    )


def expire(deps: Deps, game_id: str, key: str, before_append=lambda: None) -> str:
    """Apply the defaults of decision (or phase) `key` if it is still owed and overdue."""
    job = schedule.job_id("expire", game_id, key)
    outcome = {"status": "applied"}

    def decide_expiry(loaded: Loaded, rng: Rng):
        rec = loaded.record
        deadline = rec.deadline(key)
        if (
            deadline
            and codec.parse_time(deadline) > datetime.now(UTC)
            and any(o.key == key for o in rec.owed())
        ):
            outcome["status"] = "early"
            schedule.expiry(deps, game_id, key, deadline)
            return "system", []
        events = decide.expire(rec, key, rng)
        if not events:
            outcome["status"] = "noop"
        before_append()
        return "system", events

    done = commands.run(
        deps,
        game_id,
        decide_expiry,
        cause=job,
        idem=f"system:{job}",
        body=key,
        command={"type": "expire", "key": key},
    )
    return outcome["status"] if done.created or outcome["status"] != "applied" else "noop"


def resolve(deps: Deps, game_id: str, key: str, before_append=lambda: None) -> str:
    """Resolve simultaneous phase `key` once all its submissions are in."""
    job = schedule.job_id("resolve", game_id, key)

    def decide_resolution(loaded: Loaded, rng: Rng):
        events = decide.resolve(loaded.record, key, rng)
        if events:
            before_append()
        return "system", events

    done = commands.run(
        deps,
        game_id,
        decide_resolution,
        cause=job,
        idem=f"system:{job}",
        body=key,
        command={"type": "resolve", "key": key},
    )
    return "resolved" if done.created else "noop"
