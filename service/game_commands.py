"""What players and workers can do to a game, each a command on `service.loop`.

A league's table is created and filled by the same `create_game` and `join` as any other
game; it passes a fixed game id and is idempotent, since a league job may run twice.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import games
from events import codec, decide, keys, times
from events.store import Admission, Loaded
from games.base import Event, Game, RuleViolation
from games.rng import Rng, commitment
from service import loop, outages, stale_choice
from service.errors import Invalid
from service.game_log import GameLog
from service.loop import Outcome
from service.players import new_id
from service.ports import job_id

if TYPE_CHECKING:
    from events.record import Record
    from service.bootstrap import Bootstrap


def ruleset(name: str) -> Game:
    """Return the current rules of ruleset `name`, or raise Invalid."""
    game = games.get(name)
    if game is None:
        errors = {"ruleset": [f"must be one of {sorted(games.REGISTRY)}"]}
        raise Invalid("unknown_ruleset", f"no ruleset {name!r}", errors=errors)
    return game


def create_game(
    boot: Bootstrap,
    creator: str,
    name: str,
    players: int,
    options: dict,
    timeout: int | None,
    league: dict[str, Any] | None = None,
    terms: dict[str, Any] | None = None,
) -> Outcome:
    """Create a game waiting for its players; log the seed's commitment, keep the seed.

    A league's game (`league`: its id, round and table) has a fixed id, so creating it
    again changes nothing. `terms` (service.tables) are logged as `game.Terms` with it."""
    game = ruleset(name)
    if not game.min_players <= players <= game.max_players:
        span = f"{game.min_players} to {game.max_players}"
        errors = {"players": [f"must be from {span}"]}
        raise Invalid("invalid_players", f"{game.id} takes {span} players", errors=errors)
    options = game.normalize_options(options, players)
    game_id = league["game"] if league else new_id("g_")
    seed_key, seed = keys.game_seed(game_id), boot.new_seed()
    if not boot.redis.set(seed_key, seed, nx=True):  # racing league workers agree
        seed = boot.redis.get(seed_key)
    data = {
        "game_id": game_id,
        "ruleset": game.id,
        "rules_version": game.rules_version,
        "players": players,
        "options": options,
        "decision_timeout_s": timeout,
        "creator": creator,
        "seed_commitment": commitment(game_id, seed),
    }
    if league:
        data["league"] = {k: league[k] for k in ("id", "round", "table")}

    def decide_created(rec: Record, rng: Rng):
        if rec.version:
            return "system", []
        return "system", [
            Event("game.Created", data),
            *([Event("game.Terms", terms)] * bool(terms)),
        ]

    created = loop.run(
        boot,
        GameLog(boot, game_id, allow_new=True),
        decide_created,
        cause=f"create:{league['id'] if league else creator}",
        command={"type": "create"},
    )
    boot.redis.zadd(keys.games(), {game_id: time.time()}, nx=True)
    return created


def join(boot: Bootstrap, game_id: str, player: dict[str, str], again: bool = False) -> Outcome:
    """Seat the player; the last seat to fill starts the game. With `again`, a player
    already seated is no error (a league job seating its table a second time)."""

    def decide_join(rec: Record, rng: Rng):
        if again and rec.seat_of(player["id"]) is not None:
            return "system", []
        return "system", decide.join(rec, player["id"], player["name"], rng)

    command = {"type": "join", "player": player["id"], "name": player["name"]}
    log = GameLog(boot, game_id)
    return loop.run(boot, log, decide_join, cause=f"join:{player['id']}", command=command)


def act(
    boot: Bootstrap,
    game_id: str,
    player_id: str,
    action: dict[str, Any],
    idem: str,
    if_match: int | None,
    loaded: Loaded | None = None,
    admission: Admission | None = None,
) -> Outcome:
    """Apply one player's action; an action later than its decision's deadline plus the
    grace of the time model (events.times) is refused, its default is on its way.
    `loaded`: the game as the caller loaded it already with no idempotency key (`idem`
    is new); `admission`: what the append must check and count for a caller admitted
    without a round trip (events.store.Admission)."""

    def decide_act(rec: Record, rng: Rng):
        seat = rec.seat_of(player_id)
        if seat is not None and (late := times.overdue(rec, seat, datetime.now(UTC))):
            raise RuleViolation(
                f"decision {late[0]!r} was due at {late[1]}; its default is being applied",
                code="deadline_passed",
            )
        try:
            return decide.act(rec, player_id, action, rng)
        except RuleViolation as refused:  # maybe allowed at the version read (If-Match)
            raise stale_choice.refine(boot, rec, player_id, action, if_match, refused) from None

    return loop.run(
        boot,
        GameLog(boot, game_id, body=action, loaded=loaded, admission=admission),
        decide_act,
        cause=idem,
        idem=f"{player_id}:{idem}",
        if_match=if_match,
        command={"type": "act", "player": player_id, "action": action},
        stale_ok=lambda rec, version: version <= rec.version and rec.still_open(player_id, version),
    )


def resign(boot: Bootstrap, game_id: str, player_id: str) -> Outcome:
    """Resign the player's seat (its decisions are its defaults from now on, at once)."""
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: decide.resign(rec, player_id, rng),
        cause=f"resign:{player_id}",
        idem=f"resign:{player_id}",
        command={"type": "resign", "player": player_id},
    )


