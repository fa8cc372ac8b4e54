"""The webhooks port in memory (stores/webhooks.py): records kept as JSON, as Redis keeps
them, so a caller never holds the stored copy."""

from __future__ import annotations

import json
from typing import Any

from stores.records import oldest_first


class MemoryWebhooks:
    def __init__(self) -> None:
        self.records: dict[str, dict[str, str]] = {}  # player -> id -> JSON
        self.runs: dict[str, dict[str, int]] = {}  # player -> id -> failures in a row
        self.logs: dict[str, list[str]] = {}  # webhook -> JSON entries, newest first

    def count(self, player_id: str) -> int:
        return len(self.records.get(player_id, {}))

    def endpoints(self, player_id: str) -> list[dict[str, Any]]:
        return oldest_first(self.records.get(player_id, {}).values())

    def endpoint(self, player_id: str, webhook_id: str) -> dict[str, Any] | None:
        raw = self.records.get(player_id, {}).get(webhook_id)
        return None if raw is None else json.loads(raw)

    def keep(self, player_id: str, record: dict[str, Any], clear_failures: bool = False) -> None:
        self.records.setdefault(player_id, {})[record["id"]] = json.dumps(record)
        if clear_failures:
            self.clear_failures(player_id, record["id"])

    def forget(self, player_id: str, webhook_id: str) -> None:
        self.records.get(player_id, {}).pop(webhook_id, None)
        self.clear_failures(player_id, webhook_id)
        self.logs.pop(webhook_id, None)

    def failures(self, player_id: str) -> dict[str, int]:
        return dict(self.runs.get(player_id, {}))

    def count_failure(self, player_id: str, webhook_id: str) -> int:
        runs = self.runs.setdefault(player_id, {})
        runs[webhook_id] = runs.get(webhook_id, 0) + 1
        return runs[webhook_id]

    def clear_failures(self, player_id: str, webhook_id: str) -> None:
        self.runs.get(player_id, {}).pop(webhook_id, None)

    def log_delivery(self, webhook_id: str, entry: dict[str, Any], kept: int) -> None:
        log = self.logs.setdefault(webhook_id, [])
        log.insert(0, json.dumps(entry))
        del log[kept:]

    def deliveries(self, webhook_id: str, limit: int) -> list[dict[str, Any]]:
        return [json.loads(e) for e in self.logs.get(webhook_id, [])[:limit]]
