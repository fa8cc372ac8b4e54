"""The players in memory: the twin of stores.players.RedisPlayers (tests/stores/
test_players_contract.py runs both). A new player's first token goes to the tokens'
twin it is given, as the Redis adapter writes both. The games a player finished are
counted by the appends' follow-up writes (service.inbox, `HINCRBY` of
`mf:player:<id>:played`), which this twin follows (stores.memory.following)."""

from __future__ import annotations

from events import keys
from stores.memory.following import Command, Following
from stores.memory.tokens import MemoryTokens
from stores.players import FIELDS
from stores.tokens import Issued


class MemoryPlayers(Following):
    def __init__(self, tokens: MemoryTokens, follow: list[Command] | None = None) -> None:
        """`follow`: the appends' follow-up writes (the recorder's), for `played`."""
        super().__init__(follow)
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

    def apply(self, command: Command) -> None:
        head, tail = keys.player_played("\0").split("\0")  # around the player's id
        key = command[1]
        if command[0] == "HINCRBY" and key.startswith(head) and key.endswith(tail):
            player_id = key[len(head) : -len(tail)]
            counts = self.finished.setdefault(player_id, {})
            counts[command[2]] = counts.get(command[2], 0) + int(command[3])

    def played(self, player_id: str) -> dict[str, int]:
        self.sync()
        return dict(self.finished.get(player_id, {}))
