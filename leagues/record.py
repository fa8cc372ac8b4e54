"""A league folded from its own event log (`mf:{l:<id>}:events`). Pure: no I/O.

Events: `league.Created` (the settings and the pairing seed), `league.MemberJoined`,
`league.MemberWithdrawn` (for absence, removed by an organizer, or leaving),
`league.MemberReinstated`, `league.MemberSubstituted` (a substitute takes the member's
place), `league.TablePaused` / `league.TableResumed` (one table's clock), `league.RoundStarted`
(the round's tables and their games), `league.GameRecorded` (one finished game's places,
points and new ratings; an aborted game's with no points), `league.Paused`,
`league.Resumed` (the remaining rounds rescheduled from then), `league.Cancelled`,
`league.OrganizerAdded` / `league.OrganizerRemoved` (the creator is the first organizer),
`league.SettingsChanged` (settings not in effect yet; a new cadence reschedules).
Standings and ratings are this fold; each game is recorded once (its id is the
append's idempotency key), so they change exactly once per game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from fractions import Fraction
from typing import Any

from events.codec import GENESIS, parse_time
from leagues import forfeits, pairing, settings, standings

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

    @property
    def status(self) -> str:
        """Return scheduled (before round 1), running, paused, finished (every round
        started and every game recorded) or cancelled."""
        if self.cancelled:
            return CANCELLED
        last = len(self.rounds) == self.settings["rounds"]
        played = all(t.game in self.results for r in self.rounds.values() for t in r.tables)
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
        if data.get("reason") == "aborted":  # on the record, but it counts for nobody
            return league
        _count_game(league, data["places"])
    return league


def withdrawal_reason(data: dict[str, Any]) -> str:
    """Return why a `league.MemberWithdrawn` withdrew its member: `left` (by self),
    `removed` (by an organizer or operator), `absence` (by the absence rule)."""
    if "reason" in data:
        return data["reason"]
    return {"self": "left", "timeouts": "absence"}.get(data.get("by"), "removed")


def _count_game(league: League, places: list[dict[str, Any]]) -> None:
    table = [p["player"] for p in places]
    # exact shares (recorded points are rounded to 4 places; sums use the exact values)
    scored = scored_game(league, places)
    exact = scored.points
    for p in places:
        player = p["player"]
        league.points[player] = league.points.get(player, 0) + exact[player]
        league.games[player] = league.games.get(player, 0) + 1
        league.ratings[player] = (p["mu"], p["sigma"])
        league.wins[player] = league.wins.get(player, 0) + (scored.places[player] == 1)
        league.opponents.setdefault(player, []).extend(o for o in table if o != player)
        league.game_points.setdefault(player, []).append(exact[player])


def scored_game(league: League, places: list[dict[str, Any]]) -> forfeits.Scored:
    """Return a recorded game's exact points and league places under the league's points
    and forfeit rule (its rows mark each forfeiting seat `forfeit`)."""
    scale = league.settings.get("points") or standings.DEFAULT_POINTS
    forfeited = {p["player"] for p in places if p.get("forfeit")}
    by_place = {p["player"]: p["place"] for p in places}
    return forfeits.score(by_place, forfeited, scale, settings.get(league, "forfeit_points"))


def fold_all(league: League, envelopes: list[dict[str, Any]]) -> League:
    """Apply envelopes in order."""
    for env in envelopes:
        league = fold(league, env)
    return league
