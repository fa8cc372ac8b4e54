"""Apply the events of plays: cards played, reaction windows, Specials, and Games."""

from __future__ import annotations

from games.archive.gobcon_v2.shared.catalog import Data, Handler
from games.archive.gobcon_v2.moves import drop, place, set_at, to_discard, with_hand
from games.archive.gobcon_v2.state import (
    AIM,
    ANSWER,
    ANSWERING,
    CLOSING,
    EFFECT,
    JOIN,
    PLAY,
    PLAYED,
    REACT,
    ROLL,
    SETTLE,
    STEP_RESUMES,
    WINDOW,
    Contest,
    Link,
    State,
    Window,
    step_marker,
    update,
)
from games.archive.gobcon_v2.shared.kit import replace


def _card_played(state: State, d: Data) -> State:
    seat = d["seat"]
    state = with_hand(state, seat, drop(state.hands[seat], d["card"]))
    link = Link(seat, d["card"], d["target"])
    return update(state, chain=(link,), phase=AIM if d["aim"] else REACT)


def _with_top(state: State, **changes) -> State:
    return update(state, chain=(*state.chain[:-1], replace(state.chain[-1], **changes)))


def _target_chosen(state: State, d: Data) -> State:
    return update(_with_top(state, target=d["target"]), phase=REACT)


def _window_opened(state: State, d: Data) -> State:
    window = Window(f"respond-{state.tick}", tuple(d["responders"]))
    if d["card"] is None:  # a step of the turn: a link of its own, remembered as held
        step = Link(None, None, None, d["step"], window)
        return update(state, chain=(*state.chain, step), held=step_marker(state), phase=WINDOW)
    return update(_with_top(state, window=window), phase=WINDOW)


def _response_submitted(state: State, d: Data) -> State:
    window = state.window
    submitted = (*window.submitted, (d["seat"], d["card"]))
    return _with_top(state, window=replace(window, submitted=submitted))


def _responses_revealed(state: State, d: Data) -> State:
    window = state.window
    sealed = dict(window.submitted)
    queue = tuple((s, sealed[s]) for s in window.responders if sealed.get(s) is not None)
    return update(_with_top(state, window=replace(window, queue=queue)), phase=ANSWERING)


def _response_played(state: State, d: Data) -> State:
    seat, card = d["seat"], d["card"]
    window = state.window
    queue = window.queue[window.queue.index((seat, card)) + 1 :]  # earlier ones go back unnamed
    state = _with_top(state, window=replace(window, queue=queue))
    state = with_hand(state, seat, drop(state.hands[seat], card))
    link = Link(seat, card, d["target"], ANSWER)
    return update(state, chain=(*state.chain, link), phase=AIM if d["aim"] else REACT)


def _response_resolved(state: State, d: Data) -> State:
    state = update(state, chain=state.chain[:-1], phase=ANSWERING)
    return place(state, d["card"], d["target"], state.card(d["card"]).keep)


def _play_cancelled(state: State, d: Data) -> State:
    chain = state.chain[:-1]  # the cancel leaves the chain; the card it answered is cancelled
    chain = (*chain[:-1], replace(chain[-1], cancelled=True))
    return to_discard(update(state, chain=chain, phase=ANSWERING), d["card"], d["cancel"])


def _window_closed(state: State, d: Data) -> State:
    top = state.chain[-1]
    if top.live:
        state = _with_top(state, window=None)
        return update(state, phase=EFFECT if top.kind == PLAYED else SETTLE)
    chain = state.chain[:-1]  # a step, or a cancelled card: the window below goes on
    phase = ANSWERING if chain else STEP_RESUMES.get(top.kind, PLAY)
    return update(state, chain=chain, phase=phase)


def _resolved(state: State, kind: str) -> State:
    return update(state, chain=(), used=(*state.used, kind), phase=PLAY)


def _friend_joined(state: State, d: Data) -> State:
    state = to_discard(_resolved(state, "friend"), d["replaced"])
    return update(state, friends=set_at(state.friends, d["seat"], d["card"]))


def _item_bought(state: State, d: Data) -> State:
    seat = d["seat"]
    state = _resolved(state, "item")
    return update(state, items=set_at(state.items, seat, (*state.items[seat], d["card"])))


def _special_resolved(state: State, d: Data) -> State:
    state = update(state, chain=(), phase=PLAY)
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
    "ResponseResolved": _response_resolved,
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
