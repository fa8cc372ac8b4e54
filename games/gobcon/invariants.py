"""Conservation checks for tests: every card in one place, limits and counters respected."""

from __future__ import annotations

from collections import Counter

from games.gobcon.cards import HAND_SIZE, instances
from games.gobcon.state import (
    AIM,
    ANSWER,
    ANSWERING,
    BEFORE_ROLL,
    CLOSING,
    DRAW,
    EFFECT,
    JOIN,
    LM_PASS,
    REACT,
    ROLL,
    SETTLE,
    WINDOW,
    State,
    give_candidates,
    is_logorrea,
    logorrea_owner,
)
from games.kit import OVER, SETUP

CHAIN_STEPS = (AIM, REACT, WINDOW, ANSWERING, EFFECT, SETTLE)
CONTEST_STEPS = (JOIN, ROLL, CLOSING)


def places(state: State) -> Counter:
    """Return every card the table holds, wherever it lies."""
    found = Counter([*state.draw, *state.discard])
    for seat in range(state.players):
        found.update(state.hands[seat])
        found.update(state.items[seat])
        found.update(state.specials[seat])
        if state.friends[seat] is not None:
            found[state.friends[seat]] += 1
    found.update(link.card for link in state.chain if link.live)
    if state.contest is not None:
        found[state.contest.card] += 1
    return found


def _areas(state: State) -> None:
    for seat in range(state.players):
        friend = state.friends[seat]
        assert friend is None or state.card(friend).type == "friend", f"{friend} is no Friend"
        assert all(state.card(c).type == "item" for c in state.items[seat])
        assert all(state.card(c).keep for c in state.specials[seat]), "a used Special stayed"


def _steps(state: State) -> None:
    if state.phase == OVER:
        return
    assert bool(state.chain) == (state.phase in CHAIN_STEPS), state.phase
    assert (state.window is not None) == (state.phase in (WINDOW, ANSWERING)), state.phase
    in_game = state.phase in CONTEST_STEPS or (state.chain and state.chain[0].kind == BEFORE_ROLL)
    assert (state.contest is not None) == bool(in_game), state.phase
    for below, link in zip(state.chain, state.chain[1:], strict=False):
        assert below.window is not None and link.kind == ANSWER, "an answer outside a window"
    promised = [card for link in state.chain if link.window for _, card in link.window.queue]
    assert len(promised) == len(set(promised)), "a card answers twice"
    for seat, hand in enumerate(state.hands):
        talker = any(is_logorrea(state, c) for c in hand)
        assert not talker or state.phase in (SETUP, DRAW), f"Logorrea-Man kept in hand {seat}"
    owner = logorrea_owner(state)
    if owner is not None and not state.items[owner] and give_candidates(state, owner):
        assert (state.phase, state.active) == (LM_PASS, owner), "Logorrea-Man not handed on"


def check_invariants(state: State | None) -> None:
    """Raise AssertionError if a card is lost or doubled, or a limit or counter is broken."""
    if state is None:
        return
    found, deck = places(state), Counter(instances(state.catalog))
    if state.phase == SETUP and not found:
        return  # the deck is not shuffled in yet
    assert found == deck, f"cards lost {deck - found}, doubled {found - deck}"
    assert sum(deck.values()) == 117
    assert all(c >= 0 for c in state.counters), f"negative counters {state.counters}"
    assert all(len(h) <= HAND_SIZE for h in state.hands), "a hand holds more than five cards"
    _areas(state)
    _steps(state)
