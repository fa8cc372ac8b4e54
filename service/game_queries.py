"""What can be read about games: each a query over the log, for one caller."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import games
from events import audit, bundle, deadlines, seating
from events.fold import fold_all, in_order
from events.record import Record
from events.redact import redact
from events.repository import Loaded
from games.base import ActionSpec, Game
from service import chat, proof, transparency
from service.errors import Invalid, NotFound, Unauthorized
from service.game_log import load
from service.loop import Outcome

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = [
    "Record",
    "check_bundle_text",
    "events",
    "exists",
    "export",
    "history",
    "redacted",
    "legal",
    "load",
    "next_actions",
    "ruleset",
    "rulesets",
    "seat",
    "shown_actions",
    "state_at",
]


def rulesets() -> list[Game]:
    """Return every game that can be played, in the registry's order."""
    return list(games.REGISTRY.values())


def ruleset(ruleset_id: str) -> Game:
    """Return the game with id `ruleset_id`, or raise NotFound."""
    game = games.get(ruleset_id)
    if game is None:
        raise NotFound("ruleset_not_found", f"no ruleset {ruleset_id!r}")
    return game


def exists(boot: Bootstrap, game_id: str) -> bool:
    """Return True if the game has a log."""
    return boot.store.exists(game_id)


def seat(rec: Record, player: dict[str, str] | None) -> int | None:
    """Return the caller's seat in the game (None: a spectator or no caller)."""
    return rec.seat_of(player["id"]) if player else None


def legal(
    boot: Bootstrap, game_id: str, player_id: str, loaded: Loaded | None = None
) -> tuple[Record, list[ActionSpec]]:
    """Return the game and what the player may do now (nothing unless it is active)."""
    rec = load(boot, game_id, loaded)
    seat_ = seating.seat_of(rec, player_id)
    return rec, rec.game.legal(rec.state, seat_) if rec.status == "active" else []


def standing(rec: Record, player_id: str, now: datetime | None = None) -> dict[str, Any]:
    """Return the game's version in `rec` and what the player may do at it: what a refused
    action's answer adds (from the record it was refused on), so that its client tries
    again in one call. Nothing for a caller without a seat, nor for a seat past a deadline
    at `now` (its default is on its way)."""
    seat_, actions = rec.seat_of(player_id), []
    if seat_ is not None and rec.status == "active":
        if not deadlines.overdue(rec, seat_, now or datetime.now(UTC)):
            actions = shown_actions(rec.game.legal(rec.state, seat_))
    return {"version": rec.version, "actions": actions}


def shown_actions(specs: list[ActionSpec]) -> list[dict[str, Any]]:
    """Return legal actions as the API shows them: type, JSON Schema, choices."""
    return [{"type": s.type, "schema": s.schema, "choices": s.choices} for s in specs]


def next_actions(boot: Bootstrap, done: Outcome, player_id: str) -> list[dict[str, Any]]:
    """Return what the player may do right after its action (`done`), so that a client
    moves again without asking: empty unless its seat owes a decision then. A retry
    answered after the game moved on gets them as they were at its version."""
    rec = done.record
    seat_ = rec.seat_of(player_id)
    if seat_ is None or not any(o["seat"] == seat_ for o in done.owed):
        return []
    if rec.version != done.version:  # a retry: fold the log up to the first answer
        rec = fold_all(Record(rec.game_id), boot.store.read(rec.game_id, 0, done.version))
    if rec.status != "active":
        return []
    return shown_actions(rec.game.legal(rec.state, seat_))


def history(boot: Bootstrap, game_id: str, after: int) -> tuple[Record, list[dict[str, Any]]]:
    """Return the game and its envelopes after seq `after`, up to its loaded version."""
    rec = load(boot, game_id)
    envelopes = [e for e in boot.store.read(game_id, after) if e["seq"] <= rec.version]
    return rec, envelopes


def events(
    boot: Bootstrap, game_id: str, after: int, player: dict[str, str] | None
) -> tuple[Record, list[dict[str, Any]]]:
    """Return the game and its envelopes after seq `after`, redacted for the caller."""
    rec, envelopes = history(boot, game_id, after)
    return rec, redacted(rec, envelopes, seat(rec, player))


def redacted(rec: Record, envelopes: list[dict[str, Any]], viewer: int | None) -> list[dict]:
    """Return `envelopes` of the game `rec` as seat `viewer` (None: a spectator) may see
    them now (events.redact)."""
    return [redact(env, rec, viewer) for env in envelopes]


def export(boot: Bootstrap, game_id: str, player: dict[str, str] | None) -> dict[str, Any]:
    """Return the game's bundle for `marketfold verify`, as the caller may see it: a game
    in play goes to its players only."""
    rec, envelopes = history(boot, game_id, 0)
    if rec.status != "finished":
        if player is None:
            raise Unauthorized("unauthorized", "a game in play is exported to its players only")
        seating.seat_of(rec, player["id"])
    viewer = seat(rec, player)
    # the private steps only once the game is over (before, others may not even learn
    # that they happened: docs/architecture.md, "Private steps")
    private = boot.store.read_private(game_id, 0, rec.private) if rec.status == "finished" else []
    shown = [redact(env, rec, viewer) for env in envelopes]
    bundle = audit.bundle(rec, shown, rec.seed, private)
    proof.sign(boot, bundle)  # the header, the events' head and the seed (events.signature)
    bundle["transparency"] = transparency.receipt(boot, game_id)  # its leaves, with proofs
    bundle["chat"] = chat.every(boot, rec, viewer)  # outside the hashed events
    return bundle


def state_at(boot: Bootstrap, game_id: str, at: int) -> tuple[Record, Record]:
    """Return the game now and as it was after `at` events (time travel)."""
    now = load(boot, game_id)
    if at > now.version:
        errors = {"at": [f"must be at most {now.version}"]}
        raise Invalid("invalid_query", f"the game has {now.version} events", errors=errors)
    public = boot.store.read(game_id, 0, at)
    # private steps up to the point asked (those after event `at`, before the next)
    steps = [e for e in boot.store.read_private(game_id, 0, now.private) if e["seq"] <= at]
    return now, fold_all(Record(game_id), in_order(public, steps) if steps else public)


def check_bundle_text(raw: bytes) -> None:
    """Refuse a file too costly to decode as a bundle, before decoding it (BundleError)."""
    bundle.check_text(raw)
