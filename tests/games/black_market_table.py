"""Scenario helpers for Black Market tests: set a table, arrange it, then play moves on it."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from games.base import Event
from games.black_market import GAME
from games.black_market.data import CARD_IDS, COLOURS
from games.black_market.goods import ZERO, from_json, sub
from games.black_market.production import offer_for
from games.black_market.state import PRODUCE, State
from games.rng import NoRng, Rng

Moves = tuple[int, dict[str, Any]]


def round_trip(ev: Event) -> Event:
    """Return `ev` as it comes back from storage (data through JSON)."""
    return Event(ev.type, json.loads(json.dumps(ev.data)), ev.visible_to)


def fold(events: list[Event], state: State | None = None) -> State:
    """Fold `events` (through JSON) into `state`, checking invariants after each."""
    for ev in events:
        state = GAME.evolve(state, round_trip(ev))
        GAME.check_invariants(state)
    return state


def started(players: int = 3, trade: str = "regulated", seed: bytes = b"table") -> State:
    """Set up a game with seat i at position i of the order; round 1's production is open."""
    return fold(GAME.setup({"trade": trade}, tuple(range(players)), Rng(seed)))


def _counts(data: dict[str, int] | None) -> tuple[int, ...]:
    return from_json(data or {})


def _per_seat(current: tuple, given: dict[int, Any] | None, convert) -> tuple:
    if given is None:
        return current
    return tuple(convert(given[s]) if s in given else c for s, c in enumerate(current))


def arrange(state: State, **facts: Any) -> State:
    """Replace facts on the table and let the supply absorb the difference.

    `rows`/`steps`: {colour: value}; `storage`/`production`/`vp`: {seat: {colour: n}};
    `cards`: {seat: [card ids]} (taken out of the deck); `deck`: the card ids left, top
    first; `card`: the revealed card (or None). In production the offer is laid out again
    for the new rows."""
    rows = tuple(facts.get("rows", {}).get(c, r) for c, r in zip(COLOURS, state.rows))
    steps = tuple(facts.get("steps", {}).get(c, s) for c, s in zip(COLOURS, state.steps))
    state = replace(
        state,
        rows=rows,
        steps=steps,
        storage=_per_seat(state.storage, facts.get("storage"), _counts),
        production=_per_seat(state.production, facts.get("production"), _counts),
        vp=_per_seat(state.vp, facts.get("vp"), _counts),
        cards=_per_seat(state.cards, facts.get("cards"), tuple),
    )
    state = _arrange_cards(state, facts)
    state = _refill_supply(state, ZERO if state.phase == PRODUCE else state.offer)
    if state.phase == PRODUCE:
        state = replace(state, offer=offer_for(state))
        state = replace(state, supply=sub(state.supply, state.offer))
    GAME.check_invariants(state)
    return state


def _arrange_cards(state: State, facts: dict[str, Any]) -> State:
    held = {c for cards in state.cards for c in cards}
    card = facts.get("card", state.card)
    card = None if card in held else card
    default_deck = [c for c in CARD_IDS if c not in held and c != card]
    deck = tuple(c for c in facts.get("deck", default_deck) if c not in held and c != card)
    removed = tuple(c for c in CARD_IDS if c not in held and c != card and c not in deck)
    return replace(state, card=card, deck=deck, removed=removed)


def _refill_supply(state: State, offer: tuple[int, ...]) -> State:
    total = state.supply_start + len(state.order)
    supply = []
    for c in range(len(COLOURS)):
        used = offer[c] + sum(
            area[c] for area in (*state.production, *state.storage, *state.aside, *state.vp)
        )
        assert used <= total, f"{COLOURS[c]}: {used} cubes arranged, only {total} exist"
        supply.append(total - used)
    return replace(state, supply=tuple(supply), offer=offer)


def submit(state: State, *moves: Moves) -> tuple[State, list[Event]]:
    """Decide `moves` (seat, action) in turn, without resolving a ready phase."""
    out: list[Event] = []
    for seat, action in moves:
        events = GAME.decide(state, seat, action, NoRng())
        state = fold(events, state)
        out.extend(events)
    return state, out


def settle(state: State) -> tuple[State, list[Event]]:
    """Resolve ready phases, as a worker would, until a decision is owed again."""
    out: list[Event] = []
    while GAME.ready(state) is not None:
        events = GAME.resolve(state, NoRng())
        state = fold(events, state)
        out.extend(events)
    return state, out


def act(state: State, *moves: Moves) -> tuple[State, list[Event]]:
    """Decide `moves` in turn, then resolve whatever phase they made ready."""
    state, out = submit(state, *moves)
    state, more = settle(state)
    return state, out + more


def advance(state: State, phase: str, limit: int = 500) -> tuple[State, list[Event]]:
    """Apply every owed default (and resolve) until the game reaches `phase`."""
    out: list[Event] = []
    for _ in range(limit):
        if state.phase == phase and GAME.ready(state) is None:
            return state, out
        if GAME.ready(state) is not None:
            state, events = settle(state)
        else:
            owed = GAME.owed(state)[0]
            state, events = submit(state, (owed.seat, owed.default))
        out.extend(events)
    raise AssertionError(f"phase {phase} never reached; now {state.phase}")


def names(events: list[Event]) -> list[str]:
    """Return the short names of `events`, e.g. "DealMade"."""
    return [ev.type.split(".", 1)[1] for ev in events]


def only(events: list[Event], name: str) -> list[dict[str, Any]]:
    """Return the data of the events called `name`."""
    return [ev.data for ev in events if ev.type.endswith("." + name)]


def produce(*goods: str) -> dict[str, Any]:
    """Return a production action."""
    return {"type": "produce", "goods": list(goods)}


def propose(give: list[str], take: list[str]) -> dict[str, Any]:
    """Return a regulated deal proposal."""
    return {"type": "propose", "give": list(give), "take": list(take)}


def answer(accept: bool) -> dict[str, Any]:
    """Return an answer to a regulated deal."""
    return {"type": "answer", "accept": accept}


def bid(*goods: str) -> dict[str, Any]:
    """Return a sealed bid."""
    return {"type": "bid", "goods": list(goods)}


def sell(**vp: int) -> dict[str, Any]:
    """Return a sale of `vp` points per colour."""
    return {"type": "sell", "vp": dict(vp)}


def offer(to: int, give: list[str], take: list[str]) -> dict[str, Any]:
    """Return a wild-trade offer."""
    return {"type": "offer", "to": to, "give": list(give), "take": list(take)}


PASS = {"type": "pass"}
DONE = {"type": "done"}
NOTHING = produce()
