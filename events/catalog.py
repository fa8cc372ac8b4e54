"""The service's own events: every `game.*` type a game's log may hold, in one place.

A game's rules declare their own events (games/*/events.py, checked by `games.kit`); these
are the table's: who sits, when it starts and ends, deadlines, pauses. Code names them by
these constants, never by a string of its own, and tests/events/test_catalog.py fails when
one of what is derived from this list misses a type: the fold (`events.fold`), the
statuses a stream announces (`STATUS_AFTER`), openapi.yaml's list of lobby events, and the
web client's and the replay viewer's words for each (tests/web/errors_events.test.mjs).
"""

from __future__ import annotations

CREATED = "game.Created"
TERMS = "game.Terms"
PLAYER_JOINED = "game.PlayerJoined"
PLAYER_LEFT = "game.PlayerLeft"
INVITATION_DECLINED = "game.InvitationDeclined"
RESERVATIONS_LAPSED = "game.ReservationsLapsed"
CLAIMED = "game.Claimed"
CANCELLED = "game.Cancelled"
STARTED = "game.Started"
ENDED = "game.Ended"
DECISION_TIMED_OUT = "game.DecisionTimedOut"
SEAT_RESIGNED = "game.SeatResigned"
DEADLINE_EXTENDED = "game.DeadlineExtended"
ABORTED = "game.Aborted"
SEAT_TAKEN = "game.SeatTaken"
SEAT_AWAY = "game.SeatAway"
PAUSED = "game.Paused"
RESUMED = "game.Resumed"
# seats' randomness (docs/fairness.md, "Seats' randomness")
REVEALS_OPENED = "game.RevealsOpened"
SEED_REVEALED = "game.SeedRevealed"
SEEDS_COMBINED = "game.SeedsCombined"

# every type, with what its data holds (openapi.yaml's list says the same)
TYPES: dict[str, str] = {
    CREATED: "ruleset, rules_version, players, options, decision_timeout_s, time_model, "
    "seed_commitment, creator, league, seed_rule, reveal_window_s",
    TERMS: "unlisted, reserved, reserved_until, open_when_lapsed, rematch_of, claim_after_s",
    PLAYER_JOINED: "seat, player, name, computer, commitment",
    PLAYER_LEFT: "seat, player",
    INVITATION_DECLINED: "player",
    RESERVATIONS_LAPSED: "players, listed",
    CLAIMED: "seat, idle_since",
    CANCELLED: "by, reason",
    STARTED: "order",
    ENDED: "result, seed",
    DECISION_TIMED_OUT: "seat, kind, key, default",
    SEAT_RESIGNED: "seat",
    DEADLINE_EXTENDED: "key, seats, old_deadline, new_deadline, reason",
    ABORTED: "by",
    SEAT_TAKEN: "seat, player, name, replaces, by",
    SEAT_AWAY: "seat, from, until, by",
    PAUSED: "by",
    RESUMED: "by, paused_at",
    REVEALS_OPENED: "seats, window_s",
    SEED_REVEALED: "seat, secret",
    SEEDS_COMBINED: "rule, revealed, withheld, none",
}

# the game's status after each event that changes it (a stream announces it with the event)
STATUS_AFTER: dict[str, str] = {STARTED: "active", ENDED: "finished", CANCELLED: "cancelled"}


def is_table_event(kind: str) -> bool:
    """Return True for a `game.*` type (the table's), False for a ruleset's own event."""
    return kind.startswith("game.")
