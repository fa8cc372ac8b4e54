"""Every Goblin Market event: its data fields and, for a secret one, who sees it."""

from __future__ import annotations

from games.archive.goblin_market_v1.shared.catalog import EventCatalog, EventType
from games.archive.goblin_market_v1.state import GAME_ID

DECK_SIZES = (("auction_deck_size", "auction_deck"), ("goblin_deck_size", "goblin_deck"))
EVENTS = EventCatalog(
    GAME_ID,
    {
        "GameStarted": EventType(("order", "edition", "courts")),
        "DecksShuffled": EventType(
            ("auction_deck", "goblin_deck"), secret="nobody", sizes=DECK_SIZES
        ),
        "CoinsDealt": EventType(("coins",)),
        "AuctionSizeRevealed": EventType(("card", "size")),
        "FinalAuctionStarted": EventType(("size",)),
        "AuctionCardsRevealed": EventType(("cards", "opener")),
        "BidPlaced": EventType(("seat", "amount")),
        "BidPassed": EventType(("seat", "forced")),
        "AllPassed": EventType(("discarded",)),
        "AuctionWon": EventType(("seat", "amount")),
        "CardsTaken": EventType(("seat", "cards", "paid")),
        "CardsDiscarded": EventType(("cards",)),
        "SisterhoodPaid": EventType(("digit", "payments")),
        "GoblinCardRevealed": EventType(("card",)),
        "GoblinPaid": EventType(("payments",)),
        "GoblinDeckReshuffled": EventType(("order",), secret="nobody", sizes=(("size", "order"),)),
        "GameScored": EventType(("scores", "winners")),
    },
)
event = EVENTS.event
