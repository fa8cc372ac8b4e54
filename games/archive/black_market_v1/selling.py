"""Phase E: secret sales for victory points, the storage limit, and the end of a round."""

from __future__ import annotations

from games.base import Action, Event, RuleViolation, Seat
from games.archive.black_market_v1 import goods
from games.archive.black_market_v1.auction import reveal
from games.archive.black_market_v1.data import cost_of, max_vp
from games.archive.black_market_v1.events import event
from games.archive.black_market_v1.evolve import then
from games.archive.black_market_v1.goods import Counts, to_json
from games.archive.black_market_v1.scoring import scored_event
from games.archive.black_market_v1.state import State, sealed_of, storage_limit


def best_sale(state: State, seat: Seat) -> Counts:
    """Return the most VP `seat` can take in each colour from its storage."""
    return tuple(max_vp(r, n) for r, n in zip(state.rows, state.storage[seat], strict=True))


def sellers(state: State) -> list[Seat]:
    """Return the seats able to sell at least one VP."""
    return [s for s in state.order if sum(best_sale(state, s))]


def open_sale(state: State, final: bool) -> list[Event]:
    """Open a selling phase (the final sale when the game has ended)."""
    return [event("SaleOpened", final=final, sellers=sellers(state))]


def next_card(state: State) -> list[Event]:
    """Reveal the next information card and open phase E, or end the game after the last."""
    if not state.deck:
        return [event("GameEndTriggered", reason="last_card", colours=[])]
    return then(state, reveal(state, state.deck[0]), lambda s: open_sale(s, False))


def final_sale(state: State) -> list[Event]:
    """Open the final sale."""
    return open_sale(state, True)


def cubes_for(state: State, vp: Counts) -> Counts:
    """Return the cubes a sale of `vp` points per colour costs at the current rows."""
    return tuple(cost_of(r, v) if v else 0 for r, v in zip(state.rows, vp, strict=True))


def sell(state: State, seat: Seat, action: Action) -> list[Event]:
    """Seal a secret sale: 0-4 VP per colour, paid with storage goods at the row's price."""
    vp = goods.from_json(action["vp"])
    if not goods.covers(state.storage[seat], cubes_for(state, vp)):
        raise RuleViolation(
            "not enough goods in storage for that sale", code="insufficient_goods", field="vp"
        )
    return [event("SaleSealed", (seat,), seat=seat, vp=to_json(vp))]


def resolve(state: State) -> list[Event]:
    """Reveal the sales and pay them; then the storage limit, or scoring after the final sale."""
    sales = {s: goods.from_json((sealed_of(state, s) or {}).get("vp", {})) for s in state.seats}
    shown = [{"seat": s, "vp": to_json(sales[s])} for s in state.order]
    events = [event("SalesRevealed", sales=shown)]
    for seat in state.order:
        if sum(sales[seat]):
            cubes = to_json(cubes_for(state, sales[seat]))
            events.append(event("GoodsSold", seat=seat, vp=to_json(sales[seat]), cubes=cubes))
    if state.final:
        return then(state, events, lambda s: [scored_event(s)])
    return then(state, events, open_discard)


def excess(state: State, seat: Seat) -> int:
    """Return how many goods `seat` holds above its storage limit."""
    return max(0, sum(state.storage[seat]) - storage_limit(state, seat))


def open_discard(state: State) -> list[Event]:
    """Discard for players with no choice; ask the others which goods go."""
    events, choosers = [], []
    for seat in state.order:
        count, held = excess(state, seat), state.storage[seat]
        if not count:
            continue
        if sum(1 for n in held if n) > 1:
            choosers.append(seat)
        else:
            gone = to_json(goods.shed(held, count))
            events.append(event("GoodsDiscarded", seat=seat, goods=gone, forced=True))
    return [*events, event("DiscardOpened", seats=choosers)]


def discard(state: State, seat: Seat, action: Action) -> list[Event]:
    """Discard the storage goods `seat` chose, down to its limit."""
    gone, count = goods.from_names(action["goods"]), excess(state, seat)
    if sum(gone) != count:
        raise RuleViolation(
            f"seat {seat} must discard exactly {count} goods",
            code="wrong_number_of_goods",
            field="goods",
        )
    if not goods.covers(state.storage[seat], gone):
        raise RuleViolation(
            "only goods in storage are discarded", code="insufficient_goods", field="goods"
        )
    return [event("GoodsDiscarded", seat=seat, goods=to_json(gone), forced=False)]


def end_round(state: State) -> list[Event]:
    """Close the round."""
    return [event("RoundEnded", round=state.round)]
