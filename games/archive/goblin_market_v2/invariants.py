"""Conservation checks the tests run after every event."""

from __future__ import annotations

from collections import Counter

from games.archive.goblin_market_v2.shared.decktet import basic_deck
from games.archive.goblin_market_v2.state import State, goblin_cards
from games.archive.goblin_market_v2.shared.kit import OVER, SETUP


def check_invariants(state: State) -> None:
    """Raise AssertionError if a card is lost or doubled, or coins went negative."""
    assert all(c >= 0 for c in state.coins), f"negative coins: {state.coins}"
    assert len(state.coins) == len(state.owned) == len(state.order)
    if state.phase == SETUP:
        return
    places = Counter([*state.auction_deck, *state.set_aside, *state.offer, *state.discards])
    for owned in state.owned:
        places.update(owned)
    deck = Counter(basic_deck())
    assert places == deck, f"basic cards lost {deck - places}, doubled {places - deck}"
    goblins = Counter([*state.goblin_deck, *state.goblin_used])
    assert goblins == Counter(goblin_cards(state.courts)), f"goblin cards misplaced: {goblins}"
    if state.phase == OVER:
        assert not state.auction_deck and not state.offer, "the game ended with cards to sell"
