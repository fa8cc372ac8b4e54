"""Conservation checks the tests run after every event."""

from __future__ import annotations

from collections import Counter

from games.archive.black_market_v2.data import CARD_IDS, COLOURS, MAX_ROW, MIN_ROW, TOP_STEP
from games.archive.black_market_v2.goods import N
from games.archive.black_market_v2.state import DISTRIBUTE, PRODUCE, ROUND, WILD, State, storage_limit
from games.archive.black_market_v2.shared.kit import OVER, SETUP


def check_invariants(state: State) -> None:
    """Raise AssertionError if a cube or card is lost or doubled, or a count goes wrong."""
    n = len(state.order)
    areas = [state.supply, state.offer, *state.production, *state.storage, *state.aside]
    areas += list(state.vp)
    assert all(x >= 0 for area in areas for x in area), "a negative count of goods"
    if state.phase == SETUP:
        return
    total = state.supply_start + n
    for c in range(N):
        held = sum(area[c] for area in areas)
        assert held == total, f"{COLOURS[c]}: {held} cubes, expected {total}"
    assert all(MIN_ROW <= r <= MAX_ROW for r in state.rows), f"rows {state.rows}"
    assert all(0 <= s <= TOP_STEP for s in state.steps), f"steps {state.steps}"
    _check_cards(state)
    if state.phase != WILD:
        assert not any(sum(a) for a in state.aside), "goods left aside outside wild trade"
    if state.phase not in (PRODUCE, DISTRIBUTE):
        assert not sum(state.offer), "goods left on offer after production"
    if state.phase in (ROUND, PRODUCE):
        for seat in state.seats:
            limit = storage_limit(state, seat)
            assert sum(state.storage[seat]) <= limit, f"seat {seat} storage over {limit}"
    assert set(state.submitted) <= set(state.expected) or state.phase == WILD
    if state.phase == OVER:
        assert state.final and state.end_reason, "the game ended without a reason"


def _check_cards(state: State) -> None:
    places = Counter([*state.deck, *state.removed, *([state.card] if state.card else [])])
    for held in state.cards:
        places.update(held)
    assert places == Counter(CARD_IDS), f"cards misplaced: {places}"
