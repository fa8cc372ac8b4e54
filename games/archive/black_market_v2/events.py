"""Every Black Market event: its data fields and, for a secret one, who sees it."""

from __future__ import annotations

from games.archive.black_market_v2.state import GAME_ID
from games.archive.black_market_v2.shared.catalog import EventCatalog, EventType


def sealed(*fields: str) -> EventType:
    """Declare a secret submission to a simultaneous phase: others learn only who sent it."""
    return EventType(("seat", *fields), secret="the submitting seat", public=("seat",))


def offer(*fields: str) -> EventType:
    """Declare a private wild-trade offer event: only its two parties see it; the others
    do not learn that it happened, nor between whom."""
    return EventType(("id", "from", "to", *fields), secret="the offer's two parties", private=True)


EVENTS = EventCatalog(
    GAME_ID,
    {
        "GameStarted": EventType(("order", "trade", "supply")),
        "ExchangeValuesDrawn": EventType(("draw", "rows")),
        "VictoryValuesDrawn": EventType(("draw", "steps")),
        "DeckShuffled": EventType(("order",), secret="nobody", sizes=(("size", "order"),)),
        "GoodsDealt": EventType(("supply", "storage")),
        "CardRevealed": EventType(("card",)),
        "ExchangeValueMoved": EventType(("colour", "by", "row", "reason", "seat")),
        "RoundStarted": EventType(("round",)),
        "GoodsOffered": EventType(("offer",)),
        "ProductionSealed": sealed("goods"),
        "ProductionRevealed": EventType(("production",)),
        "SupplyExhausted": EventType(("colours", "demand", "available")),
        "OfferReturned": EventType(("offer",)),
        "GoodsProduced": EventType(("colour", "seats", "from_offer", "from_supply", "left")),
        "LowestValueRaised": EventType(("colours", "steps")),
        "GameEndTriggered": EventType(("reason", "colours")),
        "TradeStarted": EventType(("mode", "starter", "turns")),
        "ProposalPassed": EventType(("seat", "forced")),
        "DealProposed": EventType(("seat", "give", "take", "answerers")),
        "AnswerSealed": sealed("accept"),
        "AnswersRevealed": EventType(("answers", "acceptors")),
        "DealRefused": EventType(("seat",)),
        "DealMade": EventType(("proposer", "partner", "give", "take", "legs", "mode")),
        "OfferMade": offer("count", "give", "take"),
        "OfferWithdrawn": offer(),
        "OfferDeclined": offer(),
        "DoneDeclared": EventType(("seat",)),
        "TradeEnded": EventType(("round",)),
        "GoodsGivenBack": EventType(("seat", "goods", "forced")),
        "GiveBackOpened": EventType(("seats",)),
        "AuctionOpened": EventType(("card", "bidders")),
        "BidSealed": sealed("goods"),
        "BidsRevealed": EventType(("card", "bids")),
        "AuctionWon": EventType(("seat", "card", "colour", "count", "by")),
        "CardRemoved": EventType(("card", "reason", "seats")),
        "VictoryValueRaised": EventType(("seat", "colour", "by", "step")),
        "RaiseDeclined": EventType(("seat",)),
        "ShiftDeclined": EventType(("seat",)),
        "SaleOpened": EventType(("final", "sellers")),
        "SaleSealed": sealed("vp"),
        "SalesRevealed": EventType(("sales",)),
        "GoodsSold": EventType(("seat", "vp", "cubes")),
        "GoodsDiscarded": EventType(("seat", "goods", "forced")),
        "DiscardOpened": EventType(("seats",)),
        "RoundEnded": EventType(("round",)),
        "GameScored": EventType(("scores", "winners", "reason")),
    },
)
event = EVENTS.event
