"""What players (and an operator) can do to a game, each a command on `service.loop`:
create, join, act, resign, abort. The seats' seed reveals before play are
service.seed_reveals; a worker's commands at a deadline are service.deadline_commands;
an organizer's on a running table, service.table_commands.

A league's table is created and filled by the same `create_game` and `join` as any other
game; it passes a fixed game id and is idempotent, since a league job may run twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import games
from events import catalog, codec, deadlines, decide, seating
from events.refusals import GuardFailed, GuardRefused, StaleVersion
from events.repository import Loaded
from events.seating import NotSeated
from games.base import Event, Game, RuleViolation
from games.rng import SEED_RULE, Rng, commitment
from service import attempts, loop, outage_extension, stale_choice, waiting
from service.admission import Admission, OverLimit, Recheck
from service.errors import DomainError, Invalid
from service.game_log import GameLog
from service.loop import Outcome
from service.players import new_id

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
    seed = boot.store.keep_seed(game_id, boot.new_seed())  # racing league workers agree
    data = {
        "game_id": game_id,
        "ruleset": game.id,
        "rules_version": game.rules_version,
        "players": players,
        "options": options,
        "decision_timeout_s": timeout,
        "time_model": deadlines.CURRENT,  # the tolerances it is played and judged under
        "creator": creator,
        "seed_commitment": commitment(game_id, seed),
        "seed_rule": SEED_RULE,  # the seats' secrets join the seed (docs/fairness.md)
        "reveal_window_s": int(boot.config["SEED_REVEAL_S"]),
    }
    if league:
        data["league"] = {k: league[k] for k in ("id", "round", "table")}
        if league.get("replay"):  # a table played again by an organizer's ruling
            data["league"]["replay"] = league["replay"]

    def decide_created(rec: Record, rng: Rng):
        if rec.version:
            return "system", []
        return "system", [
            Event(catalog.CREATED, data),
            *([Event(catalog.TERMS, terms)] * bool(terms)),
        ]

    created = loop.run(
        boot,
        GameLog(boot, game_id, allow_new=True),
        decide_created,
        cause=f"create:{league['id'] if league else creator}",
        command={"type": "create"},
    )
    boot.lobby.register(game_id, time.time())
    if not league:
        waiting.created(boot, created.record)
    return created


def join(
    boot: Bootstrap,
    game_id: str,
    player: dict[str, str],
    again: bool = False,
    computer: str | None = None,
    commitment: str | None = None,
) -> Outcome:
    """Seat the player (`computer`: a computer player's level; `commitment`: the seat's
    commitment to its secret); the last seat to fill starts the game, or opens the
    seats' reveals. With `again`, a player already seated is no error (a league job
    seating its table a second time)."""

    def decide_join(rec: Record, rng: Rng):
        if again and rec.seat_of(player["id"]) is not None:
            return "system", []
        name = player["name"]
        return "system", seating.join(rec, player["id"], name, rng, computer, commitment)

    if not again:  # a league's seat is not counted
        waiting.check(boot, player["id"], game_id)
    command = {"type": "join", "player": player["id"], "name": player["name"]}
    if computer:
        command["computer"] = {"level": computer}
    if commitment:
        command["commitment"] = commitment
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
    enter: Callable[[], Loaded | None] | None = None,
) -> Outcome:
    """Apply one player's action; an action later than its decision's deadline plus the
    grace of its time model (events.deadlines) is refused, its default is on its way, unless
    an outage covers that deadline: then the decision gets its fresh deadline first, as
    an expiry would give it, and the action is taken. `loaded`: the game as the caller
    loaded it already with no idempotency key (`idem` is new); `admission`: what the
    append must check and count for a caller admitted without a round trip, on the
    record this process holds (service.admission): then anything decided before the
    append counted the call raises Recheck (decide again on the log as stored), and a
    count past the limit OverLimit. With `enter` (the caller's usual first round trip,
    returning the game it loaded), a Recheck is not raised but handled here, the one
    place that retries: `enter`, then decide again on the log as stored. A move refused
    because its decision was defaulted meanwhile is refused `deadline_passed`
    (service.attempts.late)."""
    command = (boot, game_id, player_id, action, idem, if_match, time.time())
    try:
        return _act(*command, loaded, admission)
    except Recheck:
        if enter is None:
            raise
        return _act(*command, enter())


def _act(
    boot: Bootstrap,
    game_id: str,
    player_id: str,
    action: dict[str, Any],
    idem: str,
    if_match: int | None,
    arrived: float,
    loaded: Loaded | None = None,
    admission: Admission | None = None,
) -> Outcome:
    """Apply the action once (see `act`; `arrived`: when it came): Recheck if what was
    decided on a held record is no answer."""

    def decide_act(rec: Record, rng: Rng):
        seat = rec.seat_of(player_id)
        if seat is not None and (late := deadlines.overdue(rec, seat, datetime.now(UTC))):
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
        if not outage_extension.extend_if_outage(boot, game_id, late.key, late.deadline):
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
