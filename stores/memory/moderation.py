"""The moderation's records in memory: the twin of stores.moderation.RedisModeration
(tests/stores/test_moderation_contract.py runs both). Report ids are `<ms>-<n>` from its
clock (`clock`, seconds, time.time unless given), increasing as a stream's are."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from stores.memory.stream_ids import StreamIds, named
from stores.moderation import REPORTS_KEEP


class MemoryModeration:
    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.ids = StreamIds(clock)
        self.kept: list[tuple[str, dict[str, Any]]] = []
        self.shut: dict[str, dict[str, Any]] = {}
        self.standings: dict[str, dict[str, dict[str, Any]]] = {}

    def add_report(self, report: dict[str, Any]) -> str:
        rid = self.ids.next()
        self.kept.append((rid, dict(report)))
        del self.kept[:-REPORTS_KEEP]
        return rid

    def reports(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        return [(i, dict(r)) for i, r in reversed(self.kept[-count:])] if count > 0 else []

    def has_report(self, report_id: str) -> bool:
        return any(named(i, report_id) for i, _ in self.kept)

    def close_report(self, report_id: str, shut: dict[str, Any]) -> bool:
        if report_id in self.shut:
            return False
        self.shut[report_id] = dict(shut)
        return True

    def closed(self) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in self.shut.items()}

    def standing(self, player_id: str) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in self.standings.get(player_id, {}).items()}

    def set_standing(self, player_id: str, what: str, said: dict[str, Any] | None) -> None:
        held = self.standings.setdefault(player_id, {})
        if said is None:
            held.pop(what, None)
        else:
            held[what] = dict(said)
