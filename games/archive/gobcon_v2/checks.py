"""Whether a card may be played now: one answer for `legal` and for `decide`."""

from __future__ import annotations

from games.base import RuleViolation, Seat
from games.archive.gobcon_v2.cards import Card
from games.archive.gobcon_v2.effects import has_effect
from games.archive.gobcon_v2.scoring import item_value
from games.archive.gobcon_v2.state import Link, State, committed, logorrea_owner, prohibited

Problem = RuleViolation | None  # why a card may not be played, ready to raise


def play_problem(state: State, seat: Seat, inst: str) -> Problem:
    """Return why `seat` may not play `inst` from its hand on its turn now, or None."""
    card = state.card(inst)
    if card.type in state.used:
        return RuleViolation(
            f"you already played a {card.type} card this turn", code="limit_reached", field="card"
        )
    if card.type == "friend" and logorrea_owner(state) == seat:
        return RuleViolation(
            "no other Friend while Logorrea-Man is yours",
            code="logorrea_blocks_friends",
            field="card",
        )
    if card.type in ("item", "game") and prohibited(state, seat, card.category):
        return RuleViolation(
            f"a Prohibition bars you from {card.category} {card.type}s",
            code="prohibited",
            field="card",
        )
    if card.kind == "cancel" and card.type == "special":
        return RuleViolation(
            "a cancel card answers an opponent's play in a window",
            code="not_playable_now",
            field="card",
        )
    if card.type == "special" and not has_effect(state, seat, card):
        return RuleViolation(f"{card.id} would have no effect now", code="no_effect", field="card")
    return None


def answer_has_effect(state: State, seat: Seat, card: Card, link: Link) -> bool:
    """Return True if `card` answering `link` would do something now (a cancel needs a
    card on the link that is still waiting to take effect)."""
    if card.kind == "cancel":
        return link.live
    return has_effect(state, seat, card)


def response_problem(state: State, seat: Seat, inst: str, link: Link | None = None) -> Problem:
    """Return why `seat` may not answer `link` (by default the open window's) with `inst`."""
    link = link or state.top
    card = state.card(inst)
    if not card.any_time:
        return RuleViolation(
            f"{card.id} can only be played on your own turn", code="not_any_time", field="card"
        )
    if inst in committed(state):
        return RuleViolation(
            f"{inst} already answers a card below", code="card_committed", field="card"
        )
    if link.live and state.card(link.card).type == "special" and card.kind != "cancel":
        return RuleViolation(
            "only a cancel may answer a Special before it takes effect",
            code="special_resolving",
            field="card",
        )
    if not answer_has_effect(state, seat, card, link):
        return RuleViolation(f"{card.id} would have no effect now", code="no_effect", field="card")
    return None


def playable(state: State, seat: Seat) -> list[str]:
    """Return the cards of `seat`'s hand it may play now, in hand order."""
    return [c for c in state.hands[seat] if play_problem(state, seat, c) is None]


def answers(state: State, seat: Seat) -> list[str]:
    """Return the cards of `seat`'s hand that may answer the open window."""
    return [c for c in state.hands[seat] if response_problem(state, seat, c) is None]


def cheapest_item(state: State, seat: Seat) -> str:
    """Return the Item of `seat` worth least now (the first one played among equals)."""
    items = state.items[seat]
    return min(items, key=lambda c: (item_value(state, seat, c), items.index(c)))
