"""Moving cards between the places on the table: the small state edits every event uses."""

from __future__ import annotations

from typing import Any

from games.archive.gobcon_v2.state import State, update


def set_at(values: tuple, seat: int, value: Any) -> tuple:
    """Return the per-seat tuple `values` with `seat`'s entry replaced."""
    return (*values[:seat], value, *values[seat + 1 :])


def drop(cards: tuple[str, ...], gone: list[str] | str) -> tuple[str, ...]:
    """Return `cards` without the card(s) in `gone` (absent ones are ignored)."""
    gone = [gone] if isinstance(gone, str) else list(gone)
    out = list(cards)
    for card in gone:
        if card in out:
            out.remove(card)
    return tuple(out)


def with_hand(state: State, seat: int, cards: tuple[str, ...]) -> State:
    """Return the state with `seat`'s hand set to `cards`."""
    return update(state, hands=set_at(state.hands, seat, cards))


def to_discard(state: State, *cards: str | None) -> State:
    """Return the state with `cards` (None skipped) on top of the discard pile."""
    return update(state, discard=(*state.discard, *[c for c in cards if c is not None]))


def place(state: State, card: str, target: int, keep: bool) -> State:
    """Put a used Special in front of `target` if it stays in play, else on the discard pile."""
    if not keep:
        return to_discard(state, card)
    return update(state, specials=set_at(state.specials, target, (*state.specials[target], card)))
