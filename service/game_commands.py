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
from events.decide import NotSeated
from events.refusals import GuardFailed, GuardRefused, StaleVersion
from events.repository import Loaded
from games.base import Event, Game, RuleViolation
from games.rng import Rng, commitment
from service import attempts, expiry, loop, metrics, outages, stale_choice, waiting
from service.admission import Admission, OverLimit, Recheck
from service.errors import DomainError, Invalid
from service.game_log import GameLog
from service.loop import Outcome
from service.players import new_id
from service.ports import Status, job_id

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
    if not league:
        waiting.check(boot, creator)
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
        if league.get("replay"):  # a table played again by an organizer's ruling
            data["league"]["replay"] = league["replay"]

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
    if not league:
        waiting.created(boot, created.record)
    return created


def join(
    boot: Bootstrap,
    game_id: str,
    player: dict[str, str],
    again: bool = False,
    computer: str | None = None,
) -> Outcome:
    """Seat the player (`computer`: a computer player's level); the last seat to fill
    starts the game. With `again`, a player already seated is no error (a league job
    seating its table a second time)."""

    def decide_join(rec: Record, rng: Rng):
        if again and rec.seat_of(player["id"]) is not None:
            return "system", []
        return "system", decide.join(rec, player["id"], player["name"], rng, computer)

    if not again:  # a league's seat is not counted
        waiting.check(boot, player["id"], game_id)
    command = {"type": "join", "player": player["id"], "name": player["name"]}
    if computer:
        command["computer"] = {"level": computer}
    log = GameLog(boot, game_id)
    return loop.run(boot, log, decide_join, cause=f"join:{player['id']}", command=command)


class Overdue(RuleViolation):
    """An action later than its decision's deadline plus the grace of the time model."""

    def __init__(self, key: str, deadline: str):
        detail = f"decision {key!r} was due at {deadline}; its default is being applied"
        super().__init__(detail, code="deadline_passed")
        self.key, self.deadline = key, deadline
        self.extra = {"decision": key, "deadline": deadline, "arrived_at": codec.now_iso()}


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
    grace of the time model (events.times) is refused, its default is on its way, unless
    an outage covers that deadline: then the decision gets its fresh deadline first, as
    an expiry would give it, and the action is taken. `loaded`: the game as the caller
    loaded it already with no idempotency key (`idem` is new); `admission`: what the
    append must check and count for a caller admitted without a round trip, on the
    record this process holds (service.admission): then anything decided before the
    append counted the call raises Recheck (decide again on the log as stored), and a
    count past the limit OverLimit. A move refused because its decision was defaulted
    meanwhile is refused `deadline_passed` (service.attempts.late)."""
    arrived = time.time()

    def decide_act(rec: Record, rng: Rng):
        seat = rec.seat_of(player_id)
        if seat is not None and (late := times.overdue(rec, seat, datetime.now(UTC))):
            raise Overdue(*late)
        try:
            return decide.act(rec, player_id, action, rng)
        except RuleViolation as refused:  # maybe allowed at the version read (If-Match)
            refused = stale_choice.refine(boot, rec, player_id, action, if_match, refused)
            raise attempts.late(boot, rec, seat, refused, arrived, if_match) from None

    def run(log: GameLog) -> Outcome:
        return loop.run(
            boot,
            log,
            decide_act,
            cause=idem,
            idem=f"{player_id}:{idem}",
            if_match=if_match,
            command={"type": "act", "player": player_id, "action": action},
            stale_ok=lambda rec, version: (
                version <= rec.version and rec.still_open(player_id, version)
            ),
        )

    def counted() -> bool:  # nothing was decided on a held record alone
        return admission is None or admission.count is not None

    try:
        return run(GameLog(boot, game_id, body=action, loaded=loaded, guard=admission))
    except GuardFailed as e:
        raise Recheck() from e
    except GuardRefused as e:
        raise OverLimit() from e
    except Overdue as late:
        if not counted():
            raise Recheck() from late  # overdue on the held record: see the log first
        if not extend_if_outage(boot, game_id, late.key, late.deadline):
            raise
    except REFUSALS as e:
        if counted():
            raise  # decided on the log as stored: the answer
        raise Recheck() from e  # decided on the held record only
    return run(GameLog(boot, game_id, body=action))  # (an admission's count: by its caller)


# what the rules, the seat or the version refuse: on a held record, no answer yet
REFUSALS = (RuleViolation, NotSeated, DomainError, StaleVersion)


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


def take_seat(boot: Bootstrap, game_id: str, seat: int, player: dict[str, str], by: str) -> Outcome:
    """A substitute (`player`: {id, name}) takes over `seat` of a running game (for its
    league's organizer `by`); the log says from which event the seat's moves are theirs."""
    command = {"type": "substitute", "seat": seat, "player": player["id"], "name": player["name"]}
    command["by"] = by
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.take_seat(rec, seat, player["id"], player["name"], by)),
        cause=f"substitute:{by}",
        command=command,
    )


def away(boot: Bootstrap, game_id: str, seat: int, span: tuple[str, str], by: str) -> Outcome:
    """Log that the seat's player is away over `span` (from, until): their deadlines in it
    move on by its length, visibly to the table."""
    start, end = span
    command = {"type": "away", "seat": seat, "from": start, "until": end, "by": by}
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.away(rec, seat, start, end, by)),
        cause=f"away:{by}",
        idem=f"away:{seat}:{start}",
        command=command,
    )


def pause(boot: Bootstrap, game_id: str, by: str) -> Outcome:
    """Stop the game's clock: no deadline runs and no move is taken until it resumes."""
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.pause(rec, by)),
        cause=f"pause:{by}",
        command={"type": "pause", "by": by},
    )


