"""Tables set up through the use cases on in-memory ports (tests/support/memory_boot.py),
for the unit tests of the lobby, tables, waiting games and computer seats."""

from __future__ import annotations

from typing import Any

from events.record import Record
from service import game_commands, tables
from service.bootstrap import Bootstrap

ANN = {"id": "p_ann", "name": "Ann"}
BOB = {"id": "p_bob", "name": "Bob"}
CY = {"id": "p_cy", "name": "Cy"}


def table(
    boot: Bootstrap,
    creator: dict[str, str] = ANN,
    players: int = 3,
    ruleset: str = "goblin-market",
    options: dict[str, Any] | None = None,
    **terms: Any,
) -> tuple[Record, str | None]:
    """A game (Goblin Market unless `ruleset` says) created by `creator`, who sits in it."""
    table_terms = {"join": True, **terms}
    return tables.create(boot, creator, ruleset, players, options or {}, None, table_terms)


def started(boot: Bootstrap, ruleset: str = "goblin-market", **options: Any) -> Record:
    """A game of three (`ruleset`, with `options`) that Ann created and Bob and Cy
    joined: started."""
    rec, _ = table(boot, ruleset=ruleset, options=options)
    for p in (BOB, CY):
        rec = game_commands.join(boot, rec.game_id, p).record
    return rec


def written(boot: Bootstrap, game_id: str, since: int = 0) -> list[str]:
    """The types of the events the game's log holds after version `since`."""
    return [e["type"] for e in boot.store.read(game_id, since)]
