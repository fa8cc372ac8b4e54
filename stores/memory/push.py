"""The Web Push port in memory (stores/push.py): records kept as JSON, as Redis keeps
them, so a caller never holds the stored copy."""

from __future__ import annotations

import json
from typing import Any

from stores.records import oldest_first


class MemoryPush:
    def __init__(self) -> None:
        self.records: dict[str, dict[str, str]] = {}  # player -> id -> JSON

    def count(self, player_id: str) -> int:
        return len(self.records.get(player_id, {}))

    def subscriptions(self, player_id: str) -> list[dict[str, Any]]:
        return oldest_first(self.records.get(player_id, {}).values())

    def subscription(self, player_id: str, sub_id: str) -> dict[str, Any] | None:
        raw = self.records.get(player_id, {}).get(sub_id)
        return None if raw is None else json.loads(raw)

    def keep(self, player_id: str, record: dict[str, Any]) -> None:
        self.records.setdefault(player_id, {})[record["id"]] = json.dumps(record)

    def forget(self, player_id: str, sub_id: str) -> bool:
        return self.records.get(player_id, {}).pop(sub_id, None) is not None
