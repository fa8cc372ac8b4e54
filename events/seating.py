"""What the table decides before play: seating, the seed reveals, and leaving or
cancelling a game that has not started, as pure functions of the folded record (run by
the service to write the log and by the audit, through `events.redecide.command`, to
check it).
"""

from __future__ import annotations

from events import catalog
from events.record import CANCELLED, WAITING, Record
from games.base import Event, RuleViolation
from games.rng import Rng, combine, seat_commitment


class NotSeated(Exception):
    """The player holds no seat in the game."""


def seat_of(rec: Record, player_id: str) -> int:
    """Return the player's seat or raise NotSeated."""
    seat = rec.seat_of(player_id)
    if seat is None:
        raise NotSeated(player_id)
    return seat


def join(
    rec: Record,
    player_id: str,
    name: str,
    rng: Rng,
    computer: str | None = None,
    commitment: str | None = None,
) -> list[Event]:
    """Seat a player (`computer`: a computer player's level, logged with the seat;
    `commitment`: the seat's commitment to its secret, docs/fairness.md). The last seat to
    fill starts the game, or (seed rule 2, some seat committed) opens the reveals."""
    if rec.status != WAITING:
        what = "was cancelled" if rec.status == CANCELLED else "has already started"
        raise RuleViolation(f"the game {what}", code="game_not_waiting")
    if rec.seat_of(player_id) is not None:
        raise RuleViolation("you already hold a seat in this game", code="already_seated")
    if len(rec.seats) >= rec.players:
        raise RuleViolation("every seat is taken: the game is starting", code="game_starting")
    reserved = rec.reserved()
    if player_id not in reserved and len(rec.seats) + len(reserved) >= rec.players:
        raise RuleViolation(
            "every free seat is reserved for an invited player", code="seat_reserved"
        )
    seat = len(rec.seats)
    joined = {"seat": seat, "player": player_id, "name": name}
    if computer:
        joined["computer"] = {"level": computer}
    if commitment and rec.seed_rule >= 2:
        joined["commitment"] = commitment
    events = [Event(catalog.PLAYER_JOINED, joined)]
    if seat + 1 == rec.players:
        committed = rec.committed() + ([seat] if "commitment" in joined else [])
        if committed:
            window = rec.reveal_window_s
            events.append(Event(catalog.REVEALS_OPENED, {"seats": committed, "window_s": window}))
        else:
            events += start(rec, rng)
    return events


def start(rec: Record, rng: Rng) -> list[Event]:
    """Shuffle the seating and set the game up (the first draws of the game)."""
    order = rng.shuffle(range(rec.players))
    return [
        Event(catalog.STARTED, {"order": order}),
        *rec.game.setup(rec.options, tuple(order), rng),
    ]


def reveal(rec: Record, player_id: str, secret: str, rng: Rng) -> tuple[int, list[Event]]:
    """Reveal the seat's secret (lowercase hex of its 32 bytes) while the reveals are open;
    the last committed seat to reveal starts the game."""
    seat = seat_of(rec, player_id)
    if not rec.revealing:
        why = "the reveals open once every seat is taken" if rec.status == WAITING else ""
        raise RuleViolation(why or f"the game is {rec.status}", code="reveal_not_open")
    holder = next(s for s in rec.seats if s.seat == seat)
    if not holder.commitment:
        raise RuleViolation("your seat sent no commitment when it joined", code="not_committed")
    if any(s == seat for s, _ in rec.reveals):
        raise RuleViolation("your seat revealed its secret already", code="already_revealed")
    if not secret_matches(secret, holder.commitment):
        why = "the secret does not match your seat's commitment"
        raise RuleViolation(why, code="reveal_mismatch", field="seat_secret")
    events = [Event(catalog.SEED_REVEALED, {"seat": seat, "secret": secret})]
    revealed = {s for s, _ in rec.reveals} | {seat}
    if set(rec.committed()) <= revealed:
        events += close_reveals(rec, rng, ((seat, secret),))
    return seat, events


def secret_matches(secret: str, commitment: str) -> bool:
    """Return True if `secret` is 64 lowercase hex digits whose bytes hash to `commitment`."""
    if len(secret) != 64 or secret.strip("0123456789abcdef"):
        return False
    return seat_commitment(bytes.fromhex(secret)) == commitment


def close_reveals(rec: Record, rng: Rng, more: tuple[tuple[int, str], ...] = ()) -> list[Event]:
    """Close the reveals (all in, or their window over) and start the game: log which seats
    contributed, withheld their secret or sent no commitment, then draw with the combined
    key (rng: still keyed with the server's seed)."""
    if not rec.revealing:
        return []
    revealed = dict((*rec.reveals, *more))
    committed = set(rec.committed())
    data = {
        "rule": 2,
        "revealed": sorted(revealed),
        "withheld": sorted(committed - set(revealed)),
        "none": [i for i in range(rec.players) if i not in committed],
    }
    rng.rekey(combine(rng.seed, rec.game_id, [revealed.get(i) for i in range(rec.players)]))
    return [Event(catalog.SEEDS_COMBINED, data), *start(rec, rng)]


def _waiting(rec: Record) -> None:
    if rec.status != WAITING:
        raise RuleViolation(f"the game is {rec.status}", code="game_not_waiting")
    if rec.revealing:
        raise RuleViolation("every seat is taken: the game is starting", code="game_starting")
    if rec.league:
        raise RuleViolation("a league's table is seated by the league", code="league_game")


def decline(rec: Record, player_id: str) -> list[Event]:
    """Refuse an invitation: the seat held for the player is free again."""
    if rec.status != WAITING:
        raise RuleViolation(f"the game is {rec.status}", code="game_not_waiting")
    if player_id not in rec.reserved():
        raise RuleViolation("no seat of this game is held for you", code="not_invited")
    return [Event(catalog.INVITATION_DECLINED, {"player": player_id})]


def release(rec: Record) -> list[Event]:
    """Free every seat still held when the reservations run out (the worker's command at
    `reserved_until`); an unlisted game whose creator chose so is listed in the lobby."""
    pending = rec.reserved()
    if rec.status != WAITING or not pending:
        return []
    listed = rec.unlisted and rec.open_when_lapsed
    return [Event(catalog.RESERVATIONS_LAPSED, {"players": pending, "listed": listed})]


def leave(rec: Record, player_id: str) -> list[Event]:
    """Free the player's seat in a game that has not started."""
    _waiting(rec)
    seat = seat_of(rec, player_id)
    return [Event(catalog.PLAYER_LEFT, {"seat": seat, "player": player_id})]


def cancel(rec: Record, player_id: str) -> list[Event]:
    """Cancel a game that has not started (its creator only)."""
    _waiting(rec)
    if rec.creator != player_id:
        raise RuleViolation("only the game's creator may cancel it", code="not_creator")
    return [Event(catalog.CANCELLED, {"by": player_id})]


def lapse(rec: Record) -> list[Event]:
    """Cancel a game that waited too long for its seats (a worker's command); not one whose
    seats are all taken and revealing (it starts within seconds)."""
    if rec.revealing:
        return []
    _waiting(rec)
    return [Event(catalog.CANCELLED, {"by": "system", "reason": "expired"})]
