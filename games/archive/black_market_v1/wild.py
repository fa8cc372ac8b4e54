"""Wild trade: private offers between two players, accepted at any time, until all but one
player have declared they are done."""

from __future__ import annotations

from games.base import Action, Event, RuleViolation, Seat
from games.archive.black_market_v1.events import event
from games.archive.black_market_v1.goods import covers, to_json
from games.archive.black_market_v1.state import Offer, State, offers_made, tradeable
from games.archive.black_market_v1.trade import check_holds, deal_made, deal_sides


def trading(state: State) -> list[Seat]:
    """Return the seats still trading (not done), in seating order."""
    return [s for s in state.order if s not in state.submitted]


def offer(state: State, seat: Seat, action: Action) -> list[Event]:
    """Make a private offer to one player (it replaces any earlier offer to them)."""
    to = action["to"]
    if to == seat or to not in trading(state):
        raise RuleViolation(
            f"seat {to} is not another player still trading", code="invalid_partner", field="to"
        )
    give, take = deal_sides(action)
    check_holds(state, seat, give, "give")
    count = offers_made(state, seat, to) + 1
    return [
        event(
            "OfferMade",
            (seat, to),
            id=f"{seat}-{to}-{count}",
            count=count,
            to=to,
            give=to_json(give),
            take=to_json(take),
            **{"from": seat},
        )
    ]


def _find(state: State, offer_id: str, field_seat: str, seat: Seat) -> Offer:
    for o in state.offers:
        if o.id == offer_id and getattr(o, field_seat) == seat:
            return o
    raise RuleViolation(
        f"no open offer {offer_id} for seat {seat}", code="offer_not_found", field="offer"
    )


def feasible(state: State, o: Offer) -> bool:
    """Return True if both sides of offer `o` can still be met."""
    return covers(tradeable(state, o.frm), o.give) and covers(tradeable(state, o.to), o.take)


def accept(state: State, seat: Seat, action: Action) -> list[Event]:
    """Accept an offer made to `seat`: the deal is done at once."""
    o = _find(state, action["offer"], "to", seat)
    if not feasible(state, o):
        raise RuleViolation(
            "one side no longer holds the goods of this offer",
            code="insufficient_goods",
            field="offer",
        )
    return [deal_made(state, o.frm, o.to, o.give, o.take)]


def _gone(name: str, o: Offer) -> Event:
    return event(name, (o.frm, o.to), id=o.id, to=o.to, **{"from": o.frm})


def decline(state: State, seat: Seat, action: Action) -> list[Event]:
    """Turn down an offer made to `seat`."""
    return [_gone("OfferDeclined", _find(state, action["offer"], "to", seat))]


def withdraw(state: State, seat: Seat, action: Action) -> list[Event]:
    """Take back an offer `seat` made."""
    return [_gone("OfferWithdrawn", _find(state, action["offer"], "frm", seat))]


def done(state: State, seat: Seat, action: Action) -> list[Event]:
    """Declare `seat` done trading: its open offers, made and received, lapse."""
    return [event("DoneDeclared", seat=seat)]
