"""The leagues' index, seat commitments and idempotency results in memory
(stores.leagues.RedisLeagues's twin). The index and the results are written by the
appends: the in-memory recorder lists an append's follow-up writes (`writes`) and keeps
its results, and this twin reads them there, as Redis holds them after the append."""

from __future__ import annotations

from events import keys
from events.memory_recorder import MemoryRecorder
from events.recording import Log, Writes


class MemoryLeagues:
    def __init__(self, recorder: MemoryRecorder) -> None:
        self.recorder = recorder
        self._commitments: dict[tuple[str, str], str] = {}

    def _newest_first(self) -> list[str]:
        index: dict[str, float] = {}
        for command in self.recorder.writes:
            if command[0] == "ZADD" and command[1] == keys.leagues():
                index[command[3]] = float(command[2])
        return [m for m, _ in sorted(index.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]

    def index_new(self, then: Writes, league_id: str, created: float) -> None:
        then.zadd(keys.leagues(), {league_id: created})

    def position(self, league_id: str) -> int | None:
        listed = self._newest_first()
        return listed.index(league_id) if league_id in listed else None

    def newest(self, start: int, count: int) -> list[str]:
        return self._newest_first()[start : start + count]

    def count(self) -> int:
        return len(self._newest_first())

    def answered(self, league_id: str, idem: str) -> str | None:
        return self.recorder.load(Log.league(league_id), idem).result

    def keep_commitment(self, league_id: str, player_id: str, commitment: str) -> None:
        self._commitments[league_id, player_id] = commitment

    def commitment(self, league_id: str, player_id: str) -> str | None:
        return self._commitments.get((league_id, player_id))
