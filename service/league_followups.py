"""What a league event changes in the league's games, finished once whatever crashes.

A remedy writes two kinds of log: the league's (its event: the intent, signed and
exported) and its games' (a seat taken, a clock stopped, a seat resigned), or the
workers' schedule (the next round's start). No script
can write both at once (on a cluster they lie in other slots), so the league's append
also writes, atomically with it, the follow-up `league_followup|<league>|<seq>` into the
deadline index, claimed `CLAIM_S` ahead (service.league_log). The request then does the
follow-up itself and takes it off the index; if the process dies in between, a worker's
sweeper finds the claim lapsed and runs the same follow-up (workers.jobs.league_followup).

Each follow-up reads the event and the league as it is now, and makes the games agree
with both; it is safe to run again or late (a table resumed since its pause is not
paused again, a seat taken already is not taken twice):

- `league.MemberSubstituted`: the substitute takes the member's seat at each game named;
- `league.MemberWithdrawn`: the member, if still withdrawn, resigns from their running
  games of the league (a member who left, was removed, or was withdrawn for absence);
- `league.TablePaused` / `league.TableResumed`, `league.Paused` / `league.Resumed`: each
  running game's clock is stopped or started as the league and its tables now say, and a
  resumed league has its next round scheduled;
- `league.Cancelled`: every unfinished game is aborted;
- `league.VacationDeclared`: each running game of the member logs the days away;
- `league.DisputeRuled` ordering a replay: the replay is opened;
- `league.Created`, `league.SettingsChanged`: the next round is scheduled at its time.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from events import keys
from events.codec import parse_time
from events.record import FINISHED
from games.base import RuleViolation
from leagues.record import League, fold_all
from service import game_commands, league_seeds, table_commands
from service.errors import NotFound
from service.ports import Status

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap
    from service.loop import Outcome

JOB = "league_followup"
CLOCK = ("league.TablePaused", "league.TableResumed", "league.Paused", "league.Resumed")
SCHEDULE = ("league.Created", "league.SettingsChanged")  # when the next round starts
FOLLOWED = {
    *CLOCK,
    *SCHEDULE,
    "league.MemberSubstituted",
    "league.MemberWithdrawn",
    "league.Cancelled",
    "league.VacationDeclared",
}


def needs(envelope: dict[str, Any]) -> bool:
    """Return True if the event changes something in the league's games."""
    kind = envelope["type"]
    return kind in FOLLOWED or (
        kind == "league.DisputeRuled" and bool(envelope["data"].get("replay"))
    )


def finish(boot: Bootstrap, league_id: str, done: Outcome) -> League:
    """Do the follow-ups of what a command appended (or, a retry, appended first), take
    them off the index, and return the league as the command left it."""
    for env in done.envelopes:
        if needs(env):
            follow(boot, league_id, env["seq"])
            boot.scheduler.done(JOB, league_id, str(env["seq"]))
    return done.record


def follow(boot: Bootstrap, league_id: str, seq: int) -> Status:
    """Make the league's games agree with event `seq` of its log and the league now."""
    envelopes = boot.store.read_stream(keys.league_events(league_id))
    if not 1 <= seq <= len(envelopes):
        return Status.MISSING
    env = envelopes[seq - 1]
    if not needs(env):
        return Status.NOOP
    league = fold_all(League(league_id), envelopes)
    kind, data = env["type"], env["data"]
    by = data.get("by") or league.settings["operator"]
    if kind == "league.MemberSubstituted":
        sub = {"id": data["substitute"], "name": data["name"]}
        for gid in data.get("games", []):
            _take_seat(boot, gid, data["player"], sub, by)
    elif kind == "league.MemberWithdrawn":
        if data["player"] in league.withdrawn:
            resign_everywhere(boot, league, data["player"])
    elif kind in CLOCK:
        set_clocks(boot, league, by)
        if kind == "league.Resumed":
            schedule_next_round(boot, league)
    elif kind in SCHEDULE:
        schedule_next_round(boot, league)
    elif kind == "league.VacationDeclared":
        for gid in running_games(boot, league, data["player"]):
            mark_game(boot, league, gid, data["player"])
    elif kind == "league.Cancelled":
        for gid in running_games(boot, league):
            _quietly(game_commands.abort, boot, gid, by)
    else:  # a ruling that ordered a replay
        open_replays(boot, league)
    return Status.APPLIED


