"""Phase D: the sealed auction of the information card, the buyer's value moves, the next card."""

from __future__ import annotations

from games.base import Action, Event, RuleViolation, Seat
from games.archive.black_market_v1 import goods
from games.archive.black_market_v1.data import COLOURS, MAX_ROW, MIN_ROW, TOP_STEP, cards
from games.archive.black_market_v1.events import event
from games.archive.black_market_v1.goods import Counts, covers, to_json
from games.archive.black_market_v1.production import moved
from games.archive.black_market_v1.state import State, holder, sealed_of

NEPHEW = "auctioneers_nephew"


def open_auction(state: State) -> list[Event]:
    """Put the revealed card up for auction; players with goods in storage may bid."""
    bidders = [s for s in state.order if sum(state.storage[s])]
    return [event("AuctionOpened", card=state.card, bidders=bidders)]


def bid(state: State, seat: Seat, action: Action) -> list[Event]:
    """Seal a secret bid: storage goods of one colour, or nothing."""
    offered = goods.from_names(action["goods"])
    if sum(1 for n in offered if n) > 1:
        raise RuleViolation("a bid is goods of one colour", code="mixed_colours", field="goods")
    if not covers(state.storage[seat], offered):
        raise RuleViolation(
            "only goods in storage can be bid", code="insufficient_goods", field="goods"
        )
    return [event("BidSealed", (seat,), seat=seat, goods=to_json(offered))]


def _bid_of(state: State, seat: Seat) -> tuple[int | None, int]:
    counts: Counts = goods.from_json((sealed_of(state, seat) or {}).get("goods", {}))
    colour = next((c for c, n in enumerate(counts) if n), None)
    return colour, sum(counts)


def winner_of(state: State, bids: dict[Seat, tuple[int | None, int]]) -> tuple[list[Seat], str]:
    """Return the seats still in contention after every tie-break, and the last one used."""
    best = max(count for _, count in bids.values())
    if best == 0:
        return [], "no_bids"
    top = [s for s in state.order if bids[s][1] == best]
    if len(top) == 1:
        return top, "most_goods"
    high = max(state.rows[bids[s][0]] for s in top)
    top = [s for s in top if state.rows[bids[s][0]] == high]
    if len(top) == 1:
        return top, "exchange_value"
    nephew = holder(state, NEPHEW)
    if nephew in top:
        return [nephew], NEPHEW
    return top, "tie"


def resolve(state: State) -> list[Event]:
    """Reveal the bids; the winner pays and takes the card, or the card leaves the game."""
    bids = {s: _bid_of(state, s) for s in state.seats}
    shown = [
        {"seat": s, "colour": COLOURS[c] if c is not None else None, "count": n}
        for s, (c, n) in ((s, bids[s]) for s in state.order)
    ]
    revealed = event("BidsRevealed", card=state.card, bids=shown)
    top, rule = winner_of(state, bids)
    if len(top) != 1:
        return [revealed, event("CardRemoved", card=state.card, reason=rule, seats=top)]
    seat = top[0]
    colour, count = bids[seat]
    won = event(
        "AuctionWon", seat=seat, card=state.card, colour=COLOURS[colour], count=count, by=rule
    )
    return [revealed, won]


def raise_value(state: State, seat: Seat, action: Action) -> list[Event]:
    """Raise one colour's VP value (two steps with Insider Tip); 7/4 ends the game."""
    c = COLOURS.index(action["colour"])
    bought = state.cards[seat][-1]
    steps = cards()[bought].effect.get("raise_steps", 1)
    step = min(TOP_STEP, state.steps[c] + steps)
    events = [
        event(
            "VictoryValueRaised",
            seat=seat,
            colour=action["colour"],
            by=step - state.steps[c],
            step=step,
        )
    ]
    if step == TOP_STEP:
        events.append(event("GameEndTriggered", reason="vp_track", colours=[action["colour"]]))
    return events


def decline_raise(state: State, seat: Seat, action: Action) -> list[Event]:
    """Leave every VP value as it is."""
    return [event("RaiseDeclined", seat=seat)]


def shift(state: State, seat: Seat, action: Action) -> list[Event]:
    """Move one colour's exchange value one row (Rumour Mill)."""
    c = COLOURS.index(action["colour"])
    by = 1 if action["direction"] == "up" else -1
    row = state.rows[c] + by
    if not MIN_ROW <= row <= MAX_ROW:
        raise RuleViolation(
            f"{action['colour']} cannot move {action['direction']} from L{state.rows[c]}",
            code="value_at_limit",
            field="direction",
        )
    return [moved(action["colour"], by, row, "rumour_mill", seat=seat)]


def decline_shift(state: State, seat: Seat, action: Action) -> list[Event]:
    """Leave every exchange value as it is."""
    return [event("ShiftDeclined", seat=seat)]


def reveal(state: State, card: str) -> list[Event]:
    """Reveal `card`; Flooded Market drops the highest exchange value(s) one row."""
    events = [event("CardRevealed", card=card)]
    if cards()[card].effect.get("drop_highest_on_reveal"):
        high = max(state.rows)
        if high > MIN_ROW:
            for c, row in enumerate(state.rows):
                if row == high:
                    events.append(moved(COLOURS[c], -1, row - 1, "flooded_market"))
    return events
