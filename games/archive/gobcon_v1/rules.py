"""Setting up, deciding player actions, and resolving simultaneous phases."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.base import Action, Event, NotYourTurn, PhaseClosed, RuleViolation, Seat
from games.archive.gobcon_v1 import contest, turn
from games.archive.gobcon_v1.actions import ANSWERS, aim_candidates, owed, parse
from games.archive.gobcon_v1.cards import HAND_SIZE, catalog_of, instances
from games.archive.gobcon_v1.checks import play_problem, response_problem
from games.archive.gobcon_v1.events import event
from games.archive.gobcon_v1.flow import play
from games.archive.gobcon_v1.options import deck_of, normalize_options
from games.archive.gobcon_v1.state import (
    JOIN,
    PLAY,
    WINDOW,
    State,
    give_candidates,
    logorrea_owner,
    prohibited,
    targets,
)
from games.archive.gobcon_v1.shared.kit import action_kind, answered
from games.rng import Rng


def setup(options: dict[str, Any], order: tuple[Seat, ...], rng: Rng) -> list[Event]:
    """Return the events that open a game: shuffle, deal five each, up to the first decision."""
    opts = normalize_options(options, len(order))
    deck = deck_of(opts)
    cards = rng.shuffle(instances(catalog_of(deck)))
    events = [
        event(
            "GameStarted",
            order=list(order),
            goal=opts["goal"],
            time_limit=opts["time_limit"],
            end_on_empty_deck=opts["end_on_empty_deck"],
            deck=deck,
        ),
        event("DeckShuffled", visible_to=(), deck=cards),
    ]
    for i, seat in enumerate(order):
        hand = cards[i * HAND_SIZE : (i + 1) * HAND_SIZE]
        events.append(event("CardsDealt", visible_to=(seat,), seat=seat, cards=hand))
    return play(None, events, rng)[1]


def _in_hand(state: State, seat: Seat, action: Action) -> str:
    card = action["card"]
    if card not in state.hands[seat]:
        raise RuleViolation(f"{card!r} is not in your hand", code="card_not_in_hand", field="card")
    return card


def _play(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    inst = _in_hand(state, seat, action)
    if state.phase != PLAY:
        raise RuleViolation(
            "you are discarding: your turn's plays are over", code="action_not_allowed"
        )
    problem = play_problem(state, seat, inst)
    if problem:
        raise problem
    card = state.card(inst)
    seats = targets(state, seat, card) if card.type == "special" else [None]
    aim = len(seats) > 1
    return [event("CardPlayed", seat=seat, card=inst, target=None if aim else seats[0], aim=aim)]


def _discard(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return [event("CardDiscarded", seat=seat, card=_in_hand(state, seat, action))]


def _dismiss(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    friend = state.friends[seat]
    if friend is None:
        raise RuleViolation("you have no Friend in play", code="no_friend")
    if logorrea_owner(state) == seat:
        raise RuleViolation("Logorrea-Man cannot be dismissed", code="logorrea_stays")
    return [event("FriendDismissed", seat=seat, card=friend)]


def _end_turn(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    extra = list(state.hands[seat][HAND_SIZE:])
    return [event("TurnEnded", seat=seat, discarded=extra)]


def _target(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    if action["seat"] not in aim_candidates(state):
        raise RuleViolation(
            f"seat {action['seat']} cannot be targeted", code="bad_target", field="seat"
        )
    return [event("TargetChosen", seat=seat, target=action["seat"])]


def _lose_item(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    if action["card"] not in state.items[seat]:
        raise RuleViolation(
            f"{action['card']!r} is not one of your Items", code="not_in_play", field="card"
        )
    return [event("ItemLost", seat=seat, card=action["card"])]


def _give(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    if action["seat"] not in give_candidates(state, seat):
        raise RuleViolation(
            "Logorrea-Man goes to an opponent with Items", code="bad_target", field="seat"
        )
    return turn.pass_logorrea(state, to=action["seat"])


def _respond(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    inst = _in_hand(state, seat, action)
    problem = response_problem(state, seat, inst)
    if problem:
        raise problem
    return [event("ResponseSubmitted", visible_to=(seat,), seat=seat, card=inst)]


def _pass(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return [event("ResponseSubmitted", visible_to=(seat,), seat=seat, card=None)]


def _join(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    joins = action["type"] == "join"
    return [event("JoinSubmitted", visible_to=(seat,), seat=seat, join=joins)]


def _roll(state: State, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    return [contest.roll(state, seat, rng)]


HANDLERS: dict[str, Callable[[State, Seat, Action, Rng], list[Event]]] = {
    "play": _play,
    "discard": _discard,
    "dismiss_friend": _dismiss,
    "end_turn": _end_turn,
    "target": _target,
    "lose_item": _lose_item,
    "give": _give,
    "respond": _respond,
    "pass": _pass,
    "join": _join,
    "decline": _join,
    "roll": _roll,
}
PHASE_OF = {"respond": WINDOW, "pass": WINDOW, "join": JOIN, "decline": JOIN}


def _unowed(state: State, seat: Seat, kind: str) -> RuleViolation:
    """Explain why `seat`, which owes nothing, may not send `kind` now."""
    phase = PHASE_OF.get(kind)
    if phase is None:
        return NotYourTurn(f"seat {seat} owes no decision now")
    if state.phase != phase:
        return PhaseClosed(f"no {'reaction window' if phase == WINDOW else 'join'} phase is open")
    done = state.window.submitted if phase == WINDOW else state.contest.joins
    if any(s == seat for s, _ in done):
        return RuleViolation(f"seat {seat} already answered this phase", code="already_submitted")
    c = state.contest
    if phase == JOIN and kind == "join" and seat != c.seat and prohibited(state, seat, c.category):
        return RuleViolation(
            f"a Prohibition bars seat {seat} from {c.category} Games", code="prohibited"
        )
    return NotYourTurn(f"seat {seat} has no part in this phase")


def decide(state: State | None, seat: Seat, action: Action, rng: Rng) -> list[Event]:
    """Check `action` by `seat` and return every event it causes up to the next decision."""
    kind = action_kind(state, action, parse)
    answered(owed(state), seat, kind, ANSWERS, unowed=lambda: _unowed(state, seat, kind))
    return play(state, HANDLERS[kind](state, seat, action, rng), rng)[1]


def ready(state: State | None) -> str | None:
    """Return the key of a window or join phase whose answers are all in, else None."""
    if state is None:
        return None
    if state.phase == WINDOW and len(state.window.submitted) == len(state.window.responders):
        return state.window.key
    if state.phase == JOIN and len(state.contest.joins) == len(state.contest.eligible):
        return state.contest.key
    return None


def _reveal(state: State) -> Event:
    if state.phase == WINDOW:
        sealed = dict(state.window.submitted)
        answers = [{"seat": s, "card": sealed[s]} for s in state.window.responders]
        return event("ResponsesRevealed", responses=answers)
    c = state.contest
    joins = dict(c.joins)
    joined = [s for s in c.eligible if joins[s]]
    declined = [s for s in c.eligible if not joins[s]]
    return event("JoinsRevealed", joined=joined, declined=declined, players=[c.seat, *joined])


def resolve(state: State, rng: Rng) -> list[Event]:
    """Reveal the sealed answers of the ready phase and play on to the next decision."""
    if ready(state) is None:
        raise PhaseClosed("no simultaneous phase is waiting to be resolved")
    return play(state, [_reveal(state)], rng)[1]
