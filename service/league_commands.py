"""League commands: create, join, record a finished game's result. Each league is its own
log (`service.league_log`), written through the same command loop as games; rounds start
in `service.league_rounds`.

A finished league game is recorded by job `league_result|<league>|<game>`, scheduled
right after its last append; the record's idempotency key is the game id, so however
often the job runs, the result is logged once.
"""

from __future__ import annotations

import secrets
import time
from datetime import UTC, timedelta
from typing import TYPE_CHECKING, Any

from events import keys
from events.record import FINISHED
from games.base import Event
from games.rng import Rng
from leagues import standings
from leagues.record import League
from service import config, league_decisions, loop
from service.errors import Forbidden, Invalid
from service.game_commands import ruleset
from service.league_log import LeagueLog, load
from service.ports import Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = [
    "check_operator",
    "check_organizer",
    "create",
    "join",
    "load",
    "may_organize",
    "record_result",
    "run",
]


def new_id() -> str:
    """Return a fresh league id ([A-Za-z0-9_-] only)."""
    return "l_" + secrets.token_urlsafe(9)


def check_operator(boot: Bootstrap, player_id: str) -> None:
    """Raise Forbidden unless the player is one of the configured operators."""
    if player_id not in config.operators(boot.config):
        raise Forbidden("not_operator", "only an operator may do this")


def may_organize(boot: Bootstrap, league: League, player_id: str) -> bool:
    """Return True if the player may organize this league (rule on its disputes, see its
    evidence): one of the configured operators. The one place that decides it."""
    return player_id in config.operators(boot.config)


def check_organizer(boot: Bootstrap, league: League, player_id: str) -> None:
    """Raise Forbidden unless the player may organize this league (`may_organize`)."""
    if not may_organize(boot, league, player_id):
        raise Forbidden(
            "not_organizer",
            f"only the organizers of league {league.league_id} may do this (an operator: "
            "a player id listed in OPERATORS)",
        )


def create(boot: Bootstrap, operator: str, spec: dict[str, Any]) -> League:
    """Create a league; its first round is scheduled at `start_at`."""
    game = ruleset(spec["ruleset"])
    lo, hi = spec["table_size"]
    if not game.min_players <= lo <= hi <= game.max_players:
        span = f"{game.min_players}-{game.max_players}"
        raise Invalid(
            "invalid_players",
            f"{game.id} tables take {game.min_players} to {game.max_players} players",
            errors={"table_size": [f"must be within {span}"]},
        )
    for size in range(lo, hi + 1):
        game.normalize_options(spec["options"], size)  # raises OptionError (422)
    start = spec["start_at"].astimezone(UTC)
    if start.timestamp() <= time.time():
        errors = {"start_at": ["must be in the future"]}
        raise Invalid("invalid_body", "the league must start in the future", errors=errors)
    last = spec["cadence_s"] * (spec["rounds"] - 1)
    try:  # the last round and its first deadline must fall within year 9999
        start + timedelta(seconds=last + spec["decision_timeout_s"])
    except OverflowError:
        why = "the last round (start_at + (rounds - 1) * cadence_s) falls after the year 9999"
        raise Invalid("invalid_body", why, errors={"start_at": [why]}) from None
    if spec.get("late_join_until_round", 0) > spec["rounds"]:
        errors = {"late_join_until_round": ["must be at most rounds"]}
        raise Invalid("invalid_body", "late joining ends within the league", errors=errors)
    league_id = new_id()
    data = {
        "name": spec["name"],
        "ruleset": game.id,
        "options": spec["options"],
        "table_min": lo,
        "table_max": hi,
        "rounds": spec["rounds"],
        "start_at": start.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "cadence_s": spec["cadence_s"],
        "decision_timeout_s": spec["decision_timeout_s"],
        "withdraw_after_timeouts": spec["withdraw_after_timeouts"],
        "points": list(spec["points"] or standings.DEFAULT_POINTS),
        "late_join_until_round": spec.get("late_join_until_round", 0),
        "bye_points": spec.get("bye_points"),
        "operator": operator,
        "seed": secrets.token_hex(16),  # the pairing's seed, drawn once and logged
    }
    created = [Event("league.Created", data)]
    league = run(boot, league_id, lambda lg, rng: created, "create").record
    boot.redis.zadd(keys.leagues(), {league_id: time.time()})
    boot.scheduler.league_round(league_id, 1, league.due(1))
    return league


def join(boot: Bootstrap, league_id: str, player: dict[str, str], by: str) -> League:
    """Add a member (the player, or the operator: `by`) before the league starts, or
    before round `late_join_until_round` starts if the league allows late joining."""
    load(boot, league_id)
    now = time.time()
    decide = lambda lg, rng: league_decisions.join(lg, player, by, now)  # noqa: E731
    return run(boot, league_id, decide, f"join:{player['id']}").record


def record_result(boot: Bootstrap, league_id: str, gid: str) -> Status:
    """Record a finished game's places, league points and new ratings, once."""
    rec = boot.store.load(gid).record
    if rec.status != FINISHED or not rec.league or rec.league["id"] != league_id:
        return Status.NOT_FINISHED
    created = boot.store.read(gid, 0, 1)[0]["data"]  # its seed commitment, for the record
    commitment = created.get("seed_commitment")
    decide = lambda lg, rng: league_decisions.record_result(lg, rec, commitment)  # noqa: E731
    appended = run(boot, league_id, decide, f"result:{gid}", idem=gid).created
    return Status.RECORDED if appended else Status.NOOP


def run(boot: Bootstrap, league_id: str, decide_, cause: str, idem: str = "") -> loop.Outcome:
    """Append what `decide_(league, rng)` returns for the newest league, once."""

    def decide(league: League, rng: Rng):
        return "system", decide_(league, rng)

    return loop.run(boot, LeagueLog(boot, league_id), decide, cause=cause, idem=idem)