def resume(boot: Bootstrap, game_id: str, by: str) -> Outcome:
    """Start the game's clock again: each owed decision gets back the time it had left."""
    at = codec.now_iso()
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.resume(rec, by, at)),
        cause=f"resume:{by}",
        command={"type": "resume", "by": by, "at": at},
    )


def expire(boot: Bootstrap, game_id: str, key: str) -> Status:
    """Apply the defaults of decision (or phase) `key` if it is still owed and overdue,
    unless an outage covers its deadline (then it gets a fresh one: EXTENDED) or the API
    has not been up since it (then it is looked at again later: POSTPONED). The game is
    loaded once; what to do is `service.expiry.plan`, a pure function of the record, the
    time and the heartbeats."""
    job = job_id("expire", game_id, key)
    # the API's last beat first: an outage that beat ended is then on record below
    api = outages.last_api_beat(boot.redis)
    loaded = boot.store.load(game_id, f"system:{job}")
    rec, now = loaded.record, time.time()
    facts = expiry_facts(boot, rec, key, api)
    plan = expiry.plan(rec, key, now, facts)
    if plan.status is Status.APPLIED:

        def decide_expiry(r: Record, rng: Rng):
            due = expiry.plan(r, key, now, facts).status is Status.APPLIED
            return "system", decide.expire(r, key, rng) if due else []

        done = _system(boot, game_id, key, job, decide_expiry, "expire", loaded)
        if done.created:
            if (deadline := rec.deadline(key)) is not None:
                late = time.time() - codec.parse_time(deadline).timestamp()
                metrics.deadline_applied(rec.ruleset, late)
            _absence(boot, done)
            return Status.APPLIED
        plan = expiry.plan(done.record, key, now, facts)  # the log moved on meanwhile
        if plan.status is Status.APPLIED:  # appended by an earlier run of this job
            return Status.NOOP
    if plan.status is Status.EXTENDED:
        extend(boot, game_id, key, plan.old, plan.deadline, Loaded(rec, loaded.seed, None))
    elif plan.status in (Status.EARLY, Status.POSTPONED):
        boot.scheduler.expiry(game_id, key, plan.deadline)
    return plan.status