def abort(boot: Bootstrap, game_id: str, operator: str) -> Outcome:
    """End a game at once for an operator: `result.reason` "aborted"."""
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.abort(rec, operator)),
        cause=f"abort:{operator}",
        command={"type": "abort", "by": operator},
    )


def extend_after_outage(boot: Bootstrap, rec: Record, key: str, old: str) -> str | None:
    """Give owed decision `key` (due at `old`) a fresh deadline if `old` fell inside an
    outage or its grace window (service.outages); return the new deadline, or None."""
    new = outages.fresh_deadline(boot.redis, rec, boot.config, old, time.time())
    if new is None:
        return None
    command = {"type": "extend", "key": key, "old": old, "new": new, "reason": "outage"}
    loop.run(
        boot,
        GameLog(boot, rec.game_id, body=command),
        lambda r, rng: ("system", decide.extend(r, key, old, new, "outage")),
        cause=job_id("extend", rec.game_id, key),
        idem=f"system:extend-{key}-{old}",
        command=command,
    )
    deadline = boot.store.load(rec.game_id).record.deadline(key)  # as it stands now
    if deadline:
        boot.scheduler.expiry(rec.game_id, key, deadline)
    return deadline


def postpone_while_api_down(
    boot: Bootstrap, rec: Record, key: str, due_at: str, api: float | None
) -> bool:
    """Look at owed decision `key` (due at `due_at`) again a little later, without writing
    to the game, if the API (last beat `api`) has not beaten since its deadline or is down
    now (service.outages.wait_for_api); return True if postponed."""
    due, now = codec.parse_time(due_at).timestamp(), time.time()
    wait = outages.wait_for_api(api, due, now, float(boot.config["OUTAGE_AFTER_S"]))
    if due > now or not wait:
        return False
    boot.scheduler.expiry(rec.game_id, key, codec.iso(now + wait))
    return True


def expire(boot: Bootstrap, game_id: str, key: str) -> str:
    """Apply the defaults of decision (or phase) `key` if it is still owed and overdue,
    unless an outage covers its deadline (then it gets a fresh one: "extended") or the
    API has not been up since it (then it is looked at again later: "postponed")."""
    job = job_id("expire", game_id, key)
    outcome = {"status": "applied"}
    # the API's last beat first: an outage that beat ended is then on record below
    api = outages.last_api_beat(boot.redis)
    rec = boot.store.load(game_id).record
    deadline = rec.deadline(key)
    if deadline and any(o.key == key for o in rec.owed()):
        if extend_after_outage(boot, rec, key, deadline):
            return "extended"
        if postpone_while_api_down(boot, rec, key, deadline, api):
            return "postponed"

    def decide_expiry(rec: Record, rng: Rng):
        deadline = rec.deadline(key)
        if (
            deadline
            and codec.parse_time(deadline).timestamp() > time.time()
            and any(o.key == key for o in rec.owed())
        ):
            outcome["status"] = "early"
            boot.scheduler.expiry(game_id, key, deadline)
            return "system", []
        events = decide.expire(rec, key, rng)
        if not events:
            outcome["status"] = "noop"
        return "system", events

    done = _system(boot, game_id, key, job, decide_expiry, "expire")
    return outcome["status"] if done.created or outcome["status"] != "applied" else "noop"


def resolve(boot: Bootstrap, game_id: str, key: str) -> str:
    """Resolve simultaneous phase `key` once all its submissions are in."""
    job = job_id("resolve", game_id, key)

    def decide_resolution(rec: Record, rng: Rng):
        return "system", decide.resolve(rec, key, rng)

    done = _system(boot, game_id, key, job, decide_resolution, "resolve")
    return "resolved" if done.created else "noop"


def _system(boot: Bootstrap, game_id: str, key: str, job: str, decide_, kind: str) -> Outcome:
    """Run a worker's command on decision or phase `key`, once per job."""
    log = GameLog(boot, game_id, body=key)
    command = {"type": kind, "key": key}
    return loop.run(boot, log, decide_, cause=job, idem=f"system:{job}", command=command)
