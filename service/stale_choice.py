"""A stale choice in a simultaneous phase: told apart from a choice that was never legal.

A submission to a simultaneous phase may carry an older `If-Match` (the version its
sender read `legal` at) while the phase is still open (service.game_commands.act). Other
seats' moves since then can take the choice away (a Black Market offer withdrawn before
its partner accepts or declines it, a private step that leaves the public version as it
was). When the rules refuse a submission sent with `If-Match`, `refine` decides it again
on the game as its sender read it: if it was allowed then, the refusal becomes 409
`choice_stale` (choose again among the actions the answer lists), its detail naming the
rules' own code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from events import decide
from events.fold import fold_all, in_order
from events.record import Record
from games.base import RuleViolation
from games.rng import Rng

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap


class ChoiceStale(RuleViolation):
    """The choice was legal at the version its sender read, and another seat's move since
    took it away."""

    def __init__(self, refused: RuleViolation, read: int):
        super().__init__(
            f"{refused.code}: {refused} (it was allowed at version {read}, which you read; "
            "another seat has moved since: choose again among the actions listed)",
            code="choice_stale",
        )


def refine(
    boot: Bootstrap,
    rec: Record,
    player_id: str,
    action: dict[str, Any],
    read: int | None,
    refused: RuleViolation,
) -> RuleViolation:
    """Return the refusal to answer: ChoiceStale if `action` was allowed when its sender
    read the game at version `read` (its `If-Match`) and no longer is, else `refused`.

    "When it read" is the game at version `read` if the public log moved since; in a game
    with a private log (docs/architecture.md, "Private steps") whose public version has
    not moved, the game right before its newest private step."""
    if read is None or not 0 < read <= rec.version or refused.code == "deadline_passed":
        return refused
    public = boot.store.read(rec.game_id, 0, read)
    steps = [e for e in boot.store.read_private(rec.game_id, 0, rec.private) if e["seq"] <= read]
    if read < rec.version:
        before = in_order(public, steps) if steps else public
    elif steps:
        before = in_order(public, steps[:-1])
    else:
        return refused  # nothing moved since the version read: the rules' answer stands
    then = fold_all(Record(rec.game_id), before)
    try:
        decide.act(then, player_id, action, Rng(b"", then.draws))
    except Exception:  # refused then too (or not decidable there): the rules' answer stands
        return refused
    return ChoiceStale(refused, read)
