"""The automatic parts of a turn: starting it, Logorrea-Man's duties, drawing up to five."""

from __future__ import annotations

from games.base import Event
from games.archive.gobcon_v2.cards import HAND_SIZE
from games.archive.gobcon_v2.events import event
from games.archive.gobcon_v2.scoring import finished_event
from games.archive.gobcon_v2.state import State, give_candidates, is_logorrea, logorrea_owner
from games.archive.gobcon_v2.shared.kit import left_of
from games.rng import Rng


def next_turn(state: State) -> list[Event]:
    """Start the next player's turn, or end the game when the time limit's last round is over."""
    if state.time_limit and state.turn >= state.time_limit * state.players:
        return [finished_event(state, "time_limit")]
    seat = state.order[0] if state.active is None else left_of(state, state.active)
    turn = state.turn + 1
    return [event("TurnStarted", seat=seat, turn=turn, round=(turn - 1) // state.players + 1)]


def logorrea_in_hand(state: State, seat: int) -> str | None:
    """Return a Logorrea-Man in `seat`'s hand (it is played the moment it is drawn)."""
    return next((c for c in state.hands[seat] if is_logorrea(state, c)), None)


def logorrea_played(state: State, seat: int, card: str) -> Event:
    """Put a drawn Logorrea-Man in front of `seat`, discarding the Friend it replaces."""
    return event("LogorreaPlayed", seat=seat, card=card, replaced=state.friends[seat])


def after_deal(state: State) -> list[Event]:
    """Play a dealt Logorrea-Man, then start the first turn."""
    for seat in state.order:
        card = logorrea_in_hand(state, seat)
        if card is not None:
            return [logorrea_played(state, seat, card)]
    return next_turn(state)


def lose_only_item(state: State) -> list[Event]:
    """Discard Logorrea-Man's owner's Item when there is only one to choose."""
    items = state.items[state.active]
    if len(items) == 1:
        return [event("ItemLost", seat=state.active, card=items[0])]
    return []


def pass_logorrea(state: State, to: int | None = None) -> list[Event]:
    """Give Logorrea-Man away (one candidate, or `to`), or discard it when nobody has Items."""
    owner = state.active
    card = state.friends[owner]
    candidates = give_candidates(state, owner)
    if not candidates:
        return [event("LogorreaLeft", seat=owner, card=card, reason="no_items")]
    if to is None and len(candidates) > 1:
        return []
    to = candidates[0] if to is None else to
    return [event("LogorreaPassed", seat=owner, to=to, card=card, replaced=state.friends[to])]


def silence_logorrea(state: State) -> list[Event]:
    """Discard Logorrea-Man the moment nobody has an Item in play (dealt, drawn or after the
    last Item left)."""
    owner = logorrea_owner(state)
    if owner is None or any(state.items):
        return []
    return [event("LogorreaLeft", seat=owner, card=state.friends[owner], reason="no_items")]


def draw(state: State, rng: Rng) -> list[Event]:
    """Draw toward five cards: play a drawn Logorrea-Man, reshuffle an empty deck first."""
    seat = state.active
    talker = logorrea_in_hand(state, seat)
    if talker is not None:
        return [logorrea_played(state, seat, talker)]
    if not state.draw:
        rank = {inst: i for i, inst in enumerate(state.cards)}  # deck order (fairness.md)
        pile = sorted(state.discard, key=rank.__getitem__)
        return [event("DiscardReshuffled", visible_to=(), deck=rng.shuffle(pile))]
    cards: list[str] = []
    for card in state.draw[: HAND_SIZE - len(state.hands[seat])]:
        cards.append(card)
        if is_logorrea(state, card):
            break
    return [event("CardsDrawn", visible_to=(seat,), seat=seat, cards=cards)]
