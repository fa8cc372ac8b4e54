"""The action objects players send: their shapes, and who owes which decision now."""

from __future__ import annotations

from typing import Any

from games.archive.black_market_v1.shared import shapes
from games.base import Owed, Seat
from games.archive.black_market_v1 import goods
from games.archive.black_market_v1.data import COLOURS
from games.archive.black_market_v1.selling import best_sale
from games.archive.black_market_v1.state import (
    ANSWER,
    BID,
    DISCARD,
    GIVE_BACK,
    PICK,
    PRODUCE,
    PROPOSE,
    RAISE,
    SELL,
    SHIFT,
    SIMULTANEOUS,
    WILD,
    State,
    give_back_count,
    is_ready,
    phase_key,
    proposer,
    storage_limit,
    tradeable,
)
from games.archive.black_market_v1.shared.kit import OVER

MAX_LIST = 60
PASS = {"type": "pass"}


def _colour_list(v: Any) -> str | None:
    if not isinstance(v, list) or len(v) > MAX_LIST:
        return f"must be a list of at most {MAX_LIST} colour ids"
    if not all(isinstance(x, str) and x in COLOURS for x in v):
        return f"every item must be one of {list(COLOURS)}"
    return None


def _colour(v: Any) -> str | None:
    return None if isinstance(v, str) and v in COLOURS else f"must be one of {list(COLOURS)}"


def _int(v: Any) -> str | None:
    return None if isinstance(v, int) and not isinstance(v, bool) else "must be an integer"


def _offer_id(v: Any) -> str | None:
    ok = isinstance(v, str) and 0 < len(v) <= 40
    return None if ok else "must be an offer id (a string)"


def _bool(v: Any) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _direction(v: Any) -> str | None:
    return None if v in ("up", "down") else 'must be "up" or "down"'


def _vp_map(v: Any) -> str | None:
    if not isinstance(v, dict) or not all(k in COLOURS for k in v):
        return f"must be an object whose keys are among {list(COLOURS)}"
    if not all(_int(n) is None and 0 <= n <= 4 for n in v.values()):
        return "every value must be an integer from 0 to 4"
    return None


SHAPES: dict[str, dict[str, shapes.FieldCheck]] = {
    "produce": {"goods": _colour_list},
    "propose": {"give": _colour_list, "take": _colour_list},
    "pass": {},
    "answer": {"accept": _bool},
    "pick": {"seat": _int},
    "offer": {"to": _int, "give": _colour_list, "take": _colour_list},
    "accept": {"offer": _offer_id},
    "decline": {"offer": _offer_id},
    "withdraw": {"offer": _offer_id},
    "done": {},
    "give_back": {"goods": _colour_list},
    "bid": {"goods": _colour_list},
    "raise": {"colour": _colour},
    "shift": {"colour": _colour, "direction": _direction},
    "sell": {"vp": _vp_map},
    "discard": {"goods": _colour_list},
}
# Action type -> the simultaneous phase it is a submission to.
SUBMITS = {
    "produce": PRODUCE,
    "answer": ANSWER,
    "bid": BID,
    "sell": SELL,
    "give_back": GIVE_BACK,
    "discard": DISCARD,
    "offer": WILD,
    "accept": WILD,
    "decline": WILD,
    "withdraw": WILD,
    "done": WILD,
}
# Turn decision kind -> the action types that answer it.
ANSWERS = {
    "propose": ("propose", "pass"),
    "pick": ("pick",),
    "raise": ("raise", "pass"),
    "shift": ("shift", "pass"),
}
KINDS = {
    PRODUCE: "produce",
    ANSWER: "answer",
    WILD: "trade",
    GIVE_BACK: "give_back",
    BID: "bid",
    SELL: "sell",
    DISCARD: "discard",
}


def parse(action: Any) -> str:
    """Check an action object's shape and return its type; raise InvalidAction if malformed."""
    return shapes.parse(action, SHAPES)


def default(state: State, seat: Seat) -> dict[str, Any]:
    """Return the action a deadline applies for `seat` in the open simultaneous phase."""
    phase = state.phase
    if phase == PRODUCE:
        return {"type": "produce", "goods": []}
    if phase == ANSWER:
        return {"type": "answer", "accept": False}
    if phase == WILD:
        return {"type": "done"}
    if phase == BID:
        return {"type": "bid", "goods": []}
    if phase == GIVE_BACK:
        back = goods.shed(state.production[seat], give_back_count(state, seat))
        return {"type": "give_back", "goods": goods.names(back)}
    if phase == DISCARD:
        over = sum(state.storage[seat]) - storage_limit(state, seat)
        return {"type": "discard", "goods": goods.names(goods.shed(state.storage[seat], over))}
    vp = best_sale(state, seat) if state.final else goods.ZERO
    return {"type": "sell", "vp": goods.to_json(vp, full=True)}


def waiting(state: State) -> list[Seat]:
    """Return the seats the open simultaneous phase still waits for, in seating order."""
    if state.phase == WILD:
        return [s for s in state.order if s not in state.submitted]
    return [s for s in state.order if s in state.expected and s not in state.submitted]


def owed(state: State | None) -> list[Owed]:
    """Return every decision owed now, with its deadline default."""
    if state is None or state.phase == OVER or is_ready(state):
        return []
    key, phase = phase_key(state), state.phase
    if phase in SIMULTANEOUS:
        kind = KINDS[phase]
        return [Owed(s, kind, key, default(state, s), True) for s in waiting(state)]
    seat = proposer(state)
    if phase == PROPOSE and seat is not None and sum(tradeable(state, seat)):
        return [Owed(seat, "propose", key, dict(PASS))]
    if phase == PICK and state.acceptors:
        return [Owed(seat, "pick", key, {"type": "pick", "seat": state.acceptors[0]})]
    if phase in (RAISE, SHIFT) and state.winner is not None:
        return [Owed(state.winner, phase, key, dict(PASS))]
    return []
