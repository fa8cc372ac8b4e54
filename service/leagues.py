"""League use cases: create, join, start rounds, record results; each league is its own
event log (`mf:{l:<id>}:events`) appended with the same envelope and script as games.

Rounds start in the workers (job `round|<league>|<n>` in the deadline index, due at the
round's start); a finished league game is recorded by job `league_result|<league>|<game>`
scheduled right after its last append. Both are idempotent: the round's tables are one
append with idempotency key `round:<n>`, each table's game has a fixed id derived from
(league, round, table), and a result's key is the game id.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import games
from events import codec, decide, keys
from events.record import FINISHED
from events.store import Duplicate, Loaded, StaleVersion
from games.base import Event
from games.rng import Rng
from leagues import pairing, standings
from leagues.record import League, fold_all
from service import commands
from service.errors import Problem
from workers import schedule

if TYPE_CHECKING:
    from service.deps import Deps

logger = logging.getLogger(__name__)
Decide = Callable[[League], list[Event]]


def new_id() -> str:
    """Return a fresh league id ([A-Za-z0-9_-] only)."""
    return "l_" + secrets.token_urlsafe(9)


def game_id(league_id: str, number: int, table: int) -> str:
    """Return the id of the game at `table` of round `number`: fixed, so that creating it
    twice is impossible."""
    return f"g_{league_id}_r{number}_t{table}"


def load(deps: Deps, league_id: str) -> League:
    """Fold a league's log, or raise 404."""
    envelopes = deps.store.read_stream(keys.league_events(league_id))
    if not envelopes:
        raise Problem(404, "league_not_found", f"no league {league_id!r}")
    return fold_all(League(league_id), envelopes)


def run(
    deps: Deps, league_id: str, decide_: Decide, cause: str, idem: str = ""
) -> tuple[League, bool]:
    """Append what `decide_` returns for the newest league, once (version-checked);
    return the league after it and whether anything was appended."""
    stream_keys = (
        keys.league_events(league_id),
        keys.league_idem(league_id),
        keys.league_snapshot(league_id),
    )
    for _ in range(int(deps.config["COMMAND_RETRIES"])):
        envelopes = deps.store.read_stream(stream_keys[0])
        league = fold_all(League(league_id), envelopes)
        events = decide_(league)
        if not events:
            return league, False
        sealed = codec.seal(_envelopes(league.version, events, cause), league.last_hash)
        try:
            deps.store.append_to(stream_keys, sealed, league.version, idem, "1")
        except StaleVersion:
            continue
        except Duplicate:
            return load(deps, league_id), False
        return fold_all(league, sealed), True
    raise Problem(503, "contention", "too many concurrent writes to this league; retry")


def _envelopes(version: int, events: list[Event], cause: str) -> list[dict[str, Any]]:
    at = codec.now_iso()
    return [
        {
            "seq": version + 1 + i,
            "type": e.type,
            "data": e.data,
            "actor": "system",
            "at": at,
            "cause": cause,
            "visible_to": "all",
        }
        for i, e in enumerate(events)
    ]


def create(deps: Deps, operator: str, spec: dict[str, Any]) -> League:
    """Create a league; its first round is scheduled at `start_at`."""
    game = games.get(spec["ruleset"])
    if game is None:
        raise Problem(
            422,
            "unknown_ruleset",
            f"no ruleset {spec['ruleset']!r}",
            errors={"ruleset": [f"must be one of {sorted(games.REGISTRY)}"]},
        )
    lo, hi = spec["table_size"]
    if not game.min_players <= lo <= hi <= game.max_players:
        raise Problem(
            422,
            "invalid_players",
            f"{game.id} tables take {game.min_players} to {game.max_players} players",
            errors={"table_size": [f"must be within {game.min_players}-{game.max_players}"]},
        )
    for size in range(lo, hi + 1):
        game.normalize_options(spec["options"], size)  # raises OptionError (422)
    start = spec["start_at"].astimezone(UTC)
    if start.timestamp() <= time.time():
        raise Problem(
            422,
            "invalid_body",
            "the league must start in the future",
            errors={"start_at": ["must be in the future"]},
        )
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
        "operator": operator,
        "seed": secrets.token_hex(16),  # the pairing's seed, drawn once and logged
    }
    league, _ = run(deps, league_id, lambda _: [Event("league.Created", data)], "create")
    deps.redis.zadd(keys.leagues(), {league_id: time.time()})
    schedule.league_round(deps, league_id, 1, league.due(1))
    return league


