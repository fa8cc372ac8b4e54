"""The lines the operator's log gets for what changed a game or a league beyond ordinary
play (docs/operations.md, "Logs"): every league event (they are the organizer's and the
league rounds' doings: created, members joined or withdrawn, rounds started, games
recorded, pauses, cancellations, and whatever remedies and rulings are added), and a
game's aborts, claims, resignations, cancellations, extended deadlines and its end. Each
line names the game or league, the event, who did it, and the event's data, which for
these events holds no hidden information (hands, bids and offers are never among them)."""

from __future__ import annotations

import logging
from typing import Any

from events import catalog

logger = logging.getLogger("marketfold.events")
GAME_EVENTS = {
    catalog.ABORTED,
    catalog.CLAIMED,
    catalog.SEAT_RESIGNED,
    catalog.CANCELLED,
    catalog.DEADLINE_EXTENDED,
    catalog.ENDED,
}


def appended(kind: str, subject: str, envelopes: list[dict[str, Any]]) -> None:
    """Log the envelopes of one append to the `kind` log ("game", "league") of `subject`."""
    for env in envelopes:
        if kind == "league" or env["type"] in GAME_EVENTS:
            data = env.get("data", {})
            if env["type"] == catalog.ENDED:  # the seed and the standings are in the export
                data = {"reason": (data.get("result") or {}).get("reason")}
            logger.info(
                "%s %s: %s by %s",
                kind,
                subject,
                env["type"],
                env.get("actor"),
                extra={kind: subject, "event": env["type"], "data": data},
            )


def refused(game_id: str, seat: int | None, code: str) -> None:
    """Log an action of a seated player that the server refused (its code, not its body)."""
    logger.info(
        "game %s: seat %s refused %s",
        game_id,
        seat,
        code,
        extra={"game": game_id, "seat": seat, "refused": code},
    )


def leaf_unindexed(game_id: str, kind: str, index: int) -> None:
    """Log an alarm: the public log holds game `game_id`'s `kind` leaf at `index` but its
    index had lost it (someone deleted entries of `mf:{tlog}:ids`); the game is not logged
    again (service.transparency.restore_lost)."""
    logger.error(
        "ALARM game %s: its %s leaf (index %d) was missing from the transparency log's "
        "index; named again from the log, not logged twice",
        game_id,
        kind,
        index,
        extra={"game": game_id, "alarm": "tlog_index_lost", "kind": kind, "index": index},
    )


def leaf_cut(game_id: str, kind: str, index: int) -> None:
    """Log an alarm: the public log's index put game `game_id`'s `kind` leaf at `index`,
    past the log's end (someone cut the log back); the game is not logged again."""
    logger.error(
        "ALARM game %s: its %s leaf (index %d) is gone from the transparency log, which "
        "was cut back; not logged again",
        game_id,
        kind,
        index,
        extra={"game": game_id, "alarm": "tlog_cut", "kind": kind, "index": index},
    )
