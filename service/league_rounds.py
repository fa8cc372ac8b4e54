"""Starting a league's rounds (job `round|<league>|<n>` in the deadline index, due at the
round's start): log the round's tables once (idempotency key `round:<n>`), then create
and fill each table's game with the ordinary game commands. Each table's game has a
fixed id derived from (league, round, table), so creating it twice is impossible.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from events import binding
from events.record import FINISHED
from games.base import Event
from games.rng import Rng
from leagues import pairing, standings
from leagues.record import League
from service import game_commands, league_lifecycle
from service.errors import NotFound
from service.league_commands import load, run

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


game_id = binding.league_game_id  # fixed per table: creating a game twice is impossible


def start_round(boot: Bootstrap, league_id: str, number: int) -> str:
    """Start round `number` if due: log its tables once, then open and seat its games."""
    try:
        league = load(boot, league_id)
    except NotFound:
        return "missing"
    if not 1 <= number <= league.settings["rounds"] or league.cancelled:
        return "noop"
    if league.paused and number not in league.rounds:
        return "paused"  # league.Resumed schedules it again
    if time.time() < league.due(number):
        boot.scheduler.league_round(league_id, number, league.due(number))
        return "early"
    if number > 1 and number - 1 not in league.rounds:
        start_round(boot, league_id, number - 1)  # never skip or reorder
    status = "started" if number not in league.rounds else "resumed"
    if number not in league.rounds:

        def decide_round(lg: League, rng: Rng) -> list[Event]:
            return _round_events(boot, lg, number)

        key = f"round:{number}"
        league = run(boot, league_id, decide_round, key, idem=key).record
        if number not in league.rounds:  # paused or cancelled meanwhile
            return "paused"
    for player, first in league.withdrawn.items():
        if first == number:  # withdrawn for timeouts as this round started
            league_lifecycle.resign_everywhere(boot, league, player)
    for table in league.rounds[number].tables:
        open_table(boot, league, number, table.number)
    if number < league.settings["rounds"] and number + 1 not in league.rounds:
        boot.scheduler.league_round(league_id, number + 1, league.due(number + 1))
    for gid in unrecorded_finished(boot, league):  # a safety net for a lost schedule
        boot.scheduler.league_result(league_id, gid)
    return status


def _round_events(boot: Bootstrap, league: League, number: int) -> list[Event]:
    if number in league.rounds or league.paused or league.cancelled:
        return []
    out = []
    limit = league.settings["withdraw_after_timeouts"]
    for player, streak in (streaks(boot, league) if limit else {}).items():
        if streak >= limit and player not in league.withdrawn:
            data = {"player": player, "round": number, "timeouts": streak, "by": "timeouts"}
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
    return [*out, Event("league.RoundStarted", started)]


def open_table(boot: Bootstrap, league: League, number: int, table: int) -> str:
    """Create the table's game and seat its players in order; each step only once."""
    s = league.settings
    t = league.rounds[number].tables[table - 1]
    where = {"id": league.league_id, "round": number, "table": table, "game": t.game}
    size, timeout = len(t.players), s["decision_timeout_s"]
    game_commands.create_game(
        boot, s["operator"], s["ruleset"], size, s["options"], timeout, league=where
    )
    for player in t.players:
        seat = {"id": player, "name": league.members[player]}
        game_commands.join(boot, t.game, seat, again=True)
    return t.game


def streaks(boot: Bootstrap, league: League) -> dict[str, int]:
    """Return each active member's run of timed-out decisions across their league games,
    in time order (a decision made in time ends a run)."""
    marks: dict[str, list[tuple[str, bool]]] = {m: [] for m in league.active()}
    for r in league.rounds.values():
        for t in r.tables:
            seats: dict[int, str] = {}
            for env in boot.store.read(t.game):
                kind, data = env["type"], env["data"]
                if kind == "game.PlayerJoined":
                    seats[data["seat"]] = data["player"]
                elif kind == "game.DecisionTimedOut" and seats.get(data["seat"]) in marks:
                    marks[seats[data["seat"]]].append((env["at"], True))
                elif env.get("command", {}).get("type") == "act":
                    if (player := env["command"]["player"]) in marks:
                        marks[player].append((env["at"], False))
    return {m: standings.timeout_streak(ms) for m, ms in marks.items()}


def unrecorded_finished(boot: Bootstrap, league: League) -> list[str]:
    """Return the league's finished games whose result is not in its log yet."""
    out = []
    for r in league.rounds.values():
        for t in r.tables:
            if t.game not in league.results and boot.store.exists(t.game):
                if boot.store.load(t.game).record.status == FINISHED:
                    out.append(t.game)
    return out
