"""The folded record of one game: lobby facts around the game's own state (the
`Record` and its `Seat`s, with what they answer). `events.fold` builds it from the log.
Knows no Redis and no HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import games
from events import deadlines
from events.codec import GENESIS, parse_time
from games.base import Game, Owed
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
