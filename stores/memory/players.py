"""The players in memory: the twin of stores.players.RedisPlayers (tests/stores/
test_players_contract.py runs both). A new player's first token goes to the tokens'
twin it is given, as the Redis adapter writes both."""

from __future__ import annotations

from stores.memory.tokens import MemoryTokens
from stores.players import FIELDS
from stores.tokens import Issued


class MemoryPlayers:
    def __init__(self, tokens: MemoryTokens) -> None:
        self.tokens = tokens
        self.handles: dict[str, str] = {}  # folded handle -> player id
        self.records: dict[str, dict[str, str]] = {}
        self.finished: dict[str, dict[str, int]] = {}  # player -> ruleset -> games

    def claim_handle(self, folded: str, player_id: str) -> bool:
        if folded in self.handles:
            return False
        self.handles[folded] = player_id
        return True

    def holder(self, folded: str) -> str | None:
        return self.handles.get(folded)

    def free_handle(self, folded: str, player_id: str) -> bool:
        if self.handles.get(folded) != player_id:
            return False
        del self.handles[folded]
        return True

    def create(self, player_id: str, record: dict[str, str], token: Issued) -> None:
        self.records.setdefault(player_id, {}).update(record)
        self.tokens.issue(token)

    def set_handle(self, player_id: str, handle: str) -> str | None:
        record = self.records.setdefault(player_id, {})
        old, record["handle"] = record.get("handle"), handle
        return old

    def record(self, player_id: str) -> dict[str, str | None] | None:
        record = self.records.get(player_id)
        if record is None or "name" not in record:
            return None
        return {f: record.get(f) or None for f in FIELDS}

    def name(self, player_id: str) -> str | None:
        return self.records.get(player_id, {}).get("name")

    def played(self, player_id: str) -> dict[str, int]:
        return dict(self.finished.get(player_id, {}))
