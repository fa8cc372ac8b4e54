"""Every GobCon event: its data fields and, for a secret one, who sees it."""

from __future__ import annotations

from games.archive.gobcon_v2.shared.catalog import EventCatalog, EventType
from games.archive.gobcon_v2.state import GAME_ID

DECK = (("size", "deck"),)
HAND = EventType(
    ("seat", "cards"), secret="the seat", public=("seat",), sizes=(("count", "cards"),)
)
EVENTS = EventCatalog(
    GAME_ID,
    {
        "GameStarted": EventType(("order", "goal", "time_limit", "end_on_empty_deck", "deck")),
        "DeckShuffled": EventType(("deck",), secret="nobody", sizes=DECK),
        "CardsDealt": HAND,
        "LogorreaPlayed": EventType(("seat", "card", "replaced")),
        "TurnStarted": EventType(("seat", "turn", "round")),
        "ItemLost": EventType(("seat", "card")),
        "LogorreaPassed": EventType(("seat", "to", "card", "replaced")),
        "LogorreaLeft": EventType(("seat", "card", "reason")),
        "DiscardReshuffled": EventType(("deck",), secret="nobody", sizes=DECK),
        "CardsDrawn": HAND,
        "FriendDismissed": EventType(("seat", "card")),
        "CardDiscarded": EventType(("seat", "card")),
        "TurnEnded": EventType(("seat", "discarded")),
        "GameFinished": EventType(("reason", "scores", "winners")),
        "CardPlayed": EventType(("seat", "card", "target", "aim")),
        "TargetChosen": EventType(("seat", "target")),
        "WindowOpened": EventType(("seat", "card", "target", "step", "responders")),
        "ResponseSubmitted": EventType(("seat", "card"), secret="the seat", public=("seat",)),
        "ResponsesRevealed": EventType(()),
        "ResponsePlayed": EventType(("seat", "card", "target", "aim")),
        "ResponseResolved": EventType(("seat", "card", "target")),
        "PlayCancelled": EventType(("seat", "card", "by", "cancel")),
        "WindowClosed": EventType(("cancelled",)),
        "FriendJoined": EventType(("seat", "card", "replaced")),
        "ItemBought": EventType(("seat", "card")),
        "SpecialResolved": EventType(("seat", "card", "target")),
        "BonusMalusCancelled": EventType(("seat", "bonus", "malus")),
        "ProhibitionsLifted": EventType(("seat", "cards")),
        "GameOpened": EventType(("seat", "card", "category", "eligible")),
        "JoinSubmitted": EventType(("seat", "join"), secret="the seat", public=("seat",)),
        "JoinsRevealed": EventType(("joined", "declined", "players")),
        "DieRolled": EventType(
            ("seat", "die", "face", "modifier", "result", "table_gp", "gp", "counters", "notes")
        ),
        "GameClosed": EventType(("seat", "card", "discarded")),
    },
)
event = EVENTS.event
