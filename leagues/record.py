"""A league folded from its own event log (`mf:{l:<id>}:events`). Pure: no I/O.

Events: `league.Created` (the settings and the pairing seed), `league.MemberJoined`,
`league.MemberWithdrawn` (for absence, removed by an organizer, or leaving),
`league.MemberReinstated`, `league.MemberSubstituted` (a substitute takes the member's
place), `league.TablePaused` / `league.TableResumed` (one table's clock), `league.RoundStarted`
(the round's tables and their games), `league.GameRecorded` (one finished game's places,
points and new ratings; an aborted game's with no points), `league.Paused`,
`league.Resumed` (the remaining rounds rescheduled from then), `league.Cancelled`,
`league.OrganizerAdded` / `league.OrganizerRemoved` (the creator is the first organizer),
`league.SettingsChanged` (settings not in effect yet; a new cadence reschedules),
`league.DisputeOpened` (a seated player's dispute about a game) and `league.DisputeRuled`
(an organizer's ruling on a recorded game, applied by `leagues.rulings`).
Standings and ratings are this fold; each game is recorded once (its id is the
append's idempotency key), so they change exactly once per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from fractions import Fraction
from typing import Any

from events.codec import GENESIS, parse_time
from leagues import pairing, rulings, standings

SCHEDULED, RUNNING, FINISHED = "scheduled", "running", "finished"
PAUSED, CANCELLED = "paused", "cancelled"
STATUSES = (SCHEDULED, RUNNING, PAUSED, FINISHED, CANCELLED)


@dataclass(frozen=True)
class Table:
    number: int
    game: str
    players: tuple[str, ...]  # in seat order


@dataclass(frozen=True)
class RoundPlay:
    number: int
    started_at: str
    tables: tuple[Table, ...]
    byes: tuple[str, ...]


@dataclass
class League:
    league_id: str
    version: int = 0
    last_hash: str = GENESIS
    settings: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""
    members: dict[str, str] = field(default_factory=dict)  # player -> name, in join order
    withdrawn: dict[str, int] = field(default_factory=dict)  # player -> first round missed
    invited: dict[str, str] = field(default_factory=dict)  # player -> name, not yet answered
    # why each withdrawn member went: left, removed, absence (timeouts), substituted
    why_withdrawn: dict[str, str] = field(default_factory=dict)
    substitutes: dict[str, str] = field(default_factory=dict)  # substitute -> who they replaced
    taken: dict[str, dict[str, str]] = field(default_factory=dict)  # game -> {member: substitute}
    paused_tables: dict[str, str] = field(default_factory=dict)  # game -> who paused it
    vacations: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # (from, until)
    reinstated_at: dict[str, str] = field(default_factory=dict)  # absence counts from then
    rounds: dict[int, RoundPlay] = field(default_factory=dict)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> GameRecorded
    points: dict[str, Fraction] = field(default_factory=dict)  # exact; rounded for display
    games: dict[str, int] = field(default_factory=dict)
    ratings: dict[str, standings.Rating] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)  # games won (place 1)
    opponents: dict[str, list[str]] = field(default_factory=dict)  # met in counted games
    game_points: dict[str, list[Fraction]] = field(default_factory=dict)  # per counted game
    paused: bool = False
    cancelled: bool = False
    resumed: tuple[int, str] | None = None  # (the first round rescheduled, from when)
    organizers: list[str] = field(default_factory=list)  # the creator, then co-organizers
    organizer_names: dict[str, str] = field(default_factory=dict)
    disputes: dict[int, dict[str, Any]] = field(default_factory=dict)  # number -> opened
    rulings: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> newest ruling
    ruling_log: list[dict[str, Any]] = field(default_factory=list)  # every ruling, in order
    replays: dict[str, str] = field(default_factory=dict)  # game -> its replay's game

    @property
    def status(self) -> str:
        """Return scheduled (before round 1), running, paused, finished (every round
        started and every game recorded) or cancelled."""
        if self.cancelled:
            return CANCELLED
        last = len(self.rounds) == self.settings["rounds"]
        played = all(t.game in self.results for r in self.rounds.values() for t in r.tables)
        played = played and all(g in self.results for g in self.replays.values())
        if last and played:
            return FINISHED
        if self.paused:
            return PAUSED
        return RUNNING if self.rounds else SCHEDULED

    @property
    def over(self) -> bool:
        """Return True once nothing more will happen (finished or cancelled)."""
        return self.status in (FINISHED, CANCELLED)

    def byes(self, player: str) -> int:
        """Return how many started rounds the member sat out (not counting withdrawal)."""
        return sum(1 for r in self.rounds.values() if player in r.byes)

    def active(self) -> list[str]:
        """Return the members not withdrawn, in join order."""
        return [m for m in self.members if m not in self.withdrawn]

    def due(self, number: int) -> float:
        """Return when round `number` is due to start (a Unix time): `start_at` plus a
        cadence per round, or, after a resume, from the resume on."""
        first, start = 1, parse_time(self.settings["start_at"])
        if self.resumed and number >= self.resumed[0]:
            first, start = self.resumed[0], parse_time(self.resumed[1])
        gap = timedelta(seconds=self.settings["cadence_s"] * (number - first))
        return (start + gap).timestamp()

    def table_of(self, game: str) -> tuple[int, Table] | None:
        """Return (round, table) of a league game (a replay: its table's), or None."""
        for number, r in self.rounds.items():
            for t in r.tables:
                if game in self.chain(t.game):
                    return number, t
        return None

    def chain(self, game: str) -> list[str]:
        """Return a table's game and its replays, in order."""
        out = [game]
        while out[-1] in self.replays:
            out.append(self.replays[out[-1]])
        return out

    def away(self, player: str) -> list[tuple[float, float]]:
        """Return a member's declared vacations as (start, end) Unix times."""
        spans = self.vacations.get(player, [])
        return [(parse_time(a).timestamp(), parse_time(b).timestamp()) for a, b in spans]

    def rating(self, player: str) -> standings.Rating:
        """Return a member's rating (the initial one before their first game)."""
        return self.ratings.get(player, standings.initial())

    def played(self) -> list[pairing.Round]:
        """Return the started rounds as the pairing sees them, in order."""
        return [
            pairing.Round(tuple(t.players for t in r.tables), r.byes)
            for _, r in sorted(self.rounds.items())
        ]


def fold(league: League, envelope: dict[str, Any]) -> League:
    """Apply one envelope to the league (in place) and return it."""
    kind, data = envelope["type"], envelope["data"]
    league.version, league.last_hash = envelope["seq"], envelope["hash"]
    if kind == "league.Created":
        league.settings, league.created_at = dict(data), envelope["at"]
        creator = data.get("operator")
        league.organizers = [creator] if creator else []
        league.organizer_names = {creator: data.get("operator_name", "")} if creator else {}
    elif kind == "league.OrganizerAdded":
        league.organizers.append(data["player"])
        league.organizer_names[data["player"]] = data["name"]
    elif kind == "league.OrganizerRemoved":
        league.organizers.remove(data["player"])
    elif kind == "league.MemberJoined":
        league.members[data["player"]] = data["name"]
        league.invited.pop(data["player"], None)
    elif kind == "league.Invited":
        league.invited[data["player"]] = data["name"]
    elif kind == "league.InvitationDeclined":
        league.invited.pop(data["player"], None)
    elif kind == "league.MemberWithdrawn":
        league.withdrawn[data["player"]] = data["round"]
        league.why_withdrawn[data["player"]] = withdrawal_reason(data)
    elif kind == "league.MemberReinstated":
        league.withdrawn.pop(data["player"], None)
        league.why_withdrawn.pop(data["player"], None)
        league.reinstated_at[data["player"]] = envelope["at"]
    elif kind == "league.MemberSubstituted":
        out, sub = data["player"], data["substitute"]
        league.members.setdefault(sub, data["name"])
        league.withdrawn.pop(sub, None)
        league.why_withdrawn.pop(sub, None)
        league.withdrawn[out], league.why_withdrawn[out] = data["round"], "substituted"
        league.substitutes[sub] = out
        for game in data.get("games", []):
            league.taken.setdefault(game, {})[out] = sub
    elif kind == "league.VacationDeclared":
        league.vacations.setdefault(data["player"], []).append((data["from"], data["until"]))
    elif kind == "league.TablePaused":
        league.paused_tables[data["game"]] = data["by"]
    elif kind == "league.TableResumed":
        league.paused_tables.pop(data["game"], None)
    elif kind == "league.SettingsChanged":
        league.settings.update(data["changes"])
        if "from" in data:  # a new cadence: the rounds to come are rescheduled
            league.resumed = (data["round"], data["from"])
    elif kind == "league.Paused":
        league.paused = True
    elif kind == "league.Resumed":
        league.paused, league.resumed = False, (data["round"], data["from"])
    elif kind == "league.Cancelled":
        league.cancelled = True
    elif kind == "league.RoundStarted":
        tables = tuple(Table(t["table"], t["game"], tuple(t["players"])) for t in data["tables"])
        league.rounds[data["round"]] = RoundPlay(
            data["round"], envelope["at"], tables, tuple(data["byes"])
        )
    elif kind == "league.GameRecorded":
        league.results[data["game"]] = data
        result = rulings.scored(league, data, league.rulings.get(data["game"]))
        if result is None:  # aborted: on the record, but it counts for nobody
            return league
        ratings = {p["player"]: (p["mu"], p["sigma"]) for p in data["places"]}
        rulings.count(league, result.places, result.points, ratings)
    elif kind == "league.DisputeOpened":
        league.disputes[data["dispute"]] = {**data, "at": envelope["at"]}
    elif kind == "league.DisputeRuled":
        ruling = {**data, "at": envelope["at"]}
        league.rulings[data["game"]] = ruling
        league.ruling_log.append(ruling)
        if data.get("replay"):
            league.replays[data["game"]] = data["replay"]
        rulings.recount(league)
    return league


def withdrawal_reason(data: dict[str, Any]) -> str:
    """Return why a `league.MemberWithdrawn` withdrew its member: `left` (by self),
    `removed` (by an organizer or operator), `absence` (by the absence rule)."""
    if "reason" in data:
        return data["reason"]
    return {"self": "left", "timeouts": "absence"}.get(data.get("by"), "removed")


def fold_all(league: League, envelopes: list[dict[str, Any]]) -> League:
    """Apply envelopes in order."""
    for env in envelopes:
        league = fold(league, env)
    return league
