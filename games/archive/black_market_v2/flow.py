"""The automatic part of the game: every step the rules take until a player must decide.

A simultaneous phase nobody takes part in (no bidders, no sellers, no choice to make) is
resolved at once by the same function a worker would call.
"""

from __future__ import annotations

from games.base import Event
from games.archive.black_market_v2 import auction, production, selling, trade
from games.archive.black_market_v2.evolve import evolve
from games.archive.black_market_v2.state import (
    ANSWER,
    BID,
    DISCARD,
    FINAL,
    GIVE_BACK,
    NEXT_CARD,
    PRODUCE,
    PROPOSE,
    ROUND,
    SELL,
    SIMULTANEOUS,
    TRADE,
    TRADE_END,
    WILD,
    State,
)
from games.archive.black_market_v2.shared.kit import Step, run_steps

# The simultaneous phases: what closes each once every submission is in.
RESOLVERS: dict[str, Step] = {
    PRODUCE: production.resolve,
    ANSWER: trade.resolve_answers,
    WILD: trade.end_trade,
    GIVE_BACK: auction.open_auction,
    BID: auction.resolve,
    SELL: selling.resolve,
    DISCARD: selling.end_round,
}
# The phases the rules run alone.
AUTOMATIC: dict[str, Step] = {
    ROUND: production.start_round,
    TRADE: trade.start_trade,
    PROPOSE: trade.forced_pass,
    TRADE_END: trade.end_trade,
    NEXT_CARD: selling.next_card,
    FINAL: selling.final_sale,
}


def _when_nobody_waits(resolve: Step) -> Step:
    return lambda state: [] if state.expected else resolve(state)


STEPS: dict[str, Step] = {
    **AUTOMATIC,
    **{phase: _when_nobody_waits(RESOLVERS[phase]) for phase in SIMULTANEOUS},
}


def play(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Apply `events`, then run the rules on their own until a decision is owed or the end."""
    return run_steps(state, events, evolve, STEPS)
