"""What a seat may do now: one JSON Schema per action type, and every choice when few."""

from __future__ import annotations

from games.base import ActionSpec, Seat
from games.archive.goblin_market_v2.actions import owed
from games.archive.goblin_market_v2.state import State, coins_of
from games.archive.goblin_market_v2.shared.kit import amount, due, pick, plain


def legal(state: State, seat: Seat) -> list[ActionSpec]:
    """Return the actions `seat` may take now (empty when it owes nothing)."""
    decision = due(owed(state), seat)
    if decision is None:
        return []
    if decision.kind == "bid":
        return [amount("bid", state.high + 1, coins_of(state, seat)), plain("pass")]
    if decision.kind == "split_choice":
        return [plain("take_all"), *pick("take_one", "card", list(state.offer))]
    return pick("choose", "card", list(state.offer))
