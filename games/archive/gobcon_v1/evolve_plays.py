"""Apply the events of plays: cards played, reaction windows, Specials, and Games."""

from __future__ import annotations

from dataclasses import replace

from games.archive.gobcon_v1.shared.catalog import Data, Handler
from games.archive.gobcon_v1.moves import drop, place, set_at, to_discard, with_hand
from games.archive.gobcon_v1.state import (
    AIM,
    ANSWERING,
    CLOSING,
    EFFECT,
    JOIN,
    PLAY,
    REACT,
    ROLL,
    WINDOW,
    Contest,
    Pending,
    State,
    Window,
    update,
)


def _card_played(state: State, d: Data) -> State:
    seat = d["seat"]
    state = with_hand(state, seat, drop(state.hands[seat], d["card"]))
    pending = Pending(seat, d["card"], d["target"])
    return update(state, pending=pending, phase=AIM if d["aim"] else REACT)


def _target_chosen(state: State, d: Data) -> State:
    return update(state, pending=replace(state.pending, target=d["target"]), phase=REACT)


def _window_opened(state: State, d: Data) -> State:
    window = Window(f"respond-{state.tick}", d["seat"], tuple(d["responders"]))
    return update(state, window=window, phase=WINDOW)


def _response_submitted(state: State, d: Data) -> State:
    window = state.window
    submitted = (*window.submitted, (d["seat"], d["card"]))
    return update(state, window=replace(window, submitted=submitted))


def _responses_revealed(state: State, d: Data) -> State:
    queue = tuple((r["seat"], r["card"]) for r in d["responses"] if r["card"] is not None)
    return update(state, window=replace(state.window, queue=queue), phase=ANSWERING)


def _pop(state: State, d: Data) -> State:
    queue = tuple(q for q in state.window.queue if q != (d["seat"], d["card"]))
    return update(state, window=replace(state.window, queue=queue))


def _response_played(state: State, d: Data) -> State:
    seat, card = d["seat"], d["card"]
    state = with_hand(_pop(state, d), seat, drop(state.hands[seat], card))
    return place(state, card, d["target"], state.card(card).keep)


def _play_cancelled(state: State, d: Data) -> State:
    return to_discard(update(state, pending=None), d["card"])


def _window_closed(state: State, d: Data) -> State:
    return update(state, window=None, phase=EFFECT if state.pending else PLAY)


def _resolved(state: State, kind: str) -> State:
    return update(state, pending=None, used=(*state.used, kind), phase=PLAY)


def _friend_joined(state: State, d: Data) -> State:
    state = to_discard(_resolved(state, "friend"), d["replaced"])
    return update(state, friends=set_at(state.friends, d["seat"], d["card"]))


def _item_bought(state: State, d: Data) -> State:
    seat = d["seat"]
    state = _resolved(state, "item")
    return update(state, items=set_at(state.items, seat, (*state.items[seat], d["card"])))


def _special_resolved(state: State, d: Data) -> State:
    state = update(state, pending=None, phase=PLAY)
    return place(state, d["card"], d["target"], state.card(d["card"]).keep)


def _from_area(state: State, d: Data, cards: list[str]) -> State:
    seat = d["seat"]
    state = update(state, specials=set_at(state.specials, seat, drop(state.specials[seat], cards)))
    return to_discard(state, *cards)


def _bonus_malus_cancelled(state: State, d: Data) -> State:
    return _from_area(state, d, [d["bonus"], d["malus"]])


def _prohibitions_lifted(state: State, d: Data) -> State:
    return _from_area(state, d, list(d["cards"]))


def _game_opened(state: State, d: Data) -> State:
    eligible = tuple(d["eligible"])
    contest = Contest(d["card"], d["seat"], d["category"], eligible, f"join-{state.tick}")
    if not eligible:
        contest = replace(contest, players=(d["seat"],))
    state = update(_resolved(state, "game"), contest=contest)
    return update(state, phase=JOIN if eligible else ROLL)


def _join_submitted(state: State, d: Data) -> State:
    joins = (*state.contest.joins, (d["seat"], d["join"]))
    return update(state, contest=replace(state.contest, joins=joins))


def _joins_revealed(state: State, d: Data) -> State:
    contest = replace(state.contest, players=tuple(d["players"]))
    return update(state, contest=contest, phase=ROLL)


def _die_rolled(state: State, d: Data) -> State:
    contest = state.contest
    rolled = (*contest.rolled, d["seat"])
    king = contest.king or d["result"] == "king"
    state = update(
        state,
        counters=set_at(state.counters, d["seat"], d["counters"]),
        contest=replace(contest, rolled=rolled, king=king),
    )
    return update(state, phase=CLOSING) if len(rolled) >= len(contest.players) else state


def _game_closed(state: State, d: Data) -> State:
    gone = list(d["discarded"])
    specials = tuple(drop(area, gone) for area in state.specials)
    state = update(state, specials=specials, contest=None, phase=PLAY)
    return to_discard(state, d["card"], *gone)


PLAYS: dict[str, Handler] = {
    "CardPlayed": _card_played,
    "TargetChosen": _target_chosen,
    "WindowOpened": _window_opened,
    "ResponseSubmitted": _response_submitted,
    "ResponsesRevealed": _responses_revealed,
    "ResponsePlayed": _response_played,
    "ResponseReturned": _pop,
    "PlayCancelled": _play_cancelled,
    "WindowClosed": _window_closed,
    "FriendJoined": _friend_joined,
    "ItemBought": _item_bought,
    "SpecialResolved": _special_resolved,
    "BonusMalusCancelled": _bonus_malus_cancelled,
    "ProhibitionsLifted": _prohibitions_lifted,
    "GameOpened": _game_opened,
    "JoinSubmitted": _join_submitted,
    "JoinsRevealed": _joins_revealed,
    "DieRolled": _die_rolled,
    "GameClosed": _game_closed,
}
