"""The bearer tokens in memory: the twin of stores.tokens.RedisTokens (tests/stores/
test_tokens_contract.py runs both)."""

from __future__ import annotations

from stores.tokens import Issued, Listed


class MemoryTokens:
    def __init__(self) -> None:
        self.records: dict[str, bytes] = {}  # digest -> record as stored
        self.lists: dict[str, dict[str, tuple[str, str]]] = {}  # player -> id -> created, digest
        self.used: dict[str, dict[str, str]] = {}  # player -> token id -> when

    def issue(self, token: Issued) -> None:
        self.records[token.digest] = token.record.encode()
        listed = self.lists.setdefault(token.player_id, {})
        listed[token.token_id] = (token.created, token.digest)

    def count(self, player_id: str) -> int:
        return len(self.lists.get(player_id, {}))

    def record(self, digest: str) -> bytes | None:
        return self.records.get(digest)

    def replace(self, digest: str, record: str) -> bool:
        if digest not in self.records:
            return False
        self.records[digest] = record.encode()
        return True

    def record_use(
        self,
        digest: str,
        record: str,
        player_id: str,
        token_id: str,
        at: str,
        listed: str | None = None,
    ) -> None:
        if listed is not None:
            self.lists.setdefault(player_id, {}).setdefault(token_id, (listed, digest))
        self.replace(digest, record)
        self.used.setdefault(player_id, {})[token_id] = at

    def listed(self, player_id: str) -> list[Listed]:
        used = self.used.get(player_id, {})
        return [
            Listed(token_id, created, used.get(token_id))
            for token_id, (created, _) in self.lists.get(player_id, {}).items()
        ]

    def digest_of(self, player_id: str, token_id: str) -> str | None:
        entry = self.lists.get(player_id, {}).get(token_id)
        return entry[1] if entry else None

    def digests(self, player_id: str) -> list[str]:
        return [digest for _, digest in self.lists.get(player_id, {}).values()]

    def revoke(self, player_id: str, token_id: str, digest: str) -> None:
        self.records.pop(digest, None)
        self.lists.get(player_id, {}).pop(token_id, None)
        self.used.get(player_id, {}).pop(token_id, None)
