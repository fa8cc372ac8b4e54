"""Phases A and B: goods on offer, secret production, and distributing what was produced."""

from __future__ import annotations

from typing import Any

from games.base import Action, Event, RuleViolation, Seat
from games.archive.black_market_v1 import goods
from games.archive.black_market_v1.data import COLOURS, MAX_ROW, MIN_ROW, ROWS, TOP_STEP
from games.archive.black_market_v1.events import event
from games.archive.black_market_v1.goods import Counts, from_json, to_json
from games.archive.black_market_v1.state import State, production_limit, sealed_of, wildcards


def clamp_row(row: int) -> int:
    """Return `row` held within L1..L11."""
    return max(MIN_ROW, min(MAX_ROW, row))


def offer_for(state: State) -> Counts:
    """Return the goods put on offer this round: the row's amount, as far as the supply goes."""
    return tuple(min(ROWS[r].offer, s) for r, s in zip(state.rows, state.supply, strict=True))


def start_round(state: State) -> list[Event]:
    """Open a new round: its number, then the goods on offer (phase A)."""
    return [
        event("RoundStarted", round=state.round + 1),
        event("GoodsOffered", offer=to_json(offer_for(state))),
    ]


def check_production(state: State, seat: Seat, wanted: Counts) -> None:
    """Raise RuleViolation if `seat` may not produce `wanted` this round."""
    limit = production_limit(state, seat)
    if sum(wanted) > limit:
        raise RuleViolation(
            f"seat {seat} may produce at most {limit} goods", code="production_limit", field="goods"
        )
    extra = sum(max(0, n - 1) for n in wanted)
    if extra > wildcards(state, seat):
        raise RuleViolation(
            f"seat {seat} has one disc per colour and {wildcards(state, seat)} white discs",
            code="not_enough_discs",
            field="goods",
        )


def produce(state: State, seat: Seat, action: Action) -> list[Event]:
    """Seal `seat`'s secret production."""
    wanted = goods.from_names(action["goods"])
    check_production(state, seat, wanted)
    return [event("ProductionSealed", (seat,), seat=seat, goods=to_json(wanted))]


def plans(state: State) -> dict[Seat, Counts]:
    """Return every seat's sealed production (nothing for a seat without one)."""
    return {s: from_json((sealed_of(state, s) or {}).get("goods", {})) for s in state.seats}


def resolve(state: State) -> list[Event]:
    """Reveal production, then distribute it or end the game if the supply cannot meet it."""
    wanted = plans(state)
    revealed = event(
        "ProductionRevealed",
        production=[{"seat": s, "goods": to_json(wanted[s])} for s in state.order],
    )
    demand = tuple(sum(wanted[s][c] for s in state.seats) for c in range(goods.N))
    available = goods.add(state.offer, state.supply)
    short = [COLOURS[c] for c in range(goods.N) if demand[c] > available[c]]
    if short:
        return [
            revealed,
            event(
                "SupplyExhausted",
                colours=short,
                demand=to_json(demand),
                available=to_json(available, full=True),
            ),
            event("OfferReturned", offer=to_json(state.offer)),
            event("GameEndTriggered", reason="supply", colours=short),
        ]
    return [revealed, *distribute(state, wanted, demand)]


def distribute(state: State, wanted: dict[Seat, Counts], demand: Counts) -> list[Event]:
    """Hand out each colour from the offer, then the supply, moving its exchange value."""
    events: list[Event] = []
    rows = list(state.rows)
    for c, colour in enumerate(COLOURS):
        offered = state.offer[c]
        if not demand[c] and not offered:
            continue
        from_offer = min(demand[c], offered)
        shares = [{"seat": s, "count": wanted[s][c]} for s in state.order if wanted[s][c]]
        from_supply, left = demand[c] - from_offer, offered - from_offer
        events.append(
            event(
                "GoodsProduced",
                colour=colour,
                seats=shares,
                from_offer=from_offer,
                from_supply=from_supply,
                left=left,
            )
        )
        new = clamp_row(rows[c] + left - from_supply)
        if new != rows[c]:
            events.append(moved(colour, new - rows[c], new, "production"))
            rows[c] = new
    return events + raise_lowest(state, rows)


def moved(colour: str, by: int, row: int, reason: str, **extra: Any) -> Event:
    """Build the event that moves a colour's exchange value."""
    return event("ExchangeValueMoved", colour=colour, by=by, row=row, reason=reason, **extra)


def raise_lowest(state: State, rows: list[int]) -> list[Event]:
    """Raise the VP value of the colour(s) at the lowest exchange value; end at 7/4."""
    lowest = min(rows)
    raised = [c for c in range(goods.N) if rows[c] == lowest]
    steps = {COLOURS[c]: min(TOP_STEP, state.steps[c] + 1) for c in raised}
    events = [event("LowestValueRaised", colours=[COLOURS[c] for c in raised], steps=steps)]
    top = [colour for colour, step in steps.items() if step == TOP_STEP]
    if top:
        events.append(event("GameEndTriggered", reason="vp_track", colours=top))
    return events
