"""Tables set up through the use cases on in-memory ports (tests/support/memory_boot.py),
for the unit tests of the lobby, tables, waiting games and computer seats."""

from __future__ import annotations

from typing import Any

from events.record import Record
from service import tables
from service.bootstrap import Bootstrap

ANN = {"id": "p_ann", "name": "Ann"}
BOB = {"id": "p_bob", "name": "Bob"}
CY = {"id": "p_cy", "name": "Cy"}


def table(
    boot: Bootstrap, creator: dict[str, str] = ANN, players: int = 3, **terms: Any
) -> tuple[Record, str | None]:
    """A Goblin Market game created by `creator`, who sits in it."""
    return tables.create(boot, creator, "goblin-market", players, {}, None, {"join": True, **terms})