def join(deps: Deps, league_id: str, player: dict[str, str], by: str) -> League:
    """Add a member before the league starts (the player, or the operator: `by`)."""

    def decide_join(league: League) -> list[Event]:
        if league.rounds or time.time() >= league.due(1):
            raise Problem(409, "league_started", "members join before the first round starts")
        if player["id"] in league.members:
            raise Problem(409, "already_member", "the player is already a member")
        return [
            Event("league.MemberJoined", {"player": player["id"], "name": player["name"], "by": by})
        ]

    load(deps, league_id)
    return run(deps, league_id, decide_join, f"join:{player['id']}")[0]


def start_round(deps: Deps, league_id: str, number: int, before_append=lambda: None) -> str:
    """Start round `number` if due: log its tables once, then open and seat its games."""
    try:
        league = load(deps, league_id)
    except Problem:
        return "missing"
    if not 1 <= number <= league.settings["rounds"]:
        return "noop"
    if time.time() < league.due(number):
        schedule.league_round(deps, league_id, number, league.due(number))
        return "early"
    if number > 1 and number - 1 not in league.rounds:
        start_round(deps, league_id, number - 1, before_append)  # never skip or reorder
    status = "started" if number not in league.rounds else "resumed"
    if number not in league.rounds:
        league, _ = run(
            deps,
            league_id,
            lambda lg: _round_events(deps, lg, number, before_append),
            f"round:{number}",
            idem=f"round:{number}",
        )
    for table in league.rounds[number].tables:
        open_table(deps, league, number, table.number)
    if number < league.settings["rounds"] and number + 1 not in league.rounds:
        schedule.league_round(deps, league_id, number + 1, league.due(number + 1))
    for gid in unrecorded_finished(deps, league):  # a safety net for a lost schedule
        schedule.league_result(deps, league_id, gid)
    return status


def _round_events(deps: Deps, league: League, number: int, before_append) -> list[Event]:
    if number in league.rounds:
        return []
    out = []
    limit = league.settings["withdraw_after_timeouts"]
    for player, streak in (streaks(deps, league) if limit else {}).items():
        if streak >= limit and player not in league.withdrawn:
            data = {"player": player, "round": number, "timeouts": streak}
            out.append(Event("league.MemberWithdrawn", data))
    gone = {e.data["player"] for e in out}
    active = [m for m in league.active() if m not in gone]
    s = league.settings
    history = pairing.History.of(league.played())
    paired = pairing.pair_round(active, history, s["seed"], number, s["table_min"], s["table_max"])
    tables = [
        {"table": i, "game": game_id(league.league_id, number, i), "players": list(t)}
        for i, t in enumerate(paired.tables, start=1)
    ]
    due = datetime.fromtimestamp(league.due(number), UTC)
    started = {
        "round": number,
        "due": due.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "tables": tables,
        "byes": list(paired.byes),
    }
    before_append()
    return [*out, Event("league.RoundStarted", started)]


