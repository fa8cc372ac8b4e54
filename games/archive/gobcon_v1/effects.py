"""What a played card does once its reaction window (if any) has closed without cancelling it.

Also the answers given in a window: cancels, and any-time Specials that land on the
answering player (bonus-like cards) or on the player whose play they answer (malus-like).
"""

from __future__ import annotations

from games.base import Event, Seat
from games.archive.gobcon_v1.cards import Card
from games.archive.gobcon_v1.events import event
from games.archive.gobcon_v1.evolve import evolve
from games.archive.gobcon_v1.state import State, logorrea_owner, prohibited, responders
from games.archive.gobcon_v1.shared.kit import others


def pair_of(state: State, seat: Seat, category: str | None) -> tuple[str, str] | None:
    """Return a bonus and a malus of `category` both in front of `seat`, if there are."""
    found: dict[str, str] = {}
    for inst in state.specials[seat]:
        card = state.card(inst)
        if card.category == category and card.kind in ("bonus", "malus"):
            found.setdefault(card.kind, inst)
    if "bonus" in found and "malus" in found:
        return found["bonus"], found["malus"]
    return None


def prohibitions_of(state: State, seat: Seat) -> list[str]:
    """Return the Prohibition cards in front of `seat`."""
    return [c for c in state.specials[seat] if state.card(c).kind == "prohibition"]


def has_effect(state: State, seat: Seat, card: Card) -> bool:
    """Return False for a Special that would do nothing now (nothing to remove or cancel)."""
    if card.kind == "remove_logorrea":
        return logorrea_owner(state) is not None
    if card.kind == "lift_prohibitions":
        return bool(prohibitions_of(state, seat))
    if card.kind == "cancel":
        return state.pending is not None
    return True


def side_effects(state: State, card: Card, target: Seat) -> list[Event]:
    """Return what follows a Special reaching `target` (`state` already has it placed)."""
    if card.kind in ("bonus", "malus"):
        pair = pair_of(state, target, card.category)
        if pair:
            return [event("BonusMalusCancelled", seat=target, bonus=pair[0], malus=pair[1])]
    if card.kind == "remove_logorrea":
        owner = logorrea_owner(state)
        if owner is not None:
            talker = state.friends[owner]
            return [event("LogorreaLeft", seat=owner, card=talker, reason="removed")]
    if card.kind == "lift_prohibitions":
        cards = prohibitions_of(state, target)
        if cards:
            return [event("ProhibitionsLifted", seat=target, cards=cards)]
    return []


def resolve_pending(state: State) -> list[Event]:
    """Return the events of the pending play taking effect."""
    seat, inst = state.pending.seat, state.pending.card
    card = state.card(inst)
    if card.type == "friend":
        return [event("FriendJoined", seat=seat, card=inst, replaced=state.friends[seat])]
    if card.type == "item":
        return [event("ItemBought", seat=seat, card=inst)]
    if card.type == "game":
        eligible = [s for s in others(state, seat) if not prohibited(state, s, card.category)]
        return [
            event("GameOpened", seat=seat, card=inst, category=card.category, eligible=eligible)
        ]
    target = state.pending.target
    done = event("SpecialResolved", seat=seat, card=inst, target=target)
    return [done, *side_effects(evolve(state, done), card, target)]


def react(state: State) -> list[Event]:
    """Open a reaction window on the pending play, or let it take effect at once."""
    pending = state.pending
    seats = responders(state, pending.seat)
    if seats:
        return [
            event(
                "WindowOpened",
                seat=pending.seat,
                card=pending.card,
                target=pending.target,
                responders=seats,
            )
        ]
    return resolve_pending(state)


def answer(state: State) -> list[Event]:
    """Apply the next revealed answer of the window, or close the window."""
    window = state.window
    if not window.queue:
        return [event("WindowClosed", cancelled=state.pending is None)]
    seat, inst = window.queue[0]
    card = state.card(inst)
    if not has_effect(state, seat, card):
        return [event("ResponseReturned", seat=seat, card=inst)]
    if card.kind == "cancel":
        pending = state.pending
        return [
            event("ResponsePlayed", seat=seat, card=inst, target=pending.seat),
            event("PlayCancelled", seat=pending.seat, card=pending.card, by=seat, cancel=inst),
        ]
    target = window.seat if card.targets_other else seat
    played = event("ResponsePlayed", seat=seat, card=inst, target=target)
    return [played, *side_effects(evolve(state, played), card, target)]
