"""What a league's organizer does to one of its tables while it runs (for the league's
own rulings and pauses: service.league_followups): a substitute takes a seat, a player is
away for a while, the clock stops and starts again. Each is a command on `service.loop`,
visible to the table in its log.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from events import codec, decide
from service import loop
from service.game_log import GameLog
from service.loop import Outcome

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


def take_seat(boot: Bootstrap, game_id: str, seat: int, player: dict[str, str], by: str) -> Outcome:
    """A substitute (`player`: {id, name}) takes over `seat` of a running game (for its
    league's organizer `by`); the log says from which event the seat's moves are theirs."""
    command = {"type": "substitute", "seat": seat, "player": player["id"], "name": player["name"]}
    command["by"] = by
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.take_seat(rec, seat, player["id"], player["name"], by)),
        cause=f"substitute:{by}",
        command=command,
    )


def away(boot: Bootstrap, game_id: str, seat: int, span: tuple[str, str], by: str) -> Outcome:
    """Log that the seat's player is away over `span` (from, until): their deadlines in it
    move on by its length, visibly to the table."""
    start, end = span
    command = {"type": "away", "seat": seat, "from": start, "until": end, "by": by}
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.away(rec, seat, start, end, by)),
        cause=f"away:{by}",
        idem=f"away:{seat}:{start}",
        command=command,
    )


def pause(boot: Bootstrap, game_id: str, by: str) -> Outcome:
    """Stop the game's clock: no deadline runs and no move is taken until it resumes."""
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.pause(rec, by)),
        cause=f"pause:{by}",
        command={"type": "pause", "by": by},
    )


def resume(boot: Bootstrap, game_id: str, by: str) -> Outcome:
    """Start the game's clock again: each owed decision gets back the time it had left."""
    at = codec.now_iso()
    return loop.run(
        boot,
        GameLog(boot, game_id),
        lambda rec, rng: ("system", decide.resume(rec, by, at)),
        cause=f"resume:{by}",
        command={"type": "resume", "by": by, "at": at},
    )
