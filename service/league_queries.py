"""What can be read about leagues beyond their own log: the state of their games."""

from __future__ import annotations

from typing import TYPE_CHECKING

from leagues.record import League
from service.league_log import load

if TYPE_CHECKING:
    from service.bootstrap import Bootstrap

__all__ = ["load", "table_statuses"]


def table_statuses(boot: Bootstrap, league: League, number: int) -> dict[str, str]:
    """Return the status of each game of a started round ("opening" before it exists)."""
    out = {}
    for t in league.rounds[number].tables:
        rec = boot.store.load(t.game).record
        out[t.game] = rec.status if rec.version else "opening"
    return out
