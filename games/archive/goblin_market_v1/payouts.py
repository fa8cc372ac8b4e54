"""Steps D to F after a won auction: hand out the cards, then sisterhood and goblin money."""

from __future__ import annotations

from collections.abc import Iterable

from games.base import Event
from games.archive.goblin_market_v1.shared.decktet import cards
from games.archive.goblin_market_v1.events import event
from games.archive.goblin_market_v1.state import State, goblin_cards, last_bids, owned_by, placed, rank_step
from games.rng import Rng

SISTERHOOD_RATES = (3, 2, 1)  # for the bid's rank, the rank below it, the rank two below


def distribute(state: State) -> list[Event]:
    """Give the cards left on offer to the next placed bidder, or discard them."""
    ranking = placed(state)
    taken = len(state.receivers)
    if taken < len(ranking):
        seat = ranking[taken]
        paid = last_bids(state)[seat]
        return [event("CardsTaken", seat=seat, cards=list(state.offer), paid=paid)]
    return [event("CardsDiscarded", cards=list(state.offer))]


def digit_step(digit: int) -> int:
    """Return the rank step (1..10) a bid's last digit pays out for: 0 means Crowns."""
    return digit or 10


def sisterhood_coins(owned: Iterable[str], digit: int) -> int:
    """Return the sisterhood money earned by cards `owned` for a bid ending in `digit`."""
    top = digit_step(digit)
    rate = {(top - k - 1) % 10 + 1: coins for k, coins in enumerate(SISTERHOOD_RATES)}
    return sum(rate.get(rank_step(card), 0) for card in owned)


def sisterhood(state: State) -> list[Event]:
    """Pay sisterhood money to every seat that got no card in this auction."""
    digit = state.high % 10
    payments = []
    for seat in state.order:
        if seat not in state.receivers:
            coins = sisterhood_coins(owned_by(state, seat), digit)
            if coins:
                payments.append({"seat": seat, "coins": coins})
    return [event("SisterhoodPaid", digit=digit, payments=payments)]


def goblin_coins(owned: Iterable[str], goblin_card: str) -> int:
    """Return one coin per suit of `goblin_card` that none of the cards `owned` shows."""
    table = cards()
    held = {suit for card in owned for suit in table[card].suits}
    return sum(1 for suit in table[goblin_card].suits if suit not in held)


def goblin(state: State, rng: Rng) -> list[Event]:
    """Reveal the top goblin card, pay everyone, and reshuffle an emptied Goblin Deck."""
    card = state.goblin_deck[0]
    payments = []
    for seat in state.order:
        coins = goblin_coins(owned_by(state, seat), card)
        if coins:
            payments.append({"seat": seat, "coins": coins})
    out = [event("GoblinCardRevealed", card=card), event("GoblinPaid", payments=payments)]
    if len(state.goblin_deck) == 1 and state.auction_deck:
        fresh = rng.shuffle(goblin_cards(state.courts))
        out.append(event("GoblinDeckReshuffled", visible_to=(), order=fresh))
    return out
