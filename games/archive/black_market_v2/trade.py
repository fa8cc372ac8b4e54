"""Phase C: starting and ending trade, regulated deals, and giving back production goods."""

from __future__ import annotations

from typing import Any

from games.base import Action, Event, RuleViolation, Seat
from games.archive.black_market_v2 import goods
from games.archive.black_market_v2.data import LIMITS
from games.archive.black_market_v2.events import event
from games.archive.black_market_v2.evolve import then
from games.archive.black_market_v2.goods import Counts, covers, to_json
from games.archive.black_market_v2.state import (
    REGULATED,
    State,
    effect,
    give_back_count,
    holders,
    proposer,
    sealed_of,
    tradeable,
)
from games.archive.black_market_v2.shared.kit import clockwise, left_of


def start_trade(state: State) -> list[Event]:
    """Open phase C: the regulated turn list, or the wild free-for-all."""
    if state.trade != REGULATED:
        return [event("TradeStarted", mode=state.trade)]
    turns = clockwise(state, state.starter) * LIMITS["trade_rounds"]
    turns += holders(state, "extra_trade")
    return [event("TradeStarted", mode=REGULATED, starter=state.starter, turns=turns)]


def deal_sides(action: Action, give_key: str = "give") -> tuple[Counts, Counts]:
    """Return (give, take) of a proposed deal; raise RuleViolation on an empty side."""
    give, take = goods.from_names(action[give_key]), goods.from_names(action["take"])
    for name, side in (("give", give), ("take", take)):
        if not sum(side):
            raise RuleViolation(
                "both players must receive at least one good", code="one_sided_deal", field=name
            )
    return give, take


def check_holds(state: State, seat: Seat, wanted: Counts, field: str) -> None:
    """Raise RuleViolation unless `seat` can trade `wanted` now."""
    if not covers(tradeable(state, seat), wanted):
        raise RuleViolation(
            f"seat {seat} does not hold those goods to trade",
            code="insufficient_goods",
            field=field,
        )


def propose(state: State, seat: Seat, action: Action) -> list[Event]:
    """Announce a regulated deal; the players able to meet it will answer."""
    give, take = deal_sides(action)
    check_holds(state, seat, give, "give")
    others = [s for s in clockwise(state, left_of(state, seat)) if s != seat]
    answerers = [s for s in others if covers(tradeable(state, s), take)]
    return [
        event(
            "DealProposed",
            seat=seat,
            give=to_json(give),
            take=to_json(take),
            answerers=answerers,
        )
    ]


def pass_turn(state: State, seat: Seat, action: Action) -> list[Event]:
    """Let the proposer make no deal this turn."""
    return [event("ProposalPassed", seat=seat, forced=False)]


def forced_pass(state: State) -> list[Event]:
    """Pass a proposer who holds nothing to trade; otherwise wait for them."""
    seat = proposer(state)
    if seat is None or sum(tradeable(state, seat)):
        return []
    return [event("ProposalPassed", seat=seat, forced=True)]


def answer(state: State, seat: Seat, action: Action) -> list[Event]:
    """Seal a secret accept/refuse answer to the deal on the table."""
    return [event("AnswerSealed", (seat,), seat=seat, accept=action["accept"])]


def resolve_answers(state: State) -> list[Event]:
    """Reveal the answers; trade with a single acceptor, or let the proposer pick."""
    answers = [
        {"seat": s, "accept": bool((sealed_of(state, s) or {}).get("accept", False))}
        for s in state.expected
    ]
    acceptors = [a["seat"] for a in answers if a["accept"]]
    revealed = event("AnswersRevealed", answers=answers, acceptors=acceptors)
    seat = proposer(state)
    if not acceptors:
        return [revealed, event("DealRefused", seat=seat)]
    if len(acceptors) > 1:
        return [revealed]
    give, take = state.deal
    return [revealed, deal_made(state, seat, acceptors[0], give, take)]


def pick(state: State, seat: Seat, action: Action) -> list[Event]:
    """Trade with the acceptor the proposer picked."""
    partner = action["seat"]
    if partner not in state.acceptors:
        raise RuleViolation(
            f"seat {partner} did not accept this deal", code="not_an_acceptor", field="seat"
        )
    give, take = state.deal
    return [deal_made(state, seat, partner, give, take)]


def _into(state: State, seat: Seat) -> str:
    regulated = state.trade == REGULATED
    return "storage" if regulated or effect(state, seat, "extra_trade") else "aside"


def _leg(state: State, frm: Seat, to: Seat, sent: Counts) -> dict[str, Any]:
    from_production, from_storage = goods.sources(state.production[frm], state.storage[frm], sent)
    return {
        "from": frm,
        "to": to,
        "production": to_json(from_production),
        "storage": to_json(from_storage),
        "into": _into(state, to),
    }


def deal_made(state: State, seat: Seat, partner: Seat, give: Counts, take: Counts) -> Event:
    """Build the event of a completed deal: each side gives production goods first."""
    return event(
        "DealMade",
        proposer=seat,
        partner=partner,
        give=to_json(give),
        take=to_json(take),
        legs=[_leg(state, seat, partner, give), _leg(state, partner, seat, take)],
        mode=state.trade,
    )


def end_trade(state: State) -> list[Event]:
    """Close phase C: received goods go to storage, then production goods are given back."""
    return then(state, [event("TradeEnded", round=state.round)], open_give_back)


def open_give_back(state: State) -> list[Event]:
    """Give back half the production for players without a choice; ask the others."""
    events, choosers = [], []
    for seat in state.order:
        count, held = give_back_count(state, seat), state.production[seat]
        if not count:
            continue
        if sum(1 for n in held if n) > 1:
            choosers.append(seat)
        else:
            back = to_json(goods.shed(held, count))
            events.append(event("GoodsGivenBack", seat=seat, goods=back, forced=True))
    return [*events, event("GiveBackOpened", seats=choosers)]


def give_back(state: State, seat: Seat, action: Action) -> list[Event]:
    """Give back the production goods `seat` chose."""
    back, count = goods.from_names(action["goods"]), give_back_count(state, seat)
    if sum(back) != count:
        raise RuleViolation(
            f"seat {seat} must give back exactly {count} goods",
            code="wrong_number_of_goods",
            field="goods",
        )
    if not covers(state.production[seat], back):
        raise RuleViolation(
            "only goods in production are given back", code="insufficient_goods", field="goods"
        )
    return [event("GoodsGivenBack", seat=seat, goods=to_json(back), forced=False)]
