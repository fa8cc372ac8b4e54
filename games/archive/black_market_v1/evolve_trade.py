"""Apply the trade events (phase C) to the state: regulated deals, wild offers, give-backs."""

from __future__ import annotations

from dataclasses import replace

from games.archive.black_market_v1.goods import ZERO, add, from_json, sub
from games.archive.black_market_v1.state import (
    ANSWER,
    GIVE_BACK,
    PICK,
    PROPOSE,
    REGULATED,
    SETTLING,
    TRADE_END,
    WILD,
    Offer,
    State,
    open_phase,
    set_seat,
)
from games.archive.black_market_v1.shared.catalog import Data


def _trade_started(state: State, d: Data) -> State:
    if d["mode"] == REGULATED:
        state = replace(state, turns=tuple(d["turns"]), turn=0, deal=None, acceptors=())
        return open_phase(state, PROPOSE, [])
    return open_phase(replace(state, offers=()), WILD, list(state.seats))


def _next_turn(state: State) -> State:
    turn = state.turn + 1
    state = replace(state, turn=turn, deal=None, acceptors=())
    return open_phase(state, PROPOSE if turn < len(state.turns) else TRADE_END, [])


def _passed(state: State, d: Data) -> State:
    return _next_turn(state)


def _proposed(state: State, d: Data) -> State:
    state = replace(state, deal=(from_json(d["give"]), from_json(d["take"])))
    return open_phase(state, ANSWER, d["answerers"])


def _answers(state: State, d: Data) -> State:
    acceptors = tuple(d["acceptors"])
    state = replace(state, acceptors=acceptors)
    return open_phase(state, PICK if len(acceptors) > 1 else SETTLING, [])


def _refused(state: State, d: Data) -> State:
    return _next_turn(state)


def _move_leg(state: State, leg: Data) -> State:
    frm, to = leg["from"], leg["to"]
    out_p, out_s = from_json(leg["production"]), from_json(leg["storage"])
    state = replace(
        state,
        production=set_seat(state.production, frm, sub(state.production[frm], out_p)),
        storage=set_seat(state.storage, frm, sub(state.storage[frm], out_s)),
    )
    received = add(out_p, out_s)
    if leg["into"] == "aside":
        return replace(state, aside=set_seat(state.aside, to, add(state.aside[to], received)))
    return replace(state, storage=set_seat(state.storage, to, add(state.storage[to], received)))


def _deal_made(state: State, d: Data) -> State:
    for leg in d["legs"]:
        state = _move_leg(state, leg)
    if state.trade == REGULATED:
        return _next_turn(state)
    pair = (d["proposer"], d["partner"])
    return replace(state, offers=tuple(o for o in state.offers if (o.frm, o.to) != pair))


def _offer_made(state: State, d: Data) -> State:
    new = Offer(d["id"], d["from"], d["to"], from_json(d["give"]), from_json(d["take"]))
    kept = tuple(o for o in state.offers if (o.frm, o.to) != (new.frm, new.to))
    counts = [c for c in state.offer_counts if (c[0], c[1]) != (new.frm, new.to)]
    counts.append((new.frm, new.to, d["count"]))
    return replace(state, offers=(*kept, new), offer_counts=tuple(counts))


def _offer_gone(state: State, d: Data) -> State:
    return replace(state, offers=tuple(o for o in state.offers if o.id != d["id"]))


def _done(state: State, d: Data) -> State:
    seat = d["seat"]
    offers = tuple(o for o in state.offers if seat not in (o.frm, o.to))
    return replace(state, submitted=(*state.submitted, seat), offers=offers)


def _trade_ended(state: State, d: Data) -> State:
    storage = tuple(add(s, a) for s, a in zip(state.storage, state.aside, strict=True))
    n = len(state.order)
    state = replace(state, storage=storage, aside=(ZERO,) * n, offers=(), turns=(), deal=None)
    return open_phase(state, SETTLING, [])


def _given_back(state: State, d: Data) -> State:
    seat, back = d["seat"], from_json(d["goods"])
    state = replace(
        state,
        production=set_seat(state.production, seat, sub(state.production[seat], back)),
        supply=add(state.supply, back),
    )
    return state if d["forced"] else replace(state, submitted=(*state.submitted, seat))


def _give_back_opened(state: State, d: Data) -> State:
    return open_phase(state, GIVE_BACK, d["seats"])


TRADE_APPLY = {
    "TradeStarted": _trade_started,
    "ProposalPassed": _passed,
    "DealProposed": _proposed,
    "AnswersRevealed": _answers,
    "DealRefused": _refused,
    "DealMade": _deal_made,
    "OfferMade": _offer_made,
    "OfferWithdrawn": _offer_gone,
    "OfferDeclined": _offer_gone,
    "DoneDeclared": _done,
    "TradeEnded": _trade_ended,
    "GoodsGivenBack": _given_back,
    "GiveBackOpened": _give_back_opened,
}