def _absence(boot: Bootstrap, done: Outcome) -> None:
    """After defaults applied to a league game, withdraw those players the league's
    absence rule now calls absent (service.league_absence): checked when it happens."""
    rec = done.record
    if not rec.league:
        return
    seats = {s.seat: s.player for s in rec.seats}
    timed_out = {
        e["data"].get("seat") for e in done.envelopes if e["type"] == "game.DecisionTimedOut"
    }
    players = {seats[s] for s in timed_out if s in seats and s not in rec.resigned}
    if players:
        from service import league_absence  # the league layer sits above the game commands

        try:
            league_absence.check(boot, rec.league["id"], players)
        except DomainError:  # the league is gone or busy: the next round start checks again
            return


def expiry_facts(boot: Bootstrap, rec: Record, key: str, api: float | None) -> expiry.Facts:
    """Read what the heartbeats say about decision `key`'s deadline: the outages that may
    cover it (read after the API's last beat `api`)."""
    deadline, window = rec.deadline(key), outages.grace(rec, boot.config)
    due = codec.parse_time(deadline).timestamp() if deadline else time.time()
    spans = tuple(outages.seen(boot.redis, due - window)) if deadline else ()
    return expiry.Facts(api, spans, window, float(boot.config["OUTAGE_AFTER_S"]))


def extend(
    boot: Bootstrap, game_id: str, key: str, old: str, new: str, loaded: Loaded | None = None
) -> Outcome:
    """Give owed decision `key` (due at `old`) the fresh deadline `new` after an outage,
    once however many workers and API processes ask; the append writes the new deadline
    into the index."""
    command = {"type": "extend", "key": key, "old": old, "new": new, "reason": "outage"}
    return loop.run(
        boot,
        GameLog(boot, game_id, body=command, loaded=loaded),
        lambda r, rng: ("system", decide.extend(r, key, old, new, "outage")),
        cause=job_id("extend", game_id, key),
        idem=f"system:extend-{key}-{old}",
        command=command,
    )


def extend_if_outage(boot: Bootstrap, game_id: str, key: str, old: str) -> bool:
    """Give decision `key` (due at `old`, overdue past the grace of events.times) a fresh
    deadline if an outage covers `old`, as an expiry would; return True if it has one now.
    A gap in the API's heartbeat that is still open (the API was frozen, or could not
    reach Redis, and this request is among the first it serves) counts, so an action
    that arrives before the outage is on record is accepted too."""
    api = outages.last_api_beat(boot.redis)
    rec, now = boot.store.load(game_id).record, time.time()
    if rec.deadline(key) != old:
        return True  # extended meanwhile
    facts = expiry_facts(boot, rec, key, api)
    threshold = outages.api_gap(facts.down_after_s)
    spans = facts.outages + (((api, now),) if api is not None and now - api > threshold else ())
    due = codec.parse_time(old).timestamp()
    fresh = outages.covered(list(spans), due, facts.grace_s, now)
    if fresh is None:
        return False
    extend(boot, game_id, key, old, fresh)
    return True


def resolve(boot: Bootstrap, game_id: str, key: str) -> Status:
    """Resolve simultaneous phase `key` once all its submissions are in."""
    job = job_id("resolve", game_id, key)

    def decide_resolution(rec: Record, rng: Rng):
        return "system", decide.resolve(rec, key, rng)

    done = _system(boot, game_id, key, job, decide_resolution, "resolve")
    return Status.RESOLVED if done.created else Status.NOOP


def _system(
    boot: Bootstrap,
    game_id: str,
    key: str,
    job: str,
    decide_,
    kind: str,
    loaded: Loaded | None = None,
) -> Outcome:
    """Run a worker's command on decision or phase `key`, once per job (`loaded`: the
    game as the caller loaded it with this job's idempotency key)."""
    log = GameLog(boot, game_id, body=key, loaded=loaded)
    command = {"type": kind, "key": key}
    return loop.run(boot, log, decide_, cause=job, idem=f"system:{job}", command=command)
