"""The folded record of one game: lobby facts around the game's own state.

`game.*` events (created, joined, reveals opened, seed revealed, seeds combined, started,
timed out, resigned, deadline extended, aborted, seat taken by a substitute, seat away,
paused, resumed, ended) are folded here; every other event goes to the game's own `evolve`.
Knows no Redis and no HTTP.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import games
from events import catalog, deadlines
from events.codec import GENESIS, parse_time
from games.base import Event, Game, Owed
from games.rng import combine

WAITING, ACTIVE, FINISHED, CANCELLED = "waiting", "active", "finished", "cancelled"
PENDING, ACCEPTED, DECLINED, LAPSED = "pending", "accepted", "declined", "lapsed"


@dataclass(frozen=True)
class Seat:
    seat: int
    player: str
    name: str
    computer: str | None = None  # a computer player's level (`game.PlayerJoined` says so)
    commitment: str | None = None  # the seat's commitment to its secret (docs/fairness.md)


@dataclass(frozen=True)
class Record:
    game_id: str
    ruleset: str = ""
    rules_version: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    players: int = 0
    decision_timeout_s: int | None = None
    time_model: int = 1  # the deadline rule's tolerances it is played under (events.deadlines)
    created_at: str = ""
    seats: tuple[Seat, ...] = ()
    order: tuple[int, ...] = ()
    status: str = WAITING
    state: Any = None
    version: int = 0
    last_hash: str = GENESIS
    draws: int = 0
    owed_since: tuple[tuple[str, str], ...] = ()  # (decision key, `at` it became owed)
    owed_from: tuple[tuple[str, int], ...] = ()  # (decision key, version it became owed at)
    result: dict[str, Any] | None = None
    seed: str | None = None  # revealed when the game ends
    league: dict[str, Any] | None = None  # {"id", "round", "table"} of a league's game
    creator: str | None = None  # the player who created the game
    resigned: frozenset[int] = frozenset()  # seats that resigned (game.SeatResigned)
    # per seat, how many of its decisions in a row were deadline defaults (an action resets)
    defaults_in_row: tuple[int, ...] = ()
    extended: tuple[tuple[str, str], ...] = ()  # (decision key, deadline) after an outage
    aborted: bool = False  # an operator aborted the game (game.Aborted)
    # the table's terms (game.Terms, written at creation when any differs from the default)
    unlisted: bool = False  # not in the lobby: joined by invitation, or by the link's secret
    # every invitation or rematch reservation: (player, name, answer), answer one of
    # pending, accepted, declined, lapsed; a pending one holds a seat for its player
    invited: tuple[tuple[str, str, str], ...] = ()
    reserved_until: str | None = None  # when pending reservations lapse (game.ReservationsLapsed)
    open_when_lapsed: bool = False  # the lapse lists an unlisted game in the lobby
    rematch_of: str | None = None  # the finished game this one is the rematch of
    claim_after_s: int | None = None  # an untimed game's idle time before a claim (None: default)
    last_at: str = ""  # when the last event was appended (a private step included)
    public_at: str = ""  # when the last public event was appended
    party_at: tuple[str, ...] = ()  # per seat, when the last private step it is party to was
    moved: frozenset[int] = frozenset()  # seats that made a decision (own, default, resigned)
    claimed: bool = False  # a seat claimed the idle game (game.Claimed): it ends abandoned
    paused_at: str | None = None  # its clock stopped (game.Paused) until game.Resumed
    away: tuple[tuple[int, str, str], ...] = ()  # (seat, from, until): a declared vacation
    # the private log (docs/architecture.md, "Private steps"): how many private steps are
    # folded, the hash of the last, and per seat how many of them it is party to
    private: int = 0
    private_hash: str = GENESIS
    private_seen: tuple[int, ...] = ()
    # seats' randomness (docs/fairness.md, "Seats' randomness"): the rule the game's draw
    # key follows (1: the server's seed alone; 2: combined with the seats' secrets), how
    # long the reveals stay open, since when they are (game.RevealsOpened), each reveal
    # (seat, secret hex), and whether the key was combined (game.SeedsCombined)
    seed_rule: int = 1
    reveal_window_s: int | None = None
    reveals_opened: str | None = None
    reveals: tuple[tuple[int, str], ...] = ()
    seeds_combined: bool = False

    def etag(self, seat: int | None) -> str:
        """Return what changes exactly when something `seat` may see changes: the public
        version, and for a seat the private steps it is party to (others' never count)."""
        seen = self.private_seen[seat] if seat is not None and seat < len(self.private_seen) else 0
        return f"{self.version}.{seen}" if seen else str(self.version)

    @property
    def game(self) -> Game:
        """Return the rules this game is played under (its recorded rules version)."""
        return games.get(self.ruleset, self.rules_version)

    def seen_at(self, seat: int) -> str:
        """Return when `seat` last saw the game move: its last public event, or a later
        private step the seat is party to (others' private steps never count)."""
        party = self.party_at[seat] if 0 <= seat < len(self.party_at) else ""
        return max(self.public_at, party)

    @property
    def keeps_private_log(self) -> bool:
        """Return True when this game may have private steps: its rules keep a private log
        and its options use it (a regulated Black Market game's stays empty)."""
        return self.game.keeps_private_log(self.options)

    @property
    def revealing(self) -> bool:
        """Return True while the seats' secrets are being revealed (the table is full and
        the game not started yet)."""
        return bool(self.reveals_opened) and not self.seeds_combined and self.status == WAITING

    def reveal_deadline(self) -> str | None:
        """Return when the reveals close whatever is missing, while they are open."""
        if not self.revealing or self.reveals_opened is None:
            return None
        when = parse_time(self.reveals_opened) + timedelta(seconds=self.reveal_window_s or 0)
        return when.isoformat(timespec="milliseconds").replace("+00:00", "Z")

    def committed(self) -> list[int]:
        """Return the seats that sent a commitment when they joined."""
        return [s.seat for s in self.seats if s.commitment]

    def draw_seed(self, seed: bytes) -> bytes:
        """Return the key the game draws with, given the server's seed: the seed itself,
        or (seed rule 2, once game.SeedsCombined) the seed combined with every seat's
        revealed secret (an empty contribution for a seat that revealed none)."""
        if not self.seeds_combined:
            return seed
        revealed = dict(self.reveals)
        return combine(seed, self.game_id, [revealed.get(i) for i in range(self.players)])

    def seat_of(self, player_id: str) -> int | None:
        """Return the seat `player_id` holds, or None."""
        return next((s.seat for s in self.seats if s.player == player_id), None)

    def owed(self) -> list[Owed]:
        """Return the decisions owed now (none unless the game is active). Computed once
        per record (an action asks about a dozen times: deadlines, feeds, the answer), by
        the fold that made it after a game's event, kept beside the fields (`_with` drops
        it, snapshots and equality ignore it)."""
        known = self.__dict__.get("_owed")
        if known is None:
            known = self.game.owed(self.state) if self.status == ACTIVE and self.state else []
            object.__setattr__(self, "_owed", known)
        return list(known)

    def computer(self, seat: int) -> str | None:
        """Return the level of the computer player at `seat`, or None for a person."""
        return next((s.computer for s in self.seats if s.seat == seat), None)

    def reserved(self) -> list[str]:
        """Return the players whose seats are held for them (pending invitations)."""
        return [p for p, _, answer in self.invited if answer == PENDING]

    def deadline(self, key: str, running: bool = False) -> str | None:
        """Return the ISO deadline of decision `key`, or None without a time control or
        while the game is paused (`running`: the deadline it had when its clock stopped):
        the one source of deadlines, by the deadline rule (`events.deadlines.due`)."""
        return deadlines.due(self, key, running)

    def still_open(self, player_id: str, version: int) -> bool:
        """Return True if the player owes a simultaneous decision now that was already
        open at `version` (other seats' submissions since then do not change it)."""
        seat, opened = self.seat_of(player_id), dict(self.owed_from)
        return any(
            o.seat == seat and o.simultaneous and opened.get(o.key, version + 1) <= version
            for o in self.owed()
        )


def _with(record: Record, changes: dict[str, Any]) -> Record:
    """Return a copy of the frozen record with `changes` (cheaper than dataclasses.replace,
    which matters when an audit folds thousands of events)."""
    copy = object.__new__(Record)
    copy.__dict__.update(record.__dict__, **changes)
    copy.__dict__.pop("_owed", None)
    return copy


def fold(record: Record, envelope: dict[str, Any]) -> Record:
    """Apply one envelope to the record."""
    kind, data = envelope["type"], envelope["data"]
    changes: dict[str, Any] = {"version": envelope["seq"], "last_hash": envelope["hash"]}
    owed: list[Owed] | None = None  # the new state's, once computed
    if "private" in envelope:  # a private step: the public version does not move
        changes = {"private": envelope["private"], "private_hash": envelope["hash"]}
        seen = list(record.private_seen) or [0] * record.players
        for seat in envelope["visible_to"]:
            if 0 <= seat < len(seen):
                seen[seat] += 1
        changes["private_seen"] = tuple(seen)
        party = list(record.party_at) or [""] * record.players
        for seat in envelope["visible_to"]:
            if 0 <= seat < len(party):
                party[seat] = envelope["at"]
        changes["party_at"] = tuple(party)
    else:
        changes["public_at"] = envelope.get("at", record.public_at)
    changes["last_at"] = envelope.get("at", record.last_at)  # private steps too: activity
    if "draws" in envelope:
        changes["draws"] = envelope["draws"][1]
    if (table := TABLE_FOLDS.get(kind)) is not None:
        changes.update(table(record, data, envelope))
    elif not catalog.is_table_event(kind):
        game = record.game
        state = game.evolve(record.state, Event(kind, data, _visible(envelope["visible_to"])))
        owed = game.owed(state)
        changes.update(
            state=state,
            owed_since=_owed_since(record, owed, envelope["at"]),
            owed_from=_owed_from(record, owed, envelope["seq"]),
        )
        if record.extended:
            keys = {k for k, _ in changes["owed_since"]}
            changes["extended"] = tuple(e for e in record.extended if e[0] in keys)
    command = envelope.get("command")
    if command and command.get("type") == "act" and record.status == ACTIVE:
        seat = record.seat_of(command.get("player", ""))
        if seat is not None and seat not in record.moved:
            changes["moved"] = changes.get("moved", record.moved) | {seat}
    if command and command.get("type") == "act" and record.defaults_in_row:
        seat = record.seat_of(command.get("player", ""))  # a redacted command names no one
        if seat is not None:  # an action in time: this seat is not absent
            base = changes.get("defaults_in_row", record.defaults_in_row)
            changes["defaults_in_row"] = _count(base, seat, None)
    folded = _with(record, changes)
    if owed is not None and folded.status == ACTIVE and folded.state:
        folded.__dict__["_owed"] = owed  # what its `owed()` would compute again
    return folded


def _created(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": data["ruleset"],
        "rules_version": data.get("rules_version"),
        "options": data["options"],
        "players": data["players"],
        "decision_timeout_s": data["decision_timeout_s"],
        "time_model": data.get("time_model", 1),
        "created_at": envelope["at"],
        "league": data.get("league"),
        "creator": data.get("creator"),
        "seed_rule": data.get("seed_rule", 1),
        "reveal_window_s": data.get("reveal_window_s"),
    }


def _terms(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "unlisted": data["unlisted"],
        "invited": tuple((r["player"], r["name"], PENDING) for r in data["reserved"]),
        "reserved_until": data["reserved_until"],
        "open_when_lapsed": data["open_when_lapsed"],
        "rematch_of": data["rematch_of"],
        "claim_after_s": data["claim_after_s"],
    }


def _joined(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    level = (data.get("computer") or {}).get("level")
    seat = Seat(data["seat"], data["player"], data["name"], level, data.get("commitment"))
    invited = _answer(record.invited, {data["player"]}, ACCEPTED)
    return {"seats": (*record.seats, seat), "invited": invited}


def _left(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    """The seats after it move up one: seats stay 0..n-1."""
    kept = [s for s in record.seats if s.player != data["player"]]
    return {
        "seats": tuple(
            Seat(i, s.player, s.name, s.computer, s.commitment) for i, s in enumerate(kept)
        ),
        "invited": _answer(record.invited, {data["player"]}, DECLINED, ACCEPTED),
    }


def _lapsed(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    changes: dict[str, Any] = {"invited": _answer(record.invited, set(data["players"]), LAPSED)}
    if data["listed"]:
        changes["unlisted"] = False
    return changes


def _ended(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    return {
        "status": FINISHED,
        "result": data["result"],
        "seed": data["seed"],
        "owed_since": (),
        "owed_from": (),
        "extended": (),
    }


def _extended(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    kept = tuple(e for e in record.extended if e[0] != data["key"])
    return {"extended": (*kept, (data["key"], data["new_deadline"]))}


def _taken(record: Record, data: dict[str, Any], envelope: dict[str, Any]) -> dict[str, Any]:
    """A substitute plays the seat from now on."""
    seat = data["seat"]
    return {
        "seats": tuple(
            Seat(s.seat, data["player"], data["name"]) if s.seat == seat else s
            for s in record.seats
        ),
        "resigned": record.resigned - {seat},
        "defaults_in_row": _count(record.defaults_in_row, seat, None),
    }


# how each of the table's events (events.catalog) changes the record: (record, data,
# envelope) -> the fields it changes; tests/events/test_catalog.py checks none is missing
TABLE_FOLDS: dict[str, Callable[[Record, dict[str, Any], dict[str, Any]], dict[str, Any]]] = {
    catalog.CREATED: _created,
    catalog.TERMS: _terms,
    catalog.PLAYER_JOINED: _joined,
    catalog.PLAYER_LEFT: _left,
    catalog.INVITATION_DECLINED: lambda r, d, e: {
        "invited": _answer(r.invited, {d["player"]}, DECLINED)
    },
    catalog.RESERVATIONS_LAPSED: _lapsed,
    catalog.CLAIMED: lambda r, d, e: {"claimed": True},
    catalog.CANCELLED: lambda r, d, e: {"status": CANCELLED},
    catalog.STARTED: lambda r, d, e: {
        "order": tuple(d["order"]),
        "status": ACTIVE,
        "defaults_in_row": (0,) * r.players,
    },
    catalog.ENDED: _ended,
    catalog.DECISION_TIMED_OUT: lambda r, d, e: {
        "defaults_in_row": _count(r.defaults_in_row, d["seat"], 1),
        "moved": r.moved | {d["seat"]},
    },
    catalog.SEAT_RESIGNED: lambda r, d, e: {
        "resigned": r.resigned | {d["seat"]},
        "moved": r.moved | {d["seat"]},
    },
    catalog.DEADLINE_EXTENDED: _extended,
    catalog.ABORTED: lambda r, d, e: {"aborted": True},
    catalog.SEAT_TAKEN: _taken,
    catalog.SEAT_AWAY: lambda r, d, e: {"away": (*r.away, (d["seat"], d["from"], d["until"]))},
    catalog.PAUSED: lambda r, d, e: {"paused_at": e["at"]},
    catalog.RESUMED: lambda r, d, e: {"paused_at": None},
    catalog.REVEALS_OPENED: lambda r, d, e: {"reveals_opened": e["at"]},
    catalog.SEED_REVEALED: lambda r, d, e: {"reveals": (*r.reveals, (d["seat"], d["secret"]))},
    catalog.SEEDS_COMBINED: lambda r, d, e: {"seeds_combined": True},
}


def _answer(
    invited: tuple[tuple[str, str, str], ...], players: set[str], answer: str, was: str = PENDING
) -> tuple[tuple[str, str, str], ...]:
    """Return `invited` with the answer of `players`' invitations in state `was` set."""
    return tuple((p, n, answer if p in players and a == was else a) for p, n, a in invited)


def _count(counts: tuple[int, ...], seat: int, add: int | None) -> tuple[int, ...]:
    """Return `counts` with the seat's count raised by `add`, or reset to 0 (None)."""
    if not 0 <= seat < len(counts):
        return counts
    return (*counts[:seat], 0 if add is None else counts[seat] + add, *counts[seat + 1 :])


def _owed_since(record: Record, owed: list[Owed], at: str) -> tuple[tuple[str, str], ...]:
    since = dict(record.owed_since)
    return tuple((o.key, since.get(o.key, at)) for o in owed)


def _owed_from(record: Record, owed: list[Owed], seq: int) -> tuple[tuple[str, int], ...]:
    since = dict(record.owed_from)
    return tuple((o.key, since.get(o.key, seq)) for o in owed)


def _visible(value: str | list[int]) -> str | tuple[int, ...]:
    return value if isinstance(value, str) else tuple(value)


def fold_all(record: Record, envelopes: list[dict[str, Any]]) -> Record:
    """Apply envelopes in order."""
    for env in envelopes:
        record = fold(record, env)
    return record


def in_order(public: list[dict[str, Any]], private: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return a game's public and private envelopes in the order they were decided: each
    private step right after the public event whose `seq` it keeps, in its own order."""
    return sorted([*public, *private], key=lambda e: (e["seq"], e.get("private", 0)))
