"""The moderation's port (service.moderation): players' reports (newest kept,
REPORTS_KEEP) and which of them operators closed, and what is in force against each
player (`muted`, `banned`: {by, reason, at}). Closing a report is a claim: a report is
closed once, by whoever closed it first."""

from __future__ import annotations

import json
from typing import Any, Protocol

import redis

from events import keys

REPORTS_KEEP = 10_000  # reports kept (approximately, on Redis)
STANDINGS = ("muted", "banned")


class ModerationStore(Protocol):
    def add_report(self, report: dict[str, Any]) -> str:
        """Keep a report; return its id (`<ms>-<n>`, increasing)."""

    def reports(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        """The newest `count` reports, newest first: (id, report)."""

    def has_report(self, report_id: str) -> bool:
        """True if a report with that id is kept."""

    def close_report(self, report_id: str, shut: dict[str, Any]) -> bool:
        """Mark a report closed ({by, note, at}); False if it was closed already."""

    def closed(self) -> dict[str, dict[str, Any]]:
        """Every closed report: {report id: {by, note, at}}."""

    def standing(self, player_id: str) -> dict[str, dict[str, Any]]:
        """What is in force against a player: {"muted"|"banned": said}, only those set."""

    def set_standing(self, player_id: str, what: str, said: dict[str, Any] | None) -> None:
        """Set (`said`) or lift (None) `muted` or `banned` for the player."""


class RedisModeration:
    def __init__(self, client: redis.Redis):
        self.redis = client

    def add_report(self, report: dict[str, Any]) -> str:
        entry = {"r": json.dumps(report)}
        rid = self.redis.xadd(keys.reports(), entry, maxlen=REPORTS_KEEP, approximate=True)
        return rid.decode()

    def reports(self, count: int) -> list[tuple[str, dict[str, Any]]]:
        found = self.redis.xrevrange(keys.reports(), count=count)
        return [(rid.decode(), json.loads(fields[b"r"])) for rid, fields in found]

    def has_report(self, report_id: str) -> bool:
        return bool(self.redis.xrange(keys.reports(), report_id, report_id))

    def close_report(self, report_id: str, shut: dict[str, Any]) -> bool:
        return bool(self.redis.hsetnx(keys.reports_closed(), report_id, json.dumps(shut)))

    def closed(self) -> dict[str, dict[str, Any]]:
        raw = self.redis.hgetall(keys.reports_closed())
        return {k.decode(): json.loads(v) for k, v in raw.items()}

    def standing(self, player_id: str) -> dict[str, dict[str, Any]]:
        raw = self.redis.hgetall(keys.player_moderation(player_id))
        return {k: json.loads(raw[k.encode()]) for k in STANDINGS if k.encode() in raw}

    def set_standing(self, player_id: str, what: str, said: dict[str, Any] | None) -> None:
        if said is None:
            self.redis.hdel(keys.player_moderation(player_id), what)
        else:
            self.redis.hset(keys.player_moderation(player_id), what, json.dumps(said))
