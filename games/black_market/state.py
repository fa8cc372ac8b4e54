"""The frozen state of a Black Market game and the small queries the rules ask of it.

Per-seat tuples (`production`, `storage`, `aside`, `vp`, `cards`) are indexed by seat
number; goods are count tuples in colour order (see `goods`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import Seat
from games.black_market.data import LIMITS, cards
from games.black_market.goods import ZERO, Counts, add
from games.kit import SETUP, replace

GAME_ID = "black-market"

# Phases. The ones in SIMULTANEOUS wait for several seats at once; the rules run the
# automatic ones (ROUND, DISTRIBUTE, TRADE, TRADE_END, NEXT_CARD, FINAL) alone.
ROUND = "round"
PRODUCE = "produce"
DISTRIBUTE = "distribute"
TRADE = "trade"
PROPOSE = "propose"
ANSWER = "answer"
PICK = "pick"
SETTLING = "settling"
WILD = "wild"
TRADE_END = "trade_end"
GIVE_BACK = "give_back"
BID = "bid"
RAISE = "raise"
SHIFT = "shift"
NEXT_CARD = "next_card"
FINAL = "final"
SELL = "sell"
DISCARD = "discard"

SIMULTANEOUS = (PRODUCE, ANSWER, WILD, GIVE_BACK, BID, SELL, DISCARD)
SECRET = (PRODUCE, ANSWER, BID, SELL)
REGULATED, WILD_TRADE = "regulated", "wild"


@dataclass(frozen=True)
class Offer:
    """A private wild-trade offer from `frm` to `to`: `give` for `take`."""

    id: str
    frm: Seat
    to: Seat
    give: Counts
    take: Counts


@dataclass(frozen=True)
class State:
    """Everything on the table and every pending submission."""

    order: tuple[Seat, ...]
    trade: str = REGULATED
    supply_start: int = 0
    phase: str = SETUP
    round: int = 0
    final: bool = False
    end_reason: str | None = None
    rows: Counts = ZERO
    steps: Counts = ZERO
    supply: Counts = ZERO
    offer: Counts = ZERO
    production: tuple[Counts, ...] = ()
    storage: tuple[Counts, ...] = ()
    aside: tuple[Counts, ...] = ()
    vp: tuple[Counts, ...] = ()
    cards: tuple[tuple[str, ...], ...] = ()
    deck: tuple[str, ...] = ()
    card: str | None = None
    removed: tuple[str, ...] = ()
    starter: Seat = 0
    expected: tuple[Seat, ...] = ()
    submitted: tuple[Seat, ...] = ()
    sealed: tuple[tuple[Seat, Any], ...] = ()
    turns: tuple[Seat, ...] = ()
    turn: int = 0
    deal: tuple[Counts, Counts] | None = None
    acceptors: tuple[Seat, ...] = ()
    offers: tuple[Offer, ...] = ()
    offer_counts: tuple[tuple[Seat, Seat, int], ...] = ()
    winner: Seat | None = None
    last_bids: tuple[tuple[Seat, int, int], ...] = ()

    @property
    def seats(self) -> range:
        """Return every seat number."""
        return range(len(self.order))


def set_seat(per_seat: tuple[Counts, ...], seat: Seat, value: Counts) -> tuple[Counts, ...]:
    """Return `per_seat` with `seat`'s entry replaced by `value`."""
    return tuple(value if s == seat else c for s, c in enumerate(per_seat))


def open_phase(state: State, phase: str, seats: list[int]) -> State:
    """Return `state` in `phase`, waiting for `seats`, with no submission yet."""
    return replace(state, phase=phase, expected=tuple(seats), submitted=(), sealed=())


def effect(state: State, seat: Seat, name: str) -> Any:
    """Return the summed effect `name` of the cards `seat` holds (0/False when none)."""
    values = [cards()[c].effect[name] for c in state.cards[seat] if name in cards()[c].effect]
    if values and isinstance(values[0], bool):
        return any(values)
    return sum(values)


def card_with(state: State, seat: Seat, name: str) -> str:
    """Return the id of the last card `seat` holds whose data carries effect `name`."""
    return next(c for c in reversed(state.cards[seat]) if cards()[c].effect.get(name))


def holders(state: State, name: str) -> list[Seat]:
    """Return the seats holding a card whose data carries effect `name`."""
    return [s for s in state.order if effect(state, s, name)]


def production_limit(state: State, seat: Seat) -> int:
    """Return how many goods `seat` may produce this round."""
    return LIMITS["production"] + effect(state, seat, "production_limit")


def wildcards(state: State, seat: Seat) -> int:
    """Return how many white discs `seat` has."""
    return LIMITS["wildcards"] + effect(state, seat, "wildcards")


def storage_limit(state: State, seat: Seat) -> int:
    """Return how many goods `seat` may keep in storage after selling."""
    return LIMITS["storage"] + effect(state, seat, "storage_limit")


def give_back_count(state: State, seat: Seat) -> int:
    """Return how many production goods `seat` gives back at the end of trade."""
    half = sum(state.production[seat]) // 2
    return max(0, half + effect(state, seat, "give_back"))


def tradeable(state: State, seat: Seat) -> Counts:
    """Return the goods `seat` may trade now: production plus storage."""
    return add(state.production[seat], state.storage[seat])


def sealed_of(state: State, seat: Seat) -> Any:
    """Return `seat`'s secret submission to the open phase, or None."""
    return dict(state.sealed).get(seat)


def is_ready(state: State) -> bool:
    """Return True if the open simultaneous phase has every submission it waits for."""
    if state.phase not in SIMULTANEOUS or not state.expected:
        return False
    if state.phase == WILD:
        return len(state.submitted) >= len(state.order) - 1
    return all(s in state.submitted for s in state.expected)


def offers_made(state: State, frm: Seat, to: Seat) -> int:
    """Return how many offers `frm` has made to `to` so far (the parties both know it)."""
    return next((k for a, b, k in state.offer_counts if (a, b) == (frm, to)), 0)


def phase_key(state: State) -> str:
    """Return the key of the decision or phase now open (unique over the game)."""
    key = f"{state.phase}-r{state.round}"
    if state.phase in (PROPOSE, ANSWER, PICK):
        key += f"-t{state.turn}"
    if state.phase == SELL and state.final:
        key += "-final"
    return key


def proposer(state: State) -> Seat | None:
    """Return who proposes (or proposed) the current regulated deal."""
    return state.turns[state.turn] if state.turn < len(state.turns) else None
