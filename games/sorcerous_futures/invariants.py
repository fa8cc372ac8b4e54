"""Conservation checks the tests run after every event."""

from __future__ import annotations

from collections import Counter

from games.kit import OVER
from games.sorcerous_futures.state import (
    GROUPS,
    ROW_SIZE,
    SEALED,
    START_GOLD,
    State,
    all_aces,
    all_crowns,
    matches_aces,
    valuation_cards,
)


def _check_cards(state: State) -> None:
    placed = Counter([*state.deck, *state.pool, *state.row, *(c for _, c in state.valuations)])
    if state.lot:
        placed[state.lot] += 1
    for owned in state.owned:
        placed.update(owned)
    if not placed:
        return
    deck = Counter(valuation_cards())
    assert placed == deck, f"cards lost {deck - placed}, doubled {placed - deck}"
    assert len(state.row) <= ROW_SIZE and 0 <= state.group <= GROUPS


def _check_crowns(state: State) -> None:
    placed = Counter([*state.set_aside, *(c for c in state.crowns if c)])
    for hand in state.holding:
        placed.update(hand)
    if placed:
        assert placed == Counter(all_crowns()), f"crowns misplaced: {placed}"
    for seat in state.order:
        crown = state.crowns[seat]
        assert crown is None or not matches_aces(crown, state.aces[seat]), "a Crown matches"


def _check_aces(state: State) -> None:
    dealt = [a for aces in state.aces for a in aces]
    if not dealt:
        return
    assert sorted(dealt) == sorted(all_aces()), f"aces misdealt: {state.aces}"
    for seat in state.order:
        assert len(state.aces[seat]) == (0 if seat == state.excuse_holder else 2)


def check_invariants(state: State) -> None:
    """Raise AssertionError if a card, Crown or coin of gold is lost, doubled or negative."""
    assert len(state.gold) == len(state.owned) == len(state.order)
    assert all(0 <= g <= START_GOLD for g in state.gold), f"bad gold: {state.gold}"
    if state.phase == SEALED:
        for seat, amount in state.sealed:
            assert 0 <= amount <= state.gold[seat], "a sealed bid exceeds its bidder's gold"
    _check_cards(state)
    _check_crowns(state)
    _check_aces(state)
    if state.phase == OVER:
        assert not state.row and state.lot is None and len(state.deck) == 1, "ended early"
        assert state.group == GROUPS
