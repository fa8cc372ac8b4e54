"""What players do around a game before and after play: leave a waiting game, cancel
one (its creator), and ask for a rematch of a finished one.

Leaving and cancelling are commands on the game's log (`game.PlayerLeft`,
`game.Cancelled`), decided by `events.decide` like a join, so an audit replays them. A
rematch is a new game: the finished game's log never changes after `game.Ended`; its
rematch's id is kept beside it (stores.tables), so everyone who asks gets the
same new game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import codec, seating
from events.record import FINISHED, Record
from events.recording import Writes
from games.rng import Rng
from service import loop, tables
from service.errors import Conflict, Forbidden
from service.game_log import GameLog, load
from service.loop import Outcome
from service.notify import inbox as notify_inbox

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def leave(boot: Bootstrap, game_id: str, player_id: str) -> Outcome:
    """Free the caller's seat in a waiting game."""

    def decide_leave(rec: Record, rng: Rng):
        return "system", seating.leave(rec, player_id)

    command = {"type": "leave", "player": player_id}
    log = GameLog(boot, game_id)
    return loop.run(boot, log, decide_leave, cause=f"leave:{player_id}", command=command)


def cancel(boot: Bootstrap, game_id: str, player_id: str) -> Outcome:
    """Cancel a waiting game; only its creator may."""
    if load(boot, game_id).creator != player_id:
        raise Forbidden("not_creator", "only the game's creator may cancel it")

    def decide_cancel(rec: Record, rng: Rng):
        return "system", seating.cancel(rec, player_id)

    command = {"type": "cancel", "player": player_id}
    log = GameLog(boot, game_id)
    return loop.run(boot, log, decide_cancel, cause=f"cancel:{player_id}", command=command)


def rematch(
    boot: Bootstrap, game_id: str, player: dict[str, Any], offer: dict[str, Any] | None = None
) -> tuple[Record, bool]:
    """Return the finished game's rematch with the caller seated, and whether it is new.

    The first call creates it (same ruleset, options and time control), unlisted, with a
    seat held for every former player until `reserve_s` (REMATCH_RESERVE_S) runs out, and
    seats the caller; with `open_when_lapsed` the game then joins the lobby. Every former
    seat gets a `rematch` note in its feed. A later call seats the caller if its seat is
    still held or free; otherwise it is refused (never an answer with a game the caller is
    not in)."""
    old = load(boot, game_id)
    if old.status != FINISHED:
        raise Conflict("game_not_finished", "a rematch follows a finished game")
    if old.league:
        raise Conflict("league_game", "a league's next games come from its rounds")
    seating.seat_of(old, player["id"])  # only its players ask for a rematch
    existing = boot.tables.rematch(game_id)
    created = existing is None
    if created:
        former = [{"id": s.player, "name": s.name} for s in old.seats]
        table = {**(offer or {}), "unlisted": True}
        new, _ = tables.create(
            boot,
            player,
            old.ruleset,
            old.players,
            old.options,
            old.decision_timeout_s,
            table,
            rematch_of=old.game_id,
            former=former,
        )
        if not boot.tables.link_rematch(game_id, new.game_id):
            cancel(boot, new.game_id, player["id"])  # another caller's rematch came first
            created, existing = False, boot.tables.rematch(game_id)
        else:
            _invite(boot, old, new)
    rematch_id = new.game_id if created else existing
    rec = load(boot, rematch_id)
    if rec.seat_of(player["id"]) is None:
        if rec.status != "waiting":
            raise Conflict("rematch_gone", f"the rematch is {rec.status} without you")
        given = (offer or {}).get("seat_commitment")  # the seat's (docs/fairness.md)
        rec = tables.join(boot, rematch_id, player, None, former=True, commitment=given).record
    return rec, created


def _invite(boot: Bootstrap, old: Record, new: Record) -> None:
    note = {
        "type": "rematch",
        "game": new.game_id,
        "ruleset": new.ruleset,
        "league": None,
        "rematch_of": old.game_id,
        "from": new.creator,  # who offered it
        "at": codec.now_iso(),
    }
    notes = Writes()  # notes of no append: written on their own (stores.inbox)
    for s in old.seats:  # each a notification too (service.notify.inbox)
        notify_inbox.stage(notes, s.player, note)
    boot.inbox.write(notes)
