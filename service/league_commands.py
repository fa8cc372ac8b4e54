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

from events.codec import parse_time
from events.record import FINISHED
from games.base import Event
from games.rng import Rng
from leagues import settings as league_settings
from leagues import standings
from leagues.record import League
from service import league_decisions, league_followups, league_game_result, loop
from service.errors import Invalid
from service.game_commands import ruleset
from service.league_log import LeagueLog, load
from service.ports import Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = [
    "NO_RETRY",
    "Retry",
    "change",
    "check",
    "create",
    "join",
    "load",
    "record_result",
    "run",
    "settings_of",
]


def new_id() -> str:
    """Return a fresh league id ([A-Za-z0-9_-] only)."""
    return "l_" + secrets.token_urlsafe(9)


def settings_of(spec: dict[str, Any]) -> dict[str, Any]:
    """Return the settings a (whole or partial) league body names, as the log keeps them:
    `table_size` as `table_min`/`table_max`, `start_at` as an ISO UTC time."""
    out = {k: v for k, v in spec.items() if k not in ("table_size", "start_at")}
    if "table_size" in spec:
        out["table_min"], out["table_max"] = spec["table_size"]
    if "start_at" in spec:
        start = spec["start_at"].astimezone(UTC)
        out["start_at"] = start.isoformat(timespec="milliseconds").replace("+00:00", "Z")
    if "points" in out and out["points"] is None:
        out["points"] = list(standings.DEFAULT_POINTS)
    return out


def check(settings: dict[str, Any], new_start: bool) -> str:
    """Refuse settings no league may have (422, naming the field); return the ruleset's id.
    `new_start`: `start_at` was given now, so it must be in the future."""
    game = ruleset(settings["ruleset"])
    lo, hi = settings["table_min"], settings["table_max"]
    if not game.min_players <= lo <= hi <= game.max_players:
        span = f"{game.min_players}-{game.max_players}"
        raise Invalid(
            "invalid_players",
            f"{game.id} tables take {game.min_players} to {game.max_players} players",
            errors={"table_size": [f"must be within {span}"]},
        )
    for size in range(lo, hi + 1):
        game.normalize_options(settings["options"], size)  # raises OptionError (422)
    start = parse_time(settings["start_at"])
    if new_start and start.timestamp() <= time.time():
        errors = {"start_at": ["must be in the future"]}
        raise Invalid("invalid_body", "the league must start in the future", errors=errors)
    last = settings["cadence_s"] * (settings["rounds"] - 1)
    try:  # the last round and its first deadline must fall within year 9999
        start + timedelta(seconds=last + settings["decision_timeout_s"])
    except OverflowError:
        why = "the last round (start_at + (rounds - 1) * cadence_s) falls after the year 9999"
        raise Invalid("invalid_body", why, errors={"start_at": [why]}) from None
    if settings.get("late_join_until_round", 0) > settings["rounds"]:
        errors = {"late_join_until_round": ["must be at most rounds"]}
        raise Invalid("invalid_body", "late joining ends within the league", errors=errors)
    return game.id


def create(boot: Bootstrap, organizer: dict[str, str], spec: dict[str, Any]) -> League:
    """Create a league, `organizer` ({id, name}) its first organizer; its first round is
    scheduled at `start_at`."""
    data = {**league_settings.DEFAULTS, **settings_of(spec)}
    data["ruleset"] = check(data, new_start=True)
    data["operator"] = organizer["id"]  # the creator: the league's first organizer
    data["operator_name"] = organizer["name"]
    data["seed"] = secrets.token_hex(16)  # the pairing's seed, drawn once and logged
    league_id = new_id()
    created = [Event("league.Created", data)]
    done = run(boot, league_id, lambda lg, rng: created, "create")  # indexed with it
    return league_followups.finish(boot, league_id, done)  # round 1 scheduled


def change(boot: Bootstrap, league_id: str, spec: dict[str, Any], by: str) -> League:
    """Change settings that have not taken effect yet (409 `setting_in_effect` names the
    first that has; nothing changes then); rounds to come are rescheduled."""
    league = load(boot, league_id)
    changes = settings_of(spec)
    merged = {**league.settings, **changes}
    ruleset_id = check(merged, new_start="start_at" in changes)
    if "ruleset" in changes:
        changes["ruleset"] = ruleset_id
    now = time.time()
    decide = lambda lg, rng: league_decisions.change_settings(lg, changes, by, now)  # noqa: E731
    done = run(boot, league_id, decide, f"settings:{by}")
    return league_followups.finish(boot, league_id, done)  # the next round rescheduled


def join(boot: Bootstrap, league_id: str, player: dict[str, str], by: str) -> League:
    """Add a member (the player, or the operator: `by`) before the league starts, or
    before round `late_join_until_round` starts if the league allows late joining."""
    load(boot, league_id)
    now = time.time()
    decide = lambda lg, rng: league_decisions.join(lg, player, by, now)  # noqa: E731
    return run(boot, league_id, decide, f"join:{player['id']}").record


def invite(boot: Bootstrap, league_id: str, player: dict[str, str], by: str) -> League:
    """Invite a player (`by`: the organizer's id) while joining is open."""
    load(boot, league_id)
    now = time.time()
    decide = lambda lg, rng: league_decisions.invite(lg, player, by, now)  # noqa: E731
    return run(boot, league_id, decide, f"invite:{player['id']}").record


def decline(boot: Bootstrap, league_id: str, player_id: str) -> League:
    """An invited player declines the invitation."""
    load(boot, league_id)
    decide = lambda lg, rng: league_decisions.decline(lg, player_id)  # noqa: E731
    return run(boot, league_id, decide, f"decline:{player_id}").record


def record_result(boot: Bootstrap, league_id: str, gid: str) -> Status:
    """Record a finished game's places, league points and new ratings, once."""
    rec = boot.store.load(gid).record
    if rec.status != FINISHED or not rec.league or rec.league["id"] != league_id:
        return Status.NOT_FINISHED
    events = boot.store.read(gid)
    commitment = events[0]["data"].get("seed_commitment")  # fixed in the record
    acted = {e["actor"] for e in events if e.get("command", {}).get("type") == "act"}
    decide = lambda lg, rng: league_game_result.record_result(lg, rec, commitment, acted)  # noqa: E731
    appended = run(boot, league_id, decide, f"result:{gid}", idem=gid).created
    return Status.RECORDED if appended else Status.NOOP


Retry = tuple[str, Any]  # a client's Idempotency-Key (scoped to the caller) and request
NO_RETRY: Retry = ("", None)


def run(
    boot: Bootstrap, league_id: str, decide_, cause: str, idem: str = "", body: Any = None
) -> loop.Outcome:
    """Append what `decide_(league, rng)` returns for the newest league, once per `idem`:
    a repeat of key `idem` with the same `body` (the request) is answered with what the
    first call appended, and with another body refused (422 `idempotency_key_reused`)."""

    def decide(league: League, rng: Rng):
        return "system", decide_(league, rng)

    log = LeagueLog(boot, league_id, body)
    return loop.run(boot, log, decide, cause=cause, idem=idem)
