"""Apply GobCon events to the state: no checks, no randomness, never fails.

Event data may come straight from JSON, so lists become tuples here. Each event moves
cards between named places and, where it ends a step, sets the next one. This module
holds setup, turns, drawing and Logorrea-Man; `evolve_plays` the plays themselves.
"""

from __future__ import annotations

from games.archive.gobcon_v1.shared.catalog import Data, Handler
from games.archive.gobcon_v1.cards import base_id, catalog_of, instances
from games.archive.gobcon_v1.events import EVENTS
from games.archive.gobcon_v1.evolve_plays import PLAYS
from games.archive.gobcon_v1.moves import drop, set_at, to_discard, with_hand
from games.archive.gobcon_v1.state import DISCARD, DRAW, LM_PASS, NEXT, State, draw_step, start_step, update
from games.archive.gobcon_v1.shared.kit import OVER


def _started(state: State | None, d: Data) -> State:
    order = tuple(d["order"])
    catalog = catalog_of(d["deck"])
    cards = {inst: catalog[base_id(inst)] for inst in instances(catalog)}
    n = len(order)
    return State(
        order=order,
        goal=d["goal"],
        time_limit=d["time_limit"],
        end_on_empty_deck=d["end_on_empty_deck"],
        deck_name=d["deck"]["name"],
        catalog=catalog,
        cards=cards,
        reactive=any(c.any_time for c in catalog.values()),
        hands=((),) * n,
        friends=(None,) * n,
        items=((),) * n,
        specials=((),) * n,
        counters=(0,) * n,
    )


def _shuffled(state: State, d: Data) -> State:
    return update(state, draw=tuple(d["deck"]))


def _dealt(state: State, d: Data) -> State:
    cards = tuple(d["cards"])
    state = update(state, draw=state.draw[len(cards) :])
    return with_hand(state, d["seat"], (*state.hands[d["seat"]], *cards))


def _after_draw(state: State) -> State:
    return update(state, phase=draw_step(state))


def _drawn(state: State, d: Data) -> State:
    return _after_draw(_dealt(state, d))


def _logorrea_played(state: State, d: Data) -> State:
    seat, card = d["seat"], d["card"]
    state = with_hand(state, seat, drop(state.hands[seat], card))
    state = to_discard(state, d["replaced"])
    state = update(state, friends=set_at(state.friends, seat, card))
    return _after_draw(state) if state.phase == DRAW else state


def _turn_started(state: State, d: Data) -> State:
    state = update(state, active=d["seat"], turn=d["turn"], used=())
    return update(state, phase=start_step(state))


def _item_lost(state: State, d: Data) -> State:
    seat = d["seat"]
    state = update(state, items=set_at(state.items, seat, drop(state.items[seat], d["card"])))
    state = to_discard(state, d["card"])
    return update(state, phase=LM_PASS) if not state.items[seat] else _after_draw(state)


def _logorrea_passed(state: State, d: Data) -> State:
    friends = set_at(state.friends, d["seat"], None)
    state = to_discard(state, d["replaced"])
    state = update(state, friends=set_at(friends, d["to"], d["card"]))
    return _after_draw(state)


def _logorrea_left(state: State, d: Data) -> State:
    state = update(state, friends=set_at(state.friends, d["seat"], None))
    state = to_discard(state, d["card"])
    return _after_draw(state) if d["reason"] == "no_items" else state


def _reshuffled(state: State, d: Data) -> State:
    return update(state, draw=tuple(d["deck"]), discard=())


def _friend_dismissed(state: State, d: Data) -> State:
    state = update(state, friends=set_at(state.friends, d["seat"], None))
    return to_discard(state, d["card"])


def _card_discarded(state: State, d: Data) -> State:
    seat = d["seat"]
    state = with_hand(state, seat, drop(state.hands[seat], d["card"]))
    return update(to_discard(state, d["card"]), phase=DISCARD)


def _turn_ended(state: State, d: Data) -> State:
    seat, gone = d["seat"], list(d["discarded"])
    state = with_hand(state, seat, drop(state.hands[seat], gone))
    return update(to_discard(state, *gone), phase=NEXT)


def _finished(state: State, d: Data) -> State:
    return update(state, phase=OVER, reason=d["reason"], winners=tuple(d["winners"]), pending=None)


APPLY: dict[str, Handler] = {
    "GameStarted": _started,
    "DeckShuffled": _shuffled,
    "CardsDealt": _dealt,
    "LogorreaPlayed": _logorrea_played,
    "TurnStarted": _turn_started,
    "ItemLost": _item_lost,
    "LogorreaPassed": _logorrea_passed,
    "LogorreaLeft": _logorrea_left,
    "DiscardReshuffled": _reshuffled,
    "CardsDrawn": _drawn,
    "FriendDismissed": _friend_dismissed,
    "CardDiscarded": _card_discarded,
    "TurnEnded": _turn_ended,
    "GameFinished": _finished,
    **PLAYS,
}


def _counted(state: State) -> State:
    return update(state, tick=state.tick + 1)


evolve = EVENTS.evolver(APPLY, after=_counted)