def schedule_next_round(boot: Bootstrap, league: League) -> None:
    """Have the next round start at its time (now due from the league's log as it is)."""
    following = len(league.rounds) + 1
    if following <= league.settings["rounds"] and not league.paused and not league.over:
        boot.scheduler.league_round(league.league_id, following, league.due(following))


def _take_seat(boot: Bootstrap, gid: str, player: str, sub: dict[str, str], by: str) -> None:
    if not boot.store.exists(gid):
        return
    rec = boot.store.load(gid).record
    seat = rec.seat_of(player)
    if seat is not None and rec.status != FINISHED:  # not taken yet (nor the game over)
        _quietly(table_commands.take_seat, boot, gid, seat, sub, by)


def set_clocks(boot: Bootstrap, league: League, by: str) -> None:
    """Stop the clock of each running game whose table or league is paused now, and start
    again the others stopped."""
    for gid in running_games(boot, league):
        stopped = boot.store.load(gid).record.paused_at is not None
        held = league.paused or gid in league.paused_tables
        if held and not stopped:
            _quietly(table_commands.pause, boot, gid, by)
        elif stopped and not held:
            _quietly(table_commands.resume, boot, gid, by)


def resign_everywhere(boot: Bootstrap, league: League, player: str) -> None:
    """Resign a withdrawn member from each of their unfinished games of the league."""
    for gid in running_games(boot, league, player):
        _quietly(game_commands.resign, boot, gid, player)


def _quietly(command, boot: Bootstrap, gid: str, *args: Any) -> None:
    """Run a game command that the game may have made moot (ended, not started, done)."""
    try:
        command(boot, gid, *args)
    except (RuleViolation, NotFound):
        pass


def running_games(boot: Bootstrap, league: League, player: str | None = None) -> list[str]:
    """Return the league's games not finished yet (those `player` sits at, if given)."""
    out = []
    for r in league.rounds.values():
        for t in r.tables:
            if player is not None and player not in t.players:
                continue
            rec = boot.store.load(t.game).record
            if rec.version and rec.status != FINISHED:
                out.append(t.game)
    return out


def open_replays(boot: Bootstrap, league: League) -> list[str]:
    """Open every replay the league's rulings ordered that does not exist yet (a ruling's
    own, or one whose opening was cut short: each ruling and each round start looks)."""
    opened = []
    for ruling in league.ruling_log:
        if ruling.get("replay") and not boot.store.exists(ruling["replay"]):
            opened.append(open_replay(boot, league, ruling))
    return opened


def open_replay(boot: Bootstrap, league: League, ruling: dict[str, Any]) -> str:
    """Create the replay a ruling ordered and seat the table's players in their seats
    (each step only once, like a round's table)."""
    s, gid = league.settings, ruling["replay"]
    number, t = league.table_of(ruling["game"])
    replay = league.chain(t.game).index(gid)
    where = {"id": league.league_id, "round": number, "table": t.number, "game": gid}
    game_commands.create_game(
        boot,
        s["operator"],
        s["ruleset"],
        len(t.players),
        s["options"],
        s["decision_timeout_s"],
        league={**where, "replay": replay},
    )
    for player in t.players:
        given = league_seeds.held(boot, league.league_id, player)  # docs/fairness.md
        seat = {"id": player, "name": league.members[player]}
        game_commands.join(boot, gid, seat, again=True, commitment=given)
    return gid


def mark_game(boot: Bootstrap, league: League, gid: str, player: str) -> None:
    """Log in game `gid` the player's vacations that have not ended yet."""
    rec = boot.store.load(gid).record
    seat = rec.seat_of(player)
    if seat is None:
        return
    logged = {(s, a) for s, a, _ in rec.away}
    for start, end in league.vacations.get(player, []):
        if (seat, start) in logged or parse_time(end).timestamp() <= time.time():
            continue
        try:
            table_commands.away(boot, gid, seat, (start, end), player)
        except RuleViolation:  # the game is over (or not started): nothing to move
            return
