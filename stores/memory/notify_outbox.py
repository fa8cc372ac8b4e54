"""The notification steps' keeps in memory (stores.notify_outbox.RedisNotifyOutbox's
twin). Steps staged with notes arrive by the follow-up writes (stores.memory.following);
a lease lapses on the process clock; marks and attempts are kept for good (Redis lets
them expire after `keep_s`)."""

from __future__ import annotations

import time
from typing import Any

from events import keys
from stores.memory.following import Command, Following
from stores.notify_outbox import Delivery, Due


class MemoryNotifyOutbox(Following):
    def __init__(self, follow: list[Command] | None = None) -> None:
        super().__init__(follow)
        self._due: dict[bool, dict[str, float]] = {True: {}, False: {}}
        self._leases: dict[tuple[str, ...], float] = {}  # -> held until (epoch s)
        self._ended: dict[tuple[str, ...], str] = {}
        self._tried: dict[Delivery, int] = {}
        self._digest: dict[str, str] = {}
        self._log: dict[str, list[dict[str, Any]]] = {}

    def apply(self, command: Command) -> None:
        for turn in (True, False):
            if command[0] == "ZADD" and command[1] == keys.notify_due(turn):
                self._due[turn][command[3]] = float(command[2])

    def plan(self, steps: list[Due]) -> None:
        self.sync()
        for step in steps:
            due = self._due[step.turn]
            if not (step.only_new and step.member in due):
                due[step.member] = step.when

    def unplan(self, member: str) -> None:
        self.sync()
        self._due[False].pop(member, None)

    def planned(self, member: str) -> float | None:
        self.sync()
        return self._due[True].get(member, self._due[False].get(member))

    def lease(self, delivery: Delivery, hold_s: int) -> bool:
        if self._leases.get(delivery[:3], 0.0) > time.time():
            return False
        self._leases[delivery[:3]] = time.time() + hold_s
        return True

    def attempted(
        self, delivery: Delivery, keep_s: int, ended: str | None, retry: Due | None
    ) -> None:
        self._tried[delivery] = self._tried.get(delivery, 0) + 1
        if ended is not None:
            self._ended[delivery[:3]] = ended
        elif retry is not None:
            self.plan([retry])
        self._leases.pop(delivery[:3], None)

    def ended(self, delivery: Delivery) -> str | None:
        return self._ended.get(delivery[:3])

    def tried(self, delivery: Delivery) -> int:
        return self._tried.get(delivery, 0)

    def digest_mark(self, player_id: str) -> str | None:
        return self._digest.get(player_id)

    def mark_digest(self, player_id: str, feed_id: str) -> None:
        self._digest[player_id] = feed_id

    def log(self, player_id: str, entry: dict[str, Any], keep: int) -> None:
        kept = self._log.setdefault(player_id, [])
        kept.insert(0, dict(entry))
        del kept[keep:]

    def logged(self, player_id: str) -> list[dict[str, Any]]:
        return [dict(e) for e in self._log.get(player_id, [])]