def open_table(deps: Deps, league: League, number: int, table: int) -> str:
    """Create the table's game and seat its players in order; each step only once."""
    s = league.settings
    t = league.rounds[number].tables[table - 1]
    game = games.get(s["ruleset"])
    seed_key = keys.game_seed(t.game)
    deps.redis.set(seed_key, deps.new_seed(), nx=True)  # racing workers agree
    seed = deps.redis.get(seed_key)
    data = {
        "ruleset": game.id,
        "rules_version": game.rules_version,
        "players": len(t.players),
        "options": game.normalize_options(s["options"], len(t.players)),
        "decision_timeout_s": s["decision_timeout_s"],
        "creator": s["operator"],
        "seed_commitment": hashlib.sha256(seed).hexdigest(),
        "league": {"id": league.league_id, "round": number, "table": table},
    }
    commands.run(
        deps,
        t.game,
        lambda loaded, rng: (
            "system",
            [] if loaded.record.version else [Event("game.Created", data)],
        ),
        cause=f"create:{league.league_id}",
        allow_new=True,
    )
    deps.redis.zadd(keys.games(), {t.game: time.time()}, nx=True)
    for player in t.players:
        _seat(deps, t.game, player, league.members[player])
    return t.game


def _seat(deps: Deps, gid: str, player: str, name: str) -> None:
    def decide_join(loaded: Loaded, rng: Rng):
        if loaded.record.seat_of(player) is not None:
            return "system", []
        return "system", decide.join(loaded.record, player, name, rng)

    command = {"type": "join", "player": player, "name": name}
    commands.run(deps, gid, decide_join, cause=f"join:{player}", command=command)


def streaks(deps: Deps, league: League) -> dict[str, int]:
    """Return each active member's run of timed-out decisions across their league games,
    in time order (a decision made in time ends a run)."""
    marks: dict[str, list[tuple[str, bool]]] = {m: [] for m in league.active()}
    for r in league.rounds.values():
        for t in r.tables:
            seats: dict[int, str] = {}
            for env in deps.store.read(t.game):
                kind, data = env["type"], env["data"]
                if kind == "game.PlayerJoined":
                    seats[data["seat"]] = data["player"]
                elif kind == "game.DecisionTimedOut" and seats.get(data["seat"]) in marks:
                    marks[seats[data["seat"]]].append((env["at"], True))
                elif env.get("command", {}).get("type") == "act":
                    if (player := env["command"]["player"]) in marks:
                        marks[player].append((env["at"], False))
    return {m: standings.timeout_streak(ms) for m, ms in marks.items()}


def unrecorded_finished(deps: Deps, league: League) -> list[str]:
    """Return the league's finished games whose result is not in its log yet."""
    out = []
    for r in league.rounds.values():
        for t in r.tables:
            if t.game not in league.results and deps.store.exists(t.game):
                if deps.store.load(t.game).record.status == FINISHED:
                    out.append(t.game)
    return out


def record_result(deps: Deps, league_id: str, gid: str, before_append=lambda: None) -> str:
    """Record a finished game's places, league points and new ratings, once."""
    rec = deps.store.load(gid).record
    if rec.status != FINISHED or not rec.league or rec.league["id"] != league_id:
        return "not_finished"
    seats = {s.seat: s.player for s in rec.seats}
    by_player = {seats[s["seat"]]: s for s in rec.result["standings"]}

    def decide_result(league: League) -> list[Event]:
        if gid in league.results:
            return []
        places = {p: s["place"] for p, s in by_player.items()}
        pts = standings.points(places, league.settings["points"])
        ratings = standings.rate({p: league.rating(p) for p in places}, places)
        rows = [
            {
                "player": p,
                "seat": by_player[p]["seat"],
                "place": places[p],
                "score": by_player[p]["score"],
                "points": pts[p],
                "mu": ratings[p][0],
                "sigma": ratings[p][1],
            }
            for p in sorted(places, key=lambda p: (places[p], by_player[p]["seat"]))
        ]
        data = {"game": gid, "round": rec.league["round"], "table": rec.league["table"]}
        before_append()
        return [Event("league.GameRecorded", {**data, "places": rows})]

    _, appended = run(deps, league_id, decide_result, f"result:{gid}", idem=gid)
    return "recorded" if appended else "noop"
