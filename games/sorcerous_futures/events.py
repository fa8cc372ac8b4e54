"""Every Sorcerous Futures event: its data fields and, for a secret one, who sees it."""

from __future__ import annotations

from games.catalog import EventCatalog, EventType
from games.sorcerous_futures.state import GAME_ID

SIZE = (("size", "cards"),)
EVENTS = EventCatalog(
    GAME_ID,
    {
        "GameStarted": EventType(("order", "sly_excuse")),
        "ExcusePlaced": EventType(("seat",)),
        "AcesDealt": EventType(("aces",)),
        "CrownsTaken": EventType(("crowns",)),
        "CrownsShuffled": EventType(
            ("seat", "crowns"), secret="nobody", public=("seat",), sizes=(("count", "crowns"),)
        ),
        "CrownsPassed": EventType(
            ("from", "to", "crowns"),
            secret="nobody",
            public=("from", "to"),
            sizes=(("count", "crowns"),),
        ),
        "CrownKept": EventType(("seat", "crown", "random"), secret="its keeper", public=("seat",)),
        "CrownGiven": EventType(
            ("seat", "crown", "random"),
            secret="the Excuse holder and the receiver",
            public=("seat",),
        ),
        "CrownsSetAside": EventType(
            ("seat", "crowns"),
            secret="the Excuse holder (four players), else nobody",
            public=("seat",),
            sizes=(("count", "crowns"),),
        ),
        "DeckShuffled": EventType(("cards",), secret="nobody", sizes=SIZE),
        "ValuationCardsDrawn": EventType(
            ("seat", "cards"),
            secret="the Excuse holder (Sly Excuse)",
            public=("seat",),
            sizes=(("count", "cards"),),
        ),
        "ValuationCardsShuffled": EventType(("cards",), secret="nobody", sizes=SIZE),
        "ValuationDealt": EventType(
            ("under", "card"), secret="the owner of the Ace or the Excuse", public=("under",)
        ),
        "RowDealt": EventType(("group", "cards")),
        "TurnStarted": EventType(("seat", "number")),
        "AuctionStarted": EventType(("seat", "card", "format")),
        "BidPlaced": EventType(("seat", "amount", "opening")),
        "BidPassed": EventType(("seat", "forced")),
        "SealedBidSubmitted": EventType(("seat", "amount"), secret="the bidder", public=("seat",)),
        "SealedBidsRevealed": EventType(("bids",)),
        "AuctionWon": EventType(("seat", "card", "amount", "format")),
        "ExcuseValuationRevealed": EventType(("card",)),
        "ValuationsRevealed": EventType(("valuations",)),
        "CrownsRevealed": EventType(("crowns",)),
        "GameScored": EventType(("scores", "winners")),
    },
)
event = EVENTS.event
